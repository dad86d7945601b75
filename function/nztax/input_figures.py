"""Input figures: which of a question's figures a calculation, or a calculator link, may take as its inputs.

In: the `Decision` (its slots and calculator calls), the question's `QuestionFrame` (each amount's
learned kind and owner) and the bars they are read at. Out: the amounts a calculation would use
(`input_amounts`, `fed_amounts`), those set aside as not the asker's income or of no kind the
calculator takes (`vetoed_inputs`, `others_figures`, `uncertain_inputs`, `not_taken`), the calls
handed to the poster as calculator links with only the figures each field takes (`_handed_over`,
`link_arguments`), and the stated figures set beside the engine's own (`set_beside`). The decision
table (decision_table.py) turns these into the facts its rows read.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Callable

from nztax.cue_words import cue
from nztax.decision_rows import table
from nztax.frame import EXAMPLE_OWNER, FrameAmount, QuestionFrame
from nztax.slots import INCOME_LIKE_ROLES, Money, Slots

INCOME_OWNERS = ("me", "partner")
RULE_FOR_EVERYONE = cue("asks_a_rule_for_everyone")
EXTRA_PAY_TOOL = "calculate_extra_pay_paye"


def input_amounts(slots: Slots) -> list[Money]:
    """The amounts a calculation on these slots would use: the incomes read as they stand."""
    return [a for a in slots.amounts if a.role in INCOME_LIKE_ROLES and not a.questioned]


def fed_amounts(decision) -> list[Money]:
    """The amounts a proposed calculation works on: the incomes read as they stand, and every other
    amount whose figure (as written, or as a year's worth) a calculator call takes (a gift the credit
    is worked on, whatever role the number grammar gave it)."""
    values = {figure_value(v) for _, args in decision.calls for v in args.values()} - {None}
    slots = decision.slots
    return [a for a in slots.amounts if not a.questioned
            and (a.role in INCOME_LIKE_ROLES or a.value in values or slots.annual(a) in values)]


def grammar_kind(role: str | None) -> str | None:
    """The kind of amount the number grammar's role names (its words: "earn", "donated"), if any."""
    return "income" if role in INCOME_LIKE_ROLES else (table().role_kinds or {}).get(role)


def not_taken(decision, frame: QuestionFrame, bar: float, sure_bar: float) -> list[FrameAmount]:
    """The amounts a proposed calculation works on whose kind is not one the input they fill takes
    (`amounts_taken`): a ticket's price is no gift, a loan's balance no income. Two readings: an amount
    the number grammar names as such a kind (its words: "earn", "donated") is taken (an income read
    surely as another kind is set aside by the rows on `inputs_sure`); one it names as another kind ("I
    bought", "spent", an income filling a gift's input) only when the learned reading is at least
    `sure_bar` sure of a kind taken; one it names no kind, at least `bar` likely. A figure the grammar
    worked out itself, or an example's, is left to the rows on those."""
    if decision.action != "calculate" or not decision.calls:
        return []
    fed = fed_amounts(decision)
    kinds_of = {a.start: _kinds_fed(decision, a) for a in fed}

    def taken(a: FrameAmount) -> bool:
        kinds, named = kinds_of[a.start], grammar_kind(a.role)
        return named in kinds or a.taken_as(kinds) >= (bar if named is None else sure_bar)

    return [a for a in frame.inputs_of(fed) if not _derived(a) and a.owner != EXAMPLE_OWNER and not taken(a)]


def _kinds_fed(decision, amount: Money) -> set[str]:
    """The kinds the input an amount fills takes: the first calculator argument its figure (as written or
    as a year's worth) is, in the calls' order (a later argument of the same figure was filled from it: an
    income assumed to be at least the gift); for an income worked into another figure, every kind the
    calls take."""
    figures = {amount.value, decision.slots.annual(amount)}
    for name, args in decision.calls:
        for argument, value in args.items():
            if figure_value(value) in figures:
                return set(table().takes(name, argument))
    return {k for name, _ in decision.calls for k in table().takes(name)}


def _derived(a: FrameAmount) -> bool:
    """An amount the number grammar worked out itself ("$31,200 less $24,000", "half of $80,000")."""
    return " less " in a.text or a.text.startswith("half of")


def _someone_elses(a: FrameAmount, bar: float) -> bool:
    # (An income read as IRD's or an employer's is a confused reading, not another person's income.)
    return a.owner == "someone_else" and a.owner_sure >= bar


def vetoed_inputs(inputs: list[FrameAmount], bar: float) -> list[FrameAmount]:
    """The inputs the learned reading says, at least `bar` sure, are not the asker's income: another kind
    of figure, or someone else's income beside an income of the asker's own (when every income is
    someone else's, that person is the one asked about); and every figure of an example the question
    quotes or sets up (frame.EXAMPLE_OWNER) and does not ask to have worked out."""
    own = [a for a in inputs if not _someone_elses(a, bar)]
    return [a for a in inputs if a.owner == EXAMPLE_OWNER or not _derived(a) and (
        (a.kind != "income" and a.kind_sure >= bar) or (_someone_elses(a, bar) and own))]


def others_figures(inputs: list[FrameAmount], frame: QuestionFrame, bar: float) -> list[FrameAmount]:
    """The inputs, when every one is someone else's while the question asks the asker's own sum ("what's
    my levy?") or a rule set for everyone (a rate, a threshold, a code: `asks_a_rule_for_everyone` in
    data/cue_words.yaml) with nobody named: the words name another person as its owner ("my brother makes
    $85,000"), or name nobody and the learned reading puts it, at least `bar` (NZTAX_FRAME_CERTAIN_BAR)
    sure, as someone else's. A rate asked beside another person's pay is no question about their tax
    ("ACC levy rate 2024-25?"); a sum asked of them is ("how much tax does he pay?", or with nobody
    named: "My sister earns $18,000. Income tax?"), and a post with an income of the asker's own is left
    to the rows on `inputs_sure`, which set the others' figures aside."""
    if frame.person_asked == "other" or not inputs:
        return []
    # (A sum asked with nobody named, beside only another person's pay, is that person's: "My sister
    # earns $18,000. How much income tax?")
    if frame.person_asked != "self" and not any(RULE_FOR_EVERYONE.search(s) for s in frame.asking):
        return []

    def theirs(a: FrameAmount) -> bool:
        return a.owner != EXAMPLE_OWNER and not _derived(a) and (
            a.named == "other" or a.named is None and a.owner == "someone_else" and a.owner_sure >= bar)

    return list(inputs) if all(theirs(a) for a in inputs) else []


def uncertain_inputs(inputs: list[FrameAmount], bar: float) -> list[FrameAmount]:
    """The inputs not read, at least `bar` sure, as the income of the one asked about: the asker or their
    partner, or the other person when every income is someone else's ("my employee earns …"). A figure
    written twice (a post's title and its story) is one figure: its surest reading counts."""
    def income(a: FrameAmount, owners: tuple[str, ...]) -> bool:
        return a.kind == "income" and a.kind_sure >= bar and a.owner in owners and a.owner_sure >= bar

    owners = INCOME_OWNERS if any(income(a, INCOME_OWNERS) for a in inputs) or not inputs else ("someone_else",)
    sure = {a.value for a in inputs if _derived(a) or income(a, owners)}
    return [a for a in inputs if a.value not in sure]


def _handed_over(decision, frame: QuestionFrame, pays_employee: Callable[[], bool], bar: float = 0.5,
                 kind_bar: float = 0.5, sure_bar: float = 0.7) -> list:
    """The calculator calls handed to the poster to confirm: none when every figure they would run on
    is an example's (the link says "your figures", and an example's are not the poster's), and none
    that runs on a figure read, at least `bar` (NZTAX_FRAME_CERTAIN_BAR) sure, as someone else's beside
    an income of the poster's own. Each call carries only the figures its fields take (`link_arguments`);
    one left with none of the post's figures is handed over unfilled when a figure (or a check of one) is
    asked, read at least `sure_bar` (NZTAX_FRAME_BAR) sure, else not at all: a link to type figures into
    answers no question that does not surely ask for one."""
    inputs = frame.inputs_of(input_amounts(decision.slots))
    if inputs and all(a.owner == EXAMPLE_OWNER for a in inputs):
        return []
    others = [a for a in inputs if _someone_elses(a, bar)]
    not_theirs = {a.value for a in others} - {a.value for a in inputs if a not in others} if len(others) < len(inputs) else set()
    calls = [call for call in decision.calls if not any(figure_value(v) in not_theirs for v in call[1].values())]
    if pays_employee():
        # A payment an employer makes is not a year's income: only the extra-pay calculator takes it
        # as what it is (a sum on it needs the pay around it, which the poster confirms there).
        calls = [call for call in calls if call[0] == EXTRA_PAY_TOOL]
    linked = [(name, link_arguments(decision, frame, name, args, bar, kind_bar, sure_bar)) for name, args in calls]
    figure_asked = bool({"figure", "check"} & set(frame.asks_surely(sure_bar)))
    return [(name, args) for name, args in linked if figure_asked or any(figure_value(v) is not None for v in args.values())]


def calls_handed_over(decision, frame: QuestionFrame, pays_employee: Callable[[], bool], settings) -> list:
    """`_handed_over` at the settings' bars."""
    return _handed_over(decision, frame, pays_employee, settings.frame_certain_bar, settings.frame_kind_bar, settings.frame_bar)


def link_arguments(decision, frame: QuestionFrame, tool: str, arguments: dict, bar: float, kind_bar: float,
                   sure_bar: float) -> dict:
    """A handed-over call's arguments less each figure of the post that the field it fills does not take.
    The same kind check as a calculation's (`amounts_taken`; `not_taken`'s bars), except that the number
    grammar's word for a kind taken ("earn") is not enough on its own: a hand-over is made because the
    figures were not certain enough to calculate on, so the learned reading must put the amount among the
    field's kinds too. A field is filled only when every place the post writes its figure (as written, or
    as a year's worth) reads so, and as the figure of the one asked about (`bar` sure; never an
    example's), leaving aside the places read surely as someone else's when one is theirs ("my brother
    earns the same"): a balance, a threshold, a price or another person's income never fills an income field.
    A figure the post does not write (a sum of its incomes, a pay worked from a salary) is the engine's and
    stays; a zero the engine put in for a field the post says nothing of (`pie_income` 0 when taxable
    income alone settles the rate, `gross_pay` 0 with no pay stated) stays only beside a figure of the
    post's: alone it fills nothing, and the link is an unfilled one."""
    slots = decision.slots
    written = [a for a in slots.amounts if not a.questioned]
    inputs = frame.inputs_of(input_amounts(slots))
    # (Every input someone else's beside a rule asked for everyone or the asker's own sum: none fills a
    # field, whoever the learned reading leans to: "my coworker makes $85,000" read as the partner's.)
    theirs = others_figures(inputs, frame, bar)
    owners = _asked_about(inputs, bar, theirs)
    out = {}
    for argument, value in arguments.items():
        figure = figure_value(value)
        places = frame.inputs_of([a for a in written if figure is not None and figure in (a.value, slots.annual(a))])
        asked = [a for a in places if a.owner in owners and a.owner_sure >= bar and a not in theirs]
        unsure = [a for a in places if a not in asked and not _someone_elses(a, bar) and a not in theirs]
        if not places or asked and not unsure and all(_fills(a, table().takes(tool, argument), kind_bar, sure_bar) for a in asked):
            out[argument] = value
    # (A zero the post never wrote is the engine's "nothing", not a figure of the post's.)
    zeros = {k for k, v in out.items() if figure_value(v) == 0 and all(a.value != 0 for a in written)}
    if any(figure_value(v) is not None for k, v in out.items() if k not in zeros):
        return out
    return {k: v for k, v in out.items() if k not in zeros}


def _fills(a: FrameAmount, kinds: tuple[str, ...], kind_bar: float, sure_bar: float) -> bool:
    """Whether the learned reading puts an amount among a field's kinds: at least `kind_bar` likely, or
    `sure_bar` sure when the number grammar names it another kind ("I paid", "in the bank")."""
    named = grammar_kind(a.role)
    return a.taken_as(kinds) >= (sure_bar if named is not None and named not in kinds else kind_bar)


def _asked_about(inputs: list[FrameAmount], bar: float, theirs: list[FrameAmount]) -> tuple[str, ...]:
    """Whose figures a calculation is about: the asker's or their partner's, or the other person's when
    every income is someone else's ("my employee earns ...") and the question does not ask a rate or a
    rule beside them (`theirs`, from `others_figures`): "My brother makes $85,000. ACC levy rate?" links
    no figure."""
    if not inputs or not all(_someone_elses(a, bar) for a in inputs) or theirs:
        return INCOME_OWNERS
    return ("someone_else",)


def set_beside(decision, frame: QuestionFrame) -> list[FrameAmount]:
    """The figures the poster states to set beside the engine's own (`frame.stated`), less any whose figure
    (as written, or as a year's worth) a calculation runs on: that one is the input, whatever kind the
    learned reading leans to (a weekly pay read as tax taken off 0.58), and is not "not used as income"."""
    worked = {figure_value(v) for _, args in decision.calls for v in args.values()} - {None}
    slots = decision.slots
    return [a for a in frame.stated() if not any(m.start == a.start and {m.value, slots.annual(m)} & worked for m in slots.amounts)]


def figure_value(value) -> Decimal | None:
    """A calculator argument's figure (a number, not a flag or a code), or None."""
    return Decimal(str(value)) if isinstance(value, (int, float, Decimal)) and not isinstance(value, bool) else None
