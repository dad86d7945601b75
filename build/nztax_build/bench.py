"""`make bench`: speed and memory figures, printed and written to docs/benchmarks.md.

In: the chunks (`.work/chunks/`, else the small test fixture) and the golden queries.
Out: a markdown document made of named sections, in registration order.

Another part of the project adds a section with one line:

    from nztax_build.bench import register
    register("Ask latency and cold start", my_section)   # my_section(ctx: BenchContext) -> list[str]

`BenchContext` carries the settings, a freshly built index directory (`ctx.index_dir`), a loaded
`Retriever` over it (`ctx.retriever()`), the benchmark queries and the repeat count. Sections
return markdown lines (without their heading) and print progress to stderr.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import platform
import re
import resource
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable

from nztax.settings import Settings, get_settings
import os

FALLBACK_QUERIES = [
    "income tax rates for individuals",
    "LC 15",
    "tax code M SL",
    "paying back university borrowing through my wages",
    "when is the IR3 due",
]
# Modules imported before the run so their `register(...)` lines take effect (missing ones are skipped).
SECTION_MODULES: tuple[str, ...] = ("nztax_build.bench_tools", "nztax_build.bench_ask", "nztax_build.bench_cost",
                                     "nztax_build.bench_scale", "nztax_build.bench_pages", "nztax_build.bench_llm")


@dataclass
class BenchContext:
    settings: Settings
    chunks_dir: Path
    work_dir: Path  # scratch space for this run (fresh embedding cache, built index)
    index_dir: Path
    queries: list[str]
    repeats: int
    facts: dict = field(default_factory=dict)  # sections may share measured values here
    _retriever: object | None = None

    def retriever(self):
        from nztax.retrieval import Retriever

        if self._retriever is None:
            self._retriever = Retriever.load(self.index_dir, settings=self.settings)
        return self._retriever


Section = Callable[[BenchContext], list[str]]
# (order, name, function); lower order runs first. Peak memory goes last.
SECTIONS: list[tuple[int, str, Section]] = []


def register(name: str, function: Section, order: int = 50) -> None:
    """Add (or replace) a named benchmark section."""
    SECTIONS[:] = [s for s in SECTIONS if s[1] != name]
    SECTIONS.append((order, name, function))


def _progress(message: str) -> None:
    print(f"[bench] {message}", file=sys.stderr, flush=True)


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))] if ordered else 0.0


# --- retrieval sections -------------------------------------------------------------------------

def index_build(ctx: BenchContext) -> list[str]:
    from nztax_build.indexer import embed_and_index

    cache_dir = ctx.work_dir / "embeddings"
    shutil.rmtree(cache_dir, ignore_errors=True)
    _progress("building the index with an empty embedding cache")
    cold = embed_and_index(ctx.settings, force=True, chunks_dir=ctx.chunks_dir, index_dir=ctx.index_dir)
    _progress("rebuilding with a warm cache")
    warm = embed_and_index(ctx.settings, force=True, chunks_dir=ctx.chunks_dir, index_dir=ctx.index_dir)
    ctx.facts["chunks"] = cold.children
    return [
        f"Corpus: {cold.parents} parent sections, {cold.children} chunks; embedder `{cold.embedder_id}`.",
        "",
        "| build | total s | embedding s | chunks/s |",
        "|---|---|---|---|",
        f"| empty cache | {cold.seconds:.2f} | {cold.embed_seconds:.2f} | {cold.children / cold.seconds:.1f} |",
        f"| warm cache (nothing re-embedded) | {warm.seconds:.2f} | {warm.embed_seconds:.2f} | "
        f"{warm.children / warm.seconds:.1f} |",
    ]


def index_load(ctx: BenchContext) -> list[str]:
    from nztax.retrieval import Retriever

    timings = []
    for _ in range(max(3, ctx.repeats // 20)):
        started = time.perf_counter()
        Retriever.load(ctx.index_dir, settings=ctx.settings)
        timings.append((time.perf_counter() - started) * 1000)
    # A fresh process: what a cold function instance pays (imports + index + model + first query).
    probe = (
        "import time,json;t0=time.perf_counter();from nztax.retrieval import Retriever;t1=time.perf_counter();"
        f"r=Retriever.load({str(ctx.index_dir)!r});t2=time.perf_counter();r.embedder;t3=time.perf_counter();"
        f"r.search({ctx.queries[0]!r});t4=time.perf_counter();"
        "print(json.dumps([t1-t0,t2-t1,t3-t2,t4-t3]))"
    )
    env_result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=300)
    lines = [f"In-process `Retriever.load` (index only): median {statistics.median(timings):.1f} ms "
             f"over {len(timings)} loads.", ""]
    if env_result.returncode == 0:
        imports, load, model, first = json.loads(env_result.stdout.strip().splitlines()[-1])
        lines += [
            "Fresh process:",
            "",
            "| step | ms |",
            "|---|---|",
            f"| import nztax.retrieval (numpy, faiss, bm25s) | {imports * 1000:.0f} |",
            f"| load index | {load * 1000:.0f} |",
            f"| load query embedder | {model * 1000:.0f} |",
            f"| first hybrid query | {first * 1000:.0f} |",
            f"| total | {(imports + load + model + first) * 1000:.0f} |",
        ]
    else:
        lines.append(f"(fresh-process probe failed: {env_result.stderr.strip().splitlines()[-1:]})")
    return lines


def query_latency(ctx: BenchContext) -> list[str]:
    retriever = ctx.retriever()
    vectors = {q: retriever.embed_query(q) for q in ctx.queries}  # also warms the model
    lines = [f"{len(ctx.queries)} queries x {ctx.repeats} repeats, k=5, warm process.", "",
             "| mode | p50 ms (excl. embedding) | p95 ms (excl.) | p50 ms (incl. embedding) | p95 ms (incl.) |",
             "|---|---|---|---|---|"]
    for mode in ("bm25", "dense", "hybrid"):
        excl, incl = [], []
        for _ in range(ctx.repeats):
            for query in ctx.queries:
                vector = None if mode == "bm25" else vectors[query]
                started = time.perf_counter()
                retriever.search(query, k=5, mode=mode, query_vector=vector)
                excl.append((time.perf_counter() - started) * 1000)
                started = time.perf_counter()
                retriever.search(query, k=5, mode=mode)
                incl.append((time.perf_counter() - started) * 1000)
        ctx.facts[f"{mode}_p50_ms"] = statistics.median(excl)
        lines.append(f"| {mode} | {statistics.median(excl):.2f} | {percentile(excl, 0.95):.2f} | "
                     f"{statistics.median(incl):.2f} | {percentile(incl, 0.95):.2f} |")
    return lines


def peak_memory(ctx: BenchContext) -> list[str]:
    # ru_maxrss is in kilobytes on Linux (bytes on macOS).
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    divisor = 1024 * 1024 if sys.platform == "darwin" else 1024
    return [f"Peak resident memory of the bench process (all sections so far): {peak / divisor:.0f} MB."]


register("Index build", index_build, order=10)
register("Index load", index_load, order=20)
register("Query latency", query_latency, order=30)
register("Peak memory", peak_memory, order=1000)


# --- driver -------------------------------------------------------------------------------------

def _queries(settings: Settings) -> list[str]:
    golden = settings.home / "tests" / "golden" / "retrieval.yaml"
    try:
        from nztax_build.evaluate_retrieval import load_golden

        return [g.query for g in load_golden(golden).queries] or FALLBACK_QUERIES
    except Exception:  # any problem with the golden file: the fixed queries still measure speed
        return FALLBACK_QUERIES


def run(args) -> int:
    settings = get_settings()
    for module in SECTION_MODULES:
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise
    chunks_dir = Path(getattr(args, "chunks", None) or settings.work_dir / "chunks")
    if not (chunks_dir / "children.jsonl").exists():
        fixture = settings.home / "tests" / "fixtures" / "chunks_small"
        _progress(f"no chunks in {chunks_dir} (run `nztax build` first); measuring the test fixture instead")
        chunks_dir = fixture
    work_dir = settings.work_dir / "bench"
    shutil.rmtree(work_dir, ignore_errors=True)
    work_dir.mkdir(parents=True)
    bench_settings = dataclasses.replace(settings, work_dir=work_dir, index_dir=work_dir / "index")
    ctx = BenchContext(bench_settings, chunks_dir, work_dir, work_dir / "index", _queries(settings),
                       repeats=max(1, int(getattr(args, "repeats", None) or 20)))
    only = set(getattr(args, "only", None) or [])
    lines = [
        "# Benchmarks",
        "",
        f"Measured {datetime.now(timezone.utc):%Y-%m-%d %H:%M UTC} by `make bench` on {platform.machine()}, "
        f"Python {platform.python_version()}, {_cpu_count()} CPUs. Regenerate with `make bench`; "
        "figures vary from machine to machine.",
    ]
    status = 0
    measured: dict[str, list[str]] = {}
    for _, name, function in sorted(SECTIONS, key=lambda s: s[0]):
        if only and name not in only:
            continue
        _progress(name)
        try:
            body = function(ctx)
        except Exception as exc:  # one failing section must not hide the others
            body = [f"(section failed: {type(exc).__name__}: {exc})"]
            status = 1
        measured[name] = body
        lines += ["", f"## {name}", "", *body]
    document = "\n".join(lines) + "\n"
    print(document)
    out = Path(getattr(args, "out", None) or settings.home / "docs" / "benchmarks.md")
    out.parent.mkdir(parents=True, exist_ok=True)
    if only and out.exists():
        # `--only` re-measures some sections: the others, measured before, stay in the file.
        stamp = f"(Re-measured {datetime.now(timezone.utc):%Y-%m-%d %H:%M UTC} with `nztax bench --only`.)"
        document = merge_sections(out.read_text(encoding="utf-8"), {k: [*v, "", stamp] for k, v in measured.items()})
    out.write_text(document, encoding="utf-8")
    _progress(f"written to {out}")
    return status


def merge_sections(document: str, sections: dict[str, list[str]]) -> str:
    """`document` (a benchmarks page of "## name" sections) with the named sections' bodies replaced,
    and any new one added at the end; every other section is kept as it was."""
    parts = re.split(r"(?m)^(?=## )", document)
    head, rest = parts[0], parts[1:]
    names = [p.split("\n", 1)[0][3:].strip() for p in rest]
    for name, body in sections.items():
        text = "\n".join([f"## {name}", "", *body]).rstrip() + "\n\n"
        if name in names:
            rest[names.index(name)] = text
        else:
            rest.append(text)
    return (head + "".join(rest)).rstrip() + "\n"


def _cpu_count() -> int:

    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
