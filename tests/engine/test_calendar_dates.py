"""Calendar dates in a post are dates, not tax years (calendar_dates.py, data/calendar_dates.yaml,
question_conditions.resolve_tax_year, post_time.py, rule_history.py). Asked on 30 November 2026 (tax
year 2026-27). Expected days and tax years are worked by hand (a tax year runs 1 April to 31 March);
expected figures are the sources' as nz_tax_facts.md gives them: the compulsory employer KiwiSaver
minimum is 3% until 31 March 2026 and 3.5% from 1 April 2026 (s5); the government contribution is
50c a dollar up to $521.43 until 30 June 2025 and 25c up to $260.72 from 1 July 2025 (s5); the
lowest income tax band ends at $14,000 before 31 July 2024 and at $15,600 in 2025-26 and 2026-27 (s1)."""

from __future__ import annotations

import datetime as dt

import pytest

from nztax import rule_history
from nztax.calendar_dates import months, read_dates
from nztax.post_time import read_post_time
from nztax.question_conditions import resolve_tax_year
from nztax.rules import default_rules

TODAY = dt.date(2026, 11, 30)
CURRENT = "2026-27"
D = dt.date

# (phrase, first day, last day, runs to today, the tax year a post naming it is read in)
PHRASES = [
    ("since August last year", D(2025, 8, 1), TODAY, True, CURRENT),
    ("since August of last year", D(2025, 8, 1), TODAY, True, CURRENT),
    ("since February last year", D(2025, 2, 1), TODAY, True, CURRENT),
    ("from 1 April 2025", D(2025, 4, 1), TODAY, True, CURRENT),
    ("since May 2024", D(2024, 5, 1), TODAY, True, CURRENT),
    ("ever since March this year", D(2026, 3, 1), TODAY, True, CURRENT),
    ("in March last year", D(2025, 3, 1), D(2025, 3, 31), False, "2024-25"),
    ("in February this year", D(2026, 2, 1), D(2026, 2, 28), False, "2025-26"),
    ("this past July", D(2026, 7, 1), D(2026, 7, 31), False, CURRENT),
    ("last March", D(2026, 3, 1), D(2026, 3, 31), False, "2025-26"),
    ("in March next year", D(2027, 3, 1), D(2027, 3, 31), False, CURRENT),
    ("in May next year", D(2027, 5, 1), D(2027, 5, 31), False, "2027-28"),
    ("between July last year and June this year", D(2025, 7, 1), D(2026, 6, 30), False, "2025-26"),
    ("from 1 April 2025 to 31 March 2026", D(2025, 4, 1), D(2026, 3, 31), False, "2025-26"),
]

# Topics whose figures change on a 1 April or 1 July, each a sentence with the phrase in it.
TOPICS = [
    "My employer has paid 3% into my KiwiSaver {p}. Is that the minimum employer contribution?",
    "I have contributed to KiwiSaver {p}; how much government contribution do I get?",
    "I have earned $60,000 a year {p}. What tax rate applies to me?",
    "My income has been $50,000 {p}, can I get the independent earner tax credit?",
]


@pytest.mark.parametrize("phrase,start,end,to_today,year", PHRASES)
def test_a_calendar_phrase_reads_as_its_days(phrase, start, end, to_today, year):
    for topic in TOPICS:
        found = read_dates(topic.format(p=phrase), TODAY)
        assert [(d.start, d.end, d.to_today) for d in found] == [(start, end, to_today)]


@pytest.mark.parametrize("phrase,start,end,to_today,year", PHRASES)
def test_the_tax_year_is_the_one_holding_the_date_or_now_for_a_stretch_to_today(clock, phrase, start, end, to_today, year):
    clock(TODAY)
    for topic in TOPICS:
        assert resolve_tax_year(topic.format(p=phrase), default_rules(), CURRENT)[0] == year


@pytest.mark.parametrize("text,year", [
    # Tax years written as tax years, and "last year" alone, read as before.
    ("What was my tax last year?", "2025-26"),
    ("What was the minimum employer KiwiSaver contribution in the 2025 tax year?", "2024-25"),
    ("My FY25 income was $60,000, what tax?", "2024-25"),
    ("My income for the March 2025 year was $60,000.", "2024-25"),
    ("Tax on $50,000 in 2024-25?", "2024-25"),
    # A tax year written as one wins over a date told beside it.
    ("For the 2024-25 tax year: my employer has paid 3% since August last year.", "2024-25"),
])
def test_tax_years_written_as_tax_years_do_not_change(clock, text, year):
    clock(TODAY)
    assert resolve_tax_year(text, default_rules(), CURRENT)[0] == year


def test_a_month_whose_year_is_not_certain_is_not_read():
    for text in ("In July I will be 54.", "I may go", "from 17 April to 26 April", "on 13 August"):
        assert read_dates(text, TODAY) == []


def test_the_current_figures_are_the_rules_datas_for_the_dates():
    """A stretch running to today is worked at the current year's figures: the rules data's agree with the sources."""
    rules = default_rules().years
    assert float(rules[CURRENT].section("kiwisaver").employer_minimum_rate) == 0.035
    assert float(rules["2025-26"].section("kiwisaver").employer_minimum_rate) == 0.03
    assert float(rules["2024-25"].section("kiwisaver").employer_minimum_rate) == 0.03
    assert float(rules[CURRENT].section("income_tax").bands[0].upper) == 15600


@pytest.mark.parametrize("phrase", ["since August last year", "from 1 April 2025", "since May 2024", "started work in February this year"])
@pytest.mark.parametrize("asked", ["My employer contributions to KiwiSaver have been 3% {p}. Is that right?",
                                   "Is 3% the minimum employer contribution? I have been in KiwiSaver {p}."])
def test_a_stretch_across_the_employer_rate_change_is_told_both_rates_with_their_dates(phrase, asked):
    notes = [n for n, _, _ in rule_history.notes_for(asked.format(p=phrase), TODAY) if "employer contribution" in n]
    assert len(notes) == 1
    assert "Until 31 March 2026, the compulsory employer contribution was 3% of gross pay" in notes[0]
    assert "from 1 April 2026, the compulsory employer contribution is at least 3.5% of gross pay" in notes[0]


@pytest.mark.parametrize("phrase", ["since June last year", "since May 2024", "between May last year and August last year"])
def test_a_stretch_across_the_government_contribution_change_is_told_both(phrase):
    notes = [n for n, _, _ in rule_history.notes_for(f"I have put money into KiwiSaver {phrase}, what government contribution do I get?", TODAY)
             if "government contribution" in n]
    assert len(notes) == 1 and "$521.43" in notes[0] and "$260.72" in notes[0] and "1 July 2025" in notes[0]


def test_a_stretch_after_the_change_gets_no_note():
    assert not [n for n, _, _ in rule_history.notes_for("My employer contributions to KiwiSaver have been 3% since May this year. Is that right?", TODAY)
                if "employer contribution" in n]


def test_the_post_time_of_a_dated_stretch():
    t = read_post_time("My employer has paid 3% since August last year.", TODAY)
    assert (t.start, t.end, t.words, t.dated) == (D(2025, 8, 1), TODAY, "since August 2025", True)
    t = read_post_time("I joined back in 2013.", TODAY)
    assert (t.start, t.dated) == (D(2013, 1, 1), False)


@pytest.mark.parametrize("name,number", sorted(months().items()))
def test_a_date_things_were_before_reads_every_month_of_the_one_month_table(name, number):
    t = read_post_time(f"That was the rule before 1 {name.title()} 2019.", TODAY, ["before"])
    assert t.end == D(2019, number, 1) - dt.timedelta(days=1)


def test_an_answer_naming_only_the_new_rules_day_still_gets_the_rule_before_it():
    """An answer quoting "from 1 April 2026 ... 3.5%" does not say the 3% before it: the note is added;
    one naming both days says it already."""
    from nztax.contract import AskResult

    asked = "My employer has been paying 3% into my KiwiSaver since August last year. Is that the minimum employer contribution?"
    quoting = AskResult(status="answered", tax_year=CURRENT, disclaimer="", answer="Pays dated on or after 1 April 2026 use 3.5%.")
    out = rule_history.attach(quoting, asked, TODAY)
    assert "Until 31 March 2026, the compulsory employer contribution was 3% of gross pay" in out.answer
    both = AskResult(status="answered", tax_year=CURRENT, disclaimer="", answer="3% until 31 March 2026, 3.5% from 1 April 2026.")
    assert rule_history.attach(both, asked, TODAY).answer == both.answer


@pytest.mark.parametrize("phrase,said", [("in March last year", "In March 2025"), ("last March", None), ("in February this year", "In February 2026")])
def test_an_earlier_years_answer_read_from_a_calendar_date_is_told_the_rule_since(phrase, said):
    """A date read in an earlier tax year may ask about now: the answer for that year is told the rule
    since the change, with its date; a tax year written as one keeps its own figures alone."""
    from nztax.contract import AskResult

    years = tuple(default_rules().years)
    earlier = AskResult(status="answered", tax_year="2024-25", disclaimer="", answer="Your employer must contribute at least 3% of your gross pay.")
    out = rule_history.attach(earlier.model_copy(), f"My employer contributions to KiwiSaver were 3% {phrase}. Is that the minimum?", TODAY, years)
    assert "from 1 April 2026, the compulsory employer contribution is at least 3.5% of gross pay" in out.answer
    assert said is None or out.answer.startswith(f"{said}, the time your post speaks of, the compulsory employer contribution was 3% of gross pay")
    written = rule_history.attach(earlier.model_copy(), "My employer contributions to KiwiSaver were 3% in the 2025 tax year. Is that the minimum?", TODAY, years)
    assert written.answer == earlier.answer


@pytest.mark.parametrize("stretch,year,worked", [
    # 25c a dollar from 1 July 2025; 50c (up to $521.43) before: 1,042 x 0.25 = 260.50, x 0.5 = 521.00.
    ("between July last year and June this year", "2025-26", "**$260.50**"),
    ("from July 2024 to June 2025", "2024-25", "**$521**"),
    ("between 1 July 2024 and 30 June 2025", "2024-25", "**$521**"),
])
def test_a_stretch_that_is_a_kiwisaver_year_is_worked_in_that_year(engine, clock, stretch, year, worked):
    from nztax.calendar_dates import kiwisaver_year_of

    clock(TODAY)
    assert kiwisaver_year_of(read_dates(stretch, TODAY)) == year
    out = engine.answer(f"How much government contribution do I get if I contributed $1,042 to KiwiSaver {stretch}?",
                        use_faq=False, mode="offline")
    assert worked in out.answer and f"KiwiSaver year {year}" in out.answer
    # A stretch that is not one KiwiSaver year names none.
    assert kiwisaver_year_of(read_dates("between May last year and August last year", TODAY)) is None
