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
    assert any(a <= first_figure < b for a, b in spans), (text, spans)
    # The example runs to the end of its own sentence, not into the question after it.
    assert all(not text[a:b].rstrip().endswith("?") for a, b in spans)


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
])
@pytest.mark.parametrize("inc,value", [("$62,000", 62000.0), ("$85k", 85000.0)])
def test_family_an_example_the_question_asks_to_have_worked_out_is_worked_out(engine, question, inc, value):
    d = decided(engine, question.format(inc=inc))
    assert d.action == "calculate" and value in incomes(d), d.trace.to_json()


@pytest.mark.parametrize("opener", OPENERS[:4])
def test_family_an_example_beside_the_askers_own_income_leaves_only_their_own(engine, opener):
    question = opener.format(inc="$52,000") + "the tax comes to $7,400. I earn $71,000. How much income tax will I pay?"
    d = decided(engine, question)
    assert d.action == "calculate" and incomes(d) == {71000.0}, d.trace.to_json()
