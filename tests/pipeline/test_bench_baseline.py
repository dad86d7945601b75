"""The bench's side-by-side figures: each the median of its runs, the older commit run from its own
worktree and environment, and a ref that cannot be checked out reported without leaving a worktree."""

from __future__ import annotations

import subprocess

import pytest

from nztax.settings import get_settings
from nztax_build import bench_ask, bench_baseline


def test_a_cell_is_the_median_of_the_runs_with_their_range():
    assert bench_ask._cell([1.31, 0.98, 1.02], "{:.2f}") == "1.02 (0.98–1.31)"
    assert bench_ask._cell([85.2, 85.4, 84.9], "{:.0f}") == "85"  # the runs round alike: no range


def test_a_side_runs_its_own_code_without_this_checkouts_paths(tmp_path, monkeypatch):
    monkeypatch.setenv("NZTAX_INDEX_DIR", "/somewhere/index")
    monkeypatch.setenv("NZTAX_LLM_MODEL", "some/model")
    monkeypatch.setenv("PYTHONPATH", "/elsewhere")
    env = bench_baseline.side_env(tmp_path / "function", tmp_path)
    assert env["PYTHONPATH"].split(":") == [str(tmp_path / "function"), str(tmp_path / "build")]
    assert env["NZTAX_HOME"] == str(tmp_path)
    assert "NZTAX_INDEX_DIR" not in env and "NZTAX_LLM_MODEL" not in env


def test_a_ref_that_does_not_exist_is_reported_and_leaves_no_worktree(tmp_path):
    home = get_settings().home
    with pytest.raises(bench_baseline.BaselineError, match="cannot check out"):
        bench_baseline.checkout_and_build(home, "no-such-ref-for-the-bench", tmp_path, progress=lambda _: None)
    listed = subprocess.run(["git", "-C", str(home), "worktree", "list"], capture_output=True, text=True).stdout
    assert str(tmp_path / "baseline_tree") not in listed
