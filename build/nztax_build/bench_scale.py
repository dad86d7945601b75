"""Bench sections: the full offline build, and how search cost grows with the corpus.

In: the bench context (its freshly built index and settings). Out: markdown lines.

"Full offline build" runs `nztax build --force` in a fresh process with an empty embedding cache
(scratch work and index directories), then `mkdocs build`, and times both: what `make site` costs
on a machine that has never built.

"Scaling" makes synthetic corpora 10x and 50x the real one (every chunk copied with its vector
slightly perturbed, so nothing is re-embedded) and measures, in a fresh process each, index load
time, the resident memory the loaded index adds and warm hybrid query p50 (excluding the query embedding), plus the dense
search alone with the exact `IndexFlatIP` against an approximate HNSW index, so the point where an
approximate index starts to pay is measured rather than guessed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from nztax_build.bench import BenchContext, register
import dataclasses
import shutil

SCALES = (1, 10, 50)
NOISE = 0.01  # perturbation of copied vectors: copies stay near their original, as near-duplicates would
HNSW_NEIGHBOURS = 32
SEED = 20261124
FULL_BUILD_TARGET_S = 180

# Runs in a fresh process: load the index, then time hybrid search with precomputed query vectors.
_PROBE = """
import json, statistics, sys, time
import numpy as np
from nztax.retrieval import Retriever
index_dir, queries, repeats = sys.argv[1], json.loads(sys.argv[2]), int(sys.argv[3])
def rss_mb():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
rss0 = rss_mb()
t = time.perf_counter(); r = Retriever.load(index_dir); load_ms = (time.perf_counter() - t) * 1000
rss1 = rss_mb()
vectors = [r.embed_query(q) for q in queries]
times = []
for _ in range(repeats):
    for q, v in zip(queries, vectors):
        t = time.perf_counter(); r.search(q, k=5, mode="hybrid", query_vector=v); times.append((time.perf_counter() - t) * 1000)
graph, agree = r.index.dense_graph, 1.0
if graph is not None:
    with_graph = [[h.parent_id for h in r.search(q, k=5, mode="hybrid", query_vector=v)] for q, v in zip(queries, vectors)]
    r.index.dense_graph = None
    exact = [[h.parent_id for h in r.search(q, k=5, mode="hybrid", query_vector=v)] for q, v in zip(queries, vectors)]
    agree = sum(a == b for a, b in zip(with_graph, exact)) / len(queries)
import faiss
flat = r.index.dense
hnsw = faiss.IndexHNSWFlat(flat.d, %d, faiss.METRIC_INNER_PRODUCT)
t = time.perf_counter(); hnsw.add(np.ascontiguousarray(r.index.vectors)); hnsw_build_s = time.perf_counter() - t
matrix = np.stack(vectors).astype(np.float32)
def per_query(index):
    t = time.perf_counter()
    for _ in range(repeats):
        index.search(matrix, 50)
    return (time.perf_counter() - t) * 1000 / (repeats * len(vectors))
print(json.dumps({"load_ms": load_ms, "index_rss_mb": rss1 - rss0, "p50_ms": statistics.median(times),
                  "flat_ms": per_query(flat), "hnsw_ms": per_query(hnsw), "hnsw_build_s": hnsw_build_s,
                  "chunks": len(r.index.children),
                  "graph": graph is not None, "agree": agree}))
""" % HNSW_NEIGHBOURS


def _progress(message: str) -> None:
    print(f"[bench] {message}", file=sys.stderr, flush=True)


def _scaled_index(ctx: BenchContext, factor: int) -> Path:
    """The bench index copied `factor` times (ids made unique, vectors perturbed), as a new index."""
    from nztax.index import load_index, read_manifest
    from nztax_build.indexer import write_index

    target = ctx.work_dir / f"scaled-{factor}x"
    if factor == 1:
        return ctx.index_dir
    base = load_index(ctx.index_dir)
    manifest = read_manifest(ctx.index_dir)
    rng = np.random.default_rng(SEED)
    parents, children, blocks = [], [], []
    for copy in range(factor):
        suffix = f"-copy{copy}" if copy else ""
        parents += [{**p, "id": p["id"] + suffix, "url": p["url"] + suffix} for p in base.parents.values()]
        children += [{**c, "id": c["id"] + suffix, "parent_id": c["parent_id"] + suffix, "url": c["url"] + suffix}
                     for c in base.children]
        block = base.vectors + (rng.normal(0, NOISE, base.vectors.shape).astype(np.float32) if copy else 0)
        blocks.append(block / np.linalg.norm(block, axis=1, keepdims=True))

    shutil.rmtree(target, ignore_errors=True)
    counts = {"parents": len(parents), "children": len(children)}
    write_index(target, dataclasses.replace(manifest, counts=counts), parents, children, np.vstack(blocks),
                ctx.settings.dense_graph_min_chunks)
    return target


def scaling(ctx: BenchContext) -> list[str]:
    queries = ctx.queries[:20]
    lines = [
        f"Synthetic copies of the corpus; {len(queries)} queries x {max(3, ctx.repeats // 4)} repeats per scale, "
        "each scale in a fresh process. Dense search timed for the top 50 candidates, as retrieval asks for.",
        "",
        "| scale | chunks | index load ms | index memory MB | hybrid p50 ms (excl. embedding) | dense candidates | "
        "top 5 as exact search | "
        f"dense flat ms/query | dense HNSW (M={HNSW_NEIGHBOURS}) ms/query | HNSW build s |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for factor in SCALES:
        _progress(f"scaling: {factor}x")
        index_dir = _scaled_index(ctx, factor)
        result = subprocess.run([sys.executable, "-c", _PROBE, str(index_dir), json.dumps(queries),
                                 str(max(3, ctx.repeats // 4))], capture_output=True, text=True, timeout=1800)
        if result.returncode != 0:
            lines.append(f"| {factor}x | (probe failed: {result.stderr.strip().splitlines()[-1:]}) |")
            continue
        m = json.loads(result.stdout.strip().splitlines()[-1])
        lines.append(f"| {factor}x | {m['chunks']:,} | {m['load_ms']:.0f} | {m['index_rss_mb']:.0f} | {m['p50_ms']:.2f} | "
                     f"{'HNSW graph' if m['graph'] else 'every chunk'} | {m['agree']:.0%} | {m['flat_ms']:.3f} | {m['hnsw_ms']:.3f} | {m['hnsw_build_s']:.1f} |")
    lines += ["", "Read the dense columns for the switch point: while exact search costs well under a "
              "millisecond per query, an approximate index would only add build time and recall loss."]
    return lines


def full_build(ctx: BenchContext) -> list[str]:
    settings = ctx.settings
    scratch = ctx.work_dir / "full-build"
    env = dict(os.environ, NZTAX_WORK_DIR=str(scratch / "work"), NZTAX_INDEX_DIR=str(scratch / "index"))
    env.pop("NZTAX_LLM_MODEL", None)
    nztax = Path(sys.executable).parent / "nztax"
    _progress("full offline build with an empty embedding cache (nztax build --force)")
    started = time.perf_counter()
    build = subprocess.run([str(nztax), "build", "--force"], env=env, capture_output=True, text=True, timeout=1800)
    build_s = time.perf_counter() - started
    if build.returncode != 0:
        return [f"(nztax build failed: {build.stderr.strip().splitlines()[-1:]})"]
    started = time.perf_counter()
    mkdocs = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "--site-dir",
                             str(scratch / "site")], cwd=settings.home, env=env, capture_output=True, text=True,
                            timeout=1800)
    mkdocs_s = time.perf_counter() - started
    stages = [line for line in build.stderr.splitlines() if "] done in" in line]
    total = build_s + (mkdocs_s if mkdocs.returncode == 0 else 0)
    return [
        "`nztax build --force` from the bundled corpus with an empty embedding cache, then `mkdocs build --strict`.",
        "",
        "| step | s |",
        "|---|---|",
        *[f"| {line.split(']')[0].lstrip('[')} | {line.split('done in ')[1].split('s')[0]} |" for line in stages],
        f"| nztax build (process total) | {build_s:.1f} |",
        f"| mkdocs build | {mkdocs_s:.1f}{'' if mkdocs.returncode == 0 else ' (failed)'} |",
        f"| **total** | **{total:.1f}** (target < {FULL_BUILD_TARGET_S}) |",
    ]


register("Full offline build", full_build, order=5)
register("Scaling", scaling, order=35)
