"""The `nztax` console script: a thin dispatcher over `nztax_build.commands.<name>`.

Each subcommand lives in its own module and is imported only when it runs, so `nztax tool`
does not pay for mkdocs, httpx or litellm imports.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

# name -> one-line help; the module `nztax_build.commands.<name>` implements it.
COMMANDS = {
    "tool": "run a tax calculator tool and print its JSON result",
    "crawl": "fetch the in-scope sources into corpus/ (polite, resumable)",
    "build": "parse, chunk, embed and index the corpus; answer the FAQ; render pages",
    "search": "search the index (hybrid, bm25 or dense)",
    "ask": "answer a question with the engine behind POST /ask",
    "eval": "evaluate retrieval or answers against the golden sets",
    "serve": "serve the built site and the /ask function on loopback",
    "rebuild": "regenerate only what depends on the rules data",
    "bench": "measure build, load and query speed and memory",
    "deploy": "deploy the function and the static site (DRY_RUN prints the commands)",
    "snapshot": "regenerate the bundled offline corpus from corpus/snapshot_src",
    "gates": "check a build against the publish gates",
    "rules": "check that every figure of the rules data is still stated on its page",
}


def _module(name: str):
    return importlib.import_module(f"nztax_build.commands.{name.replace('-', '_')}")


def build_parser(argv: list[str]) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="nztax",
        description="New Zealand personal income tax: calculators, retrieval, answers and the static site.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    # Only the requested subcommand's module is imported; the others get a help line.
    wanted = next((a for a in argv if not a.startswith("-")), None)
    for name, help_text in COMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        if name == wanted:
            try:
                mod = _module(name)
            except ModuleNotFoundError as exc:
                if exc.name and exc.name.startswith("nztax_build.commands"):
                    p.set_defaults(_missing=name)
                    continue
                raise
            mod.add_arguments(p)
            p.set_defaults(_run=mod.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    argv = sys.argv[1:] if argv is None else argv
    args = build_parser(argv).parse_args(argv)
    if getattr(args, "_missing", None):
        print(f"nztax {args._missing}: not available in this build", file=sys.stderr)
        return 2
    try:
        return int(args._run(args) or 0)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
