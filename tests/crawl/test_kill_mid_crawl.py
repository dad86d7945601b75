"""Kill `nztax crawl` (SIGKILL, in a subprocess) half-way through a recrawl: nothing good is lost."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

from nztax_build.parse import parse_body
from nztax_build.store import CrawlStore

from .conftest import SOURCES_SMALL


def _crawl_command(mirror, corpus):
    return [sys.executable, "-m", "nztax_build.cli", "crawl", "--sources", str(SOURCES_SMALL),
            "--base-url", mirror.base_url, "--corpus", str(corpus), "--all"]


def _env():
    env = dict(os.environ, NZTAX_CRAWL_DELAY="0", NZTAX_CRAWL_TIMEOUT="5", NZTAX_CRAWL_RETRIES="0")
    return env


def _hash_of_raw(store, entry):
    return parse_body(store.read_raw(entry), entry.content_type, entry.url, entry.source_type, entry.title).compute_hash()


def test_killed_crawl_leaves_valid_manifest_and_intact_copies(mirror, corpus):
    done = subprocess.run(_crawl_command(mirror, corpus), env=_env(), capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "fetched 5 (new 5" in done.stderr
    good = {e.url: (e.to_dict(), CrawlStore(corpus, gone_threshold=2).read_raw(e)) for e in CrawlStore(corpus, gone_threshold=2).load().entries()}

    # Every page now changed and slow: the recrawl replaces copies one by one, and we kill it mid-way.
    mirror.extra_text = "A sentence added after the first crawl."
    mirror.page_delay = 0.4
    manifest = corpus / "manifest.json"
    first_mtime = manifest.stat().st_mtime_ns
    process = subprocess.Popen(_crawl_command(mirror, corpus), env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 20
        while manifest.stat().st_mtime_ns == first_mtime and time.monotonic() < deadline:
            time.sleep(0.02)  # wait until at least one page has been replaced
        time.sleep(0.1)
        assert process.poll() is None, "crawl finished before it could be killed"
        process.send_signal(signal.SIGKILL)
    finally:
        process.wait(timeout=10)
        process.stdout.close()
        process.stderr.close()

    data = json.loads(manifest.read_text())  # still valid JSON
    store = CrawlStore(corpus, gone_threshold=2).load()
    assert sorted(e.url for e in store.entries()) == sorted(good)
    replaced = kept = 0
    for entry in store.entries():
        assert _hash_of_raw(store, entry) == entry.content_hash  # the file is the copy the manifest describes
        if entry.content_hash == good[entry.url][0]["content_hash"]:
            assert store.read_raw(entry) == good[entry.url][1]
            kept += 1
        else:
            replaced += 1
    assert replaced >= 1 and kept >= 1, (replaced, kept)
    assert data["format"] == 1
