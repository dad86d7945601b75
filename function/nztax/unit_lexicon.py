"""How strongly a text names each answer unit's topic in words: a BM25 score over the units' wordings.

In: the servable units (their question and paraphrases) and a text. Out: `UnitLexicon.scores(text)`
-> one BM25 score per unit (numpy array, the units' order).

A story's words mostly name nothing (my dad, a phone call, this year); the few that name a topic
precisely (FIF, PIE, boarder, secondary) occur in the wordings of few units, so the inverse document
frequency over the units, not over the web pages, weighs them: a word in every unit's wording ("tax")
counts for almost nothing. Each unit is one document, its wordings together, so a word its
paraphrases repeat is the unit's own. Words are `understand.words` (stems, stop words out), the same
as the matcher's word overlap. Built once per matcher, in memory (a few hundred units: milliseconds).
"""

from __future__ import annotations

import math

import numpy as np
from nztax.understand import words

# Okapi BM25's usual constants: term-frequency saturation and length normalisation.
BM25_K1 = 1.2
BM25_B = 0.75


class UnitLexicon:
    def __init__(self, units):

        counts: list[dict[str, int]] = []
        for unit in units:
            tally: dict[str, int] = {}
            for text in unit.paraphrases:
                for w in words(text):
                    tally[w] = tally.get(w, 0) + 1
            counts.append(tally)
        documents = max(len(counts), 1)
        holding: dict[str, list[tuple[int, int]]] = {}
        for unit, tally in enumerate(counts):
            for w, n in tally.items():
                holding.setdefault(w, []).append((unit, n))
        lengths = np.array([sum(t.values()) for t in counts] or [0], dtype=np.float64)
        norm = BM25_K1 * (1 - BM25_B + BM25_B * lengths / max(lengths.mean(), 1e-9))
        # Per word: the units holding it and each one's BM25 share (idf x saturated frequency).
        self._postings: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        for w, held in holding.items():
            idf = math.log((documents - len(held) + 0.5) / (len(held) + 0.5) + 1)
            rows = np.array([u for u, _ in held], dtype=np.int64)
            tf = np.array([n for _, n in held], dtype=np.float64)
            self._postings[w] = (rows, idf * tf * (BM25_K1 + 1) / (tf + norm[rows]))
        self.size = len(counts)

    def scores(self, text: str) -> np.ndarray:
        """Each unit's BM25 score for the distinct words of `text`."""

        out = np.zeros(self.size, dtype=np.float64)
        for w in words(text):
            posting = self._postings.get(w)
            if posting is not None:
                out[posting[0]] += posting[1]
        return out
