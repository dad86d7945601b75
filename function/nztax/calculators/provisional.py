"""Provisional tax under the standard option, for an individual with a 31 March balance date.

In: last year's residual income tax (RIT), whether last year's return is filed, and the tax year.
Out: whether provisional tax is due, the year's amount (RIT plus the standard uplift, or the year
before's plus the larger uplift while last year's return is not filed) and the equal instalments.
Internal to the offline answers (not a model tool): the figures come from the year's rules data.
"""

from __future__ import annotations

from fractions import Fraction

from nztax.calculators.common import year_rules
from nztax.calculators.money import as_number, exact_amount, round_cents
from nztax.rules import exact


def standard_provisional_tax(residual_income_tax: float, tax_year: str | None = None, last_return_filed: bool = True) -> dict:
    rules = year_rules(tax_year, "provisional_tax")
    rule = rules.section("provisional_tax")
    rit = exact_amount(residual_income_tax)
    due = rit > exact_amount(rule.residual_income_tax_threshold)
    uplift = exact(rule.standard_uplift if last_return_filed else rule.standard_uplift_unfiled)
    amount = rit * (1 + uplift) if due else Fraction(0)
    dates = list(rule.instalment_dates)
    return {
        "tax_year": rules.year,
        "residual_income_tax": as_number(round_cents(rit)),
        "threshold": float(rule.residual_income_tax_threshold),
        "due": due,
        "last_return_filed": last_return_filed,
        "uplift": float(uplift),
        "provisional_tax": as_number(round_cents(amount)),
        "instalment": as_number(round_cents(amount / len(dates))) if due else 0,
        "instalment_dates": dates,
        "source": rule.source,
    }
