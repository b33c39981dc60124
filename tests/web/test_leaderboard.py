"""The leaderboard page and the rated/casual badges in the browser (issue 30, point 3;
docs/ratings.md), at desktop size and on a phone held upright (360x640):

- ``#/ratings/island/2p`` lists the accounts of the 2-player island family as the API ranks
  them, the viewer's own row marked, the families and the games to switch to, the bots' fixed
  ratings; a family without rated games says so; nothing is wider than a 360 px phone.
- The lobby's lists, the table's own lobby and the top bar during the game show whether a
  table is rated or casual; the host creates a rated table from the create form.
- A guest who asks for a seat at a rated table is told why in the page's language (Dutch here).
- The pages pass the checks a person would make (issue 27): nothing off screen or covered, no
  serious axe-core violation.

Playwright on Debian's Chromium against a real uvicorn server; the ratings come from real
rated games played through the API (accounts made in the database: the accounts API is built
beside this, docs/ratings.md)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from pathlib import Path
from typing import Any

import httpx

from hexfolk.server.client import HexfolkClient
from tests.server.accounts_for_tests import claim
from tests.server.helpers import ThreadServer, play_scripted, quick_choice
from tests.server.people_tables import start_and_watch_to_the_end
from tests.web.conftest import SHOTS, keep_screenshot
from tests.web.helpers import in_thread, new_page, settle
from tests.web.person_checks import axe_missing, axe_violations, covered, overflow

WEB = Path(__file__).resolve().parents[2] / "src" / "hexfolk" / "web"
NL = json.loads((WEB / "i18n" / "nl.json").read_text(encoding="utf-8"))
PHONE = {"width": 360, "height": 640}
DESKTOP = {"width": 1280, "height": 800}
SEED = 77_123_456


def _rated_games(server: ThreadServer) -> dict[str, dict[str, Any]]:
    """Ann and Bob play a rated 2-player island game to its end; Cy leaves hers against a
    random bot (a stand-in finishes it). Their identities (name → the page's stored player)."""

    async def play() -> dict[str, dict[str, Any]]:
        clients = {name: HexfolkClient(server.url) for name in ("Ann", "Bob", "Cy")}
        try:
            players = {}
            for name, c in clients.items():
                await c.create_player(name)
                players[name] = await claim(c, f"{name.lower()}_plays")
            ann, bob, cy = clients.values()
            t = await ann.create_table(
                game="island", players=2, options={"vp_target": 8}, clock=None, bot_delay=0,
                seed=SEED, rated=True,
            )  # fmt: skip
            await bob.join(t["id"], 1)
            await ann.start(t["id"])
            left = await cy.create_table(
                game="island", players=2, options={"vp_target": 8}, clock=None, bot_delay=0,
                seed=SEED, rated=True, disconnect={"policy": "bot", "grace": 0.05},
                seats=[{"kind": "host"}, {"kind": "bot", "level": "random"}],
            )  # fmt: skip
            async with contextlib.AsyncExitStack() as stack:
                conns = [await stack.enter_async_context(c.connect(t["id"])) for c in (ann, bob)]
                rng = random.Random(SEED)
                await asyncio.gather(
                    start_and_watch_to_the_end(cy, left["id"], timeout=150),
                    *(play_scripted(conn, quick_choice(rng), timeout=150) for conn in conns),
                )
            return players
        finally:
            for c in clients.values():
                await c.aclose()

    players: dict[str, dict[str, Any]] = in_thread(play, timeout=240)
    for _ in range(100):  # the ratings are written just after each game's end
        board = httpx.get(f"{server.url}/api/ratings/island", params={"family": "2p"}).json()
        if len(board["players"]) == 3:
            break
        time.sleep(0.1)
    return players


def _as(page: Any, url: str, player: dict[str, Any] | None, lang: str = "en") -> None:
    page.goto(url + "/")
    page.locator("#name").wait_for()
    page.evaluate("(l) => localStorage.setItem('hexfolk.lang', l)", lang)
    if player is not None:
        page.evaluate("(p) => localStorage.setItem('hexfolk.player', p)", json.dumps(player))


def _fits(page: Any) -> None:
    width = page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
    assert width[0] <= width[1], f"the page is {width[0]} px wide in a {width[1]} px window"


def _person_checks(page: Any, where: str) -> None:
    """Issue 27's checks a person would make (tests/web/person_checks.py): nothing wider than
    the screen, every link and button on top at its centre, no serious axe-core violation."""
    problems = overflow(page, where) + covered(page, where)[1]
    if axe_missing() is None:
        problems += axe_violations(page, where)
    assert problems == [], "\n".join(problems)


def _shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    keep_screenshot(page, SHOTS / f"{name}.png", full_page=True)


def test_the_leaderboard_at_desktop_and_phone_size(browser: Any, web_server: ThreadServer) -> None:
    players = _rated_games(web_server)
    api = httpx.get(f"{web_server.url}/api/ratings/island", params={"family": "2p"}).json()
    expected = [(p["name"], str(p["rating"]), str(p["games"])) for p in api["players"]]
    assert sorted(name for name, _, _ in expected) == ["Ann", "Bob", "Cy"]
    assert expected[-1][0] == "Cy"  # she left: last, below the random bot
    for size, dims in (("desktop", DESKTOP), ("phone", PHONE)):
        page = new_page(browser, size=dims)
        _as(page, web_server.url, players["Bob"])
        page.goto(f"{web_server.url}/#/ratings/island/2p")
        page.locator("#ratings-table").wait_for()
        rows = page.eval_on_selector_all(
            "#ratings-table tbody tr",
            "(rs) => rs.map((r) => [r.querySelector('.pname').textContent,"
            " r.querySelector('.rating').textContent, r.querySelector('.games').textContent])",
        )
        assert [tuple(r) for r in rows] == expected
        mine = page.eval_on_selector_all("tr.me .pname", "(xs) => xs.map((x) => x.textContent)")
        assert mine == ["Bob"]
        families = page.eval_on_selector_all(
            ".rating-families a", "(xs) => xs.map((x) => [x.textContent, x.ariaCurrent])"
        )
        assert families == [["2 players", "page"], ["3–4 players", None], ["5–8 players", None]]
        bots = page.eval_on_selector_all(
            ".bot-ratings li", "(xs) => xs.map((x) => x.dataset.level)"
        )
        assert sorted(bots) == ["easy", "hard", "medium", "random"]
        settle(page)
        _fits(page)
        _person_checks(page, f"leaderboard at {size}")
        _shot(page, f"leaderboard-island-2p-{size}")
        # another family: nobody yet
        page.click(".rating-families a >> text=3–4 players")
        page.locator("#ratings-empty").wait_for()
        assert page.url.endswith("#/ratings/island/3-4p")
        # the other game
        page.click(".rating-games a >> nth=1")
        page.wait_for_function("() => location.hash.startsWith('#/ratings/scythe')")
        page.locator("#ratings-empty").wait_for()
        _fits(page)
        _shot(page, f"leaderboard-scythe-{size}")
        assert page.errors == []  # type: ignore[attr-defined]
        page.context.close()
    # Ann's profile (issue 30 point 5): her real rating of that game, its chart (one point per
    # rated game), "an account", never her user name
    mine = httpx.get(f"{web_server.url}/api/players/{players['Ann']['id']}/ratings").json()
    assert [(r["game"], r["family"], r["games"]) for r in mine] == [("island", "2p", 1)]
    page = new_page(browser, size=PHONE)
    _as(page, web_server.url, players["Bob"])
    page.goto(f"{web_server.url}/#/player/{players['Ann']['id']}")
    card = page.locator("#ratings .rating[data-game=island][data-family='2p']")
    card.wait_for()
    assert card.locator("h3").text_content() == f"Island · 2 players {mine[0]['rating']}"
    assert card.locator("svg.rating-chart circle").count() == len(mine[0]["history"]) == 1
    assert page.locator(".profile-head .account").text_content() == "Player with an account"
    assert "ann_plays" not in page.content()
    _fits(page)
    _shot(page, "profile-rated-phone")
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()
    # the lobby links to it
    page = new_page(browser, size=PHONE)
    _as(page, web_server.url, players["Ann"])
    page.goto(web_server.url + "/")
    page.click("#leaderboard-link")
    page.locator("#ratings-empty").wait_for()  # the usual count's family: nobody yet
    assert page.url.endswith("#/ratings")
    assert page.locator(".rating-families a.current").text_content() == "3–4 players"
    page.context.close()


def test_rated_and_casual_badges_and_a_guest_refused_in_dutch(
    browser: Any, web_server: ThreadServer
) -> None:

    async def host_player() -> dict[str, Any]:
        async with HexfolkClient(web_server.url) as c:
            await c.create_player("Hosta")
            p = await claim(c, "hosta_plays")
            await c.create_table(game="island", players=3, rated=False)
            return p

    host = in_thread(host_player)
    page = new_page(browser, size=DESKTOP)
    _as(page, web_server.url, host)
    page.goto(web_server.url + "/")
    page.locator("#set-players").select_option("3")
    page.locator("#set-rated").select_option("rated")
    for seat in (1, 2):
        page.locator(f"#spec-{seat}").select_option("open")
    page.click("#create-table")
    page.wait_for_function("() => location.hash.startsWith('#/t/')")
    page.locator("h1 .badge.rated").wait_for()
    assert page.locator("#table-rated").input_value() == "rated"
    rated_id = page.url.split("#/t/")[1]
    _shot(page, "rated-table-host-desktop")
    assert httpx.get(f"{web_server.url}/api/tables/{rated_id}").json()["rated"] is True
    page.goto(web_server.url + "/")
    page.locator(f'#my-tables li[data-table="{rated_id}"] .badge.rated').wait_for()
    assert page.locator("#my-tables .badge.casual").count() >= 1
    _shot(page, "lobby-badges-desktop")
    page.set_viewport_size(PHONE)
    settle(page)
    _fits(page)
    _person_checks(page, "the lobby with badges, on a phone")
    _shot(page, "lobby-badges-phone")
    page.context.close()

    # a guest, in Dutch, asks for a seat at the rated table
    guest = new_page(browser, locale="nl-NL", size=PHONE)
    guest.goto(web_server.url + "/")
    guest.locator("#name").fill("Gast")
    guest.click(".name-form button")
    guest.locator("#my-tables").wait_for()
    guest.evaluate("() => localStorage.setItem('hexfolk.lang', 'nl')")
    guest.goto(f"{web_server.url}/#/t/{rated_id}")
    guest.locator("h1 .badge.rated").wait_for()
    assert guest.locator("h1 .badge").text_content() == NL["badge.rated"]
    guest.locator("button.join-seat").first.click()
    guest.wait_for_function(
        "(want) => document.getElementById('toast').textContent === want",
        arg=NL["err.account_required"],
    )
    _fits(guest)
    _person_checks(guest, "a rated table's lobby, for a guest, on a phone")
    _shot(guest, "rated-table-guest-refused-phone")
    seats = httpx.get(f"{web_server.url}/api/tables/{rated_id}").json()["seats"]
    assert [s["kind"] for s in seats] == ["person", "open", "open"]
    assert guest.errors == []  # type: ignore[attr-defined]
    guest.context.close()

    # the host fills the seats with bots and starts: the top bar keeps the badge in the game
    page = new_page(browser, size=PHONE)
    _as(page, web_server.url, host)
    page.goto(f"{web_server.url}/#/t/{rated_id}")
    page.click("#fill-bots")
    page.wait_for_function("() => !document.getElementById('start').disabled")
    page.click("#start")
    page.locator("#top-extra .badge.rated").wait_for()
    assert page.locator("#top-extra .badge").text_content() == "Rated"
    settle(page)
    _fits(page)
    _shot(page, "rated-game-top-bar-phone")
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()
