"""A topic answer asked why, how, when or what happens opens with a sentence saying it, or says it
has not found the point before the topic's best sentence (topic_aspect.py); and NZTAX_UNITS_SERVE=0
answers without units, to measure that answer alone."""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace

from nztax.topic_aspect import answers_none, saying_first
from unit_leads import answer_opens_with

HIT = SimpleNamespace(text="", url="https://www.ird.govt.nz/x", parent_id="x", title="t", section="")
LISTED = (0.6, "Scholarships, grants and stipends are listed among the payments covered.", HIT)
BECAUSE = (0.4, "Tax is deducted from a stipend because it counts as salary or wages.", HIT)
OTHER = (0.3, "A grant for fees paid straight to the university is not income.", HIT)


def anything(sentence, hit) -> bool:
    return True


def test_the_sentence_saying_why_opens_ahead_of_one_that_only_names_the_subject():
    ranked = saying_first("Why is tax taken off my stipend?", [LISTED, BECAUSE, OTHER], anything)
    assert ranked == [BECAUSE, LISTED, OTHER]


def test_the_word_order_stands_when_no_aspect_is_asked_or_none_says_it():
    assert saying_first("Is my stipend taxable?", [LISTED, BECAUSE], anything) == [LISTED, BECAUSE]
    assert saying_first("Why is tax taken off my stipend?", [LISTED, OTHER], anything) == [LISTED, OTHER]


def test_a_sentence_saying_it_that_may_not_open_stays_behind():
    ranked = saying_first("Why is tax taken off my stipend?", [LISTED, BECAUSE], lambda s, hit: s != BECAUSE[1])
    assert ranked == [LISTED, BECAUSE]


def test_an_opening_answers_none_only_when_every_asking_sentence_asks_what_it_does_not_say():
    why = "Why is tax taken off my stipend?"
    assert answers_none([why], LISTED[1])
    assert not answers_none([why], BECAUSE[1])
    # (Another asking sentence asks no aspect: the opening may answer that one.)
    assert not answers_none([why, "Is a stipend income?"], LISTED[1])
    assert not answers_none([], LISTED[1])


def test_with_units_switched_off_a_post_a_unit_answers_gets_the_engines_own_answer(engine, monkeypatch):
    from nztax.units import UnitBank
    from nztax.settings import get_settings

    unit = UnitBank.load(get_settings().units_dir).get(
        "overseas-shares-and-pie-funds/is-a-pie-fund-better-for-tax-than-a-savings-account")
    post = ("PIE term deposit versus ordinary term deposit\nI'm on the 33% tax rate and my bank offers a PIE term "
            "deposit taxed at 28%. An ordinary term deposit would be taxed at my own rate. What is the catch?")
    assert answer_opens_with(engine, unit, post)
    monkeypatch.setattr(engine, "settings", dataclasses.replace(engine.settings, units_serve=False))
    assert not answer_opens_with(engine, unit, post)
