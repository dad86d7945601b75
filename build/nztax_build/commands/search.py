"""`nztax search "QUERY" [--k 5] [--mode hybrid|bm25|dense] [--json] [--batch]`.

In: a query (or JSON lines `{"id", "query", "k"?, "mode"?, "source_type"?, "tax_year"?}` on stdin
with --batch). Out: ranked parent passages, `[{url, title, section, source_type, tax_year, score,
text}]` with --json, a readable list without; with --batch one `{"id", "hits"}` (or
`{"id", "error"}`) line per input line, in order. Exit 3 when the index is missing or mismatched.
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap

from nztax.embedders import EmbedderError
from nztax.index import IndexUnavailableError
from nztax.retrieval import MODES, SOURCE_TYPES

EXIT_BAD_INPUT = 2
EXIT_INDEX_UNAVAILABLE = 3
PREVIEW_CHARS = 300


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("query", nargs="?", help="what to search for (omit with --batch)")
    parser.add_argument("--k", type=int, default=5, help="number of passages (default 5)")
    parser.add_argument("--mode", choices=MODES, default="hybrid", help="ranking (default hybrid)")
    parser.add_argument("--source-type", action="append", choices=SOURCE_TYPES, dest="source_types",
                        help="only this source type (repeatable)")
    parser.add_argument("--tax-year", help="only passages for this tax year, e.g. 2026-27 (untagged kept)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--batch", action="store_true", help='JSON lines {"id","query"} on stdin')
    parser.add_argument("--index", help="index directory (default: settings.index_dir)")


def _print_readable(hits) -> None:
    if not hits:
        print("Nothing relevant found.")
        return
    for rank, hit in enumerate(hits, start=1):
        years = f" [{hit.tax_year}]" if hit.tax_year else ""
        print(f"{rank}. {hit.title} > {hit.section}{years}  ({hit.source_type}, score {hit.score:.4f})")
        print(f"   {hit.url}")
        preview = " ".join(hit.text.split())
        if len(preview) > PREVIEW_CHARS:
            preview = preview[:PREVIEW_CHARS].rsplit(" ", 1)[0] + " ..."
        print(textwrap.fill(preview, width=100, initial_indent="   ", subsequent_indent="   "))


def _batch(retriever, args) -> int:
    from nztax_build.commands.jsonlines import BatchError, run_batch

    def handle(request: dict) -> dict:
        query = request.get("query")
        if not isinstance(query, str) or not query.strip():
            raise BatchError("invalid_request", "'query' must be a non-empty string")
        k = request.get("k", args.k)
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise BatchError("invalid_request", "'k' must be a positive integer")
        source_type = request.get("source_type")
        try:
            hits = retriever.search(
                query,
                k=k,
                mode=request.get("mode", args.mode),
                source_types=[source_type] if isinstance(source_type, str) else (source_type or args.source_types),
                tax_year=request.get("tax_year", args.tax_year),
            )
        except ValueError as exc:
            raise BatchError("invalid_request", str(exc)) from None
        return {"hits": [h.to_json() for h in hits]}

    return run_batch(handle)


def run(args: argparse.Namespace) -> int:
    from nztax.retrieval import Retriever

    if not args.batch and not (args.query or "").strip():
        print("nztax search: give a QUERY, or --batch with JSON lines on stdin", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.k < 1:
        print("nztax search: --k must be at least 1", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        retriever = Retriever.load(args.index)
        if args.batch:
            return _batch(retriever, args)
        hits = retriever.search(args.query, k=args.k, mode=args.mode, source_types=args.source_types,
                                tax_year=args.tax_year)
    except (IndexUnavailableError, EmbedderError) as exc:
        print(f"nztax search: {exc}", file=sys.stderr)
        return EXIT_INDEX_UNAVAILABLE
    if args.json:
        print(json.dumps([h.to_json() for h in hits], ensure_ascii=False, indent=2))
    else:
        _print_readable(hits)
    return 0
