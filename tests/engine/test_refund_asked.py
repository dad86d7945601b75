"""A refund (or a bill) asked beside the year's income and the tax taken off it is worked out by the
year-end square-up on those figures (issue 36: "how much will I get back"), whoever's they are and
however the asking sentence says it; without the tax taken the sum is not certain and is not worked.

Golden figures, hand-worked from nz_tax_facts.md (2026-27: bands s1, earners' levy 1.75% s2; the IETC
s4 is nil under $24,000 and over $70,000). The square-up compares the income tax due with the PAYE
taken less the levy it holds:
- $20,000, $3,000 taken: levy 350, so 2,650 of income tax taken; due 15,600 x 10.5% + 4,400 x 17.5% =
  1,638 + 770 = 2,408; refund 242.
- $80,000, $18,500 taken: levy 1,400, so 17,100; due 80,000 x 33% - 10,122.50 = 16,277.50; refund 822.50.
- $80,000, $17,000 taken: 15,600 against 16,277.50; tax to pay 677.50.
"""

from __future__ import annotations

import pytest

ASKED = ["How much will I get back?", "How much tax will I get back?", "What refund should I get?",
         "Will I get a refund, and how much?", "Why am I getting a refund?"]
BACKGROUND = ("I moved here two years ago and work in a warehouse. I don't really understand how the tax system "
              "works here compared with home. My friends all say they got money back. ")
STORIES = [("I earned $20,000 this tax year and had $3,000 of PAYE taken off.", "refund of $242**"),
           ("My salary this year was $80,000 and my employer deducted $18,500 in PAYE.", "refund of $822.50**"),
           ("I earned $80,000 this tax year and my payslips show $17,000 of PAYE deducted.", "$677.50 of tax to pay**")]


def _first(engine, question) -> str:
    return engine.answer(question, use_faq=False, mode="offline").to_json()["answer"].split("\n\n")[0]


@pytest.mark.parametrize("story,figure", STORIES)
@pytest.mark.parametrize("asked", ASKED)
def test_family_the_refund_asked_on_the_years_income_and_tax_taken_is_squared_up(engine, story, figure, asked):
    first = _first(engine, f"{story} {asked}")
    assert figure in first, first[:300]


@pytest.mark.parametrize("story,figure", STORIES[:2])
@pytest.mark.parametrize("asked", ["How much will I get back?",
                                   # (a why pointing back to the sentence that names the refund)
                                   "My assessment says I get money back. Why is that?"])
def test_the_asking_sentence_at_the_end_of_a_long_post_is_squared_up_alike(engine, story, figure, asked):
    first = _first(engine, f"{BACKGROUND}{story} I have no other income. {asked}")
    assert figure in first, first[:300]


@pytest.mark.parametrize("person,pronoun", [("My daughter", "she"), ("My husband", "he")])
def test_someone_elses_refund_is_worked_for_them_not_said_to_be_the_posters(engine, person, pronoun):
    answer = engine.answer(f"{person} earned $20,000 this tax year and had $3,000 of PAYE taken off. "
                           f"How much will {pronoun} get back?", use_faq=False, mode="offline").to_json()["answer"]
    first = answer.split("\n\n")[0]
    assert "refund of $242**" in first and not first.startswith("You "), first[:300]
    assert "Your main job" not in answer, answer


@pytest.mark.parametrize("question", [
    # no tax taken stated: what was taken decides the refund
    "I earned $20,000 this tax year. How much will I get back?",
    # tax taken per pay beside a year's income: which pays, and how many, is not certain
    "I earned $20,000 this tax year and $120 of PAYE came off each fortnight. How much will I get back?",
])
def test_no_refund_is_worked_without_the_years_tax_taken(engine, question):
    out = engine.answer(question, use_faq=False, mode="offline").to_json()
    assert "calculate_year_end_square_up" not in {t["name"] for t in out["tools"]}


# The tax taken said with a helper verb ("was taken off", "were deducted") is tax taken, as "taken off"
# alone is; "was due" or "was owing" after a tax still names a tax figure, not tax taken.
@pytest.mark.parametrize("story,figure", [
    ("I earned $20,000 this tax year and $3,000 of tax was taken off.", "refund of $242**"),
    ("My salary this year was $80,000 and $18,500 of PAYE was deducted.", "refund of $822.50**"),
    ("I earned $80,000 this tax year and $17,000 in tax was withheld by my employer.", "$677.50 of tax to pay**")])
def test_tax_said_to_have_been_taken_is_tax_taken(engine, story, figure):
    assert figure in _first(engine, f"{story} How much will I get back?")


def test_a_year_told_in_the_background_does_not_move_the_year_asked(engine):
    # "last year" dates the move, "this tax year" the figures: 2026-27's refund, not 2025-26's.
    story = "I moved here last year and work in a warehouse. " + STORIES[0][0]
    assert STORIES[0][1] in _first(engine, f"{story} How much will I get back?")


def test_a_tax_said_due_is_still_a_tax_figure():
    from nztax.amount_grammar import TAX_SAID_TAKEN

    assert TAX_SAID_TAKEN.match(" of tax was taken off") and TAX_SAID_TAKEN.match(" tax were deducted")
    for figure in (" of tax was due", " tax was owing", " tax was", " of tax is on my bill"):
        assert not TAX_SAID_TAKEN.match(figure), figure
