"""The questions decide() asks back, each a step of its pipeline.

In: the `Decision` (decide.py) and its `Reading` (reading_switches.py). Out: True when the step
settled the decision (asked back, or turned the question away), else False and the decision is as it
was. The conditions they lean on are clarify_checks' and calculation_plan's; what each question back
says is the composer's (`Decision.missing`).

    if which_year(decision, reading): return decision   # decision.missing == ["which_year"]
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from nztax.calculation_plan import (ALL_INCOME_TOOLS, ANNUAL_TOOLS, ASKS_TOTAL, ONLY_JOB, _extra_tax_on_one_amount,
                                    _income_for, _same_sum_either_year, _what_else_reason)
from nztax.calculator_calls import _clarify
from nztax.clarify_checks import (_asked_of_a_known_calendar_year, _asks_own_figure, _missing_before_anything,
                                  _same_rule_either_year)
from nztax.cue_words import alternatives
from nztax.rules import SECONDARY_CODES
from nztax.amount_grammar import EVERY_PAY
from nztax.slots import PAY_FREQUENCIES, find_tax_codes
from nztax.literal_screen import screen_patterns

if TYPE_CHECKING:
    from nztax.decide import Decision
    from nztax.reading_switches import Reading

# Words that only continue an earlier turn (an opening "and", "what about"): the subject is the turn before.
CONTINUES = re.compile(r"^\s*(?:(?:ok|okay|right|so)\s*,?\s*)?(?:" + alternatives("continues") + r")\b", re.I)
# A short question about "it", "that" or "this" with nothing before it: what it means must be asked.
BARE_PRONOUN = re.compile(r"\b(?:" + alternatives("bare_pronoun")
                          + r")\b(?!\s+(?:" + alternatives("bare_pronoun_not_before") + r")\b)", re.I)
BARE_QUESTION_MAX_WORDS = 5
# Words that say nothing of what "it" is (greetings, auxiliaries, tax verbs): a question of only these
# and a bare pronoun names no subject.
# (Matched whole against each word of the question.)
SUBJECTLESS_WORD = re.compile(alternatives("subjectless_words"), re.I)
WORD = re.compile(r"[a-z']+", re.I)
# Tax named, even in a short subjectless question, is a subject: the rates answer it.
TAX_WORD = re.compile(alternatives("tax_word"), re.I)
# Sums whose rate follows the rest of the year's income (the ACC levy's rate does not).
RATE_DEPENDS_ON_INCOME_TOOLS = ("calculate_income_tax", "calculate_paye", "calculate_take_home_pay",
                                "calculate_student_loan_repayment")
# The rental or business named as what the sum is on: its gross, not a salary, is asked about.
GROSS_ASKED_ABOUT = re.compile(r"\b(?:" + alternatives("gross_asked_on") + r") (?:" + alternatives("determiners_of_the_gross")
                               + r") (?:"
                               + alternatives("gross_asked_about")
                               + r")", re.I)
# A refund asked for, by name or as money coming back.
REFUND_ASKED = re.compile(alternatives("refund_asked"), re.I)
# Wages from a job on top of a benefit or NZ Super: the job is then the secondary income.
WAGES_BESIDE = re.compile(r"\b(?:" + alternatives("wages_beside")
                          + r")\s+(?:(?:" + alternatives("determiners_of_wages_beside") + r")\s+)?(?:"
                          + alternatives("wages_beside_nouns") + r")\b", re.I)
# A KiwiSaver rate said to have changed, without the new rate: the default would be the wrong rate.
KIWISAVER_RATE_CHANGED = re.compile(alternatives("kiwisaver_rate_changed"), re.I)
# Earnings beside the pay named without their amount (a side business, a second job): the total is unknown.
SIDE_EARNINGS_NAMED = re.compile(alternatives("side_earnings_named"), re.I)
# Earnings beside the pay denied right before they are named ("no side business"): none to add.
SIDE_EARNINGS_DENIED = re.compile(r"\b(?:" + alternatives("side_earnings_denied") + r")\s+(?:"
                                  + alternatives("side_earnings_denied_determiners") + r")?$", re.I)
# A secondary code written out (SB, S, SH, ST, SA): the job's code is said.
SECONDARY_CODE_NAMED = re.compile(r"\b(?:" + "|".join(re.escape(c) for c in SECONDARY_CODES) + r")\b")
# A difference asked for (more, extra, less, better or worse off): two figures are weighed.
DIFFERENCE_ASKED = re.compile(alternatives("difference_asked"), re.I)
# A pay named as the new one (a raise, an offer) right before its amount: the one worked on.
NEW_PAY_BEFORE = re.compile(r"\b(?:" + alternatives("new_pay_before") + r")\b[^.?!$\d]{0,20}$", re.I)


def _ask(d: Decision, missing: str, reason: str | None = None) -> bool:
    """Ask back for `missing`: the step settled the decision."""
    _clarify(d, missing, reason)
    return True


# -- before the reading is weighed -------------------------------------------------------------------

def own_sum_with_nothing(d: Decision, r: Reading) -> bool:
    """A sum of their own, or a question too vague to place, with nothing to work from: ask for the income."""
    intent, runner = r.intent, r.runner
    if (not r.sure and runner is not None and {intent.does, runner.does} <= {"clarify", "calculate"}
            and _income_for(d.slots, intent.tool).income_amount() is None and _asks_own_figure(d.asked)
            and not (r.donation and r.gives_only)):
        d.action = "clarify"
        d.missing = ["income"]
        return True
    return False


def no_subject(d: Decision, r: Reading) -> bool:
    """A pronoun or a continuation with no turn before it: the thing asked about is not in the
    question, so it is asked for."""
    asked = d.asked
    subjectless = all(SUBJECTLESS_WORD.fullmatch(w) for w in WORD.findall(asked))
    if (not d.used_history and r.states_nothing and r.intent.does not in ("refuse", "decline")
            and (BARE_PRONOUN.search(asked) and (len(asked.split()) <= BARE_QUESTION_MAX_WORDS
                                                  or CONTINUES.match(asked) and len(asked.split()) <= 2 * BARE_QUESTION_MAX_WORDS
                                                  or subjectless)
                 or subjectless and len(asked.split()) <= BARE_QUESTION_MAX_WORDS and not TAX_WORD.search(asked))):
        return _ask(d, "question")
    return False


def needed_first(d: Decision, r: Reading) -> bool:
    """What the intent needs before anything is worked out (clarify_checks), unless it surely refuses or declines."""
    missing = None if r.sure and r.intent.does in ("refuse", "decline") else _missing_before_anything(d.asked, r.intent, d.slots)
    if missing:
        return _ask(d, missing)
    return False


def which_year(d: Decision, r: Reading) -> bool:
    """A calendar year could be the tax year ending in March or the one starting in April, and the
    rule's figures differ between them. (When both years hold the same figures, it is answered.)"""
    slots, rules = d.slots, d.rules
    if (r.intent.does == "fact" and (slots.year_of_rule or slots.calendar_year and _asked_of_a_known_calendar_year(d.asked, slots, rules))
            and re.search(r"20\d\d", slots.year_text or "") and not _same_rule_either_year(r.intent, rules, slots.year_text)):
        return _ask(d, "which_year")
    return False


def secondary_code(d: Decision, r: Reading) -> bool:
    """Beside a benefit or NZ Super the job is on a secondary code, which follows the total, and
    neither is said."""
    asked, slots = d.asked, d.slots
    if (r.intent.tool in ("calculate_paye", "calculate_take_home_pay", "calculate_income_tax") and slots.benefit_or_super
            and slots.tax_code is None and not find_tax_codes(asked) and not SECONDARY_CODE_NAMED.search(asked)
            and len(slots.incomes) == 1 and WAGES_BESIDE.search(asked)):
        return _ask(d, "secondary_code")
    return False


# -- before a sum is worked ------------------------------------------------------------------------

def foreign_income(d: Decision, r: Reading) -> bool:
    """Another country's tax on its own currency's income is out of scope; New Zealand tax on a
    foreign-currency income is worked out only in New Zealand dollars, so that amount is asked for."""
    foreign = [a for a in d.slots.amounts if a.role == "foreign"]
    if foreign and r.runner_does == "decline" and r.runner.copy == "overseas":
        d.action, d.intent = "decline", r.runner
        return True
    if foreign and d.slots.income_amount() is None:
        return _ask(d, "amount", foreign[0].questioned)
    return False


def calendar_year(d: Decision, r: Reading) -> bool:
    """A calendar year's income spans two tax years (1 April to 31 March). (When both tax years give
    the same sum, it is answered.)"""
    slots = d.slots
    if slots.calendar_year and not slots.pay_date and not _same_sum_either_year(d, r.intent, slots):
        return _ask(d, "calendar_year")
    return False


def pay_frequency(d: Decision, r: Reading) -> bool:
    """One pay of a year's salary asked, and how often it is paid is not said."""
    slots = d.slots
    if (EVERY_PAY.search(d.asked) and slots.asked_period is None and slots.incomes
            and all(a.period == "annual" for a in slots.incomes)
            and r.intent.tool in (*ANNUAL_TOOLS, "calculate_take_home_pay", "calculate_paye")):
        return _ask(d, "frequency")
    return False


def tax_paid(d: Decision, r: Reading) -> bool:
    """A refund is the tax taken off less the tax due, and what was taken off is not said. (With a
    code stated, whether a refund comes is answered by whether the code is right.)"""
    slots = d.slots
    if (REFUND_ASKED.search(d.asked) and not r.gives_only and r.intent.tool != "calculate_donation_tax_credit"
            and slots.tax_code is None and not any(a.role in ("deduction", "deduction_label") for a in slots.amounts)):
        return _ask(d, "tax_paid")
    return False


def gst_inclusive(d: Decision, r: Reading) -> bool:
    """Income tax is on income and costs without GST, and the question's figures include it."""
    if d.slots.gst_inclusive and r.intent.tool in ALL_INCOME_TOOLS:
        return _ask(d, "gst_exclusive")
    return False


def kiwisaver_rate(d: Decision, r: Reading) -> bool:
    """A changed KiwiSaver rate not given is not the default rate; nor one they say they don't know."""
    if (r.intent.tool in ("calculate_kiwisaver", "calculate_paye", "calculate_take_home_pay") and d.slots.kiwisaver_rate is None
            and KIWISAVER_RATE_CHANGED.search(d.asked)):
        return _ask(d, "kiwisaver_rate")
    return False


def side_income(d: Decision, r: Reading) -> bool:
    """A total asked beside a side business: its earnings count too, and they are not said."""
    asked, slots = d.asked, d.slots
    side = SIDE_EARNINGS_NAMED.search(asked)
    if (r.intent.tool in ANNUAL_TOOLS and ASKS_TOTAL.search(asked) and side and not ONLY_JOB.search(asked)
            and not SIDE_EARNINGS_DENIED.search(asked[:side.start()])
            and len([a for a in slots.amounts if not a.questioned]) == 1 and slots.income_amount() is not None):
        return _ask(d, "side_income")
    return False


def part_year(d: Decision, r: Reading) -> bool:
    """Arrived or started partway through: only part of the salary is earned in the tax year
    (1 April to 31 March), and how much is not said."""
    slots = d.slots
    if slots.part_year and r.intent.tool in ANNUAL_TOOLS and slots.asked_period not in PAY_FREQUENCIES:
        return _ask(d, "part_year")
    return False


def expenses(d: Decision, r: Reading) -> bool:
    """Tax is on the profit, and the costs that come off the takings are not stated."""
    slots, tool = d.slots, r.intent.tool
    if slots.gross_only and (tool in ALL_INCOME_TOOLS or tool == "calculate_acc_levy"
                             and any(a.role == "takings" for a in slots.amounts)
                             or tool in ("calculate_paye", "calculate_take_home_pay") and GROSS_ASKED_ABOUT.search(d.asked)):
        return _ask(d, "expenses")
    return False


def business_structure(d: Decision, r: Reading) -> bool:
    """A business's profit is a sole trader's own income at personal rates, or a company's profit taxed
    in the company: how it is set up decides."""
    if d.slots.business_unnamed and r.intent.tool in ALL_INCOME_TOOLS:
        return _ask(d, "business_structure")
    return False


def rest_of_income(d: Decision, r: Reading) -> bool:
    """Side earnings are taxed at the band the rest of their income reaches, which is not said."""
    slots = d.slots
    if (slots.extra_only or _extra_tax_on_one_amount(slots, d.asked)) and r.intent.tool in RATE_DEPENDS_ON_INCOME_TOOLS:
        return _ask(d, _what_else_reason(slots))
    return False


def current_pay(d: Decision, r: Reading) -> bool:
    """A difference from what they earn now, which is not said."""
    asked, slots = d.asked, d.slots
    if (r.intent.does == "calculate" and DIFFERENCE_ASKED.search(asked) and not slots.comparison
            and len([a for a in slots.incomes if not a.questioned]) == 1
            and NEW_PAY_BEFORE.search(asked[max(0, slots.incomes[0].start - 40):slots.incomes[0].start])):
        return _ask(d, "current_pay")
    return False

screen_patterns(globals())  # (literal_screen.py: each pattern above tried only on a text with a literal it needs)
