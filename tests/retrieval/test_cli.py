"""`nztax search` and `nztax eval retrieval` as a user runs them (subprocess)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

NZTAX = [sys.executable, "-m", "nztax_build.cli"]
HERE = Path(__file__).resolve().parent


def run_cli(args, built_index, stdin=None, index_dir=None):
    settings, default_index = built_index
    env = {**os.environ, "NZTAX_EMBEDDER": "local", "NZTAX_WORK_DIR": str(settings.work_dir),
           "NZTAX_INDEX_DIR": str(index_dir or default_index), "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    env.pop("GEMINI_API_KEY", None)
    return subprocess.run(NZTAX + args, input=stdin, capture_output=True, text=True, env=env, timeout=120)


def test_search_json(built_index):
    result = run_cli(["search", "LC 15", "--k", "3", "--json"], built_index)
    assert result.returncode == 0, result.stderr
    hits = json.loads(result.stdout)
    assert 1 <= len(hits) <= 3
    assert set(hits[0]) == {"url", "title", "section", "source_type", "tax_year", "score", "text"}
    assert hits[0]["source_type"] == "legislation" and "244/365" in hits[0]["text"]


def test_search_readable_and_modes(built_index):
    result = run_cli(["search", "IR330", "--mode", "bm25"], built_index)
    assert result.returncode == 0 and result.stdout.startswith("1. Tax code declaration (IR330)")
    nothing = run_cli(["search", "best sourdough starter recipe"], built_index)
    assert nothing.returncode == 0 and "Nothing relevant" in nothing.stdout


def test_search_batch_keeps_order_and_reports_bad_lines(built_index):
    stdin = "\n".join([
        json.dumps({"id": "a", "query": "tax code ME"}),
        "{not json",
        json.dumps({"id": "c", "query": ""}),
        json.dumps({"id": "d", "query": "IR3 due", "k": 1, "mode": "bm25"}),
    ]) + "\n"
    result = run_cli(["search", "--batch"], built_index, stdin=stdin)
    assert result.returncode == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line["id"] for line in lines] == ["a", 2, "c", "d"]
    assert lines[0]["hits"][0]["title"] == "Tax codes for individuals"
    assert "error" in lines[1] and "error" in lines[2]
    assert len(lines[3]["hits"]) == 1


def test_missing_index_exits_3_with_a_message(built_index, tmp_path):
    result = run_cli(["search", "tax", "--json"], built_index, index_dir=tmp_path / "none")
    assert result.returncode == 3
    assert "nztax build" in result.stderr and "Traceback" not in result.stderr
    assert run_cli(["search"], built_index).returncode == 2


def test_eval_retrieval_writes_a_table(built_index, tmp_path):
    out = tmp_path / "retrieval.md"
    result = run_cli(["eval", "retrieval", "--golden", str(HERE / "golden_fixture.yaml"), "--out", str(out)],
                     built_index)
    assert result.returncode == 0, result.stderr
    report = out.read_text()
    assert "| mode | Hit@1 | Hit@5 | MRR |" in report
    for mode in ("bm25", "dense", "hybrid"):
        assert f"| {mode} |" in report
    scores = json.loads(out.with_suffix(".json").read_text())  # what the publish gates read
    assert set(scores) == {"bm25", "dense", "hybrid"}
    assert all(set(s) == {"hit@1", "hit@5", "mrr"} and 0 <= s["mrr"] <= 1 for s in scores.values())
    from nztax_build.gates import read_retrieval

    assert read_retrieval(out.with_suffix(".json"))["hybrid"]["hit@5"] == scores["hybrid"]["hit@5"]
    bad = tmp_path / "bad.yaml"
    bad.write_text("queries: 3\n")
    result = run_cli(["eval", "retrieval", "--golden", str(bad)], built_index)
    assert result.returncode == 2 and "queries" in result.stderr
