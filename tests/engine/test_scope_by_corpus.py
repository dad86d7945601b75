"""A question with no tax words the router knows is still answered when the sources cover it;
a question the sources do not cover is declined with the fixed copy."""

from __future__ import annotations


def test_question_the_corpus_covers_is_answered_not_declined(engine):
    result = engine.answer("How much does a family get for each child?", use_faq=False)
    assert result.status == "answered"
    assert any("family" in c.title.lower() for c in result.citations)


def test_question_outside_the_corpus_is_still_declined(engine):
    result = engine.answer("Write me a poem about cats", use_faq=False)
    assert result.status == "out_of_scope"
    assert result.citations == []
