"""`nztax tool`: run one calculator, a batch of them, or list their definitions.

In: a tool name and JSON arguments (or JSON lines `{"id", "tool", "args"}` on stdin with --batch;
the arguments may also sit inline: `{"id", "tool", ...arguments}`).
Out: the result as JSON on stdout; bad arguments exit 2 with `{"error": {...}}`.
"""

from __future__ import annotations

import argparse
import json


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("name", nargs="?", help="tool name, e.g. calculate_paye (see --list)")
    parser.add_argument("arguments", nargs="?", default="{}", help="JSON object of arguments, e.g. '{\"gross_pay\": 1000, \"pay_frequency\": \"weekly\"}'")
    parser.add_argument("--list", action="store_true", help="print every tool definition (OpenAI function format)")
    parser.add_argument("--batch", action="store_true", help='read JSON lines {"id", "tool", "args"} on stdin; write {"id", "result"} or {"id", "error"} per line')
    parser.epilog = "example: nztax tool calculate_paye '{\"gross_pay\": 3500, \"pay_frequency\": \"four_weekly\", \"tax_code\": \"M SL\", \"kiwisaver_rate\": 3.5}'"
    parser.formatter_class = argparse.RawDescriptionHelpFormatter


def _dump(obj) -> str:
    return json.dumps(obj, ensure_ascii=False)


def run(args: argparse.Namespace) -> int:
    from nztax.tools import TOOLS, call_tool, tool_definitions

    if args.list:
        print(json.dumps(tool_definitions(), indent=2))
        return 0
    if args.batch:
        return _run_batch(call_tool)
    if not args.name:
        print(_dump({"error": {"code": "invalid_request", "message": f"give a tool name ({', '.join(TOOLS)}) or --list / --batch"}}))
        return 2
    try:
        arguments = json.loads(args.arguments)
    except json.JSONDecodeError as exc:
        print(_dump({"error": {"code": "invalid_json", "message": f"arguments are not valid JSON: {exc.msg}"}}))
        return 2
    result = call_tool(args.name, arguments)
    print(json.dumps(result, indent=2, ensure_ascii=False))
    return 2 if "error" in result else 0


def _run_batch(call_tool) -> int:
    from nztax_build.commands.jsonlines import BatchError, run_batch

    def handle(request: dict) -> dict:
        if not isinstance(request.get("tool"), str):
            raise BatchError("invalid_request", 'missing "tool"')
        # Arguments under "args" (issue form) or inline beside "id" and "tool" (DESIGN.md form).
        if "args" in request:
            arguments = request["args"]
        else:
            arguments = {k: v for k, v in request.items() if k not in ("id", "tool")}
        result = call_tool(request["tool"], arguments)
        return {"error": result["error"]} if "error" in result else {"result": result}

    return run_batch(handle)
