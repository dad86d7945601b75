"""Which reading decide() works on: the `Reading` it carries, and the steps that switch it.

In: the `Decision` (decide.py) and its `Reading` (the intent, the runner-up, what the runner-up does,
whether the intent is sure). Out: the same, the reading switched when a step's condition holds (the
intent to the runner-up, to a nearer rule or to the calculation that settles it; `d.intent` follows).
A switch never settles the decision: every step returns None, and decide() goes on.

    reading = Reading.of(classification, slots)
    held_back_from_declining(decision, reading)   # reading.intent may now be the runner-up
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from nztax.calculation_plan import ALL_INCOME_TOOLS, EXTRA_TAX, SELF_EMPLOYED, _gives_only, _income_for
from nztax.calculator_calls import TAX_OFF_ASKED, _codes_compared, base_code
from nztax.clarify_checks import _calculation, _nearest_rule
from nztax.cue_words import alternatives
from nztax.rules import SECONDARY_CODES
from nztax.settings import get_settings
from nztax.slots import CODE_ASKED, PAY_FREQUENCIES, SECOND_JOB_WORDS, Slots
from nztax.understand import Classification, IntentSpec, default_catalogue, says_any
from nztax.literal_screen import screen_patterns

if TYPE_CHECKING:
    from nztax.decide import Decision

# A choice of code asked for: which one to put, use or give.
CODE_CHOICE_ASKED = re.compile(alternatives("code_choice_asked"), re.I)
# A sum asked for in a word or two at the end of the question, after the figures it is on.
TAX_ASKED_TERSELY = re.compile(alternatives("tax_asked_tersely"), re.I)
# A job named beside NZ Super, a pension or a benefit.
JOB_BESIDE = re.compile(alternatives("job_beside"), re.I)
# A loss asked to be set against other income: a rule about ring-fencing, not a sum.
LOSS_USED_AGAINST = re.compile(r"\b(?:loss(?:es)?|lost)\b[^?]{0,80}\b(?:" + alternatives("loss_used_against")
                               + r")\b[^?]{0,40}\b(?:salary|wages?|pay|income|tax)\b", re.I)
LOSS_RULES = ("rental_boarders", "self_employed")
# Whether they may change something (a rate, a code): a rule answers it, and an income stated beside
# it is context, not a sum to work out.
PERMISSION_ASKED = re.compile(alternatives("permission_asked"), re.I)
SUM_ASKED = re.compile(alternatives("sum_asked"), re.I)


@dataclass
class Reading:
    """What decide() weighs, carried from step to step. `runner_does` is kept apart from `runner`: a
    switch may set it to what the reading before the switch did. The last three are read once, from
    the question's slots and the two readings before any switch."""
    intent: IntentSpec
    runner: IntentSpec | None
    runner_does: str | None
    sure: bool
    gives_only: bool                  # donations are the only money stated
    donation: IntentSpec | None       # the donation credit, when it is one of the two readings
    states_nothing: bool              # no amount and no condition stated

    @classmethod
    def of(cls, classification: Classification, slots: Slots) -> Reading:
        intent, runner = classification.intent, classification.runner_up
        states_nothing = not slots.amounts and not (slots.student_loan or slots.kiwisaver or slots.wff or slots.flat_code
                                                     or slots.benefit_or_super or slots.no_ird_number or slots.tax_code)
        donation = next((spec for spec in (intent, runner) if spec is not None and spec.tool == "calculate_donation_tax_credit"), None)
        return cls(intent, runner, runner.does if runner is not None else None, classification.confident,
                   _gives_only(slots), donation, states_nothing)

    def switch_to(self, d: Decision, intent: IntentSpec, runner_does: str, sure: bool = True,
                  runner_up_kept: bool = True) -> None:
        """The reading switched to `intent` (and `d.intent` with it): the intent before becomes the
        runner-up (none when not `runner_up_kept`), and `runner_does` says what the reading left behind
        did."""
        self.intent, self.runner = intent, self.intent if runner_up_kept else None
        d.intent, self.runner_does, self.sure = intent, runner_does, sure


# -- before the reading's action is taken --------------------------------------------------------

def deduction_on_a_pay(d: Decision, r: Reading) -> None:
    """Near a fact about codes, but a deduction asked on a stated pay is the calculation's (which
    asks how often it is paid)."""
    if (not r.sure and r.intent.does == "fact" and r.runner is not None and r.runner.does == "calculate" and d.slots.incomes
            and TAX_OFF_ASKED.search(d.asked)):
        r.intent = d.intent = r.runner
        r.runner = d.classification.intent


def held_back_from_declining(d: Decision, r: Reading) -> None:
    """Held back from turning it away (words of New Zealand's own tax, or of their own pay): the
    nearest reading that answers it."""
    asked, slots, runner = d.asked, d.slots, r.runner
    if (not r.sure and r.intent.does == "decline" and runner is not None
            and d.classification.runner_up_score >= get_settings().intent_min_score
            and says_any(asked, r.intent.decisive_unless)
            and (runner.does == "fact" and not slots.amounts or runner.does == "calculate" and slots.income_amount() is not None)):
        r.switch_to(d, runner, "decline", sure=r.sure)


def topic_with_its_sum(d: Decision, r: Reading) -> None:
    """A topic with its figures stated and the tax asked tersely: the topic's own sum on them."""
    if (r.intent.does == "topic" and r.runner is not None and r.runner.does == "calculate"
            and _income_for(d.slots, "calculate_income_tax").income_amount() is not None and TAX_ASKED_TERSELY.search(d.asked)):
        r.switch_to(d, r.runner, "topic")


def permission_to_its_rule(d: Decision, r: Reading) -> None:
    """Whether they may change something, asked beside a sum's words: the nearest rule answers it."""
    if r.intent.does == "calculate" and PERMISSION_ASKED.search(d.asked) and not SUM_ASKED.search(d.asked):
        rule = _nearest_rule(d.classification)
        if rule is not None:
            r.switch_to(d, rule, "calculate")


def secondary_code_beside_super(d: Decision, r: Reading) -> None:
    """NZ Super (or a benefit) is taxed as the main income, so the job takes a secondary code from the
    total (and the main-code rule is no fallback)."""
    slots = d.slots
    if (r.intent.name in ("tax_code_main", "secondary_code") and slots.benefit_or_super and slots.tax_code is None
            and JOB_BESIDE.search(d.asked) and (secondary := _calculation("choose_secondary_tax_code")) is not None):
        r.switch_to(d, secondary, "fact", runner_up_kept=False)


def loss_to_its_rule(d: Decision, r: Reading) -> None:
    """Whether a loss can be set against other income is the rental's (or the business's) rule, not a
    sum, nor an employee's expenses."""
    asked = d.asked
    if (r.intent.does in ("calculate", "fact") and r.intent.name not in LOSS_RULES and LOSS_USED_AGAINST.search(asked)
            and not SUM_ASKED.search(asked)):
        rule = max((spec for spec in default_catalogue().intents if spec.name in LOSS_RULES),
                   key=lambda spec: d.classification.scores.get(spec.name, 0.0))
        r.switch_to(d, rule, "calculate")


# -- a calculation's reading ----------------------------------------------------------------------

def self_employed_income_tax(d: Decision, r: Reading) -> None:
    """Self-employed: no employer takes PAYE; their tax is the year's income tax on the profit.
    (Between the two, that settles it.)"""
    slots = d.slots
    readings = {r.intent.tool, r.runner.tool if r.runner is not None else None}
    if (SELF_EMPLOYED.search(d.asked) and slots.tax_code is None and slots.asked_period not in PAY_FREQUENCIES
            and "calculate_paye" in readings):
        income_tax = _calculation("calculate_income_tax")
        if income_tax is not None and r.intent.tool in ("calculate_paye", "calculate_income_tax"):
            r.sure = r.sure or readings == {"calculate_paye", "calculate_income_tax"}
            r.intent = d.intent = income_tax


def secondary_code_choice(d: Decision, r: Reading) -> None:
    """A choice between secondary codes follows the year's total income, not the PAYE each would take."""
    compared = _codes_compared(d.asked) if r.intent.tool == "calculate_paye" else None
    if compared and all(base_code(c) in SECONDARY_CODES for c in compared) and CODE_CHOICE_ASKED.search(d.asked):
        secondary = _calculation("choose_secondary_tax_code")
        if secondary is not None:
            r.intent = d.intent = secondary


def second_job_code_and_paye(d: Decision, r: Reading) -> None:
    """A second job's code and its PAYE both asked: the code from the total, then the PAYE on its pay."""
    slots = d.slots
    if (r.intent.tool == "calculate_paye" and slots.tax_code is None and CODE_ASKED.search(d.asked)
            and {"second_job"} <= {a.role for a in slots.amounts} and len(slots.incomes) > 1):
        secondary = _calculation("choose_secondary_tax_code")
        if secondary is not None:
            r.intent = d.intent = secondary


def take_home_each_pay(d: Decision, r: Reading) -> None:
    """What reaches them each pay is the take-home pay, which leads with IRD's PAYE on the same pay
    and adds what else comes off it."""
    slots = d.slots
    if (r.intent.tool == "calculate_paye" and slots.names_take_home and slots.tax_code is not None and len(slots.incomes) == 1
            and not SECOND_JOB_WORDS.search(d.asked)):
        take_home = _calculation("calculate_take_home_pay")
        if take_home is not None:
            r.intent = d.intent = take_home


def sum_asked_outright(d: Decision, r: Reading) -> None:
    """A sum asked for in so many words, on their own figures, whatever rule is near (a misconception
    asked beside it is answered by the same working): the calculation is sure."""
    asked, slots, intent = d.asked, d.slots, r.intent
    if (not r.sure and intent.tool in ALL_INCOME_TOOLS and r.runner_does in ("fact", "topic") and slots.income_amount() is not None
            and (EXTRA_TAX.search(asked) or TAX_ASKED_TERSELY.search(asked)
                 or intent.tool == "calculate_take_home_pay" and slots.names_take_home)):
        r.sure = True

screen_patterns(globals())  # (literal_screen.py: each pattern above tried only on a text with a literal it needs)
