"""Cloud Functions / Cloud Run entry point: `functions-framework --target ask --source function/main.py`.

In: an HTTP request (POST / or /ask with a JSON body). Out: the /ask JSON answer or a JSON error.
All the rules live in `nztax.api.AskService`; this file only adapts Flask to it. Imports stay
light (no index, no model, no litellm) so an instance starts fast; each server worker starts
loading the engine in the background as soon as it is up (the first question waits for the rest).
"""

from __future__ import annotations

import json
import os
import sys
import threading
from pathlib import Path

# Deployed, this directory holds `nztax/`; in the repository it is function/, next to main.py.
sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
# bm25s then uses no progress bars (the function shows none) and never imports tqdm, whose
# `tqdm.auto` imports asyncio, nor the multiprocessing lock tqdm takes on first use: ~50 ms of a start.
os.environ.setdefault("DISABLE_TQDM", "1")

from nztax import compiled_re  # noqa: E402
from nztax.settings import get_settings  # noqa: E402

# Read by OpenBLAS when numpy loads (in the worker, after this): see NZTAX_BLAS_THREADS.
os.environ.setdefault("OPENBLAS_NUM_THREADS", str(get_settings().blas_threads))

# Before anything compiles its patterns: `re` takes the build's precompiled ones (nztax/compiled_re.py).
compiled_re.install(get_settings().index_dir)

import functions_framework  # noqa: E402
from flask import Request, Response  # noqa: E402

from nztax import server  # noqa: E402
from nztax.api import MAX_BODY_BYTES, AskService, error_body  # noqa: E402

_service: AskService | None = None
_service_lock = threading.Lock()


def service() -> AskService:
    global _service
    if _service is None:
        with _service_lock:
            if _service is None:
                _service = AskService()
    return _service


def _start_loading() -> None:
    service().start_loading()


# JSON error pages, read timeouts and threads for functions-framework's gunicorn; each worker
# starts loading the engine as soon as it is up, not when the first question arrives.
server.install(on_worker_start=_start_loading)


@functions_framework.http
def ask(request: Request) -> Response:
    body: bytes | None = None
    too_large = False
    if request.method == "POST":
        declared = request.content_length
        if declared is not None and declared > MAX_BODY_BYTES:
            too_large = True
        else:
            # Read at most one byte past the limit: a chunked body without a length is capped too.
            try:
                body = request.stream.read(MAX_BODY_BYTES + 1)
            except TimeoutError:
                return _json_error(408, "request_timeout", "the request body stopped arriving; send it again")
            except Exception:  # a malformed chunked body, a reset connection: the client's fault
                return _json_error(400, "unreadable_body", "the request body could not be read")
            too_large = len(body) > MAX_BODY_BYTES
    result = service().handle(request.method, request.path, request.headers, body, too_large, request.remote_addr)
    payload = "" if result.body is None else json.dumps(result.body, ensure_ascii=False)
    if too_large:
        return _unread_body_response(payload, result.status, result.headers)
    return Response(payload, status=result.status, headers=result.headers)


def _json_error(status: int, code: str, message: str) -> Response:
    return _unread_body_response(json.dumps(error_body(code, message)), status, {"Content-Type": "application/json"})


def _unread_body_response(payload: str, status: int, headers: dict) -> Response:
    """A response sent without reading the rest of the request body.

    functions-framework reads the whole body after every non-streamed response (its
    `read_request` hook), which would buffer a 200 MiB upload, or wait on a stalled one, before
    the answer leaves; a streamed response skips that hook, and closing the connection means the
    unread bytes are never parsed as a next request.
    """
    response = Response(iter([payload]), status=status, headers=headers, mimetype="application/json")
    response.headers["Connection"] = "close"
    return response
