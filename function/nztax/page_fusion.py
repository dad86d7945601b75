"""A long query's fusion by page: rank fusion, the votes of the answer units and of the intent reading,
and each ranking's votes counted per page (retrieval.py, step 5 of a hybrid search).

In: a long query (more distinct terms than `bm25_coverage_max_words`, such as a whole post), its
vector, the chunk rankings already made (BM25, dense, identifiers) and the retriever's index and
settings. Out: more rankings of chunks (`_unit_page_rows`, `_intent_rows`: each a page ranking, each
page as its best dense chunk for the post) and every chunk's score by its page (`_page_fused`).

Why per page: a post asks about a page, not a passage. Fused per chunk, a page ranked first by both
rankings through two different chunks lost to a page both ranked second through one chunk; so each
ranking votes for a page at the ranks of that page's best `long_query_page_votes` chunks (two by
default: a page that answers the post in two passages beats one look-alike passage), with its own RRF
k and weights. A fourth ranking may vote (`long_query_unit_weight`, 0 = off): pages ranked by the
answer units' paraphrases nearest the post (`unit_pages.py`); its first `long_query_unit_passes`
pages pass the cosine floor as BM25's first chunks do. So may the post's topic as the units read it
and its intent reading's canonical query (`intent_query.py`).

`LongQueryVotes` is a part of `Retriever` (its base class), kept apart for size: it reads the
retriever's `index`, `settings`, `embedder`, `embed_query`, `dense_scores`, `dense_ranking_scores`,
`_graph_dense`, `_rankable` and `_fill_cosine`, and a measurement may override its methods
(`nztax_build.page_bm25_variants`).
"""

from __future__ import annotations

import threading
from typing import Sequence

import numpy as np

from nztax.intent_query import IntentQuery, pages_in_order
from nztax.sentences import asking_sentences
from nztax.unit_pages import UnitPages, pages_as_chunks


def rrf_fuse(rankings: Sequence[tuple[Sequence[int], float]], rrf_k: int) -> dict[int, float]:
    """Reciprocal rank fusion of ranked id lists: {id: sum of weight / (rrf_k + rank)}, ranks from 1."""
    fused: dict[int, float] = {}
    for ranked_ids, weight in rankings:
        if weight == 0:
            continue
        for rank, doc in enumerate(ranked_ids, start=1):
            fused[doc] = fused.get(doc, 0.0) + weight / (rrf_k + rank)
    return fused


def top_rows(scores: np.ndarray, allowed: np.ndarray, limit: int) -> list[int]:
    """Indices of the `limit` highest positive scores among allowed rows, best first."""
    candidates = np.flatnonzero(allowed & (scores > 0))
    if len(candidates) > limit:
        candidates = candidates[np.argpartition(-scores[candidates], limit - 1)[:limit]]
    return [int(i) for i in candidates[np.argsort(-scores[candidates], kind="stable")]]


class LongQueryVotes:
    """The units' and the intents' page votes and the fusion per page, for `Retriever`."""

    def _init_votes(self) -> None:
        """The votes' lazily built parts, and where they come from."""
        self._unit_pages: UnitPages | None | bool = False  # False: not loaded yet
        # () -> (servable units, their paraphrase vectors in `unit_match.paraphrase_rows` order): the
        # engine hands over its unit matcher's, so the bank is not read twice; None: read it here.
        self.units_source = None
        self._unit_lock = threading.Lock()
        self._intent_query: IntentQuery | None = None
        self.intents_source = None  # () -> the engine's IntentClassifier; None: built here from the catalogue

    @property
    def unit_pages(self) -> UnitPages | None:
        """The answer units' questions as a page ranking (`unit_pages.py`), made on first use."""
        if self._unit_pages is False:
            with self._unit_lock:
                if self._unit_pages is False:
                    urls = [c.get("url", "") for c in self.index.children]
                    self._unit_pages = (UnitPages.load(self.index, self.settings.units_dir, self.embedder)
                                        if self.units_source is None
                                        else UnitPages.from_units(*self.units_source(), urls, self.index.child_page))
        return self._unit_pages

    def _unit_page_rows(self, query: str, query_vector: np.ndarray, dense: np.ndarray, cosine: np.ndarray,
                        allowed: np.ndarray, depth: int) -> list[tuple[list[int], float]]:
        """The units' votes as (rows, weight): the unit ranking's pages, then the topic ranking's
        (`UnitPages.topic_ranking`), each page as its best dense chunk ([] without unit vectors; a
        ranking at weight 0 votes with no rows)."""
        s = self.settings
        if not (s.long_query_unit_weight or s.long_query_topic_weight) or self.unit_pages is None:
            return []
        vectors = []
        if s.long_query_unit_query in ("asking", "both"):
            asked = " ".join(asking_sentences(query))
            vectors.append(self.embed_query(asked) if asked and asked != query else query_vector)
        if s.long_query_unit_query in ("post", "both"):
            vectors.append(query_vector)
        units = self.unit_pages
        rows = (units.ranked_rows(vectors, s.long_query_unit_pool, depth, self.index.child_page, dense, allowed)
                if s.long_query_unit_weight else [])
        topic_rows = (pages_as_chunks(units.topic_ranking([query_vector], s.long_query_topic_temperature, depth),
                                      self.index.child_page, dense, allowed) if s.long_query_topic_weight else [])
        self._fill_cosine(cosine, rows + topic_rows, query_vector)
        return [(rows, s.long_query_unit_weight), (topic_rows, s.long_query_topic_weight)]

    @property
    def intent_query(self) -> IntentQuery:
        """The intents' canonical queries (`intent_query.py`), made on first use from the engine's
        classifier (`intents_source`) or the catalogue's vectors stored beside the index."""
        if self._intent_query is None:
            with self._unit_lock:
                if self._intent_query is None:
                    self._intent_query = (IntentQuery(self.intents_source()) if self.intents_source is not None
                                          else IntentQuery.load(self.index.directory, self.embedder, self.settings))
        return self._intent_query

    def _intent_rows(self, query: str, query_vector: np.ndarray, dense: np.ndarray, cosine: np.ndarray,
                     allowed: np.ndarray, depth: int, page_weight: float) -> list[tuple[list[int], float]]:
        """The intent reading's vote, [(rows, `long_query_intent_weight` x sureness)] ([] when off or unread):
        pages by their best chunk for the canonical query (dense), each as its best chunk for the post."""
        weight = self.settings.long_query_intent_weight
        reading = self.intent_query.reading(query, query_vector, self.settings.intent_margin) if weight else None
        if reading is None:
            return []
        canonical, sureness = reading
        scores = (self.dense_ranking_scores(canonical, self.dense_scores(canonical), page_weight)
                  if self.index.dense_graph is None else self._graph_dense(canonical, depth, page_weight)[1])
        pages = pages_in_order(top_rows(self._rankable(scores, page_weight), allowed, depth), self.index.child_page)
        rows = pages_as_chunks(pages, self.index.child_page, dense, allowed)
        self._fill_cosine(cosine, rows, query_vector)
        return [(rows, weight * sureness)]

    def _page_fused(self, lists: Sequence[tuple[Sequence[int], float]], rrf_k: int,
                    chunk_scores: dict[int, float]) -> dict[int, float]:
        """Each child scored by its page's fused score: every ranking votes for a page at the ranks
        of that page's best `long_query_page_votes` children (with 1, once, at the page's place among
        the pages); the child's own fused score only orders a page's children."""
        pages = self.index.child_page
        votes = self.settings.long_query_page_votes
        if votes <= 1:
            # Each ranking as a ranking of pages, each page at its best child's place.
            page_lists = [(list(dict.fromkeys(int(pages[row]) for row in ranked_rows)), weight)
                          for ranked_rows, weight in lists]
        else:
            # Each ranking's children as their pages, at their own ranks; a page's children past its
            # best `votes` become a place holder (-1), so a long page's look-alike chunks add nothing.
            page_lists = []
            for ranked_rows, weight in lists:
                cast: dict[int, int] = {}
                voters = []
                for page in (int(pages[row]) for row in ranked_rows):
                    cast[page] = cast.get(page, 0) + 1
                    voters.append(page if cast[page] <= votes else -1)
                page_lists.append((voters, weight))
        page_score = rrf_fuse(page_lists, rrf_k)
        top = max(chunk_scores.values(), default=0.0) + 1.0
        return {row: page_score[int(pages[row])] + chunk_scores[row] / (top * 1000) for row in chunk_scores}
