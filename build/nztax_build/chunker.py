"""Tax-aware chunking: documents -> parent sections and ~1,000-character child chunks.

In: parsed `Document`s. Out: parent `Chunk`s (one per section: an HTML h2/h3 section, a legislation
provision, a guide question; a section longer than `parent_max` becomes numbered parts) and child
`Chunk`s (pieces of about `size` characters of one parent, used for search).

- A child's text starts with its breadcrumb, "Page title > Section", so a piece read alone still
  says where it comes from (this helps both BM25 and dense retrieval).
- Children overlap by up to `overlap` characters, only inside their parent; pieces break at block,
  line and sentence boundaries, and a table split across pieces repeats its header rows.
- Ids are content hashes ("p_<hash>", "c_<hash>"): the same text always gets the same id, so an
  unchanged section keeps its ids (and its cached embeddings) from build to build.
- `tax_years` lists every tax year the text mentions: "2024-25", "2025 income year" (= 2024-25),
  dates such as "31 July 2024", "31/07/2024" or "from 1 April 2026" (the tax year they fall in,
  1 April to 31 March), and ranges ("1 April 2024 to 31 March 2026", "2024-25 to 2026-27",
  "income years 2024 to 2026") expanded year by year. An open-ended "from 1 April 2025" runs to `open_until` (the build passes the current tax
  year: the rule still applies now). A child carries its parent's years: it is a piece of that
  section, and a table row under "Tax rates from 1 April 2025" applies to the years the section does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from nztax.calendar_dates import month_alternatives, months

from .records import Chunk, Document, Section, sha256_text

ID_HASH_CHARS = 16
MAX_RANGE_YEARS = 10  # a "from ... to ..." range longer than this is not expanded (likely a misread)

_MONTHS = months()
_MONTH = "(" + month_alternatives() + r")\.?"
_YEAR = r"((?:19|20)\d{2})"
_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("iso", re.compile(r"\b" + _YEAR + r"-(\d{2})-(\d{2})\b")),
    ("dmy", re.compile(r"\b(\d{1,2})(?:st|nd|rd|th)?\s+" + _MONTH + r",?\s+" + _YEAR + r"\b", re.I)),
    ("my", re.compile(r"\b" + _MONTH + r",?\s+" + _YEAR + r"\b", re.I)),
    ("range", re.compile(r"\b" + _YEAR + r"\s*[-–/]\s*(\d{4}|\d{2})\b(?!\s*[-–/]\s*\d)")),
    # New Zealand writes numeric dates day first: 31/07/2024.
    ("dmy_numeric", re.compile(r"\b(\d{1,2})[/.](\d{1,2})[/.]" + _YEAR + r"\b")),
    # "income years 2024 to 2026", "tax year 2026" (named, like "2026 tax year", by the year it ends in).
    ("years_after", re.compile(r"\b(?:income|tax)\s+years?\s+((?:" + _YEAR[1:-1] + r"\s*(?:,|and|or|to|through|[-–])\s*)*" + _YEAR[1:-1] + r")\b(?!\s*[-–/]\s*\d)", re.I)),
    ("income_year", re.compile(r"\b((?:" + _YEAR[1:-1] + r"(?:\s*,\s*|\s+and\s+|\s+or\s+))*" + _YEAR[1:-1] + r")\s+(?:income|tax)\s+years?\b", re.I)),
]
# Text allowed between two year mentions for them to be read as a range.
_RANGE_JOIN = re.compile(r"^\s*(?:to|until|till|through|and|[-–])\s*$", re.I)
_RANGE_LEAD = re.compile(r"(?:between|from)\s*$", re.I)
_OPEN_START = re.compile(r"\b(?:from|since|starting|beginning|effective|on or after|on and after)\s+(?:the\s+)?$", re.I)
_LEFT_CONTEXT = 24  # characters before a mention searched for "from" / "between"


@dataclass
class _YearMention:
    start: int
    end: int
    first: int  # starting calendar year of the tax year (2024 for 2024-25)
    last: int


def tax_year_label(start_year: int) -> str:
    return f"{start_year}-{(start_year + 1) % 100:02d}"


def _tax_year_of(year: int, month: int) -> int:
    """NZ tax years run 1 April to 31 March: 31 March 2025 is in 2024-25, 1 April 2025 in 2025-26."""
    return year if month >= 4 else year - 1


def _mentions(text: str) -> list[_YearMention]:
    found: list[_YearMention] = []
    for kind, pattern in _PATTERNS:
        for m in pattern.finditer(text):
            if kind == "iso":
                year, month = int(m.group(1)), int(m.group(2))
                if not 1 <= month <= 12:
                    continue
                found.append(_YearMention(m.start(), m.end(), _tax_year_of(year, month), _tax_year_of(year, month)))
            elif kind == "dmy":
                month, year = _MONTHS[m.group(2).lower()], int(m.group(3))
                if not 1 <= int(m.group(1)) <= 31:
                    continue
                found.append(_YearMention(m.start(), m.end(), _tax_year_of(year, month), _tax_year_of(year, month)))
            elif kind == "my":
                month, year = _MONTHS[m.group(1).lower()], int(m.group(2))
                found.append(_YearMention(m.start(), m.end(), _tax_year_of(year, month), _tax_year_of(year, month)))
            elif kind == "dmy_numeric":
                day, month, year = int(m.group(1)), int(m.group(2)), int(m.group(3))
                if not (1 <= day <= 31 and 1 <= month <= 12):
                    continue
                found.append(_YearMention(m.start(), m.end(), _tax_year_of(year, month), _tax_year_of(year, month)))
            elif kind == "years_after":
                ends = [int(y) for y in re.findall(r"(?:19|20)\d{2}", m.group(1))]
                joins = re.split(r"(?:19|20)\d{2}", m.group(1))[1:-1]
                for index, year in enumerate(ends):
                    first = year - 1
                    if index and re.search(r"to|through|[-–]", joins[index - 1]) and 0 < year - ends[index - 1] <= MAX_RANGE_YEARS:
                        first = ends[index - 1] - 1  # "2024 to 2026": every year in between
                    found.append(_YearMention(m.start(), m.end(), first, year - 1))
            elif kind == "range":
                first, second = int(m.group(1)), m.group(2)
                following = int(second) if len(second) == 4 else (first // 100) * 100 + int(second)
                if following == first + 1:
                    found.append(_YearMention(m.start(), m.end(), first, first))
            else:  # "2025 income year": IRD names an income year by the calendar year it ends in
                for year in re.findall(r"(?:19|20)\d{2}", m.group(1)):
                    found.append(_YearMention(m.start(), m.end(), int(year) - 1, int(year) - 1))
    # Drop a mention inside a longer one ("March 2025" inside "31 March 2025").
    found.sort(key=lambda x: (x.start, -(x.end - x.start)))
    kept: list[_YearMention] = []
    for mention in found:
        inside_longer = any(
            k.start <= mention.start and mention.end <= k.end and (k.end - k.start) > (mention.end - mention.start)
            for k in kept
        )
        if not inside_longer:
            kept.append(mention)
    return kept


def tax_years_in(text: str, open_until: int | None = None) -> list[str]:
    """Every tax year ("YYYY-YY") the text mentions, ranges expanded, sorted.

    `open_until` is the starting calendar year of the last tax year an open-ended "from <date>"
    reaches (e.g. 2026 for 2026-27); None leaves such a date as its own year only.
    """
    text = text.replace("\u2013", "–").replace("\u2014", "–")
    mentions = _mentions(text)
    years: set[int] = set()
    for mention in mentions:
        years.update(range(mention.first, mention.last + 1))
    closes_range: set[int] = set()  # mentions that open a "from X to Y" range
    for index, (left, right) in enumerate(zip(mentions, mentions[1:])):
        between = text[left.end:right.start]
        if not _RANGE_JOIN.match(between):
            continue
        if between.strip().lower() == "and" and not _RANGE_LEAD.search(text[max(0, left.start - _LEFT_CONTEXT):left.start]):
            continue  # "2024-25 and 2025-26" is a list, not a range, unless introduced by "between"
        closes_range.add(index)
        if 0 < right.last - left.first <= MAX_RANGE_YEARS:
            years.update(range(left.first, right.last + 1))
    if open_until is not None:
        for index, mention in enumerate(mentions):
            opens = _OPEN_START.search(text[max(0, mention.start - _LEFT_CONTEXT):mention.start])
            if opens and index not in closes_range and 0 < open_until - mention.first <= MAX_RANGE_YEARS:
                years.update(range(mention.first, open_until + 1))
    return [tax_year_label(y) for y in sorted(years)]


# -- splitting ----------------------------------------------------------------------------------

@dataclass
class _Unit:
    text: str
    joiner: str  # what goes before this unit when it follows another one in the same piece
    table_header: str | None = None  # header rows of the table this row belongs to


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z(\"'$0-9])")
_LIST_MARKER = re.compile(r"^\s*(?:\d+[.)]|[-*+])\s+")


def _is_table(block: str) -> bool:
    lines = block.splitlines()
    return len(lines) >= 2 and all(line.lstrip().startswith("|") for line in lines)


def _units(text: str, size: int) -> list[_Unit]:
    units: list[_Unit] = []
    for block_number, block in enumerate(b for b in re.split(r"\n\s*\n", text) if b.strip()):
        block_joiner = "\n\n" if block_number else ""
        lines = block.splitlines()
        if _is_table(block):
            header = "\n".join(lines[:2]) if len(lines) > 2 and set(lines[1].replace("|", "").strip()) <= set("-: ") else None
            body_rows = lines[2:] if header else lines
            if header:
                units.append(_Unit(header, block_joiner, None))
            for i, row in enumerate(body_rows):
                units.append(_Unit(row, "\n" if (i or header) else block_joiner, header))
            continue
        for line_number, line in enumerate(lines):
            line_joiner = block_joiner if line_number == 0 else "\n"
            marker = _LIST_MARKER.match(line)  # "2. From 1 April..." is one sentence, not "2." + "From..."
            lead = marker.group(0) if marker else ""
            sentences = _SENTENCE_END.split(line[len(lead):]) if len(line) > size // 4 else [line[len(lead):]]
            sentences[0] = lead + sentences[0]
            for s_number, sentence in enumerate(sentences):
                joiner = line_joiner if s_number == 0 else " "
                if len(sentence) <= size:
                    units.append(_Unit(sentence, joiner))
                    continue
                words, current = sentence.split(" "), ""
                for word in words:  # a sentence longer than a chunk: wrap at words
                    if current and len(current) + 1 + len(word) > size:
                        units.append(_Unit(current, joiner))
                        joiner, current = " ", word
                    else:
                        current = f"{current} {word}" if current else word
                if current:
                    units.append(_Unit(current, joiner))
    return units


def _join(units: list[_Unit]) -> str:
    parts = []
    for i, unit in enumerate(units):
        if i == 0:
            if unit.table_header:  # a piece that starts inside a table repeats its header
                parts.append(unit.table_header + "\n")
            parts.append(unit.text)
        else:
            parts.append(unit.joiner + unit.text)
    return "".join(parts).strip()


def split_text(text: str, size: int, overlap: int) -> list[str]:
    """Split text into pieces of about `size` characters with up to `overlap` characters repeated."""
    text = text.strip()
    if len(text) <= size:
        return [text] if text else []
    units = _units(text, size)
    pieces: list[str] = []
    current: list[_Unit] = []
    for unit in units:
        candidate = current + [unit]
        if current and len(_join(candidate)) > size:
            pieces.append(_join(current))
            carry: list[_Unit] = []
            for previous in reversed(current):
                if len(_join([previous] + carry)) > overlap:
                    break
                carry.insert(0, previous)
            # never let the carried overlap alone fill the next piece
            current = carry if len(_join(carry + [unit])) <= size else []
        current.append(unit)
    if current:
        pieces.append(_join(current))
    return [p for p in pieces if p]


# -- documents -> chunks ------------------------------------------------------------------------

def _hash_id(prefix: str, *parts: str) -> str:
    return f"{prefix}_{sha256_text(chr(10).join(parts))[:ID_HASH_CHARS]}"


def display_title(doc: Document) -> str:
    """Tax Technical items are cited by reference: "QB 24/05: Title"."""
    if doc.ref and doc.ref not in doc.title:
        return f"{doc.ref}: {doc.title}"
    return doc.title


def _parent_sections(doc: Document, parent_max: int) -> list[Section]:
    sections: list[Section] = []
    for section in doc.sections:
        if len(section.text) <= parent_max:
            sections.append(section)
            continue
        parts = split_text(section.text, parent_max, 0)
        for number, part in enumerate(parts, start=1):
            sections.append(Section(f"{section.title} (part {number} of {len(parts)})", part, section.level, section.anchor))
    return sections


def chunk_document(
    doc: Document, size: int, overlap: int, parent_max: int, open_until: int | None = None
) -> tuple[list[Chunk], list[Chunk]]:
    """Parents and children of one document; `open_until` as in `tax_years_in`."""
    title = display_title(doc)
    parents: list[Chunk] = []
    children: list[Chunk] = []
    seen: set[str] = set()
    for section in _parent_sections(doc, parent_max):
        parent_id = _hash_id("p", doc.url, section.title, section.text)
        while parent_id in seen:  # the same text twice under the same heading: still two parents
            parent_id = _hash_id("p", parent_id, "again")
        seen.add(parent_id)
        parent_years = tax_years_in(f"{title}\n{section.title}\n{section.text}", open_until)
        common = dict(url=doc.url, title=title, section=section.title, source_type=doc.source_type, crawl_date=doc.crawl_date)
        parents.append(Chunk(id=parent_id, tax_years=parent_years, text=section.text, **common))
        breadcrumb = f"{title} > {section.title}"
        for piece in split_text(section.text, size, overlap):
            text = f"{breadcrumb}\n\n{piece}"
            child_id = _hash_id("c", parent_id, text)
            while child_id in seen:
                child_id = _hash_id("c", child_id, "again")
            seen.add(child_id)
            children.append(
                Chunk(id=child_id, parent_id=parent_id, tax_years=list(parent_years), text=text, **common)
            )
    return parents, children
