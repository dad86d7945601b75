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

from nztax import ask_backs, pay_questions, reading_switches, sum_inputs
from nztax.cue_words import alternatives
from nztax.rules import RuleBook, current_tax_year
from nztax.settings import get_settings
from nztax.slots import HELD_PAST_BRIGHT_LINE, PROPERTY_HELD_UNKNOWN, Slots, clean_text, read_slots
from nztax.understand import Classification, IntentSpec
from nztax.reading_switches import Reading
from nztax.question_turns import (ASKS, final_question, is_follow_up, merge_follow_up, question_parts,
                                  question_slots, understood_text)
from nztax.calculator_calls import _clarify, base_code
from nztax.calculation_plan import (LOAN_DEDUCTION_ASKED, _add_calls, _answered_as_outside_bright_line, _fact_sum,
                                    _income_for, _loan_deduction_first, _plan, _rit_named_before, _rule_answer,
                                    _rule_sum, _trial, _what_else_reason)
from nztax.clarify_checks import (OWN_AMOUNT, PER_PAY_ASKED, THRESHOLD_ASKED, _asks_own_figure, _asks_own_rate,
                                  _own_figure_with_nothing, _states_own_figures, after_retrieval)

# A figure asked for: tax on something, how much, what is owed.
ASKS_AMOUNT_OF_TAX = re.compile(alternatives("asks_amount_of_tax"), re.I)
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
        both_out = r.intent.does == r.runner_does == "decline" and classification.score >= get_settings().intent_min_score
        if (not r.sure and r.intent.does == "refuse" and r.runner is not None and r.runner.does in ("fact", "topic")
                and classification.runner_up_score >= get_settings().intent_min_score):
            # Near a request to mislead but in an honest question's words (declaring, doing it
            # properly): the nearest rule or topic answers it.
            r.intent = d.intent = r.runner
            r.sure = True
        if not r.sure and r.intent.does in ("refuse", "decline", "clarify") and not both_out:
            # Not sure enough to turn the question away: look it up instead. (Unsure only which of
            # two things out of scope it is, it is still out of scope.) A sum of their own with no
            # amount is asked about, as a topic's is.
            d.action = "topic"
            if r.intent.does == "decline" and not slots.amounts and OWN_AMOUNT.search(asked):
                _clarify(d, "details")
            return d
        if (not r.sure and r.intent.does in ("fact", "topic") and r.runner_does == "decline"
                and classification.score < get_settings().intent_min_score):
            # Nothing in the catalogue is near, and the nearest way out is to turn it away: an
            # entitlement under employment law is not a tax question.
            d.action, d.intent = "decline", r.runner
            return d
        d.action = r.intent.does
        if r.intent.rule_sum:
            _rule_sum(d, r.intent, slots)
        if "wff" in d.rule_results and "children" not in d.rule_results["wff"] and CREDIT_AMOUNT_ASKED.search(asked):
            # Working for Families is worked out per child, and the children are not said.
            _clarify(d, "children")
            return d
        if (r.intent.does in ("fact", "topic") and any(a.questioned == HELD_PAST_BRIGHT_LINE for a in slots.amounts)
                and _answered_as_outside_bright_line(d)):
            return d  # (a sale and its purchase stated: whether it is taxed comes before any sum)
        if r.intent.does == "fact" and any(a.questioned == PROPERTY_HELD_UNKNOWN for a in slots.amounts):
            # Whether a property's gain is taxed turns on when it was bought, which is not said.
            _clarify(d, "bought_when")
            return d
        if r.intent.does == "clarify":
            d.missing = ["income"] if slots.income_amount() is None and _asks_own_figure(asked) else ["question"]
        elif r.intent.does == "fact" and r.intent.asks and _own_figure_with_nothing(asked, r.intent, slots, r.states_nothing):
            # Their own rate or code asked, with nothing to go on.
            _clarify(d, r.intent.asks)
        elif r.intent.does == "fact" and r.intent.tool and (slots.income_amount() is not None or slots.contributions) and (
                "calculation" not in r.intent.show or _states_own_figures(asked, slots)):
            # A fact that depends on the stated income, or a misconception about their own income: its
            # catalogue entry names the calculator that settles it.
            _fact_sum(d, r.intent, slots)
        elif r.intent.own_sum_asks and not slots.amounts and OWN_AMOUNT.search(asked) and not THRESHOLD_ASKED.search(asked):
            # A figure of their own (or of someone they ask for), with no amount to work from.
            _clarify(d, "details")
        elif (r.intent.own_sum_asks and (OWN_AMOUNT.search(asked) or slots.extra_only and ASKS_AMOUNT_OF_TAX.search(asked))
              and any(a.role != "foreign" for a in slots.amounts) and slots.income_amount() is None and not d.rule_results):
            # Tax on extra pay follows the band the rest of their income reaches, which is not said.
            _clarify(d, _what_else_reason(slots) if slots.extra_only else "income")
        return d
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
    slots = d.slots  # (as the two steps above set it)
    if ask_backs.kiwisaver_rate(d, r):
        return d
    if ask_backs.side_income(d, r):
        return d
    if ask_backs.part_year(d, r):
        return d
    if (r.runner is not None and r.runner.rule_sum == "provisional" and _rule_sum(d, r.runner, slots) and "provisional" in d.rule_results
            and any(_rit_named_before(asked, a) for a in slots.amounts)):
        # Provisional tax follows the residual income tax named, whatever else the business took in.
        d.action, d.intent = "fact", r.runner
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
        fact = r.runner if r.runner is not None and r.runner.does == "fact" and r.runner.tool == r.intent.tool else None
        if r.runner is not None and r.runner.does == "fact" and r.runner.rule_sum and _rule_sum(d, r.runner, slots):
            # A rule with a sum of its own asked on their figure: the rule's sum.
            d.action, d.intent = "fact", r.runner
            return d
        if fact is not None and "calculation" in fact.show and _states_own_figures(asked, slots):
            # Too close to call between a misconception and the sum on their own income: the fact's
            # answer shows the sum too.
            d.action, d.intent = "fact", fact
            _fact_sum(d, fact, slots)
            return d
        if slots.questioned:
            _clarify(d, "amount", slots.questioned[0].questioned)
        elif r.donation is not None and r.gives_only:
            # Between the credit and a sum on their pay, with only donations stated: the credit.
            d.action, d.intent = "calculate", r.donation
            _plan(d, r.donation, slots)
        elif _income_for(slots, r.intent.tool).income_amount() is None and _asks_own_figure(asked):
            _clarify(d, "income")
        elif r.runner is not None and r.runner.does == "calculate" and _income_for(slots, r.intent.tool).income_amount() is not None:
            # Clearly a sum, but which of two? Work out both, each labelled, when both can run on
            # what was said; otherwise ask which is meant.
            trials = [_trial(d, spec, slots) for spec in (r.intent, r.runner)]
            if all(trials):
                d.action = "calculate"
                for trial in trials:
                    _add_calls(d, trial)
            elif (by_rule := _rule_answer(d, r.intent, slots)) is not None:
                return by_rule  # the nearer reading is answered by its rule on their figure, whatever the other
            else:
                _clarify(d, "which_calculation")
                d.clarify_options = [i.label or i.name.replace("_", " ") for i in (r.intent, r.runner)]
        else:
            d.action = "topic"
        return d
    d.action = "calculate"
    named = components or []
    said_not = {"calculate_kiwisaver": slots.kiwisaver is False, "calculate_student_loan_repayment": slots.student_loan is False}
    # (A part said not to apply is not worked out because its word is there.)
    components = [c for c in named if c.name in r.intent.covers and c.does == "calculate" and not said_not.get(c.tool)]
    if slots.names_income_tax and r.intent.tool in ("calculate_acc_levy", "calculate_student_loan_repayment"):
        # Income tax named beside another sum: worked out too, on the same income.
        components += [c for c in named if c.tool == "calculate_income_tax"]
    if slots.names_acc_levy and r.intent.tool == "calculate_income_tax":
        # The ACC levy named beside another sum: worked out too, on the same income.
        components += [c for c in named if c.tool == "calculate_acc_levy"]
    if (any(c.tool == "calculate_ietc" for c in components) and slots.tax_code is None
            and not (slots.wff or slots.benefit_or_super or slots.no_ird_number)):
        # The IETC asked in a take-home sum: the credit comes through the ME code.
        d.default_code = "ME"
    _plan(d, r.intent, slots)
    for part in components:
        # A part of this sum the question names is worked out on its own as well, with its own
        # working and source.
        if d.action == "calculate" and (trial := _trial(d, part, slots)) is not None:
            _add_calls(d, trial)
    if (d.action == "clarify" and d.missing == ["income"] and r.runner is not None and r.runner.does == "fact"
            and _asks_own_rate(asked, r.runner, slots)):
        # The ESCT rate follows their salary and the employer's contributions, which are not stated.
        _clarify(d, r.runner.asks)
        return d
    if (d.action == "clarify" and d.missing == ["income"] and r.runner is not None and r.runner.does == "fact"
            and not _asks_own_figure(asked) and not PER_PAY_ASKED.search(asked)):
        # Nothing this sum can work on, and no figure of their own asked for: the rule answers it.
        d.action, d.intent, d.missing = "fact", r.runner, []
        return d
    for extra in also or []:
        # A second question in the same message: a calculation on the same figures, or a fact.
        if d.action != "calculate" or extra.name == r.intent.name or extra.name in r.intent.covers:
            continue  # (PAYE on a pay already shows its student loan and KiwiSaver)
        if extra.does == "fact" and extra.lead:
            d.also_facts.append(extra)
            continue
        if extra.does != "calculate" or any(name == extra.tool for name, _ in d.calls):
            continue  # (a calculator already run answers that part)
        trial = _trial(d, extra, slots)
        if trial is not None:
            _add_calls(d, trial)
    _loan_deduction_first(d, r.intent, slots)
    return d


# The credit itself asked for (not how much it is cut by).
CREDIT_AMOUNT_ASKED = re.compile(r"\bhow much\b(?![^?]*\b(?:cut|reduc\w*|abate\w*|lose|drop|go(?:es)? down|less)\b)", re.I)
