"""Which secondary tax code fits: from total expected annual income across all jobs.

In: estimated total annual income (all sources), student loan flag, tax year or pay date.
Out: the code (SB, S, SH, ST or SA, with SL when a loan is held), its rate, the rate including the
ACC levy, and the thresholds in force on the date (they changed on 31 July 2024).
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, StrictBool

from nztax.calculators.common import MAX_AMOUNT
from nztax.calculators.income_tax import TaxYear
from nztax.calculators.money import exact_amount, rate_number
from nztax.calculators.paye import resolve_pay_date
from nztax.rules import SECONDARY_CODES, exact


def choose_secondary_tax_code(
    total_annual_income: Annotated[float, Field(ge=0, le=MAX_AMOUNT, allow_inf_nan=False, description="Expected total annual income from all jobs and sources, NZD.")],
    student_loan: Annotated[StrictBool, Field(description="You have a New Zealand student loan.")] = False,
    tax_year: TaxYear = None,
    pay_date: Annotated[str | None, Field(description="Date the code will apply from, YYYY-MM-DD (thresholds changed on 31 July 2024).")] = None,
) -> dict:
    """Choose the secondary tax code for a second job from your expected total annual income."""
    rules, day, _ = resolve_pay_date(pay_date, tax_year)
    period = rules.secondary_period(day)
    income = exact_amount(total_annual_income)
    chosen = next(c for c in SECONDARY_CODES if period.codes[c].income_to is None or income <= period.codes[c].income_to)
    rate = exact(period.codes[chosen].rate)
    acc_rate = exact(rules.section("acc_levy").rate)
    return {
        "tax_year": rules.year,
        "tax_code": f"{chosen} SL" if student_loan else chosen,
        "rate": rate_number(rate),
        "rate_with_acc_levy": rate_number(rate + acc_rate),
        "student_loan_rate": rate_number(exact(rules.section("student_loan").rate)) if student_loan else None,
        "thresholds": [
            {"tax_code": c, "income_up_to": period.codes[c].income_to, "rate": rate_number(exact(period.codes[c].rate))}
            for c in SECONDARY_CODES
        ],
        "source": rules.section("secondary_codes").source,
    }
