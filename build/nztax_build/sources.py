"""Load and validate corpus/sources.yaml (what the crawler fetches).

In: a YAML file of the form

    defaults: {recrawl: weekly}
    sources:
      - url: https://www.ird.govt.nz/...
        source_type: ird_guidance   # ird_guidance|guide_pdf|legislation|qwba|interpretation_statement|tib
        title: Tax rates for individuals
        topic: tax-rates            # free text
        recrawl: weekly             # daily|weekly|monthly (optional; default from `defaults`)
        verified: {how: stored_copy, evidence: https://..., checked: 2026-11-28}   # optional, see evidence.py

Out: `load_sources(path) -> list[Source]`. Any problem raises `SourcesError` whose message names the
file, the entry and the field, so `nztax crawl` can print it instead of a traceback.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

import yaml

from .evidence import EvidenceError, parse_verified
from .records import RECRAWL_CADENCES, SOURCE_TYPES, Source

__all__ = ["Source", "SourcesError", "load_sources", "parse_sources"]

_ENTRY_KEYS = {"url", "source_type", "title", "topic", "recrawl", "verified"}


class SourcesError(ValueError):
    """sources.yaml is missing, unreadable or invalid."""


def load_sources(path: str | Path) -> list[Source]:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SourcesError(f"{path}: sources file not found") from None
    except OSError as exc:
        raise SourcesError(f"{path}: cannot read sources file ({exc.strerror})") from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise SourcesError(f"{path}: not valid YAML: {exc}") from None
    return parse_sources(data, origin=str(path))


def parse_sources(data: object, origin: str = "sources.yaml") -> list[Source]:
    if not isinstance(data, dict):
        raise SourcesError(f"{origin}: expected a mapping with a 'sources' list at the top level")
    unknown_top = set(data) - {"defaults", "sources"}
    if unknown_top:
        raise SourcesError(f"{origin}: unknown top-level key(s): {', '.join(sorted(map(str, unknown_top)))}")
    defaults = data.get("defaults") or {}
    if not isinstance(defaults, dict):
        raise SourcesError(f"{origin}: 'defaults' must be a mapping")
    default_recrawl = defaults.get("recrawl", "weekly")
    if default_recrawl not in RECRAWL_CADENCES:
        raise SourcesError(
            f"{origin}: defaults.recrawl {default_recrawl!r} is not one of {', '.join(RECRAWL_CADENCES)}"
        )
    entries = data.get("sources")
    if not isinstance(entries, list) or not entries:
        raise SourcesError(f"{origin}: 'sources' must be a non-empty list")

    sources: list[Source] = []
    seen: dict[str, int] = {}
    for number, entry in enumerate(entries, start=1):
        where = f"{origin}: source #{number}"
        if not isinstance(entry, dict):
            raise SourcesError(f"{where}: expected a mapping with url, source_type and title")
        if isinstance(entry.get("url"), str):
            where = f"{where} ({entry['url']})"
        unknown = set(entry) - _ENTRY_KEYS
        if unknown:
            raise SourcesError(f"{where}: unknown field(s): {', '.join(sorted(map(str, unknown)))}")
        for required in ("url", "source_type", "title"):
            value = entry.get(required)
            if not isinstance(value, str) or not value.strip():
                raise SourcesError(f"{where}: '{required}' is required and must be a non-empty string")
        url = entry["url"].strip()
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise SourcesError(f"{where}: 'url' must be an absolute http(s) URL")
        if entry["source_type"] not in SOURCE_TYPES:
            raise SourcesError(
                f"{where}: source_type {entry['source_type']!r} is not one of {', '.join(SOURCE_TYPES)}"
            )
        recrawl = entry.get("recrawl", default_recrawl)
        if recrawl not in RECRAWL_CADENCES:
            raise SourcesError(f"{where}: recrawl {recrawl!r} is not one of {', '.join(RECRAWL_CADENCES)}")
        topic = entry.get("topic", "")
        if not isinstance(topic, str):
            raise SourcesError(f"{where}: 'topic' must be a string")
        if url in seen:
            raise SourcesError(f"{where}: duplicate url (also source #{seen[url]})")
        try:
            verified = parse_verified(entry.get("verified"), where)
        except EvidenceError as exc:
            raise SourcesError(str(exc)) from None
        seen[url] = number
        sources.append(
            Source(url=url, source_type=entry["source_type"], title=entry["title"].strip(), topic=topic, recrawl=recrawl,
                   verified=verified)
        )
    return sources
