"""The live rooms of one server process: loading on demand, recovery at start, heartbeat."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

from hexfolk.server.botpool import BotPool
from hexfolk.server.chat import LIVE
from hexfolk.server.errors import not_found
from hexfolk.server.fence import LeaseLost
from hexfolk.server.game_end import GameEnd
from hexfolk.server.leases import LeaseBook, NotOwner
from hexfolk.server.limits import ACTION_RATE, HEARTBEAT_SECONDS
from hexfolk.server.models import TableRow
from hexfolk.server.protocol import CLOSE_MOVED
from hexfolk.server.room import Room
from hexfolk.server.seats import seats_of
from hexfolk.server.store import Store

log = logging.getLogger("hexfolk.server")


class RoomManager:
    """Owns every :class:`Room` of this process and the shared :class:`BotPool`."""

    def __init__(self, store: Store, pool: BotPool, action_rate: tuple[int, float] = ACTION_RATE):
        self.action_rate = action_rate
        self.store = store
        self.pool = pool
        self.rooms: dict[str, Room] = {}
        self._loading: dict[str, asyncio.Future[Room]] = {}
        self._heartbeat: asyncio.Task[None] | None = None
        self.leases: LeaseBook | None = None
        """Many processes: this process's leases (:mod:`.leases`); a room is loaded only with
        its table's lease. None for one process."""
        self.takeovers = 0
        """Tables taken from another process whose lease expired."""
        self.on_takeover: Callable[[], object] = lambda: None
        """Called at each takeover (the metrics)."""
        self.renewal_failures = 0
        self.game_end = GameEnd()
        """What runs once a game ends (:mod:`.game_end`): ratings, the analysis."""

    async def room(self, table_id: str) -> Room:
        """The live room of a table (loaded from the database if needed); 404 if unknown."""
        room = self.rooms.get(table_id)
        if room is not None:
            return room
        pending = self._loading.get(table_id)
        if pending is not None:
            return await asyncio.shield(pending)
        fut: asyncio.Future[Room] = asyncio.get_running_loop().create_future()
        self._loading[table_id] = fut
        try:
            room = await self._load(table_id, down=0.0)
            fut.set_result(room)
            return room
        except BaseException as exc:
            fut.set_exception(exc)
            fut.exception()  # retrieved: no "never retrieved" warning
            raise
        finally:
            self._loading.pop(table_id, None)

    async def _load(self, table_id: str, down: float) -> Room:
        row = await self.store.get_table(table_id)
        if row is None:
            raise not_found("table")
        if self.leases is not None:  # raises NotOwner when another live process holds it
            got = await self.leases.acquire(table_id)
            fresh = await self.store.get_table(table_id)  # as of the lease: nothing older
            assert fresh is not None
            row = fresh
            if got.since > 0:  # taken over: the clocks get back the time nobody ran them
                self.takeovers += 1
                self.on_takeover()
                paused_at = max(got.since, row.updated_at)
                down = max(0.0, time.time() - paused_at) if row.status == "playing" else 0.0
                log.info(
                    "table %s: taken over at version %d (token %d, clocks +%.1f s)",
                    table_id,
                    row.version,
                    got.token,
                    down,
                )
        try:
            return await self._loaded(row, down)
        except BaseException:
            if self.leases is not None:
                self.leases.forget(table_id)
            raise

    async def _loaded(self, row: TableRow, down: float) -> Room:
        table_id = row.id
        ids = [row.host_id] + [s.player_id for s in seats_of(row) if s.player_id]
        players = await self.store.players_by_id(ids)
        names = {k: p.name for k, p in players.items()}
        room = Room(
            row,
            self.store,
            self.pool,
            names=names,
            action_rate=self.action_rate,
            game_end=self.game_end,
        )
        if row.status != "errored":
            try:
                await room.load()
            except Exception as exc:
                log.exception("table %s: its event log does not replay; marked errored", row.id)
                row.status = "errored"
                row.error = f"{type(exc).__name__}: {exc}"[:500]
                await self.store.save_table(row.id, status="errored", error=row.error)
        room.shift_clocks(down)
        if self.leases is not None:
            self._fenced_faults(room)
        room.start()
        if row.status in LIVE:
            room.resume()
        self.rooms[table_id] = room
        return room

    async def recover(self) -> int:
        """Load every unfinished table (replaying its log), giving back the down time to the
        running clocks: now minus the later of the last heartbeat and the table's last commit.
        With many processes nothing is loaded here: the lease sweep takes the tables nobody
        owns (:meth:`sweep`)."""
        if self.leases is not None:
            return 0
        last = await self.store.last_heartbeat()
        now = time.time()
        await self.store.heartbeat(now)
        rows = await self.store.tables_with_status(list(LIVE))
        for row in rows:
            if row.id in self.rooms:
                continue
            paused_at = max(last or 0.0, row.updated_at)
            down = max(0.0, now - paused_at) if row.status == "playing" else 0.0
            await self._load(row.id, down)
            if row.status == "playing":
                log.info(
                    "table %s: recovered at version %d (clocks +%.1f s)", row.id, row.version, down
                )
        return len(rows)

    def start_heartbeat(self) -> None:
        beat = self._beat() if self.leases is None else self._renew_loop(self.leases)
        self._heartbeat = asyncio.get_running_loop().create_task(beat)

    # --- many processes: leases (:mod:`.leases`) -------------------------------------------
    async def created(self, table_id: str) -> Room | None:
        """A new table: its room here, or (many processes) None when it went to another
        process (the least loaded one, :meth:`.LeaseBook.place`)."""
        if self.leases is not None and await self.leases.place(table_id) != self.leases.me:
            return None
        return await self.room(table_id)

    def _fenced_faults(self, room: Room) -> None:
        """A write of ``room`` refused by the fence (:class:`.LeaseLost`) is no bug to rebuild
        from: nothing was written, the table is handed over (outside the room's task)."""
        rebuild = room.mailbox.on_fault

        async def on_fault(exc: Exception) -> None:
            if isinstance(exc, LeaseLost):
                room.core.abort()
                asyncio.get_running_loop().create_task(self.hand_over(room.id))
                return
            await rebuild(exc)

        room.mailbox.on_fault = on_fault

    async def hand_over(self, table_id: str) -> None:
        """This process lost the lease of ``table_id``: stop its room; its connections are
        closed with 1012 and reconnect to the new owner."""
        room = self.rooms.pop(table_id, None)
        if room is not None:
            log.warning("table %s: lease lost; its room stops here", table_id)
            await room.stop(CLOSE_MOVED, "the table moved to another server; reconnect")
        if self.leases is not None:
            self.leases.forget(table_id)

    async def _renew_loop(self, leases: LeaseBook) -> None:
        """Every renewal period: renew the leases (hand over the lost ones), then take the
        tables whose owner is gone. Without a successful renewal for a whole lease, every
        room is handed over (another process may own them by now)."""
        last_ok = time.monotonic()
        while True:
            await asyncio.sleep(leases.renew_seconds)
            try:
                lost = await leases.renew()
                last_ok = time.monotonic()
            except Exception:
                self.renewal_failures += 1
                log.exception("lease renewal failed")
                if time.monotonic() - last_ok > leases.lease_seconds:
                    for table_id in list(self.rooms):
                        await self.hand_over(table_id)
                continue
            try:
                for table_id in lost:
                    await self.hand_over(table_id)
                await self.sweep(leases)
            except Exception:
                log.exception("lease sweep failed")

    async def sweep(self, leases: LeaseBook) -> int:
        """Take live tables whose lease expired (their owner died or was cut off) or that
        were assigned here: at most this process's share of them per sweep. Returns how many."""
        tables = await leases.unowned()
        if not tables:
            return 0
        share = len(tables) // max(1, len(await leases.live_processes())) + 1
        taken = 0
        for table_id in tables[:share]:
            try:
                await self.room(table_id)
                taken += 1
            except NotOwner:
                continue  # another process was quicker
            except Exception:
                log.exception("table %s: could not be taken over", table_id)
        return taken

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT_SECONDS)
            try:
                await self.store.heartbeat()
            except Exception:
                log.exception("heartbeat failed")

    def forget_if_idle(self, room: Room) -> None:
        """Drop a finished or errored room that nobody watches (it reloads on demand)."""
        if room.row.status not in LIVE and not room.conns and self.rooms.get(room.id) is room:
            del self.rooms[room.id]
            asyncio.get_running_loop().create_task(self._stop_idle(room))

    async def _stop_idle(self, room: Room) -> None:
        await room.stop()
        if self.leases is not None and room.id not in self.rooms:
            await self.leases.release([room.id])

    async def close(self) -> None:
        await self.game_end.drain()
        if self._heartbeat is not None:
            self._heartbeat.cancel()
        for room in list(self.rooms.values()):
            if self.leases is not None:
                await room.stop(CLOSE_MOVED, "this server stops; reconnect")
            else:
                await room.stop()
        self.rooms.clear()
        try:
            if self.leases is not None:
                await self.leases.retire()  # others may take the tables at once
            else:
                await self.store.heartbeat()
        except Exception:
            log.exception("final heartbeat failed")
        self.pool.shutdown()
