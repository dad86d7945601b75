"""The freshness check: every figure of the rules data is stated on its page in the bundled corpus;
a copy of a stored page with one figure changed (or its sentence gone) fails the check and the
nightly figures gate, naming the figure, the page and what the page says now."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from nztax.rules import load_rules
from nztax.settings import get_settings
from nztax_build import freshness, gates
from nztax_build.cli import main as nztax
from nztax_build.store import CrawlStore

REPO = Path(__file__).resolve().parents[2]
RULES_DIR = REPO / "function" / "nztax" / "rules"
FTC_PAGE = "https://www.ird.govt.nz/working-for-families/types/family-tax-credit"
FB_PAGE = "https://www.ird.govt.nz/familyboost/can-you-get-familyboost/how-much-familyboost-are-you-eligible-for"


@pytest.fixture(scope="module")
def book():
    return load_rules(RULES_DIR)


@pytest.fixture(scope="module")
def bundled_report(book):
    return freshness.check_rules(book, REPO / "corpus")


def corpus_copy(tmp_path: Path) -> Path:
    target = tmp_path / "corpus"
    shutil.copytree(REPO / "corpus", target, ignore=shutil.ignore_patterns("snapshot_src"))
    return target


def edit_page(corpus: Path, url: str, old: str, new: str) -> None:
    store = CrawlStore(corpus).load()
    path = store.raw_path(store.entry(url))
    body = path.read_text(encoding="utf-8")
    assert old in body, f"{old!r} is not on the stored page {url}"
    path.write_text(body.replace(old, new), encoding="utf-8")


def test_every_figure_of_every_year_is_stated_on_its_page_in_the_bundled_corpus(bundled_report):
    assert bundled_report.passed, "\n".join(c.line() for c in bundled_report.failures)
    checked = {(c.year, c.path) for c in bundled_report.checks}
    # The 2025 family changes are among the figures checked, each on the page that states it.
    for key in [("2025-26", "familyboost.periods[1].quarterly_max"), ("2026-27", "working_for_families.abatement_threshold"),
                ("2025-26", "in_work_tax_credit.periods[0].each_child_after_third"), ("2026-27", "residency.transitional_months"),
                # ... and so are the extra-pay and year-end square-up figures
                ("2024-25", "extra_pay.bands[1].to"), ("2026-27", "year_end.write_off_limit"),
                ("2023-24", "student_loan.other_income_minimum")]:
        assert key in checked


def test_a_changed_figure_fails_the_check_naming_figure_page_and_what_the_page_says(book, tmp_path):
    corpus = corpus_copy(tmp_path)
    edit_page(corpus, FTC_PAGE, "$7,524", "$7,800")
    report = freshness.check_rules(book, corpus)
    failed = {(c.year, c.path): c for c in report.failures}
    assert set(failed) == {("2025-26", "working_for_families.ftc_eldest_child")}
    check = failed[("2025-26", "working_for_families.ftc_eldest_child")]
    assert check.status == "different" and check.page == FTC_PAGE
    assert "$7,800" in check.page_says and "7524" in check.line()


def test_a_sentence_gone_from_its_page_fails_as_missing(book, tmp_path):
    corpus = corpus_copy(tmp_path)
    edit_page(corpus, FB_PAGE, "less than $57,286 a quarter", "below the quarterly cut-off")
    report = freshness.check_rules(book, corpus)
    missing = {(c.year, c.path) for c in report.failures if c.status == "missing"}
    assert ("2025-26", "familyboost.periods[1].income_limit") in missing
    assert ("2026-27", "familyboost.periods[0].income_limit") in missing


def test_the_nightly_figures_gate_stops_the_night_naming_the_figure(tmp_path):
    corpus = corpus_copy(tmp_path)
    edit_page(corpus, FB_PAGE, "up to $1,560 each quarter", "up to $1,600 each quarter")
    inputs = gates.GateInputs(manifest=corpus / "manifest.json", parse_report=None, retrieval=tmp_path / "r.json",
                              answers=tmp_path / "a.json", rules_dir=RULES_DIR)
    report = gates.evaluate(gates.collect(inputs), None, get_settings())
    figures = next(r for r in report.results if r.name == "figures")
    assert not figures.passed and not report.passed
    assert "familyboost.periods[1].quarterly_max" in figures.detail and "$1,600" in figures.detail
    assert "last published build stays live" in report.table()


def test_the_figures_gate_passes_on_the_untouched_corpus(tmp_path):
    inputs = gates.GateInputs(manifest=REPO / "corpus" / "manifest.json", parse_report=None,
                              retrieval=tmp_path / "r.json", answers=tmp_path / "a.json", rules_dir=RULES_DIR)
    figures = next(r for r in gates.evaluate(gates.collect(inputs), None, get_settings()).results if r.name == "figures")
    assert figures.passed, figures.detail


def test_rules_check_cli_exit_codes(tmp_path, capsys):
    assert nztax(["rules", "check", "--rules-dir", str(RULES_DIR), "--corpus", str(REPO / "corpus")]) == 0
    corpus = corpus_copy(tmp_path)
    edit_page(corpus, FTC_PAGE, "multiply what is left by 27%", "multiply what is left by 28%")
    capsys.readouterr()
    assert nztax(["rules", "check", "--rules-dir", str(RULES_DIR), "--corpus", str(corpus)]) == 1
    err = capsys.readouterr().err
    assert "2025-26 working_for_families.abatement_rate = 0.27: different" in err and "28%" in err


def test_a_figure_without_words_fails_as_unstated(tmp_path):
    rules = tmp_path / "rules"
    shutil.copytree(RULES_DIR, rules)
    path = rules / "2025-26.yaml"
    text = path.read_text()
    line = next(x for x in text.splitlines() if x.strip().startswith("best_start.weekly_amount:"))
    path.write_text(text.replace(line + "\n", ""))
    report = freshness.check_rules(load_rules(rules), REPO / "corpus")
    assert [(c.year, c.path, c.status) for c in report.failures] == [("2025-26", "best_start.weekly_amount", "unstated")]


@pytest.mark.parametrize(
    "words, text, value, status",
    [
        ("reduced by {} of income", "it is reduced by 27% of income over", 0.27, "ok"),
        ("reduced by {} of income", "it is reduced by 27.5% of income over", 0.27, "different"),
        ("less {} for each dollar", "the maximum less 7 cents for each dollar", 0.07, "ok"),
        ("between 3 and {} months", "between 3 and 12 months", 12, "ok"),
        ("pay {} at most", "pay 3% at most", 3, "different"),  # a count is not a percentage
        ("credit of {} a year", "a credit of $7,524 a year", 7524, "ok"),
        ("credit of {} a year", "nothing about it", 7524, "missing"),
    ],
)
def test_matching_reads_units(words, text, value, status):
    assert freshness.check_figure("2025-26", "x.y", value, "https://p", words, freshness.normalise(text)).status == status
