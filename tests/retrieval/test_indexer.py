"""Index build: vector cache, skip when unchanged, validation, atomic publish, mismatch refusal."""

from __future__ import annotations

import json
import shutil

import pytest

from nztax.index import IndexMismatchError, IndexMissingError, read_manifest
from nztax.retrieval import Retriever
from nztax_build import indexer
from nztax_build.indexer import IndexBuildError, embed_and_index

from .conftest import FIXTURE_CHUNKS, HashEmbedder, make_settings


def copy_chunks(tmp_path):
    target = tmp_path / "chunks"
    shutil.copytree(FIXTURE_CHUNKS, target)
    return target


def test_cache_embeds_only_changed_chunks(tmp_path):
    settings = make_settings(tmp_path)
    chunks = copy_chunks(tmp_path)
    first = HashEmbedder()
    report = embed_and_index(settings, chunks_dir=chunks, embedder=first)
    n = report.children
    assert report.embedded == n and len(first.embedded) == n

    # Change the text of one child: only that chunk goes to the embedder.
    lines = (chunks / "children.jsonl").read_text().splitlines()
    changed = json.loads(lines[3])
    changed["text"] += " (updated)"
    lines[3] = json.dumps(changed)
    (chunks / "children.jsonl").write_text("\n".join(lines) + "\n")
    second = HashEmbedder()
    report = embed_and_index(settings, chunks_dir=chunks, embedder=second)
    assert (report.embedded, report.cached) == (1, n - 1)
    assert second.embedded == [changed["text"]]


def test_unchanged_corpus_is_skipped_unless_forced(tmp_path):
    settings = make_settings(tmp_path)
    embed_and_index(settings, chunks_dir=FIXTURE_CHUNKS, embedder=HashEmbedder())
    built_at = read_manifest(settings.index_dir).built_at
    assert embed_and_index(settings, chunks_dir=FIXTURE_CHUNKS, embedder=HashEmbedder()).skipped
    assert not embed_and_index(settings, force=True, chunks_dir=FIXTURE_CHUNKS, embedder=HashEmbedder()).skipped
    assert read_manifest(settings.index_dir).built_at >= built_at


def test_manifest_records_what_the_reader_needs(built_index):
    _, index_dir = built_index
    manifest = read_manifest(index_dir)
    assert manifest.embedder_id == "all-MiniLM-L6-v2-onnx-int8" and manifest.dimensions == 384
    assert manifest.counts == {"parents": 21, "children": 29}
    assert len(manifest.corpus_hash) == 64 and manifest.built_at.endswith("Z")
    assert manifest.bm25.stemmer == "english" and manifest.bm25.heading_repeat == 3
    assert manifest.format == 2


def test_bm25_text_boosts_the_heading():
    from nztax.index import BM25Settings, bm25_document_text

    child = {"title": "Tax codes", "section": "Secondary codes", "text": "Tax codes > Secondary codes\n\nSB is 10.5%."}
    text = bm25_document_text(child, BM25Settings(heading_repeat=2))
    assert text == "Tax codes Secondary codes Tax codes Secondary codes " + child["text"]
    assert bm25_document_text(child, BM25Settings(heading_repeat=0)) == child["text"]


def test_failed_build_leaves_the_last_good_index(tmp_path, monkeypatch):
    settings = make_settings(tmp_path)
    embed_and_index(settings, chunks_dir=FIXTURE_CHUNKS, embedder=HashEmbedder())
    good = read_manifest(settings.index_dir)

    def broken(*args, **kwargs):
        raise IndexBuildError("new index failed validation: simulated")

    monkeypatch.setattr(indexer, "validate_index", broken)
    chunks = copy_chunks(tmp_path)
    with open(chunks / "children.jsonl", "a") as handle:
        handle.write(json.dumps({"id": "c_new", "parent_id": json.loads(
            (chunks / "parents.jsonl").read_text().splitlines()[0])["id"], "url": "u", "title": "t",
            "text": "a brand new chunk"}) + "\n")
    with pytest.raises(IndexBuildError, match="simulated"):
        embed_and_index(settings, chunks_dir=chunks, embedder=HashEmbedder())
    assert read_manifest(settings.index_dir) == good
    assert not settings.index_dir.with_name("index.new").exists()
    assert not settings.index_dir.with_name("index.prev").exists()  # nothing was switched
    Retriever.load(settings.index_dir, settings=settings, embedder=HashEmbedder())  # still loads


def test_publish_keeps_the_previous_index_for_rollback(tmp_path):
    from nztax_build.publish import rollback

    settings = make_settings(tmp_path)
    embed_and_index(settings, chunks_dir=FIXTURE_CHUNKS, embedder=HashEmbedder())
    first = read_manifest(settings.index_dir)
    chunks = copy_chunks(tmp_path)
    lines = (chunks / "children.jsonl").read_text().splitlines()
    changed = json.loads(lines[0])
    changed["text"] += " (updated)"
    (chunks / "children.jsonl").write_text("\n".join([json.dumps(changed), *lines[1:]]) + "\n")
    embed_and_index(settings, chunks_dir=chunks, embedder=HashEmbedder())
    second = read_manifest(settings.index_dir)
    prev = settings.index_dir.with_name("index.prev")
    assert second.corpus_hash != first.corpus_hash
    assert read_manifest(prev) == first
    assert (settings.index_dir / ".nztax-release.json").exists()
    rollback(settings.index_dir)
    assert read_manifest(settings.index_dir) == first
    Retriever.load(settings.index_dir, settings=settings, embedder=HashEmbedder())


def test_bad_chunks_are_refused_with_a_clear_message(tmp_path):
    settings = make_settings(tmp_path)
    chunks = copy_chunks(tmp_path)
    with open(chunks / "children.jsonl", "a") as handle:
        handle.write('{"id": "c_x", "parent_id": "p_missing", "url": "u", "title": "t", "text": "x"}\n')
    with pytest.raises(IndexBuildError, match="parents not in parents.jsonl"):
        embed_and_index(settings, chunks_dir=chunks, embedder=HashEmbedder())
    (chunks / "children.jsonl").write_text("not json\n")
    with pytest.raises(IndexBuildError, match=r"children.jsonl:1: not JSON"):
        embed_and_index(settings, chunks_dir=chunks, embedder=HashEmbedder())
    with pytest.raises(IndexBuildError, match="run the chunk stage"):
        embed_and_index(settings, chunks_dir=tmp_path / "nowhere", embedder=HashEmbedder())
    assert not settings.index_dir.exists()


@pytest.mark.parametrize("left_behind", ["index.prev", "index.old"])  # .old: earlier versions of the stage
def test_interrupted_swap_is_recovered(tmp_path, left_behind):
    settings = make_settings(tmp_path)
    embed_and_index(settings, chunks_dir=FIXTURE_CHUNKS, embedder=HashEmbedder())
    settings.index_dir.rename(settings.index_dir.with_name(left_behind))  # crash between the renames
    assert embed_and_index(settings, chunks_dir=FIXTURE_CHUNKS, embedder=HashEmbedder()).skipped
    assert read_manifest(settings.index_dir).counts["children"] == 29


def test_missing_index_is_a_clear_error(tmp_path):
    with pytest.raises(IndexMissingError, match="nztax build"):
        Retriever.load(tmp_path / "no-index", settings=make_settings(tmp_path))


def test_index_from_another_embedder_is_refused(built_index, tmp_path):
    settings, index_dir = built_index
    with pytest.raises(IndexMismatchError, match="all-MiniLM-L6-v2-onnx-int8"):
        Retriever.load(index_dir, settings=make_settings(tmp_path, embedder="gemini", gemini_api_key="k"))
    with pytest.raises(IndexMismatchError, match="test-hash-16"):
        Retriever.load(index_dir, settings=settings, embedder=HashEmbedder())


def test_auto_embedder_follows_the_index_manifest(built_index, tmp_path):
    """With GEMINI_API_KEY set (as in the deployed function), `auto` still reads a MiniLM index."""
    _, index_dir = built_index
    retriever = Retriever.load(index_dir, settings=make_settings(tmp_path, embedder="auto", gemini_api_key="k"))
    assert retriever.embedder.id == "all-MiniLM-L6-v2-onnx-int8"
    assert retriever.search("ACC levy rate", k=3)


def test_damaged_index_is_refused(built_index, tmp_path):
    _, index_dir = built_index
    copy = tmp_path / "index"
    shutil.copytree(index_dir, copy)
    manifest = json.loads((copy / "manifest.json").read_text())
    manifest["counts"]["children"] += 1
    (copy / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(IndexMismatchError, match="inconsistent"):
        Retriever.load(copy, settings=make_settings(tmp_path))
    manifest["format"] = 99
    (copy / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(IndexMismatchError, match="format 99"):
        Retriever.load(copy, settings=make_settings(tmp_path))
