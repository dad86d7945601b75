"""Site test fixtures (helpers in site_fixtures.py; this directory cannot be a package named `site`)."""

from __future__ import annotations

import time
import urllib.error
import urllib.request

import pytest
from browser_support import CHROMIUM, CHROMIUM_ARGS, TIMEOUT_MS, ensure_chromium, free_port
from site_fixtures import ROOT, BuiltSite, build_fixture_site, fixture_env


@pytest.fixture(scope="session")
def built_site(tmp_path_factory) -> BuiltSite:
    """The fixture site: FAQ answered by the real engine, pages rendered, mkdocs built."""
    return build_fixture_site(tmp_path_factory.mktemp("site_home"))


@pytest.fixture(scope="session")
def browser():
    ensure_chromium()
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is in the `browser` extra")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture(scope="session")
def live(built_site):
    """The fixture site on a static server and the real function, with the Ask box pointed at it."""
    from nztax_build.commands.serve import SiteServer, start_function, stop_process
    from nztax_build.rebuild import run_mkdocs

    function_port = free_port()
    ask_url = f"http://127.0.0.1:{function_port}/"
    env = fixture_env(built_site.settings, ask_url)
    site_dir = built_site.home / "site-live"
    run_mkdocs(built_site.settings, site_dir, ask_url=ask_url, env=env)
    site = SiteServer(site_dir).start()
    proc = start_function(ROOT, "127.0.0.1", function_port, site.url.rstrip("/"), env=env)
    try:
        deadline = time.monotonic() + 60
        while True:  # up when it answers anything (405 for GET is fine)
            try:
                urllib.request.urlopen(ask_url, timeout=2)
                break
            except urllib.error.HTTPError:
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"the function did not start (exit code {proc.poll()})")
                time.sleep(0.2)
        yield {"site": site.url, "ask_url": ask_url}
    finally:
        site.stop()
        stop_process(proc)


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    pg = context.new_page()
    pg.set_default_timeout(TIMEOUT_MS)
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.js_errors = errors
    yield pg
    context.close()
