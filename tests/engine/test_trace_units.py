"""The trace names the answer unit that gave the lead (`nztax ask --explain`: why this opening), and
each unit that answered another asked part of a post."""

from __future__ import annotations

from test_asked_parts import BACKGROUND, STAY, TAXED


def notes(engine, question: str) -> list[str]:
    result = engine.answer(question, use_faq=False, mode="offline")
    assert result.trace is not None
    return result.trace["notes"]


def test_a_post_of_two_parts_names_both_units(engine):
    said = notes(engine, f"{BACKGROUND} Can I stay in KiwiSaver after I turn 65? Are KiwiSaver withdrawals taxed?")
    assert f"answered by the unit {STAY}" in said, said
    assert f"another asked part answered by the unit {TAXED}" in said, said


def test_an_answer_no_unit_gave_names_none(engine):
    said = notes(engine, "How much tax do I pay on $65,000 a year?")
    assert not any("by the unit" in n for n in said), said
