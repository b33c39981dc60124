"""Password attempts, counted per user name and per client address (``limits`` package, a
moving window): :data:`.SIGNIN_PER_ACCOUNT` and :data:`.SIGNIN_PER_ADDRESS`.

One process counts in its memory; the processes of a site of many (``--redis``) count in their
shared Redis (under ``<redis prefix>:attempts``), so that a guesser gains nothing by spreading
its attempts over them. Every attempt counts, right or wrong, and an attempt over either
limit is refused before its password is checked. A user name is counted by a hash of its
folded form whether or not it exists (a name typed into the wrong field is never stored).
"""

from __future__ import annotations

import hashlib
import math
import time

from limits import RateLimitItemPerSecond
from limits.aio.storage import MemoryStorage, RedisStorage, Storage
from limits.aio.strategies import MovingWindowRateLimiter

from hexfolk.server.errors import ApiError
from hexfolk.server.limits import SIGNIN_PER_ACCOUNT, SIGNIN_PER_ADDRESS


def _key(kind: str, value: str) -> str:
    return f"{kind}:{hashlib.sha256(value.encode('utf-8')).hexdigest()[:32]}"


class Attempts:
    """The counters of password attempts of one server process (or of a site of many)."""

    def __init__(
        self,
        storage: Storage,
        per_account: tuple[int, float] = SIGNIN_PER_ACCOUNT,
        per_address: tuple[int, float] = SIGNIN_PER_ADDRESS,
    ):
        self.storage = storage
        self.limiter = MovingWindowRateLimiter(storage)
        self.per_account = RateLimitItemPerSecond(
            per_account[0], int(per_account[1]), namespace="account"
        )
        self.per_address = RateLimitItemPerSecond(
            per_address[0], int(per_address[1]), namespace="address"
        )

    @classmethod
    def in_memory(cls) -> Attempts:
        return cls(MemoryStorage())

    @classmethod
    def in_redis(cls, redis_url: str, prefix: str) -> Attempts:
        """Counters shared by every process that uses this Redis and prefix."""
        return cls(
            RedisStorage(
                f"async+{redis_url}", implementation="redispy", key_prefix=f"{prefix}:attempts"
            )
        )

    async def attempt(self, username_key: str, address: str) -> None:
        """Count one password attempt for the user name and the address; raise ApiError 429
        ``too_many_attempts`` (with ``retry_after`` seconds) when either is over its limit.
        The answer is the same whether the user name exists or not."""
        account = _key("name", username_key)
        where = _key("addr", address)
        ok_account = await self.limiter.hit(self.per_account, account)
        ok_address = await self.limiter.hit(self.per_address, where)
        if ok_account and ok_address:
            return
        waits = []
        for item, key, ok in (
            (self.per_account, account, ok_account),
            (self.per_address, where, ok_address),
        ):
            if not ok:
                stats = await self.limiter.get_window_stats(item, key)
                waits.append(stats.reset_time - time.time())
        retry = max(1, math.ceil(max(waits)))
        raise ApiError(
            "too_many_attempts",
            f"too many sign-in attempts; try again in {retry} seconds",
            429,
            retry_after=retry,
        )
