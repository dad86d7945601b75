"""Every figure a snapshot page states agrees with the rules data, and every worked example is right.

For each authored page and PDF (corpus/snapshot_src): each `$` amount and `%` rate in the title and body
must be a figure of the rules data for one of the page's `years`, an argument or result of one of its
`examples`, or listed in its `other_figures`. Each example is run through the calculator tools and must
equal the stated value to the cent, and the value must be printed on the page.
"""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal, InvalidOperation

import pytest

from .conftest import SNAPSHOT_SRC

MONEY = re.compile(r"\$\s?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?")
PERCENT = re.compile(r"(?<![\d.])(\d+(?:\.\d+)?)\s?%")


def _sources():
    from nztax_build.snapshot import load_sources

    return load_sources(SNAPSHOT_SRC)


SOURCES = _sources()
SOURCE_IDS = [str(s.path.relative_to(SNAPSHOT_SRC)) for s in SOURCES]
EXAMPLES = [(s, i) for s in SOURCES for i in range(len(s.examples))]
EXAMPLE_IDS = [f"{s.path.relative_to(SNAPSHOT_SRC)}#{i}" for s, i in EXAMPLES]


def _number(text: str) -> Decimal:
    return Decimal(text.replace(",", "").replace("$", "").replace("%", "").strip()).normalize()


def stated_figures(text: str) -> list[tuple[str, Decimal]]:
    """(as written, value) for every $ amount and % rate in `text`."""
    found = [(m.group(0), _number(m.group(1) + (m.group(2) or ""))) for m in MONEY.finditer(text)]
    found += [(m.group(0), _number(m.group(1))) for m in PERCENT.finditer(text)]
    return found


def _example_numbers(example: dict) -> set[Decimal]:
    numbers = set()
    for value in [*example["args"].values(), example["value"]]:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            d = Decimal(str(value)).normalize()
            numbers.add(d)
            if 0 < value < 1:  # a rate argument such as kiwisaver_rate 0.035 may be written 3.5%
                numbers.add((d * 100).normalize())
    return numbers


def allowed_figures(source) -> set[Decimal]:
    from nztax.rules import default_rules

    book = default_rules()
    allowed: set[Decimal] = set()
    for year in source.years:
        allowed |= book.get(year).figures()
    for example in source.examples:
        allowed |= _example_numbers(example)
    for figure in source.other_figures:
        try:
            allowed.add(_number(figure))
        except InvalidOperation:
            raise AssertionError(f"{source.path}: other_figures entry {figure!r} is not a $ or % figure") from None
    return allowed


def _is_allowed(value: Decimal, allowed: set[Decimal]) -> bool:
    if value in allowed:
        return True
    # IRD prints bands as "$15,601 – $53,500": the first dollar of a band is the threshold plus one.
    return value == value.to_integral_value() and (value - 1).normalize() in allowed


@pytest.mark.parametrize("source", SOURCES, ids=SOURCE_IDS)
def test_every_figure_is_in_the_rules_data_or_declared(source):
    from nztax.rules import default_rules

    unknown_years = [y for y in source.years if y not in default_rules().years]
    assert not unknown_years, f"{source.path}: years not in the rules data: {unknown_years}"
    allowed = allowed_figures(source)
    text = f"{source.title}\n{source.body}"
    offenders = sorted({written for written, value in stated_figures(text) if not _is_allowed(value, allowed)})
    assert not offenders, (
        f"{source.path} ({', '.join(source.years)}): figures that are neither in the rules data for these years, "
        f"nor an example argument/result, nor in other_figures: {offenders}"
    )


def _printed_forms(field: str, value: float) -> list[str]:
    """How a result may be printed: 1,234.50 / 1234.50 / $1,234; a rate field also as 17.5%."""
    d = Decimal(str(value)).quantize(Decimal("0.01"))
    forms = [f"{d:,.2f}", f"{d:.2f}"]
    if d == d.to_integral_value():
        forms += [f"${d:,.0f}", f"${d:.0f}"]
    if field.endswith("rate"):
        percent = (Decimal(str(value)) * 100).normalize()
        forms += [f"{percent:f}%", f"{percent:f} %"]
    return forms


@pytest.mark.parametrize(("source", "index"), EXAMPLES, ids=EXAMPLE_IDS)
def test_worked_example_matches_the_calculator_and_is_printed(source, index, clock):
    from nztax.tools import call_tool

    # Tools that default a pay date to "today" must see a fixed day, not the machine's clock.
    clock(dt.date(2026, 11, 21))
    example = source.examples[index]
    result = call_tool(example["tool"], dict(example["args"]))
    assert "error" not in result, f"{source.path}: example {example} -> {result['error']}"
    assert example["field"] in result, f"{source.path}: {example['tool']} result has no field {example['field']!r}"
    if isinstance(example["value"], str):  # e.g. choose_secondary_tax_code -> "SH"
        assert result[example["field"]] == example["value"], f"{source.path}: {example} -> {result[example['field']]!r}"
        assert re.search(rf"\b{re.escape(example['value'])}\b", source.body), f"{source.path}: {example['value']!r} not on the page"
        return
    got = Decimal(str(result[example["field"]])).quantize(Decimal("0.01"))
    want = Decimal(str(example["value"])).quantize(Decimal("0.01"))
    assert got == want, f"{source.path}: {example['tool']}({example['args']}).{example['field']} = {got}, page says {want}"
    if want == 0:
        return  # a nil result is usually said in words ("no credit", "nothing to repay")
    forms = _printed_forms(example["field"], example["value"])
    assert any(form in source.body for form in forms), f"{source.path}: example value {want} is not printed on the page"


def test_figure_extraction_reads_ird_style_figures():
    text = "From $15,601 to $53,500 the rate is 17.5%; the levy is $2,741.22 (1.75%); 33⅓% credit; 2024–25."
    assert [v for _, v in stated_figures(text)] == [
        Decimal("15601"), Decimal("53500"), Decimal("2741.22"), Decimal("17.5"), Decimal("1.75"),
    ]


def test_an_undeclared_figure_is_caught():
    """The check can fail: a rate that is in no rules file for the page's years is reported."""
    allowed = {Decimal("17.5"), Decimal("15600")}
    assert _is_allowed(Decimal("15601"), allowed)
    assert not _is_allowed(Decimal("18.5"), allowed)
    assert not _is_allowed(Decimal("15602"), allowed)
