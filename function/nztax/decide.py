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

decide() is a pipeline of named steps, each in the module of its kind: ask_backs (the questions
asked back), reading_switches (the `Reading` weighed and the switches between readings), sum_inputs
(the figures a sum runs on), decide_outcomes (how the decision ends once the reading is chosen). They
lean on question_turns (follow-ups and question parts), calculator_calls, calculation_plan (what a
calculation or a rule's sum runs) and clarify_checks (the conditions of a question back). This module
holds the `Decision` record, the pipeline, and re-exports the parts' names other modules use.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

# (LOAN_DEDUCTION_ASKED, base_code, after_retrieval, ASKS, final_question, is_follow_up, merge_follow_up and
# question_parts are imported for the modules that import them from here.)
from nztax import ask_backs, decide_outcomes, pay_questions, reading_switches, sum_inputs
from nztax.calculation_plan import LOAN_DEDUCTION_ASKED
from nztax.calculator_calls import base_code
from nztax.clarify_checks import after_retrieval
from nztax.cue_words import alternatives
from nztax.figure_check import add_the_levy
from nztax.question_turns import (ASKS, final_question, is_follow_up, merge_follow_up, question_parts, question_slots,
                                  understood_text)
from nztax.reading_switches import Reading
from nztax.rules import RuleBook, current_tax_year
from nztax.slots import Slots, clean_text, read_slots
from nztax.understand import Classification, IntentSpec
from nztax.literal_screen import screen_patterns

# Words that make a question about more than the calculators see (a disclaimer says so).
COMPLEX = re.compile(alternatives("complex"), re.I)

# The steps before the reading's action is taken, in order: what is asked back before anything,
# then the switches from one reading to another and the questions back between them. A step that
# settles the decision returns True; a switch changes the reading and decide() goes on.
WEIGHING_STEPS = (
    ask_backs.own_sum_with_nothing, ask_backs.no_subject, ask_backs.needed_first,
    reading_switches.deduction_on_a_pay, ask_backs.which_year, reading_switches.held_back_from_declining,
    reading_switches.topic_with_its_sum, reading_switches.permission_to_its_rule,
    reading_switches.secondary_code_beside_super, ask_backs.secondary_code, reading_switches.loss_to_its_rule,
)
# The steps of a calculation's reading before its sum, in order: a foreign income, the calculation
# that settles the question, the questions back about its inputs (with the inputs set between them:
# a part year's salary, a year of a pay change), a rule's own sum, the ME code, a sum asked outright.
SUM_STEPS = (
    ask_backs.foreign_income,
    reading_switches.self_employed_income_tax, reading_switches.secondary_code_choice,
    reading_switches.second_job_code_and_paye, reading_switches.take_home_each_pay,
    ask_backs.calendar_year, ask_backs.pay_frequency, ask_backs.tax_paid, ask_backs.gst_inclusive,
    sum_inputs.part_year_salary, sum_inputs.year_of_a_change,
    ask_backs.kiwisaver_rate, ask_backs.side_income, ask_backs.part_year,
    decide_outcomes.provisional_from_rit,
    ask_backs.expenses, ask_backs.business_structure, ask_backs.rest_of_income, ask_backs.current_pay,
    sum_inputs.credit_code, reading_switches.sum_asked_outright,
)


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
    steps: list[str] = field(default_factory=list)  # decide()'s steps that fired (settled or changed it), for the trace

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
    """The one action for a question (`_decided`); a sum beside a year's tax taken off a salary works
    out what that tax holds (figure_check.add_the_levy), however the sum was planned."""
    d = _decided(question, classification, rules, history=history, tax_year=tax_year, slots=slots, also=also,
                 components=components)
    if d.action == "calculate":
        add_the_levy(d)
    return d


def _decided(question: str, classification: Classification | None, rules: RuleBook, *,
             history: list[dict] | None = None, tax_year: str | None = None, slots: Slots | None = None,
             also: list[IntentSpec] | None = None, components: list[IntentSpec] | None = None) -> Decision:
    """The one action for a question, as a pipeline: the year and slots; a pay question's own plan;
    the reading weighed (WEIGHING_STEPS); a rule, topic or way out answered as the reading does; a
    calculation's steps (SUM_STEPS); the two readings weighed when unsure; else the sum planned."""
    d = _new_decision(question, classification, rules, history, tax_year, slots)
    if classification is None:
        return d  # no understanding available (no embedder): answer from retrieval
    d.intent = classification.intent
    if _pay_question(d):
        return d
    reading = Reading.of(classification, d.slots)
    if _settled(d, reading, WEIGHING_STEPS):
        return d
    if reading.intent.does != "calculate":
        return decide_outcomes.without_a_sum(d, reading)
    if _settled(d, reading, SUM_STEPS):
        return d
    if not reading.sure:
        return decide_outcomes.unsure(d, reading)
    return decide_outcomes.calculation(d, reading, components or [], also or [])


def _new_decision(question: str, classification: Classification | None, rules: RuleBook, history: list[dict] | None,
                  tax_year: str | None, slots: Slots | None) -> Decision:
    """The question as typed and as understood (a follow-up with the turn it continues), its slots,
    and the tax year: the one asked for, else the question's, else the current year (`source` says which)."""
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
    return Decision(action="topic", question=text, asked=asked, tax_year=year, tax_year_source=source, slots=slots,
                    classification=classification, used_history=used_history, known_year=year in rules.years,
                    complex_situation=bool(COMPLEX.search(asked)) or len(slots.incomes) > 1 and slots.adds_up, rules=rules)


def _pay_question(d: Decision) -> bool:
    """A bonus, leave paid out or redundancy on a stated pay, or the year's refund or bill on stated
    incomes: the pay calculators work it on their own figures (pay_questions.py)."""
    if d.intent.does in ("refuse", "decline"):
        return False
    pay = pay_questions.plan(d.asked, d.slots, d.tax_year)
    if pay is None:
        return False
    d.action, d.calls = "calculate", pay.calls
    d.assumptions += pay.assumptions
    d.steps.append("pay_questions.plan")
    return True


def _settled(d: Decision, reading: Reading, steps) -> bool:
    """Run `steps` in order until one settles the decision; whether one did. Each step that settled it,
    or changed the reading, the slots or the default code, is named in `d.steps` (the trace shows them)."""
    for step in steps:
        before = (reading.intent, reading.sure, d.slots, d.default_code)
        settled = step(d, reading)
        if settled or (reading.intent, reading.sure, d.slots, d.default_code) != before:
            d.steps.append(f"{step.__module__.rsplit('.', 1)[-1]}.{step.__name__}")
        if settled:
            return True
    return False

screen_patterns(globals())  # (literal_screen.py: each pattern above tried only on a text with a literal it needs)
