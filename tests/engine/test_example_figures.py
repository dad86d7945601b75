"""Figures inside a quoted or hypothetical example are not the asker's (issue 36): generated families.

Each example is set up one way (an opener) with figures of one kind, and asked about one way. The
engine never works a sum on an example's figures, nor hands them to a calculator as "your figures",
unless the question asks for that example worked out; the same figures told as the asker's own, or
asked about, are worked on."""

from __future__ import annotations

import itertools

import pytest

from nztax.example_figures import example_figure_starts, example_spans

# How a post sets an example up (the figures follow), written for these tests.
OPENERS = ["For example, if you earn {inc}, ", "IRD's guide says that, for instance, on {inc} ",
           "My payroll team's note says: say you earn {inc}, then ", "e.g. on {inc} a year ",
           "The online calculator showed that someone earning {inc} ", "Let's say someone earns {inc}, so "]
# What the example says next: another figure of its own.
CLAIMS = ["the tax comes to {fig}.", "you would take home {fig} a fortnight.", "the PAYE on a {fig} bonus is about 30%."]
# General questions that ask about a rule, not about the example's person.
GENERAL = ["How is that worked out?", "Why is a bonus taxed differently from normal pay?",
           "Does the calculator take KiwiSaver off as well?", "Is it the same for students?"]
FIGURES = [("$62,000", 62000.0, "$9,850"), ("$85k", 85000.0, "$2,400"), ("$48,500", 48500.0, "$1,350")]

CASES = [(o.format(inc=inc) + c.format(fig=fig) + " " + g, value)
         for (o, c, g), (inc, value, fig) in zip(itertools.product(OPENERS, CLAIMS, GENERAL), itertools.cycle(FIGURES))]


def decided(engine, question):
    decision, _ = engine.understand(question, None, None)
    return decision


def incomes(decision) -> set[float]:
    keys = ("taxable_income", "annual_income", "gross_pay", "annual_salary", "total_annual_income")
    return {float(args[k]) for _, args in [*decision.calls, *decision.handed_over] for k in keys if args.get(k) is not None}


# -- the grammar -----------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [c for c, _ in CASES[:: len(CLAIMS)]])
def test_every_opener_marks_its_sentence_as_an_example(text):
    spans = example_spans(text)
    first_figure = text.index("$")
    assert any(a <= first_figure < b for a, b, _ in spans), (text, spans)
    # The example runs to the end of its own sentence, not into the question after it.
    assert all(not text[a:b].rstrip().endswith("?") for a, b, _ in spans)


@pytest.mark.parametrize("text", ["For example, I earn $62,000 and my partner earns $40,000. How much tax do we pay?",
                                  "Let's say I earn $85k next year. How much tax would I pay?",
                                  "Say we earn $120,000 between us. What's the tax on that?"])
def test_an_example_told_in_the_first_person_is_the_askers_own(text):
    starts = [i for i, ch in enumerate(text) if ch == "$"]
    assert example_figure_starts(text, starts) == set()


# -- the engine ------------------------------------------------------------------------------------

@pytest.mark.parametrize("question,value", CASES)
def test_family_an_examples_figures_are_never_worked_on_nor_handed_over(engine, question, value):
    d = decided(engine, question)
    assert d.action != "calculate" or value not in incomes(d), d.trace.to_json()
    assert value not in incomes(d), d.trace.to_json()
    owners = {a["owner"] for a in d.trace.frame["amounts"] if a["text"].startswith("$")}
    assert owners == {"example"}, d.trace.to_json()


@pytest.mark.parametrize("inc,value", [("$62,000", 62000.0), ("$85k", 85000.0), ("$48,500", 48500.0)])
def test_family_the_same_figure_told_as_the_askers_own_is_worked_on(engine, inc, value):
    d = decided(engine, f"I earn {inc} a year. How much income tax will I pay?")
    assert d.action == "calculate" and value in incomes(d), d.trace.to_json()


@pytest.mark.parametrize("question", [
    "If someone earns {inc}, how much income tax do they pay?",
    "Let's say someone earns {inc}. How much income tax do they pay a year?",
    "For example, on {inc} a year, how much income tax is that?",
    "Say you earn {inc} in wages and nothing else. How much income tax is that for the year?",
    "Say someone is on a salary of {inc}. What's the income tax on it?",
])
@pytest.mark.parametrize("inc,value", [("$62,000", 62000.0), ("$85k", 85000.0)])
def test_family_an_example_the_question_asks_to_have_worked_out_is_worked_out(engine, question, inc, value):
    d = decided(engine, question.format(inc=inc))
    assert d.action == "calculate" and value in incomes(d), d.trace.to_json()


@pytest.mark.parametrize("ask", ["How much is the threshold?", "What is the rate above the threshold?",
                                 "What's the rule for someone with two jobs?"])
@pytest.mark.parametrize("quoted", ["For example, if you earn {inc}, you repay 12% of what you earn over the threshold.",
                                    "IRD's example: a person on {inc} repays 12% of the income over the threshold.",
                                    "The online calculator says someone earning {inc} repays 12% over the threshold."])
def test_family_a_figure_asked_after_a_quoted_example_is_about_the_rule_not_the_example(engine, quoted, ask):
    # A quoted example is the rule at work; a figure asked after it is the rule's, not the example's
    # (a case the poster supposes, "say you earn …", is different: a figure asked after it is its own).
    question = quoted.format(inc="$68,000") + " " + ask
    d = decided(engine, question)
    assert 68000.0 not in incomes(d), d.trace.to_json()


@pytest.mark.parametrize("opener", OPENERS[:4])
def test_family_an_example_beside_the_askers_own_income_leaves_only_their_own(engine, opener):
    question = opener.format(inc="$52,000") + "the tax comes to $7,400. I earn $71,000. How much income tax will I pay?"
    d = decided(engine, question)
    assert d.action == "calculate" and incomes(d) == {71000.0}, d.trace.to_json()


# -- a decline the scope reading does not back (decisions.yaml: declined_subject_not_read) ---------

@pytest.mark.parametrize("copy,scope,other,lifted", [
    ("trust", "kiwisaver_scheme", "kiwisaver_scheme", True),   # "unit trust" words in a KiwiSaver story
    ("company", "nz_tax", "employment_law", True),
    ("overseas", "nz_tax", "kiwisaver_scheme", True),
    ("trust", "other_nz_tax", "other_nz_tax", False),          # the scope reading backs the decline
    ("company", "nz_tax", "other_nz_tax", False),
    ("overseas", "foreign_tax", "foreign_tax", False),
    ("not_tax", "nz_tax", "budgeting", False),                 # a decline with no subject of its own is not lifted here
])
def test_a_story_declined_as_a_subject_the_scope_reading_does_not_read_is_lifted(copy, scope, other, lifted):
    from types import SimpleNamespace

    from nztax.decision_rows import table
    from nztax.decision_table import Facts, facts_of
    from nztax.frame import QuestionFrame
    from nztax.settings import get_settings

    frame = QuestionFrame(asks="how", asks_sure=0.9, asking=("How is it taxed?",), asks_each=("how",), amounts=(),
                          tax_year=None, year_text=None, conditions=(), scope=scope, scope_sure=0.4, story=True,
                          scope_in=0.3, scope_other=other)
    decision = SimpleNamespace(action="decline", intent=SimpleNamespace(copy=copy, name="decline_x"), slots=None,
                               calls=[], classification=SimpleNamespace(confident=True), missing=[], rule_results={})
    facts: Facts = facts_of(decision, frame, get_settings())
    row = next(r for r in table().rows if facts.holds(r.when))
    assert (row.id == "declined_subject_not_read") == lifted, row.id


@pytest.mark.parametrize("story", [
    "Our family trust has a rental and some shares. The trustees want to know how the trust's income is taxed. "
    "Should the trust pay the tax or pass the income to the beneficiaries?",
    "My brother and I own a small company that made a profit this year. We pay ourselves shareholder salaries. "
    "What rate does the company pay on the profit it keeps?",
])
def test_family_a_trusts_or_a_companys_own_tax_story_is_still_declined(engine, story):
    assert decided(engine, story).action == "decline"


# -- a figure the post works out, and an example set out under its own heading ---------------------

def _roles(text: str) -> dict[str, str]:
    from nztax.money_reader import find_money

    return {a.text: a.role for a in find_money(text)}


@pytest.mark.parametrize("label,role", [("ACC levy", "deduction"), ("PAYE for the week", "deduction"),
                                        ("Tax on that", "deduction"), ("Estimated refund", "other"),
                                        ("Loan balance after a year", "other"), ("Admin fees", "other")])
def test_a_figure_worked_out_under_a_label_is_what_the_label_names(label, role):
    # The result is the label's kind; the base a tax rate is applied to is not the tax.
    roles = _roles(f"{label} = $52,000 x 1.6% = $832")
    assert roles["$832"] == role, roles
    assert role != "deduction" or roles["$52,000"] != "deduction", roles


@pytest.mark.parametrize("text,figure", [("Annual income = $1,000 x 52 = $52,000", "$52,000"),
                                         ("ACC levy = $832 and my salary = $60,000", "$60,000"),
                                         ("My take home after tax = $1,000", "$1,000")])
def test_a_figure_under_a_pay_label_or_its_own_clause_stays_income(text, figure):
    assert _roles(text)[figure] == "income", _roles(text)


def test_an_example_under_its_own_heading_runs_until_the_poster_speaks():
    text = ("(Example) You work 40 hours a week at $18.50 an hour. Gross = $740 a week. ACC levy = $740 x 1.75% = "
            "$12.95. I earn $62,000 a year. How much income tax will I pay?")
    starts = {text.index(f) for f in ("$18.50", "$740", "$12.95", "$62,000")}
    assert example_figure_starts(text, sorted(starts)) == starts - {text.index("$62,000")}


# Sentences carrying an example's or a worked sum's figures, added to the asker's own question.
WORKED_BESIDE = [
    "(Example) You work 40 hours a week at $18.50 an hour. Gross = $740 a week. ACC levy = $740 x 1.75% = $12.95.",
    "Example: someone on $95,000 pays PAYE = $95,000 x 30% = $28,500.",
    "Assuming you work 40 hours a week at min. wage, your take-home pay would be about $850 a week.",
]


@pytest.mark.parametrize("added", WORKED_BESIDE)
def test_family_an_added_example_or_worked_sum_changes_no_figure_worked(engine, added):
    own = "I earn $62,000 a year. How much income tax will I pay?"
    before, after = decided(engine, own), decided(engine, added + " " + own)
    assert before.action == after.action == "calculate", after.trace.to_json()
    # Only the asker's own $62,000 is worked on (a pay period the example names may still set how
    # often it is shown: 62,000 / 52 = 1,192.30 a week).
    own_pays = {62000.0} | {f(62000 / n * 100) / 100 for n in (52, 26, 12) for f in (round, int)}
    assert incomes(before) == {62000.0} and 62000.0 in incomes(after) <= own_pays, after.trace.to_json()


def test_a_small_levy_in_a_worked_sum_is_not_asked_back_as_a_pay(engine):
    # A post setting out an example payslip's working under its own heading: the levy it works out
    # is a levy, and the example's pay is the example's, so neither is asked back as the asker's.
    post = ("Refund time: how much do you get back?\nTax deducted = income tax + ACC levy (not refunded)\nACC levy is 1.6%\n"
            "(Example) You work 38 hours a week at $20.00 an hour.\nGross pay | Tax deducted | Take home\n"
            "38 hours x $20.00 = $760.00 | $120.00* | $640.00\n*How the tax deducted is worked out\n"
            "Yearly pay from the weekly pay = $760.00 x 52 weeks = $39,520\nTax on the first $15,600 = $15,600 x 10.5% = $1,638\n"
            "ACC levy = $39,520 * 1.6% = $632.32\nWeekly deduction from the yearly figure = ($1,638+$632.32)/52 = $43.66")
    d = decided(engine, post)
    assert not (d.action == "clarify" and "amount" in (d.missing or [])), d.trace.to_json()


@pytest.mark.parametrize("owner,kind,fires", [("example", "income", True), ("me", "tax_withheld", True),
                                              ("me", "income", False)])
def test_a_question_back_about_a_figure_is_asked_only_of_the_askers_income(owner, kind, fires):
    from decimal import Decimal
    from types import SimpleNamespace

    from nztax.decision_rows import table
    from nztax.decision_table import facts_of
    from nztax.frame import FrameAmount, QuestionFrame
    from nztax.settings import get_settings

    amount = FrameAmount("$832", 10, 17, Decimal("832"), "annual", kind, 0.9, owner, 0.95, "income")
    frame = QuestionFrame(asks="figure", asks_sure=0.9, asking=("How much do you get back?",), asks_each=("figure",),
                          amounts=(amount,), tax_year=None, year_text=None, conditions=(), scope="nz_tax", scope_sure=0.9,
                          story=True, scope_in=0.9, scope_other=None)
    decision = SimpleNamespace(action="clarify", intent=SimpleNamespace(copy="paye", name="paye"), calls=[],
                               slots=SimpleNamespace(questioned=[SimpleNamespace(start=10)], amounts=[]),
                               classification=SimpleNamespace(confident=True), missing=["amount"], rule_results={})
    facts = facts_of(decision, frame, get_settings())
    row = next(r for r in table().rows if facts.holds(r.when))
    assert (row.id == "figure_asked_back_not_theirs") == fires, row.id


@pytest.mark.parametrize("text,role", [("I have about 300k NZD in cash in the bank.", "balance"),
                                       ("I have 20k USD in a savings account.", "balance"),
                                       ("My initial loan was $370, and it's grown.", "balance"),
                                       ("I was paid $5,000 in cash for the job.", "income"),
                                       ("I earned 50k NZD in wages.", "income"),
                                       ("My student loan is $370.", "balance"),
                                       ("How much student loan is taken from $1,000 a week?", "income"),
                                       ("Is my student loan deducted from $900 a fortnight?", "income")])
def test_money_held_or_owed_is_a_balance_not_an_income(text, role):
    assert list(_roles(text).values())[0] == role, _roles(text)


def test_a_figure_read_surely_as_someone_elses_is_not_handed_over_as_the_posters():
    """Beside the poster's own income, a call on a figure read (at the certain bar) as someone else's is
    not handed over as "your figures"; the call on their own is. (When every figure is someone else's,
    that person is the one asked about.)"""
    from decimal import Decimal
    from types import SimpleNamespace

    from nztax.input_figures import _handed_over
    from nztax.frame import FrameAmount, QuestionFrame
    from nztax.slots import Money

    def frame_with(owner):
        theirs = FrameAmount("$100,000", 9, 17, Decimal(100000), "annual", "income", 0.99, owner, 0.6, "income")
        mine = FrameAmount("$50,000", 30, 37, Decimal(50000), "annual", "income", 0.9, "me", 0.9, "income")
        return QuestionFrame(asks="figure", asks_sure=0.9, asking=("Is that right?",), asks_each=("check",),
                             amounts=(theirs, mine), tax_year=None, year_text=None, conditions=(), scope="nz_tax",
                             scope_sure=0.9, story=True)

    slots = SimpleNamespace(amounts=[Money(text=t, value=Decimal(v), period="annual", period_stated=True, start=s, end=s + 8,
                                           role="income") for t, v, s in (("$100,000", 100000, 9), ("$50,000", 50000, 30))])
    calls = [("calculate_income_tax", {"taxable_income": 100000.0}), ("calculate_income_tax", {"taxable_income": 50000.0})]
    slots.annual = lambda a: a.value
    decision = SimpleNamespace(slots=slots, calls=calls)
    assert _handed_over(decision, frame_with("me"), lambda: False) == calls
    assert _handed_over(decision, frame_with("someone_else"), lambda: False) == calls[1:]


@pytest.mark.parametrize("known_year,linked", [(True, True), (False, False)])
def test_no_figures_are_handed_to_a_calculator_for_a_year_the_rules_data_does_not_hold(known_year, linked):
    from types import SimpleNamespace

    from nztax.contract import AskResult
    from nztax.frame_notes import frame_notes

    result = AskResult(status="answered", tax_year="2021-22", disclaimer="", answer="Bonuses are taxed through PAYE.",
                       citations=[{"title": "A", "url": "https://example.org/a"}])
    decision = SimpleNamespace(known_year=known_year, tax_year="2021-22" if not known_year else "2026-27", stated=[],
                               handed_over=[("calculate_income_tax", {"taxable_income": 24000.0})])
    out = frame_notes(result, decision)
    assert ("/calculators/income-tax/" in out.answer) == linked, out.answer
