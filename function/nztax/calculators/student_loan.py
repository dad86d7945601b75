"""Student loan repayment on salary or wages: a year's (an approximation) and, when asked, one pay's.

In: annual income and tax year; optionally one pay's gross and frequency, and whether it is a
secondary job's pay. Out: the repayment rate on income over the annual threshold, truncated to the
cent; for one pay, the employer's deduction: the rate on whole-dollar gross over the pay-period
threshold (a main job) or on all of it (a secondary job), truncated. Real deductions are made per pay
with no end-of-year square-up for salary and wage earners, so the year's figure is an approximation.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Annotated

from pydantic import Field

from nztax.calculators.common import MAX_AMOUNT, PERIODS_PER_YEAR, parse_frequency, year_rules
from nztax.calculators.errors import ToolArgumentError
from nztax.calculators.income_tax import TaxYear
from nztax.calculators.money import as_number, exact_amount, rate_number, truncate_cents, whole_dollars
from nztax.rules import StudentLoan, exact, money


def deduction_for_pay(loan: StudentLoan, gross: Fraction, frequency: str, secondary: bool) -> Fraction:
    """One pay's deduction before truncation: the rate on whole-dollar gross over the pay period's
    threshold, or on every dollar of a secondary job's pay."""
    threshold = Fraction(0) if secondary else exact_amount(getattr(loan.period_thresholds, frequency))
    return max(Fraction(whole_dollars(gross)) - threshold, Fraction(0)) * exact(loan.rate)


def calculate_student_loan_repayment(
    annual_income: Annotated[float, Field(ge=0, le=MAX_AMOUNT, allow_inf_nan=False, description="Annual salary or wage income in NZD.")],
    tax_year: TaxYear = None,
    pay_frequency: Annotated[str | None, Field(description="weekly, fortnightly, four_weekly or monthly: also work out one pay's deduction.")] = None,
    gross_pay: Annotated[float | None, Field(ge=0, le=MAX_AMOUNT, allow_inf_nan=False, description="Gross pay for one pay period in NZD (default: annual_income divided into pay_frequency's pays).")] = None,
    secondary_income: Annotated[bool, Field(description="The pay is a secondary job's (an S, SB, SH, ST or SA SL code): no threshold.")] = False,
) -> dict:
    """Annual student loan repayment for a New Zealand-based borrower on salary or wages:
    the repayment rate on income over the annual repayment threshold. With pay_frequency, also
    the employer's deduction from one pay, as IRD's payroll specification works it."""
    rules = year_rules(tax_year, "student_loan")
    loan = rules.section("student_loan")
    if gross_pay is not None and pay_frequency is None:
        raise ToolArgumentError("pay_frequency", "give pay_frequency with gross_pay (how often that pay is paid)")
    threshold = Fraction(0) if secondary_income else exact_amount(loan.annual_threshold)
    over = max(exact_amount(annual_income) - threshold, 0)
    per_pay = {}
    if pay_frequency is not None:
        frequency = parse_frequency(pay_frequency)
        gross = exact_amount(gross_pay) if gross_pay is not None else exact_amount(annual_income) / PERIODS_PER_YEAR[frequency]
        per_pay = {
            "pay_frequency": frequency,
            "gross_pay": as_number(truncate_cents(gross)),
            "period_threshold": 0.0 if secondary_income else float(getattr(loan.period_thresholds, frequency)),
            "deduction_per_pay": as_number(truncate_cents(deduction_for_pay(loan, gross, frequency, secondary_income))),
        }
    return {
        "tax_year": rules.year,
        "threshold": 0.0 if secondary_income else as_number(money(loan.annual_threshold)),
        "rate": rate_number(exact(loan.rate)),
        "income_over_threshold": as_number(truncate_cents(over)),
        "annual_repayment": as_number(truncate_cents(over * exact(loan.rate))),
        "period_thresholds": {k: float(v) for k, v in loan.period_thresholds.model_dump().items()},
        "secondary_income": secondary_income,
        **per_pay,
        "method": "annual approximation; employers deduct per pay period over the pay-period threshold"
                  + (" (a secondary job's pay: every dollar)" if secondary_income else ""),
        "source": loan.secondary_source if secondary_income else loan.source,
    }
