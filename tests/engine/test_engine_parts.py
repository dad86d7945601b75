"""The engine's parts stored beside the index (`parts.pickle`): a restored part is the part the
engine builds, anything they were made from changing makes them stale (built again), and a damaged
or foreign file is refused, never run."""

from __future__ import annotations

import dataclasses
import io
import json
import logging
import pickle
import shutil

import pytest

from nztax import checked_file, engine_parts
from nztax.engine import Engine

QUESTIONS = ("How much tax do I pay on $85,000?", "What is the ACC earners' levy rate?",
             "PAYE on $1,000 a week, tax code M SL", "When is my IR3 due?", "how do I file my tax retrun")


@pytest.fixture(scope="module")
def stored(engine_settings, tmp_path_factory):
    """A copy of the fixture index with the parts an engine built from it stored beside it."""
    index_dir = tmp_path_factory.mktemp("parts") / "index"
    shutil.copytree(engine_settings.index_dir, index_dir)
    settings = dataclasses.replace(engine_settings, index_dir=index_dir)
    built = Engine.create(settings)
    built.restore_parts = False
    engine_parts.save(built, index_dir)
    return settings, built


def _restored(settings) -> Engine:
    engine = Engine.create(settings)
    engine._restore_parts()
    return engine


def test_restored_parts_are_the_built_ones_and_answer_the_same(stored, monkeypatch):
    settings, built = stored
    from nztax import spelling, understand

    # Nothing is built from the data when the stored parts are current.
    monkeypatch.setattr(understand.Catalogue, "load", classmethod(lambda cls, path=None: pytest.fail("catalogue read")))
    monkeypatch.setattr(spelling.Speller, "from_texts", classmethod(lambda cls, *a, **k: pytest.fail("speller built")))
    from nztax import known_words

    monkeypatch.setattr(known_words.Vocabulary, "__init__", lambda self, *a, **k: pytest.fail("vocabulary built"))
    from nztax import decline_units

    monkeypatch.setattr(decline_units.DeclineUnits, "load", classmethod(lambda cls, *a, **k: pytest.fail("decline wordings embedded")))
    restored = _restored(settings)
    assert all(getattr(restored, name) is not None for name in engine_parts.PARTS)
    assert restored.speller.known == built.speller.known and restored.speller.targets == built.speller.targets
    assert restored.classifier.example_words == built.classifier.example_words
    assert restored.classifier.catalogue == built.classifier.catalogue
    assert restored.unit_matcher.rows == built.unit_matcher.rows
    assert restored.citation_sections().by_url == built.citation_sections().by_url
    assert restored.retriever.index.identifiers == built.retriever.index.identifier_rows()
    assert restored.vocabulary._unit_words == built.vocabulary._unit_words
    assert restored._decline_units.rows == built._decline_units.rows
    assert (restored._decline_units.vectors == built._decline_units.vectors).all()
    assert restored.vocabulary._knows.__self__ is restored.speller  # the restored speller's test, not a copy's
    # What they share with the engine is the engine's own, not a stored copy.
    assert restored.classifier.settings is restored.settings and restored.citation_sections().rules is restored.rules
    restored.build_parts()
    for question in QUESTIONS:
        got, want = restored.answer(question, mode="offline").to_json(), built.answer(question, mode="offline").to_json()
        got.pop("latency_ms"), want.pop("latency_ms")
        assert got == want, question


def test_the_key_does_not_depend_on_where_the_index_lies(stored, tmp_path):
    settings, _ = stored
    moved = tmp_path / "elsewhere" / "index"
    shutil.copytree(settings.index_dir, moved)
    assert engine_parts.is_current(dataclasses.replace(settings, index_dir=moved), moved)


def test_parts_made_from_another_index_or_other_settings_are_built_again(stored, tmp_path, caplog):
    settings, _ = stored
    changed = tmp_path / "index"
    shutil.copytree(settings.index_dir, changed)
    chunks = changed / "chunks.json"
    chunks.write_text(chunks.read_text(encoding="utf-8") + "\n", encoding="utf-8")  # the chunks were rebuilt
    other = dataclasses.replace(settings, index_dir=changed)
    assert not engine_parts.is_current(other, changed)
    with caplog.at_level(logging.WARNING, logger="nztax.engine_parts"):
        engine = _restored(other)
    assert engine._classifier is None and "engine_parts_stale" in caplog.text
    assert engine.speller is not None  # built from the data as before
    cutoff = dataclasses.replace(settings, spelling_cutoff=settings.spelling_cutoff + 0.01)
    assert not engine_parts.is_current(cutoff, settings.index_dir)


def test_an_engine_given_another_unit_bank_does_not_get_the_stored_matcher(stored, tmp_path):
    """`nztax eval units` asks an engine on a bank without its held-out paraphrases: the matcher
    stored for the full bank would still match them word for word."""
    import yaml

    from nztax.units import UnitBank

    settings, built = stored
    bank = UnitBank.load(settings.units_dir)
    counts = {}
    for unit in bank.units:
        for text in unit.also:
            counts[text] = counts.get(text, 0) + 1
    removed = next(text for unit in bank.units for text in unit.also if counts[text] == 1)
    assert removed in {text for _, text in built.unit_matcher.rows}
    stripped = tmp_path / "units.yaml"  # one file, as the eval writes it
    data = {"topics": {}}
    for source in sorted(settings.units_dir.glob("*.yaml")) if settings.units_dir.is_dir() else [settings.units_dir]:
        for slug, topic in yaml.safe_load(source.read_text(encoding="utf-8"))["topics"].items():
            for entry in topic.get("questions", []):
                if removed in entry.get("also", []):
                    entry["also"] = [text for text in entry["also"] if text != removed]
            data["topics"][slug] = topic
    stripped.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    other = dataclasses.replace(settings, units_dir=stripped)
    assert not engine_parts.is_current(other, settings.index_dir)
    engine = _restored(other)
    rows = {text for _, text in engine.unit_matcher.rows}
    assert removed not in rows and len(rows) == len({text for _, text in built.unit_matcher.rows}) - 1
    assert engine_parts.is_current(settings, settings.index_dir)  # the configured bank still gets its parts


def test_an_input_rewritten_to_the_same_size_is_noticed_and_unchanged_ones_are_not_read(stored, tmp_path,
                                                                                         monkeypatch):
    """The key trusts an input's recorded sha256 only while its size and modification time are
    the recorded ones: a rewrite keeping the size is read, hashed and noticed."""
    settings, _ = stored
    index_dir = tmp_path / "index"
    shutil.copytree(settings.index_dir, index_dir)  # copy2: the recorded times too
    copied = dataclasses.replace(settings, index_dir=index_dir)
    read = []
    real_read_bytes = engine_parts.Path.read_bytes
    monkeypatch.setattr(engine_parts.Path, "read_bytes", lambda self: read.append(self.name) or real_read_bytes(self))
    assert engine_parts.is_current(copied, index_dir)
    assert not set(read) & set(engine_parts.INDEX_INPUTS)  # unchanged stamps: nothing read again
    chunks = index_dir / "chunks.json"
    text = chunks.read_text(encoding="utf-8")
    swapped = text.replace("tax", "TAX", 1)
    assert swapped != text and len(swapped) == len(text)
    chunks.write_text(swapped, encoding="utf-8")
    assert not engine_parts.is_current(copied, index_dir)
    assert "chunks.json" in read


def test_a_damaged_file_is_refused_with_a_log_line(stored, tmp_path, caplog):
    settings, _ = stored
    damaged = tmp_path / "index"
    shutil.copytree(settings.index_dir, damaged)
    raw = bytearray((damaged / engine_parts.PARTS_FILE).read_bytes())
    raw[-100] ^= 0xFF
    (damaged / engine_parts.PARTS_FILE).write_bytes(bytes(raw))
    with caplog.at_level(logging.WARNING, logger="nztax.engine_parts"):
        engine = _restored(dataclasses.replace(settings, index_dir=damaged))
    assert engine._classifier is None and "engine_parts_ignored" in caplog.text


class _Runs:
    """Unpickles as a call of `os.system`: a file that tries to run something."""

    def __reduce__(self):
        import os

        return os.system, ("echo should-not-run",)


def test_a_file_holding_anything_but_part_types_is_refused_not_run(stored, tmp_path, caplog):
    settings, _ = stored
    foreign = tmp_path / "index"
    shutil.copytree(settings.index_dir, foreign)
    other = dataclasses.replace(settings, index_dir=foreign)
    payload = pickle.dumps({name: _Runs() for name in (*engine_parts.PARTS, engine_parts.INDEX_PART)})
    checked_file.write(foreign / engine_parts.PARTS_FILE, payload, engine_parts.parts_key(other, foreign))
    with caplog.at_level(logging.WARNING, logger="nztax.engine_parts"):
        engine = _restored(other)
    assert engine._classifier is None
    assert "is not an engine part's type" in caplog.text
    header = json.loads(io.BytesIO((foreign / engine_parts.PARTS_FILE).read_bytes()).readline())
    assert header["key"] == engine_parts.parts_key(other, foreign)  # refused for its content, not its key
