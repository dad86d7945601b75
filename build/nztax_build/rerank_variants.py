"""Measured, not kept: reranking a long query's top 20 pages with the asking sentence(s).

In: a loaded `Retriever` and a real-post golden set. Out: markdown rows (hybrid Hit@1 / Hit@5 / MRR
per split, aggregates only) for `nztax eval realpost-search`.

The reranker (issue 43): the shipped embedder scores the post's asking sentence(s) against each
candidate page's summary (its title, its section headings and the first sentences of its first
section; or the page vector, the mean of its chunk vectors), and that ranking is fused by RRF with
the hybrid ranking of the top 20 pages. On the development part every form lost to plain hybrid
(docs/retrieval.md), so search does not do it; this module keeps the measurement repeatable.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from nztax.retrieval import Hit, Retriever, rrf_fuse
from nztax.sentences import asking_sentences, sentences

CANDIDATES = 20


def page_summaries(retriever: Retriever, first_sentences: int = 2, headings: bool = True) -> dict[str, str]:
    """{page url: "title. heading; heading. first sentences"} for every page in the index."""
    sections: dict[str, list[dict]] = {}
    for parent in retriever.index.parents.values():
        sections.setdefault(parent.get("url", ""), []).append(parent)
    out = {}
    for url, parts in sections.items():
        title = parts[0].get("title", "")
        heads = "; ".join(dict.fromkeys(p.get("section", "") for p in parts if p.get("section") not in ("", title)))
        opening = " ".join(sentences(re.sub(r"\s+", " ", parts[0].get("text", "")).strip())[:first_sentences])
        out[url] = ". ".join(x for x in (title, heads if headings else "", opening) if x)
    return out


@dataclass
class AskingReranker:
    """Reorders a long query's first `CANDIDATES` hits (one per page) by RRF of their hybrid rank
    and the rank of the asking sentences' cosine to each page's vector."""
    retriever: Retriever
    page_vectors: dict[str, np.ndarray]
    weight: float = 1.0

    @classmethod
    def from_summaries(cls, retriever: Retriever, weight: float = 1.0, **summary) -> "AskingReranker":
        texts = page_summaries(retriever, **summary)
        urls = list(texts)
        vectors = np.asarray(retriever.embedder.embed_documents([texts[u] for u in urls]), dtype=np.float32)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        return cls(retriever, dict(zip(urls, vectors)), weight)

    @classmethod
    def from_page_vectors(cls, retriever: Retriever, weight: float = 1.0) -> "AskingReranker":
        index = retriever.index
        urls = {int(page): child.get("url", "") for child, page in zip(index.children, index.child_page)}
        return cls(retriever, {url: index.page_vectors[page] for page, url in urls.items()}, weight)

    def search(self, query: str, k: int = 5, **kwargs) -> list[Hit]:
        hits = self.retriever.search(query, k=max(k, CANDIDATES), **kwargs)
        if len(set(self.retriever.query_tokens(self.retriever.query_text(query)))) <= self.retriever.settings.bm25_coverage_max_words:
            return hits[:k]  # short queries are left as they are
        asked = self.retriever.embed_query(" ".join(asking_sentences(query)))
        top = hits[:CANDIDATES]
        cosine = [float(self.page_vectors[h.url] @ asked) if h.url in self.page_vectors else -1.0 for h in top]
        by_asking = [i for i in np.argsort(-np.asarray(cosine), kind="stable")]
        fused = rrf_fuse([(list(range(len(top))), 1.0), (by_asking, self.weight)], self.retriever.settings.long_query_rrf_k)
        order = sorted(range(len(top)), key=lambda i: (-fused[i], i))
        return ([top[i] for i in order] + hits[CANDIDATES:])[:k]

    def embed_query(self, query: str) -> np.ndarray:
        return self.retriever.embed_query(query)


# (label, how the page vectors are made, RRF weight of the asking ranking)
VARIANTS = (
    ("rerank top 20: asking sentences vs title + headings + 2 first sentences, weight 1", "summary", {}, 1.0),
    ("the same, weight 0.5", "summary", {}, 0.5),
    ("rerank top 20: asking sentences vs title only, weight 0.5", "summary", {"first_sentences": 0, "headings": False}, 0.5),
    ("rerank top 20: asking sentences vs page vector (mean of chunks), weight 0.5", "page_vector", {}, 0.5),
)


def rerank_rows(retriever: Retriever, golden, splits: list[str], evaluate) -> list[str]:
    """One markdown row per reranker variant: hybrid Hit@1 / Hit@5 / MRR on each split."""
    from nztax_build.evaluate_retrieval import split_cells

    rows = []
    for label, vectors, summary, weight in VARIANTS:
        reranker = (AskingReranker.from_page_vectors(retriever, weight) if vectors == "page_vector"
                    else AskingReranker.from_summaries(retriever, weight, **summary))
        result = evaluate(reranker, golden, modes=("hybrid",))["modes"]["hybrid"]
        rows.append(f"| {label} (not kept) | " + " | ".join(split_cells(result, golden, splits)) + " |")
    return rows
