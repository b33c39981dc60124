"""Bot turns at a table: which bot seat decides now, its delay, asking the bot pool, and the
clock's default when a bot fails.

Bots decide in the kernel's walk order, as in ``simulate`` (``Match`` asks
``current_player()``): while the walk names an acting bot seat, the other bots wait for it (an
offering bot does not close its offer before a bot it asked has answered); a person is never
waited for. A bot's choice goes back through the room's queue (:meth:`BotTurns.chosen`), where
the table core applies it if it is still meant for now; the room then commits it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Collection

from hexfolk.core import derive_seed, make_rng
from hexfolk.server.botpool import BOT_FAILURE, BotPool
from hexfolk.server.crowd import STAND_IN_LEVEL, Crowd
from hexfolk.server.models import TableRow
from hexfolk.server.seats import seats_of
from hexfolk.server.table_core import TableCore

log = logging.getLogger("hexfolk.server.room")


def people_at(row: TableRow) -> frozenset[int]:
    """The seats people hold at the table: the bots' context (``Observation.people``; an away
    person's seat too, whose stand-in bot is told so). Empty at a bots-only table."""
    return frozenset(i for i, entry in enumerate(seats_of(row)) if entry.kind == "person")


def bot_code(row: TableRow, stand_in: Collection[int], seat: int) -> str | None:
    """The bot level playing ``seat`` now: its bot's, a stand-in's for an away person, else
    None (a person plays it)."""
    entry = seats_of(row)[seat]
    if entry.kind == "bot":
        return entry.level or "medium"
    return STAND_IN_LEVEL if seat in stand_in else None


class BotTurns:
    """The bot tasks of one table: at most one per acting bot seat, tied to the version from
    which that seat's decision is unchanged. A choice is queued with ``post`` (the room's
    mailbox) and, once applied, committed and announced with ``publish``."""

    def __init__(
        self,
        core: TableCore,
        pool: BotPool,
        crowd: Crowd,
        post: Callable[[Callable[[], Awaitable[None]]], None],
        publish: Callable[[], Awaitable[None]],
    ):
        self.core, self.pool, self.crowd = core, pool, crowd
        self.post, self.publish = post, publish
        self.tasks: dict[int, tuple[int, asyncio.Task[None]]] = {}

    def next(self) -> None:
        """Start the bots (and stand-ins) that decide now (:meth:`schedule`)."""
        stand_in = self.crowd.stand_in
        self.schedule(lambda seat: bot_code(self.core.row, stand_in, seat), stand_in)

    def schedule(self, code_of: Callable[[int], str | None], stand_in: set[int]) -> None:
        """Start the bots that decide now; cancel those whose decision changed.
        ``code_of(seat)``: the bot level playing the seat, None for a person."""
        core = self.core
        state = core.state
        if state is None or core.row.status != "playing":
            return
        acting = set(state.acting_seats())
        for seat in list(self.tasks):
            since, task = self.tasks[seat]
            if seat not in acting or since != core.decision_since.get(seat) or task.done():
                if not task.done():
                    task.cancel()
                del self.tasks[seat]
        walk = state.current_player()
        first = walk if walk in acting and code_of(walk) is not None else None
        for seat in sorted(acting):
            code = code_of(seat)
            if code is None or seat in self.tasks or first not in (None, seat):
                continue
            task = asyncio.get_running_loop().create_task(self._turn(seat, code, seat in stand_in))
            self.tasks[seat] = (core.decision_since.get(seat, core.version), task)

    def finished(self, seat: int) -> None:
        """The seat's bot answered: forget its task."""
        entry = self.tasks.get(seat)
        if entry is not None and entry[1].done():
            del self.tasks[seat]

    async def chosen(
        self, seat: int, code: str, version: int, text: str, stand_in: bool, failed: bool
    ) -> None:
        """A bot's choice, in the room's task: applied and published if the seat's bot still
        owes that decision, else the bots are scheduled again."""
        self.finished(seat)
        core = self.core
        state = core.state
        if state is None or core.row.status != "playing" or seat not in state.acting_seats():
            return
        if bot_code(core.row, self.crowd.stand_in, seat) != code or not core.bot_move(
            seat, version, text, stand_in=stand_in, failed=failed
        ):
            return self.next()
        await self.publish()

    def cancel(self, seat: int) -> None:
        entry = self.tasks.pop(seat, None)
        if entry is not None:
            entry[1].cancel()

    def cancel_all(self) -> None:
        for _, task in self.tasks.values():
            task.cancel()
        self.tasks.clear()

    async def _turn(self, seat: int, code: str, stand_in: bool) -> None:
        core = self.core
        row = core.row
        try:
            state = core.state
            if (
                row.bot_delay > 0
                and state is not None
                and seat in state.acting_seats()
                and state.clock_step(seat).bot_delay  # IR-30: bots sign up at once
            ):
                await asyncio.sleep(row.bot_delay)
            state = core.state
            if state is None or seat not in state.acting_seats():
                return
            version = core.version
            seed = derive_seed(row.seed, "bot", seat, version)
            failed = False
            try:
                text = await self.pool.choose(state, seat, code, seed, people_at(row))
            except asyncio.CancelledError:
                raise
            except Exception:
                # never silent: logged once here, counted by the pool (/healthz) and flagged on
                # the step the clock's default then plays (the table's statistics)
                failed = True
                log.exception(
                    "table %s: %s: bot %s at seat %d (version %d); the clock's default plays",
                    row.id,
                    BOT_FAILURE,
                    code,
                    seat,
                    version,
                )
                fallback = state.timeout_action(seat, make_rng(seed, "fallback"))
                if fallback is None:
                    return
                text = str(fallback)
            self.post(lambda: self.chosen(seat, code, version, text, stand_in, failed))
        except asyncio.CancelledError:
            return
