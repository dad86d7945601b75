"""Regular expressions precompiled at build time (`regex.pickle`): every stored pattern is the
pattern `re` itself builds, and a foreign or damaged file leaves `re` compiling as usual."""

from __future__ import annotations

import hashlib
import json
import logging
import os
import pickle
import re
import subprocess
import sys
from pathlib import Path

import pytest

from nztax import compiled_re

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def recorded(engine_settings, tmp_path_factory) -> Path:
    """A table recorded the way `nztax build` records it: a fresh process's cold start."""
    index_dir = engine_settings.index_dir
    out = tmp_path_factory.mktemp("regex")
    env = dict(os.environ, NZTAX_INDEX_DIR=str(index_dir), NZTAX_EMBEDDER="local")
    for name in ("NZTAX_LLM_MODEL", "NZTAX_LLM_API_BASE", "GEMINI_API_KEY"):
        env.pop(name, None)
    target = out / "regex.pickle"
    done = subprocess.run([sys.executable, "-m", "nztax.compiled_re", str(index_dir), str(target)], env=env,
                          capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    assert int(done.stdout.split()[0]) > 200  # the reading modules' patterns, and the server's
    return target


def test_every_stored_pattern_is_the_one_re_builds(recorded):
    import _sre

    table = compiled_re.read(recorded)
    assert len(table) > 200
    for (kind, pattern, flags), arguments in table.items():
        stored = _sre.compile(pattern, *arguments)
        built = compiled_re._original_compile(pattern, flags)
        assert stored == built, pattern
        assert (stored.groupindex, stored.groups, stored.flags) == (built.groupindex, built.groups, built.flags)


def test_installed_re_hands_out_stored_patterns_and_compiles_new_ones(tmp_path):
    pattern, flags = r"(?P<amount>\$?\d[\d,]*)\s+(?:a|per)\s+(week|year)", re.I
    compiled_re.write(tmp_path / compiled_re.COMPILED_FILE, {(str, pattern, flags)})
    compiled_re.uninstall()
    try:
        assert compiled_re.install(tmp_path) == 1
        re.purge()
        stored = re.compile(pattern, flags)
        assert stored.match("$85,000 per year").group("amount") == "$85,000"
        new = re.compile(r"never stored (\d+)")  # not in the table: compiled as usual
        assert new.match("never stored 7").group(1) == "7"
    finally:
        compiled_re.uninstall()
        re.purge()


def test_a_table_for_another_python_or_damaged_is_ignored(tmp_path, caplog):
    path = tmp_path / compiled_re.COMPILED_FILE
    compiled_re.write(path, {(str, r"\d+", 0)})
    raw = path.read_bytes()
    path.write_bytes(raw.replace(compiled_re.interpreter_key().encode(), b"nztax-re-1 cpython 2.7", 1))
    assert compiled_re.read(path) == {}
    damaged = bytearray(raw)
    damaged[-5] ^= 0xFF
    path.write_bytes(bytes(damaged))
    with caplog.at_level(logging.WARNING, logger="nztax.compiled_re"):
        assert compiled_re.read(path) == {}
    assert "compiled_regex_ignored" in caplog.text


def test_a_table_naming_other_python_objects_is_refused(tmp_path, caplog):
    path = tmp_path / compiled_re.COMPILED_FILE
    payload = pickle.dumps({(str, "x", 0): logging.getLogger})
    header = json.dumps({"key": compiled_re.interpreter_key(), "sha256": hashlib.sha256(payload).hexdigest()})
    path.write_bytes(header.encode() + b"\n" + payload)
    with caplog.at_level(logging.WARNING, logger="nztax.compiled_re"):
        assert compiled_re.read(path) == {}
    assert "not part of a pattern table" in caplog.text
