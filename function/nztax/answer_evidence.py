"""The figures an answer may state, gathered for the figure guard (guard.py).

In: the answer (its tool calls and their results), the decision it answers, the passages it quotes
and the rules data. Out: a `guard.Evidence` holding every figure the answer can stand on: the tools'
inputs and results, the rules' figures for each year involved (and a changed rule's earlier figures),
the passages' text, the rules worked for the question, and the question's own words.
"""

from __future__ import annotations

from nztax import guard, say
from nztax.contract import AskResult
from nztax.decide import Decision
from nztax.rule_changes import figures_before
from nztax.rules import RuleBook, current_tax_year


def gather(result: AskResult, intent: Decision, passages: list, rules: RuleBook) -> guard.Evidence:
    ev = guard.Evidence()
    years = {result.tax_year}
    for call in result.tools:
        ev.add_json(call.result)
        ev.add_json(call.arguments)
        if isinstance(call.result, dict) and isinstance(call.result.get("tax_year"), str):
            years.add(call.result["tax_year"])
    ev.add_values(guard.differences([(c.name, c.result) for c in result.tools]))
    calls = [(c.name, c.arguments, c.result) for c in result.tools]
    together, pays = say.together_total(calls), say.take_home_together(calls)
    ev.add_values([v for v in (together, pays[0] if pays else None) if v is not None])
    if result.tax_year in rules.years and rules.years[result.tax_year].data.partial:
        years.add(current_tax_year())  # a partly published year is answered with the current figures
    for year in years:
        if year in rules.years:
            ev.add_values(rules.years[year].figures())
            # A figure the rule had before the change that brought in this year's (say.gc_change).
            ev.add_values(figures_before(rules, year, ("government_contribution",)))
    for hit in passages:
        ev.add_text(hit.text)
    for worked in intent.rule_results.values():
        ev.add_json(worked)
    ev.add_text(intent.question)
    return ev
