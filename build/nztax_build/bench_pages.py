"""Bench section: Lighthouse scores of the built site, served compressed as the deploy serves it.

In: the built site (`site/`, from `make site`), Chromium at /usr/bin/chromium, and Lighthouse
(the pinned npm package, installed once into `.work/tools/` with npm). Out: markdown lines, a
table of the four Lighthouse scores (performance, accessibility, best practices, SEO) for each
page at the mobile (Lighthouse's default: a throttled phone) and desktop settings: the median of
`settings.bench_lighthouse_runs` runs, with their range where they differ.
"""

from __future__ import annotations

import gzip
import http.server
import io
import json
import shutil
import statistics
import subprocess
import threading
from functools import partial
from pathlib import Path

from nztax_build.bench import BenchContext, _progress, register

LIGHTHOUSE_VERSION = "12.8.2"
CHROMIUM = "/usr/bin/chromium"
PAGES = {
    "Home": "",
    "Income tax calculator": "calculators/income-tax/",
    "PAYE calculator": "calculators/paye/",
    "FAQ page": "faq/paye/how-much-is-taken-out-of-a-four-weekly-pay-of-3500/",
    "Tax year 2026-27": "tax-years/2026-27/",
    "Sources": "sources/",
}
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
COMPRESSED = (".html", ".css", ".js", ".json", ".xml", ".svg", ".txt")


class CompressedHandler(http.server.SimpleHTTPRequestHandler):
    """Static files with gzip for text and a cache lifetime, like the hosting the deploy uses."""

    def log_message(self, format, *args):  # noqa: A002 - the stdlib's signature
        pass

    def end_headers(self):
        self.send_header("Cache-Control", "public, max-age=3600")
        super().end_headers()

    def send_head(self):
        url_path = self.path.split("?", 1)[0].split("#", 1)[0]
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            if not url_path.endswith("/"):
                return super().send_head()  # the stdlib's redirect to the address with a slash
            path = path / "index.html"
        if not (path.is_file() and path.suffix in COMPRESSED and "gzip" in self.headers.get("Accept-Encoding", "")):
            return super().send_head()
        body = gzip.compress(path.read_bytes(), compresslevel=6, mtime=0)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)


def lighthouse_bin(tools_dir: Path) -> Path:
    """The pinned Lighthouse CLI, installed with npm on first use."""
    prefix = tools_dir / f"lighthouse-{LIGHTHOUSE_VERSION}"
    binary = prefix / "node_modules" / ".bin" / "lighthouse"
    if not binary.exists():
        npm = shutil.which("npm")
        if npm is None:
            raise RuntimeError("npm is needed to install Lighthouse")
        prefix.mkdir(parents=True, exist_ok=True)
        _progress(f"installing lighthouse@{LIGHTHOUSE_VERSION} into {prefix}")
        subprocess.run([npm, "install", "--prefix", str(prefix), "--no-audit", "--no-fund", "--silent",
                        f"lighthouse@{LIGHTHOUSE_VERSION}"], check=True, capture_output=True, text=True, timeout=900)
    return binary


def lighthouse_scores(binary: Path, url: str, desktop: bool, out: Path) -> dict[str, int]:
    cmd = [str(binary), url, "--quiet", "--output=json", f"--output-path={out}",
           "--only-categories=" + ",".join(CATEGORIES),
           "--chrome-flags=--headless=new --no-sandbox --disable-gpu --no-first-run"]
    if desktop:
        cmd.append("--preset=desktop")
    subprocess.run(cmd, check=True, capture_output=True, text=True, timeout=300, env={"CHROME_PATH": CHROMIUM, "PATH": "/usr/bin:/bin"})
    report = json.loads(out.read_text(encoding="utf-8"))
    return {c: round(100 * (report["categories"][c]["score"] or 0)) for c in CATEGORIES}


def _median_cell(measured: list[dict[str, int]], category: str) -> str:
    values = sorted(m[category] for m in measured)
    median = round(statistics.median(values))
    return str(median) if values[0] == values[-1] else f"{median} ({values[0]}–{values[-1]})"


def page_quality_section(ctx: BenchContext) -> list[str]:
    site = ctx.settings.home / "site"
    if not (site / "index.html").exists():
        return ["(no built site: run `make site` first)"]
    binary = lighthouse_bin(ctx.settings.home / ".work" / "tools")
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), partial(CompressedHandler, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}/"
    runs = ctx.settings.bench_lighthouse_runs
    rows = []
    try:
        for name, path in PAGES.items():
            for desktop in (False, True):
                form = "desktop" if desktop else "mobile"
                measured = []
                for run in range(runs):
                    _progress(f"lighthouse {name} ({form}, run {run + 1} of {runs})")
                    measured.append(lighthouse_scores(binary, base + path, desktop, ctx.work_dir / "lighthouse.json"))
                rows.append(f"| {name} | {form} | " + " | ".join(_median_cell(measured, c) for c in CATEGORIES) + " |")
    finally:
        server.shutdown()
    return [
        f"Lighthouse {LIGHTHOUSE_VERSION} in Chromium against the built site served with gzip and a one-hour cache "
        "(as the deploy serves it); mobile is Lighthouse's throttled-phone default, desktop its desktop preset. "
        f"Each score is the median of {runs} run{'s' if runs != 1 else ''} (the range in brackets where the runs differ). "
        "Targets: accessibility 100, mobile performance at least 90.",
        "",
        "| page | form factor | performance | accessibility | best practices | SEO |",
        "|---|---|---|---|---|---|",
        *rows,
    ]


register("Page quality (Lighthouse)", page_quality_section, order=80)
