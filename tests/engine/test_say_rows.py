"""The rows of a rules table the question names go in the answer's first paragraph."""

from decimal import Decimal

from nztax.say_rows import band_named, rows_named

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


class _Band:
    def __init__(self, lower, upper, rate):
        self.lower, self.upper, self.rate = Decimal(lower), (Decimal(upper) if upper else None), Decimal(rate)


# The 2026-27 bands (nz_tax_facts.md, section 1).
ITB = [_Band(0, 15600, "0.105"), _Band(15600, 53500, "0.175"), _Band(53500, 78100, "0.30"),
       _Band(78100, 180000, "0.33"), _Band(180000, None, "0.39")]


def test_a_band_is_named_by_its_rate_or_by_the_income_it_starts_at():
    assert band_named("If overtime puts me in the 33% bracket do I lose out?", [], ITB).lower == 78100
    assert band_named("does passing 53,500 make all of it 30 percent", [Decimal(53500)], ITB).rate == Decimal("0.30")
    # Rate and start of one band together still name one band.
    assert band_named("over $78,100 is everything at 33%?", [Decimal(78100)], ITB).rate == Decimal("0.33")


def test_no_band_or_two_bands_or_the_first_band_name_none():
    assert band_named("will a raise into the next bracket cost me?", [], ITB) is None
    assert band_named("is it 30% or 33% on my salary of $90,000?", [Decimal(90000)], ITB) is None
    # An income that starts no band is the question's own figure, not a threshold.
    assert band_named("I earn $80,000, is all of it taxed at the top rate?", [Decimal(80000)], ITB) is None
    # The first band starts at nothing: its rate names no threshold to cross.
    assert band_named("is everything taxed at 10.5%?", [], ITB) is None


def test_the_whole_income_lead_states_the_band_the_question_crosses_into(engine):
    from nztax.composer import money, pct
    from nztax.rules import default_rules

    out = engine.answer("My boss says moving up into the 30% band means all my wages get taxed at 30%. True?",
                        use_faq=False, mode="offline")
    first = out.answer.split("\n\n")[0]
    bands = default_rules().years[out.tax_year].data.income_tax.bands
    thirty = next(b for b in bands if pct(b.rate) == "30%")
    assert f"over {money(thirty.lower)} is taxed at 30%" in first, first
    assert pct(bands[-1].rate) not in first.split(".")[1], first
