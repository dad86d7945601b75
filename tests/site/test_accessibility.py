"""Accessibility: axe-core in Chromium on the fixture site, and a keyboard and screen-reader walk.

axe-core (vendored in tests/site/vendor, version and hash checked here) runs the WCAG 2.0-2.2 A/AA
rules on the home page, two calculators, a FAQ page, a tax-year page and the sources page, at a desktop
and a phone width, after the calculator has shown its result, and on a page holding an Ask
conversation; any serious or critical violation fails. Every calculator is heard once per result. The keyboard test uses only key presses: the skip link, then at most three Tabs to the
calculator's first field; typing an amount is heard as one short announcement, once per result.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

AXE = Path(__file__).parent / "vendor" / "axe.min.js"
AXE_VERSION = "4.11.0"
AXE_SHA256 = "e9e5863c33a874f09bc01acd9234b7e3c871479f5eef8802fa582544465e6d01"
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
PAGES = {
    "home": "",
    "calculator": "calculators/income-tax/",
    "family calculator": "calculators/working-for-families/",
    "faq": "faq/paye/how-much-is-taken-out-of-a-four-weekly-pay-of-3500/",
    "tax-year": "tax-years/2026-27/",
    "sources": "sources/",
}
WIDTHS = {"desktop": (1280, 900), "mobile": (390, 844)}

# Every element a screen reader speaks from when its text changes: counts each non-empty change.
WATCH_ANNOUNCEMENTS = """() => {
  window.__heard = [];
  const live = (node) => {
    for (let e = node; e && e.nodeType === 1; e = e.parentElement) {
      const aria = e.getAttribute("aria-live");
      if (aria === "off") return null;
      if (aria === "polite" || aria === "assertive" || ["status", "alert", "log"].includes(e.getAttribute("role"))
          || e.tagName === "OUTPUT") return e;
    }
    return null;
  };
  new MutationObserver((records) => {
    const regions = new Set();
    for (const r of records) {
      const region = live(r.target.nodeType === 1 ? r.target : r.target.parentElement);
      if (region) regions.add(region);
    }
    for (const region of regions) {
      const text = region.textContent.trim();
      if (text) window.__heard.push(text);
    }
  }).observe(document.body, { subtree: true, childList: true, characterData: true });
}"""


# The calculator has no recompute pending: no typing pause running, no result being redrawn.
SETTLED = "!document.querySelector('.nz-calc__result').classList.contains('nz-calc__result--pending')"


def test_vendored_axe_is_the_pinned_release():
    data = AXE.read_bytes()
    assert hashlib.sha256(data).hexdigest() == AXE_SHA256
    assert data.startswith(f"/*! axe v{AXE_VERSION}".encode())


def _axe(page) -> list[dict]:
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("tags => axe.run(document, {runOnly: {type: 'tag', values: tags}})", WCAG_TAGS)
    return [v for v in result["violations"] if v["impact"] in ("serious", "critical")]


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", PAGES)
def test_no_serious_accessibility_violations(browser, live, name, width):
    w, h = WIDTHS[width]
    context = browser.new_context(viewport={"width": w, "height": h})
    try:
        page = context.new_page()
        page.goto(live["site"] + PAGES[name])
        page.wait_for_load_state("networkidle")
        if name.endswith("calculator"):
            page.wait_for_function("document.querySelector('.nz-calc__result table') !== null")
        violations = _axe(page)
        detail = [(v["id"], v["help"], [n["target"] for n in v["nodes"][:5]]) for v in violations]
        assert not violations, f"{name} at {width} width: {detail}"
    finally:
        context.close()


def test_keyboard_reaches_the_calculator_and_hears_one_line_per_result(page, live):
    page.goto(live["site"] + "calculators/income-tax/")
    page.wait_for_function("document.querySelector('.nz-calc__result table') !== null")
    # The first result is drawn before the scripts arrive: keys pressed before the form's script has
    # bound its listeners (it marks the form) race it, and an amount entered then is never read.
    page.wait_for_function("document.querySelector('form.nz-calc').dataset.bound === '1'")
    # Keys wait for the first result to settle too: a redraw still pending when the skip link moves the
    # focus has twice (under the suite's load) left the first field more than 3 Tab presses away.
    page.wait_for_function(SETTLED)
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.classList.contains('md-skip')"), "the first Tab stop is the skip link"
    page.keyboard.press("Enter")
    page.wait_for_function("location.hash === '#income-tax'")
    page.wait_for_function(SETTLED)
    first_field = "document.activeElement === document.querySelector('form.nz-calc [name]')"
    # Each stop on the way, to say where the focus went if the field is not reached.
    stop = "(e => e.tagName + (e.id ? '#' + e.id : '') + (e.name ? '[' + e.name + ']' : ''))(document.activeElement)"
    stops = [page.evaluate(stop)]
    while len(stops) <= 3 and not page.evaluate(first_field):
        page.keyboard.press("Tab")
        stops.append(page.evaluate(stop))
    assert page.evaluate(first_field), f"the calculator's first field is not within 3 Tab presses of the skip link: {stops}"

    page.evaluate(WATCH_ANNOUNCEMENTS)
    # Typing waits for the page's own first result to settle, so a late first result cannot stand in for
    # the typed amount's (once, under load, the typed amount's result never came within 20 s).
    page.wait_for_function(SETTLED)
    page.keyboard.press("Control+A")
    # One input event for the whole amount: typed key by key, a loaded machine can pause longer than
    # the calculator's typing pause between keys, and each partial amount is then a result of its own.
    page.keyboard.insert_text("85000")
    page.wait_for_function("document.querySelector('form.nz-calc [name=taxable_income]').value === '85000'")
    # IRD 2026-27 bands: 15,600 x 10.5% + 37,900 x 17.5% + 25,500 x 30% + 6,000 x 33%.
    page.wait_for_function("document.querySelector('.nz-calc__result').innerText.includes('$17,927.50')")
    page.keyboard.press("Tab")  # leaving the field commits it again: the same result is not re-read
    # That commit clears the result at once and redraws it; any announcement it makes comes with the
    # redraw, so the count is read once the result is back, not after a guessed pause.
    page.wait_for_function(SETTLED + " && document.querySelector('.nz-calc__result').innerText.includes('$17,927.50')")
    heard = page.evaluate("window.__heard")
    assert len(heard) == 1, heard
    assert "$17,927.50" in heard[0] and "\n" not in heard[0] and len(heard[0]) < 120, heard

    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Control+A")
    page.keyboard.insert_text("-5")
    page.wait_for_function("document.querySelector('.nz-field__error').innerText.includes('negative')")
    # The message is announced with the field's message, after the typing pause; nothing follows it.
    page.wait_for_function(SETTLED + " && window.__heard.length >= 2")
    heard = page.evaluate("window.__heard")
    assert len(heard) == 2 and "negative" in heard[1], heard
    # The message is tied to its field, so it is read when the field is reached.
    described = page.evaluate("""() => {
      const input = document.querySelector('form.nz-calc [name=taxable_income]');
      return input.getAttribute('aria-describedby').split(' ').map((id) => document.getElementById(id)?.textContent || '').join(' ');
    }""")
    assert "negative" in described
    assert not page.js_errors


def test_ask_conversation_has_no_serious_accessibility_violations(page, live):
    """The Ask box after two answers: the earlier turn moved up into the conversation list."""
    page.goto(live["site"])
    box = page.locator("[data-nz-ask]")
    for question in ("How much tax do I pay on $65,000 a year?", "What about $80,000?"):
        box.locator("input[name=question]").fill(question)
        box.locator("button[type=submit]").click()
        page.wait_for_function("""() => { const b = document.querySelector('[data-nz-ask]');
          return !b.hasAttribute('aria-busy') && !b.querySelector('.nz-ask__answer').hidden; }""", timeout=30000)
    page.wait_for_function("document.querySelectorAll('.nz-ask__thread > li').length >= 1")
    violations = _axe(page)
    assert not violations, [(v["id"], v["help"], [n["target"] for n in v["nodes"][:5]]) for v in violations]
    assert not page.js_errors


def test_every_calculator_is_heard_once_per_result(page, live):
    """A new amount in any calculator's first amount field is one short spoken line, not the table."""
    page.goto(live["site"] + "calculators/")
    slugs = sorted(set(page.evaluate("""[...document.querySelectorAll("article a[href]")]
        .map((a) => new URL(a.href).pathname.match(/\\/calculators\\/([a-z0-9-]+)\\/$/)).filter(Boolean).map((m) => m[1])""")))
    assert len(slugs) >= 10, slugs
    checked = 0
    for slug in slugs:
        page.goto(live["site"] + f"calculators/{slug}/")
        page.wait_for_load_state("networkidle")
        field = page.locator("form.nz-calc input[inputmode=decimal]").first
        if not field.count():
            continue
        field.focus()
        page.evaluate(WATCH_ANNOUNCEMENTS)
        page.keyboard.press("Control+A")
        page.keyboard.type("12345", delay=40)
        page.wait_for_function("document.querySelector('.nz-calc__result').innerText.trim() !== ''")
        page.keyboard.press("Tab")  # committing the same inputs is not a new result
        page.wait_for_timeout(800)
        heard = page.evaluate("window.__heard")
        assert len(heard) == 1, (slug, heard)
        assert "\n" not in heard[0] and len(heard[0]) < 200, (slug, heard)
        checked += 1
    assert checked >= 10, checked
    assert not page.js_errors


def test_scripts_only_where_used_and_the_search_index_on_first_use(page, live):
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(live["site"] + "faq/")
    page.wait_for_load_state("networkidle")
    assert not any("/javascripts/calculators" in u for u in requests)
    assert not any(u.endswith(("/ask.js", "/purify.min.js")) for u in requests), "the Ask box's code loads before the box is used"
    assert not any("search_index.json" in u for u in requests), "the search index loads before search is used"
    page.locator("[data-nz-ask] input[name=question]").focus()
    page.wait_for_function("document.querySelector('[data-nz-ask]').dataset.bound === '1'")
    assert any(u.endswith("/ask.js") for u in requests), requests
    page.evaluate("document.activeElement.blur()")  # the theme's "/" shortcut does not act inside a field
    assert page.evaluate("typeof window.DOMPurify") == "function", "DOMPurify arrives with the box's code"
    with page.expect_response(lambda r: "search_index.json" in r.url):
        page.keyboard.press("/")  # the theme's search shortcut
    page.keyboard.type("ACC levy")
    page.wait_for_function("document.querySelectorAll('.md-search-result__item').length > 0")
    assert not page.js_errors


# Layout shifts a page makes without input (the CLS Lighthouse scores), and whether a calculator's
# result was already drawn when the page finished parsing.
WATCH_SHIFTS = """
window.__shifts = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) if (!e.hadRecentInput) window.__shifts.push(e.value);
}).observe({ type: "layout-shift", buffered: true });
document.addEventListener("DOMContentLoaded", () => {
  window.__resultWhenParsed = Boolean(document.querySelector(".nz-calc__result .nz-table, .nz-calc__result .nz-calc__error"));
});
"""


def test_calculator_result_is_drawn_before_the_page_below_it_so_nothing_moves(page, live):
    """On a phone the first result would push the page below the form down after it was painted
    (CLS 0.14 on the income-tax page); every calculator draws it while the page is still parsed."""
    page.goto(live["site"] + "calculators/")
    slugs = sorted(set(page.evaluate("""[...document.querySelectorAll("article a[href]")]
        .map((a) => new URL(a.href).pathname.match(/\\/calculators\\/([a-z0-9-]+)\\/$/)).filter(Boolean).map((m) => m[1])""")))
    assert len(slugs) >= 10, slugs
    page.set_viewport_size({"width": 390, "height": 844})
    page.add_init_script(WATCH_SHIFTS)
    for slug in slugs:
        page.goto(live["site"] + f"calculators/{slug}/")
        page.wait_for_load_state("networkidle")
        page.wait_for_timeout(300)
        assert page.evaluate("window.__resultWhenParsed"), f"{slug}: no result when the page was parsed"
        shifted = page.evaluate("window.__shifts.reduce((a, b) => a + b, 0)")
        assert shifted < 0.01, f"{slug}: layout shift {shifted:.3f} while loading"
    assert not page.js_errors
