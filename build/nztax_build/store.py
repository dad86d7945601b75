"""The crawl store: corpus/manifest.json plus the last good body of every page in corpus/raw/.

In: crawled bodies and their HTTP metadata (from the crawler or the snapshot writer).
Out: corpus/raw/<sha256(url)[:20]>.<html|pdf> and corpus/manifest.json (format in
docs/architecture.md, "Crawl store"), which the parse stage reads.

`content_hash` is the sha256 of the *extracted main content* (see `parse.parse_body`), so a new
alert banner, menu or "page last updated" date does not count as a change. `last_changed` moves only
when that hash moves. Files are written atomically (temporary file + `os.replace`), body first,
manifest second, so a crawl killed at any point leaves a valid manifest and complete bodies.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from datetime import datetime, timezone
from pathlib import Path

from .records import STATUS_ACTIVE, STATUS_INACTIVE, ManifestEntry, ParseError, url_key
import fcntl

MANIFEST_FORMAT = 1
MANIFEST_NAME = "manifest.json"
RAW_DIR = "raw"


class StoreError(RuntimeError):
    """The manifest is unreadable or not in the expected format."""


def utc_now() -> str:
    return iso_utc(datetime.now(timezone.utc))


def iso_utc(value: datetime | str) -> str:
    if isinstance(value, str):
        return value
    if value.tzinfo is None:
        value = value.replace(tzinfo=timezone.utc)
    return value.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write `data` to `path` so that readers see the old file or the new one, never a torn one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp_name, path)
    except BaseException:
        try:
            os.unlink(tmp_name)
        except FileNotFoundError:
            pass
        raise


def atomic_write_text(path: Path, text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))


def extension_for(content_type: str, body: bytes = b"") -> str:
    from .parse import is_pdf

    return "pdf" if is_pdf(body, content_type) else "html"


class StoreBusy(RuntimeError):
    """Another process holds the crawl store's lock."""


@contextlib.contextmanager
def locked(corpus_dir: Path | str):
    """Hold `<corpus>/.lock` (an advisory flock) for the duration: one writer per crawl store.

    The lock is released by the kernel when the process dies, so a killed crawl never leaves a
    stale lock behind, only stale temporaries (see `CrawlStore.remove_stale_temporaries`).
    """

    path = Path(corpus_dir) / ".lock"
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as handle:
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise StoreBusy(f"{path}: another crawl is writing to {corpus_dir}") from None
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


class CrawlStore:
    """Read and update one corpus directory (manifest + raw bodies)."""

    def __init__(self, corpus_dir: Path | str, gone_threshold: int | None = None) -> None:
        self.corpus_dir = Path(corpus_dir)
        self.raw_dir = self.corpus_dir / RAW_DIR
        self.manifest_path = self.corpus_dir / MANIFEST_NAME
        if gone_threshold is None:
            from nztax.settings import get_settings

            gone_threshold = get_settings().crawl_gone_threshold
        self.gone_threshold = gone_threshold
        self.snapshot = False
        self.updated_at: str | None = None
        self._pages: dict[str, ManifestEntry] = {}

    # -- reading -------------------------------------------------------------------------------
    def load(self) -> "CrawlStore":
        """Read manifest.json if it exists (a missing manifest is an empty store)."""
        self._pages = {}
        if not self.manifest_path.exists():
            return self
        try:
            data = json.loads(self.manifest_path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise StoreError(f"{self.manifest_path}: cannot read manifest ({exc})") from None
        if not isinstance(data, dict) or data.get("format") != MANIFEST_FORMAT or not isinstance(data.get("pages"), list):
            raise StoreError(f"{self.manifest_path}: not a format-{MANIFEST_FORMAT} crawl manifest")
        self.snapshot = bool(data.get("snapshot", False))
        self.updated_at = data.get("updated_at")
        for page in data["pages"]:
            try:
                entry = ManifestEntry.from_dict(page)
            except TypeError as exc:
                raise StoreError(f"{self.manifest_path}: bad page entry {page.get('url', '?')!r} ({exc})") from None
            self._pages[entry.url] = entry
        return self

    def entry(self, url: str) -> ManifestEntry | None:
        return self._pages.get(url)

    def entries(self) -> list[ManifestEntry]:
        return [self._pages[url] for url in sorted(self._pages)]

    def raw_path(self, entry: ManifestEntry) -> Path:
        return self.corpus_dir / entry.file

    def read_raw(self, entry: ManifestEntry) -> bytes:
        return self.raw_path(entry).read_bytes()

    # -- updating ------------------------------------------------------------------------------
    def save_page(
        self,
        url: str,
        body: bytes,
        content_type: str,
        source_type: str,
        title: str,
        fetched_at: datetime | str,
        etag: str | None = None,
        last_modified: str | None = None,
        document=None,
    ) -> ManifestEntry:
        """Store a good body and update the page's entry (not yet the manifest file).

        Raises `ParseError` (and stores nothing) when the body has no extractable main content,
        so a broken response can never replace the last good copy. `document` is the body already
        parsed by the caller (the crawler parses it to judge damage), saving a second parse.
        """
        from .parse import parse_body

        if document is None:
            document = parse_body(body, content_type, url, source_type, title)
        content_hash = document.compute_hash()
        fetched = iso_utc(fetched_at)
        relative = f"{RAW_DIR}/{url_key(url)}.{extension_for(content_type, body)}"
        atomic_write_bytes(self.corpus_dir / relative, body)
        previous = self._pages.get(url)
        if previous is not None and previous.file != relative:
            (self.corpus_dir / previous.file).unlink(missing_ok=True)
        changed = previous is None or previous.content_hash != content_hash
        entry = ManifestEntry(
            url=url,
            file=relative,
            source_type=source_type,
            title=title,
            content_type=content_type,
            fetched_at=fetched,
            etag=etag,
            last_modified=last_modified,
            content_hash=content_hash,
            bytes=len(body),
            status=STATUS_ACTIVE,
            gone_count=0,
            last_changed=fetched if changed else (previous.last_changed if previous else fetched),
        )
        self._pages[url] = entry
        return entry

    def mark_not_modified(
        self, url: str, fetched_at: datetime | str, etag: str | None = None, last_modified: str | None = None
    ) -> ManifestEntry:
        """A 304: the stored copy is confirmed current; refresh validators the server re-sent."""
        entry = self._require(url)
        entry.fetched_at = iso_utc(fetched_at)
        entry.etag = etag or entry.etag
        entry.last_modified = last_modified or entry.last_modified
        entry.status = STATUS_ACTIVE
        entry.gone_count = 0
        return entry

    def mark_gone(self, url: str) -> ManifestEntry | None:
        """A 404/410: count it; after `gone_threshold` crawls in a row the page becomes inactive.

        The last good body stays on disk either way (a page that comes back is simply saved again).
        """
        entry = self._pages.get(url)
        if entry is None:
            return None
        entry.gone_count += 1
        if entry.gone_count >= self.gone_threshold:
            entry.status = STATUS_INACTIVE
        return entry

    def mark_inactive(self, url: str) -> None:
        """A page no longer listed in sources.yaml: kept, but no longer parsed."""
        self._require(url).status = STATUS_INACTIVE

    def remove_stale_temporaries(self) -> list[Path]:
        """Delete the `.name.XXXX.tmp` files a killed writer left (call with the store `locked`)."""
        stale = [p for folder in (self.corpus_dir, self.raw_dir) if folder.is_dir()
                 for p in folder.glob(".*.tmp") if p.is_file()]
        for path in stale:
            path.unlink(missing_ok=True)
        return stale

    def write_manifest(self, snapshot: bool | None = None) -> None:
        if snapshot is not None:
            self.snapshot = snapshot
        self.updated_at = utc_now()
        data = {
            "format": MANIFEST_FORMAT,
            "snapshot": self.snapshot,
            "updated_at": self.updated_at,
            "pages": [entry.to_dict() for entry in self.entries()],
        }
        atomic_write_text(self.manifest_path, json.dumps(data, indent=1, ensure_ascii=False) + "\n")

    def _require(self, url: str) -> ManifestEntry:
        entry = self._pages.get(url)
        if entry is None:
            raise KeyError(f"{url} is not in the crawl store")
        return entry


__all__ = ["CrawlStore", "ManifestEntry", "ParseError", "StoreBusy", "StoreError", "atomic_write_bytes",
           "atomic_write_text", "locked"]
