"""Markdown extension (listed under `markdown_extensions` in mkdocs.yml): every table named and reachable.

In: the element tree Python-Markdown builds for a page. Out: the same tree where each `<table>`
- has a `<caption>` (visually hidden: the heading above already shows it) naming it after the
  nearest heading before it, plus a bold lead-in paragraph right above it ("Pay dates …") if any;
- with a header row of empty cells (a list of label/value rows) loses that row, and each row's
  first cell becomes its row header (`<th scope="row">`), so no header cell is empty;
- sits in `<div class="nz-table" role="region" tabindex="0" aria-label="…">`: the box that scrolls
  sideways on a narrow screen, so keyboard users can reach and scroll it and screen readers name it
  (stylesheets/nztax.css moves the scrolling from the theme's own wrapper to this one).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as etree

from markdown import Extension
from markdown.treeprocessors import Treeprocessor

HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}
_PLACEHOLDER = re.compile("\x02[^\x03]*\x03")  # Python-Markdown's stash markers for raw HTML


def _text(element: etree.Element) -> str:
    return " ".join(_PLACEHOLDER.sub("", "".join(element.itertext())).split())


def _lead_in(previous: etree.Element | None) -> str:
    """The text of a paragraph that is only a bold line (a sub-heading written as **…**)."""
    if previous is None or previous.tag != "p" or (previous.text or "").strip() or len(previous) != 1:
        return ""
    strong = previous[0]
    return _text(strong) if strong.tag == "strong" and not (strong.tail or "").strip() else ""


class TableNames(Treeprocessor):
    def run(self, root: etree.Element) -> None:
        self.names: dict[str, int] = {}
        self._walk(root, "")

    def _walk(self, parent: etree.Element, heading: str) -> str:
        children = list(parent)
        for i, child in enumerate(children):
            if child.tag in HEADINGS:
                heading = _text(child)
            elif child.tag == "table":
                name = " — ".join(part for part in (heading, _lead_in(children[i - 1] if i else None)) if part) or "Table"
                self.names[name] = self.names.get(name, 0) + 1
                # Each named region on a page is named differently (two tables under one heading).
                self._fix(parent, child, name if self.names[name] == 1 else f"{name}, table {self.names[name]}")
            else:
                heading = self._walk(child, heading)
        return heading

    @staticmethod
    def _fix(parent: etree.Element, table: etree.Element, name: str) -> None:
        if table.find("caption") is None:
            caption = etree.Element("caption", {"class": "nz-visually-hidden"})
            caption.text = name
            table.insert(0, caption)
        thead = table.find("thead")
        if thead is not None and not any(_text(th) for th in thead.iter("th")):
            table.remove(thead)
            for row in table.iter("tr"):
                if len(row) and row[0].tag == "td":
                    row[0].tag = "th"
                    row[0].set("scope", "row")
        wrap = etree.Element("div", {"class": "nz-table", "role": "region", "tabindex": "0", "aria-label": name})
        index = list(parent).index(table)
        parent.remove(table)
        wrap.append(table)
        parent.insert(index, wrap)


class TableNamesExtension(Extension):
    def extendMarkdown(self, md) -> None:  # noqa: N802 - Python-Markdown's API name
        # After the block parser has built the tables, before `toc` (priority 5) adds permalinks.
        md.treeprocessors.register(TableNames(md), "nztax_table_names", 6)


def makeExtension(**kwargs) -> TableNamesExtension:  # noqa: N802 - Python-Markdown's entry point
    return TableNamesExtension(**kwargs)
