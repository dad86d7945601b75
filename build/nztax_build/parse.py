"""Route a raw crawled body to the parser for its kind.

In: raw bytes, content type, URL, source type and the sources.yaml title.
Out: a `Document` (raises `ParseError` when the body cannot be parsed). PDFs (by content type or
magic bytes) go to `parse_pdf`, legislation pages to `parse_legislation`, everything else to
`parse_html`. The crawl store uses this to hash the extracted main content; the parse stage uses it
to write .work/documents/.

`parse_with_warnings` also returns the parser warnings: structure a page of its kind should have
but whose parse lacks (no breadcrumb, no provision ids, a Tax Technical item without reference or
issue date, a "Question N" heading left inside another section) and any warning a parsing library
raised. The parse stage reports them; the bundled snapshot must parse with none.
"""

from __future__ import annotations

import re
import warnings

from .records import TECHNICAL_SOURCE_TYPES, Document, ParseError

__all__ = ["ParseError", "document_warnings", "is_pdf", "parse_body", "parse_with_warnings"]

# A guide question heading that the PDF parser should have made a section of its own.
_UNSPLIT_QUESTION = re.compile(r"^\s*(?:#{1,6}\s*)?\**Question\s+\d+[A-Za-z]?\b", re.M)


def is_pdf(body: bytes, content_type: str) -> bool:
    return "pdf" in (content_type or "").lower() or body[:5] == b"%PDF-"


def parse_body(body: bytes, content_type: str, url: str, source_type: str, title: str = "") -> Document:
    if is_pdf(body, content_type):
        from .parse_pdf import parse_pdf

        return parse_pdf(body, url, source_type, title)
    if source_type == "legislation":
        from .parse_legislation import parse_legislation

        return parse_legislation(body, url, source_type, title)
    from .parse_html import parse_html

    return parse_html(body, url, source_type, title)


def document_warnings(doc: Document) -> list[str]:
    """What a parsed page of its kind should have but does not (empty list: nothing missing)."""
    found: list[str] = []
    is_html = doc.source_type != "guide_pdf"
    if is_html and not doc.breadcrumb:
        found.append("no breadcrumb found")
    if doc.source_type in TECHNICAL_SOURCE_TYPES:
        if not doc.ref:
            found.append("Tax Technical item without a reference id")
        if not doc.issued:
            found.append("Tax Technical item without an issue date")
    if doc.source_type == "legislation" and not any(section.anchor for section in doc.sections):
        found.append('no provision ids (such as "LC 15") found')
    for section in doc.sections:
        if _UNSPLIT_QUESTION.search(section.text):
            found.append(f"section {section.title!r} contains a \"Question N\" heading that was not split out")
    return found


def parse_with_warnings(body: bytes, content_type: str, url: str, source_type: str, title: str = "") -> tuple[Document, list[str]]:
    """`parse_body` plus the parser warnings for the page (see the module docstring)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        doc = parse_body(body, content_type, url, source_type, title)
    library = [f"{w.category.__name__}: {w.message}" for w in caught]
    return doc, library + document_warnings(doc)
