"""Parse an IRD-style HTML page into a `Document` of markdown sections.

In: the raw HTML bytes of a page, its URL, source type and the title from sources.yaml (a fallback).
Out: `Document` with the page title, breadcrumb, "page last updated" date, Tax Technical reference and
issue date (qwba / interpretation_statement / tib), and the main content split at h2/h3 headings.

Only the main content is kept: site header, navigation, breadcrumbs, alert banners, footers, scripts
and hidden elements are removed first, so a rotating banner never changes the content hash and
hidden text never reaches the index. Lists and tables survive as markdown (rate tables stay tables).
The helpers here (`load_soup`, `main_element`, `strip_chrome`, `to_markdown`, `split_sections`) are
shared with the legislation parser.
"""

from __future__ import annotations

import re

from bs4 import BeautifulSoup, Tag
from markdownify import MarkdownConverter

from .records import TECHNICAL_SOURCE_TYPES, Document, ParseError, Section

# Where a page keeps its main content, most specific first (IRD uses <main id="main-content">).
MAIN_SELECTORS = ("main#main-content", "main", "[role=main]", "#main-content", "#content", "article")
# Page furniture that is never content.
CHROME_SELECTORS = (
    "script", "style", "noscript", "template", "iframe", "svg", "form", "button",
    "header", "footer", "nav", "aside",
    ".alert-banner", "[role=alert]", "[role=navigation]", ".breadcrumb", ".breadcrumbs",
    ".skip-link", ".visually-hidden", ".sr-only",
    "[hidden]", "[aria-hidden=true]",
)
BREADCRUMB_SELECTORS = ("nav.breadcrumb", "[aria-label=Breadcrumb]", "[aria-label=breadcrumb]", ".breadcrumb", ".breadcrumbs")
_HIDDEN_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.I)
# "<title>Tax rates for individuals | Inland Revenue</title>": the site name after the bar is not the title.
_TITLE_SUFFIX = re.compile(r"\s*[|–—-]\s*(Inland Revenue|New Zealand Legislation|ird\.govt\.nz).*$", re.I)
_HEADING_LINE = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_FENCE = re.compile(r"^\s*(```|~~~)")
_BLANK_RUNS = re.compile(r"\n{3,}")

OVERVIEW_SECTION = "Overview"  # the name of text that comes before a page's first heading


class _Converter(MarkdownConverter):
    """markdownify with the options we want everywhere (no escaping: the text is for search, not rendering)."""

    def __init__(self) -> None:
        super().__init__(
            heading_style="ATX",
            bullets="-",
            strip=["a", "img", "span"],
            escape_asterisks=False,
            escape_underscores=False,
            escape_misc=False,
        )


def load_soup(body: bytes | str) -> BeautifulSoup:
    if not body or not (body.strip() if isinstance(body, str) else body.strip()):
        raise ParseError("empty page")
    # html.parser is the stdlib parser: no compiled dependency; it copes with the unclosed tags of real pages.
    return BeautifulSoup(body, "html.parser")


def main_element(soup: BeautifulSoup) -> Tag:
    for selector in MAIN_SELECTORS:
        found = soup.select_one(selector)
        if found is not None:
            return found
    if soup.body is not None:
        return soup.body
    raise ParseError("no <body> or main content element")


def page_title(soup: BeautifulSoup, main: Tag, fallback: str) -> str:
    h1 = main.find("h1") or soup.find("h1")
    if h1 is not None and h1.get_text(strip=True):
        return _squash(h1.get_text(" ", strip=True))
    if soup.title is not None and soup.title.get_text(strip=True):
        return _TITLE_SUFFIX.sub("", _squash(soup.title.get_text(" ", strip=True))) or fallback
    return fallback


def breadcrumb(soup: BeautifulSoup) -> list[str]:
    for selector in BREADCRUMB_SELECTORS:
        nav = soup.select_one(selector)
        if nav is not None:
            items = [_squash(li.get_text(" ", strip=True)) for li in nav.find_all("li")]
            items = [i for i in items if i]
            if items:
                return items
    return []


def strip_chrome(main: Tag) -> None:
    """Remove page furniture and hidden elements from the main element, in place."""
    for selector in CHROME_SELECTORS:
        for element in main.select(selector):
            element.decompose()
    for element in main.find_all(style=_HIDDEN_STYLE):
        element.decompose()


def to_markdown(element: Tag) -> str:
    text = _Converter().convert_soup(element)
    # Non-breaking spaces are common in IRD figures ("$15,600"): normalise so search and hashing agree.
    text = text.replace("\u00a0", " ")
    lines = [line.rstrip() for line in text.splitlines()]
    return _BLANK_RUNS.sub("\n\n", "\n".join(lines)).strip()


def split_sections(markdown: str, title: str, max_level: int = 3) -> list[Section]:
    """Split markdown at headings of level 2..max_level; an h3 is named "H2 > H3".

    The page's own h1 is dropped (it is the title); any later h1 is treated like an h2. Text before the
    first heading becomes the "Overview" section. Headings with no text under them are not sections.
    """
    sections: list[Section] = []
    current_h2: str | None = None
    name, level, lines = OVERVIEW_SECTION, 2, []
    in_fence = False
    seen_title = False

    def flush() -> None:
        body = "\n".join(lines).strip()
        if body:
            sections.append(Section(title=name, text=body, level=level))

    for line in markdown.splitlines():
        if _FENCE.match(line):
            in_fence = not in_fence
        match = None if in_fence else _HEADING_LINE.match(line)
        if match:
            depth, heading = len(match.group(1)), _squash(match.group(2).replace("**", ""))
            if depth == 1 and not seen_title and (heading == title or not sections and not lines):
                seen_title = True
                continue
            depth = max(depth, 2)
            if depth <= max_level:
                flush()
                if depth == 2:
                    current_h2, name = heading, heading
                else:
                    name = f"{current_h2} > {heading}" if current_h2 else heading
                level, lines = depth, []
                continue
        lines.append(line)
    flush()
    return sections


def parse_html(body: bytes | str, url: str, source_type: str, fallback_title: str = "") -> Document:
    soup = load_soup(body)
    main = main_element(soup)
    title = page_title(soup, main, fallback_title)
    crumbs = breadcrumb(soup)
    updated = _updated_date(main)
    ref, issued = _technical_meta(main) if source_type in TECHNICAL_SOURCE_TYPES else (None, None)
    strip_chrome(main)
    sections = split_sections(to_markdown(main), title)
    if not sections:
        raise ParseError("no main content found")
    return Document(
        url=url, title=title, source_type=source_type, sections=sections,
        breadcrumb=crumbs, ref=ref, issued=issued, updated=updated,
    )


def _updated_date(main: Tag) -> str | None:
    """Read and remove "Page last updated": a date-only bump is not a content change."""
    holder = main.select_one(".page-updated")
    if holder is None:
        return None
    time = holder.find("time")
    value = time.get("datetime") if time is not None else None
    holder.decompose()
    return str(value) if value else None


def _technical_meta(main: Tag) -> tuple[str | None, str | None]:
    """Read and remove the Tax Technical reference ("QB 24/05") and issue date."""
    meta = main.select_one(".tt-meta")
    if meta is None:
        return None, None
    ref_el = meta.select_one(".ref")
    issued_el = meta.select_one("time.issued") or meta.find("time")
    ref = _squash(ref_el.get_text(" ", strip=True)) if ref_el is not None else None
    issued = issued_el.get("datetime") if issued_el is not None else None
    meta.decompose()
    return ref or None, str(issued) if issued else None


def _squash(text: str) -> str:
    return " ".join(text.replace("\u00a0", " ").split())
