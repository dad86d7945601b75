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
from dataclasses import dataclass, field

from nztax import ask_backs, decide_outcomes, pay_questions, reading_switches, sum_inputs
from nztax.cue_words import alternatives
from nztax.rules import RuleBook, current_tax_year
from nztax.slots import Slots, clean_text, read_slots
from nztax.understand import Classification, IntentSpec
from nztax.reading_switches import Reading
from nztax.question_turns import (ASKS, final_question, is_follow_up, merge_follow_up, question_parts,
                                  question_slots, understood_text)
from nztax.calculator_calls import base_code
from nztax.calculation_plan import LOAN_DEDUCTION_ASKED
from nztax.clarify_checks import after_retrieval

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
    d.intent = classification.intent
    if d.intent.does not in ("refuse", "decline") and (pay := pay_questions.plan(asked, slots, year)) is not None:
        # A bonus, leave paid out or redundancy on a stated pay, or the year's refund or bill on
        # stated incomes: the pay calculators work it on their own figures.
        d.action, d.calls = "calculate", pay.calls
        d.assumptions += pay.assumptions
        return d
    r = Reading.of(classification, slots)
    if ask_backs.own_sum_with_nothing(d, r):
        return d
    if ask_backs.no_subject(d, r):
        return d
    if ask_backs.needed_first(d, r):
        return d
    reading_switches.deduction_on_a_pay(d, r)
    if ask_backs.which_year(d, r):
        return d
    reading_switches.held_back_from_declining(d, r)
    reading_switches.topic_with_its_sum(d, r)
    reading_switches.permission_to_its_rule(d, r)
    reading_switches.secondary_code_beside_super(d, r)
    if ask_backs.secondary_code(d, r):
        return d
    reading_switches.loss_to_its_rule(d, r)
    if r.intent.does in ("refuse", "decline", "clarify", "fact", "topic"):
        return decide_outcomes.without_a_sum(d, r)
    # A calculation.
    if ask_backs.foreign_income(d, r):
        return d
    reading_switches.self_employed_income_tax(d, r)
    reading_switches.secondary_code_choice(d, r)
    reading_switches.second_job_code_and_paye(d, r)
    reading_switches.take_home_each_pay(d, r)
    if ask_backs.calendar_year(d, r):
        return d
    if ask_backs.pay_frequency(d, r):
        return d
    if ask_backs.tax_paid(d, r):
        return d
    if ask_backs.gst_inclusive(d, r):
        return d
    sum_inputs.part_year_salary(d, r)
    if sum_inputs.year_of_a_change(d, r):
        return d
    if ask_backs.kiwisaver_rate(d, r):
        return d
    if ask_backs.side_income(d, r):
        return d
    if ask_backs.part_year(d, r):
        return d
    if decide_outcomes.provisional_from_rit(d, r):
        return d
    if ask_backs.expenses(d, r):
        return d
    if ask_backs.business_structure(d, r):
        return d
    if ask_backs.rest_of_income(d, r):
        return d
    if ask_backs.current_pay(d, r):
        return d
    sum_inputs.credit_code(d, r)
    reading_switches.sum_asked_outright(d, r)
    if not r.sure:
        return decide_outcomes.unsure(d, r)
    return decide_outcomes.calculation(d, r, components or [], also or [])


