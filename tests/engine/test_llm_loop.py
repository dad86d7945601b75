"""The LLM tool loop against a fake OpenAI-compatible server on 127.0.0.1 (no network, no key)."""

from __future__ import annotations

import json
import time

import pytest

from fake_openai import final, frame, llm_engine_on, tool_call

TAX_RATES_URL_PART = "tax-rates-for-individuals"


# A short timeout: the timeout test waits for it to pass.
@pytest.fixture
def llm_engine(engine, engine_settings, fake, monkeypatch):
    return llm_engine_on(engine, engine_settings, fake, monkeypatch, timeout=1.0)


def ask(e, question, **kw):
    return e.answer(question, use_faq=False, **kw)


def test_engine_computes_and_the_model_writes_around_its_figures(llm_engine, fake):
    fake.frames[:] = [frame("figure", [("$85,000", 85000, "annual", "income", "me")])]
    fake.script[:] = [lambda b: final("answered", "Income tax on $85,000 is **$17,927.50** (effective rate 21.09%).",
                                      ["What about with a student loan?"])]
    result = ask(llm_engine, "How much tax do I pay on $85,000?")
    out = result.to_json()
    assert out["mode"] == "llm" and out["status"] == "answered"
    assert "$17,927.50" in out["answer"] and not result.guard_removed
    assert [t["name"] for t in out["tools"]] == ["calculate_income_tax"]
    assert out["tools"][0]["result"]["total_tax"] == 17927.5
    assert any(TAX_RATES_URL_PART in c["url"] for c in out["citations"])
    assert result.usage["prompt_tokens"] == 200 and result.usage["calls"] == 2 and result.usage["hops"] == 0
    reading, writing = fake.requests
    assert reading["response_format"]["type"] == "json_schema" and "tools" not in reading
    assert reading["messages"][-1]["content"] == "How much tax do I pay on $85,000?"
    assert writing["model"] == "fake" and {t["function"]["name"] for t in writing["tools"]} >= {"calculate_income_tax", "search_tax_documents"}
    roles = [m["role"] for m in writing["messages"]]
    assert roles == ["system", "user", "user", "assistant", "tool"]
    assert writing["messages"][1]["content"].startswith("<context>")  # passages are a separate message
    assert "2026-27" in writing["messages"][0]["content"]  # the current tax year comes from the date
    made = writing["messages"][-1]
    assert made["tool_call_id"] == "engine_1" and json.loads(made["content"])["total_tax"] == 17927.5


def test_parallel_tool_calls_in_one_hop(llm_engine, fake):
    fake.script[:] = [
        lambda b: {"tool_calls": [
            tool_call("call_a", "calculate_paye", {"gross_pay": 1000, "pay_frequency": "weekly", "tax_code": "M"}),
            tool_call("call_b", "calculate_kiwisaver", {"gross_pay": 1000}),
        ]},
        lambda b: final("answered", "On $1,000 a week PAYE is $171.50 and your KiwiSaver contribution is $35."),
    ]
    out = ask(llm_engine, "How do PAYE and KiwiSaver deductions work on a weekly wage?").to_json()
    assert [t["name"] for t in out["tools"]] == ["calculate_paye", "calculate_kiwisaver"]
    tool_messages = [m for m in fake.requests[2]["messages"] if m["role"] == "tool"]
    assert [m["tool_call_id"] for m in tool_messages] == ["call_a", "call_b"]
    assert json.loads(tool_messages[0]["content"])["paye"] == 171.5  # IR340 April 2026, weekly $1,000 M
    assert "$171.50" in out["answer"] and "$35" in out["answer"]


def test_bad_tool_argument_goes_back_as_an_error(llm_engine, fake):
    fake.script[:] = [
        lambda b: {"tool_calls": [tool_call("call_x", "calculate_income_tax", {"taxable_income": "lots"})]},
        lambda b: {"tool_calls": [tool_call("call_y", "calculate_income_tax", "{not json")]},
        lambda b: final("needs_clarification", "How much do you earn in a year?"),
    ]
    out = ask(llm_engine, "How is income tax on salary and wages worked out in New Zealand?").to_json()
    errors = [json.loads(m["content"]) for m in fake.requests[3]["messages"] if m["role"] == "tool"]
    assert errors[0]["error"]["code"] == "invalid_argument" and errors[0]["error"]["argument"] == "taxable_income"
    assert errors[1]["error"]["code"] == "invalid_json"
    assert out["status"] == "needs_clarification" and out["mode"] == "llm"


def test_hop_cap_forces_a_final_call_without_tools(llm_engine, fake):
    search = lambda b: {"tool_calls": [tool_call(f"s{len(fake.requests)}", "search_tax_documents", {"query": "ACC levy"})]}  # noqa: E731
    fake.script[:] = [search, search, search,
                      lambda b: final("answered", "The ACC earners' levy is 1.75% of liable earnings.", sources=[1])]
    out = ask(llm_engine, "Tell me about the ACC levy").to_json()
    assert len(fake.requests) == 5 and "response_format" in fake.requests[0]
    assert all("tools" in r for r in fake.requests[1:4]) and "tools" not in fake.requests[4]
    assert [t["name"] for t in out["tools"]] == ["search_tax_documents"] * 3
    assert "1.75%" in out["answer"] and out["mode"] == "llm"
    assert any("acc-earners-levy-rates" in c["url"] for c in out["citations"])


@pytest.mark.parametrize("step", ["read", "write"])
def test_timeout_falls_back_to_the_offline_answer(llm_engine, fake, step):
    (fake.frames if step == "read" else fake.script)[:] = [lambda b: "hang"]
    started = time.perf_counter()
    result = ask(llm_engine, "How much tax do I pay on $85,000?")
    elapsed = time.perf_counter() - started
    out = result.to_json()
    assert out["mode"] == "offline" and result.fallback_reason == "timeout"
    assert "$17,927.50" in out["answer"] and out["tools"][0]["name"] == "calculate_income_tax"
    assert elapsed < 4


def test_invented_figure_never_reaches_the_user(llm_engine, fake):
    fake.script[:] = [
        lambda b: final("answered", "Income tax on $85,000 is $17,927.50. You can also claim a $2,500 "
                        "working-from-home allowance tax free. Your marginal rate is 33%."),
    ]
    result = ask(llm_engine, "How much tax do I pay on $85,000?")
    out = result.to_json()
    assert "$2,500" not in out["answer"] and "working-from-home" not in out["answer"]
    assert "$17,927.50" in out["answer"] and result.guard_removed == ["$2,500"]
    assert "could not be traced" in out["answer"]


def test_answer_with_only_invented_figures_is_downgraded(llm_engine, fake):
    fake.script[:] = [lambda b: final("answered", "The top tax rate is 45% on income over $250,000.")]
    result = ask(llm_engine, "What is the top tax rate?")
    out = result.to_json()
    assert "45%" not in out["answer"] and "$250,000" not in out["answer"]
    assert out["mode"] == "offline" and result.fallback_reason == "guard"
    assert "39%" in out["answer"]


def test_model_out_of_scope_uses_fixed_copy(llm_engine, fake):
    fake.script[:] = [lambda b: final("out_of_scope", "Sure! Here is everything about customs duties...")]
    out = ask(llm_engine, "Tell me about importing a car and the duties on it").to_json()
    assert out["status"] == "out_of_scope" and "Sure!" not in out["answer"]


def test_a_decline_the_model_reads_too_is_fixed_copy_without_a_tool_loop(llm_engine, fake):
    fake.frames[:] = [frame("how", scope="other_nz_tax")]
    out = ask(llm_engine, "How do I register for GST?").to_json()
    assert out["status"] == "out_of_scope" and len(fake.requests) == 1 and "response_format" in fake.requests[0]


def test_a_refusal_is_final_before_any_model_call(llm_engine, fake):
    fake.frames[:] = [frame("figure", [("$40,000", 40000, "annual", "income", "me")])]
    fake.script[:] = [lambda b: final("answered", "Sure: keep it in cash and leave it off your return.")]
    result = ask(llm_engine, "How can I hide my $40,000 of cash income from IRD?")
    assert result.status == "refused" and fake.requests == [] and "Sure" not in result.answer


def test_the_models_reading_cannot_turn_a_refusal_into_an_answer(llm_engine):
    """Even given a frame that reads a plain tax question, the table keeps a proposed refusal."""
    from nztax.llm_reader import FrameReading, validate

    question = "How can I hide my $40,000 of cash income from IRD?"
    proposal, _ = llm_engine._propose(question, [], None)
    assert proposal.action == "refuse"
    reading = FrameReading.model_validate(json.loads(frame("figure", [("$40,000", 40000, "annual", "income", "me")])["content"]))
    model_frame, dropped = validate(reading, proposal.asked, proposal.slots, llm_engine.rules.years)
    assert not dropped and model_frame.read_by == "model"
    settled = llm_engine.settle(proposal, model_frame, [])
    assert settled.action == "refuse" and settled.trace.rows == ["refuse_is_final"]


def test_reply_that_is_not_json_falls_back(llm_engine, fake):
    fake.script[:] = [lambda b: {"content": "Tax on $85,000 is about $18,000."}]
    result = ask(llm_engine, "How much tax do I pay on $85,000?")
    assert result.mode == "offline" and result.fallback_reason == "invalid_output"
    assert "$18,000" not in result.answer
