"""The reading decide() weighs, carried from step to step (`Reading`).

In: the question's `Classification` and `Slots`. Out: a `Reading`: the intent, the runner-up, what
the runner-up does, whether the intent is sure, and what the slots state (read once, before any
switch between the two readings).

    reading = Reading.of(classification, slots)
"""

from __future__ import annotations

from dataclasses import dataclass

from nztax.calculation_plan import _gives_only
from nztax.slots import Slots
from nztax.understand import Classification, IntentSpec


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
