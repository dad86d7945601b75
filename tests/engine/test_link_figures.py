"""A handed-over calculator link carries only the figures its fields take (issue 36).

The figures a calculation was not run on go to a calculator link for the poster to confirm; each field
is filled only with an amount read as a kind the field takes (`amounts_taken`) and as the figure of the
one asked about. Readings are given by hand here (the learned reader's numbers are not the point), and
the engine's own families check that a figure of another kind added to a story never reaches the link
and that how a figure is written does not change it."""

from __future__ import annotations

from decimal import Decimal
from types import SimpleNamespace

import pytest

from nztax.input_figures import _handed_over
from nztax.frame import FrameAmount, QuestionFrame
from nztax.slots import Money

INCOME_TAX = "calculate_income_tax"


def _amount(text, start, value, kinds, owner="me", owner_sure=0.95, role="income"):
    kind, sure = max(kinds.items(), key=lambda kv: kv[1])
    return FrameAmount(text, start, start + len(text), Decimal(value), "annual", kind, sure, owner, owner_sure, role,
                       tuple(kinds.items()))


def _handed(amounts, calls, asks=("figure",)):
    frame = QuestionFrame(asks=asks[0], asks_sure=0.9, asking=("What about it?",), asks_each=asks, amounts=tuple(amounts),
                          tax_year=None, year_text=None, conditions=(), scope="nz_tax", scope_sure=0.9, story=True)
    slots = SimpleNamespace(amounts=[Money(text=a.text, value=a.value, period="annual", period_stated=True, start=a.start,
                                           end=a.end, role=a.role) for a in amounts], annual=lambda a: a.value)
    return _handed_over(SimpleNamespace(slots=slots, calls=calls), frame, lambda: False, 0.5, 0.5, 0.7)


SALARY = _amount("$78,000", 0, 78000, {"income": 0.9, "other_figure": 0.1})


@pytest.mark.parametrize("kinds", [{"balance": 0.6, "income": 0.4}, {"cap": 0.45, "income": 0.41, "price": 0.14},
                                   {"other_figure": 0.63, "income": 0.29}])
def test_a_figure_not_read_as_income_never_fills_an_income_field(kinds):
    other = _amount("$300,000", 40, 300000, kinds)
    calls = [(INCOME_TAX, {"taxable_income": 300000.0, "tax_year": "2026-27"})]
    assert _handed([other], calls) == [(INCOME_TAX, {"tax_year": "2026-27"})]           # linked unfilled: a figure is asked
    assert _handed([other], calls, asks=("worth_it",)) == []                            # no figure asked: no link
    # The same figure read as income is handed over as the poster's.
    income = _amount("$300,000", 40, 300000, {"income": 0.8, "balance": 0.2})
    assert _handed([income], calls, asks=("worth_it",)) == calls


def test_a_figure_written_twice_fills_a_field_only_when_every_place_reads_as_its_kind():
    once = _amount("$50000", 10, 50000, {"income": 0.55, "price": 0.11, "tax_withheld": 0.12})
    again = _amount("50000 dollars", 80, 50000, {"income": 0.36, "price": 0.25, "contribution": 0.12}, role="other")
    calls = [(INCOME_TAX, {"taxable_income": 50000.0, "tax_year": "2026-27"})]
    assert _handed([once], calls) == calls
    assert _handed([once, again], calls) == [(INCOME_TAX, {"tax_year": "2026-27"})]


def test_someone_elses_figure_never_fills_the_posters_field_and_the_same_figure_of_their_own_does():
    brother = _amount("$120,000", 40, 120000, {"income": 0.95}, owner="someone_else", owner_sure=0.9)
    calls = [(INCOME_TAX, {"taxable_income": 78000.0}), (INCOME_TAX, {"taxable_income": 120000.0})]
    assert _handed([SALARY, brother], calls) == calls[:1]
    # Unsure whose it is: not filled as theirs.
    unsure = _amount("$120,000", 40, 120000, {"income": 0.95}, owner="me", owner_sure=0.4)
    assert _handed([SALARY, unsure], calls) == [calls[0], (INCOME_TAX, {})]
    # The brother earns the same as the poster: the poster's own place fills it.
    same = _amount("$78,000", 40, 78000, {"income": 0.95}, owner="someone_else", owner_sure=0.9)
    assert _handed([SALARY, same], calls[:1]) == calls[:1]


def test_a_gift_fills_the_gift_field_and_not_the_income_field_beside_it():
    gift = _amount("$400", 5, 400, {"contribution": 0.8, "price": 0.2}, role="donation")
    calls = [("calculate_donation_tax_credit", {"donations": 400.0, "taxable_income": 400.0, "tax_year": "2026-27"})]
    assert _handed([gift], calls) == [("calculate_donation_tax_credit", {"donations": 400.0, "tax_year": "2026-27"})]


KIWISAVER = "calculate_kiwisaver"


def test_a_zero_the_engine_put_in_fills_a_link_only_beside_a_figure_of_the_posts():
    # The engine's gross_pay 0 (no pay stated) beside a contribution that is someone else's: nothing of the
    # post's is left, so the link is unfilled (said so), not "your figures" with a pay of $0.
    brothers = _amount("$1,042", 20, 1042, {"contribution": 0.9}, owner="someone_else", owner_sure=0.9, role="contribution")
    calls = [(KIWISAVER, {"gross_pay": 0.0, "pay_frequency": "annual", "member_contributions": 1042.0, "tax_year": "2026-27"})]
    assert _handed([brothers], calls) == [(KIWISAVER, {"pay_frequency": "annual", "tax_year": "2026-27"})]
    assert _handed([brothers], calls, asks=("worth_it",)) == []                        # no figure asked: no link
    # The poster's own contribution fills it, and the engine's zero stays beside it.
    own = _amount("$1,042", 20, 1042, {"contribution": 0.9}, role="contribution")
    assert _handed([own], calls) == calls
    # pie_income 0 beside a taxable income that is not surely the poster's: unfilled.
    unsure = _amount("$90,000", 8, 90000, {"income": 0.9}, owner="me", owner_sure=0.4)
    pir = [("find_prescribed_investor_rate", {"taxable_income": 90000.0, "pie_income": 0.0, "tax_year": "2026-27"})]
    assert _handed([unsure], pir) == [("find_prescribed_investor_rate", {"tax_year": "2026-27"})]


def test_a_zero_the_post_writes_is_its_figure():
    nothing = _amount("$0", 30, 0, {"income": 0.9}, role="pie_income")
    unsure = _amount("$90,000", 8, 90000, {"income": 0.9}, owner="me", owner_sure=0.4)
    pir = [("find_prescribed_investor_rate", {"taxable_income": 90000.0, "pie_income": 0.0, "tax_year": "2026-27"})]
    assert _handed([unsure, nothing], pir) == [("find_prescribed_investor_rate", {"pie_income": 0.0, "tax_year": "2026-27"})]


@pytest.mark.parametrize("sure,filled", [(0.6, False), (0.75, True)])
def test_a_figure_the_grammar_names_another_kind_needs_a_sure_reading_as_a_kind_taken(sure, filled):
    ticket = _amount("$40", 7, 40, {"contribution": sure, "price": 1 - sure}, role="expense")
    calls = [("calculate_donation_tax_credit", {"donations": 40.0, "tax_year": "2026-27"})]
    assert ("donations" in _handed([ticket], calls)[0][1]) == filled


def test_the_unfilled_link_says_to_enter_the_figures_and_which_year_it_is_set_to():
    from nztax.contract import AskResult
    from nztax.frame_notes import frame_notes

    def noted(args, source):
        result = AskResult(status="answered", tax_year="2026-27", disclaimer="", answer="The rule.", citations=[])
        decision = SimpleNamespace(known_year=True, tax_year="2025-26", tax_year_source=source, stated=[],
                                   handed_over=[(INCOME_TAX, args)])
        return frame_notes(result, decision).answer

    filled = noted({"taxable_income": 60000.0, "tax_year": "2025-26"}, "question")
    assert "taxable_income=60000" in filled and "Check your figures" in filled and "2025-26, the year your post names" in filled
    unfilled = noted({"tax_year": "2025-26"}, "default")
    assert "taxable_income" not in unfilled and "Enter your figures" in unfilled and "the current tax year" in unfilled


# -- the engine: a figure of another kind added to a story, and the same figure written other ways --

STORY = ("I work full time as a nurse on a salary of {salary} a year. I'm paid fortnightly and I'm not in KiwiSaver. "
         "{other}Why is so much income tax coming off my pay?")


def _linked_figures(engine, question) -> set[float]:
    decision, _ = engine.understand(question, None, None)
    return {float(v) for _, args in decision.handed_over for v in args.values()
            if isinstance(v, (int, float)) and not isinstance(v, bool)}


@pytest.mark.parametrize("other,figure", [("I have $40,000 in a savings account. ", 40000.0),
                                          ("The FIF threshold is $50,000. ", 50000.0),
                                          ("My partner earns $120,000 a year. ", 120000.0),
                                          ("My KiwiSaver balance is $31,000. ", 31000.0)])
def test_family_a_figure_of_another_kind_added_to_a_story_never_reaches_the_link(engine, other, figure):
    base = _linked_figures(engine, STORY.format(salary="$78,000", other=""))
    added = _linked_figures(engine, STORY.format(salary="$78,000", other=other))
    assert 78000.0 in base and figure not in added and added <= base, (base, added)


@pytest.mark.parametrize("salary", ["$78k", "78 000", "NZD 78,000", "$78,000.00"])
def test_family_the_same_figure_written_another_way_gives_the_same_link(engine, salary):
    assert _linked_figures(engine, STORY.format(salary=salary, other="")) == \
        _linked_figures(engine, STORY.format(salary="$78,000", other=""))


def test_a_stated_figure_the_calculation_runs_on_is_not_set_beside_it_as_not_income():
    from nztax.input_figures import set_beside

    pay = _amount("$500.99", 8, Decimal("500.99"), {"tax_withheld": 0.58, "income": 0.42})
    taken = _amount("$90", 30, 90, {"tax_withheld": 0.9, "income": 0.1}, role="other")
    frame = QuestionFrame(asks="figure", asks_sure=0.9, asking=("PAYE?",), asks_each=("figure",), amounts=(pay, taken),
                          tax_year=None, year_text=None, conditions=(), scope="nz_tax", scope_sure=0.9)
    slots = SimpleNamespace(amounts=[Money(text=a.text, value=a.value, period="weekly", period_stated=True, start=a.start,
                                           end=a.end, role=a.role) for a in (pay, taken)], annual=lambda a: a.value * 52)
    decision = SimpleNamespace(slots=slots, calls=[("calculate_paye", {"gross_pay": 500.99, "pay_frequency": "weekly"})])
    assert [a.text for a in set_beside(decision, frame)] == ["$90"]
    # Worked as a year's worth, it is the input all the same.
    decision.calls = [("calculate_income_tax", {"taxable_income": float(Decimal("500.99") * 52)})]
    assert [a.text for a in set_beside(decision, frame)] == ["$90"]
