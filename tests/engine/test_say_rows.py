"""The rows of a rules table the question names go in the answer's first paragraph."""

from decimal import Decimal

from nztax.say_rows import rows_named

BANDS = ["Income tax rates:", "", "| Taxable income | Rate |", "|---|---|", "| up to $15,600 | 10.5% |",
         "| $15,600 – $53,500 | 17.5% |", "| $53,500 – $78,100 | 30% |", "| $78,100 – $180,000 | 33% |",
         "| over $180,000 | 39% |"]
CODES = ["| Code | Total yearly income up to | Rate |", "|---|---|---|", "| SB | $15,600 | 10.5% |", "| S | $53,500 | 17.5% |"]


def test_a_rate_the_question_gives_names_its_row():
    assert rows_named("What income is taxed at 33%?", [], BANDS, "2026-27") == \
        "In 2026-27, taxable income $78,100 – $180,000: rate 33%."
    # Written out, the rate names the same row.
    assert rows_named("At what income does the 30 percent rate start?", [], BANDS, "2026-27") == \
        "In 2026-27, taxable income $53,500 – $78,100: rate 30%."
    assert rows_named("What is taxed at 33 per cent?", [], BANDS, "2026-27") == \
        "In 2026-27, taxable income $78,100 – $180,000: rate 33%."


def test_amounts_name_the_rows_whose_range_holds_them():
    said = rows_named("rate between $50,000 and $70,000?", [Decimal(50000), Decimal(70000)], BANDS, "2026-27")
    assert said == "In 2026-27, taxable income $15,600 – $53,500: rate 17.5%; taxable income $53,500 – $78,100: rate 30%."
    # A band's upper end belongs to it.
    assert "rate 30%" in rows_named("tax on $78,100?", [Decimal(78100)], BANDS, "2026-27")


def test_a_code_written_in_capitals_names_its_row_and_a_lower_case_word_does_not():
    assert rows_named("What rate is the SB code?", [], CODES, "2026-27") == \
        "In 2026-27, code SB: total yearly income up to $15,600, rate 10.5%."
    assert rows_named("what rate is s?", [], CODES, "2026-27") is None


def test_nothing_named_or_every_row_named_adds_nothing():
    assert rows_named("What are the tax rates?", [], BANDS, "2026-27") is None
    assert rows_named("10.5% 17.5% 30% 33% 39%", [], BANDS, "2026-27") is None
    assert rows_named("What is taxed at 33%?", [], ["No table here."], "2026-27") is None


def test_the_answer_to_a_question_about_one_code_states_its_row_first(engine):
    from nztax.composer import pct
    from nztax.rules import default_rules

    out = engine.answer("Which rate does the SH secondary code deduct?", use_faq=False, mode="offline")
    first = out.answer.split("\n\n")[0]
    sec = default_rules().years[out.tax_year].data.secondary_codes
    assert "code SH:" in first and pct(sec.periods[-1].codes["SH"].rate) in first, first
