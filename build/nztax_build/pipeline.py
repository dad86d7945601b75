"""The build pipeline behind `nztax build`: stages run in order, each skipping unchanged inputs.

In: the crawl store (corpus/manifest.json + corpus/raw/) and settings.
Out (this module's stages): .work/documents/<key>.json (parse) and .work/chunks/parents.jsonl +
children.jsonl (chunk); .work/state/<stage>.json records each stage's input fingerprint and summary.

Adding a stage is one line in `STAGES`: "package.module:ATTRIBUTE", where the attribute is a
`Stage` (or a plain `run(ctx)` function, which then always runs). Entries are imported only when the
build runs; an entry whose module does not exist yet is skipped with a message, so stages of later
issues can be listed before they are written. A stage with a `fingerprint` is skipped when the
fingerprint (a hash of everything it reads, plus its own version and settings) equals the one
recorded after its last successful run and its `outputs` all exist; `--force` runs it anyway.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, TextIO

from .records import STATUS_ACTIVE, Document, ParseError
from .store import CrawlStore, StoreError, atomic_write_bytes, atomic_write_text, utc_now

# Build order. Later issues append their stages here (one line each).
STAGES: list[str] = [
    "nztax_build.pipeline:PARSE_STAGE",
    "nztax_build.pipeline:CHUNK_STAGE",
    "nztax_build.indexer:INDEX_STAGE",
    "nztax_build.faq:FAQ_STAGE",  # site (issue 7): answer the FAQ with the engine -> <index being built>/faq.json
    "nztax_build.indexer:PUBLISH_STAGE",  # switch the staged index (with its FAQ answers) in, if one was staged
    "nztax_build.render:RENDER_STAGE",  # site (issue 7): generated pages + rules.json into site_src/
]

PARSER_VERSION = 2  # bump when a parser's output changes, so every document is parsed again
CHUNKER_VERSION = 2  # bump when chunking changes


class StageError(RuntimeError):
    """A stage cannot run (missing input) or failed; the message is shown to the user as is."""


@dataclass
class BuildContext:
    settings: object
    force: bool = False
    allow_shrink: bool = False  # publish an index much smaller than the live one (`--allow-shrink`)
    log_stream: TextIO = field(default_factory=lambda: sys.stderr)

    @property
    def work_dir(self) -> Path:
        return Path(self.settings.work_dir)

    @property
    def documents_dir(self) -> Path:
        return self.work_dir / "documents"

    @property
    def chunks_dir(self) -> Path:
        return self.work_dir / "chunks"

    @property
    def state_dir(self) -> Path:
        return self.work_dir / "state"

    def log(self, message: str) -> None:
        print(message, file=self.log_stream, flush=True)


@dataclass(frozen=True)
class Stage:
    name: str
    run: Callable[[BuildContext], str | dict | None]  # returns a summary (saved in the stage's state file)
    fingerprint: Callable[[BuildContext], str] | None = None
    outputs: Callable[[BuildContext], list[Path]] | None = None


def fingerprint_of(*parts: object) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode("utf-8")).hexdigest()


# -- running ------------------------------------------------------------------------------------

def load_stages(entries: list[str] | None = None, log: Callable[[str], None] = print) -> list[Stage]:
    stages: list[Stage] = []
    for entry in STAGES if entries is None else entries:
        module_name, _, attribute = entry.partition(":")
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name and module_name.startswith(exc.name):
                log(f"build: stage {entry} not available yet (no module {exc.name}), skipped")
                continue
            raise
        target = getattr(module, attribute)
        if not isinstance(target, Stage):
            target = Stage(name=getattr(target, "__name__", attribute), run=target)
        stages.append(target)
    return stages


def run_build(settings, only: str | None = None, force: bool = False, log_stream: TextIO | None = None,
              allow_shrink: bool = False) -> int:
    """Run the stages in order (or just `only`); return a process exit code."""
    ctx = BuildContext(settings=settings, force=force, log_stream=log_stream or sys.stderr, allow_shrink=allow_shrink)
    stages = load_stages(log=ctx.log)
    if only is not None:
        chosen = [s for s in stages if s.name == only]
        if not chosen:
            ctx.log(f"build: unknown stage {only!r}; available: {', '.join(s.name for s in stages)}")
            return 2
        stages = chosen
    for stage in stages:
        state_path = ctx.state_dir / f"{stage.name}.json"
        try:
            fingerprint = stage.fingerprint(ctx) if stage.fingerprint else None
            if fingerprint and not force and _up_to_date(state_path, fingerprint, stage, ctx):
                ctx.log(f"[{stage.name}] inputs unchanged, skipped")
                continue
            ctx.log(f"[{stage.name}] running")
            started = time.monotonic()
            summary = stage.run(ctx)
        except (StageError, StoreError) as exc:
            ctx.log(f"[{stage.name}] failed: {exc}")
            return 1
        elapsed = time.monotonic() - started
        # Recompute after the run: a stage may legitimately refresh its own inputs' metadata.
        state = {"fingerprint": stage.fingerprint(ctx) if stage.fingerprint else None,
                 "finished_at": utc_now(), "seconds": round(elapsed, 3), "summary": summary or "",
                 "outputs": _output_digests(stage, ctx)}
        atomic_write_text(state_path, json.dumps(state, indent=1) + "\n")
        shown = ", ".join(f"{k} {len(v) if isinstance(v, list) else v}" for k, v in summary.items()) if isinstance(summary, dict) else summary
        ctx.log(f"[{stage.name}] done in {elapsed:.1f}s" + (f": {shown}" if shown else ""))
    return 0


def _up_to_date(state_path: Path, fingerprint: str, stage: Stage, ctx: BuildContext) -> bool:
    try:
        state = json.loads(state_path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    if state.get("fingerprint") != fingerprint:
        return False
    if not all(path.exists() for path in (stage.outputs(ctx) if stage.outputs else [])):
        return False
    # An output changed since the stage wrote it (a damaged or hand-edited chunk file): run it again,
    # rather than let every later stage refuse it until someone forces this one.
    recorded = state.get("outputs") or {}
    for name, digest in _output_digests(stage, ctx).items():
        if name in recorded and recorded[name] != digest:
            ctx.log(f"[{stage.name}] {Path(name).name} is not the file this stage wrote; running it again")
            return False
    return True


def _output_digests(stage: Stage, ctx: BuildContext) -> dict[str, str]:
    """sha256 of each output file of `stage` (directories are left to the stage's own checks)."""
    paths = stage.outputs(ctx) if stage.outputs else []
    return {str(p): hashlib.sha256(p.read_bytes()).hexdigest() for p in paths if p.is_file()}


# -- parse stage --------------------------------------------------------------------------------

def _active_entries(ctx: BuildContext):
    store = CrawlStore(ctx.settings.corpus_dir, gone_threshold=ctx.settings.crawl_gone_threshold).load()
    if not store.manifest_path.exists():
        raise StageError(f"no crawl manifest at {store.manifest_path}: run `nztax crawl` (or restore the bundled snapshot)")
    return store, [e for e in store.entries() if e.status == STATUS_ACTIVE]


def _parse_fingerprint(ctx: BuildContext) -> str:
    _, entries = _active_entries(ctx)
    return fingerprint_of(
        PARSER_VERSION,
        [(e.url, e.file, e.content_hash, e.fetched_at, e.source_type, e.title) for e in entries],
        # A document file damaged since the last parse (cut short, hand-edited) changes the
        # fingerprint, so a plain `nztax build` parses that page again instead of failing later.
        sorted(p.name for p in ctx.documents_dir.glob("*.json") if _read_document_file(p) is None)
        if ctx.documents_dir.exists() else [],
    )


def _run_parse(ctx: BuildContext) -> str:
    from .parse import parse_with_warnings

    store, entries = _active_entries(ctx)
    ctx.documents_dir.mkdir(parents=True, exist_ok=True)
    parsed = reused = 0
    failures: list[str] = []
    warnings: list[str] = []  # "url: problem", also for pages reused from an earlier parse
    keys: set[str] = set()
    for number, entry in enumerate(entries, start=1):
        key = Path(entry.file).stem
        keys.add(key)
        path = ctx.documents_dir / f"{key}.json"
        crawl_date = entry.fetched_at[:10]
        previous = _read_document_file(path)
        if previous and not ctx.force and previous.get("parser_version") == PARSER_VERSION and previous.get("content_hash") == entry.content_hash and previous.get("source_type") == entry.source_type:
            if previous.get("crawl_date") != crawl_date:  # a 304 refreshed the crawl date: no need to parse again
                previous["crawl_date"] = crawl_date
                atomic_write_text(path, json.dumps(previous, ensure_ascii=False, indent=1) + "\n")
            warnings.extend(f"{entry.url}: {w}" for w in previous.get("parse_warnings", []))
            reused += 1
            continue
        try:
            doc, page_warnings = parse_with_warnings(store.read_raw(entry), entry.content_type, entry.url, entry.source_type, entry.title)
        except (ParseError, OSError) as exc:
            failures.append(entry.url)
            ctx.log(f"[parse] {number}/{len(entries)} FAILED {entry.url}: {exc}")
            path.unlink(missing_ok=True)
            continue
        doc.key, doc.file, doc.crawl_date, doc.content_hash = key, entry.file, crawl_date, entry.content_hash
        record = {"parser_version": PARSER_VERSION, "parse_warnings": page_warnings, **doc.to_dict()}
        atomic_write_text(path, json.dumps(record, ensure_ascii=False, indent=1) + "\n")
        parsed += 1
        ctx.log(f"[parse] {number}/{len(entries)} {entry.url} ({len(doc.sections)} sections)")
        for warning in page_warnings:
            ctx.log(f"[parse] WARNING {entry.url}: {warning}")
        warnings.extend(f"{entry.url}: {w}" for w in page_warnings)
    stale = [p for p in ctx.documents_dir.glob("*.json") if p.stem not in keys]
    for path in stale:
        path.unlink()
    # The publish gates read this summary from .work/state/parse.json (pages, parsed, failed, warnings).
    return {"pages": len(entries), "parsed": parsed + reused, "reparsed": parsed, "unchanged": reused,
            "failed": failures, "warnings": warnings, "removed": len(stale)}


def _read_document_file(path: Path) -> dict | None:
    """A parse-stage document record, or None when the file is missing or damaged."""
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
        Document.from_dict(record)
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return None
    return record


def load_documents(documents_dir: Path) -> list[Document]:
    docs = []
    for path in sorted(documents_dir.glob("*.json")):
        record = _read_document_file(path)
        if record is None:
            raise StageError(f"{path} is damaged: run `nztax build` again (the parse stage redoes damaged documents)")
        docs.append(Document.from_dict(record))
    return sorted(docs, key=lambda d: d.url)


PARSE_STAGE = Stage(
    name="parse",
    run=_run_parse,
    fingerprint=_parse_fingerprint,
    outputs=lambda ctx: [ctx.documents_dir],
)


# -- chunk stage --------------------------------------------------------------------------------

def _chunk_settings(ctx: BuildContext) -> tuple[int, int, int, int]:
    """Chunk size, overlap, parent cap, and the current tax year's start (where "from <date>" runs to)."""
    from nztax.rules import current_tax_year

    s = ctx.settings
    return s.chunk_size, s.chunk_overlap, s.chunk_parent_max, int(current_tax_year()[:4])


def _chunk_fingerprint(ctx: BuildContext) -> str:
    files = sorted(ctx.documents_dir.glob("*.json")) if ctx.documents_dir.exists() else []
    from nztax.calendar_dates import months  # the chunker reads dates with the data's month names

    return fingerprint_of(
        CHUNKER_VERSION, _chunk_settings(ctx), sorted(months().items()),
        [(p.name, hashlib.sha256(p.read_bytes()).hexdigest()) for p in files],
    )


def _run_chunk(ctx: BuildContext) -> str:
    from .chunker import chunk_document

    if not ctx.documents_dir.exists():
        raise StageError(f"no parsed documents in {ctx.documents_dir}: run `nztax build --only parse` first")
    size, overlap, parent_max, open_until = _chunk_settings(ctx)
    if not 0 <= overlap < size:
        raise StageError(f"chunk overlap ({overlap}) must be at least 0 and smaller than the chunk size ({size})")
    parents, children = [], []
    for doc in load_documents(ctx.documents_dir):
        doc_parents, doc_children = chunk_document(doc, size, overlap, parent_max, open_until)
        parents.extend(doc_parents)
        children.extend(doc_children)
    ctx.chunks_dir.mkdir(parents=True, exist_ok=True)
    summary: dict = {"parents": len(parents), "children": len(children), "sha256": {}}
    for name, chunks in (("parents", parents), ("children", children)):
        data = "".join(json.dumps(c.to_dict(), ensure_ascii=False) + "\n" for c in chunks).encode("utf-8")
        summary["sha256"][name] = hashlib.sha256(data).hexdigest()
        atomic_write_bytes(ctx.chunks_dir / f"{name}.jsonl", data)
    # Written last: the index stage refuses chunk files that do not match it (a truncated file).
    atomic_write_text(ctx.chunks_dir / "chunks.json", json.dumps(summary, indent=1) + "\n")
    return f"{len(parents)} parents, {len(children)} children"


CHUNK_STAGE = Stage(
    name="chunk",
    run=_run_chunk,
    fingerprint=_chunk_fingerprint,
    outputs=lambda ctx: [ctx.chunks_dir / "parents.jsonl", ctx.chunks_dir / "children.jsonl", ctx.chunks_dir / "chunks.json"],
)
