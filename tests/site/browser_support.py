"""Browser test helpers shared by the site's Playwright tests: Debian's Chromium and a free port.

Chromium comes from apt (installed here when /usr/bin/chromium is missing); Playwright launches it
by `executable_path`, so no browser is ever downloaded.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
TIMEOUT_MS = 20_000


def ensure_chromium() -> None:
    """Install Debian's chromium when it is missing; skip (with the reason) only without apt."""
    if CHROMIUM.exists():
        return
    apt = shutil.which("apt-get")
    if apt is None:
        pytest.skip("Chromium is not installed and apt-get is not available to install it")
    for cmd in ([apt, "update", "-q"], [apt, "install", "-y", "-q", "chromium"]):
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
        if proc.returncode != 0:
            pytest.fail(f"{' '.join(cmd)} failed: {proc.stderr[-1500:]}")
    assert CHROMIUM.exists(), "apt installed chromium but /usr/bin/chromium is missing"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
