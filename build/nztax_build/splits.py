"""The one development/test split of the held-out evaluation sets.

In: a question or query id. Out: "dev" or "test". The split is a hash of the id, fixed once: an
item never moves between parts, so tuning on "dev" never sees "test". Reports print the test part's
scores only, never its failing items.
"""

from __future__ import annotations

import hashlib

# Share of items in the frozen test part (out of 10).
TEST_TENTHS = 4


def split_of(item_id: str) -> str:
    digest = int(hashlib.sha256(item_id.encode("utf-8")).hexdigest(), 16)
    return "test" if digest % 10 < TEST_TENTHS else "dev"
