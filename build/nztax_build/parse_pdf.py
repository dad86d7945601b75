"""Parse a PDF (IRD guide or specification) into markdown sections with pymupdf4llm.

In: the raw PDF bytes, URL, source type and the title from sources.yaml (a fallback).
Out: `Document`. An IRD guide (IR3G style) is split at its "Question N" headings: each question is
one section, and text before the first question is split at its own headings. Any other PDF is split
at its headings.

pymupdf4llm runs with layout mode off (`use_layout(False)`): IRD PDFs are plain text, and the layout
models are about ten times slower (notes/stack_check.md §8). Headings come back wrapped in `**`,
which is removed. Running headers and footers ("IR3G 2025 - page 4") are dropped: a line at the top
or bottom of a page that recurs, digits aside, on at least half the pages, and page-number lines.
"""

from __future__ import annotations

import re
from collections import Counter

from .records import Document, ParseError, Section

_QUESTION = re.compile(r"^Question\s+\d+[A-Za-z]?\b", re.I)
_HEADING_LINE = re.compile(r"^(#{1,6})\s+(.*?)\s*$")
_BOLD_LINE = re.compile(r"^\*\*(.+?)\*\*$")
_PAGE_NUMBER_LINE = re.compile(r"^(?:page\s+)?\d+(?:\s*(?:of|/)\s*\d+)?$", re.I)
_BLANK_RUNS = re.compile(r"\n{3,}")
_HIGHLIGHT_TAG = re.compile(r"</?mark>")  # pymupdf4llm wraps highlighted text in <mark>: markup, not words
EDGE_LINES = 2  # lines at the top and bottom of a page that may be a running header or footer
RECURRING_SHARE = 0.5  # a line on at least this share of pages (and on two or more) is furniture
OVERVIEW_SECTION = "Overview"


def parse_pdf(body: bytes, url: str, source_type: str = "guide_pdf", fallback_title: str = "") -> Document:
    # Imported here: pymupdf costs half a second and only PDFs need it.
    import pymupdf
    import pymupdf4llm

    try:
        pdf = pymupdf.open(stream=body, filetype="pdf")
    except Exception as exc:  # pymupdf raises its own FileDataError / RuntimeError variants
        raise ParseError(f"not a readable PDF ({exc})") from None
    if pdf.page_count == 0:
        raise ParseError("PDF has no pages")
    pymupdf4llm.use_layout(False)
    pages = [chunk["text"] for chunk in pymupdf4llm.to_markdown(pdf, page_chunks=True, show_progress=False)]
    meta_title = (pdf.metadata or {}).get("title", "").strip()
    pdf.close()

    page_lines = [[_unbold(_HIGHLIGHT_TAG.sub("", line).rstrip()) for line in page.splitlines()] for page in pages]
    title = meta_title or _first_heading(page_lines) or fallback_title
    text = "\n\n".join("\n".join(lines) for lines in _drop_running_lines(page_lines))
    text = _BLANK_RUNS.sub("\n\n", text).strip()
    if not text:
        raise ParseError("PDF has no extractable text")
    sections = split_pdf_sections(text, title)
    if not sections:
        raise ParseError("PDF has no content under its title")
    return Document(url=url, title=title, source_type=source_type, sections=sections)


def split_pdf_sections(text: str, title: str) -> list[Section]:
    lines = text.splitlines()
    has_questions = any(_heading_text(line) and _QUESTION.match(_heading_text(line) or "") for line in lines)
    sections: list[Section] = []
    name, body = OVERVIEW_SECTION, []
    in_question = False

    def flush() -> None:
        content = _BLANK_RUNS.sub("\n\n", "\n".join(body)).strip()
        if content:
            sections.append(Section(title=name, text=content, level=2))

    for line in lines:
        heading = _heading_text(line)
        if heading is not None:
            if heading == title and not sections and not "\n".join(body).strip():
                continue  # the document title itself
            starts_question = bool(_QUESTION.match(heading))
            # In a guide, headings inside a question (e.g. "Example") stay in that question.
            if starts_question or not has_questions or not in_question:
                flush()
                name, body = heading, []
                in_question = in_question or starts_question
                continue
            body.extend(["", f"**{heading}**", ""])  # a sub-heading inside a question: keep it as bold text
            continue
        body.append(line)
    flush()
    return sections


def _heading_text(line: str) -> str | None:
    """The heading's text if the line is a markdown heading or a line that is bold throughout."""
    stripped = line.strip()
    match = _HEADING_LINE.match(stripped)
    if match:
        return " ".join(match.group(2).replace("**", "").split()) or None
    bold = _BOLD_LINE.match(stripped)
    if bold and _QUESTION.match(bold.group(1).strip()):
        return " ".join(bold.group(1).split())
    return None


def _unbold(line: str) -> str:
    """'## **Question 1 ...**' -> '## Question 1 ...' (pymupdf4llm bolds its headings)."""
    match = _HEADING_LINE.match(line.strip())
    if match:
        return f"{match.group(1)} {match.group(2).replace('**', '').strip()}"
    return line


def _first_heading(page_lines: list[list[str]]) -> str | None:
    for lines in page_lines[:1]:
        for line in lines:
            match = _HEADING_LINE.match(line.strip())
            if match:
                return match.group(2).strip() or None
    return None


def _furniture_key(line: str) -> str:
    return re.sub(r"\d+", "#", line.strip().lstrip("#").replace("*", "").strip().lower())


def _edge_indexes(lines: list[str]) -> list[int]:
    filled = [i for i, line in enumerate(lines) if line.strip()]
    return sorted(set(filled[:EDGE_LINES] + filled[-EDGE_LINES:]))


def _drop_running_lines(page_lines: list[list[str]]) -> list[list[str]]:
    counts: Counter[str] = Counter()
    for lines in page_lines:
        counts.update({_furniture_key(lines[i]) for i in _edge_indexes(lines)})
    threshold = max(2, RECURRING_SHARE * len(page_lines))
    recurring = {key for key, n in counts.items() if n >= threshold}
    cleaned = []
    for page_number, lines in enumerate(page_lines):
        drop = set()
        for i in _edge_indexes(lines):
            key = _furniture_key(lines[i])
            if _QUESTION.match(_heading_text(lines[i]) or ""):
                continue  # guide questions share a pattern but are never furniture
            # Keep the first page's first heading: a recurring running title is the document title there.
            if key in recurring and not (page_number == 0 and lines[i].lstrip().startswith("#")):
                drop.add(i)
            elif _PAGE_NUMBER_LINE.match(lines[i].strip()):
                drop.add(i)
        cleaned.append([line for i, line in enumerate(lines) if i not in drop])
    return cleaned
