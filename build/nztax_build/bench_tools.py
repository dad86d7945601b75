"""Bench section: `nztax tool --batch` throughput (issue 2: 1,000 lines in under 5 s).

In: nothing but the installed CLI. Out: markdown lines with the wall time of one real
subprocess answering 1,000 mixed calculator requests, and the per-line rate.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time

from nztax_build.bench import BenchContext, register

BATCH_LINES = 1000
SEED = 20261121  # fixed so every run times the same requests


def _requests() -> str:
    rng = random.Random(SEED)
    frequencies = ["weekly", "fortnightly", "four_weekly", "monthly"]
    codes = ["M", "ME", "M SL", "ME SL", "S", "SH SL", "ND", "NSW"]
    years = ["2023-24", "2024-25", "2025-26", "2026-27"]
    makers = [
        lambda: ("calculate_paye", {"gross_pay": round(rng.uniform(0, 6000), 2), "pay_frequency": rng.choice(frequencies),
                                    "tax_code": rng.choice(codes), "tax_year": rng.choice(years), "kiwisaver_rate": 3.5}),
        lambda: ("calculate_income_tax", {"taxable_income": rng.randint(0, 300_000), "tax_year": rng.choice(years)}),
        lambda: ("calculate_take_home_pay", {"annual_salary": rng.randint(20_000, 250_000), "tax_code": rng.choice(["M", "ME SL"])}),
        lambda: ("calculate_ietc", {"annual_income": rng.randint(0, 80_000), "tax_year": rng.choice(years)}),
    ]
    lines = []
    for i in range(BATCH_LINES):
        tool, args = rng.choice(makers)()
        lines.append(json.dumps({"id": i, "tool": tool, "args": args}))
    return "\n".join(lines) + "\n"


def tool_batch_section(ctx: BenchContext) -> list[str]:
    payload = _requests()
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "nztax_build.cli", "tool", "--batch"], input=payload,
                          capture_output=True, text=True, check=True)
    seconds = time.perf_counter() - start
    answered = sum(1 for line in done.stdout.splitlines() if '"result"' in line)
    return [
        f"- `nztax tool --batch`, {BATCH_LINES} mixed calculator requests in one process (incl. start-up): "
        f"**{seconds:.2f} s** ({seconds / BATCH_LINES * 1000:.2f} ms per line), {answered} results.",
    ]


register("Calculator tool batch", tool_batch_section, order=10)
