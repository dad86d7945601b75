"""The browser calculators (site_src/javascripts/calculators.js) equal the Python calculators to the cent.

For each calculator, at least 1,000 generated cases (seeded, so a failure reproduces) run through
`nztax.tools.call_tool` with a fixed clock and through the JavaScript under node with the same date and
the rules.json the site ships; the whole JSON results must be equal. Cases cluster around band
edges, abatement thresholds, the ACC cap, student-loan pay-period thresholds and cent boundaries,
and cover every tax code, pay frequency and year (including 2024-25's mid-year change and the
partial 2027-28 year, where both sides must refuse the same argument).
"""

from __future__ import annotations

import datetime as dt
import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest

import nztax.rules
from nztax.rules import default_rules
from nztax.tools import call_tool
from nztax_build.site_data import rules_document

ROOT = Path(__file__).resolve().parents[2]
CALCULATORS_JS = ROOT / "site_src" / "javascripts" / "calculators.js"
RUNNER = Path(__file__).with_name("node_runner.js")
NODE = shutil.which("node") or "/usr/bin/node"
CASES_PER_TOOL = 1000

YEARS = ["2023-24", "2024-25", "2025-26", "2026-27"]
TODAYS = ["2024-06-15", "2024-09-01", "2025-11-21", "2026-11-21", "2027-02-28"]
FREQUENCIES = ["weekly", "fortnightly", "four_weekly", "monthly"]
CODES = ["M", "ME", "M SL", "ME SL", "SB", "S", "SH", "ST", "SA", "SB SL", "S SL", "SH SL", "ST SL", "SA SL", "ND", "NSW", "CAE", "EDW"]
KS_RATES = [None, 3, 3.5, 4, 6, 8, 10, 0.035, 0.04]


def edges(book) -> list[float]:
    """Incomes where the rules change: band edges, thresholds and caps, for every year."""
    found: set[float] = set()
    for rules in book.years.values():
        data = rules.data
        for section in (data.income_tax, data.esct):
            if section:
                found.update(b.upper for b in section.bands if b.upper)
        if data.paye:
            for p in data.paye.periods:
                found.update(b.upper for b in p.bands if b.upper)
        if data.ietc:
            for p in data.ietc.periods:
                found.update((p.income_from, p.abatement_from, p.income_to))
        found.add(data.acc_levy.max_liable_earnings)
        if data.student_loan:
            found.add(data.student_loan.annual_threshold)
    return sorted(found)


class Gen:
    def __init__(self, seed: int, book):
        self.r = random.Random(seed)
        self.edges = edges(book)

    def money(self, top: float = 400_000) -> float:
        r = self.r
        kind = r.random()
        if kind < 0.35:  # near an edge, to the cent
            return round(max(0.0, r.choice(self.edges) + r.choice([-1, 0, 1]) * r.choice([0.01, 0.5, 1, 1.99, 7])), 2)
        if kind < 0.45:
            return float(r.choice([0, 1, 5, 100, 1000]))
        if kind < 0.75:
            return round(r.uniform(0, 120_000), 2)
        return float(r.randint(0, int(top)))

    def pay(self, frequency: str) -> float:
        r = self.r
        pays = {"weekly": 52, "fortnightly": 26, "four_weekly": 13, "monthly": 12}[frequency]
        if r.random() < 0.4:  # per-pay figure near an annual edge or a student-loan period threshold
            annual = r.choice(self.edges)
            return round(max(0.0, annual / pays + r.uniform(-3, 3)), 2)
        return round(r.choice([r.uniform(0, 3000), r.uniform(0, 12000), r.uniform(0, 40000)]) * pays / 52, 2)

    def year(self, allow_partial: bool = False) -> str | None:
        options = YEARS + (["2027-28"] if allow_partial else []) + [None]
        return self.r.choice(options)


def paye_case(g: Gen) -> dict:
    r = g.r
    frequency = r.choice(FREQUENCIES + ["fortnight", "4-weekly"])
    args = {"gross_pay": g.pay(FREQUENCIES[0] if frequency == "fortnight" else frequency.replace("4-weekly", "four_weekly")),
            "pay_frequency": frequency, "tax_code": r.choice(CODES + ["msl", "me-sl"])}
    day = None
    if r.random() < 0.5:
        year = r.choice(YEARS)
        first = int(year[:4])
        day = dt.date(first, 4, 1) + dt.timedelta(days=r.randrange(365))
        if year == "2024-25" and r.random() < 0.5:
            day = r.choice([dt.date(2024, 7, 30), dt.date(2024, 7, 31)])
    return pay_day_or_year(g, args, day)


def pay_day_or_year(g: Gen, args: dict, day: dt.date | None) -> dict:
    """A pay's arguments dated by `day` when one was drawn, else by a tax year (or none), with a
    KiwiSaver rate (or none): the same draws, in the same order, for every pay calculator."""
    if day is not None:
        args["pay_date"] = day.isoformat()
    else:
        year = g.year(allow_partial=True)
        if year:
            args["tax_year"] = year
    return with_kiwisaver_rate(g, args)


def with_kiwisaver_rate(g: Gen, args: dict) -> dict:
    ks = g.r.choice(KS_RATES)
    if ks is not None:
        args["kiwisaver_rate"] = ks
    return args


def take_home_case(g: Gen) -> dict:
    r = g.r
    args = {"annual_salary": g.money(), "tax_code": r.choice(["M", "ME", "M SL", "ME SL"]),
            "pay_frequency": r.choice(FREQUENCIES), "student_loan": r.random() < 0.3}
    year = g.year()
    if year:
        args["tax_year"] = year
    return with_kiwisaver_rate(g, args)


def kiwisaver_case(g: Gen) -> dict:
    r = g.r
    frequency = r.choice(["annual"] + FREQUENCIES)
    args = {"gross_pay": g.money() if frequency == "annual" else g.pay(frequency), "pay_frequency": frequency}
    if r.random() < 0.6:
        args["employee_rate"] = r.choice([3, 3.5, 4, 6, 8, 10, 0.03])
    if r.random() < 0.6:
        args["employer_rate"] = r.choice([3, 3.5, 4, 5, 0.035, round(r.uniform(0, 12), 2)])
    if r.random() < 0.3:
        args["esct_threshold_income"] = g.money()
    year = g.year()
    if year:
        args["tax_year"] = year
    if r.random() < 0.5:
        args["member_contributions"] = r.choice([0, 500, 1042.86, 1042.85, 2000, round(r.uniform(0, 3000), 2)])
        if r.random() < 0.6:
            args["annual_income"] = r.choice([180000, 180000.01, g.money()])
        if r.random() < 0.6:
            args["age"] = r.choice([15, 16, 17, 40, 64, 65, 70])
        if r.random() < 0.6:
            args["kiwisaver_year"] = r.choice(["2023-24", "2024-25", "2025-26", "2026-27"])
    return args


def simple(argument: str, allow_partial: bool = False):
    def make(g: Gen) -> dict:
        args = {argument: g.money()}
        year = g.year(allow_partial)
        if year:
            args["tax_year"] = year
        return args
    return make


def student_loan_case(g: Gen) -> dict:
    """A year's income, and sometimes one pay's deduction: on that pay (near a pay-period threshold)
    or on the year divided into pays, on a main or a secondary job's pay."""
    r = g.r
    args = simple("income", allow_partial=True)(g)
    if r.random() < 0.5:
        args["pay_frequency"] = r.choice(FREQUENCIES)
        if r.random() < 0.6:
            args["gross_pay"] = g.pay(args["pay_frequency"])
        if r.random() < 0.3:
            args["secondary_income"] = True
    return args


def ietc_case(g: Gen) -> dict:
    r = g.r
    args = {"annual_income": g.money(100_000)}
    year = g.year(allow_partial=True)
    if year:
        args["tax_year"] = year
    if r.random() < 0.15:
        args[r.choice(["receives_working_for_families", "receives_benefit", "receives_nz_super"])] = True
    if r.random() < 0.3:  # whole months of the year (in the split year 2024-25 a part year is refused, on both sides)
        args["months_eligible"] = r.randint(0, 12)
    return args


def donation_case(g: Gen) -> dict:
    r = g.r
    if r.random() < 0.5:
        donations = round(r.choice([r.uniform(0, 5000), r.uniform(0, 60000)]), 2)
    else:
        donations = [r.choice([4.99, 5, 5.01, 20, round(r.uniform(0, 500), 2)]) for _ in range(r.randint(0, 6))]
    args = {"donations": donations, "taxable_income": r.choice([g.money(), round(r.uniform(0, 3000), 2)])}
    year = g.year()
    if year:
        args["tax_year"] = year
    return args


def pir_case(g: Gen) -> dict:
    r = g.r
    near = [14000, 48000, 70000, 13999.99, 14000.01, 47999.99, 48000.01, 69999.99, 70000.01]
    pick = lambda: r.choice(near + [round(r.uniform(0, 80000), 2), 0])  # noqa: E731
    args = {"taxable_income": pick(), "pie_income": pick()}
    if r.random() < 0.5:
        args["prior_taxable_income"] = pick()
        if r.random() < 0.7:
            args["prior_pie_income"] = pick()
    if r.random() < 0.1:
        args["nz_resident"] = False
    # Mostly years whose rules state the income limits; the others (and the default year) are refused
    # alike by both, and a few cases check that.
    stated = [y for y in YEARS if default_rules().get(y).data.pir.limits_stated]
    year = r.choice(stated) if r.random() < 0.85 else g.year()
    if year:
        args["tax_year"] = year
    return args


def secondary_case(g: Gen) -> dict:
    r = g.r
    args = {"total_annual_income": g.money(), "student_loan": r.random() < 0.3}
    if r.random() < 0.4:
        args["pay_date"] = r.choice(["2024-07-30", "2024-07-31", "2023-05-01", "2025-06-01", "2026-12-01"])
    else:
        year = g.year()
        if year:
            args["tax_year"] = year
    return args


def wff_case(g: Gen) -> dict:
    r = g.r
    near = [42_700, 44_900, 79_000]
    income = r.choice([g.money(150_000), round(r.choice(near) + r.choice([-1, 0, 1]) * r.choice([0.01, 0.5, 1, 7]), 2)])
    args = {"family_income": max(0.0, income)}
    if r.random() < 0.85:
        args["children"] = r.choice([1, 2, 3, 4, 5, 7])
    if r.random() < 0.5:
        args["in_work"] = True
    args["tax_year"] = r.choice(["2025-26", "2026-27", "2025-26", "2026-27", "2024-25"] + ([None] if r.random() < 0.3 else []))
    if args["tax_year"] is None:
        del args["tax_year"]
    return args


def familyboost_case(g: Gen) -> dict:
    r = g.r
    near = [35_000, 45_000, 57_286, 57_285.71]
    income = r.choice([round(r.uniform(0, 70_000), 2), round(r.choice(near) + r.choice([-1, 0, 1]) * r.choice([0.01, 0.5, 1]), 2)])
    fees = r.choice([round(r.uniform(0, 8_000), 2), 3_900, 2_437.5, 3_900.01, 0])
    day = dt.date(2024, 7, 1) + dt.timedelta(days=r.randrange(1000))
    args = {"ece_fees": fees, "household_income": max(0.0, income)}
    if r.random() < 0.9:  # a quarter before FamilyBoost began, now and then, which both must refuse
        args["quarter"] = r.choice([day.isoformat()] * 6 + ["2025-06-30", "2025-07-01", "2024-06-30"])
    return args


def extra_pay_case(g: Gen) -> dict:
    r = g.r
    frequency = r.choice(FREQUENCIES)
    args = {"extra_pay": r.choice([g.money(60_000), round(r.uniform(0, 5000), 2), 30000.56]), "pay_frequency": frequency,
            "tax_code": r.choice(CODES)}
    if r.random() < 0.7:
        args["regular_pay"] = g.pay(frequency)
    if r.random() < 0.4 or "regular_pay" not in args:
        args["recent_earnings"] = r.choice([0, g.pay(frequency) * r.choice([1, 2, 4])])
    if r.random() < 0.4:
        args["on_leaving"] = True
    if r.random() < 0.25:
        args["redundancy"] = True
    day = None
    if r.random() < 0.6:
        year = r.choice(YEARS)
        day = dt.date(int(year[:4]), 4, 1) + dt.timedelta(days=r.randrange(365))
    return pay_day_or_year(g, args, day)


def square_up_case(g: Gen) -> dict:
    r = g.r
    args = {"salary_wages": r.choice([0, g.money(250_000)]), "tax_code": r.choice(["M", "ME", "M SL", "ME SL"]),
            "pay_frequency": r.choice(FREQUENCIES)}
    if r.random() < 0.5:
        args["salary_paye"] = round(args["salary_wages"] * r.uniform(0.1, 0.35), 2)
    if r.random() < 0.4:
        args["second_job_wages"] = g.money(60_000)
        args["second_job_tax_code"] = r.choice(["SB", "S", "SH", "ST", "SA", "S SL", "ND"])
        if r.random() < 0.5:
            args["second_job_paye"] = round(args["second_job_wages"] * r.uniform(0.1, 0.4), 2)
    if r.random() < 0.4:
        args["extra_pays"] = r.choice([g.money(40_000), 5000])
        args["redundancy"] = r.random() < 0.3
        if r.random() < 0.4:
            args["extra_pays_paye"] = round(args["extra_pays"] * r.uniform(0.1, 0.4), 2)
    for income, tax in (("paid_parental_leave", "paid_parental_leave_tax"), ("nz_super", "nz_super_tax"), ("interest", "rwt"),
                        ("schedular_payments", "withholding_tax")):
        if r.random() < 0.25:
            args[income] = g.money(40_000)
            args[tax] = round(args[income] * r.choice([0, 0.105, 0.175, 0.3, 0.33, 0.39]), 2)
    if r.random() < 0.25:
        args["self_employed_profit"] = r.choice([150, 200, 200.01, g.money(80_000)])
        args["provisional_tax_paid"] = r.choice([0, round(r.uniform(0, 10_000), 2)])
    args["student_loan"] = r.random() < 0.4
    if r.random() < 0.3:
        args["donations"] = r.choice([0, 4.99, 300, g.money(20_000)])
    args["receives_working_for_families"] = r.random() < 0.15
    year = g.year(allow_partial=True)
    if year:
        args["tax_year"] = year
    return args


GENERATORS = {
    "calculate_working_for_families": wff_case,
    "calculate_familyboost": familyboost_case,
    "calculate_income_tax": simple("taxable_income"),
    "calculate_paye": paye_case,
    "calculate_acc_levy": simple("income", allow_partial=True),
    "calculate_student_loan_repayment": student_loan_case,
    "calculate_ietc": ietc_case,
    "calculate_kiwisaver": kiwisaver_case,
    "calculate_take_home_pay": take_home_case,
    "calculate_donation_tax_credit": donation_case,
    "find_prescribed_investor_rate": pir_case,
    "choose_secondary_tax_code": secondary_case,
    "calculate_extra_pay_paye": extra_pay_case,
    "calculate_year_end_square_up": square_up_case,
}


def python_result(tool: str, args: dict, today: str, monkeypatch) -> dict:
    day = dt.date.fromisoformat(today)
    monkeypatch.setattr(nztax.rules, "CLOCK", lambda: day)
    # A JSON round trip, as the JavaScript's output makes one.
    return json.loads(json.dumps(call_tool(tool, args)))


def run_node(cases: list[dict]) -> dict:
    payload = {"calculators_js": str(CALCULATORS_JS), "rules": rules_document(default_rules()), "cases": cases}
    proc = subprocess.run([NODE, str(RUNNER)], input=json.dumps(payload), capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return {row["id"]: row["result"] for row in json.loads(proc.stdout)}


def comparable(result: dict) -> dict:
    """Errors agree on their code and argument; their wording may differ (Python's repr vs JS quoting)."""
    if "error" in result:
        return {"error": {k: result["error"].get(k) for k in ("code", "argument")}}
    return result


@pytest.fixture(scope="module")
def node_available():
    if not Path(NODE).exists():
        pytest.fail(f"node not found at {NODE}: the calculator parity test needs node v20")


@pytest.mark.parametrize("tool", sorted(GENERATORS))
def test_javascript_equals_python(tool, node_available, monkeypatch):
    gen = Gen(seed=sum(map(ord, tool)), book=default_rules())
    cases = [{"id": i, "tool": tool, "args": GENERATORS[tool](gen), "today": gen.r.choice(TODAYS)} for i in range(CASES_PER_TOOL)]
    js = run_node(cases)
    mismatches, answered = [], 0
    for case in cases:
        expected = comparable(python_result(tool, case["args"], case["today"], monkeypatch))
        got = comparable(js[case["id"]])
        answered += "error" not in expected
        if got != expected:
            mismatches.append({"args": case["args"], "today": case["today"], "python": expected, "js": got})
    assert not mismatches, f"{len(mismatches)} of {len(cases)} differ; first: {json.dumps(mismatches[0], indent=1)}"
    # The generated cases must mostly be real calculations, not refusals.
    assert answered >= 0.75 * len(cases), f"only {answered} of {len(cases)} cases were answered"


def test_ird_worked_example_in_javascript(node_available):
    """IRD's 2026-27 specification example 4: four-weekly $3,500, M SL, KiwiSaver 3.5%."""
    js = run_node([{"id": 0, "tool": "calculate_paye", "today": "2026-11-21",
                    "args": {"gross_pay": 3500, "pay_frequency": "four_weekly", "tax_code": "M SL", "kiwisaver_rate": 3.5, "tax_year": "2026-27"}}])
    result = js[0]
    assert (result["paye"], result["student_loan"], result["kiwisaver_employee"], result["net_pay"]) == (589.72, 197.28, 122.5, 2590.5)


def test_rules_json_is_deterministic():
    """Two processes with different hash seeds write the same rules.json (no set or dict order leaks)."""
    import os
    import sys

    code = "from nztax.rules import default_rules; from nztax_build.site_data import rules_json_text; print(rules_json_text(default_rules()))"
    outputs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                              env={**os.environ, "PYTHONHASHSEED": seed}).stdout for seed in ("1", "2", "3")}
    assert len(outputs) == 1 and len(next(iter(outputs))) > 1000
