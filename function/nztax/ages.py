"""The age grammar: how people state the age of the person a question is about, read from
`data/ages.yaml`.

In: text. Out: the ages it states, each an `Age` range of whole years (an exact age is a range of
one year; "under 16" is 0 to 15), in the order written, one per different range.

    read_ages("My 15-year-old has a part-time job")   # (Age(15, 15),)
    read_ages("Can under-18s join?")                   # (Age(0, 17),)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from nztax.yaml_data import load_yaml

GRAMMAR_FILE = Path(__file__).parent / "data" / "ages.yaml"
# An age beyond this is not a person's (a figure the forms happened to catch).
OLDEST = 110


@dataclass(frozen=True)
class Age:
    low: int    # youngest the person can be
    high: int   # oldest

    def to_json(self) -> list[int]:
        return [self.low, self.high]


@dataclass(frozen=True)
class AgeForm:
    name: str
    maps: str           # exact | under
    pattern: re.Pattern


@lru_cache(maxsize=1)
def grammar() -> tuple[AgeForm, ...]:
    data = load_yaml(GRAMMAR_FILE.read_text(encoding="utf-8"))
    return tuple(AgeForm(f["name"], f["maps"], re.compile(f["pattern"], re.I)) for f in data["forms"])


def age_spans(text: str) -> list[tuple[int, int]]:
    """Where each number the forms read as an age stands (its digits): the number grammar leaves these
    alone, so "kids under 16 earning" is an age, not $16."""
    spans = []
    for form in grammar():
        for m in form.pattern.finditer(text):
            name = next((k for k, v in m.groupdict().items() if k.startswith("n") and v), None)
            if name is not None:
                spans.append(m.span(name))
    return spans


def read_ages(text: str) -> tuple[Age, ...]:
    found: list[tuple[int, Age]] = []
    taken: list[tuple[int, int]] = []
    for form in grammar():
        for m in form.pattern.finditer(text):
            if any(s < m.end() and m.start() < e for s, e in taken):
                continue  # (one stretch of text states one age)
            n = int(next(v for k, v in m.groupdict().items() if k.startswith("n") and v))
            age = Age(n, n) if form.maps == "exact" else Age(0, n - 1)
            if age.high <= OLDEST and age.high >= age.low:
                taken.append((m.start(), m.end()))
                found.append((m.start(), age))
    out: list[Age] = []
    for _, age in sorted(found, key=lambda f: f[0]):
        if age not in out:
            out.append(age)
    return tuple(out)
