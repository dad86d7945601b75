"""A post that sets out its own understanding of a rule and asks only whether it holds is answered by
the unit that confirms or corrects that rule (belief.py), its verdict word dropped; a post asking for
something else keeps its own answer, and a belief on nothing the units know gets none.

All wording below is made up for the tests: the same kind of stated belief on different topics."""

from __future__ import annotations

import pytest

from nztax import belief, unit_choice


def served(engine, text: str):
    decision, vector = engine.understand(text, None, None)
    unit, _ = unit_choice.choose(engine, decision, engine.read_frame(decision), vector, False)
    return unit


def test_the_belief_runs_from_its_cue_to_the_asking_sentence():
    post = ("Shares question. My understanding is that dividends are taxed twice. "
            "The company pays tax first. Then I pay again. Then more. Is that right?")
    assert belief.stated(post, ["Is that right?"]) == (
        "My understanding is that dividends are taxed twice. The company pays tax first. Then I pay again.")
    assert belief.stated("We moved house. Is that right?", ["Is that right?"]) is None
    assert belief.stated("Secondary tax is unfair to people with two jobs. Why?", ["Why?"]).startswith("Secondary tax")


def test_a_heading_alone_is_no_belief():
    assert belief.stated("My understanding: Is that right?", ["Is that right?"]) is None


def test_the_verdict_word_is_dropped_the_rule_kept(engine):
    unit = next(u for u in engine.unit_matcher.units if (u.lead or "").startswith("No. "))
    assert belief.without_verdict(unit).lead == unit.lead[4:5].upper() + unit.lead[5:]


@pytest.mark.parametrize("post, unit", [
    ("Overseas shares question. My understanding is that once my overseas shares cost more than the threshold, "
     "I pay income tax on 5% of the portfolio's opening value every year. I hold an S&P 500 ETF. Is that right?",
     "overseas-shares-and-pie-funds/is-the-fair-dividend-rate-a-5-tax-on-my-overseas-shares"),
    ("KiwiSaver question. My understanding is that KiwiSaver withdrawals are taxed as income when you "
     "take the money out. I will be 65 next year. Is that correct?",
     "joining-and-contributing-to-kiwisaver/are-kiwisaver-withdrawals-taxed"),
])
def test_a_stated_belief_checked_gets_the_unit_on_its_rule(engine, post, unit):
    found = served(engine, post)
    assert found is not None and found.id == unit
    assert not found.lead.startswith(("Yes", "No."))


def test_guard_a_post_asking_how_keeps_its_own_answer(engine):
    post = ("Overseas shares question. My understanding is that once my overseas shares cost more than the threshold, "
            "I pay income tax on 5% of the portfolio's opening value every year. How do I find out what they cost?")
    found = served(engine, post)
    assert found is None or not found.id.endswith("is-the-fair-dividend-rate-a-5-tax-on-my-overseas-shares")


@pytest.mark.parametrize("post", [
    "My understanding is that sharks sleep with one eye open while they swim along the reef. Is that right?",
    "I was told the neighbour's hedge must be trimmed below two metres every spring. Is that true?",
])
def test_guard_a_belief_on_nothing_the_units_know_gets_no_unit(engine, post):
    assert served(engine, post) is None
