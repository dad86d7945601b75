"""The calculators' working: one calculator result written out as Markdown lines.

In: a calculator's name, its arguments and its result (calculators/*). Out: the lines (a table or
a sentence with the figures, each from the result) and whether the figures are an annual
approximation of per-pay deductions. say_calc.py puts them under the answer's first sentences;
`composer.describe_tool_result` is the same function.
"""

from __future__ import annotations

from nztax.composer import band_label, money, pct, threshold_change


def _year_phrase(result: dict) -> str:
    return f"the {result.get('tax_year')} tax year"


def _take_home_rows(figures: dict, loan_label: str) -> list[str]:
    """The student loan, KiwiSaver and take-home rows of a pay's or a year's table."""
    rows = [f"| {loan_label} | {money(figures['student_loan'])} |"] if figures.get("student_loan") else []
    if figures.get("kiwisaver_employee"):
        rows.append(f"| KiwiSaver (your contribution) | {money(figures['kiwisaver_employee'])} |")
    return rows + [f"| **Take-home pay** | **{money(figures['net_pay'])}** |"]


def describe_tool_result(name: str, args: dict, result: dict) -> tuple[list[str], bool]:
    """Markdown lines for one calculator result, and whether it is an annual approximation."""
    if "error" in result:
        err = result["error"]
        if err.get("code") == "rules_unavailable":
            return [f"I can't calculate that yet: {err.get('message')}."], False
        return [f"I couldn't run that calculation ({err.get('message')})."], False
    y = _year_phrase(result)
    if name == "calculate_income_tax":
        lines = ["| Income band | Rate | Income in band | Tax |", "|---|---|---|---|"]
        for b in result["breakdown"]:
            lines.append(f"| {band_label(b['band_from'], b['band_to'])} | {pct(b['rate'])} | {money(b['income_in_band'])} | {money(b['tax'])} |")
        if result.get("composite_rates"):
            lines += ["", f"The thresholds changed {threshold_change(result.get('tax_year'))}, so this year's tax uses "
                      "IRD's composite (blended) rates."]
        lines += ["", "This is income tax only: the ACC earners' levy is charged on top, and tax credits (such as the "
                  "independent earner tax credit) reduce it."]
        return lines, False
    if name == "calculate_paye":
        freq = str(result["pay_frequency"]).replace("_", "-")
        lines = [f"For a {freq} pay of {money(result['gross_pay'])} on tax code {result['tax_code']} ({y}):", "",
                 "| | Amount |", "|---|---|",
                 f"| PAYE (includes the ACC earners' levy of {money(result['acc_levy'])}) | {money(result['paye'])} |"]
        lines += _take_home_rows(result, "Student loan")
        lines += ["", "PAYE is worked out the way IRD's payroll specification does it, to the cent."]
        return lines, False
    if name == "calculate_take_home_pay":
        lines = [f"On a salary of {money(result['annual_salary'])} a year on tax code {result['tax_code']} ({y}):", "",
                 "| Per year | Amount |", "|---|---|",
                 f"| Income tax | {money(result['income_tax'])} |",
                 f"| ACC earners' levy | {money(result['acc_levy'])} |"]
        if result.get("ietc"):
            lines.append(f"| Independent earner tax credit | −{money(result['ietc'])} |")
        lines += _take_home_rows(result, "Student loan repayment")
        # (An extra pay is not spread over the year's pays: no one pay shows it.)
        per = result.get("per_pay") if not result.get("other_income") else None
        if per:
            freq = str(per.get("pay_frequency", "")).replace("_", "-")
            extra = f", student loan {money(per['student_loan'])}" if per.get("student_loan") else ""
            extra += f", KiwiSaver {money(per['kiwisaver_employee'])}" if per.get("kiwisaver_employee") else ""
            lines += ["", f"Each {freq} pay of {money(per['gross_pay'])}: PAYE {money(per['paye'])}{extra}, "
                      f"take-home **{money(per['net_pay'])}**."]
        return lines, True
    if name == "calculate_student_loan_repayment" and result.get("deduction_per_pay") is not None:
        freq = str(result["pay_frequency"]).replace("_", "-")
        over = ("every whole dollar of it (a secondary job's pay has no threshold)" if result.get("secondary_income")
                else f"the whole dollars over the {freq} threshold of {money(result['period_threshold'])}")
        return [f"For a {freq} pay of {money(result['gross_pay'])} in {y}, the employer deducts {pct(result['rate'])} of "
                f"{over}, truncated to the cent: **{money(result['deduction_per_pay'])}**. Each pay is worked out on its own, "
                f"with no square-up at the end of the year for salary and wages."], True
    if name == "calculate_student_loan_repayment":
        lines = [f"With an income of {money(args.get('annual_income', 0))} in {y}, the student loan repayment is about "
                 f"**{money(result['annual_repayment'])}** a year: {pct(result['rate'])} of income over the "
                 f"repayment threshold of {money(result['threshold'])}."]
        pt = result.get("period_thresholds") or {}
        if pt:
            lines.append(f"Employers deduct it each pay on earnings over {money(pt['weekly'])} a week, "
                         f"{money(pt['fortnightly'])} a fortnight or {money(pt['monthly'])} a month.")
        return lines, True
    if name == "calculate_acc_levy":
        capped = " (the maximum: earnings above the cap are not levied)" if result.get("capped") else ""
        return [f"The ACC earners' levy on {money(result['liable_income'])} in {y} is **{money(result['annual_levy'])}**{capped}. "
                f"The rate is {pct(result['rate'])} of liable earnings up to {money(result['max_liable_earnings'])}."], False
    if name == "calculate_ietc":
        if result.get("eligible"):
            return [f"On an income of {money(args.get('annual_income', 0))} in {y}, the independent earner tax credit is "
                    f"**{money(result['annual_credit'])}** for the year. {result.get('reason', '')}".strip()], False
        return [f"On an income of {money(args.get('annual_income', 0))} in {y} you would not get the independent earner "
                f"tax credit. {result.get('reason', '')}".strip()], False
    if name == "calculate_kiwisaver":
        if not args.get("gross_pay") and result.get("government_contribution") is not None:
            # Only what the person put in was given: the government contribution is the whole answer.
            return [f"Government contribution for the KiwiSaver year {result.get('kiwisaver_year', '')} on "
                    f"{money(args.get('member_contributions', 0))} of your contributions: "
                    f"**{money(result['government_contribution'])}**. {result.get('government_contribution_reason', '')}".strip()], False
        lines = [f"KiwiSaver on a gross pay of {money(args.get('gross_pay', 0))} ({y}):", "",
                 "| | Amount |", "|---|---|",
                 f"| Your contribution ({pct(result['employee_rate'])}) | {money(result['employee_contribution'])} |",
                 f"| Employer contribution ({pct(result['employer_rate'])}) | {money(result['employer_contribution'])} |",
                 f"| ESCT on it ({pct(result['esct_rate'])}) | {money(result['esct'])} |",
                 f"| Employer contribution after ESCT | {money(result['employer_contribution_net'])} |"]
        if result.get("government_contribution") is not None:
            gc = result["government_contribution"]
            value = gc.get("amount") if isinstance(gc, dict) else gc
            if value is not None:
                lines.append(f"| Government contribution | {money(value)} |")
        return lines, False
    if name == "calculate_donation_tax_credit":
        capped = " (limited by your taxable income)" if result.get("capped_by_income") else ""
        return [f"On {money(result['eligible_donations'])} of eligible donations in {y}, the donation tax credit is "
                f"**{money(result['credit'])}**{capped}. Donations under {money(result['minimum_donation'])} don't count, "
                f"and you can claim for up to {result['claim_years']} years back."], False
    if name == "find_prescribed_investor_rate":
        return [f"Your prescribed investor rate is **{pct(result['rate'])}**. {result.get('reason', '')}".strip()], False
    if name == "choose_secondary_tax_code":
        sl = " SL" if args.get("student_loan") and not str(result["tax_code"]).endswith("SL") else ""
        return [f"With a total income of {money(args.get('total_annual_income', 0))} a year ({y}), the secondary tax code is "
                f"**{result['tax_code']}{sl}**: tax at {pct(result['rate'])} ({pct(result['rate_with_acc_levy'])} with the "
                "ACC earners' levy) on the second job's pay."], False
    if name in ("calculate_extra_pay_paye", "calculate_year_end_square_up"):
        from nztax import pay_working  # (it imports this module's formatting)

        return pay_working.describe(name, args, result), name == "calculate_year_end_square_up"
    return [f"Result: {result}"], False
