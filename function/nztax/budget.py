"""A CPU budget for answering one question.

In: the budget in seconds of the answering thread's own CPU time (`NZTAX_QUESTION_CPU_BUDGET`).
Out: `spending(seconds)`, a context that starts the clock for the current thread, and `check()`,
which the stages that can grow with a question's length call and which raises `QuestionTooCostly`
once the budget is spent; the API turns that into a 422 `question_too_costly`.

Why: reading is linear in the question's length, but a question can still be built to make the
work per character large; a hard bound per question keeps one client from taking a worker's CPU
from everyone else. Thread CPU time (not wall time) so a busy machine does not refuse questions.
"""

from __future__ import annotations

import time
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Iterator

_until: ContextVar[float | None] = ContextVar("nztax_cpu_until", default=None)


class QuestionTooCostly(RuntimeError):
    """The question took more CPU than its budget."""


@contextmanager
def spending(seconds: float | None) -> Iterator[None]:
    """Within this block, `check()` raises once the thread has used `seconds` of CPU (None or 0: no limit)."""
    token = _until.set(time.thread_time() + seconds if seconds else None)
    try:
        yield
    finally:
        _until.reset(token)


def check() -> None:
    until = _until.get()
    if until is not None and time.thread_time() > until:
        raise QuestionTooCostly("the question took more than its CPU budget to read")
