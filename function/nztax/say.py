"""Say: write the answer for a decision — the sentence that answers the question first, then the
working, then the sources.

In: a `Decision` (decide.py), calculator results, retrieved passages, the rule book. Out: `AskResult`.

- calculate: one to three sentences with the figure the question asked for, in the period it asked
  about; then the calculator's working (say_calc.py, tool_working.py).
- fact: the catalogue's lead sentence with its {placeholders} filled from the year's rules data;
  then the rules summary (topic_summary.py), then the passage sentences that best support it.
- topic: the retrieved sentences that best answer the question (passage_sentences.py scores them against the
  question), each cited; "not in my sources" when none does.
- clarify, decline, refuse: fixed copy (composer).
"""

from __future__ import annotations

from typing import Any

from nztax import composer
from nztax.amount_conditions import note_held_back
from nztax.composer import money, pct, section_or_none
from nztax.frame import note_opened
from nztax.contract import AskResult, Citation, ToolCall, cite_mark
from nztax.decide import Decision
from nztax.rules import RuleBook, TaxYearRules
from nztax.say_rows import band_named, rows_named
from nztax.sentences import sentences
from nztax.topic_lead import reconsidered, story_lead
from nztax.topic_summary import topic_lines
from nztax.topic_aspect import CANDIDATES, answers_none, saying_first
from nztax.payment_frame import kinds_unsaid
from nztax.passage_sentences import best_scored, best_sentences
from nztax.opening_fit import (covers, definition_denied, may_open, off_question, other_subject, situations_named,
                               with_what_it_leans_on)
# Calculation answers live in say_calc; their names stay importable from here.
from nztax.say_calc import (_difference, _per, calculation, lead_for, result_citations,  # noqa: F401
                            take_home_together, together_total, pir_not_worked_out)
from nztax.understand import words
from nztax.units import without_verdict
from nztax.rule_changes import change_before
from nztax.say_family import family_values, wff_sum

# Sentences quoted under a fact or topic answer.
LEAD_SENTENCES = 4
SUPPORT_SENTENCES = 2


# ---------------------------------------------------------------------------------------------
# Facts: the lead sentence's placeholders, from the rules data


def fact_values(rules: TaxYearRules) -> dict[str, str]:
    """Every {placeholder} a catalogue lead may use, for one tax year."""
    v: dict[str, str] = {"year": rules.year}
    it = section_or_none(rules, "income_tax")
    if it is not None:
        v.update(first_rate=pct(it.bands[0].rate), first_threshold=money(it.bands[0].upper),
                 top_rate=pct(it.bands[-1].rate), top_threshold=money(it.bands[-1].lower),
                 band_rate=pct(it.bands[-1].rate), band_threshold=money(it.bands[-1].lower))  # (the band asked: fact())
    acc = rules.data.acc_levy
    if acc is not None:
        v.update(acc_rate=pct(acc.rate), acc_max_earnings=money(acc.max_liable_earnings), acc_max_levy=money(acc.max_levy))
    sl = section_or_none(rules, "student_loan")
    if sl is not None:
        v.update(sl_rate=pct(sl.rate), sl_threshold=money(sl.annual_threshold), sl_weekly=money(sl.period_thresholds.weekly))
    ietc = section_or_none(rules, "ietc")
    if ietc is not None:
        p = ietc.periods[-1]
        v.update(ietc_max=money(p.amount), ietc_from=money(p.income_from), ietc_to=money(p.income_to),
                 ietc_abate_from=money(p.abatement_from))
    ks = section_or_none(rules, "kiwisaver")
    if ks is not None:
        rates = [pct(r) for r in ks.employee_rates]
        v.update(ks_rates=", ".join(rates[:-1]) + f" or {rates[-1]}", ks_default=pct(ks.default_employee_rate),
                 employer_min=pct(ks.employer_minimum_rate),
                 **{k: str(a) for k, a in (("employer_min_age", ks.employer_min_age), ("employer_max_age", ks.employer_max_age)) if a},
                 ks_reduction=" " + composer.kiwisaver_reduction(ks) if ks.temporary_reduction_rate is not None else "")
    gc = section_or_none(rules, "government_contribution")
    if gc is not None:
        v.update(gc_match=cents_per_dollar(gc.match_rate), gc_max=money(gc.maximum), gc_contrib=money(gc.contributions_for_maximum),
                 gc_min_age=str(gc.min_age), gc_max_age=str(gc.max_age),
                 gc_cap_text=f", and not if your income is over {money(gc.income_cap)}" if gc.income_cap else "",
                 gc_change="")  # (the change that brought these figures in needs the other years: `gc_change`)
    esct = section_or_none(rules, "esct")
    if esct is not None:
        v.update(esct_first_rate=pct(esct.bands[0].rate), esct_top_rate=pct(esct.bands[-1].rate))
    dc = section_or_none(rules, "donation_credit")
    if dc is not None:
        v.update(donation_rate="a third", donation_min=money(dc.minimum_donation), donation_years=str(dc.claim_years))
    pir = section_or_none(rules, "pir")
    if pir is not None:
        rates = [pct(t.rate) for t in pir.rates] + [pct(pir.default_rate)]
        v.update(pir_rates=", ".join(rates[:-1]) + f" or {rates[-1]}")
    rwt = section_or_none(rules, "rwt")
    if rwt is not None:
        rates = [pct(r) for r in rwt.interest_rates]
        v.update(rwt_rates=", ".join(rates[:-1]) + f" or {rates[-1]}", rwt_nd=pct(rwt.non_declaration_rate))
    v.update(_topic_values(rules))
    fc = section_or_none(rules, "flat_codes")
    if fc is not None and "ND" in fc.codes:
        v["nd_rate"] = composer.with_acc_levy(fc.codes["ND"].rate, rules)
    for code, flat in (fc.codes.items() if fc is not None else ()):
        # The code for work with a flat code of its own, as the answer's opening.
        v[f"flat_{code}"] = (f"For this work ({flat.meaning.lower()}) your employer uses the **{code}** tax code: "
                             f"a flat {composer.with_acc_levy(flat.rate, rules)}. ")
    v["code_main"] = v["rule_sum"] = ""
    return v


def _topic_values(rules: TaxYearRules) -> dict[str, str]:
    """Placeholders for the topics beyond the rate tables (provisional tax, FIFs, residence, the end
    of the year, bright-line, Working for Families), where the year's rules data has them."""
    d, v = rules.data, {}
    if d.provisional_tax is not None:
        p = d.provisional_tax
        v.update(pt_threshold=money(p.residual_income_tax_threshold), pt_uplift=pct(p.standard_uplift),
                 pt_uplift_unfiled=pct(p.standard_uplift_unfiled),
                 pt_dates=", ".join(p.instalment_dates[:-1]) + f" and {p.instalment_dates[-1]}")
    if d.foreign_investment_funds is not None:
        f = d.foreign_investment_funds
        v.update(fif_threshold=money(f.de_minimis_cost), fdr_rate=pct(f.fair_dividend_rate))
    if d.residency is not None:
        r = d.residency
        v.update(res_days=str(r.days_present), res_absent=str(r.days_absent), res_transitional=str(r.transitional_months), res_transitional_years=str(r.transitional_years))
    if d.year_end is not None:
        e = d.year_end
        v.update(untaxed_limit=money(e.untaxed_income_limit), return_due=e.return_due, tax_due=e.tax_to_pay_due)
    if d.bright_line is not None:
        v.update(bl_years=str(d.bright_line.years), bl_from=d.bright_line.sales_from)
    if d.working_for_families is not None:

        v.update(family_values(rules))
    return v


def fill(template: str, values: dict[str, str]) -> str | None:
    """The template with its placeholders filled, or None when the year lacks one of them."""
    try:
        return template.format(**values)
    except (KeyError, IndexError):
        return None


# ---------------------------------------------------------------------------------------------
# Passage sentences as quoted evidence (passage_sentences.py picks them)


def _evidence(chosen: list[tuple[str, Any]], numbers: dict[str, int]) -> tuple[list[str], list[Citation]]:
    """Passage sentences as evidence below the answer: each quoted, with the number of its source
    (`numbers`: url -> number, extended in order for sources not yet numbered)."""
    lines, citations = [], []
    for sentence, hit in chosen:
        if hit.url not in numbers:
            numbers[hit.url] = len(numbers) + 1
        lines.append(f"> {sentence}{cite_mark(numbers[hit.url], hit.url)}")
        citations.append(composer.passage_citation(hit))
    return lines, citations


def _spaced(quotes: list[str]) -> list[str]:
    """Quoted lines, one blockquote each (a blank line between keeps them apart)."""
    return [line for q in quotes for line in ("", q)][1:]


def fact(decision: Decision, rules: RuleBook, hits: list, current_year: str, tool_results: list | None = None,
         titles: dict[str, str] | None = None, lead_yield: float | None = None, question_hits=None,
         lead_doubt=None) -> AskResult:
    """The catalogue lead, filled for the year, answers first where it answers the question asked;
    otherwise the retrieved sentence that does (lead_choice.py), with the lead after it.
    `question_hits()`: passages retrieved for the question's own words (without the intent's).
    `lead_doubt(url, lead)`: whether the lead, citing rules page `url`, is in doubt as the opening
    (opening_doubt.lead_doubted; asked only of a lead the choice let open)."""
    intent = decision.intent
    year_rules = rules.years.get(decision.tax_year) or rules.years.get(current_year)
    values = fact_values(year_rules) if year_rules else {}
    ks_year = rules.years.get(decision.slots.kiwisaver_year or "")
    if ks_year is not None:
        # A tax year's rules hold the government contribution for the KiwiSaver year starting that
        # 1 July, so a KiwiSaver year ending in June reads the tax year that began the April before.
        values.update({k: v for k, v in fact_values(ks_year).items() if k.startswith("gc_")})
    values.update(decision_values(decision, tool_results, values))
    it = section_or_none(year_rules, "income_tax") if year_rules else None
    named_band = band_named(decision.asked, _yearly_amounts(decision), it.bands) if it is not None else None
    if named_band is not None:
        values.update(band_rate=pct(named_band.rate), band_threshold=money(named_band.lower))
    if year_rules is not None and (ks_year is not None or decision.tax_year_source != "default"):
        # A year named: its government contribution figures, said with the KiwiSaver year they are for.
        values["gc_change"] = gc_period((ks_year or year_rules))
    elif year_rules is not None and decision.tax_year_source == "default" and asking_of(decision):
        # A story that names no year may be about any year: today's figure is given with its date
        # and the one before. (A one-line question asks about now; a year named is given its own.)
        values["gc_change"] = gc_change(rules, (ks_year or year_rules).year)
    lead = fill(intent.lead, values) if intent and intent.lead and year_rules else None
    lead = without_verdict(lead, decision.asked) if lead else lead  # (a verdict answers only whether)
    if lead and values.get("rule_sum") and lead.startswith(values["rule_sum"] + "Yes. "):
        # The sum on their own figures answers first; the rule's bare "Yes." after it answers nothing.
        lead = values["rule_sum"] + lead[len(values["rule_sum"]) + len("Yes. "):]
    if not lead:
        return topic(decision, rules, hits, current_year)
    band = _band_asked(decision, year_rules) if intent and "tax_rates" in intent.show else None
    opening = None
    own_sum = bool(intent and "calculation" in intent.show and tool_results)
    body: list[str] = [band or lead]
    named = None
    citations: list[Citation] = []
    if own_sum:
        # What the misconception means for the income they stated, worked out.
        sums = [lead_for(n, a, r, decision) for n, a, r in tool_results]
        sums.append(_difference(tool_results) or "")
        worked = " ".join(s for s in sums if s)
        if worked and all(s.startswith("No.") for s in sums if s):
            body = [worked]  # the answer for them is no: the rule's amounts are not theirs to expect
        else:
            body += ["", worked]
        citations += [c for _, _, r in tool_results for c in result_citations(r, titles or {})]
    # The rules summary only where it adds to the lead: a rates table for a question about rates.
    for rules_topic in (intent.topics if intent else ()):
        if year_rules is None:
            break
        # A question about one band is answered by that band; the whole table is for questions about all of them.
        lines = topic_lines(rules_topic, year_rules) if rules_topic in intent.show and not band else []
        if lines:
            body += [""] + lines
            # The rows the question names (a code, a rate) belong in the first paragraph.
            named = named or rows_named(decision.asked, _yearly_amounts(decision), lines, year_rules.year)
        citations += composer.rule_citations(year_rules, composer.TOPIC_SECTIONS.get(rules_topic, []))
    if not band and not own_sum and not named and not values.get("rule_sum") and not values.get("code_main"):
        # (A sum on the question's own figures, its own code, or the table rows it names answer it:
        # only the rule's general lead is weighed against what was retrieved.)
        from nztax.lead_choice import FIGURE, choose, topics_asked
        from nztax.opening_fit import situations_named
        from nztax.settings import get_settings

        lead_yield, asked = get_settings().lead_yield if lead_yield is None else lead_yield, weighed_against(decision)
        # (The rules table shown below the lead gives the figures a question names its topic's: "ESCT thresholds".)
        figure_of = () if len(body) > 1 else topics_asked(decision, intent, asked, FIGURE)
        opening = choose(asked, lead, hits, decision.tax_year, decision.tax_year < current_year, lead_yield, question_hits,
                         situations=situations_named(asked), topic=intent.keywords, asked_topics=topics_asked(decision, intent, asked),
                         figure_of=figure_of)
        body[0] = opening.lead
    support = best_sentences(decision.asked, hits, SUPPORT_SENTENCES, words(intent.search or "") if intent else None,
                             tax_year=decision.tax_year, past_year=decision.tax_year < current_year)
    note_held_back(decision, [lead] + [s for s, _ in support])
    # Plain prose: the lead carries the number of the source behind its figures; passages are
    # quoted only as evidence below the answer, each with its source's number.
    numbers: dict[str, int] = {}
    opener = with_what_it_leans_on(opening.sentence, opening.hit) if opening is not None and opening.sentence else None
    if opener:
        numbers[opening.hit.url] = 1  # the retrieved sentence that answers opens, cited [1]
    lead_sources = [c.url for c in composer.dedupe(citations)]  # the lead's own: rules data, calculators
    for url in lead_sources:
        numbers.setdefault(url, len(numbers) + 1)
    if lead_sources and not body[0].endswith(")"):
        body[0] = body[0] + cite_mark(numbers[lead_sources[0]], lead_sources[0])
    note_opening(decision, f"the passage {opening.hit.url} ({opening.hit.section or ''})" if opener
                 else f"the lead of the intent {intent.name if intent else '-'}")
    if opener:
        # The intent's lead follows in its own paragraph: it is about the topic, not the question.
        body = [f"{opener}{cite_mark(1, opening.hit.url)}", ""] + body
        citations.insert(0, composer.passage_citation(opening.hit))
        support = [(s, h) for s, h in support if s != opener]
    if named:
        body[0] += " " + named
    if opening is not None and (opening.unanswered
                                or kinds_unsaid(asking_of(decision) or [decision.asked], body[0], _post(decision))
                                or (not opener and lead_sources and lead_doubt is not None
                                    and lead_doubt(lead_sources[0], opening.lead))):
        # The opening answers the topic's central question, not this one (or another payment's rule
        # than the one whose tax is asked): say so before it.
        body[0] = f"{composer.NOT_SAID_DIRECTLY} {body[0]}"
    if support:
        lines, cites = _evidence(support, numbers)
        body += [""] + _spaced(lines)
        citations += cites
    return AskResult(
        status="answered", answer="\n".join(body).strip(), citations=composer.dedupe(citations),
        tools=[ToolCall(name=n, arguments=a, result=r) for n, a, r in (tool_results or [])],
        tax_year=decision.tax_year, disclaimer=composer.disclaimer_for(decision, current_year, rules=rules),
        next_actions=list(intent.next[: composer.MAX_NEXT_ACTIONS]) if intent else [],
    )


def _provisional_sum(decision: Decision) -> str | None:
    """"Your RIT was $8,000: under the standard option …": the year's provisional tax and its
    instalments, worked out in decide.py from the residual income tax the question states."""
    r = decision.rule_results.get("provisional")
    if r is None:
        return None
    rit = money(r["residual_income_tax"])
    if not r["due"]:
        return (f"No. With residual income tax of {rit}, not more than {money(r['threshold'])}, you don't pay provisional "
                f"tax for the next year.")
    dates = r["instalment_dates"]
    basis = "last year's" if r["last_return_filed"] else "the year before's (last year's return is not filed)"
    return (f"Under the standard option, with {basis} residual income tax of {rit}, provisional tax is "
            f"**{money(r['provisional_tax'])}** ({rit} plus {pct(r['uplift'])}), paid in {len(dates)} instalments of "
            f"**{money(r['instalment'])}** on {', '.join(dates[:-1])} and {dates[-1]} (31 March balance date).")


def _second_job_loan_sum(decision: Decision) -> str | None:
    """"$240 a week from my second job: how much student loan?": the rate on every dollar of that pay."""
    r = decision.rule_results.get("secondary_sl")
    if r is None:
        return None
    per = _per(r["pay_frequency"])
    return (f"On {money(r['pay'])} {per} from a second job, **{money(r['deduction'])}** {per} comes off for your student "
            f"loan: {pct(r['rate'])} of every dollar, whichever secondary code the job is on.")


def _fif_sum(decision: Decision) -> str | None:
    """"Worth $120,000 on 1 April": FIF income under the fair dividend rate method (and the tax on
    it at a marginal rate the question states), worked out in decide.py."""
    under = decision.rule_results.get("fif_under")
    if under is not None:
        return (f"No: the shares cost {money(under['cost'])}, not over the {money(under['de_minimis_cost'])} threshold, so the "
                f"FIF rules do not apply in {under['tax_year']}, whatever they are worth now. Their dividends are taxed as "
                f"income instead.")
    r = decision.rule_results.get("fif")
    if r is None:
        return None
    out = (f"Under the fair dividend rate method your FIF income for {r['tax_year']} is **{money(r['fif_income'])}**: "
           f"{pct(r['fair_dividend_rate'])} of the opening market value of {money(r['opening_value'])}")
    if "tax" in r:
        out += f", and at your {pct(r['marginal_rate'])} rate the tax on it is **{money(r['tax'])}**"
    return out + f". This applies when the shares' total cost is over {money(r['de_minimis_cost'])} at any time in the year."


def _yearly_amounts(decision: Decision) -> list:
    return [a.value for a in decision.slots.amounts if a.period == "annual" and not a.questioned]


def _band_asked(decision: Decision, year_rules: TaxYearRules | None) -> str | None:
    """"Income between $48,000 and $53,500 is taxed at 21.64% in 2024-25": the rate for the range a
    question names, when one band covers all of it; None otherwise."""
    it = section_or_none(year_rules, "income_tax") if year_rules is not None and decision.slots.between else None
    ends = sorted(a.value for a in decision.slots.amounts if a.period == "annual" and not a.questioned)
    if it is None or len(ends) != 2:
        return None
    low, high = ends
    inside = [b for b in it.bands if b.lower < high and (b.upper is None or b.upper > low)]
    if len(inside) != 1:
        return None
    return (f"In {year_rules.year}, income between {money(low)} and {money(high)} is taxed at {pct(inside[0].rate)}: "
            f"that rate applies to the part of income in the {composer.band_label(inside[0].lower, inside[0].upper)} band.")


def _outside_bright_line(decision: Decision, values: dict[str, str]) -> str | None:
    """A property the question says was held past the bright-line period: its gain is not taxed under it."""
    if "bright_line_outside" not in decision.rule_results or "bl_years" not in values:
        return None
    return (f"No, not under the bright-line test: from what you say it was held for more than {values['bl_years']} years before "
            "the sale. The gain can still be taxable if you bought the property intending to sell it, or if you deal in property.")


def decision_values(decision: Decision, tool_results: list | None, values: dict[str, str]) -> dict[str, str]:
    """Placeholders that depend on the question itself (the main-job code for a stated income);
    `values` are the year's own placeholders."""
    sentence = (_provisional_sum(decision) or _fif_sum(decision) or wff_sum(decision.rule_results) or _second_job_loan_sum(decision)
                or _outside_bright_line(decision, values) or pir_not_worked_out(decision.rule_results, values))
    if sentence:
        return {"rule_sum": sentence + "\n\n"}
    if decision.slots.no_ird_number and "nd_rate" in values:
        return {"code_main": f"Without an IRD number or a tax code declaration your employer must use **ND**, the non-declaration "
                             f"code: tax at {values['nd_rate']}. "}
    if decision.slots.flat_code and f"flat_{decision.slots.flat_code}" in values:
        return {"code_main": values[f"flat_{decision.slots.flat_code}"]}
    for name, args, result in tool_results or []:
        if name == "calculate_ietc" and "error" not in result:
            code = "ME" if result.get("eligible") else "M"
            if decision.slots.student_loan:
                code += " SL"
            return {"code_main": f"For your only job at {money(args['annual_income'])} a year, use **{code}**. "}
    return {}


def _post(decision) -> str:
    """The whole post (where an employer is named), or what is asked of a decision built without one."""
    return getattr(decision, "question", None) or decision.asked


def asking_of(decision: Decision) -> list[str]:
    """A story's asking sentence(s), from its frame (none for a one-line question: it is its own), each
    as the frame reads it (a sentence leaning on the story with the post's opening: leaning.py)."""
    frame = decision.trace.frame if decision.trace is not None else {}
    return list(frame.get("asking_read") or frame.get("asking") or []) if frame.get("story") else []


def cents_per_dollar(rate) -> str:
    """A government contribution's match rate as people say it ("25 cents for every dollar")."""
    return f"{int(round(float(rate) * 100))} cents for every dollar"


def gc_period(year_rules) -> str:
    """The KiwiSaver year (1 July - 30 June) a tax year's government contribution figures are for."""
    gc = section_or_none(year_rules, "government_contribution")
    if gc is None:
        return ""
    start = gc.kiwisaver_year_start
    return f" These are the figures for the KiwiSaver year 1 July {start.year} to 30 June {start.year + 1}."


def gc_change(rules: RuleBook, year: str) -> str:
    """When the year's government contribution took effect and what it was before, as a sentence
    (empty when the rules data holds no earlier, different figures): a post about an earlier year,
    or one naming none, is not told today's figure as if it were theirs."""
    change = change_before(rules, year, "government_contribution")
    if change is None:
        return ""
    before, since = change.before, change.since
    return (f" These are the figures from {since.day} {since:%B} {since.year}; before then the government put in "
            f"{cents_per_dollar(before.match_rate)}, up to {money(before.maximum)} a year.")


def note_opening(decision: Decision, what: str) -> None:
    """Names in the trace what opened the answer (`nztax ask --explain`; `nztax eval paraphrases` compares
    a rewritten post's opening with its original's by it)."""
    note_opened(decision.trace, "said", what, f"opened by {what}")


def weighed_against(decision: Decision) -> str:
    """What an opening sentence is scored against: a story's asking sentences (its background's
    words would favour a sentence about the background), else the question as asked."""
    return " ".join(asking_of(decision)) or decision.asked


def topic(decision: Decision, rules: RuleBook, hits: list, current_year: str) -> AskResult:
    past = decision.tax_year < current_year
    # A story's lead is the sentence that best answers what it asks (its asking sentences); the
    # whole post, whose words are mostly the story, picks the sentences below it. Of the sentences
    # best by words, one saying the aspect asked (why, how, when ...) comes first (topic_aspect.py).
    asking = asking_of(decision)
    asked_text = " ".join(asking) or decision.asked
    best = best_scored(asked_text, hits, CANDIDATES, tax_year=decision.tax_year, past_year=past)
    first = saying_first(asked_text, best, lambda s, hit: may_open(decision.asked, s, hit))
    chosen = [(s, hit) for _, s, hit in first[:1]]
    chosen += [c for c in best_sentences(decision.asked, hits, LEAD_SENTENCES, tax_year=decision.tax_year, past_year=past)
               if c[0] not in {s for s, _ in chosen}][: LEAD_SENTENCES - len(chosen)]
    if not chosen and asking:
        # An asking sentence that refers back (with "this" or "it") to what the story named in its
        # opening sentence shares too few words with the passages alone, and the whole story too many.
        opening = sentences(decision.asked)[:1]
        for query in (" ".join(opening + asking), " ".join(opening)):
            chosen = chosen or best_sentences(query, hits, LEAD_SENTENCES, tax_year=decision.tax_year, past_year=past)
        chosen = chosen or story_lead(decision.asked, hits, decision.tax_year, past, getattr(decision.trace, "notes", None))
    if chosen and all(other_subject(decision.asked, *c) for c in chosen):  # (rescored: their words weigh against the rest)
        chosen = best_sentences(decision.asked, hits, LEAD_SENTENCES, tax_year=decision.tax_year, past_year=past, subject_of=decision.asked)
    if not chosen:
        note_opening(decision, "nothing found")
        return AskResult(status="answered", answer=composer.NOTHING_FOUND, tax_year=decision.tax_year,
                         disclaimer=composer.BASE_DISCLAIMER,
                         next_actions=[composer.REPHRASE_ACTION])
    # The first that may open (opening_fit.py: not a worked example, not another subject) opens, the rest
    # follow; one from another passage only when the first answers another question (off_question; a sentence beside a
    # worked example on the same page is still on its question; one from another page may not be).
    first_url = chosen[0][1].url
    opening = next((c for c in chosen if may_open(decision.asked, *c) and (
        c[1].url == first_url or off_question(decision.asked, *chosen[0]))), chosen[0])
    # A situation the asking sentences name (not the story: it names some in passing) is named by the
    # opening: the best sentence that names it, from a wider choice, when one answers enough of the question.
    situations = situations_named(" ".join(asking) or decision.asked)
    if not covers(situations, *opening):
        opening = next((c for c in chosen + best_sentences(" ".join(asking) or decision.asked, hits, 3 * LEAD_SENTENCES,
                        tax_year=decision.tax_year, past_year=past) if may_open(decision.asked, *c) and covers(situations, *c)), opening)
    opening = reconsidered(decision.asked, asking, opening, hits, decision.tax_year, past)
    # (A rule for a term whose defining condition the post denies is not the asker's: not quoted below either.)
    note_held_back(decision, [s for _, s, _ in best[:2]] + [s for s, _ in chosen])
    chosen = [opening] + [c for c in chosen if c is not opening and not definition_denied(decision.asked, c[0])]
    lead_sentence, lead_hit = with_what_it_leans_on(*chosen[0]), chosen[0][1]
    note_opening(decision, f"the passage {lead_hit.url} ({lead_hit.section or ''})")
    numbers = {lead_hit.url: 1}
    # (An opening that does not say the aspect asked is the topic's, not the answer: said so before it.)
    # (So is one naming no kind of the payment the asking sentences ask the tax of: another payment's rule.)
    unsaid = kinds_unsaid(asking, lead_sentence, _post(decision))
    hedge = f"{composer.NOT_SAID_DIRECTLY} " if answers_none(asking or [decision.asked], lead_sentence) or unsaid else ""
    body = [f"{hedge}{lead_sentence}{cite_mark(1, lead_hit.url)}"]
    rest, cites = _evidence(chosen[1:], numbers)
    if rest:
        body += [""] + _spaced(rest)
    return AskResult(
        status="answered", answer="\n".join(body).strip(), citations=composer.dedupe([composer.passage_citation(lead_hit)] + cites),
        tax_year=decision.tax_year, disclaimer=composer.disclaimer_for(decision, current_year, rules=rules),
    )
