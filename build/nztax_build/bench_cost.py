"""Bench section "Question cost": what long adversarial questions cost against normal ones.

In: the bench's freshly built index. Out: markdown lines: for each normal and adversarial
question, the CPU one answer takes (thread time, median of the repeats) through `AskService`
in a fresh process, for this checkout and for `NZTAX_BENCH_BASELINE` side by side, and each
adversarial question's cost as a multiple of a normal one. The section fails when the worst
adversarial question costs more than `TARGET_RATIO` times a normal one (issue 42).

Thread CPU time rather than wall time: the figure is the work a question makes, which a busy
machine does not change much.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

from nztax_build.bench import BenchContext, register
from nztax_build.bench_ask import QUESTIONS

TARGET_RATIO = 10.0
ADVERSARIAL = {
    "repeated amounts (85k × 250)": " ".join(["85k"] * 250)[:999],
    "repeated dollar amounts ($85,000 × 125)": " ".join(["$85,000"] * 125)[:999],
    "30 amounts (the figure cap) among words": " ".join(["85k and then something else happened at work"] * 30)[:999],
    "amounts with periods": ("$85k a year, $500 a week. " * 40)[:999],
    "short sentences with amounts": ". ".join(["I earn $85k"] * 90)[:999],
    "repeated periods": ("a week per month " * 70)[:999],
    "repeated words": ("salary " * 150)[:999],
}
# Run in a fresh interpreter with the measured function's directory first on sys.path.
_WORKER = """
import json, statistics, sys, time
sys.path.insert(0, sys.argv[1])
from nztax.api import AskService
questions, repeats = json.loads(sys.stdin.read()), int(sys.argv[2])
service = AskService()
def ask(q):
    body = json.dumps({"question": q}).encode()
    return service.handle("POST", "/", {"Content-Type": "application/json"}, body)
for q in questions:
    ask(q)
out = {}
for q in questions:
    times = []
    for _ in range(repeats):
        started = time.thread_time()
        status = ask(q).status
        times.append((time.thread_time() - started) * 1000)
    out[q] = [statistics.median(times), status]
print(json.dumps(out))
"""


def _progress(message: str) -> None:
    print(f"[bench] cost: {message}", file=sys.stderr, flush=True)


def measure(ctx: BenchContext, function_dir: Path, questions: list[str], repeats: int) -> dict[str, list]:
    env = {k: v for k, v in os.environ.items() if k not in ("NZTAX_LLM_MODEL", "NZTAX_LLM_API_BASE")}
    env.update(NZTAX_INDEX_DIR=str(ctx.index_dir), NZTAX_EMBEDDER=ctx.settings.embedder,
               NZTAX_RATE_LIMIT_PER_MINUTE="0", LITELLM_LOCAL_MODEL_COST_MAP="True")
    done = subprocess.run([sys.executable, "-c", _WORKER, str(function_dir), str(repeats)], input=json.dumps(questions),
                          capture_output=True, text=True, env=env, timeout=1800)
    if done.returncode != 0:
        raise RuntimeError(f"measuring {function_dir} failed: {done.stderr.strip()[-400:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def question_cost(ctx: BenchContext) -> list[str]:
    if not (ctx.index_dir / "manifest.json").exists():  # run alone (--only): build the index first
        from nztax_build.indexer import embed_and_index

        _progress("building the index")
        embed_and_index(ctx.settings, force=True, chunks_dir=ctx.chunks_dir, index_dir=ctx.index_dir)
    questions = [*QUESTIONS, *ADVERSARIAL.values()]
    repeats = max(3, min(ctx.repeats, 7))
    _progress("this checkout")
    now = measure(ctx, ctx.settings.home / "function", questions, repeats)
    before, ref = None, ctx.settings.bench_baseline
    baseline = ctx.work_dir / "baseline" / "function"
    if ref and not baseline.is_dir():
        archive = subprocess.run(["git", "-C", str(ctx.settings.home), "archive", ref, "function"], capture_output=True, timeout=60)
        if archive.returncode == 0:
            baseline.parent.mkdir(parents=True, exist_ok=True)
            subprocess.run(["tar", "-x", "-C", str(baseline.parent)], input=archive.stdout, check=True, timeout=60)
    if baseline.is_dir():
        _progress(f"the function at {ref}")
        before = measure(ctx, baseline, questions, repeats)
    normal_now = statistics.median(now[q][0] for q in QUESTIONS)
    normal_before = statistics.median(before[q][0] for q in QUESTIONS) if before else None
    head = f"| question | characters | CPU ms at `{ref}` | CPU ms now | HTTP status now | × a normal question now |" if before else \
        "| question | characters | CPU ms now | HTTP status now | × a normal question now |"
    lines = [f"CPU (thread time) of one answer through `AskService`, median of {repeats} repeats, in a fresh process; "
             f"'normal' is the median of the {len(QUESTIONS)} questions of the ask-latency section.", "",
             head, "|" + "---|" * (head.count("|") - 1)]
    rows = [("normal (median of the mixed set)", None, normal_before, normal_now, 200)]
    rows += [(name, len(q), before[q][0] if before else None, now[q][0], now[q][1]) for name, q in ADVERSARIAL.items()]
    worst = 0.0
    for name, chars, was, cost, status in rows:
        ratio = cost / normal_now
        if chars is not None:
            worst = max(worst, ratio)
        cells = [name, "" if chars is None else str(chars)] + ([f"{was:.1f}"] if before else []) + \
            [f"{cost:.1f}", str(status), f"{ratio:.1f}"]
        lines.append("| " + " | ".join(cells) + " |")
    if before:
        worst_before = max(before[q][0] for q in ADVERSARIAL.values()) / normal_before
        lines += ["", f"Worst adversarial question: {worst:.1f}× a normal one now (target ≤ {TARGET_RATIO:g}×); "
                      f"{worst_before:.1f}× at `{ref}`."]
    else:
        lines += ["", f"Worst adversarial question: {worst:.1f}× a normal one (target ≤ {TARGET_RATIO:g}×)."]
    if worst > TARGET_RATIO:
        raise AssertionError(f"the worst adversarial question costs {worst:.1f}x a normal one (target ≤ {TARGET_RATIO:g}x)")
    return lines


register("Question cost", question_cost, order=45)
