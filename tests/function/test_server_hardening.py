"""/ask under a real functions-framework process, attacked the way issue 14 found it failing:
malformed JSON and HTTP, stalled clients, oversized bodies. Every answer must be a JSON body with
a status below 500, and no request may wait behind clients that stall."""

from __future__ import annotations

import json
import os
import random
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from ask_helpers import MAIN, ROOT, function_env
from nztax_build.commands.serve import stop_process

READ_TIMEOUT_S = 1.0  # NZTAX_REQUEST_READ_TIMEOUT for this server: keeps the stall tests short
DEADLINE_S = 2.0  # NZTAX_REQUEST_DEADLINE: the whole request, however it trickles in
MAX_CONNECTIONS = 120  # NZTAX_SERVER_MAX_CONNECTIONS
FUZZ_REQUESTS = 2000


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def port(ask_index):
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("GEMINI_API_KEY", "NZTAX_LLM_MODEL", "NZTAX_LLM_API_BASE")}
    env.update(function_env(ask_index, NZTAX_RATE_LIMIT_PER_MINUTE="0", NZTAX_REQUEST_READ_TIMEOUT=str(READ_TIMEOUT_S),
                             NZTAX_REQUEST_DEADLINE=str(DEADLINE_S), NZTAX_SERVER_MAX_CONNECTIONS=str(MAX_CONNECTIONS)))
    exe = Path(sys.executable).parent / "functions-framework"
    proc = subprocess.Popen([str(exe), "--target", "ask", "--source", str(MAIN), "--port", str(port), "--host", "127.0.0.1"],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    try:
        while True:
            try:
                # (the first answer loads the engine: slow on a busy machine)
                status, _, _ = exchange(port, request_bytes("POST", {"question": "What is PAYE?"}), timeout=60)
                if status == 200:
                    break
            except (OSError, IndexError):  # not listening yet, or no answer yet
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"functions-framework did not start: {proc.stderr.read().decode()[-2000:] if proc.poll() is not None else ''}")
            time.sleep(0.05)
        yield port
    finally:
        stop_process(proc)


def request_bytes(method: str, body, headers: dict | None = None, raw_body: bytes | None = None) -> bytes:
    data = raw_body if raw_body is not None else json.dumps(body).encode()
    lines = [f"{method} / HTTP/1.1", "Host: 127.0.0.1", "Content-Type: application/json",
             f"Content-Length: {len(data)}", "Connection: close"]
    lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + data


def exchange(port: int, payload: bytes, timeout: float = 10) -> tuple[int, dict, bytes]:
    """Send raw bytes; return (status, headers, body) of the response."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        try:
            s.sendall(payload)
        except OSError:
            pass  # the server may answer and close before reading everything we send
        chunks = []
        while True:
            try:
                chunk = s.recv(65536)
            except (ConnectionResetError, TimeoutError):
                break
            if not chunk:
                break
            chunks.append(chunk)
    raw = b"".join(chunks)
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    if headers.get("transfer-encoding", "").lower() == "chunked":
        body = _unchunk(body)
    return status, headers, body


def _unchunk(data: bytes) -> bytes:
    out = b""
    while data:
        size_line, _, rest = data.partition(b"\r\n")
        size = int(size_line.split(b";")[0], 16)
        if size == 0:
            break
        out, data = out + rest[:size], rest[size + 2:]
    return out


def assert_json_error_or_answer(status: int, body: bytes, case: str) -> None:
    assert status < 500, (case, status, body[:300])
    if status == 204:  # a CORS preflight: no body by design
        assert body == b"", (case, body[:300])
        return
    parsed = json.loads(body)  # a JSON body, never an HTML error page or a trace
    assert isinstance(parsed, dict) and ("error" in parsed or "answer" in parsed), (case, body[:300])


MALFORMED_HTTP = {
    "lower-case method": b"post / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}",
    "duplicate content-length": b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}",
    "hex content-length": b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 0x2\r\n\r\n{}",
    "NUL in a header": b"POST / HTTP/1.1\r\nHost: x\r\nX-A: a\x00b\r\nContent-Length: 2\r\n\r\n{}",
    "oversized header": b"POST / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 20000 + b"\r\nContent-Length: 2\r\n\r\n{}",
    "too many headers": b"POST / HTTP/1.1\r\nHost: x\r\n" + b"".join(b"X-%d: 1\r\n" % i for i in range(200)) + b"\r\n",
    "invalid chunk size": (b"POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                           b"zz\r\n{}\r\n0\r\n\r\n"),
    "bad request line": b"GARBAGE\r\n\r\n",
    "bad http version": b"POST / HTTP/9.9\r\nHost: x\r\n\r\n",
}


@pytest.mark.parametrize("case", sorted(MALFORMED_HTTP))
def test_malformed_http_gets_a_json_4xx(port, case):
    status, headers, body = exchange(port, MALFORMED_HTTP[case])
    assert 400 <= status < 500, (case, status, body[:200])
    assert headers.get("content-type", "").startswith("application/json"), (case, headers)
    assert "error" in json.loads(body)


@pytest.mark.parametrize("case,raw", [
    ("deeply nested JSON", b'{"question": ' + b"[" * 5000 + b"]" * 5000 + b"}"),
    ("integer of 5000 digits", b'{"question": "tax?", "tax_year": ' + b"9" * 5000 + b"}"),
    ("lone surrogate", b'{"question": "\\ud800"}'),
    ("surrogate in history", b'{"question": "tax?", "history": [{"question": "\\udfff", "answer": ""}]}'),
])
def test_hostile_json_gets_a_400(port, case, raw):
    status, _, body = exchange(port, request_bytes("POST", None, raw_body=raw))
    assert status == 400, (case, status, body[:200])
    assert json.loads(body)["error"]["code"] == "invalid_json"


def _fuzz_payload(rng: random.Random) -> bytes:
    kind = rng.randrange(8)
    if kind == 0:
        return request_bytes("POST", {"question": rng.choice(["tax on $85k", "", "x" * 2000, "PAYE M SL $1,000 a week"])})
    if kind == 1:
        return request_bytes("POST", None, raw_body=bytes(rng.randrange(256) for _ in range(rng.randrange(1, 200))))
    if kind == 2:
        depth = rng.randrange(100, 3000)
        return request_bytes("POST", None, raw_body=b'{"question": ' + b"[" * depth + b"]" * depth + b"}")
    if kind == 3:
        return request_bytes("POST", None, raw_body=b'{"question": "\\ud8%02x tax"}' % rng.randrange(256))
    if kind == 4:
        return request_bytes(rng.choice(["GET", "PUT", "DELETE", "PATCH", "get", "OPTIONS"]), {"question": "x"})
    if kind == 5:
        return rng.choice(list(MALFORMED_HTTP.values()))
    if kind == 6:
        year = rng.choice(["9" * rng.randrange(1, 6000), '"2026-27"', '"9999-00"', "null", "[]", "{}", "1e999"])
        history = rng.choice(["null", "[]", '"x"', '[{"question": 1}]', json.dumps([{"question": "a", "answer": "b"}] * 9)])
        return request_bytes("POST", None, raw_body=f'{{"question": "tax?", "tax_year": {year}, "history": {history}}}'.encode())
    # chunked bodies: well-framed junk, or a chunk size that is not hex (a chunk shorter than its
    # size is a stalled body, tested on its own: here it would only wait out the read timeout)
    data = bytes(rng.choice(b'{}[]":,ab\\') for _ in range(rng.randrange(1, 64)))
    size = (b"%x" % len(data)) if rng.random() < 0.7 else rng.choice([b"zz", b"-1", b"0x10", b"1;" + b"a" * 5000, b""])
    return (b"POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n"
            b"Connection: close\r\n\r\n" + size + b"\r\n" + data + b"\r\n0\r\n\r\n")


def test_fuzzed_requests_never_get_a_5xx_or_a_non_json_body(port):
    rng = random.Random(20261124)
    failures = []
    for i in range(FUZZ_REQUESTS):
        payload = _fuzz_payload(rng)
        try:
            status, _, body = exchange(port, payload)
            assert_json_error_or_answer(status, body, f"#{i}")
        except (AssertionError, ValueError, IndexError) as exc:
            failures.append(f"#{i}: {payload[:120]!r} -> {exc}")
    assert not failures, f"{len(failures)} of {FUZZ_REQUESTS} failed; first: {failures[:3]}"


def test_a_body_shorter_than_its_content_length_gets_408_not_a_hang(port):
    payload = request_bytes("POST", None, raw_body=b'{"question": "tax')[:-17]
    payload = payload.replace(b"Content-Length: 17", b"Content-Length: 500") + b'{"question": "tax'
    started = time.monotonic()
    status, _, body = exchange(port, payload, timeout=READ_TIMEOUT_S * 10)
    assert status == 408 and json.loads(body)["error"]["code"] == "request_timeout"
    assert time.monotonic() - started < READ_TIMEOUT_S * 5


def test_stalled_clients_do_not_hold_up_a_normal_request(port):
    stalled = []
    try:
        for i in range(8):
            s = socket.create_connection(("127.0.0.1", port), timeout=10)
            # half a request: headers promising a body that never comes, or headers never finished
            s.sendall(b"POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"
                      if i % 2 else b"POST / HTTP/1.1\r\nHost: x\r\nX-Slow: ")
            stalled.append(s)
        time.sleep(0.2)
        started = time.monotonic()
        status, _, body = exchange(port, request_bytes("POST", {"question": "What is the ACC earners' levy rate?"}))
        waited = time.monotonic() - started
        assert status == 200 and "1.75%" in json.loads(body)["answer"]
        assert waited < READ_TIMEOUT_S / 2, f"a normal request waited {waited:.2f} s behind stalled clients"
    finally:
        for s in stalled:
            s.close()


def test_an_oversized_body_is_refused_before_it_is_read(port):
    """A 200 MiB body is answered 413 at once, without the server reading (or buffering) it."""
    declared = 200 * 1024 * 1024
    head = (b"POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n" % declared)
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(head + b"{" * 65536)
        started = time.monotonic()
        response = b""
        while chunk := s.recv(65536):  # the server closes the connection after the 413
            response += chunk
        assert time.monotonic() - started < 5
    status = int(response.split(b" ", 2)[1])
    assert status == 413 and b"body_too_large" in response
    assert b"connection: close" in response.lower()


def test_a_chunked_body_over_the_limit_is_cut_off(port):
    chunk = b"a" * 8192
    body = b"".join(b"%x\r\n%s\r\n" % (len(chunk), chunk) for _ in range(64)) + b"0\r\n\r\n"  # 512 KiB
    payload = (b"POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n"
               b"Connection: close\r\n\r\n" + body)
    status, _, response = exchange(port, payload)
    assert status == 413 and json.loads(response)["error"]["code"] == "body_too_large"


def test_concurrent_normal_traffic_is_all_answered(port):
    results = []

    def worker():
        for _ in range(10):
            results.append(exchange(port, request_bytes("POST", {"question": "tax on $60k?"}))[0])

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results.count(200) == 80


def _trickle(port: int, seconds: float, every: float, outcome: list) -> None:
    """Send a header line every `every` s (well inside the read timeout) for up to `seconds`;
    record (seconds until the server answered or closed, the answer's first bytes)."""
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=seconds + 5) as s:
        s.sendall(b"POST / HTTP/1.1\r\nHost: x\r\n")
        s.settimeout(every)
        i = 0
        while time.monotonic() - started < seconds:
            try:
                answer = s.recv(4096)
                outcome.append((time.monotonic() - started, answer))  # answered (or closed, b"")
                return
            except TimeoutError:
                pass
            try:
                s.sendall(b"X-Slow-%d: 1\r\n" % i)
            except OSError:
                outcome.append((time.monotonic() - started, b""))
                return
            i += 1
        outcome.append((None, b""))  # still open: the server let it go on


def test_a_request_trickling_in_is_cut_off_at_its_deadline(port):
    """A header line every 0.3 s never trips the 1 s read timeout; the whole request's deadline does."""
    outcome: list = []
    _trickle(port, seconds=DEADLINE_S * 4, every=READ_TIMEOUT_S * 0.3, outcome=outcome)
    took, answer = outcome[0]
    assert took is not None, "a client trickling its headers was served for as long as it kept going"
    assert took < DEADLINE_S + 1.5
    assert answer.startswith(b"HTTP/1.1 408") and b'"request_timeout"' in answer


def test_trickling_and_idle_clients_do_not_hold_up_a_normal_request(port):
    """40 clients trickling headers (more than the 32 threads) and 40 idle connections: a normal
    question is still answered at once, because no thread is taken until a request has arrived."""
    outcomes: list = []
    tricklers = [threading.Thread(target=_trickle, args=(port, DEADLINE_S * 2, 0.3, outcomes)) for _ in range(40)]
    idle = []
    try:
        for t in tricklers:
            t.start()
        idle = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(40)]
        time.sleep(0.5)
        started = time.monotonic()
        status, _, body = exchange(port, request_bytes("POST", {"question": "What is the ACC earners' levy rate?"}))
        waited = time.monotonic() - started
        assert status == 200 and "1.75%" in json.loads(body)["answer"]
        assert waited < READ_TIMEOUT_S / 2, f"a normal request waited {waited:.2f} s behind slow clients"
    finally:
        for s in idle:
            s.close()
        for t in tricklers:
            t.join(timeout=DEADLINE_S * 4)
    assert len(outcomes) == 40 and all(took is not None for took, _ in outcomes)


def test_connections_over_the_cap_are_answered_503_at_once(port):
    held = []
    try:
        for _ in range(MAX_CONNECTIONS + 10):
            held.append(socket.create_connection(("127.0.0.1", port), timeout=10))
        refused = []
        deadline = time.monotonic() + 2
        for s in held[MAX_CONNECTIONS - 5:]:  # which ones are over the cap depends on who came first
            s.settimeout(max(0.01, deadline - time.monotonic()))
            try:
                answer = s.recv(4096)
            except TimeoutError:
                continue
            if answer:
                refused.append(answer)
        busy = [a for a in refused if a.startswith(b"HTTP/1.1 503")]
        # (one under the cap that stays silent past the read timeout is answered 408)
        assert all(a.startswith(b"HTTP/1.1 408") for a in refused if a not in busy)
        assert len(busy) >= 10, f"{len(busy)} of the connections over the cap were answered 503"
        for answer in busy:
            head, _, body = answer.partition(b"\r\n\r\n")
            assert json.loads(body)["error"]["code"] == "server_busy" and b"Retry-After: 1" in head
    finally:
        for s in held:
            s.close()
    time.sleep(0.3)  # the worker sees the closes
    assert exchange(port, request_bytes("POST", {"question": "tax on $60k?"}))[0] == 200
