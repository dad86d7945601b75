"""The word lists kept as data (data/cue_words.yaml): each one is read by the engine and matches."""

from __future__ import annotations

import re
from pathlib import Path

import nztax
from nztax import cue_words


def test_every_list_compiles_and_is_read_by_the_code():
    lists = cue_words._lists()
    code = "\n".join(p.read_text() for p in Path(nztax.__file__).parent.glob("*.py"))
    assert lists
    for name, alternatives in lists.items():
        assert alternatives, name
        assert all(a.strip() for a in alternatives), name
        re.compile(cue_words.alternatives(name))
        assert f'"{name}"' in code, f"{name} is in the data file but no module reads it"


def test_a_list_matches_case_insensitively_as_one_alternation():
    pattern = cue_words.cue("extra_pay")
    assert pattern.flags & re.I
    assert pattern.pattern == "|".join(cue_words._lists()["extra_pay"])
    assert pattern.search("My BONUS is due") and not pattern.search("my salary")
