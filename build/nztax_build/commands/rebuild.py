"""`nztax rebuild`: after editing a rules file, regenerate only what depends on the rules.

In: the rules YAML, the existing index and FAQ answer cache. Out: re-answered figure-bearing FAQ
answers, rules.json, calculator/tax-year/what-changed pages, a rebuilt and published site/, and a
list of the pages that changed (stdout). No crawl, no re-embedding. Exit 2 on an invalid rules file.
"""

from __future__ import annotations

import argparse
import json
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--no-publish", action="store_true", help="build into site.new/ and report, but leave site/ as it is")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")


def run(args: argparse.Namespace) -> int:
    from nztax.settings import get_settings

    from ..rebuild import RebuildError, rebuild

    def log(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    try:
        report = rebuild(get_settings(), log=log, publish_site=not args.no_publish)
    except RebuildError as exc:
        print(f"nztax rebuild: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(report.__dict__, indent=1))
        return 0
    print(f"rules version {report.rules_version}: {report.reanswered} FAQ answers re-answered, {report.from_cache} reused from the cache")
    print(f"generated sources changed ({len(report.source_pages)}):")
    for path in report.source_pages:
        print(f"  site_src/{path}")
    print(f"site pages changed ({len(report.site_pages)}):")
    for path in report.site_pages:
        print(f"  site/{path}")
    if report.site_other:
        print(f"other site files changed: {', '.join(report.site_other)}")
    print(f"done in {report.seconds:.1f}s")
    return 0
