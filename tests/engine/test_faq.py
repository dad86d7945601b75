"""The FAQ fast path serves precomputed answers for close matches only."""

import json

import pytest

from nztax.engine import Engine
from nztax.faq_index import FaqError, FaqIndex


@pytest.fixture
def faq_engine(engine, engine_settings):
    questions = ["What are the income tax rates for individuals?", "How much tax do I pay on $85,000?",
                 "What happens if I don't give my employer a tax code?",
                 "How much tax do I pay on $60,000 a year?"]
    entries = [{"question": q, "slug": f"q{i}", "topic": "tax-rates", "url": f"/faq/q{i}/",
                "result": engine.answer(q, use_faq=False, mode="offline").to_json()} for i, q in enumerate(questions)]
    return Engine(engine.rules, engine.retriever, FaqIndex(entries, engine_settings.faq_match_threshold), engine_settings)


def test_close_match_is_served_from_the_faq(faq_engine):
    result = faq_engine.answer("what are the income tax rates for individuals")
    out = result.to_json()
    assert out["source"] == "faq" and "39%" in out["answer"]
    assert "the stored answer of the FAQ page q0" in result.trace["notes"]  # (--explain says where it came from)


def test_a_different_amount_never_matches(faq_engine):
    out = faq_engine.answer("How much tax do I pay on $80,000?").to_json()
    assert out["source"] == "engine"
    # 80,000 x 33% - 10,122.50 = 16,277.50
    assert "$16,277.50" in out["answer"]


def test_same_words_with_the_opposite_negation_fall_through(faq_engine):
    """Issue 15: "Do I have to give …" must not get the stored answer for "don't give …"."""
    assert faq_engine.answer("What happens if I don't give my employer a tax code?").source == "faq"
    assert faq_engine.answer("What happens if I do give my employer a tax code?").source == "engine"
    assert faq_engine.answer("Do I have to give my employer a tax code?").source == "engine"


def test_same_amount_for_another_period_falls_through(faq_engine):
    """Issue 15: "$60,000 a month" must not get the stored answer for $60,000 a year."""
    yearly = faq_engine.answer("How much tax do I pay on $60,000 a year?").to_json()
    # 2026-27: 15,600 x 10.5% + 37,900 x 17.5% + 6,500 x 30% = $10,220.50
    assert yearly["source"] == "faq" and "$10,220.50" in yearly["answer"]
    monthly = faq_engine.answer("How much tax do I pay on $60,000 a month?").to_json()
    assert monthly["source"] == "engine"
    assert "$10,220.50" not in monthly["answer"]


def test_a_different_tax_code_or_student_loan_falls_through(faq_engine):
    assert faq_engine.answer("How much tax do I pay on $85,000 with a student loan?").source == "engine"


def test_another_year_or_history_skips_the_faq(faq_engine):
    assert faq_engine.answer("What are the income tax rates for individuals?", tax_year="2024-25").source == "engine"
    history = [{"question": "hi", "answer": "hello"}]
    assert faq_engine.answer("What are the income tax rates for individuals?", history=history).source == "engine"
    assert faq_engine.answer("What are the income tax rates for individuals?", use_faq=False).source == "engine"


def test_faq_file_loading(tmp_path):
    assert FaqIndex.load(tmp_path, 0.8).entries == []
    (tmp_path / "faq.json").write_text("{not json")
    with pytest.raises(FaqError):
        FaqIndex.load(tmp_path, 0.8)
    (tmp_path / "faq.json").write_text(json.dumps([{"question": "q", "result": {"tax_year": "2026-27"}}, "junk"]))
    assert len(FaqIndex.load(tmp_path, 0.8).entries) == 1


def test_a_stored_questions_year_is_read_only_when_its_words_match(tmp_path, monkeypatch):
    """Loading reads no stored question's year (a cold start pays for none of them); matching
    reads the year of an entry whose words and tax year fit, and a year named in it still counts."""
    entries = [{"question": "What is the ACC earners' levy rate for 2024-25?", "result": {"tax_year": "2024-25"}},
               {"question": "How do I register for GST?", "result": {"tax_year": "2024-25"}}]
    (tmp_path / "faq.json").write_text(json.dumps(entries))
    read: list[str] = []
    year = FaqIndex.year
    monkeypatch.setattr(FaqIndex, "year", staticmethod(lambda text: read.append(text) or year(text)))
    faq = FaqIndex.load(tmp_path, 0.5)
    assert read == []
    asked = "What is the ACC earners' levy rate?"  # no year named: the stored 2024-25 one does not fit
    assert faq.match(asked, "2024-25", reading=faq.reading(entries[0]["question"])) is None
    assert read == [asked, entries[0]["question"]]


def test_only_entries_that_could_reach_the_threshold_are_compared_and_the_same_one_wins():
    """Prefix filtering (`FaqIndex._candidates`) skips entries without enough shared words; the
    entry it serves is the one a comparison with every stored question serves."""
    import random

    from nztax.settings import get_settings

    words = ("tax rate income salary weekly paye code student loan kiwisaver levy acc return refund gst rental "
             "property bright line donation credit charity family boost contractor schedular secondary bonus "
             "overseas pension resident provisional terminal dividend interest trust company lease").split()
    rng = random.Random(7)
    questions = list(dict.fromkeys(" ".join(rng.sample(words, rng.randint(2, 6))) for _ in range(300)))
    result = {"tax_year": "2026-27"}
    faq = FaqIndex([{"question": q, "slug": str(i), "result": result} for i, q in enumerate(questions)],
                   get_settings().faq_match_threshold)

    def every_entry(question):  # the same match, scoring every stored question
        everything = FaqIndex.__new__(FaqIndex)
        everything.__dict__.update(faq.__dict__, _candidates=lambda asked: range(len(faq.entries)))
        return everything.match(question, "2026-27")

    def near(stored: str) -> str:  # a stored question with one more word, in another order
        asked = stored.split() + [rng.choice(words)]
        rng.shuffle(asked)
        return " ".join(asked)

    compared = served = 0
    for question in [near(rng.choice(questions)) for _ in range(300)] + [" ".join(rng.sample(words, 5)) for _ in range(100)]:
        candidates = faq._candidates(faq.words(question))
        compared += len(candidates)
        found = faq.match(question, "2026-27")
        assert found is every_entry(question), question
        served += found is not None
    assert served > 100
    assert compared < 400 * len(faq.entries) / 3  # most stored questions are never scored
