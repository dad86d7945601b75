"""`nztax build`: run the build pipeline (parse, chunk, and the stages later issues add).

In: the crawl store and settings. Out: the stages' files under the work dir; progress on stderr.
`--only STAGE` runs one stage; `--force` runs stages even when their inputs are unchanged.
"""

from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--only", metavar="STAGE", help="run only this stage (e.g. parse, chunk)")
    parser.add_argument("--force", action="store_true", help="run stages even when their inputs are unchanged")
    parser.add_argument("--allow-shrink", action="store_true",
                        help="publish an index with far fewer chunks or FAQ answers than the live one "
                             "(default: refuse a fall of more than NZTAX_PUBLISH_MAX_SHRINK)")


def run(args: argparse.Namespace) -> int:
    from nztax.settings import get_settings

    from ..pipeline import run_build

    return run_build(get_settings(), only=args.only, force=args.force, allow_shrink=args.allow_shrink)
