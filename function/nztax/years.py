"""The tax-year grammar: how people write a New Zealand tax year, read from `data/years.yaml`.

In: text and the current tax year ("2026-27"). Out: `YearReading` (the tax year "YYYY-YY", the words
it was read from and the grammar form that matched) or None when no form matches.

    read_year("FY24-25 return", "2026-27").year   # '2024-25'
    read_year("TY24", "2026-27").year             # '2023-24'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path


from nztax.contract import tax_year_starting
from nztax.literal_screen import Screened
from nztax.yaml_data import load_yaml

GRAMMAR_FILE = Path(__file__).parent / "data" / "years.yaml"


@dataclass(frozen=True)
class YearForm:
    name: str
    maps: str            # span | ends | starts | offset
    pattern: Screened  # (literal_screen.py)
    n: int = 0


@dataclass(frozen=True)
class YearReading:
    year: str
    text: str
    form: str


@lru_cache(maxsize=1)
def _data() -> dict:
    return load_yaml(GRAMMAR_FILE.read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def grammar() -> tuple[YearForm, ...]:
    return tuple(YearForm(f["name"], f["maps"], Screened(re.compile(f["pattern"], re.I)), int(f.get("n", 0)))
                 for f in _data()["forms"])


@lru_cache(maxsize=1)
def _named_as_tax_year() -> re.Pattern:
    return re.compile(_data()["named_as_tax_year"], re.I)


def _full(year: str) -> int:
    return int(year) if len(year) == 4 else 2000 + int(year)


def _year_of(form: YearForm, m: re.Match, current: str) -> str | None:
    groups = {k: v for k, v in m.groupdict().items() if v}
    if form.maps == "span":
        a, b = _full(groups["a"]), groups["b"]
        b_full = int(b) if len(b) == 4 else (a // 100) * 100 + int(b)
        return tax_year_starting(a) if b_full == a + 1 else None
    if form.maps in ("ends", "starts"):
        y = next(v for k, v in groups.items() if k.startswith("y"))
        return tax_year_starting(_full(y) - (1 if form.maps == "ends" else 0))
    return tax_year_starting(int(current[:4]) + form.n)


def read_year(text: str, current: str) -> YearReading | None:
    """The tax year the text names in one of the grammar's forms, or None. The first form that matches
    wins, except that among the relative forms one naming a tax year wins over one that does not."""
    relative = None
    for form in grammar():
        for m in form.pattern.finditer(text):
            year = _year_of(form, m, current)
            if year is not None:
                reading = YearReading(year, m.group(0), form.name)
                if form.maps != "offset" or _named_as_tax_year().search(m.group(0)):
                    return reading
                relative = relative or reading
                break
            if form.maps != "span":
                break
    return relative


# Every form naming a year by its number holds two digits together: a sentence without them names none.
TWO_DIGITS = re.compile(r"\d\d")


@lru_cache(maxsize=8192)
def years_bounded(text: str) -> frozenset[str]:
    """The tax years a text names as periods that end ("1 April 2024 to 31 March 2025", "2024-25",
    "before 1 April 2025"), or none when it also names a period that starts and runs on ("from 1 April
    2025"): a rule said for ended periods only is that period's rule."""
    # (Read for every candidate sentence of every answer: the corpus's sentences recur, and most name no year.)
    if not TWO_DIGITS.search(text):
        return frozenset()
    years = set()
    for form in grammar():
        if form.maps == "starts" and form.pattern.search(text):
            return frozenset()
        if form.maps in ("span", "ends"):
            years.update(y for m in form.pattern.finditer(text) if (y := _year_of(form, m, "")) is not None)
    return frozenset(years)


CALENDAR_YEAR = re.compile(r"\b(?:19|20)\d{2}\b(?!\s?[-–/]\s?\d)")  # "2027", not the start of "2026-27"


def names_a_later_year(sentence: str, tax_year: str | None) -> bool:
    """Whether a sentence names a calendar year later than the one after the tax year's end ("due on 7
    February 2027" for 2007-08, whose tax was due in 2009): it states a later year's rule or date."""
    if not tax_year or not re.match(r"\d{4}-\d{2}$", tax_year):
        return False
    settled = int(tax_year[:4]) + 2  # (a year's tax is due, and its return filed, in the calendar year after it ends)
    return any(int(y) > settled for y in CALENDAR_YEAR.findall(sentence))
