"""The model's reading of a question into the question frame (LLM mode).

In: settings (the model), the question text the offline slots were read from, those `Slots` and the
rules' years. Out: `ModelReading` — a `QuestionFrame` (frame.py, `read_by="model"`) holding only what
checks out against the question: an amount is kept only when its text is in the question and parses,
with the number grammar of slots.py, to the value the model gave; a year only when its words are in the
question and the rules have it. What is dropped is listed (and logged by the caller). `LlmError` when
the model fails, times out or twice gives a reply that does not fit `FrameReading`.

    reading = read(settings, "My payslip shows $9k of PAYE on $85k. Why so much?", slots, rules.years)
    reading.frame.amounts[0].kind       # 'tax_withheld'

A model named `scripted:<file>` reads nothing: its frames come from a YAML file keyed by question id
(`docs/llm.md`), the id set by the caller with `scripted_question(id)`; it measures everything after the
reading.
"""

from __future__ import annotations

import contextlib
import contextvars
import json
import logging
import time
from dataclasses import dataclass, field
from decimal import Decimal
from functools import lru_cache
from pathlib import Path
from typing import Literal, Optional

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from nztax.frame import (AMOUNT_KINDS, ASK_KINDS, OWNERS, FrameAmount, QuestionFrame, asking_sentences, percent_value,
                         percentages)
from nztax.llm import LlmError, _add_usage, _litellm
from nztax.slots import AMOUNT, PERIODS_PER_YEAR, Slots, money_value, words_to_number
from nztax.decision_rows import table
from nztax.prompts import FRAME_PROMPT

log = logging.getLogger("nztax.llm_reader")

SCRIPTED = "scripted:"
# The conditions a model may name (frame.conditions's names; a tax code stays the grammar's).
CONDITIONS = ("kiwisaver", "student_loan", "wff", "benefit_or_super", "nz_super", "no_ird_number", "second_job", "nd")
PERIODS = tuple(dict.fromkeys(("hourly", *PERIODS_PER_YEAR)))
# How far a model's value may be from the text's own parse (rounding of cents).
VALUE_TOLERANCE = Decimal("0.005")
_question_id: contextvars.ContextVar[str | None] = contextvars.ContextVar("nztax_scripted_question", default=None)


def _scopes() -> tuple[str, ...]:
    return ("nz_tax", *table().model_scopes)


class AmountReading(BaseModel):
    model_config = ConfigDict(extra="forbid")
    text: str = Field(description="the amount exactly as written in the question")
    value: float = Field(description="its number: dollars, or percent for a percentage")
    period: Optional[Literal[PERIODS]]  # type: ignore[valid-type]
    kind: Literal[AMOUNT_KINDS]  # type: ignore[valid-type]
    owner: Literal[OWNERS]  # type: ignore[valid-type]


class FrameReading(BaseModel):
    """What the model must reply with (the response format)."""

    model_config = ConfigDict(extra="forbid")
    asks: Literal[ASK_KINDS]  # type: ignore[valid-type]
    asking: list[str]
    amounts: list[AmountReading]
    tax_year: Optional[str]
    year_text: Optional[str]
    conditions: list[Literal[CONDITIONS]]  # type: ignore[valid-type]
    scope: str


def response_format() -> dict:
    """The OpenAI json_schema response format litellm passes on (or translates for other providers)."""
    schema = FrameReading.model_json_schema()
    schema["properties"]["scope"] = {"type": "string", "enum": list(_scopes())}
    return {"type": "json_schema", "json_schema": {"name": "question_frame", "schema": schema, "strict": True}}


@dataclass
class ModelReading:
    frame: QuestionFrame
    dropped: list[dict] = field(default_factory=list)
    usage: dict = field(default_factory=dict)


# -- validation ----------------------------------------------------------------------------------

def _without_rates(span: str, rates: list) -> str:
    for rate in reversed(rates):
        span = span[:rate.start()] + " " * (rate.end() - rate.start()) + span[rate.end():]
    return span


def _rate_of(span: str, rates: list | None = None):
    """The (first) rate an amount's text names, when no money or other number is said beside it
    ("33% tax", "17.5% PIR" are rates; "$2,000 at thirty-three per cent" is money that mentions one).
    `rates`: the span's `percentages`, when the caller has them."""
    rates = percentages(span) if rates is None else rates
    if not rates:
        return None
    rest = _without_rates(span, rates)
    amount = AMOUNT.search(rest)
    return None if (amount and amount.group("num")) or words_to_number(rest) is not None else rates[0]


def parse_span(span: str) -> Decimal | None:
    """The value the number grammar reads in an amount's text: a percentage (by the frame's own rate
    grammar: "40%", "40 per cent", "forty percent"), money or number words."""
    rates = percentages(span)
    rate = _rate_of(span, rates)
    if rate is not None:
        return percent_value(rate)
    if "%" in span and not rates:
        return None  # a sign the rate grammar does not read ("100%"): no value to check the model's against
    span = _without_rates(span, rates)  # money said beside a rate: the money, not the rate's figure
    m = AMOUNT.search(span)
    if m and m.group("num"):
        try:
            return money_value(m.group("num"), m.group("suf"))
        except ArithmeticError:
            return None
    return words_to_number(span)


def _locate(text: str, span: str, taken: set[int]) -> int | None:
    """Where the span first occurs in the text at a place no earlier amount took."""
    at = text.find(span)
    while at != -1 and at in taken:
        at = text.find(span, at + 1)
    return None if at == -1 else at


def validate(reading: FrameReading, text: str, slots: Slots, years) -> tuple[QuestionFrame, list[dict]]:
    """The frame of a reading, keeping only what the question bears out; and what was dropped, why."""
    dropped: list[dict] = []
    amounts: list[FrameAmount] = []
    taken: set[int] = set()
    spans = [(s, s.start, s.end or s.start + len(s.text)) for s in slots.amounts]
    for a in reading.amounts:
        span = a.text.strip()
        at = _locate(text, span, taken) if span else None
        if at is None:
            dropped.append({"text": a.text, "why": "not in the question"})
            continue
        parsed = parse_span(span)
        value = Decimal(str(a.value))
        if parsed is None or abs(parsed - value) > VALUE_TOLERANCE:
            dropped.append({"text": a.text, "why": f"parses to {parsed}, not {value}"})
            continue
        taken.add(at)
        end = at + len(span)
        # The slot amount at the same place: the decision table matches inputs by where they start.
        slot = next((s for s, s0, s1 in spans if s0 < end and at < s1), None)
        # A rate has no period, in figures or in words; money that mentions a rate keeps the model's period.
        percent = _rate_of(span) is not None or ("%" in span and not percentages(span))
        period = None if percent else (a.period or (slot.period if slot else "annual"))
        amounts.append(FrameAmount(span, slot.start if slot else at, slot_end(slot) if slot else end, parsed, period,
                                   a.kind, 1.0, a.owner, 1.0, slot.role if slot else None))
    asking = tuple(s for s in reading.asking if s.strip() and s.strip() in text) or tuple(asking_sentences(text))
    tax_year, year_text = reading.tax_year, reading.year_text
    if tax_year is not None and (tax_year not in years or not year_text or year_text not in text):
        dropped.append({"text": year_text or tax_year, "why": f"year {tax_year} not in the question or the rules"})
        tax_year, year_text = None, None
    grammar = _grammar_conditions(slots)
    scope = reading.scope if reading.scope in _scopes() else "not_money"
    frame = QuestionFrame(asks=reading.asks, asks_sure=1.0, asking=asking, asks_each=(reading.asks,),
                          amounts=tuple(sorted(amounts, key=lambda x: x.start)), tax_year=tax_year, year_text=year_text,
                          conditions=tuple(dict.fromkeys([*reading.conditions, *grammar])), scope=scope, scope_sure=1.0,
                          read_by="model")
    return frame, dropped


def slot_end(slot) -> int:
    return slot.end or slot.start + len(slot.text)


def _grammar_conditions(slots: Slots) -> list[str]:
    out = []
    if slots.tax_code:
        out.append(f"tax_code:{slots.tax_code}")
    if slots.flat_code:
        out.append(f"flat_code:{slots.flat_code}")
    return out


# -- the model -------------------------------------------------------------------------------------

def _messages(text: str) -> list[dict]:
    system = FRAME_PROMPT.format(conditions=", ".join(CONDITIONS), scopes=", ".join(s for s in _scopes() if s != "nz_tax"))
    return [{"role": "system", "content": system}, {"role": "user", "content": text}]


def _parse(content: str | None) -> FrameReading:
    try:
        return FrameReading.model_validate(json.loads(content or ""))
    except json.JSONDecodeError as exc:
        raise ValueError(f"not JSON ({exc.msg})") from None
    except ValidationError as exc:
        first = exc.errors()[0]
        raise ValueError(f"{'.'.join(str(p) for p in first['loc'])}: {first['msg']}") from None


def ask_model(settings, text: str) -> tuple[FrameReading, dict]:
    """The model's reply as a `FrameReading`: one retry, told what did not fit, when the first does not."""
    litellm = _litellm()
    messages = _messages(text)
    usage: dict = {}
    common = {"model": settings.llm_model, "timeout": settings.llm_timeout, "max_retries": settings.llm_max_retries,
              "max_tokens": settings.llm_max_tokens, "drop_params": True, "response_format": response_format()}
    if settings.llm_api_base:
        common["api_base"] = settings.llm_api_base
    problem = ""
    for attempt in range(1 + settings.llm_frame_retries):
        try:
            response = litellm.completion(messages=messages, **common)
        except Exception as exc:  # provider error, timeout, auth: the offline reading answers
            kind = "timeout" if "timeout" in type(exc).__name__.lower() else "provider_error"
            raise LlmError(kind, f"{type(exc).__name__}: {str(exc)[:300]}", usage) from None
        _add_usage(usage, response, litellm)
        content = response.choices[0].message.content
        try:
            return _parse(content), usage
        except ValueError as exc:
            problem = str(exc)
            log.warning(json.dumps({"event": "frame_reply_invalid", "attempt": attempt + 1, "detail": problem[:200]}))
            messages = [*messages, {"role": "assistant", "content": content or ""},
                        {"role": "user", "content": f"That reply does not fit the format ({problem}). "
                                                    "Reply again with only the JSON object."}]
    raise LlmError("invalid_frame", problem, usage)


@lru_cache(maxsize=4)
def _scripted_frames(path: str) -> dict:
    data = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or {}
    return dict(data.get("frames") or {})


def check_frames(path: str | Path) -> list[str]:
    """What is wrong with a scripted frames file: one line per frame that does not fit `FrameReading`."""
    try:
        frames = _scripted_frames(str(path))
    except (OSError, yaml.YAMLError) as exc:
        return [f"{path}: {exc}"]
    problems = []
    for qid, raw in frames.items():
        try:
            _parse(json.dumps(raw))
        except (ValueError, TypeError) as exc:
            problems.append(f"{qid}: {exc}")
    return problems


@contextlib.contextmanager
def scripted_question(question_id: str):
    """Within this block a `scripted:` model replies with the frame filed under `question_id`."""
    token = _question_id.set(question_id)
    try:
        yield
    finally:
        _question_id.reset(token)


def scripted_reply(model: str) -> FrameReading:
    qid = _question_id.get()
    frames = _scripted_frames(model[len(SCRIPTED):])
    if qid is None or qid not in frames:
        raise LlmError("scripted_missing", f"no scripted frame for question {qid!r}")
    try:
        return _parse(json.dumps(frames[qid]))
    except ValueError as exc:
        raise LlmError("invalid_frame", f"scripted frame {qid}: {exc}") from None


def read(settings, text: str, slots: Slots, years) -> ModelReading:
    """The validated frame the model reads from `text`; LlmError when there is none."""
    started = time.perf_counter()
    if settings.llm_model.startswith(SCRIPTED):
        reply, usage = scripted_reply(settings.llm_model), {}
    else:
        reply, usage = ask_model(settings, text)
    frame, dropped = validate(reply, text, slots, years)
    if dropped:
        log.warning(json.dumps({"event": "frame_reading_dropped", "dropped": dropped}))
    usage["read_seconds"] = round(time.perf_counter() - started, 3)
    return ModelReading(frame, dropped, usage)
