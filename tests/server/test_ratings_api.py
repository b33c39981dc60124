"""Rated games through the API on a real server (issue 30, point 3; docs/ratings.md): a rated
game played to the end raises the winner's rating exactly as OpenSkill computes it; a casual
game changes nothing; a guest is refused at a rated table; leaving a rated game counts as
finishing last; the leaderboard and a player's ratings."""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from typing import Any

import httpx
import pytest
from openskill.models import PlackettLuce

from hexfolk.ratings import BOT_SKILLS, displayed
from hexfolk.server.client import HexfolkClient, ServerError
from tests.server.accounts_for_tests import claim
from tests.server.helpers import ThreadServer, play_scripted, quick_choice, run
from tests.server.people_tables import start_and_watch_to_the_end

SEED = 4_118_552_907_314


async def _account(server: ThreadServer, client: HexfolkClient, name: str) -> str:
    """A new player of ``client`` that claims an account; its id."""
    player = await client.create_player(name)
    await claim(client, f"{name}-{player['id']}"[:24])
    return str(player["id"])


def _ratings(server: ThreadServer, player_id: str, games: int, within: float = 20) -> Any:
    """The player's ratings once ``games`` rated games are counted (the hook runs after the
    game's end, in its own task)."""
    deadline = time.time() + within
    while True:
        got = httpx.get(f"{server.url}/api/players/{player_id}/ratings").json()
        if sum(r["games"] for r in got) >= games or time.time() > deadline:
            return got
        time.sleep(0.1)


def test_a_rated_game_raises_the_winners_rating_as_openskill_computes(
    server: ThreadServer,
) -> None:
    async def scenario() -> tuple[str, list[str]]:
        ann, bob = HexfolkClient(server.url), HexfolkClient(server.url)
        try:
            ids = [await _account(server, ann, "Ann"), await _account(server, bob, "Bob")]
            t = await ann.create_table(
                game="island", players=2, options={"vp_target": 8}, clock=None,
                bot_delay=0, seed=SEED, rated=True,
            )  # fmt: skip
            assert t["rated"] is True
            await bob.join(t["id"], 1)
            await ann.start(t["id"])
            async with contextlib.AsyncExitStack() as stack:
                conns = [await stack.enter_async_context(c.connect(t["id"])) for c in (ann, bob)]
                rng = random.Random(SEED)
                await asyncio.gather(
                    *(play_scripted(conn, quick_choice(rng), timeout=150) for conn in conns)
                )
            return str(t["id"]), ids
        finally:
            await ann.aclose()
            await bob.aclose()

    tid, ids = run(scenario(), timeout=240)
    result = httpx.get(f"{server.url}/api/tables/{tid}").json()["result"]
    [winner] = result["winners"]
    model = PlackettLuce()
    ranks = [0.0 if seat == winner else 1.0 for seat in range(2)]
    expected = model.rate([[model.rating()], [model.rating()]], ranks=ranks)
    for seat, pid in enumerate(ids):
        [mine] = _ratings(server, pid, 1)
        assert (mine["game"], mine["family"], mine["games"]) == ("island", "2p", 1)
        assert mine["mu"] == expected[seat][0].mu
        assert mine["sigma"] == expected[seat][0].sigma
        assert [h["table_id"] for h in mine["history"]] == [tid]
        assert (mine["rating"] > 1000) == (seat == winner)
    board = httpx.get(f"{server.url}/api/ratings/island", params={"family": "2p"}).json()
    listed = [p["player_id"] for p in board["players"] if p["player_id"] in ids]
    assert listed == [ids[winner], ids[1 - winner]]
    assert all(p["games"] == 1 for p in board["players"] if p["player_id"] in ids)


def test_leaving_a_rated_game_counts_last_and_a_casual_game_changes_nothing(
    server: ThreadServer,
) -> None:
    async def scenario() -> tuple[str, str, str]:
        async with HexfolkClient(server.url) as away:
            pid = await _account(server, away, "Away")
            tables = {}
            for rated in (True, False):
                # Away never connects: after the grace a stand-in plays the seat to the end
                t = await away.create_table(
                    game="island", players=2, options={"vp_target": 8}, clock=None,
                    bot_delay=0, seed=SEED, rated=rated,
                    disconnect={"policy": "bot", "grace": 0.05},
                    seats=[{"kind": "host"}, {"kind": "bot", "level": "random"}],
                )  # fmt: skip
                tables[rated] = str(t["id"])
            await asyncio.gather(
                *(start_and_watch_to_the_end(away, tid, timeout=150) for tid in tables.values())
            )
            return pid, tables[True], tables[False]

    pid, rated_id, casual_id = run(scenario(), timeout=240)
    [mine] = _ratings(server, pid, 1)
    assert [h["table_id"] for h in mine["history"]] == [rated_id]  # the casual game: nothing
    # whatever the stand-in scored, Away left: last, below the random bot
    model = PlackettLuce()
    bot = BOT_SKILLS["random"]
    expected = model.rate([[model.rating()], [model.rating(bot.mu, bot.sigma)]], ranks=[1.0, 0.0])
    assert mine["mu"] == expected[0][0].mu and mine["rating"] < 1000
    casual = httpx.get(f"{server.url}/api/tables/{casual_id}").json()
    assert (casual["status"], casual["rated"]) == ("finished", False)
    time.sleep(0.5)  # the casual table's hook has long run: still one game
    assert _ratings(server, pid, 1)[0]["games"] == 1


def test_a_guest_cannot_sit_at_a_rated_table(server: ThreadServer) -> None:
    async def scenario() -> None:
        host, guest, other = (HexfolkClient(server.url) for _ in range(3))
        try:
            await _account(server, host, "Host")
            await guest.create_player("Guest")
            t = await host.create_table(game="island", players=3, rated=True)
            with pytest.raises(ServerError) as refused:
                await guest.join(t["id"])
            assert (refused.value.code, refused.value.status) == ("account_required", 403)
            assert (await host.table(t["id"]))["seats"][1]["kind"] == "open"  # nothing changed
            # a guest host cannot make a rated table it sits at
            with pytest.raises(ServerError) as own:
                await guest.create_table(game="island", players=2, rated=True)
            assert own.value.code == "account_required"
            # an account sits; a table with a guest seated cannot become rated
            await _account(server, other, "Other")
            await other.join(t["id"])
            casual = await host.create_table(game="island", players=2)
            await guest.join(casual["id"])
            with pytest.raises(ServerError) as seated:
                await host.configure(casual["id"], rated=True)
            assert (seated.value.code, seated.value.status) == ("guest_seated", 409)
            assert seated.value.data["seats"] == [1]
            assert (await host.table(casual["id"]))["rated"] is False
            await guest.leave(casual["id"])
            assert (await host.configure(casual["id"], rated=True))["rated"] is True
        finally:
            for c in (host, guest, other):
                await c.aclose()

    run(scenario())


def test_the_leaderboard_and_ratings_refuse_what_does_not_exist(server: ThreadServer) -> None:
    board = httpx.get(f"{server.url}/api/ratings/scythe").json()
    assert (board["family"], board["families"]) == ("2p", ["2p", "3-5p"])
    assert {b["level"]: b["rating"] for b in board["bots"]} == {
        level: displayed(skill) for level, skill in BOT_SKILLS.items()
    }
    bad = httpx.get(f"{server.url}/api/ratings/island", params={"family": "9p"})
    assert (bad.status_code, bad.json()["error"]["code"]) == (422, "bad_family")
    assert httpx.get(f"{server.url}/api/ratings/chess").status_code == 404
    assert httpx.get(f"{server.url}/api/players/nobody/ratings").status_code == 404
