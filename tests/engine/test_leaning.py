"""An asking sentence that names nothing and points back ("Is that taxed?", "How does it work?") is
read with the post's opening (leaning.py): a unit's question split into a statement naming the
subject and a subjectless question reaches the same unit; a subjectless question after a story about
nothing the units know is served none (the joined reading goes through the same bars, and agreeing
with the whole post, whose words it shares, is no second reading: unit_match.match_asked).

All wording below is made up for the tests."""

from __future__ import annotations

import pytest

from nztax import leaning, unit_choice


def served(engine, text: str) -> str | None:
    """The unit the engine serves a post (unit_choice.choose on its settled decision and frame)."""
    decision, vector = engine.understand(text, None, None)
    unit, _ = unit_choice.choose(engine, decision, engine.read_frame(decision), vector, False)
    return unit.id if unit is not None else None


@pytest.mark.parametrize("sentence", ["Is that right?", "How does it work?", "Do I pay tax on it?",
                                      "Isn't that means tested?", "Can they do that?"])
def test_a_short_sentence_pointing_back_leans_on_the_story(sentence):
    assert leaning.leans_back(sentence)


@pytest.mark.parametrize("sentence", [
    "Would it be better to pay off my student loan early or keep putting money into my index fund?",
    "Is there a limit on how much a boarder can pay me before I owe tax?"])
def test_a_sentence_naming_what_it_asks_about_does_not_lean(sentence):
    assert not leaning.leans_back(sentence)


def test_a_two_word_sentence_leans_only_when_no_unit_is_near_it_alone():
    assert leaning.leans_back("What is the catch?", reads_alone=lambda s: False)
    assert not leaning.leans_back("Can we get FamilyBoost?", reads_alone=lambda s: True)
    assert not leaning.leans_back("What is the catch?")  # (nothing to ask whether it reads alone: as written)


def test_the_opening_is_joined_to_a_leaning_sentence_only():
    post = "Our club pays me a small honorarium. I spend most of it on petrol. Is that taxable?"
    assert leaning.read_as(post, "Is that taxable?") == "Our club pays me a small honorarium. Is that taxable?"
    assert leaning.read_as(post, "Is my honorarium from the club taxable?") == "Is my honorarium from the club taxable?"
    assert leaning.read_as("Is that taxable?", "Is that taxable?") == "Is that taxable?"  # (no story to lean on)


@pytest.mark.parametrize("post, unit", [
    ("I have started renting a room in my house to a boarder. Do I have to pay tax on it?",
     "rental/do-i-pay-tax-on-renting-out-a-room-in-my-home"),
    ("I got a letter about the fair dividend rate on my overseas shares. How does it work?",
     "overseas-shares-and-pie-funds/is-the-fair-dividend-rate-a-5-tax-on-my-overseas-shares"),
    ("My father gets NZ Super and still does some part-time work. Is that taxed?",
     "other-income/is-nz-super-taxed"),
])
def test_family_a_statement_and_a_subjectless_question_reach_the_unit(engine, post, unit):
    assert served(engine, post) == unit


@pytest.mark.parametrize("post", [
    "I watched a film about sharks on the weekend and it was gripping. Is that right?",
    "My neighbour's hedge has grown over the fence again. Can they do that?",
    "We drove to the lakes for the long weekend with the children. Is it worth it?",
])
def test_guard_a_subjectless_question_is_served_no_unit_the_story_does_not_settle(engine, post):
    assert served(engine, post) is None
