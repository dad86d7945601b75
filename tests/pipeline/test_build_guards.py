"""A damaged or interrupted build never replaces, or strips, the live index or site (issue 14).

Each case fails on a pipeline that publishes whatever the chunk files hold, publishes the index
before its FAQ answers exist, trips over a damaged document file, or accepts any site build that
has an index.html.
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
import json
import shutil
from pathlib import Path

import pytest
import yaml

from nztax.settings import get_settings
from nztax_build import faq, pipeline, publish

ROOT = Path(__file__).resolve().parents[2]
FIXTURE_CHUNKS = ROOT / "tests" / "fixtures" / "chunks_small"
QUESTIONS = {"topics": {"acc-levy": {"title": "ACC earners' levy", "intro": "", "questions": [
    "What is the ACC earners' levy rate for 2026-27?",
    "How much tax do I pay on $65,000 a year?",
]}}}
INDEX_STAGES = ["nztax_build.indexer:INDEX_STAGE", "nztax_build.faq:FAQ_STAGE", "nztax_build.indexer:PUBLISH_STAGE"]


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setattr(pipeline, "STAGES", list(INDEX_STAGES))
    (tmp_path / "site_src").mkdir()
    (tmp_path / "site_src" / "faq_questions.yaml").write_text(yaml.safe_dump(QUESTIONS))
    shutil.copytree(FIXTURE_CHUNKS, tmp_path / "work" / "chunks")
    write_chunk_summary(tmp_path / "work" / "chunks")
    return dataclasses.replace(get_settings(), home=tmp_path, index_dir=tmp_path / "index", work_dir=tmp_path / "work",
                               site_src=tmp_path / "site_src", units_dir=tmp_path / "site_src" / "faq_questions.yaml",
                               embedder="local", gemini_api_key=None, llm_model=None)


def write_chunk_summary(chunks: Path) -> None:
    """What the chunk stage records beside its files (docs/architecture.md)."""
    summary = {"sha256": {}}
    for name in ("parents", "children"):
        data = (chunks / f"{name}.jsonl").read_bytes()
        summary[name] = sum(1 for line in data.splitlines() if line.strip())
        summary["sha256"][name] = hashlib.sha256(data).hexdigest()
    (chunks / "chunks.json").write_text(json.dumps(summary))


def build(settings, **kwargs) -> tuple[int, str]:
    log = io.StringIO()
    return pipeline.run_build(settings, log_stream=log, **kwargs), log.getvalue()


def keep_children(chunks: Path, share: float) -> None:
    """Cut children.jsonl at a line boundary, keeping the first `share` of its lines."""
    lines = (chunks / "children.jsonl").read_text().splitlines(keepends=True)
    (chunks / "children.jsonl").write_text("".join(lines[: int(len(lines) * share)]))


def live_state(settings) -> tuple[dict, int]:
    manifest = json.loads((settings.index_dir / "manifest.json").read_text())
    return manifest, len(json.loads((settings.index_dir / "faq.json").read_text()))


def test_a_chunk_file_cut_at_a_line_boundary_is_refused_and_the_live_index_stays(home):
    code, log = build(home)
    assert code == 0, log
    before = live_state(home)
    assert before[1] > 0

    keep_children(home.work_dir / "chunks", 0.6)
    code, log = build(home)
    assert code == 1 and "damaged chunk file" in log, log
    assert live_state(home) == before


def test_a_much_smaller_index_is_not_published_unless_allowed(home):
    assert build(home)[0] == 0
    before = live_state(home)
    chunks = home.work_dir / "chunks"
    keep_children(chunks, 0.6)
    write_chunk_summary(chunks)  # consistent files: a real shrink, or a damaged source upstream

    code, log = build(home)
    assert code == 1 and "fell from" in log and "--allow-shrink" in log, log
    assert live_state(home) == before

    code, log = build(home, allow_shrink=True)
    assert code == 0, log
    manifest, answers = live_state(home)
    assert manifest["counts"]["children"] < before[0]["counts"]["children"] and answers > 0


def test_a_build_that_dies_in_the_faq_stage_leaves_the_live_index_with_its_answers(home, monkeypatch):
    assert build(home)[0] == 0
    before = live_state(home)
    chunks = home.work_dir / "chunks"
    keep_children(chunks, 0.95)  # a small change: a new index is built and staged
    write_chunk_summary(chunks)

    class Dies:
        def answer(self, *args, **kwargs):
            raise KeyboardInterrupt  # the process is killed while the FAQ is being answered

    monkeypatch.setattr(faq, "default_engine_factory", lambda settings: lambda: Dies())
    with pytest.raises(KeyboardInterrupt):
        build(home)
    assert live_state(home) == before  # same index, FAQ answers still there
    assert (home.index_dir.with_name("index.new") / "manifest.json").exists()

    monkeypatch.undo()
    pipeline.STAGES[:] = INDEX_STAGES
    code, log = build(home)
    assert code == 0, log
    manifest, answers = live_state(home)
    assert manifest["corpus_hash"] != before[0]["corpus_hash"] and answers == before[1]


def test_a_damaged_document_file_is_parsed_again_by_a_plain_build(tmp_path, monkeypatch):
    from tests.parse.test_pipeline import OWN_STAGES, write_corpus

    monkeypatch.setattr(pipeline, "STAGES", list(OWN_STAGES))
    settings = dataclasses.replace(get_settings(), corpus_dir=tmp_path / "corpus", work_dir=tmp_path / "work")
    write_corpus(settings.corpus_dir)
    assert build(settings)[0] == 0
    victim = sorted((settings.work_dir / "documents").glob("*.json"))[0]
    good = json.loads(victim.read_text())
    victim.write_text(victim.read_text()[:200])  # cut short, as by a full disk or a kill

    code, log = build(settings)
    assert code == 0, log
    assert "Traceback" not in log
    assert json.loads(victim.read_text())["sections"] == good["sections"]
    assert json.loads((settings.work_dir / "state" / "parse.json").read_text())["summary"]["reparsed"] == 1


def site_build(path: Path, pages: list[str], present: int | None = None) -> Path:
    """A site whose sitemap lists `pages`; only the first `present` of them are written."""
    path.mkdir(parents=True)
    urls = "".join(f"<url><loc>https://nztax.example.invalid/{p}</loc></url>" for p in pages)
    (path / "sitemap.xml").write_text(f'<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{urls}</urlset>')
    for page in pages[: len(pages) if present is None else present]:
        target = path / page / "index.html" if page.endswith("/") or not page else path / page
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(f"<html>{page}</html>")
    return path


def test_a_half_built_site_is_not_published(tmp_path):
    pages = [""] + [f"faq/q{i}/" for i in range(265)]
    live = tmp_path / "site"
    publish.publish(site_build(tmp_path / "site.new", pages), live, publish.validate_site)
    with pytest.raises(publish.PublishError, match="half-built"):
        publish.publish(site_build(tmp_path / "half.new", pages, present=118), live, publish.validate_site)
    assert len(list(live.rglob("index.html"))) == 266


def test_a_site_much_smaller_than_the_live_one_needs_allow_shrink(tmp_path, capsys):
    live = tmp_path / "site"
    publish.publish(site_build(tmp_path / "site.new", [""] + [f"faq/q{i}/" for i in range(265)]), live, publish.validate_site)
    small = [""] + [f"faq/q{i}/" for i in range(117)]  # consistent on its own, but 55% smaller
    site_build(tmp_path / "small.new", small)
    assert publish.main(["publish", str(tmp_path / "small.new"), str(live), "--kind", "site"]) == 1
    assert "NZTAX_PUBLISH_MAX_SHRINK" in capsys.readouterr().err
    assert len(list(live.rglob("index.html"))) == 266
    assert publish.main(["publish", str(tmp_path / "small.new"), str(live), "--kind", "site", "--allow-shrink"]) == 0
    assert len(list(live.rglob("index.html"))) == 118
