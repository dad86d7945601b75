"""Independent earner tax credit (IETC) for a year, and the annualised amount PAYE uses for ME.

In: annual income, tax year and the exclusions (Working for Families, benefit, NZ Super or a
veteran's pension). Out: the annual credit. A year with two IETC periods (2024-25: before and from
31 July 2024, Income Tax Act ss LC 14 and LC 15) sums each period's credit (floored at 0) weighted
by its share of the year's days, then rounds to the cent.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Annotated

from pydantic import Field, StrictBool

from nztax.calculators.common import MAX_AMOUNT, year_rules
from nztax.calculators.income_tax import TaxYear
from nztax.calculators.money import as_number, exact_amount, round_cents, whole_dollars
from nztax.rules import IetcPeriod, exact


def credit_for_period(annual_income: Fraction, period: IetcPeriod) -> Fraction:
    """The full-year credit under one period's parameters (13c off per complete dollar over the start)."""
    income = whole_dollars(annual_income)
    if income < period.income_from or income >= period.income_to:
        return Fraction(0)
    abatement = max(income - int(period.abatement_from), 0) * exact(period.abatement_rate)
    return max(exact_amount(period.amount) - abatement, Fraction(0))


def calculate_ietc(
    annual_income: Annotated[float, Field(ge=0, le=MAX_AMOUNT, allow_inf_nan=False, description="Annual income before tax in NZD (not reduced by losses brought forward).")],
    tax_year: TaxYear = None,
    receives_working_for_families: Annotated[StrictBool, Field(description="You or your partner are entitled to Working for Families tax credits.")] = False,
    receives_benefit: Annotated[StrictBool, Field(description="You receive an income-tested benefit.")] = False,
    receives_nz_super: Annotated[StrictBool, Field(description="You receive NZ Superannuation or a veteran's pension.")] = False,
) -> dict:
    """Independent earner tax credit for a tax year: eligibility, the annual credit and why."""
    rules = year_rules(tax_year, "ietc")
    section = rules.section("ietc")
    base = {"tax_year": rules.year, "source": section.source}
    exclusions = [
        (receives_working_for_families, "you or your partner are entitled to Working for Families tax credits"),
        (receives_benefit, "you receive an income-tested benefit"),
        (receives_nz_super, "you receive NZ Superannuation or a veteran's pension"),
    ]
    for flag, why in exclusions:
        if flag:
            return {**base, "eligible": False, "annual_credit": 0.0, "reason": f"Not available: {why}."}
    income = exact_amount(annual_income)
    credit = sum(
        (credit_for_period(income, p) * Fraction((p.end - p.start).days + 1, rules.days) for p in section.periods),
        Fraction(0),
    )
    annual = round_cents(credit)
    last = section.periods[-1]
    if income < last.income_from:
        reason = f"Income is below ${last.income_from:,.0f}, so no credit."
    elif annual == 0:
        reason = f"Income is at or above ${last.income_to:,.0f}, so the credit has fully abated."
    elif len(section.periods) > 1:
        reason = "Part-year rules: the credit is worked out separately before and from the date the thresholds changed."
    elif income > last.abatement_from:
        pct = float(exact(last.abatement_rate) * 100)
        reason = f"Income is over ${last.abatement_from:,.0f}, so the credit is reduced by {pct:g}% of each dollar over."
    else:
        reason = "Full credit."
    return {**base, "eligible": annual > 0, "annual_credit": as_number(annual), "reason": reason}
