"""The Working for Families family tax credit for a stated family income.

In: the family's income for the tax year, optionally how many dependent children, and the tax
year. Out: the abatement (the rules' rate of family income over the abatement threshold) and,
given the children, the full credit (the eldest child's amount plus each other child's) and what
is left of it after abatement. An abatement larger than the credit comes off the in-work tax
credit, which this does not work out. Internal to the offline answers (not a model tool): the
figures come from the year's rules data.
"""

from __future__ import annotations

from fractions import Fraction

from nztax.calculators.common import year_rules
from nztax.calculators.money import as_number, exact_amount, round_cents
from nztax.rules import exact


def family_tax_credit(family_income: float, children: int | None = None, tax_year: str | None = None) -> dict:
    rules = year_rules(tax_year, "working_for_families")
    rule = rules.section("working_for_families")
    income = exact_amount(family_income)
    over = max(Fraction(0), income - exact_amount(rule.abatement_threshold))
    abatement = over * exact(rule.abatement_rate)
    result = {
        "tax_year": rules.year,
        "family_income": as_number(round_cents(income)),
        "abatement_threshold": float(rule.abatement_threshold),
        "abatement_rate": float(rule.abatement_rate),
        "income_over_threshold": as_number(round_cents(over)),
        "abatement": as_number(round_cents(abatement)),
        "source": rule.source,
    }
    if children:
        full = exact_amount(rule.ftc_eldest_child) + (children - 1) * exact_amount(rule.ftc_each_other_child)
        result.update(children=children, full_credit=as_number(round_cents(full)),
                      credit_after_abatement=as_number(round_cents(max(Fraction(0), full - abatement))))
    return result
