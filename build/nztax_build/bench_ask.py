"""Bench section "Ask latency and cold start" (registered into `nztax_build.bench`).

In: the bench's freshly built index. Out: markdown lines with
- the engine's offline answer time in process (warm p50/p95 over a mixed question set), and
- a real `functions-framework` process on a loopback port: cold start (process start to the first
  answer, no LLM configured), warm HTTP p50/p95 and concurrent clients;
each the median of RUNS runs, for this checkout and, beside it, for the commit NZTAX_BENCH_BASELINE on
the index that commit builds itself (bench_baseline.py).
Targets: warm offline /ask p50 ≤ 10 ms; cold start ≤ 1.0 s (issue 42).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

from nztax.settings import get_settings
from nztax_build.bench import BenchContext, percentile, register
from nztax_build.bench_baseline import BaselineError, Side, checkout_and_build, remove, side_env
from nztax_build.commands.serve import stop_process
import dataclasses

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
RUNS = 3  # each figure: the median of this many runs per side
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


# One side's engine in a fresh process of its own code (only Engine.load and answer, which every
# measured commit has): the same questions repeated, then each distinct question once. In: JSON on stdin.
IN_PROCESS_PROBE = """
import json, statistics, sys, time
from nztax.engine import Engine
job = json.load(sys.stdin)
engine = Engine.load()
for q in job["questions"]:
    engine.answer(q, use_faq=False)
same, distinct = [], []
for _ in range(job["repeats"]):
    for q in job["questions"]:
        t = time.perf_counter(); engine.answer(q, use_faq=False); same.append((time.perf_counter() - t) * 1000)
for q in job["distinct"]:
    t = time.perf_counter(); engine.answer(q, use_faq=False); distinct.append((time.perf_counter() - t) * 1000)
print(json.dumps({"same": same, "distinct": distinct}))
"""


def _in_process(side: Side, repeats: int, distinct: list[str]) -> dict[str, float]:
    env = side_env(side.function_dir)
    env.update(NZTAX_INDEX_DIR=str(side.index_dir), NZTAX_RATE_LIMIT_PER_MINUTE="0", LITELLM_LOCAL_MODEL_COST_MAP="True")
    job = json.dumps({"questions": QUESTIONS, "repeats": repeats, "distinct": distinct})
    done = subprocess.run([sys.executable, "-c", IN_PROCESS_PROBE], input=job, env=env, capture_output=True,
                          text=True, timeout=1800)
    if done.returncode != 0:
        raise RuntimeError(f"in-process probe of {side.label} failed: {done.stderr.strip()[-400:]}")
    found = json.loads(done.stdout.strip().splitlines()[-1])
    return {"same_p50": statistics.median(found["same"]), "same_p95": percentile(found["same"], 0.95),
            "distinct_p50": statistics.median(found["distinct"]) if found["distinct"] else 0.0,
            "distinct_p95": percentile(found["distinct"], 0.95)}


def _serve_and_measure(side: Side, warm_requests: int, load: dict | None = None) -> tuple[float, list[float]]:
    """(seconds from process start to the first 200, warm request times in ms) for one side's
    function on its own index; with `load` given, also a concurrent load run's figures, written into it."""
    main = side.function_dir / "main.py"
    port = _free_port()
    env = side_env(side.function_dir)
    env.update(NZTAX_INDEX_DIR=str(side.index_dir), NZTAX_RATE_LIMIT_PER_MINUTE="0", LITELLM_LOCAL_MODEL_COST_MAP="True")
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


def _one_run(side: Side, ctx: BenchContext, distinct: list[str]) -> dict[str, float]:
    """Every figure of one side, once: the engine in process, then a cold start, warm HTTP and load."""
    figures = {"load_average": os.getloadavg()[0]}
    figures.update(_in_process(side, ctx.repeats, distinct))
    load: dict = {}
    cold, http = _serve_and_measure(side, warm_requests=max(len(QUESTIONS), ctx.repeats * len(QUESTIONS) // RUNS),
                                    load=load)
    figures.update(cold_s=cold, http_p50=statistics.median(http), http_p95=percentile(http, 0.95),
                   per_second=load["per_second"], errors=load["errors"], rss_growth_mib=load["rss_growth_mib"])
    return figures


# (key, label, format, target): the rows of the table, each the median of RUNS runs.
ROWS = [
    ("cold_s", "cold start: process start to first answer (s)", "{:.2f}", f"≤ {TARGET_COLD_S}"),
    ("http_p50", "POST /ask over loopback HTTP, warm p50 (ms)", "{:.1f}", f"≤ {TARGET_P50_MS}"),
    ("http_p95", "POST /ask over loopback HTTP, warm p95 (ms)", "{:.1f}", ""),
    ("same_p50", f"engine in process, the same {len(QUESTIONS)} questions repeated, p50 (ms)", "{:.1f}", ""),
    ("distinct_p50", f"engine in process, {DISTINCT_QUESTIONS} different questions once each, p50 (ms)", "{:.1f}", ""),
    ("per_second", f"{LOAD_CLIENTS} concurrent clients over loopback HTTP (requests/s)", "{:.0f}", ""),
    ("errors", f"non-200 answers among the {LOAD_REQUESTS} concurrent requests", "{:.0f}", "0"),
    ("load_average", "load average (1 min) at the run's start", "{:.1f}", ""),
]


def _cell(values: list[float], fmt: str) -> str:
    """The median of the runs, and their range when they differ."""
    middle = fmt.format(statistics.median(values))
    low, high = fmt.format(min(values)), fmt.format(max(values))
    return middle if low == high else f"{middle} ({low}–{high})"


def ask_latency(ctx: BenchContext) -> list[str]:

    settings = dataclasses.replace(ctx.settings, llm_model=None)
    # The index `nztax build` published in this checkout, FAQ answers and unit vectors included, as
    # the function is deployed with; else (none built yet) the bench's own, which has neither.
    published = get_settings().index_dir
    index_dir = ctx.work_dir / "ask_index"
    if (published / "manifest.json").exists():
        shutil.copytree(published, index_dir, dirs_exist_ok=True)
    else:
        index_dir = ctx.index_dir
        if not (index_dir / "manifest.json").exists():  # run alone (--only): build the index first
            from nztax_build.indexer import embed_and_index

            _progress("building the index")
            embed_and_index(settings, force=True, chunks_dir=ctx.chunks_dir, index_dir=index_dir)
    # What `nztax build` writes beside an index for a cold start (data files, regular expressions, bytecode).
    from nztax_build.indexer import compile_for_cold_start

    compile_for_cold_start(settings, index_dir)
    # Repeats of the same few questions reuse what the engine keeps by text (query vectors, readings);
    # new questions do not: a paraphrase of each answer unit, asked once, measures the engine on new text.
    distinct = _unit_paraphrases(settings)[:DISTINCT_QUESTIONS]
    sides = [Side("this checkout", settings.home / "function", index_dir)]
    notes: list[str] = []
    ref = settings.bench_baseline
    if ref:
        try:
            sides.append(checkout_and_build(settings.home, ref, ctx.work_dir, [settings.work_dir / "embeddings",
                                                                              get_settings().work_dir / "embeddings"],
                                            progress=_progress, index_from=settings.bench_baseline_index))
        except BaselineError as exc:
            notes = ["", f"(No side-by-side figures: {exc})"]
    runs: dict[str, list[dict]] = {side.label: [] for side in sides}
    try:
        for run in range(RUNS):
            # Alternate which side goes first, so neither always meets the machine in the same state.
            for side in (sides if run % 2 == 0 else sides[::-1]):
                _progress(f"run {run + 1} of {RUNS}: {side.label}")
                runs[side.label].append(_one_run(side, ctx, distinct))
    finally:
        for side in sides:
            remove(settings.home, side.tree)
    ours = runs[sides[0].label]
    ctx.facts.update(ask_p50_ms=statistics.median(r["http_p50"] for r in ours),
                     ask_cold_s=statistics.median(r["cold_s"] for r in ours))
    labels = [side.label for side in sides]
    lines = [
        f"Offline answers (no LLM), {len(QUESTIONS)} mixed questions (calculations, topics, declines, clarifications). "
        f"Each figure is the median of {RUNS} runs (their range in brackets); a run is one fresh process per "
        "measure: the engine in process, then a functions-framework process on a loopback port (cold start: "
        "process start to the first 200 for a question that needs retrieval; then warm POST /ask and "
        f"{LOAD_CLIENTS} concurrent clients). "
        + ("Each commit runs its own function on the index its own `nztax build` made (a git worktree of the "
           "older commit); the runs alternate between the two." if len(sides) > 1 else ""),
        "",
        "| measure | " + " | ".join(labels) + " | target |",
        "|---|" + "---|" * len(labels) + "---|",
    ]
    for key, label, fmt, target in ROWS:
        lines.append(f"| {label} | " + " | ".join(_cell([r[key] for r in runs[name]], fmt) for name in labels)
                     + f" | {target} |")
    return lines + notes


register("Ask latency and cold start", ask_latency, order=40)
