"""Site test helpers: a small site built end to end in a temporary home, once per session.

The fixture home has the hand-written parts of site_src (home page, overrides, javascripts,
stylesheets), an 18-question FAQ list, a small corpus manifest and the shared fixture chunks
(tests/fixtures/chunks_small) indexed with the offline embedder. The FAQ is answered by the real
engine, the pages rendered, and mkdocs run on a copy of mkdocs.yml pointing at the fixture.
"""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
FIXTURE_CHUNKS = ROOT / "tests" / "fixtures" / "chunks_small"
HAND_WRITTEN = ("index.md", "overrides", "javascripts", "stylesheets")
SNAPSHOT_DATE = "2026-11-21T00:00:00Z"

FIXTURE_QUESTIONS = {
    "topics": {
        "tax-rates": {"title": "Income tax rates", "intro": "Rates and brackets.", "questions": [
            "What are the income tax rates in New Zealand?",
            "How much tax do I pay on $65,000 a year?",
            "How much tax will I pay on an $85,000 salary?",
            "What is the top tax rate in New Zealand?",
        ]},
        "paye": {"title": "PAYE and take-home pay", "intro": "PAYE on each pay.", "questions": [
            "How much PAYE is deducted from $1,000 a week in 2026-27?",
            "How much is taken out of a four-weekly pay of $3,500 on M SL with KiwiSaver at 3.5% in 2026-27?",
            "What is my take-home pay on a salary of $60,000?",
            "How much student loan is taken from $1,000 a week?",
            "What is my take-home pay on $90,000 with a student loan?",
        ]},
        "acc-levy": {"title": "ACC earners' levy", "intro": "The levy.", "questions": [
            "What is the ACC earners' levy rate for 2026-27?",
            "How much ACC levy do I pay on $60,000 in 2026-27?",
            "What is the ACC earners' levy?",
        ]},
        "kiwisaver": {"title": "KiwiSaver", "intro": "Contributions.", "questions": [
            "What are the KiwiSaver contribution rates?",
            "What is ESCT?",
            "How do I register for GST?",
        ]},
        "ietc": {"title": "Independent earner tax credit", "intro": "", "questions": [
            "How much IETC do I get on $67,000?",
            "Who is eligible for the independent earner tax credit?",
            "What is the independent earner tax credit?",
        ]},
    }
}


def fixture_manifest() -> dict:
    urls = sorted({json.loads(line)["url"] for line in (FIXTURE_CHUNKS / "parents.jsonl").read_text().splitlines() if line.strip()})
    pages = []
    for i, url in enumerate(urls):
        pages.append({"url": url, "file": f"raw/{i:020d}.html", "source_type": "legislation" if "legislation.govt" in url else "ird_guidance",
                      "title": url.rstrip("/").rsplit("/", 1)[-1].replace("-", " ").capitalize(), "content_type": "text/html",
                      "fetched_at": SNAPSHOT_DATE, "content_hash": f"{i:064x}", "bytes": 1000, "etag": None, "last_modified": None,
                      "status": "active", "gone_count": 0, "last_changed": "2026-06-01T00:00:00Z"})
    return {"format": 1, "snapshot": True, "updated_at": SNAPSHOT_DATE, "pages": pages}


def make_home(home: Path) -> None:
    """Copy the hand-written site parts and write the fixture inputs into `home`."""
    (home / "site_src").mkdir(parents=True)
    for name in HAND_WRITTEN:
        src = ROOT / "site_src" / name
        (shutil.copytree if src.is_dir() else shutil.copy2)(src, home / "site_src" / name)
    (home / "site_src" / "faq_questions.yaml").write_text(yaml.safe_dump(FIXTURE_QUESTIONS, sort_keys=False))
    (home / "corpus").mkdir()
    (home / "corpus" / "manifest.json").write_text(json.dumps(fixture_manifest(), indent=1))
    # The real sources keep their evidence; the fixture pages are vouched for as fixtures, so every
    # citation is linked (sources_page.cite_link leaves an address without evidence unlinked).
    real = yaml.safe_load((ROOT / "corpus" / "sources.yaml").read_text())["sources"]
    vouched = {"how": "cited_by", "checked": "2026-11-28", "note": "test fixture page"}
    listed = {s["url"] for s in real}
    fixture = [{"url": p["url"], "topic": "tax-rates", "verified": vouched} for p in fixture_manifest()["pages"] if p["url"] not in listed]
    (home / "corpus" / "sources.yaml").write_text(yaml.safe_dump({"sources": real + fixture}))
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text())
    config["docs_dir"] = str(home / "site_src")
    config["site_dir"] = str(home / "site")
    config["theme"]["custom_dir"] = str(home / "site_src" / "overrides")
    config["hooks"] = [str(ROOT / "build" / "nztax_build" / "mkdocs_hooks.py")]
    (home / "mkdocs.yml").write_text(yaml.safe_dump(config, sort_keys=False, allow_unicode=True))


def fixture_settings(home: Path, **overrides):
    from nztax.settings import get_settings

    base = dataclasses.replace(
        get_settings(), home=home, corpus_dir=home / "corpus", index_dir=home / "index", work_dir=home / "work",
        site_src=home / "site_src", units_dir=home / "site_src" / "faq_questions.yaml",
        embedder="local", gemini_api_key=None, llm_model=None, relevance_floor=None,
    )
    return dataclasses.replace(base, **overrides)


def fixture_env(settings, ask_url: str) -> dict:
    """The environment a subprocess (mkdocs, the function) needs to see the fixture home."""
    env = dict(os.environ)
    env.update({
        "NZTAX_HOME": str(settings.home), "NZTAX_CORPUS_DIR": str(settings.corpus_dir), "NZTAX_INDEX_DIR": str(settings.index_dir),
        "NZTAX_WORK_DIR": str(settings.work_dir), "NZTAX_SITE_SRC": str(settings.site_src), "NZTAX_RULES_DIR": str(settings.rules_dir),
        "NZTAX_UNITS_DIR": str(settings.units_dir),
        "NZTAX_EMBEDDER": "local", "NZTAX_ASK_URL": ask_url, "LITELLM_LOCAL_MODEL_COST_MAP": "True", "NO_MKDOCS_2_WARNING": "1",
        "HF_HUB_OFFLINE": "1",
    })
    for key in ("NZTAX_LLM_MODEL", "GEMINI_API_KEY", "SOURCE_DATE_EPOCH"):
        env.pop(key, None)
    return env


@dataclasses.dataclass
class BuiltSite:
    home: Path
    settings: object
    faq_summary: str
    changed: list[str]
    engine_hash: str  # the engine code hash the FAQ cache was keyed on (helpers edit the engine in parallel)

    @property
    def site_dir(self) -> Path:
        return self.home / "site"

    @property
    def site_src(self) -> Path:
        return self.home / "site_src"


def build_fixture_site(home: Path, ask_url: str = "http://127.0.0.1:8080/") -> BuiltSite:
    from nztax_build.faq import engine_code_hash, run_faq
    from nztax_build.indexer import embed_and_index
    from nztax_build.pipeline import BuildContext
    from nztax_build.rebuild import run_mkdocs
    from nztax_build.render import load_inputs, render_site

    make_home(home)
    settings = fixture_settings(home, ask_url=ask_url)
    embed_and_index(settings, force=True, chunks_dir=FIXTURE_CHUNKS)
    engine_hash = engine_code_hash()
    with open(os.devnull, "w") as quiet:
        summary = run_faq(BuildContext(settings=settings, log_stream=quiet))
    changed = render_site(load_inputs(settings))
    run_mkdocs(settings, home / "site", env=fixture_env(settings, ask_url))
    return BuiltSite(home, settings, summary, changed, engine_hash)
