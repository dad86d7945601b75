"""The rows of an answer's rules table that the question names, said in its first paragraph, and
the one income tax band a question names (`band_named`).

In: the question's text and its yearly amounts (slots), and the Markdown lines of the rules summary
an answer shows (topic_summary.topic_lines: a header, a separator and rows). Out: one sentence stating
those rows ("In 2026-27, taxable income $78,100 – $180,000: rate 33%."), or None.

A row is named when the question gives one of its rates ("taxed at 33%"), writes its code in
capitals ("the SB code"), or gives a yearly amount inside its range ("between $50,000 and
$70,000"). The table further down still shows every row; this puts the row asked about where a
reader (and a check that reads only the first paragraph) looks first. Every figure in the
sentence is a cell of the table, which comes from the year's rules data.
"""

from __future__ import annotations

import re
from decimal import Decimal

from nztax.amount_grammar import CAPITALISED_WORD, PERCENT

DOLLARS = re.compile(r"\$([\d,]+(?:\.\d+)?)")
# More rows than this named: the question is about the table as a whole, which follows.
MAX_ROWS = 3


def _cells(line: str) -> list[str]:
    return [c.strip().replace("**", "") for c in line.strip().strip("|").split("|")]


def _table(lines: list[str]) -> tuple[list[str], list[list[str]]] | None:
    """The first Markdown table in the lines: (headers, rows)."""
    for i, line in enumerate(lines[:-1]):
        if line.lstrip().startswith("|") and re.fullmatch(r"\s*\|?[\s:|-]+\|?\s*", lines[i + 1]) and "-" in lines[i + 1]:
            rows = []
            for row in lines[i + 2:]:
                if not row.lstrip().startswith("|"):
                    break
                rows.append(_cells(row))
            return _cells(line), rows
    return None


def _range(cell: str) -> tuple[Decimal, Decimal | None] | None:
    """The yearly range a cell states ("$15,600 – $53,500", "up to $15,600", "over $180,000")."""
    found = [Decimal(n.replace(",", "")) for n in DOLLARS.findall(cell)]
    low = cell.lower()
    if len(found) == 2:
        return found[0], found[1]
    if len(found) == 1 and ("up to" in low or "or less" in low):
        return Decimal(0), found[0]
    if len(found) == 1 and ("over" in low or "more than" in low):
        return found[0], None
    return None


def _named(row: list[str], rates: set[str], codes: set[str], amounts: list[Decimal]) -> bool:
    if row and row[0] in codes:
        return True
    if any(c in rates for c in row):
        return True
    for cell in row:
        span = _range(cell)
        if span is not None and any(span[0] < a and (span[1] is None or a <= span[1]) for a in amounts):
            return True
    return False


def _said(headers: list[str], row: list[str]) -> str:
    first = f"{headers[0]} {row[0]}".strip() if headers and headers[0] else row[0]
    rest = [f"{h[:1].lower() + h[1:]} {c}".strip() if h else c for h, c in zip(headers[1:], row[1:])]
    return first[:1].lower() + first[1:] + (": " + ", ".join(rest) if rest else "")


def rows_named(question: str, amounts: list[Decimal], lines: list[str], year: str) -> str | None:
    """One sentence with the table rows the question names, or None when it names none (or most)."""
    table = _table(lines)
    if table is None:
        return None
    headers, rows = table
    rates = {f"{m.group('p')}%" for m in PERCENT.finditer(question)}  # a rate written out names its row too
    codes = set(CAPITALISED_WORD.findall(question))
    named = [row for row in rows if len(row) == len(headers) and _named(row, rates, codes, amounts)]
    if not named or len(named) > MAX_ROWS or len(named) == len(rows):
        return None
    return f"In {year}, " + "; ".join(_said(headers, row) for row in named) + "."


def band_named(question: str, amounts: list[Decimal], bands: list):
    """The one band above the first that the question names, by its rate ("into the 33% bracket") or
    by the income it starts at ("going over $78,100"), or None when it names none or several. A lead
    on how a band's rate applies states that band's figures then, not the top band's: to a question
    about crossing into 33%, the 39% rule answers another question."""
    rates = {Decimal(m.group("p")) / 100 for m in PERCENT.finditer(question)}
    named = {i for i, b in enumerate(bands) if i and (Decimal(str(b.rate)) in rates or Decimal(str(b.lower)) in amounts)}
    return bands[named.pop()] if len(named) == 1 else None
