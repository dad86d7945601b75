"""The offline model files are checked against their recorded sha256 before they are used."""

from __future__ import annotations

import hashlib
import shutil

import pytest

from nztax import embedders


def test_the_installed_model_files_match_the_recorded_hashes():
    model, tokenizer = embedders._minilm_locations()
    assert hashlib.sha256(model.read_bytes()).hexdigest() == embedders.MINILM_MODEL_SHA256
    assert hashlib.sha256(tokenizer.read_bytes()).hexdigest() == embedders.MINILM_TOKENIZER_SHA256
    assert embedders._minilm_paths() == (model, tokenizer)


@pytest.mark.parametrize("which", ["model", "tokenizer"])
def test_a_changed_file_is_refused_before_it_is_loaded(tmp_path, monkeypatch, which):
    model, tokenizer = embedders._minilm_locations()
    copies = {"model": tmp_path / "model.onnx", "tokenizer": tmp_path / "tokenizer.json"}
    shutil.copy(model, copies["model"])
    shutil.copy(tokenizer, copies["tokenizer"])
    data = bytearray(copies[which].read_bytes())
    data[len(data) // 2] ^= 0x01  # one flipped bit
    copies[which].write_bytes(bytes(data))
    monkeypatch.setattr(embedders, "_minilm_locations", lambda: (copies["model"], copies["tokenizer"]))

    with pytest.raises(embedders.EmbedderError, match="sha256"):
        embedders.OnnxMiniLMEmbedder()


def test_a_missing_file_says_how_to_reinstall(tmp_path):
    with pytest.raises(embedders.EmbedderError, match="make setup"):
        embedders.verify_file(tmp_path / "gone.onnx", embedders.MINILM_MODEL_SHA256)
