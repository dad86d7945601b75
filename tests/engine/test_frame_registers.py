"""The frame's training examples told again in other registers (`data/frame_examples_registers.yaml`):
each variant sits under an example of the same label, an amount's variant marks the same kinds and owners,
and a variant never repeats its example; the model's key changes with the variants and their weight."""

from __future__ import annotations

import difflib
import re
from collections import Counter

import pytest

from nztax import frame_model as fm
from nztax.yaml_data import load_yaml


def _norm(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", fm.MARKUP.sub(lambda m: m.group(1), text).lower()))


@pytest.fixture(scope="module")
def files():
    return load_yaml(fm.examples_text()), load_yaml(fm.registers_text())


def test_every_variant_sits_under_an_example_of_its_own_label(files):
    examples, registers = files
    for name in ("asks", "scope"):
        for label, entries in registers[name].items():
            assert label in examples[name], (name, label)
            for entry in entries:
                assert entry["of"] in examples[name][label], (name, label, entry["of"])
                assert entry["variants"], entry["of"]
    assert {e["of"] for e in registers["amounts"]} <= set(examples["amounts"])


def test_an_amounts_variant_marks_the_same_kinds_and_owners_and_no_other_money(files):
    _, registers = files
    for entry in registers["amounts"]:
        wanted = Counter((k, o) for _, k, o in fm.MARKUP.findall(entry["of"]))
        for variant in entry["variants"]:
            assert Counter((k, o) for _, k, o in fm.MARKUP.findall(variant)) == wanted, variant
            rest = fm.MARKUP.sub(" ", variant)
            assert not re.search(r"[\[\]|]|[$£€]\s?\d|\d\s?k\b|\d{1,3}(?:,\d{3})+", rest, re.I), variant


def test_no_variant_repeats_its_example_or_another_variant(files):
    _, registers = files
    entries = [e for section in ("asks", "scope") for es in registers[section].values() for e in es] + registers["amounts"]
    seen = set()
    for entry in entries:
        for variant in entry["variants"]:
            assert difflib.SequenceMatcher(None, _norm(entry["of"]), _norm(variant)).ratio() < 0.9, variant
            assert _norm(variant) not in seen, variant
            seen.add(_norm(variant))


def test_variants_share_their_examples_group():
    rows = fm.sentence_examples("scope")
    originals = {e.group: e for e in rows if not e.variant}
    assert len(originals) == sum(not e.variant for e in rows)  # one group per example
    for e in rows:
        assert e.group in originals and originals[e.group].label == e.label
    amounts = fm.amount_examples()
    assert {a.group for a in amounts if a.variant} <= {a.group for a in amounts if not a.variant}


def test_the_model_key_follows_the_variants_weight(monkeypatch):
    before = fm.examples_digest()
    monkeypatch.setitem(fm.REGISTER_WEIGHT, "scope", fm.REGISTER_WEIGHT["scope"] + 0.25)
    assert fm.examples_digest() != before
