"""`nztax build`: run the build pipeline (parse, chunk, and the stages later issues add).

In: the crawl store and settings. Out: the stages' files under the work dir; progress on stderr.
`--only STAGE` runs one stage; `--force` runs stages even when their inputs are unchanged.
"""

from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--only", metavar="STAGE", help="run only this stage (e.g. parse, chunk)")
    parser.add_argument("--force", action="store_true", help="run stages even when their inputs are unchanged")


def run(args: argparse.Namespace) -> int:
    from nztax.settings import get_settings

    from ..pipeline import run_build

    return run_build(get_settings(), only=args.only, force=args.force)
