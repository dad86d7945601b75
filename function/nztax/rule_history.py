"""What changed in the rules a post is about, and when, for a post set before the change.

In: the post's text, its answer (`AskResult`) and today's date; the dated changes in
`data/rule_history.yaml`. Out: the answer with a note, with its source, saying what the rule was
at the post's time (read by post_time.py) and the dates it changed since; or, when the post's time
can't be read, today's rule with its start date when the change is recent (or the scheme named
has ended).

A figure is right only for the dates its source gives: today's rule must not be told to a post
from 2013 as if it were theirs. A note for a post set before a change opens the answer (what
follows is today's rule), and so does one for a rule whose old form still holds for people it
applied to (the answer depends on when they joined, which the post doesn't say); any other note
for a post of unknown time closes the first paragraph.
Below an opening note, today's working on the post's own figures is not given as theirs
(dated_working.py).
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from nztax import dated_working
from nztax.contract import CITE_MARK, AskResult, Citation, cite_mark
from nztax.frame import note_opened
from nztax.post_time import PostTime, read_post_time
from nztax.rules import tax_year_for
from nztax.understand import mentions, phrase_text
from nztax.yaml_data import load_yaml
from nztax.units import opening_verdict
from nztax.cue_words import plural

HISTORY_FILE = Path(__file__).parent / "data" / "rule_history.yaml"
# A citation mark or a page's address in an answer: not what the answer says.
CITED_ADDRESS = re.compile(CITE_MARK.pattern + r"|https?://\S+")


@dataclass(frozen=True)
class Change:
    on: dt.date
    before: str
    since: str
    source: str
    title: str
    era: tuple[str, ...] = ()   # phrases (phrase text) only the rule before the change used


@dataclass(frozen=True)
class Rule:
    id: str
    cues: tuple[tuple[tuple[str, ...], ...], ...]   # alternatives; each word groups of phrases (phrase text)
    changes: tuple[Change, ...]
    answer_cues: tuple[tuple[str, ...], ...] = ()   # an answer that states the rule has every group
    ended: bool = False
    earlier_still_applies: bool = False
    began: dt.date = dt.date.min
    depends_on: str = ""   # what the old form turns on for those it still holds for ("you joined KiwiSaver")


@dataclass(frozen=True)
class History:
    rules: tuple[Rule, ...]
    recent_years: int
    max_notes: int
    before_words: tuple[str, ...]
    change_words: tuple[str, ...] = ()


def _group(phrases: list) -> tuple[str, ...]:
    """A cue group's phrases as matched, each also with its last word in the plural ("KiwiSavers")."""
    out = []
    for text in (phrase_text(p) for p in phrases):
        words = text.split()
        out.append(text)
        if words and words[-1].isalpha():
            out.append(" ".join(words[:-1] + [plural(words[-1])]))
    return tuple(dict.fromkeys(out))


def _words(text: str) -> str:
    """Text as phrases are matched in it (understand.mentions)."""
    return f" {phrase_text(text)} "


@lru_cache(maxsize=1)
def history() -> History:
    data = load_yaml(HISTORY_FILE.read_text(encoding="utf-8"))
    rules = tuple(Rule(
        id=r["id"], cues=tuple(tuple(_group(g) for g in alt) for alt in r["cues"]),
        changes=tuple(sorted((Change(c["effective"], c["before"], c["since"], c["source"], c["title"], _group(c.get("era") or ()))
                              for c in r["changes"]), key=lambda c: c.on)),
        answer_cues=tuple(_group(g) for g in r.get("answer_cues") or ()),
        ended=bool(r.get("ended")), earlier_still_applies=bool(r.get("earlier_still_applies")),
        began=r.get("began") or dt.date.min, depends_on=r.get("depends_on") or "") for r in data["rules"])
    return History(rules, int(data["recent_years"]), int(data["max_notes"]), tuple(data["before_words"]),
                   _group(data.get("change_words") or ()))


def about(rule: Rule, text: str, words: str | None = None) -> bool:
    """Whether the text is about the rule: every word group of one of its cue alternatives is there.
    (`words`: the text already read by `_words`, when the caller asks of several rules.)"""
    words = words or _words(text)
    return any(all(mentions(words, group) for group in alt) for alt in rule.cues)


def stated_in(rule: Rule, answer: str) -> bool:
    """Whether an answer states the rule: every group of its answer cues is there."""
    words = _words(CITED_ADDRESS.sub(" ", answer))
    return all(mentions(words, group) for group in rule.answer_cues)


def gives_todays_figure(rule: Rule, answer: str) -> bool:
    """Whether an answer gives a figure only the rule's latest form has (its $260.72, not the $1,042.86
    an earlier form had too): it states today's rule, whatever words it names it by."""
    if not rule.changes or not rule.answer_cues:
        return False
    *earlier, last = rule.changes
    had = _figures(" ".join([c.before for c in rule.changes] + [c.since for c in earlier]))
    return bool((_figures(last.since) - had) & _figures(CITED_ADDRESS.sub(" ", answer)))


def era_time(rules: tuple[Rule, ...], text: str, words: str | None = None) -> PostTime | None:
    """The time a post is set in from a figure it quotes that only the rule before a change had
    ("a tax credit of $1040"): before the earliest such change."""
    words = words or _words(text)
    quoted = [c for r in rules for c in r.changes if c.era and mentions(words, c.era)]
    if not quoted:
        return None
    first = min(quoted, key=lambda c: c.on)
    return PostTime(dt.date.min, first.on - dt.timedelta(days=1), f"before {day(first.on)}")


# How many words may stand between a word of change and what it changed ("the cut to the member tax credit").
CHANGE_REACH = 3


def names_change(rule: Rule, text: str, change_words: tuple[str, ...], words: str | None = None) -> bool:
    """Whether the text speaks of a change to the rule itself: a word of change next to one of the
    rule's own phrases, before it or just after ("the employer contribution was cut")."""
    if not change_words:
        return False
    words = (words or _words(text)).split()
    changed = {i for i, w in enumerate(words) if w in change_words}
    # (An alternative's first group names the topic, "KiwiSaver": the change is to what follows it.)
    for phrase in {p for alt in rule.cues for g in (alt[1:] or alt) for p in g if not p.isdigit()}:
        size = len(phrase.split())
        for i in range(len(words) - size + 1):
            if " ".join(words[i:i + size]) == phrase and any(
                    i - CHANGE_REACH - 1 <= c < i or i + size <= c <= i + size + 2 for c in changed):
                return True
    return False


def day(d: dt.date) -> str:
    return f"{d.day} {d:%B} {d.year}"


def _dated(rule: Rule, time: PostTime) -> tuple[str, list[Change], tuple[str, ...]] | None:
    """The rule at the post's time and each change since, and the days the note tells beyond the
    changes' own: for a time before (or during) the changes."""
    if time.end < rule.began:
        return None  # no such rule then
    if time.start < rule.began:  # (a post's earliest year may be a birth year)
        words = time.words if time.words.startswith(("before", "until")) or time.end.year == rule.began.year else f"{rule.began.year} to {time.end.year}"
        time = PostTime(rule.began, time.end, words)
    later = [c for c in rule.changes if c.on > time.start]
    if not later:
        return None  # the post's time already had today's rule
    steps = [f"from {day(c.on)}, {c.since}" for c in later]
    if later[0].on > time.end:
        when = time.words[0].upper() + time.words[1:] if time.words.startswith(("before", "until", "since")) else f"In {time.words}"
        lead = f"{when}, {later[0].before}"
        return f"{lead}; {'; '.join(steps)}.", later, ()
    said = "; ".join(steps) + "."
    if not time.dated:
        return said[0].upper() + said[1:], later, ()
    # (A post's dated time runs across a change: the rule until it is the post's too, with its dates.)
    until = day(later[0].on - dt.timedelta(days=1))
    return f"Until {until}, {later[0].before}; {'; '.join(steps)}.", later, (until,)


def _undated(rule: Rule, today: dt.date, recent_years: int) -> tuple[str, list[Change], tuple[str, ...]] | None:
    """Today's rule with its start date, when its change is recent or the scheme named has ended
    (then what it was too, as for a rule whose old form still holds for some)."""
    last = rule.changes[-1]
    if not rule.ended and last.on < today.replace(year=today.year - recent_years):
        return None
    note = f"Since {day(last.on)}, {last.since}."
    if rule.earlier_still_applies or rule.ended:
        note += f" Before then, {last.before}."
    return note, [last], ()


def _figures(text: str) -> set[str]:
    return set(dated_working.WRITTEN_FIGURE.findall(text))


def notes_for(text: str, today: dt.date, answer: str = "") -> list[tuple[str, list[Change], bool]]:
    """(note, the changes it states, whether it opens the answer) for each rule the
    text is about whose change its time needs told; `answer` is the answer's first paragraph (a
    post of unknown time is told a rule's start date only when its answer states the rule)."""
    return [(note, changes, opens) for _, note, changes, opens, _ in _notes(text, today, answer)]


def _notes(text: str, today: dt.date, answer: str) -> list[tuple[Rule, str, list[Change], bool, tuple[str, ...]]]:
    """notes_for's notes, each with its rule and the days it tells beyond its changes' own."""
    h = history()
    words = _words(text)  # (read once: every rule asks of the same text)
    time = read_post_time(text, today, h.before_words) or era_time(h.rules, text, words)
    out = []
    for rule in h.rules:
        if not about(rule, text, words):
            continue
        found = _dated(rule, time) if time is not None else None
        if found is None and time is None and names_change(rule, text, h.change_words, words):
            # A post of unknown time speaking of the change is told each change, with its date.
            first = rule.changes[0].on
            found = _dated(rule, PostTime(dt.date.min, first - dt.timedelta(days=1), f"until {day(first)}"))
            if found is not None:
                out.append((rule, *found[:2], True, found[2]))
                continue
        if found is not None:
            out.append((rule, *found[:2], found[1][0].on > time.end, found[2]))
        elif rule.ended or (time is None and (stated_in(rule, answer) or gives_todays_figure(rule, answer))):
            found = _undated(rule, today, h.recent_years)
            if found is None:
                continue
            since = _figures(found[1][-1].since)
            if since & _figures(answer):
                # The answer gives today's figures already: only when they started is new.
                found = (f"These are the figures since {day(found[1][-1].on)}.", found[1], ())
            out.append((rule, *found[:2], rule.earlier_still_applies or rule.ended, found[2]))
    return out[: h.max_notes]


def _conditioned(lead: str, opening: list[tuple[Rule, list[Change]]]) -> tuple[str, Rule | None]:
    """The answer's lead as today's rule, not the post's, and the rule it was conditioned on: when
    a note opens the answer (the post's time, or when they joined, may come before a change) and the
    lead gives that rule's verdict (a yes or no, with the rule stated) or a figure of a later form of
    it, the yes or no is dropped and it is said to be the rule since the last change ("If you joined
    KiwiSaver on or after 1 July 2019: ...")."""
    for rule, changes in opening:
        later = _figures(" ".join(c.since for c in changes)) - _figures(changes[0].before)
        verdict = bool(opening_verdict(lead)) and stated_in(rule, lead)
        if not rule.answer_cues or not (verdict or later & _figures(lead)):
            continue
        last = rule.changes[-1]
        rest = lead[len(opening_verdict(lead)):]
        when = f"If {rule.depends_on} on or after {day(last.on)}" if rule.depends_on else f"Under the rule since {day(last.on)} (not the one at the time your post speaks of)"
        rest = rest[:1].lower() + rest[1:] if rest[1:2].islower() else rest  # ("NZ Super" stays)
        return f"{when}: {rest}", rule
    return lead, None


def _dated_time(question: str, today: dt.date) -> bool:
    time = read_post_time(question, today, history().before_words)
    return time is not None and time.dated


def _days_told(changes: list[Change], beyond: tuple[str, ...]) -> list[str]:
    """The days a note tells: each change's, and those it gives beyond them (the last day of the rule
    before them, "Until 31 March 2026, ..."): an answer naming them all says the note already."""
    return [day(c.on) for c in changes] + list(beyond)


def attach(result: AskResult, question: str, today: dt.date, rule_years=()) -> AskResult:
    """The answer with the notes its post's time needs, each cited (a change whose date the answer
    already states is left out: the answer says it)."""
    if result.status != "answered" or not result.answer:
        return result
    if result.tax_year in rule_years and result.tax_year < tax_year_for(today) and not _dated_time(question, today):
        # An answer for an earlier year the rules data holds gives that year's figures. (One read from a
        # calendar date, "in March last year", may ask about now: it is told the rule since, with its date.)
        return result
    paragraphs = re.split(r"\n\s*\n", result.answer.strip())
    lead = next((i for i, p in enumerate(paragraphs) if p.strip() and not p.lstrip().startswith("#")), 0)
    found = [(r, n, cs, opens) for r, n, cs, opens, beyond in _notes(question, today, paragraphs[lead])
             if not all(d in result.answer for d in _days_told(cs, beyond))]
    if not found:
        return result
    notes = [(n, cs, opens) for _, n, cs, opens in found]
    paragraphs[lead], condition = _conditioned(paragraphs[lead], [(r, cs) for r, _, cs, opens in found if opens])
    opening_rule = next((r for r, _, _, opens in found if opens), None)
    if opening_rule is not None:
        # (What follows the opening is today's rule: no working of it on the post's figures is theirs.)
        paragraphs[lead + 1:], result.next_actions = dated_working.today_only(
            paragraphs[lead + 1:], question, result.tax_year, day(opening_rule.changes[-1].on), result.next_actions)
    citations = list(result.citations)
    marked = []
    for note, changes, opens in notes:
        marks = ""
        for c in changes:
            urls = [x.url for x in citations]
            if c.source not in urls:
                citations.append(Citation(title=c.title, url=c.source))
                urls.append(c.source)
            mark = cite_mark(urls.index(c.source) + 1, c.source)
            marks += mark if mark not in marks else ""
        marked.append((note + marks, opens))
    opening = " ".join(n for n, opens in marked if opens)
    # (The first note for an earlier time says once that it is the post's time.)
    opening = re.sub(r"^((?:In|Before) [^,]+),", r"\1, the time your post speaks of,", opening)
    if condition is not None and condition.depends_on:
        opening = f"It depends on when {condition.depends_on}. {opening}"
    closing = " ".join(n for n, opens in marked if not opens)
    if closing:
        paragraphs[lead] += f" {closing}"
        after = "the history of the rule " + ", ".join(r.id for r, _, _, opens in found if not opens)
        note_opened(result.trace, "history_after", after, f"noted after the opening {after}")
    body = "\n\n".join(paragraphs)
    result.answer = f"{opening}\n\n{body}" if opening else body
    if opening:  # (what opens the answer now: `nztax ask --explain`)
        history = "the history of the rule " + ", ".join(r.id for r, _, _, opens in found if opens)
        note_opened(result.trace, "history", history, f"opened by {history}", latest=True)
    result.citations = citations
    return result
