"""Prescribed investor rate (PIR) for a New Zealand-resident individual.

In: taxable income and PIE income for the latest tax year and optionally the year before.
Out: the lowest rate either year qualifies for (IRD's two-year test), else the default rate; a year
whose rules state no income limits is refused (RulesError) rather than worked on another year's.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, StrictBool

from nztax.calculators.common import MAX_AMOUNT, year_rules
from nztax.calculators.errors import ToolArgumentError
from nztax.calculators.income_tax import TaxYear
from nztax.calculators.money import exact_amount, rate_number
from nztax.rules import RulesError, exact

Amount = Annotated[float, Field(ge=0, le=MAX_AMOUNT, allow_inf_nan=False)]


def find_prescribed_investor_rate(
    taxable_income: Annotated[float, Field(ge=0, le=MAX_AMOUNT, allow_inf_nan=False, description="Taxable income (excluding PIE income) in the latest full tax year, NZD.")],
    pie_income: Annotated[float, Field(ge=0, le=MAX_AMOUNT, allow_inf_nan=False, description="PIE income (after any losses) in the latest full tax year, NZD.")],
    prior_taxable_income: Annotated[float | None, Field(ge=0, le=MAX_AMOUNT, allow_inf_nan=False, description="Taxable income in the year before (optional).")] = None,
    prior_pie_income: Annotated[float | None, Field(ge=0, le=MAX_AMOUNT, allow_inf_nan=False, description="PIE income in the year before (optional).")] = None,
    nz_resident: Annotated[StrictBool, Field(description="New Zealand tax resident.")] = True,
    tax_year: TaxYear = None,
) -> dict:
    """The prescribed investor rate to give a PIE (e.g. a KiwiSaver fund) from the last two years' income."""
    rules = year_rules(tax_year, "pir")
    pir = rules.section("pir")
    default = exact(pir.default_rate)
    if not nz_resident:
        return {"tax_year": rules.year, "rate": rate_number(default), "reason": "Non-residents use the default rate.", "source": pir.source}
    if prior_pie_income is not None and prior_taxable_income is None:
        raise ToolArgumentError("prior_taxable_income", "give the prior year's taxable income with its PIE income")
    if not pir.limits_stated:
        # Another year's limits would be a wrong figure stated as this year's: IRD's finder works it out.
        raise RulesError(f"the income limits for the lower prescribed investor rates in {rules.year} are not "
                         f"confirmed on an Inland Revenue page I hold; IRD's Find my PIR tool works out your rate: {pir.finder or pir.source}")
    years = [(taxable_income, pie_income)]
    if prior_taxable_income is not None:
        years.append((prior_taxable_income, prior_pie_income or 0))
    best = default
    for taxable, pie in years:
        t, total = exact_amount(taxable), exact_amount(taxable) + exact_amount(pie)
        for tier in pir.rates:
            if t <= exact_amount(tier.taxable_income_max) and total <= exact_amount(tier.total_income_max):
                best = min(best, exact(tier.rate))
                break
    reason = "Lowest rate that either of the last two tax years qualifies for." if best != default else "Income is above the lower-rate thresholds in both years."
    return {"tax_year": rules.year, "rate": rate_number(best), "years_checked": len(years), "reason": reason, "source": pir.source}
