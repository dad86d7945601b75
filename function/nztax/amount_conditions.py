"""The conditions a sentence sets on an amount, and whether a post's own figures fall outside them.

In: a sentence that may open an answer, and the post. Out: `contradicted(post, sentence)` -> a short
reason (for the trace) or ""; `first_contradicted(post, text)` the same for a text's first such
sentence; `met(post, sentence)`, its mirror (a condition the post's figures meet);
`note_held_back(decision, texts)` puts the reason in the trace. A rule sentence can hold for one side of a figure only ("if the total
cost of your FIF interests was $50,000 or less", "if your income is between $24,000 and $70,000");
stated to a poster whose own figure of that kind lies on the other side, it is not their situation
and must not open the answer (it may still follow as context), unless the post asks whether it meets
that condition, which the condition answers.

A condition is an amount of money (the number grammar's `find_money`) with a comparison beside it
(under, up to, or less, over, between … and …: lists `bound_*` in data/amount_words.yaml; a
comparison before its figure leaves the figure out ("under", "over") unless it says so ("up to", "at
least"); one after it ("or less") and a range take it in) that a
word earlier in its sentence makes a condition of the rule (`condition_setters`: if, when, once,
must …). The post's figures are read by the same grammar: a figure on its own is a point, one with a
comparison ("over the $180k threshold", "I earn more than $70k") a range. The post's figure bounds the
same amount as the condition when both are of one kind by the number grammar's role (input_figures
`grammar_kind`: "earn" an income, "cost" a price, "donated" a contribution; an investment's cost is
not an income), or when the post sets its own comparison on the condition's very figure (a post
"over the $5,000 threshold" against a rule for "$5,000 or less"): naming the threshold names the
amount it bounds. Only amounts read in the same period (a year's, a week's) are compared.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from decimal import Decimal

from nztax.cue_words import alternatives
from nztax.literal_screen import screen_patterns
from nztax.money_reader import find_money
from nztax.sentences import asking_sentences, sentences
from nztax.text_cleaning import clean_text

INFINITE = Decimal("Infinity")
_FILLERS = r"(?:\s+(?:" + alternatives("bound_fillers") + r")){0,3}\s*\$?\s*"
# (The money span may start before its "$"; the fillers may end with one.)
# (Group `at`: a comparison the figure itself meets, "up to", "at least"; tried first, so "not more than"
# is read whole.)
_BELOW = r"(?P<at>" + alternatives("bound_at_most_before") + r")|" + alternatives("bound_below_before")
_ABOVE = r"(?P<at>" + alternatives("bound_at_least_before") + r")|" + alternatives("bound_above_before")
BELOW_BEFORE = re.compile(r"(?:^|\W)(?:" + _BELOW + r")" + _FILLERS + r"$", re.I)
ABOVE_BEFORE = re.compile(r"(?:^|\W)(?:" + _ABOVE + r")" + _FILLERS + r"$", re.I)
BETWEEN_BEFORE = re.compile(r"\b(?:" + alternatives("bound_between") + r")" + _FILLERS + r"$", re.I)
BELOW_AFTER = re.compile(r"^\s*(?:" + alternatives("bound_below_after") + r")", re.I)
ABOVE_AFTER = re.compile(r"^\s*(?:" + alternatives("bound_above_after") + r")", re.I)
RANGE_JOIN = re.compile(r"^\s*(?:" + alternatives("bound_range_joins") + r")\s*\$?\s?$", re.I)
_LINE = r"(?:\s+[\w-]+){0,3}?\s+(?P<line>" + alternatives("bound_lines") + r")s?\b"
LINE_BELOW = re.compile(r"(?:^|\W)(?:" + _BELOW + r")" + _LINE, re.I)
LINE_ABOVE = re.compile(r"(?:^|\W)(?:" + _ABOVE + r")" + _LINE, re.I)
NEGATED = re.compile(r"(?:" + alternatives("bound_negations") + r")\s+(?:\w+\s+){0,2}$", re.I)
CLAUSE_MARK = re.compile(r"[;:]")  # a rule's parts: a condition is read within its own
ASKS_IF_MET = re.compile(r"\b(?:" + alternatives("asks_if_condition_met") + r")\b", re.I)
SETS_CONDITION = re.compile(r"\b(?:" + alternatives("condition_setters") + r")\b", re.I)


@dataclass(frozen=True)
class Bound:
    """An amount's range: low and high ends, each included or not; `figures` the figures it is set by."""
    kind: str | None
    period: str | None
    low: Decimal
    low_in: bool
    high: Decimal
    high_in: bool
    figures: frozenset[Decimal]
    compared: bool          # set by a comparison (not a figure stated on its own)
    text: str
    start: int              # where it starts in the cleaned text

    def apart(self, other: "Bound") -> bool:
        """Whether no amount lies in both ranges."""
        def below(a: Bound, b: Bound) -> bool:
            return a.high < b.low or (a.high == b.low and not (a.high_in and b.low_in))
        return below(self, other) or below(other, self)

    def same_amount(self, other: "Bound") -> bool:
        """Whether two bounds are on the same amount: of one kind, or one comparison set on the other's figure."""
        return ((self.kind is not None and self.kind == other.kind)
                or (self.compared and other.compared and bool(self.figures & other.figures)))


def _kind(role: str | None) -> str | None:
    from nztax.input_figures import grammar_kind  # (input_figures reads the frame: no cycle at import)

    return grammar_kind(role)


def bounds(text: str) -> list[Bound]:
    """Every amount of money in the text with the range it states: a comparison's, or the figure itself."""
    text = clean_text(text)
    found = [m for m in find_money(text) if not m.questioned]
    out: list[Bound] = []
    paired: set[int] = set()
    for i, m in enumerate(found):
        if i in paired:
            continue
        before, after = text[:m.start], text[m.end:]
        low, low_in, high, high_in, figures = m.value, True, m.value, True, {m.value}
        nxt = found[i + 1] if i + 1 < len(found) else None
        if BETWEEN_BEFORE.search(before) and nxt is not None and RANGE_JOIN.match(text[m.end:nxt.start]):
            high, figures = nxt.value, {m.value, nxt.value}
            paired.add(i + 1)
        elif side := (below := BELOW_BEFORE.search(before)) or ABOVE_BEFORE.search(before):
            if NEGATED.search(before[:side.start() + 1]):
                continue
            at = side.group("at") is not None
            low, low_in, high, high_in = (-INFINITE, True, m.value, at) if below else (m.value, at, INFINITE, False)
        elif BELOW_AFTER.match(after):
            low = -INFINITE
        elif ABOVE_AFTER.match(after):
            high, high_in = INFINITE, False
        compared = (low, high) != (m.value, m.value)
        out.append(Bound(_kind(m.role), m.period, low, low_in, high, high_in, frozenset(figures), compared,
                         text[m.start:(nxt.end if i + 1 in paired else m.end)].strip(), m.start))
    return out


@functools.lru_cache(maxsize=4096)
def conditions_set(sentence: str) -> tuple[Bound, ...]:
    """The bounds a sentence sets as a condition of its rule: a comparison with a condition word before it
    in its clause ("if you are 16 or over, …, up to $260.72": the cap is no condition). Parts split at a
    colon or semicolon are read on their own (the number grammar reads a figure written twice once)."""
    if not any(ch.isdigit() for ch in sentence):
        return ()
    return tuple(b for part in CLAUSE_MARK.split(clean_text(sentence)) for b in bounds(part)
                 if b.compared and SETS_CONDITION.search(part[:b.start].rsplit(",", 1)[-1]))


@functools.lru_cache(maxsize=4096)
def _compared(sentence: str) -> tuple[Bound, ...]:
    """Every bound the sentence puts on an amount, clause by clause, with or without a condition word."""
    return tuple(b for part in CLAUSE_MARK.split(clean_text(sentence)) for b in bounds(part) if b.compared)


@functools.lru_cache(maxsize=4096)
def lines(text: str, conditions_only: bool = False) -> frozenset[tuple[str, str]]:
    """The lines a text puts an amount below or above without their figure ("under a minimum threshold",
    "exceed the FIF threshold"): (the line's word, "below" or "above"); with `conditions_only`, only those
    with a condition word before them in their clause."""
    text = clean_text(text)
    out = set()
    for side, pattern in (("below", LINE_BELOW), ("above", LINE_ABOVE)):
        for m in pattern.finditer(text):
            before = text[:m.start() + 1]
            if NEGATED.search(before) or (conditions_only and not SETS_CONDITION.search(
                    CLAUSE_MARK.split(before)[-1].rsplit(",", 1)[-1])):
                continue
            out.add((m.group("line").lower(), side))
    return frozenset(out)


@functools.lru_cache(maxsize=64)
def _post_bounds(post: str) -> tuple[Bound, ...]:
    return tuple(bounds(post))


@functools.lru_cache(maxsize=64)
def _asks_if_met(post: str) -> bool:
    return any(ASKS_IF_MET.search(s) for s in asking_sentences(clean_text(post)) or [post])


def _figures_of(condition: Bound, stated, unnamed_too: bool = False) -> list[Bound]:
    """The post's figures of the amount a condition bounds (read in its period); with `unnamed_too`, once
    one is found, also those the grammar names no kind of (they may be that amount too: counted to
    hold a sentence back, they can only take the post inside)."""
    same = [f for f in stated if f.period == condition.period and condition.same_amount(f)]
    return same + [f for f in stated if unnamed_too and same and f.kind is None and f.period == condition.period
                   and f not in same]


def contradicted(post: str, sentence: str) -> str:
    """Why the sentence's condition is not the post's situation, or "". It is not when every figure the post
    states of that amount lies outside it, and no other condition of the sentence takes one of them in:
    a post naming figures on both sides ("bought for 40k", "if it goes over 50k") or a sentence stating
    both sides' rules speaks to it either way. A line named without a figure ("under the threshold") is
    contradicted by a post putting itself only on the other side of a line of that name. A post asking
    whether it meets a condition ("Can I get the credit?", "Does it qualify?") is answered by the
    condition, whichever side it is on: nothing is held back for it."""
    if _asks_if_met(post):
        return ""
    if any(ch.isdigit() for ch in sentence) and any(ch.isdigit() for ch in post):
        stated = _post_bounds(post)
        set_out = conditions_set(sentence)
        # (Any bound the sentence states may take the post in, condition word or not: "with a total cost
        # of $50,000 or less … instead" is the rule for the other side of the line.)
        stated_rules = _compared(sentence) if set_out else ()
        for condition in set_out:
            same = _figures_of(condition, stated, unnamed_too=True)
            if same and all(condition.apart(f) for f in same) and not any(
                    other.same_amount(f) and not other.apart(f) for other in stated_rules for f in same):
                return f"the condition '{condition.text}' is not the post's '{same[0].text}'"
    posts = lines(post)
    for line, side in lines(sentence, conditions_only=True):
        theirs = {s for w, s in posts if w == line}
        if theirs and side not in theirs and not (lines(sentence, conditions_only=True) - {(line, side)}):
            return f"the condition '{side} the {line}' is not the post's ({', '.join(sorted(theirs))} it)"
    return ""


def met(post: str, sentence: str) -> bool:
    """Whether the sentence sets a condition on an amount that the post's own figures of it all meet (the
    mirror of `contradicted`): a rule for the poster's side of the line."""
    stated = _post_bounds(post) if any(ch.isdigit() for ch in post) else ()
    for condition in conditions_set(sentence):
        same = _figures_of(condition, stated)
        if same and not any(condition.apart(f) for f in same):
            return True
    sides = lines(post)
    return any((line, side) in sides and (line, "below" if side == "above" else "above") not in sides
               for line, side in lines(sentence, conditions_only=True))


def first_contradicted(post: str, text: str) -> str:
    """The reason of the first sentence of a text whose condition the post contradicts, or ""."""
    return next((why for s in sentences(text) if (why := contradicted(post, s))), "")


def note_held_back(decision, texts) -> None:
    """Say in the trace which candidate opening was held back, and why (the first whose condition the
    post's figures lie outside)."""
    trace = getattr(decision, "trace", None)
    why = next((w for t in texts if t and (w := first_contradicted(decision.asked, t))), "")
    if trace is not None and why:
        trace.notes.append(f"held back from the opening: {why}")


screen_patterns(globals())  # (literal_screen.py: each pattern above tried only on a text with a literal it needs)
