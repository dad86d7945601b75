"""Parse a legislation.govt.nz-style page into one section per provision.

In: raw HTML of an Income Tax Act 2007 page, its URL and the fallback title from sources.yaml.
Out: `Document` whose sections are the provisions, each titled "LC 15 Independent earner tax credit"
with `anchor` "LC 15", and whose text keeps the subsections ("(1) ...", "(a) ...") in order.

A provision is `<div class="prov">` with a heading holding `<span class="label">` and
`<span class="heading">`. Text outside provisions (part headings, Schedule 1 tables laid out with
ordinary headings) is split at its own headings like any HTML page, in document order.
"""

from __future__ import annotations

import re

from bs4 import BeautifulSoup, Tag

from .parse_html import breadcrumb, load_soup, main_element, page_title, split_sections, strip_chrome, to_markdown
from .records import Document, ParseError

# Provision ids: the Income Tax Act's "LC 15", "YA 1", "MK 1B", "RD 3"; plain section numbers of
# other Acts ("41", "41B"); schedules and their parts ("Schedule 1", "Schedule 1 Part A").
_LABEL = re.compile(r"^(?:[A-Z]{2}\s?\d+[A-Z]*|\d+[A-Z]*|Schedule\s+\d+[A-Z]*(?:\s+Part\s+[A-Z0-9]+)?)$")


def parse_legislation(body: bytes | str, url: str, source_type: str = "legislation", fallback_title: str = "") -> Document:
    soup = load_soup(body)
    main = main_element(soup)
    title = page_title(soup, main, fallback_title)
    crumbs = breadcrumb(soup)
    anchors = _provision_headings(soup, main)
    strip_chrome(main)
    sections = split_sections(to_markdown(main), title, max_level=2)
    if not sections:
        raise ParseError("no provisions or content found")
    for section in sections:
        section.anchor = anchors.get(section.title)
    return Document(url=url, title=title, source_type=source_type, sections=sections, breadcrumb=crumbs)


def _provision_headings(soup: BeautifulSoup, main: Tag) -> dict[str, str]:
    """Turn each top-level provision's heading into one <h2> "LABEL Heading"; return title -> label.

    Deeper headings inside a provision become bold lines, so a provision is one section with its
    subsections kept together.
    """
    anchors: dict[str, str] = {}
    provisions = [d for d in main.select("div.prov") if d.find_parent("div", class_="prov") is None]
    for prov in provisions:
        head = prov.find(["h1", "h2", "h3", "h4", "h5"], class_="prov") or prov.find(["h2", "h3", "h4", "h5"])
        if head is None:
            continue
        label_el = head.select_one(".label")
        heading_el = head.select_one(".heading")
        label = _squash(label_el.get_text(" ", strip=True)) if label_el else ""
        heading = _squash(heading_el.get_text(" ", strip=True)) if heading_el else ""
        if not heading:
            heading = _squash(head.get_text(" ", strip=True).removeprefix(label))
        if not label and prov.get("id"):
            label = _label_from_id(str(prov["id"]))
        name = _squash(f"{label} {heading}")
        new_head = soup.new_tag("h2")
        new_head.string = name
        head.replace_with(new_head)
        for inner in prov.find_all(["h1", "h2", "h3", "h4", "h5", "h6"]):
            if inner is new_head:
                continue
            strong = soup.new_tag("p")
            strong.string = f"**{_squash(inner.get_text(' ', strip=True))}**"
            inner.replace_with(strong)
        if label and _LABEL.match(label):
            anchors[name] = label
    return anchors


def _label_from_id(element_id: str) -> str:
    """id="LC15" -> "LC 15" (legislation.govt.nz ids run the letters and number together)."""
    match = re.match(r"^([A-Z]{2})(\d+[A-Z]*)$", element_id)
    return f"{match.group(1)} {match.group(2)}" if match else ""


def _squash(text: str) -> str:
    return " ".join(text.replace("\u00a0", " ").split())
