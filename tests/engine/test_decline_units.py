"""Decline units (decline_units.py): a question nearer another body's subject than any answer unit is
declined there; the same subject asked as a New Zealand tax question keeps its answer. The questions
here are written for the mechanism in words none of the decline units uses."""

from __future__ import annotations

import numpy as np
import pytest

from nztax.decision_rows import table
from nztax.decline_units import ROW, DeclineUnits


def _units():
    # Two decline wordings on the axes x and y; answer units are compared through `unit_cosines`.
    return DeclineUnits([("employment_law", "x"), ("tax_procedure", "y")], np.eye(2, dtype=np.float32))


@pytest.mark.parametrize("vector, nearest_unit, subject", [
    ((0.9, 0.1), 0.5, "employment_law"),   # near a decline wording, well clear of every answer unit
    ((0.1, 0.8), 0.7, "tax_procedure"),    # 0.1 clear of the nearest answer unit
    ((0.1, 0.8), 0.78, None),              # 0.02 clear: under the margin
    ((0.9, 0.1), 0.88, None),              # an answer unit as near: the unit's question, not the other body's
    ((0.5, 0.1), 0.2, None),               # clear of the units but near no decline wording
])
def test_a_decline_unit_needs_its_score_and_a_lead_over_every_answer_unit(vector, nearest_unit, subject):
    found = _units().read([("q", np.array(vector, dtype=np.float32))], lambda v: np.array([nearest_unit]),
                          score=0.55, margin=0.05)
    assert (found.subject if found else None) == subject


def test_the_asking_sentence_that_leads_most_is_the_reading():
    texts = [("first", np.array((0.6, 0.0), dtype=np.float32)), ("second", np.array((0.0, 0.9), dtype=np.float32))]
    found = _units().read(texts, lambda v: np.array([0.4]), score=0.55, margin=0.05)
    assert found.subject == "tax_procedure" and found.text == "second"


@pytest.mark.parametrize("asked_unit, declined", [
    (0.3, True),    # the asking sentence names nothing a unit answers: the story names the subject
    (0.7, False),   # the asking sentence reads as an answer unit's question: a tax question in a story
])
def test_the_whole_post_is_read_only_when_no_asking_sentence_reads_as_a_unit(asked_unit, declined):
    asked = np.array((0.2, 0.0), dtype=np.float32)
    whole = ("whole", np.array((0.9, 0.0), dtype=np.float32))
    found = _units().read([("asked", asked)], lambda v: np.array([asked_unit if v is asked else 0.4]),
                          score=0.55, margin=0.05, whole=whole)
    assert (found is not None and found.text == "whole") is declined


@pytest.mark.parametrize("nearest_unit, declined", [(0.8, True), (0.86, False)])
def test_a_story_read_whole_needs_twice_the_margin(nearest_unit, declined):
    # 0.06 ahead of the nearest answer unit: enough for an asking sentence, not for a whole story.
    whole = ("whole", np.array((0.92, 0.0), dtype=np.float32))
    found = _units().read([("asked", np.array((0.1, 0.0), dtype=np.float32))],
                          lambda v: np.array([0.3 if v[0] < 0.5 else nearest_unit]), score=0.55, margin=0.05, whole=whole)
    assert (found is not None) is declined


@pytest.mark.parametrize("unplaced, subject_is_another_systems, declined", [
    (True, True, True),     # another system's concept, the post naming nothing of New Zealand's: a lead is enough
    (False, True, False),   # the post placed in New Zealand's system: the margin
    (True, False, False),   # another body's subject that is not another tax system's: the margin
])
def test_another_systems_concept_in_a_post_placed_nowhere_in_new_zealand_needs_only_to_lead(
        unplaced, subject_is_another_systems, declined):
    units = DeclineUnits([("foreign_tax" if subject_is_another_systems else "employment_law", "x")],
                         np.eye(1, dtype=np.float32), frozenset({"foreign_tax"}))
    # 0.02 ahead of the nearest answer unit: under the margin, but nearer.
    found = units.read([("asked", np.array((0.7,), dtype=np.float32))], lambda v: np.array([0.68]),
                       score=0.55, margin=0.05, unplaced=unplaced)
    assert (found is not None) is declined


@pytest.mark.parametrize("unplaced, whole_lead, declined", [
    (True, 0.02, True),     # placed nowhere in New Zealand: the telling's concept decides, a lead is enough
    (True, -0.02, False),   # ... but it must lead the nearest answer unit
    (False, 0.12, False),   # placed in New Zealand's system: its asking sentence's unit keeps the post
])
def test_a_post_placed_nowhere_in_new_zealand_is_read_whole_as_another_systems_concept(unplaced, whole_lead, declined):
    # The asking sentence reads as an answer unit's question (0.7, nearer than any decline wording), which
    # keeps a story from being read whole; the whole post is 0.8 near another system's concept.
    units = DeclineUnits([("foreign_tax", "x")], np.eye(1, dtype=np.float32), frozenset({"foreign_tax"}))
    asked, whole = np.array((0.3,), dtype=np.float32), ("whole", np.array((0.8,), dtype=np.float32))
    found = units.read([("asked", asked)], lambda v: np.array([0.7 if v is asked else 0.8 - whole_lead]),
                       score=0.55, margin=0.05, whole=whole, unplaced=unplaced)
    assert (found is not None and found.text == "whole") is declined


def test_a_concept_no_nearer_than_a_unit_is_never_declined_however_placed():
    units = DeclineUnits([("foreign_tax", "x")], np.eye(1, dtype=np.float32), frozenset({"foreign_tax"}))
    found = units.read([("asked", np.array((0.7,), dtype=np.float32))], lambda v: np.array([0.7]),
                       score=0.55, margin=0.05, unplaced=True)
    assert found is None


def test_every_subject_in_the_data_has_somewhere_to_go():
    from nztax.decline_units import DATA_FILE
    from nztax.yaml_data import load_yaml

    data = load_yaml(DATA_FILE.read_text(encoding="utf-8"))
    subjects = data["subjects"]
    assert set(subjects) <= set(table().scopes) and all(subjects.values())
    assert set(data.get("another_system") or ()) <= set(subjects)


@pytest.mark.parametrize("question, subject", [
    ("Inland Revenue wants to audit my last three returns. Do I have to let them into my house, and what are my rights?",
     "tax_procedure"),
    ("My old boss still hasn't given me my last payslip or paid out my leave. Who can help me get it?", "employment_law"),
    ("Inland Revenue has opened an investigation into my business. Can they turn up at my office?", "tax_procedure"),
    ("My employer never gave me payslips. How can I check how much PAYE was taken from my wages last year?", None),
    # The same subjects asked as New Zealand tax questions: answered.
    ("Can I claim the cost of a tax agent in my return?", None),
    ("My employer paid out my annual leave when I left. Why was so much tax taken off?", None),
    ("Is ACC weekly compensation taxable?", None),
    ("Do I pay tax on my main home when I sell it?", None),
    # Another system's filing status: declined; whether a couple files together in New Zealand: answered.
    ("Which filing status should I use this year, single or head of household?", "foreign_tax"),
    ("Can a widow with two kids use head of household status on her return?", "foreign_tax"),
    ("Can my husband and I file one joint tax return so my low income balances his?", None),
])
def test_family_another_bodys_subject_declined_there_its_tax_answered(engine, question, subject):
    _declined_there_or_answered(engine, question, subject)


def _declined_there_or_answered(engine, question, subject):
    """`subject`: the decline unit's subject the question is declined to, with its where-to-go; None: answered."""
    result = engine.answer(question)
    rows = (result.trace or {}).get("rows", [])
    if subject is None:
        assert ROW not in rows and result.status != "out_of_scope", result.answer
    else:
        assert ROW in rows and result.status == "out_of_scope", result.trace
        assert table().scopes[subject]["where"] in result.answer


# Another country's concept told in a story whose asking sentence is any tax question ("is it taxable?"):
# placed nowhere in New Zealand's system, the whole telling decides; told in New Zealand, the same story is
# answered. Each in a quick forum register and a letter's. (Written for the mechanism; at the branch's start
# every "foreign_tax" line was answered from a New Zealand page.)
STORIES = [
    ("hurt my back on site and been on workers' compensation for six weeks. it pays two thirds of my wage, no tax "
     "withheld. do i have to pay tax on it when i file?", "foreign_tax"),
    ("Dear Sir or Madam, Since an injury at work in the spring I have been receiving workers' compensation of two "
     "thirds of my usual wage, and no tax is being withheld from it. When I file my return, shall I have to pay tax on "
     "these payments?", "foreign_tax"),
    ("got transferred by my employer so we had to sell the house after only 18 months. heard there's a partial "
     "exclusion of the gain when you move for work. do we pay tax on the profit?", "foreign_tax"),
    ("My employer relocated me, so we sold our home after only eighteen months of ownership. I understand a partial "
     "exclusion of the gain may apply to a move for work. Is the profit on the sale taxable?", "foreign_tax"),
    ("hurt my back on site and been on ACC weekly compensation for six weeks. it pays 80% of my wage and i'm in New "
     "Zealand. do i have to pay tax on it?", None),
    ("Dear Sir or Madam, Since an injury at work I have been receiving ACC weekly compensation of eighty per cent of "
     "my usual wage here in New Zealand. Is this compensation taxable income?", None),
    ("got transferred by my employer from Auckland to Wellington so we had to sell the house after only 18 months. "
     "do we pay tax on the profit under the bright-line test?", None),
    ("My employer relocated me from Auckland to Wellington, so we sold our home after only eighteen months of "
     "ownership. Is the profit on the sale taxable under New Zealand's bright-line test?", None),
]


@pytest.mark.parametrize("question, subject", STORIES)
def test_family_another_systems_story_declined_the_same_story_in_new_zealand_answered(engine, question, subject):
    _declined_there_or_answered(engine, question, subject)
