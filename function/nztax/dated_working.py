"""Today's working on a post's own figures, in an answer to a post set before a rule changed.

In: the answer's paragraphs below its lead, the post's text, the answer's tax year and next actions,
and the date of the rule's last change (rule_history.py decides the post is set before it). Out: the
paragraphs with each calculator link for that tax year filled in with the post's figures dropped
(and its next action), and each worked figure on the post's figures labelled as today's rule.

A link is dropped, not labelled: it hands the poster's figures to this year's calculator as theirs
("check your figures"), and a figure from before the change may not even be what the page asks for
(a tax credit taken as income). A worked figure is kept with its date: it is right for today and
the opening already says what applied at the post's time.
"""

from __future__ import annotations

import re
from decimal import Decimal
from urllib.parse import parse_qsl, urlsplit

from nztax.money_reader import find_money

# A markdown link to one of the site's calculator pages, with its query.
CALCULATOR_LINK = re.compile(r"\[[^\]]*\]\((/calculators/[^)\s]*\?[^)\s]*)\)")
# A worked figure as answers set it out ("the government contribution is **$250**").
WORKED_FIGURE = re.compile(r"\*\*\$[\d,]+(?:\.\d+)?\*\*")
AMOUNT = re.compile(r"\$[\d,]+(?:\.\d+)?")
# A dollar amount or a rate as answers write them: what an answer's figures are compared by (rule_history and
# opening_fit too).
WRITTEN_FIGURE = re.compile(AMOUNT.pattern + r"|\d+(?:\.\d+)?%")


def _number(text: str) -> Decimal | None:
    try:
        return Decimal(text.replace("$", "").replace(",", ""))
    except ArithmeticError:
        return None


def _theirs_in_link(link: str, tax_year: str, theirs: set[Decimal]) -> bool:
    values = dict(parse_qsl(urlsplit(link).query))
    return values.get("tax_year") == tax_year and any(_number(v) in theirs for k, v in values.items() if k != "tax_year")


def today_only(paragraphs: list[str], question: str, tax_year: str, since: str,
               next_actions: list[str]) -> tuple[list[str], list[str]]:
    """(paragraphs, next actions) with no `tax_year` working on the post's figures shown as theirs;
    `since` is the date today's rule started ("1 July 2025")."""
    theirs = {m.value for m in find_money(question)}
    if not theirs:
        return paragraphs, next_actions
    dropped: set[str] = set()
    kept = []
    for p in paragraphs:
        links = [link for link in CALCULATOR_LINK.findall(p) if _theirs_in_link(link, tax_year, theirs)]
        if links:
            dropped.update(links)
            continue
        if (not p.lstrip().startswith((">", "#")) and WORKED_FIGURE.search(p)
                and any(_number(a) in theirs for a in AMOUNT.findall(WORKED_FIGURE.sub(" ", p)))):
            p = f"Under today's rule (since {since}), {p[:1].lower() + p[1:] if p[1:2].islower() else p}"
        kept.append(p)
    actions = [a for a in next_actions if not any(link in a for link in dropped)]
    return kept, actions
