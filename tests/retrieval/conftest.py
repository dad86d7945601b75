"""Shared fixtures: the hand-written 21-section fixture corpus indexed once per session."""

from __future__ import annotations

import dataclasses
import hashlib
from pathlib import Path

import numpy as np
import pytest

from nztax.settings import get_settings

FIXTURE_CHUNKS = Path(__file__).resolve().parents[1] / "fixtures" / "chunks_small"


class HashEmbedder:
    """A cheap deterministic embedder for tests of the build machinery (not of ranking quality)."""

    id = "test-hash-16"
    dimensions = 16
    relevance_floor = 0.0
    dense_only_floor = 0.0

    def __init__(self):
        self.embedded: list[str] = []

    def _vector(self, text: str) -> np.ndarray:
        seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "little")
        v = np.random.default_rng(seed).standard_normal(self.dimensions).astype(np.float32)
        return v / np.linalg.norm(v)

    def embed_documents(self, texts):
        self.embedded.extend(texts)
        return np.stack([self._vector(t) for t in texts])

    def embed_query(self, text):
        return self._vector(text)


def make_settings(tmp: Path, **overrides):
    base = dataclasses.replace(
        get_settings(), work_dir=tmp / "work", index_dir=tmp / "index", embedder="local",
        gemini_api_key=None, relevance_floor=None,
    )
    return dataclasses.replace(base, **overrides)


@pytest.fixture(scope="session")
def built_index(tmp_path_factory):
    """(settings, index_dir) of the fixture corpus indexed with the offline default embedder."""
    from nztax_build.indexer import embed_and_index

    tmp = tmp_path_factory.mktemp("fixture_index")
    settings = make_settings(tmp)
    embed_and_index(settings, force=True, chunks_dir=FIXTURE_CHUNKS)
    return settings, settings.index_dir


@pytest.fixture(scope="session")
def retriever(built_index):
    from nztax.retrieval import Retriever

    settings, index_dir = built_index
    return Retriever.load(index_dir, settings=settings)
