"""The table sockets of each session, so that a session that ends takes its sockets with it
(issue 30 point 2; ``docs/server.md``, "Accounts").

A socket proves itself once, in its hello. When its session ends (signed out, signed out by
another device, a change of password, a claim that replaced the guest token) the socket is
closed with code 1012 (reason ``session_ended``), which a client answers by reconnecting: its
hello then carries the token the browser holds now, and is refused ``bad_token`` when that
session is gone. A session ended by this process closes its sockets at once; one ended by
another process of a site (or in the database directly) is found by the sweep, every
:data:`.SESSION_SWEEP` seconds.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable

from sqlalchemy import select

from hexfolk.server.crowd import Connection
from hexfolk.server.limits import SESSION_SWEEP
from hexfolk.server.models import SessionRow
from hexfolk.server.protocol import CLOSE_MOVED
from hexfolk.server.store import Store

log = logging.getLogger("hexfolk.server.sessions")

ENDED_REASON = "session_ended"
SWEEP_BATCH = 500
"""Token hashes asked about per query of the sweep."""


class SessionSockets:
    """The open table sockets of this process, by the hash of the token of their hello."""

    def __init__(self) -> None:
        self.open: dict[str, set[Connection]] = {}

    def opened(self, token_hash: str, conn: Connection) -> None:
        self.open.setdefault(token_hash, set()).add(conn)

    def closed(self, token_hash: str, conn: Connection) -> None:
        conns = self.open.get(token_hash)
        if conns is not None:
            conns.discard(conn)
            if not conns:
                del self.open[token_hash]

    def end(self, token_hashes: Iterable[str]) -> int:
        """Close every socket of these sessions (code 1012, reason ``session_ended``); how
        many."""
        n = 0
        for token_hash in token_hashes:
            for conn in list(self.open.pop(token_hash, ())):
                conn.close(CLOSE_MOVED, ENDED_REASON)
                n += 1
        return n

    async def sweep(self, store: Store) -> int:
        """Close the sockets whose session no longer exists; how many."""
        hashes = list(self.open)
        alive: set[str] = set()
        for i in range(0, len(hashes), SWEEP_BATCH):
            chunk = hashes[i : i + SWEEP_BATCH]
            async with store.sessions() as s:
                rows = await s.execute(
                    select(SessionRow.token_hash).where(SessionRow.token_hash.in_(chunk))
                )
                alive.update(rows.scalars())
        return self.end(h for h in hashes if h not in alive)

    async def run(self, store: Store, every: float = SESSION_SWEEP) -> None:
        """Sweep for ever (a task of the app's lifespan)."""
        while True:
            await asyncio.sleep(every)
            try:
                ended = await self.sweep(store)
            except Exception:  # the database away for a moment: the next sweep tries again
                log.warning("the sweep of ended sessions failed", exc_info=True)
                continue
            if ended:
                log.info("%d sockets of ended sessions closed", ended)
