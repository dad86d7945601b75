"""Regular expressions precompiled at build time (`regex.pickle`): every stored pattern is the
pattern `re` itself builds, and a foreign or damaged file leaves `re` compiling as usual."""

from __future__ import annotations

import logging
import pickle
import re
from pathlib import Path

import pytest

from nztax import checked_file, compiled_re


@pytest.fixture(scope="module")
def recorded(engine_settings, tmp_path_factory) -> Path:
    """The build's compile step (`nztax build`'s index stage) run on a copy of the fixture index:
    a fresh process goes through a cold start against it and records what it compiles."""
    import shutil

    from nztax_build.indexer import compile_for_cold_start

    index_dir = tmp_path_factory.mktemp("regex") / "index"
    shutil.copytree(engine_settings.index_dir, index_dir)
    with pytest.MonkeyPatch.context() as patch:  # the step hands its environment to the fresh process
        for name in ("NZTAX_LLM_MODEL", "NZTAX_LLM_API_BASE", "GEMINI_API_KEY"):
            patch.delenv(name, raising=False)
        compile_for_cold_start(engine_settings, index_dir)
    assert (index_dir / "data.pickle").exists()
    return index_dir / compiled_re.COMPILED_FILE


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
    checked_file.write(path, payload, compiled_re.interpreter_key())
    with caplog.at_level(logging.WARNING, logger="nztax.compiled_re"):
        assert compiled_re.read(path) == {}
    assert "not part of a pattern table" in caplog.text
