"""What happens once a table's game is over, outside its room: the hooks that run after the
final steps are committed (ratings, the post-game analysis, ...).

Each hook is a coroutine function taking the finished table's row. The room calls
:meth:`GameEnd.finished` once, after the commit that finished the game and after the views went
out; every hook then runs in its own task, so a slow hook never delays a live table. A hook that
fails is logged with its traceback and counted (``failures``), never swallowed silently.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from hexfolk.server.models import TableRow

log = logging.getLogger("hexfolk.server.game_end")

Hook = Callable[[TableRow], Awaitable[None]]


class GameEnd:
    """The hooks run when a game ends (registered at start-up by the server's app)."""

    def __init__(self) -> None:
        self.hooks: list[Hook] = []
        self.failures = 0
        """Hooks that raised (each logged with its table)."""
        self._tasks: set[asyncio.Task[None]] = set()

    def add(self, hook: Hook) -> None:
        """Run ``hook(row)`` after every game that ends in this process."""
        self.hooks.append(hook)

    def finished(self, row: TableRow) -> None:
        """The game of ``row`` just ended: start every hook in its own task."""
        for hook in self.hooks:
            task = asyncio.get_running_loop().create_task(self._run(hook, row))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _run(self, hook: Hook, row: TableRow) -> None:
        try:
            await hook(row)
        except Exception:
            self.failures += 1
            log.exception("table %s: a game-end hook (%s) failed", row.id, hook.__qualname__)

    async def drain(self) -> None:
        """Wait for the hooks still running (at shut-down, and in tests)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)
