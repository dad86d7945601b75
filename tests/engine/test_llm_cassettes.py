"""LLM mode replayed from recorded exchanges (tests/engine/cassettes/*.json): no network, no key.

Each case's cassette holds every request the engine sent (normalised: fake_openai.normalise) and the
reply it got. Replay serves the replies through the fake OpenAI-compatible server on 127.0.0.1 and
fails when a request differs from its recording, so a change to the prompts, the frame schema, the
tools or the passages sent shows up here, and is re-recorded on purpose:

    NZTAX_RECORD_MODEL=gemini/gemini-2.5-flash GEMINI_API_KEY=… .venv/bin/python -m pytest tests/engine/test_llm_cassettes.py

(any litellm model with its key; `NZTAX_RECORD_MODEL=fake-script` records the scripted replies below
instead, which is how the shipped cassettes were made). docs/llm.md says more.
"""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path

import pytest

from fake_openai import FakeOpenAI, final, frame, tool_call
from nztax.engine import Engine

CASSETTES = Path(__file__).resolve().parent / "cassettes"
RECORD_MODEL = os.environ.get("NZTAX_RECORD_MODEL")
SCRIPTED = "fake-script"


@dataclasses.dataclass
class Case:
    name: str
    question: str
    frames: list
    script: list
    tools: list[tuple[str, dict]]      # (tool, arguments it must have been called with)


CASES = [
    Case("income_tax_on_a_salary", "How much tax do I pay on $85,000?",
         [frame("figure", [("$85,000", 85000, "annual", "income", "me")], asking=["How much tax do I pay on $85,000?"])],
         [lambda b: final("answered", "Income tax on $85,000 is **$17,927.50** for the year.")],
         [("calculate_income_tax", {"taxable_income": 85000})]),
    Case("tax_withheld_set_beside", "I earn $85,000 and my payslip shows $9,200 of PAYE so far. How much tax will I pay?",
         [frame("figure", [("$85,000", 85000, "annual", "income", "me"), ("$9,200", 9200, None, "tax_withheld", "me")],
                asking=["How much tax will I pay?"])],
         [lambda b: final("answered", "On $85,000 the year's income tax is $17,927.50; the $9,200 of PAYE taken so far "
                                      "counts towards it.")],
         [("calculate_income_tax", {"taxable_income": 85000})]),
    Case("another_country_mentioned", "Is my redundancy taxed the same way in New Zealand as in Australia?",
         [frame("which", asking=["Is my redundancy taxed the same way in New Zealand as in Australia?"])],
         [lambda b: {"tool_calls": [tool_call("s1", "search_tax_documents", {"query": "redundancy payment tax"})]},
          lambda b: final("answered", "In New Zealand a redundancy payment is taxed as income, through PAYE like "
                                      "salary. How Australia taxes it is for the Australian Taxation Office.", sources=[1])],
         [("search_tax_documents", {"query": "redundancy payment tax"})]),
    Case("would_be_asked_back_offline", "How much tax will I pay on my salary?",
         [frame("figure", asking=["How much tax will I pay on my salary?"])],
         [lambda b: {"tool_calls": [tool_call("s1", "search_tax_documents", {"query": "income tax rates individuals"})]},
          lambda b: final("answered", "New Zealand taxes income in bands, and your employer deducts PAYE from each pay; "
                                      "tell me your salary and I can work out the tax on it.", sources=[1])],
         [("search_tax_documents", {"query": "income tax rates individuals"})]),
]


@pytest.fixture
def engine_for(engine, engine_settings, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-real-key")
    servers = []

    def make(case: Case):
        path = CASSETTES / f"{case.name}.json"
        if RECORD_MODEL == SCRIPTED:  # answer from the script; the cassette is written after the answer
            server = FakeOpenAI()
            server.frames[:], server.script[:] = list(case.frames), list(case.script)
        else:
            server = FakeOpenAI(cassette=path, record_model=RECORD_MODEL)
        servers.append((server, path))
        settings = dataclasses.replace(engine_settings, llm_model="openai/fake", llm_api_base=server.base_url,
                                       llm_timeout=5.0, llm_max_retries=0, llm_max_hops=3)
        return Engine(engine.rules, engine.retriever, settings=settings), server

    yield make
    for server, path in servers:
        server.close()


def _write_scripted(server: FakeOpenAI, path: Path) -> None:
    from fake_openai import normalise

    exchanges = []
    for body, reply in zip(server.requests, server.replies):
        exchanges.append({"request": normalise(body), "response": reply})
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"model": SCRIPTED, "exchanges": exchanges}, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_replayed_exchange(engine_for, case):
    e, server = engine_for(case)
    result = e.answer(case.question, use_faq=False)
    if RECORD_MODEL == SCRIPTED:
        _write_scripted(server, CASSETTES / f"{case.name}.json")
    assert server.mismatches == [], json.dumps(server.mismatches, indent=1)[:3000]
    if not RECORD_MODEL:
        assert server.replayed == len(server.recorded) > 0  # every recorded exchange was asked for
    assert result.mode == "llm" and result.fallback_reason is None
    assert result.trace["frame"]["read_by"] == "model"
    made = [(t.name, t.arguments) for t in result.tools]
    for name, arguments in case.tools:
        assert any(n == name and all(a.get(k) == v for k, v in arguments.items()) for n, a in made), made


def test_a_request_that_differs_from_its_recording_is_caught(engine_for):
    if RECORD_MODEL:
        pytest.skip("recording, not replaying")
    e, server = engine_for(CASES[0])
    result = e.answer("How much tax do I pay on $86,000?", use_faq=False)  # not the recorded question
    assert server.mismatches and server.mismatches[0]["at"] == 0
    assert result.mode == "offline" and result.fallback_reason == "provider_error"
