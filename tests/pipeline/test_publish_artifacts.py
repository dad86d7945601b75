"""Publish reads the artifacts themselves, not only their manifests (issue 42).

An index whose `dense.faiss` or `chunks.json` was cut in half, a site whose pages were cut short or
whose FAQ pages lost their answers: each was published with exit 0 while only `manifest.json`,
`index.html` and the sitemap were read. Now the index must load and answer a fixed set of questions
in a fresh process, and every site page must be whole, or the live copy stays and the publish
exits non-zero. A damaged chunk file is rebuilt by a plain `nztax build`.
"""

from __future__ import annotations

import dataclasses
import io
import shutil
from pathlib import Path

import pytest

from nztax.settings import get_settings
from nztax_build import pipeline, publish

ROOT = Path(__file__).resolve().parents[2]
FIXTURE_CHUNKS = ROOT / "tests" / "fixtures" / "chunks_small"


def cut_in_half(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


@pytest.fixture(scope="module")
def built_index(tmp_path_factory) -> Path:
    from nztax_build.indexer import embed_and_index

    tmp = tmp_path_factory.mktemp("publish_index")
    settings = dataclasses.replace(get_settings(), work_dir=tmp / "work", index_dir=tmp / "index", embedder="local",
                                   gemini_api_key=None, llm_model=None)
    report = embed_and_index(settings, force=True, chunks_dir=FIXTURE_CHUNKS, publish=False)
    return report.index_dir


@pytest.fixture
def live_index(built_index, tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("NZTAX_EMBEDDER", "local")
    live = tmp_path / "index"
    publish.publish(copy(built_index, tmp_path / "first.new"), live, publish.validate_index_answers)
    return live


def copy(source: Path, target: Path) -> Path:
    shutil.copytree(source, target)
    return target


def test_an_index_with_half_its_vectors_is_not_published(live_index, built_index, tmp_path):
    before = (live_index / "dense.faiss").read_bytes()
    damaged = copy(built_index, tmp_path / "cut.new")
    cut_in_half(damaged / "dense.faiss")
    with pytest.raises(publish.PublishError, match="does not answer"):
        publish.publish(damaged, live_index, publish.validate_index_answers)
    assert (live_index / "dense.faiss").read_bytes() == before


def test_an_index_with_half_its_chunks_is_refused_by_the_command_line(live_index, built_index, tmp_path, capsys):
    before = (live_index / "chunks.json").read_bytes()
    damaged = copy(built_index, tmp_path / "cut.new")
    cut_in_half(damaged / "chunks.json")
    assert publish.main(["publish", str(damaged), str(live_index), "--kind", "index"]) == 1
    assert "does not answer" in capsys.readouterr().err
    assert (live_index / "chunks.json").read_bytes() == before


# -- the site --------------------------------------------------------------------------------

PAGE = '<!doctype html>\n<html lang="en"><head><title>{title}</title></head><body><main>{body}</main></body></html>\n'
FAQ_PAGES = [f"faq/acc-levy/question-{i}/" for i in range(6)]


def site_build(path: Path, answer: str = "<p>The ACC earners' levy is 1.75% of liable earnings.</p>") -> Path:
    pages = ["", "faq/", *FAQ_PAGES]
    urls = "".join(f"<url><loc>https://nztax.example.invalid/{p}</loc></url>" for p in pages)
    path.mkdir(parents=True)
    (path / "sitemap.xml").write_text(f'<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{urls}</urlset>')
    for page in pages:
        target = path / page / "index.html"
        target.parent.mkdir(parents=True, exist_ok=True)
        body = f'<h1>{page or "Home"}</h1>' + (f'<div class="nz-answer">\n{answer}\n</div>' if page in FAQ_PAGES else "")
        target.write_text(PAGE.format(title=page or "Home", body=body))
    return path


@pytest.mark.parametrize("damage, reason", [
    (lambda build: cut_in_half(build / FAQ_PAGES[2] / "index.html"), "cut short"),
    (lambda build: cut_in_half(build / "index.html"), "cut short"),
    (lambda build: (build / FAQ_PAGES[3] / "index.html").write_text(PAGE.format(title="q", body='<div class="nz-answer">\n\n</div>')),
     "answer is empty"),
    (lambda build: (build / FAQ_PAGES[4] / "index.html").write_text(PAGE.format(title="q", body="<h1>q</h1>")),
     "without its answer"),
])
def test_a_damaged_site_is_not_published(tmp_path, capsys, damage, reason):
    live = tmp_path / "site"
    publish.publish(site_build(tmp_path / "site.new"), live, publish.validate_site)
    before = {p: p.read_bytes() for p in live.rglob("*.html")}
    damage(site_build(tmp_path / "damaged.new"))
    assert publish.main(["publish", str(tmp_path / "damaged.new"), str(live), "--kind", "site"]) == 1
    assert reason in capsys.readouterr().err
    assert {p: p.read_bytes() for p in live.rglob("*.html")} == before


# -- an intermediate file --------------------------------------------------------------------

def test_a_damaged_chunk_file_is_rebuilt_by_a_plain_build(tmp_path, monkeypatch):
    from tests.parse.test_pipeline import OWN_STAGES, write_corpus

    monkeypatch.setattr(pipeline, "STAGES", list(OWN_STAGES))
    settings = dataclasses.replace(get_settings(), corpus_dir=tmp_path / "corpus", work_dir=tmp_path / "work")
    write_corpus(settings.corpus_dir)
    assert pipeline.run_build(settings, log_stream=io.StringIO()) == 0
    children = settings.work_dir / "chunks" / "children.jsonl"
    good = children.read_bytes()
    cut_in_half(children)

    log = io.StringIO()
    assert pipeline.run_build(settings, log_stream=log) == 0, log.getvalue()
    assert "running it again" in log.getvalue()
    assert children.read_bytes() == good
