"""The composer: typed answers with the four statuses, fixed copy, disclaimers and citations.

In: a `Decision` (decide.py), tool results and the rules data. Out: `AskResult` (contract.py).
say.py writes answers first; this module holds the fixed copy, the formatting and the citations that
say.py, the per-topic rules summaries (topic_summary.py) and the calculators' working (tool_working.py)
build on.

Decline and refusal copy is fixed text here, never model text. Disclaimers are added by rule:
always "general information"; plus prior tax years, complex situations and approximations.
Citations are the sources actually used: the calculators' rule sources and the passages quoted.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from nztax.contract import MAX_NEXT_ACTIONS, AskResult, Citation, Status, ToolCall, tax_year_starting  # noqa: F401 (re-exported)
from nztax.citation_sections import CITATION_PUBLISHER, passage_citation  # noqa: F401 (re-exported)
from nztax.rules import RuleBook, RulesError, TaxYearRules, default_rules, rate_with_acc_levy

if TYPE_CHECKING:
    from nztax.decide import Decision


# ---------------------------------------------------------------------------------------------
# Fixed copy

WHAT_I_COVER = (
    "I answer questions about New Zealand personal income tax for individuals: tax rates, PAYE and tax "
    "codes, the ACC earners' levy, student loan repayments, KiwiSaver, the independent earner tax credit, "
    "donation tax credits, PIE and RWT rates, and individual tax returns."
)
IRD_HOME = "https://www.ird.govt.nz/"
DECLINE_TOPICS: dict[str, tuple[str, str]] = {
    "gst": ("GST", "https://www.ird.govt.nz/gst"),
    "company": ("company and business tax", "https://www.ird.govt.nz/income-tax/income-tax-for-businesses-and-organisations"),
    "trust": ("trusts and estates", "https://www.ird.govt.nz/roles/trusts-and-estates"),
    "employer": ("employers' obligations", "https://www.ird.govt.nz/employing-staff"),
    "fbt": ("fringe benefit tax", "https://www.ird.govt.nz/employing-staff/paying-fringe-benefit-tax"),
    "provisional": ("provisional tax", "https://www.ird.govt.nz/income-tax/provisional-tax"),
    "overseas": ("another country's tax", "https://www.ird.govt.nz/international-tax"),
    "other_tax": ("duties and other taxes", IRD_HOME),
}
DECLINE_NOT_TAX = f"That isn't something I can help with. {WHAT_I_COVER}"
REFUSALS = {
    "evasion": (
        "I can't help with that. Not declaring income or hiding it from Inland Revenue is tax evasion. "
        "If you have income you haven't declared, you can put it right with Inland Revenue by making a "
        "voluntary disclosure; a tax adviser can help you do that."
    ),
    "avoidance": (
        "I can't help with ways to get out of paying tax you owe. I can help you pay the right amount and no more: "
        "check you're on the right tax code, see whether you qualify for the independent earner tax credit, claim "
        "donation tax credits, and understand KiwiSaver and student loan deductions. For planning your own "
        "situation, talk to a tax adviser."
    ),
    "injection": f"I can't do that. {WHAT_I_COVER}",
    "privacy": ("I can't help with that. Someone else's tax details are private, and an IRD number is personal "
                "to its owner. I can explain how tax works for your own situation."),
}
NOTHING_FOUND = (
    "I couldn't find anything about this in the IRD guidance, guides and legislation I have, so I won't "
    "guess. It may be outside what I cover, or not in my sources yet. Check ird.govt.nz or contact Inland Revenue."
)
# Opens a fact answer whose intent lead speaks for the topic but not to what was asked of it, when no
# retrieved sentence does either (lead_choice.Opening.unanswered): the lead follows as the topic's rule.
NOT_SAID_DIRECTLY = (
    "I haven't found Inland Revenue's guidance saying that directly, so I won't guess. What it says on "
    "the topic:"
)
REPHRASE_ACTION = "Rephrase the question with the tax term you're asking about"
BASE_DISCLAIMER = "General information, not tax advice. Check your own situation with Inland Revenue or a tax adviser."
PRIOR_YEAR_DISCLAIMER = "This answer is for the {year} tax year, which has ended; figures for other years differ."
COMPLEX_DISCLAIMER = "Your situation has several parts, so the figures may not be the whole picture; consider talking to a tax adviser or Inland Revenue."
APPROXIMATION_DISCLAIMER = "Annual figures are an approximation: employers deduct PAYE and student loan per pay, so your payslips may differ by a few cents."
NEXT_YEAR_DISCLAIMER = "Figures for {year} are only partly published; they may change."

# Titles for the rules data's sources (the calculators cite these).
# How every citation of a rules source is labelled, in answers and on calculator and tax-year pages alike.
RULE_SECTION_TITLES = {
    "income_tax": "Tax rates for individuals",
    "paye": "Payroll calculations and business rules specification",
    "ietc": "Independent earner tax credit (IETC)",
    "secondary_codes": "Secondary tax codes",
    "flat_codes": "Tax codes for individuals",
    "acc_levy": "ACC earners' levy rates",
    "student_loan": "Repaying my student loan when I earn salary or wages",
    "kiwisaver": "KiwiSaver employee contributions",
    "esct": "KiwiSaver contributions and deductions (ESCT)",
    "government_contribution": "Getting the KiwiSaver government contribution",
    "donation_credit": "Donation tax credits",
    "pir": "Using prescribed investor rates",
    "provisional_tax": "Provisional tax",
    "foreign_investment_funds": "Foreign investment funds (FIFs)",
    "residency": "Tax residency status for individuals",
    "year_end": "What happens at the end of the tax year",
    "bright_line": "The bright-line test for residential property",
    "working_for_families": "Family tax credit",
    "familyboost": "How much FamilyBoost are you eligible for",
    "in_work_tax_credit": "In-work tax credit",
    "minimum_family_tax_credit": "Minimum family tax credit",
    "best_start": "Best Start tax credit",
    "rwt": "Using the right RWT rate",
    "extra_pay": "Calculate PAYE for a lump sum payment",
}
TOPIC_SECTIONS = {
    "tax_rates": ["income_tax"], "acc": ["acc_levy"], "student_loan": ["student_loan"], "ietc": ["ietc"],
    "kiwisaver": ["kiwisaver", "government_contribution"], "esct": ["esct"], "government_contribution": ["government_contribution"],
    "secondary": ["secondary_codes"], "tax_codes": ["flat_codes", "ietc"], "donations": ["donation_credit"], "pir": ["pir"],
    "rwt": ["rwt"], "paye": ["paye", "acc_levy"],
    "provisional_tax": ["provisional_tax"], "fif": ["foreign_investment_funds"], "residency": ["residency"],
    "year_end": ["year_end"], "bright_line": ["bright_line"], "wff": ["working_for_families", "familyboost"],
}


# ---------------------------------------------------------------------------------------------
# Formatting


def money(value: Any) -> str:
    d = Decimal(str(value))
    return f"${d:,.2f}" if d != d.to_integral_value() else f"${d:,.0f}"


def pct(rate: Any) -> str:
    d = (Decimal(str(rate)) * 100).quantize(Decimal("0.01")).normalize()
    return f"{d:f}%"


def kiwisaver_reduction(ks) -> str:
    """The temporary rate reduction as one sentence, with how long it lasts where the rules say."""
    sentence = f"You can apply to IRD for a temporary rate reduction to {pct(ks.temporary_reduction_rate)}"
    if ks.temporary_reduction_months:
        shortest, longest = ks.temporary_reduction_months
        sentence += f", lasting {shortest} to {longest} months at a time (you can apply again when it ends)"
    return sentence + "."


def with_acc_levy(rate: Any, rules: TaxYearRules) -> str:
    """'45% plus the ACC earners' levy of 1.75%: 46.75% in all' — a flat code's rate as payroll deducts it."""
    acc = rules.data.acc_levy
    return f"{pct(rate)} plus the ACC earners' levy of {pct(acc.rate)}: {pct(rate_with_acc_levy(rate, acc))} in all"


def threshold_change(tax_year: str | None) -> str:
    """'on 31 July 2024': when a split year's PAYE bands changed (the rules' second PAYE period)."""
    year = default_rules().years.get(tax_year or "")
    periods = year.data.paye.periods if year is not None and year.data.paye is not None else []
    return f"on {periods[1].start:%-d %B %Y}" if len(periods) > 1 else "during the year"


def band_label(lower: float, upper: float | None) -> str:
    if upper is None:
        return f"over {money(lower)}"
    return f"up to {money(upper)}" if not lower else f"{money(lower)} – {money(upper)}"


def rule_citations(rules: TaxYearRules, sections: list[str]) -> list[Citation]:
    out = []
    for name in sections:
        section = getattr(rules.data, name, None)
        if section is not None:
            out.append(Citation(title=f"{CITATION_PUBLISHER}: {RULE_SECTION_TITLES[name]}", url=section.source))
            out += [Citation(title=f"{CITATION_PUBLISHER}: Find my prescribed investor rate", url=section.finder)] if getattr(section, "finder", None) and not section.limits_stated else []
    return out


def source_titles(rules: RuleBook) -> dict[str, str]:
    """URL -> title for every rules source, so a calculator's `source` can be cited by name."""
    titles: dict[str, str] = {}
    for year in rules.years.values():
        for name, title in RULE_SECTION_TITLES.items():
            section = getattr(year.data, name, None)
            if section is not None:
                titles.setdefault(section.source, f"{CITATION_PUBLISHER}: {title}")
    return titles


def dedupe(citations: list[Citation]) -> list[Citation]:
    seen, out = set(), []
    for c in citations:
        key = (c.url, c.section or "")
        if key not in seen and c.url:
            seen.add(key)
            out.append(c)
    return out


# ---------------------------------------------------------------------------------------------
# Disclaimers and next actions


def disclaimer_for(intent: Decision | None, current_year: str, *, approximation: bool = False, rules: RuleBook | None = None) -> str:
    parts = [BASE_DISCLAIMER]
    if intent is not None:
        if intent.tax_year < current_year:
            parts.append(PRIOR_YEAR_DISCLAIMER.format(year=intent.tax_year))
        if rules is not None and intent.tax_year in rules.years and rules.years[intent.tax_year].data.partial:
            parts.append(NEXT_YEAR_DISCLAIMER.format(year=intent.tax_year))
        if intent.complex_situation:
            parts.append(COMPLEX_DISCLAIMER)
    if approximation:
        parts.append(APPROXIMATION_DISCLAIMER)
    return " ".join(parts)


# ---------------------------------------------------------------------------------------------
# Scope answers


def decline(intent: Decision, current_year: str) -> AskResult:
    if getattr(intent, "decline_to", None):  # the frame's scope: where a question that is not tax should go
        answer = (f"That's outside what I cover: I answer questions about New Zealand personal income tax. For "
                  f"{intent.decline_to['name']}, try {intent.decline_to['where']}.")
        return AskResult(status="out_of_scope", answer=answer, tax_year=intent.tax_year, disclaimer=BASE_DISCLAIMER,
                         next_actions=["Ask about your income tax, PAYE or tax code"])
    if intent.scope_topic == "not_tax" or intent.scope_topic not in DECLINE_TOPICS:
        answer, actions = DECLINE_NOT_TAX, ["Ask about your income tax, PAYE or tax code", "Work out take-home pay for a salary"]
    else:
        name, link = DECLINE_TOPICS[intent.scope_topic]
        answer = (f"That's outside what I cover. {WHAT_I_COVER} For {name}, see [{link}]({link}) "
                  "or talk to a tax adviser.")
        actions = [f"[Read IRD's guidance on {name}]({link})", "Ask about your personal income tax instead"]
    return AskResult(status="out_of_scope", answer=answer, tax_year=intent.tax_year,
                     disclaimer=BASE_DISCLAIMER, next_actions=actions)


def refuse(intent: Decision) -> AskResult:
    answer = REFUSALS.get(intent.scope_topic or "", REFUSALS["injection"])
    return AskResult(status="refused", answer=answer, tax_year=intent.tax_year, disclaimer=BASE_DISCLAIMER,
                     next_actions=["Ask how income is taxed in New Zealand"])


# The question asked back for each missing piece that needs no figures of its own: (question, follow-ups).
CLARIFYING_QUESTIONS: dict[str, tuple[str, tuple[str, ...]]] = {
    "secondary_code": ("PAYE on a second job depends on its secondary tax code (SB, S, SH, ST or SA), which follows your total "
                       "income for the year from all jobs. Which code is the second job on, or what is your total yearly income?",
                       ("Which secondary tax code for $60,000 total income?",)),
    "frequency": ("How often is that paid: weekly, fortnightly, every four weeks or monthly? PAYE on a pay depends on "
                  "it. Your tax code (for example M, ME or M SL) helps too.", ()),
    "details": ("I can work that out with you, but I need the figures. What amounts are involved (for example what "
                "you received or paid, what you bought and sold something for, and when), and what else did you earn "
                "in the tax year?", ()),
    "donation": ("How much did you donate in the tax year, and what was your taxable income?", ()),
    "income": ("To work that out I need your income before tax. How much do you earn, and is that a year, "
               "or per week, fortnight or month? If you're paid salary or wages, your tax code (for example "
               "M, ME or M SL) and whether you have a student loan or KiwiSaver help too.",
               ("How much tax do I pay on $60,000 a year?", "What is my take-home pay on $1,200 a week?")),
    "calendar_year": ("New Zealand's tax year runs from 1 April to 31 March, so January to December falls in two tax "
                      "years. How much did you earn from 1 April to 31 March, and which tax year do you mean (for "
                      "example 2025-26)?", ()),
    "part_year": ("New Zealand's tax year runs from 1 April to 31 March, so a salary that starts partway through it "
                  "is only partly earned in that year. How much will you earn from the start date to 31 March (or "
                  "what did you earn before it, if anything)? Tax is worked out on that year's total.",
                  ("I'll earn $61,000 between August and 31 March. How much tax is that?",)),
    "expenses": ("Tax is worked out on profit: what a business or a rental takes in, less the costs of earning it "
                 "(for a rental: rates, insurance, repairs, mortgage interest where allowed, agent's fees). What were the "
                 "costs for the year, and what else did you earn?",
                 ("My side business took in $40,000 and its costs were $12,000; I also earn $50,000. How much tax?",)),
    "business_structure": ("Tax on a business's profit depends on how the business is set up. A sole trader's profit is "
                           "their own income, taxed at personal rates together with anything else they earn; a company "
                           "pays company tax on its profit, which is outside what I cover; partners each pay on their own "
                           "share. Is it your business as a sole trader (and what else do you earn), or a company or "
                           "partnership?",
                           ("I'm a sole trader and my business made $60,000 profit. How much tax do I pay?",)),
    "pay_to_check": ("To check the tax taken from a pay I need the pay it came off: the gross amount before tax, how "
                     "often you're paid (weekly, fortnightly, four-weekly or monthly) and your tax code (for example M "
                     "or M SL). What are they?",
                     ("What PAYE comes off $1,500 a week on tax code M?",)),
    "rest_of_income": ("Tax on extra money like that depends on the rest of your income for the year, because it is "
                       "taxed at the rate of the band your total income reaches. What else do you earn in the tax year "
                       "(salary, wages, a benefit or other income), or is this your only income?",
                       ("I earn $55,000 salary and made $3,000 on the side. How much extra tax is that?",)),
    "overseas_income": ("Whether New Zealand taxes money earned overseas turns on your tax residency: a New Zealand tax "
                        "resident is taxed here on income from anywhere (with a credit for tax paid in the other country), a "
                        "non-resident only on income from New Zealand. Were you living in New Zealand, with a home here, while "
                        "you earned it, and what else did you earn in the tax year?",
                        ("I'm a New Zealand tax resident. I earned $8,000 overseas and $50,000 here. How much tax on the $8,000?",)),
    "job_split": ("The tax on each job follows that job's own pay: the main job is taxed on its code (M or ME) and "
                  "the other on a secondary code chosen from your total income. How much does each job pay (and how "
                  "often)?",
                  ("My main job pays $50,000 and my second job $20,000. How much PAYE on each?",)),
    "hours": ("How many hours a week do you work at that rate? With that I can work out your pay and tax.", ()),
    "taxable_income_for_donations": ("The donation tax credit is limited by your taxable income. What was your taxable income "
                                     "for the year in which you made the donations?", ()),
    "contribution": ("How much did you put into KiwiSaver yourself in the KiwiSaver year (1 July to 30 June)? The "
                     "government contribution is worked out from that.", ()),
    "esct_salary": ("The ESCT rate on your employer's KiwiSaver contributions follows what you earned from that employer plus "
                    "their contributions in the previous tax year (for a new job, an estimate for this year). What do you earn "
                    "there, and what does your employer put into KiwiSaver for you?",
                    ("What ESCT comes off my employer's contributions on a $60,000 salary?",)),
    "family_income": ("Working for Families depends on your family's income before tax for the year and on your "
                      "children. What is your family's total income (both partners), and how many children do you have?",
                      ()),
    "tax_paid": ("A refund is the tax taken off during the year (PAYE, and RWT on interest) less the tax due on the year's "
                 "income. How much tax was taken off in the tax year (your payslips or myIR show it), and what did you earn?",
                 ("I earned $19,000 this tax year and $2,600 of PAYE came off. How much refund will I get?",)),
    "gst_exclusive": ("When you're registered for GST, income tax is worked out on your income and expenses without GST. "
                      "What were your sales and your expenses excluding GST (and did you have any other income)?",
                      ("Sole trader, sales $60,000 and expenses $8,000 excluding GST, no other income. What's my income tax?",)),
    "children": ("The family tax credit is an amount for the eldest child and a smaller one for each other child, reduced "
                 "as family income rises. How many dependent children do you have?",
                 ("We have two kids and our family income is $62,000. How much family tax credit would we get?",)),
    "sale_cost": ("Tax on something sold is worked out on the gain: what it sold for, less what it cost you and the costs "
                  "of buying and selling it, and only when the sale is taxable. What did it cost you, and when did you buy it? "
                  "What else did you earn in the tax year?",
                  ("I bought shares for $8,000 and sold them for $12,000; my salary is $60,000. How much tax?",)),
    "bought_when": ("A gain on a home or rental you sell is taxed only when the bright-line test catches it: for a sale on "
                    "or after 1 July 2024, within 2 years of buying it (from the title transfer to the sale agreement), and "
                    "never on your main home. When did you buy it, and was it your main home? What else did you earn in the "
                    "tax year?",
                    ("I bought a rental in March 2025 for $600,000 and sold it in October 2026 for $650,000; my salary is $70,000. How much tax?",)),
    "current_pay": ("To work out the difference I need what you earn now as well as the new figure. What is your pay now "
                    "(before tax, and whether that's a year or per week, fortnight or month), and your tax code?",
                    ("My salary is going from $70,000 to $82,000. How much more tax will I pay?",)),
    "after_change": ("Tax for the year is on the whole year's income: what you earned before the change and after it, up to "
                     "31 March. When did the change happen, and how much did (or will) you earn after it?",
                     ("My salary went from $64,000 to $68,000 on 1 January. What's my income tax for the year?",)),
    "side_income": ("The total is worked out on all your earnings for the year, and the other work you mention counts too. "
                    "How much will it make this year (for a business, its profit after costs)?",
                    ("My salary is $48,000 and my side business will make $12,000 profit. How much ACC levy in total?",)),
    "kiwisaver_rate": ("Your KiwiSaver deduction is the rate you chose, as a percentage of each pay's gross (PAYE is worked "
                       "out on the whole gross pay as well). Which rate are you on now?",
                       ("How much KiwiSaver comes out of $2,400 a fortnight at 4%?",)),
    "whose_income": ("Income tax is worked out for each person on their own income, not for a couple or a household "
                     "together. How much does each of you earn in the tax year?",
                     ("How much tax do I pay on $70,000?",)),
    "residence_facts": ("Whether you are a New Zealand tax resident depends on how long you have been here and whether you "
                        "have a home here: how many days have you been in New Zealand in the last 12 months, and do you have "
                        "a place you live in here that is yours to come back to?",
                        ("I've been in New Zealand 200 days in the last 12 months. Am I a tax resident?",)),
    "extra_amount": ("Tax on a bonus or other extra pay is worked out on its amount, at the rate of the band your income for "
                     "the year reaches with it (PAYE on a lump sum is worked the same way). How much is it, before tax?",
                     ("My salary is $88,000 and my bonus is $6,000. How much tax comes off the bonus?",)),
    "pie_income": ("Your prescribed investor rate depends on two figures for each of the last two tax years: "
                   "your taxable income (not counting PIE income) and your PIE income. What were they?", ()),
}


def clarify(intent: Decision, rules: RuleBook, current_year: str) -> AskResult:
    year_rules = rules.years.get(intent.tax_year)
    citations: list[Citation] = []
    missing = intent.missing[0] if intent.missing else "question"
    if missing == "amount":
        reason = intent.clarify_reason or "I couldn't read that amount for sure"
        stop = "" if reason.endswith("?") else "."  # (a reason that is already a question keeps its mark)
        answer = (f"Before I work anything out: {reason}{stop} Is that amount per year, or per week, fortnight or month? "
                  "Tell me again and I'll work it out.")
        actions = ["How much tax do I pay on $60,000 a year?", "What is my take-home pay on $2,300 a fortnight?"]
    elif missing == "which_year":
        named = re.search(r"20\d\d", (intent.slots.year_text if intent.slots else None) or "")
        y = int(named.group()) if named else int(current_year[:4])
        answer = (f"New Zealand's tax year runs from 1 April to 31 March, so {y} could mean the tax year ending 31 March {y} "
                  f"({tax_year_starting(y - 1)}) or the one starting 1 April {y} ({tax_year_starting(y)}). Which one do you mean?")
        actions = []
    elif missing == "which_calculation":
        options = intent.clarify_options or ["the tax for the year", "your take-home pay"]
        answer = f"Do you want {options[0]} or {options[1]}? Tell me which and I'll work it out."
        actions = []
    elif missing in CLARIFYING_QUESTIONS:
        answer, actions = CLARIFYING_QUESTIONS[missing]
        actions = list(actions)
    elif missing == "situation":
        lines = ["Which tax code is right depends on your situation. The main ones:", ""]
        lines.append("- **M**: your main or only source of salary or wages.")
        ietc = None
        if year_rules is not None and year_rules.data.ietc is not None:
            ietc = year_rules.data.ietc.periods[-1]
            lines.append(f"- **ME**: as M, if you qualify for the independent earner tax credit (income "
                         f"between {money(ietc.income_from)} and {money(ietc.income_to)}, and no Working for "
                         "Families, benefit or NZ Super).")
        else:
            lines.append("- **ME**: as M, if you qualify for the independent earner tax credit.")
        lines.append("- **SL** added to a code (M SL, ME SL, S SL…): you have a student loan.")
        lines.append("- **SB, S, SH, ST, SA**: a second job; the code follows your total yearly income.")
        if year_rules is not None and year_rules.data.flat_codes is not None:
            nd = year_rules.data.flat_codes.codes["ND"]
            lines.append(f"- **ND**: no IRD number or no declaration; tax is taken at {pct(nd.rate)} plus the ACC levy.")
        lines += ["", "Is this your main job? Roughly how much do you expect to earn this year, and do you have a student "
                  "loan or get Working for Families, a benefit or NZ Super?"]
        answer = "\n".join(lines)
        if year_rules is not None:
            citations = rule_citations(year_rules, ["flat_codes", "ietc"])
        actions = ["Which secondary tax code for $60,000 total income?", "Am I eligible for the IETC?"]
    else:
        answer = f"Kia ora. {WHAT_I_COVER} What would you like to know?"
        actions = ["What are the income tax rates?", "How much tax do I pay on $70,000?", "What tax code should I use?"]
    return AskResult(status="needs_clarification", answer=answer, citations=citations, tax_year=intent.tax_year,
                     disclaimer=BASE_DISCLAIMER, next_actions=actions[:MAX_NEXT_ACTIONS])


def unknown_year(intent: Decision, rules: RuleBook) -> AskResult:
    years = sorted(rules.years)
    complete = rules.complete_years()
    answer = (f"I don't have the rules for the {intent.tax_year} tax year, so I can't give you figures for it. "
              f"My rules data covers {complete[0]} to {complete[-1]}"
              + (f" (and the parts of {years[-1]} already published)" if years[-1] not in complete else "")
              + ". For older years, see IRD's tax rates page or contact Inland Revenue.")
    return AskResult(status="answered", answer=answer, tax_year=intent.tax_year, disclaimer=BASE_DISCLAIMER,
                     next_actions=[f"Ask the same question for {complete[-1]}"])


# ---------------------------------------------------------------------------------------------
# Calculation answers (offline): the tool result written out (tool_working.py)


def describe_tool_result(name: str, args: dict, result: dict) -> tuple[list[str], bool]:
    """Markdown lines for one calculator result, and whether it is an annual approximation."""
    from nztax.tool_working import describe_tool_result as describe  # it imports this module's formatting

    return describe(name, args, result)


# ---------------------------------------------------------------------------------------------
# A year's rules sections (topic_summary.py, say.py and the calculators' working read them)


def section_or_none(rules: TaxYearRules, name: str):
    """A section of a year's rules, or None when that (partial) year has not published it."""
    try:
        return rules.section(name)
    except RulesError:
        return None
