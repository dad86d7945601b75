"""Query expansion for keyword search: NZ tax abbreviations and everyday wordings.

In: a query ("how much KS do I pay on my take-home pay") and the synonym groups in
`nztax/data/query_synonyms.yaml`.
Out: the phrases to add to the query's BM25 search (["KiwiSaver", "net pay"]).

Each group starts with the term IRD's pages use (the canonical term), followed by abbreviations and
everyday wordings. Expansion runs one way: a query using a variant gets the canonical term added,
unless it already has it; a query using the canonical term is left alone. (Measured: expanding the
other way too, e.g. "KiwiSaver" -> "retirement savings scheme", only added noise to BM25.)

Matching is on lower-cased, stemmed words, so "uni loans" matches "uni loan". A phrase written
entirely in capitals in the table (IETC, PIR, KS) matches only when the query has it in capitals,
so the words "pie" or "ks" in running text are not read as abbreviations.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import yaml

from nztax.yaml_data import load_yaml

SYNONYMS_FILE = Path(__file__).resolve().parent / "data" / "query_synonyms.yaml"
_WORD = re.compile(r"[A-Za-z0-9]+")


class SynonymTableError(ValueError):
    """The synonym table is malformed (file and entry in the message)."""


@dataclass(frozen=True)
class Phrase:
    text: str
    words: tuple[str, ...]  # stemmed lower-case words, or the exact capitals for an abbreviation
    exact_case: bool


def _stem_words(text: str) -> tuple[str, ...]:
    import Stemmer

    return tuple(Stemmer.Stemmer("english").stemWords([w.lower() for w in _WORD.findall(text)]))


def _phrase(text: str) -> Phrase:
    exact = text.isupper() and bool(_WORD.search(text))
    words = tuple(_WORD.findall(text)) if exact else _stem_words(text)
    if not words:
        raise SynonymTableError(f"synonym phrase {text!r} has no words")
    return Phrase(text, words, exact)


def _contains(haystack: tuple[str, ...], needle: tuple[str, ...]) -> bool:
    n = len(needle)
    return any(haystack[i : i + n] == needle for i in range(len(haystack) - n + 1))


class QueryExpander:
    """Synonym groups loaded once; `expansions(query)` lists the phrases to add."""

    def __init__(self, groups: list[list[str]]):
        self.groups = [tuple(_phrase(str(term)) for term in group) for group in groups]

    @classmethod
    def from_file(cls, path: Path = SYNONYMS_FILE) -> "QueryExpander":
        try:
            data = load_yaml(Path(path).read_text(encoding="utf-8"))
        except (OSError, yaml.YAMLError) as exc:
            raise SynonymTableError(f"cannot read synonym table {path}: {exc}") from exc
        groups = data.get("groups") if isinstance(data, dict) else None
        if not isinstance(groups, list):
            raise SynonymTableError(f"{path}: expected a mapping with a 'groups' list")
        for number, group in enumerate(groups, start=1):
            if not isinstance(group, list) or len(group) < 2 or not all(isinstance(t, str) and t.strip() for t in group):
                raise SynonymTableError(f"{path}: group #{number} must be a list of at least two phrases")
        return cls(groups)

    def expansions(self, query: str) -> list[str]:
        """Canonical terms of the groups whose variants the query uses (and whose canonical it lacks)."""
        exact_words = tuple(_WORD.findall(query))
        stemmed = _stem_words(query)

        exact_set, stemmed_set = set(exact_words), set(stemmed)

        def present(phrase: Phrase) -> bool:
            # Most phrases' first word is not in the query at all: a set lookup rules them out.
            if phrase.exact_case:
                return phrase.words[0] in exact_set and _contains(exact_words, phrase.words)
            return phrase.words[0] in stemmed_set and _contains(stemmed, phrase.words)

        added: list[str] = []
        for canonical, *variants in self.groups:
            if not present(canonical) and any(present(v) for v in variants) and canonical.text not in added:
                added.append(canonical.text)
        return added

    def expand(self, query: str) -> str:
        """The query with its expansions appended (what the BM25 search reads)."""
        extra = self.expansions(query)
        return f"{query} {' '.join(extra)}" if extra else query


@lru_cache(maxsize=1)
def default_expander() -> QueryExpander:
    return QueryExpander.from_file()


@lru_cache(maxsize=2048)
def canonical_terms(query: str) -> tuple[str, ...]:
    """IRD's own terms for the everyday words a text uses, from the default table (cached: the same
    question's words are looked up again when its answer is written)."""
    return tuple(default_expander().expansions(query))
