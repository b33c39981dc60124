"""``GET /api/tables/{id}/geometry`` (issue 16): a fixed board's geometry from the game and its
options; Driftland's, whose coastline is drawn from the seed with the layout (IR-83), from the
live state once laid out — the places of the island every seat's observation already shows
(``board.island``), nothing hidden; before the game starts, a 409 that says why."""

from __future__ import annotations

from typing import Any

import httpx

from hexfolk.core import load_game
from hexfolk.games.island.geometry import drawing_geometry
from hexfolk.server.client import HexfolkClient
from tests.server.helpers import ThreadServer, run

BOTS = [{"kind": "bot", "level": "random"}] * 3


def _geometry(server: ThreadServer, tid: str) -> httpx.Response:
    return httpx.get(f"{server.url}/api/tables/{tid}/geometry", timeout=30)


def _public_geometry(observation: dict[str, Any]) -> dict[str, Any]:
    """The geometry a spectator can draw from its own observation: the island as laid out."""
    game = load_game("island", 3, {"map": "driftland"})
    outcome: Any = game.parse_action_syntax("layout " + observation["board"]["island"])
    return drawing_geometry(outcome.topology)


async def _driftland(server: ThreadServer, *, start: bool) -> tuple[str, dict[str, Any] | None]:
    async with HexfolkClient(server.url) as host:
        await host.create_player("Host")
        t = await host.create_table(
            game="island",
            players=3,
            options={"map": "driftland"},
            seats=BOTS,
            clock=None,
            bot_delay=5,  # slow bots: the table barely moves while we look
        )
        tid = str(t["id"])
        if not start:
            return tid, None
        await host.start(tid)
        watcher = HexfolkClient(server.url)
        try:
            async with watcher.connect(tid, spectate=True) as conn:
                view = await conn.wait_for(lambda v: v["observation"]["board"].get("island"))
        finally:
            await watcher.aclose()
        return tid, view["observation"]


def test_a_driftland_table_has_the_geometry_of_its_laid_out_island(server: ThreadServer) -> None:
    tid, obs = run(_driftland(server, start=True))
    assert obs is not None
    r = _geometry(server, tid)
    assert r.status_code == 200, r.text
    geo = r.json()["geometry"]
    assert r.json()["game"] == "island"
    assert geo == _public_geometry(obs)
    tiles = obs["board"]["island"].split(" ", 1)[0].split(";")
    assert len(geo["hexes"]) == len(tiles) > 0  # IR-83: one centre per land hex laid out
    assert all(0 <= a < len(geo["nodes"]) and 0 <= b < len(geo["nodes"]) for a, b in geo["edges"])
    # only places and the rules' fixed costs (the page's cost card, issue 27): no terrain,
    # token, harbor kind or piece
    assert set(geo) == {"board", "name", "hexes", "nodes", "edges", "harbors", "labels", "costs"}
    assert geo["costs"]["city"] == {"grain": 2, "ore": 3}  # rules sheet 1.1
    assert len(geo["labels"]["hexes"]) == len(geo["hexes"])  # a letter per hex (docs/log.md)
    assert _geometry(server, tid).json()["geometry"] == geo  # the same for every request


def test_two_driftland_tables_have_two_coastlines(server: ThreadServer) -> None:
    one, _ = run(_driftland(server, start=True))
    two, _ = run(_driftland(server, start=True))
    a, b = (_geometry(server, t).json()["geometry"] for t in (one, two))
    assert a["board"] == b["board"] == "driftland"
    assert a["hexes"] != b["hexes"]  # a new coastline every game (IR-83, Driftland)


def test_a_driftland_table_before_its_start_has_no_geometry_yet(server: ThreadServer) -> None:
    tid, _ = run(_driftland(server, start=False))
    r = _geometry(server, tid)
    assert r.status_code == 409
    err = r.json()["error"]
    assert err["code"] == "not_laid_out"
    assert "new coastline" in err["message"] and "started" in err["message"]


def test_a_fixed_board_is_the_games_geometry_before_and_after_the_start(
    server: ThreadServer,
) -> None:
    async def make() -> tuple[str, dict[str, Any]]:
        async with HexfolkClient(server.url) as host:
            await host.create_player("Host")
            t = await host.create_table(
                game="island", players=3, options={"map": "keystone"}, seats=BOTS, bot_delay=5
            )
            before = (await host.request("GET", f"/api/tables/{t['id']}/geometry"))["geometry"]
            await host.start(t["id"])
            return str(t["id"]), before

    tid, before = run(make())
    after = _geometry(server, tid).json()["geometry"]
    assert before == after == load_game("island", 3, {"map": "keystone"}).board_geometry()


def test_an_unknown_table_has_no_geometry(server: ThreadServer) -> None:
    r = _geometry(server, "no-such-table")
    assert r.status_code == 404
