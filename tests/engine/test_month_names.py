"""The number grammar's month pattern (`amount_grammar.MONTH_NAMES`) is the month table of
data/calendar_dates.yaml as whole words: every name and abbreviation there is read as a month, in any
case and in the formats that use it, and a word that only starts with a month's letters ("market",
"decent", "mayor") is not."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from nztax.amount_grammar import DATE_AROUND, MONTH_NAMES
from nztax.calendar_dates import month_number, months, months_to_march
from nztax.question_conditions import FULL_DATE, MONTH_YEAR

SNAPSHOT = Path(__file__).resolve().parents[2] / "corpus" / "snapshot_src"
MONTH = re.compile(MONTH_NAMES, re.I)


def _corpus_words() -> set[str]:
    words: set[str] = set()
    for page in SNAPSHOT.rglob("*.md"):
        words |= set(re.findall(r"[a-z]+", page.read_text(encoding="utf-8").lower()))
    return words


# Words of the bundled corpus that begin with a month's name or abbreviation but are none ("market",
# "separate", "declare", "mayor"), with a few from posts the corpus may lack.
LOOK_ALIKES = sorted({w for w in _corpus_words() | {"market", "decent", "mayor", "maybe", "junket", "augment"}
                      if w not in months() and any(w.startswith(m) for m in months())})


def test_the_corpus_has_look_alikes_to_test():
    assert len(LOOK_ALIKES) > 20 and "market" in LOOK_ALIKES and "mayor" in LOOK_ALIKES


@pytest.mark.parametrize("name", sorted(months()))
def test_every_month_name_and_abbreviation_in_the_data_is_a_month(name):
    for written in (name, name.title(), name.upper()):
        assert MONTH.fullmatch(written), written
        assert MONTH_YEAR.search(f"I moved here in {written} 2024").group("m") == written
        assert FULL_DATE.search(f"it sold on 3 {written} 2025").group("m") == written
        assert DATE_AROUND.search(f"paid on {written} 12"), written


@pytest.mark.parametrize("word", LOOK_ALIKES)
def test_a_word_that_starts_with_a_months_letters_is_no_month(word):
    assert not MONTH.fullmatch(word)
    assert not MONTH.match(word)  # not even as the start of a longer word
    assert not MONTH_YEAR.search(f"I moved here in {word} 2024")
    assert not FULL_DATE.search(f"it sold on 3 {word} 2025")
    assert not DATE_AROUND.search(f"paid on {word} 12")


def test_every_month_counts_its_months_to_march_by_the_calendar():
    # Counted by stepping a calendar month at a time from the month named to the tax year's end (31 March).
    for name, number in months().items():
        steps, month = 1, number
        while month != 3:
            steps, month = steps + 1, month % 12 + 1
        assert months_to_march(name) == steps, name
        assert month_number(name.title() + ".") == number, name
