"""The figure guard: no dollar amount or percentage reaches the user unless it can be traced.

In: an answer (markdown) and the evidence — tool results, the rules data of the years involved,
the text of cited passages, and the user's own words. Out: `GuardResult` with the answer minus
every sentence (or table row) holding an untraceable figure, and the figures removed.

A figure is traceable when it equals a number in the evidence, or is that number rounded to the
precision the answer writes it with ("21.1%" for an effective rate of 0.2109, "$17,928" for
17,927.50). Rates in the evidence count both as fractions and as percentages (0.175 and 17.5).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any, Iterable

from nztax.slots import money_value
from nztax.literal_screen import screen_patterns

# "$85,000", "$1.5k", "NZ$ 500", "$17,927.50"; and "17.5%", "10.5 per cent".
DOLLAR = re.compile(
    r"(?:NZ)?\$\s?(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?:\s?(?P<suf>k|m|million|thousand)\b)?",
    re.I,
)
# "NZD 2,500", "2,500 dollars", "2,500 NZD": money written without a "$" sign is still money.
WORDED_DOLLAR = re.compile(
    r"\bNZD\s?(?P<num1>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?:\s?(?P<suf1>k|m|million|thousand)\b)?"
    r"|(?<![\d.,$])(?P<num2>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?:\s?(?P<suf2>k|m|million|thousand))?"
    r"\s?(?:NZ\s)?(?:dollars?|NZD)\b",
    re.I,
)
PERCENT = re.compile(r"(?P<num>\d+(?:\.\d+)?)\s?(?:%|per ?cent\b)", re.I)
THOUSANDS = re.compile(r"(\d+(?:\.\d+)?)\s?k\b", re.I)
NUMBER = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?")
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z(*_\[])")
REMOVED_NOTE = (
    "_Some figures were removed from this answer because they could not be traced to a calculator "
    "result, the rules data or a cited source._"
)


@dataclass
class Figure:
    text: str
    value: Decimal
    kind: str  # "dollar" | "percent"


@dataclass
class GuardResult:
    answer: str
    removed: list[str] = field(default_factory=list)
    checked: int = 0

    @property
    def flagged(self) -> bool:
        return bool(self.removed)


def _decimal(text: str, suffix: str | None = None) -> Decimal | None:
    try:
        return money_value(text, suffix)
    except InvalidOperation:
        return None


def find_figures(text: str) -> list[Figure]:
    """Every dollar amount and percentage written in `text`."""
    figures = []
    for m in DOLLAR.finditer(text):
        value = _decimal(m.group("num"), m.group("suf"))
        if value is not None:
            figures.append(Figure(m.group(0), value, "dollar"))
    for m in WORDED_DOLLAR.finditer(text):
        num, suffix = (m.group("num1"), m.group("suf1")) if m.group("num1") else (m.group("num2"), m.group("suf2"))
        value = _decimal(num, suffix)
        if value is not None:
            figures.append(Figure(m.group(0), value, "dollar"))
    for m in PERCENT.finditer(text):
        value = _decimal(m.group("num"))
        if value is not None:
            figures.append(Figure(m.group(0), value, "percent"))
    return figures


class Evidence:
    """The numbers an answer may use."""

    def __init__(self) -> None:
        self.values: set[Decimal] = set()

    def add_number(self, value: Any) -> None:
        if isinstance(value, bool) or value is None:
            return
        try:
            d = Decimal(str(value))
        except InvalidOperation:
            return
        self.values.add(d.normalize())
        if 0 < d < 1:
            self.values.add((d * 100).normalize())

    def add_text(self, text: str) -> None:
        for m in NUMBER.finditer(text or ""):
            self.add_number(m.group(0).replace(",", ""))
        for f in find_figures(text or ""):  # "$85k" in a question is 85000
            self.add_number(f.value)
        for m in THOUSANDS.finditer(text or ""):  # "85k" without a dollar sign
            self.add_number(Decimal(m.group(1)) * 1000)

    def add_json(self, node: Any) -> None:
        if isinstance(node, dict):
            for v in node.values():
                self.add_json(v)
        elif isinstance(node, (list, tuple)):
            for v in node:
                self.add_json(v)
        elif isinstance(node, str):
            self.add_text(node)
        else:
            self.add_number(node)

    def add_values(self, values: Iterable[Decimal]) -> None:
        for v in values:
            self.add_number(v)

    def traces(self, figure: Figure) -> bool:
        value = figure.value.normalize()
        if value in self.values:
            return True
        # Rounded to the precision written: "21.1%" traces 21.09; "$17,928" traces 17927.5.
        exponent = figure.value.as_tuple().exponent
        places = -exponent if isinstance(exponent, int) and exponent < 0 else 0
        quantum = Decimal(1).scaleb(-places)
        for known in self.values:
            if abs(known - value) < 1 and known.quantize(quantum, rounding=ROUND_HALF_UP) == figure.value:
                return True
        return False


def differences(results: list[tuple[str, Any]]) -> list[Decimal]:
    """How far apart two runs of the same calculator are in each top-level figure: a comparison
    ("$70k vs $80k") may state the difference between its two results."""
    out = []
    for i, (name_a, a) in enumerate(results):
        for name_b, b in results[i + 1:]:
            if name_a != name_b or not isinstance(a, dict) or not isinstance(b, dict):
                continue
            for key, value in a.items():
                other = b.get(key)
                if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (value, other)):
                    out.append(abs(Decimal(str(value)) - Decimal(str(other))))
    return out


def _split_sentences(line: str) -> list[str]:
    return SENTENCE_END.split(line)


def check(answer: str, evidence: Evidence) -> GuardResult:
    """Drop each sentence or table row holding an untraceable figure; list what was dropped."""
    removed: list[str] = []
    checked = 0
    out_lines: list[str] = []
    for line in answer.split("\n"):
        figures = find_figures(line)
        if not figures:
            out_lines.append(line)
            continue
        if line.lstrip().startswith("|"):
            bad = [f.text for f in figures if not evidence.traces(f)]
            checked += len(figures)
            if bad:
                removed.extend(bad)
                continue
            out_lines.append(line)
            continue
        kept = []
        for sentence in _split_sentences(line):
            figs = find_figures(sentence)
            checked += len(figs)
            bad = [f.text for f in figs if not evidence.traces(f)]
            if bad:
                removed.extend(bad)
                continue
            kept.append(sentence)
        new_line = " ".join(kept)
        if kept or not line.strip():
            # Keep a list marker's line only if something of it is left.
            if new_line.strip() not in ("-", "*", ""):
                out_lines.append(new_line)
    text = "\n".join(out_lines).strip()
    text = re.sub(r"\n{3,}", "\n\n", text)
    if removed:
        text = f"{text}\n\n{REMOVED_NOTE}" if text else REMOVED_NOTE
    return GuardResult(answer=text, removed=removed, checked=checked)


def substantive(answer: str) -> bool:
    """Whether anything beyond the removal note is left."""
    return bool(answer.replace(REMOVED_NOTE, "").strip())


screen_patterns(globals())  # (literal_screen.py: each pattern above tried only on a text with a literal it needs)
