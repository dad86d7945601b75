"""A story set in a tax year the rules data does not hold gets a unit only when the unit's lead names
none of that year's figures, with the note that the rule is today's (engine.py, frame_notes.py)."""

from __future__ import annotations

from nztax.units import fill, unit_values
from nztax.rules import default_rules

PAST_STORY = ("I moved back into my rental property in December 2013 after renting it out for three years. "
              "I have claimed depreciation on the fridge and the curtains. "
              "What happens to the depreciation I claimed on the chattels?")
FIGURE_STORY = ("I took a second job in March 2014 alongside my main one. My main job paid about the same as before. "
                "What is the SB tax code?")


def _unit(bank, question_start: str):
    return next(u for u in bank.units if u.question.startswith(question_start))


def test_a_past_year_story_gets_a_unit_naming_no_figure_with_the_year_note(engine, bank):
    unit = _unit(bank, "When is the depreciation on a rental's chattels recovered?")
    out = engine.answer(PAST_STORY, use_faq=False, mode="offline").to_json()
    assert out["answer"].startswith(unit.lead), out["answer"][:200]
    assert out["tax_year"] == "2013-14"
    assert "I don't hold the figures for the 2013-14 tax year" in out["answer"]


def test_a_past_year_story_never_gets_a_unit_filled_with_todays_figures(engine, bank, monkeypatch):
    # The story is made to match the SB unit, whose lead names the year's threshold and rate: for a
    # year the rules data lacks they would be today's figures, so the engine answers instead.
    import nztax.unit_choice

    unit = _unit(bank, "What is the SB tax code?")
    monkeypatch.setattr(nztax.unit_choice, "choose", lambda engine, decision, *a, **k: (unit, decision))
    result = engine.answer(FIGURE_STORY, use_faq=False, mode="offline")
    today = fill(unit.lead, unit_values(default_rules().years["2026-27"]))
    assert today[:40] not in result.answer, result.answer[:200]
    # (Nor the lead with those figures struck out by the guard, which left a sentence without them.)
    assert not result.guard_removed, result.answer[:200]
