"""Spelling: misspelt words put right before a question is understood ("weekley" -> "weekly").

In: a question; the words people ask with (the intent catalogue's examples and keywords) and the
words the sources use (the index's chunks). Out: the question with each unknown word of
`spelling_min_length` or more letters replaced by the closest asking word, when one is close
enough (difflib's ratio at least `spelling_cutoff`); numbers, codes and every other character stay
as typed. A word the sources use is never changed, so "shearing" stays "shearing"; nor is a known
word with an ending ("annually" is not "annual", "filed" is not "filled").
"""

from __future__ import annotations

import difflib
import re
from functools import lru_cache
from typing import Callable, Iterable

WORD = re.compile(r"[A-Za-z]+")
ENDINGS = ("s", "es", "d", "ed", "ing", "ly", "er", "ers")


def _no_dictionary(word: str) -> bool:
    return False


class Speller:
    def __init__(self, targets: Iterable[str], known: Iterable[str], cutoff: float, min_length: int,
                 is_word: Callable[[str], bool] | None = None):
        self.targets = sorted({w.lower() for w in targets if len(w) >= 3})
        self.known = {w.lower() for w in known} | set(self.targets)
        self.is_word = is_word or _no_dictionary  # a dictionary's test, asked only of unknown words
        self.cutoff = cutoff
        self.min_length = min_length
        self._closest = lru_cache(maxsize=4096)(self._closest_uncached)

    def __getstate__(self) -> dict:  # stored beside the index (engine_parts.py) without its memo
        return {k: v for k, v in self.__dict__.items() if k != "_closest"}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._closest = lru_cache(maxsize=4096)(self._closest_uncached)

    @classmethod
    def from_texts(cls, asking: Iterable[str], sources: Iterable[str], cutoff: float, min_length: int,
                   is_word: Callable[[str], bool] | None = None) -> "Speller":
        targets = {w for text in asking for w in WORD.findall(text)}
        known = {w for text in sources for w in WORD.findall(text)}
        return cls(targets, known, cutoff, min_length, is_word)

    def _closest_uncached(self, word: str) -> str | None:
        close = difflib.get_close_matches(word, self.targets, n=1, cutoff=self.cutoff)
        return close[0] if close else None

    def _inflected(self, word: str) -> bool:
        """A known word with an ending: "filed" (file), "claimed" (claim), "taxes" (tax)."""
        stems = (word[: -len(ending)] for ending in ENDINGS if word.endswith(ending))
        return any(len(stem) >= 3 and (stem in self.known or stem + "e" in self.known) for stem in stems)

    def knows(self, word: str) -> bool:
        """True when the asking words or the sources hold `word` (lower case), whole or with an ending."""
        return word in self.known or self._inflected(word)

    def correct(self, text: str) -> str:
        def fix(m: re.Match) -> str:
            word = m.group(0)
            lowered = word.lower()
            if len(word) < self.min_length or self.knows(lowered) or self.is_word(lowered):
                return word
            closest = self._closest(word.lower())
            return closest or word

        return WORD.sub(fix, text)
