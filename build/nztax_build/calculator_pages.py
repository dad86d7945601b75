"""The calculator pages under /calculators/: a form each, run in the browser, plus precomputed tables.

In: the rules (through `nztax.tools.call_tool`, the same calculators as /ask) and the year the site
leads with. Out: `calculators/index.md` and `calculators/<slug>.md` in `SiteInputs.pages`. Each form
is `<form class="nz-calc" data-calc="<tool name>">` whose named fields are the tool's arguments;
site_src/javascripts/calculators.js runs the JavaScript port of that tool on the rules.json emitted
next to the pages. The tables below each form are worked out here, at build time, by the Python
calculators, so a page is useful without JavaScript.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from nztax.calculators.common import MAX_AMOUNT
from nztax.settings import get_settings
from nztax.tools import call_tool

from .render import SiteInputs, attr, front_matter, long_date, md_escape, money, percent, rules_source_titles, table

DATA_URL = "../data/rules.json"  # from /calculators/<slug>/ to /calculators/data/rules.json
RULES_SCRIPT_URL = "../data/rules.js"  # the same rules as a script that sets globalThis.NZTaxRules
SCRIPTS_URL = "../../javascripts/"  # from /calculators/<slug>/ to the site's scripts
# In load order: the exact-money kit, the calculator ports, the pay tools (queued), then the entry
# point that binds the form (site_src/javascripts/calculators*.js).
CALCULATOR_SCRIPTS = ("calculators_money.js", "calculators_tools.js", "calculators_pay.js", "calculators.js")
FREQUENCY_LABELS = [("weekly", "Weekly"), ("fortnightly", "Fortnightly"), ("four_weekly", "Four-weekly"), ("monthly", "Monthly")]
PRIMARY_CODES = ["M", "ME", "M SL", "ME SL"]
# The names people guess for a year's income in a calculator's address (?income=85000): each
# page's income field reads any of them (the other pages' names for the same thing).
INCOME_NAMES = ("income", "taxable_income", "annual_income", "annual_salary", "salary", "total_annual_income")
# A main job's codes: an answer's "M SL" opens the take-home page with that code, not a lost loan.
MAIN_JOB_CODES = [("M", "M"), ("ME", "ME (eligible for the IETC)"), ("M SL", "M SL (with a student loan)"), ("ME SL", "ME SL (IETC and a student loan)")]
ALL_CODES = PRIMARY_CODES + ["SB", "S", "SH", "ST", "SA", "SB SL", "S SL", "SH SL", "ST SL", "SA SL", "ND", "NSW", "CAE", "EDW"]


@dataclass
class Field:
    name: str
    label: str
    kind: str  # money | int | select | number_select | checkbox | date | year | year_any
    default: object = None
    options: list[tuple[str, str]] = field(default_factory=list)
    optional: bool = False
    hint: str = ""
    aliases: tuple[str, ...] = ()  # other query names the page reads into this field (calculators.js readQuery)


@dataclass
class Calculator:
    slug: str
    title: str
    tool: str
    intro: str
    fields: list[Field]
    tables: object  # (inputs) -> markdown
    source_section: str = ""


def _year_options(inputs: SiteInputs, any_year: bool) -> list[tuple[str, str]]:
    years = sorted(inputs.rules.years) if any_year else inputs.rules.complete_years()
    out = []
    for y in years:
        r = inputs.rules.years[y]
        out.append((y, f"{y} ({long_date(r.start.isoformat())} – {long_date(r.end.isoformat())})" + (" — partial" if r.data.partial else "")))
    return out


def _kiwisaver_rate_options(inputs: SiteInputs, none_label: str | None = "No KiwiSaver") -> list[tuple[str, str]]:
    rates = sorted({r for y in inputs.rules.complete_years() for r in inputs.rules.years[y].data.kiwisaver.employee_rates})
    opts = [("", none_label)] if none_label else []
    return opts + [(f"{float(percent(r)[:-1]):g}", percent(r)) for r in rates]


def field_html(f: Field, inputs: SiteInputs) -> str:
    ident = f"nz-{f.name}"
    label = attr(f.label) + (' <span class="nz-optional">(optional)</span>' if f.optional else "")
    hint = f'<small class="nz-hint" id="{ident}-hint">{attr(f.hint)}</small>' if f.hint else ""
    # The hint, the amount understood and any message are read with the field (aria-describedby);
    # none is a live region, so typing is not interrupted by them.
    described = " ".join(([f"{ident}-hint"] if f.hint else []) + ([f"{ident}-reading"] if f.kind == "money" else []) + [f"{ident}-error"])
    if f.kind == "checkbox":
        checked = " checked" if f.default else ""
        return f'<label class="nz-field nz-field--check" for="{ident}"><input id="{ident}" type="checkbox" name="{f.name}" data-label="{attr(f.label)}" data-type="bool"{checked}> {label}{hint}</label>'
    if f.kind in ("select", "number_select", "year", "year_any"):
        options = f.options or _year_options(inputs, f.kind == "year_any")
        default = inputs.site_year if f.kind in ("year", "year_any") and f.default is None else f.default
        dtype = "number" if f.kind == "number_select" else "text"
        opts = "".join(f'<option value="{attr(v)}"{" selected" if str(v) == str(default) else ""}>{attr(t)}</option>' for v, t in options)
        return f'<label class="nz-field" for="{ident}"><span>{label}</span><select id="{ident}" name="{f.name}" data-label="{attr(f.label)}" data-type="{dtype}">{opts}</select>{hint}</label>'
    problem = f'<small class="nz-field__error" id="{ident}-error"></small>'
    if f.kind == "date":
        # A half-typed date reads as "" with validity.badInput: calculators.js says so here.
        return (f'<label class="nz-field" for="{ident}"><span>{label}</span><input id="{ident}" type="date" name="{f.name}" '
                f'data-label="{attr(f.label)}" data-type="text" aria-describedby="{described}">{hint}{problem}</label>')
    value = "" if f.default is None else f' value="{attr(f.default)}"'
    required = "" if f.optional else " required"
    aliases = " ".join(a for a in f.aliases if a != f.name)
    aliases = f' data-aliases="{attr(aliases)}"' if aliases else ""
    common = f'id="{ident}" name="{f.name}" data-label="{attr(f.label)}" autocomplete="off" aria-describedby="{described}"{value}{required}{aliases}'
    if f.kind == "money":
        # Text, not type=number: a number input silently drops "$85k" to "85" and "abc" to "".
        return (f'<label class="nz-field" for="{ident}"><span>{label}</span><input type="text" inputmode="decimal" '
                f'data-type="money" {common}><span class="nz-field__reading" id="{ident}-reading"></span>{hint}{problem}</label>')
    return (f'<label class="nz-field" for="{ident}"><span>{label}</span><input type="text" inputmode="numeric" '
            f'data-type="number" {common}>{hint}{problem}</label>')


def form_html(calc: Calculator, inputs: SiteInputs) -> str:
    fields = "".join(field_html(f, inputs) for f in calc.fields)
    # Source links under a result show the page's title (see render.rules_source_titles), not its address.
    titles = json.dumps(rules_source_titles(inputs.rules), sort_keys=True, ensure_ascii=False)
    # The browser shares the Python tools' bound on amounts and the engine's sense of a usual pay.
    plausible = json.dumps(get_settings().plausible_pay_per_period, sort_keys=True)
    return (f'<form class="nz-calc" data-calc="{calc.tool}" data-rules="{DATA_URL}" '
            f'data-source-titles="{attr(titles)}" data-max-amount="{MAX_AMOUNT}" data-plausible-pay="{attr(plausible)}" novalidate>'
            '<p class="nz-calc__note" role="status" hidden></p>'
            f'<div class="nz-calc__fields">{fields}</div>'
            '<button type="submit" class="md-button md-button--primary">Calculate</button>'
            # One polite line per result (calculators.js); the result below is not a live region,
            # so a recompute is not read out table and all. Its heading keeps the page's outline.
            '<p class="nz-calc__status nz-visually-hidden" role="status"></p>'
            f'<h2 class="nz-visually-hidden" id="nz-result-{calc.slug}">Result</h2>'
            '<div class="nz-calc__result"></div>'
            "<noscript><p>This calculator runs in your browser and needs JavaScript. The tables below were worked out in advance with the same rules.</p></noscript>"
            "</form>"
            # The scripts right after the form, not deferred: calculators.js binds the form above it
            # as it runs, with the rules rules.js has just set, so the first result is drawn before
            # the page below the form is parsed and nothing on screen moves when it appears (mobile
            # CLS). The rules are one shared file, not copied into the page, so a rules edit leaves
            # a calculator page that shows no figure unchanged. The pay tools queue themselves.
            f'<script src="{RULES_SCRIPT_URL}"></script>'
            + "".join(f'<script src="{SCRIPTS_URL}{name}"></script>' for name in CALCULATOR_SCRIPTS) + "\n")


# -- precomputed tables ---------------------------------------------------------------------------

def _year_end_pay_date(inputs: SiteInputs, year: str) -> str:
    """A pay date in the year's last PAYE period, so tables never depend on the day they are built."""
    return inputs.rules.years[year].data.paye.periods[-1].start.isoformat()


def _call(tool: str, **args) -> dict:
    result = call_tool(tool, args)
    if "error" in result:
        raise RuntimeError(f"{tool}({args}): {result['error']['message']}")
    return result


def tables_income_tax(inputs: SiteInputs) -> str:
    y = inputs.site_year
    rows = []
    for income in (15_000, 20_000, 30_000, 40_000, 50_000, 60_000, 70_000, 80_000, 90_000, 100_000, 120_000, 150_000, 180_000, 200_000, 250_000):
        r = _call("calculate_income_tax", taxable_income=income, tax_year=y)
        rows.append([money(income), money(r["total_tax"], cents=True), percent(r["effective_rate"]), percent(r["marginal_rate"])])
    return f"### Income tax in {y}\n\n" + table(["Taxable income", "Income tax", "Effective rate", "Marginal rate"], rows, ["--:"] * 4)


def tables_paye(inputs: SiteInputs) -> str:
    y = inputs.site_year
    day = _year_end_pay_date(inputs, y)
    codes = ["M", "ME", "S", "SH", "ST"]
    out = []
    for frequency, label, pays in (("weekly", "Weekly", range(400, 3001, 200)), ("monthly", "Monthly", range(2000, 12001, 1000))):
        rows = []
        for gross in pays:
            row = [money(gross)] + [money(_call("calculate_paye", gross_pay=gross, pay_frequency=frequency, tax_code=c, pay_date=day)["paye"], cents=True) for c in codes]
            row.append(money(_call("calculate_paye", gross_pay=gross, pay_frequency=frequency, tax_code="M SL", pay_date=day)["student_loan"], cents=True))
            rows.append(row)
        out.append(f"### {label} PAYE in {y}\n\nPAYE includes the ACC earners' levy. With an SL code (M SL, S SL...) the student loan deduction "
                   "in the last column is taken as well.\n\n"
                   + table(["Gross pay"] + codes + ["Student loan (M SL)"], rows, ["--:"] * (len(codes) + 2)))
    return "\n".join(out)


def tables_take_home(inputs: SiteInputs) -> str:
    y = inputs.site_year
    rows = []
    for salary in (30_000, 40_000, 50_000, 60_000, 70_000, 80_000, 90_000, 100_000, 120_000, 150_000, 200_000):
        r = _call("calculate_take_home_pay", annual_salary=salary, tax_code="M", kiwisaver_rate=3.5, tax_year=y, pay_frequency="fortnightly")
        rows.append([money(salary), money(r["income_tax"], cents=True), money(r["acc_levy"], cents=True), money(r["kiwisaver_employee"], cents=True),
                     money(r["net_pay"], cents=True), money(r["per_pay"]["net_pay"], cents=True)])
    return (f"### Take-home pay in {y} (tax code M, KiwiSaver 3.5%)\n\n"
            + table(["Salary", "Income tax", "ACC levy", "KiwiSaver", "Take-home (year)", "Take-home (fortnight, PAYE)"], rows, ["--:"] * 6))


def tables_acc(inputs: SiteInputs) -> str:
    years = sorted(inputs.rules.years)
    incomes = (30_000, 50_000, 75_000, 100_000, 150_000, 200_000)
    rows = []
    for y in years:
        acc = inputs.rules.years[y].data.acc_levy
        rows.append([y, percent(acc.rate), money(acc.max_liable_earnings), money(acc.max_levy, cents=True)]
                    + [money(_call("calculate_acc_levy", income=i, tax_year=y)["annual_levy"], cents=True) for i in incomes])
    return "### ACC earners' levy by year\n\n" + table(["Tax year", "Rate", "Maximum liable earnings", "Maximum levy"] + [f"on {money(i)}" for i in incomes], rows,
                                                        ["---"] + ["--:"] * (3 + len(incomes)))


def tables_student_loan(inputs: SiteInputs) -> str:
    y = inputs.site_year
    sl = inputs.rules.years[y].data.student_loan
    pt = sl.period_thresholds
    thresholds = table(["Pay period", "Threshold"], [["Year", money(sl.annual_threshold)], ["Weekly", money(pt.weekly)], ["Fortnightly", money(pt.fortnightly)],
                                                     ["Four-weekly", money(pt.four_weekly)], ["Monthly", money(pt.monthly)]], ["---", "--:"])
    rows = [[money(i), money(_call("calculate_student_loan_repayment", income=i, tax_year=y)["annual_repayment"], cents=True)]
            for i in (25_000, 30_000, 40_000, 50_000, 60_000, 80_000, 100_000)]
    weekly = [[money(g), money(_call("calculate_paye", gross_pay=g, pay_frequency="weekly", tax_code="M SL", pay_date=_year_end_pay_date(inputs, y))["student_loan"], cents=True)]
              for g in (500, 750, 1000, 1250, 1500, 2000)]
    return (f"### Thresholds in {y}\n\nRepayments are {percent(sl.rate)} of income over the threshold.\n\n" + thresholds
            + f"\n### Repayments for a year in {y}\n\n" + table(["Salary", "Repayment"], rows, ["--:", "--:"])
            + f"\n### Weekly deductions in {y}\n\n" + table(["Weekly pay", "Student loan"], weekly, ["--:", "--:"]))


def tables_ietc(inputs: SiteInputs) -> str:
    y = inputs.site_year
    rows = [[money(i), money(_call("calculate_ietc", annual_income=i, tax_year=y)["annual_credit"], cents=True)]
            for i in (23_999, 24_000, 40_000, 66_000, 67_000, 68_000, 69_000, 69_999, 70_000)]
    return f"### The credit by income in {y}\n\n" + table(["Annual income", "IETC for the year"], rows, ["--:", "--:"])


def tables_kiwisaver(inputs: SiteInputs) -> str:
    y = inputs.site_year
    ks = inputs.rules.years[y].data.kiwisaver
    rows = []
    for salary in (30_000, 50_000, 70_000, 90_000, 120_000, 250_000):
        r = _call("calculate_kiwisaver", gross_pay=salary, tax_year=y)
        rows.append([money(salary), money(r["employee_contribution"], cents=True), money(r["employer_contribution"], cents=True), percent(r["esct_rate"]),
                     money(r["esct"], cents=True), money(r["employer_contribution_net"], cents=True)])
    return (f"### Contributions for a year in {y} (employee {percent(ks.default_employee_rate)}, employer {percent(ks.employer_minimum_rate)})\n\n"
            "The ESCT rate here is estimated from this year's salary plus the employer contribution.\n\n"
            + table(["Salary", "Employee", "Employer (gross)", "ESCT rate", "ESCT", "Employer (after ESCT)"], rows, ["--:"] * 6))


def tables_donations(inputs: SiteInputs) -> str:
    y = inputs.site_year
    rows = [[money(d), money(i), money(_call("calculate_donation_tax_credit", donations=d, taxable_income=i, tax_year=y)["credit"], cents=True)]
            for d, i in ((100, 50_000), (500, 50_000), (1_200, 60_000), (5_000, 80_000), (20_000, 45_000))]
    return f"### Examples in {y}\n\n" + table(["Donations", "Taxable income", "Tax credit"], rows, ["--:"] * 3)


def _pir_years(inputs: SiteInputs) -> list[tuple[str, str]]:
    # Only years whose rules state the income limits: a later year's rate would be another year's limits
    # shown as its own (the calculator refuses those years), so the finder offers, and opens on, the
    # latest year it can work out.
    return [(y, t) for y, t in _year_options(inputs, False) if y <= inputs.site_year
            and inputs.rules.years[y].data.pir is not None and inputs.rules.years[y].data.pir.limits_stated]


def tables_pir(inputs: SiteInputs) -> str:
    stated = [y for y, _ in _pir_years(inputs)]
    if not stated:
        return ""
    y = stated[-1]
    rows = []
    for taxable, pie in ((12_000, 5_000), (14_000, 34_000), (40_000, 5_000), (48_000, 22_000), (48_000, 23_000), (60_000, 2_000)):
        r = _call("find_prescribed_investor_rate", taxable_income=taxable, pie_income=pie, tax_year=y)
        rows.append([money(taxable), money(pie), percent(r["rate"])])
    later = ("" if y == inputs.site_year else
             f"The income limits for the years after {y} are not confirmed on an Inland Revenue page this site holds, so the "
             "calculator does not work those years out: use IRD's Find my PIR tool.\n\n")
    return (f"### Examples (both of the last two years alike) in {y}\n\n{later}"
            + table(["Taxable income", "PIE income", "PIR"], rows, ["--:"] * 3))


def tables_secondary(inputs: SiteInputs) -> str:
    y = inputs.site_year
    r = _call("choose_secondary_tax_code", total_annual_income=50_000, pay_date=_year_end_pay_date(inputs, y))
    rows = []
    previous = 0
    for t in r["thresholds"]:
        upper = f"{money(previous)} – {money(t['income_up_to'])}" if t["income_up_to"] is not None else f"over {money(previous)}"
        rows.append([t["tax_code"], upper, percent(t["rate"])])
        previous = t["income_up_to"] or previous
    return f"### Secondary codes in {y}\n\nChoose by your total expected income for the year from all jobs and other sources.\n\n" + table(
        ["Code", "Total annual income", "Tax rate (before ACC levy)"], rows, ["---", "---", "--:"])


def tables_compare(inputs: SiteInputs) -> str:
    years = inputs.rules.complete_years()
    rows = []
    for income in (30_000, 50_000, 65_000, 80_000, 100_000, 150_000, 200_000):
        rows.append([money(income)] + [money(_call("calculate_income_tax", taxable_income=income, tax_year=y)["total_tax"], cents=True) for y in years])
    return "### Income tax on the same income, year by year\n\n" + table(["Taxable income"] + years, rows, ["--:"] * (len(years) + 1))


def _wff_years(inputs: SiteInputs) -> list[tuple[str, str]]:
    return [(y, t) for y, t in _year_options(inputs, False) if inputs.rules.years[y].data.working_for_families is not None]


def tables_wff(inputs: SiteInputs) -> str:
    out = []
    for y, _ in _wff_years(inputs):
        rule = inputs.rules.years[y].data.working_for_families
        since = f" (abatement from {rule.abatement_from:%-d %B %Y})" if rule.abatement_from else ""
        incomes = (40_000, 50_000, 60_000, 70_000, 80_000, 100_000)
        if rule.ftc_eldest_child is None:
            rows = [[money(i), money(_call("calculate_working_for_families", family_income=i, tax_year=y)["abatement"], cents=True)] for i in incomes]
            out.append(f"### The abatement in {y}{since}\n\nThe IRD pages held here do not yet state the {y} family tax credit amounts, "
                       "so only the abatement is worked out.\n\n" + table(["Family income", "Abatement for the year"], rows, ["--:", "--:"]))
            continue
        rows = [[money(i)] + [money(_call("calculate_working_for_families", family_income=i, children=k, in_work=True, tax_year=y)["total"], cents=True)
                              for k in (1, 2, 3)] for i in incomes]
        out.append(f"### Family tax credit plus in-work tax credit in {y}{since}\n\n"
                   + table(["Family income", "1 child", "2 children", "3 children"], rows, ["--:"] * 4))
    return "\n".join(out)


def tables_familyboost(inputs: SiteInputs) -> str:
    quarters = [("2025-04-01", "April–June 2025"), ("2025-07-01", "From July–September 2025")]
    rows = []
    for income in (30_000, 35_000, 40_000, 45_000, 50_000, 55_000, 57_286):
        rows.append([money(income)] + [money(_call("calculate_familyboost", ece_fees=3_900, household_income=income, quarter=q)["payment"], cents=True)
                                       for q, _ in quarters])
    return ("### FamilyBoost on $3,900 of ECE fees in a quarter ($300 a week)\n\n"
            + table(["Household income for the quarter"] + [label for _, label in quarters], rows, ["--:"] * 3))


def tables_extra_pay(inputs: SiteInputs) -> str:
    y = inputs.site_year
    day = _year_end_pay_date(inputs, y)
    rows = []
    for salary in (40_000, 60_000, 80_000, 100_000, 150_000):
        r = _call("calculate_extra_pay_paye", extra_pay=5000, pay_frequency="fortnightly", regular_pay=round(salary / 26, 2), tax_code="M", pay_date=day)
        rows.append([money(salary), percent(r["tax_rate"]), money(r["paye"], cents=True), money(r["net_extra_pay"], cents=True),
                     money(r["year_end"]["over_withheld"], cents=True)])
    return (f"### A $5,000 bonus in {y} (fortnightly pay, tax code M)\n\nThe whole bonus is taxed at the rate its annualised total reaches. "
            "The last column is what the year-end square-up gives back if the year's income really is the salary plus the bonus.\n\n"
            + table(["Salary", "Rate", "PAYE on the bonus", "You keep", "Back at year end"], rows, ["--:"] * 5))


def tables_square_up(inputs: SiteInputs) -> str:
    y = inputs.site_year
    cases = [
        ("One job on M all year, $65,000", {"salary_wages": 65_000}),
        ("$60,000 on ME plus a $10,000 second job on SH", {"salary_wages": 60_000, "tax_code": "ME", "second_job_wages": 10_000, "second_job_tax_code": "SH"}),
        ("$80,000 plus $2,000 interest with RWT at 10.5%", {"salary_wages": 80_000, "interest": 2_000, "rwt": 210}),
        ("$50,000 plus a $10,000 bonus", {"salary_wages": 50_000, "extra_pays": 10_000}),
    ]
    rows = []
    for label, args in cases:
        r = _call("calculate_year_end_square_up", tax_year=y, **args)
        rows.append([md_escape(label), r["result"], money(r["amount"], cents=True)])
    return f"### Examples in {y}\n\n" + table(["Situation", "Result", "Amount"], rows, ["---", "---", "--:"])


def calculators(inputs: SiteInputs) -> list[Calculator]:
    ks_rates = _kiwisaver_rate_options(inputs)
    return [
        Calculator("income-tax", "Income tax", "calculate_income_tax",
                   "Annual income tax on taxable income, band by band, with the effective and marginal rates.",
                   [Field("taxable_income", "Taxable income for the year ($)", "money", 65000, aliases=INCOME_NAMES), Field("tax_year", "Tax year", "year")], tables_income_tax),
        Calculator("paye", "PAYE for one pay", "calculate_paye",
                   "PAYE, student loan, KiwiSaver and net pay for one pay, worked out the way Inland Revenue's payroll specification does it, to the cent.",
                   [Field("gross_pay", "Gross pay for the period ($)", "money", 1500),
                    Field("pay_frequency", "Pay frequency", "select", "fortnightly", FREQUENCY_LABELS),
                    Field("tax_code", "Tax code", "select", "M", [(c, c) for c in ALL_CODES]),
                    Field("kiwisaver_rate", "KiwiSaver (employee)", "number_select", "", ks_rates),
                    Field("tax_year", "Tax year", "year"),
                    Field("pay_date", "Pay date", "date", optional=True, hint="Picks the rates in force on that date (2024-25 changed on 31 July 2024).")],
                   tables_paye),
        Calculator("take-home", "Take-home pay", "calculate_take_home_pay",
                   "Take-home pay from a salary: income tax, ACC levy, IETC (tax code ME), student loan and KiwiSaver for the year, and one pay by the PAYE method.",
                   [Field("annual_salary", "Annual salary ($)", "money", 75000, aliases=INCOME_NAMES),
                    Field("tax_code", "Tax code", "select", "M", MAIN_JOB_CODES),
                    Field("student_loan", "I have a student loan", "checkbox"),
                    Field("kiwisaver_rate", "KiwiSaver (employee)", "number_select", "3.5", ks_rates),
                    Field("pay_frequency", "Pay frequency", "select", "fortnightly", FREQUENCY_LABELS),
                    Field("tax_year", "Tax year", "year")], tables_take_home),
        Calculator("acc-levy", "ACC earners' levy", "calculate_acc_levy",
                   "The ACC earners' levy on a year's liable earnings, up to the maximum.",
                   [Field("income", "Liable earnings for the year ($)", "money", 60000, aliases=INCOME_NAMES), Field("tax_year", "Tax year", "year_any")], tables_acc),
        Calculator("student-loan", "Student loan repayments", "calculate_student_loan_repayment",
                   "Student loan repayments on salary or wages for a year (employers deduct them each pay over the pay-period threshold).",
                   [Field("income", "Salary or wages for the year ($)", "money", 50000, aliases=INCOME_NAMES),
                    Field("pay_frequency", "Also show one pay", "select", "", [("", "No, just the year")] + FREQUENCY_LABELS),
                    Field("tax_year", "Tax year", "year")], tables_student_loan),
        Calculator("ietc", "Independent earner tax credit", "calculate_ietc",
                   "Whether you can get the independent earner tax credit (IETC) and how much.",
                   [Field("annual_income", "Annual income ($)", "money", 67000, aliases=INCOME_NAMES), Field("tax_year", "Tax year", "year"),
                    Field("receives_working_for_families", "I or my partner get Working for Families", "checkbox"),
                    Field("receives_benefit", "I get an income-tested benefit", "checkbox"),
                    Field("receives_nz_super", "I get NZ Super or a veteran's pension", "checkbox"),
                    Field("months_eligible", "Whole months with none of these", "int", optional=True,
                          hint="The credit is worked per whole month: a month with any of these payments in it gets none. Default: all 12, or none if one is ticked.")], tables_ietc),
        Calculator("kiwisaver", "KiwiSaver and ESCT", "calculate_kiwisaver",
                   "Employee and employer KiwiSaver contributions, the ESCT taken from the employer's contribution, and the government contribution.",
                   [Field("gross_pay", "Gross pay ($)", "money", 70000),
                    Field("pay_frequency", "Pay is for", "select", "annual", [("annual", "A year")] + FREQUENCY_LABELS),
                    Field("employee_rate", "Employee rate", "number_select", "", _kiwisaver_rate_options(inputs, "The year's default")),
                    Field("employer_rate", "Employer rate (%)", "money", None, optional=True, hint="Default: the compulsory minimum."),
                    Field("esct_threshold_income", "Last year's pay plus employer contributions ($)", "money", optional=True, hint="Sets the ESCT rate; default: estimated from this pay."),
                    Field("tax_year", "Tax year", "year"),
                    Field("member_contributions", "Your contributions in the KiwiSaver year ($)", "money", optional=True, hint="For the government contribution (1 July – 30 June)."),
                    Field("annual_income", "Your annual income ($)", "money", optional=True),
                    Field("age", "Your age", "int", optional=True),
                    Field("kiwisaver_year", "KiwiSaver year", "select", "", [("", "The current one")] + [(y, f"1 July {y[:4]} – 30 June {int(y[:4]) + 1}") for y in inputs.rules.complete_years()])],
                   tables_kiwisaver),
        Calculator("donations", "Donation tax credit", "calculate_donation_tax_credit",
                   "The tax credit for donations to approved donee organisations, limited by your taxable income.",
                   [Field("donations", "Eligible donations in the year ($)", "money", 1200), Field("taxable_income", "Taxable income ($)", "money", 60000),
                    Field("tax_year", "Tax year", "year")], tables_donations),
        Calculator("pir", "Prescribed investor rate finder", "find_prescribed_investor_rate",
                   "The prescribed investor rate (PIR) to give your KiwiSaver or other PIE fund, from the last two tax years' income.",
                   [Field("taxable_income", "Taxable income, last tax year ($)", "money", 45000), Field("pie_income", "PIE income, last tax year ($)", "money", 3000),
                    Field("prior_taxable_income", "Taxable income, the year before ($)", "money", optional=True),
                    Field("prior_pie_income", "PIE income, the year before ($)", "money", optional=True),
                    Field("nz_resident", "I am a New Zealand tax resident", "checkbox", True),
                    Field("tax_year", "Tax year", "select", (_pir_years(inputs) or [(inputs.site_year, "")])[-1][0], _pir_years(inputs))], tables_pir),
        Calculator("secondary-code", "Secondary tax code chooser", "choose_secondary_tax_code",
                   "Which secondary tax code to give a second employer, from your expected total income for the year.",
                   [Field("total_annual_income", "Total expected income from all jobs ($)", "money", 60000, aliases=INCOME_NAMES),
                    Field("student_loan", "I have a student loan", "checkbox"), Field("tax_year", "Tax year", "year")], tables_secondary),
        Calculator("working-for-families", "Working for Families", "calculate_working_for_families",
                   "The family tax credit and the in-work tax credit for a tax year, after abatement on family income.",
                   [Field("family_income", "Family income for the year, both partners ($)", "money", 60000),
                    Field("children", "Dependent children", "int", 2, optional=True),
                    Field("in_work", "We work for pay and get no main benefit or student allowance", "checkbox", True),
                    Field("tax_year", "Tax year", "select", _wff_years(inputs)[-1][0], _wff_years(inputs))], tables_wff),
        Calculator("familyboost", "FamilyBoost", "calculate_familyboost",
                   "FamilyBoost for one quarter's early childhood education fees, on that quarter's household income and settings.",
                   [Field("ece_fees", "ECE fees paid in the quarter, after subsidies ($)", "money", 3900),
                    Field("household_income", "Household income for the quarter ($)", "money", 40000),
                    Field("quarter", "A day in the quarter", "date", optional=True, hint="Quarters from July–September 2025 use the new settings.")],
                   tables_familyboost),
        Calculator("compare-years", "Year-to-year comparison", "compare_years",
                   "The same salary in two tax years: income tax, ACC levy, IETC, student loan, KiwiSaver and take-home pay side by side.",
                   [Field("annual_salary", "Annual salary ($)", "money", 75000, aliases=INCOME_NAMES),
                    Field("tax_code", "Tax code", "select", "M", [("M", "M"), ("ME", "ME (eligible for the IETC)")]),
                    Field("student_loan", "I have a student loan", "checkbox"),
                    Field("kiwisaver_rate", "KiwiSaver (employee)", "number_select", "", ks_rates),
                    Field("year_a", "Compare", "select", inputs.rules.complete_years()[max(0, inputs.rules.complete_years().index(inputs.site_year) - 1)], _year_options(inputs, False)),
                    Field("year_b", "with", "year")], tables_compare),
        Calculator("extra-pay", "PAYE on a bonus or extra pay", "calculate_extra_pay_paye",
                   "PAYE on a bonus, leave paid out, back pay or a redundancy payment by Inland Revenue's extra-pay method, and what the year-end square-up gives back.",
                   [Field("extra_pay", "Extra pay ($)", "money", 5000),
                    Field("regular_pay", "Usual gross pay per pay period ($)", "money", 2500),
                    Field("pay_frequency", "Pay frequency", "select", "fortnightly", FREQUENCY_LABELS),
                    Field("tax_code", "Tax code", "select", "M", [(c, c) for c in ALL_CODES]),
                    Field("on_leaving", "Paid when the job ends", "checkbox"),
                    Field("redundancy", "It is a redundancy payment", "checkbox"),
                    Field("recent_earnings", "Earnings the rule looks at ($)", "money", optional=True,
                          hint="The four weeks (or month) before, or on leaving the last two pays. Default: the usual pay."),
                    Field("kiwisaver_rate", "KiwiSaver (employee)", "number_select", "", ks_rates),
                    Field("tax_year", "Tax year", "year"),
                    Field("pay_date", "Pay date", "date", optional=True)], tables_extra_pay),
        Calculator("year-end", "Refund or bill: the year-end square-up", "calculate_year_end_square_up",
                   "Whether you get a refund or have tax to pay for a year, and which job, payment or code caused it.",
                   [Field("tax_year", "Tax year", "year"),
                    Field("salary_wages", "Main job: salary or wages for the year ($)", "money", 65000),
                    Field("tax_code", "Main job's tax code", "select", "M", [("M", "M"), ("ME", "ME")]),
                    Field("pay_frequency", "Pay frequency", "select", "fortnightly", FREQUENCY_LABELS),
                    Field("salary_paye", "Main job: PAYE taken ($)", "money", optional=True, hint="From payslips or myIR. Default: worked out from the tax code."),
                    Field("second_job_wages", "Second job: pay for the year ($)", "money", optional=True),
                    Field("second_job_tax_code", "Second job's tax code", "select", "S", [(c, c) for c in ("SB", "S", "SH", "ST", "SA", "ND")]),
                    Field("second_job_paye", "Second job: PAYE taken ($)", "money", optional=True),
                    Field("extra_pays", "Bonuses and other extra pays ($)", "money", optional=True),
                    Field("extra_pays_paye", "PAYE taken from them ($)", "money", optional=True),
                    Field("redundancy", "The extra pay was a redundancy payment", "checkbox"),
                    Field("paid_parental_leave", "Paid parental leave ($)", "money", optional=True),
                    Field("paid_parental_leave_tax", "Tax taken from it ($)", "money", optional=True),
                    Field("nz_super", "NZ Super ($)", "money", optional=True),
                    Field("nz_super_tax", "Tax taken from NZ Super ($)", "money", optional=True),
                    Field("interest", "Interest ($)", "money", optional=True),
                    Field("rwt", "RWT taken from interest ($)", "money", optional=True),
                    Field("schedular_payments", "Schedular payments ($)", "money", optional=True),
                    Field("withholding_tax", "Withholding tax taken ($)", "money", optional=True),
                    Field("self_employed_profit", "Self-employed profit ($)", "money", optional=True),
                    Field("provisional_tax_paid", "Provisional tax paid ($)", "money", optional=True),
                    Field("student_loan", "I have a student loan", "checkbox"),
                    Field("donations", "Donations ($)", "money", optional=True),
                    Field("receives_working_for_families", "I or my partner get Working for Families", "checkbox")], tables_square_up),
    ]


def render_calculator(calc: Calculator, inputs: SiteInputs) -> str:
    return "\n".join([
        front_matter(title=f"{calc.title} calculator", description=calc.intro),
        f"# {md_escape(calc.title)}\n",
        md_escape(calc.intro) + "\n",
        form_html(calc, inputs),
        "## Worked out in advance\n",
        calc.tables(inputs),
        '!!! note "General information, not tax advice"\n    Figures follow the rules data for each tax year, with each figure\'s Inland Revenue source on the '
        "[tax-year pages](../tax-years/index.md). Check your own situation with Inland Revenue.\n",
    ])


def render_calculators(inputs: SiteInputs) -> list[tuple[str, str]]:
    """Add the calculator pages to `inputs.pages`; return (docs path, title) in menu order."""
    calcs = calculators(inputs)
    listed = []
    rows = []
    for calc in calcs:
        path = f"calculators/{calc.slug}.md"
        inputs.pages[path] = render_calculator(calc, inputs)
        listed.append((path, calc.title))
        rows.append([f"[{md_escape(calc.title)}]({calc.slug}.md)", md_escape(calc.intro)])
    inputs.pages["calculators/index.md"] = "\n".join([
        front_matter(title="Calculators", description="Calculators for New Zealand income tax, PAYE, take-home pay, ACC levy, "
                     "student loans, IETC, KiwiSaver and ESCT, donations and PIR, from each tax year's published rules."),
        "# Calculators\n",
        f"Each calculator runs in your browser from the published rules for each tax year (leading with {inputs.site_year}) "
        "and gives the same figures, to the cent, as the answers on this site. Every page also has tables worked out in advance.\n",
        table(["Calculator", "What it works out"], rows),
    ])
    return listed
