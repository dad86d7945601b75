"""When a unit may answer at the smaller margin: against the engine's stock lead or retrieved
sentence, not against a sum or a rules table asked for its figures; a search typed as a few words
needs a wider lead."""

from types import SimpleNamespace

import dataclasses

from nztax.settings import get_settings
from nztax.unit_choice import against_stock_answer, near_margin


def _decision(action="fact", asked="Is the levy capped on a second job?", calls=(), rule_results=None, show=()):
    intent = SimpleNamespace(topics=("levy",), show=tuple(show))
    return SimpleNamespace(action=action, asked=asked, calls=list(calls), rule_results=rule_results or {}, intent=intent)


def test_a_fact_or_topic_answer_is_the_engines_stock_answer():
    assert against_stock_answer(_decision(), "yes_no")
    assert against_stock_answer(_decision(action="topic"), "how")


def test_not_against_a_sum_an_ask_back_or_a_decline():
    assert not against_stock_answer(_decision(action="calculate"), "figure")
    assert not against_stock_answer(_decision(calls=[("paye", {})]), "figure")
    assert not against_stock_answer(_decision(rule_results={"provisional": {}}), "figure")
    for action in ("clarify", "decline", "refuse"):
        assert not against_stock_answer(_decision(action=action), "yes_no")


def test_not_for_figures_asked_of_a_rules_table_the_answer_shows():
    assert not against_stock_answer(_decision(show=("levy",)), "figure")
    assert not against_stock_answer(_decision(show=("levy",)), "which")
    assert against_stock_answer(_decision(show=("levy",)), "yes_no")


def test_a_search_typed_as_a_few_words_needs_the_wider_lead():
    settings = dataclasses.replace(get_settings(), unit_near_margin=0.15, unit_search_margin=0.2)
    search = _decision(asked="levy cap second job")
    assert against_stock_answer(search, "yes_no")
    assert near_margin(search, settings) == 0.2
    assert near_margin(_decision(), settings) == 0.15  # a question asked in words
    assert near_margin(_decision(asked="levy cap second job?"), settings) == 0.15
