"""`nztax serve`: the site and the /ask function on loopback, with the Ask box pointed at the function.

In: settings; builds what is missing first (the pipeline when there is no index or no generated
pages; mkdocs when there is no site). Out: functions-framework (target `ask`, function/main.py) on
127.0.0.1:8080 and the static site on http://127.0.0.1:8000/ until Ctrl-C, which stops both. If the
function stops, the site stays up (it says so); a missing page gets the site's own 404 page.
If site/ was built for another Ask URL (a deploy build), a copy for the local function is built
under the work dir and served instead; site/ is left as it is.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="loopback address for both servers (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="site port (default 8000)")
    parser.add_argument("--function-port", type=int, default=8080, help="/ask function port (default 8080)")
    parser.add_argument("--no-build", action="store_true", help="serve what is built; fail if something is missing")


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - the stdlib's signature
        pass

    def send_error(self, code, message=None, explain=None):
        """A missing page gets the site's own 404 page (mkdocs writes 404.html), as on the host."""
        page = Path(self.directory) / "404.html"
        if code != 404 or not page.is_file():
            super().send_error(code, message, explain)
            return
        body = page.read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)


class SiteServer:
    """A static file server on a thread (stdlib http.server)."""

    def __init__(self, directory: Path, host: str = "127.0.0.1", port: int = 0):
        handler = functools.partial(QuietHandler, directory=str(directory))
        self.httpd = http.server.ThreadingHTTPServer((host, port), handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self.httpd.server_address[:2]
        return f"http://{host}:{port}/"

    def start(self) -> "SiteServer":
        self.thread.start()
        return self

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def start_function(code_root: Path, host: str, port: int, site_origin: str, env: dict | None = None) -> subprocess.Popen:
    """functions-framework serving <code_root>/function/main.py:ask; the site's origin joins the CORS allow-list."""
    env = dict(os.environ if env is None else env)
    env.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    origins = [o for o in env.get("NZTAX_ALLOWED_ORIGINS", "http://127.0.0.1:8000,http://localhost:8000").split(",") if o]
    if site_origin not in origins:
        origins.append(site_origin)
    env["NZTAX_ALLOWED_ORIGINS"] = ",".join(origins)
    cmd = [sys.executable, "-m", "functions_framework", "--target", "ask", "--source", str(Path(code_root) / "function" / "main.py"),
           "--host", host, "--port", str(port)]
    return subprocess.Popen(cmd, cwd=code_root, env=env)


def stop_process(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def built_ask_url(site_dir: Path) -> str | None:
    try:
        html = (site_dir / "index.html").read_text(encoding="utf-8")
    except OSError:
        return None
    m = re.search(r'data-ask-url="([^"]*)"', html)
    return m.group(1).replace("&amp;", "&") if m else None


def _interrupt(signum, frame):
    raise KeyboardInterrupt


def run(args: argparse.Namespace) -> int:
    from nztax.settings import get_settings

    from ..faq import FAQ_JSON
    from ..pipeline import run_build
    from ..publish import publish, validate_site
    from ..rebuild import RebuildError, run_mkdocs
    from ..render import NAV_JSON

    settings = get_settings()
    home = Path(settings.home)
    ask_url = f"http://{args.host}:{args.function_port}/"
    site_origin = f"http://{args.host}:{args.port}"
    live = home / "site"

    needs_pipeline = not (Path(settings.index_dir) / FAQ_JSON).exists() or not (Path(settings.site_src) / NAV_JSON).exists()
    if needs_pipeline or not (live / "index.html").exists():
        if args.no_build:
            print("nztax serve: nothing is built yet; run `make site` (or drop --no-build)", file=sys.stderr)
            return 2
    try:
        if needs_pipeline:
            print("serve: building the index and pages first (nztax build)...", file=sys.stderr)
            code = run_build(settings)
            if code:
                return code
        if not (live / "index.html").exists():
            print("serve: building the site (mkdocs)...", file=sys.stderr)
            run_mkdocs(settings, home / "site.new")
            publish(home / "site.new", live, validate=validate_site, note="nztax serve")
        site_dir = live
        if built_ask_url(live) != ask_url:
            site_dir = Path(settings.work_dir) / "serve-site"
            print(f"serve: site/ posts to {built_ask_url(live)!r}; building a local copy for {ask_url}...", file=sys.stderr)
            run_mkdocs(settings, site_dir, ask_url=ask_url)
    except RebuildError as exc:
        print(f"nztax serve: {exc}", file=sys.stderr)
        return 1

    function = start_function(home, args.host, args.function_port, site_origin)
    try:
        site = SiteServer(site_dir, args.host, args.port).start()
    except OSError as exc:
        stop_process(function)
        print(f"nztax serve: cannot listen on {args.host}:{args.port}: {exc}", file=sys.stderr)
        return 1
    print(f"site:     {site.url}\n/ask:     {ask_url}\nCtrl-C stops both.", file=sys.stderr, flush=True)
    signal.signal(signal.SIGTERM, _interrupt)  # `kill` stops both servers too, like Ctrl-C
    try:
        while function.poll() is None:
            time.sleep(1)
        # The pages and calculators need no function: keep them up, and say why questions fail.
        print(f"nztax serve: the /ask function stopped (exit code {function.returncode}); the site stays up at "
              f"{site.url} but the Ask box cannot answer until `nztax serve` is restarted. Ctrl-C stops the site.",
              file=sys.stderr, flush=True)
        while True:
            time.sleep(1)
    except KeyboardInterrupt:
        print("\nstopping...", file=sys.stderr)
        return 0
    finally:
        site.stop()
        stop_process(function)
