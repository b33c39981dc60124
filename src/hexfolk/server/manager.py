"""The live rooms of one server process: loading on demand, recovery at start, heartbeat."""

from __future__ import annotations

import asyncio
import logging
import time

from hexfolk.server.botpool import BotPool
from hexfolk.server.chat import LIVE
from hexfolk.server.errors import not_found
from hexfolk.server.limits import ACTION_RATE, HEARTBEAT_SECONDS
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
        self.rematch_lock = asyncio.Lock()

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
        ids = [row.host_id] + [s.player_id for s in seats_of(row) if s.player_id]
        players = await self.store.players_by_id(ids)
        names = {k: p.name for k, p in players.items()}
        room = Room(row, self.store, self.pool, names=names, action_rate=self.action_rate)
        if row.status != "errored":
            try:
                await room.load()
            except Exception as exc:
                log.exception("table %s: its event log does not replay; marked errored", row.id)
                row.status = "errored"
                row.error = f"{type(exc).__name__}: {exc}"[:500]
                await self.store.save_table(row.id, status="errored", error=row.error)
        room.shift_clocks(down)
        room.start()
        if row.status in LIVE:
            room.resume()
        self.rooms[table_id] = room
        return room

    async def recover(self) -> int:
        """Load every unfinished table (replaying its log), giving back the down time to the
        running clocks: now minus the later of the last heartbeat and the table's last commit."""
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
        self._heartbeat = asyncio.get_running_loop().create_task(self._beat())

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
            asyncio.get_running_loop().create_task(room.stop())

    async def close(self) -> None:
        if self._heartbeat is not None:
            self._heartbeat.cancel()
        for room in list(self.rooms.values()):
            await room.stop()
        self.rooms.clear()
        try:
            await self.store.heartbeat()
        except Exception:
            log.exception("final heartbeat failed")
        self.pool.shutdown()
