"""One table of typed amounts, read by the calculator pages (JavaScript, under node) and by the
engine (nztax.slots.find_money): both must read every entry as the table says (issue 16:
"the same reading as the engine"). Expected values are what a person typing them means."""

from __future__ import annotations

import json
import shutil
import subprocess
from decimal import Decimal
from pathlib import Path

import pytest

from nztax.slots import find_money

ROOT = Path(__file__).resolve().parents[2]
CALCULATORS_JS = ROOT / "site_src" / "javascripts" / "calculators.js"
NODE = shutil.which("node") or "/usr/bin/node"

TYPED = [
    ("85000", "85000"),
    ("85,000", "85000"),
    ("$85,000", "85000"),
    ("$85k", "85000"),
    ("85K", "85000"),
    ("$85 000", "85000"),
    ("85\u00a0000", "85000"),
    ("$85.000", "85000"),
    ("1.2m", "1200000"),
    ("$1.2 million", "1200000"),
    ("85.5k", "85500"),
    ("$85,000.50", "85000.50"),
    ("NZ$85,000", "85000"),
    ("$8\u200b5,000", "85000"),
    ("120 thousand", "120000"),
    ("$1,234,567", "1234567"),
    ("3500", "3500"),
    ("$1,500.25", "1500.25"),
]
UNREADABLE = ["abc", "85,00", "eighty-five thousand", "$", "85k50", "1.2.3m"]
# The engine reads amounts written in words in a question (issue 11); a calculator field refuses them.
ENGINE_ONLY = [("eighty-five thousand", "85000")]


def js_read(texts: list[str]) -> list[dict]:
    script = (
        "const core = require(process.argv[1]);"
        "const texts = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
        "process.stdout.write(JSON.stringify(texts.map((t) => { const r = core.readAmount(t);"
        " return r.value ? {value: String(r.value.n) + '/' + String(r.value.d)} : r; })));"
    )
    out = subprocess.run([NODE, "-e", script, str(CALCULATORS_JS)], input=json.dumps(texts),
                         capture_output=True, text=True, timeout=60, check=True)
    return json.loads(out.stdout)


def as_decimal(fraction: str) -> Decimal:
    n, d = fraction.split("/")
    return Decimal(n) / Decimal(d)


@pytest.fixture(scope="module")
def node():
    if not Path(NODE).exists():
        pytest.fail(f"node not found at {NODE}: the amount-reading test needs node v20")


def test_calculator_fields_read_the_table(node):
    results = js_read([typed for typed, _ in TYPED])
    for (typed, expected), got in zip(TYPED, results):
        assert "value" in got, (typed, got)
        assert as_decimal(got["value"]) == Decimal(expected), (typed, got)


def test_calculator_fields_refuse_what_they_cannot_read(node):
    for typed, got in zip(UNREADABLE, js_read(UNREADABLE)):
        assert got.get("error") == "unreadable", (typed, got)
    assert js_read(["-5000", "$-5,000", "-$85k"]) == [{"error": "negative"}] * 3
    assert js_read(["", "   "]) == [{"empty": True}] * 2


@pytest.mark.parametrize("typed,expected", TYPED)
def test_the_engine_reads_the_table_the_same_way(typed, expected):
    amounts = find_money(f"I earn {typed} a year")
    assert [a.value for a in amounts] == [Decimal(expected)], (typed, amounts)


@pytest.mark.parametrize("typed,expected", ENGINE_ONLY)
def test_the_engine_also_reads_amounts_in_words(typed, expected):
    assert [a.value for a in find_money(f"I earn {typed} a year")] == [Decimal(expected)]
