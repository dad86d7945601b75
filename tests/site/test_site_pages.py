"""The generated site: FAQ pages, calculators, tax-year and what-changed pages, sources, determinism,
page weight, and `rebuild` touching only what a rules edit changes.

Uses the session's fixture site (site_fixtures.py): the real engine answers the fixture questions on
the fixture index; mkdocs builds it with --strict.
"""

from __future__ import annotations

import dataclasses
import gzip
import json
import os
import re
import shutil
import statistics
from pathlib import Path

import pytest
from site_fixtures import FIXTURE_QUESTIONS, ROOT, fixture_env

from nztax_build.calculator_pages import CALCULATOR_SCRIPTS
from nztax_build.faq import FIGURE, AnswerCache, answer_questions, load_questions, shows_figures, slugify
from nztax_build.rebuild import diff_trees, run_mkdocs
from nztax_build.render import answer_block, load_inputs, render_site

FAQ_PAGE_BUDGET_BYTES = 60_000  # anchors C5: keep pages small; a pruned page is ~40 KB raw, ~6 KB gz


def faq_pages(site_dir: Path) -> list[Path]:
    return sorted(p for p in (site_dir / "faq").glob("*/*/index.html"))


def test_only_answered_questions_are_published(built_site):
    faq = json.loads((built_site.settings.index_dir / "faq.json").read_text())
    assert faq and all(e["result"]["status"] == "answered" for e in faq)
    assert all(set(e) == {"question", "slug", "topic", "url", "result"} for e in faq)
    assert all(e["url"] == f"/faq/{e['topic']}/{e['slug']}/" for e in faq)
    questions = {e["question"] for e in faq}
    assert "How do I register for GST?" not in questions  # declined: not published
    assert not (built_site.site_src / "faq" / "kiwisaver" / "how-do-i-register-for-gst").exists()
    assert len(faq_pages(built_site.site_dir)) == len(faq)


def test_faq_page_has_answer_badge_figures_citations_date_and_related(built_site):
    md = (built_site.site_src / "faq" / "paye" / "how-much-is-taken-out-of-a-four-weekly-pay-of-3500" / "index.md").read_text()
    assert 'class="nz-badge">Tax year 2026-27' in md
    assert "## Worked figures" in md and "$589.72" in md and "$197.28" in md  # IRD spec 2026-27 example 4
    assert "## Sources" in md and "](https://www.ird.govt.nz/" in md
    assert "Sources last checked 21 November 2026" in md  # the manifest's crawl date, not the build date
    assert "## Related questions" in md


def test_faq_pages_show_the_same_answer_html_as_the_ask_box(built_site):
    """One renderer for both: the built page carries exactly the HTML /ask returns as answer_html."""
    from nztax.answer_html import render_answer_html

    faq = json.loads((built_site.settings.index_dir / "faq.json").read_text())
    for entry in faq[:5]:
        html = (built_site.site_dir / entry["url"].strip("/") / "index.html").read_text()
        assert render_answer_html(entry["result"]["answer"]) in html, entry["url"]


def test_calculator_pages_and_rules_json(built_site):
    calculators = built_site.site_dir / "calculators"
    expected = ["income-tax", "paye", "take-home", "acc-levy", "student-loan", "ietc", "kiwisaver", "donations", "pir", "secondary-code", "compare-years"]
    for slug in expected:
        html = (calculators / slug / "index.html").read_text()
        assert 'class="nz-calc"' in html and 'data-rules="../data/rules.json"' in html, slug
        # The rules come from the one shared script, never copied into the page.
        assert '<script src="../data/rules.js"></script>' in html and "data-rules-json" not in html, slug
        assert "<table>" in html, f"{slug}: no precomputed table"
        # The calculators' code in its parts, kit first and the form-binding entry point last.
        assert re.findall(r'<script src="\.\./\.\./javascripts/([^"]+)"', html) == list(CALCULATOR_SCRIPTS), slug
    for name in CALCULATOR_SCRIPTS:
        assert (built_site.site_dir / "javascripts" / name).is_file(), name
    rules = json.loads((calculators / "data" / "rules.json").read_text())
    assert {"2023-24", "2024-25", "2025-26", "2026-27"} <= set(rules["years"])
    script = (calculators / "data" / "rules.js").read_text()
    prefix = "globalThis.NZTaxRules = "
    assert script.startswith(prefix) and script.endswith(";\n")
    assert json.loads(script[len(prefix):-2]) == rules
    # Precomputed table (no JavaScript): weekly $1,000 on M in 2026-27 is IR340 April 2026's 171.50.
    paye = (built_site.site_src / "calculators" / "paye.md").read_text()
    assert "| $1,000 | $171.50 | $161.50 |" in paye


def test_tax_year_and_what_changed_pages(built_site):
    src = built_site.site_src / "tax-years"
    year = (src / "2026-27.md").read_text()
    assert "1.75%" in year and "$156,641" in year and "$2,741.22" in year
    changes = (src / "changes-2025-26.md").read_text()
    # 2024-25 composite bands -> the new bands; the default KiwiSaver rate is unchanged until 2026-27.
    assert "## Income tax rates" in changes and "## ACC earners' levy" in changes
    ks = (src / "changes-2026-27.md").read_text()
    assert "## KiwiSaver" in ks and "3%" in ks and "3.5%" in ks
    partial = (src / "changes-2027-28.md").read_text()
    assert "not yet published" in partial
    assert (built_site.site_dir / "tax-years" / "2027-28" / "index.html").exists()


def test_sources_page_lists_every_source_with_snapshot_notice(built_site):
    html = (built_site.site_dir / "sources" / "index.html").read_text()
    manifest = json.loads((built_site.settings.corpus_dir / "manifest.json").read_text())
    assert "Summaries, not the original wording" in html  # the fixture corpus is a snapshot
    for page in manifest["pages"]:
        assert f'href="{page["url"]}"' in html
    dates = html.replace("\u00a0", " ")  # dates are kept on one line with non-breaking spaces
    assert "21 November 2026" in dates and "1 June 2026" in dates
    assert "21\u00a0November\u00a02026" in html
    # Each source shows the evidence that its address is real and when that was checked.
    assert "Address verified" in html and "checked 28\u00a0November\u00a02026" in html
    assert html.count("checked 28\u00a0November\u00a02026") >= len(manifest["pages"])
    assert "address not yet confirmed" not in html


def test_an_address_without_evidence_is_cited_without_a_link():
    from nztax_build.sources_page import cite_link, evidence_by_url, render_sources_page

    sources = [{"url": "https://www.ird.govt.nz/a", "verified": {"how": "stored_copy", "evidence": "https://ird.govt.nz/a", "checked": "2026-11-28"}},
               {"url": "https://www.ird.govt.nz/b"}]
    evidence = evidence_by_url(sources)
    snapshot = {"snapshot": True, "pages": [{"url": s["url"], "title": s["url"][-1].upper(), "status": "active"} for s in sources]}
    assert cite_link("A", "https://www.ird.govt.nz/a", evidence, snapshot) == "[A](https://www.ird.govt.nz/a)"
    assert cite_link("B", "https://www.ird.govt.nz/b", evidence, snapshot) == "B (address not yet confirmed)"
    # A live crawl that fetched the address confirms it.
    live = dict(snapshot, snapshot=False)
    assert cite_link("B", "https://www.ird.govt.nz/b", evidence, live) == "[B](https://www.ird.govt.nz/b)"
    page = render_sources_page(snapshot, sources)
    assert "(https://www.ird.govt.nz/b)" not in page and "B (address not yet confirmed)" in page
    assert "[stored copy](https://ird.govt.nz/a), checked 28" in page


def test_ask_box_on_every_page_points_at_the_configured_url(built_site):
    for page in [built_site.site_dir / "index.html", *faq_pages(built_site.site_dir)[:3]]:
        html = page.read_text()
        assert 'data-nz-ask data-ask-url="http://127.0.0.1:8080/"' in html
    assert "fonts.googleapis" not in (built_site.site_dir / "index.html").read_text()


def test_page_weight(built_site):
    sizes = [p.stat().st_size for p in faq_pages(built_site.site_dir)]
    gz = [len(gzip.compress(p.read_bytes())) for p in faq_pages(built_site.site_dir)]
    median = statistics.median(sizes)
    print(f"median FAQ page: {median / 1000:.1f} KB raw, {statistics.median(gz) / 1000:.1f} KB gzip ({len(sizes)} pages)")
    assert median < FAQ_PAGE_BUDGET_BYTES


def test_render_is_deterministic(built_site, tmp_path):
    # Rendering again changes nothing; rendering elsewhere gives the same bytes.
    assert render_site(load_inputs(built_site.settings)) == []
    other = tmp_path / "site_src"
    shutil.copytree(built_site.site_src, other, ignore=shutil.ignore_patterns("faq", "calculators", "tax-years", "sources", "generated"))
    render_site(load_inputs(dataclasses.replace(built_site.settings, site_src=other)))
    for path in built_site.site_src.rglob("*.md"):
        twin = other / path.relative_to(built_site.site_src)
        assert twin.read_bytes() == path.read_bytes(), path


def test_mkdocs_build_is_byte_identical(built_site, tmp_path):
    env = fixture_env(built_site.settings, "http://127.0.0.1:8080/")
    run_mkdocs(built_site.settings, tmp_path / "again", env=env)
    assert diff_trees(built_site.site_dir, tmp_path / "again") == []


def test_rules_edit_changes_only_pages_that_show_it(built_site, tmp_path, monkeypatch):
    """Change the 2026-27 ACC rate: pages showing ACC or PAYE figures change, nothing else does."""
    import nztax.rules
    from nztax.settings import get_settings

    rules_dir = tmp_path / "rules"
    shutil.copytree(built_site.settings.rules_dir, rules_dir)
    year = rules_dir / "2026-27.yaml"
    text = year.read_text()
    assert "rate: 0.0175\n  max_liable_earnings: 156641\n  max_levy: 2741.22" in text
    year.write_text(text.replace("rate: 0.0175\n  max_liable_earnings: 156641\n  max_levy: 2741.22",
                                 "rate: 0.0180\n  max_liable_earnings: 156641\n  max_levy: 2819.54"))
    home = tmp_path / "home"
    shutil.copytree(built_site.home, home, ignore=shutil.ignore_patterns("site", "site-live"))
    settings = dataclasses.replace(built_site.settings, home=home, rules_dir=rules_dir, index_dir=home / "index", work_dir=home / "work",
                                   site_src=home / "site_src", corpus_dir=home / "corpus")
    import nztax_build.faq

    monkeypatch.setattr(nztax_build.faq, "engine_code_hash", lambda: built_site.engine_hash)
    monkeypatch.setenv("NZTAX_RULES_DIR", str(rules_dir))
    get_settings.cache_clear()
    nztax.rules._cached.cache_clear()
    try:
        from nztax_build.faq import run_faq
        from nztax_build.pipeline import BuildContext

        with open(os.devnull, "w") as quiet:
            summary = run_faq(BuildContext(settings=settings, log_stream=quiet))
        changed = render_site(load_inputs(settings))
    finally:
        monkeypatch.delenv("NZTAX_RULES_DIR")
        get_settings.cache_clear()
        nztax.rules._cached.cache_clear()

    faq = json.loads((settings.index_dir / "faq.json").read_text())
    with_figures = sum(shows_figures(e["result"]) for e in faq)
    asked = sum(len(t["questions"]) for t in FIXTURE_QUESTIONS["topics"].values())
    assert f"answered {with_figures}, from cache {asked - with_figures}" in summary  # only answers with figures re-answered
    changed = set(changed)
    assert {"calculators/data/rules.json", "calculators/data/rules.js"} <= changed
    assert {"tax-years/2026-27.md", "tax-years/changes-2026-27.md", "tax-years/changes-2027-28.md"} <= changed
    assert {"calculators/paye.md", "calculators/acc-levy.md", "calculators/take-home.md"} <= changed
    assert "faq/acc-levy/how-much-acc-levy-do-i-pay-on-60000-in-2026-27/index.md" in changed
    assert "faq/paye/how-much-paye-is-deducted-from-1000-a-week-in-2026-27/index.md" in changed
    unchanged = {"tax-years/2025-26.md", "tax-years/changes-2025-26.md", "sources/index.md", "calculators/income-tax.md",
                 "calculators/pir.md", "faq/tax-rates/how-much-tax-do-i-pay-on-65000-a-year/index.md",
                 "faq/kiwisaver/what-is-esct/index.md"}
    assert not unchanged & changed
    acc_page = (settings.site_src / "faq" / "acc-levy" / "how-much-acc-levy-do-i-pay-on-60000-in-2026-27" / "index.md").read_text()
    assert "$1,080" in acc_page  # 60,000 x 1.80%


def test_question_list_covers_every_topic():
    from nztax.settings import get_settings

    topics, questions = load_questions(get_settings().units_dir)
    wanted = {"tax-rates", "tax-codes", "secondary-jobs", "paye", "acc-levy", "student-loans", "kiwisaver", "ietc",
              "working-for-families", "pie-pir", "rwt", "donations", "ir3-refunds", "rental", "residency"}
    assert wanted <= {t.slug for t in topics}
    assert len(questions) >= 400  # the unit bank (issue 37): every FAQ page is one unit
    assert len({(q.topic, q.slug) for q in questions}) == len(questions)
    assert any("Budget 2025" in q.question for q in questions if q.topic == "kiwisaver")


def test_slugify():
    assert slugify("How much tax do I pay on $65,000 a year?") == "how-much-tax-do-i-pay-on-65000-a-year"
    assert slugify("KiwiSaver at 3.5%?") == "kiwisaver-at-3-5"
    assert slugify("Māori authorities — RWT") == "maori-authorities-rwt"


def test_answer_cache_keys_on_rules_only_for_figures(tmp_path):
    class Result:
        def __init__(self, data):
            self.data = data

        def to_json(self):
            return self.data

    class Engine:
        calls: list[str] = []

        def answer(self, question, tax_year=None, history=None, use_faq=True):
            Engine.calls.append(question)
            if "GST" in question:
                return Result({"status": "out_of_scope", "answer": "No.", "tools": [], "citations": []})
            if "bright-line" in question:  # the engine's "nothing found in my sources" reply
                return Result({"status": "answered", "answer": "I couldn't find anything about this.", "tools": [], "citations": []})
            figure = "$1,638" if "tax" in question else "a tax code"
            return Result({"status": "answered", "answer": f"It is {figure}.", "tools": [], "latency_ms": 12,
                           "citations": [{"title": "IRD", "url": "https://www.ird.govt.nz/"}]})

    from nztax_build.faq import FaqQuestion

    qs = [FaqQuestion(q, slugify(q), "t", "T") for q in ("How much tax on $15,600?", "What is M?", "GST?", "What is the bright-line test?")]
    cache = AnswerCache(tmp_path)
    first = answer_questions(qs, Engine, cache, "src", "2026-27", "offline", "rules-1", log=lambda m: None)
    assert [e["question"] for e in first.entries] == ["How much tax on $15,600?", "What is M?"]
    assert first.dropped == [("GST?", "out_of_scope"), ("What is the bright-line test?", "no sources found")]
    assert first.answered == 4
    assert all(e["result"]["latency_ms"] == 0 for e in first.entries)
    Engine.calls.clear()
    second = answer_questions(qs, Engine, cache, "src", "2026-27", "offline", "rules-2", log=lambda m: None)
    assert Engine.calls == ["How much tax on $15,600?"]  # only the answer with a figure depends on the rules
    assert second.cached == 3
    Engine.calls.clear()
    answer_questions(qs, Engine, cache, "src-changed", "2026-27", "offline", "rules-2", log=lambda m: None)
    assert len(Engine.calls) == 4  # new sources: every answer again


def test_figure_pattern():
    assert FIGURE.search("PAYE is $589.72") and FIGURE.search("a rate of 1.75%") and FIGURE.search("up to 156,641")
    assert not FIGURE.search("in the 2026-27 tax year, section LC 15")


def test_answer_on_a_page_cannot_carry_html_or_relative_links():
    block = answer_block('Hi <script>alert(1)</script> [ok](https://ird.govt.nz/x) [bad](../x.md) ![i](https://e/x.png) <img src=x onerror=y>')
    assert "<script" not in block and "<img" not in block and "&lt;script&gt;" in block
    assert 'href="https://ird.govt.nz/x"' in block and "../x.md" not in block and "bad" in block


@pytest.mark.parametrize("year", ["2023-24", "2024-25", "2025-26", "2026-27"])
def test_year_page_lists_each_section_with_its_source(built_site, year):
    md = (built_site.site_src / "tax-years" / f"{year}.md").read_text()
    for heading in ("Income tax rates", "ACC earners' levy", "Secondary tax codes", "Student loan repayments", "KiwiSaver", "ESCT"):
        assert f"## {heading}" in md
    assert md.count("Source: [") >= 10


# ---------------------------------------------------------------- pages speak as a page (issue 16)

CHAT_WORDING = ("Tell me if", "Tell me which", "Tell me again", "I couldn't", "Kia ora", "What would you like",
                "Let me know", "I'll work it out", "Ask me")
URL_LIKE = re.compile(r"https?://|www\.|\.govt\.nz|/[a-z0-9-]+/", re.I)


def page_body(html: str):
    """A built page's own content: the article without the Ask box (which is a chat on purpose)."""
    from bs4 import BeautifulSoup

    article = BeautifulSoup(html, "html.parser").find("article")
    for box in article.select("section.nz-ask, script, style"):
        box.decompose()
    return article


def sources_list(article):
    heading = article.find("h2", id="sources") or next((h for h in article.find_all("h2") if h.get_text(strip=True).startswith("Sources")), None)
    return heading.find_next_sibling("ol") if heading else None


def assert_readable_label(label: str, where: str) -> None:
    assert label.strip(), where
    assert not URL_LIKE.search(label), f"{where}: source label is an address, not a title: {label!r}"
    assert "snapshot" not in label.lower(), f"{where}: internal wording in a source label: {label!r}"


def test_faq_pages_speak_as_a_page_not_a_chat(built_site):
    pages = faq_pages(built_site.site_dir)
    assert pages
    for path in pages:
        text = page_body(path.read_text()).get_text(" ", strip=True)
        for phrase in CHAT_WORDING:
            assert phrase.lower() not in text.lower(), f"{path.relative_to(built_site.site_dir)}: chat wording {phrase!r}"


def test_faq_source_labels_are_readable_titles(built_site):
    checked = 0
    for path in faq_pages(built_site.site_dir):
        listing = sources_list(page_body(path.read_text()))
        if listing is None:
            continue
        for a in listing.find_all("a"):
            assert a["href"].startswith("https://"), path
            assert_readable_label(a.get_text(), str(path.relative_to(built_site.site_dir)))
            checked += 1
    assert checked


def test_calculator_and_tax_year_source_links_show_titles(built_site):
    """Calculator results name their source by the title in the rules data (data-source-titles,
    read by calculators.js), and the tax-year pages do the same: never an address cut mid-word."""
    from bs4 import BeautifulSoup

    from nztax.rules import load_rules
    from nztax_build.render import rules_source_titles

    rules = load_rules(built_site.settings.rules_dir)
    titles = rules_source_titles(rules)
    sources = {section.source for year in rules.years.values() for section in vars(year.data).values() if getattr(section, "source", None)}
    assert sources <= set(titles)  # every source a calculator can show has a title
    for slug_dir in sorted((built_site.site_dir / "calculators").glob("*/index.html")):
        form = BeautifulSoup(slug_dir.read_text(), "html.parser").find("form", class_="nz-calc")
        if form is None:
            continue
        page_titles = json.loads(form["data-source-titles"])
        assert page_titles == titles, slug_dir
        for label in page_titles.values():
            assert_readable_label(label, str(slug_dir))
    for year_page in sorted((built_site.site_dir / "tax-years").glob("20*/index.html")):
        article = page_body(year_page.read_text())
        links = [small.find("a") for small in article.find_all("small") if small.get_text().startswith("Source:")]
        assert links, year_page
        for a in links:
            assert a["href"] in titles and a.get_text() == titles[a["href"]], (year_page, a)


def test_calculator_links_in_answers_open_in_the_same_tab(built_site):
    """Links to the site's own pages (the calculator link in an answer) stay in the tab; links to
    other sites open a new one (issue 13)."""
    internal = 0
    for path in faq_pages(built_site.site_dir):
        answer = page_body(path.read_text()).find("div", class_="nz-answer")
        for a in answer.find_all("a", href=True):
            if a["href"].startswith("/"):
                assert not a.get("target"), (path, str(a))
                internal += 1
            else:
                assert a.get("target") == "_blank" and "noopener" in a.get("rel", []), (path, str(a))
    assert internal  # the fixture FAQ has calculation answers, each with its calculator link


# Wording that belongs to the people building the site, never to its readers (issue 41): build
# commands, the snapshot's own name for itself, and the placeholder address.
DEVELOPMENT_WORDING = ("bundled snapshot", "make crawl", "nztax crawl", "in its own words", "example.invalid",
                       "nztax_build", "snapshot_src", "written by this project", "site_src")


def test_no_page_carries_development_wording(built_site):
    import re

    pages = sorted(built_site.site_dir.rglob("*.html")) + [built_site.site_dir / "sitemap.xml"]
    assert len(pages) > 30
    found = []
    for page in pages:
        # Visible text and attributes, without the theme's scripts (search index keys etc. are not shown).
        text = re.sub(r"<script\b.*?</script>", "", page.read_text(encoding="utf-8"), flags=re.S).lower()
        found += [(str(page.relative_to(built_site.site_dir)), w) for w in DEVELOPMENT_WORDING if w in text]
    assert not found, found[:10]


def test_sources_page_shows_no_raw_topic_names(built_site):
    import yaml

    html = (built_site.site_dir / "sources" / "index.html").read_text()
    topics = {s["topic"] for s in yaml.safe_load((built_site.settings.corpus_dir / "sources.yaml").read_text())["sources"]}
    assert "tax-rates" in topics
    cells = {re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", html, flags=re.S)}
    assert cells and not cells & topics, cells & topics


def test_site_address_comes_from_the_setting_and_refuses_a_placeholder(built_site, tmp_path, monkeypatch):
    from mkdocs.exceptions import ConfigurationError

    from nztax.settings import get_settings
    from nztax_build import mkdocs_hooks

    def config():
        return {"docs_dir": str(tmp_path), "extra": {"ask_url": "https://ask.example.nz/"}, "site_url": "http://127.0.0.1:8000/"}

    monkeypatch.setenv("NZTAX_SITE_URL", "https://tax.example.nz")
    get_settings.cache_clear()
    try:
        assert mkdocs_hooks.on_config(config())["site_url"] == "https://tax.example.nz/"
        for placeholder in ("https://nztax.example.invalid/", "https://www.example.com/", "not a url"):
            monkeypatch.setenv("NZTAX_SITE_URL", placeholder)
            get_settings.cache_clear()
            with pytest.raises(ConfigurationError, match="NZTAX_SITE_URL"):
                mkdocs_hooks.on_config(config())
    finally:
        get_settings.cache_clear()


def test_one_citation_style_in_answers_and_calculators(built_site):
    """A rules source is labelled the same in an answer and under a calculator's result (issue 41)."""
    from nztax.rules import default_rules

    from nztax_build.render import rules_source_titles

    labels = rules_source_titles(default_rules())
    faq = json.loads((built_site.settings.index_dir / "faq.json").read_text())
    cited = [(c["url"], c["title"]) for e in faq for c in e["result"]["citations"] if c["url"] in labels]
    assert cited
    from nztax.composer import CITATION_PUBLISHER

    # One page can hold several sections' figures: the section named differs, the style does not.
    off_style = [(url, title) for url, title in cited
                 if not (title.startswith(f"{CITATION_PUBLISHER}: ") and labels[url].startswith(f"{CITATION_PUBLISHER}: "))]
    assert not off_style, off_style[:5]
