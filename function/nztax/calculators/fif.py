"""FIF income under the fair dividend rate (FDR) method, for an individual.

In: the opening market value of the person's foreign investment fund interests, the tax year and,
optionally, their marginal income tax rate. Out: the FDR income (the rules' rate of the opening
value) and, with a marginal rate, the tax on it. Whether the FIF rules apply at all depends on the
interests' total cost (the rules' de minimis), which the caller states alongside.
Internal to the offline answers (not a model tool): the figures come from the year's rules data.
"""

from __future__ import annotations

from nztax.calculators.common import year_rules
from nztax.calculators.money import as_number, exact_amount, round_cents
from nztax.rules import exact


def fair_dividend_rate_income(opening_value: float, tax_year: str | None = None, marginal_rate: float | None = None) -> dict:
    rules = year_rules(tax_year, "foreign_investment_funds")
    rule = rules.section("foreign_investment_funds")
    income = exact_amount(opening_value) * exact(rule.fair_dividend_rate)
    result = {
        "tax_year": rules.year,
        "opening_value": as_number(round_cents(exact_amount(opening_value))),
        "fair_dividend_rate": float(rule.fair_dividend_rate),
        "fif_income": as_number(round_cents(income)),
        "de_minimis_cost": float(rule.de_minimis_cost),
        "source": rule.source,
    }
    if marginal_rate is not None:
        result.update(marginal_rate=marginal_rate, tax=as_number(round_cents(income * exact(marginal_rate))))
    return result
