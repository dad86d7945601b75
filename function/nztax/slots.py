"""Slots: what a question says beyond its intent — amounts of money with their period and role,
hours and weeks, a tax code, a tax year and the conditions that change an answer.

In: the question text (and the rule book, for tax years). Out: `Slots`.

    slots = read_slots("I earn $70,000 and put 3.5% in KS. What comes out of each fortnightly pay?", rules)
    slots.annual_income()              # Decimal('70000') — a year unless the text says otherwise
    slots.asked_period                 # 'fortnightly' — the period the answer is wanted in
    slots.kiwisaver_rate               # 3.5

A number is money only where the text makes it money: a currency sign, a k/m suffix, a money word
nearby (earn, salary, pay, wage, income, donate …) or a period ("a week"). Form and section
numbers (IR330, US 1040, LC 15), ages, years, counts of hours, weeks, days or children never are.
An amount that cannot be read for sure is kept with `questioned` set, so the engine asks instead of
computing. Nothing here knows an intent: roles ("second job", "partner", "donations") come from the
words next to each amount.

The parts: text_cleaning (clean text, number words), amount_grammar (money and periods),
amount_roles and amount_owners (what each amount is and whose), money_reader (`find_money`),
worked_amounts (amounts worked out from others), question_conditions (years, codes, conditions).
This module holds the `Slots` record and its assembly (`read_slots`) and re-exports the parts'
names other modules use.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field, replace
from decimal import Decimal

from nztax.calendar_dates import kiwisaver_year_of, month_number, months_to_march, read_dates
from nztax.cue_words import alternatives
from nztax.contract import tax_year_starting
from nztax import rules as nztax_rules
from nztax.rules import PAY_FREQUENCIES, RuleBook, current_tax_year, tax_year_for
from nztax.text_cleaning import UNIT_WORDS, clean_text, words_to_number
from nztax.amount_grammar import (AMOUNT, EVERY_PAY_WORDS, MONTH_NAMES, Money, PERIODS_PER_YEAR, _value, asked_and_paid,
                                  period_opening_its_sentence,
                                  asked_period, given_for_one_amount, money_value)
from nztax.amount_roles import (ALSO_WORK, ASKS_IF_RIGHT, BARE_NUMBER_QUESTIONED, EMPLOYER_PUTS_IN,
                                HOUSEHOLD_QUESTIONED, ONE_OF_THEM_PICKED, OTHER_INCOME_ROLES, PAYSLIP_SAYS,
                                SECOND_JOB_WORDS, TAX_FIGURE_AFTER, _sentence_before, names_no_second_job)
from nztax.amount_owners import INCOME_LIKE_ROLES
from nztax.money_reader import HOURS, HOURS_LABELLED, KIWISAVER, find_money
from nztax.worked_amounts import (HELD_PAST_BRIGHT_LINE, PROPERTY_HELD_UNKNOWN, SALE_PRICE_ONLY,
                                  _bright_line_years, _months_paid, _one_year_each, _restated_total,
                                  _sale_less_purchase, _takings_less_costs, _without_restated_gap, months_held)
from nztax.question_conditions import (ACQUIRED_BEFORE, ADD_UP, BARE_YEAR, BENEFIT_OR_SUPER, BUSINESS_OWNED_AS,
                                       BUSINESS_STARTED, CALENDAR_YEAR, CODE_ASKED, COMPARISON, EARNED_HERE,
                                       EARNED_OVERSEAS, ESCT, EXTRA_INCOME, FLAT_CODE_WORK, FULL_DATE,
                                       GOVERNMENT_CONTRIBUTION, GST_EXCLUSIVE, GST_INCLUSIVE, HOURS_A_YEAR,
                                       IT_PAYS, KIWISAVER_YEAR_END, MID_MONTH, MONTH_YEAR, NAMES_TAKE_HOME,
                                       NEGATION, NOTHING_BEFORE, NO_IRD_NUMBER, NO_KIWISAVER, NO_STUDENT_LOAN,
                                       NZ_SUPER, OFFERS_WEIGHED, ONLY_INCOME, OTHER_RATE_NEAR,
                                       PART_AMOUNT_STATED, PART_YEAR, PAY_DATED, PERCENT, RANGE_BEFORE,
                                       SOMEONE_ELSES, STUDENT_LOAN, UNNAMED_BUSINESS_PROFIT, WEEKS, WFF,
                                       YEAR_AFTER_TAX_WORD, _full_year, _stated, find_tax_code, find_tax_codes,
                                       ietc_months, resolve_tax_year, without_denied)
from nztax.literal_screen import screen_patterns


@dataclass
class Slots:
    """Everything a question states that an answer depends on."""

    amounts: list[Money] = field(default_factory=list)
    hours_per_week: Decimal | None = None
    weeks_per_year: Decimal | None = None
    hours_per_year: Decimal | None = None   # hours in the tax year: an hourly rate's year without weeks
    asked_period: str | None = None
    paid_every: str | None = None     # a pay frequency said outside the asking sentence: how the pays fall
    tax_code: str | None = None
    student_loan: bool | None = None
    kiwisaver: bool | None = None
    kiwisaver_rate: float | None = None
    kiwisaver_rates: tuple[float, ...] = ()  # two KiwiSaver rates set side by side
    employer_rate: float | None = None
    wff: bool = False
    benefit_or_super: bool = False
    nz_super: bool = False
    calendar_year: bool = False       # a calendar year named: a year that is not a tax year
    gst_inclusive: bool = False       # figures with GST in them, which income tax is not on
    year_of_rule: bool = False        # a calendar year's number as the year of a rule
    extra_only: bool = False          # extra money, and nothing said of the rest of the income
    gross_only: bool = False          # takings or rent before costs, and no costs stated
    earned_overseas: bool = False     # income earned in another country
    business_unnamed: bool = False    # a business's profit: whose, and how the business is set up, unsaid
    part_year: bool = False           # a salary for part of the tax year
    part_year_months: int | None = None  # a start date with no income before it: the months it is paid for
    denies_conditions: bool = False   # what would stop the IETC is said not to apply
    excluded_part_year: bool = False  # WFF, a benefit or NZ Super said to cover only part of the year
    ietc_months: int | None = None    # the whole months left for the IETC, when the text says them surely
    no_ird_number: bool = False
    flat_code: str | None = None      # work with a flat code of its own (NSW for the RSE scheme)
    names_income_tax: bool = False    # income tax named: the sum it names
    names_acc_levy: bool = False      # the ACC earners' levy named: the levy it names
    second_job: bool = False          # a second job is what the question is about
    names_take_home: bool = False     # the net pay named (take-home, after tax)
    names_pir: bool = False           # the PIR named: the rate it names, whatever else the amount suggests
    asks_code: bool = False           # a code is what is asked, not a sum
    names_government_contribution: bool = False  # the government's KiwiSaver contribution named
    kiwisaver_year: str | None = None # the KiwiSaver year named, as "2025-26" (1 July to 30 June)
    tax_year: str | None = None
    year_text: str | None = None
    pay_date: str | None = None       # the date of a pay named: YYYY-MM-DD
    negated: bool = False
    adds_up: bool = False
    comparison: bool = False
    between: bool = False            # "between $50,000 and $70,000": a band, not two incomes

    @property
    def incomes(self) -> list[Money]:
        return [a for a in self.amounts if a.is_income]

    @property
    def contributions(self) -> list[Money]:
        """What the person put into KiwiSaver themselves ("I contributed $800")."""
        return [a for a in self.amounts if a.role == "contribution" and not a.questioned]

    @property
    def questioned(self) -> list[Money]:
        return [a for a in self.amounts if a.questioned and a.role in ("income", "main_job", "second_job", "total", "other", *OTHER_INCOME_ROLES)]

    def annual(self, amount: Money) -> Decimal | None:
        """An amount as a year's worth; None for an hourly rate without hours a week."""
        if amount.period == "hourly":
            if self.hours_per_year is not None:
                return amount.value * self.hours_per_year
            if self.hours_per_week is None:
                return None
            return amount.value * self.hours_per_week * (self.weeks_per_year or PERIODS_PER_YEAR["weekly"])
        return amount.value * PERIODS_PER_YEAR[amount.period]

    def annual_income(self) -> Decimal | None:
        """The year's income the question is about: the main income, or the jobs added up when the
        text says they add up. None when there is no usable income."""
        incomes = [a for a in self.incomes if not a.questioned]
        if not incomes:
            return None
        totals = [a for a in incomes if a.role == "total"]
        if totals and not self.comparison:
            return self.annual(totals[0])  # a total stated: already added up
        if self.adds_up and not self.comparison:
            # Other taxable income (interest, a side business, a trading gain) counts when the text
            # says it adds up ("plus", "on top", "total").
            incomes += [a for a in self.amounts if a.role in OTHER_INCOME_ROLES and not a.questioned]
        if len(incomes) > 1 and self.adds_up and not self.comparison:
            values = [self.annual(a) for a in incomes]
            return None if any(v is None for v in values) else sum(values, Decimal(0))
        return self.annual(incomes[0])

    def income_amount(self) -> Money | None:
        incomes = [a for a in self.incomes if not a.questioned]
        return incomes[0] if incomes else None


# A profit shared equally, and the asker's own part of it asked about.
HALF_SHARE = re.compile(alternatives("half_share"), re.I)
MY_SHARE_ASKED = re.compile(alternatives("my_share_asked"), re.I)
RENTAL_WORDS = re.compile(alternatives("rental_words"), re.I)
ON_TOP_OF_BEFORE = re.compile(r"\bon top of\s*(?:" + alternatives("determiners_of_the_main_pay") + r")?\s*(?:(?:"
                              + alternatives("main_pay_kinds")
                              + r")\s+)?(?:" + alternatives("main_pay_nouns") + r")?\s*(?:of\s+)?(?:nz)?\$?$", re.I)


RATES_SIDE_BY_SIDE = re.compile(r"\d%\s*(?:vs\.?|versus|or|to|and)\s*\d+(?:\.\d+)?\s?%|\b(?:difference|compare|compared)\b", re.I)
TAX_AND_ACC = re.compile(alternatives("tax_and_acc"), re.I)


def read_slots(text: str, rules: RuleBook | None = None, current: str | None = None) -> Slots:
    """Read a question's slots; never raises for any text."""
    text = clean_text(text)
    current = current or current_tax_year()
    amounts = find_money(text)
    # An equal partnership's profit with their share asked: half of it is theirs.
    if HALF_SHARE.search(text) and MY_SHARE_ASKED.search(text):
        shared = [a for a in amounts if a.role in OTHER_INCOME_ROLES or a.questioned == HOUSEHOLD_QUESTIONED]
        if len(shared) == 1:
            half = shared[0]
            amounts = [replace(a, value=a.value / 2, text=f"half of {a.text}", questioned=None,
                               role="investment_income" if RENTAL_WORDS.search(text) else "other_income") if a is half else a
                       for a in amounts]
    # The pay an extra amount is said to sit on top of is the main income.
    base = next((a for a in amounts if a.role in ("other_income", "income") and ON_TOP_OF_BEFORE.search(text[max(0, a.start - 30):a.start])), None)
    if base is not None and any(a is not base and a.role in ("income", *OTHER_INCOME_ROLES) for a in amounts):
        amounts = [replace(a, role="income") if a is base else replace(a, role="other_income") if a.role == "income" and a.start < base.start
                   else a for a in amounts]
    if (len(amounts) == 1 and amounts[0].role == "deduction" and find_tax_code(text)
            and not ASKS_IF_RIGHT.search(text) and not PAYSLIP_SAYS.search(text)):
        # The one amount beside a tax code is the pay the PAYE is on, not PAYE already taken (that
        # comes with the pay it came off, or with a request to check it).
        amounts = [replace(amounts[0], role="income")]
    # A bare number that is a stated amount in thousands says that amount again.
    thousands = {a.value for a in amounts if not a.questioned}
    amounts = [a for a in amounts if not (a.questioned and a.questioned.endswith(BARE_NUMBER_QUESTIONED) and a.value * 1000 in thousands)]
    # Tax taken off in a period its sentence opens with was taken in that period.
    amounts = [replace(a, period=opening, period_stated=True) if a.role == "deduction" and not a.period_stated
               and (opening := period_opening_its_sentence(text, a.start)) else a for a in amounts]
    slots = Slots(amounts=amounts)
    ym = HOURS_A_YEAR.search(text)
    hm = HOURS.search(text) or HOURS_LABELLED.search(text)
    if ym:
        slots.hours_per_year = Decimal(ym.group("h").replace(",", ""))
    elif hm:
        slots.hours_per_week = Decimal(hm.group("h"))
    wm = WEEKS.search(text)
    if wm and Decimal(wm.group("w")) <= 53:
        slots.weeks_per_year = Decimal(wm.group("w"))
    if slots.hours_per_week is not None:
        weekly = {a.value for a in amounts if a.period == "weekly" and a.is_income}
        # "40.00 hrs @ 29.80 … Gross 1,192.00": the rate and the week's gross it makes are one pay.
        slots.amounts = amounts = [a for a in amounts if not (a.period == "hourly" and a.value * slots.hours_per_week in weekly)]
    slots.asked_period, slots.paid_every = asked_and_paid(text, amounts)
    # The period of a figure to check (a claimed one, or tax said to come off in a stated period) is the one checked.
    # (A year's tax taken asks no year: a year's sum and one pay's both answer it, figure_check.add_the_levy.)
    claimed = next((a for a in amounts if (a.role == "claimed" or a.role == "deduction" and a.period in PAY_FREQUENCIES)
                    and a.period_stated), None)
    if slots.asked_period is None and claimed is not None:
        slots.asked_period = claimed.period
    slots.tax_code = find_tax_code(text)
    if NO_STUDENT_LOAN.search(text):
        slots.student_loan = False
    elif STUDENT_LOAN.search(text) or (slots.tax_code or "").endswith("SL"):
        slots.student_loan = True
    employer = re.search(r"employer\w*(?:'s)?\s+(?:\w+\s+){0,4}?(?P<p>\d+(?:\.\d+)?)\s?(?:%|percent)", text, re.I)
    if employer:
        slots.employer_rate = float(employer.group("p"))
    if NO_KIWISAVER.search(text):
        slots.kiwisaver = False
    elif KIWISAVER.search(text) or employer or ESCT.search(text):
        slots.kiwisaver = True
        # The rate said of KiwiSaver: of several percentages, the one nearest a KiwiSaver word that is
        # not another rate (a mortgage's interest rate, say).
        mentions = [m.start() for m in KIWISAVER.finditer(text)]
        rates = [pm for pm in PERCENT.finditer(text)
                 if not (employer and pm.start("p") == employer.start("p"))
                 and not OTHER_RATE_NEAR.search(text[max(0, pm.start() - 25):pm.end() + 15])
                 and not SOMEONE_ELSES.search(re.split(r"[.;!?]", text[:pm.start()])[-1])]
        # (A rate said of a partner or someone else is not theirs.)
        if mentions and rates:
            nearest = min(rates, key=lambda pm: min(abs(pm.start() - k) for k in mentions))
            slots.kiwisaver_rate = float(nearest.group("p"))
        distinct = list(dict.fromkeys(float(pm.group("p")) for pm in rates))
        if mentions and len(distinct) == 2 and RATES_SIDE_BY_SIDE.search(text):
            # Two rates weighed or a rate changed from one to another: both rates.
            slots.kiwisaver_rates = tuple(distinct)
    slots.wff = _stated(WFF, text)
    slots.benefit_or_super = _stated(BENEFIT_OR_SUPER, text)
    slots.nz_super = slots.benefit_or_super and _stated(NZ_SUPER, text)
    slots.excluded_part_year, slots.ietc_months = ietc_months(text)
    slots.denies_conditions = not (slots.wff or slots.benefit_or_super) and bool(WFF.search(text) or BENEFIT_OR_SUPER.search(text))
    slots.no_ird_number = bool(NO_IRD_NUMBER.search(text))
    slots.second_job = any(not names_no_second_job(text, m) for m in SECOND_JOB_WORDS.finditer(text))
    # (Tax and ACC named as a pair: the year's income tax and the earners' levy.)
    tax_and_acc = TAX_AND_ACC.search(text)
    slots.names_income_tax = bool(re.search(r"\bincome tax\b", text, re.I) or tax_and_acc)
    slots.names_acc_levy = bool(re.search(r"\bacc\b[^.?!]{0,20}\blevy\b|\bearners'? levy\b", text, re.I) or tax_and_acc)
    slots.names_take_home = bool(NAMES_TAKE_HOME.search(text))
    slots.names_pir = bool(re.search(r"\b(?:pir|prescribed investor rate)\b", text, re.I))
    slots.asks_code = bool(CODE_ASKED.search(text))
    slots.names_government_contribution = bool(GOVERNMENT_CONTRIBUTION.search(text))
    ky = KIWISAVER_YEAR_END.search(text)
    if ky:
        end_year = int(ky.group("y") or ky.group("y2"))
        slots.kiwisaver_year = tax_year_starting(end_year - 1)
    else:
        slots.kiwisaver_year = kiwisaver_year_of(read_dates(text, nztax_rules.today()))
    slots.calendar_year = bool(CALENDAR_YEAR.search(text))
    slots.gst_inclusive = bool(GST_INCLUSIVE.search(text)) and not GST_EXCLUSIVE.search(text)
    # (Two incomes, each for its part of the year, are the year.)
    started = PART_YEAR.search(text)
    yearly = [a for a in amounts if a.is_income and a.period == "annual"]
    if started and not BUSINESS_STARTED.search(text) and len(yearly) == 1 and yearly[0].period_stated and NOTHING_BEFORE.search(text) \
            and (started.group("day") or started.group("day2") or "1") == "1":
        # A start date and no income before it: the months from the start to 31 March.
        slots.part_year_months = months_to_march(started.group("month"))
    slots.part_year = (bool(started) and not BUSINESS_STARTED.search(text) and slots.part_year_months is None
                       and not (PART_AMOUNT_STATED.search(text) and not (yearly and yearly[0].period_stated))
                       and bool(yearly)
                       and len([a for a in amounts if a.is_income]) < 2)
    amounts, spans = _months_paid(text, _sale_less_purchase(text, _restated_total(text, amounts), _bright_line_years(rules, current),
                                                            nztax_rules.today()))
    amounts = slots.amounts = _one_year_each(text, _takings_less_costs(text, amounts, slots), slots)
    earned = [a for a in amounts if a.role in ("income", *OTHER_INCOME_ROLES)]
    slots.earned_overseas = bool(EARNED_OVERSEAS.search(text)) and not EARNED_HERE.search(text)
    # (Money earned abroad is beside whatever else they earn here.)
    slots.extra_only = (bool(EXTRA_INCOME.search(text) or slots.earned_overseas) and not ONLY_INCOME.search(text) and len(earned) == 1
                        and not earned[0].says_salary and not any(a.role in ("main_job", "second_job", "total") for a in amounts))
    slots.business_unnamed = bool(UNNAMED_BUSINESS_PROFIT.search(text)) and not BUSINESS_OWNED_AS.search(text)
    slots.flat_code = next((code for code, words in FLAT_CODE_WORK.items() if words.search(text)), None)
    slots.tax_year, slots.year_text = resolve_tax_year(text, rules, current)
    # A calendar year's number alone could be the tax year ending in March of it or the one starting
    # in April of it.
    slots.year_of_rule = bool(slots.year_text and YEAR_AFTER_TAX_WORD.fullmatch(slots.year_text))
    slots.calendar_year = slots.calendar_year or slots.year_of_rule or bool(slots.year_text and BARE_YEAR.fullmatch(slots.year_text))
    dm = FULL_DATE.search(text) or PAY_DATED.search(text)
    if dm:
        month = dm.group("m")
        try:
            day = dt.date(_full_year(dm.group("y")), int(month) if month.isdigit() else month_number(month),
                          int(dm.group("d")))
        except ValueError:
            day = None
        if day is not None:
            slots.pay_date = day.isoformat()
            if slots.tax_year is None:
                slots.tax_year, slots.year_text = tax_year_for(day), dm.group(0)
    if slots.tax_year is None:
        dated = [(dt.date(int(mm.group("y")), month_number(mm.group("m")), 1), mm.group(0))
                 for mm in MONTH_YEAR.finditer(text) if not ACQUIRED_BEFORE.search(text[max(0, mm.start() - 40):mm.start()])]
        if dated:
            # A month named: the tax year that month falls in (1 April to 31 March). Of several (a
            # purchase and a sale), the latest: the sale.
            day, said = max(dated)
            slots.tax_year, slots.year_text = tax_year_for(day), said
            if slots.pay_date is None and len(dated) == 1:
                # A pay in that month is worked with the rates then in force (a rate change within a
                # tax year matters). Mid-month stands for the month.
                slots.pay_date = day.replace(day=MID_MONTH).isoformat()
    slots.negated = bool(NEGATION.search(text))
    each = re.search(r"\b(two|2|both)\b[^.?!]{0,30}\bjobs?\b(?:[^.?!]{0,30}\beach\b|.{0,80}\b(?:at|from|in|for) each(?: one| job)?\b|.{0,80}\bapiece\b)",
                     text, re.I)
    if each and len(slots.incomes) == 1:
        # Jobs that each pay the same amount, said once: the amount for each.
        first = slots.incomes[0]
        slots.amounts = [replace(first, role="main_job"), replace(first, role="second_job", start=first.start + 1)]
    mains = [a for a in slots.amounts if a.role == "main_job"]
    others = [a for a in slots.amounts if a.role == "income"]
    if not mains and len(others) == 2 and others[0].period == "annual" and others[1].period in PAY_FREQUENCIES:
        # A year's salary first, then another job's pay.
        mains, others = others[:1], others[1:]
    if len(mains) == 1 and len(others) == 1 and ALSO_WORK.search(_sentence_before(text, others[0])):
        # Work named as besides the main job: the other job.
        slots.amounts = [replace(a, role="second_job") if a is others[0] else replace(a, role="main_job") if a is mains[0] else a
                         for a in slots.amounts]
    if slots.second_job and not any(a.role in ("main_job", "second_job") for a in slots.amounts):
        # A pay said of "it" right after a second job is named: that job's.
        slots.amounts = [replace(a, role="second_job") if a.role == "income" and IT_PAYS.search(text[max(0, a.start - 25):a.start])
                         else a for a in slots.amounts]
    slots.adds_up = (bool(ADD_UP.search(text)) or {"main_job", "second_job"} <= {a.role for a in slots.amounts}
                     or spans >= 2)
    slots.between = bool(re.search(r"\bbetween\s+\$?\d[\d,.]*\s?k?\s+and\s+\$?\d", text, re.I))
    slots.comparison = any(
        COMPARISON.search(text[max(0, b.start - 30):b.start]) or RANGE_BEFORE.search(text[max(0, a.start - 10):a.start])
        or given_for_one_amount(text, a, b)  # (two figures for one income, "$800-$900 a week": both ends worked, never added)
        for a, b in zip(slots.amounts, slots.amounts[1:]) if a.is_income and b.is_income) or (
        len(slots.incomes) == 2 and bool(OFFERS_WEIGHED.search(text)))
    if slots.comparison:
        slots.amounts = _without_restated_gap(slots.amounts)
    picked = ONE_OF_THEM_PICKED.search(text)
    if picked and len(slots.incomes) > 1 and (slots.comparison or picked.group("noun").lower() in ("option", "offer", "package")):
        # (Of two jobs, the one picked by its figure is the job a code is asked for: both incomes still count.)
        # One of two offers picked by its figure: the one asked about.
        value = _value(picked.group("num"), picked.group("suf"), is_money=True)
        if value is not None and any(a.value == value for a in slots.incomes):
            slots.amounts = [a for a in slots.amounts if not a.is_income or a.value == value]
            slots.comparison = slots.adds_up = False
    return slots


@dataclass(frozen=True)
class Reading:
    """What a question says beyond its words: two questions with the same words but a different
    reading ("do I have to give …" / "don't give …"; $60,000 a month / a year) want different
    answers. The FAQ fast path serves a stored answer only for the same reading."""

    negated: bool
    amounts: frozenset[tuple[Decimal, str, str]]
    asked_period: str | None
    tax_code: str | None
    student_loan: bool | None
    kiwisaver_rate: float | None
    conditions: tuple[bool, bool, bool]


def reading(slots: Slots) -> Reading:
    return Reading(
        negated=slots.negated,
        amounts=frozenset((a.value.normalize(), a.period, a.role) for a in slots.amounts),
        asked_period=slots.asked_period, tax_code=slots.tax_code, student_loan=slots.student_loan,
        kiwisaver_rate=slots.kiwisaver_rate, conditions=(slots.wff, slots.benefit_or_super, slots.no_ird_number),
    )


screen_patterns(globals())  # (literal_screen.py: each pattern above tried only on a text with a literal it needs)
