"""Remote search bots (issue 12, item 13: ``hexfolk connect URL --bot hard``): a bot that sees only
its seat's view plays a seat of a real table to the end, and its searches run in worlds rebuilt
from that view (``Game.world_from_observation``), never falling back to the random bot."""

from __future__ import annotations

import random
from typing import Any

import pytest

from hexfolk.server.client import HexfolkClient
from hexfolk.server.remote_bot import RemoteBot, play_seat
from tests.server.helpers import ThreadServer, run


async def _remote_game(
    server: ThreadServer, game: str, options: dict[str, Any], code: str, seed: int
) -> tuple[dict[str, Any], RemoteBot]:
    """A table with an easy bot in seat 0 and the remote bot ``code`` in seat 1 (joined as a
    guest, as ``hexfolk connect --name`` does), played to the end through ``play_seat``."""
    async with HexfolkClient(server.url) as host, HexfolkClient(server.url) as remote:
        await host.create_player("Organizer")
        t = await host.create_table(
            game=game,
            players=2,
            options=options,
            bot_delay=0,
            seed=seed,
            seats=[{"kind": "bot", "level": "easy"}, {"kind": "open"}],
        )
        await remote.create_player("Robo")
        table = await remote.join(t["id"], 1)
        await host.start(t["id"])
        player = RemoteBot(code, table)
        async with remote.connect(t["id"]) as conn:
            final = await play_seat(conn, player, random.Random(seed))
        return final, player


@pytest.mark.parametrize(
    ("game", "options", "code"),
    [
        ("island", {"vp_target": 8}, "hard:iters=40"),
        ("scythe", {}, "medium"),
    ],
)
def test_a_remote_search_bot_plays_a_real_table_to_the_end(
    server: ThreadServer, game: str, options: dict[str, Any], code: str
) -> None:
    final, player = run(_remote_game(server, game, options, code, seed=3), timeout=400)
    assert final["status"] == "finished" and final["result"]["winners"]
    assert player.fell_back == 0  # every search ran in a rebuilt world
    assert player.searched > 10
    # a world may allow what the table refuses (docs/island.md, docs/scythe.md, "Worlds from
    # an observation"): rare, and then a listed action is played instead
    assert player.replaced <= max(2, player.searched // 20), (player.replaced, player.searched)


def test_a_game_without_the_hook_falls_back_and_counts_it(server: ThreadServer) -> None:
    """The random fallback is kept only for a game whose ``world_from_observation`` is the
    kernel's default (NotImplementedError): each such decision is counted."""
    from hexfolk.core import Game

    async def scenario() -> tuple[dict[str, Any], RemoteBot]:
        final, player = await _remote_game(server, "scythe", {}, "easy", seed=5)
        return final, player

    original = type(RemoteBot("easy", {"game": "scythe", "players": 2, "options": {}}).game)
    hook = original.world_from_observation
    original.world_from_observation = Game.world_from_observation  # type: ignore[method-assign]
    try:
        final, player = run(scenario(), timeout=400)
    finally:
        original.world_from_observation = hook  # type: ignore[method-assign]
    assert final["status"] == "finished"
    assert player.fell_back > 10 and player.searched == 0
