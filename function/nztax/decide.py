"""Decide: what the engine does with an understood question, decided once.

In: the question's `Slots`, its `Classification` (understand.py), the history, an explicit tax year
and the rule book. Out: a `Decision` — one action (calculate, fact, topic, clarify, decline,
refuse), the calculator calls with their arguments, or the one question to ask back.

Rules, in order:
1. A confident refuse or decline intent is final (fixed copy).
2. Below the confidence bar the engine never calculates: it asks one question (which sum, or the
   income it needs) or answers from retrieval.
3. A calculation needs its slots: a missing income, an hourly rate without hours, or an amount
   that makes no sense for its period ("$70,000 a fortnight") is asked about, not computed.
4. The period asked about is the period answered: "monthly take-home on $65,000" runs the
   take-home calculator with monthly pays; "$45 an hour … in a year" the annual income tax.

The parts: question_turns (follow-ups and question parts), calculator_calls, calculation_plan
(what a calculation or a rule's sum runs), clarify_checks (what to ask back). This module holds the
`Decision` record and `decide()`, and re-exports the parts' names other modules use.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from nztax import pay_questions
from nztax.cue_words import alternatives
from nztax.rules import SECONDARY_CODES, RuleBook, current_tax_year
from nztax.settings import get_settings
from nztax.slots import (CODE_ASKED, EVERY_PAY_WORDS, HELD_PAST_BRIGHT_LINE, PAY_FREQUENCIES, PROPERTY_HELD_UNKNOWN,
                         SECOND_JOB_WORDS, Slots, clean_text, find_tax_codes, read_slots)
from nztax.understand import Classification, IntentSpec, default_catalogue, says_any
from nztax.question_turns import (ASKS, final_question, is_follow_up, merge_follow_up, question_parts,
                                  question_slots, understood_text)
from nztax.calculator_calls import TAX_OFF_ASKED, _clarify, _codes_compared, _truncated, base_code
from nztax.calculation_plan import (ALL_INCOME_TOOLS, ANNUAL_TOOLS, ASKS_TOTAL, EXTRA_TAX, LOAN_DEDUCTION_ASKED,
                                    ONLY_JOB, SELF_EMPLOYED, _add_calls, _answered_as_outside_bright_line,
                                    _extra_tax_on_one_amount, _fact_sum, _gives_only, _income_for,
                                    _loan_deduction_first, _plan, _rit_named_before, _rule_answer, _rule_sum,
                                    _same_sum_either_year, _trial, _what_else_reason)
from nztax.clarify_checks import (OWN_AMOUNT, PER_PAY_ASKED, THRESHOLD_ASKED, _asked_of_a_known_calendar_year,
                                  _asks_own_figure, _asks_own_rate, _calculation, _missing_before_anything,
                                  _nearest_rule, _own_figure_with_nothing, _same_rule_either_year,
                                  _states_own_figures, _year_of_a_change, after_retrieval)
from nztax.literal_screen import screen_patterns

# A choice of code asked for: which one to put, use or give.
CODE_CHOICE_ASKED = re.compile(alternatives("code_choice_asked"), re.I)
# Words that only continue an earlier turn (an opening "and", "what about"): the subject is the turn before.
CONTINUES = re.compile(r"^\s*(?:(?:ok|okay|right|so)\s*,?\s*)?(?:" + alternatives("continues") + r")\b", re.I)
# A short question about "it", "that" or "this" with nothing before it: what it means must be asked.
BARE_PRONOUN = re.compile(r"\b(?:" + alternatives("bare_pronoun")
                          + r")\b(?!\s+(?:year|week|fortnight|month|time|tax year|income year)\b)", re.I)
BARE_QUESTION_MAX_WORDS = 5
# Words that say nothing of what "it" is (greetings, auxiliaries, tax verbs): a question of only these
# and a bare pronoun names no subject.
SUBJECTLESS_WORDS = frozenset("""
    a an and any are am be been but can claim claimable could deduct deductible did do does eligible entitled for get
    got have hey hi how i i'm im is it its just me much need not now of ok okay on one or owe pay paid please question
    quick really right should so still tax taxable taxed that the them then these this those to what whats what's when
    whether which will would yes you
""".split())
WORD = re.compile(r"[a-z']+", re.I)
# Tax named, even in a short subjectless question, is a subject: the rates answer it.
TAX_WORD = re.compile(r"\btax(?:ed|able|es)?\b", re.I)
# Sums whose rate follows the rest of the year's income (the ACC levy's rate does not).
RATE_DEPENDS_ON_INCOME_TOOLS = ("calculate_income_tax", "calculate_paye", "calculate_take_home_pay",
                                "calculate_student_loan_repayment")
# A sum asked for in a word or two at the end of the question, after the figures it is on.
TAX_ASKED_TERSELY = re.compile(alternatives("tax_asked_tersely"), re.I)
# A figure asked for: tax on something, how much, what is owed.
ASKS_AMOUNT_OF_TAX = re.compile(alternatives("asks_amount_of_tax"), re.I)
# The rental or business named as what the sum is on: its gross, not a salary, is asked about.
GROSS_ASKED_ABOUT = re.compile(r"\b(?:on|from|for|off) (?:the|my|this|that|our) (?:" + alternatives("gross_asked_about")
                               + r")", re.I)
# A refund asked for, by name or as money coming back.
REFUND_ASKED = re.compile(alternatives("refund_asked"), re.I)
EVERY_PAY = re.compile(EVERY_PAY_WORDS, re.I)
# Wages from a job on top of a benefit or NZ Super: the job is then the secondary income.
WAGES_BESIDE = re.compile(r"\b(?:" + alternatives("wages_beside")
                          + r")\s+(?:my\s+|some\s+|a\s+)?(?:wages?|part[- ]time (?:work|job|wages)|a job|job|work)\b", re.I)
# A job named beside NZ Super, a pension or a benefit.
JOB_BESIDE = re.compile(r"\bjobs?\b|\bwork(?:ing)?\b|\bemployer\b|\bpart[- ]time\b|\bshifts?\b", re.I)
# A loss asked to be set against other income: a rule about ring-fencing, not a sum.
LOSS_USED_AGAINST = re.compile(r"\b(?:loss(?:es)?|lost)\b[^?]{0,80}\b(?:" + alternatives("loss_used_against")
                               + r")\b[^?]{0,40}\b(?:salary|wages?|pay|income|tax)\b", re.I)
LOSS_RULES = ("rental_boarders", "self_employed")
# A KiwiSaver rate said to have changed, without the new rate: the default would be the wrong rate.
KIWISAVER_RATE_CHANGED = re.compile(alternatives("kiwisaver_rate_changed"), re.I)
# Earnings beside the pay named without their amount (a side business, a second job): the total is unknown.
SIDE_EARNINGS_NAMED = re.compile(alternatives("side_earnings_named"), re.I)
# The whole tax year asked about, not one pay.
YEAR_ASKED = re.compile(alternatives("year_asked"), re.I)
# A difference asked for (more, extra, less, better or worse off): two figures are weighed.
DIFFERENCE_ASKED = re.compile(alternatives("difference_asked"), re.I)
# A pay named as the new one (a raise, an offer) right before its amount: the one worked on.
NEW_PAY_BEFORE = re.compile(r"\b(?:" + alternatives("new_pay_before") + r")\b[^.?!$\d]{0,20}$", re.I)
# Whether they may change something (a rate, a code): a rule answers it, and an income stated beside
# it is context, not a sum to work out.
PERMISSION_ASKED = re.compile(alternatives("permission_asked"), re.I)
SUM_ASKED = re.compile(alternatives("sum_asked"), re.I)
# Words that make a question about more than the calculators see (a disclaimer says so).
COMPLEX = re.compile(alternatives("complex"), re.I)


@dataclass
class Decision:
    action: str                       # calculate | fact | topic | clarify | decline | refuse
    question: str                     # as understood (a follow-up includes the turn it continues)
    asked: str                        # the question as typed (cleaned)
    tax_year: str
    tax_year_source: str              # request | question | history | default
    slots: Slots
    classification: Classification | None = None
    intent: IntentSpec | None = None
    calls: list[tuple[str, dict]] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)   # clarify: what to ask for
    clarify_reason: str | None = None                  # clarify: why an amount was not used
    clarify_options: list[str] = field(default_factory=list)  # clarify: what it could be, each a short phrase
    assumptions: list[str] = field(default_factory=list)
    also_facts: list[IntentSpec] = field(default_factory=list)  # a second question answered from the rules
    default_code: str = "M"           # the main-job code assumed when none is stated
    per_job: bool = False             # several jobs' pays, each worked on its own code: shown together, not compared
    rule_results: dict[str, dict] = field(default_factory=dict)  # a fact's rule worked on stated figures (rule_sum)
    known_year: bool = True
    used_history: bool = False
    complex_situation: bool = False
    rules: RuleBook | None = field(default=None, repr=False, compare=False)  # what a plan may need to check
    # Set by the decision table (decision_table.py) from the question's frame:
    decline_to: dict | None = None     # decline: where a question that is not NZ personal income tax should go
    handed_over: list[tuple[str, dict]] = field(default_factory=list)  # calculations not run: their figures go to a calculator link
    stated: list = field(default_factory=list)  # figures the poster states (tax taken, a bill), set beside the engine's own
    trace: object | None = None        # frame.Trace: the frame and the rows that fired

    # -- what the composer reads -------------------------------------------------------------
    @property
    def scope_topic(self) -> str | None:
        return self.intent.copy if self.intent is not None else None

    @property
    def topics(self) -> list[str]:
        return list(self.intent.topics) if self.intent is not None else []


def decide(question: str, classification: Classification | None, rules: RuleBook, *,
           history: list[dict] | None = None, tax_year: str | None = None, slots: Slots | None = None,
           also: list[IntentSpec] | None = None, components: list[IntentSpec] | None = None) -> Decision:
    asked = clean_text(question)
    if slots is None:
        text, used_history, slots = question_slots(asked, history, rules)
    else:
        text, used_history = understood_text(asked, history)
    current = current_tax_year()
    year, source = tax_year, "request"
    if not year:
        year, source = slots.tax_year, ("question" if slots.tax_year else "default")
        if used_history and slots.tax_year and slots.tax_year != read_slots(asked, rules, current).tax_year:
            source = "history"
    year = year or current
    d = Decision(action="topic", question=text, asked=asked, tax_year=year, tax_year_source=source, slots=slots,
                 classification=classification, used_history=used_history, known_year=year in rules.years,
                 complex_situation=bool(COMPLEX.search(asked)) or len(slots.incomes) > 1 and slots.adds_up, rules=rules)
    if classification is None:
        return d  # no understanding available (no embedder): answer from retrieval
    intent = classification.intent
    d.intent = intent
    if intent.does not in ("refuse", "decline") and (pay := pay_questions.plan(asked, slots, year)) is not None:
        # A bonus, leave paid out or redundancy on a stated pay, or the year's refund or bill on
        # stated incomes: the pay calculators work it on their own figures.
        d.action, d.calls = "calculate", pay.calls
        d.assumptions += pay.assumptions
        return d
    sure = classification.confident
    states_nothing = not slots.amounts and not (slots.student_loan or slots.kiwisaver or slots.wff or slots.flat_code
                                                 or slots.benefit_or_super or slots.no_ird_number or slots.tax_code)
    runner = classification.runner_up
    runner_does = runner.does if runner is not None else None
    gives_only = _gives_only(slots)
    donation = next((spec for spec in (intent, runner) if spec is not None and spec.tool == "calculate_donation_tax_credit"), None)
    if (not sure and runner is not None and {intent.does, runner.does} <= {"clarify", "calculate"}
            and _income_for(slots, intent.tool).income_amount() is None and _asks_own_figure(asked) and not (donation and gives_only)):
        # A sum of their own, or a question too vague to place, with nothing to work from: ask.
        d.action = "clarify"
        d.missing = ["income"]
        return d
    subjectless = all(w.lower() in SUBJECTLESS_WORDS for w in WORD.findall(asked))
    if (not used_history and states_nothing and intent.does not in ("refuse", "decline")
            and (BARE_PRONOUN.search(asked) and (len(asked.split()) <= BARE_QUESTION_MAX_WORDS
                                                  or CONTINUES.match(asked) and len(asked.split()) <= 2 * BARE_QUESTION_MAX_WORDS
                                                  or subjectless)
                 or subjectless and len(asked.split()) <= BARE_QUESTION_MAX_WORDS and not TAX_WORD.search(asked))):
        # A pronoun or a continuation with no turn before it: the thing asked about is not in the
        # question, so it is asked for.
        _clarify(d, "question")
        return d
    missing = None if sure and intent.does in ("refuse", "decline") else _missing_before_anything(asked, intent, slots)
    if missing:
        _clarify(d, missing)
        return d
    if (not sure and intent.does == "fact" and runner is not None and runner.does == "calculate" and slots.incomes
            and TAX_OFF_ASKED.search(asked)):
        # Near a fact about codes, but a deduction asked on a stated pay is the calculation's (which
        # asks how often it is paid).
        intent = d.intent = runner
        runner = classification.intent
    if (intent.does == "fact" and (slots.year_of_rule or slots.calendar_year and _asked_of_a_known_calendar_year(asked, slots, rules))
            and re.search(r"20\d\d", slots.year_text or "") and not _same_rule_either_year(intent, rules, slots.year_text)):
        # A calendar year could be the tax year ending in March or the one starting in April, and the
        # rule's figures differ between them. (When both years hold the same figures, it is answered.)
        _clarify(d, "which_year")
        return d
    if (not sure and intent.does == "decline" and runner is not None and classification.runner_up_score >= get_settings().intent_min_score
            and says_any(asked, intent.decisive_unless)
            and (runner.does == "fact" and not slots.amounts or runner.does == "calculate" and slots.income_amount() is not None)):
        # Held back from turning it away (words of New Zealand's own tax, or of their own pay): the
        # nearest reading that answers it.
        intent, runner = runner, intent
        d.intent, runner_does = intent, "decline"
    if (intent.does == "topic" and runner is not None and runner.does == "calculate"
            and _income_for(slots, "calculate_income_tax").income_amount() is not None and TAX_ASKED_TERSELY.search(asked)):
        # A topic with its figures stated and the tax asked tersely: the topic's own sum on them.
        intent, runner = runner, intent
        d.intent, runner_does, sure = intent, "topic", True
    if intent.does == "calculate" and PERMISSION_ASKED.search(asked) and not SUM_ASKED.search(asked):
        rule = _nearest_rule(classification)
        if rule is not None:
            intent, runner = rule, intent
            d.intent, runner_does, sure = intent, "calculate", True
    if (intent.name in ("tax_code_main", "secondary_code") and slots.benefit_or_super and slots.tax_code is None and JOB_BESIDE.search(asked)
            and (secondary := _calculation("choose_secondary_tax_code")) is not None):
        # NZ Super (or a benefit) is taxed as the main income, so the job takes a secondary code from the total (and
        # the main-code rule is no fallback).
        intent, runner = secondary, None
        d.intent, runner_does, sure = intent, "fact", True
    if (intent.tool in ("calculate_paye", "calculate_take_home_pay", "calculate_income_tax") and slots.benefit_or_super
            and slots.tax_code is None and not find_tax_codes(asked) and not any(re.search(rf"\b{c}\b", asked) for c in SECONDARY_CODES)
            and len(slots.incomes) == 1 and WAGES_BESIDE.search(asked)):
        # Beside a benefit or NZ Super the job is on a secondary code, which follows the total, and
        # neither is said.
        _clarify(d, "secondary_code")
        return d
    if intent.does in ("calculate", "fact") and intent.name not in LOSS_RULES and LOSS_USED_AGAINST.search(asked) and not SUM_ASKED.search(asked):
        # Whether a loss can be set against other income is the rental's (or the business's) rule, not a sum, nor an
        # employee's expenses.
        rule = max((spec for spec in default_catalogue().intents if spec.name in LOSS_RULES),
                   key=lambda spec: classification.scores.get(spec.name, 0.0))
        intent, runner = rule, intent
        d.intent, runner_does, sure = intent, "calculate", True
    if intent.does in ("refuse", "decline", "clarify", "fact", "topic"):
        both_out = intent.does == runner_does == "decline" and classification.score >= get_settings().intent_min_score
        if (not sure and intent.does == "refuse" and runner is not None and runner.does in ("fact", "topic")
                and classification.runner_up_score >= get_settings().intent_min_score):
            # Near a request to mislead but in an honest question's words (declaring, doing it
            # properly): the nearest rule or topic answers it.
            intent = d.intent = runner
            sure = True
        if not sure and intent.does in ("refuse", "decline", "clarify") and not both_out:
            # Not sure enough to turn the question away: look it up instead. (Unsure only which of
            # two things out of scope it is, it is still out of scope.) A sum of their own with no
            # amount is asked about, as a topic's is.
            d.action = "topic"
            if intent.does == "decline" and not slots.amounts and OWN_AMOUNT.search(asked):
                _clarify(d, "details")
            return d
        if (not sure and intent.does in ("fact", "topic") and runner_does == "decline"
                and classification.score < get_settings().intent_min_score):
            # Nothing in the catalogue is near, and the nearest way out is to turn it away: an
            # entitlement under employment law is not a tax question.
            d.action, d.intent = "decline", runner
            return d
        d.action = intent.does
        if intent.rule_sum:
            _rule_sum(d, intent, slots)
        if "wff" in d.rule_results and "children" not in d.rule_results["wff"] and CREDIT_AMOUNT_ASKED.search(asked):
            # Working for Families is worked out per child, and the children are not said.
            _clarify(d, "children")
            return d
        if (intent.does in ("fact", "topic") and any(a.questioned == HELD_PAST_BRIGHT_LINE for a in slots.amounts)
                and _answered_as_outside_bright_line(d)):
            return d  # (a sale and its purchase stated: whether it is taxed comes before any sum)
        if intent.does == "fact" and any(a.questioned == PROPERTY_HELD_UNKNOWN for a in slots.amounts):
            # Whether a property's gain is taxed turns on when it was bought, which is not said.
            _clarify(d, "bought_when")
            return d
        if intent.does == "clarify":
            d.missing = ["income"] if slots.income_amount() is None and _asks_own_figure(asked) else ["question"]
        elif intent.does == "fact" and intent.asks and _own_figure_with_nothing(asked, intent, slots, states_nothing):
            # Their own rate or code asked, with nothing to go on.
            _clarify(d, intent.asks)
        elif intent.does == "fact" and intent.tool and (slots.income_amount() is not None or slots.contributions) and (
                "calculation" not in intent.show or _states_own_figures(asked, slots)):
            # A fact that depends on the stated income, or a misconception about their own income: its
            # catalogue entry names the calculator that settles it.
            _fact_sum(d, intent, slots)
        elif intent.own_sum_asks and not slots.amounts and OWN_AMOUNT.search(asked) and not THRESHOLD_ASKED.search(asked):
            # A figure of their own (or of someone they ask for), with no amount to work from.
            _clarify(d, "details")
        elif (intent.own_sum_asks and (OWN_AMOUNT.search(asked) or slots.extra_only and ASKS_AMOUNT_OF_TAX.search(asked))
              and any(a.role != "foreign" for a in slots.amounts) and slots.income_amount() is None and not d.rule_results):
            # Tax on extra pay follows the band the rest of their income reaches, which is not said.
            _clarify(d, _what_else_reason(slots) if slots.extra_only else "income")
        return d
    # A calculation.
    foreign = [a for a in slots.amounts if a.role == "foreign"]
    if foreign and runner_does == "decline" and runner.copy == "overseas":
        # Another country's tax on its own currency's income is out of scope.
        d.action, d.intent = "decline", runner
        return d
    if foreign and slots.income_amount() is None:
        # New Zealand tax on a foreign-currency income: worked out only in New Zealand dollars.
        _clarify(d, "amount", foreign[0].questioned)
        return d
    readings = {intent.tool, runner.tool if runner is not None else None}
    if (SELF_EMPLOYED.search(asked) and slots.tax_code is None and slots.asked_period not in PAY_FREQUENCIES
            and "calculate_paye" in readings):
        # Self-employed: no employer
        # takes PAYE; their tax is the year's income tax on the profit. (Between the two, that settles it.)
        income_tax = _calculation("calculate_income_tax")
        if income_tax is not None and intent.tool in ("calculate_paye", "calculate_income_tax"):
            sure = sure or readings == {"calculate_paye", "calculate_income_tax"}
            intent = d.intent = income_tax
    compared = _codes_compared(asked) if intent.tool == "calculate_paye" else None
    if compared and all(base_code(c) in SECONDARY_CODES for c in compared) and CODE_CHOICE_ASKED.search(asked):
        # A choice between secondary codes follows the year's total income, not the PAYE each would take.
        secondary = _calculation("choose_secondary_tax_code")
        if secondary is not None:
            intent = d.intent = secondary
    if (intent.tool == "calculate_paye" and slots.tax_code is None and CODE_ASKED.search(asked)
            and {"second_job"} <= {a.role for a in slots.amounts} and len(slots.incomes) > 1):
        # A second job's code and its PAYE both asked: the code from the total, then the PAYE on its pay.
        secondary = _calculation("choose_secondary_tax_code")
        if secondary is not None:
            intent = d.intent = secondary
    if (intent.tool == "calculate_paye" and slots.names_take_home and slots.tax_code is not None and len(slots.incomes) == 1
            and not SECOND_JOB_WORDS.search(asked)):
        # What reaches them each pay is the take-home pay, which leads with IRD's PAYE on the same pay
        # and adds what else comes off it.
        take_home = _calculation("calculate_take_home_pay")
        if take_home is not None:
            intent = d.intent = take_home
    if slots.calendar_year and not slots.pay_date and not _same_sum_either_year(d, intent, slots):
        # A calendar year's income spans two tax years (1 April to 31 March). (When both tax years give
        # the same sum, it is answered.)
        _clarify(d, "calendar_year")
        return d
    if (EVERY_PAY.search(asked) and slots.asked_period is None and slots.incomes
            and all(a.period == "annual" for a in slots.incomes) and intent.tool in (*ANNUAL_TOOLS, "calculate_take_home_pay", "calculate_paye")):
        # One pay of a year's salary asked, and how often it is paid is not said.
        _clarify(d, "frequency")
        return d
    if (REFUND_ASKED.search(asked) and not gives_only and intent.tool != "calculate_donation_tax_credit" and slots.tax_code is None
            and not any(a.role in ("deduction", "deduction_label") for a in slots.amounts)):
        # A refund is the tax taken off less the tax due, and what was taken off is not said. (With a
        # code stated, whether a refund comes is answered by whether the code is right.)
        _clarify(d, "tax_paid")
        return d
    if slots.gst_inclusive and intent.tool in ALL_INCOME_TOOLS:
        # Income tax is on income and costs without GST, and the question's figures include it.
        _clarify(d, "gst_exclusive")
        return d
    if slots.part_year_months and intent.tool in (*ALL_INCOME_TOOLS, "calculate_acc_levy") and slots.asked_period not in PAY_FREQUENCIES:
        # A salary started partway through the year: tax on the months paid.
        yearly = next(a for a in slots.amounts if a.is_income and a.period == "annual")
        earned = _truncated(yearly.value * slots.part_year_months / 12)
        slots = d.slots = replace(slots, amounts=[replace(a, value=earned, text=f"{a.text} for {slots.part_year_months} months")
                                                  if a is yearly else a for a in slots.amounts])
        d.assumptions.append(f"${yearly.value:,.0f} a year paid for the {slots.part_year_months} months from the start to "
                             f"31 March: ${earned:,.2f}, and nothing else earned in the tax year")
    if (intent.tool in (*ALL_INCOME_TOOLS, "calculate_acc_levy") and slots.asked_period not in PAY_FREQUENCIES and YEAR_ASKED.search(asked)
            and not DIFFERENCE_ASKED.search(asked)):  # (a difference asked weighs the two pays)
        blended = _year_of_a_change(d, slots)
        if blended is False:
            _clarify(d, "after_change")
            return d
        if blended is not None:
            slots = d.slots = blended
    if (intent.tool in ("calculate_kiwisaver", "calculate_paye", "calculate_take_home_pay") and slots.kiwisaver_rate is None
            and KIWISAVER_RATE_CHANGED.search(asked)):
        # A changed KiwiSaver rate not given is not the default rate; nor one they say they don't know.
        _clarify(d, "kiwisaver_rate")
        return d
    side = SIDE_EARNINGS_NAMED.search(asked)
    if (intent.tool in ANNUAL_TOOLS and ASKS_TOTAL.search(asked) and side and not ONLY_JOB.search(asked)
            and not re.search(r"\b(?:no|not|without|don'?t have)\s+(?:a\s+|any\s+)?$", asked[:side.start()], re.I)
            and len([a for a in slots.amounts if not a.questioned]) == 1 and slots.income_amount() is not None):
        # A total asked beside a side business: its earnings count too, and they are not said.
        _clarify(d, "side_income")
        return d
    if slots.part_year and intent.tool in ANNUAL_TOOLS and slots.asked_period not in PAY_FREQUENCIES:
        # Arrived or started partway through: only part of the salary is earned in the tax year
        # (1 April to 31 March), and how much is not said.
        _clarify(d, "part_year")
        return d
    if (runner is not None and runner.rule_sum == "provisional" and _rule_sum(d, runner, slots) and "provisional" in d.rule_results
            and any(_rit_named_before(asked, a) for a in slots.amounts)):
        # Provisional tax follows the residual income tax named, whatever else the business took in.
        d.action, d.intent = "fact", runner
        return d
    if slots.gross_only and (intent.tool in ALL_INCOME_TOOLS or intent.tool == "calculate_acc_levy"
                             and any(a.role == "takings" for a in slots.amounts)
                             or intent.tool in ("calculate_paye", "calculate_take_home_pay") and GROSS_ASKED_ABOUT.search(asked)):
        # Tax is on the profit, and the costs that come off the takings are not stated.
        _clarify(d, "expenses")
        return d
    if slots.business_unnamed and intent.tool in ALL_INCOME_TOOLS:
        # A business's profit is a sole trader's own income at
        # personal rates, or a company's profit taxed in the company: how it is set up decides.
        _clarify(d, "business_structure")
        return d
    if (slots.extra_only or _extra_tax_on_one_amount(slots, asked)) and intent.tool in RATE_DEPENDS_ON_INCOME_TOOLS:
        # Side earnings are taxed at the band the rest of their income reaches, which is not said.
        _clarify(d, _what_else_reason(slots))
        return d
    if (intent.does == "calculate" and DIFFERENCE_ASKED.search(asked) and not slots.comparison
            and len([a for a in slots.incomes if not a.questioned]) == 1
            and NEW_PAY_BEFORE.search(asked[max(0, slots.incomes[0].start - 40):slots.incomes[0].start])):
        # A difference from what they earn now, which is not said.
        _clarify(d, "current_pay")
        return d
    if (slots.denies_conditions and slots.tax_code is None
            and not (slots.wff or slots.benefit_or_super or slots.no_ird_number)):
        # The IETC's conditions said to hold: the credit they are owed comes through the ME code,
        # whichever of two close readings is worked out.
        d.default_code = "ME"
    if (not sure and intent.tool in ALL_INCOME_TOOLS and runner_does in ("fact", "topic") and slots.income_amount() is not None
            and (EXTRA_TAX.search(asked) or TAX_ASKED_TERSELY.search(asked)
                 or intent.tool == "calculate_take_home_pay" and slots.names_take_home)):
        # A sum asked for in so many words, on their own figures, whatever rule is near (a
        # misconception asked beside it is answered by the same working).
        sure = True
    if not sure:
        fact = runner if runner is not None and runner.does == "fact" and runner.tool == intent.tool else None
        if runner is not None and runner.does == "fact" and runner.rule_sum and _rule_sum(d, runner, slots):
            # A rule with a sum of its own asked on their figure: the rule's sum.
            d.action, d.intent = "fact", runner
            return d
        if fact is not None and "calculation" in fact.show and _states_own_figures(asked, slots):
            # Too close to call between a misconception and the sum on their own income: the fact's
            # answer shows the sum too.
            d.action, d.intent = "fact", fact
            _fact_sum(d, fact, slots)
            return d
        if slots.questioned:
            _clarify(d, "amount", slots.questioned[0].questioned)
        elif donation is not None and gives_only:
            # Between the credit and a sum on their pay, with only donations stated: the credit.
            d.action, d.intent = "calculate", donation
            _plan(d, donation, slots)
        elif _income_for(slots, intent.tool).income_amount() is None and _asks_own_figure(asked):
            _clarify(d, "income")
        elif runner is not None and runner.does == "calculate" and _income_for(slots, intent.tool).income_amount() is not None:
            # Clearly a sum, but which of two? Work out both, each labelled, when both can run on
            # what was said; otherwise ask which is meant.
            trials = [_trial(d, spec, slots) for spec in (intent, runner)]
            if all(trials):
                d.action = "calculate"
                for trial in trials:
                    _add_calls(d, trial)
            elif (by_rule := _rule_answer(d, intent, slots)) is not None:
                return by_rule  # the nearer reading is answered by its rule on their figure, whatever the other
            else:
                _clarify(d, "which_calculation")
                d.clarify_options = [i.label or i.name.replace("_", " ") for i in (intent, runner)]
        else:
            d.action = "topic"
        return d
    d.action = "calculate"
    named = components or []
    said_not = {"calculate_kiwisaver": slots.kiwisaver is False, "calculate_student_loan_repayment": slots.student_loan is False}
    # (A part said not to apply is not worked out because its word is there.)
    components = [c for c in named if c.name in intent.covers and c.does == "calculate" and not said_not.get(c.tool)]
    if slots.names_income_tax and intent.tool in ("calculate_acc_levy", "calculate_student_loan_repayment"):
        # Income tax named beside another sum: worked out too, on the same income.
        components += [c for c in named if c.tool == "calculate_income_tax"]
    if slots.names_acc_levy and intent.tool == "calculate_income_tax":
        # The ACC levy named beside another sum: worked out too, on the same income.
        components += [c for c in named if c.tool == "calculate_acc_levy"]
    if (any(c.tool == "calculate_ietc" for c in components) and slots.tax_code is None
            and not (slots.wff or slots.benefit_or_super or slots.no_ird_number)):
        # The IETC asked in a take-home sum: the credit comes through the ME code.
        d.default_code = "ME"
    _plan(d, intent, slots)
    for part in components:
        # A part of this sum the question names is worked out on its own as well, with its own
        # working and source.
        if d.action == "calculate" and (trial := _trial(d, part, slots)) is not None:
            _add_calls(d, trial)
    if (d.action == "clarify" and d.missing == ["income"] and runner is not None and runner.does == "fact"
            and _asks_own_rate(asked, runner, slots)):
        # The ESCT rate follows their salary and the employer's contributions, which are not stated.
        _clarify(d, runner.asks)
        return d
    if (d.action == "clarify" and d.missing == ["income"] and runner is not None and runner.does == "fact"
            and not _asks_own_figure(asked) and not PER_PAY_ASKED.search(asked)):
        # Nothing this sum can work on, and no figure of their own asked for: the rule answers it.
        d.action, d.intent, d.missing = "fact", runner, []
        return d
    for extra in also or []:
        # A second question in the same message: a calculation on the same figures, or a fact.
        if d.action != "calculate" or extra.name == intent.name or extra.name in intent.covers:
            continue  # (PAYE on a pay already shows its student loan and KiwiSaver)
        if extra.does == "fact" and extra.lead:
            d.also_facts.append(extra)
            continue
        if extra.does != "calculate" or any(name == extra.tool for name, _ in d.calls):
            continue  # (a calculator already run answers that part)
        trial = _trial(d, extra, slots)
        if trial is not None:
            _add_calls(d, trial)
    _loan_deduction_first(d, intent, slots)
    return d


# The credit itself asked for (not how much it is cut by).
CREDIT_AMOUNT_ASKED = re.compile(r"\bhow much\b(?![^?]*\b(?:cut|reduc\w*|abate\w*|lose|drop|go(?:es)? down|less)\b)", re.I)


screen_patterns(globals())  # (literal_screen.py: each pattern above tried only on a text with a literal it needs)
