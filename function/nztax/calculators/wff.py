"""Working for Families for a tax year: the family tax credit, the in-work tax credit and the
abatement of both on family income.

In: the family's income for the tax year, how many dependent children, whether the family is in
paid work (not on a main benefit or student allowance), and the tax year. Out: the abatement (the
rules' rate of family income over the abatement threshold), the full family tax credit (the eldest
child's amount plus each other child's) and what is left after abatement, then, for a working
family, the in-work tax credit (one amount for one to three children plus an amount for each child
after the third) less any abatement the family tax credit did not absorb. A year whose rules state no
family tax credit amounts (no stored IRD page states them) gives the abatement only and says so.
Best Start, the minimum family tax credit and shared care are not worked out here.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Annotated

from pydantic import Field, StrictBool

from nztax.calculators.common import MAX_AMOUNT, year_rules
from nztax.calculators.income_tax import TaxYear
from nztax.calculators.money import as_number, exact_amount, round_cents
from nztax.rules import TaxYearRules, exact


def _in_work_full(rules: TaxYearRules, children: int) -> Fraction | None:
    """The year's full in-work tax credit, each period weighted by its share of the year's days."""
    section = rules.data.in_work_tax_credit
    if section is None:
        return None
    total = Fraction(0)
    for p in section.periods:
        amount = exact_amount(p.up_to_three_children) + max(children - 3, 0) * exact_amount(p.each_child_after_third)
        total += amount * Fraction((p.end - p.start).days + 1, rules.days)
    return total


def calculate_working_for_families(
    family_income: Annotated[float, Field(ge=0, le=MAX_AMOUNT, allow_inf_nan=False, description="Family income for the tax year in NZD: yours and your partner's, before tax.")],
    children: Annotated[int | None, Field(ge=1, le=30, description="Dependent children you are the principal caregiver of.")] = None,
    in_work: Annotated[StrictBool, Field(description="You or your partner work for salary, wages or self-employed income and get no main benefit or student allowance (for the in-work tax credit).")] = False,
    tax_year: TaxYear = None,
) -> dict:
    """Working for Families for a tax year: the family tax credit and, for a working family, the in-work tax credit, each after abatement on family income."""
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
    if rule.abatement_from is not None:
        result["abatement_from"] = rule.abatement_from.isoformat()
    if not children:
        return result
    result["children"] = children
    if rule.ftc_eldest_child is None:
        result["ftc_amounts_stated"] = False
        result["note"] = (f"No IRD page this site holds states the family tax credit amounts for {rules.year}; "
                          "only the abatement is worked out.")
        return result
    full = exact_amount(rule.ftc_eldest_child) + (children - 1) * exact_amount(rule.ftc_each_other_child)
    ftc = max(Fraction(0), full - abatement)
    result.update(full_credit=as_number(round_cents(full)), credit_after_abatement=as_number(round_cents(ftc)))
    if in_work:
        iwtc_full = _in_work_full(rules, children)
        if iwtc_full is not None:
            left_over = max(Fraction(0), abatement - full)
            iwtc = max(Fraction(0), iwtc_full - left_over)
            result.update(in_work_full=as_number(round_cents(iwtc_full)), in_work_after_abatement=as_number(round_cents(iwtc)),
                          total=as_number(round_cents(ftc + iwtc)), in_work_source=rules.data.in_work_tax_credit.source)
    return result


def family_tax_credit(family_income: float, children: int | None = None, tax_year: str | None = None) -> dict:
    """The family tax credit part only (the offline answers' sum for a stated family income)."""
    return calculate_working_for_families(family_income, children, False, tax_year)
