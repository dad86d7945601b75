"""`nztax rules check`: is every figure of the rules data still stated on its page?

In: the rules directory and the crawl store (defaults from settings; `--rules-dir`, `--corpus` override).
Out: one line per figure that fails (figure, page, what the page says now) and a count on stderr, or
the whole report as JSON with `--json`; `--suggest` also prints `stated:` words proposed from the page
for each figure that has none. Exit code 0 when every figure passes, 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from dataclasses import asdict


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("action", choices=["check"], help="check: look for every figure on its page")
    parser.add_argument("--rules-dir", type=Path, help="rules directory (default: settings)")
    parser.add_argument("--corpus", type=Path, help="crawl store directory (default: corpus/)")
    parser.add_argument("--json", action="store_true", help="print every figure's result as JSON on stdout")
    parser.add_argument("--suggest", action="store_true", help="print proposed `stated:` words for unstated figures")


def run(args: argparse.Namespace) -> int:

    from nztax.rules import RulesError, load_rules
    from nztax.settings import get_settings

    from nztax_build import freshness

    settings = get_settings()
    try:
        book = load_rules(args.rules_dir or settings.rules_dir)
    except RulesError as exc:
        print(f"nztax rules: {exc}", file=sys.stderr)
        return 2
    corpus = args.corpus or Path(settings.corpus_dir)
    report = freshness.check_rules(book, corpus)
    if args.json:
        print(json.dumps({"passed": report.passed, "checks": [asdict(c) for c in report.checks]}, indent=2))
    for c in report.failures:
        print(c.line(), file=sys.stderr)
    if args.suggest:
        unstated = [c for c in report.failures if c.status == "unstated"]
        texts = freshness.page_texts(corpus, {c.page for c in unstated})
        for c in unstated:
            words = freshness.suggest_words(c.value, texts.get(c.page) or "")
            print(f"{c.year}  {c.path}: {json.dumps(words) if words else '# not printed on ' + c.page}")
    print(report.summary(), file=sys.stderr)
    return 0 if report.passed else 1
