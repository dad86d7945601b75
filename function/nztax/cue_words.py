"""Word lists the question readers match, kept as data in `data/cue_words.yaml`.

In: a list's name. Out: its alternatives joined with "|" (`alternatives`), or that compiled
case-insensitively (`cue`).
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from nztax.yaml_data import load_yaml

CUE_FILE = Path(__file__).parent / "data" / "cue_words.yaml"


@lru_cache(maxsize=1)
def _lists() -> dict[str, tuple[str, ...]]:
    data = load_yaml(CUE_FILE.read_text(encoding="utf-8"))
    return {name: tuple(str(a) for a in alts) for name, alts in data.items() if name != "version"}


def alternatives(name: str) -> str:
    """The list's alternatives as one regular expression ("a|b|c")."""
    return "|".join(_lists()[name])


def cue(name: str) -> re.Pattern:
    """The list compiled case-insensitively."""
    return re.compile(alternatives(name), re.I)
