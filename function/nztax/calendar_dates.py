"""Calendar dates in a post, read as dates: "since August last year", "from 1 April 2025", "this past
July", "between July last year and June this year", resolved against the asking date.

In: text and the asking date; the words are `data/calendar_dates.yaml` (month names, the words that
name a year or a month's nearest occurrence, the words opening and joining a stretch). Out:
`CalendarDate`s (first and last day, the words read, whether the stretch runs to the asking date).

    read_dates("paid 3% since August last year", dt.date(2026, 11, 30))[0].start   # 2025-08-01

A month's year must be certain to be read: written ("May 2024"), named relative to the asking date
("March this year", "last May"), or the latest such month after "since" ("since March"). A month
alone ("in July") may be last July or next, and is left unread. "last year" alone is not a date: the
tax-year grammar (years.py) reads it.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from nztax.contract import tax_year_starting
from nztax.rules import tax_year_for
from nztax.yaml_data import load_yaml

DATA_FILE = Path(__file__).parent / "data" / "calendar_dates.yaml"


@dataclass(frozen=True)
class CalendarDate:
    start: dt.date
    end: dt.date
    text: str
    to_today: bool = False      # a stretch from the date to the asking date ("since August last year")
    span: tuple[int, int] = (0, 0)
    year_in_digits: bool = False  # a year written as a number, not in words ("August last year")
    day_written: bool = False     # the first day written ("from 1 April"), not a whole month

    def tax_years(self) -> tuple[str, str]:
        """The tax years of its first and last day (the same one for most dates)."""
        return tax_year_for(self.start), tax_year_for(self.end)


def _alt(words) -> str:
    return "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in sorted(words, key=len, reverse=True))


@lru_cache(maxsize=1)
def _data() -> dict:
    return load_yaml(DATA_FILE.read_text(encoding="utf-8"))


def months() -> dict[str, int]:
    """A month's names and abbreviations (lower case) to its number, read from the month table of the data."""
    return {str(name).lower(): int(number) for name, number in _data()["months"].items()}


def month_alternatives(leaving_out: frozenset[int] = frozenset()) -> str:
    """The months (but those numbered in `leaving_out`) as one regex alternation, longest name first."""
    return _alt(name for name, number in months().items() if number not in leaving_out)


def full_month_names() -> str:
    """The months' full names (each month's longest name) as one regex alternation."""
    longest = {}
    for name, number in months().items():
        longest[number] = max(longest.get(number, ""), name, key=len)
    return _alt(longest.values())


def month_number(word: str) -> int:
    """The number of a month named by any of its names ("Sept." too: a full stop after an abbreviation)."""
    return months()[word.strip(".").lower()[:3]]


def months_to_march(word: str) -> int:
    """The months of the tax year from the start of the month named to 31 March ("sept" 7, "march" 1)."""
    return (3 - month_number(word)) % 12 + 1


def place_in_tax_year(word: str) -> int:
    """The month's place in the tax year, April 0 to March 11."""
    return 12 - months_to_march(word)


def _date_format(tag: str) -> str:
    """One date's format, its groups suffixed by `tag` (a stretch holds two)."""
    d = _data()
    day = r"\d{1,2}(?:st|nd|rd|th)?"
    return (rf"(?:(?P<near{tag}>{_alt(d['nearest'])})\s+)?(?:(?P<d{tag}>{day})\s+(?:of\s+)?)?"
            rf"(?P<m{tag}>{month_alternatives()})\b\.?(?:\s+(?P<e{tag}>{day})\b,?)?"
            rf"(?:\s*,?\s+(?:of\s+|in\s+)?(?:(?P<y{tag}>(?:19|20)\d\d)\b(?![-–/]\d)|(?P<yw{tag}>{_alt(d['year_words'])})\b))?")


@lru_cache(maxsize=1)
def _patterns() -> tuple[re.Pattern, re.Pattern, re.Pattern, re.Pattern]:
    d = _data()
    stretch = re.compile(rf"\b(?:(?P<sw>{_alt(d['start_words'])})\s+(?:the\s+)?)?{_date_format('1')}\s*(?:[-–]|\s(?P<ew>{_alt(d['end_words'])}))\s+(?:the\s+)?{_date_format('2')}", re.I)
    # (A date followed by a stretch's end is that stretch's first end, not a stretch to the asking date.)
    no_end = rf"(?!\s*[-–]|\s+(?:{_alt(w for w in d['end_words'] if w != 'and')})\b)"
    since = re.compile(rf"\b(?P<opener>{_alt(d['since_words'])})\s+(?:the\s+)?{_date_format('1')}{no_end}", re.I)
    started = re.compile(rf"\b(?:{_alt(d['started_words'])})\b(?:\s+[^\s.?!,;]+){{0,3}}?\s+(?:in|on)\s+(?:the\s+)?{_date_format('1')}{no_end}", re.I)
    point = re.compile(rf"\b{_date_format('1')}", re.I)
    return stretch, since, started, point


def _resolve(m: re.Match, tag: str, today: dt.date, after_since: bool, year_hint: int | None = None) -> tuple[dt.date, dt.date] | None:
    """(first day, last day) of one date, or None when its year is not certain."""
    d = _data()
    word = m.group(f"m{tag}")
    month = d["months"][word.lower()]
    day = m.group(f"d{tag}") or m.group(f"e{tag}")
    near, year, year_word = m.group(f"near{tag}"), m.group(f"y{tag}"), m.group(f"yw{tag}")
    if word.lower() == "may" and word != "May" and not (year or year_word or day):
        return None  # ("may" is a verb)
    if year:
        y = int(year)
    elif year_word:
        y = today.year + int(d["year_words"][" ".join(year_word.lower().split())])
    elif near:
        ahead = d["nearest"][" ".join(near.lower().split())] == "next"
        y = (today.year if month > today.month else today.year + 1) if ahead else (today.year if month < today.month else today.year - 1)
    elif year_hint is not None:
        y = year_hint
    elif after_since:
        y = today.year if month <= today.month else today.year - 1
    else:
        return None
    last = calendar.monthrange(y, month)[1]
    try:
        n = int(re.match(r"\d+", day).group()) if day else None
        return (dt.date(y, month, n), dt.date(y, month, n)) if n else (dt.date(y, month, 1), dt.date(y, month, last))
    except ValueError:
        return None


def _certain_without_since(m: re.Match, tag: str) -> bool:
    return bool(m.group(f"y{tag}") or m.group(f"yw{tag}") or m.group(f"near{tag}"))


def _written(m: re.Match, tags: str) -> dict:
    """What the match wrote in digits: a year (of any of its dates), the first date's day."""
    return {"year_in_digits": any(m.group(f"y{t}") for t in tags), "day_written": bool(m.group("d1") or m.group("e1"))}


def read_dates(text: str, today: dt.date) -> list[CalendarDate]:
    """The calendar dates and stretches the text writes whose year is certain, in text order."""
    stretch, since, started, point = _patterns()
    found: list[CalendarDate] = []
    taken: list[tuple[int, int]] = []

    def free(m: re.Match) -> bool:
        return not any(a < m.end() and m.start() < b for a, b in taken)

    for m in stretch.finditer(text):
        ew = (m.group("ew") or "").lower()
        if ew == "and" and (m.group("sw") or "").lower() != "between" or not free(m):
            continue  # ("in May 2024 and June" is two dates only after "between")
        second = _resolve(m, "2", today, False)
        hint = None
        if second is not None and not _certain_without_since(m, "1"):
            month1 = _data()["months"][m.group("m1").lower()]
            hint = second[0].year - (1 if month1 > second[0].month else 0)
        first = _resolve(m, "1", today, False, hint)
        if first is None or second is None or second[1] < first[0]:
            continue
        found.append(CalendarDate(first[0], second[1], m.group(0), span=m.span(), **_written(m, "12")))
        taken.append(m.span())
    bare = {" ".join(w.lower().split()) for w in _data()["bare_since_words"]}
    for pattern in (since, started):
        for m in pattern.finditer(text):
            days = _resolve(m, "1", today, pattern is started or " ".join(m.group("opener").lower().split()) in bare)
            if days is None or not free(m):
                continue
            runs = days[0] <= today
            found.append(CalendarDate(days[0], today if runs else days[1], m.group(0), to_today=runs, span=m.span(),
                                      **_written(m, "1")))
            taken.append(m.span())
    for m in point.finditer(text):
        if not _certain_without_since(m, "1") or not free(m):
            continue
        days = _resolve(m, "1", today, False)
        if days is not None:
            found.append(CalendarDate(days[0], days[1], m.group(0), span=m.span(), **_written(m, "1")))
            taken.append(m.span())
    return sorted(found, key=lambda c: c.span)


def relative(date: CalendarDate) -> bool:
    """Whether the date's year is named by words, not digits ("August last year", "last May")."""
    return not date.year_in_digits


def tax_year_of(dates: list[CalendarDate], current: str) -> tuple[str, str] | None:
    """(tax year, the words) the dates put a post in: a stretch running to the asking date is the
    current tax year (the figures for now; the ones before are told with their dates,
    rule_history.py); otherwise the latest date's tax year. None without dates."""
    if not dates:
        return None
    def year(c: CalendarDate) -> str:
        # (A stretch with two ends across two tax years is read from its start: July to June is the
        # KiwiSaver year whose rules the tax year starting the April before holds.)
        return current if c.to_today else c.tax_years()[0]
    best = max(dates, key=year)
    return year(best), best.text


def words(date: CalendarDate) -> str:
    """How an answer names the date: "since August 2025", "May 2024", "July 2025 to June 2026"."""
    def one(d: dt.date, whole_month: bool) -> str:
        return f"{d:%B} {d.year}" if whole_month else f"{d.day} {d:%B} {d.year}"
    whole = date.start.day == 1 and (date.to_today or date.end.day == calendar.monthrange(date.end.year, date.end.month)[1])
    if date.to_today:
        return "since " + one(date.start, whole and not date.day_written)
    if date.start.replace(day=1) == date.end.replace(day=1):
        return one(date.start, whole)
    return f"{one(date.start, whole)} to {one(date.end, whole)}"


def kiwisaver_year_of(dates: list[CalendarDate]) -> str | None:
    """The KiwiSaver year ("2025-26": 1 July 2025 to 30 June 2026) a stretch of dates is exactly
    ("between July last year and June this year"), or None."""
    for d in dates:
        if (d.start.month, d.start.day, d.end) == (7, 1, dt.date(d.start.year + 1, 6, 30)):
            return tax_year_starting(d.start.year)
    return None
