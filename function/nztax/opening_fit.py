"""Whether a sentence may open the answer to a question: not a worked example, not another subject.

In: the question, a candidate sentence and its passage (None for a sentence of a lead, whose whole
text comes as `context`). Out: `may_open(question, sentence, hit, context)` -> bool;
`worked_example(sentence, hit)`, `other_subject(question, sentence, hit, context)` -> bool;
`aspects_asked(question)` -> the aspects asked, `states_aspect(sentence, aspects)` -> bool. The lists
are data (`data/opening_fit.yaml`).

A worked example ("Mere is paid $800 a week …", "These figures come from …") shows a rule at work
for one made-up person; it does not say the rule, so it opens an answer only when the question
asks for an example. A sentence is one when it starts as examples start, when its passage's
section is headed as examples, or when its subject is a person named in the passage: a
capitalised word that is not in the passage's title or heading, never appears there in lower case
(a common noun at the start of a sentence does) and is followed by what people do in examples
(is paid, earns, bought).

A sentence about another subject than the one the question names does not open it either: a
question naming crypto-assets is not opened by the rule for shares, one naming New Zealand
dividends not by the rule for overseas shares. Subjects come in groups whose members exclude each
other (asset, where it is invested, employee or self-employed, interest or dividends); a sentence
that names members of a group the question names, none of them the question's, is about something
else. When the sentence names none, its passage's heading is read instead, or for a sentence of a lead (an
intent's or a unit's, which has no passage) the whole lead (`context`), for the groups a lead is
about throughout (`read_by_whole_lead`): "New Zealand has no general capital gains tax" says nothing
of shares, but the lead it opens is about shares and land, not crypto-assets. The question is read
with IRD's own terms for its words (query_expansion: "bitcoin" is a crypto-asset).

What the question asks of its topic (its aspect: how a thing is got, what happens, why, for how long,
what a term is) is read here too (`aspects_asked`), and whether a sentence says it (`states_aspect`),
both from the data's patterns; lead_choice.py holds the opening to it.

Nor does a sentence open that answers another question of the same topic (`off_question`): one
turning the question's situation the other way (`turns`: applying for a savings suspension, to a
question on ending one), one defining a term the question does not name, one whose leading clause
sets out a situation the question does not name ("Under 18, …"), or a passage's sentence leaning on
the one before it ("This is …", "But …"), which opens only after that one (`with_what_it_leans_on`).
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

from nztax.amount_conditions import contradicted
from nztax.cue_words import alternatives, exact_capitals
from nztax.dated_working import WRITTEN_FIGURE
from nztax.query_expansion import canonical_terms
from nztax.sentences import sentences
from nztax.understand import words
from nztax.yaml_data import load_yaml
from nztax.literal_screen import screen_patterns

DATA = Path(__file__).resolve().parent / "data" / "opening_fit.yaml"
NAME = re.compile(r"^([A-Z][a-z]+)(?:'s)?\s+(.*)$", re.S)
FIGURE = re.compile(r"\d")  # a rate, an amount or a number of weeks: any figure a sentence states


@functools.lru_cache(maxsize=1)
def _data() -> dict:
    raw = load_yaml(DATA.read_text(encoding="utf-8"))

    def joined(alternatives) -> re.Pattern:
        return re.compile("|".join(f"(?:{exact_capitals(a)})" for a in alternatives), re.I)

    example = raw["example"]
    return {
        "asked": joined(example["asked"]), "heading": joined(example["heading"]), "opener": joined(example["opener"]),
        "person_verb": re.compile(r"^(?:" + "|".join(example["person_verb"]) + ")", re.I),
        "defines": re.compile(raw.get("defines") or r"(?!)", re.I),
        "situation_clause": re.compile(raw.get("situation_clause") or r"(?!)", re.I),
        "leans": joined(raw.get("leans_on_before") or [r"(?!)"]),
        "points": joined(raw.get("points_elsewhere") or [r"(?!)"]),
        "set_aside": re.compile(r"\b(?:" + "|".join(raw["set_aside"]) + r")\b[^,.;:()]*", re.I),
        "whole_lead": frozenset(raw["read_by_whole_lead"]),
        "subjects": {group: {name: joined(alts) for name, alts in members.items()}
                     for group, members in raw["subjects"].items()},
        "situations": {name: joined(alts) for name, alts in raw["situations"].items()},
        "aspects": {name: (joined(a["asked"]), joined(a["stated"])) for name, a in (raw.get("aspects") or {}).items()},
        "of_figure": {name: joined(a["of_figure"]) for name, a in (raw.get("aspects") or {}).items() if a.get("of_figure")},
        "defined_by": [(joined(d["term"]), joined(d["needs"]), _denied(d["needs"])) for d in (raw.get("defined_by") or {}).values()],
        "turns": {situation: {way: _turned(spec, alts) for way, spec in (raw.get("turns") or {}).items()}
                  for situation, alts in raw["situations"].items() if situation in (raw.get("turned") or ())},
    }


def _turned(spec: dict, situation: list[str]) -> re.Pattern:
    """A text turning `situation` one way: the way's verb up to three words before its words, or right after."""
    named = "|".join(f"(?:{a})" for a in situation)
    before = "|".join(f"(?:{v})" for v in spec.get("before") or ())
    after = "|".join(f"(?:{v})" for v in spec.get("after") or ())
    forms = [rf"\b(?:{before})\b(?:\s+[\w'-]+){{0,3}}?\s+(?:{named})"] if before else []
    forms += [rf"(?:{named})\s+(?:{after})\b"] if after else []
    return re.compile("|".join(forms) or r"(?!)", re.I)


def _denied(needs: list[str]) -> re.Pattern:
    """A negation (condition_words' `negation_words`) up to two words either side of a needed condition."""
    negation, needed = rf"\b(?:{alternatives('negation_words')})\b", "|".join(f"(?:{n})" for n in needs)
    near = r"\W+(?:\w+\W+){0,2}"
    return re.compile(rf"{negation}{near}(?:{needed})|(?:{needed}){near}{negation}", re.I)


def _heading(hit) -> str:
    return " ".join(filter(None, (getattr(hit, "title", None), getattr(hit, "section", None))))


def named_person(sentence: str, hit) -> bool:
    """Whether the sentence's subject is a person the passage names (see the module docstring)."""
    m = NAME.match(sentence.strip())
    if m is None or hit is None:
        return False
    name, rest = m.group(1), m.group(2)
    text = getattr(hit, "text", "") or ""
    if re.search(rf"\b{name}\b", _heading(hit)) or re.search(rf"\b{name.lower()}\b", text):
        return False
    return bool(_data()["person_verb"].match(rest))


def worked_example(sentence: str, hit) -> bool:
    data = _data()
    if data["opener"].search(sentence.strip()):
        return True
    if hit is not None and data["heading"].search(getattr(hit, "section", None) or ""):
        return True
    return named_person(sentence, hit)


def subjects_named(text: str) -> dict[str, frozenset[str]]:
    """The members of each subject group a text names (not those it sets aside)."""
    # (A subject named only to set it aside, "income other than salary or wages", is not the text's subject.)
    text = _data()["set_aside"].sub(" ", text)
    out = {}
    for group, members in _data()["subjects"].items():
        named = frozenset(name for name, pattern in members.items() if pattern.search(text))
        if named:
            out[group] = named
    return out


@functools.lru_cache(maxsize=256)
def question_subjects(question: str) -> dict[str, frozenset[str]]:
    return subjects_named(" ".join((question, *canonical_terms(question))))


def other_subject(question: str, sentence: str, hit, context: str | None = None) -> bool:
    """Whether `sentence` (from passage `hit`, or from a lead whose whole text is `context`) is about
    another subject than the question names (see the module docstring)."""
    asked = question_subjects(question)
    if not asked:
        return False
    said = subjects_named(sentence)
    if hit is not None:
        heading = subjects_named(_heading(hit))
    else:
        whole = _data()["whole_lead"]
        heading = {g: m for g, m in subjects_named(context).items() if g in whole} if context else {}
    for group, members in asked.items():
        named = said.get(group) or heading.get(group)
        if named and not named & members:
            return True
    return False


def lead_on_subject(question: str, lead: str, written_for: str = "") -> bool:
    """Whether a lead written for the question `written_for` (an answer unit's) may open the answer
    to `question`: its opening sentence, read with the question it answers (which names the unit's
    subject: "… if I am self-employed?" answered "… your salary or wages plus your business income"),
    is not about another subject than `question` names; read by the whole lead when both name none."""
    from nztax.lead_choice import lead_sentences

    opening = (lead_sentences(lead or "") or [""])[0]
    return not other_subject(question, f"{written_for} {opening}", None, context=lead)


def situations_named(text: str) -> frozenset[str]:
    """The situations a text names (a casual worker, unpaid leave, a savings suspension ...): the
    rule for a situation is not the general rule, so an answer to a question naming one opens with
    a unit or sentence that names it too."""
    text = _data()["set_aside"].sub(" ", text or "")
    return frozenset(name for name, pattern in _data()["situations"].items() if pattern.search(text))


def situations_asked(asking, question: str) -> frozenset[str]:
    """The situations a question is about: those its asking sentences name, or, when they name none
    (an asking sentence that refers back: "Is that open to people like us?"), those its story names."""
    named = situations_named(" ".join(asking))
    if not named and len(sentences(question)) > 1:
        named = situations_named(question)
    return named


def covers(situations: frozenset[str], sentence: str, hit=None, context: str | None = None) -> bool:
    """Whether a sentence (read with its passage's heading, or a lead's sentence with the whole lead
    `context`) names one of the situations the question is about; any sentence does when it names none."""
    if not situations:
        return True
    return bool(situations_named(" ".join((sentence, _heading(hit), context or ""))) & situations)


def only_by_heading(situations: frozenset[str], sentence: str, hit) -> frozenset[str]:
    """The situations of `situations` that a sentence's passage heading names and the sentence itself
    does not: a heading ("Wage bargaining and total remuneration") covers the general rule stated
    under it as well as the situation's own."""
    return (situations_named(_heading(hit)) & situations) - situations_named(sentence) if situations else frozenset()


def turns(text: str) -> dict[str, frozenset[str]]:
    """Each situation the text names with the way it turns it (`turns` in the data: into it, out of it)."""
    out = {}
    for situation, ways in _data()["turns"].items():
        turned = frozenset(way for way, pattern in ways.items() if pattern.search(text or ""))
        if turned:
            out[situation] = turned
    return out


def turned_other_way(question: str, text: str, asked: dict | None = None) -> bool:
    """Whether `text` turns a situation the question turns only the other way (applying for a savings
    suspension, to a question on ending one): it answers the opposite question. `asked`: the question's
    `turns`, when the caller already has them."""
    asked, said = (turns(question) if asked is None else asked), turns(text)
    return any(said.get(situation) and not said[situation] & ways for situation, ways in asked.items())


def aspects_asked(question: str) -> frozenset[str]:
    """What the question asks about its topic (`aspects` in the data: how it is got, what happens,
    why, for how long); empty for a question asking none of these."""
    return frozenset(name for name, (asked, _) in _data()["aspects"].items() if asked.search(question))


def states_aspect(sentence: str, aspects: frozenset[str]) -> bool:
    """Whether the sentence reads as saying one of the asked aspects."""
    return any(_data()["aspects"][name][1].search(sentence) for name in aspects)


def _figures(text: str) -> frozenset[str]:
    """The dollar amounts and percentages a text writes (`WRITTEN_FIGURE`), compared without commas.
    (Not `FIGURE` above: any digit, the situation guard's test of whether a sentence states a figure.)"""
    return frozenset(f.replace(",", "") for f in WRITTEN_FIGURE.findall(text))


def says_aspect(question: str, sentence: str, aspects: frozenset[str]) -> bool:
    """Whether the sentence says what the question asks of its topic: it reads as saying one of the
    aspects (`states_aspect`), or it states the figure the question names in a clause that says that
    aspect of it (`of_figure` in the data: asked why 45% comes off, "without an IRD number it is
    45%" gives the condition the figure holds under, which is why). What one clause (up to a ";")
    says of a figure is not said of another clause's."""
    if states_aspect(sentence, aspects):
        return True
    of_figure = [_data()["of_figure"][name] for name in aspects if name in _data()["of_figure"]]
    named = _figures(question)
    if not of_figure or not named:
        return False
    return any(named & _figures(clause) and any(p.search(clause) for p in of_figure) for clause in sentence.split(";"))


def asks_for_example(question: str) -> bool:
    return bool(_data()["asked"].search(question))


def leans_on_before(sentence: str) -> bool:
    """Whether the sentence leans on the one before it ("This is …", "But …"): it may not open."""
    return bool(_data()["leans"].search(sentence.strip()))


def with_what_it_leans_on(sentence: str, hit) -> str:
    """The sentence, after the one before it in its passage when it leans on that one ("Automatic
    enrolment still starts at 18. But 16 and 17 year olds …") and that one stands on its own."""
    if hit is None or not leans_on_before(sentence):
        return sentence
    text = getattr(hit, "text", "") or ""
    at = text.find(sentence[:30])
    before = [s.strip(" -*:") for s in sentences(text[:at])] if at > 0 else []
    if not before or not before[-1] or leans_on_before(before[-1]) or before[-1][-1:] not in ".!":
        return sentence
    return f"{before[-1]} {sentence}"


def defines_another_term(question: str, sentence: str) -> bool:
    """Whether the sentence defines a term (`defines` in the data) the question does not name."""
    m = _data()["defines"].match(sentence.strip())
    return m is not None and not words(m.group("term")) <= words(question)


def for_another_situation(question: str, sentence: str, hit=None) -> bool:
    """Whether the sentence opens with a clause setting a situation (`situation_clause`) the question
    does not name: it states that situation's rule, not the one asked. So does a sentence stating a
    figure under a heading naming a situation the question does not name ("Your employer must deduct
    3% while the reduction lasts" under "Temporary rate reduction"): the figure is that situation's,
    and opening with it would state it as the asker's."""
    m = _data()["situation_clause"].match(sentence.strip())
    set_out = situations_named(m.group(0)) if m else frozenset()
    if hit is not None and FIGURE.search(sentence):
        set_out |= situations_named(_heading(hit))
    return bool(set_out) and not set_out & situations_named(question)


def definition_denied(question: str, sentence: str) -> bool:
    """Whether the sentence states the rule for a term (`defined_by` in the data) whose defining
    condition the question denies: a boarder's standard cost for a tenant given no meals. A sentence
    naming the condition too says what the term is ("A boarder pays you for a room and meals"),
    which is what such a question needs."""
    return any(term.search(sentence) and not needs.search(sentence) and denied.search(question)
               for term, needs, denied in _data()["defined_by"])


def off_question(question: str, sentence: str, hit, context: str | None = None) -> bool:
    """Whether a sentence answers another question than the one asked: another subject, another
    term's definition, another situation's rule, the situation turned the other way, a term whose
    defining condition the question denies, a condition on an amount the question's own figure lies
    outside (amount_conditions.py: "$50,000 or less" to a post over it), a pointer to a page (no rule
    at all), or (a passage's sentence) leaning on the sentence before it. Unlike a worked example, the rule at work on the
    question, a sentence from another passage may open instead of it (say.topic)."""
    return (other_subject(question, sentence, hit, context) or defines_another_term(question, sentence)
            or for_another_situation(question, sentence, hit) or turned_other_way(question, sentence)
            or definition_denied(question, sentence) or bool(contradicted(question, sentence))
            or points_elsewhere(sentence) or (hit is not None and leans_on_before(sentence)))


def points_elsewhere(sentence: str) -> bool:
    """Whether the sentence only points to a page or says what one holds (`points_elsewhere` in the
    data: "See …", "This section explains …"): it states no rule, so answers no question."""
    return bool(_data()["points"].search(sentence.strip()))


def may_open(question: str, sentence: str, hit, context: str | None = None) -> bool:
    if not asks_for_example(question) and worked_example(sentence, hit):
        return False
    return not off_question(question, sentence, hit, context)

screen_patterns(globals())  # (literal_screen.py: each pattern above tried only on a text with a literal it needs)
