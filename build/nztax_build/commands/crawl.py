"""`nztax crawl`: fetch the sources in sources.yaml into the crawl store.

In: sources.yaml (default <corpus>/sources.yaml), optional --base-url mirror, the corpus directory.
Out: corpus/raw/ and corpus/manifest.json updated; a line per URL and the totals on stderr.
Exit 0 when the crawl ran (individual failures keep their last good copy and are reported), 1 when
nothing attempted was fetched (every page failed, was damaged or was blocked, e.g. by a robots.txt
answering 5xx), 2 on bad arguments, an unreadable sources/manifest file or another crawl running.
The store is locked for the crawl; temporaries left by a killed crawl are removed first.
Every cited address found gone, moved or retitled (`source_check`) is listed on stderr and in
<work>/reports/sources.json, which the `sources` publish gate reads.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from urllib.parse import urlsplit
from datetime import datetime, timezone


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--sources", type=Path, help="sources file (default: <corpus>/sources.yaml)")
    parser.add_argument("--base-url", help="map every source URL's scheme and host onto this mirror, e.g. http://127.0.0.1:8000")
    parser.add_argument("--corpus", type=Path, help="crawl store directory (default: NZTAX_CORPUS_DIR, corpus/)")
    parser.add_argument("--all", action="store_true", help="fetch every source now, ignoring its recrawl cadence")
    parser.add_argument("--allow-shrink", action="store_true",
                        help="accept pages whose main content shrank below NZTAX_CRAWL_MIN_CONTENT_RATIO of the "
                             "stored copy (default: keep the stored copy and report the page as damaged)")


def run(args: argparse.Namespace) -> int:
    from nztax.settings import get_settings

    from ..crawler import CrawlOptions, Crawler
    from ..sources import SourcesError, load_sources
    from ..store import CrawlStore, StoreBusy, StoreError, locked

    settings = get_settings()
    corpus = args.corpus or settings.corpus_dir
    sources_path = args.sources or corpus / "sources.yaml"
    if args.base_url:
        parts = urlsplit(args.base_url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            print(f"nztax crawl: --base-url must be an absolute http(s) URL, got {args.base_url!r}", file=sys.stderr)
            return 2
    try:
        sources = load_sources(sources_path)
    except SourcesError as exc:
        print(f"nztax crawl: {exc}", file=sys.stderr)
        return 2
    try:
        with locked(corpus):
            store = CrawlStore(corpus, gone_threshold=settings.crawl_gone_threshold).load()
            stale = store.remove_stale_temporaries()
            if stale:
                print(f"removed {len(stale)} temporary file(s) left by an interrupted crawl", file=sys.stderr)
            options = CrawlOptions.from_settings(settings, base_url=args.base_url, respect_cadence=not args.all,
                                                 allow_shrink=args.allow_shrink)
            print(f"crawling {len(sources)} sources into {corpus}" + (f" via {args.base_url}" if args.base_url else ""),
                  file=sys.stderr)
            crawler = Crawler(store, options)
            try:
                totals = crawler.crawl(sources)
            finally:
                crawler.close()
    except (StoreError, StoreBusy) as exc:
        print(f"nztax crawl: {exc}", file=sys.stderr)
        return 2
    _report_sources(totals, Path(settings.work_dir) / "reports" / "sources.json")
    attempted = totals.sources - totals.skipped
    succeeded = totals.fetched + totals.not_modified
    if attempted and not succeeded:
        print(f"nztax crawl: nothing fetched ({totals.failed} failed, {totals.blocked} blocked by robots.txt, "
              f"{totals.gone} gone); the stored copies are unchanged", file=sys.stderr)
        return 1
    return 0


def _report_sources(totals, path: Path) -> None:

    from ..source_check import write_report

    checked = totals.sources - totals.skipped - totals.blocked
    write_report(path, totals.problems, checked, datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"))
    for problem in totals.problems:
        print(f"source {problem.kind}: {problem.url}  {problem.detail}", file=sys.stderr)
    if totals.problems:
        print(f"{len(totals.problems)} cited address(es) gone, moved or retitled (listed in {path}); "
              "the sources gate will stop the night", file=sys.stderr)
