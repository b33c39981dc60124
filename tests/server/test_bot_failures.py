"""Issue 25 (Deliver 3): a failed bot decision is never silent. It is logged once with its
traceback (the ``bot failure`` marker the autouse fixture watches for), counted for the server
(``/healthz``) and for the table (each seat's ``bot_failures`` in the statistics of the
summary), and the table still moves on (the clock's default plays that step).

The failing bot is the ``random`` code replaced, in this test process only, through the public
``register_bot``: ``random`` chooses inside the room's task (``INLINE_BOTS``), so the room of
this in-process server builds it from this process's registry. It fails its first
:data:`FAILS` decisions and then plays as the random bot, so the game ends.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import httpx
import pytest

from hexfolk.bots.random_bot import RandomBot
from hexfolk.bots.registry import register_bot
from hexfolk.core import Action, Bot, Observation
from hexfolk.server.botpool import BOT_FAILURE, forget_bots
from tests.server.conftest import BotFailureWatch
from tests.server.helpers import ThreadServer, run, thread_server
from tests.server.people_tables import watch_a_bots_game

FAILS = 3


class FailingFirst:
    """Raises on its first ``fails`` decisions at this test's server, then plays like the
    random bot. The registry is the process's: another test's server still alive in this
    process (a module's or the session's, its bots playing on) builds this bot too, so only
    the decisions made in :attr:`thread` (this test's server's) fail and are counted."""

    name = "failing-first"

    def __init__(self, fails: int):
        self.left = fails
        self.random = RandomBot()
        self.thread: threading.Thread | None = None

    def choose(
        self, observation: Observation, legal: Sequence[Action], rng: random.Random
    ) -> Action:
        if self.left > 0 and threading.current_thread() is self.thread:
            self.left -= 1
            raise RuntimeError("planted bot failure (test)")
        return self.random.choose(observation, legal, rng)


@pytest.fixture
def failing_random(tmp_path: Path) -> Iterator[ThreadServer]:
    bot = FailingFirst(FAILS)

    def factory(game_id: str, params: dict[str, str]) -> Bot:
        return bot

    register_bot("random", factory)
    forget_bots()
    try:
        with thread_server(
            data_dir=tmp_path, testing=True, allow_seeded_tables=True, sqlite_synchronous="NORMAL"
        ) as srv:
            bot.thread = srv.thread
            yield srv
    finally:
        register_bot("random", lambda game_id, params: RandomBot())
        forget_bots()


def test_a_failed_bot_decision_is_logged_counted_and_the_table_moves_on(
    failing_random: ThreadServer, bot_failures_expected: BotFailureWatch
) -> None:
    async def scenario() -> dict[str, Any]:
        _, view = await watch_a_bots_game(failing_random.url, "random", 5, timeout=150)
        return dict(view)

    view = run(scenario(), timeout=170)
    url = failing_random.url
    # logged once each, with the bot's traceback
    records = bot_failures_expected.records
    assert len(records) == FAILS
    for record in records:
        assert BOT_FAILURE in record.getMessage() and record.exc_info is not None
        assert "planted bot failure" in str(record.exc_info[1])
    # counted for the server
    health = httpx.get(f"{url}/healthz").json()
    assert health["bot_failures"] == FAILS
    assert health["bot_decisions"] > FAILS
    # counted for the table, per seat, and the table moved on to the end
    summary = httpx.get(f"{url}/api/tables/{view['table']}/summary").json()
    seats = summary["statistics"]["seats"]
    assert sum(s["bot_failures"] for s in seats) == FAILS
    assert all(s["bot"] == s["decisions"] > 0 for s in seats)
