"""Crawler against a real local HTTP server: politeness, conditional GET and every injected fault.

Each fault test first stores a good copy, then turns the fault on and crawls again, and checks that
the good copy (file bytes and manifest entry) is untouched.
"""

from __future__ import annotations

import json

import pytest

from nztax_build.crawler import map_url, parse_retry_after
from nztax_build.records import Source

from .conftest import GONE_THRESHOLD, TEST_AGENT, fault_source


def _raw_and_entry(run, url):
    entry = run.store.entry(url)
    assert entry is not None, f"{url} not in the store"
    return run.store.read_raw(entry), entry.to_dict()


def _assert_good_copy_kept(crawl, mirror, source: Source, mode: str, outcome: str = "failed", first_mode: str = "ok",
                           **overrides):
    mirror.modes[f"/faults/{source.url.rsplit('/', 1)[1]}"] = first_mode
    first = crawl([source])
    assert first.totals.outcomes[source.url] == "new"
    before = _raw_and_entry(first, source.url)
    mirror.modes[f"/faults/{source.url.rsplit('/', 1)[1]}"] = mode
    second = crawl([source], **overrides)
    assert second.totals.outcomes[source.url] == outcome, second.log.getvalue()
    assert _raw_and_entry(second, source.url) == before  # same bytes, same manifest entry
    manifest = json.loads((second.store.manifest_path).read_text())
    assert [p["url"] for p in manifest["pages"]] == [source.url]
    return second


def test_two_crawls_second_transfers_no_page_bodies(crawl, mirror, small_sources):
    first = crawl(small_sources)
    assert (first.totals.new, first.totals.failed, first.totals.blocked) == (5, 0, 0), first.log.getvalue()
    second = crawl(small_sources)
    assert second.totals.not_modified == 5, second.log.getvalue()
    assert second.totals.fetched == 0
    assert second.totals.page_bytes == 0
    print(f"\nbytes transferred: first crawl {first.totals.bytes_transferred:,} "
          f"(pages {first.totals.page_bytes:,}); second crawl {second.totals.bytes_transferred:,} "
          f"(pages {second.totals.page_bytes:,})")
    assert first.totals.page_bytes > 0
    # every second-crawl page request was conditional
    page_requests = [r for r in mirror.requests[-5:]]
    assert all("if-none-match" in r.headers and r.status == 304 for r in page_requests)
    assert all(r.headers["user-agent"] == TEST_AGENT for r in mirror.requests)
    assert "crawl: 5 sources" in second.log.getvalue() and "not modified 5" in second.log.getvalue()


def test_manifest_matches_the_documented_format(crawl, small_sources):
    run = crawl(small_sources)
    data = json.loads(run.store.manifest_path.read_text())
    assert data["format"] == 1 and data["snapshot"] is False and data["updated_at"].endswith("Z")
    page = next(p for p in data["pages"] if p["url"].endswith("ir3g.pdf"))
    assert set(page) == {"url", "file", "source_type", "title", "content_type", "fetched_at", "etag",
                         "last_modified", "content_hash", "bytes", "status", "gone_count", "last_changed"}
    assert page["file"].startswith("raw/") and page["file"].endswith(".pdf")
    assert page["content_type"] == "application/pdf" and page["status"] == "active"
    assert (run.store.corpus_dir / page["file"]).stat().st_size == page["bytes"]


def test_rotating_banner_does_not_change_content_hash(crawl, mirror, small_sources):
    first = crawl(small_sources[:1])
    entry = first.store.entry(small_sources[0].url).to_dict()
    mirror.rotate_banner = True
    second = crawl(small_sources[:1])
    assert second.totals.outcomes[small_sources[0].url] == "unchanged"  # a new body (new ETag), same content
    again = second.store.entry(small_sources[0].url)
    assert again.content_hash == entry["content_hash"] and again.last_changed == entry["last_changed"]
    assert second.totals.page_bytes > 0


def test_content_change_moves_hash_and_last_changed(crawl, mirror, small_sources):
    first = crawl(small_sources[:1])
    old = first.store.entry(small_sources[0].url).to_dict()
    mirror.extra_text = "From 1 April 2027 a new rate applies."
    second = crawl(small_sources[:1], )
    assert second.totals.outcomes[small_sources[0].url] == "changed"
    new = second.store.entry(small_sources[0].url)
    assert new.content_hash != old["content_hash"] and new.last_changed == new.fetched_at


def test_robots_disallow_is_obeyed_with_longest_match(crawl, mirror):
    blocked = Source("https://www.ird.govt.nz/private/secret", "ird_guidance", "Private", "test")
    allowed = Source("https://www.ird.govt.nz/private/open-page", "ird_guidance", "Open", "test")
    run = crawl([blocked, allowed])
    assert run.totals.outcomes[blocked.url] == "blocked"
    assert "/private/secret" not in mirror.paths_requested()  # never even requested
    # Allow: /private/open-page is longer than Disallow: /private/, so it may be fetched (it 404s here)
    assert "/private/open-page" in mirror.paths_requested()
    assert run.totals.blocked == 1


def test_robots_5xx_disallows_the_whole_host(crawl, mirror, small_sources):
    mirror.robots_status = 503
    run = crawl(small_sources[:2])
    assert run.totals.blocked == 2 and run.totals.fetched == 0
    assert [p for p in mirror.paths_requested() if p != "/robots.txt"] == []
    assert "unreachable" in run.log.getvalue()


def test_robots_4xx_allows_everything(crawl, mirror, small_sources):
    mirror.robots_status = 404
    run = crawl(small_sources[:2])
    assert run.totals.new == 2 and run.totals.blocked == 0


def test_500_retries_then_keeps_good_copy(crawl, mirror):
    source = fault_source("server-error")
    run = _assert_good_copy_kept(crawl, mirror, source, "500")
    assert mirror.paths_requested().count("/faults/server-error") == 1 + 3  # first crawl + 1 try + 2 retries
    assert len(run.sleeps) == 2 and all(0 <= s <= 0.05 for s in run.sleeps)  # jittered backoff under the cap


def test_503_retry_after_is_honoured(crawl, mirror):
    source = fault_source("busy")
    mirror.modes["/faults/busy"] = "503-then-ok"
    run = crawl([source])
    assert run.totals.outcomes[source.url] == "new"
    assert run.sleeps == [2.0]  # exactly the server's Retry-After


def test_retry_after_over_the_cap_gives_up_at_once(crawl, mirror):
    source = fault_source("very-busy")
    run = _assert_good_copy_kept(crawl, mirror, source, "503-long")
    assert mirror.paths_requested().count("/faults/very-busy") == 2
    assert run.sleeps == [] and "cap" in run.log.getvalue()


def test_slow_response_times_out(crawl, mirror):
    source = fault_source("slow-page")
    run = _assert_good_copy_kept(crawl, mirror, source, "slow", retries=1)
    assert "timed out" in run.log.getvalue()


def test_truncated_body_is_not_stored(crawl, mirror):
    source = fault_source("cut-short")
    run = _assert_good_copy_kept(crawl, mirror, source, "truncated", retries=0)
    assert "RemoteProtocolError" in run.log.getvalue()


@pytest.mark.parametrize("mode", ["oversized-declared", "oversized-chunked"])
def test_oversized_body_is_refused(crawl, mirror, mode):
    source = fault_source(f"big-{mode}")
    run = _assert_good_copy_kept(crawl, mirror, source, mode)
    assert "byte cap" in run.log.getvalue()
    assert run.totals.page_bytes <= 200_000 + 65_536 * 2  # stopped reading at the cap


def test_wrong_content_type_is_refused(crawl, mirror):
    source = fault_source("json-page")
    run = _assert_good_copy_kept(crawl, mirror, source, "wrong-type")
    assert "unexpected content type 'application/json'" in run.log.getvalue()


def test_html_served_for_a_pdf_source_is_refused(crawl, mirror):
    source = fault_source("guide-pdf", source_type="guide_pdf")
    mirror.modes["/faults/guide-pdf"] = "html-for-pdf"
    run = crawl([source])
    assert run.totals.outcomes[source.url] == "failed" and run.store.entry(source.url) is None


def test_page_without_main_content_does_not_replace_good_copy(crawl, mirror):
    _assert_good_copy_kept(crawl, mirror, fault_source("emptied"), "empty-page")


def test_a_page_cut_to_45_percent_is_damaged_and_keeps_its_good_copy(crawl, mirror):
    run = _assert_good_copy_kept(crawl, mirror, fault_source("cut-45"), "long-cut-45", outcome="damaged", first_mode="long")
    assert run.totals.damaged == 1 and run.totals.failed == 1
    assert "shrank" in run.log.getvalue() and "--allow-shrink" in run.log.getvalue()


@pytest.mark.parametrize("share", [55, 70])
def test_a_page_cut_to_most_of_its_length_is_damaged_too(crawl, mirror, share):
    """Real edits of the stored pages changed their main content by under 1%; a cut to 55% or 70% is damage."""
    run = _assert_good_copy_kept(crawl, mirror, fault_source(f"cut-{share}"), f"long-cut-{share}", outcome="damaged",
                                 first_mode="long")
    assert "shrank" in run.log.getvalue()


def test_a_page_that_lost_a_little_is_an_ordinary_change(crawl, mirror):
    source = fault_source("cut-90")
    mirror.modes["/faults/cut-90"] = "long"
    crawl([source])
    mirror.modes["/faults/cut-90"] = "long-cut-90"
    assert crawl([source]).totals.outcomes[source.url] == "changed"


def test_allow_shrink_accepts_a_page_that_really_got_shorter(crawl, mirror):
    source = fault_source("cut-allowed")
    mirror.modes["/faults/cut-allowed"] = "long"
    crawl([source])
    mirror.modes["/faults/cut-allowed"] = "long-cut-45"
    assert crawl([source], allow_shrink=True).totals.outcomes[source.url] == "changed"


def test_a_not_found_page_served_with_200_is_damaged(crawl, mirror):
    run = _assert_good_copy_kept(crawl, mirror, fault_source("soft-404"), "soft-404", outcome="damaged")
    assert "error page" in run.log.getvalue()


@pytest.mark.parametrize("mode", ["ird-404", "ird-404-plain-title"])
def test_irds_own_not_found_page_is_damaged(crawl, mirror, mode):
    run = _assert_good_copy_kept(crawl, mirror, fault_source(mode), mode, outcome="damaged")
    assert "error page" in run.log.getvalue()


def test_a_body_left_unlike_its_manifest_entry_by_a_crash_is_fetched_again(crawl, mirror):
    """A crawl killed between writing a body and rewriting the manifest: the next crawl finds the
    body differs from its entry, says so, and fetches the page in full (no 304, cadence or not)."""
    source = fault_source("crashed")
    first = crawl([source])
    entry = first.store.entry(source.url)
    good = first.store.read_raw(entry)
    first.store.raw_path(entry).write_bytes(good.replace(b"Good content", b"Half-saved content"))
    second = crawl([source], respect_cadence=True)
    log = second.log.getvalue()
    assert "does not match the manifest" in log and second.totals.mismatched == 1
    assert second.totals.outcomes[source.url] in ("changed", "unchanged")
    assert second.store.read_raw(second.store.entry(source.url)) == good
    assert crawl([source]).totals.mismatched == 0


def test_a_mismatched_body_that_cannot_be_fetched_again_is_reported(crawl, mirror):
    source = fault_source("crashed-down")
    first = crawl([source])
    entry = first.store.entry(source.url)
    first.store.raw_path(entry).write_bytes(first.store.read_raw(entry) + b"<!-- torn -->")
    mirror.modes["/faults/crashed-down"] = "500"
    second = crawl([source])
    assert second.totals.outcomes[source.url] == "failed"
    assert "still does not match the manifest" in second.log.getvalue()


def test_a_new_source_that_answers_with_an_error_page_is_not_stored(crawl, mirror):
    source = fault_source("soft-404-new")
    mirror.modes["/faults/soft-404-new"] = "soft-404"
    run = crawl([source])
    assert run.totals.outcomes[source.url] == "damaged" and run.store.entry(source.url) is None


def test_redirect_to_the_same_page_is_followed(crawl, mirror):
    source = fault_source("slash")
    mirror.modes["/faults/slash"] = "redirect-slash"
    run = crawl([source])
    assert run.totals.outcomes[source.url] == "new" and not run.totals.problems
    assert mirror.paths_requested()[-2:] == ["/faults/slash", "/faults/slash/"]
    assert run.store.entry(source.url) is not None  # stored under the source URL


def test_redirect_to_another_page_inside_allowed_hosts_is_followed_but_not_stored(crawl, mirror):
    source = fault_source("moved")
    mirror.modes["/faults/moved"] = "redirect-inside"
    run = crawl([source])
    assert run.totals.outcomes[source.url] == "moved"
    assert mirror.paths_requested()[-2:] == ["/faults/moved", "/faults/redirect-target"]
    assert run.store.entry(source.url) is None  # the page at the other address is not the one cited


def test_redirect_outside_allowed_hosts_is_not_followed(crawl, mirror):
    source = fault_source("moved-away")
    run = _assert_good_copy_kept(crawl, mirror, source, "redirect-outside")
    assert "/faults/offsite-target" not in mirror.paths_requested()
    assert "outside the allowed list" in run.log.getvalue()


@pytest.mark.parametrize("mode", ["gone", "gone-410"])
def test_disappearing_page_becomes_inactive_after_n_crawls_and_keeps_its_file(crawl, mirror, mode):
    source = fault_source(f"vanishing-{mode}")
    first = crawl([source])
    body = first.store.read_raw(first.store.entry(source.url))
    mirror.modes[f"/faults/vanishing-{mode}"] = mode
    for count in range(1, GONE_THRESHOLD + 1):
        run = crawl([source])
        entry = run.store.entry(source.url)
        assert run.totals.outcomes[source.url] == "gone"
        assert entry.gone_count == count
        assert entry.status == ("inactive" if count >= GONE_THRESHOLD else "active")
        assert run.store.read_raw(entry) == body
    mirror.modes[f"/faults/vanishing-{mode}"] = "ok"  # it comes back
    back = crawl([source])
    assert back.store.entry(source.url).status == "active" and back.store.entry(source.url).gone_count == 0


def test_one_failure_does_not_stop_the_crawl(crawl, mirror, small_sources):
    broken = fault_source("always-broken")
    mirror.modes["/faults/always-broken"] = "500"
    run = crawl([broken] + small_sources[:2], retries=0)
    assert run.totals.failed == 1 and run.totals.new == 2


def test_recrawl_cadence_skips_pages_that_are_not_due(crawl, mirror, small_sources):
    crawl(small_sources)
    requests_before = len(mirror.requests)
    run = crawl(small_sources, respect_cadence=True)
    assert run.totals.skipped == 5 and len(mirror.requests) == requests_before


def test_sources_removed_from_the_list_become_inactive(crawl, small_sources):
    crawl(small_sources[:2])
    run = crawl(small_sources[1:2])
    assert run.store.entry(small_sources[0].url).status == "inactive"
    assert run.store.entry(small_sources[1].url).status == "active"


def test_polite_delay_between_requests_to_one_host(crawl, mirror, small_sources):
    run = crawl(small_sources[:3], delay=0.2)
    # robots.txt + 3 pages on one host: every request after the first waits for the gap
    assert len(run.sleeps) == 3 and all(0 < s <= 0.2 for s in run.sleeps)


def test_map_url_and_retry_after_parsing():
    assert map_url("https://www.ird.govt.nz/a/b?x=1", "http://127.0.0.1:9/mirror/") == "http://127.0.0.1:9/mirror/a/b?x=1"
    assert map_url("https://www.ird.govt.nz/a", None) == "https://www.ird.govt.nz/a"
    from datetime import datetime, timezone

    now = lambda: datetime(2026, 11, 21, 0, 0, 0, tzinfo=timezone.utc)  # noqa: E731
    assert parse_retry_after("120", now) == 120.0
    assert parse_retry_after("Sat, 21 Nov 2026 00:00:30 GMT", now) == 30.0
    assert parse_retry_after("soon", now) is None
