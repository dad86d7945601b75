"""Pages ranked by the answer units' questions: one more ranking for a long query (issue 43).

In: the servable answer units (each a question with its paraphrases, written the ways people ask it,
citing the corpus page that answers it), their paraphrase vectors (`units.npz` beside the index, the
Ask box's own), the loaded index, and a query's vector(s). Out: `UnitPages.ranking(vectors)` -> the
index's page numbers (`LoadedIndex.child_page`), best first, for the pages some unit cites.

Why: a post tells a story and asks a question; its vector is far from any passage, yet a unit's
paraphrase is a question of the kind posts ask, labelled with the page that answers it. A page's
score is its units' nearness: each unit by its nearest paraphrase, the page by the mean of its best
`pool` units (1: the best unit). With several query vectors (the asking sentences and the whole
post) a unit's nearness is the sum of each vector's. Pages no unit cites are not in this ranking and
keep the votes the other rankings give them.

`UnitPages.topic_ranking` reads the post's topic from the same nearness: the units are grouped in
topics (the FAQ's, `topics:` in the unit files), a topic scores as its nearest unit, and a softmax over
the topics at `temperature` (cosine units) says how sure the reading is. A page's score is the sum over
topics of the topic's probability times the share of that topic's units citing the page. Where the
page ranking above rewards the one page whose paraphrase comes nearest, this one rewards the pages
the post's whole subject points to: a topic's main page, cited by most of its units, gets its vote
even when a look-alike question of another page came nearest (measured in docs/retrieval.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

import numpy as np

from nztax.units import UnitBank, load_withheld

BLOCK_ROWS = 512  # paraphrase rows per matrix-vector product (`UnitPages._cosines`)


@dataclass
class UnitPages:
    vectors: np.ndarray  # (paraphrases, dimensions), normalised
    row_unit: np.ndarray  # paraphrase row -> unit number; rows grouped by unit, in order
    unit_page: np.ndarray  # unit number -> index page number
    pages: int
    unit_topic: np.ndarray | None = None  # unit number -> topic number (None: no topic ranking)

    def __post_init__(self):
        # The first paraphrase row of each unit (rows are grouped by unit, in order).
        self.unit_starts = np.flatnonzero(np.r_[True, self.row_unit[1:] != self.row_unit[:-1]]) if len(self.row_unit) else self.row_unit
        # Topic -> page: the share of the topic's units that cite the page.
        topics = int(self.unit_topic.max()) + 1 if self.unit_topic is not None and len(self.unit_topic) else 0
        self.topic_page = np.zeros((topics, self.pages))
        if topics:
            np.add.at(self.topic_page, (self.unit_topic, self.unit_page), 1.0)
            self.topic_page /= self.topic_page.sum(axis=1, keepdims=True)

    @classmethod
    def from_units(cls, units: Sequence, vectors: np.ndarray | None, child_urls: Iterable[str], child_page: np.ndarray,
                   exclude: frozenset[str] = frozenset()) -> "UnitPages | None":
        """From units in paraphrase-row order (`unit_match.paraphrase_rows`) and their vectors (None
        without an embedder: no ranking); units citing no page of the index, or in `exclude` (ids),
        are left out."""
        if vectors is None:
            return None
        page_of: dict[str, int] = {}
        for url, page in zip(child_urls, child_page):
            page_of.setdefault(url, int(page))
        keep_rows, row_unit, unit_page, unit_topic, topic_of = [], [], [], [], {}
        row = 0
        for unit in units:
            n = len(unit.paraphrases)
            # The build withholds a unit whose page is not in the index at exactly its address
            # (`nztax_build.unit_support`), so a servable unit's address is its page's.
            page = page_of.get(unit.source.url) if unit.source else None
            if page is not None and unit.id not in exclude:
                keep_rows.extend(range(row, row + n))
                row_unit.extend([len(unit_page)] * n)
                unit_page.append(page)
                unit_topic.append(topic_of.setdefault(unit.topic, len(topic_of)))
            row += n
        return cls(np.asarray(vectors, dtype=np.float32)[keep_rows] if keep_rows else np.zeros((0, 1), np.float32),
                   np.asarray(row_unit, dtype=np.int64), np.asarray(unit_page, dtype=np.int64),
                   int(child_page.max()) + 1 if len(child_page) else 0, np.asarray(unit_topic, dtype=np.int64))

    @classmethod
    def load(cls, index, units_dir: Path | None, embedder) -> "UnitPages | None":
        """From the unit bank and the paraphrase vectors stored beside `index`; None when they are
        missing or were made for another bank or embedder (search then goes without this ranking)."""
        from nztax.unit_match import paraphrase_rows, servable, stored_vectors

        if units_dir is None or index.directory is None:
            return None
        try:
            bank = UnitBank.load(units_dir)
        except (OSError, ValueError):
            return None
        units = servable(bank, load_withheld(index.directory))
        vectors = stored_vectors(index.directory, bank, embedder, len(paraphrase_rows(units)))
        return cls.from_units(units, vectors, (c.get("url", "") for c in index.children), index.child_page)

    def page_scores(self, query_vectors: Sequence[np.ndarray], pool: int = 1) -> tuple[np.ndarray, np.ndarray]:
        """(pages some unit cites, each one's score): the mean of its best `pool` units' nearness, a
        unit's nearness being the sum over the query vectors of its nearest paraphrase's cosine."""
        if not len(self.unit_page) or not query_vectors:
            return np.zeros(0, dtype=np.int64), np.zeros(0)
        nearness = self._nearness(query_vectors)
        order = np.lexsort((-nearness, self.unit_page))  # by page, each page's nearest unit first
        pages = self.unit_page[order]
        firsts = np.flatnonzero(np.r_[True, pages[1:] != pages[:-1]])
        place = np.arange(len(order)) - np.repeat(firsts, np.diff(np.r_[firsts, len(order)]))
        counted = place < max(pool, 1)
        total = np.bincount(pages[counted], weights=nearness[order][counted], minlength=self.pages)
        units = np.bincount(pages[counted], minlength=self.pages)
        cited = np.flatnonzero(units)
        return cited, total[cited] / units[cited]

    def _nearness(self, query_vectors: Sequence[np.ndarray]) -> np.ndarray:
        """Each unit's nearness: the sum over the query vectors of its nearest paraphrase's cosine."""
        return sum(np.maximum.reduceat(self._cosines(v), self.unit_starts) for v in query_vectors)

    def topic_scores(self, query_vectors: Sequence[np.ndarray], temperature: float) -> np.ndarray:
        """Each page's score by the post's topic (module doc): sum over topics of softmax(topic's
        nearest unit / `temperature`) x the share of the topic's units citing the page."""
        if not len(self.topic_page) or not query_vectors or temperature <= 0:
            return np.zeros(self.pages)
        nearest = np.full(len(self.topic_page), -np.inf)
        np.maximum.at(nearest, self.unit_topic, self._nearness(query_vectors))
        weights = np.exp((nearest - nearest.max()) / temperature)
        return (weights / weights.sum()) @ self.topic_page

    def topic_ranking(self, query_vectors: Sequence[np.ndarray], temperature: float, depth: int | None = None) -> list[int]:
        """Page numbers by `topic_scores`, best first (pages no unit cites left out; at most `depth`)."""
        scores = self.topic_scores(query_vectors, temperature)
        cited = np.flatnonzero(scores > 0)
        ranked = cited[np.lexsort((cited, -scores[cited]))]
        return [int(p) for p in (ranked[:depth] if depth else ranked)]

    def _cosines(self, vector: np.ndarray) -> np.ndarray:
        """Every paraphrase's cosine to `vector`, a block of rows at a time: over about a thousand
        rows OpenBLAS runs the product on threads, which took 1-20 ms on the shared 2-core machine
        against 0.02 ms a block (measured)."""
        vector = np.asarray(vector, dtype=np.float32).reshape(-1)
        return np.concatenate([self.vectors[start:start + BLOCK_ROWS] @ vector
                               for start in range(0, len(self.vectors), BLOCK_ROWS)])

    def ranking(self, query_vectors: Sequence[np.ndarray], pool: int = 1, depth: int | None = None) -> list[int]:
        """Page numbers by `page_scores`, best first (at most `depth`)."""
        pages, scores = self.page_scores(query_vectors, pool)
        ranked = pages[np.lexsort((pages, -scores))]
        return [int(p) for p in (ranked[:depth] if depth else ranked)]

    def ranked_rows(self, query_vectors: Sequence[np.ndarray], pool: int, depth: int, child_page: np.ndarray,
                    dense: np.ndarray, allowed: np.ndarray) -> list[int]:
        """The ranking's pages, each as its allowed chunk of highest `dense` score (`pages_as_chunks`)."""
        return pages_as_chunks(self.ranking(query_vectors, pool, depth), child_page, dense, allowed)


def pages_as_chunks(pages: Sequence[int], child_page: np.ndarray, dense: np.ndarray, allowed: np.ndarray) -> list[int]:
    """Ranked page numbers as their allowed chunks of highest `dense` score, in the same order (a page
    with no chunk allowed is left out): the page fusion counts a ranking's chunks as their pages."""
    order = np.lexsort((-np.where(allowed, dense, -np.inf), child_page))
    firsts = order[np.r_[True, child_page[order][1:] != child_page[order][:-1]]]
    best = np.full(int(child_page.max()) + 1 if len(child_page) else 0, -1, dtype=np.int64)
    best[child_page[firsts]] = np.where(allowed[firsts], firsts, -1)
    return [int(best[page]) for page in pages if best[page] >= 0]
