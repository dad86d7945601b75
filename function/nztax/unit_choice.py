"""Which answer unit the Ask box serves a question it matched no stored page for, if any.

In: the engine (its unit matcher, the kinds of answer units give, the retriever's query embedder,
the rules), the settled decision, the question's frame, its vector and whether nothing in the
reading understood it. Out: `choose(...)` -> (the unit or None, the decision, re-aimed at the
asking sentence the unit was matched on when it was matched on one).

The question is scored against the units once. A question of one sentence is then ranked by the
learned score (unit_rank.py, weights fitted at build): its first unit, far enough ahead, answers; a
unit the bars below serve gives way when the learned score ranks another first. Against an engine answer that would be a topic's
stock lead or its best retrieved sentence (a fact or topic decision with no sum, and not figures
asked of a topic whose rules table the engine shows), a unit clear of every other by a smaller
margin at a lower score answers, unless its lead is a verdict and the question asks something else
(`near`: settings.unit_near_score, unit_near_margin; unit_kind.answers_near; docs/units.md).
A unit may answer only when its kind of answer fits
what the question asks (unit_kind.py: a yes-or-no unit is no answer to a question asking for a
figure, nor the reverse); the margin is over the units that fit, so the next one that fits, or the
engine's own answer, opens instead. A unit whose lead opens on another subject than the question
names (opening_fit.py: shares for a question on crypto-assets) is not served, and neither is the
next: the question stood nearest a unit on another subject, and the engine answers. A unit whose
rule does not hold at the age the question states (applies.py) gives way to the unit with the rule
for that age, or to the best match among the units that hold for it, from the same scores. A post of
several sentences that matched nothing whole is read by its asking sentences
(`UnitMatcher.match_asked`), each held to what it asks (one whose words ask but which the frame reads
under the unsure bar only for the unit it and the whole post agree on); a post of two sentences only when its asking
sentence and the whole post are nearest the same unit; never a unit about another subject of a group
the post names (shares against land, an employee against the self-employed). A question about a
payment an employer makes (payment_frame.py) that matched nothing, or whose asking sentence matched
a unit not stating the rule for that payment, gets the unit whose own question names the same kind
and asks the same thing about it; none when its asking sentences ask something else of the payment in
words of their own, and no unit stating the rule for only some of the payments asked about. A story
still unmatched that sets out its own understanding of a rule and asks only whether it holds (or asks
to be corrected on it) gets the verdict unit on that rule (belief.py). One still
unmatched, whose asking sentences may name nothing ("Is that right?"), gets the unit its whole
post is nearest both in meaning and in the words that name a topic (`UnitMatcher.match_topic`),
when the two readings agree. One still unmatched gets the unit its asking sentences rank first below
the bars when retrieval over the corpus alone ranks that unit's page first (unit_agree.py). No route serves a unit whose own question names a situation the post
does not name (retiring overseas, to a post on retiring), and a post checking a belief of its own gets
the unit's rule without the "Yes."/"No." that answers the unit's own question (belief.answers_the_belief).
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

from nztax import applies, belief, opening_fit, payment_frame, story_gate, unit_agree, unit_rank
from nztax.amount_conditions import first_contradicted
from nztax.lead_choice import lead_sentences
from nztax.units import asks_yes_or_no, fill, placeholders, unit_values
from nztax.decision_table import decline_backed
from nztax.opening_fit import lead_on_subject
from nztax.sentences import asks_in_words, sentences
from nztax.short_query import typed_as_search
from nztax.slots import read_slots, reading, without_denied
from nztax.unit_match import AskingSentence, UnitMatch

# The engine's own answers that are a topic's lead or a retrieved sentence, not a sum (`choose`).
ENGINE_GUESSES = frozenset({"fact", "topic"})
# What a question asks (the frame's `asks`) that a rules table answers: a figure, or which row.
TABLE_ASKS = frozenset({"figure", "which"})


def on_subject(unit, question: str) -> bool:
    """Whether the unit's lead opens on the subject `question` names (opening_fit.py: a unit on
    shares is no answer to a question on crypto-assets, one for the self-employed none to an employee's)."""
    return lead_on_subject(question, unit.lead or "", unit.question)


def asking_sentences(engine, frame, texts, read: bool = True) -> list[AskingSentence]:
    """The sentences `texts` of a post as the matcher reads them, each with what the frame reads it
    as asking (`read`: with the engine's reading of its figures and conditions)."""
    each = dict(zip(frame.asking, zip(frame.asks_each, frame.asks_each_sure or (1.0,) * len(frame.asks_each))))
    # (A sentence leaning on its story is matched as the frame reads it: with the post's opening, leaning.py.)
    read_as = {s: frame.read_as(s) for s in texts} if read else {s: s for s in texts}
    return [AskingSentence(s, engine.retriever.embed_query(without_denied(read_as[s])),
                           reading(read_slots(read_as[s], engine.rules)) if read else None, *each.get(s, (None, 0.0)),
                           read_as=read_as[s] if read_as[s] != s else None)
            for s in texts]


def _sentences_for_units(frame, settings, calculates: bool = False) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A post's asking sentences a unit may answer on their own (`frame.asking_for_units`), and those
    that may answer only the unit they and the whole post are both nearest: a sentence read less than
    surely (at least `asked_unit_unsure_bar`), whose words may not ask what they suggest, and one asking
    a figure of the poster's own money, which no general lead gives, but whose rule the unit the story
    points at may state. None when the engine works out the stated figures (`calculates`: its decision
    has calculator calls): only a sentence read surely takes the opening from that. Otherwise a post's
    only question is among the first, however unsurely read (`only_question`)."""
    sure = frame.asking_for_units(settings.frame_bar)
    sure = sure if calculates else tuple(dict.fromkeys(sure + only_question(frame)))
    read = frame.asks_each_sure or (1.0,) * len(frame.asks_each)
    agreeing = tuple(s for s, p in zip(frame.asking, read)
                     if s not in sure and p >= min(settings.asked_unit_unsure_bar, settings.frame_bar))
    return sure, (() if calculates else agreeing)


def asking_unsurely(frame, settings, calculates: bool = False, read=None) -> tuple[str, ...]:
    """A post's sentences whose words ask (a question mark, a question's opening: sentences.asks_in_words)
    that the frame reads less sure than `asked_unit_unsure_bar` (`asked_unit_unsure_agree`): that sureness
    says which kind of answer a sentence wants, not whether it asks, and a reworded post often asks its
    question in words the kind reading is unsure of. Such a sentence serves only the unit it and the
    whole post are both nearest (`UnitMatcher.match_asked`'s agreement), and no other route reads it.
    None when the engine works out the stated figures. `read`: `_sentences_for_units`' answer, when known."""
    if not settings.asked_unit_unsure_agree or calculates:
        return ()
    sure, agreeing = read if read is not None else _sentences_for_units(frame, settings)
    return tuple(s for s in frame.asking if s not in sure and s not in agreeing and asks_in_words(s))


def only_question(frame) -> tuple[str, ...]:
    """A post's one sentence that asks in words (sentences.asks_in_words), when it is the only one
    and asks nothing of the poster's own figures: the post's question, however unsurely the frame
    reads which kind of answer it wants (that sureness says what it asks, not whether it asks; a
    unit of a kind that does not fit is still kept out, unit_kind.py). As a one-line question it
    would be matched whole; a story of background around it must not hold it to the agreement of
    two readings a sentence read unsurely needs."""
    if len(frame.asking) != 1 or not asks_in_words(frame.asking[0]) or frame.asks_own_figure(frame.asks_each[0]):
        return ()
    return frame.asking


def in_scope_surely(decision, frame, settings) -> bool:
    """Whether the learned scope reading is sure (`frame_scope_bar`) a declined post is New Zealand
    personal tax, and does not back the decline's subject as the likeliest other (a company's
    provisional tax, another country's return): the words that carried the intent reading to the
    decline are then not what the post is about."""
    return (frame.scope_in is not None and frame.scope_in >= settings.frame_scope_bar
            and not decline_backed(decision, frame))


def asks_back_only_for_figures(decision, frame) -> bool:
    """Whether a story the engine would ask back about wants only the figures of a sum of the poster's
    own, none given ("What should I put aside for the tax bill?"): a unit stating the rule that sum follows
    answers it better than a request for figures it may not have. (Asking back for an income or a tax
    year stands: the answer turns on it.)"""
    return decision.action == "clarify" and decision.missing == ["details"] and frame is not None and frame.story


def _fits_sentence(engine, decision):
    """Whether a unit may answer a post's sentence: its kind of answer (unit_kind.py), and not a unit
    naming another subject of a group the post names (shares for a post about a house), however near
    the sentence's words (one asking about "the gain" alone)."""
    sentence_turns = {}  # (each sentence is checked against every candidate unit: its turns read once)

    def fits(u, s) -> bool:
        if s.text not in sentence_turns:
            sentence_turns[s.text] = opening_fit.turns(s.text)
        return (engine.unit_kinds.fits(u, s.asks, s.asks_sure, s.text)
                and not opening_fit.other_subject(decision.question, u.question, None)
                and not opening_fit.turned_other_way(s.text, u.question, sentence_turns[s.text]))
    return fits


def _situation_unit(engine, decision, frame, vector, found=None):
    """A question naming a situation (opening_fit.situations_named: a casual worker, unpaid leave, a
    savings suspension ...) that no unit matched, or only a unit whose question does not name it: the
    unit among those whose question names it that the asking sentences and the whole post are nearest
    (`UnitMatcher.match_situation`). The asking sentences name the situation, or, when they only
    refer back to the asker (someone like me), the story does."""
    asking = frame.asking or (decision.question,)
    named = opening_fit.situations_asked(asking, decision.question)
    if found is not None:
        covered = engine.unit_matcher.situations_of(found.unit)
    else:
        # (The engine's own answer would open with the intent's lead: one naming the situation covers it.)
        covered = opening_fit.situations_named(getattr(decision.intent, "lead", None) or "")
    if not named or covered & named:
        return None
    matcher = engine.unit_matcher
    # (A one-line question was already matched whole against every unit's paraphrases; only a unit for
    # its situation far ahead of the others' for it is let through now: at the single margin, short
    # searches were served a twin - "early savings suspension hardship" the one on changing jobs.)
    several = len(sentences(decision.question)) > 1
    return matcher.match_situation(asking_sentences(engine, frame, asking, read=False), vector,
                                   _turned_alike(matcher, matcher.naming(named), " ".join(asking)),
                                   allowed=_fits_sentence(engine, decision),
                                   margin=engine.settings.asked_unit_margin * (1 if several else 2),
                                   agreed_margin=engine.settings.asked_situation_agreed_margin if several else None)


def _turned_alike(matcher, candidates: list[int], asking: str) -> list[int]:
    """The candidates for a situation the asking sentences turn one way (opening_fit.turns: ending a
    savings suspension, not applying for one): those whose question turns it the same way when any
    does, never one turning it only the other way."""
    asked = opening_fit.turns(asking)
    if not asked:
        return candidates
    kept = [u for u in candidates if not opening_fit.turned_other_way(asking, matcher.units[u].question)]
    alike = [u for u in kept if any(opening_fit.turns(matcher.units[u].question).get(s, frozenset()) & ways
                                    for s, ways in asked.items())]
    return alike or kept


def against_stock_answer(decision, asks: str | None) -> bool:
    """Whether the engine's own answer would be a topic's stock lead or its best retrieved sentence,
    often for a neighbouring question of the topic, so a unit clear of the others answers at a
    lower score than it must reach against a sum (`UnitMatcher.match`'s `near`). Not for a figure
    or a row asked of a topic whose rules table the engine shows (the ESCT bands, which rate the SH
    code takes): the table has it, a unit's lead less."""
    return (decision.action in ENGINE_GUESSES and not decision.calls and not decision.rule_results
            and not (asks in TABLE_ASKS and shows_table(decision.intent)))


def near_margin(decision, settings) -> float:
    """The lead over every other unit a unit needs against the engine's stock answer: wider for a
    search typed as a few words ("donation rebate nz"), which asks its topic's central question (the
    stock lead's) as often as a unit's, so only a unit far clear of its neighbours answers it."""
    return settings.unit_search_margin if typed_as_search(decision.asked) else settings.unit_near_margin


def shows_table(intent) -> bool:
    """Whether the intent's answer shows a rules table (its `show`: the year's rates, codes or bands)."""
    return intent is not None and any(t in intent.show for t in intent.topics)


def _asked_kind(frame) -> tuple[str | None, float]:
    return (frame.asks, frame.asks_sure) if frame is not None else (None, 0.0)


def asked_unit(engine, decision, frame, vector, declined: bool) -> tuple[UnitMatch | None, list[AskingSentence]]:
    """The unit a post's asking sentences read as (`UnitMatcher.match_asked`, or the learned gate in its
    place), and the asking sentences the later routes read (not those read only for agreement because
    the frame reads them under the unsure bar: `asking_unsurely`)."""
    found, matcher = None, engine.unit_matcher
    alone, agreeing = _sentences_for_units(frame, engine.settings, calculates=bool(decision.calls))
    asking = asking_sentences(engine, frame, alone + agreeing)
    # (Sentences that ask in words but read unsurely: agreement only, and declined posts never.)
    unsure = () if declined else asking_unsurely(frame, engine.settings, calculates=bool(decision.calls),
                                                 read=(alone, agreeing))
    replaced = engine.settings.story_gate == "replace" and not declined
    if asking and replaced:
        # The learned gate in place of the hand bars (story_gate.py), over every asking sentence.
        found, note = story_gate.gate(engine, decision, frame, vector, engine.settings.story_gate_bar)
        if note and decision.trace is not None:
            decision.trace.notes.append(note)
    elif asking or (unsure and not replaced):  # (the learned gate reads only the sentences it always read)
        found = matcher.match_asked(asking + asking_sentences(engine, frame, unsure), vector, story=frame.story,
                                    allowed=_fits_sentence(engine, decision),
                                    agreeing_only=frozenset(() if declined else agreeing + unsure), declined=declined)
        found = _in_named_situation(found, decision.question)
        if found is not None and declined and decision.trace is not None:
            decision.trace.notes.append(f"decline lifted: the asking sentence reads as the unit {found.unit.id}")
    return found, asking


def choose(engine, decision, frame, vector, unread: bool):
    matcher, kinds = engine.unit_matcher, engine.unit_kinds
    asks, sure = _asked_kind(frame)
    question = without_denied(decision.question)
    scores = matcher.scores(question, vector, reading(decision.slots))

    def fits(unit) -> bool:
        return kinds.fits(unit, asks, sure, decision.question)

    # The lower bar not for a verdict to a question read as asking something else (unit_kind.answers_near),
    # at the sureness an asking sentence's reading needs to count for a unit.
    near = clear = None
    if against_stock_answer(decision, asks):
        bar, clear = engine.settings.asked_unit_unsure_bar, near_margin(decision, engine.settings)
        near = lambda unit: kinds.answers_near(unit, asks, sure, bar)  # noqa: E731
    found = matcher.match(question, vector, reading(decision.slots), declined=decision.action == "decline",
                          unread=unread, allowed=fits, scores=scores, near=near, near_margin=clear)
    if not unread and decision.action != "decline" and (
            len(sentences(decision.question)) == 1 or not engine.settings.unit_rank_one_sentence):
        # The learned ranking score (unit_rank.py) over the same scores: it serves its first unit when
        # far ahead, and keeps back a unit the current bars serve when it ranks another first.
        found, note = unit_rank.rerank(matcher, question, vector, scores, fits, found, engine.settings)
        if note and decision.trace is not None:
            decision.trace.notes.append(note)
    # (A unit for a situation the post does not name is set aside, not replaced by the next one:
    # the other routes read the post.)
    found = _in_named_situation(found, decision.question)
    several = frame is not None and (frame.story or len(sentences(decision.question)) > 1)
    declined = decision.action == "decline"
    asking: list[AskingSentence] = []
    if found is None and not decision.used_history and several and (not declined or in_scope_surely(decision, frame, engine.settings)):
        # A post's asking sentences, each a question of its own. A post the engine declines only when
        # the scope reading is sure it is New Zealand personal tax, and at a stricter unit score
        # (`asked_unit_over_decline`), which then holds every sentence read as asking at all: otherwise
        # its asking sentence may be a tax question's words while the post is about another subject.
        # (A post of two sentences is often a condition and a question whose answer it decides, so
        # its asking sentence serves a unit only when the whole post is nearest the same unit.)
        found, asking = asked_unit(engine, decision, frame, vector, declined)
    if found is not None and frame is not None and (why := _states_only_part(found.unit, frame, decision)):
        # A rule for one of the payments asked about is no answer for the others; the engine answers.
        if decision.trace is not None:
            decision.trace.notes.append(f"unit {found.unit.id} held back: {why}")
        found = None
    if (found is None or found.sentence) and not decision.used_history and frame is not None and decision.action != "decline":
        # A payment from an employer, named but asked about in the story's own words: the unit whose
        # question names the same kind of payment and asks the same thing about it (payment_frame.py),
        # also in place of a unit an asking sentence is nearest that does not state that rule.
        found = _payment_unit(engine, decision, frame, vector, fits, found) or found
    if not decision.used_history and decision.action != "decline" and frame is not None:
        # A question naming a situation (a casual worker, unpaid leave ...) is answered by a unit for
        # that situation: one whose question names it, in place of a general unit that does not.
        found = _situation_unit(engine, decision, frame, vector, found) or found
    if (found is None and frame is not None and frame.story and not decision.used_history
            and decision.action != "decline" and not decision.calls):
        # A story none of whose sentences matched: the unit its whole post is about, when meaning and
        # the words naming a topic agree (UnitMatcher.match_topic); never over the engine's own sums.
        # (First the rule the story sets out as its own understanding, when it asks only whether it holds.)
        found = _belief_unit(engine, decision, frame, vector) or matcher.match_topic(
            decision.question, vector,
            allowed=lambda u: fits(u) and not opening_fit.other_subject(decision.question, u.question, None))
    if found is None and asking and against_stock_answer(decision, asks):
        # Still none: the unit the asking sentences rank first below the bars, when retrieval over the
        # corpus alone ranks its page first too (unit_agree.py: two readings from different data agree);
        # only against the engine's stock lead or retrieved sentence, never its sums or a decline. Below
        # the bars, a lead stating figures is not served: they would be told as the poster's, whose year
        # or situation the post may set apart from the figures' dates.
        year = decision.tax_year if decision.tax_year in engine.rules.years else None
        found, note = unit_agree.retrieval_agrees(matcher, engine.retriever, decision.question, vector, asking,
                                                  engine.settings, year, _fits_sentence(engine, decision))
        if found is not None and placeholders(found.unit.lead):
            found, note = None, f"{note}; held back: its lead states figures"
        if note and decision.trace is not None:
            decision.trace.notes.append(note)
    if found is None and asking and engine.settings.story_gate == "extra" and against_stock_answer(decision, asks):
        # Still none: the learned gate over the units the routes considered (story_gate.py), below the
        # bars, so a lead stating figures is held back as retrieval's agreement holds it.
        found, note = story_gate.gate(engine, decision, frame, vector, engine.settings.story_gate_bar)
        if found is not None and placeholders(found.unit.lead):
            found, note = None, f"{note}; held back: its lead states figures"
        elif found is not None and (why := _states_only_part(found.unit, frame, decision)):
            found, note = None, f"{note}; held back: {why}"
        if note and decision.trace is not None:
            decision.trace.notes.append(note)
    if found is not None and (not on_subject(found.unit, found.sentence or decision.question)
                              or not in_named_situation(found.unit, decision.question)):
        # Nearest to a unit on another subject (or for a situation) than the question names: no unit stands near enough
        # (the next one is not let through, as a unit of another kind would be), the engine answers.
        found = None
    if found is not None and (why := lead_contradicted(engine, decision, found.unit)):
        # Its lead opens on a condition the post's own figures lie outside (amount_conditions.py: "cost
        # $50,000 or less" to a post whose cost is above it): not the poster's situation, the engine answers.
        if decision.trace is not None:
            decision.trace.notes.append(f"unit {found.unit.id} held back: {why}")
        found = None
    unit = found.unit if found is not None else None
    if found is not None and found.sentence:
        # Its lead opens as the answer to the sentence it was matched on ("Yes." to a yes-or-no one).
        decision = replace(decision, asked=found.sentence)
    ages, year_rules = (frame.ages if frame is not None else ()), engine.rules.years.get(decision.tax_year)
    situations = applies.situations_in(frame.asking, question) if frame is not None else frozenset()
    if unit is not None and (ages or situations) and not applies.allowed(unit, ages, year_rules, situations):
        # Its rule does not hold at the age the question states (or in the situation it puts the asker
        # in): the unit with the rule for that age or situation, or the best match among units that
        # hold (and fit what is asked).
        unit = applies.instead(unit.lead, ages, year_rules, matcher.by_id, unit.applies_when, situations) or getattr(
            matcher.match(question, vector, reading(decision.slots), unread=unread, scores=scores,
                          allowed=lambda u: applies.allowed(u, ages, year_rules, situations) and fits(u)), "unit", None)
    if unit is not None and frame is not None:
        said = belief.checked(decision.question, frame.asking, frame.asks_each)
        if said is not None and belief.answers_the_belief(found.sentence if found is not None else None, said):
            # Whatever route served it, its verdict answers its own question, not the poster's claim.
            unit = belief.without_verdict(unit)
    if unit is not None and frame is not None and not _answers_taxed_more(unit, frame, decision):
        # The post holds the belief that a payment is taxed more: a "Yes."/"No." answers that only from
        # a unit holding it too, to a sentence asking it ("Is commission taxed more?" is not answered
        # "Yes." by the unit on whether commission goes through PAYE; "Is it worth it?" not "No.").
        unit = belief.without_verdict(unit)
    return unit, decision


def lead_contradicted(engine, decision, unit) -> str:
    """Why the unit's opening sentence, filled for the year asked, sets a condition the post's figures lie
    outside (amount_conditions.py), or ""."""
    year_rules = engine.rules.years.get(decision.tax_year)
    lead = fill(unit.lead or "", unit_values(year_rules)) if year_rules is not None else None
    return first_contradicted(decision.question, (lead_sentences(lead or "") or [""])[0])


def in_named_situation(unit, post: str) -> bool:
    """Whether the post names every situation the unit's own question names (opening_fit.situations_named:
    retiring overseas, a casual worker, unpaid leave ...): a unit for a situation the post does not
    name answers another question, however near its words."""
    return situations_of_question(unit.question) <= opening_fit.situations_named(post)


def _in_named_situation(found, post: str):
    return found if found is None or in_named_situation(found.unit, post) else None


@lru_cache(maxsize=4096)
def situations_of_question(question: str) -> frozenset[str]:
    return opening_fit.situations_named(question)


def _belief_unit(engine, decision, frame, vector) -> UnitMatch | None:
    """The unit confirming or correcting the rule a story sets out as the poster's own understanding
    (belief.py), matched on that belief and the whole post; the belief is what its answer opens on.
    Only when the post asks nothing but whether (or why) its belief holds: a verdict is no answer to
    "How do I find out ...?" however the story began."""
    said = belief.checked(decision.question, frame.asking, frame.asks_each)
    if said is None:
        return None
    unit = belief.unit_for(engine.unit_matcher, engine.retriever.embed_query(said), vector, engine.settings,
                           allowed=lambda u: not opening_fit.other_subject(decision.question, u.question, None),
                           eligible=lambda u: in_named_situation(u, decision.question))
    return UnitMatch(unit, 0.0, 0.0, sentence=said) if unit is not None else None


def _payment_unit(engine, decision, frame, vector, fits, found=None):
    """The unit stating the rule for the employer payment a question asks about (payment_frame.py),
    matched on the asking sentences (not those asking a figure of the poster's own money when the
    engine works one out: that is a sum; without one the payment's rule is the answer it has), the
    whole post choosing among equals."""
    own_money = bool(decision.calls) and any(a.owner == "me" and a.period is not None for a in frame.amounts)
    asking = [s for s, asks in zip(frame.asking, frame.asks_each) if not (own_money and asks in ("figure", "check"))]
    if frame.asking and not asking:
        return None
    asked = payment_frame.asked_in_post(asking, decision.question)
    if asked is None or not asked.kinds or (found is not None and payment_frame.states_rule(found.unit, asked)):
        return None
    matcher = engine.unit_matcher
    best = payment_frame.payment_unit(matcher.units, asked, matcher.post_cosines(vector), allowed=lambda u: fits(u)
                                      and not opening_fit.other_subject(decision.question, u.question, None))
    if best is None or (found is not None and payment_frame.states_rule(found.unit, asked, belief=False)
                        and not payment_frame.holds_the_belief(matcher.units[best], asked)):
        # (No unit answers the belief that it is taxed more: the sentence's own unit on its tax stands.)
        return None
    naming = [s for s in asking if payment_frame.kinds_named(s)] or [s for s in asking if payment_frame.names_asked(s)]
    if asking and not naming and any(payment_frame.asks_of_its_own(s) for s in asking):
        # Its asking sentences ask something else of the payment the post's opening names, in words of
        # their own (whether it changes an entitlement): the payment's tax rule answers none of them.
        return None
    if asking and not naming:
        # They name nothing ("Can you help?"): the post's opening says what is asked, the payment's
        # rule answers it, and its verdict answers none of the sentences.
        sentence = " ".join(sentences(decision.question)[:2])
    else:
        sentence = (naming or asking or [None])[0]
    return UnitMatch(matcher.units[best], 0.0, 0.0, sentence=sentence if sentence != decision.question else None)


def _states_only_part(unit, frame, decision) -> str:
    """Why the unit states the rule for only some of the payments the post asks about, or ""."""
    asked = payment_frame.asked_in_post(frame.asking, decision.question)
    if asked is None or not payment_frame.states_only_part(unit, asked):
        return ""
    return f"it states the rule for only some of the payments asked about ({', '.join(sorted(asked.kinds))})"


def _answers_taxed_more(unit, frame, decision) -> bool:
    """Whether the unit's verdict may stand for a post holding the belief that a payment is taxed more
    (payment_frame.TAXED_MORE; true for any other post): the unit holds that belief too and the
    sentence it answers asks it, yes or no. To a complaint, a "why" or "is it worth it?" its "No."
    would read as answering them ("No, not worth it"); the rule stands without it."""
    asked = payment_frame.asked_in_post(frame.asking, decision.question)
    if asked is None or payment_frame.TAXED_MORE not in asked.asked:
        return True
    sentence = decision.asked or decision.question
    return (payment_frame.holds_the_belief(unit, asked) and payment_frame.says_taxed_more(sentence)
            and (asks_yes_or_no(sentence) or frame.reads_yes_or_no(sentence)))

