"""From an answer to the calculator that reproduces it.

In: an `AskResult` whose `tools` list the calculator calls behind its figures. Out: the same
result with a link that opens the site's matching calculator page with the same inputs filled in
(calculator pages read their inputs from the query string), added to `next_actions` and to the
answer's working. FAQ calculation pages are rendered from the same results, so they carry it too.

The link carries every field of the page the calculation had a value for, including the ones the
answer left at the tool's own default (no KiwiSaver, a fortnightly pay): a page's defaults are
chosen for someone starting from scratch (KiwiSaver at 3.5%) and must not change the figure an
answer hands over. A default of "none" travels as an empty value (`kiwisaver_rate=`).

`CALCULATOR_PAGES` (from `presentation.py`) names each page's fields; tests/site/test_calculator_links.py checks them
against the built calculator forms, so a renamed field cannot silently break the links.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import urlencode

from nztax.presentation import PRESENTATION
from nztax.tools import TOOLS

MAX_NEXT_ACTIONS = 3


@dataclass(frozen=True)
class CalculatorPage:
    slug: str
    name: str
    fields: tuple[str, ...]
    # tool argument -> page field, where the two names differ
    renamed: tuple[tuple[str, str], ...] = ()

    @property
    def path(self) -> str:
        return f"/calculators/{self.slug}/"


CALCULATOR_PAGES: dict[str, CalculatorPage] = {
    tool: CalculatorPage(p.page, p.page_name, p.page_fields, p.renamed) for tool, p in PRESENTATION.items() if p.page_fields
}
_RATE_FIELDS = frozenset({"kiwisaver_rate"})  # the pages' selects hold percents ("3.5")


def _query_value(field: str, value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if field in _RATE_FIELDS and isinstance(value, (int, float)) and 0 < value < 1:
        value = round(value * 100, 4)
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value)


@lru_cache(maxsize=None)
def _tool_defaults(tool: str) -> dict:
    """The tool's own default for each optional argument (its signature is the definition)."""
    if tool not in TOOLS:
        return {}
    params = inspect.signature(TOOLS[tool].fn).parameters.values()
    return {p.name: p.default for p in params if p.default is not inspect.Parameter.empty}


def calculator_link(tool: str, arguments: dict, result: dict) -> str | None:
    """The site path that opens `tool`'s calculator with `arguments` filled in, or None."""
    page = CALCULATOR_PAGES.get(tool)
    if page is None or not isinstance(result, dict) or "error" in result:
        return None
    renamed = dict(page.renamed)
    values = {renamed.get(name, name): value for name, value in _tool_defaults(tool).items()}
    values.update({renamed.get(name, name): value for name, value in (arguments or {}).items()})
    if values.get("tax_year") is None and result.get("tax_year"):
        values["tax_year"] = result["tax_year"]
    params = [(f, "" if values[f] is None else _query_value(f, values[f])) for f in page.fields if f in values]
    return f"{page.path}?{urlencode(params)}" if params else page.path


def related_links(tool: str, arguments: dict, result: dict) -> list[tuple[str, str]]:
    """(calculator name, link) for the pay calculators that carry an answer's figures further: an
    extra pay on top of a salary opens the extra-pay calculator (from take-home pay) or the year-end
    square-up (from the extra pay), with the same figures filled in."""
    if not isinstance(result, dict) or "error" in result or not isinstance(arguments, dict):
        return []
    year = {"tax_year": result.get("tax_year")}
    links: list[tuple[str, dict, dict]] = []
    if tool == "calculate_take_home_pay" and arguments.get("other_income"):
        pays = {"weekly": 52, "fortnightly": 26, "four_weekly": 13, "monthly": 12}.get(arguments.get("pay_frequency") or "fortnightly", 26)
        rest = float(arguments["annual_salary"]) - float(arguments["other_income"])
        code = arguments.get("tax_code") or "M"
        links.append(("calculate_extra_pay_paye", {"extra_pay": arguments["other_income"], "regular_pay": round(int(rest * 100 / pays) / 100, 2),
                                                   "pay_frequency": arguments.get("pay_frequency") or "fortnightly", "tax_code": code,
                                                   "kiwisaver_rate": arguments.get("kiwisaver_rate")}, year))
    if tool == "calculate_extra_pay_paye" and arguments.get("regular_pay") is not None and result.get("pay_frequency"):
        pays = {"weekly": 52, "fortnightly": 26, "four_weekly": 13, "monthly": 12}[result["pay_frequency"]]
        links.append(("calculate_year_end_square_up", {"salary_wages": round(float(arguments["regular_pay"]) * pays, 2),
                                                       "tax_code": result["tax_code"].split()[0] if result["tax_code"].split()[0] in ("M", "ME") else "M",
                                                       "pay_frequency": result["pay_frequency"], "extra_pays": arguments["extra_pay"],
                                                       "redundancy": bool(arguments.get("redundancy"))}, year))
    out = []
    for name, args, res in links:
        link = calculator_link(name, args, res)
        if link is not None:
            out.append((CALCULATOR_PAGES[name].name, link))
    return out


def attach(result):
    """Add the calculator link of the first calculation behind an answer (no-op for others)."""
    if getattr(result, "status", None) != "answered":
        return result
    for call in getattr(result, "tools", None) or []:
        link = calculator_link(call.name, call.arguments, call.result)
        if link is None:
            continue
        name = CALCULATOR_PAGES[call.name].name
        action = f"[Open the {name} calculator with these figures]({link})"
        result.next_actions = [action] + [a for a in result.next_actions if a != action][: MAX_NEXT_ACTIONS - 1]
        result.answer = f"{result.answer.rstrip()}\n\n[Change the figures in the {name} calculator]({link})"
        for other, other_link in related_links(call.name, call.arguments, call.result):
            action = f"[Open the {other} calculator with these figures]({other_link})"
            result.next_actions = [result.next_actions[0], action] + [a for a in result.next_actions[1:] if a != action][: MAX_NEXT_ACTIONS - 2]
            result.answer += f"\n\n[See it in the {other} calculator]({other_link})"
        break
    return result
