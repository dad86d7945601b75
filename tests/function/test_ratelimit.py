"""The token bucket: bursts up to the limit, refills over a minute, forgets idle clients."""

from nztax.ratelimit import RateLimiter


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def test_bucket_refills_at_the_per_minute_rate():
    clock = Clock()
    limiter = RateLimiter(per_minute=3, clock=clock)
    assert [limiter.check("a").allowed for _ in range(4)] == [True, True, True, False]
    assert limiter.check("a").retry_after == 20  # one token every 60/3 s
    clock.now += 20
    assert limiter.check("a").allowed and not limiter.check("a").allowed
    assert limiter.check("b").allowed


def test_memory_is_bounded():
    clock = Clock()
    limiter = RateLimiter(per_minute=5, max_clients=100, clock=clock)
    for i in range(1000):
        limiter.check(f"10.0.{i // 256}.{i % 256}")
    assert len(limiter._buckets) <= 100


def test_zero_turns_limiting_off():
    limiter = RateLimiter(per_minute=0)
    assert all(limiter.check("a").allowed for _ in range(100))
