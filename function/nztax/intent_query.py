"""The intent a long query reads as, asked as a query of its own: one more vote in its page fusion (issue 43).

In: the intent classifier (`understand.IntentClassifier`: the catalogue's example questions and their
vectors), a post and its vector. Out: `IntentQuery.reading(post, vector, sure_margin)` -> the best
intent's *canonical query* (the normalised mean of its examples' vectors) and how sure the reading is
(its lead over the next intent's combined score, as a share of `sure_margin`, at most 1), or None.

Why: a post's vector averages its whole story (the employer, the country, the family), so it sits far
from every passage; the intent reading weighs the story against the catalogue's short questions, and
an intent's examples averaged are one such question with the story left out. Ranked against the
chunks as a dense query, it names the pages the post's subject points to. An unsure reading (two
intents close) votes with less weight. An intent that turns a question away or asks it back
(decline, refuse, clarify) reads no page as the answer: its examples ask what the corpus does not
answer, so the nearest page to them is no evidence, and it gives no vote (measured in docs/retrieval.md).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

# Intents whose answer is a page's subject; the others turn the question away or ask it back.
ANSWERING = ("calculate", "fact", "topic")


class IntentQuery:
    def __init__(self, classifier):
        self.classifier = classifier
        vectors = np.asarray(classifier.vectors, dtype=np.float32)
        intents = classifier.catalogue.intents
        sums = np.zeros((len(intents), vectors.shape[1] if vectors.ndim == 2 else 1), dtype=np.float32)
        if len(vectors):
            np.add.at(sums, classifier.owner, vectors)
        self.canonical = sums / np.maximum(np.linalg.norm(sums, axis=1, keepdims=True), 1e-12)
        self.answering = np.array([spec.does in ANSWERING for spec in intents], dtype=bool)

    @classmethod
    def load(cls, index_directory: Path | None, embedder, settings) -> "IntentQuery":
        """From the catalogue and its example vectors stored beside the index (computed now when stale)."""
        from nztax.understand import IntentClassifier, default_catalogue  # (understand reads slots: only when asked)

        catalogue = default_catalogue()
        return cls(IntentClassifier(catalogue, catalogue.example_vectors(embedder, index_directory), settings))

    def reading(self, post: str, vector: np.ndarray, sure_margin: float) -> tuple[np.ndarray, float] | None:
        """(the best intent's canonical query, sureness in (0, 1]) for `post`; None without example
        vectors, when the best intent answers with no page, or when it leads the next by nothing. The
        combined score is the classifier's own, without slots (retrieval reads no amounts)."""
        if not len(self.classifier.vectors) or len(self.canonical) < 2:
            return None
        scores = self.classifier.scores(post, vector)
        best, second = np.argsort(-scores, kind="stable")[:2]
        sureness = min(1.0, float(scores[best] - scores[second]) / sure_margin) if sure_margin > 0 else 1.0
        return (self.canonical[best], sureness) if self.answering[best] and sureness > 0 else None


def pages_in_order(ranked_rows, child_page: np.ndarray) -> list[int]:
    """Ranked chunks as their pages, each at its best chunk's place."""
    return list(dict.fromkeys(int(child_page[row]) for row in ranked_rows))
