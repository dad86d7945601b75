"""Spelling: misspelt words put right before a question is understood ("weekley" -> "weekly").

In: a question; the words people ask with (the intent catalogue's examples and keywords) and the
words the sources use (the index's chunks). Out: the question with each unknown word of
`spelling_min_length` or more letters replaced by the closest asking word, when one is close
enough (difflib's ratio at least `spelling_cutoff`); numbers, codes and every other character stay
as typed. A word the sources use is never changed, so "shearing" stays "shearing"; nor is a known
word with an ending ("annually" is not "annual", "filed" is not "filled"), nor one whose closest asking word is
itself less letters before it ("coworker" is not "worker", "nonresidents" not "residents", "miscalculated"
not "calculated": a prefix or a joined word, whose meaning the shorter word drops), nor a word
`kept` matches whole (the people a figure may belong to, data/amount_words.yaml's kin_words).
"""

from __future__ import annotations

import difflib
import re
from functools import lru_cache
from typing import Callable, Iterable

from nztax.cue_words import with_plurals

WORD = re.compile(r"[A-Za-z]+")
ENDINGS = ("s", "es", "d", "ed", "ing", "ly", "er", "ers")
# A typo seldom adds two letters or more before a whole word; a prefix ("co", "ex", "non", "mis") does.
LEAST_PREFIX = 2
# The people a figure may belong to, one or several: the owner reading's words, never made into another
# asking word whatever their letters (before the prefix rule, "coworker" was read as "worker").
PEOPLE = re.compile(rf"(?:{with_plurals('kin_words')})", re.I)


def _no_dictionary(word: str) -> bool:
    return False


class Speller:
    def __init__(self, targets: Iterable[str], known: Iterable[str], cutoff: float, min_length: int,
                 is_word: Callable[[str], bool] | None = None, kept: re.Pattern | None = None):
        self.targets = sorted({w.lower() for w in targets if len(w) >= 3})
        self.known = {w.lower() for w in known} | set(self.targets)
        self.is_word = is_word or _no_dictionary  # a dictionary's test, asked only of unknown words
        self.kept = kept  # words never corrected, matched whole (lower case)
        self.cutoff = cutoff
        self.min_length = min_length
        self._closest = lru_cache(maxsize=4096)(self._closest_uncached)

    def __getstate__(self) -> dict:  # stored beside the index (engine_parts.py) without its memo
        return {k: v for k, v in self.__dict__.items() if k != "_closest"}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update({"kept": None, **state})
        self._closest = lru_cache(maxsize=4096)(self._closest_uncached)

    @classmethod
    def from_texts(cls, asking: Iterable[str], sources: Iterable[str], cutoff: float, min_length: int,
                   is_word: Callable[[str], bool] | None = None, kept: re.Pattern | None = PEOPLE) -> "Speller":
        targets = {w for text in asking for w in WORD.findall(text)}
        known = {w for text in sources for w in WORD.findall(text)}
        return cls(targets, known, cutoff, min_length, is_word, kept)

    def _closest_uncached(self, word: str) -> str | None:
        close = difflib.get_close_matches(word, self.targets, n=1, cutoff=self.cutoff)
        return close[0] if close else None

    def _inflected(self, word: str) -> bool:
        """A known word with an ending: "filed" (file), "claimed" (claim), "taxes" (tax)."""
        stems = (word[: -len(ending)] for ending in ENDINGS if word.endswith(ending))
        return any(len(stem) >= 3 and (stem in self.known or stem + "e" in self.known) for stem in stems)

    @staticmethod
    def _drops_a_prefix(word: str, closest: str) -> bool:
        """Whether the closest asking word is the word less `LEAST_PREFIX` or more letters before it
        (and an ending after): "coworker" -> "worker", "reinvest" -> "invest"."""
        i = word.find(closest, LEAST_PREFIX)
        return i >= LEAST_PREFIX and (i + len(closest) == len(word) or word[i + len(closest):] in ENDINGS)

    def _kept(self, word: str) -> bool:
        return self.kept is not None and self.kept.fullmatch(word) is not None

    def knows(self, word: str) -> bool:
        """True when the asking words or the sources hold `word` (lower case), whole or with an ending."""
        return word in self.known or self._inflected(word)

    def correct(self, text: str) -> str:
        def fix(m: re.Match) -> str:
            word = m.group(0)
            lowered = word.lower()
            if len(word) < self.min_length or self.knows(lowered) or self.is_word(lowered) or self._kept(lowered):
                return word
            closest = self._closest(lowered)
            return word if closest is None or self._drops_a_prefix(lowered, closest) else closest

        return WORD.sub(fix, text)
