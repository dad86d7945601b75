"""Does a built index answer? Run in a fresh process before the index is published.

In: an index directory (`python -m nztax_build.index_check <dir>`). Out: exit 0 when the engine,
loaded from that directory alone, answers every question of `CHECKS` offline as expected (a
calculation with its calculator, a topic with its sources); otherwise exit 1 and one line per
failure on stderr.

Why a fresh process: the publish step used to read only `manifest.json`, so an index with half its
`dense.faiss` or `chunks.json` was published and then every question failed. Loading the files the
way the function does, in a process that has loaded nothing before, is the only test that counts.
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

# How long the fresh process may take to load the engine and answer (seconds).
CHECK_TIMEOUT_S = 600


@dataclass(frozen=True)
class Check:
    question: str
    needs_tool: bool  # a calculation: answered by a calculator
    needs_sources: bool  # a topic: answered from the index with sources


CHECKS = (
    Check("How much tax do I pay on $65,000 a year?", needs_tool=True, needs_sources=False),
    Check("What is the ACC earners' levy rate?", needs_tool=False, needs_sources=True),
    Check("What is PAYE?", needs_tool=False, needs_sources=True),
)


def problems(index_dir: Path) -> list[str]:
    """In this process: load the engine from `index_dir` and answer `CHECKS`; what went wrong."""
    os.environ["NZTAX_INDEX_DIR"] = str(index_dir)
    os.environ.pop("NZTAX_LLM_MODEL", None)
    from nztax.engine import Engine
    from nztax.settings import get_settings

    get_settings.cache_clear()
    try:
        engine = Engine.load()
    except Exception as exc:  # any failure to load is the finding
        return [f"the engine does not load from {index_dir}: {type(exc).__name__}: {exc}"[:500]]
    found = []
    for check in CHECKS:
        try:
            result = engine.answer(check.question, use_faq=False, mode="offline")
        except Exception as exc:
            found.append(f"{check.question!r}: {type(exc).__name__}: {exc}"[:500])
            continue
        if result.status != "answered" or not result.answer.strip():
            found.append(f"{check.question!r}: not answered (status {result.status!r})")
        elif check.needs_tool and not result.tools:
            found.append(f"{check.question!r}: answered without its calculator")
        elif check.needs_sources and not result.citations:
            found.append(f"{check.question!r}: answered without sources from the index")
    return found


def check_in_fresh_process(index_dir: Path) -> list[str]:
    """Run `problems` in a new Python process (the caller's imports and caches play no part)."""
    env = {k: v for k, v in os.environ.items() if k not in ("NZTAX_LLM_MODEL", "NZTAX_LLM_API_BASE")}
    try:
        done = subprocess.run([sys.executable, "-m", "nztax_build.index_check", str(index_dir)], env=env,
                              capture_output=True, text=True, timeout=CHECK_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return [f"answering the check questions from {index_dir} took over {CHECK_TIMEOUT_S} s"]
    if done.returncode == 0:
        return []
    lines = [line for line in done.stderr.splitlines() if line.startswith("index check: ")]
    return [line.removeprefix("index check: ") for line in lines] or [
        f"the check process exited {done.returncode}: {done.stderr.strip()[-500:]}"]


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m nztax_build.index_check <index dir>", file=sys.stderr)
        return 2
    found = problems(Path(args[0]))
    for line in found:
        print(f"index check: {line}", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
