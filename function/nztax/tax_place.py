"""Whose tax system a post asks about: another place's, read from how the post names it.

In: a post's cleaned text, its asking sentences, the conditions its slots read (frame.conditions) and
`knows` (whether the sources use a word: the speller's vocabulary). Out: whether the post asks about
the tax of a place it names, that place is not New Zealand, and nothing in the post places it in New
Zealand's system (`asks_another_places_tax`).

A place is read by the way a post names it, not from a list of places: a name (capitals, a dotted
acronym) the post uses for where people belong or live ("U.S. citizens", "residents of X", "living in
X": `place_of_people` in data/cue_words.yaml), and whose tax an asking sentence names ("X taxes",
"taxes in X": `tax_of_a_place`). Such a post asks about that place's own tax, unless it also places
the poster in New Zealand's system: it names New Zealand or Inland Revenue (`home_names`, the project's
one country, not a list of others), says "here" (`here_words`), states a condition only New Zealand's
system has (a tax code, KiwiSaver, a student loan …), or names a tax term in capitals the sources use
(PAYE, RWT, FIF). A New Zealand resident asking about a foreign tax credit, foreign income, a move to
or from another country, names New Zealand's side in one of those ways; a post asking another place's
tax in that place's own terms names none of them.

    asks_another_places_tax("Do U.S. citizens abroad still owe U.S. taxes?", [...], (), knows)  # True
"""

from __future__ import annotations

import os
import re
from typing import Callable, Iterable

from nztax.cue_words import alternatives, cue

# A name by its form: a dotted acronym ("U.S."), an acronym in capitals, or a capitalised word.
# (The one capturing group of a `{name}` pattern: the data patterns group with (?:...) only.)
NAME = r"(?-i:([A-Z](?:\.[A-Z])+\.?|[A-Z]{2,5}(?![a-z])|[A-Z][a-z]{2,}))"
HOME = cue("home_names")
# "Here" (`here_words` in data/condition_words.yaml: in New Zealand), as a word of its own.
HERE = re.compile(rf"\b(?:{alternatives('here_words')})\b", re.I)
# ... but not "here" presenting what follows ("Here's what happened": `here_presenting`).
PRESENTING = cue("here_presenting")
# A name written in capitals (an acronym, with a plural s), not beside a digit (a currency code or a
# unit): a tax term or an agency (here and frame.withheld_under_unknown_name).
CAPITALS_NAME = re.compile(r"(?<![\w$])(?<!\d\s)([A-Z]{2,6})s?(?!\w)(?!\s\d)")
# Conditions that place a post in New Zealand's system (its tax codes, KiwiSaver, student loan, WFF,
# NZ Super or a benefit).
NZ_CONDITIONS = ("kiwisaver", "student_loan", "wff", "benefit_or_super", "nz_super", "nd")
# The same conditions' words, for sentences read without their slots (the data lists that name them).
NEW_ZEALAND_CONDITION = re.compile("|".join(f"(?:{alternatives(n)})" for n in ("kiwisaver_words", "student_loan_words", "wff_words")), re.I)


def _named(list_name: str) -> re.Pattern:
    """A cue list whose alternatives hold `{name}`, with the name's form put in."""
    return re.compile(alternatives(list_name).replace("{name}", NAME), re.I)


def _key(name: str) -> str:
    """A name as compared: its letters only, lower case ("U.S." and "US" are one name)."""
    return re.sub(r"[^a-z]", "", name.lower())


def _same(a: str, b: str) -> bool:
    """Whether two names are one place's: equal, one the other's stem ("Australia", "Australian"), or
    sharing their first five letters ("Canada", "Canadian")."""
    return a == b or len(min(a, b, key=len)) >= 4 and (a.startswith(b) or b.startswith(a)) or len(os.path.commonprefix([a, b])) >= 5


def _names(pattern: re.Pattern, text: str) -> set[str]:
    names: set[str] = set()
    for m in pattern.finditer(text):
        names |= {_key(v) for v in m.groups() if v}
    return names


def places_named(text: str) -> set[str]:
    """The names a text uses for where people belong or live (`place_of_people`)."""
    return _names(PLACE_OF_PEOPLE, text)


def taxed_places(text: str, asking: Iterable[str]) -> set[str]:
    """The names the asking sentences give a tax as its owner (`tax_of_a_place`), read on the whole
    text: a name that is a dotted acronym ("U.S. taxes") may have been cut off its sentence by the
    sentence splitter, so a match counts when it reaches into an asking sentence."""
    spans = [(i, i + len(s)) for s in asking if (i := text.find(s)) >= 0]
    return {_key(v) for m in TAX_OF_A_PLACE.finditer(text) if any(m.start() < end and m.end() > start for start, end in spans)
            for v in m.groups() if v}


def placed_in_new_zealand(text: str, conditions: tuple[str, ...], knows: Callable[[str], bool], place: str) -> bool:
    """Whether the post places its poster in New Zealand's system: New Zealand or Inland Revenue named,
    "here", a condition only New Zealand's system has, or a tax term in capitals the sources use
    (other than the place's own name)."""
    if HOME.search(text) or HERE.search(PRESENTING.sub(" ", text)):
        return True
    if states_a_new_zealand_condition(conditions):
        return True
    return any(knows(m.group(1).lower()) and not _same(_key(m.group(1)), place) for m in CAPITALS_NAME.finditer(text))


def asks_in_new_zealand(text: str, asking: Iterable[str], knows: Callable[[str], bool]) -> bool:
    """Whether the asking sentences, read on their own, place the question in New Zealand's system: they
    name New Zealand, Inland Revenue or one of its forms, say "here", name a scheme or condition only it
    has (KiwiSaver, a student loan, Working for Families: `NZ_CONDITION_WORDS`) or a tax term in capitals
    the sources use that the post does not use as a place's name. Another person's foreign tax told
    in the story is context, as another person's figure is."""
    asked = " ".join(asking)
    if HOME.search(asked) or HERE.search(PRESENTING.sub(" ", asked)) or NEW_ZEALAND_CONDITION.search(asked):
        return True
    places = places_named(text) | _names(TAX_OF_A_PLACE, text)
    return any(knows(m.group(1).lower()) and not any(_same(_key(m.group(1)), p) for p in places)
               for m in CAPITALS_NAME.finditer(asked))


def states_a_new_zealand_condition(conditions: tuple[str, ...]) -> bool:
    """Whether the conditions a post states (frame.conditions) include one only New Zealand's system has."""
    return any(c in NZ_CONDITIONS or c.startswith(("tax_code:", "flat_code:")) for c in conditions)


def asks_another_places_tax(text: str, asking: Iterable[str], conditions: tuple[str, ...],
                            knows: Callable[[str], bool]) -> bool:
    """Whether an asking sentence names the tax of a place the post names as where people belong or
    live, that place is not New Zealand, and the post places its poster nowhere in New Zealand's system."""
    places = places_named(text)
    taxed = [t for t in taxed_places(text, asking) if any(_same(t, p) for p in places)]
    return any(not placed_in_new_zealand(text, conditions, knows, t) for t in taxed)


PLACE_OF_PEOPLE = _named("place_of_people")
TAX_OF_A_PLACE = _named("tax_of_a_place")
