"""Support checked at every build (issue 37): a unit whose quote is gone from its cited page is
withheld from the FAQ and from the Ask box, and listed."""

from __future__ import annotations

import dataclasses
import io
import json

import yaml

from nztax.settings import get_settings
from nztax.unit_match import servable
from nztax.units import UnitBank, load_withheld
from nztax_build.faq import run_faq
from nztax_build.pipeline import BuildContext
from nztax_build.unit_support import check_support, fold

PAGE = "https://www.ird.govt.nz/income-tax/example-page"
BANK = {"topics": {"paye": {"title": "PAYE", "questions": [
    {"q": "What is PAYE?", "lead": "PAYE is the tax your employer takes from each pay.",
     "source": {"url": PAGE, "quote": "Your employer deducts tax from each pay before paying you."}},
    {"q": "Does PAYE include the ACC levy?", "lead": "Yes, the levy is part of PAYE.",
     "source": {"url": PAGE, "quote": "The ACC earners’ levy is included in your PAYE."}},
]}}}


def write_page(index_dir, text: str) -> None:
    index_dir.mkdir(parents=True, exist_ok=True)
    (index_dir / "manifest.json").write_text(json.dumps({"corpus_hash": text[:20]}))
    (index_dir / "chunks.json").write_text(json.dumps({"children": [], "parents": [{"url": PAGE, "text": text}]}))


class Result:
    def __init__(self, question):
        self.question = question

    def to_json(self):
        return {"status": "answered", "answer": f"About {self.question}", "tools": [], "tax_year": "2026-27",
                "citations": [{"title": "IRD", "url": PAGE}]}


class FakeEngine:
    def answer(self, question, tax_year=None, history=None, use_faq=True, unit=None):
        return Result(question)


def build(tmp_path, text: str):
    write_page(tmp_path / "index", text)
    units = tmp_path / "units.yaml"
    units.write_text(yaml.safe_dump(BANK, allow_unicode=True))
    settings = dataclasses.replace(get_settings(), home=tmp_path, index_dir=tmp_path / "index", work_dir=tmp_path / "work",
                                   site_src=tmp_path, units_dir=units, embedder="none-for-this-test")
    log = io.StringIO()
    summary = run_faq(BuildContext(settings=settings, log_stream=log), engine_factory=FakeEngine)
    faq = json.loads((tmp_path / "index" / "faq.json").read_text())
    return summary, log.getvalue(), [e["question"] for e in faq], load_withheld(tmp_path / "index")


def test_a_changed_page_withholds_its_unit(tmp_path):
    page = ("If you earn salary or wages, your employer deducts tax from each pay before paying you. "
            "The ACC earners' levy is included in your PAYE.")
    summary, log, published, withheld = build(tmp_path, page)
    assert published == ["What is PAYE?", "Does PAYE include the ACC levy?"] and withheld == {}

    # The page is reworded: the levy sentence is gone, so its unit is out of date.
    changed = page.replace("The ACC earners' levy is included in your PAYE.", "Your payslip shows each deduction.")
    summary, log, published, withheld = build(tmp_path, changed)
    assert published == ["What is PAYE?"]
    assert list(withheld) == ["paye/does-paye-include-the-acc-levy"]
    assert "quote is gone" in withheld["paye/does-paye-include-the-acc-levy"]
    assert "stale unit withheld" in log and "/faq/paye/does-paye-include-the-acc-levy/" in log
    assert "1 stale units withheld" in summary
    # ... and the Ask box does not serve it either.
    bank = UnitBank.load(tmp_path / "units.yaml")
    assert [u.id for u in servable(bank, withheld)] == ["paye/what-is-paye"]


def test_quotes_survive_reformatting_but_not_rewording():
    assert fold("The ACC  earners\u2019 levy \u2014 **included**") == fold("the ACC earners' levy - included")
    assert fold("the ACC earners' levy is included") not in fold("The ACC earners' levy is part of PAYE")


def test_a_page_gone_from_the_corpus_withholds_its_units(tmp_path):
    units = tmp_path / "units.yaml"
    units.write_text(yaml.safe_dump(BANK, allow_unicode=True))
    (tmp_path / "index").mkdir()
    (tmp_path / "index" / "chunks.json").write_text(json.dumps({"parents": [{"url": "https://www.ird.govt.nz/other", "text": "x"}]}))
    withheld = check_support(UnitBank.load(units).units, tmp_path / "index")
    assert len(withheld) == 2 and all("not in the corpus" in w.reason for w in withheld)
