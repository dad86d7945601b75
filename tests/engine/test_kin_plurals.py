"""People words in the plural name other people too (issue 36): kin_words holds each word once, and its
plural is made when the list is read (cue_words.with_plurals, data plural_endings)."""

from __future__ import annotations

import itertools
import re

import pytest

from nztax.amount_owners import named_owners
from nztax.cue_words import _lists, with_plurals
from nztax.money_reader import find_money


@pytest.mark.parametrize("word,plural", [("wife", "wives"), ("child", "children"), ("hubby", "hubbies"),
                                         ("aunty", "aunties"), ("missus", "missuses"), ("coworker", "coworkers"),
                                         ("neighbour", "neighbours"), ("fiancée", "fiancées"), ("parent", "parents")])
def test_a_plural_is_made_from_the_words_ending(word, plural):
    kin = re.compile(rf"(?:{with_plurals('kin_words')})", re.I)
    assert kin.fullmatch(word) and kin.fullmatch(plural)
    assert not kin.fullmatch(plural + "s")


def test_every_word_of_the_list_stays_beside_its_plural():
    made = with_plurals("kin_words").split("|")
    assert set(_lists()["kin_words"]) <= set(made)
    assert len(made) <= 2 * len(_lists()["kin_words"])


PEOPLE = ["wives", "children", "parents", "coworkers", "hubbies", "kids", "flatmates", "colleagues", "neighbours"]
SAYINGS = ["My {p} earn $85,000.", "Two {p} of mine earn $85,000.", "{P} earn $85,000 between them, my friend says.",
           "Our {p} make $85,000 a year."]


@pytest.mark.parametrize("people,saying", list(itertools.product(PEOPLE, SAYINGS)))
def test_family_several_other_people_own_their_pay(people, saying):
    text = saying.format(p=people, P=people.capitalize())
    amounts = find_money(text)
    assert named_owners(text, [a.start for a in amounts]) == ["other"], text


def test_control_the_askers_own_pay_beside_them_is_theirs():
    text = "My parents earn $85,000. I earn $60,000."
    assert named_owners(text, [a.start for a in find_money(text)]) == ["other", "self"]
