"""The query model's vectors are kept by the text the model reads: a question asked again, or
differing only in case or spacing, is not embedded again and gets the very vector a fresh
encoding gives."""

from __future__ import annotations

import numpy as np

from nztax import embedders


def test_a_question_differing_in_case_or_spacing_shares_the_kept_vector(monkeypatch):
    model = embedders.OnnxMiniLMEmbedder()
    fresh = embedders.OnnxMiniLMEmbedder()
    runs = []
    encode = model._encode_batch
    monkeypatch.setattr(model, "_encode_batch", lambda texts: runs.append(texts) or encode(texts))
    first = model.embed_query("What is the ACC earners' levy rate?")
    again = model.embed_query("what is the  ACC earners'\tlevy RATE?")
    assert len(runs) == 1 and again is first
    alone = embedders._normalise(fresh._encode_batch(["what is the  ACC earners'\tlevy RATE?"]))[0]
    assert np.array_equal(again, alone)
    model.embed_query("What is the ACC earners' levy rate for 2025?")  # other words: embedded
    assert len(runs) == 2


def test_the_memo_holds_as_many_texts_as_the_setting_says(monkeypatch):
    from nztax.settings import get_settings

    monkeypatch.setenv("NZTAX_QUERY_MEMO_SIZE", "2")
    get_settings.cache_clear()
    try:
        calls = []
        kept = embedders.remembered(lambda text: calls.append(text) or np.zeros(3, np.float32))
        for text in ("a", "b", "a", "c", "a", "b"):
            kept(text)
        assert calls == ["a", "b", "c", "b"]  # "b" was the least recently used when "c" came
    finally:
        monkeypatch.delenv("NZTAX_QUERY_MEMO_SIZE")
        get_settings.cache_clear()
