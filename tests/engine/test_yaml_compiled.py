"""The data files' compiled copy beside the index (`data.pickle`): the same values the YAML loader
gives, an edited file is parsed again, and a damaged or foreign file is ignored, never trusted."""

from __future__ import annotations

import io
import logging
import pickle

import pytest

from nztax import yaml_data
from nztax.settings import get_settings


@pytest.fixture
def compiled(tmp_path):
    settings = get_settings()
    files = yaml_data.data_files(settings.rules_dir, settings.units_dir)
    path = yaml_data.save_compiled(tmp_path, files)
    return path, files


def test_every_data_file_reads_back_as_the_loader_parses_it(compiled):
    path, files = compiled
    values = yaml_data.read_compiled(path)
    assert len(files) >= 10 and len(values) == len({f.read_text(encoding="utf-8") for f in files})
    for file in files:
        text = file.read_text(encoding="utf-8")
        stored = values[yaml_data._text_key(text)]
        assert yaml_data._SafeUnpickler(io.BytesIO(stored)).load() == yaml_data.parse_yaml(text), file.name


def test_load_yaml_uses_the_compiled_copy_and_parses_an_edited_text(compiled, monkeypatch):
    path, files = compiled
    monkeypatch.setattr(yaml_data, "_compiled", yaml_data.read_compiled(path))
    parsed = []
    real_parse = yaml_data.parse_yaml
    monkeypatch.setattr(yaml_data, "parse_yaml", lambda text: parsed.append(text) or real_parse(text))
    text = files[0].read_text(encoding="utf-8")
    first = yaml_data.load_yaml(text)
    assert parsed == [] and first == real_parse(text)
    # Each call hands out its own copy: a caller changing one cannot change the next.
    if isinstance(first, dict):
        first.clear()
        assert yaml_data.load_yaml(text) == real_parse(text)
    edited = text + "\n# edited after the build\n"
    assert yaml_data.load_yaml(edited) == real_parse(edited)
    assert parsed == [edited]


def test_a_damaged_file_is_ignored_with_a_log_line(compiled, caplog):
    path, _ = compiled
    raw = bytearray(path.read_bytes())
    raw[-10] ^= 0xFF
    path.write_bytes(bytes(raw))
    with caplog.at_level(logging.WARNING, logger="nztax.yaml_data"):
        assert yaml_data.read_compiled(path) == {}
    assert "compiled_data_ignored" in caplog.text


def _write(path, body: bytes) -> None:
    from nztax import checked_file

    checked_file.write(path, body, yaml_data.COMPILED_KEY)


def test_a_file_naming_other_python_objects_is_refused(tmp_path, caplog, monkeypatch):
    path = tmp_path / "data.pickle"
    _write(path, pickle.dumps(logging.getLogger))  # a global that is not a data type
    with caplog.at_level(logging.WARNING, logger="nztax.yaml_data"):
        assert yaml_data.read_compiled(path) == {}
    assert "not a YAML data type" in caplog.text
    # The same inside one entry (keyed to a real text): that text is parsed instead, with a log line.
    text = "rate: 0.105\n"
    _write(path, pickle.dumps({yaml_data._text_key(text): pickle.dumps(logging.getLogger)}))
    monkeypatch.setattr(yaml_data, "_compiled", yaml_data.read_compiled(path))
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="nztax.yaml_data"):
        assert yaml_data.load_yaml(text) == {"rate": 0.105}
    assert "compiled_data_ignored" in caplog.text


def test_a_file_from_another_loader_or_layout_is_not_read(compiled):
    path, _ = compiled
    raw = path.read_bytes()
    path.write_bytes(raw.replace(yaml_data.COMPILED_KEY.encode(), b"nztax-yaml-0 other", 1))
    assert yaml_data.read_compiled(path) == {}
