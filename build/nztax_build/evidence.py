"""Evidence that a source address is real: the `verified:` block of a snapshot page and of sources.yaml.

In: the mapping written under `verified:` (front matter of corpus/snapshot_src/**.md, copied into
corpus/sources.yaml by `nztax snapshot`). Out: a `Verified` record, or `EvidenceError` naming what is
wrong. An address with no evidence is shown to readers without a link until a live crawl fetches it
(`linkable`).

Kinds of evidence (`how`), strongest first:
- stored_copy: a stored public copy of the page at this address (`evidence` is the copy's address);
- stored_mirror: a stored copy of the same section under the same legislation id on a mirror site;
- linked_from: a stored page that links this exact address, e.g. a child page whose breadcrumb
  climbs to it (`evidence` is the linking page);
- cited_by: other public documents or code cite this exact address (`note` says which and when).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

HOW = ("stored_copy", "stored_mirror", "linked_from", "cited_by")
NEEDS_EVIDENCE_URL = ("stored_copy", "stored_mirror", "linked_from")
FIELDS = ("how", "evidence", "checked", "copy_dated", "note")


class EvidenceError(ValueError):
    """A `verified:` block is malformed."""


@dataclass(frozen=True)
class Verified:
    how: str
    checked: str  # ISO date the evidence was checked
    evidence: str = ""  # the stored copy's or linking page's address
    copy_dated: str = ""  # the stored copy's own date, when it shows one (YYYY, YYYY-MM or YYYY-MM-DD)
    note: str = ""

    def to_dict(self) -> dict[str, str]:
        return {k: getattr(self, k) for k in FIELDS if getattr(self, k)}

    def label(self) -> str:
        """A short reader-facing description, e.g. "stored copy (2024), checked 28 November 2026"."""
        kind = self.how.replace("_", " ")
        dated = f" ({self.copy_dated})" if self.copy_dated else ""
        return f"{kind}{dated}"


def parse_verified(value: object, where: str) -> Verified | None:
    """The `verified:` mapping as a record; None when absent. Raises EvidenceError with `where`."""
    if value in (None, "", {}):
        return None
    if not isinstance(value, dict):
        raise EvidenceError(f"{where}: verified must be a mapping with how, evidence and checked")
    unknown = set(value) - set(FIELDS)
    if unknown:
        raise EvidenceError(f"{where}: verified has unknown field(s): {', '.join(sorted(map(str, unknown)))}")
    how = value.get("how")
    if how not in HOW:
        raise EvidenceError(f"{where}: verified.how must be one of {', '.join(HOW)} (got {how!r})")
    checked = value.get("checked")
    try:
        checked_iso = checked.isoformat() if isinstance(checked, dt.date) else dt.date.fromisoformat(str(checked)).isoformat()
    except ValueError:
        raise EvidenceError(f"{where}: verified.checked must be a date YYYY-MM-DD (got {checked!r})") from None
    evidence = str(value.get("evidence") or "").strip()
    if how in NEEDS_EVIDENCE_URL and not evidence.startswith(("http://", "https://")):
        raise EvidenceError(f"{where}: verified.evidence must be the address of the {how.replace('_', ' ')}")
    note = str(value.get("note") or "").strip()
    if how == "cited_by" and not note:
        raise EvidenceError(f"{where}: verified.note must say who cites the address (how: cited_by)")
    dated = value.get("copy_dated")
    return Verified(how=how, checked=checked_iso, evidence=evidence, copy_dated=str(dated) if dated else "", note=note)


def linkable(verified: Verified | None, crawled_live: bool) -> bool:
    """Whether readers may be given a link to the address: evidence on file, or a live crawl fetched it."""
    return verified is not None or crawled_live
