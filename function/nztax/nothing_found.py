"""The not-found sentence stands only alone: an answer that states a cited rule never opens with it.

In: a composed `AskResult`. Out: the same result without `composer.NOTHING_FOUND` (and its
"rephrase" suggestion) when the rest of the answer carries a citation mark.

Why: the topic answer says it found nothing when no passage sentence answers the asking sentences,
but later stages add what they do know (a paragraph for another asked part, a note on the rule at
the post's time). "I couldn't find anything … I won't guess" followed by a cited rule contradicts
itself, and the reader stops at the first sentence; the first cited statement leads instead.
"""

from __future__ import annotations

import re

from nztax.composer import NOTHING_FOUND, REPHRASE_ACTION
from nztax.contract import CITE_MARK, AskResult
from nztax.frame import note_opened


def only_alone(result: AskResult) -> AskResult:
    if NOTHING_FOUND not in (result.answer or ""):
        return result
    # (The sentence may be a paragraph of its own or open one a note was appended to.)
    rest = result.answer.replace(NOTHING_FOUND + " ", "").replace(NOTHING_FOUND, "")
    if not CITE_MARK.search(rest):
        return result
    result.answer = re.sub(r"\n\s*\n(?:\s*\n)+", "\n\n", rest).strip()
    result.next_actions = [a for a in result.next_actions if a != REPHRASE_ACTION]
    # (What opens now is what later stages added: `nztax ask --explain`.)
    note_opened(result.trace, "not_found_left_out", "what followed the not-found sentence",
                "opened by what followed the not-found sentence")
    return result
