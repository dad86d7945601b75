"""Route a raw crawled body to the parser for its kind.

In: raw bytes, content type, URL, source type and the sources.yaml title.
Out: a `Document` (raises `ParseError` when the body cannot be parsed). PDFs (by content type or
magic bytes) go to `parse_pdf`, legislation pages to `parse_legislation`, everything else to
`parse_html`. The crawl store uses this to hash the extracted main content; the parse stage uses it
to write .work/documents/.
"""

from __future__ import annotations

from .records import Document, ParseError

__all__ = ["ParseError", "is_pdf", "parse_body"]


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
