"""Shared helpers of the /ask tests (a uniquely named module, so imports never hit another conftest)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIXTURE_CHUNKS = ROOT / "tests" / "fixtures" / "chunks_small"
MAIN = ROOT / "function" / "main.py"


def function_env(index_dir: Path, **extra: str) -> dict[str, str]:
    env = {"NZTAX_INDEX_DIR": str(index_dir), "NZTAX_EMBEDDER": "local", "NZTAX_RATE_LIMIT_PER_MINUTE": "1000",
           "NZTAX_ALLOWED_ORIGINS": "https://nztax.example", "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    env.update(extra)
    return env
