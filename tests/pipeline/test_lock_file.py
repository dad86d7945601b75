"""`make setup` installs every package from hashed lock files that agree with pyproject.toml."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PIN = re.compile(r"^([A-Za-z0-9_.\-]+)==([^\s;\\]+)")


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _locked(path: Path) -> dict[str, tuple[str, int]]:
    """name -> (version, number of hashes) from a pip-compile style lock file."""
    entries: dict[str, tuple[str, int]] = {}
    current = None
    for line in path.read_text(encoding="utf-8").splitlines():
        match = PIN.match(line)
        if match:
            current = _norm(match.group(1))
            entries[current] = (match.group(2), 0)
        elif current and line.strip().startswith("--hash=sha256:"):
            version, hashes = entries[current]
            entries[current] = (version, hashes + 1)
    return entries


def test_every_locked_package_carries_a_hash():
    for name in ("pip.txt", "lock.txt", "lock-no-deps.txt"):
        locked = _locked(ROOT / "requirements" / name)
        assert locked, name
        assert [pkg for pkg, (_, hashes) in locked.items() if hashes == 0] == [], name


def test_the_lock_holds_pyproject_pins_and_their_transitive_packages():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    pins = list(project["dependencies"])
    for extra in project["optional-dependencies"].values():
        pins += extra
    locked = _locked(ROOT / "requirements" / "lock.txt")
    for pin in pins:
        name, version = pin.split("==")
        assert locked.get(_norm(name), ("missing",))[0] == version, pin
    # gunicorn, flask and werkzeug arrive through functions-framework: the lock pins them too.
    assert {"gunicorn", "flask", "werkzeug"} <= set(locked)
    assert len(locked) > len(pins)


def test_make_setup_installs_only_from_the_lock_files_with_hashes_required():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = makefile.split("$(STAMP):", 1)[1].split("\n\n", 1)[0]
    installs = [line.strip() for line in recipe.splitlines() if "pip install" in line]
    assert installs, recipe
    for line in installs:
        # the project itself is installed without dependencies and without fetching a build backend
        assert "--require-hashes" in line or ("--no-deps" in line and "--no-build-isolation" in line), line
    assert "$(LOCK)" in recipe and "$(LOCK_NO_DEPS)" in recipe
