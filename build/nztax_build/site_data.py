"""The rules data as JSON for the browser calculators.

In: the rule book (`nztax.rules.load_rules`, the per-year YAML). Out: `site_src/calculators/data/rules.json`
and the same document as a script, `rules.js` (`globalThis.NZTaxRules = {...};`, loaded by calculator
pages only, before their calculator scripts, so the first result needs no request; one file, so a
rules edit changes it and the pages showing the figure, not every calculator page), each
`{"format": 1, "version": <RuleBook.version()>, "years": {"2026-27": {...}}}`, where each year is the
validated YAML document as JSON (band and period bounds keep the YAML's `from`/`to` keys; sections a
partial year has not published are null; the `stated:` words the freshness check reads are left out). Numbers are written exactly as the YAML gave them, so
site_src/javascripts/calculators.js reads rates and amounts through the same decimal text as Python.
The output is deterministic (sorted keys, no timestamps).
"""

from __future__ import annotations

import json
from pathlib import Path

from nztax.rules import RuleBook

RULES_JSON = Path("calculators") / "data" / "rules.json"
RULES_JS = Path("calculators") / "data" / "rules.js"
FORMAT = 1


def rules_document(book: RuleBook) -> dict:
    years = {
        year: book.years[year].data.model_dump(mode="json", by_alias=True, exclude={"stated"})
        for year in sorted(book.years)
    }
    return {"format": FORMAT, "version": book.version(), "years": years}


def rules_json_text(book: RuleBook) -> str:
    return json.dumps(rules_document(book), sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n"



def rules_js_text(book: RuleBook) -> str:
    # JSON is a JavaScript expression (ES2019 and later accept every character JSON does).
    return "globalThis.NZTaxRules = " + rules_json_text(book).rstrip("\n") + ";\n"
