"""A conversation's follow-ups: the reading so far plus the new turn, as one reading.

In: the question, the turns shown above it in the Ask box (`history`, oldest first) and the rules.
Out: `Conversation` — the text to classify, whether the question continues the conversation, and
its merged `Slots`.

A follow-up changes one thing of what was asked — the amount, the pay period, the year, KiwiSaver,
the student loan, the code — and keeps the rest. The conversation is followed back through every
turn that continued the one before it, and each turn's own slots are laid over the reading so far,
so a third turn ("and with a student loan?") still has the first turn's amount and the second
turn's period. A turn that supposes only a new pay period ("what if it's fortnightly?") moves a pay
of another period to it (the same $1,200, paid fortnightly); one that asks for it ("and
fortnightly?"), or follows a year's amount, asks for the answer in that period instead.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

from nztax.slots import Slots, clean_text, read_slots

# A turn that supposes a different situation (opening "what if") changes the pay itself; one that
# asks for another view of it (opening "and" with a period) keeps the pay and asks in that period.
SUPPOSES = re.compile(r"^\W*(?:and\s+|but\s+|so\s+)?(?:what\s+if|if)\b", re.I)
# Periods of one pay: an amount stated with one of these is a pay, which a follow-up can re-period.
PAY_PERIODS = frozenset({"weekly", "fortnightly", "four_weekly", "monthly"})


@dataclass(frozen=True)
class Conversation:
    text: str           # what the classifier reads: the turn that started it, then the question
    continues: bool     # False: the question stands on its own
    slots: Slots


def _questions(history: list[dict] | None) -> list[str]:
    return [clean_text(str(h.get("question", ""))) for h in (history or []) if isinstance(h, dict)]


def _chain_start(turns: list[str]) -> int:
    """The index of the turn the last turn's chain of follow-ups started from."""
    start = len(turns) - 1
    while start > 0 and _continues(turns[start], turns[:start]):
        start -= 1
    return start


def _with_period_of(amount, before: list):
    """A new amount with no period of its own ("what about $880?") is for the period of the amount
    it replaces ("$1,000 a week")."""
    if amount.period_stated:
        return amount
    same = [a for a in before if a.role == amount.role and a.period_stated]
    return dataclasses.replace(amount, period=same[0].period, period_stated=True) if len(same) == 1 else amount


def lay_over(current: Slots, previous: Slots, changes_situation: bool = True) -> Slots:
    """`previous` with what `current` says laid over it (decide.merge_follow_up): a new amount in
    place of the one playing the same part, and a pay moved to the period a follow-up names alone."""
    from nztax.decide import merge_follow_up

    period = current.asked_period if not current.amounts and changes_situation else None
    before = list(previous.amounts)
    pays = [a for a in before if a.period in PAY_PERIODS and a.period_stated]
    merged = merge_follow_up(current, previous)
    if current.amounts:
        # A new amount replaces the one in the same part it plays; the others stay ("my main job is
        # 55k" after a second job's $20,000 keeps the $20,000).
        roles = {a.role for a in current.amounts}
        merged.amounts = [_with_period_of(a, before) for a in current.amounts] + [a for a in before if a.role not in roles]
    if period in PAY_PERIODS and len(pays) == 1 and len(previous.amounts) == 1 and pays[0].period != period:
        merged.amounts = [dataclasses.replace(pays[0], period=period)]
        merged.asked_period = None
    return merged


def _continues(asked: str, turns: list[str]) -> bool:
    """Whether `asked` follows on from `turns`: a follow-up (decide.is_follow_up), or a statement that
    asks nothing ("my main job is 55k"), which can only be the answer to what was asked before."""
    from nztax.decide import ASKS, is_follow_up

    if not turns:
        return False
    return is_follow_up(asked, [{"question": t} for t in turns]) or ("?" not in asked and not ASKS.match(asked.strip()))


def _chain(asked: str, history: list[dict] | None) -> list[str]:
    """The earlier turns `asked` continues, oldest first (none when it stands on its own)."""
    turns = [t for t in _questions(history) if t]
    if not _continues(asked, turns):
        return []
    return turns[_chain_start(turns):]


def conversation_text(question: str, history: list[dict] | None) -> tuple[str, bool]:
    """(the text to classify, whether the question continues the conversation)."""
    asked = clean_text(question)
    chain = _chain(asked, history)
    return (f"{chain[0]} {asked}", True) if chain else (asked, False)


def conversation(question: str, history: list[dict] | None, rules, current_year: str) -> Conversation:
    """The question read with the turns it continues."""
    asked = clean_text(question)
    chain = _chain(asked, history)
    if not chain:
        return Conversation(asked, False, read_slots(asked, rules, current_year))
    slots = read_slots(chain[0], rules, current_year)
    for turn in chain[1:] + [asked]:
        slots = lay_over(read_slots(turn, rules, current_year), slots, bool(SUPPOSES.match(turn)))
    return Conversation(f"{chain[0]} {asked}", True, slots)
