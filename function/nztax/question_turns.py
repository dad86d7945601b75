"""A question's turns and parts: follow-ups, the final question, a second question.

In: the question and the turns before it (`history`). Out: whether it follows up the last turn,
the text to understand with its merged `Slots` (`question_slots`, `merge_follow_up`), the last
sentence when it is the question (`final_question`), and the question split where a second
question starts (`question_parts`).
"""

from __future__ import annotations

import re

from nztax.cue_words import alternatives
from nztax.rules import RuleBook, current_tax_year
from nztax.slots import Slots, clean_text
from nztax.follow_up import conversation, conversation_text

# A question this short after earlier turns, or one opening like a follow-up, is read together with
# the last turn (an opening "what about", "and", "with").
FOLLOW_UP_MAX_WORDS = 4
FOLLOW_UP = re.compile(r"^\s*(" + alternatives("follow_up") + r")\b", re.I)
# A second question in the same message, after a question mark or an "and" that opens another question.
SECOND_PART = re.compile(r"\?\s+(?=\S)|[,;]?\s+(?:and|also|plus)(?:\s+then)?\s+(?=(?:what|how|whats|what's)\b|"
                         r"(?:is|do|does|can|will|would)\s+(?:i|it|that|this|my|the|there|you)\b)", re.I)
ASKS = re.compile(r"(?:" + alternatives("asks") + r")\b", re.I)


def is_follow_up(question: str, history: list[dict]) -> bool:
    return bool(history) and (bool(FOLLOW_UP.search(question)) or len(question.split()) <= FOLLOW_UP_MAX_WORDS)


def understood_text(question: str, history: list[dict] | None) -> tuple[str, bool]:
    """The text to understand: the question, with the question its conversation started from in
    front of a follow-up (nztax.follow_up)."""
    return conversation_text(question, history)


def merge_follow_up(current: Slots, previous: Slots) -> Slots:
    """A follow-up's own slots win; what it does not say comes from the turn it continues."""
    merged = previous
    for name in ("hours_per_week", "weeks_per_year", "hours_per_year", "asked_period", "tax_code", "student_loan", "kiwisaver",
                 "kiwisaver_rate", "employer_rate", "tax_year", "year_text"):
        value = getattr(current, name)
        if value is not None:
            setattr(merged, name, value)
    if current.amounts:
        merged.amounts = current.amounts
        merged.adds_up, merged.comparison = current.adds_up, current.comparison
    for flag in ("wff", "benefit_or_super", "nz_super", "no_ird_number"):
        setattr(merged, flag, getattr(current, flag) or getattr(previous, flag))
    merged.negated = current.negated
    return merged


def question_slots(question: str, history: list[dict] | None, rules: RuleBook) -> tuple[str, bool, Slots]:
    """(the text to understand, whether it continues the last turn, its slots)."""
    read = conversation(question, history, rules, current_tax_year())
    return read.text, read.continues, read.slots


# (A decimal point, "4.99%", does not end a sentence.)
FINAL_QUESTION = re.compile(r"(?:^|(?<=[.!?])\s+)((?:[^.!?]|(?<=\d)\.(?=\d))+\?)\s*$")


def final_question(question: str) -> str | None:
    """The last sentence of a question that has sentences before it, when it is a question ("… I'm 42,
    on $71,000. Do I have to register for GST?"); None otherwise."""
    m = FINAL_QUESTION.search(question.strip())
    return m.group(1).strip() if m and m.start(1) > 0 else None


def question_parts(question: str) -> list[str]:
    """The question split where a second question starts (one part when there is none). A part that
    asks nothing ("… each fortnight? M code, no KiwiSaver.") belongs to the question before it."""
    text = clean_text(question)
    spans: list[list[int]] = []   # [start, end] of each part in the text
    start = 0
    for m in [*SECOND_PART.finditer(text), None]:
        end = m.start() if m else len(text)
        piece = text[start:end]
        asks = (m is not None and m.group(0).startswith("?")) or piece.rstrip().endswith("?") or ASKS.match(piece.strip())
        if spans and not asks:
            spans[-1][1] = end
        elif piece.strip(" ?"):
            spans.append([start, end])
        start = m.end() if m else len(text)
    return [text[a:b].strip().rstrip("?.! ") + "?" for a, b in spans]
