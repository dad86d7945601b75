"""How functions-framework's gunicorn serves /ask: JSON errors, bounded reads, enough threads.

In: the gunicorn options functions-framework builds. Out: the same options plus this module's
worker class, the thread count and the header limits. `install()` is called when function/main.py
is imported, which functions-framework does before it starts gunicorn, so both `make serve` and
the deployed instance (`functions-framework --target ask`) run with it.

Why: gunicorn answers malformed HTTP (lower-case methods, duplicate Content-Length, NUL in a
header, oversized headers, bad chunk sizes) with its own HTML pages, and its sockets have no read
timeout, so a client that stalls mid-request holds a thread for ever. The worker below keeps
gunicorn's own decisions (which status, which reason) and only changes the body to the API's JSON
error format, and gives every client socket a read timeout.

A per-read timeout alone lets a client that sends a byte every few seconds hold a thread for ever,
and an idle connection held a thread until its first byte. So the worker's event loop gathers each
request's headers (and a declared body of up to the API's limit) itself, without a thread; a
thread is taken only once the request has arrived. Every request has one deadline for all of it
(`NZTAX_REQUEST_DEADLINE`): one still arriving then is answered 408 and closed, and reads in the
thread stop at the same deadline. Open connections per worker are capped
(`NZTAX_SERVER_MAX_CONNECTIONS`): one more is answered 503 `server_busy` at once.
"""

from __future__ import annotations

import errno
import json
import re
import selectors
import socket
import time
from functools import partial
from typing import Callable

from gunicorn import http, util
from gunicorn.workers import gthread

from nztax.settings import get_settings

_STATUS_CODES = {400: "bad_request", 403: "forbidden", 408: "request_timeout", 414: "uri_too_long",
                 417: "expectation_failed", 431: "headers_too_large", 500: "internal_error", 501: "not_implemented",
                 503: "server_busy"}
# Header limits well inside gunicorn's own maxima: a question never needs big headers.
LIMIT_REQUEST_FIELD_SIZE = 8190
LIMIT_REQUEST_FIELDS = 100
# Largest request the event loop gathers before handing it to a thread (headers and body are far
# smaller; anything bigger is gunicorn's or the API's to refuse).
GATHER_LIMIT = 64 * 1024
_CONTENT_LENGTH = re.compile(rb"^content-length:[ \t]*(\d{1,12})[ \t]*\r?$", re.I | re.M)
_TRANSFER_ENCODING = re.compile(rb"^transfer-encoding:", re.I | re.M)


def write_json_error(sock, status_int: int, reason: str, mesg: str) -> None:
    """gunicorn's error writer, with the API's `{"error": {"code", "message"}}` body."""
    code = _STATUS_CODES.get(int(status_int), "bad_request")
    message = (mesg or reason or "bad request").strip()
    body = json.dumps({"error": {"code": code, "message": message}}, ensure_ascii=True).encode("ascii")
    head = (f"HTTP/1.1 {int(status_int)} {reason}\r\nConnection: close\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n").encode("latin-1", "replace")
    util.write_nonblock(sock, head + body)


class _TimedSocket(socket.socket):
    """A client socket whose blocking reads stop at the read timeout and at the request's deadline."""

    read_timeout: float = 10.0
    deadline: float | None = None  # time.monotonic() by which the current request must have arrived

    def setblocking(self, flag: bool) -> None:
        if flag:
            self.settimeout(self.read_timeout)
        else:
            super().setblocking(False)

    def recv(self, bufsize: int, flags: int = 0) -> bytes:
        timeout = self.gettimeout()
        if not timeout or self.deadline is None:  # non-blocking (the event loop) or no request yet
            return super().recv(bufsize, flags)
        remaining = self.deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError("the request did not arrive within its deadline")
        self.settimeout(min(timeout, remaining))
        try:
            return super().recv(bufsize, flags)
        finally:
            self.settimeout(timeout)


def request_arrived(data: bytes, max_body: int) -> bool:
    """Whether `data` holds a whole request head and (for a declared body within `max_body`) its body.

    Anything the event loop cannot judge this simply (chunked bodies, odd or repeated lengths, an
    oversized declaration) counts as arrived: gunicorn's parser and the API decide about it, and
    the request's deadline still bounds a thread reading the rest.
    """
    head_end = data.find(b"\r\n\r\n")
    if head_end < 0:
        return len(data) >= GATHER_LIMIT
    head = data[:head_end + 2]
    lengths = _CONTENT_LENGTH.findall(head)
    if len(lengths) != 1 or _TRANSFER_ENCODING.search(head):
        return True
    declared = int(lengths[0])
    return declared > max_body or len(data) - head_end - 4 >= declared


class JsonErrorThreadWorker(gthread.ThreadWorker):
    """gunicorn's threaded worker with JSON error pages, gathered requests and a connection cap."""

    def init_process(self):
        from nztax.api import MAX_BODY_BYTES  # the API's own body limit: a larger body is refused unread

        # This process serves only /ask: every error page it writes is the API's JSON.
        util.write_error = write_json_error
        settings = get_settings()
        _TimedSocket.read_timeout = settings.request_read_timeout
        self.request_deadline = settings.request_deadline
        self.max_connections = settings.server_max_connections
        self.max_body = MAX_BODY_BYTES + 1
        self.gathering: dict[gthread.TConn, bytearray] = {}
        super().init_process()

    def load_wsgi(self):
        super().load_wsgi()
        self.wsgi = _honour_connection_close(self.wsgi)

    def accept(self, listener):
        try:
            client_sock, client_addr = listener.accept()
        except OSError as exc:
            if exc.errno in (errno.EAGAIN, errno.ECONNABORTED, errno.EWOULDBLOCK):
                return
            raise
        if self.nr_conns >= self.max_connections:
            _refuse(client_sock, 503, "Service Unavailable", "the server is busy; try again in a moment")
            return
        self.nr_conns += 1
        timed = _TimedSocket(fileno=client_sock.detach())
        self._gather(gthread.TConn(self.cfg, timed, client_addr, listener.getsockname()))

    def on_client_socket_readable(self, conn, client):
        """A kept-alive connection's next request is gathered like a new one's."""
        self.poller.unregister(client)
        self.keepalived_conns.remove(conn)
        self._gather(conn)

    def _gather(self, conn) -> None:
        conn.sock.setblocking(False)
        conn.sock.deadline = time.monotonic() + self.request_deadline
        conn.nztax_last_byte = time.monotonic()
        self.gathering[conn] = bytearray()
        self.poller.register(conn.sock, selectors.EVENT_READ, partial(self._on_gathering_readable, conn))

    def _on_gathering_readable(self, conn, client):
        try:
            data = client.recv(GATHER_LIMIT)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if not data:  # the client went away before its request arrived
            self._stop_gathering(conn)
            self.nr_conns -= 1
            conn.close()
            return
        buffered = self.gathering[conn]
        buffered += data
        conn.nztax_last_byte = time.monotonic()
        if not request_arrived(bytes(buffered), self.max_body):
            return
        self._stop_gathering(conn)
        if conn.parser is None:
            conn.parser = http.get_parser(self.cfg, conn.sock, conn.client)
        conn.parser.unreader.unread(bytes(buffered))
        conn.data_ready = True
        conn.nztax_armed = True  # its deadline was set when gathering began
        self.enqueue_req(conn)

    def _stop_gathering(self, conn) -> None:
        self.gathering.pop(conn, None)
        try:
            self.poller.unregister(conn.sock)
        except (KeyError, ValueError, OSError):
            pass

    def murder_pending(self):
        """gunicorn's sweep, and a 408 for every request still arriving at its deadline or silent too long."""
        super().murder_pending()
        now = time.monotonic()
        silent_since = now - _TimedSocket.read_timeout
        for conn in [c for c in self.gathering if c.sock.deadline <= now or c.nztax_last_byte <= silent_since]:
            self._stop_gathering(conn)
            self.nr_conns -= 1
            _refuse(conn.sock, 408, "Request Timeout",
                    f"the request did not arrive within {self.request_deadline:g} s; send it again")

    def handle(self, conn):
        if not getattr(conn, "nztax_armed", False):  # a pipelined request read ahead: its own deadline
            conn.sock.deadline = time.monotonic() + self.request_deadline
        conn.nztax_armed = False
        return super().handle(conn)


def _refuse(sock: socket.socket, status: int, reason: str, message: str) -> None:
    """Answer a connection no thread will serve with a JSON error, without blocking, and close it."""
    try:
        sock.setblocking(False)
        code = _STATUS_CODES[status]
        body = json.dumps({"error": {"code": code, "message": message}}).encode("ascii")
        extra = "Retry-After: 1\r\n" if status == 503 else ""
        sock.send(f"HTTP/1.1 {status} {reason}\r\nConnection: close\r\nContent-Type: application/json\r\n{extra}"
                  f"Content-Length: {len(body)}\r\n\r\n".encode("ascii") + body)
    except OSError:
        pass  # the client has gone or its buffer is full: closing is all that is left
    finally:
        util.close(sock)


def _honour_connection_close(app):
    """WSGI wrapper: a response that says `Connection: close` closes the connection.

    gunicorn drops hop-by-hop headers from the application, so without this a 413 sent before the
    body was read would keep the connection alive and then drain the unread body.
    """

    def wrapped(environ, start_response):
        def start(status, headers, exc_info=None):
            if any(k.lower() == "connection" and v.lower() == "close" for k, v in headers):
                force_close = getattr(getattr(start_response, "__self__", None), "force_close", None)
                if force_close:
                    force_close()
            return start_response(status, headers, exc_info)

        return app(environ, start)

    return wrapped


def server_options() -> dict:
    """The gunicorn settings this module adds to functions-framework's."""
    settings = get_settings()
    return {
        "worker_class": f"{__name__}.JsonErrorThreadWorker",
        "threads": settings.server_threads,
        # gunicorn stops accepting at worker_connections; the worker's own cap answers 503 first.
        "worker_connections": settings.server_max_connections + 1,
        "limit_request_field_size": LIMIT_REQUEST_FIELD_SIZE,
        "limit_request_fields": LIMIT_REQUEST_FIELDS,
        "post_worker_init": _post_worker_init,
    }


_on_worker_start: Callable[[], None] | None = None


def _post_worker_init(worker) -> None:
    if _on_worker_start is not None:
        _on_worker_start()


def install(on_worker_start: Callable[[], None] | None = None) -> None:
    """Make functions-framework's gunicorn application use `server_options()` (idempotent), and
    call `on_worker_start()` in each worker once it is ready to accept (after the fork, so any
    thread it starts lives in the worker).

    functions-framework 3.10 has no hook for a worker class, so its application's `load_config`
    is wrapped; tests/function/test_server_hardening.py fails if a new version changes that.
    """
    global _on_worker_start
    _on_worker_start = on_worker_start
    try:
        from functions_framework._http.gunicorn import GunicornApplication
    except ImportError:  # no gunicorn on this platform: functions-framework uses Flask's server
        return
    if getattr(GunicornApplication.load_config, "_nztax", False):
        return
    original = GunicornApplication.load_config

    def load_config(self):
        self.options.update(server_options())
        original(self)

    load_config._nztax = True
    GunicornApplication.load_config = load_config
