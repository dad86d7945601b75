"""`nztax build` (parse + chunk) over the bundled snapshot: every page gives parents and children,
legislation provisions keep their ids, and no parser warning is raised."""

from __future__ import annotations

import io
import json
from dataclasses import replace

import pytest

from nztax.settings import get_settings
from nztax_build import pipeline

from .conftest import CORPUS

MIN_LEGISLATION_SECTIONS = 15  # issue 4: at least 15 legislation sections


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    work = tmp_path_factory.mktemp("work")
    settings = replace(get_settings(), corpus_dir=CORPUS, work_dir=work)
    stages = pipeline.STAGES
    pipeline.STAGES = ["nztax_build.pipeline:PARSE_STAGE", "nztax_build.pipeline:CHUNK_STAGE"]
    try:
        log = io.StringIO()
        code = pipeline.run_build(settings, log_stream=log)
    finally:
        pipeline.STAGES = stages
    return code, log.getvalue(), work


def _lines(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_snapshot_parses_without_warnings_or_failures(built):
    code, log, work = built
    assert code == 0, log
    summary = json.loads((work / "state" / "parse.json").read_text())["summary"]
    assert summary["failed"] == [] and summary["warnings"] == [], summary
    assert "WARNING" not in log


def test_every_page_has_parents_and_children(built):
    _, _, work = built
    manifest = json.loads((CORPUS / "manifest.json").read_text())
    urls = {p["url"] for p in manifest["pages"] if p["status"] == "active"}
    parents = _lines(work / "chunks" / "parents.jsonl")
    children = _lines(work / "chunks" / "children.jsonl")
    assert {p["url"] for p in parents} == urls
    assert {c["url"] for c in children} == urls
    assert {c["parent_id"] for c in children} == {p["id"] for p in parents}  # no parent without a child


def test_legislation_sections_keep_their_ids(built):
    _, _, work = built
    documents = [json.loads(p.read_text()) for p in (work / "documents").glob("*.json")]
    anchors = [s["anchor"] for d in documents if d["source_type"] == "legislation" for s in d["sections"] if s["anchor"]]
    assert len(anchors) >= MIN_LEGISLATION_SECTIONS
    assert {"LC 15", "YA 1"} <= set(anchors)
