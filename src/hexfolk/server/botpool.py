"""Bots off the event loop: a small process pool shared by every table.

A bot sees what it sees in :class:`hexfolk.core.Match`: an :class:`Observation` of its seat
(the seat's JSON view and consistent resampled worlds, never the true state) and its legal
actions. The room pickles the state into the worker (a process boundary, never stored) and gets
back the action text, which then goes through the same checks as a person's. The room also
passes the table's context, ``people`` (the seats people hold, a frozenset that pickles with the
call): the observation's :attr:`~hexfolk.core.Observation.people` (issue 27: island bots then
make at most one offer per turn; a bots-only table passes none, so its bots play as in
``simulate``).

The ``random`` bot costs microseconds, so it chooses in the room itself.

A failed choice (the bot raised, or its worker died) is never silent: :meth:`BotPool.choose`
raises it to the room, which logs it once with its traceback (the message carries
:data:`BOT_FAILURE`), plays the clock's default instead, flags that step ``bot_failed`` (the
table's statistics count it per seat) and the pool counts it for the server (``/healthz``).

Finished games are analysed in the pool's low-priority lane (:mod:`.analysis_lane`, one worker
process of its own at nice 19), never by the bot workers: live decisions always go first.

Workers never outlive the server: each one watches its parent (:func:`_watch_parent`) and exits
within :data:`PARENT_CHECK` seconds once the server process is gone, even after a SIGKILL.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import multiprocessing
import os
import pickle
import random
import threading
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from hexfolk.bots.registry import make_bot
from hexfolk.core import Bot, Observation, State
from hexfolk.server.analysis_lane import AnalysisLane

log = logging.getLogger("hexfolk.server.botpool")

INLINE_BOTS = frozenset({"random"})
"""Bot codes cheap enough to choose inside the room task."""

BOT_FAILURE = "bot failure"
"""Every log line of a failed bot decision contains these words (the tests watch for them)."""

PARENT_CHECK = 0.5
"""A worker checks every 0.5 s that the server process that started it is still alive."""


@functools.lru_cache(maxsize=32)
def _bot(code: str, game_id: str) -> Bot:
    return make_bot(code, game_id)


def choose_text(
    state: State, seat: int, code: str, seed: int, people: frozenset[int] = frozenset()
) -> str:
    """The bot's choice for ``seat`` as action text (runs in a worker, or inline);
    ``people``: the seats people hold at its table."""
    legal = state.legal_actions_for(seat)
    if not legal:
        raise ValueError(f"seat {seat} has nothing to decide")
    bot = _bot(code, state.game.id)
    action = bot.choose(Observation(state, seat, people), legal, random.Random(seed))
    return str(action)


def _choose_pickled(
    blob: bytes, seat: int, code: str, seed: int, people: frozenset[int] = frozenset()
) -> str:
    state: State = pickle.loads(blob)
    return choose_text(state, seat, code, seed, people)


def forget_bots() -> None:
    """Drop the bots built so far in this process (after :func:`register_bot` replaced a code)."""
    _bot.cache_clear()


def _parent_gone(parent: int) -> bool:
    """Whether the process ``parent`` has ended (this process was then reparented)."""
    return os.getppid() != parent


def _watch_parent(parent: int) -> None:
    """In a worker: end this process as soon as ``parent`` is gone. A daemon thread checks every
    :data:`PARENT_CHECK` seconds that the worker has not been reparented (a SIGKILLed server
    runs no clean-up, so nobody else would stop its workers). Portable, and unlike Linux's
    ``PR_SET_PDEATHSIG`` it does not depend on which of the server's threads started the worker."""
    if _parent_gone(parent):
        os._exit(0)

    def watch() -> None:
        stop = threading.Event()
        while not stop.wait(PARENT_CHECK):
            if _parent_gone(parent):
                os._exit(0)

    threading.Thread(target=watch, name="hexfolk-parent-watch", daemon=True).start()


def _warm() -> int:
    return 0


class BotPool:
    """``await pool.choose(state, seat, code, seed, people)`` → action text."""

    def __init__(self, workers: int = 2):
        self.workers = max(1, workers)
        self._executor: ProcessPoolExecutor | None = None
        self.decisions = 0
        """Bot decisions asked of this pool (this server process)."""
        self.failures = 0
        """Decisions that raised instead of answering (``/healthz`` shows it)."""
        self.analysis = AnalysisLane(_watch_parent)
        """The low-priority lane of finished games' analyses (:mod:`.analysis_lane`): its own
        worker process at nice 19, never one of the bot workers."""

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            ctx = multiprocessing.get_context("spawn")
            self._executor = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=ctx,
                initializer=_watch_parent,
                initargs=(os.getpid(),),
            )
        return self._executor

    async def choose(
        self, state: State, seat: int, code: str, seed: int, people: frozenset[int] = frozenset()
    ) -> str:
        """The bot's action text; raises what the bot raised (counted in :attr:`failures`).
        ``people``: the seats people hold at the table (the observation's context)."""
        self.decisions += 1
        try:
            return await self._choose(state, seat, code, seed, people)
        except asyncio.CancelledError:
            raise
        except Exception:
            self.failures += 1
            raise

    async def _choose(
        self, state: State, seat: int, code: str, seed: int, people: frozenset[int]
    ) -> str:
        if code in INLINE_BOTS:
            return choose_text(state, seat, code, seed, people)
        blob = pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)
        loop = asyncio.get_running_loop()
        call = functools.partial(_choose_pickled, blob, seat, code, seed, people)
        try:
            return await loop.run_in_executor(self._pool(), call)
        except BrokenProcessPool:
            # a worker died (killed, out of memory): start a fresh pool for the next move
            log.error("the bot pool broke; starting a new one")
            self._stop_bots()
            return await loop.run_in_executor(self._pool(), call)

    def _stop_bots(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None

    def shutdown(self) -> None:
        """Stop the bot workers and the analysis lane."""
        self._stop_bots()
        self.analysis.shutdown()
