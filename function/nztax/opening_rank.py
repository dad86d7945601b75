"""The candidate opening sentences reordered by how they answer what is asked, not by their page's rank.

In: the asking text (a story's asking sentences, or the question), the candidates as
`passage_sentences.scored_sentences` scored them (shared rare words + a rank bonus + a figure bonus),
and the weights (`settings.opening_weights`). Out: the same candidates, rescored and best first.

Retrieval ranks pages for the whole post; the word scorer then adds 0.2 / 0.1 / 0.05 to the
sentences of the first three pages, so whichever page ranks first supplies the opening whenever
its sentences share about as many words with the question as another page's. A better page
ranking (the intent vote, issue 43) then changed openings for the worse as often as for the
better: the opening followed the page order, not the question. Here each of the best
`SHORTLIST` candidates is scored on what it says against what is asked:

- `similarity`: the query embedder's cosine between the asking text and the sentence (the same
  model retrieval uses, each sentence's vector computed once per process), spread over the
  shortlist from 0 (the farthest) to 1 (the nearest);
- `fit`: the sentence says the aspect asked (opening_fit.says_aspect: when, how, why …) or, asked
  for a figure, states one;
- `alone`: a penalty for a sentence that cannot stand alone: it leans on the one before
  ("This means …", a third-person subject) or only points to a page ("This section explains …");
- the page's rank stays a feature, its bonus scaled by `rank` (1 = as before, 0 = none).

score = coverage + rank × rank bonus + figure bonus + similarity × cosine + fit × says − alone × leans.
All weights 0 but rank 1 is the scorer as it was. The embedder is the answering engine's, given for
the duration of one answer (`answering_with`); without one (unit tests of the scorer, no index)
similarity counts 0.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
from typing import Any, Iterator

import numpy as np

from nztax.opening_fit import aspects_asked, leans_on_before, points_elsewhere, says_aspect

# How many of the word scorer's best candidates are rescored (each needs its vector).
SHORTLIST = 12
# Sentence vectors kept (corpus sentences recur from answer to answer); cleared when full.
KEPT_VECTORS = 8192

_EMBEDDER: contextvars.ContextVar[Any] = contextvars.ContextVar("opening_embedder", default=None)
_vectors: dict[str, np.ndarray] = {}


@contextlib.contextmanager
def answering_with(embedder) -> Iterator[None]:
    """Sentences are compared with the question by `embedder` while the answer is said."""
    token = _EMBEDDER.set(embedder)
    try:
        yield
    finally:
        _EMBEDDER.reset(token)


def _vectors_of(embedder, texts: list[str]) -> np.ndarray:
    missing = list(dict.fromkeys(t for t in texts if t not in _vectors))
    if missing:
        if len(_vectors) + len(missing) > KEPT_VECTORS:
            _vectors.clear()
        batch = getattr(embedder, "embed_queries", None)  # (the query form: asking text and sentence alike)
        found = batch(missing) if batch is not None else np.stack([embedder.embed_query(t) for t in missing])
        _vectors.update(zip(missing, np.asarray(found, dtype=np.float32)))
    return np.stack([_vectors[t] for t in texts])


def similarities(asked: str, texts: list[str]) -> list[float]:
    """Cosine of the asking text with each text by the answer's embedder; zeros without one."""
    embedder = _EMBEDDER.get()
    if embedder is None or not texts:
        return [0.0] * len(texts)
    vectors = _vectors_of(embedder, [asked] + texts)
    return [float(v) for v in vectors[1:] @ vectors[0]]


@functools.lru_cache(maxsize=8)
def weights(setting: str) -> tuple[float, float, float, float]:
    """`settings.opening_weights` ("similarity,rank,fit,alone", missing ones 0) as numbers."""
    parts = [float(p) for p in setting.split(",") if p.strip()]
    return tuple((parts + [0.0] * 4)[:4])


def rescored(asked: str, entries: list[tuple[float, float, float, int, str, Any]], setting: str,
             wants_figure: bool) -> list[tuple[float, float, int, str, Any]]:
    """`entries` as (word score without the rank bonus, rank bonus, coverage, position, sentence,
    source), returned as (score, coverage, position, sentence, source) best first (ties by position)."""
    similarity_w, rank_w, fit_w, alone_w = weights(setting)
    scored = [(words + rank_w * bonus, coverage, i, s, source) for words, bonus, coverage, i, s, source in entries]
    scored.sort(key=lambda x: (-x[0], x[2]))
    if not (similarity_w or fit_w or alone_w):
        return scored
    head, tail = scored[:SHORTLIST], scored[SHORTLIST:]
    cosines = similarities(asked, [s for _, _, _, s, _ in head]) if similarity_w else [0.0] * len(head)
    # (Spread over the shortlist, nearest 1 and farthest 0: the model's cosines for sentences of one
    # subject lie within a few hundredths of each other, too close to weigh beside shared words.)
    low, high = min(cosines, default=0.0), max(cosines, default=0.0)
    cosines = [(c - low) / (high - low) if high > low else 0.0 for c in cosines]
    aspects = aspects_asked(asked) if fit_w else frozenset()
    out = []
    for (score, coverage, i, s, source), cosine in zip(head, cosines):
        fits = bool(aspects) and says_aspect(asked, s, aspects) or (wants_figure and any(c.isdigit() for c in s))
        leans = not isinstance(source, int) and (leans_on_before(s) or points_elsewhere(s))  # (a lead reads whole)
        out.append((score + similarity_w * cosine + fit_w * fits - alone_w * leans, coverage, i, s, source))
    out.sort(key=lambda x: (-x[0], x[2]))
    # (The rest stay below the shortlist: the word scorer already put them behind it.)
    return out + tail
