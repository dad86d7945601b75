"""/ask with an LLM configured (a fake OpenAI-compatible server on 127.0.0.1): mode, tokens in the log."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))
from fake_openai import FakeOpenAI, final, tool_call  # noqa: E402


@pytest.fixture
def fake():
    server = FakeOpenAI()
    yield server
    server.close()


def test_llm_answer_and_log_line(make_client, fake, monkeypatch, capsys):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-real-key")
    client = make_client(NZTAX_LLM_MODEL="openai/fake", NZTAX_LLM_API_BASE=fake.base_url, NZTAX_LLM_TIMEOUT="2",
                         NZTAX_LLM_MAX_RETRIES="0")
    fake.script[:] = [lambda b: final("answered", "Income tax on $85,000 is $17,927.50.")]
    r = client.post("/", json={"question": "How much tax do I pay on $85,000?"})
    body = r.get_json()
    assert r.status_code == 200 and body["mode"] == "llm" and "$17,927.50" in body["answer"]
    line = json.loads([ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("{")][-1])
    # Two calls: the model's reading of the question, and its answer around the engine's figure.
    assert line["mode"] == "llm" and line["tokens_prompt"] == 200 and line["tokens_completion"] == 40
    assert line["llm_calls"] == 2 and line["llm_hops"] == 0 and line["llm_seconds"] > 0
    assert "cost_usd" in line and line["tools"] == ["calculate_income_tax"]
    assert "response_format" in fake.requests[0] and "tools" in fake.requests[1]


def test_provider_down_serves_offline_and_logs_it(make_client, monkeypatch, capsys):
    import socket

    with socket.socket() as s:  # a port with nothing listening: connection refused at once
        s.bind(("127.0.0.1", 0))
        dead = f"http://127.0.0.1:{s.getsockname()[1]}/v1"
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-real-key")
    client = make_client(NZTAX_LLM_MODEL="openai/fake", NZTAX_LLM_API_BASE=dead, NZTAX_LLM_TIMEOUT="2",
                         NZTAX_LLM_MAX_RETRIES="0")
    r = client.post("/", json={"question": "How much tax do I pay on $85,000?"})
    body = r.get_json()
    assert r.status_code == 200 and body["mode"] == "offline" and "$17,927.50" in body["answer"]
    line = json.loads([ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("{")][-1])
    assert line["llm_fallback"] == "provider_error"
