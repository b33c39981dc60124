"""Bots off the event loop: a small process pool shared by every table.

A bot sees what it sees in :class:`hexfolk.core.Match`: an :class:`Observation` of its seat
(the seat's JSON view and consistent resampled worlds, never the true state) and its legal
actions. The room pickles the state into the worker (a process boundary, never stored) and gets
back the action text, which then goes through the same checks as a person's.

The ``random`` bot costs microseconds, so it chooses in the room itself.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import multiprocessing
import pickle
import random
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from hexfolk.bots.registry import make_bot
from hexfolk.core import Bot, Observation, State

log = logging.getLogger("hexfolk.server.botpool")

INLINE_BOTS = frozenset({"random"})
"""Bot codes cheap enough to choose inside the room task."""


@functools.lru_cache(maxsize=32)
def _bot(code: str, game_id: str) -> Bot:
    return make_bot(code, game_id)


def choose_text(state: State, seat: int, code: str, seed: int) -> str:
    """The bot's choice for ``seat`` as action text (runs in a worker, or inline)."""
    legal = state.legal_actions_for(seat)
    if not legal:
        raise ValueError(f"seat {seat} has nothing to decide")
    bot = _bot(code, state.game.id)
    action = bot.choose(Observation(state, seat), legal, random.Random(seed))
    return str(action)


def _choose_pickled(blob: bytes, seat: int, code: str, seed: int) -> str:
    state: State = pickle.loads(blob)
    return choose_text(state, seat, code, seed)


def _warm() -> int:
    return 0


class BotPool:
    """``await pool.choose(state, seat, code, seed)`` → action text."""

    def __init__(self, workers: int = 2):
        self.workers = max(1, workers)
        self._executor: ProcessPoolExecutor | None = None

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            ctx = multiprocessing.get_context("spawn")
            self._executor = ProcessPoolExecutor(max_workers=self.workers, mp_context=ctx)
        return self._executor

    async def choose(self, state: State, seat: int, code: str, seed: int) -> str:
        if code in INLINE_BOTS:
            return choose_text(state, seat, code, seed)
        blob = pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._pool(), _choose_pickled, blob, seat, code, seed)
        except BrokenProcessPool:
            # a worker died (killed, out of memory): start a fresh pool for the next move
            log.error("the bot pool broke; starting a new one")
            self.shutdown()
            return await loop.run_in_executor(self._pool(), _choose_pickled, blob, seat, code, seed)

    def shutdown(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
