"""The decision table: the frame and the proposed action in, the action taken and its trace out.

In: a `Decision` (decide.py: the action the intent reading proposes), the question's
`QuestionFrame`, settings, and two ways to decide again (on other slots; with the best in-scope
reading). Out: the `Decision` to answer, with `trace` set (frame + the rows that fired).
The rows are data (`data/decisions.yaml`); this module only evaluates their conditions.

    decision = apply_table(decision, frame, settings, redecide=..., in_scope=...)
    decision.trace.rows        # ['other_figures_set_aside']
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Callable


from nztax.cue_words import cue, exact_capitals
from nztax.decision_rows import table
from nztax.figure_check import check_agreed
from nztax.frame import QuestionFrame, Trace
from nztax.input_figures import (EXTRA_PAY_TOOL, calls_handed_over, input_amounts, not_taken, others_figures, set_beside,
                                 uncertain_inputs, vetoed_inputs)
from nztax.left_out import left_out
from nztax.slots import INCOME_LIKE_ROLES, Slots
from nztax.payment_frame import asked_in_post, only_regular

# A subject read at least this likely is likelier than all the others together: a decline can name its
# body though the reading is not sure (below NZTAX_FRAME_SCOPE_BAR). Under it, a question about a subject
# the scope classes lack (a visa, child support, council rates) was pointed to a wrong body.
MAJORITY = 0.5
OBLIGATION_ASKED = cue("obligation_asked")
EMPLOYMENT_PARTY = cue("employment_party")
TAX_TREATMENT_ASKED = cue("tax_treatment_asked")


@dataclass(frozen=True)
class Facts:
    """What the rows' conditions are evaluated on."""

    proposed: str
    declined_as: str | None
    intent_sure: bool
    scope: str
    scope_sure: bool
    scope_firm: bool
    scope_out_sure: bool         # the learned reading's other subjects together are NZTAX_FRAME_SCOPE_BAR sure
    scope_out_firm: bool         # ... NZTAX_FRAME_SCOPE_FIRM_BAR sure
    scope_in_high: bool          # NZ personal tax is at least NZTAX_FRAME_SCOPE_IN_BAR likely
    inputs_sure: bool
    inputs_certain: bool
    recoverable: bool
    stated: bool
    asks: tuple[str, ...]
    answers_ask: bool            # a proposed calculation's result answers what the asking sentence(s) ask
    asks_figure: bool            # an asking sentence surely asks for a figure, or a check of one stated
    story: bool                  # a post that tells a story (several sentences or a long text), not one line
    lead_fits: bool              # a proposed fact's intent is what the asking sentence(s) read as on their own
    rule_worked: bool            # a proposed fact works its rule (or a calculator) on a figure of the question's
    several_figures: bool        # the question states more than one amount of money
    kept: tuple[int, ...]        # starts of the input amounts a recalculation keeps
    read_by: str = "offline"     # who read the frame: offline or model (LLM mode)
    asks_income: bool = False    # a proposed question back asks for the poster's income (`income_asks`)
    rate_given: bool = False     # the question names the tax rate its figure is worked at
    decline_unread: bool = False  # a proposed decline's subject is neither the frame's likeliest subject nor its likeliest other
    incomes_left_out: bool = False  # a proposed calculation uses none of one of the question's incomes
    foreign_withholding: bool = False  # the question names a tax withheld under a name the sources never use
    foreign_rate: bool = False   # the poster states as their own a tax rate New Zealand's rules have in no year
    foreign_place: bool = False  # an asking sentence names another place's tax, nothing of New Zealand's (tax_place.py)
    asked_in_new_zealand: bool = False  # the asking sentences place it in New Zealand's system and read, alone, as a question answered
    pays_employee: bool = False  # what is asked is about a payment an employer makes (payment_frame.py)
    payment_as_income: bool = False  # a proposed sum takes such a payment as income, not as an extra pay
    payment_tax_asked: bool = False  # a story's asking sentences name a payment an employer makes and ask its tax
    inputs_taken: bool = True    # every amount a proposed calculation works on reads as a kind its calculator takes
    asked_unread: bool = False   # a story's asking sentence(s), read on their own, match no intent (`asked_unread`)
    questioned_not_theirs: bool = False  # a proposed question back asks about figures none of which is the asker's income
    asks_employment_obligation: bool = False  # an asking sentence asks what a party to a job must or may do; none asks a tax
    scope_major: bool = False    # the likeliest subject reads more likely than all the others together (MAJORITY)
    intent: str | None = None    # the proposed intent's name
    inputs_owned: bool = True    # not every input is someone else's with nobody named in the asking (`others_figures`)
    asked_in_nz_tax: bool = False  # a declined post's asking sentences, read alone, are surely a question answered here
    asked_outside_nz_tax: bool = False  # a post's asking sentences, read alone, are surely another subject's question

    def holds(self, when: dict) -> bool:
        checks = {
            "proposed": lambda v: self.proposed in v, "proposed_not": lambda v: self.proposed not in v,
            "declined_as": lambda v: self.declined_as in v, "scope": lambda v: self.scope in v,
            "scope_not": lambda v: self.scope not in v, "scope_sure": lambda v: self.scope_sure == bool(v),
            "scope_firm": lambda v: self.scope_firm == bool(v),
            "scope_out_sure": lambda v: self.scope_out_sure == bool(v), "scope_out_firm": lambda v: self.scope_out_firm == bool(v),
            "scope_in_high": lambda v: self.scope_in_high == bool(v), "intent_sure": lambda v: self.intent_sure == bool(v),
            "inputs_sure": lambda v: self.inputs_sure == bool(v), "recoverable": lambda v: self.recoverable == bool(v),
            "inputs_certain": lambda v: self.inputs_certain == bool(v), "inputs_owned": lambda v: self.inputs_owned == bool(v),
            "inputs_taken": lambda v: self.inputs_taken == bool(v), "answers_ask": lambda v: self.answers_ask == bool(v),
            "story": lambda v: self.story == bool(v), "asks_figure": lambda v: self.asks_figure == bool(v),
            "lead_fits": lambda v: self.lead_fits == bool(v), "rule_worked": lambda v: self.rule_worked == bool(v),
            "several_figures": lambda v: self.several_figures == bool(v),
            "stated": lambda v: self.stated == bool(v), "asks": lambda v: any(a in v for a in self.asks),
            "read_by": lambda v: self.read_by in v, "asks_income": lambda v: self.asks_income == bool(v),
            "rate_given": lambda v: self.rate_given == bool(v), "decline_unread": lambda v: self.decline_unread == bool(v),
            "incomes_left_out": lambda v: self.incomes_left_out == bool(v),
            "foreign_withholding": lambda v: self.foreign_withholding == bool(v),
            "foreign_rate": lambda v: self.foreign_rate == bool(v),
            "foreign_place": lambda v: self.foreign_place == bool(v),
            "asked_in_new_zealand": lambda v: self.asked_in_new_zealand == bool(v),
            "pays_employee": lambda v: self.pays_employee == bool(v),
            "payment_as_income": lambda v: self.payment_as_income == bool(v),
            "payment_tax_asked": lambda v: self.payment_tax_asked == bool(v),
            "asked_unread": lambda v: self.asked_unread == bool(v),
            "questioned_not_theirs": lambda v: self.questioned_not_theirs == bool(v),
            "asks_employment_obligation": lambda v: self.asks_employment_obligation == bool(v),
            "scope_major": lambda v: self.scope_major == bool(v),
            "intent_not": lambda v: self.intent not in v,
            "asked_in_nz_tax": lambda v: self.asked_in_nz_tax == bool(v),
            "asked_outside_nz_tax": lambda v: self.asked_outside_nz_tax == bool(v),
        }
        return all(checks[name](value) for name, value in when.items())


def lead_fits(decision, frame: QuestionFrame, asked_alone: Callable[[], object] | None) -> bool:
    """Whether the intent whose lead a fact answer opens with is what the post's asking sentence(s)
    read as on their own (the same intent or its family). A story's other sentences can carry the
    whole post to a nearby intent whose lead answers another question."""
    if decision.action != "fact" or not frame.story or asked_alone is None or decision.intent is None:
        return True
    alone = asked_alone()
    if alone is None:
        return True
    intent, other = decision.intent, alone.intent
    return other.name == intent.name or other.name in intent.covers or (intent.family is not None and other.family == intent.family)


def asked_unread(decision, frame: QuestionFrame, settings, asked_alone: Callable[[], object] | None) -> bool:
    """Whether a story's asking sentence(s), read on their own, match no intent of the catalogue (the
    best below NZTAX_INTENT_MIN_SCORE), or only the one that asks back what a vague question is about
    (the catalogue's `does: clarify` intent, which names no question of its own) while they ask for no
    figure (a vague "how much tax will I pay?" still asks the person's own tax): what is asked is none
    of the questions the engine answers, and a sure reading of the whole post came from the story's
    words around it. The sentences are read as written: one leaning on the story, read with the
    story's opening, would take its subject from the story and so always read as asking something."""
    if not frame.story or asked_alone is None or decision.action in ("refuse", "decline"):
        return False
    alone = asked_alone(as_written=True)
    return alone is not None and (alone.score < settings.intent_min_score
                                  or getattr(alone.intent, "does", None) == "clarify" and not frame.asks_figure)


def asked_answered(decision, frame: QuestionFrame, settings, asked_alone: Callable[[], object] | None) -> bool:
    """Whether a post declined or read as another country's tax asks, in its asking sentences read on their
    own as written, a question the intent reading surely answers (no decline nor refusal): two readings
    agree with the asking sentences' own placing in New Zealand's system (tax_place.asks_in_new_zealand)."""
    overseas = decision.action == "decline" and getattr(decision.intent, "copy", None) == "overseas" or frame.scope == "foreign_tax"
    if not overseas or asked_alone is None:
        return False
    alone = asked_alone(as_written=True)
    # (Surely: at the intent bar, and the reading next to it, when that is near, answers too.) A post
    # asking a New Zealand question beside another country's tax ("Can I take my KiwiSaver with me? Is
    # it taxed over there?") is read by each of its New Zealand asking sentences alone too: the decline
    # caught the other one's words, and the question of ours is answered.
    return _surely_answered(alone, settings) or any(_surely_answered(asked_alone(as_written=True, only=s), settings)
                                                    for s in frame.asked_in_new_zealand_each)


TURNED_AWAY = ("decline", "refuse")


def _surely_answered(alone, settings) -> bool:
    """Whether an intent reading is surely a question the engine answers: at the intent bar, no decline
    nor refusal, and the reading next to it, when that is near, answers too."""
    return (alone is not None and alone.score >= settings.intent_min_score and alone.intent.does not in TURNED_AWAY
            and (alone.confident or alone.runner_up is None or alone.runner_up.does not in TURNED_AWAY))


def asked_in_nz_tax(decision, frame: QuestionFrame, settings, asked_alone: Callable[[], object] | None) -> bool:
    """Whether a post the intent reading declines holds, besides its asking sentences, words that carried
    the decline, while the asking sentences read alone are New Zealand personal tax by both readings: the
    scope reading surely (NZTAX_FRAME_SCOPE_BAR) and the intent reading as a question it surely answers.
    What is asked decides; a sentence of context (another country, a partner's company) does not."""
    if (decision.action != "decline" or frame.asked_scope_in is None or asked_alone is None
            or frame.asked_scope_in < settings.frame_scope_bar):
        return False
    alone = asked_alone(as_written=True)
    # (Not the vague question's ask-back, which names no question of its own.)
    return _surely_answered(alone, settings) and alone.intent.does != "clarify"


def asked_outside_nz_tax(decision, frame: QuestionFrame, settings, asked_alone: Callable[[], object] | None) -> bool:
    """Whether a post's asking sentences, read alone, are surely another subject's question by both readings:
    the scope reading's other subjects together at NZTAX_FRAME_SCOPE_BAR and the intent reading confidently
    a decline as not tax; or the scope reading firm (NZTAX_FRAME_SCOPE_FIRM_BAR) and the intent reading
    matching none of the questions the engine answers (below NZTAX_INTENT_MIN_SCORE). A tax word in a
    sentence of context (the tax code, the RWT already paid) does not make a question about a bank's rates
    or an employer's duties a tax question."""
    if (decision.action in TURNED_AWAY or frame.asked_scope_in is None or asked_alone is None
            or 1.0 - frame.asked_scope_in < settings.frame_scope_bar):
        return False
    alone = asked_alone(as_written=True)
    if alone is None:
        return False
    declined = alone.confident and alone.intent.does == "decline" and getattr(alone.intent, "copy", None) == "not_tax"
    unread = 1.0 - frame.asked_scope_in >= settings.frame_scope_firm_bar and alone.score < settings.intent_min_score
    return declined or unread


def facts_of(decision, frame: QuestionFrame, settings, asked_alone: Callable[[], object] | None = None,
             pays_employee: Callable[[], bool] | None = None, lifted: bool = False) -> Facts:
    pays_employee = pays_employee or (lambda: _pays_employee(decision, frame))
    bar = settings.frame_bar
    inputs = frame.inputs_of(input_amounts(decision.slots)) if decision.action == "calculate" else []
    # Two readings of each input: the number grammar's role (slots.py) proposes it as income, and the
    # learned kind and owner must not read it, surely, as something else.
    vetoed = vetoed_inputs(inputs, bar)
    kept = tuple(a.start for a in inputs if a not in vetoed)
    inputs_sure, recoverable = not vetoed, bool(kept) and bool(vetoed)
    kinds = {k for name, _ in decision.calls for k in table().answered_by(name)} if decision.action == "calculate" else set()
    intent = decision.intent
    out_of_scope = 0.0 if frame.scope_in is None else 1.0 - frame.scope_in
    return Facts(proposed=decision.action, intent=getattr(intent, "name", None), declined_as=intent.copy if intent is not None and decision.action in ("decline", "refuse") else None,
                 intent_sure=bool(decision.classification is not None and decision.classification.confident),
                 scope=frame.scope, scope_sure=frame.scope_sure >= settings.frame_scope_bar,
                 scope_firm=frame.scope_sure >= settings.frame_scope_firm_bar,
                 scope_out_sure=out_of_scope >= settings.frame_scope_bar,
                 scope_out_firm=out_of_scope >= settings.frame_scope_firm_bar,
                 scope_in_high=frame.scope_in is not None and frame.scope_in >= settings.frame_scope_in_bar,
                 inputs_sure=inputs_sure,
                 inputs_certain=not uncertain_inputs(inputs, settings.frame_certain_bar), recoverable=recoverable,
                 inputs_owned=not others_figures(inputs, frame, settings.frame_certain_bar),
                 inputs_taken=not not_taken(decision, frame, settings.frame_kind_bar, bar),
                 stated=bool(frame.stated()), asks=frame.asks_each, answers_ask=bool(kinds & set(frame.asks_surely(bar))) or "check" in kinds and check_agreed(decision, frame.to_json()),
                 asks_figure=frame.asks_figure_surely(bar), story=frame.story, lead_fits=lead_fits(decision, frame, asked_alone),
                 rule_worked=decision.action == "fact" and bool(decision.rule_results or decision.calls),
                 several_figures=len({a.value for a in frame.amounts if a.period is not None}) > 1,
                 kept=kept, read_by=frame.read_by, rate_given=frame.rate_given,
                 asks_income=decision.action == "clarify" and any(m in table().income_asks for m in decision.missing or ()),
                 decline_unread=_decline_unread(decision, frame),
                 incomes_left_out=bool(left_out(decision, frame, settings.frame_bar)),
                 foreign_withholding=frame.foreign_withholding, foreign_rate=frame.foreign_rate, foreign_place=frame.foreign_place,
                 asked_in_new_zealand=frame.asked_in_new_zealand and asked_answered(decision, frame, settings, asked_alone),
                 pays_employee=decision.action == "decline" and pays_employee(),
                 payment_as_income=decision.action == "calculate" and any(name != EXTRA_PAY_TOOL for name, _ in decision.calls)
                 and pays_employee(),
                 # (Read only for a story surely, or more likely than not, about another subject: the asking
                 # sentences' own reading costs an embedding.)
                 asked_unread=(out_of_scope >= settings.frame_scope_bar or frame.scope_in is not None
                               and frame.scope_in < settings.frame_scope_in_bar)
                 and asked_unread(decision, frame, settings, asked_alone),
                 # (Not for a decline the intent reading made and a row lifted, `lifted`: when the scope reading
                 # agrees with that decline that it is not tax, the story rows weigh the lift.)
                 payment_tax_asked=not lifted and frame.story and any(TAX_TREATMENT_ASKED.search(s) for s in frame.asking)
                 and pays_employee(),
                 questioned_not_theirs=_questioned_not_theirs(decision, frame, bar),
                 asks_employment_obligation=asks_employment_obligation(frame.asking),
                 scope_major=frame.scope_sure >= MAJORITY,
                 asked_in_nz_tax=asked_in_nz_tax(decision, frame, settings, asked_alone),
                 asked_outside_nz_tax=asked_outside_nz_tax(decision, frame, settings, asked_alone))


def asks_employment_obligation(asking: tuple[str, ...]) -> bool:
    """Whether an asking sentence asks what a party to a job must, may or is owed (an employer's duty,
    a deduction from wages, what holiday pay counts) while none of them asks how anything is taxed or
    counted for a tax, credit or scheme Inland Revenue runs: the rule asked for is employment law's,
    however much of the story is told in pay and tax words (`obligation_asked`, `employment_party`,
    `tax_treatment_asked` in data/cue_words.yaml)."""
    if any(TAX_TREATMENT_ASKED.search(s) for s in asking):
        return False
    return any(OBLIGATION_ASKED.search(s) and EMPLOYMENT_PARTY.search(s) for s in asking)


def named_subject(asking: tuple[str, ...], scopes: dict) -> str | None:
    """The subject whose deciding body (its `named_by` words in data/decisions.yaml) an asking sentence
    names: a decline points there rather than to a neighbour the scope reading spread the story over."""
    for subject, spec in scopes.items():
        named = _named_by(tuple(str(p) for p in spec.get("named_by") or ()))
        if named is not None and any(named.search(s) for s in asking):
            return subject
    return None


@lru_cache(maxsize=None)
def _named_by(words: tuple[str, ...]) -> re.Pattern | None:
    """One pattern for a subject's `named_by` words, compiled once rather than on every decline."""
    return re.compile("|".join(f"(?:{exact_capitals(w)})" for w in words), re.I) if words else None


def _questioned_not_theirs(decision, frame: QuestionFrame, bar: float) -> bool:
    """Whether a proposed question back about the post's figures asks only about figures that are not the
    asker's income: an example's, or read surely as another kind or someone else's (`vetoed_inputs`)."""
    if decision.action != "clarify" or "amount" not in (decision.missing or ()):
        return False
    asked = frame.inputs_of(decision.slots.questioned)
    return bool(asked) and len(vetoed_inputs(asked, bar)) == len(asked)


def _pays_employee(decision, frame: QuestionFrame) -> bool:
    """Whether the question's asking sentences (or its opening) name a payment an employer makes (not
    ordinary pay alone: a second job's pay is a year's income)."""
    asked = asked_in_post(frame.asking, getattr(decision, "question", None) or "")
    return asked is not None and not only_regular(asked)


def _decline_unread(decision, frame: QuestionFrame) -> bool:
    """Whether a proposed decline names a subject (a trust's tax, a company's, another country's) that the
    learned scope reading puts neither first nor first among the subjects other than New Zealand personal tax."""
    if decision.action != "decline" or decision.intent is None or frame.scope_in is None:
        return False
    subject = (table().declined_subjects or {}).get(decision.intent.copy)
    return subject is not None and subject not in (frame.scope, frame.scope_other)


def decline_backed(decision, frame: QuestionFrame) -> bool:
    """Whether the learned scope reading backs a proposed decline naming a subject (`declined_subjects`):
    that subject is its likeliest subject other than New Zealand personal tax."""
    if decision.action != "decline" or decision.intent is None:
        return False
    subject = (table().declined_subjects or {}).get(decision.intent.copy)
    return subject is not None and subject == frame.scope_other


def apply_table(decision, frame: QuestionFrame, settings, *, redecide: Callable[[Slots], object],
                in_scope: Callable[[], object | None], asked_alone: Callable[[], object] | None = None):
    """The decision the table's first matching row leads to, with its trace. `asked_alone`: the intent
    reading of the asking sentence(s) on their own (read only for a story given a fact)."""
    trace = Trace(frame=frame.to_json(), proposed=decision.action, steps=list(decision.steps))
    asked_alone = lru_cache(maxsize=None)(asked_alone) if asked_alone is not None else None  # (read by two facts)
    out = _apply_row(decision, frame, settings, trace, redecide, in_scope, asked_alone)
    trace.action = out.action
    out.trace = trace
    return out


def _apply_row(decision, frame: QuestionFrame, settings, trace: Trace, redecide, in_scope, asked_alone, lifted: bool = False):
    """The decision the first row that holds leads to; a lifted decline's answer goes through the table
    again (it may ask back for an income the question does not need, or calculate on unsure inputs)."""
    t = table()
    # Whether the post names an employer's payment: read once for the facts and the calls handed over.
    pays_employee = lru_cache(maxsize=None)(lambda: _pays_employee(decision, frame))
    facts = facts_of(decision, frame, settings, asked_alone, pays_employee, lifted)
    row = next(r for r in t.rows if facts.holds(r.when))
    trace.rows.append(row.id)
    out = decision
    if row.then == "decline":
        # (`to: asked`: the likeliest other subject of the asking sentences read alone.)
        subject = (frame.asked_scope_other if row.to == "asked" else row.to) or named_subject(frame.asking, t.scopes) \
            or (frame.scope if frame.scope != "nz_tax" else frame.scope_other)
        out = replace(decision, action="decline", calls=[], decline_to=t.scopes.get(subject or "") or t.scopes["not_money"])
    elif row.then == "answer":
        lifted = in_scope()
        if lifted is not None:
            trace.notes.append(f"decline lifted: answered as {getattr(lifted.intent, 'name', None)}")
            out = lifted if lifted.action in ("decline", "refuse") else _apply_row(lifted, frame, settings, trace, redecide,
                                                                                   in_scope, asked_alone, True)
    elif row.then == "recalculate":
        amounts = [a for a in decision.slots.amounts if a.role not in INCOME_LIKE_ROLES or a.questioned or a.start in facts.kept]
        out = redecide(replace(decision.slots, amounts=amounts))
        set_aside = [a.text for a in frame.amounts if a.start not in facts.kept and a.role in INCOME_LIKE_ROLES]
        trace.notes.append(f"set aside as not the asker's income: {', '.join(set_aside)}")
        if out.action == "calculate":
            out = replace(out, stated=set_beside(out, frame))
        elif out.action != "decline":
            out = replace(out, handed_over=calls_handed_over(decision, frame, pays_employee, settings), action="topic", calls=[])
    elif row.then == "hand_over":
        out = replace(decision, action="topic", calls=[], handed_over=calls_handed_over(decision, frame, pays_employee, settings))
        inputs = frame.inputs_of(input_amounts(decision.slots))
        if not out.handed_over and decision.calls:
            trace.notes.append("no calculator link: the figures are an example's, not the asker's or of no kind its fields take, "
                               "and no figure is surely asked")
        for name, linked in out.handed_over[:1]:  # (the one the answer links)
            left = [arg for arg in next(args for n, args in decision.calls if n == name) if arg not in linked]
            if left:
                trace.notes.append(f"left out of the {name} link (not of a kind the field takes): {', '.join(left)}")
        if not facts.answers_ask:
            asked = ", ".join(f"{a} {sure:.2f}" for a, sure in zip(frame.asks_each, frame.asks_each_sure or [1.0] * len(frame.asks_each)))
            trace.notes.append(f"a calculation does not answer what is surely asked ({asked})")
        others = [a.text for a in others_figures(inputs, frame, settings.frame_certain_bar)]
        if others:
            trace.notes.append(f"someone else's figure, and the question does not ask about them: {', '.join(others)}")
        unsure = [f"{a.text} ({a.kind} {a.kind_sure:.2f}, {a.owner} {a.owner_sure:.2f})"
                  for a in uncertain_inputs(inputs, settings.frame_certain_bar)]
        if unsure:
            trace.notes.append(f"not surely the asker's income: {', '.join(unsure)}")
        untaken = [f"{a.text} ({a.kind} {a.kind_sure:.2f})" for a in not_taken(decision, frame, settings.frame_kind_bar, settings.frame_bar)]
        if untaken:
            trace.notes.append(f"not read as a kind of amount the calculator takes: {', '.join(untaken)}")
    elif row.then == "from_sources":
        out = replace(decision, action="topic", calls=[], missing=[])
        trace.notes.append("answered from the passages that best answer the asking sentence(s)")
    elif row.then == "rule_only":
        out = replace(decision, rule_results={}, calls=[])
        trace.notes.append("the rule is not worked on one of the post's several figures")
    elif row.then == "check":
        out = replace(decision, stated=set_beside(decision, frame))
    return out
