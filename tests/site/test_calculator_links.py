"""Answers that used a calculator link to the calculator page with the same inputs (issue 13)."""

from __future__ import annotations

import re

from nztax.calculator_links import CALCULATOR_PAGES, calculator_link


def test_link_carries_the_inputs_and_the_year():
    link = calculator_link("calculate_income_tax", {"taxable_income": 85000.0}, {"tax_year": "2026-27", "total_tax": 1})
    assert link == "/calculators/income-tax/?taxable_income=85000&tax_year=2026-27"
    link = calculator_link("calculate_paye", {"gross_pay": 3500, "pay_frequency": "four_weekly", "tax_code": "M SL",
                                              "kiwisaver_rate": 0.035, "tax_year": "2026-27"}, {"paye": 1})
    assert link == ("/calculators/paye/?gross_pay=3500&pay_frequency=four_weekly&tax_code=M+SL"
                    "&kiwisaver_rate=3.5&tax_year=2026-27&pay_date=")
    assert calculator_link("calculate_acc_levy", {"annual_income": 60000}, {"tax_year": "2026-27"}) == \
        "/calculators/acc-levy/?income=60000&tax_year=2026-27"
    assert calculator_link("calculate_income_tax", {"taxable_income": -1}, {"error": {"code": "x"}}) is None
    assert calculator_link("search_tax_documents", {"query": "x"}, {}) is None


def test_link_carries_the_inputs_the_answer_left_at_the_tools_defaults():
    """No KiwiSaver and a fortnightly pay are inputs too: the page's own defaults (KiwiSaver at 3.5%)
    must not change the figure an answer hands over (issue 41)."""
    from urllib.parse import parse_qs, urlsplit

    link = calculator_link("calculate_take_home_pay", {"annual_salary": 100000}, {"tax_year": "2026-27", "net_pay": 1})
    query = parse_qs(urlsplit(link).query, keep_blank_values=True)
    assert query["kiwisaver_rate"] == [""]  # the tool's default: none
    assert query["pay_frequency"] == ["fortnightly"] and query["tax_code"] == ["M"] and query["student_loan"] == ["false"]
    assert query["annual_salary"] == ["100000"] and query["tax_year"] == ["2026-27"]
    # A per-pay student loan question opens the page with its pay period, not the year alone.
    link = calculator_link("calculate_student_loan_repayment", {"annual_income": 52000, "pay_frequency": "weekly", "gross_pay": 1000},
                           {"tax_year": "2026-27", "deduction_per_pay": 1})
    query = parse_qs(urlsplit(link).query, keep_blank_values=True)
    assert query["pay_frequency"] == ["weekly"] and query["income"] == ["52000"]


def test_every_linked_field_exists_on_its_built_calculator(built_site):
    for tool, page in CALCULATOR_PAGES.items():
        html = (built_site.site_dir / "calculators" / page.slug / "index.html").read_text()
        assert f'data-calc="{tool}"' in html, page.slug
        names = set(re.findall(r'\bname="([a-z_]+)"', html))
        assert set(page.fields) <= names, (page.slug, set(page.fields) - names)


def test_faq_calculation_page_links_to_its_calculator(built_site):
    md = (built_site.site_src / "faq" / "paye" / "how-much-is-taken-out-of-a-four-weekly-pay-of-3500" / "index.md").read_text()
    assert "/calculators/paye/?gross_pay=3500" in md and "pay_frequency=four_weekly" in md


def test_calculator_pages_follow_the_tool_registry():
    """The pages' slugs and the links' slugs are one definition (nztax.presentation.PRESENTATION)."""
    from types import SimpleNamespace

    from nztax.rules import default_rules
    from nztax.presentation import PRESENTATION
    from nztax_build.calculator_pages import calculators

    from nztax_build.render import site_year

    rules = default_rules()
    inputs = SimpleNamespace(rules=rules, site_year=site_year(rules))  # the page list needs only these
    pages = {c.tool: c.slug for c in calculators(inputs) if c.tool in PRESENTATION}
    assert pages == {tool: p.page for tool, p in PRESENTATION.items()}
