"""Independent earner tax credit (IETC) for a year, and the annualised amount PAYE uses for ME.

In: annual income, tax year, the exclusions (Working for Families, benefit, NZ Super or a
veteran's pension) and the whole months of the year the person could get the credit. Out: the credit
for the year. IRD works the credit on whole months: a month with any excluded payment in it gets none,
and the other months get their twelfth each of the year's credit on the full year's income. A year
with two IETC periods (2024-25: before and from 31 July 2024, Income Tax Act ss LC 14 and LC 15)
sums each period's credit (floored at 0) weighted by its share of the year's days, then rounds to the
cent; a part-year credit in such a year is not worked out (its months and days do not line up).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Annotated

from pydantic import Field, StrictBool, StrictInt

from nztax.calculators.common import MAX_AMOUNT, year_rules
from nztax.calculators.errors import ToolArgumentError
from nztax.calculators.income_tax import TaxYear
from nztax.calculators.money import as_number, exact_amount, round_cents, whole_dollars
from nztax.rules import IetcPeriod, exact


MONTHS_IN_YEAR = 12  # the credit is worked per whole month of the tax year


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
    months_eligible: Annotated[StrictInt | None, Field(ge=0, le=12, description=(
        "Whole months of the tax year (April to March) with no Working for Families, income-tested benefit, NZ Super or "
        "veteran's pension at any time in them. Default: all 12, or none when one of the exclusions above is set."))] = None,
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
    excluded = [why for flag, why in exclusions if flag]
    months = months_eligible if months_eligible is not None else (0 if excluded else MONTHS_IN_YEAR)
    if months == 0:
        why = excluded[0] if excluded else "no month of the year was free of Working for Families, a benefit, NZ Super or a veteran's pension"
        return {**base, "eligible": False, "annual_credit": 0.0, "months_eligible": 0,
                "reason": (f"Not available for any month in which {why}; taken as every month of the year. If that was only "
                           "part of the year, the credit is paid for the other whole months.") if excluded else f"Not available: {why}."}
    if months < MONTHS_IN_YEAR and len(section.periods) > 1:
        raise ToolArgumentError("months_eligible", f"a part-year credit is not worked out for {rules.year}: the credit's range changed part-way "
                                                   "through that year, and IRD's part-year rule for it is not in the rules data")
    income = exact_amount(annual_income)
    credit = sum(
        (credit_for_period(income, p) * Fraction((p.end - p.start).days + 1, rules.days) for p in section.periods),
        Fraction(0),
    )
    annual = round_cents(credit * Fraction(months, MONTHS_IN_YEAR))
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
    if months < MONTHS_IN_YEAR and annual > 0:
        year_credit = f"${as_number(round_cents(credit)):,.2f}"
        reason = ("" if reason == "Full credit." else reason + " ") + (
            f"Worked for {months} of the 12 months (none for a month with any Working for Families, benefit, NZ Super "
            f"or veteran's pension in it): {months}/12 of the year's {year_credit}.")
    return {**base, "eligible": annual > 0, "annual_credit": as_number(annual), "months_eligible": months, "reason": reason}
