"""Which sentence opens a fact answer that no answer unit matched: the intent's lead, or the
retrieved sentence that answers the question asked.

In: the question, the intent's filled lead, the retrieved passages and the year asked. Out:
`Opening` — the lead as it opens (its sentence that answers the question first), or the passage
sentence that answers it better, with its passage (the lead then follows in a paragraph of its own).

An intent's lead answers the intent's central question ("What are the tax rates?"); a question the
classifier puts under the same intent can ask something else ("At what income does the 30% rate
start?", "When is tax to pay due with a tax agent?"). So the lead's sentences and the passages'
sentences are scored together against the question by the same scorer (`passage_sentences.scored_sentences`:
word overlap weighted by rarity, a bonus for the better-ranked passages and for a figure when one is
asked for); the lead's sentences score as the first passage does. The lead opens unless a passage
sentence beats its best sentence by more than `settings.lead_yield` and covers at least
`MIN_SENTENCE_COVERAGE` of the question; when the lead's best sentence is not its first, that
sentence is put first. A lead opening "Yes." or "No." is not reordered (its first sentence answers
the premise). The margin was measured on the development part of the question bank (docs/units.md).
Only a sentence that may open (opening_fit.py: not a worked example, not about another subject
than the question names, and naming the situation the question is about when it names one: a casual
worker, unpaid leave ...) is weighed for first place; when no sentence of the lead may, the best
passage sentence that may and covers enough of the question opens, whatever the margin (one naming the
topic asked too, when the question names a keyword of its intent's: a sentence sharing only the subject
asked of it answers another question of that subject).

A question can ask something of the topic that the lead, written for the topic's central question,
does not say: how the credit is got, what happens after a wrong rate, what a term means
(`opening_fit.aspects_asked`, the aspects in data). Then the lead's sentence that says it comes
first; when none does, the best passage sentence that says it, covers enough of the question and
shares a word with it beyond the intent's topic (its keywords) opens, whatever the margin. Asked
when, the lead opens first with its sentence giving a date or a time in the year (`timing`). Asked
why of a figure the question names, a sentence stating that figure with the condition it holds
under or what it is made of says why (`opening_fit.says_aspect`: "without an IRD number it is 45%").

A question can also ask the topic's rule about another subject than the rule's own: "Does the
bright-line test apply to shares?" names land through the test's own words, but asks about shares.
The subjects it asks about are read on the question without its intent's keywords
(`without_topic`), and a sentence of the lead or a passage about another member of the same group
may not open. A whether- or which-question naming another intent's topic beyond its own ("What PIR
can a transitional resident use?") is opened by a passage sentence naming that topic when the lead
never does (`topics_named`, `topics_asked`). A passage sentence ahead of the lead by the margin
opens a question asking an aspect only when it says it. A figure question naming another topic
("What RWT rate comes off NZ dividends?") asks that topic's figure: a lead that never names it opens
as no answer (`figure_of`).

The lead is about its topic throughout: a topic keyword the question names and the lead never uses
a word of ("ietc" asked of a lead saying "independent earner tax credit") counts as named by each of
the lead's sentences, or a passage sentence sharing only that keyword with the question opens over
a lead that answers.

When the lead opens only because nothing better was found (no sentence of it may, it does not
say the aspect asked, or it never names the topic whose figure is asked), or a passage sentence opens in its place without saying the aspect asked,
`Opening.unanswered` says so, and the answer says it has not found the point before giving the
opening as the topic's (say.fact, composer.NOT_SAID_DIRECTLY): it is no answer to the question, and
must not read as one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable

from nztax.opening_fit import aspects_asked, covers, may_open, other_subject, says_aspect
from nztax.sentences import sentences
from nztax.query_expansion import canonical_terms
from nztax.passage_sentences import GENERIC_WORDS, MIN_SENTENCE_COVERAGE, QUESTION_AMOUNT, passage_candidates, scored_sentences
from nztax.understand import words

YES_NO = re.compile(r"^(?:Yes|No)\.$")
# What a question asks (the frame's `asks`) when another topic it names is what it asks a rule about.
WHETHER_OR_WHICH = frozenset({"yes_no", "check", "which"})
FIGURE = frozenset({"figure"})


@dataclass(frozen=True)
class Opening:
    lead: str               # the lead as it reads in the answer (its best sentence first)
    sentence: str | None    # a passage sentence that opens the answer instead of the lead, or None
    hit: Any = None         # its passage
    score: float = 0.0      # the winner's score and the lead's best, for the trace and the measure
    lead_score: float = 0.0
    coverage: float = 0.0   # the share of the question's words each covers
    lead_coverage: float = 0.0
    unanswered: str = ""    # why the lead opens though it does not answer what is asked, or ""


def lead_sentences(lead: str) -> list[str]:
    """The lead's sentences, a bare "Yes." or "No." kept with the sentence after it."""
    parts = sentences(lead.strip())
    out: list[str] = []
    for part in parts:
        if out and YES_NO.match(out[-1]):
            out[-1] += " " + part
        else:
            out.append(part)
    return out


def asked_beyond_topic(question: str, topic: tuple[str, ...]) -> frozenset[str]:
    """The question's words outside its intent's topic (the intent's keywords, with IRD's terms for
    them) and outside the words every tax text has: what it asks about the topic ("get", "code" in
    "How do I get the IETC — is it through my tax code?")."""
    plain = QUESTION_AMOUNT.sub(" ", question)
    named = words(plain) | words(" ".join(canonical_terms(plain)))
    said = " ".join(topic)
    return frozenset(named - words(said) - words(" ".join(canonical_terms(said))) - GENERIC_WORDS)


def without_topic(question: str, topic: tuple[str, ...]) -> str:
    """The question with its intent's topic phrases taken out: what it asks the topic's rule about.
    ("Does the bright-line test apply to shares?": the test's own words name land; the question
    asks about shares.)"""
    # (A space in a keyword matches a hyphen too: "bright line" is the question's "bright-line".)
    phrases = [r"[\s-]+".join(map(re.escape, t.split())) for t in sorted(topic, key=len, reverse=True) if t.strip()]
    if not phrases:
        return question
    return re.sub(r"\b(?:" + "|".join(phrases) + r")\b", " ", question, flags=re.I)


def topics_named(question: str, topic: tuple[str, ...], others: tuple[str, ...]) -> tuple[str, ...]:
    """The other topics' keywords (`others`) the question names beyond its own intent's (`topic`):
    what it asks the topic's rule about when that is itself a topic ("What PIR can a transitional
    resident use?" asked of the PIR)."""
    asked_of = without_topic(question, topic)
    return tuple(k for k in others if k.strip() and without_topic(asked_of, (k,)) != asked_of)


def topics_asked(decision, intent, asked: str, asks: frozenset[str] = WHETHER_OR_WHICH) -> tuple[str, ...]:
    """Other fact or topic intents' keywords that a question asking one of `asks` (the frame's
    `asks`: by default whether or which) names beyond its own intent's (topics_named). A question
    asking how names other topics as its setting more than as what it asks about; one asking a
    figure names the topic whose figure it asks ("What RWT rate comes off dividends?"), but a
    passage sentence naming that topic answers it no better than the lead (on the bank's
    development part, asked of every question, the two figure questions it changed were answered
    no better): `figure_of` in `choose` only says the lead does not give it."""
    from nztax.understand import default_catalogue

    frame = decision.trace.frame if decision.trace is not None else {}
    if frame.get("asks") not in asks:
        return ()
    others = tuple(k for spec in default_catalogue().intents if spec.does in ("fact", "topic") and spec.name != intent.name
                   for k in spec.keywords)
    return topics_named(asked, intent.keywords, others)


def choose(question: str, lead: str, hits: list, tax_year: str | None, past_year: bool, margin: float,
           question_hits: Callable[[], list] | None = None, situations: frozenset[str] = frozenset(),
           topic: tuple[str, ...] = (), asked_topics: tuple[str, ...] = (), figure_of: tuple[str, ...] = (),
           credit: bool = True) -> Opening:
    """How the fact answer to `question` opens (see the module docstring). `hits` were retrieved
    with the intent's search words; `question_hits()` retrieves for the question's words alone,
    asked only when the lead covers too little of the question (the intent's words pull towards
    the intent's own pages, which its lead already speaks for). `situations`: those the question is
    about (opening_fit.situations_asked); only a sentence naming one may open, so a lead that names
    none gives way to a passage sentence that does, or stays when none does. `topic`: the intent's
    keywords, the words its lead speaks for whatever the question asks of them. `figure_of`: another
    topic whose figure the question asks (topics_asked with FIGURE); a lead that never names it
    gives none of its figures, so opening, it is said not to answer (`unanswered`)."""
    own = lead_sentences(lead)
    if not own:
        return Opening(lead=lead, sentence=None)
    # A subject the question names beyond its topic's own words (shares, asked of the bright-line
    # test) that the lead's subjects exclude: the lead states the rule for another subject.
    asked_of = without_topic(question, topic)
    # Another topic the question asks the rule about (`asked_topics`, topics_named) that the lead
    # never names: the lead is about its own topic alone.
    unnamed = tuple(t for t in asked_topics if not words(t) <= words(lead))

    # The lead is about its topic throughout: a topic keyword the question names and the lead never
    # uses a word of ("ietc" asked, "independent earner tax credit" written) counts as named by each
    # of its sentences. (A keyword the lead uses in part is left to the words it shares.)
    named = " ".join(t for t in topic if t.strip() and without_topic(question, (t,)) != question
                     and not words(t) & words(lead)) if credit else ""
    # (The words of the topic keywords the question names, and IRD's terms for them: what it asks about.)
    said = " ".join(t for t in topic if t.strip() and without_topic(question, (t,)) != question)
    named_topic = (words(said) | words(" ".join(canonical_terms(said)))) - GENERIC_WORDS if said else frozenset()

    def ranked(passages: list) -> list:
        # (The lead's sentences are told from passages by their source: their index in the lead.)
        return scored_sentences(question, [(f"{s} {named}", k, 0) for k, s in enumerate(own)]
                                + passage_candidates(passages, tax_year, past_year))

    def fits(sentence: str, source) -> bool:
        # (A sentence of the lead that names no subject is read by the whole lead's.)
        if isinstance(source, int):
            return (may_open(question, sentence, None, context=lead) and covers(situations, sentence, context=lead)
                    and (asked_of == question or not other_subject(asked_of, sentence, None, context=lead)))
        return (may_open(question, sentence, source) and covers(situations, sentence, source)
                and (asked_of == question or not other_subject(asked_of, sentence, source)))

    def lead_best(scored: list) -> tuple[float, float, str]:
        # (None in the last place: no sentence of the lead may open, for another subject than the question's)
        return next(((score, coverage, own[k]) for score, coverage, _, k in scored if isinstance(k, int) and fits(own[k], k)),
                    (0.0, 0.0, None))

    scored = ranked(hits)
    best_own = lead_best(scored)
    if best_own[1] < MIN_SENTENCE_COVERAGE and question_hits is not None:
        seen = {(h.url, h.section, h.text) for h in hits}
        scored = ranked([h for h in question_hits() if (h.url, h.section, h.text) not in seen] + hits)
        best_own = lead_best(scored)
    best_passage = next(((score, coverage, s, source) for score, coverage, s, source in scored
                         if not isinstance(source, int) and fits(s, source)), None)
    lead_fits = best_own[2] is not None
    if not lead_fits and named_topic:
        # The lead states its rule for another subject than the question's (FIF rules, asked of a
        # KiwiSaver fund): a passage sentence opens in its place only when it speaks of the topic the
        # question asks about as well, not of the subject alone (a KiwiSaver sentence on gross pay).
        best_passage = next(((score, coverage, s, source) for score, coverage, s, source in scored
                             if not isinstance(source, int) and words(s) & named_topic and fits(s, source)), None)
    aspects = aspects_asked(question)
    if aspects and lead_fits:
        # (The lead's sentences that share a word with the question, best first.)
        order = [k for _, _, _, k in scored if isinstance(k, int)]
        saying = [k for k in order if fits(own[k], k) and says_aspect(question, own[k], aspects)]
        if saying:
            # The lead's sentence that says what is asked comes first; the lead keeps its best score.
            best_own = (best_own[0], best_own[1], own[saying[0]])
        else:
            # The lead speaks for the topic but not to what is asked of it: a passage sentence that
            # does, on something the question names beyond the intent's topic, opens whatever the margin.
            beyond = asked_beyond_topic(question, topic)
            speaking = next(((score, coverage, s, source) for score, coverage, s, source in scored
                             if not isinstance(source, int) and coverage >= MIN_SENTENCE_COVERAGE
                             and says_aspect(question, s, aspects) and words(s) & beyond and fits(s, source)), None)
            if speaking is not None:
                best_passage, lead_fits = speaking, False
    if unnamed and lead_fits:
        # A passage sentence naming that topic and covering enough of the question opens whatever the margin.
        naming = next(((score, coverage, s, source) for score, coverage, s, source in scored
                       if not isinstance(source, int) and coverage >= MIN_SENTENCE_COVERAGE
                       and any(words(t) <= words(s) for t in unnamed) and fits(s, source)), None)
        if naming is not None:
            best_passage, lead_fits = naming, False
    # (A lead about the term a "what is" question names says what it is in its own words: a
    # definition unsaid is not counted.)
    unsaid = aspects - {"definition"}
    # Winning on the margin alone, a passage sentence must say the aspect asked: one that does not
    # ("These rates apply for the whole year" to why a rate shows) answers another question.
    if (best_passage is not None and best_passage[1] >= MIN_SENTENCE_COVERAGE
            and (not lead_fits or (best_passage[0] > best_own[0] + margin
                                   and (not unsaid or says_aspect(question, best_passage[2], unsaid))))):
        return Opening(lead=lead, sentence=best_passage[2], hit=best_passage[3], score=round(best_passage[0], 4),
                       lead_score=round(best_own[0], 4), coverage=round(best_passage[1], 4),
                       lead_coverage=round(best_own[1], 4),
                       unanswered="aspect" if unsaid and not says_aspect(question, best_passage[2], unsaid) else "")
    first = best_own[2] or own[0]
    if first != own[0] and not YES_NO.match(own[0].split(" ", 1)[0]):
        lead = " ".join([first] + [s for s in own if s != first])
    unanswered = ("off_question" if best_own[2] is None else
                  "aspect" if unsaid and not any(says_aspect(question, s, unsaid) for s in own) else
                  "topic" if any(not words(t) <= words(lead) for t in figure_of) else "")
    if (named and not unanswered and asked_beyond_topic(question, topic)
            and not (aspects and any(says_aspect(question, s, aspects) for s in own))):
        # The credit says which sentence speaks for the topic, not that what the question asks of it
        # beyond its name was found: when, without it, the best that opens would have been no answer
        # (nothing of the lead sharing a word with the question, or a passage sentence not saying the
        # aspect asked), the lead opens saying so. (A question naming only the topic is answered by it,
        # and one asking an aspect the lead says: "How long is the bright line?")
        unanswered = choose(question, lead, hits, tax_year, past_year, margin, question_hits, situations, topic,
                            asked_topics, figure_of, credit=False).unanswered
    return Opening(lead=lead, sentence=None, score=round(best_own[0], 4), lead_score=round(best_own[0], 4),
                   coverage=round(best_own[1], 4), lead_coverage=round(best_own[1], 4), unanswered=unanswered)
