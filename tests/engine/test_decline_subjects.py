"""Declines to the subject asked about: an employment obligation asked goes to employment law whatever
the story's tax words, a decline names where to go for its likeliest subject, and a body named in the
asking sentence (ACC, Work and Income) decides where a decline points. Made-up wordings throughout."""

from __future__ import annotations

import pytest

from nztax.decision_rows import table
from nztax.decision_table import Facts, asks_employment_obligation, named_subject


@pytest.mark.parametrize("asking, obligation", [
    ("Does my employer have to pay me for the public holiday I worked?", True),
    ("Can my boss legally take the cost of a broken till out of my wages?", True),
    ("Is the employer allowed to recoup an overpayment from her final pay?", True),
    ("Does my employer have to take PAYE off my bonus?", False),                      # a tax asked
    ("Is my employer required to keep contributing while I'm away?", False),          # KiwiSaver's contributions
    ("Does my employer have to tell IRD when I leave?", False),                       # Inland Revenue's side
    ("Must I file a tax return for my weekend job?", False),                          # no party to a job, a tax asked
    ("Is it legal for me to rent out a room in my flat?", False),                     # no party to a job
])
def test_an_employment_obligation_is_read_only_when_no_tax_is_asked(asking, obligation):
    assert asks_employment_obligation((asking,)) is obligation


STORY = "I work full time and my employer pays me a $600 bonus every quarter on top of my salary. "


@pytest.mark.parametrize("asked, declined", [
    ("How is the bonus taxed?", False),
    ("Does my employer have to take tax off it?", False),
    ("Must my employer keep paying it if I go part time?", True),
    ("Is my boss allowed to stop paying it without telling me?", True),
])
def test_family_the_same_employer_story_asking_a_tax_or_an_obligation(engine, asked, declined):
    decision, _ = engine.understand(STORY + asked, None, None)
    assert (decision.action == "decline") is declined, decision.trace.to_json()
    if declined:
        assert decision.decline_to == table().scopes["employment_law"]


def test_a_decline_points_to_the_body_its_asking_sentence_names(engine):
    decision, _ = engine.understand(
        "I tore a ligament playing netball and was off work for a month. ACC paid most of my wages. When I go back "
        "on half hours, will ACC make up the rest of my normal pay?", None, None)
    assert decision.action == "decline" and decision.decline_to == table().scopes["acc_cover"], decision.trace.to_json()


@pytest.mark.parametrize("asking, subject", [
    ("Will ACC top up my wages while I'm on light duties?", "acc_cover"),
    ("How much will Work and Income cut my benefit by?", "benefit_rules"),
    ("How much ACC earners' levy comes off my pay?", None),      # the levy is a tax, not ACC's cover
    ("How much tax will I pay on $60,000?", None),
])
def test_the_body_named_in_an_asking_sentence(asking, subject):
    assert named_subject((asking,), table().scopes) == subject


def _declined_facts(scope_in_high: bool, scope_major: bool) -> Facts:
    """A one-line question the intent reading declines as not tax, its scope read as another subject not surely."""
    return Facts(proposed="decline", declined_as="not_tax", intent_sure=True, scope="financial_advice",
                 scope_sure=False, scope_firm=False, scope_out_sure=False, scope_out_firm=False,
                 scope_in_high=scope_in_high, inputs_sure=True, inputs_certain=True, recoverable=False, stated=False,
                 asks=("which",), answers_ask=False, asks_figure=False, story=False, lead_fits=True,
                 rule_worked=False, several_figures=False, kept=(), scope_major=scope_major)


@pytest.mark.parametrize("scope_in_high, scope_major, row_id", [
    (False, True, "declined_to_the_likeliest_subject"),  # another subject likelier than the rest: where to go
    (True, True, "decline_stands"),                      # tax likely enough: the plain decline, no subject guessed
    (False, False, "decline_stands"),                    # no subject likelier than the rest (one the classes lack)
])
def test_a_decline_as_not_tax_names_its_likeliest_subject_only_when_tax_is_unlikely(scope_in_high, scope_major, row_id):
    facts = _declined_facts(scope_in_high, scope_major)
    assert next(r for r in table().rows if facts.holds(r.when)).id == row_id
