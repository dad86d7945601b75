"""`nztax build` parse + chunk stages: outputs, skipping unchanged inputs, --only, --force, errors."""

from __future__ import annotations

import io
import json
from dataclasses import replace
from pathlib import Path

import pytest

from nztax.settings import get_settings
from nztax_build import pipeline
from nztax_build.sources import load_sources
from nztax_build.store import CrawlStore

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
SITE = FIXTURES / "crawl_site"
OWN_STAGES = ["nztax_build.pipeline:PARSE_STAGE", "nztax_build.pipeline:CHUNK_STAGE"]


def _mirror_file(url: str) -> Path:
    path = url.split("/", 3)[3]
    return SITE / (path if Path(path).suffix else f"{path}.html")


def write_corpus(corpus: Path) -> CrawlStore:
    store = CrawlStore(corpus, gone_threshold=2)
    for source in load_sources(FIXTURES / "sources_small.yaml"):
        content_type = "application/pdf" if source.url.endswith(".pdf") else "text/html"
        store.save_page(source.url, _mirror_file(source.url).read_bytes(), content_type, source.source_type,
                        source.title, "2026-11-21T03:00:00Z")
    store.write_manifest()
    return store


@pytest.fixture
def settings(tmp_path, monkeypatch):
    monkeypatch.setattr(pipeline, "STAGES", list(OWN_STAGES))  # later issues' stages are not under test here
    return replace(get_settings(), corpus_dir=tmp_path / "corpus", work_dir=tmp_path / "work")


def build(settings, **kwargs) -> tuple[int, str]:
    log = io.StringIO()
    code = pipeline.run_build(settings, log_stream=log, **kwargs)
    return code, log.getvalue()


def test_build_turns_the_crawl_into_documents_parents_and_children(settings):
    write_corpus(settings.corpus_dir)
    code, log = build(settings)
    assert code == 0, log
    docs = sorted((settings.work_dir / "documents").glob("*.json"))
    assert len(docs) == 5
    parents = [json.loads(line) for line in (settings.work_dir / "chunks" / "parents.jsonl").read_text().splitlines()]
    children = [json.loads(line) for line in (settings.work_dir / "chunks" / "children.jsonl").read_text().splitlines()]
    assert {p["source_type"] for p in parents} == {"ird_guidance", "legislation", "qwba", "guide_pdf"}
    assert {c["parent_id"] for c in children} <= {p["id"] for p in parents}
    assert all(c["crawl_date"] == "2026-11-21" for c in children)
    questions = [p["section"] for p in parents if p["source_type"] == "guide_pdf"]
    assert questions[1:] == ["Question 1 Your IRD number", "Question 2 Income from salary and wages",
                             "Question 3 Interest and dividends", "Question 4 Refunds"]
    assert "LC 15 Independent earner tax credit" in [p["section"] for p in parents]
    state = json.loads((settings.work_dir / "state" / "parse.json").read_text())
    assert state["summary"]["pages"] == 5 and state["summary"]["failed"] == [] and state["summary"]["parsed"] == 5
    assert "[parse] done" in log and "[chunk] done" in log


def test_second_build_skips_unchanged_stages_and_force_reruns(settings):
    write_corpus(settings.corpus_dir)
    build(settings)
    code, log = build(settings)
    assert code == 0 and "[parse] inputs unchanged, skipped" in log and "[chunk] inputs unchanged, skipped" in log
    code, log = build(settings, force=True)
    assert "[parse] running" in log and "reparsed 5" in log


def test_changed_page_is_the_only_one_parsed_again(settings):
    store = write_corpus(settings.corpus_dir)
    build(settings)
    url = "https://www.ird.govt.nz/kiwisaver/kiwisaver-individuals/making-contributions"
    body = _mirror_file(url).read_bytes().replace(b"up to $260.72 a year", b"up to $260.72 each year")
    store.save_page(url, body, "text/html", "ird_guidance", "Making KiwiSaver contributions", "2026-11-22T03:00:00Z")
    store.write_manifest()
    code, log = build(settings)
    assert code == 0 and "reparsed 1, unchanged 4" in log and "[chunk] done" in log
    children = (settings.work_dir / "chunks" / "children.jsonl").read_text()
    assert "$260.72 each year" in children


def test_refreshed_crawl_date_is_carried_without_reparsing(settings):
    store = write_corpus(settings.corpus_dir)
    build(settings)
    url = "https://www.ird.govt.nz/income-tax/income-tax-for-individuals/tax-codes-and-tax-rates-for-individuals/tax-rates-for-individuals"
    store.mark_not_modified(url, "2026-11-23T03:00:00Z")
    store.write_manifest()
    code, log = build(settings)
    assert "reparsed 0, unchanged 5" in log
    parents = (settings.work_dir / "chunks" / "parents.jsonl").read_text().splitlines()
    assert any(json.loads(p)["crawl_date"] == "2026-11-23" for p in parents)


def test_inactive_pages_are_dropped_from_the_build(settings):
    store = write_corpus(settings.corpus_dir)
    build(settings)
    store.mark_inactive("https://www.ird.govt.nz/media/forms-and-guides/ir3g.pdf")
    store.write_manifest()
    code, log = build(settings)
    assert "removed 1" in log
    assert "guide_pdf" not in (settings.work_dir / "chunks" / "parents.jsonl").read_text()


def test_only_and_unknown_stage(settings):
    write_corpus(settings.corpus_dir)
    code, log = build(settings, only="parse")
    assert code == 0 and "[chunk]" not in log
    code, log = build(settings, only="chunk")
    assert code == 0 and "[chunk] done" in log
    code, log = build(settings, only="render")
    assert code == 2 and "unknown stage 'render'; available: parse, chunk" in log


def test_missing_manifest_is_a_clear_failure(settings):
    code, log = build(settings)
    assert code == 1 and "no crawl manifest" in log and "nztax crawl" in log


def test_stage_from_a_module_not_written_yet_is_skipped_with_a_message(settings, monkeypatch):
    monkeypatch.setattr(pipeline, "STAGES", OWN_STAGES + ["nztax_build.not_written_yet:STAGE"])
    write_corpus(settings.corpus_dir)
    code, log = build(settings)
    assert code == 0 and "stage nztax_build.not_written_yet:STAGE not available yet" in log


def test_nztax_build_command(settings, monkeypatch, capsys):
    from nztax_build.cli import main

    write_corpus(settings.corpus_dir)
    monkeypatch.setenv("NZTAX_CORPUS_DIR", str(settings.corpus_dir))
    monkeypatch.setenv("NZTAX_WORK_DIR", str(settings.work_dir))
    get_settings.cache_clear()
    try:
        assert main(["build", "--only", "parse"]) == 0
    finally:
        get_settings.cache_clear()
    assert "[parse] done" in capsys.readouterr().err
