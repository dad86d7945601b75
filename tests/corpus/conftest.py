"""Shared helpers for the bundled-corpus tests: where the snapshot lives and its authored sources."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO / "corpus"
SNAPSHOT_SRC = CORPUS / "snapshot_src"


@pytest.fixture(scope="session")
def snapshot_sources():
    from nztax_build.snapshot import load_sources

    return load_sources(SNAPSHOT_SRC)
