"""The on-disk index: its layout, manifest, loader and errors.

In: an index directory written by `nztax_build.indexer` (published atomically).
Out: `LoadedIndex` (chunk store + faiss IndexFlatIP + bm25s BM25 + manifest), or a clear
`IndexMissingError` / `IndexMismatchError`.

Layout of `index/`:

| file | content |
|---|---|
| `manifest.json` | `Manifest`: format, embedder_id, dimensions, corpus_hash, counts, built_at, bm25 settings |
| `chunks.json` | `{"children": [...], "parents": [...]}`, the records of `.work/chunks/*.jsonl` |
| `dense.faiss` | faiss `IndexFlatIP` over the child vectors, row i = children[i] |
| `bm25/` | bm25s index over the child texts with their page title and section heading repeated (`bm25_document_text`), doc i = children[i] |

BM25 tokenisation (stemmer, stopwords, token pattern) is not saved by bm25s, so it is recorded
in the manifest and re-created from there at query time by `bm25_tokenize`.

Page vectors (the normalised mean of each page's chunk vectors) are derived from `dense.faiss` at
load time, so they are not stored.

Beside them the build writes `dense_vectors.bin` (`save_dense_vectors`): the same rows as plain
float32, keyed by the sha256 of `dense.faiss` (`checked_file`). A start that finds it current reads
the vectors from it and imports faiss only if something asks for the faiss index itself (the
build's checks, a large corpus's graph): importing faiss's SWIG module is about 65 ms of CPU on the
first answer's path. Missing, stale or damaged, the vectors come from `dense.faiss` as before.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from nztax import checked_file

# 2: BM25 text has the heading field boost (BM25Settings.heading_repeat).
INDEX_FORMAT = 2
MANIFEST_FILE = "manifest.json"
CHUNKS_FILE = "chunks.json"
DENSE_FILE = "dense.faiss"
DENSE_VECTORS_FILE = "dense_vectors.bin"
# Written only for a corpus of at least `settings.dense_graph_min_chunks` chunks: an HNSW graph over
# the same vectors, from which a search takes its dense candidates instead of scoring every chunk.
DENSE_GRAPH_FILE = "dense_graph.faiss"
DENSE_GRAPH_NEIGHBOURS = 32  # HNSW M: links per node
BM25_DIR = "bm25"


class IndexUnavailableError(RuntimeError):
    """The index cannot be used (the CLI exits 3, /ask answers 503)."""


class IndexMissingError(IndexUnavailableError):
    """No (complete) index where one was expected."""


class IndexMismatchError(IndexUnavailableError):
    """The index does not fit this program: another embedder, format or a damaged file."""


@dataclass(frozen=True)
class BM25Settings:
    k1: float = 1.5
    b: float = 0.75
    method: str = "lucene"
    stemmer: str = "english"
    # NLTK's fuller English list: "how", "what", "my" are not evidence that a passage is relevant.
    stopwords: str = "en_plus"
    # bm25s's default pattern: words of two or more characters (so "IR3" and "15" survive).
    token_pattern: str = r"(?u)\b\w\w+\b"
    # Extra copies of "page title section heading" before the chunk text: a cheap field boost
    # (headings say what a section is about; measured in docs/retrieval.md).
    heading_repeat: int = 3


@dataclass(frozen=True)
class Manifest:
    embedder_id: str
    dimensions: int
    corpus_hash: str
    counts: dict[str, int]
    built_at: str
    bm25: BM25Settings = field(default_factory=BM25Settings)
    format: int = INDEX_FORMAT

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Manifest":
        return cls(
            embedder_id=str(data["embedder_id"]),
            dimensions=int(data["dimensions"]),
            corpus_hash=str(data["corpus_hash"]),
            counts={str(k): int(v) for k, v in data["counts"].items()},
            built_at=str(data["built_at"]),
            bm25=BM25Settings(**data.get("bm25", {})),
            format=int(data.get("format", 0)),
        )


def read_manifest(index_dir: Path) -> Manifest:
    path = Path(index_dir) / MANIFEST_FILE
    if not path.exists():
        raise IndexMissingError(
            f"no index at {index_dir} (missing {MANIFEST_FILE}); build it with `nztax build` or `make site`"
        )
    try:
        manifest = Manifest.from_json(json.loads(path.read_text(encoding="utf-8")))
    except (ValueError, KeyError, TypeError) as exc:
        raise IndexMismatchError(f"{path} is not a valid index manifest ({exc}); rebuild with `nztax build`") from exc
    if manifest.format != INDEX_FORMAT:
        raise IndexMismatchError(
            f"index format {manifest.format} at {index_dir}, this program reads format {INDEX_FORMAT}; "
            "rebuild with `nztax build`"
        )
    return manifest


def bm25_document_text(child: dict[str, Any], settings: BM25Settings) -> str:
    """What BM25 indexes for a chunk: its heading `heading_repeat` extra times, then its text."""
    heading = f"{child.get('title', '')} {child.get('section', '')} "
    return heading * max(0, settings.heading_repeat) + child["text"]


_STEMMERS: dict[str, Any] = {}


def bm25_tokenize(texts: list[str], settings: BM25Settings, return_ids: bool):
    """Tokenise exactly as the index was built (same stemmer, stopwords, pattern)."""
    import bm25s
    import Stemmer

    stemmer = _STEMMERS.get(settings.stemmer)
    if stemmer is None:
        stemmer = _STEMMERS[settings.stemmer] = Stemmer.Stemmer(settings.stemmer)
    return bm25s.tokenize(
        texts,
        token_pattern=settings.token_pattern,
        stopwords=settings.stopwords,
        stemmer=stemmer,
        return_ids=return_ids,
        show_progress=False,
    )


# --- exact identifiers (legislation section ids, IRD form numbers, tax codes) -----------------

# IRD forms: IR3, IR330, IR340, IR3NR, IR526 (any case in a query: people type "ir3").
_FORM = re.compile(r"(?<![A-Za-z0-9])IR[ -]?(\d{1,4}[A-Z]{0,2})(?![A-Za-z0-9])", re.IGNORECASE)
# Income Tax Act 2007 section ids: two capitals and a number ("LC 15", "YA 1", "CW 17B").
_SECTION = re.compile(r"(?<![A-Za-z0-9])(?!IR)([A-Z]{2}) ?(\d{1,3}[A-Z]{0,2})(?![A-Za-z0-9])")
# Schedules of an Act, optionally with a part: "Schedule 1", "schedule 1 part D".
_SCHEDULE = re.compile(r"(?<![A-Za-z0-9])Schedule (\d{1,2})(?:,? Part ([A-Z]))?(?![A-Za-z0-9])", re.IGNORECASE)
# PAYE tax codes, upper case only (so the word "me" or "s" is never a code), optional SL suffix.
_TAX_CODES = ("ME", "M", "SB", "SH", "ST", "SA", "S", "ND", "NSW", "CAE", "EDW", "WT", "STC")
# "ME 1" or "MK 3" is a section id, not a code: a code is never followed by a number.
_TAX_CODE = re.compile(r"(?<![A-Za-z0-9])(" + "|".join(_TAX_CODES) + r")(?: (SL))?(?![A-Za-z0-9]| ?\d)")


def extract_identifiers(text: str) -> set[str]:
    """Canonical exact identifiers in a text: {"IR3", "LC 15", "M SL", "ME", "Schedule 1 Part D", "Schedule 1"}."""
    found: set[str] = set()
    for match in _FORM.finditer(text):
        found.add("IR" + match.group(1).upper())
    for match in _SECTION.finditer(text):
        found.add(f"{match.group(1)} {match.group(2)}")
    for match in _SCHEDULE.finditer(text):
        found.add(f"Schedule {match.group(1)}")
        if match.group(2):
            found.add(f"Schedule {match.group(1)} Part {match.group(2).upper()}")
    # Codes are matched on whitespace-collapsed text so "M  SL" and "M\nSL" read as "M SL" (split
    # and join: the same whitespace as `\s`, several times faster over an index's every chunk).
    for match in _TAX_CODE.finditer(" ".join(text.split())):
        found.add(match.group(1) + (" SL" if match.group(2) else ""))
    return found


def child_years(child: dict[str, Any]) -> tuple[str, ...]:
    return tuple(child.get("tax_years") or ())


@dataclass
class LoadedIndex:
    manifest: Manifest
    children: list[dict[str, Any]]
    parents: dict[str, dict[str, Any]]
    flat: Any  # faiss.IndexFlatIP, or None until first asked for (`dense`) when the vectors were stored apart
    vectors: np.ndarray  # (n_children, dimensions): the faiss rows (a zero-copy view) or their stored copy
    bm25: Any  # bm25s.BM25
    child_source_types: np.ndarray
    child_page: np.ndarray  # row -> page number (children of one URL share it)
    page_vectors: np.ndarray  # (pages, dimensions): normalised mean of each page's child vectors
    directory: Path | None = None  # where it was loaded from (files stored beside it: intents.npz)
    dense_graph: Any = None  # faiss.IndexHNSWFlat over `vectors`, present for a large corpus only
    # (identifier -> rows whose text holds it, identifier -> rows whose heading does): read from
    # every chunk on first use, or handed over from the engine's stored parts (engine_parts.py).
    identifiers: tuple[dict[str, list[int]], dict[str, set[int]]] | None = None

    @property
    def dense(self):
        """The faiss `IndexFlatIP` over `vectors`, read from `dense.faiss` on first use when the
        vectors came from their stored copy."""
        if self.flat is None:
            import faiss

            self.flat = faiss.read_index(str(Path(self.directory) / DENSE_FILE))
        return self.flat

    def identifier_rows(self) -> tuple[dict[str, list[int]], dict[str, set[int]]]:
        if self.identifiers is None:
            self.identifiers = identifier_postings(self.children)
        return self.identifiers

    @property
    def identifier_postings(self) -> dict[str, list[int]]:
        return self.identifier_rows()[0]

    @property
    def identifier_in_heading(self) -> dict[str, set[int]]:
        return self.identifier_rows()[1]


def identifier_postings(children: list[dict[str, Any]]) -> tuple[dict[str, list[int]], dict[str, set[int]]]:
    """(identifier -> rows whose text holds it, identifier -> rows whose title or section does)."""
    postings: dict[str, list[int]] = {}
    in_heading: dict[str, set[int]] = {}
    for i, child in enumerate(children):
        for ident in extract_identifiers(child["text"]):
            postings.setdefault(ident, []).append(i)
        for ident in extract_identifiers(f"{child.get('title', '')} {child.get('section', '')}"):
            in_heading.setdefault(ident, set()).add(i)
    return postings, in_heading


def page_vectors(children: list[dict[str, Any]], vectors: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(child -> page number, page vectors): a page's vector is the normalised mean of its chunks."""
    numbers: dict[str, int] = {}
    child_page = np.array([numbers.setdefault(c.get("url", ""), len(numbers)) for c in children], dtype=np.int64)
    pages = np.zeros((len(numbers), vectors.shape[1] if vectors.ndim == 2 else 0), dtype=np.float32)
    if len(children):
        np.add.at(pages, child_page, vectors)
        norms = np.linalg.norm(pages, axis=1, keepdims=True)
        norms[norms == 0] = 1.0
        pages /= norms
    return child_page, pages


def load_index(index_dir: Path) -> LoadedIndex:
    """Read and check an index directory (tens of milliseconds for a few thousand chunks)."""
    import bm25s

    index_dir = Path(index_dir)
    manifest = read_manifest(index_dir)
    for name in (CHUNKS_FILE, DENSE_FILE, BM25_DIR):
        if not (index_dir / name).exists():
            raise IndexMissingError(f"index at {index_dir} is incomplete (missing {name}); rebuild with `nztax build`")
    try:
        store = json.loads((index_dir / CHUNKS_FILE).read_text(encoding="utf-8"))
        children = store["children"]
        parents = {p["id"]: p for p in store["parents"]}
    except (ValueError, KeyError, TypeError) as exc:
        raise IndexMismatchError(f"chunk store in {index_dir} is damaged ({exc}); rebuild with `nztax build`") from exc
    stored = stored_dense_vectors(index_dir)
    if stored is None:
        import faiss

        dense = faiss.read_index(str(index_dir / DENSE_FILE))
        rows, dims = dense.ntotal, dense.d
    else:
        dense, (rows, dims) = None, stored.shape
    bm25 = bm25s.BM25.load(str(index_dir / BM25_DIR), mmap=False, show_progress=False, verbosity=0)
    n = len(children)
    problems = []
    if manifest.counts.get("children") != n:
        problems.append(f"manifest says {manifest.counts.get('children')} children, store has {n}")
    if manifest.counts.get("parents") != len(parents):
        problems.append(f"manifest says {manifest.counts.get('parents')} parents, store has {len(parents)}")
    if rows != n or dims != manifest.dimensions:
        problems.append(f"dense index is {rows} x {dims}, expected {n} x {manifest.dimensions}")
    bm25_docs = int(bm25.scores.get("num_docs", n)) if isinstance(bm25.scores, dict) else n
    if bm25_docs != n:
        problems.append(f"BM25 index has {bm25_docs} documents, expected {n}")
    missing_parents = {c["parent_id"] for c in children} - parents.keys()
    if missing_parents:
        problems.append(f"{len(missing_parents)} children point to unknown parents")
    if problems:
        raise IndexMismatchError(f"index at {index_dir} is inconsistent: {'; '.join(problems)}; rebuild with `nztax build`")
    vectors = stored if stored is not None else faiss_vectors(dense)

    child_page, pages = page_vectors(children, vectors)
    graph = None
    if (index_dir / DENSE_GRAPH_FILE).exists():
        import faiss

        graph = faiss.read_index(str(index_dir / DENSE_GRAPH_FILE))
    if graph is not None and (graph.ntotal != n or graph.d != dims):
        raise IndexMismatchError(f"dense graph in {index_dir} is {graph.ntotal} x {graph.d}, expected {n} x {dims}; "
                                 "rebuild with `nztax build`")
    return LoadedIndex(
        manifest=manifest,
        children=children,
        parents=parents,
        flat=dense,
        vectors=vectors,
        bm25=bm25,
        child_source_types=np.array([c.get("source_type", "") for c in children], dtype=object),
        child_page=child_page,
        page_vectors=pages,
        directory=index_dir,
        dense_graph=graph,
    )


def faiss_vectors(dense) -> np.ndarray:
    """A faiss flat index's rows as a zero-copy (n, d) float32 view."""
    import faiss

    n, d = dense.ntotal, dense.d
    return faiss.rev_swig_ptr(dense.get_xb(), n * d).reshape(n, d) if n else np.zeros((0, d), np.float32)


def _dense_key(index_dir: Path) -> str:
    return "dense-vectors-1 " + hashlib.sha256((Path(index_dir) / DENSE_FILE).read_bytes()).hexdigest()


def save_dense_vectors(index_dir: Path) -> int:
    """Write `dense.faiss`'s rows beside it as plain float32 (build time); returns the row count."""
    import faiss


    index_dir = Path(index_dir)
    dense = faiss.read_index(str(index_dir / DENSE_FILE))  # held while its rows (a view) are copied
    vectors = faiss_vectors(dense)
    checked_file.write(index_dir / DENSE_VECTORS_FILE, np.ascontiguousarray(vectors, dtype=np.float32).tobytes(),
                       _dense_key(index_dir), rows=int(vectors.shape[0]), dims=int(vectors.shape[1]))
    return int(vectors.shape[0])


def stored_dense_vectors(index_dir: Path) -> np.ndarray | None:
    """The vectors `save_dense_vectors` stored, when they were made from this `dense.faiss` and are
    whole; None otherwise (the caller reads `dense.faiss`)."""

    try:
        raw = (Path(index_dir) / DENSE_VECTORS_FILE).read_bytes()
        body = checked_file.payload(raw, _dense_key(index_dir))
        if body is None:
            return None
        header = json.loads(raw.partition(b"\n")[0])
        rows, dims = int(header["rows"]), int(header["dims"])
        if len(body) != rows * dims * 4:
            return None
        return np.frombuffer(bytearray(body), dtype=np.float32).reshape(rows, dims)
    except (OSError, ValueError, KeyError, TypeError):
        return None
