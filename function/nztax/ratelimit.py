"""A per-instance rate limit: one token bucket per client key (the client IP).

In: a key and the time. Out: `Decision(allowed, retry_after_seconds)`.

Each bucket holds up to `per_minute` tokens and refills at `per_minute / 60` tokens a second, so a
client can burst `per_minute` requests and then sustain `per_minute` a minute. Buckets that are
full again are forgotten, and at most `max_clients` are kept, so memory stays bounded. This only
limits one instance; max-instances and the provider's quota cap the whole service.
"""

from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Callable

SECONDS_PER_MINUTE = 60.0
DEFAULT_MAX_CLIENTS = 10_000


@dataclass(frozen=True)
class Decision:
    allowed: bool
    retry_after: int = 0  # whole seconds until one token is available (for Retry-After)


class RateLimiter:
    def __init__(self, per_minute: int, max_clients: int = DEFAULT_MAX_CLIENTS,
                 clock: Callable[[], float] = time.monotonic):
        self.capacity = float(max(per_minute, 0))
        self.rate = self.capacity / SECONDS_PER_MINUTE  # tokens per second
        self.max_clients = max_clients
        self.clock = clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # key -> (tokens, last time)
        self._lock = threading.Lock()

    def check(self, key: str) -> Decision:
        """Take one token for `key` if there is one."""
        if self.capacity <= 0:
            return Decision(True)  # a limit of 0 turns limiting off
        now = self.clock()
        with self._lock:
            tokens, last = self._buckets.pop(key, (self.capacity, now))
            tokens = min(self.capacity, tokens + (now - last) * self.rate)
            if tokens >= 1.0:
                self._buckets[key] = (tokens - 1.0, now)
                allowed, retry = True, 0
            else:
                self._buckets[key] = (tokens, now)
                allowed, retry = False, max(1, math.ceil((1.0 - tokens) / self.rate))
            self._prune(now)
        return Decision(allowed, retry)

    def _prune(self, now: float) -> None:
        while len(self._buckets) > self.max_clients:
            self._buckets.popitem(last=False)  # least recently seen
        # Drop the oldest entries whose buckets have refilled completely (they are as good as new).
        for key in list(self._buckets)[:8]:
            tokens, last = self._buckets[key]
            if tokens + (now - last) * self.rate >= self.capacity:
                del self._buckets[key]
            else:
                break
