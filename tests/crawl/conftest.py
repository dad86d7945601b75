"""Fixtures for crawler tests: a local mirror server, a fresh crawl store, fast crawl options."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from nztax_build.crawler import CrawlOptions, Crawler
from nztax_build.records import Source
from nztax_build.sources import load_sources
from nztax_build.store import CrawlStore

from .mirror import Mirror

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
SOURCES_SMALL = FIXTURES / "sources_small.yaml"
GONE_THRESHOLD = 2
TEST_AGENT = "nztax-crawler/0.1 (+https://example.test/nztax)"


@pytest.fixture
def mirror():
    server = Mirror().start()
    yield server
    server.stop()


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    return tmp_path / "corpus"


def fast_options(base_url: str, **overrides) -> CrawlOptions:
    values = dict(
        delay=0.0, timeout=0.4, user_agent=TEST_AGENT, max_bytes=200_000, retries=2,
        backoff=0.01, backoff_cap=0.05, retry_after_cap=10.0, max_redirects=5,
        base_url=base_url, respect_cadence=False,
    )
    values.update(overrides)
    return CrawlOptions(**values)


class Run:
    """One crawl of `sources` into `corpus`; remembers the sleeps the crawler asked for."""

    def __init__(self, corpus: Path, base_url: str, sources: list[Source], **overrides) -> None:
        self.sleeps: list[float] = []
        self.log = io.StringIO()
        self.store = CrawlStore(corpus, gone_threshold=GONE_THRESHOLD).load()
        crawler = Crawler(self.store, fast_options(base_url, **overrides), sleep=self.sleeps.append, log=self.log)
        try:
            self.totals = crawler.crawl(sources)
        finally:
            crawler.close()


@pytest.fixture
def crawl(corpus: Path, mirror: Mirror):
    def run(sources: list[Source], **overrides) -> Run:
        return Run(corpus, mirror.base_url, sources, **overrides)

    return run


@pytest.fixture
def small_sources() -> list[Source]:
    return load_sources(SOURCES_SMALL)


def fault_source(name: str, source_type: str = "ird_guidance") -> Source:
    # Cited by the title the mirror's fault pages carry, as a real source is cited by its page's title.
    return Source(url=f"https://www.ird.govt.nz/faults/{name}", source_type=source_type, title="Fault test page", topic="test")
