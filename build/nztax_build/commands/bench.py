"""`nztax bench`: index build, load, query latency and memory figures -> docs/benchmarks.md.

The sections live in `nztax_build.bench` (a registry other parts add to); this module parses flags.
"""

from __future__ import annotations

import argparse
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", help="markdown file to write (default docs/benchmarks.md)")
    parser.add_argument("--chunks", help="chunks directory (default .work/chunks, else the test fixture)")
    parser.add_argument("--repeats", type=int, default=20, help="query repeats per mode (default 20)")
    parser.add_argument("--only", action="append", metavar="SECTION", help="run only this section (repeatable)")


def run(args: argparse.Namespace) -> int:
    from nztax_build import bench

    if args.repeats < 1:
        print("nztax bench: --repeats must be at least 1", file=sys.stderr)
        return 2
    return bench.run(args)
