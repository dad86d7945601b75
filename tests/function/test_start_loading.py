"""Each server worker starts loading the engine when it comes up, before any question: the query
model is built on its own thread (onnxruntime works without the GIL) and handed to the engine."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from ask_helpers import MAIN, ROOT, function_env
from nztax import embedders
from nztax.settings import get_settings


def _worker_maps(pid: int) -> str:
    text = ""
    for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split():
        try:
            text += Path(f"/proc/{child}/maps").read_text()
        except OSError:
            pass
    return text


def test_a_worker_loads_the_query_model_before_any_question(ask_index):
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {k: v for k, v in os.environ.items() if k not in ("GEMINI_API_KEY", "NZTAX_LLM_MODEL", "NZTAX_LLM_API_BASE")}
    env.update(function_env(ask_index))
    exe = Path(sys.executable).parent / "functions-framework"
    proc = subprocess.Popen([str(exe), "--target", "ask", "--source", str(MAIN), "--port", str(port), "--host", "127.0.0.1"],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 120
        # No request is sent: the worker must load onnxruntime (the query model) on its own.
        while "onnxruntime" not in _worker_maps(proc.pid):
            assert proc.poll() is None, proc.stderr.read().decode()[-2000:]
            assert time.monotonic() < deadline, "the worker did not start loading the engine by itself"
            time.sleep(0.1)
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def test_a_preloaded_model_is_the_one_handed_out_and_embeds_the_same():
    settings = dataclasses.replace(get_settings(), embedder="local", gemini_api_key=None, embed_batch_size=3)
    embedders.preload(settings, embedders.OnnxMiniLMEmbedder.id)
    embedders.preload(settings, embedders.OnnxMiniLMEmbedder.id)  # a second call starts nothing more
    preloaded = embedders.get_embedder(settings, embedders.OnnxMiniLMEmbedder.id)
    fresh = embedders.get_embedder(settings, embedders.OnnxMiniLMEmbedder.id)  # taken once only
    assert preloaded is not fresh
    question = "What is the ACC earners' levy rate?"
    assert np.array_equal(preloaded.embed_query(question), fresh.embed_query(question))


def test_a_remote_embedder_is_not_preloaded():
    settings = dataclasses.replace(get_settings(), embedder="gemini", gemini_api_key="x")
    embedders.preload(settings, None)
    assert not embedders._preloads


def test_the_warm_up_answers_wait_for_the_first_question(make_client):
    """The engine's parts are built before any question; the warm-up answers run only after the
    first question's answer, which they would otherwise slow down."""
    make_client()  # the environment pointing at the fixture index
    from nztax.api import AskService
    from nztax.engine import Engine

    service = AskService()
    service.start_loading()
    deadline = time.monotonic() + 120
    while not getattr(Engine._shared, "parts_built", False):
        assert time.monotonic() < deadline, "the engine's parts were not built by the worker's start"
        time.sleep(0.05)
    engine = Engine._shared
    assert engine._classifier is not None and engine._unit_matcher is not None
    time.sleep(0.3)
    assert not getattr(engine, "warmed_up", False)
    r = service.handle("POST", "/", {"Content-Type": "application/json"}, b'{"question": "What is the ACC earners\' levy?"}')
    assert r.status == 200
    while not getattr(engine, "warmed_up", False):
        assert time.monotonic() < deadline, "the warm-up answers did not follow the first question"
        time.sleep(0.05)


def test_importing_the_function_leaves_the_engines_libraries_to_the_worker():
    """functions-framework imports main.py in the server's first process, before any worker
    exists: whatever it imports there lies on every cold start's path and overlaps nothing. The
    engine's libraries (pydantic for the contract and rules, numpy, faiss, bm25s, the model's
    runtime, markdown) are imported by each worker's loading thread, beside the query model."""
    heavy = ("pydantic", "numpy", "faiss", "bm25s", "onnxruntime", "tokenizers", "markdown_it", "yaml",
             "nztax.contract", "nztax.engine")
    code = f"import sys, main; print(sorted(m for m in {heavy!r} if m in sys.modules))"
    done = subprocess.run([sys.executable, "-c", code], cwd=MAIN.parent, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(MAIN.parent)})
    assert done.returncode == 0, done.stderr[-500:]
    assert done.stdout.strip() == "[]"


def test_the_engines_load_runs_without_garbage_collection_and_leaves_what_it_loaded_frozen():
    """Loading makes ~140,000 long-lived objects; collecting while they are made cost ~55 ms of a
    start. Afterwards collection is on again, and what was loaded is never scanned again."""
    import gc

    from nztax.api import _collection_paused

    assert gc.isenabled()
    frozen_before = gc.get_freeze_count()
    runs = []

    def count(phase, info):
        runs.append(phase)

    gc.callbacks.append(count)
    try:
        with _collection_paused(True):
            assert not gc.isenabled()
            loaded = [[i] for i in range(5000)]  # more than a collection's threshold of new objects
        assert runs == []
        assert gc.isenabled()
        assert gc.get_freeze_count() >= frozen_before + len(loaded)
        with _collection_paused(False):  # an engine handed in (tests): collection is left alone
            assert gc.isenabled()
        gc.disable()
        with _collection_paused(True):  # already off (someone else's choice): left off
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
        gc.callbacks.remove(count)
        gc.unfreeze()
