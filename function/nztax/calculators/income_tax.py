"""Annual income tax on taxable income, with the band breakdown.

In: taxable income and a tax year. Out: total tax (nearest cent), effective and marginal rates, and
the tax in each band. 2024-25 uses IRD's composite annual rates from the rules data.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from nztax.calculators.common import MAX_AMOUNT, marginal_rate, tax_on_bands, year_rules
from nztax.calculators.errors import ToolArgumentError
from nztax.calculators.money import as_number, exact_amount, rate_number, round_cents

TaxYear = Annotated[str | None, Field(description='Tax year "YYYY-YY", e.g. "2026-27" (1 April 2026 - 31 March 2027). Default: the current tax year.')]


def calculate_income_tax(
    taxable_income: Annotated[float, Field(ge=0, le=MAX_AMOUNT, allow_inf_nan=False, description="Annual taxable income in NZD.")],
    tax_year: TaxYear = None,
    other_income: Annotated[float | None, Field(ge=0, le=MAX_AMOUNT, allow_inf_nan=False, description=(
        "Optional: the part of taxable_income the question is about (interest, a side business, a gain "
        "on top of a salary). The result then also says how much tax that part adds."))] = None,
) -> dict:
    """Annual New Zealand income tax for an individual's taxable income, with the tax in each band,
    the effective (average) rate and the marginal rate. 2024-25 uses IRD's composite rates. With
    `other_income`, also the tax that part of the income adds on top of the rest."""
    rules = year_rules(tax_year, "income_tax")
    section = rules.section("income_tax")
    income = exact_amount(taxable_income)
    total, slices = tax_on_bands(income, section.bands)
    total_tax = round_cents(total)
    effective = (total / income) if income else 0  # from the exact tax, not the rounded one
    added = {}
    if other_income:
        other = exact_amount(other_income)
        if other > income:
            raise ToolArgumentError("other_income", "other_income must not be more than taxable_income, which includes it")
        without, _ = tax_on_bands(income - other, section.bands)
        added = {"other_income": as_number(round_cents(other)),
                 "income_without_other": as_number(round_cents(income - other)),
                 "tax_without_other_income": as_number(round_cents(without)),
                 "tax_on_other_income": as_number(total_tax - round_cents(without))}
    return {
        "tax_year": rules.year,
        "taxable_income": as_number(round_cents(income)),
        "total_tax": as_number(total_tax),
        "effective_rate": round(float(effective), 4),
        "marginal_rate": rate_number(marginal_rate(income, section.bands)),
        "breakdown": [
            {
                "band_from": s.lower,
                "band_to": s.upper,
                "rate": rate_number(s.rate),
                "income_in_band": as_number(round_cents(s.amount)),
                "tax": as_number(round_cents(s.tax)),
            }
            for s in slices
        ],
        **added,
        "composite_rates": rules.section("income_tax").composite_rates,
        "source": section.source,
    }
