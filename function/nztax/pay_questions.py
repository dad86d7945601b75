"""Questions about an extra pay (a bonus, leave paid out, a redundancy payment) or about the year's
refund or bill, read into calls of the two pay calculators.

In: the question as typed, its `Slots` and the tax year. Out: `PayPlan` (the calls and what was
assumed), or None when the question is not one of these or does not give the figures they need -
then the usual decision goes on. An extra pay needs its amount (the amount named next to the extra
pay's word) and the salary or pay it comes on top of; the year-end needs the main income and a
second job, an extra pay or interest with its withholding rate.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import ROUND_DOWN, Decimal

from nztax.cue_words import cue
from nztax.rules import SECONDARY_CODES
from nztax.slots import Money, Slots
from nztax.rules import PERIODS_PER_YEAR
from nztax.calculators import choose_secondary_tax_code

# The words that name an extra pay, and how it is asked about (data/cue_words.yaml).
EXTRA_PAY_WORDS = cue("extra_pay")
REDUNDANCY_WORDS = cue("redundancy")
LEAVING_WORDS = cue("leaving")
TAX_ON_IT_ASKED = cue("tax_on_it_asked")
KEPT_ASKED = cue("kept_asked")
YEAR_END_ASKED = cue("year_end_asked")
YEARS_TAX_ASKED = cue("years_tax_asked")
INTEREST_WORDS = cue("interest")
RATE = re.compile(r"(\d{1,2}(?:\.\d{1,2})?)\s?%")
# How near (in characters) an amount must be to the word that names it.
NEAR = 30
PAY_FREQUENCIES = ("weekly", "fortnightly", "four_weekly", "monthly")
DEFAULT_FREQUENCY = "fortnightly"
INCOME_ROLES = ("income", "main_job", "total", "other_income", "investment_income", "second_job")


@dataclass
class PayPlan:
    calls: list[tuple[str, dict]]
    assumptions: list[str] = field(default_factory=list)


def _named_by(text: str, amounts: list[Money], words: re.Pattern) -> list[Money]:
    """The amounts a word names: for each match, the nearest whole amount within NEAR characters."""
    named: list[Money] = []
    for m in words.finditer(text):
        gap = lambda a: max(a.start - m.end(), m.start() - a.end, 0)
        near = [a for a in amounts if a.period == "annual" and gap(a) <= NEAR]
        if near:
            best = min(near, key=gap)
            if best not in named:
                named.append(best)
    return named


def _usable(slots: Slots) -> list[Money]:
    return [a for a in slots.amounts if not a.questioned and a.role in INCOME_ROLES and a.period != "hourly"]


def _main_code(slots: Slots) -> str:
    code = (slots.tax_code or "M").upper()
    return code if code.split()[0] in ("M", "ME") else "M"


def _salary_terms(salary: Money, assumptions: list[str]) -> tuple[str, float, Decimal]:
    """(pay frequency, one pay, the year's salary) from a salary stated for a year or for a pay."""
    if salary.period in PAY_FREQUENCIES:

        return salary.period, float(salary.value), salary.value * PERIODS_PER_YEAR[salary.period]
    assumptions.append(f"paid {DEFAULT_FREQUENCY}, the same pay every time")
    one_pay = (salary.value / 26).quantize(Decimal("0.01"), rounding=ROUND_DOWN)
    return DEFAULT_FREQUENCY, float(one_pay), salary.value


def plan(asked: str, slots: Slots, tax_year: str) -> PayPlan | None:
    """The calls that answer an extra-pay or year-end question on its own figures, or None."""
    amounts = _usable(slots)
    if len(amounts) < 2 or slots.comparison:
        return None
    extras = _named_by(asked, amounts, EXTRA_PAY_WORDS)
    if YEAR_END_ASKED.search(asked):
        return _year_end(asked, slots, tax_year, amounts, extras)
    if len(extras) != 1 or not TAX_ON_IT_ASKED.search(asked) or YEARS_TAX_ASKED.search(asked) or KEPT_ASKED.search(asked):
        return None
    extra = extras[0]
    salaries = [a for a in amounts if a is not extra]
    if len(salaries) != 1:
        return None
    assumptions: list[str] = []
    frequency, one_pay, yearly = _salary_terms(salaries[0], assumptions)
    if extra.value >= yearly:
        return None  # not an extra pay on top of this pay
    redundancy = bool(REDUNDANCY_WORDS.search(asked))
    on_leaving = bool(LEAVING_WORDS.search(asked))
    args = {"extra_pay": float(extra.value), "pay_frequency": frequency, "regular_pay": one_pay, "tax_code": _main_code(slots),
            "on_leaving": on_leaving, "redundancy": redundancy, "tax_year": tax_year}
    if slots.kiwisaver_rate is not None:
        args["kiwisaver_rate"] = slots.kiwisaver_rate
    if not slots.tax_code:
        assumptions.append("tax code M")
    return PayPlan([("calculate_extra_pay_paye", args)], assumptions)


def _year_end(asked: str, slots: Slots, tax_year: str, amounts: list[Money], extras: list[Money]) -> PayPlan | None:
    """Main income plus a second job, an extra pay or interest with its rate: the square-up."""
    assumptions: list[str] = []
    second = [a for a in amounts if a.role == "second_job"]
    interest = [a for a in _named_by(asked, amounts, INTEREST_WORDS) if a not in second and a not in extras]
    main = [a for a in amounts if a not in second and a not in extras and a not in interest]
    if len(main) != 1 or not (second or extras or interest) or len(second) > 1 or len(extras) > 1 or len(interest) > 1:
        return None
    frequency, _, salary = _salary_terms(main[0], assumptions)
    args: dict = {"tax_year": tax_year, "salary_wages": float(salary), "tax_code": _main_code(slots), "pay_frequency": frequency}
    if _main_code(slots) == "M" and not (slots.tax_code or "").upper().startswith("M"):
        assumptions.append("tax code M on the main job all year")
    if second:

        pay = second[0]
        yearly = pay.value * PERIODS_PER_YEAR[pay.period] if pay.period in PERIODS_PER_YEAR else pay.value
        stated = (slots.tax_code or "").upper().split()
        if stated and stated[0] in SECONDARY_CODES:
            code = stated[0]
        else:

            code = choose_secondary_tax_code(float(salary + yearly), tax_year=tax_year)["tax_code"]
            assumptions.append(f"the second job on the secondary code for the total, {code}")
        args.update(second_job_wages=float(yearly), second_job_tax_code=code)
    if extras:
        args.update(extra_pays=float(extras[0].value), redundancy=bool(REDUNDANCY_WORDS.search(asked)))
    if interest:
        rate = RATE.search(asked[interest[0].end:interest[0].end + 60] or "") or RATE.search(asked)
        if rate is None:
            return None  # the RWT taken decides the interest's part, and it is not said
        args.update(interest=float(interest[0].value), rwt=float((interest[0].value * Decimal(rate.group(1)) / 100).quantize(Decimal("0.01"))))
    if slots.student_loan:
        args["student_loan"] = True
    return PayPlan([("calculate_year_end_square_up", args)], assumptions)
