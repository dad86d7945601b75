"""Questions about an extra pay (a bonus, leave paid out, a redundancy payment) or about the year's
refund or bill, read into calls of the two pay calculators.

In: the question as typed, its `Slots` and the tax year. Out: `PayPlan` (the calls and what was
assumed), or None when the question is not one of these or does not give the figures they need -
then the usual decision goes on. An extra pay needs its amount (the amount named next to the extra
pay's word) and the salary or pay it comes on top of; the year-end needs the main income and a
second job, an extra pay or interest with its withholding rate, or the year's income and the tax
taken off it in the year ("I earned $20,000 and had $3,000 of PAYE taken off. How much will I get
back?": the refund is that tax less the tax the year's income needs, so it is worked on both as stated).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import ROUND_DOWN, Decimal

from nztax.calculators import calculate_acc_levy, calculate_income_tax
from nztax.cue_words import cue
from nztax.leaning import leans_back
from nztax.sentences import asking_sentences, sentences
from nztax.rules import SECONDARY_CODES
from nztax.slots import Money, Slots
from nztax.rules import PERIODS_PER_YEAR
from nztax.calculators import choose_secondary_tax_code
from nztax.calculators.errors import ToolArgumentError

# The words that name an extra pay, and how it is asked about (data/cue_words.yaml).
EXTRA_PAY_WORDS = cue("extra_pay")
REDUNDANCY_WORDS = cue("redundancy")
LEAVING_WORDS = cue("leaving")
TAX_ON_IT_ASKED = cue("tax_on_it_asked")
KEPT_ASKED = cue("kept_asked")
YEAR_END_ASKED = cue("year_end_asked")
# Money coming back asked for, by name or as money got back ("How much will I get back?").
REFUND_ASKED = cue("refund_asked")
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
    if slots.comparison:
        return None
    if len(amounts) == 1:
        return _year_end_on_tax_taken(asked, slots, tax_year, amounts[0])
    if len(amounts) < 2:
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


def _asked_with_what_they_point_to(text: str) -> list[str]:
    """Each asking sentence, one that points back ("Why is that?", leaning.leans_back) read with the
    sentence before it, which says what "that" is ("My assessment says I get money back.")."""
    told = sentences(text)
    out = []
    for asking in asking_sentences(text):
        at = next((k for k, s in enumerate(told) if s.strip() == asking.strip()), None)
        out.append(f"{told[at - 1]} {asking}" if at and leans_back(asking) else asking)
    return out


def _year_end_on_tax_taken(asked: str, slots: Slots, tax_year: str, income: Money) -> PayPlan | None:
    """The year's income and the tax taken off it, each stated for the year, with the year's refund
    or bill asked in an asking sentence: the square-up on the tax as taken. Not when anything else the
    year's tax depends on is said (another income, a benefit or NZ Super, Working for Families, part of
    a year, money earned abroad), nor on a tax figure of no stated period that cannot be the year's
    (outside half to twice the year's income tax and levy: one pay's, or another sum)."""
    taken = [a for a in slots.amounts if a.role == "deduction" and not a.questioned]
    if (len(taken) != 1 or income.period != "annual" or taken[0].period != "annual" or taken[0].value >= income.value
            or slots.wff or slots.benefit_or_super or slots.nz_super or slots.part_year or slots.earned_overseas
            or slots.gst_inclusive or slots.flat_code or slots.no_ird_number):
        return None
    if not any(YEAR_END_ASKED.search(s) or REFUND_ASKED.search(s) for s in _asked_with_what_they_point_to(asked)):
        return None
    tax = taken[0]
    if not tax.period_stated:
        try:
            year_tax = (calculate_income_tax(float(income.value), tax_year=tax_year)["total_tax"]
                        + calculate_acc_levy(float(income.value), tax_year=tax_year)["annual_levy"])
        except ToolArgumentError:
            return None  # (a year the rules data does not hold: the usual decision says so)
        if not year_tax / 2 <= float(tax.value) <= year_tax * 2:
            return None
    args: dict = {"tax_year": tax_year, "salary_wages": float(income.value), "salary_paye": float(tax.value),
                  "tax_code": _main_code(slots)}
    if slots.student_loan:
        args["student_loan"] = True
    assumptions = [f"the {tax.text} taken off is the year's PAYE as a payslip shows it, the ACC earners' levy included",
                   "no other income in the year"]
    return PayPlan([("calculate_year_end_square_up", args)], assumptions)
