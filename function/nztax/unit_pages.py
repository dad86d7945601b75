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

    def __post_init__(self):
        # The first paraphrase row of each unit (rows are grouped by unit, in order).
        self.unit_starts = np.flatnonzero(np.r_[True, self.row_unit[1:] != self.row_unit[:-1]]) if len(self.row_unit) else self.row_unit

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
        keep_rows, row_unit, unit_page = [], [], []
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
            row += n
        return cls(np.asarray(vectors, dtype=np.float32)[keep_rows] if keep_rows else np.zeros((0, 1), np.float32),
                   np.asarray(row_unit, dtype=np.int64), np.asarray(unit_page, dtype=np.int64),
                   int(child_page.max()) + 1 if len(child_page) else 0)

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
        nearness = sum(np.maximum.reduceat(self._cosines(v), self.unit_starts) for v in query_vectors)
        order = np.lexsort((-nearness, self.unit_page))  # by page, each page's nearest unit first
        pages = self.unit_page[order]
        firsts = np.flatnonzero(np.r_[True, pages[1:] != pages[:-1]])
        place = np.arange(len(order)) - np.repeat(firsts, np.diff(np.r_[firsts, len(order)]))
        counted = place < max(pool, 1)
        total = np.bincount(pages[counted], weights=nearness[order][counted], minlength=self.pages)
        units = np.bincount(pages[counted], minlength=self.pages)
        cited = np.flatnonzero(units)
        return cited, total[cited] / units[cited]

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
