"""`make bench`'s "LLM mode overhead (fake model)" section: each answer's time, model calls, hops and
tokens against the fake OpenAI-compatible server (no network)."""

from __future__ import annotations

from pathlib import Path

from nztax_build import bench_llm
from nztax_build.bench import BenchContext

FIXTURE_CHUNKS = Path(__file__).resolve().parents[1] / "fixtures" / "chunks_small"


def test_the_llm_section_reports_time_calls_hops_and_tokens_per_answer(engine_settings, monkeypatch):
    monkeypatch.setattr(bench_llm, "REPEATS", 1)
    ctx = BenchContext(settings=engine_settings, chunks_dir=FIXTURE_CHUNKS, work_dir=engine_settings.work_dir,
                       index_dir=engine_settings.index_dir, queries=[], repeats=1)
    lines = bench_llm.llm_overhead(ctx)
    rows = {cells[0]: cells[1:] for cells in ([c.strip() for c in line.strip("|").split("|")]
                                              for line in lines if line.startswith("| ") and "---" not in line)}
    assert set(rows) == {"question", "calculation", "fact, one search hop", "would be asked back offline"}
    for name in ("calculation", "fact, one search hop", "would be asked back offline"):
        offline_ms, llm_ms, _, calls, hops, prompt, completion = rows[name]
        assert float(llm_ms) > 0 and int(calls) >= 2 and int(prompt) > 0 and int(completion) > 0, (name, rows[name])
    assert rows["fact, one search hop"][4] == "1" and rows["calculation"][4] == "0"
