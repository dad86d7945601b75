"""Donation tax credit: a share of eligible donations, capped by taxable income.

In: the year's donations (a total, or a list of single donations) and taxable income.
Out: the credit (nearest cent). Single donations below the minimum do not count.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from nztax.calculators.common import MAX_AMOUNT, year_rules
from nztax.calculators.income_tax import TaxYear
from nztax.calculators.money import as_number, exact_amount, rate_number, round_cents
from nztax.rules import exact
from nztax.calculators.errors import ToolArgumentError


def calculate_donation_tax_credit(
    donations: Annotated[Annotated[float, Field(ge=0, le=MAX_AMOUNT, allow_inf_nan=False)] | list[Annotated[float, Field(ge=0, le=MAX_AMOUNT, allow_inf_nan=False)]], Field(description="Total eligible donations in NZD, or a list of single donations (those under the minimum do not count).")],
    taxable_income: Annotated[float, Field(ge=0, le=MAX_AMOUNT, allow_inf_nan=False, description="Taxable income for the year in NZD (caps the claim).")],
    tax_year: TaxYear = None,
) -> dict:
    """Donation tax credit for donations to approved donee organisations: a third of eligible
    donations, limited to a third of taxable income."""
    rules = year_rules(tax_year, "donation_credit")
    rule = rules.section("donation_credit")
    if isinstance(donations, (int, float)):
        if donations < 0:

            raise ToolArgumentError("donations", "donations must not be negative")
        gifts = [exact_amount(donations)]
    else:
        gifts = [exact_amount(d) for d in donations]
    minimum = exact_amount(rule.minimum_donation)
    eligible = sum((g for g in gifts if g >= minimum), start=exact_amount(0))
    income = exact_amount(taxable_income)
    claimable = min(eligible, income)
    return {
        "tax_year": rules.year,
        "total_donations": as_number(round_cents(sum(gifts, start=exact_amount(0)))),
        "eligible_donations": as_number(round_cents(eligible)),
        "capped_by_income": eligible > income,
        "rate": rate_number(exact(rule.rate), 4),
        "credit": as_number(round_cents(claimable * exact(rule.rate))),
        "minimum_donation": float(rule.minimum_donation),
        "claim_years": rule.claim_years,
        "source": rule.source,
    }
