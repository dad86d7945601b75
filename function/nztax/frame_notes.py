"""What the frame adds to a composed answer: the figures a calculation was not run on, handed to the
calculator for the poster to confirm, and the figures the poster stated, set beside the engine's own.

In: an `AskResult` and the `Decision` the decision table settled (its `handed_over` calls and
`stated` figures). Out: the same result with a calculator link or a check sentence added.
"""

from __future__ import annotations

from nztax.calculator_links import CALCULATOR_PAGES, MAX_NEXT_ACTIONS, calculator_link
from nztax.input_figures import figure_value

KIND_WORDS = {"tax_withheld": "tax already taken off", "bill": "a bill or assessment", "refund": "a refund",
              "other_figure": "a figure from elsewhere (a payslip or another calculator)"}


def rule_without_year_figures(decision) -> bool:
    """A story about a year the rules data does not hold (and not a calculation): its rule can be answered
    from the sources without that year's figures. A one-line question about such a year asks for its
    figures ("the top rate in 2019"), which are not held."""
    frame = decision.trace.frame if decision.trace is not None else {}
    return bool(frame.get("story"))


def _year_said(decision) -> str:
    """Which tax year a handed-over link is set to, and why: the year the post (or the request, or an
    earlier turn) names, else the current one, the calculators' default."""
    source = getattr(decision, "tax_year_source", None)
    why = {"question": "the year your post names", "request": "the year asked for",
           "history": "the year named earlier"}.get(source, "the current tax year")
    return f"set to {decision.tax_year}, {why}"


def frame_notes(result, decision):
    if result.status != "answered":
        return result
    if not decision.known_year and not result.tools and result.citations:
        # A year the rules data does not hold: the rule was answered from the sources, which describe
        # today's rules, and no figure of that year was given.
        result.answer = (f"{result.answer.rstrip()}\n\nI don't hold the figures for the {decision.tax_year} tax year: "
                         "the rule above is from IRD's current guidance, so check whether it applied then.")
    # (No calculator holds the rules of a year the rules data does not: the figures are not handed to one for it.)
    for name, args in decision.handed_over if decision.known_year else ():
        link = calculator_link(name, args, {"tax_year": decision.tax_year})
        if link is None:
            continue
        page = CALCULATOR_PAGES[name].name
        year = _year_said(decision)
        # (Handed over because the post asks about the rule, or because which of its figures is the
        # income is not certain: either way the poster confirms the figures, not the engine.)
        if any(figure_value(v) is not None for v in args.values()):
            said = (f"I haven't worked a figure out on your amounts: which of them the calculation should use is "
                    f"yours to confirm. [Check your figures in the {page} calculator]({link}) ({year}).")
            action = f"[Open the {page} calculator with your figures]({link})"
        else:
            # (None of the post's figures reads as one the calculator takes: nothing is filled in for them.)
            said = (f"I haven't worked a figure out: none of the amounts in your post is surely one the calculation "
                    f"takes. [Enter your figures in the {page} calculator]({link}) ({year}).")
            action = f"[Open the {page} calculator]({link})"
        result.answer = f"{result.answer.rstrip()}\n\n{said}"
        result.next_actions = [action] + [a for a in result.next_actions if a != action][: MAX_NEXT_ACTIONS - 1]
        break
    stated = [a for a in decision.stated if a.kind in KIND_WORDS]
    if stated and result.tools:
        said = "; ".join(f"{a.text} ({KIND_WORDS[a.kind]})" for a in stated)
        several = len(stated) > 1
        result.answer = (f"{result.answer.rstrip()}\n\nThe figure{'s' if several else ''} you mention — {said} — "
                         f"{'are' if several else 'is'} not used as income here: compare {'them' if several else 'it'} "
                         "with the working above.")
    return result
