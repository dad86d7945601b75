"""Fixtures for the nightly pipeline tests (helpers live in pipeline_night.py)."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import pytest
from pipeline_night import Night

from nztax.settings import get_settings
from nztax_build import gates


@pytest.fixture
def settings():
    """Default knobs (10% shrink, 0 parse failures, 0.01 tolerance) regardless of the caller's env."""
    get_settings.cache_clear()
    base = get_settings()
    get_settings.cache_clear()
    return replace(base, gate_max_shrink=0.10, gate_max_parse_failures=0, gate_score_tolerance=0.01)


@pytest.fixture
def night(tmp_path) -> Night:
    return Night(tmp_path / "tonight").clean()


@pytest.fixture
def baseline_file(tmp_path, settings) -> Path:
    """The published build's metrics, produced the way the workflow does: gates on a clean night."""
    published = Night(tmp_path / "published").clean()
    report = gates.evaluate(gates.collect(published.inputs), None, settings)
    assert report.passed, report.table()
    path = tmp_path / "published-metrics.json"
    gates.write_baseline(report, path)
    return path


@pytest.fixture
def clean_env(monkeypatch):
    """No deploy or gate variables leak in from the developer's shell."""
    for name in list(os.environ):
        if name.startswith("NZTAX_") or name == "GITHUB_STEP_SUMMARY":
            monkeypatch.delenv(name, raising=False)
    get_settings.cache_clear()
    yield monkeypatch
    get_settings.cache_clear()
