"""decide() as a pipeline of named steps (decide.py): the steps run in order until one settles the
decision, and the ones that fired are named for the trace (`nztax ask --explain`)."""

from __future__ import annotations

from types import SimpleNamespace

from nztax.decide import SUM_STEPS, WEIGHING_STEPS, _settled

HERE = __name__.rsplit(".", 1)[-1]


def _idle(d, reading):
    return None


def _switch(d, reading):
    reading.intent = "the runner-up"


def _asks(d, reading):
    return True


def _never(d, reading):
    raise AssertionError("a step ran after the decision was settled")


def test_the_steps_stop_at_the_first_that_settles_and_the_ones_that_fired_are_named():
    d = SimpleNamespace(slots=object(), default_code="M", steps=[])
    reading = SimpleNamespace(intent="the intent", sure=False)
    assert _settled(d, reading, (_idle, _switch, _idle, _asks, _never)) is True
    assert d.steps == [f"{HERE}._switch", f"{HERE}._asks"]
    assert reading.intent == "the runner-up"


def test_steps_that_change_nothing_leave_the_decision_unsettled_and_unnamed():
    d = SimpleNamespace(slots=object(), default_code="M", steps=[])
    assert _settled(d, SimpleNamespace(intent="the intent", sure=False), (_idle, _idle)) is False
    assert d.steps == []


def test_every_step_of_the_pipeline_is_a_named_function_with_a_docstring():
    for step in (*WEIGHING_STEPS, *SUM_STEPS):
        assert step.__doc__ and not step.__name__.startswith("<"), step


def test_the_trace_names_the_step_that_settled_the_proposal(engine):
    decision, _ = engine.understand("what about it?", None, None)
    assert decision.action == "clarify" and decision.missing == ["question"]
    assert decision.trace.steps == ["ask_backs.no_subject"]
    assert decision.trace.to_json()["steps"] == ["ask_backs.no_subject"]
