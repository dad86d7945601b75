"""The bundled offline snapshot: authored markdown -> IRD-like HTML and PDFs in the crawl store.

In: `corpus/snapshot_src/pages/**/*.md` (one web page each) and `corpus/snapshot_src/pdfs/*.md` (one PDF
each), every file a YAML front matter block plus a markdown body (format: docs of helper C /
SNAPSHOT_FORMAT). Out: the same files a crawl writes (`raw/<key>.html|pdf` + `manifest.json`, through
`nztax_build.store.CrawlStore`) and `sources.yaml` listing every snapshot URL.

Everything is deterministic: pages are processed in URL order, `fetched_at` is the fixed snapshot date,
`Last-Modified` is the page's own `updated` date, the alert banner is chosen by a hash of the URL, and PDFs
carry fixed metadata dates and no random file ID. Rerunning gives byte-identical output.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import html
import io
import re
import sys
from contextlib import contextmanager
from dataclasses import dataclass, field
from email.utils import format_datetime
from pathlib import Path
from urllib.parse import urlsplit

import yaml

from nztax.contract import SOURCE_TYPES, TAX_YEAR_PATTERN

from .evidence import EvidenceError, Verified, parse_verified

# The day this snapshot's text was checked against nz_tax_facts.md; every stored page says it was
# "fetched" then, so crawl dates in chunks and citations are stable across regenerations.
SNAPSHOT_DATE = dt.date(2026, 11, 21)

TAX_TECHNICAL_TYPES = ("qwba", "interpretation_statement", "tib")
RECRAWL = ("daily", "weekly", "monthly")
HTML_CONTENT_TYPE = "text/html; charset=utf-8"
PDF_CONTENT_TYPE = "application/pdf"
YEAR_PATTERN = re.compile(TAX_YEAR_PATTERN)

# A legislation heading starts with the provision's id: "LC 15", "YA 1", "Schedule 1 Part A", "41".
PROVISION_HEADING = re.compile(
    r"^(?P<label>Schedule \d+(?: Part [A-Z])?|[A-Z]{2} \d+[A-Z]?|\d+[A-Z]?)\s+(?P<heading>.+)$"
)
SUBSECTION_LABEL = re.compile(r"<p>\((?P<label>[0-9]+[A-Z]?|[a-z]{1,4})\)\s+")

SNAPSHOT_NOTICE = (
    "This page is part of a paraphrased offline snapshot written by the nztax project in its own words "
    "from public {publisher} material; it is not the official text. Running <code>make crawl</code> "
    "replaces it with the live page."
)

# Rotating alert banners (one chosen per page by URL hash): navigation furniture for the parser to strip.
IRD_ALERTS = (
    "Scam alert: we will never ask for your bank details or password by text or email.",
    "myIR will be unavailable on Sunday morning for planned maintenance.",
    "Individual income tax assessments are being issued from late May.",
    "Check that your tax code is right so the correct amount of tax comes off your pay.",
)
LEGISLATION_ALERTS = (
    "Some legislation is affected by amendments that are not yet incorporated.",
    "This version of the Act is the latest reprint available on this website.",
)

IRD_NAV = (
    ("/income-tax", "Income tax"),
    ("/kiwisaver", "KiwiSaver"),
    ("/student-loans", "Student loans"),
    ("/working-for-families", "Working for Families"),
    ("/roles", "Roles"),
    ("/contact-us", "Contact us"),
)
TAX_TECHNICAL_NAV = (
    ("/questions-we-ve-been-asked", "Questions we've been asked"),
    ("/interpretation-statements", "Interpretation statements"),
    ("/tib", "Tax Information Bulletins"),
    ("/new-legislation", "New legislation"),
)
LEGISLATION_NAV = (
    ("/act/public", "Acts"),
    ("/bill", "Bills"),
    ("/regulation/public", "Secondary legislation"),
    ("/about", "About this site"),
)


class SnapshotError(ValueError):
    """An authored source file is missing a field or has a malformed value."""


@dataclass(frozen=True)
class SnapshotSource:
    """One authored page or PDF: its front matter and markdown body."""

    path: Path
    kind: str  # "page" or "pdf"
    url: str
    title: str
    source_type: str
    topic: str
    recrawl: str
    updated: dt.date
    years: tuple[str, ...]
    breadcrumbs: tuple[str, ...]
    body: str
    examples: tuple[dict, ...] = ()
    other_figures: tuple[str, ...] = ()
    ref: str | None = None
    issued: dt.date | None = None
    verified: Verified | None = None
    meta: dict = field(default_factory=dict, compare=False)


@dataclass(frozen=True)
class RenderedSource:
    source: SnapshotSource
    body: bytes
    content_type: str


# ------------------------------------------------------------------------------------------------
# Reading the authored sources.


def split_front_matter(text: str, path: Path) -> tuple[dict, str]:
    if not text.startswith("---\n"):
        raise SnapshotError(f"{path}: must start with a '---' front matter block")
    end = text.find("\n---\n", 4)
    if end < 0:
        raise SnapshotError(f"{path}: front matter block is not closed with '---'")
    try:
        meta = yaml.safe_load(text[4:end]) or {}
    except yaml.YAMLError as exc:
        raise SnapshotError(f"{path}: front matter is not valid YAML: {exc}") from None
    if not isinstance(meta, dict):
        raise SnapshotError(f"{path}: front matter must be a mapping")
    return meta, text[end + 5 :]


def _as_date(value, path: Path, name: str) -> dt.date:
    if isinstance(value, dt.date):
        return value
    try:
        return dt.date.fromisoformat(str(value))
    except ValueError:
        raise SnapshotError(f"{path}: {name}: expected a date YYYY-MM-DD, got {value!r}") from None


def _require(meta: dict, name: str, path: Path):
    value = meta.get(name)
    if value in (None, "", []):
        raise SnapshotError(f"{path}: front matter field `{name}` is required")
    return value


def parse_source(path: Path, kind: str) -> SnapshotSource:
    meta, body = split_front_matter(path.read_text(encoding="utf-8"), path)
    url = str(_require(meta, "url", path))
    if not url.startswith("https://"):
        raise SnapshotError(f"{path}: url must start with https:// ({url})")
    source_type = meta.get("source_type", "guide_pdf" if kind == "pdf" else None)
    if source_type not in SOURCE_TYPES:
        raise SnapshotError(f"{path}: source_type must be one of {', '.join(SOURCE_TYPES)} (got {source_type!r})")
    if (kind == "pdf") != (source_type == "guide_pdf"):
        raise SnapshotError(f"{path}: files under pdfs/ (and only those) use source_type guide_pdf")
    recrawl = meta.get("recrawl", "monthly" if kind == "pdf" else "weekly")
    if recrawl not in RECRAWL:
        raise SnapshotError(f"{path}: recrawl must be one of {', '.join(RECRAWL)} (got {recrawl!r})")
    years = tuple(str(y) for y in _require(meta, "years", path))
    bad = [y for y in years if not YEAR_PATTERN.match(y)]
    if bad:
        raise SnapshotError(f"{path}: years must look like 2026-27 (got {', '.join(bad)})")
    examples = tuple(meta.get("examples") or ())
    for i, ex in enumerate(examples):
        if not isinstance(ex, dict) or not {"tool", "args", "field", "value"} <= set(ex):
            raise SnapshotError(f"{path}: examples[{i}] needs tool, args, field and value")
    breadcrumbs = tuple(str(b) for b in (meta.get("breadcrumbs") or ("Home",)))
    try:
        verified = parse_verified(meta.get("verified"), str(path))
    except EvidenceError as exc:
        raise SnapshotError(str(exc)) from None
    if source_type in TAX_TECHNICAL_TYPES:
        _require(meta, "ref", path)
        _require(meta, "issued", path)
    return SnapshotSource(
        path=path,
        kind=kind,
        url=url,
        title=str(_require(meta, "title", path)),
        source_type=source_type,
        topic=str(_require(meta, "topic", path)),
        recrawl=recrawl,
        updated=_as_date(_require(meta, "updated", path), path, "updated"),
        years=years,
        breadcrumbs=breadcrumbs,
        body=body,
        examples=examples,
        other_figures=tuple(str(f) for f in (meta.get("other_figures") or ())),
        ref=str(meta["ref"]) if meta.get("ref") else None,
        issued=_as_date(meta["issued"], path, "issued") if meta.get("issued") else None,
        verified=verified,
        meta=meta,
    )


def load_sources(src_dir: Path) -> list[SnapshotSource]:
    """Every authored page and PDF under `src_dir`, sorted by URL; duplicate URLs are an error."""
    src_dir = Path(src_dir)
    if not src_dir.is_dir():
        raise SnapshotError(f"snapshot source directory not found: {src_dir}")
    found = [parse_source(p, "page") for p in sorted((src_dir / "pages").rglob("*.md"))]
    found += [parse_source(p, "pdf") for p in sorted((src_dir / "pdfs").glob("*.md"))]
    by_url: dict[str, SnapshotSource] = {}
    for s in found:
        if s.url in by_url:
            raise SnapshotError(f"{s.path}: url {s.url} is also used by {by_url[s.url].path}")
        by_url[s.url] = s
    return [by_url[u] for u in sorted(by_url)]


# ------------------------------------------------------------------------------------------------
# Markdown -> HTML.


def markdown_to_html(text: str) -> str:
    import markdown

    return markdown.markdown(text, extensions=["tables", "sane_lists"], output_format="html")


def _long_date(day: dt.date) -> str:
    return f"{day.day} {day.strftime('%B %Y')}"


def _pick(options: tuple[str, ...], url: str) -> str:
    return options[int(hashlib.sha256(url.encode()).hexdigest(), 16) % len(options)]


def _nav(links: tuple[tuple[str, str], ...], css: str, label: str) -> str:
    items = "".join(f'<li><a href="{href}">{html.escape(text)}</a></li>' for href, text in links)
    return f'<nav class="{css}" aria-label="{label}"><ul>{items}</ul></nav>'


def _breadcrumb(source: SnapshotSource) -> str:
    # Links climb the page's own URL path, one segment per crumb, as the real sites do.
    segments = [s for s in urlsplit(source.url).path.split("/") if s]
    items = []
    for i, crumb in enumerate(source.breadcrumbs):
        href = "/" if i == 0 else "/" + "/".join(segments[:i])
        items.append(f'<li><a href="{html.escape(href)}">{html.escape(crumb)}</a></li>')
    items.append(f"<li>{html.escape(source.title)}</li>")
    return f'<nav class="breadcrumb" aria-label="Breadcrumb"><ol>{"".join(items)}</ol></nav>'


def _label_subsections(fragment: str) -> str:
    return SUBSECTION_LABEL.sub(lambda m: f'<p><span class="label">({m.group("label")})</span> ', fragment)


def split_provisions(body: str, path: Path | None = None) -> tuple[str, list[tuple[str, str, str]]]:
    """A legislation body as (intro markdown, [(label, heading, markdown)]) split on its h2 headings."""
    parts = re.split(r"^## +(.+)$", body, flags=re.MULTILINE)
    intro, provisions = parts[0], []
    for heading_line, text in zip(parts[1::2], parts[2::2]):
        m = PROVISION_HEADING.match(heading_line.strip())
        if not m:
            raise SnapshotError(f"{path}: legislation heading must start with a section id: {heading_line!r}")
        provisions.append((m.group("label"), m.group("heading"), text))
    return intro, provisions


def _legislation_main(source: SnapshotSource) -> str:
    intro, provisions = split_provisions(source.body, source.path)
    out = [markdown_to_html(intro)] if intro.strip() else []
    for label, heading, text in provisions:
        anchor = label.replace(" ", "")
        out.append(
            f'<div class="prov" id="{anchor}"><h2 class="prov"><span class="label">{html.escape(label)}</span> '
            f'<span class="heading">{html.escape(heading)}</span></h2>'
            f'<div class="subprov">{_label_subsections(markdown_to_html(text))}</div></div>'
        )
    return "".join(out)


def render_html(source: SnapshotSource) -> str:
    """The page as the live site would serve it: header, banner, breadcrumb, main content, footer."""
    title = html.escape(source.title)
    if source.source_type == "legislation":
        header = _nav(LEGISLATION_NAV, "main-nav", "Main")
        alert = _pick(LEGISLATION_ALERTS, source.url)
        main_html = _legislation_main(source)
        site_name, publisher = "New Zealand Legislation", "New Zealand legislation"
        updated_label = "Version as at"
    else:
        tax_technical = source.source_type in TAX_TECHNICAL_TYPES
        header = _nav(TAX_TECHNICAL_NAV if tax_technical else IRD_NAV, "main-nav", "Main")
        alert = _pick(IRD_ALERTS, source.url)
        main_html = markdown_to_html(source.body)
        site_name = "Tax Technical" if tax_technical else "Inland Revenue"
        publisher = "Inland Revenue"
        updated_label = "Page last updated:"
    meta = ""
    if source.source_type in TAX_TECHNICAL_TYPES:
        meta = (
            f'<div class="tt-meta"><span class="ref">{html.escape(source.ref or "")}</span> '
            f'<time class="issued" datetime="{source.issued.isoformat()}">{_long_date(source.issued)}</time></div>'
        )
    updated = source.updated
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        f"<title>{title} | {site_name}</title></head><body>\n"
        f'<header class="site-header">{header}</header>\n'
        f'<div class="alert-banner" role="alert"><p>{html.escape(alert)}</p></div>\n'
        f"{_breadcrumb(source)}\n"
        f'<main id="main-content"><h1>{title}</h1>{meta}<div class="rich-text">\n{main_html}\n</div>\n'
        f'<p class="page-updated">{updated_label} <time datetime="{updated.isoformat()}">'
        f"{_long_date(updated)}</time></p></main>\n"
        f'<footer class="site-footer"><p>{SNAPSHOT_NOTICE.format(publisher=publisher)}</p></footer>'
        "</body></html>\n"
    )


# ------------------------------------------------------------------------------------------------
# Markdown -> PDF (pymupdf Story), reproducibly.

PDF_CSS = """
body { font-family: sans-serif; font-size: 9.5pt; line-height: 1.3; }
h1 { font-size: 17pt; margin-bottom: 4pt; }
h2 { font-size: 13pt; margin-top: 10pt; }
h3 { font-size: 11pt; margin-top: 8pt; }
p.doc-meta { font-size: 8.5pt; color: #444444; }
table { border-collapse: collapse; margin: 16pt 0; }
th, td { border: 0.5pt solid #777777; padding: 2pt 4pt; font-size: 8.5pt; }
code { font-family: monospace; }
"""
# No header-cell fill: pymupdf's Story draws it again over later lines, and the parser then reads
# them as highlighted and splits words where the fill ends. The wide table margin keeps a bold line
# above a table from being read as its header row.
PDF_MARGIN = 50  # points on every side of an A4 page
PDF_FOOTER = "Paraphrased offline snapshot by nztax, not the official document. make crawl replaces it."


def _pdf_date(day: dt.date) -> str:
    return f"D:{day.strftime('%Y%m%d')}000000Z"


def render_pdf(source: SnapshotSource) -> bytes:
    """The PDF: title block + body via a pymupdf Story; fixed metadata and no file ID, so bytes repeat."""
    import pymupdf

    header = (
        f"<h1>{html.escape(source.title)}</h1>"
        f'<p class="doc-meta">Inland Revenue · {_long_date(source.updated)}</p>'
    )
    story = pymupdf.Story(html=header + markdown_to_html(source.body), user_css=PDF_CSS)
    buffer = io.BytesIO()
    writer = pymupdf.DocumentWriter(buffer)
    page_rect = pymupdf.paper_rect("a4")
    content_rect = page_rect + (PDF_MARGIN, PDF_MARGIN, -PDF_MARGIN, -PDF_MARGIN)
    more = True
    while more:
        device = writer.begin_page(page_rect)
        more, _ = story.place(content_rect)
        story.draw(device)
        writer.end_page()
    writer.close()
    doc = pymupdf.open("pdf", buffer.getvalue())
    for number, page in enumerate(doc, start=1):
        footer_at = pymupdf.Point(PDF_MARGIN, page_rect.height - PDF_MARGIN / 2)
        page.insert_text(footer_at, f"{PDF_FOOTER}   Page {number} of {doc.page_count}", fontsize=7)
    stamp = _pdf_date(source.updated)
    doc.set_metadata(
        {
            "title": source.title,
            "author": "Inland Revenue (paraphrased by nztax)",
            "subject": source.topic,
            "keywords": "",
            "creator": "nztax snapshot",
            "producer": "nztax snapshot",
            "creationDate": stamp,
            "modDate": stamp,
        }
    )
    return doc.tobytes(garbage=4, deflate=True, no_new_id=True)


def render(source: SnapshotSource) -> RenderedSource:
    if source.kind == "pdf":
        return RenderedSource(source, render_pdf(source), PDF_CONTENT_TYPE)
    return RenderedSource(source, render_html(source).encode("utf-8"), HTML_CONTENT_TYPE)


# ------------------------------------------------------------------------------------------------
# Writing the crawl store and sources.yaml.


def fetched_at() -> str:
    return f"{SNAPSHOT_DATE.isoformat()}T00:00:00Z"


def http_date(day: dt.date) -> str:
    return format_datetime(dt.datetime(day.year, day.month, day.day, tzinfo=dt.timezone.utc), usegmt=True)


@contextmanager
def _store_clock_fixed_at(timestamp: str):
    """Make the crawl store stamp `updated_at` with the snapshot date instead of the wall clock.

    Why: the manifest of a bundled snapshot must be byte-identical on every regeneration, and
    `CrawlStore.write_manifest` reads the time from `nztax_build.store.utc_now`.
    """
    from nztax_build import store as store_module

    real_clock = store_module.utc_now
    store_module.utc_now = lambda: timestamp
    try:
        yield
    finally:
        store_module.utc_now = real_clock


def write_store(rendered: list[RenderedSource], corpus_dir: Path) -> None:
    """Save every rendered body through the crawl store, then its manifest (snapshot=True)."""
    from nztax_build.store import CrawlStore

    store = CrawlStore(corpus_dir)
    for r in rendered:
        s = r.source
        store.save_page(
            s.url,
            r.body,
            content_type=r.content_type,
            source_type=s.source_type,
            title=s.title,
            fetched_at=fetched_at(),
            etag=f'"{hashlib.sha256(r.body).hexdigest()[:16]}"',
            last_modified=http_date(s.updated),
        )
    with _store_clock_fixed_at(fetched_at()):
        store.write_manifest(snapshot=True)


SOURCES_HEADER = """\
# What nztax crawls: every in-scope source, one entry per URL.
# Generated by `nztax snapshot` from the front matter of corpus/snapshot_src/ -- edit those files, not this one.
#
# Scope: New Zealand personal income tax for individuals -- tax rates and codes, PAYE and the ACC
# earners' levy, the independent earner tax credit, donation tax credits, student loan repayments,
# KiwiSaver (contributions, ESCT, government contribution), Working for Families, PIE and RWT for
# individuals, the individual return (IR3) and the relevant Income Tax Act 2007 provisions.
# Left out on purpose: GST, company tax, trusts and business provisional tax (pointers only).
#
# Fields: url, source_type (ird_guidance | guide_pdf | legislation | qwba | interpretation_statement | tib),
# title, topic (scope topic slug), recrawl (daily | weekly | monthly; `defaults` applies when omitted),
# verified (the evidence that the address is real: how, evidence, checked, copy_dated, note; see
# build/nztax_build/evidence.py). A source without `verified` is shown unlinked until a live crawl fetches it.
"""


def sources_yaml(sources: list[SnapshotSource]) -> str:
    entries = []
    for s in sources:
        entry = {"url": s.url, "source_type": s.source_type, "title": s.title, "topic": s.topic, "recrawl": s.recrawl}
        if s.verified is not None:
            entry["verified"] = s.verified.to_dict()
        entries.append(entry)
    doc = {"defaults": {"recrawl": "weekly"}, "sources": entries}
    return SOURCES_HEADER + yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, width=120)


@dataclass(frozen=True)
class SnapshotReport:
    pages: int
    pdfs: int
    legislation_sections: int
    total_bytes: int


def build_snapshot(src_dir: Path, corpus_dir: Path, progress=None) -> SnapshotReport:
    """Render every source into `corpus_dir` (raw/, manifest.json, sources.yaml) and count what was written."""
    corpus_dir = Path(corpus_dir)
    sources = load_sources(src_dir)
    rendered = []
    for i, s in enumerate(sources, start=1):
        if progress:
            progress(f"[{i}/{len(sources)}] {s.url}")
        rendered.append(render(s))
    corpus_dir.mkdir(parents=True, exist_ok=True)
    write_store(rendered, corpus_dir)
    (corpus_dir / "sources.yaml").write_text(sources_yaml(sources), encoding="utf-8")
    sections = sum(len(split_provisions(s.body)[1]) for s in sources if s.source_type == "legislation")
    return SnapshotReport(
        pages=sum(1 for s in sources if s.kind == "page"),
        pdfs=sum(1 for s in sources if s.kind == "pdf"),
        legislation_sections=sections,
        total_bytes=sum(len(r.body) for r in rendered),
    )


def stderr_progress(message: str) -> None:
    print(message, file=sys.stderr)
