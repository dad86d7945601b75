"""ACC earners' levy for a year's liable earnings.

In: income and tax year, optionally a pay frequency. Out: the levy (nearest cent), capped at the
year's maximum levy once income reaches the maximum liable earnings (IRD prints that maximum; it is
used as printed), and with a pay frequency the same levy for one pay (the year's levy shared equally
over the year's pays, to the nearest cent).
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from nztax.calculators.common import MAX_AMOUNT, PERIODS_PER_YEAR, parse_frequency, year_rules
from nztax.calculators.income_tax import TaxYear
from nztax.calculators.money import as_number, exact_amount, rate_number, round_cents
from nztax.rules import exact, money


def calculate_acc_levy(
    annual_income: Annotated[float, Field(ge=0, le=MAX_AMOUNT, allow_inf_nan=False, description="Annual liable earnings in NZD (salary, wages, self-employed income).")],
    tax_year: TaxYear = None,
    pay_frequency: Annotated[str | None, Field(description="weekly, fortnightly, four_weekly or monthly: also give the levy for one pay.")] = None,
) -> dict:
    """ACC earners' levy on a year's liable earnings: the year's rate up to the maximum liable
    earnings, and the printed maximum levy above it (and for one pay, given a pay frequency)."""
    rules = year_rules(tax_year, "acc_levy")
    acc = rules.section("acc_levy")
    amount = exact_amount(annual_income)
    cap = exact_amount(acc.max_liable_earnings)
    capped = amount >= cap
    levy = money(acc.max_levy) if capped else round_cents(amount * exact(acc.rate))
    per_pay = {}
    if pay_frequency is not None:
        frequency = parse_frequency(pay_frequency)
        per_pay = {"pay_frequency": frequency,
                   "levy_per_pay": as_number(round_cents(exact_amount(levy) / PERIODS_PER_YEAR[frequency]))}
    return {
        "tax_year": rules.year,
        **per_pay,
        "rate": rate_number(exact(acc.rate)),
        "max_liable_earnings": as_number(money(acc.max_liable_earnings)),
        "max_levy": as_number(money(acc.max_levy)),
        "liable_income": as_number(round_cents(min(amount, cap))),
        "annual_levy": as_number(levy),
        "capped": capped,
        "source": acc.source,
    }
