"""Test helper: an answer unit's lead as an answer opens with it, filled from a year's rules data.

In: a unit (from the bank or the engine) and a tax year, or an engine and a question. Out: the filled
lead and its opening without a "Yes."/"No.", or whether an offline answer opens with either.
"""

from __future__ import annotations

from nztax.rules import default_rules
from nztax.units import fill, opening_for, unit_values


def leads(unit, year: str) -> tuple[str, str]:
    """The unit's lead as it opens a yes-or-no answer, and without its "Yes."."""
    lead = fill(unit.lead, unit_values(default_rules().years[year]))
    return lead, opening_for(lead, "")


def opens_with_lead(answer: str, unit, year: str) -> bool:
    """Whether `answer` opens with the unit's lead; never for a unit whose lead the year cannot fill."""
    lead = fill(unit.lead, unit_values(default_rules().years[year]))
    return bool(lead) and (answer.startswith(lead) or answer.startswith(opening_for(lead, "")))


def ask(engine, text: str) -> dict:
    return engine.answer(text, use_faq=False, mode="offline").to_json()


def answer_opens_with(engine, unit, text: str) -> bool:
    """Whether the offline answer to `text` opens with the unit's lead, filled for the answer's year."""
    out = ask(engine, text)
    return opens_with_lead(out["answer"], unit, out["tax_year"])
