"""`nztax tool` as a user runs it: a real subprocess, JSON on stdout, exit codes."""

from __future__ import annotations

import json
import subprocess
import sys

NZTAX = [sys.executable, "-m", "nztax_build.cli"]


def nztax(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([*NZTAX, *args], input=stdin, capture_output=True, text=True, timeout=60)


def test_spec_example_prints_irds_figures():
    p = nztax("tool", "calculate_paye", json.dumps({"gross_pay": 3500, "pay_frequency": "four_weekly", "tax_code": "M SL", "kiwisaver_rate": 3.5, "tax_year": "2026-27"}))
    assert p.returncode == 0, p.stderr
    r = json.loads(p.stdout)
    assert (r["paye"], r["student_loan"], r["kiwisaver_employee"], r["net_pay"]) == (589.72, 197.28, 122.50, 2590.50)


def test_composite_year_example():
    p = nztax("tool", "calculate_income_tax", '{"taxable_income": 65000, "tax_year": "2024-25"}')
    assert json.loads(p.stdout)["total_tax"] == 11985.32


def test_bad_arguments_exit_2_with_error_naming_the_argument():
    p = nztax("tool", "calculate_paye", '{"gross_pay": -5, "pay_frequency": "weekly"}')
    assert p.returncode == 2
    assert json.loads(p.stdout)["error"]["argument"] == "gross_pay"
    assert "Traceback" not in p.stderr


def test_bad_json_and_unknown_tool_exit_2():
    assert nztax("tool", "calculate_paye", "{nope").returncode == 2
    p = nztax("tool", "calculate_gst", "{}")
    assert p.returncode == 2 and json.loads(p.stdout)["error"]["code"] == "unknown_tool"


def test_list_prints_openai_definitions_for_every_tool():
    defs = json.loads(nztax("tool", "--list").stdout)
    names = {d["function"]["name"] for d in defs}
    assert {"calculate_income_tax", "calculate_paye", "calculate_acc_levy", "calculate_student_loan_repayment", "calculate_ietc",
            "calculate_kiwisaver", "calculate_take_home_pay", "calculate_donation_tax_credit", "find_prescribed_investor_rate",
            "choose_secondary_tax_code", "search_tax_documents"} <= names
    for d in defs:
        assert d["type"] == "function" and d["function"]["description"]
        assert d["function"]["parameters"]["type"] == "object"


def test_batch_answers_in_order_with_results_and_errors():
    lines = [
        {"id": "a", "tool": "calculate_acc_levy", "args": {"income": 500000, "tax_year": "2026-27"}},
        {"id": "b", "tool": "calculate_paye", "args": {"gross_pay": "lots", "pay_frequency": "weekly"}},
        {"id": "c", "tool": "calculate_income_tax", "args": {"taxable_income": 65000, "tax_year": "2024-25"}},
    ]
    p = nztax("tool", "--batch", stdin="\n".join(json.dumps(x) for x in lines) + "\nnot json\n")
    out = [json.loads(x) for x in p.stdout.splitlines()]
    assert [o["id"] for o in out] == ["a", "b", "c", 4]  # a line with no id is named by its number
    assert out[0]["result"]["annual_levy"] == 2741.22
    assert out[1]["error"]["argument"] == "gross_pay"
    assert out[2]["result"]["total_tax"] == 11985.32
    assert "error" in out[3]


def test_help_lists_the_verbs():
    p = nztax("--help")
    assert p.returncode == 0
    for verb in ("tool", "crawl", "build", "search", "ask", "eval", "serve", "rebuild", "bench", "deploy"):
        assert verb in p.stdout


def test_batch_accepts_inline_arguments_as_in_design():
    line = {"id": 7, "tool": "calculate_acc_levy", "income": 500000, "tax_year": "2025-26"}
    out = json.loads(nztax("tool", "--batch", stdin=json.dumps(line) + "\n").stdout)
    assert out["id"] == 7 and out["result"]["annual_levy"] == 2551.59
