"""Typed records passed between the crawl, parse and chunk stages.

In: nothing (plain data). Out: `Source` (a line of sources.yaml), `ManifestEntry` (a page in the
crawl store), `Section` / `Document` (a parsed page) and `Chunk` (a parent or child line of
.work/chunks/*.jsonl). Every record converts to and from JSON-ready dicts.
"""

from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from nztax.contract import SOURCE_TYPES  # noqa: F401 (one definition for the corpus, the index and search)

TECHNICAL_SOURCE_TYPES = ("qwba", "interpretation_statement", "tib")
RECRAWL_CADENCES = {"daily": 1, "weekly": 7, "monthly": 30}  # days between fetches

STATUS_ACTIVE = "active"
STATUS_INACTIVE = "inactive"


class ParseError(ValueError):
    """A raw body could not be turned into a document (empty, unreadable or not the expected type)."""


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def url_key(url: str) -> str:
    """The crawl store's file key for a URL: sha256(url)[:20]."""
    return sha256_text(url)[:20]


def _from_dict(cls, data: dict[str, Any]):
    known = {f.name for f in fields(cls)}
    return cls(**{k: v for k, v in data.items() if k in known})


@dataclass(frozen=True)
class Source:
    """One line of corpus/sources.yaml."""

    url: str
    source_type: str
    title: str
    topic: str = ""
    recrawl: str = "weekly"
    verified: Any = None  # nztax_build.evidence.Verified: the evidence that the address is real


@dataclass
class ManifestEntry:
    """One page of corpus/manifest.json (see docs/architecture.md, "Crawl store")."""

    url: str
    file: str
    source_type: str
    title: str
    content_type: str
    fetched_at: str
    content_hash: str
    bytes: int
    etag: str | None = None
    last_modified: str | None = None
    status: str = STATUS_ACTIVE
    gone_count: int = 0
    last_changed: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "ManifestEntry":
        return _from_dict(cls, data)


@dataclass
class Section:
    """A heading and the markdown under it; `anchor` is a legislation id such as "LC 15"."""

    title: str
    text: str
    level: int = 2
    anchor: str | None = None


@dataclass
class Document:
    """A parsed page: the main content split into sections, plus page metadata."""

    url: str
    title: str
    source_type: str
    sections: list[Section] = field(default_factory=list)
    breadcrumb: list[str] = field(default_factory=list)
    ref: str | None = None  # Tax Technical reference, e.g. "QB 24/05"
    issued: str | None = None  # Tax Technical issue date (ISO)
    updated: str | None = None  # "Page last updated" date (ISO)
    key: str = ""
    file: str = ""
    crawl_date: str = ""
    content_hash: str = ""

    def main_text(self) -> str:
        """The extracted main content in a canonical form: what change detection hashes."""
        parts = [self.title, self.ref or "", self.issued or ""]
        for section in self.sections:
            parts.append(f"{'#' * section.level} {section.title}\n{section.text}")
        return "\n\n".join(parts).strip()

    def compute_hash(self) -> str:
        return sha256_text(self.main_text())

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Document":
        doc = _from_dict(cls, data)
        doc.sections = [_from_dict(Section, s) for s in data.get("sections", [])]
        return doc


@dataclass
class Chunk:
    """A parent (a whole section, `parent_id` None) or a child (a ~1,000-character piece of one)."""

    id: str
    url: str
    title: str
    section: str
    source_type: str
    tax_years: list[str]
    crawl_date: str
    text: str
    parent_id: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The line format of docs/architecture.md; parents carry no parent_id."""
        data: dict[str, Any] = {"id": self.id}
        if self.parent_id is not None:
            data["parent_id"] = self.parent_id
        data.update(
            url=self.url,
            title=self.title,
            section=self.section,
            source_type=self.source_type,
            tax_years=list(self.tax_years),
            crawl_date=self.crawl_date,
            text=self.text,
        )
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Chunk":
        return _from_dict(cls, data)
