"""Browser tests for issue 41: hand-overs that keep their figures, the Ask box conversation and its
limit, and the calculators' edges (bounds, an unusual pay, guessed parameter names, unknown years).

Chromium against the fixture site and the real function (fixtures in browser_fixtures.py).
Screenshots go to test-output/screenshots/.
"""

from __future__ import annotations

import json
import re
from decimal import Decimal
from urllib.parse import urlsplit

import pytest

from test_browser import shot

pytestmark = pytest.mark.browser

CALC_LINK = re.compile(r"\]\((/calculators/[^)\s]+)\)")
BOLD_MONEY = re.compile(r"\*\*\$([\d,]+(?:\.\d\d)?)")
SHOWN_MONEY = re.compile(r"\$[\d,]+\.\d\d")


def as_shown(amount: str) -> str:
    """"75,372.5" / "1,050" as a calculator shows it: "$75,372.50", "$1,050.00"."""
    return f"${Decimal(amount.replace(',', '')):,.2f}"


def headline(answer_markdown: str) -> str | None:
    """The answer's first bold dollar figure: the one it leads with."""
    m = BOLD_MONEY.search(answer_markdown)
    return as_shown(m.group(1)) if m else None


def calculator_result(page, href: str, site: str) -> str:
    page.goto(site.rstrip("/") + href)
    page.wait_for_function("document.querySelector('.nz-calc__result table') !== null")
    return page.locator("form.nz-calc .nz-calc__result").inner_text()


def test_every_calculation_faq_page_link_shows_its_figure(page, live, built_site):
    faq = json.loads((built_site.settings.index_dir / "faq.json").read_text())
    checked = []
    for entry in faq:
        answer = entry["result"]["answer"]
        link = CALC_LINK.search(answer)
        if not link:
            continue
        figure = headline(answer)
        assert figure, (entry["question"], answer[:200])
        page.goto(live["site"].rstrip("/") + entry["url"])
        # Material's instant navigation makes the site's own links absolute: compare path and query.
        hrefs = page.locator("article a").evaluate_all("els => els.map(a => a.href)")
        paths = [urlsplit(h)._replace(scheme="", netloc="").geturl() for h in hrefs if urlsplit(h).netloc == urlsplit(page.url).netloc]
        on_page = next((h for h in paths if h.startswith("/calculators/") and "?" in h), None)
        assert on_page == link.group(1), (entry["url"], on_page, link.group(1))
        shown = calculator_result(page, on_page, live["site"])
        assert figure in shown, (entry["question"], figure, on_page, shown)
        checked.append(entry["question"])
    # The fixture's calculations: income tax, PAYE, take-home (with and without a student loan),
    # the ACC levy, the IETC and a per-pay student loan deduction.
    assert len(checked) >= 8, checked
    assert any("student loan is taken" in q for q in checked) and any("take-home" in q for q in checked)
    shot(page, "handover_last_faq_calculator")
    assert not page.js_errors


@pytest.mark.parametrize("question, figure", [
    # 100,000: tax 22,877.50 (2026-27 bands) and ACC 1,750 (1.75%): 75,372.50, with no KiwiSaver.
    ("whats my take home on 100k", "$75,372.50"),
    # IR340 April 2026, weekly $1,000 on M SL: student loan 64.32.
    ("How much student loan is taken from $1,000 a week?", "$64.32"),
    # IRD's 2026-27 payroll specification, example 4.
    ("How much is taken out of a four-weekly pay of $3,500 on M SL with KiwiSaver at 3.5%?", "$589.72"),
])
def test_ask_answers_calculator_link_shows_its_figure(page, live, question, figure):
    page.goto(live["site"])
    box = page.locator("[data-nz-ask]")
    box.locator("input[name=question]").fill(question)
    box.locator("button[type=submit]").click()
    answer = page.locator(".nz-ask__answer--answered")
    answer.wait_for(state="visible")
    assert figure in answer.inner_text()
    chip = answer.locator("a.nz-chip", has_text="calculator")
    href = chip.get_attribute("href")
    chip.click()
    page.wait_for_url("**/calculators/**")
    page.wait_for_function("document.querySelector('.nz-calc__result table') !== null")
    shown = page.locator("form.nz-calc .nz-calc__result").inner_text()
    assert figure in shown, (question, href, shown)
    assert not page.js_errors


# ---------------------------------------------------------------- the Ask box conversation

def test_ask_box_shows_the_conversation_and_sends_the_turns_it_shows(page, live):
    sent = []
    page.on("request", lambda r: sent.append(json.loads(r.post_data)) if r.method == "POST" and r.url.startswith(live["ask_url"]) else None)
    page.goto(live["site"])
    box = page.locator("[data-nz-ask]")
    questions = ["How much tax do I pay on $85,000 a year?", "What is the ACC earners' levy rate?"]
    for i, q in enumerate(questions):
        box.locator("input[name=question]").fill(q)
        box.locator("button[type=submit]").click()
        page.wait_for_function("n => document.querySelectorAll('.nz-ask__thread > li').length === n "
                               "&& !document.querySelector('.nz-ask__answer').hidden "
                               "&& document.querySelector('.nz-ask__answer .nz-ask__question')", arg=i)
        assert box.locator(".nz-ask__answer .nz-ask__question").inner_text() == q
    thread = box.locator(".nz-ask__thread > li")
    assert thread.count() == 1 and questions[0] in thread.first.inner_text()
    assert "$17,927.50" in thread.first.inner_text()  # the earlier answer stays readable above
    # The earlier turn comes before the newest answer on the page.
    assert page.evaluate("""() => {
        const t = document.querySelector('.nz-ask__thread'), a = document.querySelector('.nz-ask__answer');
        return Boolean(t.compareDocumentPosition(a) & Node.DOCUMENT_POSITION_FOLLOWING);
    }""")
    # What was sent: the first question alone, then the second with the first as its history.
    assert sent[0]["history"] == [] and [t["question"] for t in sent[1]["history"]] == questions[:1]
    shot(page, "ask_conversation")
    box.locator(".nz-ask__reset").click()
    assert box.locator(".nz-ask__thread > li").count() == 0 and box.locator(".nz-ask__answer").is_hidden()
    box.locator("input[name=question]").fill(questions[1])
    box.locator("button[type=submit]").click()
    page.locator(".nz-ask__answer--answered").wait_for(state="visible")
    assert sent[-1]["history"] == []  # a new question starts a new conversation
    assert not page.js_errors


def test_ask_box_shows_the_functions_length_limit(page, live):
    from nztax.api import MAX_QUESTION_CHARS

    page.goto(live["site"])
    field = page.locator("[data-nz-ask] input[name=question]")
    assert field.get_attribute("maxlength") == str(MAX_QUESTION_CHARS)
    limit = page.locator(".nz-ask__limit")
    assert f"{MAX_QUESTION_CHARS:,}" in limit.inner_text()
    field.fill("x" * (MAX_QUESTION_CHARS + 50))  # a paste longer than the limit is cut at it, visibly
    field.dispatch_event("input")
    assert len(field.input_value()) == MAX_QUESTION_CHARS
    # The Ask code arrives on first use of the box; once it has, the count shows what was typed before.
    page.wait_for_function("() => window.NZTaxAsk !== undefined")
    assert f"{MAX_QUESTION_CHARS:,} of {MAX_QUESTION_CHARS:,} characters" in limit.inner_text()
    assert not page.js_errors


# ---------------------------------------------------------------- calculator edges

def test_amount_over_the_tools_bound_is_refused_once_at_its_field(page, live):
    page.goto(live["site"] + "calculators/income-tax/?tax_year=2026-27")
    form = page.locator("form.nz-calc")
    form.locator("[name=taxable_income]").fill("999,999,999,999,999")
    page.wait_for_function("document.querySelector('.nz-field__error').innerText.length > 0")
    message = form.locator(".nz-field__error").first.inner_text()
    assert "more than this calculator works with" in message and "$1,000,000,000,000.00" in message, message
    assert form.locator(".nz-calc__result table").count() == 0
    # Each message is shown once: at its field, not again in the result area (the screen reader's
    # status line is visually hidden).
    assert form.locator(".nz-field__error").first.inner_text().count(message) == 1
    assert message not in form.locator(".nz-calc__result").inner_text()
    # At the bound itself the figure is worked out.
    form.locator("[name=taxable_income]").fill("1,000,000,000,000")
    page.wait_for_function("document.querySelector('.nz-calc__result table') !== null")
    assert not page.js_errors


def test_an_unusual_pay_for_its_period_gets_a_hint(page, live):
    page.goto(live["site"] + "calculators/paye/?gross_pay=85k&pay_frequency=fortnightly&tax_code=M&tax_year=2026-27")
    page.wait_for_function("document.querySelector('.nz-calc__result table') !== null")
    hint = page.locator(".nz-calc__hint")
    assert hint.count() == 1 and "$85,000.00" in hint.inner_text() and "a year" in hint.inner_text()
    page.locator("form.nz-calc [name=gross_pay]").fill("3,200")
    page.wait_for_function("document.querySelector('.nz-calc__result').innerText.includes('$3,200.00')")
    assert page.locator(".nz-calc__hint").count() == 0
    assert not page.js_errors


def test_calculators_read_the_names_people_guess_and_an_unknown_year(page, live):
    # 2026-27: 15,600 x 10.5% + 37,900 x 17.5% + 24,600 x 30% + 6,900 x 33% = $17,927.50
    page.goto(live["site"] + "calculators/income-tax/?income=85000&tax_year=2026-27")
    page.wait_for_function("document.querySelector('.nz-calc__result').innerText.includes('$17,927.50')")
    assert page.locator("form.nz-calc [name=taxable_income]").input_value() == "85000"
    page.goto(live["site"] + "calculators/income-tax/?taxable_income=85000&tax_year=2031-32")
    page.wait_for_function("document.querySelector('.nz-calc__result table') !== null")
    shown_year = page.locator("form.nz-calc [name=tax_year]").input_value()
    assert shown_year  # the page's own year (the current one), never a blank
    note = page.locator(".nz-calc__note")
    assert note.is_visible() and "2031-32" in note.inner_text() and shown_year in note.inner_text()
    assert f"Tax year {shown_year}" in page.locator(".nz-calc__result").inner_text()
    shot(page, "calculator_unknown_year")
    assert not page.js_errors


def test_no_kiwisaver_survives_a_reload(page, live):
    """A link's "no KiwiSaver" is kept in the address the page rewrites, so a reload keeps the figure."""
    page.goto(live["site"] + "calculators/take-home/?annual_salary=100000&kiwisaver_rate=&tax_year=2026-27")
    page.wait_for_function("document.querySelector('.nz-calc__result').innerText.includes('$75,372.50')")
    page.reload()
    page.wait_for_function("document.querySelector('.nz-calc__result').innerText.includes('$75,372.50')")
    assert page.locator("form.nz-calc [name=kiwisaver_rate]").input_value() == ""
    assert not page.js_errors
