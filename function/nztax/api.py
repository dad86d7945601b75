"""POST /ask as plain Python: validation, CORS, rate limit, errors and the log line.

In: the HTTP method, path, headers, raw body (at most MAX_BODY_BYTES + 1 bytes read) and the
client address. Out: `HttpResponse(status, body, headers)`; `function/main.py` turns it into a
Flask response. Nothing here depends on Flask, so every rule is testable without a server.

Errors are `{"error": {"code", "message"}}`: 400 bad JSON / content type / question / tax year /
history, 404 unknown path, 405 method, 413 body too large, 429 rate limited (Retry-After),
503 index or rules unavailable. A stack trace never reaches the client.
"""

from __future__ import annotations

import gc
import json
import logging
import re
import sys
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Mapping

from nztax import budget
from nztax.answer_html import render_answer_html
from nztax.ratelimit import RateLimiter
from nztax.settings import Settings, get_settings

# The request contract (DESIGN.md): these are limits of the API, not tuning knobs.
MAX_BODY_BYTES = 16 * 1024
MAX_QUESTION_CHARS = 1000
MAX_HISTORY_TURNS = 5
MAX_HISTORY_ANSWER_CHARS = 4000
# Answered once by each worker after its first question (or by `warm_up`): one question that
# calculates and one that reads as a fact, so the modules and tables only an answer reaches are
# ready before later questions (the engine's parts are built before the first: `Engine.build_parts`).
WARM_UP_QUESTIONS = ("How much tax is paid on a salary of $50,000 a year, and what is PAYE?",
                     "What is the ACC earners' levy?")
# A figure as the question reader sees one: a run of digits with its separators ("85,000.50", "2024").
FIGURE = re.compile(r"\d+(?:[.,]\d+)*")
ASK_PATHS = ("/", "/ask", "/ask/")
PREFLIGHT_MAX_AGE = "3600"

log = logging.getLogger("nztax.api")


@dataclass
class HttpResponse:
    status: int
    body: dict | None
    headers: dict[str, str] = field(default_factory=dict)


class RequestError(Exception):
    def __init__(self, status: int, code: str, message: str, headers: dict[str, str] | None = None):
        super().__init__(message)
        self.status, self.code, self.message, self.headers = status, code, message, headers or {}


def error_body(code: str, message: str) -> dict:
    return {"error": {"code": code, "message": message}}


@dataclass
class AskRequest:
    question: str
    tax_year: str | None
    history: list[dict]


def parse_request(body: bytes, content_type: str | None, known_years: Callable[[], set[str]],
                  max_figures: int | None = None) -> AskRequest:
    """Validate the body of POST /ask; raise `RequestError` (400) naming what is wrong.

    `max_figures` bounds the figures in the question and in each earlier question of the history:
    the reader weighs every amount against the others, so its work grows with their count.
    """
    mime = (content_type or "").split(";")[0].strip().lower()
    if mime != "application/json" and not mime.endswith("+json"):
        raise RequestError(400, "unsupported_content_type", "send the question as JSON with Content-Type: application/json")
    try:
        data = json.loads(body.decode("utf-8"))
        # A lone surrogate ("\\ud800") is valid JSON but no text: refuse it before it reaches anything.
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except (UnicodeDecodeError, UnicodeEncodeError, json.JSONDecodeError):
        raise RequestError(400, "invalid_json", "the request body is not valid JSON text") from None
    except (RecursionError, ValueError):  # nesting too deep; an integer too long to convert
        raise RequestError(400, "invalid_json", "the request body is nested too deeply or holds a number too long") from None
    if not isinstance(data, dict):
        raise RequestError(400, "invalid_json", 'the request body must be a JSON object like {"question": "..."}')
    question = data.get("question")
    if not isinstance(question, str) or not question.strip():
        raise RequestError(400, "missing_question", '"question" is required and must be a non-empty string')
    if len(question) > MAX_QUESTION_CHARS:
        raise RequestError(400, "question_too_long", f"the question is longer than {MAX_QUESTION_CHARS} characters")
    _check_figures(question, max_figures, "the question")
    tax_year = data.get("tax_year")
    if tax_year is not None:
        # The contract's pydantic models are the engine's to import: the server starts without them.
        from nztax.contract import TAX_YEAR_PATTERN, tax_year_starting

        if not isinstance(tax_year, str) or not re.match(TAX_YEAR_PATTERN, tax_year):
            raise RequestError(400, "bad_tax_year", '"tax_year" must look like "2026-27"')
        first, second = int(tax_year[:4]), int(tax_year[5:])
        if second != (first + 1) % 100:
            raise RequestError(400, "bad_tax_year", f'"{tax_year}" is not a tax year (it should be {tax_year_starting(first)})')
        years = known_years()
        if tax_year not in years:
            raise RequestError(400, "bad_tax_year", f'no rules for the {tax_year} tax year (known: {", ".join(sorted(years))})')
    history = data.get("history")
    if history is None:
        history = []
    if not isinstance(history, list):
        raise RequestError(400, "bad_history", '"history" must be a list of {"question", "answer"} turns')
    if len(history) > MAX_HISTORY_TURNS:
        raise RequestError(400, "bad_history", f'"history" may hold at most {MAX_HISTORY_TURNS} turns')
    turns = []
    for i, turn in enumerate(history):
        if not isinstance(turn, dict) or not isinstance(turn.get("question"), str) or not isinstance(turn.get("answer", ""), str):
            raise RequestError(400, "bad_history", f'history[{i}] must be an object with string "question" and "answer"')
        if len(turn["question"]) > MAX_QUESTION_CHARS or len(turn.get("answer", "")) > MAX_HISTORY_ANSWER_CHARS:
            raise RequestError(400, "bad_history", f"history[{i}] is too long (question ≤ {MAX_QUESTION_CHARS}, "
                                                   f"answer ≤ {MAX_HISTORY_ANSWER_CHARS} characters)")
        _check_figures(turn["question"], max_figures, f"history[{i}]")
        turns.append({"question": turn["question"], "answer": turn.get("answer", "")})
    return AskRequest(question=question.strip(), tax_year=tax_year, history=turns)


def _check_figures(text: str, max_figures: int | None, what: str) -> None:
    if max_figures and sum(1 for _ in FIGURE.finditer(text)) > max_figures:
        raise RequestError(400, "too_many_figures", f"{what} holds more than {max_figures} figures; "
                                                    "ask about fewer amounts at a time")


def client_key(headers: Mapping[str, str], remote_addr: str | None, trusted_proxy_depth: int = 0) -> str:
    """The client's address for rate limiting.

    X-Forwarded-For is only as trustworthy as the proxies that append to it: a client can send any
    entries it likes, and each proxy in front of the function appends the address it saw. With
    `trusted_proxy_depth` proxies (NZTAX_TRUSTED_PROXY_DEPTH; 1 behind Google's front end, which the
    deploy sets) the client is that many entries from the end; with 0 the header is ignored and
    the socket peer is the client.
    """
    if trusted_proxy_depth > 0:
        forwarded = headers.get("X-Forwarded-For") or ""
        parts = [p.strip() for p in forwarded.split(",") if p.strip()]
        if len(parts) >= trusted_proxy_depth:
            return parts[-trusted_proxy_depth]
    return remote_addr or "unknown"


@contextmanager
def _collection_paused(pause: bool) -> Iterator[None]:
    """No cyclic garbage collection inside the block; afterwards, everything it loaded is frozen
    (`gc.freeze`: never scanned again) and collection resumes as it was.

    Why: loading the engine makes about 140,000 long-lived objects (modules, classes, the stored
    parts), and the collector's passes over them while they are made, each rescanning those made
    before, took about 55 ms of a worker's start, all of it holding the GIL. Once loaded they live
    as long as the process, so scanning them later (a full pass took about 50 ms) finds nothing
    either. The garbage left uncollected by the pause is about a thousand objects, once.
    """
    if not pause or not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        gc.enable()


def _write_log_line(record: dict) -> None:
    sys.stdout.write(json.dumps(record, ensure_ascii=False, default=str) + "\n")
    sys.stdout.flush()


class AskService:
    """Everything POST /ask does, given an engine loader (lazy: the first request loads it)."""

    def __init__(self, settings: Settings | None = None, engine_loader: Callable[[], Any] | None = None,
                 limiter: RateLimiter | None = None, log_line: Callable[[dict], None] = _write_log_line):
        self.settings = settings or get_settings()
        self._engine_loader = engine_loader or self._default_loader
        self.limiter = limiter or RateLimiter(self.settings.rate_limit_per_minute)
        self.log_line = log_line
        self._answered = threading.Event()  # set once a question has been answered (start_loading)

    _warm_up_lock = threading.Lock()

    @staticmethod
    def _default_loader():
        from nztax.engine import Engine

        engine = Engine.load()  # the shared engine, loaded once per process
        if not getattr(engine, "parts_built", False):
            # The answer's HTML renderer imports markdown-it and nh3 on first use: here, not in the first answer.
            render_answer_html("**tax**")
            # Questions arriving meanwhile wait for the parts rather than build them themselves.
            with AskService._warm_up_lock:
                if not getattr(engine, "parts_built", False):
                    try:
                        engine.build_parts()
                    except Exception as exc:  # the real question will meet (and report) the same problem
                        log.warning("building the engine's parts failed: %s", f"{type(exc).__name__}: {exc}"[:300])
                    engine.parts_built = True
        return engine

    @staticmethod
    def warm_up(engine) -> None:
        """Answer WARM_UP_QUESTIONS once per engine (what is first imported or read on the way to
        an answer); a failure is logged, and the real question meets it again."""
        with AskService._warm_up_lock:
            if getattr(engine, "warmed_up", False):
                return
            engine.warmed_up = True
        try:
            for question in WARM_UP_QUESTIONS:
                engine.answer(question, mode="offline")
        except Exception as exc:  # noqa: BLE001
            log.warning("warm-up answer failed: %s", f"{type(exc).__name__}: {exc}"[:300])

    def start_loading(self) -> None:
        """Load the engine in a background thread, before any question arrives; warm it up once
        the first question has been answered.

        Called when a server worker starts: the first question then waits only for what is left.
        The query model is started first, on its own thread (`embedders.preload`), because
        onnxruntime builds it without the GIL, alongside the Python work of loading the rest.
        The warm-up answers wait for the first question's answer, which they would otherwise
        delay: what they reach, that first answer needs only in part. A failure is only logged
        here; the first question meets it again and answers 503. The garbage collector is paused
        while the process's own engine loads (`_collection_paused`).
        """
        own_engine = self._engine_loader == self._default_loader  # an engine handed in (tests) is its owner's

        def load() -> None:
            with _collection_paused(own_engine):
                engine = self._load_at_start()
            if engine is not None and own_engine:
                self._answered.wait()
                self.warm_up(engine)

        threading.Thread(target=load, name="nztax-engine-preload", daemon=True).start()

    def _load_at_start(self):
        """The engine, loaded with the query model preloaded beside it; None when loading failed."""
        try:
            from nztax.embedders import preload
            from nztax.index import read_manifest

            preload(self.settings, read_manifest(self.settings.index_dir).embedder_id)
        except Exception:  # noqa: BLE001 - no index yet: the loader below reports it
            pass
        try:
            return self._load_engine()
        except RequestError:
            return None  # already logged by _unavailable_as_503
        except Exception as exc:  # noqa: BLE001 - the first question reports it as a 500
            log.warning("loading the engine at start failed: %s", f"{type(exc).__name__}: {exc}"[:300])
            return None

    def _known_years(self) -> set[str]:
        from nztax.rules import RulesError, default_rules

        try:
            return set(default_rules().years)
        except RulesError as exc:
            log.error("rules unavailable: %s", exc)
            raise RequestError(503, "rules_unavailable", "the tax rules could not be loaded. Please try again later.") from None

    # -- CORS ----------------------------------------------------------------------------------

    def cors_headers(self, origin: str | None) -> dict[str, str]:
        allowed = self.settings.allowed_origins
        if not origin:
            return {}
        # The Ask box reads Retry-After on a 429 to say how long to wait; browsers hide it unless exposed.
        if "*" in allowed:
            return {"Access-Control-Allow-Origin": "*", "Access-Control-Expose-Headers": "Retry-After"}
        if origin in allowed:
            return {"Access-Control-Allow-Origin": origin, "Vary": "Origin", "Access-Control-Expose-Headers": "Retry-After"}
        return {"Vary": "Origin"}

    # -- the request ---------------------------------------------------------------------------

    def handle(self, method: str, path: str, headers: Mapping[str, str], body: bytes | None,
               body_too_large: bool = False, remote_addr: str | None = None) -> HttpResponse:
        started = time.perf_counter()
        cors = self.cors_headers(headers.get("Origin"))
        record: dict[str, Any] = {"severity": "INFO", "message": "ask", "method": method, "path": path}
        result = None
        try:
            response, result = self._handle(method, path, headers, body, body_too_large, remote_addr, record)
        except RequestError as exc:
            response = HttpResponse(exc.status, error_body(exc.code, exc.message), exc.headers)
            record["error_code"] = exc.code
        except Exception as exc:  # a bug must not leak a traceback to the client
            log.exception("unexpected error answering /ask")
            response = HttpResponse(500, error_body("internal_error", "something went wrong answering this question; please try again"))
            record.update(severity="ERROR", error_code="internal_error", error=f"{type(exc).__name__}: {exc}"[:300])
        response.headers = {**cors, **response.headers}
        if response.body is not None:
            response.headers.setdefault("Content-Type", "application/json")
        record["http_status"] = response.status
        record["latency_ms"] = round((time.perf_counter() - started) * 1000, 1)
        if result is not None:
            record.update(status=result.status, mode=result.mode, source=result.source, tax_year=result.tax_year,
                          tools=[t.name for t in result.tools], answer_ms=result.latency_ms)
            if result.guard_removed:
                record["guard_removed"] = result.guard_removed
            if result.fallback_reason:
                record["llm_fallback"] = result.fallback_reason
            if result.usage:
                record.update(tokens_prompt=result.usage.get("prompt_tokens", 0),
                              tokens_completion=result.usage.get("completion_tokens", 0),
                              cost_usd=result.usage.get("cost_usd", 0.0), llm_calls=result.usage.get("calls", 0),
                              llm_hops=result.usage.get("hops", 0), llm_seconds=result.usage.get("seconds", 0.0))
        if response.status == 429:
            record["severity"] = "WARNING"
        self.log_line(record)
        if result is not None:
            self._answered.set()
        return response

    def _handle(self, method, path, headers, body, body_too_large, remote_addr, record):
        if path not in ASK_PATHS:
            raise RequestError(404, "not_found", "POST your question to / or /ask")
        if method == "OPTIONS":
            headers_out = {"Access-Control-Allow-Methods": "POST, OPTIONS",
                           "Access-Control-Allow-Headers": "Content-Type",
                           "Access-Control-Max-Age": PREFLIGHT_MAX_AGE}
            return HttpResponse(204, None, headers_out), None
        if method != "POST":
            raise RequestError(405, "method_not_allowed", "use POST with a JSON body", {"Allow": "POST, OPTIONS"})
        decision = self.limiter.check(client_key(headers, remote_addr, self.settings.trusted_proxy_depth))
        if not decision.allowed:
            raise RequestError(429, "rate_limited", f"too many questions; try again in {decision.retry_after} s",
                               {"Retry-After": str(decision.retry_after)})
        if body_too_large or (body is not None and len(body) > MAX_BODY_BYTES):
            raise RequestError(413, "body_too_large", f"the request body is larger than {MAX_BODY_BYTES // 1024} KB")
        request = parse_request(body or b"", headers.get("Content-Type"), self._known_years, self.settings.max_question_figures)
        record["question_chars"] = len(request.question)
        record["history_turns"] = len(request.history)
        engine = self._load_engine()
        try:
            with budget.spending(self.settings.question_cpu_budget):
                result = self._unavailable_as_503(
                    lambda: engine.answer(request.question, tax_year=request.tax_year, history=request.history))
        except budget.QuestionTooCostly:
            log.warning("question over its CPU budget (%s s, %d characters)", self.settings.question_cpu_budget,
                        len(request.question))
            raise RequestError(422, "question_too_costly", "this question takes too long to work through; "
                               "shorten it or ask one thing at a time") from None
        body = result.to_json()
        # The Ask box shows this HTML (rendered and sanitised here, by the same code as the FAQ
        # pages), so no page ever turns markdown into markup itself.
        body["answer_html"] = render_answer_html(body["answer"])
        return HttpResponse(200, body), result

    def _load_engine(self):
        return self._unavailable_as_503(self._engine_loader)

    @staticmethod
    def _unavailable_as_503(call):
        """Run `call`; a missing or mismatched index or rules become a 503 naming no paths."""
        from nztax.embedders import EmbedderError
        from nztax.faq_index import FaqError
        from nztax.index import IndexMismatchError, IndexUnavailableError
        from nztax.rules import RulesError

        try:
            return call()
        except IndexMismatchError as exc:
            log.error("index mismatch: %s", exc)
            raise RequestError(503, "index_unavailable", "the answer index does not match this version of the "
                               "service; it needs to be rebuilt. Please try again later.") from None
        except (IndexUnavailableError, FaqError) as exc:
            log.error("index unavailable: %s", exc)
            raise RequestError(503, "index_unavailable", "the answer index is missing or incomplete. "
                               "Please try again later.") from None
        except RulesError as exc:
            log.error("rules unavailable: %s", exc)
            raise RequestError(503, "rules_unavailable", "the tax rules could not be loaded. Please try again later.") from None
        except EmbedderError as exc:  # a damaged or missing model file: the operator must reinstall it
            log.error("model unavailable: %s", exc)
            raise RequestError(503, "model_unavailable", "the language model files could not be loaded. "
                               "Please try again later.") from None
