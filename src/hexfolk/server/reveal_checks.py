"""Reveal checks: did a person's step show its actor hidden information (undo barrier 6,
:mod:`hexfolk.server.undo`)?

``State.reveals_to`` samples worlds (1–2 ms, at times a few hundred for Scythe): too slow for
the event loop, and needed only while the step can still be undone. So a step the engine says
can reveal something (``State.can_reveal``; the table core asks it) is checked
:data:`REVEAL_CHECK_DELAY` after it was announced, in one worker thread, and only if it can
still be undone by then (most steps of a quick turn are past that). The answer goes back
through the room's queue; an undo request never waits for it (the core settles unknown flags
exactly first).
"""

from __future__ import annotations

import asyncio
import logging
import pickle
import time
from collections.abc import Awaitable, Callable
from typing import Any

from hexfolk.server.table_core import Accepted, TableCore
from hexfolk.server.trace import TRACE
from hexfolk.server.undo import check_reveal

log = logging.getLogger("hexfolk.server.room")

REVEAL_CHECK_DELAY = 0.25
"""A person step's reveal check waits 0.25 s and is skipped if the step can no longer be
undone by then (most steps of a quick turn)."""


class RevealChecks:
    """The running checks of one table. ``post`` queues a job in the room's task;
    ``revealed(seat)`` runs there when a step turned out to reveal something (that seat's
    undo offer is gone: its views change)."""

    def __init__(
        self,
        core: TableCore,
        post: Callable[[Callable[[], Awaitable[Any]]], None],
        revealed: Callable[[int], None],
    ):
        self.core = core
        self.post = post
        self.revealed = revealed
        self._tasks: set[asyncio.Task[None]] = set()

    def start(self, accepted: Accepted) -> None:
        if accepted.check_reveal:
            task = asyncio.get_running_loop().create_task(self._check(accepted))
            self._tasks.add(task)

    def cancel_all(self) -> None:
        for task in list(self._tasks):
            task.cancel()

    async def _check(self, accepted: Accepted) -> None:
        core = self.core
        task = asyncio.current_task()
        try:
            await asyncio.sleep(REVEAL_CHECK_DELAY)
            if not core.reveal_still_asked(accepted):
                return  # never needed now; an undo settles it exactly if it ever is
            assert accepted.before is not None
            t = time.perf_counter()
            seed = core.reveal_seed(accepted.seq)
            # a copy that shares nothing with the live state: a clone shares the log's frozen
            # chunks, whose memo of rendered lines the worker thread would fill while the
            # loop pickles the live state for a bot ("dictionary changed size")
            alone = pickle.loads(pickle.dumps(accepted.before, pickle.HIGHEST_PROTOCOL))
            flag = await check_reveal(alone, accepted.seat, accepted.action, seed)
            TRACE.add("reveals_to", time.perf_counter() - t)
        except asyncio.CancelledError:
            return
        except Exception:
            log.exception(
                "table %s: the reveal check of event %d failed", core.row.id, accepted.seq
            )
            flag = True  # when in doubt, the step stays
        finally:
            if task is not None:
                self._tasks.discard(task)

        async def known() -> None:
            seat = core.reveal_known(accepted.seq, flag)
            if seat is not None:
                self.revealed(seat)

        self.post(known)
