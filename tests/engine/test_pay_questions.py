"""Questions about a bonus, leave paid out, a redundancy payment, a second job or the year's refund
or bill are worked by the pay calculators on the asker's own figures, and the answer opens those
calculators with the figures filled in (issue 38)."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import pytest

from nztax.tools import call_tool


def links(result, slug: str) -> list[dict]:
    found = []
    for text in [result.answer, *result.next_actions]:
        for part in text.split("(/calculators/")[1:]:
            path = "/calculators/" + part.split(")")[0]
            if path.startswith(f"/calculators/{slug}/"):
                found.append({k: v[0] for k, v in parse_qs(urlparse(path).query).items()})
    return found


@pytest.mark.parametrize("question, extra, leaving, redundancy", [
    ("I earn $80,000 and I'm getting a $10,000 bonus. How much tax will come off the bonus?", 10000, False, False),
    ("Why was so much tax taken from my $5,000 bonus? I earn $60,000 a year.", 5000, False, False),
    ("I'm being made redundant with a $30,000 redundancy payment on a $90,000 salary. How much tax?", 30000, True, True),
    ("My leave payout is $4,000 when I leave my $70,000 job. How much tax will be deducted?", 4000, True, False),
])
def test_extra_pay_questions_use_the_extra_pay_method_and_link_it(engine, question, extra, leaving, redundancy):
    r = engine.answer(question)
    assert r.status == "answered"
    call = next(t for t in r.tools if t.name == "calculate_extra_pay_paye")
    assert (call.arguments["extra_pay"], call.arguments["on_leaving"], call.arguments["redundancy"]) == (extra, leaving, redundancy)
    # The answer states the calculator's own PAYE figure and links both pay calculators with the figures.
    paye = call_tool("calculate_extra_pay_paye", call.arguments)["paye"]
    assert f"${paye:,.2f}".replace(".00", "") in r.answer
    page = links(r, "extra-pay")
    assert page and float(page[0]["extra_pay"]) == extra
    assert links(r, "year-end") and float(links(r, "year-end")[0]["extra_pays"]) == extra
    if redundancy:
        assert call_tool("calculate_extra_pay_paye", call.arguments)["acc_levy"] == 0


@pytest.mark.parametrize("question, field, value", [
    ("I earn $60,000 in my main job and $15,000 in a second job on the S code. Will I get a refund or a bill?", "second_job_wages", 15000),
    ("I got a tax bill after the year ended. I earn $75,000 and had $3,000 interest taxed at 10.5%. Why?", "interest", 3000),
])
def test_year_end_questions_square_up_and_say_why(engine, question, field, value):
    r = engine.answer(question)
    call = next(t for t in r.tools if t.name == "calculate_year_end_square_up")
    assert call.arguments[field] == value
    outcome = call_tool("calculate_year_end_square_up", call.arguments)
    assert outcome["result"] == "bill" and outcome["why"][0] in r.answer
    page = links(r, "year-end")
    assert page and float(page[0][field]) == value and float(page[0]["salary_wages"]) > 0


def test_a_plain_income_question_is_left_to_the_usual_sum(engine):
    r = engine.answer("I earn $50,000 and have $2,000 in interest, how much tax?")
    assert not any(t.name in ("calculate_extra_pay_paye", "calculate_year_end_square_up") for t in r.tools)
