"""A post set before a rule changed is told the rule of its time and the date it changed; one whose
time can't be read is told today's rule with its start date when the change is recent
(rule_history.py, post_time.py, data/rule_history.yaml). Goldens are the sources' dates and figures:
the kick-start ended at 2pm on 21 May 2015 (kiwisaver.govt.nz "$1,000 kick-start payment"); the
member tax credit fell from $1,042.86 to $521.43 for KiwiSaver years from 1 July 2011 (Budget 2011);
the 5-year lock-in for joiners aged 60-64 ended for those joining from 1 July 2019 (IRD "Getting my
KiwiSaver when I retire"); the compulsory employer rate rose from 2% to 3% on 1 April 2013 (IRD
"KiwiSaver changes in the 2014 tax year"); nz_tax_facts.md section 5 for 2025 and 2026."""

from __future__ import annotations

import datetime as dt

import pytest

from nztax import rule_history
from nztax.composer import money
from nztax.contract import AskResult
from nztax.post_time import read_post_time
from nztax.rules import default_rules

TODAY = dt.date(2026, 11, 29)


def _rule(rule_id):
    return next(r for r in rule_history.history().rules if r.id == rule_id)


def _change(rule_id, on):
    return next(c for c in _rule(rule_id).changes if c.on == on)


def test_the_time_a_post_writes():
    assert read_post_time("I joined back in 2013.", TODAY).start == dt.date(2013, 1, 1)
    t = read_post_time("I turned 60 on 20 June 2007, thus I am new. Will it be 2007/2008?", TODAY)
    assert (t.start, t.end) == (dt.date(2007, 1, 1), dt.date(2008, 12, 31))
    t = read_post_time("I joined before July 2019 at 62.", TODAY, ["before"])
    assert t.end == dt.date(2019, 6, 30) and t.words == "before 1 July 2019"
    # An amount, a longer number or a plan is not the post's time.
    assert read_post_time("I paid $2013 and 2,015 more; I retire in 2031.", TODAY) is None


@pytest.mark.parametrize("money", ["{y} AUD", "{y} USD a month", "{y} dollars", "{y} pounds", "A${y}", "£{y}",
                                   "{y} a fortnight", "{y} per week", "{y}/month", "{y} p/m", "{y} per annum", "{y}k"])
@pytest.mark.parametrize("year", [1995, 2000, 2015])
def test_a_year_shaped_amount_is_no_time(money, year):
    """An amount written beside its currency or pay period is money whatever its digits; the same
    number as a year beside it is still read."""
    figure = money.format(y=year)
    assert read_post_time(f"I get {figure} from my overseas shares. Is it taxed here?", TODAY) is None
    t = read_post_time(f"Back in {year} I started getting {figure} from my overseas shares.", TODAY)
    assert (t.start, t.end) == (dt.date(year, 1, 1), dt.date(year, 12, 31))


def test_a_number_in_a_web_address_is_no_time():
    assert read_post_time("See https://www.legislation.govt.nz/act/public/2007/0097/latest/ for the Act.", TODAY) is None
    assert read_post_time("The Act (www.legislation.govt.nz/act/public/2004/35) changed in 2019.", TODAY).start == dt.date(2019, 1, 1)


def test_the_data_carries_the_sources_dates_and_figures():
    assert _change("kiwisaver_kick_start", dt.date(2015, 5, 21)).since.count("21 May 2015") == 1
    mtc = _change("kiwisaver_government_contribution", dt.date(2011, 7, 1))
    assert "$1,042.86" in mtc.before and "$521.43" in mtc.since and "50 cents" in mtc.since
    assert "5 years" in _change("kiwisaver_joining_after_60", dt.date(2019, 7, 1)).before
    employer = _change("kiwisaver_employer_contribution", dt.date(2013, 4, 1))
    assert "2%" in employer.before and "3%" in employer.since
    assert all(c.source.startswith("http") and c.title for r in rule_history.history().rules for c in r.changes)


def test_the_recent_changes_agree_with_the_rules_data():
    """The 2025 and 2026 changes are also in the rules data's years: the two must say the same."""
    rules = default_rules()
    before, after = rules.years["2024-25"].section("government_contribution"), rules.years["2025-26"].section("government_contribution")
    gc = _change("kiwisaver_government_contribution", after.kiwisaver_year_start)
    assert money(before.maximum) in gc.before and money(after.maximum) in gc.since and money(after.income_cap) in gc.since
    assert f"{int(after.match_rate * 100)} cents" in gc.since and f"{int(before.match_rate * 100)} cents" in gc.before
    assert after.min_age == 16 and _change("kiwisaver_under_18", after.kiwisaver_year_start).since.startswith("members aged 16 and 17")
    old, new = rules.years["2025-26"].section("kiwisaver"), rules.years["2026-27"].section("kiwisaver")
    employer = _change("kiwisaver_employer_contribution", rules.years["2026-27"].start)
    assert f"{old.employer_minimum_rate * 100:g}%" in employer.before and f"{new.employer_minimum_rate * 100:g}%" in employer.since


def test_a_post_from_before_the_change_is_told_the_rule_then_and_the_dates():
    notes = rule_history.notes_for("In 2007 I joined KiwiSaver and got the $1000 kickstart and the member tax credit.", TODAY)
    text = " ".join(n for n, _, _ in notes)
    assert all(before for _, _, before in notes)
    assert "In 2007, every new KiwiSaver member got a tax-free $1,000 kick-start; from 21 May 2015" in text
    assert "dollar for dollar, up to $1,042.86" in text and "from 1 July 2011" in text and "from 1 July 2025" in text


def test_a_figure_only_the_old_rule_had_sets_the_post_before_the_change():
    notes = rule_history.notes_for("Is the tax credit of $1040 only for people who pay that much tax?", TODAY)
    assert notes and notes[0][0].startswith("Before 1 July 2011, the member tax credit matched")


def test_an_undated_post_gets_todays_rule_with_its_start_date_only_when_its_answer_states_it():
    post = "I have been in KiwiSaver for three years and will be 65 in March. Does my employer keep contributing?"
    answer = "No. At 65 your employer does not have to make compulsory contributions, nor the government contribution."
    notes = rule_history.notes_for(post, TODAY, answer)
    assert notes[0][2] and notes[0][0].startswith("Since 1 July 2019,") and "Before then, someone who joined KiwiSaver aged 60 to 64" in notes[0][0]
    assert not rule_history.notes_for(post, TODAY, "Apply to your provider with a statutory declaration.")
    # A cited page's address is not what the answer says.
    assert not rule_history.notes_for("Can I top up my KiwiSaver from overseas for the government contribution?", TODAY,
                                      "Not while you live overseas. [[1]](https://www.ird.govt.nz/kiwisaver/getting-the-kiwisaver-government-contribution)")
    # A change older than the recent years is not told to a post of unknown time.
    assert not any("1 April 2013" in n for n, _, _ in rule_history.notes_for(
        "Does my KiwiSaver employer contribution have ESCT taken off?", TODAY, "Your employer contributions have ESCT deducted."))


def test_attach_opens_with_an_earlier_time_and_cites_its_source():
    result = AskResult(status="answered", tax_year="2026-27", disclaimer="", answer="Your employer pays 3.5%. [[1]](https://example.org/a)\n\nMore.",
                       citations=[{"title": "A", "url": "https://example.org/a"}])
    out = rule_history.attach(result, "Back in 2011 my KiwiSaver employer contribution was 2%. Is that still so?", TODAY)
    first, second = out.answer.split("\n\n")[:2]
    assert first.startswith("In 2011, the time your post speaks of,") and "from 1 April 2013" in first
    # (3.5% is the rule since 1 April 2026, not the poster's in 2011.)
    assert second.startswith("Under the rule since 1 April 2026 (not the one at the time your post speaks of): your employer pays 3.5%.")
    assert "http://www.ird.govt.nz/changes/kiwisaver/budget-kiwisaver.html" in [c.url for c in out.citations]
    # An answer that already gives the change's date is left as it is.
    said = AskResult(status="answered", tax_year="2026-27", disclaimer="", answer="Since 1 July 2019 anyone can join. Members who joined at 62 before then ...")
    assert rule_history.attach(said, "I joined KiwiSaver at 62; am I locked in?", TODAY).answer == said.answer


def test_an_answer_for_an_earlier_tax_year_is_left_as_it_is():
    """Its figures are that year's: today's must not be added beside them."""
    result = AskResult(status="answered", tax_year="2024-25", disclaimer="",
                       answer="The government puts in 50 cents for every dollar, up to $521.43 a KiwiSaver year.")
    asked = "How much is the KiwiSaver government contribution?"
    assert rule_history.attach(result, asked, TODAY, ("2024-25", "2026-27")).answer == result.answer
    # A year the rules data doesn't hold was answered with today's text: the note is still needed.
    assert "Since 1 July 2025" in rule_history.attach(result, asked, TODAY, ("2026-27",)).answer


def test_a_time_before_the_rule_began_gets_no_note():
    """KiwiSaver began on 1 July 2007: a birth year is no earlier form of its rules."""
    assert not rule_history.notes_for("I was born in 2003. Can I get the KiwiSaver government contribution?", TODAY)
    notes = rule_history.notes_for("Born 2001, I joined KiwiSaver in 2010 and got the member tax credit.", TODAY)
    assert notes and notes[0][0].startswith("In 2007 to 2010, the member tax credit matched a member's own contributions dollar for dollar")


def test_an_answer_with_todays_figures_gets_only_their_start_date():
    asked = "I earn 190k. Do I still get the KiwiSaver government contribution?"
    notes = rule_history.notes_for(asked, TODAY, "No. No government contribution is paid: income over $180,000.")
    assert [n for n, _, _ in notes] == ["These are the figures since 1 July 2025."]
    # An answer naming the contribution beside another rule (the KiwiSaver year) doesn't state it.
    assert not rule_history.notes_for("When does the KiwiSaver year run for the government contribution?", TODAY,
                                      "From 1 July to 30 June: your contributions in that year earn the government contribution.")


def test_an_answer_giving_only_todays_figure_states_the_rule_whatever_it_calls_it():
    # $260.72 is the contribution since 1 July 2025 (nz_tax_facts.md section 5); $1,042.86 both forms share.
    post = "I believe the government still tops up my KiwiSaver. How do I check I put in enough this year?"
    todays = "You need $1,042.86 of your own contributions for the full $260.72."
    assert [n for n, _, _ in rule_history.notes_for(post, TODAY, todays)] == ["These are the figures since 1 July 2025."]
    # The figure both forms share says nothing of which form the answer gives.
    assert not rule_history.notes_for(post, TODAY, "You need $1,042.86 of your own contributions in the year.")


def test_a_cue_word_in_the_plural_names_the_rule():
    post = "Is the government still giving KiwiSavers a top-up? How do I check I put in enough this year?"
    assert rule_history.about(_rule("kiwisaver_government_contribution"), post)
    assert rule_history.notes_for(post, TODAY, "You need $1,042.86 of your own contributions for the full $260.72.")


def _answered(text: str) -> AskResult:
    return AskResult(status="answered", tax_year="2026-27", disclaimer="", answer=text + " [[1]](https://example.org/a)\n\nMore.",
                     citations=[{"title": "A", "url": "https://example.org/a"}])


def test_todays_verdict_is_not_given_as_the_posters_when_the_old_form_may_hold():
    """IRD: the 5-year lock-in for joiners aged 60 to 64 ended on 1 July 2019 and still binds
    those who joined before; a post that doesn't say when they joined is told both, and the "No"
    of today's rule is said to hold only for a later joiner."""
    post = "I have been in KiwiSaver for three years and will be 65 in March. Does my employer have to keep contributing?"
    out = rule_history.attach(_answered("No. At 65 your employer does not have to make compulsory contributions."), post, TODAY)
    first, second = out.answer.split("\n\n")[:2]
    assert first.startswith("It depends on when you joined KiwiSaver. Since 1 July 2019,") and "locked in for 5 years" in first
    assert second.startswith("If you joined KiwiSaver on or after 1 July 2019: at 65 your employer")
    # A lead giving no verdict is left as it is, and so is the opening.
    out = rule_history.attach(_answered("At 65 you can take your savings; your employer no longer has to contribute."), post, TODAY)
    assert out.answer.startswith("Since 1 July 2019,") and "\n\nAt 65 you can take" in out.answer


def test_a_figure_of_a_later_rule_is_not_given_as_the_posters():
    """From 1 July 2025 the most is $260.72 (25c a dollar); in 2017 it was $521.43 (50c)."""
    post = "In 2017 I put $1,042.86 into my KiwiSaver. How much government contribution did I get?"
    out = rule_history.attach(_answered("Yes. Your government contribution is $260.72 for the year."), post, TODAY)
    first, second = out.answer.split("\n\n")[:2]
    assert first.startswith("In 2017, the time your post speaks of,") and "$521.43" in first
    assert second.startswith("Under the rule since 1 July 2025 (not the one at the time your post speaks of): your government contribution is $260.72")


def test_an_ended_scheme_is_told_when_it_ended_what_it_was_and_what_applies_now():
    """IRD: the voluntary repayment bonus was 10% of voluntary repayments of $500 or more in a tax
    year (balance $550 or more at its start), from 1 April 2009; repealed from 1 April 2013."""
    bonus = next(r for r in rule_history.history().rules if r.id == "student_loan_repayment_bonus")
    assert bonus.ended and bonus.began == dt.date(2009, 4, 1) and bonus.changes[-1].on == dt.date(2013, 4, 1)
    notes = rule_history.notes_for("Could you explain the student loan repayment bonus scheme? Pay $500 extra and 10% is cancelled.", TODAY)
    (note, _, opens), = notes
    assert opens and note.startswith("Since 1 April 2013, there is no voluntary repayment bonus")
    assert all(f in note for f in ("10%", "$500", "$550", "Before then"))
    assert not rule_history.notes_for("My bonus had student loan deductions taken off. Is that right?", TODAY)


def test_a_post_speaking_of_a_change_is_told_each_change_with_its_date():
    """IRD: the member tax credit went from dollar for dollar ($1,042.86) to 50c ($521.43) on 1 July
    2011; ESCT on employer contributions from 1 April 2012; the $40 fee subsidy stopped from 1 April 2009."""
    post = "KiwiSaver has lost its gloss: removal of the fee subsidy, halving of the annual tax credit, taxing the employer contribution."
    text = " ".join(n for n, _, _ in rule_history.notes_for(post, TODAY))
    assert "Until 1 July 2011, the member tax credit matched" in text and "from 1 July 2011" in text and "$521.43" in text
    assert "from 1 April 2012, employer contributions have ESCT deducted" in text
    assert "Until 1 April 2009, the government paid a fee subsidy of $40 a year" in text
    # A change word not next to the rule's own words is no change to it.
    assert not rule_history.notes_for("I reduced my hours. Does my KiwiSaver employer contribution carry on?", TODAY)


def test_todays_working_on_the_posts_figures_is_not_given_as_theirs():
    """A post from 2010 (member tax credit then $1 for $1, up to $1,042.86) is given no 2026-27
    calculator link on its own figures, and a worked figure for today is labelled with the date
    today's rule began (25c a dollar from 1 July 2025: $1,000 gives $250)."""
    post = "Back in 2010 I put $1,000 into KiwiSaver. How much member tax credit did I get?"
    link = "/calculators/kiwisaver/?member_contributions=1000&tax_year=2026-27"
    result = _answered("The government contribution is 25 cents a dollar, up to $260.72.")
    result.answer += (f"\n\nOn $1,000 of your own contributions, the government contribution is **$250**."
                      f"\n\n> An example of $600 giving **$150**.\n\n[Check your figures in the KiwiSaver calculator]({link}).")
    result.next_actions = [f"[Open the KiwiSaver calculator with your figures]({link})", "Ask another"]
    out = rule_history.attach(result, post, TODAY)
    assert link not in out.answer and out.next_actions == ["Ask another"]
    assert "\n\nUnder today's rule (since 1 July 2025), on $1,000 of your own contributions, the government contribution is **$250**." in out.answer
    assert "\n\n> An example of $600 giving **$150**." in out.answer   # (a quoted source is not their working)
    # A post of today keeps both.
    today_post = "I put $1,000 into KiwiSaver this year. How much government contribution do I get?"
    result = _answered("The government contribution is 25 cents a dollar, up to $260.72.")
    result.answer += f"\n\nOn $1,000, the government contribution is **$250**.\n\n[Check your figures]({link})."
    out = rule_history.attach(result, today_post, TODAY)
    assert link in out.answer and "Under today's rule" not in out.answer

