"""The `--batch` loop shared by `nztax tool`, `search` and `ask`.

In: JSON lines on stdin, one request object each. Out: one JSON line per non-blank input line, in
order: `{"id": ..., **handle(request)}`. A line that is not a JSON object gets an `invalid_json`
error; `handle` raises `BatchError` for a request it cannot run. A line without an `id` is
identified by its line number, so every output line can be matched to its input.
"""

from __future__ import annotations

import json
import sys
from typing import Callable, TextIO


class BatchError(ValueError):
    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


def run_batch(handle: Callable[[dict], dict], stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    for number, line in enumerate(stdin, start=1):
        if not line.strip():
            continue
        try:
            request = json.loads(line)
            if not isinstance(request, dict):
                raise ValueError("each line must be a JSON object")
        except ValueError as exc:  # json.JSONDecodeError is a ValueError
            reply = {"id": number, "error": {"code": "invalid_json", "message": f"line {number}: {exc}"}}
        else:
            ident = request.get("id", number)
            try:
                reply = {"id": ident, **handle(request)}
            except BatchError as exc:
                reply = {"id": ident, "error": {"code": exc.code, "message": exc.message}}
        stdout.write(json.dumps(reply, ensure_ascii=False) + "\n")
        stdout.flush()
    return 0
