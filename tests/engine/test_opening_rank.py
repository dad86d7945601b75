"""Candidate openings reordered by what they say to the question, the page's rank one feature among
others (opening_rank.py)."""

import numpy as np
import pytest

from nztax.opening_rank import answering_with, rescored, similarities, weights

REFUND = "A refund is paid into your bank account after the year ends."
INTEREST = "Interest is charged from the day after the due date until the tax is paid."
POINTER = "This section explains what income you need to include and what you can claim."


class WordEmbedder:
    """A stand-in for the query embedder: a text's vector counts the given words it uses."""

    def __init__(self, vocabulary: list[str]):
        self.vocabulary = vocabulary

    def embed_queries(self, texts):
        rows = np.array([[1.0] + [float(w in t.lower()) for w in self.vocabulary] for t in texts], dtype=np.float32)
        return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def _entries(*sentences, words=0.5, first_bonus=0.2):
    # (word score without the rank bonus, rank bonus, coverage, position, sentence, source): the first ranked best
    return [(words, first_bonus if i == 0 else 0.0, words, i, s, object()) for i, s in enumerate(sentences)]


def _order(entries, setting, asked="Will the refund be paid into my bank account?", embedder=None):
    with answering_with(embedder):
        return [s for _, _, _, s, _ in rescored(asked, entries, setting, wants_figure=False)]


def test_the_default_weights_keep_the_word_scorers_order():
    entries = _entries(INTEREST, REFUND)
    assert _order(entries, "0,1,0,0", embedder=WordEmbedder(["refund", "bank"])) == [INTEREST, REFUND]


def test_without_the_rank_the_nearer_sentence_opens_whichever_page_ranks_first():
    embedder = WordEmbedder(["refund", "bank", "account"])
    assert _order(_entries(INTEREST, REFUND), "1,0,0,0", embedder=embedder)[0] == REFUND
    assert _order(_entries(REFUND, INTEREST), "1,0,0,0", embedder=embedder)[0] == REFUND


def test_the_rank_weighs_against_similarity_by_its_weight():
    embedder = WordEmbedder(["refund", "bank", "account"])
    entries = _entries(INTEREST, REFUND, first_bonus=0.2)
    assert _order(entries, "0.1,1,0,0", embedder=embedder)[0] == INTEREST  # 0.2 of rank over 0.1 of similarity
    assert _order(entries, "0.3,1,0,0", embedder=embedder)[0] == REFUND


def test_without_an_embedder_similarity_counts_nothing():
    assert similarities("Will the refund be paid?", [REFUND, INTEREST]) == [0.0, 0.0]
    assert _order(_entries(INTEREST, REFUND), "1,1,0,0") == [INTEREST, REFUND]


@pytest.mark.parametrize("gap", [0.1, 0.2])
def test_a_sentence_that_cannot_stand_alone_falls_behind_by_the_penalty(gap):
    entries = [(0.5 + gap, 0.0, 0.5, 0, POINTER, object()), (0.5, 0.0, 0.5, 1, REFUND, object())]
    assert _order(entries, "0,1,0,0")[0] == POINTER
    assert _order(entries, f"0,1,0,{gap + 0.05}")[0] == REFUND
    assert _order(entries, f"0,1,0,{gap - 0.05}")[0] == POINTER


def test_weights_read_missing_ones_as_nothing():
    assert weights("1.5") == (1.5, 0.0, 0.0, 0.0)
    assert weights("0.3,0.5,0.1,0.3") == (0.3, 0.5, 0.1, 0.3)
