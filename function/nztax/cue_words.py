"""Word lists the question readers match, kept as data: `data/cue_words.yaml` (the lists several
readers share), `data/amount_words.yaml` (what an amount is, amount_roles.py) and
`data/condition_words.yaml` (a question's conditions, question_conditions.py) and
`data/asking_words.yaml` (what a question asks for and how its sum is planned: decide.py,
clarify_checks.py, calculation_plan.py and the other deciding modules).

In: a list's name (unique across the files). Out: its alternatives joined with "|" (`alternatives`),
or that compiled case-insensitively (`cue`). A word written in capitals in any data pattern is an
acronym and matches only in capitals (`exact_capitals`), so "pie" or "me" in running text is never
read as PIE or the ME code; a word written in lower case matches in either case.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from nztax.yaml_data import load_yaml

DATA = Path(__file__).parent / "data"
CUE_FILES = (DATA / "cue_words.yaml", DATA / "amount_words.yaml", DATA / "condition_words.yaml",
             DATA / "asking_words.yaml")


@lru_cache(maxsize=1)
def _lists() -> dict[str, tuple[str, ...]]:
    lists: dict[str, tuple[str, ...]] = {}
    for path in CUE_FILES:
        for name, alts in load_yaml(path.read_text(encoding="utf-8")).items():
            if name == "version":
                continue
            if name in lists:
                raise ValueError(f"{path.name}: the word list {name!r} is named twice")
            lists[name] = tuple(exact_capitals(str(a)) for a in alts)
    return lists


# Two or more capitals standing as a word of their own (a plural "s" may follow), with a quantifier
# on the last letter if any: an acronym as a data pattern writes it.
_ACRONYM = re.compile(r"[A-Z]{2,}[?*+]?(?=s?(?:[^A-Za-z]|$))")


def exact_capitals(pattern: str) -> str:
    """`pattern` with each acronym in it matched in capitals only ("(?-i:PIE)s?" for "PIEs?"), whatever
    flags it is compiled with. Escapes, character classes and (?-i:...) groups stay as written."""
    out, i, after_letter = [], 0, False
    while i < len(pattern):
        end = _verbatim_end(pattern, i)
        m = _ACRONYM.match(pattern, i) if end == i and not after_letter else None
        if end > i:
            out.append(pattern[i:end])
            i, after_letter = end, False
        elif m:
            out.append(f"(?-i:{m.group()})")
            i, after_letter = m.end(), True
        else:
            out.append(pattern[i])
            i, after_letter = i + 1, pattern[i].isalpha()
    return "".join(out)


def _verbatim_end(pattern: str, i: int) -> int:
    """Where the escape, character class or (?-i:...) group starting at `i` ends; `i` if none starts there."""
    if pattern[i] == "\\":
        return i + 2
    if pattern[i] == "[":
        j = i + 2 if pattern.startswith("[]", i) or pattern.startswith("[^]", i) else i + 1
        while j < len(pattern) and pattern[j] != "]":
            j += 2 if pattern[j] == "\\" else 1
        return j + 1
    if pattern.startswith("(?-i:", i):
        depth, j = 0, i
        while j < len(pattern):
            if pattern[j] == "\\":
                j += 2
                continue
            depth += {"(": 1, ")": -1}.get(pattern[j], 0)
            j += 1
            if depth == 0:
                return j
        return j
    return i


def alternatives(name: str) -> str:
    """The list's alternatives as one regular expression ("a|b|c")."""
    return "|".join(_lists()[name])


def cue(name: str) -> re.Pattern:
    """The list compiled case-insensitively."""
    return re.compile(alternatives(name), re.I)


@lru_cache(maxsize=None)
def plural(word: str) -> str:
    """A word's plural, made from its ending by the first of `plural_endings` that fits it, else with an "s"."""
    endings = [tuple(part.strip() for part in rule.split("=>")) for rule in _lists()["plural_endings"]]
    return next((re.sub(rf"(?:{ending})$", made, word) for ending, made in endings
                 if re.search(rf"(?:{ending})$", word)), word + "s")


def with_plurals(name: str) -> str:
    """The list's alternatives, each beside its plural ("wives|wife|children|child|…"), made by `plural`.
    A pattern that ends in a quantifier or a class takes an "s" after it; one that already ends in an
    optional "s" is its own plural."""
    out = []
    for word in _lists()[name]:
        made = plural(word) if word[-1].isalpha() else (None if word.endswith("s?") else word + "s")
        out += [made, word] if made else [word]
    return "|".join(out)
