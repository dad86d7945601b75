"""Name the section of a cited page: which heading holds the figures an answer took from it.

In: the index's parent chunks (url, section heading, tax years, text) and the rules data. Out:
`CitationSections.fill(citations, tax_year)`, the same citations with `section` set where it was
missing: a rules or calculator citation names its source page only, so the heading chosen is the
one on that page whose text states the most figures of the rules sections that cite the page for
the year. A page with no heading stating any of them is cited by page alone, never by a guess.
An answer unit's citation names the section whose text holds its quote (`section_quoting`).
Also the label every citation carries: `passage_citation(hit)` -> "<publisher>: <page title>".
"""

from __future__ import annotations

import re
from collections import defaultdict
from decimal import Decimal, InvalidOperation

from .contract import Citation
from .units import fold

# Who publishes the sources: Inland Revenue, except the kinds named here. A retrieved passage is
# labelled "<publisher>: <page title>", as rules citations are.
CITATION_PUBLISHER = "Inland Revenue"
SOURCE_TYPE_PUBLISHERS = {"legislation": "New Zealand Legislation"}


def passage_citation(hit) -> Citation:
    """A retrieved passage's citation, labelled '<publisher>: <page title>' as rules citations are."""
    publisher = SOURCE_TYPE_PUBLISHERS.get(getattr(hit, "source_type", ""), CITATION_PUBLISHER)
    title = hit.title if hit.title.startswith(f"{publisher}: ") else f"{publisher}: {hit.title}"
    return Citation(title=title, url=hit.url, section=hit.section or None)


NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")


def numbers_in(text: str) -> set[Decimal]:
    found = set()
    for token in NUMBER.findall(text or ""):
        try:
            found.add(Decimal(token.replace(",", "")).normalize())
        except InvalidOperation:
            continue
    return found


def _walk(node, out: set[Decimal]) -> None:
    if isinstance(node, bool) or node is None:
        return
    if isinstance(node, (int, float)):
        d = Decimal(str(node))
        out.add(d.normalize())
        if 0 < node < 1:
            out.add((d * 100).normalize())
    elif isinstance(node, dict):
        for v in node.values():
            _walk(v, out)
    elif isinstance(node, (list, tuple)):
        for v in node:
            _walk(v, out)


class CitationSections:
    def __init__(self, parents: dict | list, rules) -> None:
        self.by_url: dict[str, list[tuple[str, tuple[str, ...], set[Decimal]]]] = defaultdict(list)
        self.texts: dict[str, list[tuple[str, str]]] = defaultdict(list)  # url -> (section, folded text)
        for parent in (parents.values() if isinstance(parents, dict) else parents):
            if parent.get("section") and parent.get("url"):
                self.by_url[parent["url"]].append((parent["section"], tuple(parent.get("tax_years") or ()), numbers_in(parent.get("text", ""))))
                self.texts[parent["url"]].append((parent["section"], fold(parent.get("text", ""))))
        self.rules = rules
        self._figures: dict[tuple[str, str | None], set[Decimal]] = {}

    def figures_cited_at(self, url: str, tax_year: str | None) -> set[Decimal]:
        """Every number of the rules sections (of `tax_year`, or of every year) whose source is `url`."""
        key = (url, tax_year)
        if key not in self._figures:
            found: set[Decimal] = set()
            years = [tax_year] if tax_year in self.rules.years else list(self.rules.years)
            for year in years:
                data = self.rules.years[year].data.model_dump(mode="python")
                for section in data.values():
                    if isinstance(section, dict) and url in (section.get("source"), section.get("secondary_source")):
                        _walk({k: v for k, v in section.items() if k not in ("source", "secondary_source")}, found)
            # Small counts (days, weeks, months) would match almost any heading's text.
            self._figures[key] = {d for d in found if d >= 100 or d != d.to_integral_value()}
        return self._figures[key]

    def section_for(self, url: str, tax_year: str | None) -> str | None:
        figures = self.figures_cited_at(url, tax_year)
        if not figures:
            return None
        best, best_score = None, 0
        for section, years, numbers in self.by_url.get(url, ()):
            score = len(figures & numbers) + (0.5 if tax_year and tax_year in years else 0)
            if len(figures & numbers) and score > best_score:
                best, best_score = section, score
        return best

    def section_quoting(self, url: str, quote: str) -> str | None:
        """The heading of the section of `url` whose text holds `quote` (an answer unit's evidence)."""
        wanted = fold(quote)
        return next((section for section, text in self.texts.get(url, ()) if wanted and wanted in text), None)

    def fill(self, citations: list[Citation], tax_year: str | None) -> list[Citation]:
        out = []
        for c in citations:
            if not c.section:
                section = self.section_for(c.url, tax_year)
                if section:
                    c = c.model_copy(update={"section": section})
            out.append(c)
        return out
