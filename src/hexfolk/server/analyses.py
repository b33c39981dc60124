"""The post-game analyses of one server process (issue 29; ``docs/analysis.md``, "On the
server").

When a game ends, the game-end hook (:meth:`Analyses.game_ended`, registered on
:class:`~hexfolk.server.game_end.GameEnd` at start-up) adds the table's ``analyses`` row,
``queued`` and claimed by this process (:mod:`.analysis_store`: the row's insertion is the
claim, so one process computes each analysis), and queues it here. One task works the queue,
one analysis at a time, in the bot pool's low-priority lane (:mod:`.analysis_lane`): ``running``
with its progress, then ``ready`` with the analysis JSON, or ``failed`` with the error (logged
with its traceback and counted: ``failures``, ``hexfolk_analysis_failures_total``).

Every change is stored (the progress at most :data:`PROGRESS_SECONDS` apart) and pushed to the
connections open on the table, ``{"type": "analysis", "status", "progress"}`` (the final one
``ready`` or ``failed``): the page then fetches ``GET /api/tables/{id}/analysis``, which reads
the row and so answers on any process.

After a restart nothing is lost: the analyses still ``queued`` or ``running`` are claimed again
and queued (:meth:`Analyses.recover`; with many processes only those whose process is gone, each
taken by one process). A finished table without a row (finished before this server version) gets
one when its analysis is first asked for.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from hexfolk.analysis import Budget
from hexfolk.server import analysis_store
from hexfolk.server.manager import RoomManager
from hexfolk.server.models import AnalysisRow, EventRow, TableRow
from hexfolk.server.seats import seats_of
from hexfolk.server.store import Store

log = logging.getLogger("hexfolk.server.analyses")

PROGRESS_SECONDS = 0.5
"""A running analysis's progress is stored and pushed at most every 0.5 s (2 a second)."""
ERROR_MAX = 500
"""An analysis's stored error is cut to 500 characters."""

Push = Callable[[str, dict[str, Any]], Awaitable[None]]
"""``push(table_id, message)``: the message to the table's connections at another process."""


def message(status: str, progress: float) -> dict[str, Any]:
    """The WebSocket message of an analysis's change (``docs/protocol.md``)."""
    return {"type": "analysis", "status": status, "progress": round(progress, 4)}


def answer(row: AnalysisRow | None) -> dict[str, Any]:
    """``GET /api/tables/{id}/analysis``'s body (a table without a row yet: ``queued``)."""
    if row is None:
        return {"status": "queued", "progress": 0.0, "analysis": None, "error": None}
    return {
        "status": row.status,
        "progress": row.progress,
        "analysis": row.result if row.status == "ready" else None,
        "error": row.error if row.status == "failed" else None,
    }


def _table_data(row: TableRow) -> dict[str, Any]:
    return {
        "id": row.id,
        "game": row.game,
        "players": row.players,
        "options": row.options,
        "seats": row.seats,
    }


def _event_data(ev: EventRow) -> dict[str, Any]:
    return {
        "seq": ev.seq,
        "kind": ev.kind,
        "seat": ev.seat,
        "action": ev.action,
        "undoes": ev.undoes,
    }


class Analyses:
    """The analyses this process computes (``me``: its id, the claim written in each row; with
    many processes the id the leases know it by, so that :meth:`recover` can tell a live
    process's claim from a dead one's)."""

    def __init__(self, store: Store, manager: RoomManager, me: str, budget: Budget | None = None):
        self.store, self.manager, self.me = store, manager, me
        self.budget = budget or Budget()
        self.lane = manager.pool.analysis
        self.queue: asyncio.Queue[str] = asyncio.Queue()
        self.ready = 0
        """Analyses this process stored ``ready``."""
        self.failures = 0
        """Analyses this process stored ``failed`` (each logged with its traceback)."""
        self.seconds: list[float] = []
        """The wall time of each analysis this process finished (the last 100)."""
        self.push_elsewhere: Push | None = None
        """(Many processes) how a change reaches connections held by another process."""
        self._worker: asyncio.Task[None] | None = None

    # --- asking -------------------------------------------------------------------------------
    async def game_ended(self, row: TableRow) -> None:
        """The game-end hook: queue the analysis of the table that just finished."""
        await self.request(row.id)

    async def request(self, table_id: str) -> bool:
        """Add and queue the analysis of a finished table; False when it has one already."""
        if not await analysis_store.add(self.store, table_id, self.me, self.budget.text()):
            return False
        log.info("table %s: analysis queued", table_id)
        self.queue.put_nowait(table_id)
        await self._push(table_id, "queued", 0.0)
        return True

    async def recover(self, live: set[str] | None = None) -> int:
        """Claim and queue the unfinished analyses: all of them (one process, at its start),
        or (``live``: the live processes of a site of many) those whose process is gone.
        Returns how many this process took."""
        taken = 0
        for row in await analysis_store.unfinished(self.store):
            if row.worker == self.me:
                continue  # queued here already
            if live is not None and row.worker in live:
                continue
            if await analysis_store.take(self.store, row.table_id, row.worker, self.me):
                log.info("table %s: analysis queued again (was %s)", row.table_id, row.status)
                self.queue.put_nowait(row.table_id)
                taken += 1
        return taken

    # --- working ------------------------------------------------------------------------------
    def start(self) -> None:
        self._worker = asyncio.get_running_loop().create_task(self._work(), name="analyses")

    async def watch(self, live: Callable[[], Awaitable[set[str]]], every: float) -> None:
        """(Many processes) every ``every`` seconds, take the unfinished analyses of the
        processes no longer alive (``live()``: the live processes' ids)."""
        while True:
            try:
                await self.recover(await live())
            except Exception:
                log.exception("the unfinished analyses could not be recovered")
            await asyncio.sleep(every)

    async def close(self) -> None:
        """Stop working (an analysis in progress stays ``running`` in the database and is
        queued again at the next start)."""
        if self._worker is not None:
            self._worker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._worker
            self._worker = None

    async def _work(self) -> None:
        while True:
            table_id = await self.queue.get()
            try:
                await self._analyse(table_id)
            except asyncio.CancelledError:
                raise
            except Exception:  # the database failed us: logged, counted, queued again at start
                self.failures += 1
                log.exception("table %s: the analysis failed", table_id)

    async def _analyse(self, table_id: str) -> None:
        if not await analysis_store.started(self.store, table_id, self.me):
            return  # another process holds it now
        begun = time.perf_counter()
        await self._push(table_id, "running", 0.0)
        try:
            result = await self._compute(table_id)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            self.failures += 1
            log.exception("table %s: the analysis failed", table_id)
            error = f"{type(exc).__name__}: {exc}"[:ERROR_MAX]
            await analysis_store.failed(self.store, table_id, self.me, error)
            await self._push(table_id, "failed", 0.0)
            return
        seconds = time.perf_counter() - begun
        if await analysis_store.ready(self.store, table_id, self.me, result):
            self.ready += 1
            self.seconds = [*self.seconds[-99:], seconds]
            log.info("table %s: analysis ready in %.2f s", table_id, seconds)
            await self._push(table_id, "ready", 1.0)

    async def _compute(self, table_id: str) -> dict[str, Any]:
        """The analysis JSON, computed in the lane; the progress stored and pushed at most
        every :data:`PROGRESS_SECONDS`."""
        row = await self.store.get_table(table_id)
        if row is None:
            raise LookupError(f"table {table_id} is gone")
        if row.status != "finished":
            raise ValueError(f"table {table_id} is {row.status}, not finished")
        events = await self.store.events(table_id)
        ids = [row.host_id] + [s.player_id for s in seats_of(row) if s.player_id]
        names = {k: p.name for k, p in (await self.store.players_by_id(ids)).items()}
        latest = [0.0]

        def progress(fraction: float) -> None:
            latest[0] = max(latest[0], fraction)

        run = asyncio.ensure_future(
            self.lane.run(
                _table_data(row),
                [_event_data(e) for e in events],
                names,
                self.budget.text(),
                progress,
            )
        )
        sent = 0.0
        try:
            while True:
                done, _ = await asyncio.wait({run}, timeout=PROGRESS_SECONDS)
                if done:
                    return run.result()
                now = latest[0]
                if now > sent and now < 1.0:
                    sent = now
                    await analysis_store.progressed(self.store, table_id, self.me, now)
                    await self._push(table_id, "running", now)
        finally:
            if not run.done():
                run.cancel()

    # --- telling ------------------------------------------------------------------------------
    def tell_here(self, table_id: str, msg: dict[str, Any]) -> bool:
        """``msg`` to the connections of the table's room in this process (a job in its
        mailbox, after what the room sent before); False when the room is not here."""
        room = self.manager.rooms.get(table_id)
        if room is None:
            return False
        crowd = room.crowd

        async def tell() -> None:
            crowd.broadcast(msg)

        room.post(tell)
        return True

    async def _push(self, table_id: str, status: str, progress: float) -> None:
        """The change to every connection open on the table: here through its room, else
        (many processes) through the relay to the process holding it."""
        msg = message(status, progress)
        if not self.tell_here(table_id, msg) and self.push_elsewhere is not None:
            try:
                await self.push_elsewhere(table_id, msg)
            except Exception:
                log.exception("table %s: the analysis message could not be relayed", table_id)
