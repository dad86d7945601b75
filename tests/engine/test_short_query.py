"""Search-box queries read as questions (issue 41): the rewrite alone, then the engine's answer."""

from __future__ import annotations

import pytest

from nztax.rules import default_rules
from nztax.short_query import search_box_question


@pytest.mark.parametrize("typed, read", [
    ("tax 85000", "tax on 85000"),
    ("paye 1200 weekly", "paye on 1200 weekly"),
])
def test_search_box_queries_get_their_missing_word(typed, read):
    assert search_box_question(typed, default_rules()) == read


@pytest.mark.parametrize("typed", [
    "tax on 85000",                       # already a sentence
    "I earn 85000",                       # a verb ties the amount
    "how much tax on 85000?",             # a question
    "IR3 for 2025",                       # a year is not an amount
    "tax 85000 and 40000",                # two amounts: not a search-box query
    "85000",                              # nothing to put "on" after
    "weekly 880 tax code M",              # already read as a weekly pay
    "take home 100k",                     # "100k" already reads as the income
    "acc levy $60k 2026-27",
    "monthly 9000 on M",
    "what is the tax on a salary of 85000 a year in 2026-27 please",  # too long to be a search-box query
])
def test_sentences_are_left_as_they_are(typed):
    assert search_box_question(typed, default_rules()) == typed


@pytest.mark.parametrize("typed, figure", [
    # 2026-27: 15,600 x 10.5% + 37,900 x 17.5% + 24,600 x 30% + 6,900 x 33% = 17,927.50
    ("tax 85000", "$17,927.50"),
    # weekly $1,200 on M, 2026-27: A = 62,400; (1,638 + 6,632.50 + 2,670 + 1,092) / 52 = 231.39
    ("paye 1200 weekly", "$231.39"),
    # 100,000: income tax 22,877.50 and ACC levy 1,750 (1.75%) leave 75,372.50 with no KiwiSaver
    ("take home 100k", "$75,372.50"),
])
def test_search_box_queries_are_answered(engine, typed, figure):
    result = engine.answer(typed, use_faq=False, mode="offline")
    assert result.status == "answered", (typed, result.answer[:200])
    assert figure in result.answer, (typed, result.answer[:300])


def test_a_few_words_without_a_question_mark_are_a_search():
    from nztax.short_query import typed_as_search

    assert typed_as_search("levy rebate nz")
    assert typed_as_search("kiwisaver employer contrib")
    assert not typed_as_search("levy rebate?")
    assert not typed_as_search("I would like to know how the levy rebate works for me")
