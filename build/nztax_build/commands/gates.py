"""`nztax gates`: check tonight's build against the publish gates.

In: the pipeline's output files (defaults from settings; each overridable) and `--baseline FILE`
(the last published build's metrics). Out: a pass/fail table on stderr (or JSON on stdout with
`--json`), a markdown summary appended to `--summary` or $GITHUB_STEP_SUMMARY, tonight's metrics
in `--write-baseline FILE` when the gates pass, and exit code 0 (pass), 1 (night stopped) or
2 (bad arguments / unreadable baseline).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--baseline", type=Path, help="metrics of the last published build (JSON)")
    parser.add_argument(
        "--write-baseline",
        type=Path,
        metavar="FILE",
        help="write tonight's metrics here when the gates pass (published with the site)",
    )
    parser.add_argument("--manifest", type=Path, help="corpus manifest (default: corpus/manifest.json)")
    parser.add_argument("--parse-report", type=Path, help="parse report (default: .work/state/parse.json)")
    parser.add_argument("--retrieval", type=Path, help="retrieval eval (default: .work/eval/retrieval.json)")
    parser.add_argument("--answers", type=Path, help="answer eval (default: .work/eval/answers.json)")
    calc = parser.add_mutually_exclusive_group()
    calc.add_argument(
        "--calculator-junit", type=Path, help="calculator tests JUnit XML (default: .work/reports/calculators.xml)"
    )
    calc.add_argument("--calculator-exit-code", type=int, help="pytest exit code of the calculator tests")
    parser.add_argument("--sources-report", type=Path,
                        help="the crawl's cited-address report (default: .work/reports/sources.json when present)")
    parser.add_argument("--rules-dir", type=Path, help="rules data for the figures gate (default: settings)")
    parser.add_argument(
        "--no-figures", action="store_true", help="leave out the figures gate (for a synthetic manifest with no real pages)"
    )
    parser.add_argument("--summary", type=Path, help="append the markdown summary here (default: $GITHUB_STEP_SUMMARY)")
    parser.add_argument("--json", action="store_true", help="print the results as JSON on stdout")


def run(args: argparse.Namespace) -> int:
    from nztax.settings import get_settings

    from nztax_build import gates

    settings = get_settings()
    inputs = gates.default_inputs(settings)
    for name in ("manifest", "parse_report", "retrieval", "answers", "calculator_junit", "sources_report"):
        value = getattr(args, name)
        if value is not None:
            setattr(inputs, name, value)
    if args.rules_dir is not None:
        inputs.rules_dir = args.rules_dir
    if args.no_figures:
        inputs.rules_dir = None
    if args.calculator_exit_code is not None:
        inputs.calculator_exit_code = args.calculator_exit_code
        inputs.calculator_junit = None

    if args.baseline is not None and not args.baseline.is_file():
        print(f"nztax gates: baseline {args.baseline} not found (omit --baseline on a first publish)", file=sys.stderr)
        return 2
    try:
        report = gates.run_gates(inputs, args.baseline, settings)
    except gates.GateInputError as exc:
        print(f"nztax gates: {exc}", file=sys.stderr)
        return 2

    if args.json:
        payload = {
            "passed": report.passed,
            "baseline_used": report.baseline_used,
            "gates": [{"name": r.name, "passed": r.passed, "detail": r.detail} for r in report.results],
            "metrics": report.metrics.to_baseline(),
        }
        print(json.dumps(payload, indent=2))
    print(report.table(), file=sys.stderr)

    summary = args.summary or (
        Path(os.environ["GITHUB_STEP_SUMMARY"]) if os.environ.get("GITHUB_STEP_SUMMARY") else None
    )
    if summary is not None:
        try:
            with summary.open("a", encoding="utf-8") as fh:
                fh.write(report.markdown() + "\n")
        except OSError as exc:
            print(f"nztax gates: could not write summary {summary}: {exc}", file=sys.stderr)

    if report.passed and args.write_baseline is not None:
        gates.write_baseline(report, args.write_baseline)
        print(f"metrics written: {args.write_baseline}", file=sys.stderr)
    return 0 if report.passed else 1
