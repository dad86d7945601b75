"""An amount's kind on short pay questions: the pay a deduction is taken from, off or out of is income;
the deduction itself is tax withheld. Metamorphic: the same question over periods, number formats and
verbs reads the same income and works the same calculation on it."""

from __future__ import annotations

import pytest

QUESTION = "How much PAYE is {verb} {amount} a {period}?"
VERBS = ["deducted from", "taken from", "withheld from", "taken out of"]
FORMATS = {"$1,000": 1000.0, "1k": 1000.0, "1000 dollars": 1000.0, "$1000": 1000.0}
PERIODS = ["week", "fortnight", "month"]


def frame_of(engine, question):
    decision, _ = engine.understand(question, None, None)
    return decision, engine.read_frame(decision)


def worked_on(decision) -> list[tuple[str, float, str | None]]:
    """Each calculator call's name, the pay it works on and the pay's period."""
    return [(name, float(args["gross_pay"]), args.get("pay_frequency")) for name, args in decision.calls if "gross_pay" in args]


@pytest.mark.parametrize("verb", VERBS)
@pytest.mark.parametrize("period", PERIODS)
def test_the_pay_a_deduction_comes_from_is_the_askers_income(engine, verb, period):
    decision, frame = frame_of(engine, QUESTION.format(verb=verb, amount="$1,000", period=period))
    [amount] = frame.amounts
    assert (amount.kind, amount.owner) == ("income", "me"), frame.to_json()
    assert amount.kind_sure >= frame.bar, frame.to_json()
    assert decision.action == "calculate", decision.trace.to_json()


@pytest.mark.parametrize("written", FORMATS)
def test_family_the_same_pay_written_another_way_works_the_same_calculation(engine, written):
    base, _ = frame_of(engine, QUESTION.format(verb="deducted from", amount="$1,000", period="week"))
    other, frame = frame_of(engine, QUESTION.format(verb="deducted from", amount=written, period="week"))
    assert worked_on(other) == worked_on(base) != [], frame.to_json()
    assert {pay for _, pay, _ in worked_on(other)} == {FORMATS[written]}


@pytest.mark.parametrize("verb", VERBS[1:] + ["that comes off"])
def test_family_another_verb_works_the_same_calculation(engine, verb):
    base, _ = frame_of(engine, QUESTION.format(verb="deducted from", amount="$1,000", period="fortnight"))
    other, frame = frame_of(engine, QUESTION.format(verb=verb, amount="$1,000", period="fortnight"))
    assert worked_on(other) == worked_on(base) != [], frame.to_json()


@pytest.mark.parametrize("period", PERIODS)
def test_family_each_period_works_the_pay_at_that_period(engine, period):
    decision, frame = frame_of(engine, QUESTION.format(verb="deducted from", amount="$1,000", period=period))
    assert [(pay, str(how).lower()) for _, pay, how in worked_on(decision)] and all(
        pay == 1000.0 and period[:4] in str(how).lower() for _, pay, how in worked_on(decision)), frame.to_json()


@pytest.mark.parametrize("stated", ["I had $1,000 of PAYE deducted.", "I had $240 of PAYE deducted this week.",
                                    "Payroll took $207.50 PAYE from my $1,120 weekly wage."])
def test_a_deduction_stated_as_had_or_taken_stays_tax_withheld(engine, stated):
    _, frame = frame_of(engine, stated + " Is that right?")
    first = frame.amounts[0]
    assert first.kind == "tax_withheld", frame.to_json()
    assert all(a.kind == "income" for a in frame.amounts[1:]), frame.to_json()
