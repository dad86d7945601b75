"""The calculator calls a calculation makes, with their arguments.

In: a `Decision` being planned, its `Slots`, an amount and its year's income. Out: the calls added
to the decision (PAYE, take-home pay, student loan deduction, a second job's PAYE, the government
KiwiSaver contribution), the tax code and pay frequency they assume, or a clarify when one cannot be
made.
"""

from __future__ import annotations

import re
from dataclasses import replace
from decimal import ROUND_DOWN, Decimal
from typing import TYPE_CHECKING

from nztax.cue_words import alternatives
from nztax.calculators.paye import PRIMARY_CODES
from nztax.rules import FLAT_CODES, SECONDARY_CODES
from nztax.settings import get_settings
from nztax.slots import (EARNED_OVERSEAS, EXTRA_INCOME, OTHER_INCOME_ROLES, PAY_FREQUENCIES, PERIODS_PER_YEAR,
                         Money, Slots, find_tax_codes)
from nztax.understand import default_catalogue
from nztax.literal_screen import screen_patterns
from nztax.calculators.errors import ToolArgumentError
from nztax.calculators.secondary import choose_secondary_tax_code

if TYPE_CHECKING:
    from nztax.decide import Decision

# The student loan deduction asked about.
LOAN_ASKED = re.compile(alternatives("loan_asked"), re.I)
# Tax taken off a pay asked about.
TAX_OFF_ASKED = re.compile(alternatives("tax_off_asked"), re.I)
# Two codes set side by side (versus, or, between).
CODES_SIDE_BY_SIDE = re.compile(r"\b(?:code\s+)?(?P<a>me|m|sb|sh|st|sa|s)\s+(?:vs\.?|versus|or|and|compared (?:to|with)|instead of|rather than)\s+"
                                r"(?:code\s+)?(?P<b>me|m|sb|sh|st|sa|s)\b(?:\s+(?:tax\s+)?code)?", re.I)
COMPARED_WORDS = re.compile(r"\b(?:" + alternatives("compared_words") + r")\b", re.I)
# Two or more jobs named, and a figure wanted for each of them.
TWO_JOBS = re.compile(r"\b(?:" + alternatives("two_jobs") + r")\s+(?:part[- ]time\s+)?(?:jobs|employers)\b", re.I)


def _loan_asked(d: Decision, slots: Slots) -> bool:
    """Whether the question asks about the student loan deduction itself ("sl on second job 400 a week")."""
    return bool(slots.student_loan) and bool(LOAN_ASKED.search(d.asked))


def _second_job_loan(d: Decision, pay: Money) -> bool:
    """"My second job pays $240 a week and I have a student loan: how much comes off?": on any secondary
    code the loan deduction is the rate on every dollar of that job's pay, so the code need not be known.
    Turns the decision into the rule's answer with that figure; False when the year's rules lack it."""
    year = _year_data(d)
    loan = year.student_loan if year is not None else None
    rule = next((spec for spec in default_catalogue().intents if spec.rule_sum == "secondary_sl"), None)
    if loan is None or rule is None:
        return False
    rate = Decimal(str(loan.rate))
    d.action, d.intent, d.calls = "fact", rule, []
    d.rule_results["secondary_sl"] = {"pay": pay.value, "pay_frequency": pay.period, "rate": rate,
                                      "deduction": _truncated(pay.value * rate)}
    return True


def _truncated(value: Decimal) -> Decimal:
    """Down to the cent, as IRD truncates."""
    return value.quantize(Decimal("0.01"), rounding=ROUND_DOWN)


def _cents(value: Decimal) -> float:
    return float(_truncated(value))


def _clarify(d: Decision, missing: str, reason: str | None = None) -> None:
    d.action, d.missing, d.clarify_reason = "clarify", [missing], reason


def base_code(code: str) -> str:
    """'M SL' -> 'M': the code without its student loan suffix."""
    return (code.split() or [""])[0]


def _code(slots: Slots, default: str = "M") -> str:
    code = slots.tax_code or ("ND" if slots.no_ird_number else default)
    if slots.student_loan and not code.endswith("SL") and code not in FLAT_CODES:
        code = f"{code} SL"
    return code


def _pay_asked_about(asked: str, slots: Slots) -> Money | None:
    """A pay with no period of its own named after the words asking what comes off it ("what would
    come off a $175 shift?")."""
    m = TAX_OFF_ASKED.search(asked)
    return next((a for a in slots.amounts if m and a.start > m.start() and a.is_income and not a.period_stated
                 and not a.questioned), None)


def _add_second_job_paye(d: Decision, slots: Slots, code_args: dict, year: str, asked_pay: Money | None) -> None:
    """"Which code should the bar use, and how much tax comes off the $500?": the second job's PAYE
    on its own pay (the pay asked about, else the second job's), on the code chosen from the total income."""
    second = asked_pay or next((a for a in slots.incomes if a.role == "second_job" and not a.questioned), None)
    if second is None:
        return
    try:
        code = choose_secondary_tax_code(**code_args)["tax_code"]
    except ToolArgumentError:
        return
    call = _paye_call(d, replace(slots, tax_code=code), second, slots.annual(second) or second.value, year)
    if call is not None and call not in d.calls:
        d.calls.append(call)
    elif call is None:
        d.action, d.missing = "calculate", []  # (the code stands; the pay's period was not clear enough to go on)


def _codes_compared(asked: str) -> list[str] | None:
    """Two tax codes set side by side ("M vs ME", "code M or ME", "between M and ME"), in order."""
    codes = list(dict.fromkeys(code for _, code in find_tax_codes(asked)))
    m = CODES_SIDE_BY_SIDE.search(asked)
    if m and len(codes) < 2:
        codes = list(dict.fromkeys([m.group("a").upper(), m.group("b").upper()]))
    return codes[:2] if len(codes) >= 2 and (m or COMPARED_WORDS.search(asked)) else None


def _year_data(d: Decision):
    """The rules data of the tax year the decision is about (None when the rule book lacks it)."""
    year = d.rules.years.get(d.tax_year) if d.rules is not None else None
    return year.data if year is not None else None


def _pir_taxable_ceiling(d: Decision) -> Decimal | None:
    """The highest taxable income any lower prescribed investor rate allows, from the year's rules."""
    year = _year_data(d)
    pir = year.pir if year is not None else None
    if pir is None or not pir.limits_stated:
        return None
    return max((Decimal(str(t.taxable_income_max)) for t in pir.rates), default=None)


def _pir_limits_unstated(d: Decision) -> bool:
    """Whether the year's rules hold the prescribed investor rates without their income limits."""
    year = _year_data(d)
    return year is not None and year.pir is not None and not year.pir.limits_stated


def _government_contribution_cap(d: Decision) -> Decimal | None:
    """The income above which no government contribution is paid, from the year's rules."""
    year = _year_data(d)
    gc = year.government_contribution if year is not None else None
    return Decimal(str(gc.income_cap)) if gc is not None and gc.income_cap is not None else None


def _plan_government_contribution(d: Decision, slots: Slots) -> None:
    """The government contribution on what the person put in themselves ("I contributed $800 this
    KiwiSaver year"): their pay, if stated, only for the income cap."""
    income = slots.annual_income()
    cap = _government_contribution_cap(d)
    # Nothing is paid above the cap, whatever they put in.
    over_cap = income is not None and cap is not None and income > cap
    if not slots.contributions and not over_cap:
        _clarify(d, "contribution")
        return
    put_in = sum((slots.annual(a) or a.value for a in slots.contributions), Decimal(0))
    args = {"gross_pay": float(income or 0), "pay_frequency": "annual", "member_contributions": _cents(put_in),
            "tax_year": d.tax_year}
    if income is not None:
        args["annual_income"] = float(income)
    if slots.kiwisaver_year:
        args["kiwisaver_year"] = slots.kiwisaver_year
    d.calls = [("calculate_kiwisaver", args)]


def _income_and_extra(slots: Slots, asks_extra: bool = False, asked: str = "") -> tuple[Decimal | None, Decimal]:
    """(the income from work for the year, the other income on top of it): "$12,000 profit trading
    crypto and my salary is $70k" is $70,000 and $12,000. Asked what the extra costs ("52k day job …
    how much extra tax is the $15,600?"), incomes that add up are the main one and the extra."""
    jobs = [a for a in slots.incomes if not a.questioned]
    others = [a for a in slots.amounts if a.role in OTHER_INCOME_ROLES and not a.questioned]
    if asks_extra and not others and len(jobs) > 1 and slots.adds_up and not slots.comparison:
        # The main one is named so, else the one not told as money on the side or from overseas ("I tutor
        # on the side, $8k, plus a part-time job paying $30k").
        around = {id(a): asked[max(0, a.start - 30):a.end + 20] for a in jobs}
        told_as_extra = [a for a in jobs if EXTRA_INCOME.search(around[id(a)]) or EARNED_OVERSEAS.search(around[id(a)])]
        main = next((a for a in jobs if a.role in ("main_job", "total")), None) or next(
            (a for a in jobs if a not in told_as_extra), jobs[0])
        jobs, others = [main], [a for a in jobs if a is not main]
    if not jobs or not others:
        return None, Decimal(0)
    values = [slots.annual(a) for a in (jobs if slots.adds_up else jobs[:1])]
    extra = [slots.annual(a) for a in others]
    if any(v is None for v in values + extra):
        return None, Decimal(0)
    return sum(values, Decimal(0)), sum(extra, Decimal(0))


def _pay_frequency(slots: Slots, amount: Money) -> str | None:
    if slots.asked_period in PAY_FREQUENCIES:
        return slots.asked_period
    if amount.period in PAY_FREQUENCIES:
        return amount.period
    return slots.paid_every  # how the pays fall, said in the story


def _call_for(tool: str, d: Decision, slots: Slots, amount: Money, annual: Decimal, year: str) -> tuple[str, dict] | None:
    money = float(annual)
    if tool == "calculate_income_tax":
        # A pay period asked about, or how the pays fall when the amount's own period is unsaid ("paid
        # weekly, $1,200"); a year's amount stated as one stays a year's.
        if slots.asked_period in PAY_FREQUENCIES or (slots.asked_period is None and slots.paid_every and not amount.period_stated):
            # Tax out of each pay on a year's salary is a pay question.
            return _paye_call(d, slots, amount, annual, year)
        return tool, {"taxable_income": money, "tax_year": year}
    if tool == "calculate_acc_levy":
        args = {"annual_income": money, "tax_year": year}
        frequency = _pay_frequency(slots, amount)
        if frequency:
            args["pay_frequency"] = frequency
        return tool, args
    if tool == "calculate_student_loan_repayment":
        if slots.tax_code is None and amount.role == "second_job" and amount.period in PAY_FREQUENCIES and _second_job_loan(d, amount):
            return None  # (answered by the rule: every dollar of a second job's pay, whichever secondary code)
        if slots.tax_code is not None and base_code(slots.tax_code) in SECONDARY_CODES:
            # A secondary job's loan deduction has no threshold: the pay's own deductions show it,
            # on that job's own pay.
            second = next((a for a in slots.incomes if a.role == "second_job" and not a.questioned), None)
            if second is not None:
                return _paye_call(d, slots, second, slots.annual(second) or second.value, year)
            return _paye_call(d, slots, amount, annual, year)
        weekly_hours = amount.period == "hourly" and slots.hours_per_week is not None and TAX_OFF_ASKED.search(d.asked)
        if slots.asked_period != "annual" and (_pay_frequency(slots, amount) or weekly_hours):
            # The loan asked of one pay: the employer's deduction from that pay (over the pay period's threshold), not a year's repayment.
            return _paye_call(d, replace(slots, student_loan=True), amount, annual, year)
        return tool, {"annual_income": money, "tax_year": year}
    if tool == "calculate_ietc":
        args = {"annual_income": money, "tax_year": year, "receives_working_for_families": slots.wff,
                "receives_benefit": slots.benefit_or_super and not slots.nz_super, "receives_nz_super": slots.nz_super}
        if slots.ietc_months is not None:
            # The credit is worked per whole month: the months the payment did not touch get theirs.
            args["months_eligible"] = slots.ietc_months
        elif slots.excluded_part_year:
            # Part of the year, but which months is not sure: the full year's credit, said per month.
            args.update(receives_working_for_families=False, receives_benefit=False, receives_nz_super=False)
        return tool, args
    if tool == "choose_secondary_tax_code":
        return tool, {"total_annual_income": money, "student_loan": bool(slots.student_loan), "tax_year": year}
    if tool == "calculate_kiwisaver":
        frequency = _pay_frequency(slots, amount) or "annual"
        if frequency == "annual":
            gross = annual  # the year's income, jobs added up when the question says so
        else:  # one pay, as stated or as the year divided into the pays asked about
            gross = amount.value if frequency == amount.period else annual / PERIODS_PER_YEAR[frequency]
        args = {"gross_pay": _cents(gross), "pay_frequency": frequency, "tax_year": year}
        if slots.kiwisaver_rate is not None:
            args["employee_rate"] = slots.kiwisaver_rate
        if slots.employer_rate is not None:
            args["employer_rate"] = slots.employer_rate
        return tool, args
    if tool == "calculate_paye":
        jobs = [a for a in slots.incomes if not a.questioned]
        if len(jobs) > 1 and slots.adds_up and not slots.comparison:
            if slots.second_job or TWO_JOBS.search(d.asked) or any(a.role in ("main_job", "second_job") for a in jobs):
                # PAYE is each employer's, on its own pay: the main job's (its code follows its own
                # pay), never the jobs added up.
                # Each job whose own code is stated after it gets its own PAYE ("$700 a week on
                # M SL, the other $220 a week on S SL").
                codes = _codes_of(d.asked, jobs)
                if codes:
                    calls = [_paye_call(d, replace(slots, tax_code=code), job, slots.annual(job) or job.value, year)
                             for job, code in zip(jobs, codes)]
                    d.per_job = True
                    d.calls += [c for c in calls[:-1] if c is not None and c not in d.calls]
                    return calls[-1]
                main = next((a for a in jobs if a.role == "main_job"), jobs[0])
                return _paye_call(d, slots, main, slots.annual(main) or main.value, year)
            if len({a.period for a in jobs}) == 1:
                # A base pay plus allowances for the same period: parts of one pay.
                one = replace(jobs[0], value=sum((a.value for a in jobs), Decimal(0)))
                return _paye_call(d, slots, one, slots.annual(one) or one.value, year)
        return _paye_call(d, slots, amount, annual, year)
    if tool == "calculate_take_home_pay":
        code = _code(slots)
        if base_code(code) not in PRIMARY_CODES:
            return _paye_call(d, slots, amount, annual, year)  # a secondary or flat code works per pay
        frequency = _pay_frequency(slots, amount)
        return _take_home_call(d, slots, amount, annual, year, frequency or "annual")
    raise ValueError(f"no arguments are known for the calculator {tool!r}")  # the catalogue names a tool decide.py does not plan


def _codes_of(text: str, jobs: list[Money]) -> list[str] | None:
    """Each job's own tax code, when every job has one named after it and before the next job."""
    codes = find_tax_codes(text)
    ends = [j.start for j in jobs[1:]] + [len(text)]
    own = [next((c for at, c in codes if job.start < at < end), None) for job, end in zip(jobs, ends)]
    return own if all(own) else None


def _paye_call(d: Decision, slots: Slots, amount: Money, annual: Decimal, year: str) -> tuple[str, dict] | None:
    """IRD's PAYE for one pay: the pay as stated, or a year's pay divided into the pays asked about
    (monthly when neither the question nor the amount names a pay period)."""
    if amount.role == "second_job" and slots.tax_code is None:
        # A second job's PAYE depends on its secondary code, which depends on the total income (its
        # student loan deduction does not).
        if not (_loan_asked(d, slots) and amount.period in PAY_FREQUENCIES and _second_job_loan(d, amount)):
            _clarify(d, "secondary_code")
        return None
    code = _code(slots, d.default_code)
    frequency = _pay_frequency(slots, amount)
    if frequency is None and amount.period == "hourly" and slots.hours_per_week is not None:
        frequency = "weekly"  # an hourly rate with hours a week: a week's pay
    one_pay = (not amount.period_stated and amount.value <= Decimal(str(get_settings().per_pay_ceiling))
               and slots.asked_period != "annual")  # (a year asked: the amount is the year's)
    if one_pay and frequency is None and base_code(code) in PRIMARY_CODES:
        # One pay, but PAYE depends on how often it is paid.
        _clarify(d, "frequency")
        return None
    frequency = frequency or "monthly"
    if amount.period == frequency or one_pay:
        # A small amount with no period is one pay.
        gross = amount.value
    else:
        gross = annual / PERIODS_PER_YEAR[frequency]
        d.assumptions.append(f"paid {frequency.replace('_', '-')}, {PERIODS_PER_YEAR[frequency]} equal pays a year")
    args = {"gross_pay": _cents(gross), "pay_frequency": frequency, "tax_code": code, "tax_year": year}
    if slots.pay_date is not None:
        args["pay_date"] = slots.pay_date  # the rates in force on the day it was paid
    _kiwisaver_rate(d, slots, args, year)
    if slots.tax_code is None:
        d.assumptions.append(f"tax code {code}")
    return "calculate_paye", args


def _loan_deduction_call(paye_args: dict, year: str) -> tuple[str, dict]:
    """The student loan calculator on the same pay as a PAYE call: its deduction from that pay,
    with no threshold on a secondary code's pay."""
    frequency, gross = paye_args["pay_frequency"], paye_args["gross_pay"]
    return "calculate_student_loan_repayment", {
        "annual_income": _cents(Decimal(str(gross)) * PERIODS_PER_YEAR[frequency]), "tax_year": year,
        "pay_frequency": frequency, "gross_pay": gross,
        "secondary_income": base_code(paye_args["tax_code"]) not in PRIMARY_CODES}


def _kiwisaver_rate(d: Decision, slots: Slots, args: dict, year: str) -> None:
    """The employee's KiwiSaver rate for a pay: as stated, or the year's default rate when they say
    they are in KiwiSaver without a rate ("I'm in KiwiSaver at the default rate")."""
    if slots.kiwisaver_rate is not None:
        args["kiwisaver_rate"] = slots.kiwisaver_rate
        return
    year_rules = d.rules.years.get(year) if d.rules is not None and slots.kiwisaver else None
    scheme = year_rules.data.kiwisaver if year_rules is not None else None
    if scheme is not None and scheme.default_employee_rate:
        args["kiwisaver_rate"] = float(Decimal(str(scheme.default_employee_rate)) * 100)
        d.assumptions.append(f"KiwiSaver at the default rate of {args['kiwisaver_rate']:g}%")


def _take_home_call(d: Decision, slots: Slots, amount: Money, annual: Decimal, year: str, frequency: str) -> tuple[str, dict]:
    code = _code(slots, d.default_code)
    args = {"annual_salary": _cents(annual), "tax_code": base_code(code), "tax_year": year,
            "pay_frequency": frequency if frequency in PAY_FREQUENCIES else "fortnightly"}
    if slots.student_loan:
        args["student_loan"] = True
    _kiwisaver_rate(d, slots, args, year)
    if slots.tax_code is None:
        d.assumptions.append(f"tax code {code}")
    d.slots.asked_period = slots.asked_period or (frequency if frequency in PAY_FREQUENCIES else "annual")
    return "calculate_take_home_pay", args


screen_patterns(globals())  # (literal_screen.py: each pattern above tried only on a text with a literal it needs)
