"""The mailbox of a live table: one asyncio task runs its queued jobs one after another, so
nothing at a table races (an action, an undo, a bot's move, a clock expiry, a lobby change,
chat). :meth:`Mailbox.call` awaits a job's result (or its :class:`ApiError`); :meth:`post`
queues one without waiting (timers, bots). A job that raises anything else is a bug: the
mailbox hands it to ``on_fault`` (the room rebuilds the table) and the caller gets a 500
``internal``. :func:`in_task` makes a room method run as such a job.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Concatenate, ParamSpec, Protocol, TypeVar

from hexfolk.server.errors import ApiError

log = logging.getLogger("hexfolk.server.room")
T = TypeVar("T")
P = ParamSpec("P")
Job = Callable[[], Awaitable[Any]]


class Mailbox:
    """The job queue and task of one table (``name``: the task's name)."""

    def __init__(self, name: str, on_fault: Callable[[Exception], Awaitable[None]]):
        self.name = name
        self.on_fault = on_fault
        self._queue: asyncio.Queue[tuple[Job | None, asyncio.Future[Any] | None]]
        self._queue = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self.stopped = False
        """True once stopping: a job asked for from then on is refused (:data:`GONE`)."""

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name=self.name)

    async def call(self, fn: Callable[[], Awaitable[T]]) -> T:
        """Run ``fn`` in the task and return its result (or raise its ApiError)."""
        if self.stopped:
            raise gone()
        fut: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait((fn, fut))
        return await fut

    def post(self, fn: Job) -> None:
        """Queue ``fn`` without waiting (timers, bots)."""
        self._queue.put_nowait((fn, None))

    async def stop(self) -> None:
        """Stop the task after the queued jobs (cancelled after 10 s); a job asked for later
        is refused."""
        self.stopped = True
        self._queue.put_nowait((None, None))
        if self._task is not None:
            try:
                await asyncio.wait_for(asyncio.shield(self._task), 10)
            except (TimeoutError, asyncio.CancelledError):
                self._task.cancel()

    async def _run(self) -> None:
        while True:
            fn, fut = await self._queue.get()
            if fn is None:
                while not self._queue.empty():  # asked for while stopping: refused
                    _, late = self._queue.get_nowait()
                    if late is not None and not late.done():
                        late.set_exception(gone())
                return
            try:
                result = await fn()
            except ApiError as err:
                if fut is not None and not fut.done():
                    fut.set_exception(err)
            except Exception as exc:  # a bug: the table is rebuilt, nothing was applied
                await self.on_fault(exc)
                if fut is not None and not fut.done():
                    why = "the table hit an internal error; nothing was applied"
                    fut.set_exception(ApiError("internal", why, 500))
            else:
                if fut is not None and not fut.done():
                    fut.set_result(result)


def gone() -> ApiError:
    """The refusal of a job asked of a stopped table (it moved to another server process, or
    this one stops): reconnect."""
    return ApiError("moved", "this table is no longer served here; reconnect", 503)


class HasMailbox(Protocol):
    mailbox: Mailbox


R = TypeVar("R", bound=HasMailbox)


def in_task(
    method: Callable[Concatenate[R, P], Awaitable[T]],
) -> Callable[Concatenate[R, P], Awaitable[T]]:
    """A method whose body runs as a job in its object's mailbox (never call one from inside
    another job: it would wait for itself)."""

    @functools.wraps(method)
    async def queued(self: R, *args: P.args, **kwargs: P.kwargs) -> T:
        return await self.mailbox.call(lambda: method(self, *args, **kwargs))

    return queued
