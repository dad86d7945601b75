"""Bench section "Ask latency and cold start" (registered into `nztax_build.bench`).

In: the bench's freshly built index. Out: markdown lines with
- the engine's offline answer time in process (warm p50/p95 over a mixed question set), and
- a real `functions-framework` process on a loopback port: cold start (process start to the first
  answer, no LLM configured) and warm HTTP p50/p95.
Targets: warm offline /ask p50 ≤ 10 ms; cold start ≤ 1.0 s (issue 42).
"""

from __future__ import annotations

import json
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

from nztax_build.bench import BenchContext, percentile, register
from nztax_build.commands.serve import stop_process

QUESTIONS = [
    "How much tax do I pay on $85,000?",
    "What is the ACC earners' levy rate?",
    "PAYE on $1,000 a week, tax code M SL",
    "What's my take-home pay on $75k with a student loan?",
    "Am I eligible for the independent earner tax credit?",
    "How do I register for GST?",
    "What tax code should I use?",
    "When is my IR3 due?",
]
# The first question needs retrieval, so the cold start includes loading the query embedder.
COLD_QUESTION = "What is the ACC earners' levy rate?"
COLD_STARTS = 3
READY_TIMEOUT_S = 60
TARGET_P50_MS = 10
TARGET_COLD_S = 1.0
DISTINCT_QUESTIONS = 100
LOAD_CLIENTS = 8
LOAD_REQUESTS = 800


def _progress(message: str) -> None:
    print(f"[bench] ask: {message}", file=sys.stderr, flush=True)


def _post(url: str, question: str, timeout: float = 30) -> int:
    data = json.dumps({"question": question}).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as r:
            r.read()
            return r.status
    except urllib.error.HTTPError as exc:
        return exc.code


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _rss_mib(pid: int) -> float:
    """Resident memory of a process and its children (gunicorn's worker), from /proc."""
    total = 0.0
    for candidate in [pid, *_children(pid)]:
        try:
            for line in Path(f"/proc/{candidate}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) / 1024
        except OSError:
            pass
    return total


def _children(pid: int) -> list[int]:
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def _load(url: str, pid: int) -> dict:
    """LOAD_CLIENTS threads posting LOAD_REQUESTS questions in all: throughput, errors, memory."""
    statuses: list[int] = []
    lock = threading.Lock()

    def client(offset: int) -> None:
        for i in range(LOAD_REQUESTS // LOAD_CLIENTS):
            try:
                status = _post(url, QUESTIONS[(offset + i) % len(QUESTIONS)])
            except OSError:
                status = 0
            with lock:
                statuses.append(status)

    rss_before = _rss_mib(pid)
    threads = [threading.Thread(target=client, args=(n,)) for n in range(LOAD_CLIENTS)]
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    seconds = time.perf_counter() - started
    return {"requests": len(statuses), "per_second": len(statuses) / seconds,
            "errors": sum(1 for s in statuses if s != 200), "rss_growth_mib": _rss_mib(pid) - rss_before}


def _unit_paraphrases(settings) -> list[str]:
    """One paraphrase of each answer unit (its first alternative wording): questions the bench's
    warm-up never asked."""
    from nztax.units import UnitBank

    return [unit.also[0] if unit.also else unit.question for unit in UnitBank.load(settings.units_dir).units]


def _serve_and_measure(ctx: BenchContext, warm_requests: int,
                       function_dir: Path | None = None, load: dict | None = None) -> tuple[float, list[float]]:
    """(seconds from process start to the first 200, warm request times in ms) for the function in
    `function_dir` (default: this checkout's); with `load` given, also a concurrent load run's
    figures, written into it."""
    function_dir = function_dir or ctx.settings.home / "function"
    main = function_dir / "main.py"
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("NZTAX_LLM_MODEL", "NZTAX_LLM_API_BASE")}
    env.update(NZTAX_INDEX_DIR=str(ctx.index_dir), NZTAX_EMBEDDER=ctx.settings.embedder, NZTAX_RATE_LIMIT_PER_MINUTE="0",
               LITELLM_LOCAL_MODEL_COST_MAP="True",
               # Put this function's own `nztax` ahead of the installed (editable) one.
               PYTHONPATH=os.pathsep.join(filter(None, [str(function_dir), env.get("PYTHONPATH", "")])))
    exe = Path(sys.executable).parent / "functions-framework"
    url = f"http://127.0.0.1:{port}/"
    started = time.perf_counter()
    proc = subprocess.Popen([str(exe), "--target", "ask", "--source", str(main), "--port", str(port), "--host", "127.0.0.1"],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        cold = None
        while time.perf_counter() - started < READY_TIMEOUT_S:
            if proc.poll() is not None:
                raise RuntimeError(proc.stderr.read().decode()[-500:])
            try:
                if _post(url, COLD_QUESTION) == 200:
                    cold = time.perf_counter() - started
                    break
            except (urllib.error.URLError, OSError):
                time.sleep(0.01)
        if cold is None:
            raise RuntimeError("the function did not answer in time")
        timings = []
        for i in range(warm_requests):
            t = time.perf_counter()
            _post(url, QUESTIONS[i % len(QUESTIONS)])
            timings.append((time.perf_counter() - t) * 1000)
        if load is not None:
            load.update(_load(url, proc.pid))
        return cold, timings
    finally:
        stop_process(proc)


def ask_latency(ctx: BenchContext) -> list[str]:
    import dataclasses

    from nztax.engine import Engine

    settings = dataclasses.replace(ctx.settings, llm_model=None)
    if not (ctx.index_dir / "manifest.json").exists():  # run alone (--only): build the index first
        from nztax_build.indexer import embed_and_index

        _progress("building the index")
        embed_and_index(settings, force=True, chunks_dir=ctx.chunks_dir, index_dir=ctx.index_dir)
    engine = Engine(Engine.create(settings, index_dir=ctx.index_dir).rules, ctx.retriever(), settings=settings)
    for q in QUESTIONS:  # warm up (model, tool imports)
        engine.answer(q, use_faq=False)
    in_process = []
    for _ in range(ctx.repeats):
        for q in QUESTIONS:
            t = time.perf_counter()
            engine.answer(q, use_faq=False)
            in_process.append((time.perf_counter() - t) * 1000)
    # Repeats of the same few questions reuse what the engine keeps by text (query vectors, readings);
    # new questions do not: a paraphrase of each answer unit, asked once, measures the engine on new text.
    distinct = []
    for q in _unit_paraphrases(settings)[:DISTINCT_QUESTIONS]:
        t = time.perf_counter()
        engine.answer(q, use_faq=False)
        distinct.append((time.perf_counter() - t) * 1000)
    _progress("starting functions-framework for cold-start and HTTP timings")
    colds, http, load = [], [], {}
    for run in range(COLD_STARTS):
        cold, timings = _serve_and_measure(ctx, warm_requests=max(len(QUESTIONS), ctx.repeats * len(QUESTIONS) // COLD_STARTS),
                                           load=load if run == 0 else None)
        colds.append(cold)
        http += timings
    p50 = statistics.median(http)
    ctx.facts.update(ask_p50_ms=p50, ask_cold_s=statistics.median(colds))
    baseline = _baseline_cold_starts(ctx)
    return [
        f"Offline answers (no LLM), {len(QUESTIONS)} mixed questions (calculations, topics, declines, clarifications).",
        "",
        "| measure | p50 | p95 | target |",
        "|---|---|---|---|",
        f"| engine in process, warm, the same {len(QUESTIONS)} questions repeated (ms) | {statistics.median(in_process):.1f} | "
        f"{percentile(in_process, 0.95):.1f} | |",
        *([f"| engine in process, warm, {len(distinct)} different questions each asked once (ms) | "
           f"{statistics.median(distinct):.1f} | {percentile(distinct, 0.95):.1f} | |"] if distinct else []),
        f"| POST /ask over loopback HTTP, warm (ms) | {p50:.1f} | {percentile(http, 0.95):.1f} | < {TARGET_P50_MS} |",
        f"| cold start: process start to first answer (s), {COLD_STARTS} runs | {statistics.median(colds):.2f} | "
        f"{max(colds):.2f} (max) | ≤ {TARGET_COLD_S} |",
        *baseline,
        "",
        f"Load: {LOAD_CLIENTS} concurrent clients, {load['requests']} requests over loopback HTTP: "
        f"{load['per_second']:.0f} requests/s, {load['errors']} non-200, server memory "
        f"{load['rss_growth_mib']:+.1f} MiB over the run.",
    ]


def _baseline_cold_starts(ctx: BenchContext) -> list[str]:
    """The same cold start for the function as it was at NZTAX_BENCH_BASELINE (side by side)."""
    ref = ctx.settings.bench_baseline
    if not ref:
        return []
    target = ctx.work_dir / "baseline"
    archive = subprocess.run(["git", "-C", str(ctx.settings.home), "archive", ref, "function"],
                             capture_output=True, timeout=60)
    if archive.returncode != 0:
        return ["", f"(baseline {ref} is not in this clone, so no side-by-side cold start: "
                    f"{archive.stderr.decode(errors='replace').strip()[:200]})"]
    target.mkdir(parents=True, exist_ok=True)
    subprocess.run(["tar", "-x", "-C", str(target)], input=archive.stdout, check=True, timeout=60)
    _progress(f"cold-starting the function as of {ref} for comparison")
    colds = [_serve_and_measure(ctx, warm_requests=0, function_dir=target / "function")[0] for _ in range(COLD_STARTS)]
    return [f"| cold start of the function at `{ref}` (same index, same machine), {COLD_STARTS} runs | "
            f"{statistics.median(colds):.2f} | {max(colds):.2f} (max) | baseline |"]


register("Ask latency and cold start", ask_latency, order=40)
