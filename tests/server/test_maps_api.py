"""The island maps over HTTP for the create-table preview (issue 16, IR-81..IR-83): the list in
IR-83 order with tile and player counts, one map's drawing (fixed terrain and numbers given,
shuffled ones null, lakes and lake harbors, the sea frame), the standard board per player
count, and a bad name refused with a sentence naming the maps."""

from __future__ import annotations

import httpx

from hexfolk.games.island import maps
from tests.server.helpers import ThreadServer


def _get(server: ThreadServer, path: str) -> httpx.Response:
    return httpx.get(f"{server.url}/api/games/island{path}", timeout=30)


def test_the_list_has_every_map_of_ir83_in_order(server: ThreadServer) -> None:
    r = _get(server, "/maps")
    assert r.status_code == 200
    body = r.json()
    assert body["default"] == "standard"
    got = body["maps"]
    assert [m["id"] for m in got] == maps.map_ids()
    assert [m["number"] for m in got] == list(range(1, 23))  # IR-83 rows 1..22
    by_id = {m["id"]: m for m in got}
    # IR-83 table rows: Lagoon 16 tiles, 2-3 players; Giants' Land 61 (55/3/3), 6-8
    assert by_id["giants-land"]["tiles"] == {"total": 61, "producing": 55, "desert": 3, "lake": 3}
    assert by_id["giants-land"]["players"] == {"min": 6, "max": 8}
    assert by_id["giants-land"]["names"] == {"en": "Giants' Land", "nl": "Reuzenland"}
    assert by_id["twin-meres"]["tiles"]["lake"] == 2
    assert by_id["driftland"]["coastline"] == "random"


def test_a_fixed_map_is_drawn_with_its_terrain_and_numbers(server: ThreadServer) -> None:
    m = maps.load_map("keystone")
    body = _get(server, "/maps/keystone").json()
    board = body["board"]
    assert body["terrain"] == "fixed" and body["numbers"] == "fixed"
    assert len(board["hexes"]) == body["tiles"]["total"] == len(m.hexes)
    for got, want in zip(board["hexes"], m.hexes, strict=True):
        assert tuple(got["at"]) == want.at
        assert got["xy"] == [2 * want.at[0] + want.at[1], 3 * want.at[1]]
        assert got["terrain"] == want.terrain and got["token"] == want.token
    assert len(board["harbors"]) == len(m.harbors) == body["harbors"]
    for hb in board["harbors"]:
        a, b = hb["points"]
        assert abs(a[0] - b[0]) + abs(a[1] - b[1]) == 2  # one side of a hex on the doubled grid
        assert hb["land"] == [2 * hb["at"][0] + hb["at"][1], 3 * hb["at"][1]]
    assert len(board["sea"]) == len(m.sea()) and not board["example"]


def test_a_shuffled_map_with_lakes_names_them_and_hides_nothing_fixed(
    server: ThreadServer,
) -> None:
    body = _get(server, "/maps/Tweelingmeren").json()  # the Dutch name finds it too
    assert body["id"] == "twin-meres"
    kinds = [h["kind"] for h in body["board"]["hexes"]]
    assert kinds.count("lake") == 2 and kinds.count("desert") == body["tiles"]["desert"]
    if body["terrain"] != "fixed":
        assert all(h["terrain"] is None for h in body["board"]["hexes"])
    lakes = {tuple(h["at"]) for h in body["board"]["hexes"] if h["kind"] == "lake"}
    on_lake = [hb for hb in body["board"]["harbors"] if _across(hb) in lakes]
    assert len(on_lake) == body["lake_harbors"] > 0  # IR-83: 2:1 lake harbors


def _across(hb: dict[str, object]) -> tuple[int, int]:
    at = hb["at"]
    assert isinstance(at, list) and isinstance(hb["side"], str)
    dq, dr = maps.DIRECTIONS[hb["side"]]
    return (at[0] + dq, at[1] + dr)


def test_driftland_shows_an_example_island(server: ThreadServer) -> None:
    body = _get(server, "/maps/driftland").json()
    assert body["board"]["example"] is True
    assert len(body["board"]["hexes"]) == body["tiles"]["total"]


def test_the_standard_board_follows_the_player_count(server: ThreadServer) -> None:
    for players, tiles in ((3, 19), (5, 30), (8, 44)):
        body = _get(server, f"/maps/standard?players={players}").json()
        assert body["tiles"]["total"] == tiles == len(body["board"]["hexes"])
        assert body["terrain"] == "shuffled"
    r = _get(server, "/maps/standard?players=9")
    assert r.status_code == 422 and "2-8" in r.json()["error"]["message"]


def test_an_unknown_map_is_a_404_with_a_sentence(server: ThreadServer) -> None:
    r = _get(server, "/maps/atlantis")
    assert r.status_code == 404
    err = r.json()["error"]
    assert err["code"] == "not_found"
    assert "atlantis" in err["message"] and "lagoon" in err["message"]
