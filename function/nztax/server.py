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
"""

from __future__ import annotations

import errno
import json
import socket

from gunicorn import util
from gunicorn.workers import gthread

from nztax.settings import get_settings

_STATUS_CODES = {400: "bad_request", 403: "forbidden", 408: "request_timeout", 414: "uri_too_long",
                 417: "expectation_failed", 431: "headers_too_large", 500: "internal_error", 501: "not_implemented"}
# Header limits well inside gunicorn's own maxima: a question never needs big headers.
LIMIT_REQUEST_FIELD_SIZE = 8190
LIMIT_REQUEST_FIELDS = 100


def write_json_error(sock, status_int: int, reason: str, mesg: str) -> None:
    """gunicorn's error writer, with the API's `{"error": {"code", "message"}}` body."""
    code = _STATUS_CODES.get(int(status_int), "bad_request")
    message = (mesg or reason or "bad request").strip()
    body = json.dumps({"error": {"code": code, "message": message}}, ensure_ascii=True).encode("ascii")
    head = (f"HTTP/1.1 {int(status_int)} {reason}\r\nConnection: close\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n").encode("latin-1", "replace")
    util.write_nonblock(sock, head + body)


class _TimedSocket(socket.socket):
    """A client socket whose blocking mode has a read timeout (gunicorn sets plain blocking)."""

    read_timeout: float = 10.0

    def setblocking(self, flag: bool) -> None:
        if flag:
            self.settimeout(self.read_timeout)
        else:
            super().setblocking(False)


class JsonErrorThreadWorker(gthread.ThreadWorker):
    """gunicorn's threaded worker with JSON error pages and bounded socket reads."""

    def init_process(self):
        # This process serves only /ask: every error page it writes is the API's JSON.
        util.write_error = write_json_error
        _TimedSocket.read_timeout = get_settings().request_read_timeout
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
        self.nr_conns += 1
        timed = _TimedSocket(fileno=client_sock.detach())
        timed.setblocking(True)
        self.enqueue_req(gthread.TConn(self.cfg, timed, client_addr, listener.getsockname()))


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
        "limit_request_field_size": LIMIT_REQUEST_FIELD_SIZE,
        "limit_request_fields": LIMIT_REQUEST_FIELDS,
    }


def install() -> None:
    """Make functions-framework's gunicorn application use `server_options()` (idempotent).

    functions-framework 3.10 has no hook for a worker class, so its application's `load_config`
    is wrapped; tests/function/test_server_hardening.py fails if a new version changes that.
    """
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
