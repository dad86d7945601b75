"""How much of a question the project's own words cover: the bar a question nothing in the reading
understood must pass before an answer unit may answer it.

In: a question, and the vocabulary — the words of the sources and the intent catalogue (the speller's
`knows`) and the words of every unit's question and paraphrases. Out: `Coverage` — the question's
content words (`understand.words`: lower case, stop words out, a plural s dropped; numbers are the
amount grammar's, not words) and how many of them the vocabulary holds.

    coverage = Vocabulary(speller.knows, unit_texts).coverage("tool allowance taxable")
    coverage.share        # 1.0: every content word is one the corpus or the units use
    coverage.content      # 3

A random letter string, a keyboard mash or a word the sources never use is not known, so a short
search made of such words is asked about, not matched to the nearest unit by its letters or its
vector alone. An English word outside the subject (no IRD page and no unit uses it) is not known
either: the WordPiece dictionary the speller also consults knows every English word, so it says
nothing about the subject and is not counted here.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable, Iterable
from nztax.understand import words


@dataclass(frozen=True)
class Coverage:
    content: int     # content words in the question
    known: int       # of those, the ones the vocabulary holds

    @property
    def share(self) -> float:
        return self.known / self.content if self.content else 0.0

    def passes(self, least_share: float, least_words: int) -> bool:
        return self.content >= least_words and self.share >= least_share


class Vocabulary:
    def __init__(self, knows: Callable[[str], bool], texts: Iterable[str] = ()):
        """`knows(word)`: the sources' and catalogue's test (Speller.knows); `texts`: the units' questions
        and paraphrases, whose words are the subject's too."""
        self._knows = knows
        self._unit_words = {w for text in texts for w in words(text)}

    def knows(self, word: str) -> bool:
        """A content word the vocabulary holds; a hyphenated one ("on-call") when each part is held."""
        parts = [p for p in word.split("-") if p]
        return self._holds(word) or len(parts) > 1 and all(self._holds(p) for p in parts)

    def _holds(self, word: str) -> bool:
        # (`words` drops a plural s, so the stem and its plural are both tried.)
        return word.isdigit() or word in self._unit_words or self._knows(word) or self._knows(word + "s")

    def coverage(self, question: str) -> Coverage:
        content = [w for w in words(question) if not w[0].isdigit()]
        return Coverage(len(content), sum(1 for w in content if self.knows(w)))


def unknown_words(decision, vocabulary: Vocabulary, least_share: float) -> bool:
    """True when a question states no amount or code and fewer than `least_share` of its content words
    are ones the sources or units use: letters, a keyboard mash, words from another subject. Whatever
    intent such a text lands nearest is chance, so nothing of the subject is answered (a decline
    stands)."""
    slots = decision.slots
    if slots is None or slots.amounts or slots.tax_code or slots.flat_code or decision.action in ("clarify", "decline"):
        return False  # (a question turned away as another subject stays turned away: it says where to go)
    coverage = vocabulary.coverage(decision.question)
    return coverage.content > 0 and coverage.share < least_share


def as_unread(decision):
    """The decision for a question nothing understood: ask what it is about (the greeting)."""
    if decision.trace is not None:
        decision.trace.notes.append("its words are not the sources' or the units': asked what the question is")
        decision.trace.action = "clarify"
    return replace(decision, action="clarify", missing=["question"], calls=[])
