"""A story's unit below the asking-sentence bars is served only when retrieval over the corpus alone
ranks the unit's page first too (unit_agree.py): both readings must agree, each at its bar, and the
corpus reading leaves the units' own page vote out; a declined post never reaches it."""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace

from nztax import unit_agree
from nztax.settings import get_settings
from nztax.unit_match import AskingSentence

SETTINGS = dataclasses.replace(get_settings(), unit_retrieval_pages=1, unit_retrieval_score=0.35,
                               unit_retrieval_margin=0.03, asked_unit_post_least=0.6)
PAGE, OTHER = "https://www.ird.govt.nz/a-page", "https://www.ird.govt.nz/another-page"
UNITS = [SimpleNamespace(id="topic/asked", source=SimpleNamespace(url=PAGE)),
         SimpleNamespace(id="topic/neighbour", source=SimpleNamespace(url=OTHER)),
         SimpleNamespace(id="topic/twin", source=SimpleNamespace(url=PAGE))]
ASKING = [AskingSentence("Is it the same for me?", None, None)]


class Matcher:
    """The asking sentences' ranking as `UnitMatcher.asked_ranking` gives it: (sum, sentence score)."""

    def __init__(self, best=(1.3, 0.6), runner=1.2, post=0.7, runner_unit=1):
        self.units = UNITS
        self._ranked = [(0, (best[0], best[1], ASKING[0].text, 0.75)), (runner_unit, (runner, 0.5, ASKING[0].text, 0.75))]
        self._post = {0: post, 1: 0.6}

    def asked_ranking(self, asking, vector, allowed=None):
        return self._ranked, self._post, {0}


class Retriever:
    """Hits in the order given; records how it was asked."""

    def __init__(self, *urls):
        self.urls, self.asked = urls, []

    def search(self, query, k, mode, tax_year=None, query_vector=None, unit_vote=True):
        self.asked.append({"mode": mode, "unit_vote": unit_vote})
        return [SimpleNamespace(url=u) for u in self.urls][:k]


def agrees(matcher, retriever, settings=SETTINGS):
    return unit_agree.retrieval_agrees(matcher, retriever, "A story. Is it the same for me?", None, ASKING, settings)


def test_a_unit_is_served_when_retrieval_ranks_its_page_first():
    found, note = agrees(Matcher(), Retriever(PAGE, OTHER))
    assert found is not None and found.unit.id == "topic/asked" and found.sentence == ASKING[0].text
    assert note == f"served: retrieval agrees, page {PAGE} ranked 1 (sentence 0.600, 0.100 ahead of topic/neighbour)"


def test_the_corpus_reading_leaves_the_units_page_vote_out():
    retriever = Retriever(PAGE)
    agrees(Matcher(), retriever)
    assert retriever.asked == [{"mode": "hybrid", "unit_vote": False}]


def test_not_when_its_page_ranks_below_the_pages_counted():
    assert agrees(Matcher(), Retriever(OTHER, PAGE)) == (None, "")
    wider = dataclasses.replace(SETTINGS, unit_retrieval_pages=2)
    assert "ranked 2 " in agrees(Matcher(), Retriever(OTHER, PAGE), wider)[1]


def test_not_when_retrieval_finds_nothing():
    assert agrees(Matcher(), Retriever()) == (None, "")


def test_not_under_its_own_bars_however_retrieval_agrees():
    assert agrees(Matcher(best=(1.22, 0.6), runner=1.2), Retriever(PAGE))[0] is None  # lead under the margin
    assert agrees(Matcher(best=(1.3, 0.3)), Retriever(PAGE))[0] is None  # the sentence under its score
    assert agrees(Matcher(post=0.5), Retriever(PAGE))[0] is None  # the story far from the unit


def test_over_a_unit_citing_the_same_page_the_asking_sentences_own_margin_holds():
    """Retrieval tells pages apart, not the units of one page: a twin 0.05 behind keeps the unit back
    (`asked_unit_margin` 0.1); the same lead over a unit of another page is enough."""
    assert agrees(Matcher(best=(1.3, 0.6), runner=1.25, runner_unit=2), Retriever(PAGE))[0] is None
    assert agrees(Matcher(best=(1.3, 0.6), runner=1.25, runner_unit=1), Retriever(PAGE))[0] is not None
    assert agrees(Matcher(best=(1.3, 0.6), runner=1.15, runner_unit=2), Retriever(PAGE))[0] is not None


def test_off_at_zero_pages_without_searching():
    retriever = Retriever(PAGE)
    assert agrees(Matcher(), retriever, dataclasses.replace(SETTINGS, unit_retrieval_pages=0)) == (None, "")
    assert retriever.asked == []


def test_a_declined_story_never_asks_retrieval(engine, monkeypatch):
    """The route is not over a decline: a story the engine turns away as another country's tax."""
    called = []
    monkeypatch.setattr(unit_agree, "retrieval_agrees", lambda *a, **k: called.append(a) or (None, ""))
    result = engine.answer("I moved to Sydney last year and work for an Australian company. My employer takes "
                           "Australian tax out of my pay. How do I lodge my Australian tax return with the ATO?")
    assert result.status == "out_of_scope"
    assert called == []


def test_a_figure_the_engine_works_out_is_not_given_up_for_a_unit(engine):
    """Only against the engine's stock lead or retrieved sentence: a two-sentence provisional-tax question
    keeps its worked figure ($12,000 plus 5%, IRD's standard option) where the route would serve
    the unit on what provisional tax is."""
    answer = engine.answer("Standard option, last year's RIT $12,000 (filed). Total provisional tax for this year?").answer
    assert "$12,600" in answer


def test_below_the_bars_a_lead_stating_figures_is_never_served(engine, monkeypatch):
    """The route serves a unit below the bars, so a unit whose lead states figures (told as the poster's,
    though the post may be set in another year) is held back; the margins are kept as they were."""
    from nztax.unit_match import UnitMatch

    def agreeing_with_a_figure_lead(matcher, *args, **kwargs):
        unit = next(u for u in matcher.units if "{" in (u.lead or ""))
        return UnitMatch(unit, 0.6, 0.3, "How much?"), "served: retrieval agrees"

    monkeypatch.setattr(unit_agree, "retrieval_agrees", agreeing_with_a_figure_lead)
    result = engine.answer("I joined KiwiSaver a few years ago and put in 3% from my wages. My employer adds 3% too. "
                           "How do I check I have put in enough to get the full government top-up this year?")
    trace = result.trace if isinstance(result.trace, dict) else result.trace.to_json()
    notes = trace["notes"]
    assert any("held back: its lead states figures" in n for n in notes), notes
