"""Every tuning knob and path in one place, read from environment variables.

In: the process environment. Out: a frozen `Settings` value (`get_settings()`).
Tax figures never live here: they are in `nztax/rules/*.yaml`.

| variable | default | meaning |
|---|---|---|
| NZTAX_HOME | the repository root | base for the relative paths below |
| NZTAX_CORPUS_DIR | corpus | crawl store: sources.yaml, raw/, manifest.json |
| NZTAX_INDEX_DIR | index | built index (dense + BM25 + chunks + manifest) |
| NZTAX_WORK_DIR | .work | build intermediates (documents, chunks, embedding cache) |
| NZTAX_SITE_SRC | site_src | mkdocs docs_dir |
| NZTAX_RULES_DIR | nztax/rules | per-year rules YAML |
| NZTAX_EMBEDDER | auto | `auto` (gemini when GEMINI_API_KEY is set, else local), `local`, `gemini` |
| GEMINI_API_KEY | unset | enables Gemini embeddings (and is read by litellm for gemini/ models) |
| NZTAX_GEMINI_BASE_URL | unset | override the Gemini endpoint (tests use a local fake) |
| NZTAX_LLM_MODEL | unset | litellm model string, e.g. gemini/gemini-2.5-flash; unset = offline answers |
| NZTAX_LLM_API_BASE | unset | litellm api_base (tests point it at a fake server on 127.0.0.1) |
| NZTAX_LLM_TIMEOUT | 20 | seconds per LLM call |
| NZTAX_LLM_MAX_RETRIES | 1 | litellm retries per call |
| NZTAX_LLM_MAX_HOPS | 3 | tool-calling hops before a forced final answer |
| NZTAX_RRF_K | 60 | reciprocal rank fusion constant |
| NZTAX_RRF_WEIGHT_BM25 | 1.0 | weight of the BM25 ranking in fusion |
| NZTAX_RRF_WEIGHT_DENSE | 1.0 | weight of the dense ranking in fusion |
| NZTAX_ALLOWED_ORIGINS | http://127.0.0.1:8000,http://localhost:8000 | CORS allow-list for /ask |
| NZTAX_RATE_LIMIT_PER_MINUTE | 30 | per-instance, per-client requests per minute for /ask |
| NZTAX_ASK_URL | http://127.0.0.1:8080/ | where the site's Ask box posts |
| NZTAX_CRAWL_DELAY | 1.0 | minimum seconds between requests to one host |
| NZTAX_CRAWL_TIMEOUT | 20 | seconds per HTTP request |
| NZTAX_USER_AGENT | nztax-crawler/0.1 (+https://github.com/nztax/nztax) | crawler User-Agent |
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

# function/nztax/settings.py -> the repository root is three levels up.
_PACKAGE_DIR = Path(__file__).resolve().parent
_DEFAULT_HOME = _PACKAGE_DIR.parents[1]


def _env(name: str, default: str) -> str:
    value = os.environ.get(name)
    return default if value is None or value == "" else value


def _path(name: str, default: str, home: Path) -> Path:
    p = Path(_env(name, default))
    return p if p.is_absolute() else home / p


@dataclass(frozen=True)
class Settings:
    home: Path
    corpus_dir: Path
    index_dir: Path
    work_dir: Path
    site_src: Path
    rules_dir: Path
    embedder: str
    gemini_api_key: str | None
    gemini_base_url: str | None
    llm_model: str | None
    llm_api_base: str | None
    llm_timeout: float
    llm_max_retries: int
    llm_max_hops: int
    rrf_k: int
    rrf_weight_bm25: float
    rrf_weight_dense: float
    allowed_origins: tuple[str, ...]
    rate_limit_per_minute: int
    ask_url: str
    crawl_delay: float
    crawl_timeout: float
    user_agent: str
    extra: dict = field(default_factory=dict)


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """Read the environment once per process (tests call `get_settings.cache_clear()`)."""
    home = Path(_env("NZTAX_HOME", str(_DEFAULT_HOME))).resolve()
    rules_default = str(_PACKAGE_DIR / "rules")
    return Settings(
        home=home,
        corpus_dir=_path("NZTAX_CORPUS_DIR", "corpus", home),
        index_dir=_path("NZTAX_INDEX_DIR", "index", home),
        work_dir=_path("NZTAX_WORK_DIR", ".work", home),
        site_src=_path("NZTAX_SITE_SRC", "site_src", home),
        rules_dir=_path("NZTAX_RULES_DIR", rules_default, home),
        embedder=_env("NZTAX_EMBEDDER", "auto"),
        gemini_api_key=os.environ.get("GEMINI_API_KEY") or None,
        gemini_base_url=os.environ.get("NZTAX_GEMINI_BASE_URL") or None,
        llm_model=os.environ.get("NZTAX_LLM_MODEL") or None,
        llm_api_base=os.environ.get("NZTAX_LLM_API_BASE") or None,
        llm_timeout=float(_env("NZTAX_LLM_TIMEOUT", "20")),
        llm_max_retries=int(_env("NZTAX_LLM_MAX_RETRIES", "1")),
        llm_max_hops=int(_env("NZTAX_LLM_MAX_HOPS", "3")),
        rrf_k=int(_env("NZTAX_RRF_K", "60")),
        rrf_weight_bm25=float(_env("NZTAX_RRF_WEIGHT_BM25", "1.0")),
        rrf_weight_dense=float(_env("NZTAX_RRF_WEIGHT_DENSE", "1.0")),
        allowed_origins=tuple(
            o.strip()
            for o in _env("NZTAX_ALLOWED_ORIGINS", "http://127.0.0.1:8000,http://localhost:8000").split(",")
            if o.strip()
        ),
        rate_limit_per_minute=int(_env("NZTAX_RATE_LIMIT_PER_MINUTE", "30")),
        ask_url=_env("NZTAX_ASK_URL", "http://127.0.0.1:8080/"),
        crawl_delay=float(_env("NZTAX_CRAWL_DELAY", "1.0")),
        crawl_timeout=float(_env("NZTAX_CRAWL_TIMEOUT", "20")),
        user_agent=_env("NZTAX_USER_AGENT", "nztax-crawler/0.1 (+https://github.com/nztax/nztax)"),
    )
