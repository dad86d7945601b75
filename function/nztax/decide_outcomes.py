"""How decide() ends once its reading is chosen: a rule, topic or way out; a rule's own sum; the two
readings weighed when unsure; or the calculation planned with its parts and a second question.

In: the `Decision` (decide.py) and its `Reading` (reading_switches.py). Out: the `Decision` to
propose (`unsure` may return the copy a rule's working was planned on, calculation_plan._rule_answer).

    return without_a_sum(decision, reading)      # decision.action: fact | topic | clarify | decline | refuse
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from nztax.calculation_plan import (_add_calls, _answered_as_outside_bright_line, _fact_sum, _income_for,
                                    _loan_deduction_first, _plan, _rit_named_before, _rule_answer, _rule_sum, _trial,
                                    _what_else_reason)
from nztax.calculator_calls import _clarify
from nztax.clarify_checks import (OWN_AMOUNT, PER_PAY_ASKED, THRESHOLD_ASKED, _asks_own_figure, _asks_own_rate,
                                  _own_figure_with_nothing, _states_own_figures)
from nztax.cue_words import alternatives
from nztax.settings import get_settings
from nztax.slots import HELD_PAST_BRIGHT_LINE, PROPERTY_HELD_UNKNOWN
from nztax.sum_inputs import me_code_open
from nztax.understand import IntentSpec
from nztax.literal_screen import screen_patterns

if TYPE_CHECKING:
    from nztax.decide import Decision
    from nztax.reading_switches import Reading

# A figure asked for: tax on something, how much, what is owed.
ASKS_AMOUNT_OF_TAX = re.compile(alternatives("asks_amount_of_tax"), re.I)
# The credit itself asked for (not how much it is cut by).
CREDIT_AMOUNT_ASKED = re.compile(r"(?:" + alternatives("credit_amount_asked") + r")(?![^?]*\b(?:"
                                 + alternatives("credit_cut_asked") + r")\b)", re.I)


# -- a reading that is not a calculation -----------------------------------------------------------

def without_a_sum(d: Decision, r: Reading) -> Decision:
    """The reading's own action (refuse, decline, clarify, fact, topic), unless it is not sure enough
    to turn the question away (then it is looked up), or nothing in the catalogue is near and the
    nearest way out is to turn it away."""
    asked, slots, classification, runner = d.asked, d.slots, d.classification, r.runner
    both_out = r.intent.does == r.runner_does == "decline" and classification.score >= get_settings().intent_min_score
    if (not r.sure and r.intent.does == "refuse" and runner is not None and runner.does in ("fact", "topic")
            and classification.runner_up_score >= get_settings().intent_min_score):
        # Near a request to mislead but in an honest question's words (declaring, doing it
        # properly): the nearest rule or topic answers it.
        r.intent = d.intent = runner
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
        d.action, d.intent = "decline", runner
        return d
    return _as_the_reading_does(d, r)


def _as_the_reading_does(d: Decision, r: Reading) -> Decision:
    """The reading's action taken: a rule worked on the stated figures, or what it still needs asked."""
    asked, slots, intent = d.asked, d.slots, r.intent
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
    elif intent.does == "fact" and intent.asks and _own_figure_with_nothing(asked, intent, slots, r.states_nothing):
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


# -- a calculation's reading -------------------------------------------------------------------------

def provisional_from_rit(d: Decision, r: Reading) -> bool:
    """Provisional tax follows the residual income tax named, whatever else the business took in: the
    runner-up's rule, worked on it, settles the decision."""
    runner, slots = r.runner, d.slots
    if (runner is not None and runner.rule_sum == "provisional" and _rule_sum(d, runner, slots) and "provisional" in d.rule_results
            and any(_rit_named_before(d.asked, a) for a in slots.amounts)):
        d.action, d.intent = "fact", runner
        return True
    return False


def unsure(d: Decision, r: Reading) -> Decision:
    """A calculation not sure enough to run alone: the runner-up's rule, both sums labelled, the
    donation credit, or a question back (which amount, the income, which calculation); else a topic."""
    asked, slots, intent, runner = d.asked, d.slots, r.intent, r.runner
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
    elif r.donation is not None and r.gives_only:
        # Between the credit and a sum on their pay, with only donations stated: the credit.
        d.action, d.intent = "calculate", r.donation
        _plan(d, r.donation, slots)
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


def calculation(d: Decision, r: Reading, components: list[IntentSpec], also: list[IntentSpec]) -> Decision:
    """The sure calculation planned, with the parts of it the question names worked on their own and a
    second question's sum or fact; the runner-up's rule instead when there is nothing to work on."""
    intent, slots = r.intent, d.slots
    d.action = "calculate"
    parts = _parts_named(d, r, components)
    _plan(d, intent, slots)
    for part in parts:
        # A part of this sum the question names is worked out on its own as well, with its own
        # working and source.
        if d.action == "calculate" and (trial := _trial(d, part, slots)) is not None:
            _add_calls(d, trial)
    if _rule_instead(d, r):
        return d
    _second_question(d, r, also)
    _loan_deduction_first(d, intent, slots)
    return d


def _parts_named(d: Decision, r: Reading, named: list[IntentSpec]) -> list[IntentSpec]:
    """The calculations named beside the intent's own that are worked out too (a part said not to
    apply is not, though its word is there); the ME code when the IETC is one of them."""
    intent, slots = r.intent, d.slots
    said_not = {"calculate_kiwisaver": slots.kiwisaver is False, "calculate_student_loan_repayment": slots.student_loan is False}
    parts = [c for c in named if c.name in intent.covers and c.does == "calculate" and not said_not.get(c.tool)]
    if slots.names_income_tax and intent.tool in ("calculate_acc_levy", "calculate_student_loan_repayment"):
        # Income tax named beside another sum: worked out too, on the same income.
        parts += [c for c in named if c.tool == "calculate_income_tax"]
    if slots.names_acc_levy and intent.tool == "calculate_income_tax":
        # The ACC levy named beside another sum: worked out too, on the same income.
        parts += [c for c in named if c.tool == "calculate_acc_levy"]
    if any(c.tool == "calculate_ietc" for c in parts) and me_code_open(slots):
        # The IETC asked in a take-home sum: the credit comes through the ME code.
        d.default_code = "ME"
    return parts


def _rule_instead(d: Decision, r: Reading) -> bool:
    """The plan asks for an income and the runner-up is a rule: its own question back (the ESCT rate
    follows their salary and the employer's contributions), or, with no figure of their own asked,
    the rule answers it."""
    asked, slots, runner = d.asked, d.slots, r.runner
    if not (d.action == "clarify" and d.missing == ["income"] and runner is not None and runner.does == "fact"):
        return False
    if _asks_own_rate(asked, runner, slots):
        _clarify(d, runner.asks)
        return True
    if not _asks_own_figure(asked) and not PER_PAY_ASKED.search(asked):
        d.action, d.intent, d.missing = "fact", runner, []
        return True
    return False


def _second_question(d: Decision, r: Reading, also: list[IntentSpec]) -> None:
    """A second question in the same message: a calculation on the same figures, or a fact."""
    intent = r.intent
    for extra in also:
        if d.action != "calculate" or extra.name == intent.name or extra.name in intent.covers:
            continue  # (PAYE on a pay already shows its student loan and KiwiSaver)
        if extra.does == "fact" and extra.lead:
            d.also_facts.append(extra)
            continue
        if extra.does != "calculate" or any(name == extra.tool for name, _ in d.calls):
            continue  # (a calculator already run answers that part)
        trial = _trial(d, extra, d.slots)
        if trial is not None:
            _add_calls(d, trial)

screen_patterns(globals())  # (literal_screen.py: each pattern above tried only on a text with a literal it needs)
