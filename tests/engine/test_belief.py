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


# Whatever route serves the unit, its "Yes."/"No." answers its own question, not the poster's claim.
@pytest.mark.parametrize("post", [
    "KiwiSaver and retirement. My understanding is that KiwiSaver withdrawals are taxed as income when you "
    "take the money out. I will be 65 next year. Is that correct?",
    "Rental question. My understanding is that I can claim all the interest on my rental mortgage. Is that right?",
    "Parental leave. My understanding is that paid parental leave counts as income and is taxed. Correct?",
])
def test_a_checked_belief_gets_no_verdict_from_any_route(engine, post):
    found = served(engine, post)
    assert found is not None and not found.lead.startswith(("Yes", "No"))


def test_a_unit_for_retiring_overseas_does_not_answer_a_post_naming_no_move(engine):
    post = ("KiwiSaver and retirement. My understanding is that KiwiSaver withdrawals are taxed as income when you "
            "take the money out. I will be 65 next year. Is that correct?")
    assert served(engine, post).id == "joining-and-contributing-to-kiwisaver/are-kiwisaver-withdrawals-taxed"


@pytest.mark.parametrize("post", [
    "Can I take my KiwiSaver with me if we settle near our grandchildren abroad after we retire?",
    "Can I get my KiwiSaver out when I retire overseas?",
])
def test_guard_a_post_naming_the_move_keeps_the_retiring_overseas_unit(engine, post):
    found = served(engine, post)
    assert found is not None and found.id.endswith("can-i-get-my-kiwisaver-out-if-i-retire-overseas")


def test_an_asking_sentence_of_its_own_keeps_its_verdict():
    belief_text = "My understanding is that paid parental leave is taxed."
    assert belief.answers_the_belief(None, belief_text) and belief.answers_the_belief("Is that right?", belief_text)
    assert not belief.answers_the_belief("Do I pay tax on my KiwiSaver withdrawal at 65?", belief_text)


@pytest.mark.parametrize("text, leaving", [
    ("If I follow my kids overseas in my retirement, can I take KiwiSaver with me?", True),
    ("We will retire to another country in two years.", True),
    ("Can I get my KiwiSaver out if I retire overseas?", True),
    ("I want to go and buy overseas shares.", False),
    ("We will settle near our grandchildren abroad once we retire.", True),
    ("KiwiSaver and retirement. I will be 65 next year.", False),
])
def test_leaving_new_zealand_is_read_however_the_move_is_said(text, leaving):
    from nztax.opening_fit import situations_named

    assert ("leaving_new_zealand" in situations_named(text)) is leaving
