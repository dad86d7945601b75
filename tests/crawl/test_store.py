"""The crawl store: content hash of the main content only, last_changed, gone counting, atomic manifest."""

from __future__ import annotations

import json

import pytest

from nztax_build.records import ParseError, url_key
from nztax_build.store import CrawlStore, StoreError

from .mirror import plain_page

URL = "https://www.ird.govt.nz/income-tax/example"


def page(banner: str, text: str) -> bytes:
    return plain_page("Example", text).replace(b"<p>Banner</p>", f"<p>{banner}</p>".encode())


def test_save_page_writes_raw_file_under_the_url_key(tmp_path):
    store = CrawlStore(tmp_path, gone_threshold=3)
    entry = store.save_page(URL, page("a", "Body."), "text/html", "ird_guidance", "Example", "2026-11-21T00:00:00Z", etag='"x"')
    assert entry.file == f"raw/{url_key(URL)}.html" and len(url_key(URL)) == 20
    assert (tmp_path / entry.file).read_bytes() == page("a", "Body.")
    assert entry.last_changed == "2026-11-21T00:00:00Z" and entry.etag == '"x"' and entry.bytes == len(page("a", "Body."))


def test_banner_change_keeps_hash_and_last_changed_text_change_moves_them(tmp_path):
    store = CrawlStore(tmp_path, gone_threshold=3)
    first = store.save_page(URL, page("Closed Monday", "Body."), "text/html", "ird_guidance", "Example", "2026-11-20T00:00:00Z")
    hash_one = first.content_hash
    second = store.save_page(URL, page("Closed Tuesday", "Body."), "text/html", "ird_guidance", "Example", "2026-11-21T00:00:00Z")
    assert second.content_hash == hash_one and second.last_changed == "2026-11-20T00:00:00Z"
    third = store.save_page(URL, page("Closed Tuesday", "New body."), "text/html", "ird_guidance", "Example", "2026-11-22T00:00:00Z")
    assert third.content_hash != hash_one and third.last_changed == "2026-11-22T00:00:00Z"


def test_unparseable_body_raises_and_stores_nothing(tmp_path):
    store = CrawlStore(tmp_path, gone_threshold=3)
    with pytest.raises(ParseError):
        store.save_page(URL, b"", "text/html", "ird_guidance", "Example", "2026-11-21T00:00:00Z")
    assert store.entry(URL) is None and not (tmp_path / "raw").exists()


def test_mark_gone_counts_to_inactive_and_keeps_file(tmp_path):
    store = CrawlStore(tmp_path, gone_threshold=3)
    entry = store.save_page(URL, page("a", "Body."), "text/html", "ird_guidance", "Example", "2026-11-21T00:00:00Z")
    statuses = [store.mark_gone(URL).status for _ in range(3)]
    assert statuses == ["active", "active", "inactive"] and store.entry(URL).gone_count == 3
    assert (tmp_path / entry.file).exists()
    assert store.mark_gone("https://www.ird.govt.nz/never-seen") is None


def test_manifest_round_trip_and_snapshot_flag(tmp_path):
    store = CrawlStore(tmp_path, gone_threshold=3)
    store.save_page(URL, page("a", "Body."), "text/html", "ird_guidance", "Example", "2026-11-21T00:00:00Z")
    store.write_manifest(snapshot=True)
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    again = CrawlStore(tmp_path, gone_threshold=3).load()
    assert again.snapshot is True and again.entry(URL).to_dict() == store.entry(URL).to_dict()
    again.write_manifest()  # None keeps the flag
    assert json.loads((tmp_path / "manifest.json").read_text())["snapshot"] is True


def test_corrupt_manifest_is_a_clear_error(tmp_path):
    (tmp_path / "manifest.json").write_text("{not json")
    with pytest.raises(StoreError, match="cannot read manifest"):
        CrawlStore(tmp_path, gone_threshold=3).load()
    (tmp_path / "manifest.json").write_text('{"format": 99, "pages": []}')
    with pytest.raises(StoreError, match="format-1"):
        CrawlStore(tmp_path, gone_threshold=3).load()


def test_missing_manifest_is_an_empty_store(tmp_path):
    assert CrawlStore(tmp_path / "nothing", gone_threshold=3).load().entries() == []
