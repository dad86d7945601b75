"""Word lists the question readers match, kept as data: `data/cue_words.yaml` (the lists several
readers share), `data/amount_words.yaml` (what an amount is, amount_roles.py) and
`data/condition_words.yaml` (a question's conditions, question_conditions.py) and
`data/asking_words.yaml` (what a question asks for and how its sum is planned: decide.py,
clarify_checks.py, calculation_plan.py and the other deciding modules).

In: a list's name (unique across the files). Out: its alternatives joined with "|" (`alternatives`),
or that compiled case-insensitively (`cue`).
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
            lists[name] = tuple(str(a) for a in alts)
    return lists


def alternatives(name: str) -> str:
    """The list's alternatives as one regular expression ("a|b|c")."""
    return "|".join(_lists()[name])


def cue(name: str) -> re.Pattern:
    """The list compiled case-insensitively."""
    return re.compile(alternatives(name), re.I)
