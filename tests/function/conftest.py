"""/ask test fixtures: the fixture corpus indexed once, and the environment pointing at it."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import pytest

from nztax.settings import get_settings

from ask_helpers import FIXTURE_CHUNKS, MAIN, function_env


@pytest.fixture(scope="session")
def ask_index(tmp_path_factory) -> Path:
    from nztax_build.indexer import embed_and_index

    tmp = tmp_path_factory.mktemp("ask_index")
    settings = dataclasses.replace(get_settings(), work_dir=tmp / "work", index_dir=tmp / "index", embedder="local",
                                   gemini_api_key=None, relevance_floor=None)
    embed_and_index(settings, force=True, chunks_dir=FIXTURE_CHUNKS)
    return settings.index_dir


@pytest.fixture
def make_client(monkeypatch, ask_index):
    """make_client(**env) -> a Flask test client of function/main.py with that environment."""
    from functions_framework import create_app

    from nztax.engine import Engine

    def make(index_dir: Path | None = None, **extra):
        for name in ("GEMINI_API_KEY", "NZTAX_LLM_MODEL", "NZTAX_LLM_API_BASE"):
            monkeypatch.delenv(name, raising=False)
        for key, value in function_env(index_dir or ask_index, **extra).items():
            monkeypatch.setenv(key, value)
        get_settings.cache_clear()
        Engine.reset()
        sys.modules.pop("main", None)
        return create_app(target="ask", source=str(MAIN)).test_client()

    yield make
    get_settings.cache_clear()
    Engine.reset()
