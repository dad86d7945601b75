"""Hybrid retrieval: BM25 + dense + exact identifiers, fused with reciprocal rank fusion.

In: a query, filters (source types, tax year) and an index loaded by `nztax.index`.
Out: ranked `Hit`s, one per parent section (children are searched, parents are returned).

How a hybrid search works:
0. The query gets the canonical terms of any abbreviations or everyday wordings it uses
   ("KS" -> KiwiSaver, "money back" -> refund; `nztax.query_expansion`); both searches read that text.
1. Children allowed by the filters are ranked three ways: BM25 (bm25s over the chunk text with its
   heading boosted, zero-score hits dropped), dense (cosine to the chunk plus `page_vector_weight` x
   cosine to the chunk's page, so sections of the page that is about the query rise) and exact
   identifiers found in the query ("LC 15", "IR3", "M SL": children naming them, headings first).
2. Reciprocal rank fusion: score(c) = sum over rankings of weight / (rrf_k + rank(c)), ranks from 1.
   BM25's weight is scaled by coverage ** `bm25_coverage_power`, coverage being the share of the
   query's words that its best hit contains: for a paraphrase BM25 only matches stray words
   ("money", "cash"), and a full-weight vote for those would bury the dense ranking's good hits.
3. Relevance floor, per query: the search finds something only if some child names an identifier
   from the query, or reaches the cosine floor and shares a (stemmed) word with the query, or
   reaches the higher dense-only floor (a paraphrase sharing no word). An unrelated question gets
   no hits at all. When it passes, children naming a query identifier or reaching the floor are
   kept (so a paraphrase's best passage is not dropped for sharing no word).
4. Children are replaced by their parents, keeping each parent's best-ranked child only, and at
   most `max_sections_per_page` sections of one page while other pages pass; a long query (more
   distinct terms than `bm25_coverage_max_words`, such as a whole post) keeps only its best section
   per page (`long_query_sections_per_page`), since it asks about a page rather than a passage.
5. A long query is also fused per page, each ranking voting for a page at the ranks of that page's
   best children, with its own RRF k and weights, and BM25's first `long_query_bm25_passes` children
   pass the floor's cosine test. Its dense score's page-vector weight
   (`long_query_page_vector_weight`) and whether its BM25 query counts each word once
   (`long_query_bm25_distinct`) are settings of their own; the defaults are the short query's (the
   alternatives won on the real-post development part and lost on the frozen part). The answer units
   and the intent reading may vote on the pages too: `page_fusion.py`.

`Hit.tax_year` is the chunk's tax years joined with ", " ("2025-26, 2026-27"), or None when the
chunk is not tied to a year; the list itself is `Hit.tax_years`.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Sequence

import numpy as np

from nztax.embedders import Embedder, embedder_problem, get_embedder
from nztax.index import (
    IndexMismatchError,
    IndexUnavailableError,
    LoadedIndex,
    bm25_tokenize,
    extract_identifiers,
    load_index,
)
from nztax.contract import SOURCE_TYPES  # noqa: F401 (re-exported for the CLI)
from nztax.page_fusion import LongQueryVotes, rrf_fuse, top_rows
from nztax.query_expansion import default_expander
from nztax.settings import Settings, get_settings

MODES = ("hybrid", "bm25", "dense")
# The search tool hands passages to a model; more than this only costs tokens.
MAX_TOOL_RESULTS = 10
# A graph search fetches this many times the candidates retrieval wants (room for the filters)
# and explores at least GRAPH_MIN_EF nodes.
GRAPH_OVERFETCH = 4
GRAPH_MIN_EF = 64
NOTHING_RELEVANT = "Nothing relevant was found in the indexed IRD sources for this query."


@dataclass
class Hit:
    url: str
    title: str
    section: str
    source_type: str
    tax_year: str | None
    score: float
    text: str  # the parent section's full text
    parent_id: str
    tax_years: list[str] = field(default_factory=list)
    child_id: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "url": self.url,
            "title": self.title,
            "section": self.section,
            "source_type": self.source_type,
            "tax_year": self.tax_year,
            "score": round(float(self.score), 6),
            "text": self.text,
        }


class Retriever(LongQueryVotes):
    """Load once per process (`Retriever.load()`), then `search` many times."""

    def __init__(self, index: LoadedIndex, settings: Settings, embedder: Embedder | None = None,
                 load_seconds: float = 0.0):
        self.index = index
        self.settings = settings
        self._embedder = embedder
        self._embedder_lock = threading.Lock()
        self.load_seconds = load_seconds
        n = len(index.children)
        self._years = [frozenset(c.get("tax_years") or ()) for c in index.children]
        self._all_rows = np.ones(n, dtype=bool)
        self._identifier_arrays: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        self._init_votes()

    @classmethod
    def load(cls, index_dir: Path | str | None = None, settings: Settings | None = None,
             embedder: Embedder | None = None) -> "Retriever":
        """Open the index and check it fits the query embedder (before loading any model)."""
        settings = settings or get_settings()
        started = time.perf_counter()
        index = load_index(Path(index_dir) if index_dir else settings.index_dir)
        built = index.manifest.embedder_id
        if embedder is not None:
            problem = None if embedder.id == built else (
                f"the index was built with embedder {built!r} but queries are embedded with {embedder.id!r}")
        else:
            problem = embedder_problem(settings, built)
        if problem:
            raise IndexMismatchError(f"{problem}; rebuild the index (`nztax build`) or set NZTAX_EMBEDDER to match it")
        return cls(index, settings, embedder, load_seconds=time.perf_counter() - started)

    # -- parts -----------------------------------------------------------------------------

    @property
    def embedder(self) -> Embedder:
        """The query embedder, created on first dense/hybrid search (bm25-only never loads a model)."""
        if self._embedder is None:
            with self._embedder_lock:
                if self._embedder is None:
                    embedder = get_embedder(self.settings, self.index.manifest.embedder_id)
                    if embedder.id != self.index.manifest.embedder_id or embedder.dimensions != self.index.manifest.dimensions:
                        raise IndexMismatchError(
                            f"query embedder {embedder.id!r} ({embedder.dimensions} dims) does not match the "
                            f"index ({self.index.manifest.embedder_id!r}, {self.index.manifest.dimensions} dims)"
                        )
                    self._embedder = embedder
        return self._embedder

    @property
    def relevance_floor(self) -> float:
        """Minimum cosine for a hit that also matches a query word."""
        if self.settings.relevance_floor is not None:
            return self.settings.relevance_floor
        return float(self.embedder.relevance_floor)

    @property
    def dense_only_floor(self) -> float:
        """Minimum cosine for a hit that shares no word with the query (the embedder's margin above the floor)."""
        margin = float(self.embedder.dense_only_floor) - float(self.embedder.relevance_floor)
        return self.relevance_floor + margin

    def allowed_rows(self, source_types: Iterable[str] | None, tax_year: str | None) -> np.ndarray:
        """Children passing the filters; a child with no tax-year tag passes any year filter."""
        allowed = self._all_rows
        if source_types:
            allowed = allowed & np.isin(self.index.child_source_types, list(source_types))
        if tax_year:
            allowed = allowed & np.array([not years or tax_year in years for years in self._years], dtype=bool)
        return allowed

    def query_text(self, query: str) -> str:
        """The text both searches read: the query plus canonical terms for its abbreviations."""
        return default_expander().expand(query) if self.settings.query_expansion else query

    def embed_query(self, query: str) -> np.ndarray:
        """The query vector `search` would compute (callers may pass it back as `query_vector`)."""
        return self.embedder.embed_query(self.query_text(query))

    def query_tokens(self, query: str) -> list[str]:
        """The (already expanded) query's BM25 terms, stemmed, in order."""
        return list(bm25_tokenize([query], self.index.manifest.bm25, return_ids=False)[0])

    def query_words(self, query: str) -> int:
        """How many distinct BM25 terms the (already expanded) query has."""
        return len(set(self.query_tokens(query)))

    def bm25_scores(self, query: str) -> np.ndarray:
        """BM25 score of every child for the (already expanded) query text."""
        return self._bm25(self.query_tokens(query), with_coverage=False)[0]

    def bm25_scores_and_coverage(self, query: str) -> tuple[np.ndarray, np.ndarray]:
        """(BM25 scores, share of the query's distinct words each child contains; unknown words count)."""
        return self._bm25(self.query_tokens(query), with_coverage=True)

    def _bm25(self, tokens: list[str], with_coverage: bool) -> tuple[np.ndarray, np.ndarray | None]:
        # Summed straight from the eager index's postings (one bincount, not one n-long pass per
        # query word), so the cost follows the query words' postings rather than the corpus size.
        n = len(self.index.children)
        bm25 = self.index.bm25
        ids = [bm25.vocab_dict[t] for t in tokens if t in bm25.vocab_dict]
        if not ids:
            return np.zeros(n, dtype=np.float32), (np.zeros(n, dtype=np.float32) if with_coverage else None)
        postings = bm25.scores
        indptr, indices, data = postings["indptr"], postings["indices"], postings["data"]
        rows = [indices[indptr[i]:indptr[i + 1]] for i in ids]
        weights = [data[indptr[i]:indptr[i + 1]] for i in ids]
        scores = np.bincount(np.concatenate(rows), weights=np.concatenate(weights), minlength=n).astype(np.float32)
        if bm25.nonoccurrence_array is not None:
            scores += bm25.nonoccurrence_array[ids].sum()
        if not with_coverage:
            return scores, None
        distinct_rows = [indices[indptr[i]:indptr[i + 1]] for i in set(ids)]
        contains = np.bincount(np.concatenate(distinct_rows), minlength=n).astype(np.float32)
        return scores, contains / max(len(set(tokens)), 1)

    def dense_scores(self, query_vector: np.ndarray) -> np.ndarray:
        """Cosine of the query to every child (IndexFlatIP over normalised vectors)."""
        # Every child's score is wanted, so a plain matrix-vector product over the stored vectors
        # beats asking faiss for all n neighbours (a k=n heap sort that grows as n log n).
        if not len(self.index.vectors):
            return np.zeros(0, dtype=np.float32)
        return self.index.vectors @ np.asarray(query_vector, dtype=np.float32).reshape(-1)

    def page_weight(self, long_query: bool) -> float:
        """How much the cosine to a chunk's page adds to its dense score; a long query has its own."""
        return self.settings.long_query_page_vector_weight if long_query else self.settings.page_vector_weight

    def dense_ranking_scores(self, query_vector: np.ndarray, cosine: np.ndarray,
                             weight: float | None = None) -> np.ndarray:
        """Chunk cosine plus `weight` (default `page_vector_weight`) x the cosine to the chunk's page vector."""
        weight = self.settings.page_vector_weight if weight is None else weight
        if not weight or not len(cosine):
            return cosine
        page_cosine = self.index.page_vectors @ query_vector.astype(np.float32)
        return cosine + weight * page_cosine[self.index.child_page]

    def _graph_dense(self, query_vector: np.ndarray, depth: int,
                     weight: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(cosine, dense ranking score, mask of scored rows) from the HNSW graph's nearest chunks.

        A large corpus makes scoring every chunk cost a full read of the vectors per query; the graph
        gives the nearest `depth` x `GRAPH_OVERFETCH` (extra room for the filters), and only those rows
        are scored. Rows not scored hold NaN cosine until `_fill_cosine` computes the ones fusion needs."""
        n = len(self.index.children)
        graph = self.index.dense_graph
        want = min(n, depth * GRAPH_OVERFETCH)
        graph.hnsw.efSearch = max(want, GRAPH_MIN_EF)
        _, ids = graph.search(query_vector.reshape(1, -1), want)
        near_rows = ids[0][ids[0] >= 0]
        cosine = np.full(n, np.nan, dtype=np.float32)
        cosine[near_rows] = self.index.vectors[near_rows] @ query_vector
        dense = np.full(n, -np.inf, dtype=np.float32)
        dense[near_rows] = cosine[near_rows]
        if weight:
            pages = self.index.page_vectors[self.index.child_page[near_rows]]
            dense[near_rows] += weight * (pages @ query_vector)
        near = np.zeros(n, dtype=bool)
        near[near_rows] = True
        return cosine, dense, near

    def _fill_cosine(self, cosine: np.ndarray, rows: list[int], query_vector: np.ndarray) -> None:
        """Compute the cosine of rows the graph did not score (a no-op when every row was scored)."""
        missing = [row for row in rows if np.isnan(cosine[row])]
        if missing:
            cosine[missing] = self.index.vectors[missing] @ query_vector

    def _rankable(self, dense: np.ndarray, weight: float) -> np.ndarray:
        """Dense scores shifted above zero (`top_rows` keeps positive scores only); order unchanged."""
        return dense + (1.0 + abs(weight) + 1.0)

    def identifier_ranking(self, identifiers: set[str], allowed: np.ndarray, bm25: np.ndarray) -> list[int]:
        """Children naming the query's identifiers: more identifiers, then in the heading, then BM25."""
        arrays = [self._identifier_rows(ident) for ident in sorted(identifiers)]
        arrays = [a for a in arrays if len(a[0])]
        if not arrays:
            return []
        rows = np.concatenate([a[0] for a in arrays])
        in_heading = np.concatenate([a[1] for a in arrays])
        keep = allowed[rows]
        rows, in_heading = rows[keep], in_heading[keep]
        if not len(rows):
            return []
        matched, which = np.unique(rows, return_inverse=True)
        named = np.bincount(which)
        headings = np.bincount(which, weights=in_heading)
        order = np.lexsort((-bm25[matched], -headings, -named))  # the last key sorts first
        return [int(row) for row in matched[order]]

    def _identifier_rows(self, ident: str) -> tuple[np.ndarray, np.ndarray]:
        """(rows naming `ident`, whether each names it in its heading), as arrays, cached per identifier."""
        cached = self._identifier_arrays.get(ident)
        if cached is None:
            rows = np.asarray(self.index.identifier_postings.get(ident, ()), dtype=np.int64)
            heading = self.index.identifier_in_heading.get(ident, set())
            cached = self._identifier_arrays[ident] = (rows, np.fromiter((r in heading for r in rows.tolist()), dtype=bool,
                                                                         count=len(rows)))
        return cached

    # -- search ----------------------------------------------------------------------------

    def search(self, query: str, k: int = 5, mode: str = "hybrid", source_types: Sequence[str] | None = None,
               tax_year: str | None = None, query_vector: np.ndarray | None = None, unit_vote: bool = True) -> list[Hit]:
        """Top `k` parent sections for `query`; [] when nothing passes the relevance floor. `unit_vote`:
        False leaves the answer units' and the intents' page rankings out of a long query's fusion (a
        reading of the corpus alone, to check a unit against: unit_agree.py)."""
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
        if k < 1:
            raise ValueError("k must be at least 1")
        query = (query or "").strip()
        if not query or not self.index.children:
            return []
        allowed = self.allowed_rows(source_types, tax_year)
        depth = min(self.settings.retrieval_candidates, len(self.index.children))

        text = self.query_text(query)
        tokens = self.query_tokens(text)  # once: BM25, coverage and the long-query rules all read them
        long_query = len(set(tokens)) > self.settings.bm25_coverage_max_words
        if long_query and self.settings.long_query_bm25_distinct:
            # A story repeats its own nouns (a country, an employer); counted once, each word of a
            # post weighs what its rarity says, not how often the writer came back to it.
            tokens = list(dict.fromkeys(tokens))
        page_weight = self.page_weight(long_query)
        bm25 = coverage = None
        if mode in ("bm25", "hybrid"):
            bm25, coverage = self._bm25(tokens, with_coverage=mode == "hybrid")
        cosine = dense = None
        dense_allowed = allowed
        if mode in ("dense", "hybrid"):
            if query_vector is None:
                query_vector = self.embedder.embed_query(text)
            query_vector = np.asarray(query_vector, dtype=np.float32).reshape(-1)
            if self.index.dense_graph is None:
                cosine = self.dense_scores(query_vector)
                dense = self.dense_ranking_scores(query_vector, cosine, page_weight)
            else:
                cosine, dense, near = self._graph_dense(query_vector, depth, page_weight)
                dense_allowed = allowed & near

        identifiers: set[str] = set()
        if mode == "bm25":
            ranked = top_rows(bm25, allowed, depth)
            scores = {row: float(bm25[row]) for row in ranked}
            passes = set(ranked)  # zero scores are already gone
        elif mode == "dense":
            floor = self.relevance_floor
            ranked = top_rows(self._rankable(dense, page_weight), dense_allowed, depth)
            scores = {row: float(dense[row]) for row in ranked}
            passes = {row for row in ranked if cosine[row] >= floor}
        else:
            floor = self.relevance_floor
            identifiers = extract_identifiers(query)
            bm25_ranked = top_rows(bm25, allowed, depth)
            dense_ranked = top_rows(self._rankable(dense, page_weight), dense_allowed, depth)
            ident_ranked = self.identifier_ranking(identifiers, allowed, bm25)[:depth] if identifiers else []
            self._fill_cosine(cosine, bm25_ranked + ident_ranked, query_vector)
            s = self.settings
            if long_query:
                bm25_weight, dense_weight, rrf_k = s.long_query_weight_bm25, s.long_query_weight_dense, s.long_query_rrf_k
            else:
                bm25_weight, dense_weight, rrf_k = s.rrf_weight_bm25, s.rrf_weight_dense, s.rrf_k
            # Coverage tells a short query's real match from stray words; in a longer post no passage
            # holds most of the words, so there it would only mute BM25 for every post alike.
            if not long_query:
                best_coverage = float(coverage[bm25_ranked].max()) if bm25_ranked else 0.0
                bm25_weight *= best_coverage ** s.bm25_coverage_power
            lists = [(bm25_ranked, bm25_weight), (dense_ranked, dense_weight), (ident_ranked, s.rrf_weight_identifier)]
            scores = rrf_fuse(lists, rrf_k)
            unit_rows: list[int] = []
            if long_query and s.long_query_page_fusion:
                # A post asks about a page: fused per chunk, a page ranked first by both rankings
                # through two different chunks lost to a page both ranked second through one chunk.
                unit_votes = self._unit_page_rows(query, query_vector, dense, cosine, allowed, depth) if unit_vote else []
                unit_rows = unit_votes[0][0] if unit_votes else []
                unit_votes += self._intent_rows(query, query_vector, dense, cosine, allowed, depth, page_weight) if unit_vote else []
                for row in (row for rows, _ in unit_votes for row in rows):
                    scores.setdefault(row, 0.0)  # a page only the units name orders by its votes alone
                scores = self._page_fused([*lists, *unit_votes], rrf_k, scores)
            # Equal fused scores (e.g. ranks 1+2 vs 2+1) are broken by the dense cosine.
            ranked = sorted(scores, key=lambda row: (-round(scores[row], 12), -float(cosine[row])))
            named = set(ident_ranked)
            alone = self.dense_only_floor
            relevant = any(row in named or cosine[row] >= alone or (cosine[row] >= floor and bm25[row] > 0)
                           for row in ranked)
            # A post's vector is an average over its whole story, so the passage that matches its
            # words best can sit under the cosine floor (measured: the right page at BM25's rank 1
            # dropped). The query-level test above still decides whether anything is relevant.
            kept = (named | set(bm25_ranked[:s.long_query_bm25_passes]) | set(unit_rows[:s.long_query_unit_passes])
                    if long_query else named)
            passes = {row for row in ranked if row in kept or cosine[row] >= floor} if relevant else set()
        cap = self.settings.long_query_sections_per_page if long_query else self.settings.max_sections_per_page
        return self._parents([row for row in ranked if row in passes], scores, k, cap)

    def _parents(self, ranked_rows: list[int], scores: dict[int, float], k: int, cap: int) -> list[Hit]:
        """The first `k` distinct parent sections, at most `cap` from one page while other pages
        have passing sections (then the rest fill up in rank order)."""
        hits, deferred = self._distinct_parents(ranked_rows, scores, k, cap)
        return (hits + deferred)[:k]

    def _distinct_parents(self, ranked_rows: list[int], scores: dict[int, float], k: int,
                          cap: int) -> tuple[list[Hit], list[Hit]]:
        hits: list[Hit] = []
        deferred: list[Hit] = []  # over the page cap: used only if nothing else passes
        per_page: dict[str, int] = {}
        seen: set[str] = set()
        for row in ranked_rows:
            child = self.index.children[row]
            parent_id = child["parent_id"]
            if parent_id in seen:
                continue
            seen.add(parent_id)
            parent = self.index.parents[parent_id]
            years = list(parent.get("tax_years") or child.get("tax_years") or [])
            url = parent.get("url", child.get("url", ""))
            over_cap = cap > 0 and per_page.get(url, 0) >= cap
            per_page[url] = per_page.get(url, 0) + 1
            (deferred if over_cap else hits).append(
                Hit(
                    url=url,
                    title=parent.get("title", child.get("title", "")),
                    section=parent.get("section", child.get("section", "")),
                    source_type=parent.get("source_type", child.get("source_type", "")),
                    tax_year=", ".join(years) if years else None,
                    score=scores[row],
                    text=parent.get("text", ""),
                    parent_id=parent_id,
                    tax_years=years,
                    child_id=child.get("id", ""),
                )
            )
            if len(hits) == k:
                break
        return hits, deferred


# -- the search_tax_documents tool ---------------------------------------------------------------

_shared: Retriever | None = None
_shared_lock = threading.Lock()


def shared_retriever() -> Retriever:
    """One Retriever per process (the function, the CLI and the tools share it)."""
    global _shared
    if _shared is None:
        with _shared_lock:
            if _shared is None:
                _shared = Retriever.load()
    return _shared


def _invalid(argument: str, message: str) -> dict:
    return {"error": {"code": "invalid_argument", "argument": argument, "message": message}}


def search_tax_documents(query: str, k: int = 5, source_type: str | None = None, tax_year: str | None = None) -> dict:
    """Search IRD guidance, guides and legislation for passages relevant to a tax question.

    Args:
        query: what to look for, in plain words or with identifiers (e.g. "IR3 due date", "tax code M SL").
        k: how many passages to return (1 to 10).
        source_type: only this kind of source: ird_guidance, guide_pdf, legislation, qwba,
            interpretation_statement or tib.
        tax_year: only passages for this tax year, e.g. "2026-27" (passages with no year are kept).
    """
    if not isinstance(query, str) or not query.strip():
        return _invalid("query", "query must be a non-empty string")
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= MAX_TOOL_RESULTS:
        return _invalid("k", f"k must be an integer from 1 to {MAX_TOOL_RESULTS}")
    if source_type is not None and source_type not in SOURCE_TYPES:
        return _invalid("source_type", f"source_type must be one of {', '.join(SOURCE_TYPES)}")
    if tax_year is not None and not (isinstance(tax_year, str) and len(tax_year) == 7 and tax_year[4] == "-"
                                     and tax_year[:4].isdigit() and tax_year[5:].isdigit()):
        return _invalid("tax_year", "tax_year must look like 2026-27")
    try:
        hits = shared_retriever().search(
            query, k=k, mode="hybrid", source_types=[source_type] if source_type else None, tax_year=tax_year
        )
    except IndexUnavailableError as exc:
        return {"error": {"code": "index_unavailable", "message": str(exc)}}
    result: dict[str, Any] = {"query": query, "results": [h.to_json() for h in hits]}
    if not hits:
        result["message"] = NOTHING_RELEVANT
    return result
