"""`nztax ask "QUESTION" [--tax-year 2026-27] [--json]` and `nztax ask --batch`.

In: a question (or JSON lines `{"id", "question", "history"?, "tax_year"?}` on stdin with --batch).
Out: with --json, exactly the POST /ask JSON; without it, the answer as readable text; with
--batch, one `{"id", "result"}` or `{"id", "error"}` line per input line, in order.
Exit codes: 0 answered (any status), 2 bad input, 3 index or rules unavailable.
"""

from __future__ import annotations

import argparse
import json
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("question", nargs="?", help="the question, in quotes")
    parser.add_argument("--tax-year", help='tax year "YYYY-YY" (default: the year the question names, else the current one)')
    parser.add_argument("--json", action="store_true", help="print the POST /ask JSON")
    parser.add_argument("--batch", action="store_true",
                        help='read JSON lines {"id", "question", "history"?, "tax_year"?} on stdin; write {"id", "result"} lines')
    parser.add_argument("--offline", action="store_true", help="answer without the LLM even when NZTAX_LLM_MODEL is set")
    parser.add_argument("--no-faq", action="store_true", help="skip the precomputed FAQ answers")
    parser.add_argument("--index", help="index directory (default: settings.index_dir)")
    parser.add_argument("--explain", action="store_true",
                        help="also print the trace: the question frame and the decision rows that fired")


def _dump(obj) -> str:
    return json.dumps(obj, ensure_ascii=False)


def _error(code: str, message: str) -> dict:
    return {"error": {"code": code, "message": message}}


def _engine(args):
    from nztax.engine import Engine

    if args.index:
        return Engine.create(index_dir=args.index)
    return Engine.load()


def run(args: argparse.Namespace) -> int:
    from nztax.faq_index import FaqError
    from nztax.index import IndexUnavailableError
    from nztax.rules import RulesError

    if not args.batch and not (args.question or "").strip():
        print(_dump(_error("missing_question", 'give a question in quotes, e.g. nztax ask "How much tax on $60,000?"')))
        return 2
    try:
        engine = _engine(args)
    except (IndexUnavailableError, FaqError) as exc:
        print(_dump(_error("index_unavailable", str(exc))), file=sys.stderr)  # the message says how to build it
        return 3
    except RulesError as exc:
        print(_dump(_error("rules_unavailable", str(exc))), file=sys.stderr)
        return 3
    mode = "offline" if args.offline else None
    if args.batch:
        return _run_batch(engine, mode, not args.no_faq)
    from nztax.api import MAX_QUESTION_CHARS
    from nztax.engine import UnknownTaxYear

    if len(args.question) > MAX_QUESTION_CHARS:
        print(_dump(_error("question_too_long", f"the question is longer than {MAX_QUESTION_CHARS} characters")))
        return 2
    try:
        result = engine.answer(args.question, tax_year=args.tax_year, use_faq=not args.no_faq, mode=mode)
    except UnknownTaxYear as exc:
        print(_dump(_error("bad_tax_year", str(exc))))
        return 2
    if args.json:
        print(json.dumps(result.to_json(include_trace=args.explain), indent=2, ensure_ascii=False))
    else:
        print(readable(result.to_json()))
        if args.explain:
            print("\n" + explained(result.trace))
    return 0


def explained(trace: dict | None) -> str:
    """The trace as text: what the frame read, and the rows that decided."""
    if not trace:
        return "trace: none (no understanding ran)"
    f = trace["frame"]
    lines = ["Frame:",
             f"  asks: {f['asks']} ({f['asks_sure']:.2f}) in {f['asking']}",
             f"  scope: {f['scope']} ({f['scope_sure']:.2f})",
             f"  tax year: {f['tax_year'] or '-'}" + (f" (from {f['year_text']!r})" if f.get("year_text") else ""),
             f"  conditions: {', '.join(f['conditions']) or '-'}"]
    for a in f["amounts"]:
        period = f" {a['period']}" if a["period"] else ""
        lines.append(f"  amount {a['text']!r}{period}: {a['kind']} ({a['kind_sure']:.2f}), owner {a['owner']} "
                     f"({a['owner_sure']:.2f})")
    steps = f" (decide: {', '.join(trace['steps'])})" if trace.get("steps") else ""
    lines.append(f"Decision: proposed {trace['proposed']}{steps} -> rows {', '.join(trace['rows'])} -> {trace['action']}")
    lines += [f"  note: {n}" for n in trace["notes"]]
    return "\n".join(lines)


def readable(result: dict) -> str:
    lines = [result["answer"], ""]
    if result["citations"]:
        lines.append("Sources:")
        for c in result["citations"]:
            section = f" ({c['section']})" if c.get("section") else ""
            lines.append(f"  - {c['title']}{section}: {c['url']}")
        lines.append("")
    if result["tools"]:
        lines.append("Calculators used: " + ", ".join(t["name"] for t in result["tools"]))
    lines.append(f"[{result['status']} · tax year {result['tax_year']} · {result['source']} · {result['mode']} · "
                 f"{result['latency_ms']} ms]")
    lines.append(result["disclaimer"])
    if result["next_actions"]:
        lines.append("You could also ask: " + " | ".join(result["next_actions"]))
    return "\n".join(lines)


def _run_batch(engine, mode: str | None, use_faq: bool) -> int:
    from nztax.api import RequestError, parse_request
    from nztax_build.commands.jsonlines import BatchError, run_batch

    known = lambda: set(engine.rules.years)  # noqa: E731

    def handle(request: dict) -> dict:
        body = {k: request[k] for k in ("question", "tax_year", "history") if k in request}
        try:
            parsed = parse_request(json.dumps(body).encode(), "application/json", known)
        except RequestError as exc:
            raise BatchError(exc.code, exc.message) from None
        result = engine.answer(parsed.question, tax_year=parsed.tax_year, history=parsed.history,
                               use_faq=use_faq, mode=mode)
        return {"result": result.to_json()}

    return run_batch(handle)
