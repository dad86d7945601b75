"""A story none of whose sentences names its subject ("What is the catch?") is served the unit the
whole post is about, when its meaning and its topic words agree (unit_choice.choose ->
`UnitMatcher.match_topic`), wherever its sentences stand and whatever else it tells; never a unit for
a post about nothing the units know."""

from __future__ import annotations

import pytest

from unit_leads import answer_opens_with

UNIT = "overseas-shares-and-pie-funds/is-a-pie-fund-better-for-tax-than-a-savings-account"
TITLE = "PIE term deposit versus ordinary term deposit\n"
OFFER = "I'm on the 33% tax rate and my bank offers a PIE term deposit taxed at 28%."
ORDINARY = "An ordinary term deposit would be taxed at my own rate."
CATCH = "What is the catch?"


def opens_with(engine, bank, text: str) -> bool:
    return answer_opens_with(engine, bank.get(UNIT), text)


def test_a_story_asking_without_naming_its_subject_gets_the_unit_its_post_is_about(engine, bank):
    assert opens_with(engine, bank, TITLE + " ".join([OFFER, ORDINARY, CATCH]))


@pytest.mark.parametrize("order", [[ORDINARY, OFFER, CATCH], [CATCH, OFFER, ORDINARY]])
def test_family_reorder_the_sentences(engine, bank, order):
    assert opens_with(engine, bank, TITLE + " ".join(order))


def test_family_add_an_unrelated_story_sentence(engine, bank):
    assert opens_with(engine, bank, TITLE + " ".join([OFFER, "We have two kids and a dog.", ORDINARY, CATCH]))


def test_family_another_subjectless_asking_sentence(engine, bank):
    assert opens_with(engine, bank, TITLE + " ".join([OFFER, ORDINARY, "Is my understanding correct?"]))


def test_a_story_about_nothing_the_units_know_gets_none(engine):
    out = engine.answer("My neighbour's dog\nMy neighbour's dog barks all night. I have asked them twice to keep it "
                        "inside. The council has not replied to my email. What is the catch?", use_faq=False, mode="offline")
    assert out.status != "answered" or not out.to_json()["answer"].startswith("It can be")
