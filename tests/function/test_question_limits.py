"""/ask in process: a question over its CPU budget is a 422, one with too many figures a 400, and
a damaged model file a 503 `model_unavailable` with a log line, never a 500."""

from __future__ import annotations

import logging
import shutil

from nztax import embedders


def error_code(response) -> str:
    assert "Traceback" not in response.get_data(as_text=True)
    return response.get_json()["error"]["code"]


def test_a_question_over_its_cpu_budget_is_refused_with_a_422(make_client, caplog):
    question = "I earn $85,000 a year and $500 a week on the side. How much tax do I pay?"
    assert make_client().post("/", json={"question": question}).status_code == 200
    client = make_client(NZTAX_QUESTION_CPU_BUDGET="0.000001")  # spent before the first amount is read
    with caplog.at_level(logging.WARNING):
        r = client.post("/", json={"question": question})
    assert r.status_code == 422 and error_code(r) == "question_too_costly"
    assert "CPU budget" in caplog.text


def test_a_question_with_too_many_figures_is_a_400(make_client):
    r = make_client(NZTAX_MAX_QUESTION_FIGURES="5").post("/", json={"question": "85k 85k 85k 85k 85k 85k"})
    assert r.status_code == 400 and error_code(r) == "too_many_figures"


def test_a_damaged_model_file_is_a_503_model_unavailable(make_client, tmp_path, monkeypatch, caplog):
    model, tokenizer = embedders._minilm_locations()
    damaged = tmp_path / "model.onnx"
    shutil.copy(model, damaged)
    data = bytearray(damaged.read_bytes())
    data[len(data) // 2] ^= 0x01
    damaged.write_bytes(bytes(data))
    monkeypatch.setattr(embedders, "_minilm_locations", lambda: (damaged, tokenizer))
    client = make_client()
    with caplog.at_level(logging.ERROR):
        r = client.post("/", json={"question": "What is the ACC earners' levy?"})
    assert r.status_code == 503 and error_code(r) == "model_unavailable"
    assert "model unavailable" in caplog.text and "sha256" in caplog.text
