"""The clock of a playing table running out: the one timer at its next deadline
(:class:`~.clock.ClockTimer`) and, when it fires, the defaults of the seats out of time applied
as time-outs (IR-28), committed and announced, then a ``timeout`` notice per seat.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable

from hexfolk.server.clock import ClockTimer
from hexfolk.server.crowd import Crowd
from hexfolk.server.table_core import TableCore

log = logging.getLogger("hexfolk.server.room")


class ClockExpiry:
    """The clock's timer of the table of ``core``; its expiry is queued with ``post`` (the
    room's mailbox) and its steps committed and announced with ``publish``."""

    def __init__(
        self,
        core: TableCore,
        crowd: Crowd,
        post: Callable[[Callable[[], Awaitable[None]]], None],
        publish: Callable[[], Awaitable[None]],
    ):
        self.core, self.crowd, self.publish = core, crowd, publish
        self.timer = ClockTimer(lambda: post(self.expire))

    def arm(self) -> None:
        """The timer at the next deadline (none unless playing)."""
        playing = self.core.row.status == "playing"
        self.timer.arm(self.core.clock.next_deadline() if playing else None)

    def cancel(self) -> None:
        self.timer.cancel()

    async def expire(self) -> None:
        """The clock ran out for some seats: their defaults, as time-outs (IR-28)."""
        core = self.core
        timed_out = core.expire(time.time(), self.crowd.stand_in)
        if not core.pending:
            return self.arm()
        for seat, applied in timed_out:
            log.info("table %s: seat %d timed out (%d defaults)", core.row.id, seat, applied)
        await self.publish()
        for seat, applied in timed_out:  # after the views that show the defaults
            msg = {"type": "timeout", "seat": seat, "steps": applied, "version": core.version}
            self.crowd.broadcast(msg)
