"""Answers that hold only for people of some ages, checked against the ages a question states.

In: an answer unit or a catalogue lead (its `{placeholders}`), the ages the question's frame read
(ages.py) and the year's rules. Out: whether the answer may be served (`allowed`), the condition a
lead fails (`failing`) and the unit that gives the rule for that age instead (`instead`).

A condition may also name situations that suspend its rule (`not_during`: a savings suspension stops
the employer's compulsory contribution) and the unit for someone in one (`during`).

The conditions are data (`data/applies_when.yaml`): each bounds its ages by figures of the rules
data (`kiwisaver.employer_min_age`, `government_contribution.max_age`), so a 16-year-old is inside
the employer's rule from 2026-27 and outside it before. An answer is held back only when every age
the question states is surely outside (an "under 18" that may be 16 or 17 is not).

    allowed(unit, (Age(15, 15),), year_rules)   # False for a unit stating the employer's 3.5%
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from nztax.ages import Age
from nztax.units import placeholders
from nztax.yaml_data import load_yaml

CONDITIONS_FILE = Path(__file__).parent / "data" / "applies_when.yaml"


@dataclass(frozen=True)
class Condition:
    name: str
    bounds: tuple[tuple[str, str], ...]   # (age_min | age_under, whole number or rules figure)
    placeholders: frozenset[str] = frozenset()
    younger: str | None = None            # the unit for an age under the range
    older: str | None = None              # the unit for an age at or over its end
    not_during: frozenset[str] = frozenset()  # situations (opening_fit's) that suspend the rule
    during: str | None = None             # the unit for someone in one of them
    tools: frozenset[str] = frozenset()   # calculators whose result is the rule's figure ...
    tool_asked: str | None = None         # ... when the asking sentences name this (opening_fit "group.member")


@lru_cache(maxsize=1)
def conditions() -> tuple[Condition, ...]:
    data = load_yaml(CONDITIONS_FILE.read_text(encoding="utf-8"))
    return tuple(Condition(name, tuple((k, str(c[k])) for k in ("age_min", "age_under") if k in c),
                           frozenset(c.get("placeholders") or ()), c.get("younger"), c.get("older"),
                           frozenset(c.get("not_during") or ()), c.get("during"), frozenset(c.get("tools") or ()),
                           c.get("tool_asked"))
                 for name, c in data["conditions"].items())


def _figure(value: str, year_rules) -> int | None:
    """A bound's age: a whole number, or the rules figure it names (None when the year lacks it)."""
    if value.isdigit():
        return int(value)
    section, _, name = value.partition(".")
    figure = getattr(getattr(year_rules.data, section, None), name, None) if year_rules is not None else None
    return int(figure) if figure is not None else None


def side(bounds, age: Age, year_rules) -> str | None:
    """'younger' or 'older' when the age is surely outside the bounds, 'inside' when surely in, None
    when it may be either or the year lacks a bound's figure."""
    low = high = None
    for bound, value in bounds:
        figure = _figure(value, year_rules)
        if figure is None:
            return None
        low, high = (figure, high) if bound == "age_min" else (low, figure)
    if low is not None and age.high < low:
        return "younger"
    if high is not None and age.low >= high:
        return "older"
    if (low is None or age.low >= low) and (high is None or age.high < high):
        return "inside"
    return None


def _failed(bounds, ages: tuple[Age, ...], year_rules) -> str | None:
    """The side an answer's stated ages fall outside its bounds on (any stated age outside holds it back:
    a post may name the asker's age and the one asked about, and a wrong rule is worse than none)."""
    for age in ages:
        outside = side(bounds, age, year_rules)
        if outside in ("younger", "older"):
            return outside
    return None


def _sum_of(condition: Condition, tool: str | None, asked: str) -> bool:
    """Whether a sum by `tool`, on asking sentences `asked`, gives the condition's figure (a KiwiSaver sum
    asked of the employer's contribution, not of the government's)."""
    from nztax.opening_fit import subjects_named

    group, _, member = (condition.tool_asked or "").partition(".")
    return tool in condition.tools and (not group or member in subjects_named(asked).get(group, ()))


def failing(text: str | None, ages: tuple[Age, ...], year_rules, own: tuple = (),
            situations: frozenset[str] = frozenset(), tool: str | None = None, asked: str = "") -> tuple[Condition, str] | None:
    """The condition (and the side: younger, older, or "during" a situation that suspends it) a lead with
    these placeholders (or a sum by `tool` on the asking sentences `asked`), or a unit's own `applies_when`
    (`own`), fails for the stated ages and the situations the question puts the asker in; None when it
    holds or nothing is known against it."""
    used = placeholders(text)
    for condition in conditions():
        if (used & condition.placeholders or _sum_of(condition, tool, asked)) and condition.not_during & situations:
            return condition, "during"
    if not ages:
        return None
    if own and (outside := _failed(own, ages, year_rules)):
        return Condition("applies_when", tuple(own)), outside
    for condition in conditions():
        if used & condition.placeholders and (outside := _failed(condition.bounds, ages, year_rules)):
            return condition, outside
    return None


def allowed(unit, ages: tuple[Age, ...], year_rules, situations: frozenset[str] = frozenset()) -> bool:
    return failing(unit.lead, ages, year_rules, unit.applies_when, situations) is None


def instead(text: str | None, ages: tuple[Age, ...], year_rules, units_by_id, own: tuple = (),
            situations: frozenset[str] = frozenset(), tool: str | None = None, asked: str = ""):
    """The unit that states the rule for the age (or the situation) a lead, unit or sum does not hold
    for, if one holds for it."""
    failed = failing(text, ages, year_rules, own, situations, tool, asked)
    if failed is None:
        return None
    condition, outside = failed
    if condition.name == "applies_when":
        # (a unit's own bounds name no replacement: the condition with the same bounds, or those
        # whose placeholders it shares, may)
        found = next(((c, side_) for c in conditions() for side_ in ("younger", "older")
                      if side_ == outside and (c.bounds == tuple(own) or placeholders(text) & c.placeholders)), None)
        if found is None:
            return None
        condition = found[0]
    unit = units_by_id.get(getattr(condition, outside) or "")
    return unit if unit is not None and allowed(unit, ages, year_rules, situations) else None


def situations_in(asking, question: str) -> frozenset[str]:
    """The situations a question puts the asker in (opening_fit's `situations`), leaving out one it only
    turns out of ("how do I end my suspension?": the rule after it is the general one)."""
    from nztax.opening_fit import situations_asked, turns

    turned = turns(question)
    return frozenset(s for s in situations_asked(asking, question) if turned.get(s) != frozenset({"out_of"}))
