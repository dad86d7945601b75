"""Retrieval evaluation over a golden set: Hit@1, Hit@5 and MRR for bm25, dense and hybrid.

In: a golden YAML file (default `tests/golden/retrieval.yaml`) and a built index.
Out: a markdown report (table per mode, per split, per query kind, floor check, misses; for whole
posts also the long-query variants on every split, as aggregates), printed
and written to `--out` (default `.work/eval/retrieval.md`), and the overall scores as JSON beside
it (`retrieval.json`: `{mode: {"hit@1", "hit@5", "mrr"}}`, read by the publish gates).

Golden file format:

```yaml
queries:
  - id: rates-current
    query: "what are the income tax brackets this year"
    kind: paraphrase          # free label, reported per kind (paraphrase, identifier, prior_year, ...)
    expect_url: [tax-rates-for-individuals]   # a hit's URL must contain one of these
    expect_text: ["15,600"]   # ... and its (parent) text must contain all of these (case-insensitive)
    tax_year: 2024-25         # optional filter passed to the search
    split: holdout            # optional: dev (default) or holdout, reported separately
negatives:                    # questions the corpus cannot answer: hybrid should return nothing
  - "best sourdough starter recipe"
```

A held-out set (`tests/golden/search_queries.yaml`, written outside the project) names every
accepted page as `accept: [url fragments]` with no `expect_text`, and is split into `dev` and a
frozen `test` part by a hash of each id (`splits.py`); misses are listed for `dev` only.

```yaml
queries:
  - {id: q-secondary-code, kind: keyword, query: "secondary tax code for a second job", accept: [secondary-tax-codes]}
```
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import re
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from nztax.retrieval import MODES, Hit, Retriever
from nztax.settings import get_settings
from nztax_build.splits import split_of

RANK_DEPTH = 10  # MRR is computed over the first RANK_DEPTH hits
SPLITS = ("dev", "holdout", "test")


class GoldenError(ValueError):
    """The golden file is malformed (clear message, exit 2)."""


@dataclass(frozen=True)
class GoldenQuery:
    id: str
    query: str
    kind: str
    expect_url: tuple[str, ...]
    expect_text: tuple[str, ...]
    tax_year: str | None = None
    split: str = "dev"


@dataclass
class GoldenSet:
    queries: list[GoldenQuery]
    negatives: list[str] = field(default_factory=list)


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).lower()


def _page_key(url: str) -> str:
    """A page address as golden sets name it: no scheme, no trailing slash."""
    return re.sub(r"^https?://", "", url).rstrip("/")


def load_golden(path: Path) -> GoldenSet:
    try:
        data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise GoldenError(f"cannot read golden file {path}: {exc}") from exc
    if isinstance(data, dict) and isinstance(data.get("posts"), list):
        # The real-post set: each post, exactly as its writer typed it, is the query; its accepted
        # pages are the answers. Posts no corpus page answers are left out of retrieval scoring.
        data = {"queries": [{"id": p["id"], "kind": "real_post", "query": str(p["question"]).strip(),
                             "accept": [_page_key(u) for u in p["accepted_pages"]]} for p in data["posts"] if p.get("accepted_pages")]}
    if not isinstance(data, dict) or not isinstance(data.get("queries"), list):
        raise GoldenError(f"{path}: expected a mapping with a 'queries' list")
    queries, seen = [], set()
    for number, item in enumerate(data["queries"], start=1):
        if isinstance(item, dict) and "accept" in item and "expect_url" not in item:
            item = {**item, "expect_url": item["accept"], "split": item.get("split", split_of(str(item.get("id", number))))}
        if not isinstance(item, dict) or not item.get("query") or not item.get("expect_url"):
            raise GoldenError(f"{path}: query #{number} needs 'query' and 'expect_url' (or 'accept')")
        qid = str(item.get("id", number))
        if qid in seen:
            raise GoldenError(f"{path}: duplicate id {qid!r}")
        seen.add(qid)
        split = str(item.get("split", "dev"))
        if split not in SPLITS:
            raise GoldenError(f"{path}: query {qid!r} has split {split!r}; use one of {', '.join(SPLITS)}")
        as_tuple = lambda v: tuple(v) if isinstance(v, list) else (v,) if v else ()
        queries.append(GoldenQuery(qid, str(item["query"]), str(item.get("kind", "other")),
                                   as_tuple(item["expect_url"]), as_tuple(item.get("expect_text")),
                                   item.get("tax_year"), split))
    negatives = [str(q) for q in data.get("negatives") or []]
    return GoldenSet(queries, negatives)


def is_relevant(hit: Hit, gold: GoldenQuery) -> bool:
    if not any(fragment in hit.url for fragment in gold.expect_url):
        return False
    text = _norm(f"{hit.title} {hit.section} {hit.text}")
    return all(_norm(fragment) in text for fragment in gold.expect_text)


def first_relevant_rank(hits: list[Hit], gold: GoldenQuery) -> int | None:
    return next((rank for rank, hit in enumerate(hits, start=1) if is_relevant(hit, gold)), None)


@dataclass
class ModeResult:
    mode: str
    ranks: dict[str, int | None]  # query id -> first relevant rank (None = not in the top RANK_DEPTH)
    latencies_ms: list[float]

    def hit_at(self, n: int, ids: list[str] | None = None) -> float:
        ids = ids if ids is not None else list(self.ranks)
        return sum(1 for i in ids if self.ranks[i] is not None and self.ranks[i] <= n) / max(len(ids), 1)

    def mrr(self, ids: list[str] | None = None) -> float:
        ids = ids if ids is not None else list(self.ranks)
        return sum(1.0 / self.ranks[i] for i in ids if self.ranks[i]) / max(len(ids), 1)


def evaluate(retriever: Retriever, golden: GoldenSet, modes=MODES) -> dict[str, Any]:
    """Run every golden query in every mode; the query is embedded once and shared by dense/hybrid."""
    vectors, embed_ms = {}, []
    if any(m != "bm25" for m in modes):
        for gold in golden.queries:
            started = time.perf_counter()
            vectors[gold.id] = retriever.embed_query(gold.query)
            embed_ms.append((time.perf_counter() - started) * 1000)
    results: dict[str, ModeResult] = {}
    for mode in modes:
        result = ModeResult(mode, {}, [])
        for gold in golden.queries:
            started = time.perf_counter()
            hits = retriever.search(gold.query, k=RANK_DEPTH, mode=mode, tax_year=gold.tax_year,
                                    query_vector=vectors.get(gold.id))
            result.latencies_ms.append((time.perf_counter() - started) * 1000)
            result.ranks[gold.id] = first_relevant_rank(hits, gold)
        results[mode] = result
    negatives_empty = [q for q in golden.negatives if not retriever.search(q, k=RANK_DEPTH, mode="hybrid")]
    return {"modes": results, "embed_ms": embed_ms, "negatives_empty": negatives_empty}


def _table(results: dict[str, ModeResult], ids: list[str] | None = None) -> list[str]:
    lines = ["| mode | Hit@1 | Hit@5 | MRR |", "|---|---|---|---|"]
    for mode, result in results.items():
        lines.append(f"| {mode} | {result.hit_at(1, ids):.3f} | {result.hit_at(5, ids):.3f} | {result.mrr(ids):.3f} |")
    return lines


def render_report(outcome: dict[str, Any], golden: GoldenSet, retriever: Retriever, golden_path: Path) -> str:
    results: dict[str, ModeResult] = outcome["modes"]
    manifest = retriever.index.manifest
    lines = [
        "# Retrieval evaluation",
        "",
        f"Golden set: `{golden_path}` ({len(golden.queries)} queries). Index: {manifest.counts.get('children')} "
        f"chunks, {manifest.counts.get('parents')} parents, embedder `{manifest.embedder_id}`; "
        f"RRF k={retriever.settings.rrf_k}, weights bm25 {retriever.settings.rrf_weight_bm25} / dense "
        f"{retriever.settings.rrf_weight_dense} / identifier {retriever.settings.rrf_weight_identifier}; "
        f"relevance floor {retriever.relevance_floor if 'dense' in results or 'hybrid' in results else 'n/a'}.",
        "",
        *_table(results),
        "",
    ]
    splits = [s for s in SPLITS if any(g.split == s for g in golden.queries)]
    if len(splits) > 1:
        for split in splits:
            ids = [g.id for g in golden.queries if g.split == split]
            lines += [f"Split `{split}` ({len(ids)} queries):", "", *_table(results, ids), ""]
    kinds = sorted({g.kind for g in golden.queries})
    if len(kinds) > 1:
        lines += ["By query kind (Hit@5 / MRR):", "", "| kind | n | " + " | ".join(results) + " |",
                  "|---|---|" + "---|" * len(results)]
        for kind in kinds:
            ids = [g.id for g in golden.queries if g.kind == kind]
            cells = [f"{r.hit_at(5, ids):.2f} / {r.mrr(ids):.2f}" for r in results.values()]
            lines.append(f"| {kind} | {len(ids)} | " + " | ".join(cells) + " |")
        lines.append("")
    lines += ["Search latency per query (ms, query embedding excluded):", "", "| mode | p50 | p95 |", "|---|---|---|"]
    for mode, result in results.items():
        lat = sorted(result.latencies_ms)
        p95 = lat[min(len(lat) - 1, int(round(0.95 * (len(lat) - 1))))] if lat else 0.0
        lines.append(f"| {mode} | {statistics.median(lat) if lat else 0:.2f} | {p95:.2f} |")
    if outcome["embed_ms"]:
        lines += ["", f"Query embedding: median {statistics.median(outcome['embed_ms']):.2f} ms."]
    if golden.negatives:
        lines += ["", f"Relevance floor: {len(outcome['negatives_empty'])}/{len(golden.negatives)} unrelated "
                  "questions returned no hits (hybrid)."]
        missed = [q for q in golden.negatives if q not in outcome["negatives_empty"]]
        lines += [f"- still returned hits: {q}" for q in missed]
    by_id = {g.id: g for g in golden.queries}
    for mode, result in results.items():
        # The frozen test part is scored, never inspected: its misses are not listed.
        misses = [qid for qid, rank in result.ranks.items() if (rank is None or rank > 5) and by_id[qid].split != "test"]
        if misses:
            lines += ["", f"Misses at 5 ({mode}):"]
            lines += [f"- `{qid}` {by_id[qid].query!r} (rank {result.ranks[qid] or '>10'})" for qid in misses]
    return "\n".join(lines) + "\n"


def scores_json(results: dict[str, ModeResult]) -> dict[str, dict[str, float]]:
    """The overall scores the publish gates compare: {mode: {"hit@1", "hit@5", "mrr"}}."""
    return {mode: {"hit@1": round(r.hit_at(1), 4), "hit@5": round(r.hit_at(5), 4), "mrr": round(r.mrr(), 4)}
            for mode, r in results.items()}


def sweep(retriever: Retriever, golden: GoldenSet) -> str:
    """Hybrid metrics for one knob at a time around the defaults (RRF k and weights, BM25 coverage
    power, page-vector weight, query expansion, the long-query page cap, fusion and weights per length class), on the dev
    split only so the holdout stays unseen.
    The BM25 heading boost changes the index, so it is measured by rebuilding (docs/retrieval.md)."""
    dev = GoldenSet([g for g in golden.queries if g.split == "dev"], [])  # never "holdout" or "test"
    base = retriever.settings
    variants: list[tuple[str, dict[str, Any]]] = [("defaults", {})]
    variants += [(f"rrf_k {k}", {"rrf_k": k}) for k in (10, 30, 120)]
    variants += [(f"weights bm25 {b} / dense {d}", {"rrf_weight_bm25": b, "rrf_weight_dense": d})
                 for b, d in ((0.5, 1.0), (1.5, 1.0), (1.0, 1.5))]
    variants += [("identifier weight 0", {"rrf_weight_identifier": 0.0})]
    variants += [(f"bm25 coverage power {p}", {"bm25_coverage_power": p}) for p in (0.0, 1.0, 3.0)]
    variants += [(f"page vector weight {w}", {"page_vector_weight": w}) for w in (0.0, 0.25, 1.0)]
    variants += [("no query expansion", {"query_expansion": False})]
    variants += [(f"long query sections per page {c}", {"long_query_sections_per_page": c}) for c in (0, 2)]
    # The long-query class (whole posts): only the real-post set has such queries.
    variants += [("long query: chunk-level fusion", {"long_query_page_fusion": False}),
                 ("long query: no BM25 passes under the floor", {"long_query_bm25_passes": 0})]
    variants += [(f"long query page votes {n}", {"long_query_page_votes": n}) for n in (1, 3)]
    variants += [(f"long query rrf_k {k}", {"long_query_rrf_k": k}) for k in (5, 20)]
    variants += [(f"long query bm25 weight {w}", {"long_query_weight_bm25": w}) for w in (0.75, 1.25, 1.5)]
    variants += [(f"long query page vector weight {w}", {"long_query_page_vector_weight": w}) for w in (0.5, 1.5)]
    variants += [("long query: BM25 counts repeated words", {"long_query_bm25_distinct": False})]
    lines = ["", f"## Fusion settings sweep (hybrid, dev split: {len(dev.queries)} queries)", "",
             "| variant | Hit@1 | Hit@5 | MRR |", "|---|---|---|---|"]
    try:
        for name, change in variants:
            retriever.settings = dataclasses.replace(base, **change)
            result = evaluate(retriever, dev, modes=("hybrid",))["modes"]["hybrid"]
            lines.append(f"| {name} | {result.hit_at(1):.3f} | {result.hit_at(5):.3f} | {result.mrr():.3f} |")
    finally:
        retriever.settings = base
    return "\n".join(lines) + "\n"


# The long-query variants `make eval` reports beside the defaults on a set of whole posts (each
# kept change undone alone, then all of them); short queries are untouched by all of them.
LONG_QUERY_VARIANTS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("defaults", {}),
    ("one vote per page per ranking, at its place among pages (before 29 November 2026)", {"long_query_page_votes": 1}),
    ("without the answer units' questions (the defaults until 29 November 2026)", {"long_query_unit_weight": 0.0}),
    ("the intent reading's canonical query, weight 1.5 (won on both parts; 3 development answers worse)",
     {"long_query_intent_weight": 1.5}),
    ("the intent reading's canonical query, weight 1", {"long_query_intent_weight": 1.0}),
    ("the intent reading's canonical query, weight 2", {"long_query_intent_weight": 2.0}),
    ("the post's topic as the units read it, weight 1 (won on development, lost on the frozen part)",
     {"long_query_topic_weight": 1.0}),
    ("chunk-level fusion", {"long_query_page_fusion": False}),
    ("no BM25 passes under the floor", {"long_query_bm25_passes": 0}),
    ("BM25 counts each word once", {"long_query_bm25_distinct": True}),
    ("page vector weight 1.0", {"long_query_page_vector_weight": 1.0}),
    ("long-query RRF k 10", {"long_query_rrf_k": 10}),
    ("the last three together (chosen on development, lost on the frozen part)",
     {"long_query_bm25_distinct": True, "long_query_page_vector_weight": 1.0, "long_query_rrf_k": 10}),
)


def split_cells(result, golden: GoldenSet, splits: list[str]) -> list[str]:
    """One mode's Hit@1 / Hit@5 / MRR on each split, as table cells."""
    cells = []
    for split in splits:
        ids = [g.id for g in golden.queries if g.split == split]
        cells.append(f"{result.hit_at(1, ids):.3f} / {result.hit_at(5, ids):.3f} / {result.mrr(ids):.3f}")
    return cells


def long_query_variants(retriever: Retriever, golden: GoldenSet) -> str:
    """Hybrid Hit@1 / Hit@5 / MRR of each long-query variant on every split, as aggregates only
    (the frozen part's rows are never listed)."""
    splits = [s for s in SPLITS if any(g.split == s for g in golden.queries)]
    lines = ["", "## Long-query variants (hybrid; Hit@1 / Hit@5 / MRR)", "",
             "| variant | " + " | ".join(f"{s} ({sum(g.split == s for g in golden.queries)})" for s in splits) + " |",
             "|---|" + "---|" * len(splits)]
    base = retriever.settings
    try:
        for name, change in LONG_QUERY_VARIANTS:
            retriever.settings = dataclasses.replace(base, **change)
            result = evaluate(retriever, golden, modes=("hybrid",))["modes"]["hybrid"]
            lines.append(f"| {name} | " + " | ".join(split_cells(result, golden, splits)) + " |")
    finally:
        retriever.settings = base
    from nztax_build.page_bm25_variants import page_bm25_rows
    from nztax_build.rerank_variants import rerank_rows

    lines += rerank_rows(retriever, golden, splits, evaluate)
    lines += page_bm25_rows(retriever, golden, splits, evaluate)
    return "\n".join(lines) + "\n"


# The corpus pages a real-post set's blind annotators could read (docs/retrieval.md, "Real posts").
PAGES_READ_FILE = "realposts_pages_read.yaml"


def pages_read(golden_path: Path) -> frozenset[str] | None:
    """The pages the annotators read: the file beside the golden set, else the bundled one; None if neither."""
    for path in (Path(golden_path).parent / PAGES_READ_FILE, default_golden_path().parent / PAGES_READ_FILE):
        if path.is_file():
            data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
            return frozenset(_page_key(u) for u in data.get("pages_read") or ())
    return None


class ReadPagesOnly:
    """A retriever whose hits skip pages the annotators never read (added to the corpus after them):
    such a page was judged neither right nor wrong for any post."""

    def __init__(self, retriever: Retriever, read: frozenset[str]):
        self.retriever, self.read = retriever, read
        self.unread = len({c.get("url", "") for c in retriever.index.children if _page_key(c.get("url", "")) not in read})

    def embed_query(self, query: str):
        return self.retriever.embed_query(query)

    def search(self, query: str, k: int = 5, **kw) -> list[Hit]:
        hits = self.retriever.search(query, k=k + 2 * self.unread, **kw)  # room for the unread pages' sections
        return [h for h in hits if _page_key(h.url) in self.read][:k]


def read_pages_rows(retriever: Retriever, golden: GoldenSet, read: frozenset[str]) -> str:
    """Hit@1 / Hit@5 / MRR of each mode on every split with the pages the annotators never read set
    aside (aggregates only)."""
    splits = [s for s in SPLITS if any(g.split == s for g in golden.queries)]
    wrapped = ReadPagesOnly(retriever, read)
    results = evaluate(wrapped, golden)["modes"]
    lines = ["", f"## Pages the annotators never read set aside ({wrapped.unread} pages; Hit@1 / Hit@5 / MRR)", "",
             "| mode | " + " | ".join(splits) + " |", "|---|" + "---|" * len(splits)]
    lines += [f"| {mode} | " + " | ".join(split_cells(result, golden, splits)) + " |" for mode, result in results.items()]
    return "\n".join(lines) + "\n"


def default_golden_path() -> Path:
    return get_settings().home / "tests" / "golden" / "retrieval.yaml"


def run(args: argparse.Namespace) -> int:
    """`nztax eval retrieval`; exit 0, 2 (bad golden file) or 3 (index unavailable)."""
    from nztax.embedders import EmbedderError
    from nztax.index import IndexUnavailableError

    settings = get_settings()
    golden_path = Path(getattr(args, "golden", None) or default_golden_path())
    out_path = Path(getattr(args, "out", None) or settings.work_dir / "eval" / "retrieval.md")
    try:
        golden = load_golden(golden_path)
    except GoldenError as exc:
        print(f"nztax eval retrieval: {exc}", file=sys.stderr)
        return 2
    try:
        retriever = Retriever.load(getattr(args, "index", None))
        print(f"[eval] {len(golden.queries)} queries x {len(MODES)} modes", file=sys.stderr)
        outcome = evaluate(retriever, golden)
        report = render_report(outcome, golden, retriever, golden_path)
        scores = scores_json(outcome["modes"])
        if any(g.kind == "real_post" for g in golden.queries):
            read = pages_read(golden_path)
            if read:
                report += read_pages_rows(retriever, golden, read)
            report += long_query_variants(retriever, golden)
        if getattr(args, "sweep", False):
            report += sweep(retriever, golden)
    except (IndexUnavailableError, EmbedderError) as exc:
        print(f"nztax eval retrieval: {exc}", file=sys.stderr)
        return 3
    out_path.parent.mkdir(parents=True, exist_ok=True)
    out_path.write_text(report, encoding="utf-8")
    json_path = out_path.with_suffix(".json")
    json_path.write_text(json.dumps(scores, indent=2) + "\n", encoding="utf-8")
    print(report)
    print(f"[eval] written to {out_path} and {json_path}", file=sys.stderr)
    return 0
