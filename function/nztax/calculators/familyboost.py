"""FamilyBoost for one quarter's claim.

In: the early childhood education (ECE) fees paid in the quarter (after any subsidy), the household's
income for that quarter, and a day in the quarter. Out: the payment: the rules' share of the fees, at
most the quarter's maximum, which is reduced by the abatement rate for each dollar of household income
over the threshold and is nil at the income limit. FamilyBoost is assessed per quarter with no
end-of-year square-up, and its settings depend on the quarter (from the July-September 2025 quarter:
the Income Tax (FamilyBoost) Amendment Act 2025), so the quarter picks the settings.
"""

from __future__ import annotations

import datetime as dt
from fractions import Fraction
from typing import Annotated

from pydantic import Field

from nztax.calculators.common import MAX_AMOUNT, parse_date
from nztax.calculators.errors import ToolArgumentError
from nztax.calculators.money import as_number, exact_amount, round_cents
from nztax.rules import RulesError, default_rules, exact, tax_year_for, today


def quarter_of(day: dt.date) -> tuple[dt.date, dt.date]:
    """The calendar quarter holding `day`: (first day, last day)."""
    first = dt.date(day.year, 3 * ((day.month - 1) // 3) + 1, 1)
    after = dt.date(first.year + (first.month == 10), (first.month + 2) % 12 + 1, 1)
    return first, after - dt.timedelta(days=1)


def calculate_familyboost(
    ece_fees: Annotated[float, Field(ge=0, le=MAX_AMOUNT, allow_inf_nan=False, description="ECE fees paid for the quarter in NZD, after any subsidy such as 20 Hours ECE.")],
    household_income: Annotated[float, Field(ge=0, le=MAX_AMOUNT, allow_inf_nan=False, description="Household income for that quarter in NZD: yours and your partner's, before tax.")],
    quarter: Annotated[str | None, Field(description="Any date YYYY-MM-DD in the quarter claimed for (e.g. 2025-07-01 for July-September 2025). Default: the current quarter.")] = None,
) -> dict:
    """FamilyBoost for one quarter: the payment on the ECE fees paid, reduced by household income over the quarter's threshold."""
    day = parse_date(quarter, "quarter") or today()
    first, last = quarter_of(day)
    try:
        rules = default_rules().get(tax_year_for(first))
    except RulesError as exc:
        raise ToolArgumentError("quarter", str(exc)) from None
    section = rules.data.familyboost
    period = section.on(first) if section is not None else None
    if period is None:
        raise ToolArgumentError("quarter", f"FamilyBoost does not cover the quarter starting {first:%-d %B %Y} (it began on 1 July 2024)")
    fees, income = exact_amount(ece_fees), exact_amount(household_income)
    share = fees * exact(period.rate)
    over = max(Fraction(0), income - exact_amount(period.abatement_threshold))
    cap = max(Fraction(0), exact_amount(period.quarterly_max) - over * exact(period.abatement_rate))
    if income >= exact_amount(period.income_limit):
        cap = Fraction(0)
    payment = min(share, cap)
    return {
        "quarter_start": first.isoformat(), "quarter_end": last.isoformat(), "tax_year": rules.year,
        "settings_from": period.start.isoformat(),
        "ece_fees": as_number(round_cents(fees)), "household_income": as_number(round_cents(income)),
        "rate": float(period.rate), "share_of_fees": as_number(round_cents(share)),
        "quarterly_max": float(period.quarterly_max), "abatement_threshold": float(period.abatement_threshold),
        "abatement_rate": float(period.abatement_rate), "income_limit": float(period.income_limit),
        "reduced_max": as_number(round_cents(cap)), "payment": as_number(round_cents(payment)),
        "source": section.source,
    }
