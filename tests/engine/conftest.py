"""Engine test fixtures: the hand-written fixture corpus indexed once per session, and an Engine on it."""

from __future__ import annotations

import dataclasses
import datetime as dt
from pathlib import Path

import pytest

from nztax.settings import get_settings

FIXTURE_CHUNKS = Path(__file__).resolve().parents[1] / "fixtures" / "chunks_small"
# The fixture corpus and nz_tax_facts.md were written for this date (tax year 2026-27).
TODAY = dt.date(2026, 11, 21)


@pytest.fixture(autouse=True)
def _fixed_day(monkeypatch):
    import nztax.rules

    monkeypatch.setattr(nztax.rules, "CLOCK", lambda: TODAY)


@pytest.fixture(scope="session")
def engine_settings(tmp_path_factory):
    from nztax_build.indexer import embed_and_index

    tmp = tmp_path_factory.mktemp("engine_index")
    settings = dataclasses.replace(get_settings(), work_dir=tmp / "work", index_dir=tmp / "index", embedder="local",
                                   gemini_api_key=None, relevance_floor=None, llm_model=None, llm_api_base=None)
    embed_and_index(settings, force=True, chunks_dir=FIXTURE_CHUNKS)
    return settings


@pytest.fixture(scope="session")
def engine(engine_settings):
    from nztax.engine import Engine

    return Engine.create(engine_settings)


@pytest.fixture(scope="module")
def fake():
    """The fake OpenAI-compatible server on 127.0.0.1 (tests/engine/fake_openai.py), one per module."""
    from fake_openai import FakeOpenAI

    server = FakeOpenAI()
    yield server
    server.close()



@pytest.fixture(scope="module")
def bank():
    """The answer units as shipped (data/units/), read once per test module."""
    from nztax.units import UnitBank

    return UnitBank.load(get_settings().units_dir)
