"""The map preview of the create-table form and the host's settings (issue 16, IR-81..IR-83):
choosing a map draws the server's drawing of it (hexes, fixed terrain and numbers, lakes,
harbors; shuffled ones marked), with its name, tile count and player counts; a player count
the map does not support is said before the server refuses it; the table is created on it."""

from __future__ import annotations

from typing import Any

import httpx

from hexfolk.server.client import HexfolkClient
from tests.server.helpers import ThreadServer
from tests.web.helpers import in_thread, new_page, shoot


def _facts(server: ThreadServer, name: str, players: int = 4) -> dict[str, Any]:
    r = httpx.get(f"{server.url}/api/games/island/maps/{name}?players={players}", timeout=30)
    r.raise_for_status()
    return dict(r.json())


def _enter(page: Any, url: str, name: str) -> None:
    page.goto(url)
    page.fill("#name", name)
    page.click(".name-form button[type=submit]")
    page.wait_for_selector("#create-table")


def _shown(page: Any, map_id: str) -> None:
    page.wait_for_function(
        f"() => document.querySelector('#map-preview').dataset.map === {map_id!r}"
    )


def test_choosing_a_map_previews_it_and_the_table_uses_it(
    browser: Any, web_server: ThreadServer
) -> None:
    page = new_page(browser)
    _enter(page, web_server.url + "/", "Mara")
    # the default: the standard board of the player count (4 players: 19 hexes)
    _shown(page, "standard")
    assert page.locator("#map-preview svg .hex").count() == 19
    assert "19" in page.inner_text("#map-preview h3")
    page.select_option("#set-players", "6")
    page.wait_for_function("() => document.querySelectorAll('#map-preview svg .hex').length === 30")

    # a shuffled map with lakes: every hex drawn, lakes as lakes, the rest marked shuffled
    giants = _facts(web_server, "giants-land")
    page.select_option("#set-map", "giants-land")
    _shown(page, "giants-land")
    text = page.inner_text("#map-preview")
    assert "Giants' Land" in text and "61 tiles" in text and "6–8 players" in text
    hexes = page.locator("#map-preview svg .hex")
    assert hexes.count() == giants["tiles"]["total"] == 61
    assert page.locator("#map-preview .mp-lake").count() == giants["tiles"]["lake"] == 3
    assert page.locator("#map-preview .hex.t-D").count() == giants["tiles"]["desert"]
    assert page.locator("#map-preview .harbor").count() == giants["harbors"]
    assert page.locator("#map-preview .mp-sea").count() == len(giants["board"]["sea"])
    assert page.locator("#map-preview .map-warn").count() == 0  # 6 players fit 6-8
    shoot(page, "lobby-map-preview", show="#map-preview")
    # a player count the map does not support is said at once (the server would refuse it)
    page.select_option("#set-players", "4")
    page.wait_for_selector("#map-preview .map-warn")
    assert "6–8" in page.inner_text("#map-preview .map-warn")

    # a fixed map: its terrain and every number token as the server gives them
    keystone = _facts(web_server, "keystone")
    page.select_option("#set-map", "keystone")
    _shown(page, "keystone")
    tokens = sorted(h["token"] for h in keystone["board"]["hexes"] if h["token"])
    drawn = sorted(int(x) for x in page.locator("#map-preview .token-num").all_text_contents())
    assert drawn == tokens and len(tokens) == 18  # IR-83: Keystone 19 (18/1/0)
    assert page.locator("#map-preview .mp-shuffled").count() == 0
    # Driftland: an example island, said to be one
    page.select_option("#set-map", "driftland")
    _shown(page, "driftland")
    assert "example" in page.inner_text("#map-preview .map-legend")

    # the table is created on the chosen map, and the host's settings preview it too
    page.select_option("#set-map", "keystone")
    page.select_option("#set-players", "3")
    page.select_option("#set-bot-delay", "0")
    page.click("#create-table")
    page.wait_for_selector("#seats li.seat")
    tid = page.url.rsplit("/", 1)[-1]
    table = httpx.get(f"{web_server.url}/api/tables/{tid}", timeout=30).json()
    assert table["options"]["map"] == "keystone"
    assert "keystone" in page.inner_text(".settings-line")  # everyone at the table sees it
    page.click("details.settings summary")
    _shown(page, "keystone")
    assert page.input_value("#set-map") == "keystone"
    # a redraw of the table lobby (a seat changes) keeps the settings open, unsaved choice kept
    page.select_option("#set-map", "lagoon")
    _shown(page, "lagoon")
    token = page.evaluate("() => JSON.parse(localStorage.getItem('hexfolk.player')).token")
    httpx.put(
        f"{web_server.url}/api/tables/{tid}/seats/1",
        json={"kind": "bot", "level": "easy"},
        headers={"Authorization": f"Bearer {token}"},
        timeout=30,
    ).raise_for_status()
    page.wait_for_function("() => document.querySelector('#seats').innerText.includes('easy')")
    assert page.locator("details.settings").get_attribute("open") is not None
    assert page.input_value("#set-map") == "lagoon"
    _shown(page, "lagoon")
    shoot(page, "table-lobby-map", show="#map-preview")
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


def test_the_map_names_follow_the_language(browser: Any, web_server: ThreadServer) -> None:
    page = new_page(browser, locale="nl-NL")
    _enter(page, web_server.url + "/", "Joris")
    page.select_option("#set-map", "giants-land")
    _shown(page, "giants-land")
    assert page.inner_text("#map-preview h3") == "Reuzenland"
    assert "61 tegels" in page.inner_text("#map-preview")
    page.context.close()


def _bots_table(server: ThreadServer, map_id: str, players: int = 3) -> str:
    async def make() -> str:
        async with HexfolkClient(server.url) as host:
            await host.create_player("Host")
            t = await host.create_table(
                game="island",
                players=players,
                options={"map": map_id},
                seats=[{"kind": "bot", "level": "random"}] * players,
                clock=None,
                bot_delay=0.4,
            )
            await host.start(t["id"])
            return str(t["id"])

    return str(in_thread(make))


def test_a_game_on_a_lake_map_draws_its_lakes(browser: Any, web_server: ThreadServer) -> None:
    tid = _bots_table(web_server, "twin-meres")
    facts = _facts(web_server, "twin-meres")
    geo = httpx.get(f"{web_server.url}/api/tables/{tid}/geometry", timeout=30).json()["geometry"]
    page = new_page(browser)
    page.goto(f"{web_server.url}/#/t/{tid}")
    page.wait_for_selector("#board .hex")
    # lakes are not engine hexes (docs/island.md "Maps"): drawn from board.island
    assert page.locator("#board .hex.lake").count() == facts["tiles"]["lake"] == 2
    assert page.locator("#board .hex").count() == len(geo["hexes"]) + 2
    assert page.locator("#board .harbor").count() == len(geo["harbors"]) == facts["harbors"]
    shoot(page, "table-lakes", ("desktop", "phone"))
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


def test_a_driftland_game_is_drawn(browser: Any, web_server: ThreadServer) -> None:
    """Driftland's coastline is drawn with each game's layout (IR-83): the table's geometry is
    the laid-out island's (``GET /api/tables/{id}/geometry`` from the live state), one hex
    drawn per land hex of the island the seat's observation shows."""
    tid = _bots_table(web_server, "driftland")
    geo = httpx.get(f"{web_server.url}/api/tables/{tid}/geometry", timeout=30)
    assert geo.status_code == 200, geo.text
    page = new_page(browser)
    page.goto(f"{web_server.url}/#/t/{tid}")
    try:
        page.wait_for_selector("#board .hex, .card.narrow h2", timeout=15_000)
        assert page.locator("#board .hex").count() > 0, page.inner_text("main")
        obs = page.evaluate("() => window.__hexfolkView.observation")
        tiles = obs["board"]["island"].split(" ", 1)[0].split(";")
        assert len(geo.json()["geometry"]["hexes"]) == len(tiles)
        assert page.locator("#board .hex").count() >= len(tiles)
        assert page.errors == []  # type: ignore[attr-defined]
    finally:
        page.context.close()
