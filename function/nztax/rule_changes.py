"""When a rules section's figures for a year took effect, and what they were before, within the
rules data.

In: the `RuleBook`, a tax year and a section's name. Out: `Change` (the date the year's figures took
effect and the earlier year's section) or None when the rules data holds no earlier, different
figures for it.

A story that names no year may be about an earlier one, and must not be told today's figure as
theirs when the rule changed in the years the data covers: its answer gives the current figure
with the date it took effect and the figure before it (`gc_change` in `say.fact`).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from nztax.composer import section_or_none


@dataclass(frozen=True)
class Change:
    since: dt.date     # the day the year's figures took effect
    before: object     # the section as it was in the year before that


def _figures(section) -> dict:
    """The section's figures: everything but its source and the date its year starts."""
    return {k: v for k, v in section.model_dump(mode="python").items() if k != "source" and not k.endswith("_start")}


def _start(section, rules_year) -> dt.date:
    """When a section's year starts: its own start date (a KiwiSaver year starts 1 July), else the tax year's."""
    own = [v for k, v in section.model_dump(mode="python").items() if k.endswith("_start") and isinstance(v, dt.date)]
    return own[0] if own else rules_year.start


def change_before(rules, year: str, name: str) -> Change | None:
    """The change that brought in `year`'s figures for section `name`, if the rules data holds the
    figures before it."""
    years = sorted(rules.years)
    if year not in years:
        return None
    current = section_or_none(rules.years[year], name)
    if current is None:
        return None
    since = _start(current, rules.years[year])
    for earlier in reversed(years[: years.index(year)]):
        section = section_or_none(rules.years[earlier], name)
        if section is None:
            return None
        if _figures(section) != _figures(current):
            return Change(since=since, before=section)
        since = _start(section, rules.years[earlier])
    return None


def figures_before(rules, year: str, names: tuple[str, ...]) -> set[Decimal]:
    """The earlier figures an answer for `year` may state beside a change (for the figure guard)."""
    out: set[Decimal] = set()
    for name in names:
        change = change_before(rules, year, name)
        if change is None:
            continue
        for value in _figures(change.before).values():
            if isinstance(value, (int, float, Decimal)) and not isinstance(value, bool):
                d = Decimal(str(value))
                out.add(d.normalize())
                if 0 < d < 1:
                    out.add((d * 100).normalize())
    return out
