"""A table loaded from its committed event log (nothing else is trusted), and a playing table
going on from there: after the server started, or after a fault's rebuild (:mod:`.recovery`).
Going on means grace periods for the absent people, then the chance draw a crash interrupted,
or the clock and the bots of the turn. Each runs in the room's task.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable

from hexfolk.server.connections import Connections
from hexfolk.server.store import Store

Job = Callable[[], Awaitable[None]]


class Resume:
    """Loading and resuming the table of ``connections`` (its core and fan-out); ``post``
    queues a job in the room's task, ``publish`` commits and announces the pending steps,
    ``next_turn`` arms the clock and starts the bots."""

    def __init__(
        self,
        connections: Connections,
        store: Store,
        post: Callable[[Job], None],
        publish: Job,
        next_turn: Callable[[], None],
    ):
        self.connections, self.store = connections, store
        self.core, self.fanout, self.row = connections.core, connections.fanout, connections.row
        self.post, self.publish, self.next_turn = post, publish, next_turn

    async def load(self) -> None:
        """Rebuild the state by replaying the committed event log."""
        self.fanout.forget()
        row = self.row
        self.core.load(await self.store.events(row.id) if row.status != "lobby" else [])

    async def resume(self) -> None:
        """A playing table goes on (grace periods, then the interrupted draw or the turn)."""
        state = self.core.state
        if self.row.status != "playing" or state is None:
            return
        self.connections.start_graces()
        if state.is_chance():  # a crash between a step and its chance draw
            self.post(self.draw_and_publish)
            return
        self.core.clock.follow(state, time.time())  # windows saved before clock steps
        self.next_turn()

    async def draw_and_publish(self) -> None:
        """Draw the pending chance outcomes and commit them (after a restart)."""
        state = self.core.state
        if state is not None and state.is_chance() and self.row.status == "playing":
            self.core.draw_chance()
            await self.publish()

    async def rebuild(self) -> None:
        """The table again from its log (after a fault); everyone gets a whole view."""
        await self.load()
        await self.resume()
        self.fanout.send_views(full=True)
