"""Pipeline stage "faq": answer the site's FAQ questions with the engine behind POST /ask.

In: the unit bank (`settings.units_dir`, nztax/units.py: topics -> questions, each with its lead and
source), the index (its manifest's corpus hash and
embedder id are the "sources" part of the cache key), the rules and the answer mode (offline or the
configured LLM). Units whose quote is gone from their page are withheld first (unit_support.py).
Out: `<index_dir>/faq.json`, a list of
`{"question", "slug", "topic", "url", "result"}` (result = the POST /ask JSON) that the function's
fast path and the page renderer read. Only `answered` results with citations are published;
clarifications, declines and "nothing found" answers are dropped (and listed in the stage summary).

Answers are cached under `<work_dir>/faq/` by question + sources hash + tax year + mode. An answer
that shows figures (tool calls, dollar amounts, percentages) also keys on the rules version, so a
rules edit re-answers exactly those questions and reuses every other answer (`nztax rebuild`).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Protocol

from nztax.units import Unit, UnitBank, UnitsError, slugify  # noqa: F401  (slugify: the pages' addresses)

from .pipeline import BuildContext, Stage, StageError, fingerprint_of
from .store import atomic_write_text

FAQ_VERSION = 1  # bump when the cached answer format or the question handling changes
FAQ_JSON = "faq.json"
PUBLISHED_STATUS = "answered"

# A figure a rules edit could change: a dollar amount, a percentage or a grouped number.
FIGURE = re.compile(r"\$\s?\d|\d\s?%|\d{1,3}(?:,\d{3})+")


class FaqError(StageError):
    """The question list is missing or invalid."""


@dataclass(frozen=True)
class FaqQuestion:
    question: str
    slug: str
    topic: str
    topic_title: str
    unit: Unit | None = None

    @property
    def url(self) -> str:
        """Site-relative URL of the question's page."""
        return f"/faq/{self.topic}/{self.slug}/"


@dataclass(frozen=True)
class FaqTopic:
    slug: str
    title: str
    intro: str


class Answerer(Protocol):
    def answer(self, question: str, tax_year: str | None = None, history: list | None = None, use_faq: bool = False): ...


def load_questions(path: Path) -> tuple[list[FaqTopic], list[FaqQuestion]]:
    """Read and check the unit bank (a file or a folder of them); a problem is a `FaqError` naming
    the file and entry. Every FAQ page is one unit."""
    try:
        bank = UnitBank.load(Path(path))
    except UnitsError as exc:
        raise FaqError(str(exc)) from None
    topics = [FaqTopic(t.slug, t.title, t.intro) for t in bank.topics]
    return topics, [FaqQuestion(u.question, u.slug, u.topic, u.topic_title, u) for u in bank.units]


def unpublished_reason(result: dict) -> str | None:
    """Why an answer is not published as a FAQ page, or None to publish it.

    Clarifications and declines are not published. Neither is an `answered` result with no
    citation: the engine's "nothing found in my sources" reply, a decline in substance, and a page
    with nothing to check it against.
    """
    status = str(result.get("status"))
    if status != PUBLISHED_STATUS:
        return status
    if not result.get("citations"):
        return "no sources found"
    return None


def shows_figures(result: dict) -> bool:
    """Whether a rules edit could change this answer: it used a tool or shows a figure."""
    return bool(result.get("tools")) or bool(FIGURE.search(result.get("answer") or ""))


class AnswerCache:
    """One JSON file per (question, sources, tax year, mode), recording the rules version it used."""

    def __init__(self, directory: Path):
        self.directory = Path(directory)

    def _path(self, question: str, sources_hash: str, tax_year: str, mode: str) -> Path:
        key = fingerprint_of(FAQ_VERSION, question, sources_hash, tax_year, mode)
        return self.directory / key[:2] / f"{key}.json"

    def get(self, question: str, sources_hash: str, tax_year: str, mode: str, rules_version: str) -> dict | None:
        path = self._path(question, sources_hash, tax_year, mode)
        try:
            entry = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if entry.get("depends_on_rules") and entry.get("rules_version") != rules_version:
            return None
        return entry.get("result")

    def put(self, question: str, sources_hash: str, tax_year: str, mode: str, rules_version: str, result: dict) -> None:
        entry = {"question": question, "rules_version": rules_version, "depends_on_rules": shows_figures(result), "result": result}
        atomic_write_text(self._path(question, sources_hash, tax_year, mode), json.dumps(entry, ensure_ascii=False, indent=1, sort_keys=True) + "\n")


def stable_result(result: dict) -> dict:
    """The POST /ask JSON with its timing removed, so the same answer is the same bytes."""
    result = dict(result)
    if "latency_ms" in result:
        result["latency_ms"] = 0
    return result


@dataclass
class FaqRun:
    entries: list[dict]
    answered: int
    cached: int
    dropped: list[tuple[str, str]]  # (question, status)


def answer_questions(
    questions: list[FaqQuestion],
    engine_factory: Callable[[], Answerer],
    cache: AnswerCache,
    sources_hash: str,
    tax_year: str,
    mode: str,
    rules_version: str,
    log: Callable[[str], None] = print,
) -> FaqRun:
    """Answer every question (from the cache when still valid); keep the `answered` ones."""
    engine = None
    entries, dropped = [], []
    answered = cached = 0
    for number, q in enumerate(questions, start=1):
        # A unit with a lead of its own is served as itself, whatever else its words are near; its
        # answer is cached under the unit's whole record, so an edited lead or quote is answered afresh.
        named = {"unit": q.unit} if q.unit is not None and q.unit.lead else {}
        key = f"{q.question}\0{q.unit!r}" if named else q.question
        result = cache.get(key, sources_hash, tax_year, mode, rules_version)
        if result is None:
            if engine is None:
                engine = engine_factory()
            result = stable_result(engine.answer(q.question, tax_year=None, history=None, use_faq=False, **named).to_json())
            cache.put(key, sources_hash, tax_year, mode, rules_version, result)
            answered += 1
            log(f"[faq] {number}/{len(questions)} answered ({result.get('status')}): {q.question}")
        else:
            cached += 1
        reason = unpublished_reason(result)
        if reason:
            dropped.append((q.question, reason))
            continue
        entries.append({"question": q.question, "slug": q.slug, "topic": q.topic, "url": q.url, "result": result})
    return FaqRun(entries, answered, cached, dropped)


def faq_json_text(entries: list[dict]) -> str:
    return json.dumps(entries, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


# -- the pipeline stage -------------------------------------------------------------------------

def sources_hash(index_dir: Path) -> str:
    """What an answer depends on besides the question and the rules: the index (its manifest: corpus
    hash, embedder, format, BM25 settings; not its build time) and the engine's own code."""
    try:
        manifest = json.loads((Path(index_dir) / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        raise StageError(f"no index at {index_dir} (manifest.json missing): run `nztax build` so the index stage runs first") from None
    manifest.pop("built_at", None)
    return fingerprint_of(manifest, engine_code_hash())


def engine_code_hash() -> str:
    """The engine's Python source (nztax/*.py) and its knowledge data (nztax/data/*.yaml: the intent
    catalogue, the words the readers know, the frame's labelled examples): a changed composer, word
    list or example means new answers."""
    import nztax

    package = Path(nztax.__file__).parent
    digest = hashlib.sha256()
    for path in sorted([*package.rglob("*.py"), *(package / "data").glob("*.yaml")]):
        digest.update(path.relative_to(package).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def answer_mode(settings) -> str:
    return f"llm:{settings.llm_model}" if getattr(settings, "llm_model", None) else "offline"


def _questions_path(ctx: BuildContext) -> Path:
    return Path(ctx.settings.units_dir)


def bank_hash(path: Path) -> str:
    """The unit bank's bytes (every file of a folder), for fingerprints."""
    path = Path(path)
    files = sorted(path.glob("*.yaml")) if path.is_dir() else [path]
    digest = hashlib.sha256()
    for f in files:
        digest.update(f.name.encode() + b"\0" + (f.read_bytes() if f.exists() else b""))
    return digest.hexdigest()


def _fingerprint(ctx: BuildContext) -> str:
    from nztax.rules import current_tax_year, load_rules

    # (The sources hash holds the corpus hash: a changed page re-checks every unit's support.)
    return fingerprint_of(
        FAQ_VERSION, bank_hash(_questions_path(ctx)), sources_hash(_target_index(ctx)),
        load_rules(ctx.settings.rules_dir).version(), current_tax_year(), answer_mode(ctx.settings),
    )


def default_engine_factory(settings) -> Callable[[], Answerer]:
    """A fresh engine on `settings` (not the process-wide one: the index may have just been rebuilt)."""
    def make() -> Answerer:
        try:
            from nztax.engine import Engine
        except ModuleNotFoundError as exc:
            raise StageError(f"the answer engine is not available ({exc}); the FAQ cannot be answered") from None
        try:
            return Engine.create(settings)
        except Exception as exc:  # index missing or mismatched, rules invalid: say so, no traceback
            raise StageError(f"the answer engine could not load: {exc}") from None
    return make


def _target_index(ctx: BuildContext) -> Path:
    """The index this build is making: a staged `index.new/` (answered before it is published,
    so the live index never lacks its FAQ answers), else the live one."""
    from nztax_build.indexer import index_in_progress

    return index_in_progress(Path(ctx.settings.index_dir))


def run_faq(ctx: BuildContext, engine_factory: Callable[[], Answerer] | None = None) -> str:
    from nztax.rules import current_tax_year, load_rules

    from .unit_support import check_support, write_withheld

    settings = dataclasses.replace(ctx.settings, index_dir=_target_index(ctx))
    _, questions = load_questions(_questions_path(ctx))
    # Each unit's quote must still be on its page: a unit whose support is gone is withheld (not
    # answered, not published, not served by the Ask box) and listed.
    withheld = check_support([q.unit for q in questions if q.unit is not None], settings.index_dir)
    write_withheld(settings.index_dir, withheld)
    for w in withheld:
        ctx.log(f"[faq] stale unit withheld ({w.reason}): {w.unit.question} [{w.unit.url}]")
    gone = {w.unit.id for w in withheld}
    questions = [q for q in questions if q.unit is None or q.unit.id not in gone]
    run = answer_questions(
        questions,
        engine_factory or default_engine_factory(settings),
        AnswerCache(Path(settings.work_dir) / "faq"),
        sources_hash(settings.index_dir),
        current_tax_year(),
        answer_mode(settings),
        load_rules(settings.rules_dir).version(),
        log=ctx.log,
    )
    _store_unit_vectors(settings, Path(settings.units_dir), {w.unit.id: w.reason for w in withheld})
    for question, status in run.dropped:
        ctx.log(f"[faq] not published ({status}): {question}")
    atomic_write_text(Path(settings.index_dir) / FAQ_JSON, faq_json_text(run.entries))
    from nztax.engine_parts import PARTS_FILE, is_current

    if (Path(settings.index_dir) / PARTS_FILE).exists() and not is_current(settings, settings.index_dir):
        # Withholding a unit changed what the index stage's stored parts were made from.
        from nztax_build.indexer import store_engine_parts

        store_engine_parts(settings, Path(settings.index_dir))
    stale = f", {len(withheld)} stale units withheld" if withheld else ""
    return (f"{len(questions)} questions: {len(run.entries)} published, {len(run.dropped)} dropped{stale}; "
            f"answered {run.answered}, from cache {run.cached}")


def _store_unit_vectors(settings, units_path: Path, withheld: dict[str, str]) -> None:
    """The servable units' paraphrase vectors beside the index, so the Ask box need not embed them
    at start-up (kept when already current)."""
    from nztax.unit_match import paraphrase_rows, save_vectors, servable, stored_vectors

    bank = UnitBank.load(units_path)
    rows = len(paraphrase_rows(servable(bank, withheld)))
    try:
        from nztax.embedders import get_embedder

        embedder = get_embedder(settings)
    except Exception:  # no embedder: the Ask box matches units by their words alone
        return
    if stored_vectors(settings.index_dir, bank, embedder, rows) is None:
        save_vectors(settings.index_dir, bank, embedder, withheld)


FAQ_STAGE = Stage(
    name="faq",
    run=run_faq,
    fingerprint=_fingerprint,
    outputs=lambda ctx: [_target_index(ctx) / FAQ_JSON],
)
