"""Browser tests: Playwright driving Debian's Chromium against the fixture site and the real function.

Chromium comes from apt (installed here when /usr/bin/chromium is missing); Playwright launches it
by `executable_path`, so no browser is ever downloaded. The site is served from 127.0.0.1 by the
same static server `nztax serve` uses, and /ask by functions-framework running function/main.py on
the fixture index (fixtures in conftest.py). Screenshots go to test-output/screenshots/.
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from browser_support import free_port
from site_fixtures import ROOT

pytestmark = pytest.mark.browser

SCREENSHOTS = ROOT / "test-output" / "screenshots"


def shot(pg, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    pg.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


def test_faq_page(page, live):
    page.goto(live["site"] + "faq/paye/how-much-is-taken-out-of-a-four-weekly-pay-of-3500/")
    assert "four-weekly pay of $3,500" in page.title()
    assert page.locator(".nz-badge", has_text="Tax year").first.is_visible()
    article = page.locator("article")
    assert "$589.72" in article.inner_text()
    assert page.locator("article h2", has_text="Sources").count() == 1
    assert page.locator("article a[href^='https://www.ird.govt.nz/']").count() >= 1
    assert page.locator("article h2", has_text="Related questions").count() == 1
    shot(page, "faq_page")
    assert not page.js_errors


def test_paye_calculator(page, live):
    page.goto(live["site"] + "calculators/paye/")
    form = page.locator("form.nz-calc")
    form.locator("[name=gross_pay]").fill("3500")
    form.locator("[name=pay_frequency]").select_option("four_weekly")
    form.locator("[name=tax_code]").select_option("M SL")
    form.locator("[name=kiwisaver_rate]").select_option("3.5")
    form.locator("[name=tax_year]").select_option("2026-27")
    form.locator("button[type=submit]").click()
    result = form.locator(".nz-calc__result")
    page.wait_for_function("document.querySelector('.nz-calc__result table') !== null")
    text = result.inner_text()
    # IRD's 2026-27 payroll specification, example 4.
    assert "$589.72" in text and "$197.28" in text and "$122.50" in text and "$2,590.50" in text, text
    shot(page, "paye_calculator")
    assert not page.js_errors


def test_calculator_binds_after_instant_navigation(page, live):
    """Material's instant navigation swaps pages without reloading scripts; the forms still bind."""
    page.goto(live["site"] + "calculators/")
    page.locator("article a[href*='income-tax']").first.click()
    # (The page writes its inputs into the address once bound, so the address may already carry them.)
    page.wait_for_url("**/calculators/income-tax/**")
    page.wait_for_function("document.querySelector('.nz-calc__result table') !== null")
    form = page.locator("form.nz-calc")
    form.locator("[name=taxable_income]").fill("65000")
    form.locator("[name=tax_year]").select_option("2026-27")
    form.locator("button[type=submit]").click()
    # 15,600 x 10.5% + 37,900 x 17.5% + 11,500 x 30% (IRD 2026-27 bands)
    page.wait_for_function("document.querySelector('.nz-calc__result').innerText.includes('$11,720.50')")
    assert not page.js_errors


def test_ask_box_against_the_real_function(page, live):
    page.goto(live["site"] + "faq/")
    box = page.locator("[data-nz-ask]")
    assert box.get_attribute("data-ask-url") == live["ask_url"]
    box.locator("input[name=question]").fill("What is the ACC earners' levy rate for 2026-27?")
    box.locator("button[type=submit]").click()
    answer = page.locator(".nz-ask__answer--answered")
    answer.wait_for(state="visible")
    assert "1.75%" in answer.inner_text()
    links = answer.locator(".nz-ask__sources a")
    assert links.count() >= 1
    assert links.first.get_attribute("href").startswith("https://")
    shot(page, "ask_box_answer")
    chips = answer.locator(".nz-chip")
    if chips.count():
        chips.first.click()
        page.wait_for_function("!document.querySelector('.nz-ask').hasAttribute('aria-busy')")
    assert not page.js_errors


class HostileAsk(BaseHTTPRequestHandler):
    """A fake /ask whose answer, citations and chips try to inject markup and script."""

    delay = 0.0
    status = 200
    headers: dict = {}
    body = {
        "status": "answered",
        "answer": ("Hello <img src=x onerror=\"window.__pwned=1\"> and <script>window.__pwned=2</script>\n\n"
                   "[click](javascript:window.__pwned=3) ![x](https://example.invalid/x.png) "
                   "<a href=\"javascript:window.__pwned=4\">a</a> **bold** `<b>code</b>`\n\n"
                   "| a | b |\n|---|---|\n| <iframe src=x></iframe> | <svg onload=window.__pwned=5> |"),
        "citations": [{"title": "<img src=x onerror=window.__pwned=6>", "url": "javascript:window.__pwned=7"},
                      {"title": "Real source", "url": "https://www.ird.govt.nz/x\" onmouseover=\"window.__pwned=8"}],
        "tools": [], "tax_year": "<script>window.__pwned=9</script>", "disclaimer": "<b>not bold</b>",
        "next_actions": ["<img src=x onerror=window.__pwned=10>", "[chip](javascript:window.__pwned=11)"],
        "source": "engine", "mode": "offline", "latency_ms": 1,
        # What a compromised function could send: raw markup the server-side sanitiser never saw.
        # The vendored DOMPurify in the page must neutralise it (and keep the harmless structure).
        "answer_html": ("<p>Hello <img src=x onerror=\"window.__pwned=12\"> <strong>bold</strong></p>"
                        "<script>window.__pwned=13</script><a href=\"javascript:window.__pwned=14\">a</a>"
                        "<svg onload=\"window.__pwned=15\"></svg><iframe src=\"javascript:window.__pwned=16\"></iframe>"
                        "<style>body{display:none}</style><form action=\"https://evil.example\"><input name=q></form>"
                        "<table><tr><td style=\"background:url(https://evil.example/x)\">c</td></tr></table>"
                        "<p><a href=\"https://www.ird.govt.nz/\" onclick=\"window.__pwned=17\">IRD</a></p>"
                        # The policy DOMPurify is configured with (issue 13): links to this site's pages stay
                        # in the tab, other sites open a new one; "//host" and "/\\host" lose their href; a
                        # style survives only as one text-align on a table cell.
                        "<p><a href=\"/calculators/income-tax/?taxable_income=85000\" target=\"_blank\">calc</a> "
                        "<a href=\"//evil.example/x\">proto</a> <a href=\"/\\evil.example/x\">slash</a></p>"
                        "<table><tr><td style=\"text-align:right\">aligned</td><td style=\"text-align:right;position:fixed\">fixed</td>"
                        "<th style=\"color:red\">red</th></tr></table><p style=\"text-align:center\">para</p>"
                        "<math><mtext><table><mglyph><style><img src=x onerror=\"window.__pwned=18\">"),
    }

    def _cors(self):
        self.send_header("Access-Control-Allow-Origin", "*")
        self.send_header("Access-Control-Allow-Headers", "Content-Type")
        self.send_header("Access-Control-Allow-Methods", "POST, OPTIONS")
        self.send_header("Access-Control-Expose-Headers", "Retry-After")

    def do_OPTIONS(self):  # noqa: N802
        self.send_response(204)
        self._cors()
        self.end_headers()

    def do_POST(self):  # noqa: N802
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        time.sleep(self.delay)
        data = json.dumps(self.body).encode()
        try:
            self.send_response(self.status)
            self._cors()
            for name, value in self.headers_out().items():
                self.send_header(name, value)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(data)
        except OSError:
            pass

    def headers_out(self) -> dict:
        return dict(type(self).headers)

    def log_message(self, *args):
        pass


@pytest.fixture
def hostile_server():
    server = ThreadingHTTPServer(("127.0.0.1", 0), HostileAsk)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


def ask_via(page, url: str, question: str, timeout_seconds: float | None = None) -> None:
    box = page.locator("[data-nz-ask]")
    box.evaluate("(el, url) => el.setAttribute('data-ask-url', url)", url)
    if timeout_seconds is not None:
        box.evaluate("(el, s) => el.setAttribute('data-timeout-seconds', String(s))", timeout_seconds)
    box.locator("input[name=question]").fill(question)
    box.locator("button[type=submit]").click()


def test_hostile_answer_cannot_inject(page, live, hostile_server):
    page.goto(live["site"])
    ask_via(page, hostile_server, "anything")
    answer = page.locator(".nz-ask__answer--answered")
    answer.wait_for(state="visible")
    page.wait_for_timeout(300)  # give any injected handler the chance to run
    answer.locator(".nz-chip").first.hover()
    assert page.evaluate("window.__pwned") is None
    for tag in ("img", "script", "iframe", "svg", "style", "form", "input", "math"):
        assert answer.locator(tag).count() == 0, f"<{tag}> reached the page"
    hrefs = answer.locator("a").evaluate_all("els => els.map(a => a.getAttribute('href'))")
    # A bad href is removed: only web pages and this site's own pages by their root path remain.
    assert all(h.startswith("https://") or (h.startswith("/") and h[1:2] not in ("/", "\\")) for h in hrefs if h is not None), hrefs
    assert answer.locator("a", has_text="proto").get_attribute("href") is None
    assert answer.locator("a", has_text="slash").get_attribute("href") is None
    calc = answer.locator(".nz-ask__body a", has_text="calc")
    assert calc.get_attribute("href") == "/calculators/income-tax/?taxable_income=85000" and calc.get_attribute("target") is None
    ird = answer.locator(".nz-ask__body a[href='https://www.ird.govt.nz/']")
    assert ird.get_attribute("target") == "_blank" and "noopener" in ird.get_attribute("rel")
    assert answer.locator("td", has_text="aligned").get_attribute("style") == "text-align: right"
    for unstyled in (answer.locator("td", has_text="fixed"), answer.locator("th", has_text="red"), answer.locator("p", has_text="para")):
        assert unstyled.get_attribute("style") is None
    assert not answer.locator("[onerror], [onload], [onmouseover], [onclick]").count()
    styles = answer.locator("[style]").evaluate_all("els => els.map(e => e.getAttribute('style'))")
    assert all("url(" not in s for s in styles), styles
    assert answer.locator("strong", has_text="bold").count() == 1
    assert answer.locator("a[href='https://www.ird.govt.nz/']", has_text="IRD").count() == 1
    assert page.evaluate("getComputedStyle(document.body).display") != "none"
    shot(page, "ask_box_hostile")
    assert not page.js_errors


def test_ask_box_timeout_and_unreachable(page, live, hostile_server):
    page.goto(live["site"])
    HostileAsk.delay = 3.0
    try:
        ask_via(page, hostile_server, "slow question", timeout_seconds=0.5)
        message = page.locator(".nz-ask__answer--error")
        message.wait_for(state="visible")
        assert "longer than it should" in message.inner_text()
    finally:
        HostileAsk.delay = 0.0
    ask_via(page, f"http://127.0.0.1:{free_port()}/", "nobody listening")
    page.wait_for_function("(document.querySelector('.nz-ask__answer--error') || {innerText: ''}).innerText.includes(\"Couldn't reach\")")
    shot(page, "ask_box_error")


CALCULATOR_SLUGS = ["income-tax", "paye", "take-home", "acc-levy", "student-loan", "ietc", "kiwisaver", "donations", "pir",
                    "secondary-code", "compare-years", "extra-pay", "year-end"]


def test_every_calculator_computes_its_defaults(page, live):
    for slug in CALCULATOR_SLUGS:
        page.goto(live["site"] + f"calculators/{slug}/")
        page.wait_for_function("document.querySelector('.nz-calc__result table') !== null")
        result = page.locator(".nz-calc__result").inner_text()
        assert "$" in result or "%" in result, (slug, result)
        assert page.locator(".nz-calc__error").count() == 0, (slug, result)
        # The source is named by its title from the rules data, not by an address cut mid-word (issue 16).
        titles = json.loads(page.locator("form.nz-calc").get_attribute("data-source-titles"))
        for link in page.locator(".nz-calc__source-link").all():
            assert link.inner_text() == titles[link.get_attribute("href")], (slug, link.inner_text())
            assert "/" not in link.inner_text() and "www." not in link.inner_text(), (slug, link.inner_text())
    shot(page, "compare_years_calculator")
    assert not page.js_errors


# ---------------------------------------------------------------- amount fields (issue 16)

def _result_text(page) -> str:
    return page.locator("form.nz-calc .nz-calc__result").inner_text()


def test_amount_field_reads_85k_as_85000_and_updates_as_you_type(page, live):
    page.goto(live["site"] + "calculators/income-tax/")
    form = page.locator("form.nz-calc")
    form.locator("[name=tax_year]").select_option("2026-27")
    field = form.locator("[name=taxable_income]")
    field.fill("")
    field.type("$85k")  # no Calculate press: the result follows the typing
    # 2026-27: 15,600 x 10.5% + 37,900 x 17.5% + 24,600 x 30% + 6,900 x 33% = $17,927.50
    page.wait_for_function("document.querySelector('.nz-calc__result').innerText.includes('$17,927.50')")
    assert "$85,000.00" in form.locator(".nz-field__reading").first.inner_text()
    assert "$85,000.00" in _result_text(page)
    assert not page.js_errors


@pytest.mark.parametrize("typed", ["85,000", "85 000", "$85.000", "NZ$85000"])
def test_amount_field_reads_what_people_type(page, live, typed):
    page.goto(live["site"] + "calculators/income-tax/?tax_year=2026-27")
    form = page.locator("form.nz-calc")
    form.locator("[name=taxable_income]").fill(typed)
    page.wait_for_function("document.querySelector('.nz-calc__result').innerText.includes('$17,927.50')")
    assert not page.js_errors


def test_unreadable_and_negative_amounts_get_a_plain_message_and_no_result(page, live):
    page.goto(live["site"] + "calculators/income-tax/")
    form = page.locator("form.nz-calc")
    page.wait_for_function("document.querySelector('.nz-calc__result table') !== null")
    form.locator("[name=taxable_income]").fill("abc")
    page.wait_for_function("document.querySelector('.nz-field__error').innerText.length > 0")
    message = form.locator(".nz-field__error").first.inner_text()
    assert "Taxable income for the year" in message and "abc" in message, message
    assert "taxable_income" not in message
    assert form.locator(".nz-calc__result table").count() == 0  # no result beside an unread input
    assert form.locator("[name=taxable_income]").input_value() == "abc"  # what was typed is kept
    form.locator("[name=taxable_income]").fill("-5000")
    page.wait_for_function("document.querySelector('.nz-field__error').innerText.includes('negative')")
    assert form.locator(".nz-calc__result table").count() == 0
    assert not page.js_errors


def test_calculator_messages_use_the_page_labels(page, live):
    page.goto(live["site"] + "calculators/paye/")
    form = page.locator("form.nz-calc")
    form.locator("[name=tax_year]").select_option("2026-27")
    form.locator("[name=pay_date]").fill("2025-05-01")  # a date outside the chosen year
    form.locator("[name=gross_pay]").fill("1500")
    page.wait_for_function("document.querySelector('.nz-calc__error') !== null")
    text = form.locator(".nz-calc__error").inner_text()
    assert "Pay date" in text and "pay_date" not in text and "_" not in text, text
    assert not page.js_errors


def test_half_typed_date_gets_a_plain_message_and_no_result(page, live):
    """A date the browser cannot read (validity.badInput, value "") is not computed as an empty one."""
    page.goto(live["site"] + "calculators/paye/?gross_pay=1500&pay_frequency=fortnightly&tax_code=M&tax_year=2026-27")
    form = page.locator("form.nz-calc")
    page.wait_for_function("document.querySelector('.nz-calc__result table') !== null")
    date = form.locator("[name=pay_date]")
    date.focus()
    page.keyboard.type("05")  # the month only: day and year still blank
    assert date.evaluate("el => el.validity.badInput && el.value === ''")
    page.wait_for_function("document.querySelector('[name=pay_date]').closest('.nz-field').querySelector('.nz-field__error')"
                           "?.innerText.length > 0")
    message = date.evaluate("el => el.closest('.nz-field').querySelector('.nz-field__error').innerText")
    assert "Pay date" in message and "pay_date" not in message, message
    assert date.get_attribute("aria-invalid") == "true"
    assert form.locator(".nz-calc__result table").count() == 0
    assert "$" not in _result_text(page)
    page.keyboard.type("012026")  # the rest of the date: 1 May 2026, in 2026-27
    page.wait_for_function("document.querySelector('.nz-calc__result table') !== null")
    assert date.input_value() == "2026-05-01"
    assert date.evaluate("el => el.closest('.nz-field').querySelector('.nz-field__error').innerText") == ""
    assert not page.js_errors


def test_typing_a_new_amount_removes_the_old_result_until_the_new_one_is_computed(page, live):
    page.goto(live["site"] + "calculators/income-tax/?taxable_income=85000&tax_year=2026-27")
    page.wait_for_function("document.querySelector('.nz-calc__result').innerText.includes('$17,927.50')")
    # Record the result area after every keystroke and every frame, with the amount it sat beside.
    page.evaluate("""() => {
        window.__seen = [];
        const record = () => window.__seen.push([document.querySelector('[name=taxable_income]').value,
                                                 document.querySelector('.nz-calc__result').innerText]);
        document.addEventListener('input', record);
        const frame = () => { record(); if (!window.__stop) requestAnimationFrame(frame); };
        requestAnimationFrame(frame);
    }""")
    field = page.locator("form.nz-calc [name=taxable_income]")
    field.select_text()
    page.keyboard.type("65000")
    # At once, before typing has paused long enough to recompute: the old figures are gone.
    now = _result_text(page)
    assert "$17,927.50" not in now and "$85,000.00" not in now, now
    assert page.locator("form.nz-calc .nz-calc__result table").count() == 0
    # 15,600 x 10.5% + 37,900 x 17.5% + 11,500 x 30% (2026-27)
    page.wait_for_function("document.querySelector('.nz-calc__result').innerText.includes('$11,720.50')")
    page.evaluate("window.__stop = true")
    seen = page.evaluate("window.__seen")
    stale = [(value, text) for value, text in seen if value != "85000" and ("$17,927.50" in text or "$85,000.00" in text)]
    assert not stale, stale[:3]
    assert any(value == "65000" and "$11,720.50" in text for value, text in seen)
    assert not page.js_errors


def test_back_button_restores_earlier_inputs_and_their_result(page, live):
    page.goto(live["site"] + "calculators/income-tax/?taxable_income=85000&tax_year=2026-27")
    page.wait_for_function("document.querySelector('.nz-calc__result').innerText.includes('$17,927.50')")
    field = page.locator("form.nz-calc [name=taxable_income]")
    field.fill("65000")
    page.wait_for_function("document.querySelector('.nz-calc__result').innerText.includes('$11,720.50')")
    field.fill("100000")
    # 15,600 x 10.5% + 37,900 x 17.5% + 24,600 x 30% + 21,900 x 33% = $22,877.50 (2026-27)
    page.wait_for_function("document.querySelector('.nz-calc__result').innerText.includes('$22,877.50')")
    assert "taxable_income=100000" in page.url
    page.go_back()
    page.wait_for_function("document.querySelector('[name=taxable_income]').value === '65000'")
    page.wait_for_function("document.querySelector('.nz-calc__result').innerText.includes('$11,720.50')")
    assert "$22,877.50" not in _result_text(page) and "taxable_income=65000" in page.url
    page.go_back()
    page.wait_for_function("document.querySelector('[name=taxable_income]').value === '85000'")
    page.wait_for_function("document.querySelector('.nz-calc__result').innerText.includes('$17,927.50')")
    page.go_forward()
    page.wait_for_function("document.querySelector('.nz-calc__result').innerText.includes('$11,720.50')")
    assert field.input_value() == "65000"
    assert not page.js_errors


def test_calculator_inputs_live_in_the_address(page, live):
    page.goto(live["site"] + "calculators/income-tax/?taxable_income=85000&tax_year=2026-27")
    page.wait_for_function("document.querySelector('.nz-calc__result').innerText.includes('$17,927.50')")
    page.locator("form.nz-calc [name=taxable_income]").fill("65000")
    page.wait_for_function("document.querySelector('.nz-calc__result').innerText.includes('$11,720.50')")
    assert "taxable_income=65000" in page.url
    assert not page.js_errors



def test_extra_pay_calculator_prefilled_from_the_address(page, live):
    # IR335's Heidi: weekly pay $1,537.50, a $1,000 bonus on M -> PAYE $347.50; on leaving with a
    # redundancy payment (IR335's Connor: last two weekly pays $550 + $650, $1,000) -> $175.00, no ACC levy.
    page.goto(live["site"] + "calculators/extra-pay/?extra_pay=1000&regular_pay=1537.50&pay_frequency=weekly&tax_code=M&tax_year=2026-27&pay_date=2026-11-04")
    page.wait_for_function("document.querySelector('.nz-calc__result').innerText.includes('$347.50')")
    page.goto(live["site"] + "calculators/extra-pay/?extra_pay=1000&regular_pay=600&recent_earnings=1200&pay_frequency=weekly&tax_code=M"
              "&on_leaving=true&redundancy=true&tax_year=2026-27&pay_date=2026-11-04")
    page.wait_for_function("document.querySelector('.nz-calc__result').innerText.includes('$175.00')")
    text = page.locator(".nz-calc__result").inner_text()
    assert "last two pay periods" in text, text
    shot(page, "extra_pay_calculator")
    assert not page.js_errors


def test_year_end_calculator_says_why_from_the_address(page, live):
    # ME kept on a $60,000 job with a $10,000 second job on SH: the year's $70,000 is above the IETC
    # range, so the credit the ME code gave is a bill, and the page says so.
    page.goto(live["site"] + "calculators/year-end/?tax_year=2026-27&salary_wages=60000&tax_code=ME&pay_frequency=fortnightly"
              "&second_job_wages=10000&second_job_tax_code=SH")
    page.wait_for_function("document.querySelector('.nz-calc__result').innerText.includes('Tax to pay')")
    text = page.locator(".nz-calc__result").inner_text()
    assert "independent earner tax credit" in text and "second job" in text, text
    shot(page, "year_end_calculator")
    assert not page.js_errors

# ---------------------------------------------------------------- Ask box behaviour (issues 13 and 16)

def test_link_chip_opens_its_page_and_a_question_chip_keeps_focus_on_the_answer(page, live):
    page.goto(live["site"] + "faq/")
    box = page.locator("[data-nz-ask]")
    box.locator("input[name=question]").fill("How do I register for GST?")
    box.locator("button[type=submit]").click()
    answer = page.locator(".nz-ask__answer--out_of_scope")
    answer.wait_for(state="visible")
    link = answer.locator("a.nz-chip", has_text="Read IRD's guidance on GST")
    assert link.count() == 1
    assert link.get_attribute("href").startswith("https://www.ird.govt.nz/")
    question_chip = answer.locator("button.nz-chip").first
    question = question_chip.inner_text()
    question_chip.click()
    page.wait_for_function("!document.querySelector('.nz-ask').hasAttribute('aria-busy')")
    assert box.locator("input[name=question]").input_value() == question
    assert page.evaluate("document.activeElement.classList.contains('nz-ask__answer')")
    assert not page.js_errors


def test_ask_input_shows_a_visible_focus_ring(page, live):
    page.goto(live["site"] + "faq/")
    page.keyboard.press("Tab")
    field = page.locator("[data-nz-ask] input[name=question]")
    field.focus()
    style = field.evaluate("el => { const s = getComputedStyle(el); return [s.outlineStyle, s.outlineWidth]; }")
    assert style[0] != "none" and style[1] != "0px", style


def test_progress_shows_only_after_a_pause(page, live, hostile_server):
    page.goto(live["site"])
    HostileAsk.delay = 1.5
    try:
        ask_via(page, hostile_server, "slow question")
        page.wait_for_timeout(100)
        assert page.locator(".nz-ask__answer--pending").count() == 0  # no flash for quick answers
        page.locator(".nz-ask__answer--pending").wait_for(state="visible", timeout=1000)
        page.locator(".nz-ask__answer--answered").wait_for(state="visible")
    finally:
        HostileAsk.delay = 0.0


def test_rate_limited_question_says_how_long_to_wait_and_keeps_the_question(page, live, hostile_server):
    page.goto(live["site"])
    HostileAsk.status, HostileAsk.headers = 429, {"Retry-After": "12"}
    saved = HostileAsk.body
    HostileAsk.body = {"error": {"code": "rate_limited", "message": "too many requests"}}
    try:
        ask_via(page, hostile_server, "what is the acc levy rate")
        message = page.locator(".nz-ask__answer--error")
        message.wait_for(state="visible")
        assert "12 seconds" in message.inner_text()
        assert page.locator("[data-nz-ask] input[name=question]").input_value() == "what is the acc levy rate"
    finally:
        HostileAsk.status, HostileAsk.headers, HostileAsk.body = 200, {}, saved


# ---------------------------------------------------------------- answer -> calculator (issue 13)

def test_following_an_answers_calculator_link_reproduces_its_figure(page, live):
    page.goto(live["site"] + "faq/")
    box = page.locator("[data-nz-ask]")
    box.locator("input[name=question]").fill("How much income tax do I pay on $85,000 a year in 2026-27?")
    box.locator("button[type=submit]").click()
    answer = page.locator(".nz-ask__answer--answered")
    answer.wait_for(state="visible")
    # 2026-27: 15,600 x 10.5% + 37,900 x 17.5% + 24,600 x 30% + 6,900 x 33% = $17,927.50
    assert "$17,927.50" in answer.inner_text()
    chip = answer.locator("a.nz-chip", has_text="calculator")
    assert chip.count() == 1
    # The link in the answer's text and the chip both open the site's own calculator in this tab.
    in_text = answer.locator(".nz-ask__body a[href^='/calculators/income-tax/']")
    assert in_text.count() == 1 and in_text.get_attribute("target") is None
    assert in_text.get_attribute("href") == chip.get_attribute("href")
    assert chip.get_attribute("target") is None
    assert all(t == "_blank" for t in answer.locator(".nz-ask__sources a").evaluate_all("els => els.map(a => a.target)"))
    chip.click()
    page.wait_for_url("**/calculators/income-tax/**")
    page.wait_for_function("document.querySelector('.nz-calc__result').innerText.includes('$17,927.50')")
    assert page.locator("form.nz-calc [name=taxable_income]").input_value() == "85000"
    assert not page.js_errors
