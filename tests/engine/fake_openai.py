"""A stdlib fake of the OpenAI chat-completions API on 127.0.0.1: scripted, or replaying a cassette.

Scripted: each item of `script` is a function `(request_body) -> reply`, where reply is a message dict
({"content": ...} or {"tool_calls": [...]}) or the string "hang" (sleep past the client's timeout).
Requests for the question frame (they carry a `response_format`) take their replies from `frames`
instead (the same kind of function, or a dict: the frame itself); with none scripted, a frame with
no amounts that reads the question as New Zealand tax.

Cassette: `FakeOpenAI(cassette=path)` answers each request with the next recorded response, after
checking that the request, normalised (`normalise`), is the one recorded; a request that differs is
kept in `mismatches` and answered with a 400 (the engine then falls back, and the test fails on
`mismatches`). With `record_model` set (the environment's NZTAX_RECORD_MODEL in
tests/engine/test_llm_cassettes.py), each request is passed to that litellm model instead and the
exchange is written to the cassette on `close()`.
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

HANG_SECONDS = 5.0
USAGE = {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120}


def tool_call(call_id: str, name: str, arguments: dict | str) -> dict:
    args = arguments if isinstance(arguments, str) else json.dumps(arguments)
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": args}}


def final(status: str, answer: str, next_actions=(), sources=()) -> dict:
    return {"content": json.dumps({"status": status, "answer": answer, "next_actions": list(next_actions),
                                   "sources": list(sources)})}


def frame(asks: str = "figure", amounts=(), scope: str = "nz_tax", asking=(), tax_year=None, year_text=None,
          conditions=()) -> dict:
    """A frame reply; each amount is (text, value, period, kind, owner)."""
    return {"content": json.dumps({
        "asks": asks, "asking": list(asking), "tax_year": tax_year, "year_text": year_text,
        "conditions": list(conditions), "scope": scope,
        "amounts": [dict(zip(("text", "value", "period", "kind", "owner"), a)) for a in amounts]})}


def _arguments(text):
    try:
        return json.loads(text or "{}")
    except (TypeError, json.JSONDecodeError):
        return text


def normalise(body: dict) -> dict:
    """What a recording must match: the messages, the tools offered by name, the response format.
    Transport details (model name, timeouts, token caps, ids the provider made up) are left out."""
    messages = []
    for m in body.get("messages", []):
        out = {"role": m.get("role"), "content": m.get("content")}
        if m.get("tool_calls"):
            out["tool_calls"] = [{"id": c.get("id"), "name": c["function"]["name"], "arguments": _arguments(c["function"].get("arguments"))}
                                 for c in m["tool_calls"]]
        if m.get("tool_call_id"):
            out["tool_call_id"] = m["tool_call_id"]
        if m.get("role") == "tool":
            out["content"] = _arguments(m.get("content"))
        messages.append(out)
    return {"messages": messages, "tools": sorted(t["function"]["name"] for t in body.get("tools") or []),
            "response_format": body.get("response_format")}


class FakeOpenAI:
    def __init__(self, cassette: str | Path | None = None, record_model: str | None = None):
        self.script: list = []
        self.frames: list = []
        self.requests: list[dict] = []
        self.mismatches: list[dict] = []
        self.cassette = Path(cassette) if cassette else None
        self.record_model = record_model
        self.recorded: list[dict] = []
        self.replies: list[dict] = []          # what a scripted fake answered, for writing a cassette
        if self.cassette is not None and not record_model:
            self.recorded = json.loads(self.cassette.read_text(encoding="utf-8"))["exchanges"]
        self.replayed = 0
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                outer.requests.append(body)
                status, data = outer._respond(body)
                if data is None:
                    time.sleep(HANG_SECONDS)
                    return
                payload = json.dumps(data).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):
                    pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def _completion(self, body: dict, message: dict, usage: dict) -> dict:
        finish = "tool_calls" if message.get("tool_calls") else "stop"
        return {"id": f"chatcmpl-{len(self.requests)}", "object": "chat.completion", "created": int(time.time()),
                "model": body["model"], "choices": [{"index": 0, "message": message, "finish_reason": finish}],
                "usage": usage}

    def _respond(self, body: dict) -> tuple[int, dict | None]:
        if self.record_model:
            message, usage = self._forward(body)
            self.recorded.append({"request": normalise(body), "response": {"message": message, "usage": usage}})
            return 200, self._completion(body, message, usage)
        if self.cassette is not None:
            expected = self.recorded[self.replayed] if self.replayed < len(self.recorded) else None
            if expected is None or expected["request"] != normalise(body):
                self.mismatches.append({"at": self.replayed, "got": normalise(body),
                                        "expected": expected["request"] if expected else None})
                return 400, {"error": {"message": "request differs from the recording", "type": "invalid_request_error"}}
            self.replayed += 1
            return 200, self._completion(body, expected["response"]["message"], expected["response"]["usage"])
        queue = self.frames if body.get("response_format") else self.script
        step = queue.pop(0) if queue else (frame() if body.get("response_format") else (lambda b: {"content": "{}"}))
        reply = step if isinstance(step, dict) else step(body)
        if reply == "hang":
            return 200, None
        message = {"role": "assistant", "content": reply.get("content")}
        if reply.get("tool_calls"):
            message["tool_calls"] = reply["tool_calls"]
        self.replies.append({"message": message, "usage": dict(USAGE)})
        return 200, self._completion(body, message, dict(USAGE))

    def _forward(self, body: dict) -> tuple[dict, dict]:
        """The recording model's reply to this request (litellm, the model's key from the environment)."""
        import litellm

        extra = {k: body[k] for k in ("tools", "tool_choice", "parallel_tool_calls", "response_format", "max_tokens") if k in body}
        response = litellm.completion(model=self.record_model, messages=body["messages"], drop_params=True, **extra)
        m = response.choices[0].message
        message = {"role": "assistant", "content": m.content}
        if m.tool_calls:
            message["tool_calls"] = [{"id": c.id, "type": "function", "function": {"name": c.function.name, "arguments": c.function.arguments}}
                                     for c in m.tool_calls]
        u = response.usage
        return message, {"prompt_tokens": u.prompt_tokens, "completion_tokens": u.completion_tokens, "total_tokens": u.total_tokens}

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def close(self):
        self.server.shutdown()
        self.server.server_close()
        if self.record_model and self.cassette is not None:
            self.cassette.parent.mkdir(parents=True, exist_ok=True)
            self.cassette.write_text(json.dumps({"model": self.record_model, "exchanges": self.recorded}, indent=1,
                                                ensure_ascii=False) + "\n", encoding="utf-8")


def llm_engine_on(engine, engine_settings, fake, monkeypatch, timeout: float):
    """The shared engine in LLM mode against the fake server, its scripts and records emptied."""
    import dataclasses

    from nztax.engine import Engine

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-real-key")
    fake.script.clear()
    fake.frames.clear()
    fake.requests.clear()
    settings = dataclasses.replace(engine_settings, llm_model="openai/fake", llm_api_base=fake.base_url,
                                   llm_timeout=timeout, llm_max_retries=0, llm_max_hops=3)
    return Engine(engine.rules, engine.retriever, settings=settings)
