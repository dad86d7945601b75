"""The figures a sum is worked on, set before it runs: steps of decide()'s pipeline.

In: the `Decision` (decide.py) and its `Reading` (reading_switches.py). Out: the decision's slots,
assumptions or default code changed when the question says so; True only when a step had to ask back
instead (the year of a pay change whose change is not placed).

    part_year_salary(decision, reading)   # a salary from March: its months' share, and the assumption said
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

from nztax.ask_backs import DIFFERENCE_ASKED
from nztax.calculation_plan import INCOME_AND_LEVY_TOOLS
from nztax.calculator_calls import _clarify, _truncated
from nztax.clarify_checks import _year_of_a_change
from nztax.cue_words import alternatives
from nztax.slots import PAY_FREQUENCIES
from nztax.literal_screen import screen_patterns

if TYPE_CHECKING:
    from nztax.decide import Decision
    from nztax.reading_switches import Reading

# The whole tax year asked about, not one pay.
YEAR_ASKED = re.compile(alternatives("year_asked"), re.I)


def part_year_salary(d: Decision, r: Reading) -> bool:
    """A salary started partway through the year: tax on the months paid."""
    slots = d.slots
    if slots.part_year_months and r.intent.tool in INCOME_AND_LEVY_TOOLS and slots.asked_period not in PAY_FREQUENCIES:
        yearly = next(a for a in slots.amounts if a.is_income and a.period == "annual")
        earned = _truncated(yearly.value * slots.part_year_months / 12)
        slots = d.slots = replace(slots, amounts=[replace(a, value=earned, text=f"{a.text} for {slots.part_year_months} months")
                                                  if a is yearly else a for a in slots.amounts])
        d.assumptions.append(f"${yearly.value:,.0f} a year paid for the {slots.part_year_months} months from the start to "
                             f"31 March: ${earned:,.2f}, and nothing else earned in the tax year")
    return False


def year_of_a_change(d: Decision, r: Reading) -> bool:
    """The whole year asked about a pay that changed during it: the year's income is each pay for its
    months (clarify_checks); asked back (after_change) when it cannot be known. (A difference asked
    weighs the two pays instead.)"""
    asked, slots = d.asked, d.slots
    if (r.intent.tool in INCOME_AND_LEVY_TOOLS and slots.asked_period not in PAY_FREQUENCIES
            and YEAR_ASKED.search(asked) and not DIFFERENCE_ASKED.search(asked)):
        blended = _year_of_a_change(d, slots)
        if blended is False:
            _clarify(d, "after_change")
            return True
        if blended is not None:
            d.slots = blended
    return False


def me_code_open(slots) -> bool:
    """No code is said, and nothing that bars the IETC (Working for Families, a benefit or NZ Super, no
    IRD number): a credit they are owed may come through the ME code."""
    return slots.tax_code is None and not (slots.wff or slots.benefit_or_super or slots.no_ird_number)


def credit_code(d: Decision, r: Reading) -> bool:
    """The IETC's conditions said to hold: the credit they are owed comes through the ME code,
    whichever of two close readings is worked out."""
    if d.slots.denies_conditions and me_code_open(d.slots):
        d.default_code = "ME"
    return False

screen_patterns(globals())  # (literal_screen.py: each pattern above tried only on a text with a literal it needs)
