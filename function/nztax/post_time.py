"""The time a post speaks of, read from its text: the years it writes ("back in 2014", "started
work on 3 May 2008") and a date it says things were before ("before July 2019").

In: the post's text, today's date and the words that make a date an end ("before", from
`data/rule_history.yaml`). Out: `PostTime` (the first and last day the post can be about, and
the words they were read from) or None when the text writes no year.

    read_post_time("I joined back in 2013", dt.date(2026, 11, 29)).start   # 2013-01-01

The /ask function gets only the text, so this is all it knows of when a post was written: a year
after today is a plan, not the post's time, and is left out.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from functools import lru_cache

from nztax.amount_grammar import CURRENCY_AFTER, FOREIGN_AFTER, FOREIGN_BEFORE, FREQ_AFTER
from nztax.calendar_dates import month_alternatives, months, read_dates, relative, words

MONTHS = months()
_MONTH = month_alternatives()
# A year as a calendar year: not part of an amount ("$2013", "2,013") or a longer number.
YEAR = re.compile(r"(?<![\d$,.])(?:19[89]\d|20\d\d)(?!\d|[,.]\d)")
# What makes a year-shaped number money instead ("2000 AUD a month", "2015 dollars", "1995 per week"):
# a currency or a pay period after it, another currency's mark before it; and a number in a web address.
MONEY_AFTER = re.compile(r"^\s?(?:" + CURRENCY_AFTER + r"|k\b)|^\s?(?:a|per) (?:year|annum)\b", re.I)
PAY_PERIODS = ("hourly", "weekly", "fortnightly", "four_weekly", "monthly")
WEB_ADDRESS = re.compile(r"(?:https?://|www\.)\S+", re.I)
# A date: "1 July 2019", "July 1, 2019", "July 2019".
DATE = re.compile(rf"(?:(?P<d1>\d{{1,2}})(?:st|nd|rd|th)?\s+)?(?P<m>{_MONTH})\.?(?:\s+(?P<d2>\d{{1,2}})(?:st|nd|rd|th)?,?)?\s+(?P<y>(?:19|20)\d\d)\b", re.I)


@dataclass(frozen=True)
class PostTime:
    start: dt.date
    end: dt.date
    words: str          # how the answer names the time ("2007", "2007 to 2008", "before 1 July 2019")
    dated: bool = False  # read from calendar dates to the day or month ("since August last year")


def _date(m: re.Match) -> dt.date | None:
    day = int(m.group("d1") or m.group("d2") or 1)
    try:
        return dt.date(int(m.group("y")), MONTHS[m.group("m").lower()], day)
    except ValueError:
        return None


@lru_cache(maxsize=8)
def _before_pattern(before_words: tuple[str, ...]) -> re.Pattern:
    """The data's words saying things were before a date, longest first, as one pattern (compiled
    once per list: the list is fixed data, read on every answer)."""
    words = "|".join(re.escape(w) for w in sorted(before_words, key=len, reverse=True))
    return re.compile(rf"\b(?:{words})\s+(?:the\s+)?", re.I)


def _before_date(text: str, before_words: tuple[str, ...]) -> dt.date | None:
    """The earliest date the text says something was before ("before July 2019"), if any."""
    if not before_words:
        return None
    found = []
    for m in _before_pattern(before_words).finditer(text):
        d = DATE.match(text, m.end())
        if d is not None and _date(d) is not None:
            found.append(_date(d))
    return min(found) if found else None


def _is_money(text: str, m: re.Match) -> bool:
    """Whether the year-shaped number at `m` is an amount: its currency or pay period written beside it."""
    after = text[m.end():m.end() + 40]
    period = FREQ_AFTER.match(after)
    return bool(FOREIGN_BEFORE.search(text[max(0, m.start() - 6):m.start()]) or FOREIGN_AFTER.match(after)
                or MONEY_AFTER.match(after) or (period and period.lastgroup in PAY_PERIODS))


def calendar_years(text: str) -> list[re.Match]:
    """The calendar years the text writes, in order: not amounts, not parts of a web address."""
    addresses = [a.span() for a in WEB_ADDRESS.finditer(text)]
    return [m for m in YEAR.finditer(text)
            if not _is_money(text, m) and not any(s <= m.start() < e for s, e in addresses)]


def _calendar_time(text: str, today: dt.date) -> PostTime | None:
    """The span of the calendar dates whose year is named by words ("August last year") or which run
    to today ("since May 2024"), with any other year the text writes (calendar_dates.py); None
    without such a date. (A date after today is a plan, not the post's time.)"""
    dates = [d for d in read_dates(text, today) if (relative(d) or d.to_today) and d.start <= today]
    if not dates:
        return None
    inside = [(d.span[0], d.span[1]) for d in dates]
    years = sorted({int(m.group()) for m in calendar_years(text) if int(m.group()) <= today.year
                    and not any(a <= m.start() < b for a, b in inside)})
    start = min([d.start for d in dates] + [dt.date(y, 1, 1) for y in years])
    end = max([d.end for d in dates] + [dt.date(y, 12, 31) for y in years])
    if len(dates) == 1 and not years:
        return PostTime(start, end, words(dates[0]), dated=True)
    return PostTime(start, end, f"{start:%B} {start.year} to {end:%B} {end.year}", dated=True)


def read_post_time(text: str, today: dt.date, before_words: tuple[str, ...] | list[str] = ()) -> PostTime | None:
    """The span of days the post is about: from 1 January of the first year it writes to 31
    December of the last (a date it says things were before ends it there), or None. Calendar dates
    named by words or running to today give their own days (`_calendar_time`)."""
    years = sorted({int(m.group()) for m in calendar_years(text) if int(m.group()) <= today.year})
    before = _before_date(text, tuple(before_words))
    if before is None and (dated := _calendar_time(text, today)) is not None:
        return dated
    if before is not None:
        end = before - dt.timedelta(days=1)
        earlier = [y for y in years if y < before.year]
        start = dt.date(earlier[0], 1, 1) if earlier else dt.date.min
        return PostTime(start, end, f"before {before.day} {before:%B} {before.year}")
    if not years:
        return None
    first, last = years[0], years[-1]
    return PostTime(dt.date(first, 1, 1), dt.date(last, 12, 31), str(first) if first == last else f"{first} to {last}")
