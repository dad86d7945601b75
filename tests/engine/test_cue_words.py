"""The word lists kept as data (data/*_words.yaml): each one is read by the engine and matches, and no reading
module writes a word list in code."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

import nztax
from nztax import cue_words
from nztax_build import reading_size


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


def test_a_list_named_twice_across_the_files_is_refused(tmp_path, monkeypatch):
    first, second = tmp_path / "a.yaml", tmp_path / "b.yaml"
    first.write_text("version: 1\nbonus_words:\n  - 'bonus'\n")
    second.write_text("version: 1\nbonus_words:\n  - 'lump sum'\n")
    monkeypatch.setattr(cue_words, "CUE_FILES", (first, second))
    cue_words._lists.cache_clear()
    try:
        with pytest.raises(ValueError, match="bonus_words"):
            cue_words._lists()
    finally:
        cue_words._lists.cache_clear()


def test_every_data_file_the_readers_use_is_read():
    data = Path(nztax.__file__).parent / "data"
    assert {p.name for p in data.glob("*_words.yaml")} == {p.name for p in cue_words.CUE_FILES}


WORD = re.compile(r"[a-z]+(?:'[a-z]+)?")


def _reading_patterns() -> dict[str, re.Pattern]:
    patterns = {}
    for name in reading_size.READING_MODULES:
        path = Path(nztax.__file__).parent / f"{name}.py"
        if not path.exists():
            continue
        module = importlib.import_module(f"nztax.{name}")
        for attr in reading_size._module_level_names(path):
            for i, p in enumerate(reading_size._patterns_in(getattr(module, attr, None))):
                patterns[f"{name}.{attr}#{i}"] = p
    return patterns


def test_no_reading_module_compiles_an_english_word_list():
    """A word list in a reading module's patterns (seven or more words that are not numbers, months,
    pay periods or currencies) must come from the data files: every word of such an alternation is
    written in a data list."""
    data = {word for alternatives in cue_words._lists().values() for a in alternatives for word in WORD.findall(a.lower())}
    # (A list's plurals, made from its words as it is read, are data too.)
    data |= {word for name in cue_words._lists() for word in WORD.findall(cue_words.with_plurals(name).lower())}
    in_code = [(name, words) for name, words in reading_size.word_lists(_reading_patterns())
               if not all(set(WORD.findall(w)) <= data for w in words)]
    assert in_code == []


def test_the_word_list_check_finds_a_list_written_in_code():
    written = re.compile(r"\b(?:salary|wages|income|earnings|bonus|allowance|commission|overtime)\b", re.I)
    assert reading_size.word_lists({"written": written}) == [
        ("written", ["salary", "wages", "income", "earnings", "bonus", "allowance", "commission", "overtime"])]
    months = re.compile(r"\b(?:january|february|march|april|may|june|july|august)\b", re.I)
    assert reading_size.word_lists({"months": months}) == []


def test_an_acronym_written_in_capitals_matches_only_in_capitals():
    """cue_words.exact_capitals: a data pattern's word in capitals is an acronym, matched in capitals
    whatever the flags; a word in lower case matches either case; escapes, classes, exact-case groups
    and capitals inside a word stay as written."""
    pie = re.compile(cue_words.exact_capitals(r"\bPIEs?\b"), re.I)
    assert pie.search("Is a PIE fund better?") and pie.search("two PIEs")
    assert not pie.search("a pie chart of my spending") and not pie.search("Pie and chips")
    assert re.compile(cue_words.exact_capitals(r"\bpirs?\b"), re.I).search("what PIR, or pir, do I use")
    assert cue_words.exact_capitals(r"(?:IRD's|the) ME? [A-Z]{3} (?-i:SB|ST)\b\Bx myIR") == (
        r"(?:(?-i:IRD)'s|the) (?-i:ME?) [A-Z]{3} (?-i:SB|ST)\b\Bx myIR")


def test_the_word_lists_read_their_acronyms_in_capitals_only():
    """Every list read through `alternatives` gets the capitals rule: a label written in capitals
    never matches the same word in lower case."""
    labels = re.compile(r"^(?:" + cue_words.alternatives("labels_before_a_figure") + r")$", re.I)
    assert labels.match("PIE") and labels.match("NET")
    assert not labels.match("pie") and not labels.match("net")
