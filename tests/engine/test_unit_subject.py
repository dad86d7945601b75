"""A unit on another subject than the question names is not served, nor the next unit in its place
(unit_choice.py, opening_fit.py). The units and questions here are made up for the test."""

from __future__ import annotations

from types import SimpleNamespace

from nztax import unit_choice
from nztax.rules import default_rules
from nztax.slots import read_slots
from nztax.units import Unit

SHARES = Unit(question="Do I pay tax when I sell shares I have held for years?", slug="held-shares", topic="investing",
              topic_title="Investing", lead="Usually not: a gain on shares is income only if you bought them to sell.")
CRYPTO = Unit(question="Is a crypto-asset gain taxed?", slug="crypto-gain", topic="investing", topic_title="Investing",
              lead="Often: a crypto-asset bought to sell or exchange is taxed on its gain.")


def _choose(question: str, nearest: Unit, runner_up: Unit):
    rules = default_rules()
    seen = []

    def match(question, vector, reading, declined=False, unread=False, allowed=None, scores=None, near=False,
              near_margin=None):
        # The matcher's margin is over the units `allowed` lets in: record what it let in.
        let_in = [u for u in (nearest, runner_up) if allowed is None or allowed(u)]
        seen.append([u.slug for u in let_in])
        return SimpleNamespace(unit=let_in[0], sentence=None) if let_in else None

    matcher = SimpleNamespace(scores=lambda *a, **k: {}, match=match, by_id={}, rank_model=None)
    engine = SimpleNamespace(unit_matcher=matcher, unit_kinds=SimpleNamespace(fits=lambda *a, **k: True), rules=rules,
                             settings=SimpleNamespace(asked_unit_unsure_bar=0.5, unit_near_margin=0.15,
                                                      unit_search_margin=0.2))
    decision = SimpleNamespace(question=question, asked=question, slots=read_slots(question, rules), action="fact",
                               used_history=False, tax_year="2026-27", calls=[], rule_results={}, intent=None, trace=None)
    unit, _ = unit_choice.choose(engine, decision, None, None, False)
    return unit, seen


def test_a_unit_on_another_subject_is_not_served_nor_the_next_in_its_place():
    unit, seen = _choose("Do I pay tax when I sell crypto I have held for years?", SHARES, CRYPTO)
    assert unit is None
    assert seen == [["held-shares", "crypto-gain"]]  # the subject does not drop a unit before the margin


def test_a_unit_on_the_questions_own_subject_is_served():
    unit, _ = _choose("Do I pay tax when I sell shares I have held for years?", SHARES, CRYPTO)
    assert unit is SHARES
    unit, _ = _choose("Is my crypto-asset gain taxed?", CRYPTO, SHARES)
    assert unit is CRYPTO
