"""Shared test set-up: offline-safe environment and a fixed clock."""

from __future__ import annotations

import datetime as dt
import os

import pytest

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")


@pytest.fixture
def clock(monkeypatch):
    """Set today's date for the calculators: `clock(dt.date(2026, 11, 21))`."""
    import nztax.rules

    def set_today(day: dt.date) -> None:
        monkeypatch.setattr(nztax.rules, "CLOCK", lambda: day)

    return set_today
