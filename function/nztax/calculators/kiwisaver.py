"""KiwiSaver contributions, ESCT and the government contribution.

In: the gross pay the contributions are on, the rates, the ESCT threshold amount, and (for the
government contribution) the member's contributions, income and age for a KiwiSaver year
(1 July - 30 June). Out: employee and employer contributions (truncated to the cent), the ESCT rate
and ESCT on whole dollars of the employer contribution (truncated), the net employer contribution,
and the government contribution under the rules of that KiwiSaver year.
"""

from __future__ import annotations

import datetime as dt
from fractions import Fraction
from typing import Annotated

from pydantic import Field

from nztax.calculators.common import MAX_AMOUNT, PERIODS_PER_YEAR, as_rate, parse_frequency, year_rules
from nztax.calculators.errors import ToolArgumentError
from nztax.calculators.income_tax import TaxYear
from nztax.calculators.money import as_number, exact_amount, rate_number, round_cents, truncate_cents, whole_dollars
from nztax.rules import TAX_YEAR_PATTERN, GovernmentContribution, RulesError, default_rules, exact, tax_year_for, today

KIWISAVER_YEAR_START_MONTH = 7  # a KiwiSaver year runs 1 July - 30 June


def kiwisaver_year_for(day: dt.date) -> str:
    first = day.year if day.month >= KIWISAVER_YEAR_START_MONTH else day.year - 1
    return f"{first}-{(first + 1) % 100:02d}"


def government_contribution_rules(kiwisaver_year: str) -> GovernmentContribution:
    """The rules for the KiwiSaver year starting 1 July of its first calendar year."""
    match = TAX_YEAR_PATTERN.match(kiwisaver_year)
    if not match or int(match.group(2)) != (int(match.group(1)) + 1) % 100:
        raise ToolArgumentError("kiwisaver_year", f'KiwiSaver year must look like "2025-26" (1 July 2025 - 30 June 2026), not {kiwisaver_year!r}')
    try:
        start = dt.date(int(match.group(1)), KIWISAVER_YEAR_START_MONTH, 1)
        rules = default_rules().get(tax_year_for(start))
        return rules.section("government_contribution")
    except (ValueError, RulesError) as exc:
        raise ToolArgumentError("kiwisaver_year", f"no government contribution rules for KiwiSaver year {kiwisaver_year!r}: {exc}") from None


def government_contribution(member_contributions: Fraction, annual_income: Fraction | None, age: int | None, gc: GovernmentContribution) -> tuple[Fraction, str]:
    if age is not None and not gc.min_age <= age < gc.max_age:
        return Fraction(0), f"Not paid: members must be at least {gc.min_age} and under {gc.max_age} (NZ Super age)."
    if gc.income_cap is not None and annual_income is not None and annual_income > exact_amount(gc.income_cap):
        return Fraction(0), f"Not paid: income over ${gc.income_cap:,.0f}."
    amount = min(member_contributions * exact(gc.match_rate), exact_amount(gc.maximum))
    per_dollar = float(exact(gc.match_rate) * 100)
    return amount, f"{per_dollar:g} cents per dollar of member contributions, up to ${gc.maximum:,.2f}."


def calculate_kiwisaver(
    gross_pay: Annotated[float, Field(ge=0, le=MAX_AMOUNT, allow_inf_nan=False, description="Gross salary or wages the contributions are on (one pay, or a year when pay_frequency is 'annual').")],
    employee_rate: Annotated[float | None, Field(ge=0, le=MAX_AMOUNT, allow_inf_nan=False, description="Employee rate, e.g. 3.5 (percent). Default: the year's default rate.")] = None,
    employer_rate: Annotated[float | None, Field(ge=0, le=MAX_AMOUNT, allow_inf_nan=False, description="Employer rate, e.g. 3.5 (percent). Default: the year's compulsory minimum.")] = None,
    esct_threshold_income: Annotated[float | None, Field(ge=0, le=MAX_AMOUNT, allow_inf_nan=False, description="Last year's salary/wages plus employer contributions (sets the ESCT rate). Default: estimated from this pay.")] = None,
    tax_year: TaxYear = None,
    pay_frequency: Annotated[str, Field(description="annual (gross_pay is a year's pay), weekly, fortnightly, four_weekly or monthly.")] = "annual",
    member_contributions: Annotated[float | None, Field(ge=0, le=MAX_AMOUNT, allow_inf_nan=False, description="Member's own contributions in the KiwiSaver year (1 July - 30 June), for the government contribution.")] = None,
    annual_income: Annotated[float | None, Field(ge=0, le=MAX_AMOUNT, allow_inf_nan=False, description="Member's annual income (the government contribution is not paid above the cap).")] = None,
    age: Annotated[int | None, Field(ge=0, le=120, description="Member's age.")] = None,
    kiwisaver_year: Annotated[str | None, Field(description='KiwiSaver year "YYYY-YY" starting 1 July YYYY. Default: the current KiwiSaver year.')] = None,
) -> dict:
    """KiwiSaver employee and employer contributions, ESCT on the employer contribution, and the
    government contribution for a KiwiSaver year (1 July - 30 June)."""
    rules = year_rules(tax_year, "kiwisaver", "esct")
    ks = rules.section("kiwisaver")
    gross = exact_amount(gross_pay)
    emp_rate = as_rate(employee_rate, "employee_rate") if employee_rate is not None else exact(ks.default_employee_rate)
    er_rate = as_rate(employer_rate, "employer_rate") if employer_rate is not None else exact(ks.employer_minimum_rate)
    employee = truncate_cents(gross * emp_rate)
    employer = truncate_cents(gross * er_rate)

    key = pay_frequency.strip().lower()
    pays = 1 if key in ("annual", "annually", "yearly") else PERIODS_PER_YEAR[parse_frequency(pay_frequency)]
    if esct_threshold_income is not None:
        threshold = exact_amount(esct_threshold_income)
    else:
        threshold = (gross + Fraction(employer)) * pays
    esct_rate = next(exact(b.rate) for b in rules.section("esct").bands if b.upper is None or threshold <= b.upper)
    esct = truncate_cents(whole_dollars(Fraction(employer)) * esct_rate)

    result = {
        "tax_year": rules.year,
        "employee_rate": rate_number(emp_rate),
        "employer_rate": rate_number(er_rate),
        "employee_contribution": as_number(employee),
        "employer_contribution": as_number(employer),
        "esct_threshold_income": as_number(round_cents(threshold)),
        "esct_rate": rate_number(esct_rate),
        "esct": as_number(esct),
        "employer_contribution_net": as_number(employer - esct),
        "government_contribution": None,
        "source": ks.source,
    }
    if member_contributions is not None:
        year = kiwisaver_year or kiwisaver_year_for(today())
        gc = government_contribution_rules(year)
        amount, reason = government_contribution(
            exact_amount(member_contributions), None if annual_income is None else exact_amount(annual_income), age, gc
        )
        result.update(
            kiwisaver_year=year,
            government_contribution=as_number(round_cents(amount)),
            government_contribution_reason=reason,
            government_contribution_source=gc.source,
        )
    return result
