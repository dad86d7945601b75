"""The FAQ fast path: serve a precomputed answer when a question matches a FAQ question closely.

In: `<index_dir>/faq.json`, written by the site build: a list of
`{"question", "slug", "topic", "url", "result"}` where `result` is an /ask JSON answer.
Out: `FaqIndex.match(question, tax_year)` -> the stored entry, or None.

Matching: the questions' word sets (lower-cased, stop words dropped, stemmed) must have a Jaccard
similarity of at least `settings.faq_match_threshold`, and the engine's own reading of both
(`slots.reading`: negation, amounts with their periods and roles, the period asked about, tax
code, student loan, KiwiSaver rate, conditions) and their tax year must agree — "tax on $85k" never gets the FAQ about $80k, "$60,000 a
month" never the one about $60,000 a year, "don't give" never the one about "give", however
similar the words. Anything else is answered afresh by the engine (offline or LLM).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from nztax.slots import Reading, read_slots, reading, resolve_tax_year
from nztax.rules import RuleBook, default_rules

FAQ_FILE = "faq.json"
_STOP = frozenset(
    "a an the and or of to in on for is are was were be been do does did i my me we our you your it its "
    "this that what whats how much many can could should would will at by from with as if about there "
    "nz new zealand please".split()
)


class FaqError(RuntimeError):
    """faq.json exists but cannot be read."""


def _stemmer():
    try:
        import Stemmer  # PyStemmer, already needed by the BM25 index

        return Stemmer.Stemmer("english")
    except ImportError:  # the fast path still works, just without stemming
        return None


_UNREAD = object()  # an entry's year not yet read from its question


@dataclass
class FaqEntry:
    question: str
    slug: str
    topic: str
    url: str
    result: dict
    words: frozenset[str]
    # Both read on first need: reading every stored question (or its year) would slow a cold start.
    year: str | None | object = None
    reading: Reading | None = None


class FaqIndex:
    def __init__(self, entries: list[dict], threshold: float, rules: RuleBook | None = None):
        self.threshold = threshold
        self._stemmer = _stemmer()
        self._rules = rules or (default_rules() if entries else None)
        self.entries: list[FaqEntry] = []
        for e in entries:
            if not isinstance(e, dict) or not isinstance(e.get("question"), str) or not isinstance(e.get("result"), dict):
                continue
            q = e["question"]
            self.entries.append(FaqEntry(
                question=q, slug=str(e.get("slug", "")), topic=str(e.get("topic", "")), url=str(e.get("url", "")),
                result=e["result"], words=self.words(q), year=_UNREAD,
            ))

    @classmethod
    def load(cls, index_dir: Path, threshold: float, rules: RuleBook | None = None) -> "FaqIndex":
        """The FAQ answers next to the index; an empty index when there is no faq.json yet."""
        path = Path(index_dir) / FAQ_FILE
        if not path.exists():
            return cls([], threshold, rules)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise FaqError(f"{path}: cannot read the FAQ answers ({exc})") from None
        if not isinstance(data, list):
            raise FaqError(f"{path}: expected a JSON list of FAQ entries")
        return cls(data, threshold, rules)

    def words(self, text: str) -> frozenset[str]:
        tokens = [t for t in re.findall(r"[a-z]+", text.lower().replace("'", "")) if t not in _STOP]
        if self._stemmer is not None:
            tokens = self._stemmer.stemWords(tokens)
        return frozenset(tokens)

    def reading(self, text: str) -> Reading:
        """The engine's reading of a stored question, read as a fresh question would be."""
        return reading(read_slots(text, self._rules))

    @staticmethod
    def year(text: str) -> str | None:
        # The current year only matters for relative phrases; a fixed stand-in keeps them distinct.
        found, _ = resolve_tax_year(text, None, "2000-01")
        return found

    def match(self, question: str, tax_year: str, reading: Reading | None = None) -> FaqEntry | None:
        """The closest FAQ entry over the threshold whose answer is for `tax_year` and whose
        question reads the same (`reading`: the engine's reading of `question`), or None."""
        if not self.entries:
            return None
        words, year = self.words(question), self.year(question)
        if not words:
            return None
        reading = reading or self.reading(question)
        best, best_score = None, 0.0
        for entry in self.entries:
            if entry.result.get("tax_year") != tax_year:
                continue
            union = words | entry.words
            score = len(words & entry.words) / len(union) if union else 0.0
            if score <= best_score or score < self.threshold:
                continue
            if entry.year is _UNREAD:
                entry.year = self.year(entry.question)
            if entry.year != year:
                continue
            if entry.reading is None:
                entry.reading = self.reading(entry.question)
            if entry.reading == reading:
                best, best_score = entry, score
        return best if best is not None and best_score >= self.threshold else None
