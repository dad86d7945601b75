"""Measured, not kept: whole pages as BM25 documents, one more vote in a long query's page fusion.

In: a loaded `Retriever` and a real-post golden set. Out: markdown rows (hybrid Hit@1 / Hit@5 / MRR
per split, aggregates only) for `nztax eval realpost-search`.

Why it was tried (issue 43): chunk BM25 lets a page vote only through its best chunks, while a post's
words are spread over a page (the rule in one section, its example in another). Here each page is
one BM25 document (its title, `title_repeat` more times, then every section's heading and text; the
index's own tokeniser and k1), and that page ranking, each page as its best dense chunk like the
units' vote, votes in the page fusion. On the development part no weight gained two posts at rank 1
without losing one at rank 5 (docs/retrieval.md), so search does not do it; this module keeps the
measurement repeatable.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from nztax.index import LoadedIndex, bm25_tokenize
from nztax.retrieval import Retriever
from nztax.unit_pages import pages_as_chunks


@dataclass
class PageBM25:
    """A bm25s index whose document i is the index's page number i."""
    model: object  # bm25s.BM25
    vocab: dict[str, int]

    @classmethod
    def build(cls, index: LoadedIndex, b: float | None = None, title_repeat: int = 0) -> "PageBM25":
        import bm25s

        settings = index.manifest.bm25
        tokens = bm25_tokenize(page_texts(index, title_repeat), settings, return_ids=True)
        model = bm25s.BM25(k1=settings.k1, b=settings.b if b is None else b, method=settings.method)
        model.index(tokens, show_progress=False)
        return cls(model, tokens.vocab)

    def ranking(self, tokens: list[str], depth: int) -> list[int]:
        """Page numbers with a positive score for these (stemmed) query terms, best first."""
        ids = [self.vocab[t] for t in tokens if t in self.vocab]
        if not ids:
            return []
        scores = np.asarray(self.model.get_scores_from_ids(ids))
        order = np.argsort(-scores, kind="stable")[:depth]
        return [int(page) for page in order if scores[page] > 0]


def page_texts(index: LoadedIndex, title_repeat: int = 0) -> list[str]:
    """Each page's text in page-number order: its title 1 + `title_repeat` times, then every
    section's heading and text."""
    url_of: dict[int, str] = {}
    for child, page in zip(index.children, index.child_page):
        url_of.setdefault(int(page), child.get("url", ""))
    sections: dict[str, list[dict]] = {}
    for parent in index.parents.values():
        sections.setdefault(parent.get("url", ""), []).append(parent)
    texts = []
    for page in range(len(url_of)):
        parts = sections.get(url_of[page], [])
        title = parts[0].get("title", "") if parts else ""
        body = " ".join(f"{p.get('section', '')} {p.get('text', '')}" for p in parts)
        texts.append(f"{title} " * (1 + max(0, title_repeat)) + body)
    return texts


class PageVoteRetriever(Retriever):
    """The retriever with the page BM25 ranking as one more vote in a long query's page fusion."""

    def __init__(self, retriever: Retriever, pages: PageBM25, weight: float):
        super().__init__(retriever.index, retriever.settings, retriever._embedder)
        self.units_source = retriever.units_source
        self._unit_pages = retriever._unit_pages
        self.pages, self.weight = pages, weight
        self._page_rows: list[int] = []

    # The search hands the query to `_unit_page_rows` just before fusing per page, so the page rows
    # are made there and kept for `_page_fused` (a measurement: one search at a time).
    def _unit_page_rows(self, query, query_vector, dense, cosine, allowed, depth):
        tokens = self.query_tokens(self.query_text(query))
        if self.settings.long_query_bm25_distinct:
            tokens = list(dict.fromkeys(tokens))
        self._page_rows = pages_as_chunks(self.pages.ranking(tokens, depth), self.index.child_page, dense, allowed)
        self._fill_cosine(cosine, self._page_rows, query_vector)
        return super()._unit_page_rows(query, query_vector, dense, cosine, allowed, depth)

    def _page_fused(self, lists, rrf_k, chunk_scores):
        rows, self._page_rows = self._page_rows, []
        for row in rows:
            chunk_scores.setdefault(row, 0.0)  # a page only this ranking names orders by its votes alone
        return super()._page_fused([*lists, (rows, self.weight)], rrf_k, chunk_scores)


# (label, BM25 b for pages (None: the index's), extra title copies, fusion weight)
VARIANTS = (
    ("whole pages as BM25 documents, one more vote, weight 0.5", None, 0, 0.5),
    ("the same, weight 1", None, 0, 1.0),
    ("the same, weight 1.5", None, 0, 1.5),
    ("pages with b 0.3 and the title 3 more times, weight 1.5", 0.3, 3, 1.5),
)


def page_bm25_rows(retriever: Retriever, golden, splits: list[str], evaluate) -> list[str]:
    """One markdown row per variant: hybrid Hit@1 / Hit@5 / MRR on each split."""
    from nztax_build.evaluate_retrieval import split_cells

    rows, built = [], {}
    for label, b, title_repeat, weight in VARIANTS:
        pages = built.get((b, title_repeat)) or built.setdefault((b, title_repeat),
                                                                 PageBM25.build(retriever.index, b, title_repeat))
        result = evaluate(PageVoteRetriever(retriever, pages, weight), golden, modes=("hybrid",))["modes"]["hybrid"]
        rows.append(f"| {label} (not kept) | " + " | ".join(split_cells(result, golden, splits)) + " |")
    return rows
