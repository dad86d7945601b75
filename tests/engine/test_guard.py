"""The figure guard removes untraceable dollar amounts and percentages."""

from decimal import Decimal

from nztax import guard


def evidence(*numbers, text=""):
    ev = guard.Evidence()
    for n in numbers:
        ev.add_number(n)
    ev.add_text(text)
    return ev


def test_traceable_figures_pass_unchanged():
    answer = "Income tax is $17,927.50, an effective rate of 21.09%. Your marginal rate is 33%."
    result = guard.check(answer, evidence(17927.5, 0.2109, 0.33))
    assert result.answer == answer and not result.flagged


def test_invented_figure_is_removed_with_its_sentence():
    answer = "Income tax is $17,927.50. You can also claim a $1,200 home office deduction. The rate is 33%."
    result = guard.check(answer, evidence(17927.5, 0.33))
    assert "$1,200" not in result.answer and "home office" not in result.answer
    assert "$17,927.50" in result.answer and "33%" in result.answer
    assert result.removed == ["$1,200"] and guard.REMOVED_NOTE in result.answer


def test_rounding_of_a_traced_figure_is_accepted_but_not_a_different_number():
    assert not guard.check("About 21.1% overall.", evidence(0.2109)).flagged
    assert not guard.check("Roughly $17,928.", evidence(17927.5)).flagged
    assert guard.check("About 22% overall.", evidence(0.2109)).flagged


def test_table_rows_with_invented_figures_are_dropped():
    answer = "| Band | Rate |\n|---|---|\n| $0 – $15,600 | 10.5% |\n| $15,600 – $40,000 | 17.5% |"
    result = guard.check(answer, evidence(15600, 0.105, 0.175))
    assert "$40,000" not in result.answer and "10.5%" in result.answer


def test_figures_in_passages_and_k_suffix():
    ev = evidence(text="The threshold is $24,128 a year. You asked about 85k.")
    assert not guard.check("The threshold is $24,128 and your income is $85k.", ev).flagged


def test_money_written_without_a_dollar_sign_is_checked_too():
    # A model can write money as "NZD 2,500" or "2,500 dollars"; neither form may slip past.
    answer = ("Income tax is $17,927.50. You could also get NZD 2,500 back. Or even 3,000 dollars. "
              "Some say 4k NZD. Your marginal rate is 33%.")
    result = guard.check(answer, evidence(17927.5, 0.33))
    assert result.removed == ["NZD 2,500", "3,000 dollars", "4k NZD"]
    assert "2,500" not in result.answer and "3,000" not in result.answer and "4k" not in result.answer
    assert "$17,927.50" in result.answer and "33%" in result.answer
    # and a traceable amount written that way passes
    assert not guard.check("Income tax is 17,927.50 dollars.", evidence(17927.5)).flagged


def test_a_comparison_may_state_the_difference_between_two_runs_of_one_calculator():
    runs = [("calculate_income_tax", {"total_tax": 16277.5, "tax_year": "2026-27"}),
            ("calculate_income_tax", {"total_tax": 13220.5, "tax_year": "2026-27"}),
            ("calculate_acc_levy", {"annual_levy": 1400.0})]
    assert guard.differences(runs) == [Decimal("3057.0")]


def test_a_codes_rate_with_the_acc_levy_is_in_the_years_figures():
    # nz_tax_facts.md s4: ND is 45% + ACC, 46.67% in 2025-26 and 46.75% in 2026-27; SH 31.75% in 2026-27.
    from nztax.rules import default_rules

    rules = default_rules()
    assert {Decimal("46.67")} <= rules.get("2025-26").figures() and Decimal("46.75") not in rules.get("2025-26").figures()
    assert {Decimal("46.75"), Decimal("31.75")} <= rules.get("2026-27").figures()
