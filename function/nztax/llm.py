"""The LLM tool loop (litellm, imported only when a model is configured).

In: settings (model, api_base, timeout, retries, hop cap, output cap), the opening messages and a
tool executor `execute(name, arguments) -> dict` that never raises. Out: `LlmReply` — the model's
final JSON reply validated against `FinalReply`, the tool calls made and the token usage — or
`LlmError` for provider errors, timeouts and replies that do not fit the schema.

Each hop sends the tools (OpenAI format, parallel calls allowed); every call in a hop is executed
and its JSON result (an error object for a bad argument) goes back as the tool message. After
`llm_max_hops` hops with tool calls, one last call is made without tools to force an answer.
"""

from __future__ import annotations

import json
import os
import re
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Literal

from pydantic import BaseModel, Field, ValidationError, field_validator

from nztax.prompts import FINAL_ANSWER_NUDGE, tool_result_content
from nztax.settings import Settings

MAX_NEXT_ACTIONS = 3


class LlmError(RuntimeError):
    """The model could not give a usable answer (provider error, timeout, bad output)."""

    def __init__(self, kind: str, message: str, usage: dict | None = None):
        super().__init__(f"{kind}: {message}")
        self.kind = kind
        self.usage = usage or {}


class FinalReply(BaseModel):
    """The schema the model's final message must fit."""

    status: Literal["answered", "needs_clarification", "out_of_scope", "refused"]
    answer: str = Field(default="")
    next_actions: list[str] = Field(default_factory=list)
    sources: list[int] = Field(default_factory=list)

    @field_validator("next_actions", mode="before")
    @classmethod
    def _at_most_three(cls, value):
        # More suggestions than the contract allows are trimmed rather than failing the answer.
        if isinstance(value, list):
            return [str(v) for v in value if isinstance(v, (str, int, float))][:MAX_NEXT_ACTIONS]
        return value

    @field_validator("sources", mode="before")
    @classmethod
    def _ids(cls, value):
        if isinstance(value, list):
            out = []
            for v in value:
                try:
                    out.append(int(v))
                except (TypeError, ValueError):
                    continue
            return out
        return []


@dataclass
class ExecutedCall:
    name: str
    arguments: dict
    result: dict


@dataclass
class LlmReply:
    final: FinalReply
    calls: list[ExecutedCall] = field(default_factory=list)
    usage: dict = field(default_factory=dict)
    hops: int = 0


def _litellm():
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    import litellm  # heavy (2-3 s): only imported when an LLM answer is wanted

    litellm.suppress_debug_info = True
    return litellm


def parse_final(content: str | None) -> FinalReply:
    """The JSON object in the model's last message (code fences tolerated)."""
    if not content or not content.strip():
        raise LlmError("invalid_output", "the model returned no content")
    text = content.strip()
    fenced = re.search(r"```(?:json)?\s*(\{.*\})\s*```", text, re.S)
    if fenced:
        text = fenced.group(1)
    elif not text.startswith("{"):
        start, end = text.find("{"), text.rfind("}")
        if start == -1 or end <= start:
            raise LlmError("invalid_output", "the reply is not a JSON object")
        text = text[start:end + 1]
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise LlmError("invalid_output", f"the reply is not valid JSON ({exc.msg})") from None
    try:
        reply = FinalReply.model_validate(data)
    except ValidationError as exc:
        raise LlmError("invalid_output", f"the reply does not fit the schema: {exc.errors()[0]['msg']}") from None
    if reply.status in ("answered", "needs_clarification") and not reply.answer.strip():
        raise LlmError("invalid_output", "the reply has an empty answer")
    return reply


def _message_dict(message: Any) -> dict:
    calls = []
    for tc in message.tool_calls or []:
        calls.append({"id": tc.id, "type": "function",
                      "function": {"name": tc.function.name, "arguments": tc.function.arguments or "{}"}})
    return {"role": "assistant", "content": message.content, "tool_calls": calls}


def _add_usage(usage: dict, response: Any, litellm: Any) -> None:
    u = getattr(response, "usage", None)
    if u is not None:
        usage["prompt_tokens"] = usage.get("prompt_tokens", 0) + int(getattr(u, "prompt_tokens", 0) or 0)
        usage["completion_tokens"] = usage.get("completion_tokens", 0) + int(getattr(u, "completion_tokens", 0) or 0)
    try:
        cost = float(litellm.completion_cost(completion_response=response) or 0.0)
    except Exception:  # unknown model in the local cost map: tokens are still logged
        cost = 0.0
    usage["cost_usd"] = round(usage.get("cost_usd", 0.0) + cost, 6)
    usage["calls"] = usage.get("calls", 0) + 1


def run_tool_loop(settings: Settings, messages: list[dict], tools: list[dict],
                  execute: Callable[[str, dict], dict]) -> LlmReply:
    """Run the hops; raise `LlmError` on any provider problem or an unusable final reply."""
    litellm = _litellm()
    messages = list(messages)
    usage: dict = {}
    calls: list[ExecutedCall] = []
    common: dict[str, Any] = {
        "model": settings.llm_model,
        "timeout": settings.llm_timeout,
        "max_retries": settings.llm_max_retries,
        "max_tokens": settings.llm_max_tokens,
        "drop_params": True,
    }
    if settings.llm_api_base:
        common["api_base"] = settings.llm_api_base
    started = time.perf_counter()

    def complete(**extra):
        try:
            response = litellm.completion(messages=messages, **common, **extra)
        except Exception as exc:  # provider error, timeout, auth: the engine falls back to offline
            kind = "timeout" if "timeout" in type(exc).__name__.lower() else "provider_error"
            raise LlmError(kind, f"{type(exc).__name__}: {str(exc)[:300]}", usage) from None
        _add_usage(usage, response, litellm)
        return response

    hops = 0
    message = None
    while hops < settings.llm_max_hops:
        response = complete(tools=tools, tool_choice="auto", parallel_tool_calls=True)
        message = response.choices[0].message
        if not message.tool_calls:
            break
        hops += 1
        messages.append(_message_dict(message))
        for tc in message.tool_calls:
            name = tc.function.name
            try:
                arguments = json.loads(tc.function.arguments or "{}")
            except json.JSONDecodeError as exc:
                arguments = {}
                result = {"error": {"code": "invalid_json", "message": f"arguments are not valid JSON: {exc.msg}"}}
            else:
                result = execute(name, arguments) if isinstance(arguments, dict) else {
                    "error": {"code": "invalid_argument", "message": "arguments must be a JSON object"}}
            calls.append(ExecutedCall(name, arguments if isinstance(arguments, dict) else {}, result))
            messages.append({"role": "tool", "tool_call_id": tc.id, "name": name, "content": tool_result_content(result)})
        message = None
    if message is None:
        # Hop cap reached (the last reply still wanted tools): one final call without tools.
        messages.append({"role": "user", "content": FINAL_ANSWER_NUDGE})
        message = complete().choices[0].message
    usage["llm_seconds"] = round(time.perf_counter() - started, 3)
    try:
        final = parse_final(message.content)
    except LlmError as exc:
        exc.usage = usage
        raise
    return LlmReply(final=final, calls=calls, usage=usage, hops=hops)
