"""Pipeline stages "index" and "publish": embed the chunks (with a vector cache) into a staged
index, and later switch the finished index in atomically.

In: `.work/chunks/parents.jsonl`, `children.jsonl` and `chunks.json` (their counts and sha256, so a
truncated chunk file is refused; see docs/architecture.md).
Out: `index.new/` (layout in `nztax.index`), validated (counts, dimensions, a dense and a BM25
self-query). The FAQ stage then writes its answers into it, and the publish stage switches it in
with `nztax_build.publish.publish`, which compares it with the live index (chunk counts, FAQ
answers) and keeps the replaced one as `index.prev/` for rollback. A build killed or failed at any
point before the switch leaves the live index, with its FAQ answers, as it was.

Vectors are cached per (embedder id, sha256 of the chunk text) under `.work/embeddings/`, so a
rebuild embeds only new or changed chunks. An index whose corpus hash, embedder and BM25 settings
already match is left alone unless `force=True`.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import numpy as np

from nztax.embedders import Embedder, get_embedder
from nztax.frame_model import FrameModel
from nztax.understand import default_catalogue
from nztax.index import (
    BM25_DIR,
    CHUNKS_FILE,
    DENSE_FILE,
    DENSE_GRAPH_FILE,
    DENSE_GRAPH_NEIGHBOURS,
    MANIFEST_FILE,
    BM25Settings,
    IndexUnavailableError,
    Manifest,
    bm25_document_text,
    bm25_tokenize,
    load_index,
    read_manifest,
    save_dense_vectors,
)
from nztax.settings import Settings
from nztax.yaml_data import COMPILED_FILE, data_files, save_compiled
from nztax_build import publish as release
import compileall

STAGE_NAME = "index"
CHUNKS_SUMMARY = "chunks.json"  # written by the chunk stage: {"parents": n, "children": n, "sha256": {...}}
REQUIRED_CHILD_FIELDS = ("id", "parent_id", "url", "title", "text")
REQUIRED_PARENT_FIELDS = ("id", "url", "title", "text")


class IndexBuildError(RuntimeError):
    """The index could not be built; the last good index is untouched."""


@dataclass
class IndexBuildReport:
    index_dir: Path
    skipped: bool
    parents: int
    children: int
    embedded: int  # chunks sent to the embedder in this run
    cached: int  # chunks whose vectors came from the cache
    embedder_id: str
    seconds: float
    embed_seconds: float

    def summary(self) -> str:
        if self.skipped:
            return f"index up to date ({self.children} chunks, {self.embedder_id})"
        return (
            f"index built: {self.parents} parents, {self.children} chunks "
            f"({self.embedded} embedded, {self.cached} from cache) with {self.embedder_id} "
            f"in {self.seconds:.1f} s"
        )


def _progress(message: str) -> None:
    print(f"[index] {message}", file=sys.stderr, flush=True)


def read_jsonl(path: Path, required: tuple[str, ...]) -> list[dict[str, Any]]:
    if not path.exists():
        raise IndexBuildError(f"{path} not found: run the chunk stage first (`nztax build`)")
    records = []
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except ValueError as exc:
                raise IndexBuildError(f"{path}:{number}: not JSON ({exc})") from exc
            missing = [f for f in required if not isinstance(record, dict) or f not in record]
            if missing:
                raise IndexBuildError(f"{path}:{number}: missing field(s) {', '.join(missing)}")
            records.append(record)
    return records


def check_chunk_files(chunks_dir: Path, parents: list[dict], children: list[dict]) -> None:
    """The chunk files are the ones the chunk stage wrote: same record counts, same bytes.

    A chunk file cut at a line boundary is still valid JSON Lines; only this summary shows it.
    """
    summary_path = chunks_dir / CHUNKS_SUMMARY
    if not summary_path.exists():
        return  # hand-made chunk sets (test fixtures) have no summary
    try:
        summary = json.loads(summary_path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise IndexBuildError(f"{summary_path}: unreadable ({exc}); rerun `nztax build --only chunk --force`") from None
    for name, records in (("parents", parents), ("children", children)):
        path = chunks_dir / f"{name}.jsonl"
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        if summary.get(name) != len(records) or summary.get("sha256", {}).get(name) != digest:
            raise IndexBuildError(
                f"{path} holds {len(records)} records but the chunk stage wrote {summary.get(name)} "
                "(or its bytes changed since): a damaged chunk file; rerun `nztax build --only chunk --force`"
            )


def staged_dir(index_dir: Path) -> Path:
    """Where the index stage writes a new index before the publish stage switches it in."""
    return Path(index_dir).with_name(Path(index_dir).name + ".new")


def index_in_progress(index_dir: Path) -> Path:
    """The index a build is working on: the staged one if the index stage staged one, else the live one."""
    staged = staged_dir(index_dir)
    return staged if (staged / MANIFEST_FILE).exists() else Path(index_dir)


def text_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def corpus_hash(parents: list[dict], children: list[dict]) -> str:
    digest = hashlib.sha256()
    for record in parents + children:
        digest.update(json.dumps(record, sort_keys=True, ensure_ascii=False).encode("utf-8"))
        digest.update(b"\n")
    return digest.hexdigest()


class VectorCache:
    """Vectors by chunk-text hash for one embedder: `<work>/embeddings/<embedder id>/{keys.json,vectors.npy}`."""

    def __init__(self, work_dir: Path, embedder_id: str, dimensions: int):
        safe = re.sub(r"[^A-Za-z0-9._@-]+", "_", embedder_id)
        self.dir = Path(work_dir) / "embeddings" / safe
        self.dimensions = dimensions
        self._rows: dict[str, np.ndarray] = {}
        keys_path, vectors_path = self.dir / "keys.json", self.dir / "vectors.npy"
        if keys_path.exists() and vectors_path.exists():
            try:
                keys = json.loads(keys_path.read_text(encoding="utf-8"))
                vectors = np.load(vectors_path)
                if vectors.shape == (len(keys), dimensions):
                    self._rows = dict(zip(keys, vectors))
            except (ValueError, OSError):
                self._rows = {}  # a damaged cache only costs re-embedding

    def get(self, key: str) -> np.ndarray | None:
        return self._rows.get(key)

    def put(self, key: str, vector: np.ndarray) -> None:
        self._rows[key] = np.asarray(vector, dtype=np.float32)

    def __len__(self) -> int:
        return len(self._rows)

    def save(self) -> None:
        self.dir.mkdir(parents=True, exist_ok=True)
        keys = list(self._rows)
        matrix = np.stack([self._rows[k] for k in keys]) if keys else np.zeros((0, self.dimensions), np.float32)
        tmp_vectors, tmp_keys = self.dir / "vectors.tmp.npy", self.dir / "keys.tmp.json"
        np.save(tmp_vectors, matrix.astype(np.float32))
        tmp_keys.write_text(json.dumps(keys), encoding="utf-8")
        tmp_vectors.replace(self.dir / "vectors.npy")
        tmp_keys.replace(self.dir / "keys.json")


def embed_with_cache(embedder: Embedder, texts: list[str], cache: VectorCache) -> tuple[np.ndarray, int]:
    """Vectors for `texts` (cached ones reused); returns (matrix, number embedded now)."""
    keys = [text_hash(t) for t in texts]
    todo = sorted({k: i for i, k in enumerate(keys) if cache.get(k) is None}.values())
    if todo:
        _progress(f"embedding {len(todo)} chunks with {embedder.id} ({len(texts) - len(todo)} cached)")
        batch = max(64, len(todo) // 20)  # progress roughly every 5%
        for start in range(0, len(todo), batch):
            rows = todo[start : start + batch]
            vectors = embedder.embed_documents([texts[i] for i in rows])
            for i, vector in zip(rows, vectors):
                cache.put(keys[i], vector)
            cache.save()  # an interrupted build keeps what it paid for
            if len(todo) > batch:
                _progress(f"  {min(start + batch, len(todo))}/{len(todo)}")
    matrix = np.stack([cache.get(k) for k in keys]).astype(np.float32) if keys else np.zeros((0, embedder.dimensions), np.float32)
    return matrix, len(todo)


def write_index(target: Path, manifest: Manifest, parents: list[dict], children: list[dict], vectors: np.ndarray,
                graph_min_chunks: int = 0) -> None:
    """Write chunks, dense vectors, BM25 and (last) the manifest; with `graph_min_chunks` set and at
    least that many chunks, also the HNSW graph large-corpus searches take dense candidates from."""
    import bm25s
    import faiss

    target.mkdir(parents=True)
    (target / CHUNKS_FILE).write_text(
        json.dumps({"children": children, "parents": parents}, ensure_ascii=False), encoding="utf-8"
    )
    dense = faiss.IndexFlatIP(manifest.dimensions)
    if len(vectors):
        dense.add(np.ascontiguousarray(vectors, dtype=np.float32))
    faiss.write_index(dense, str(target / DENSE_FILE))
    if graph_min_chunks and len(vectors) >= graph_min_chunks:
        graph = faiss.IndexHNSWFlat(manifest.dimensions, DENSE_GRAPH_NEIGHBOURS, faiss.METRIC_INNER_PRODUCT)
        graph.add(np.ascontiguousarray(vectors, dtype=np.float32))
        faiss.write_index(graph, str(target / DENSE_GRAPH_FILE))
    bm25 = bm25s.BM25(k1=manifest.bm25.k1, b=manifest.bm25.b, method=manifest.bm25.method)
    documents = [bm25_document_text(c, manifest.bm25) for c in children]
    bm25.index(bm25_tokenize(documents, manifest.bm25, return_ids=True), show_progress=False)
    bm25.save(str(target / BM25_DIR), show_progress=False)
    # The manifest goes last: a directory without one is never mistaken for a finished index.
    (target / MANIFEST_FILE).write_text(json.dumps(manifest.to_json(), indent=2), encoding="utf-8")


def validate_index(target: Path, manifest: Manifest) -> None:
    """Load the new index the way the reader will and run self-queries; raise IndexBuildError if wrong."""
    try:
        loaded = load_index(target)
    except IndexUnavailableError as exc:
        raise IndexBuildError(f"new index failed validation: {exc}") from exc
    if loaded.manifest.embedder_id != manifest.embedder_id or loaded.dense.d != manifest.dimensions:
        raise IndexBuildError("new index failed validation: embedder or dimensions differ from the manifest")
    n = len(loaded.children)
    if n == 0:
        raise IndexBuildError("new index failed validation: no chunks")
    probe = n // 2
    # Dense self-query: a chunk's own vector must be its own nearest neighbour (cosine ~1).
    scores, ids = loaded.dense.search(loaded.vectors[probe : probe + 1].copy(), 1)
    if abs(float(scores[0][0]) - 1.0) > 1e-3 or loaded.children[int(ids[0][0])]["text"] != loaded.children[probe]["text"]:
        raise IndexBuildError(f"new index failed validation: dense self-query returned {ids[0][0]} (score {scores[0][0]:.3f})")
    # BM25 self-query: a chunk's own text must score it highest (ties allowed for duplicate texts).
    tokens = bm25_tokenize([bm25_document_text(loaded.children[probe], loaded.manifest.bm25)],
                           loaded.manifest.bm25, return_ids=False)[0]
    tokens = [t for t in tokens if t in loaded.bm25.vocab_dict]
    if tokens:
        bm25_scores = np.asarray(loaded.bm25.get_scores(tokens))
        if bm25_scores[probe] < bm25_scores.max() - 1e-6:
            raise IndexBuildError("new index failed validation: BM25 self-query did not return the chunk")


def recover_interrupted_swap(index_dir: Path) -> None:
    """Repair a switch interrupted by a crash (only `<index>.prev`, or the older `<index>.old`, left)."""
    release.recover(index_dir)
    legacy = index_dir.with_name(index_dir.name + ".old")  # written by earlier versions of this stage
    if not index_dir.exists() and (legacy / MANIFEST_FILE).exists():
        legacy.rename(index_dir)


def embed_and_index(
    settings: Settings,
    force: bool = False,
    *,
    chunks_dir: Path | None = None,
    index_dir: Path | None = None,
    embedder: Embedder | None = None,
    publish: bool = True,
) -> IndexBuildReport:
    """Chunks -> embedded, validated index; published at once, or (`publish=False`, the pipeline)
    left staged in `index.new/` for the FAQ stage and `publish_staged`."""
    started = time.perf_counter()
    chunks_dir = Path(chunks_dir or settings.work_dir / "chunks")
    index_dir = Path(index_dir or settings.index_dir)
    recover_interrupted_swap(index_dir)

    parents = read_jsonl(chunks_dir / "parents.jsonl", REQUIRED_PARENT_FIELDS)
    children = read_jsonl(chunks_dir / "children.jsonl", REQUIRED_CHILD_FIELDS)
    if not children:
        raise IndexBuildError(f"{chunks_dir / 'children.jsonl'} has no chunks")
    check_chunk_files(chunks_dir, parents, children)
    parent_ids = {p["id"] for p in parents}
    orphans = sorted({c["parent_id"] for c in children} - parent_ids)
    if orphans:
        raise IndexBuildError(f"{len(orphans)} children point to parents not in parents.jsonl (e.g. {orphans[0]})")

    embedder = embedder or get_embedder(settings)
    bm25_settings = BM25Settings(k1=settings.bm25_k1, b=settings.bm25_b, heading_repeat=settings.bm25_heading_repeat)
    digest = corpus_hash(parents, children)
    if not force:
        try:
            current = read_manifest(index_dir)
        except IndexUnavailableError:
            current = None
        if (current is not None and current.corpus_hash == digest and current.embedder_id == embedder.id
                and current.bm25 == bm25_settings and default_catalogue().vectors_current(index_dir, embedder)
                and FrameModel.load(index_dir, embedder) is not None and (index_dir / COMPILED_FILE).exists()):
            return IndexBuildReport(index_dir, True, len(parents), len(children), 0, len(children),
                                    embedder.id, time.perf_counter() - started, 0.0)

    cache = VectorCache(settings.work_dir, embedder.id, embedder.dimensions)
    embed_started = time.perf_counter()
    vectors, embedded = embed_with_cache(embedder, [c["text"] for c in children], cache)
    embed_seconds = time.perf_counter() - embed_started
    if vectors.shape != (len(children), embedder.dimensions):
        raise IndexBuildError(f"embedder returned {vectors.shape}, expected {(len(children), embedder.dimensions)}")

    manifest = Manifest(
        embedder_id=embedder.id,
        dimensions=embedder.dimensions,
        corpus_hash=digest,
        counts={"parents": len(parents), "children": len(children)},
        built_at=datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        bm25=bm25_settings,
    )
    new_dir = staged_dir(index_dir)
    if new_dir.exists():
        shutil.rmtree(new_dir)
    index_dir.parent.mkdir(parents=True, exist_ok=True)
    try:
        write_index(new_dir, manifest, parents, children, vectors, settings.dense_graph_min_chunks)
        # The intent catalogue's example vectors, by the same embedder: the function loads them
        # instead of embedding every example at cold start.
        default_catalogue().save_vectors(new_dir, embedder)
        # The question frame's learned readings, trained on data/frame_examples.yaml with the same embedder.
        FrameModel.train(embedder).save(new_dir)
        # So are the answer units' paraphrases (the faq stage redoes them if it withholds a unit).
        from nztax.unit_match import save_vectors as save_unit_vectors
        from nztax.units import UnitBank

        save_unit_vectors(new_dir, UnitBank.load(settings.units_dir), embedder)
        # The data files' parsed values, so a cold start reads them instead of parsing YAML.
        save_compiled(new_dir, data_files(settings.rules_dir, settings.units_dir))
        validate_index(new_dir, manifest)
        if publish:
            # (Publishing at once is for tools and tests, often with an embedder handed in that a
            # fresh process cannot load; `nztax build`'s publish stage checks the answers.)
            release.publish(new_dir, index_dir, validate=release.validate_index,
                            note=f"{len(children)} chunks, {embedder.id}")
    except release.PublishError as exc:
        shutil.rmtree(new_dir, ignore_errors=True)
        raise IndexBuildError(f"could not publish the new index: {exc}") from exc
    except BaseException:
        shutil.rmtree(new_dir, ignore_errors=True)
        raise
    report = IndexBuildReport(index_dir if publish else new_dir, False, len(parents), len(children), embedded, len(children) - embedded,
                              embedder.id, time.perf_counter() - started, embed_seconds)
    _progress(report.summary())
    return report


def publish_staged(index_dir: Path, allow_shrink: bool = False) -> str:
    """Switch a staged `index.new/` in (validated against the live index); a no-op without one."""
    index_dir = Path(index_dir)
    staged = staged_dir(index_dir)
    if not (staged / MANIFEST_FILE).exists():
        return "no new index staged; the live index stays"
    manifest = read_manifest(staged)
    release.publish(staged, index_dir, validate=release.validate_index_answers, allow_shrink=allow_shrink,
                    note=f"{manifest.counts.get('children', '?')} chunks, {manifest.embedder_id}")
    return f"published {index_dir} ({manifest.counts.get('children', '?')} chunks); previous kept as {release.prev_path(index_dir)}"


def run_stage(ctx) -> str:
    """Adapter for `nztax_build.pipeline` (a BuildContext in, a summary out; errors as StageError)."""
    from nztax.embedders import EmbedderError
    from nztax_build.pipeline import StageError

    try:
        report = embed_and_index(ctx.settings, force=ctx.force, publish=False)
    except (IndexBuildError, EmbedderError) as exc:
        raise StageError(str(exc)) from exc
    if not report.skipped:
        compile_for_cold_start(ctx.settings, report.index_dir)
        return report.summary() + f"; staged in {report.index_dir} until the publish stage"
    stale = staged_dir(ctx.settings.index_dir)
    if stale.exists():  # an interrupted build's staged index: the live one already matches the chunks
        shutil.rmtree(stale)
    # The index stands, but the code or the data files may have changed since it was built.
    compile_for_cold_start(ctx.settings, ctx.settings.index_dir)
    return report.summary()


def compile_for_cold_start(settings: Settings, index_dir: Path) -> None:
    """Write what a cold start reads instead of computing beside `index_dir`: the data files'
    parsed values (`data.pickle`), the dense vectors as plain float32 (`dense_vectors.bin`,
    nztax/index.py), the engine's parts built from them and the index
    (`parts.pickle`, nztax/engine_parts.py) and, from a fresh process going through a cold start
    against this index, the regular expressions it compiles (`regex.pickle`, nztax/compiled_re.py).
    None is needed to answer: without them start-up parses, builds and compiles as before.

    Also the function's own bytecode (`__pycache__`, what Python writes on first import unless
    PYTHONDONTWRITEBYTECODE is set, as it is on build machines): the first start otherwise
    compiles every module from source. Python checks each file against its source, so an edited
    module is compiled afresh as before."""

    import nztax

    package = Path(nztax.__file__).resolve().parent
    compileall.compile_dir(package, quiet=1)
    if (package.parent / "main.py").exists():
        compileall.compile_file(package.parent / "main.py", quiet=1)
    save_compiled(index_dir, data_files(settings.rules_dir, settings.units_dir))
    save_dense_vectors(index_dir)  # a start then reads the vectors without importing faiss
    fit_unit_ranking(settings, index_dir)  # the unit matcher reads its weights: before the parts
    # The engine's parts first: the regular expressions are then recorded from a start that reads them.
    store_engine_parts(settings, index_dir)
    if settings.story_gate != "off":
        # The story gate reads the engine (its parts stored above) over the labelled stories
        # (story_gate_fit.py, about two minutes): fitted only for a build that turns the gate on.
        _in_fresh_process("nztax_build.story_gate_fit", settings, index_dir, "story gate not fitted (it serves nothing)")
    else:  # (no weights left from an earlier fit: turned on later, the gate says it has none)
        from nztax.story_gate import GATE_FILE

        (Path(index_dir) / GATE_FILE).unlink(missing_ok=True)
    _in_fresh_process("nztax.compiled_re", settings, index_dir,
                      "regular expressions not precompiled (start-up compiles them)")


def fit_unit_ranking(settings: Settings, index_dir: Path) -> None:
    """Fit the learned unit-ranking score's weights beside `index_dir` (unit_rank_fit.py); without an
    embedder the engine ranks units by the current score, as it says in its trace."""
    from nztax.embedders import EmbedderError

    from nztax_build.unit_rank_fit import fit_unit_rank

    try:
        _progress(fit_unit_rank(settings, index_dir))
    except EmbedderError as exc:
        _progress(f"unit ranking not fitted (the current score ranks units): {exc}")


def store_engine_parts(settings: Settings, index_dir: Path) -> None:
    """Build the engine's parts from `index_dir` and the data files and store them beside it
    (`parts.pickle`, nztax/engine_parts.py), unless the stored ones are current. Run again after
    anything that changes what they are made from (the FAQ stage may withhold units)."""
    _in_fresh_process("nztax.engine_parts", settings, index_dir, "engine parts not stored (start-up builds them)")


def _in_fresh_process(module: str, settings: Settings, index_dir: Path, failure: str) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("NZTAX_LLM_MODEL", "NZTAX_LLM_API_BASE")}
    env.update(NZTAX_INDEX_DIR=str(index_dir), NZTAX_EMBEDDER=settings.embedder)
    done = subprocess.run([sys.executable, "-m", module, str(index_dir)], env=env,
                          capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        _progress(f"{failure}: {done.stderr.strip()[-300:]}")
    else:
        _progress(done.stdout.strip())


def run_publish_stage(ctx) -> str:
    from nztax_build.pipeline import StageError

    try:
        return publish_staged(ctx.settings.index_dir, allow_shrink=ctx.allow_shrink)
    except (release.PublishError, IndexUnavailableError) as exc:
        raise StageError(f"{exc} (the live index is unchanged; the new one stays in "
                         f"{staged_dir(ctx.settings.index_dir)})") from exc


def _stages():
    from nztax_build.pipeline import Stage

    return Stage(name=STAGE_NAME, run=run_stage), Stage(name="publish", run=run_publish_stage)


# Registered in nztax_build.pipeline.STAGES: "index" after chunk, "publish" after faq.
# The index stage skips itself (corpus hash + embedder + BM25 settings unchanged), so no fingerprint.
INDEX_STAGE, PUBLISH_STAGE = _stages()
