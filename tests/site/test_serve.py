"""`nztax serve` (issue 41): the site stays up when the function stops, and says so; a missing page
gets the site's own 404 page. The real command on the fixture site, its function replaced by a
process that exits at once (the only stand-in: the function's own start is tested elsewhere)."""

from __future__ import annotations

import argparse
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

from browser_support import free_port
from site_fixtures import fixture_env


def test_site_stays_up_when_the_function_stops_and_serves_its_own_404(built_site, monkeypatch, capsys):
    from nztax.settings import get_settings
    from nztax_build.commands import serve

    for key, value in fixture_env(built_site.settings, "http://127.0.0.1:8080/").items():
        monkeypatch.setenv(key, value)
    monkeypatch.delenv("NZTAX_ASK_URL")
    get_settings.cache_clear()
    done = threading.Event()
    real_sleep = time.sleep

    def sleep(seconds):
        if done.is_set():
            raise KeyboardInterrupt
        real_sleep(0.05)

    monkeypatch.setattr(serve.time, "sleep", sleep)
    monkeypatch.setattr(serve.signal, "signal", lambda *a: None)  # run() is on a thread here
    monkeypatch.setattr(serve, "start_function", lambda *a, **k: subprocess.Popen([sys.executable, "-c", "raise SystemExit(3)"]))
    port = free_port()
    args = argparse.Namespace(host="127.0.0.1", port=port, function_port=8080, no_build=True)
    outcome = {}
    thread = threading.Thread(target=lambda: outcome.setdefault("code", serve.run(args)), daemon=True)
    try:
        thread.start()
        site = f"http://127.0.0.1:{port}/"
        deadline = time.monotonic() + 30
        while "the /ask function stopped" not in capsys.readouterr().err:
            assert thread.is_alive() and time.monotonic() < deadline, outcome
            real_sleep(0.2)
        with urllib.request.urlopen(site, timeout=5) as response:  # still up after the function stopped
            assert response.status == 200 and b"data-nz-ask" in response.read()
        try:
            urllib.request.urlopen(site + "no/such/page/", timeout=5)
            raise AssertionError("a missing page answered 200")
        except urllib.error.HTTPError as exc:
            assert exc.code == 404
            body = exc.read().decode()
        assert body == (built_site.site_dir / "404.html").read_text()  # the site's page, not Python's
        assert "Error response" not in body
    finally:
        done.set()
        thread.join(timeout=10)
        get_settings.cache_clear()
    assert outcome.get("code") == 0
