"""Student loan repayment on a year's salary or wages (an annual approximation).

In: annual income and tax year. Out: 12% of income over the annual threshold, truncated to the cent.
Real deductions are made per pay period over the pay-period threshold (see `calculate_paye`), with no
end-of-year square-up for salary and wage earners, so this is labelled an approximation.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from nztax.calculators.common import MAX_AMOUNT, year_rules
from nztax.calculators.income_tax import TaxYear
from nztax.calculators.money import as_number, exact_amount, rate_number, truncate_cents
from nztax.rules import exact, money


def calculate_student_loan_repayment(
    annual_income: Annotated[float, Field(ge=0, le=MAX_AMOUNT, allow_inf_nan=False, description="Annual salary or wage income in NZD.")],
    tax_year: TaxYear = None,
) -> dict:
    """Annual student loan repayment for a New Zealand-based borrower on salary or wages:
    the repayment rate on income over the annual repayment threshold."""
    rules = year_rules(tax_year, "student_loan")
    loan = rules.section("student_loan")
    over = max(exact_amount(annual_income) - exact_amount(loan.annual_threshold), 0)
    return {
        "tax_year": rules.year,
        "threshold": as_number(money(loan.annual_threshold)),
        "rate": rate_number(exact(loan.rate)),
        "income_over_threshold": as_number(truncate_cents(over)),
        "annual_repayment": as_number(truncate_cents(over * exact(loan.rate))),
        "period_thresholds": {k: float(v) for k, v in loan.period_thresholds.model_dump().items()},
        "method": "annual approximation; employers deduct per pay period over the pay-period threshold",
        "source": loan.source,
    }
