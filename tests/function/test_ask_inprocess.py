"""POST /ask in process: the contract, every error status, CORS, the rate limit and the log line."""

from __future__ import annotations

import json

ORIGIN = "https://nztax.example"
CONTRACT_KEYS = {"status", "answer", "answer_html", "citations", "tools", "tax_year", "disclaimer", "next_actions", "source", "mode", "latency_ms"}


def error_of(response):
    body = response.get_json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}
    assert "Traceback" not in response.get_data(as_text=True)
    return body["error"]["code"]


def test_answer_contract(make_client, capsys):
    client = make_client()
    r = client.post("/", json={"question": "How much tax do I pay on $85,000?"}, headers={"Origin": ORIGIN})
    assert r.status_code == 200 and r.headers["Access-Control-Allow-Origin"] == ORIGIN
    assert "Retry-After" in r.headers["Access-Control-Expose-Headers"]  # the Ask box reads it on a 429
    body = r.get_json()
    assert set(body) == CONTRACT_KEYS
    assert body["status"] == "answered" and body["mode"] == "offline" and body["source"] == "engine"
    assert "$17,927.50" in body["answer"]  # 85,000 x 33% - 10,122.50
    line = json.loads([ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("{")][-1])
    assert line["http_status"] == 200 and line["status"] == "answered" and line["tools"] == ["calculate_income_tax"]
    assert line["mode"] == "offline" and "latency_ms" in line and "question" not in line


def test_ask_path_history_and_tax_year(make_client):
    client = make_client()
    r = client.post("/ask", json={"question": "What about with a student loan?", "tax_year": "2026-27",
                                  "history": [{"question": "How much tax on $85k?", "answer": "$17,927.50"}]})
    assert r.status_code == 200 and "$7,304.64" in r.get_json()["answer"]


def test_bad_requests_are_400(make_client):
    client = make_client()
    cases = [
        (dict(data="{bad", content_type="application/json"), "invalid_json"),
        (dict(data="[1, 2]", content_type="application/json"), "invalid_json"),
        (dict(data='{"question": "hi"}', content_type="text/plain"), "unsupported_content_type"),
        (dict(json={}), "missing_question"),
        (dict(json={"question": "   "}), "missing_question"),
        (dict(json={"question": 42}), "missing_question"),
        (dict(json={"question": "x" * 1001}), "question_too_long"),
        (dict(json={"question": "tax?", "tax_year": "2026"}), "bad_tax_year"),
        (dict(json={"question": "tax?", "tax_year": "2026-28"}), "bad_tax_year"),
        (dict(json={"question": "tax?", "tax_year": "2019-20"}), "bad_tax_year"),
        (dict(json={"question": "tax?", "history": "no"}), "bad_history"),
        (dict(json={"question": "tax?", "history": [{"question": "q", "answer": "a"}] * 6}), "bad_history"),
        (dict(json={"question": "tax?", "history": [{"question": "q", "answer": "a" * 5000}]}), "bad_history"),
        (dict(json={"question": "tax?", "history": [{"answer": "a"}]}), "bad_history"),
    ]
    for kwargs, code in cases:
        r = client.post("/", **kwargs)
        assert r.status_code == 400, (kwargs, r.get_data(as_text=True))
        assert error_of(r) == code


def test_method_size_and_path(make_client):
    client = make_client()
    r = client.get("/")
    assert r.status_code == 405 and error_of(r) == "method_not_allowed" and "POST" in r.headers["Allow"]
    r = client.put("/", json={"question": "x"})
    assert r.status_code == 405
    r = client.post("/", data=json.dumps({"question": "x" * 20_000}), content_type="application/json")
    assert r.status_code == 413 and error_of(r) == "body_too_large"
    r = client.post("/elsewhere", json={"question": "x"})
    assert r.status_code == 404


def test_cors_preflight_and_allow_list(make_client):
    client = make_client()
    r = client.options("/", headers={"Origin": ORIGIN, "Access-Control-Request-Method": "POST"})
    assert r.status_code == 204
    assert r.headers["Access-Control-Allow-Origin"] == ORIGIN
    assert "POST" in r.headers["Access-Control-Allow-Methods"] and r.headers["Access-Control-Max-Age"] == "3600"
    r = client.post("/", json={"question": "What is PAYE?"}, headers={"Origin": "https://evil.example"})
    assert r.status_code == 200 and "Access-Control-Allow-Origin" not in r.headers


def test_rate_limit_answers_429_with_retry_after(make_client):
    client = make_client(NZTAX_RATE_LIMIT_PER_MINUTE="2", NZTAX_TRUSTED_PROXY_DEPTH="1")  # as deployed
    headers = {"X-Forwarded-For": "203.0.113.7"}
    codes = [client.post("/", json={"question": "What is PAYE?"}, headers=headers).status_code for _ in range(3)]
    assert codes == [200, 200, 429]
    r = client.post("/", json={"question": "What is PAYE?"}, headers=headers)
    assert error_of(r) == "rate_limited" and int(r.headers["Retry-After"]) >= 1
    # another client is not affected
    assert client.post("/", json={"question": "What is PAYE?"}, headers={"X-Forwarded-For": "198.51.100.1"}).status_code == 200


def test_a_forged_forwarded_for_does_not_escape_the_rate_limit(make_client):
    """Issue 14: the limit used to trust the last X-Forwarded-For entry, whoever wrote it."""
    client = make_client(NZTAX_RATE_LIMIT_PER_MINUTE="2")  # no trusted proxy: the socket peer is the client
    codes = [client.post("/", json={"question": "What is PAYE?"}, headers={"X-Forwarded-For": f"10.0.0.{i}"}).status_code
             for i in range(4)]
    assert codes.count(429) == 2
    behind_front_end = make_client(NZTAX_RATE_LIMIT_PER_MINUTE="2", NZTAX_TRUSTED_PROXY_DEPTH="1")
    # the client writes entries of its own; the front end appends the address it really saw
    codes = [behind_front_end.post("/", json={"question": "What is PAYE?"},
                                   headers={"X-Forwarded-For": f"10.0.0.{i}, 203.0.113.9"}).status_code for i in range(4)]
    assert codes.count(429) == 2


def test_calculations_answer_while_the_index_is_missing(make_client, tmp_path):
    """Issue 14: a calculator-only question needs no index."""
    client = make_client(index_dir=tmp_path / "no-index")
    r = client.post("/", json={"question": "How much tax on $50,000?"})
    # 2026-27: 15,600 x 10.5% + 34,400 x 17.5% = $7,658.00
    assert r.status_code == 200 and "$7,658" in r.get_json()["answer"]


def test_missing_index_is_503_and_recovers(make_client, tmp_path, ask_index):
    client = make_client(index_dir=tmp_path / "no-index")
    r = client.post("/", json={"question": "What is the ACC earners' levy for?"})
    assert r.status_code == 503 and error_of(r) == "index_unavailable"
    assert str(tmp_path) not in r.get_data(as_text=True)  # no server paths in the message


def test_mismatched_index_is_503(make_client, tmp_path, ask_index):
    import shutil

    broken = tmp_path / "index"
    shutil.copytree(ask_index, broken)
    manifest = json.loads((broken / "manifest.json").read_text())
    manifest["embedder_id"] = "some-other-embedder"
    (broken / "manifest.json").write_text(json.dumps(manifest))
    r = make_client(index_dir=broken).post("/", json={"question": "What is PAYE?"})
    assert r.status_code == 503 and error_of(r) == "index_unavailable"
