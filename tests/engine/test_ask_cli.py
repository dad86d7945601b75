"""`nztax ask --batch` as a user runs it: JSON lines in, one `{"id", "result"}` per line out, in order."""

from __future__ import annotations

import json
import os
import subprocess
import sys


def test_ask_batch_answers_in_order_and_reports_bad_lines(engine_settings):
    lines = [
        json.dumps({"id": "calc", "question": "How much tax on $65,000 in 2024-25?"}),
        json.dumps({"id": "empty", "question": "   "}),
        "not json",
        json.dumps({"id": "gst", "question": "How do I register for GST?"}),
    ]
    env = {**os.environ, "NZTAX_LLM_MODEL": ""}
    done = subprocess.run(
        [sys.executable, "-m", "nztax_build.cli", "ask", "--batch", "--index", str(engine_settings.index_dir)],
        input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=120, env=env,
    )
    assert done.returncode == 0, done.stderr
    out = [json.loads(x) for x in done.stdout.splitlines()]
    assert [o["id"] for o in out] == ["calc", "empty", 3, "gst"]
    assert out[0]["result"]["status"] == "answered" and "11,985.32" in out[0]["result"]["answer"]
    assert "error" in out[1] and out[2]["error"]["code"] == "invalid_json"
    assert out[3]["result"]["status"] == "out_of_scope"
