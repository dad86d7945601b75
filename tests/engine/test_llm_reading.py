"""LLM mode's reading step: the model fills the question frame, the validator keeps only what the
question bears out, and the offline reading no longer declines, asks back or answers ahead of the model
(fake OpenAI-compatible server on 127.0.0.1)."""

from __future__ import annotations

import dataclasses
import json
from dataclasses import replace

import pytest

from fake_openai import final, frame, llm_engine_on
from nztax.engine import Engine
from nztax.frame import percent_value, percentages
from nztax.llm_reader import FrameReading, parse_span, scripted_question, validate
from nztax.text_cleaning import _TENS, UNIT_WORDS


# Reading replies wait on the model's structured output: a little more time than the loop's steps.
@pytest.fixture
def llm_engine(engine, engine_settings, fake, monkeypatch):
    return llm_engine_on(engine, engine_settings, fake, monkeypatch, timeout=2.0)


def reading(*amounts, **kw) -> FrameReading:
    return FrameReading.model_validate(json.loads(frame(amounts=amounts, **kw)["content"]))


# -- the validator -------------------------------------------------------------------------------

@pytest.mark.parametrize("text, value", [("$85,000", 85000), ("85k", 85000), ("$85 000", 85000), ("NZ$1.2m", 1200000),
                                         ("4.5%", 4.5), ("eighty thousand dollars", 80000)])
def test_an_amounts_text_parses_with_the_number_grammar(text, value):
    assert parse_span(text) == pytest.approx(value)


def _in_words(n: int) -> str:
    units = {v: w for w, v in UNIT_WORDS.items()}
    tens = {v: w for w, v in _TENS.items()}
    return units[n] if n < 20 else tens[n - n % 10] + (f"-{units[n % 10]}" if n % 10 else "")


@pytest.mark.parametrize("rate", [3, 10, 17, 21, 30, 33, 39, 40, 45, 64, 99])
def test_a_rate_in_any_form_parses_as_the_frame_reads_it(rate):
    # One rate grammar (frame.percentages): the sign, "per cent", "percent", and the number in words,
    # each read as the rate the offline frame reads in the same words of a question.
    forms = [f"{rate}%", f"{rate} %", f"{rate} per cent", f"{rate} percent", f"{_in_words(rate)} per cent",
             f"{_in_words(rate).title()} percent"]
    for form in forms:
        offline = percentages(f"The employer takes {form} of my pay, is that right?")
        assert len(offline) == 1 and percent_value(offline[0]) == rate, form
        assert parse_span(form) == rate, form


@pytest.mark.parametrize("rate", ["33%", "33 per cent", "thirty-three percent"])
@pytest.mark.parametrize("money", ["$2,000", "85k", "eighty thousand dollars"])
def test_money_that_mentions_a_rate_parses_as_the_money(money, rate):
    # A span is a rate only when the rate is all it says; money said beside a rate is the money.
    assert parse_span(f"{money} at {rate}") == parse_span(money)
    assert parse_span(f"{rate} of {money}") == parse_span(money)


@pytest.mark.parametrize("span, value", [("33% tax", 33), ("17.5% PIR", 17.5), ("a 3% raise", 3), ("40 per cent rate", 40),
                                         ("10.5% to 17.5%", 10.5), ("thirty-three percent tax", 33)])
def test_a_rate_with_words_beside_it_is_the_rate(span, value):
    assert parse_span(span) == pytest.approx(value)


def test_a_rate_in_words_is_kept_as_a_rate_without_a_period(engine):
    question = "My secondary job takes thirty-three per cent of a $2,000 payment. Is that the right rate?"
    proposal, _ = engine._propose(question, [], None)
    got, dropped = validate(reading(("thirty-three per cent", 33, "annual", "rate", "me")),
                            proposal.asked, proposal.slots, engine.rules.years)
    assert not dropped and [(a.text, a.value, a.period) for a in got.amounts] == [("thirty-three per cent", 33, None)]
    got, dropped = validate(reading(("thirty-three per cent", 30, None, "rate", "me")),
                            proposal.asked, proposal.slots, engine.rules.years)
    assert not got.amounts and dropped  # the model's value is not the words'


def test_only_amounts_the_question_bears_out_are_kept(engine):
    question = "I earn $85,000 and my payslip shows $9,200 of PAYE so far. How much tax will I pay?"
    proposal, _ = engine._propose(question, [], None)
    got, dropped = validate(reading(("$85,000", 85000, "annual", "income", "me"),
                                    ("$9,200", 9200, None, "tax_withheld", "me"),
                                    ("$92,000", 92000, "annual", "income", "me"),     # not in the question
                                    ("$85,000", 58000, "annual", "income", "me"),     # a second $85,000 there is not
                                    ("$9,200", 92000, None, "income", "me")),         # the wrong value
                            proposal.asked, proposal.slots, engine.rules.years)
    assert [(a.text, a.kind) for a in got.amounts] == [("$85,000", "income"), ("$9,200", "tax_withheld")]
    assert [d["text"] for d in dropped] == ["$92,000", "$85,000", "$9,200"]
    starts = {a.start for a in proposal.slots.amounts}
    assert {a.start for a in got.amounts} <= starts  # placed where the number grammar found them


def test_a_year_is_kept_only_when_its_words_are_in_the_question(engine):
    question = "What was the tax on $60,000 in FY24-25?"
    proposal, _ = engine._propose(question, [], None)
    got, dropped = validate(reading(tax_year="2024-25", year_text="FY24-25"), proposal.asked, proposal.slots, engine.rules.years)
    assert got.tax_year == "2024-25" and not dropped
    got, dropped = validate(reading(tax_year="2023-24", year_text="last year"), proposal.asked, proposal.slots, engine.rules.years)
    assert got.tax_year is None and dropped


# -- the model's reading drives the decision -------------------------------------------------------

def test_a_figure_the_model_reads_as_a_balance_is_not_calculated_on(llm_engine, fake):
    fake.frames[:] = [frame("figure", [("$85,000", 85000, None, "balance", "me")])]
    fake.script[:] = [lambda b: final("answered", "A loan balance is not income, so it is not taxed.")]
    result = llm_engine.answer("I have $85,000 left to pay off. How much tax is that?", use_faq=False)
    assert result.mode == "llm" and "loan balance" in result.answer
    assert result.trace["rows"] == ["not_sure_of_an_input"] and result.trace["frame"]["read_by"] == "model"
    writing = fake.requests[1]
    assert not [m for m in writing["messages"] if m["role"] == "tool"]  # the engine ran no calculation


def test_tax_withheld_the_model_reads_is_set_beside_not_added(llm_engine, fake):
    fake.frames[:] = [frame("figure", [("$85,000", 85000, "annual", "income", "me"), ("$9,200", 9200, None, "tax_withheld", "me")])]
    fake.script[:] = [lambda b: final("answered", "On $85,000 the year's income tax is $17,927.50.")]
    result = llm_engine.answer("I earn $85,000 and my payslip shows $9,200 of PAYE so far. How much tax will I pay?",
                               use_faq=False)
    assert [(t.name, t.arguments.get("taxable_income")) for t in result.tools] == [("calculate_income_tax", 85000)]
    assert result.mode == "llm" and "$17,927.50" in result.answer


def test_a_new_zealand_question_that_mentions_another_country_reaches_the_model(engine, llm_engine, fake):
    question = "Is my redundancy taxed the same way in New Zealand as in Australia?"
    assert engine.answer(question, use_faq=False, mode="offline").status == "out_of_scope"  # offline declines it
    fake.frames[:] = [frame("which", scope="nz_tax")]
    fake.script[:] = [lambda b: final("answered", "In New Zealand a redundancy payment is taxed as income, like salary.")]
    result = llm_engine.answer(question, use_faq=False)
    assert result.status == "answered" and result.mode == "llm" and "taxed as income" in result.answer
    assert len(fake.requests) == 2 and "tools" in fake.requests[1]


def test_a_decline_is_lifted_when_the_model_reads_new_zealand_tax(engine):
    """The table row itself: whatever the intent reading declined as, the model's nz_tax reading answers."""
    question = "Is my redundancy taxed the same way in New Zealand as in Australia?"
    proposal, _ = engine._propose(question, [], None)
    declined = replace(proposal, action="decline", calls=[], intent=engine.classifier.catalogue.get("decline_overseas"))
    model_frame, _ = validate(reading(asks="which"), proposal.asked, proposal.slots, engine.rules.years)
    settled = engine.settle(declined, model_frame, [])
    # (the lifted reading then goes through the rows again: the first row is the lifting one)
    assert settled.action != "decline" and settled.trace.rows[0] == "model_reads_nz_tax"
    offline_frame = engine.read_frame(proposal)
    assert engine.settle(declined, dataclasses.replace(offline_frame, scope="nz_tax"), []).action == "decline"


def test_a_question_the_offline_engine_would_ask_back_about_reaches_the_model(engine, llm_engine, fake):
    question = "How much tax will I pay on my salary?"
    assert engine.answer(question, use_faq=False, mode="offline").status == "needs_clarification"
    fake.frames[:] = [frame("figure")]
    fake.script[:] = [lambda b: final("answered", "It depends on your salary: New Zealand taxes income in bands, and "
                                                  "your employer deducts PAYE from each pay.")]
    result = llm_engine.answer(question, use_faq=False)
    assert result.status == "answered" and result.mode == "llm" and "bands" in result.answer
    assert len(fake.requests) == 2


def test_the_faq_is_not_served_ahead_of_the_model_only_when_it_fails(engine, engine_settings, llm_engine, fake):
    from nztax.faq_index import FaqIndex

    question = "How much tax do I pay on $85,000?"
    stored = engine.answer(question, use_faq=False, mode="offline").to_json()
    faq = FaqIndex([{"question": question, "slug": "q0", "topic": "tax-rates", "url": "/faq/q0/", "result": stored}],
                   engine_settings.faq_match_threshold)
    with_faq = Engine(llm_engine.rules, llm_engine.retriever, faq, llm_engine.settings)
    assert Engine(engine.rules, engine.retriever, faq, engine_settings).answer(question).source == "faq"  # offline: served
    fake.frames[:] = [frame("figure", [("$85,000", 85000, "annual", "income", "me")])]
    fake.script[:] = [lambda b: final("answered", "Income tax on $85,000 is $17,927.50 for the year.")]
    result = with_faq.answer(question)
    assert result.source == "engine" and result.mode == "llm" and len(fake.requests) == 2
    fake.requests.clear()
    fake.frames[:] = [{"content": "not a frame"}, {"content": "still not a frame"}]
    failed = with_faq.answer(question)
    assert failed.source == "faq" and failed.fallback_reason == "invalid_frame"


def _clear_unit_question(engine, least: float):
    """A unit's own question that the matcher puts at least `least` ahead of every other unit."""
    from nztax.slots import reading as slot_reading, without_denied

    for unit in engine.unit_matcher.units:
        decision, vector = engine.understand(unit.question, [], None)
        if decision.action not in ("fact", "topic"):
            continue
        found = engine.unit_matcher.match(without_denied(decision.question), vector, slot_reading(decision.slots))
        if found is not None and found.unit.id == unit.id and found.score - found.runner_up_score >= least:
            return unit.question
    raise AssertionError("no unit is matched that far ahead")


def test_only_a_unit_matched_far_ahead_answers_before_the_model(engine, llm_engine, fake):
    question = _clear_unit_question(engine, llm_engine.settings.llm_unit_margin)
    offline = engine.answer(question, use_faq=False, mode="offline")
    result = llm_engine.answer(question, use_faq=False)
    assert fake.requests == [] and result.answer == offline.answer and result.fallback_reason is None
    # The same question, when the margin asked for is more than any unit leads by, is the model's.
    stricter = Engine(llm_engine.rules, llm_engine.retriever,
                      settings=dataclasses.replace(llm_engine.settings, llm_unit_margin=10.0))
    fake.frames[:] = [frame("how")]
    fake.script[:] = [lambda b: final("answered", "Here is how it works, from the passages.")]
    written = stricter.answer(question, use_faq=False)
    assert written.mode == "llm" and "from the passages" in written.answer and len(fake.requests) == 2


def test_a_reply_that_does_not_fit_is_asked_for_once_more(llm_engine, fake):
    fake.frames[:] = [{"content": json.dumps({"asks": "figure"})}, frame("figure", [("$85,000", 85000, "annual", "income", "me")])]
    fake.script[:] = [lambda b: final("answered", "Income tax on $85,000 is $17,927.50.")]
    result = llm_engine.answer("How much tax do I pay on $85,000?", use_faq=False)
    assert result.mode == "llm" and result.usage["calls"] == 3
    retry = fake.requests[1]
    assert "response_format" in retry and "does not fit" in retry["messages"][-1]["content"]


def test_two_replies_that_do_not_fit_fall_back_to_the_offline_answer(llm_engine, fake):
    fake.frames[:] = [{"content": "not json"}, {"content": json.dumps({"asks": "figure"})}]
    result = llm_engine.answer("How much tax do I pay on $85,000?", use_faq=False)
    assert result.mode == "offline" and result.fallback_reason == "invalid_frame" and "$17,927.50" in result.answer
    assert len(fake.requests) == 2 and result.usage["calls"] == 2


# -- a scripted model ------------------------------------------------------------------------------

def test_a_scripted_model_reads_from_a_file_and_the_engine_writes(engine, engine_settings, tmp_path):
    frames = tmp_path / "frames.yaml"
    frames.write_text(json.dumps({"version": 1, "frames": {"post-1": json.loads(frame(
        "figure", [("$85,000", 85000, "annual", "income", "me"), ("$9,200", 9200, None, "tax_withheld", "me")])["content"])}}))
    e = Engine(engine.rules, engine.retriever, settings=dataclasses.replace(engine_settings, llm_model=f"scripted:{frames}"))
    question = "I earn $85,000 and my payslip shows $9,200 of PAYE so far. How much tax will I pay?"
    with scripted_question("post-1"):
        result = e.answer(question, use_faq=False)
    assert result.mode == "llm" and result.trace["frame"]["read_by"] == "model" and "$17,927.50" in result.answer
    assert [t.arguments.get("taxable_income") for t in result.tools] == [85000]
    with scripted_question("post-2"):  # no frame filed: the offline reading answers
        missing = e.answer(question, use_faq=False)
    assert missing.mode == "offline" and missing.fallback_reason == "scripted_missing"


def test_a_follow_up_is_read_on_its_own_turn(llm_engine, fake):
    history = [{"question": "How much tax do I pay on $85,000?", "answer": "Income tax on $85,000 is $17,927.50."}]
    fake.frames[:] = [frame("figure", [("$90,000", 90000, "annual", "income", "me")])]
    fake.script[:] = [lambda b: final("answered", "On $90,000 it is $19,577.50.")]
    result = llm_engine.answer("And on $90,000?", history=history, use_faq=False)
    assert fake.requests[0]["messages"][-1]["content"] == "And on $90,000?"
    assert result.mode == "llm" and not any("dropped" in n for n in result.trace["notes"]) and not result.guard_removed
    assert [t.arguments.get("taxable_income") for t in result.tools if t.name == "calculate_income_tax"] == [90000]


def test_the_year_the_model_reads_is_the_calculations_year(llm_engine, fake):
    question = "How much tax did I pay on $60,000 in the tax year before last?"
    fake.frames[:] = [frame("figure", [("$60,000", 60000, "annual", "income", "me")], tax_year="2024-25",
                            year_text="the tax year before last")]
    fake.script[:] = [lambda b: final("answered", "Here is the tax on $60,000 for 2024-25.")]
    result = llm_engine.answer(question, use_faq=False)
    assert result.mode == "llm" and result.tax_year == "2024-25"
    assert [t.arguments.get("tax_year") for t in result.tools if t.name == "calculate_income_tax"] == ["2024-25"]
    assert result.trace["frame"]["tax_year"] == "2024-25"
