"""The Gemini embedder against a fake batchEmbedContents endpoint on 127.0.0.1 (never the internet)."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import numpy as np
import pytest

pytest.importorskip("google.genai")

from nztax.embedders import GEMINI_DIMENSIONS, EmbedderError, GeminiEmbedder, get_embedder  # noqa: E402

from .conftest import make_settings  # noqa: E402


class FakeGemini:
    def __init__(self, fail_first_with: int | None = None):
        self.requests: list[dict] = []
        self.headers: list[dict] = []
        self.fail_first_with = fail_first_with
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                fake.requests.append({"path": self.path, "body": body})
                fake.headers.append(dict(self.headers))
                if fake.fail_first_with and len(fake.requests) == 1:
                    self._reply(fake.fail_first_with, {"error": {"code": fake.fail_first_with,
                                                                 "message": "slow down", "status": "RESOURCE_EXHAUSTED"}})
                    return
                if not self.path.endswith(":batchEmbedContents"):
                    self._reply(404, {"error": {"code": 404, "message": "unknown", "status": "NOT_FOUND"}})
                    return
                # Vectors of length 2 in the first two coordinates: the client must L2-normalise them.
                embeddings = []
                for i, _ in enumerate(body["requests"]):
                    values = [0.0] * GEMINI_DIMENSIONS
                    values[0], values[1] = 1.2, 1.6 + i
                    embeddings.append({"values": values})
                self._reply(200, {"embeddings": embeddings})

            def _reply(self, status, payload):
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()


def test_documents_are_batched_by_100_with_document_task_type():
    with FakeGemini() as fake:
        embedder = GeminiEmbedder("test-key", base_url=fake.url, timeout_s=5, max_retries=0)
        vectors = embedder.embed_documents([f"chunk {i}" for i in range(150)])
    assert vectors.shape == (150, 768)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert [len(r["body"]["requests"]) for r in fake.requests] == [100, 50]
    first = fake.requests[0]["body"]["requests"][0]
    assert first["taskType"] == "RETRIEVAL_DOCUMENT" and first["outputDimensionality"] == 768
    assert first["content"]["parts"][0]["text"] == "chunk 0"
    assert "gemini-embedding-001" in fake.requests[0]["path"]
    assert fake.headers[0].get("x-goog-api-key") == "test-key"


def test_query_uses_query_task_type_and_is_normalised():
    with FakeGemini() as fake:
        vector = GeminiEmbedder("k", base_url=fake.url, timeout_s=5, max_retries=0).embed_query("tax on 70k")
    assert fake.requests[0]["body"]["requests"][0]["taskType"] == "RETRIEVAL_QUERY"
    assert vector[:2] == pytest.approx([0.6, 0.8])  # (1.2, 1.6) / 2.0


def test_a_query_asked_again_is_not_sent_again_and_its_vector_cannot_be_changed():
    with FakeGemini() as fake:
        embedder = GeminiEmbedder("k", base_url=fake.url, timeout_s=5, max_retries=0)
        first, again = embedder.embed_query("tax on 70k"), embedder.embed_query("tax on 70k")
        embedder.embed_query("tax on 80k")
    assert len(fake.requests) == 2 and np.array_equal(first, again)
    with pytest.raises(ValueError):
        first[0] = 0.0


def test_429_is_retried_with_backoff():
    with FakeGemini(fail_first_with=429) as fake:
        vector = GeminiEmbedder("k", base_url=fake.url, timeout_s=5, max_retries=2, backoff_s=0.01).embed_query("q")
    assert len(fake.requests) == 2 and vector.shape == (768,)


def test_client_error_is_not_retried_and_is_clear():
    with FakeGemini(fail_first_with=400) as fake:
        with pytest.raises(EmbedderError, match="400"):
            GeminiEmbedder("k", base_url=fake.url, timeout_s=5, max_retries=3, backoff_s=0.01).embed_query("q")
    assert len(fake.requests) == 1


def test_get_embedder_picks_gemini_when_a_key_is_set(tmp_path):
    with FakeGemini() as fake:
        settings = make_settings(tmp_path, embedder="auto", gemini_api_key="k", gemini_base_url=fake.url)
        embedder = get_embedder(settings)
    assert embedder.id == "gemini-embedding-001@768" and embedder.dimensions == 768
    with pytest.raises(EmbedderError, match="GEMINI_API_KEY"):
        get_embedder(make_settings(tmp_path, embedder="gemini"))
    with pytest.raises(EmbedderError, match="NZTAX_EMBEDDER"):
        get_embedder(make_settings(tmp_path, embedder="word2vec"))
