"""A local IRD-like mirror on 127.0.0.1 for crawler tests: real sockets, faults on demand.

Serves tests/fixtures/crawl_site/ (URL path -> file, ".html" added when the path has no extension)
with ETag / Last-Modified and 304 answers, and a set of fault routes under /faults/ whose behaviour a
test switches with `mirror.modes[path] = ...`. Every request is logged (path, headers, status).
"""

from __future__ import annotations

import hashlib
import re
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

SITE = Path(__file__).resolve().parents[1] / "fixtures" / "crawl_site"
LAST_MODIFIED = "Wed, 01 Apr 2026 00:00:00 GMT"
CONTENT_TYPES = {".html": "text/html; charset=utf-8", ".pdf": "application/pdf", ".txt": "text/plain"}
BANNER = re.compile(rb'(<div class="alert-banner" role="alert"><p>).*?(</p></div>)', re.S)
PLAIN_PAGE = (
    b'<!doctype html><html><head><title>%s | Inland Revenue</title></head><body>'
    b'<div class="alert-banner" role="alert"><p>Banner</p></div>'
    b'<main id="main-content"><h1>%s</h1><div class="rich-text"><h2>Details</h2><p>%s</p></div></main></body></html>'
)


# A page long enough that losing part of it is measurable (the damaged-page guard's tests).
LONG_TEXT = " ".join(f"Paragraph {n}: how income tax applies to salary and wages, with an example." for n in range(40))


def plain_page(title: str, text: str) -> bytes:
    return PLAIN_PAGE % (title.encode(), title.encode(), text.encode())


class _QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address) -> None:
        # The crawler hangs up on purpose (size cap, timeouts); that is not a server problem.
        import sys

        if not isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            super().handle_error(request, client_address)


@dataclass
class Request:
    path: str
    headers: dict[str, str]
    status: int = 0


@dataclass
class Mirror:
    root: Path = SITE
    modes: dict[str, str] = field(default_factory=dict)  # fault path -> mode name
    robots_status: int | None = None  # answer robots.txt with this status instead of the file
    rotate_banner: bool = False  # a different alert banner on every response
    extra_text: str = ""  # appended to every HTML page's main content (a content change)
    page_delay: float = 0.0  # seconds to wait before answering any page
    requests: list[Request] = field(default_factory=list)
    counter: int = 0

    def start(self) -> "Mirror":
        mirror = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args) -> None:  # keep test output quiet
                pass

            def do_GET(self) -> None:
                request = Request(self.path, {k.lower(): v for k, v in self.headers.items()})
                mirror.requests.append(request)
                mirror.counter += 1
                try:
                    mirror.answer(self, request)
                except (BrokenPipeError, ConnectionResetError):
                    pass

        self.server = _QuietServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self.thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    @property
    def base_url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}"

    def paths_requested(self) -> list[str]:
        return [r.path for r in self.requests]

    # -- answering ------------------------------------------------------------------------------
    def send(self, h: BaseHTTPRequestHandler, request: Request, status: int, body: bytes = b"",
             content_type: str = "text/html; charset=utf-8", headers: dict[str, str] | None = None,
             declared_length: int | None = None) -> None:
        request.status = status
        h.send_response(status)
        for name, value in (headers or {}).items():
            h.send_header(name, value)
        if status not in (204, 304):
            h.send_header("Content-Type", content_type)
            h.send_header("Content-Length", str(len(body) if declared_length is None else declared_length))
        h.end_headers()
        if status not in (204, 304):
            h.wfile.write(body)
        h.wfile.flush()

    def answer(self, h: BaseHTTPRequestHandler, request: Request) -> None:
        path = request.path.split("?")[0]
        if path == "/robots.txt" and self.robots_status is not None:
            return self.send(h, request, self.robots_status, b"robots unavailable", "text/plain")
        if path.startswith("/faults/"):
            return self.fault(h, request, path)
        if self.page_delay and path != "/robots.txt":
            time.sleep(self.page_delay)
        return self.serve_file(h, request, path)

    def file_body(self, path: str) -> tuple[bytes, str] | None:
        relative = path.lstrip("/")
        candidates = [self.root / relative] if Path(relative).suffix else [self.root / f"{relative}.html"]
        for candidate in candidates:
            if candidate.is_file() and self.root in candidate.resolve().parents:
                body = candidate.read_bytes()
                kind = CONTENT_TYPES.get(candidate.suffix, "application/octet-stream")
                if candidate.suffix == ".html":
                    if self.rotate_banner:
                        body = BANNER.sub(rb"\g<1>Notice number %d\g<2>" % self.counter, body)
                    if self.extra_text:
                        body = body.replace(b"</main>", f"<p>{self.extra_text}</p></main>".encode())
                return body, kind
        return None

    def serve_file(self, h: BaseHTTPRequestHandler, request: Request, path: str) -> None:
        found = self.file_body(path)
        if found is None:
            return self.send(h, request, 404, b"not found", "text/plain")
        body, kind = found
        etag = f'"{hashlib.sha256(body).hexdigest()[:16]}"'
        validators = {"ETag": etag, "Last-Modified": LAST_MODIFIED}
        if request.headers.get("if-none-match") == etag:
            return self.send(h, request, 304, headers=validators)
        return self.send(h, request, 200, body, kind, validators)

    def fault(self, h: BaseHTTPRequestHandler, request: Request, path: str) -> None:
        mode = self.modes.get(path, "ok")
        good = plain_page("Fault test page", f"Good content for {path}.")
        if mode == "ok":
            return self.send(h, request, 200, good, headers={"ETag": f'"{hashlib.sha256(good).hexdigest()[:16]}"'})
        if mode == "long":
            return self.send(h, request, 200, plain_page("Fault test page", LONG_TEXT))
        if mode.startswith("long-cut-"):  # the long page with only the first N% of its text
            share = int(mode.rsplit("-", 1)[1]) / 100
            return self.send(h, request, 200, plain_page("Fault test page", LONG_TEXT[: int(len(LONG_TEXT) * share)]))
        if mode == "soft-404":  # an error page served with 200
            return self.send(h, request, 200, plain_page("Page not found", "Sorry, we cannot find the page you are "
                                                         "looking for. It may have moved. Try the search box."))
        if mode == "ird-404":  # IRD's own not-found page, served with 200
            return self.send(h, request, 200, plain_page("Inland Revenue | Page not found", "Oops! We can't find that "
                                                         "page. Try searching or browse the topics below."))
        if mode == "ird-404-plain-title":  # the same page under a title that says nothing
            return self.send(h, request, 200, plain_page("Inland Revenue", "Oops! We can't find that page. Try "
                                                         "searching or browse the topics below."))
        if mode == "500":
            return self.send(h, request, 500, b"server error", "text/plain")
        if mode == "503-then-ok":  # one 503 with Retry-After, then the page
            self.modes[path] = "ok"
            return self.send(h, request, 503, b"busy", "text/plain", {"Retry-After": "2"})
        if mode == "503-long":
            return self.send(h, request, 503, b"busy", "text/plain", {"Retry-After": "3600"})
        if mode == "slow":
            time.sleep(1.0)
            return self.send(h, request, 200, good)
        if mode == "truncated":  # promise 5,000 bytes, send 100, hang up
            request.status = 200
            h.send_response(200)
            h.send_header("Content-Type", "text/html")
            h.send_header("Content-Length", "5000")
            h.end_headers()
            h.wfile.write(good[:100])
            h.wfile.flush()
            h.close_connection = True
            return None
        if mode == "oversized-declared":
            return self.send(h, request, 200, good + b" " * 300_000)
        if mode == "oversized-chunked":  # no Content-Length: the cap must hold while reading
            request.status = 200
            h.send_response(200)
            h.send_header("Content-Type", "text/html")
            h.send_header("Transfer-Encoding", "chunked")
            h.end_headers()
            block = b"x" * 65_536
            try:
                for _ in range(8):
                    h.wfile.write(b"%x\r\n%s\r\n" % (len(block), block))
                h.wfile.write(b"0\r\n\r\n")
            except (BrokenPipeError, ConnectionResetError):
                pass
            h.close_connection = True
            return None
        if mode == "wrong-type":
            return self.send(h, request, 200, b'{"not": "a page"}', "application/json")
        if mode == "html-for-pdf":
            return self.send(h, request, 200, good, "text/html")
        if mode == "empty-page":  # 200 with a page that has no main content: not a good copy
            return self.send(h, request, 200, b"<html><body><nav>menu only</nav></body></html>")
        if mode == "retitled":  # the address now holds a page with another title
            return self.send(h, request, 200, plain_page("Fault test page, renamed", f"Other content for {path}."))
        if mode == "redirect-slash":  # the same page, with a trailing slash
            return self.send(h, request, 301, headers={"Location": path + "/"})
        if mode == "redirect-inside":
            return self.send(h, request, 301, headers={"Location": "/faults/redirect-target"})
        if mode == "redirect-outside":
            host, port = self.server.server_address[:2]
            return self.send(h, request, 302, headers={"Location": f"http://localhost:{port}/faults/offsite-target"})
        if mode == "gone":
            return self.send(h, request, 404, b"not found", "text/plain")
        if mode == "gone-410":
            return self.send(h, request, 410, b"gone", "text/plain")
        raise AssertionError(f"unknown mode {mode}")
