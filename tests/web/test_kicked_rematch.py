"""The browser's side of issue 25, findings 7 and 9, and of the two chat channels
(docs/server.md, "Kicks" and "Chat"; docs/protocol.md, `kicked` and `rematch`; docs/web.md):

* Finding 9: a person the host moves out of their seat is told so in the page's language; at a
  table with spectators the page goes on as a watcher's (the lobby without a seat, Join offered
  again); at a table without spectators the server closes the socket (4401) and the page says
  why, does not reconnect, and offers the open seat again (a kick is not a ban).
* Finding 7: when the rematch table is made, every page at the old table (a player's end panel,
  the island's overview, a spectator) shows the way to it; the person who asked is taken there.
* Chat channels: each line shows the channel the server gave it, and the form says whether a
  line goes to the players or to the spectators.

Playwright on Debian's Chromium against a real uvicorn server; the host is a Python client.
Screenshots at 1280x800 and 390x844 go to build/web-screenshots/test_kicked_rematch."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from hexfolk.server.client import HexfolkClient
from tests.server.helpers import ThreadServer, play_scripted
from tests.server.people_tables import start_and_watch_to_the_end
from tests.server.test_wire_chat import _builder
from tests.web.bot_table import at_a_table_with_a_bot
from tests.web.conftest import SHOTS as CONFTEST_SHOTS
from tests.web.conftest import keep_screenshot
from tests.web.helpers import in_thread, new_page, reveal_tab, settle, wait_rendered
from tests.web.own_seat import enter

SHOTS = CONFTEST_SHOTS / Path(__file__).stem  # build/web-screenshots/<module>
WIDE = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
SEATED = (
    "(n) => { const s = document.querySelector('#seats'); return !!s && s.innerText.includes(n); }"
)
"""The table's lobby is drawn with a seat of the person named ``n``."""
UNSEATED = (
    "(n) => { const s = document.querySelector('#seats'); return !!s && !s.innerText.includes(n); }"
)


def _shots(page: Any, name: str, show: str | None = None) -> None:
    """The page at 1280x800 and 390x844 (for a person to look at; not compared); ``show``
    (a selector) is scrolled into view first."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for label, size in (("wide", WIDE), ("phone", PHONE)):
        page.set_viewport_size(size)
        settle(page)
        if show:
            reveal_tab(page, show)
            page.locator(show).first.scroll_into_view_if_needed()
        keep_screenshot(page, SHOTS / f"{name}-{label}.png", full_page=False)
    page.set_viewport_size(WIDE)


def _host_table(server: ThreadServer, spectators: bool) -> tuple[str, str]:
    """A two-seat island table in its lobby: the host (a Python client) in seat 0, seat 1
    open; the table's id and the host's token."""

    async def make() -> tuple[str, str]:
        async with HexfolkClient(server.url) as host:
            await host.create_player("Hanna")
            t = await host.create_table(
                game="island",
                players=2,
                spectators=spectators,
                clock=None,
                seats=[{"kind": "host"}, {"kind": "open"}],
            )
            return str(t["id"]), str(host.token)

    return in_thread(make)  # type: ignore[no-any-return]


def _kick(server: ThreadServer, token: str, tid: str, seat: int) -> None:
    async def kick() -> None:
        async with HexfolkClient(server.url, token=token) as host:
            await host.kick(tid, seat)

    in_thread(kick)


def _sockets(page: Any) -> list[str]:
    """The WebSocket URLs the page opens from now on."""
    opened: list[str] = []
    page.on("websocket", lambda ws: opened.append(ws.url))
    return opened


def test_a_kicked_person_is_told_and_watches_on_and_may_sit_again(
    browser: Any, web_server: ThreadServer
) -> None:
    """Finding 9, a table with spectators: the notice names the host and the seat, the lobby
    is drawn without the person's seat, Join is offered again and takes the seat back."""
    tid, host = _host_table(web_server, spectators=True)
    page = new_page(browser, locale="en-US", size=WIDE)
    enter(page, web_server.url + "/", "Bo")
    page.goto(f"{web_server.url}/#/t/{tid}")
    opened = _sockets(page)
    page.click("#join")
    page.wait_for_function(SEATED, arg="Bo")
    # taking the seat may reopen the watcher's socket as the seat's (web/socket.js checkSeat);
    # its event can arrive after the seat is drawn: let it land, then count from there
    page.wait_for_timeout(1000)
    joined = len(opened)

    _kick(web_server, host, tid, 1)
    note = page.locator("#page-note")
    note.wait_for(state="visible")
    text = note.inner_text()
    assert "Hanna moved you out of seat 2" in text, text
    assert "watching" in text and "open" in text, text
    # the watcher's lobby: no seat of Bo's, Join offered again
    page.wait_for_function(UNSEATED, arg="Bo")
    page.locator("#join").wait_for()
    assert page.locator("#leave").count() == 0
    _shots(page, "kicked-watching")
    page.wait_for_timeout(500)
    # the same socket watches on (the server made it a watcher)
    assert opened[joined:] == [], opened

    page.click("#join")  # a kick is not a ban: the open seat is taken again
    page.wait_for_function(SEATED, arg="Bo")
    page.locator("#leave").wait_for()
    assert not note.is_visible()  # seated again: the notice is gone
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


def test_a_kicked_person_at_a_table_without_spectators_is_told_why_and_not_reconnected(
    browser: Any, web_server: ThreadServer
) -> None:
    """Finding 9, a table without spectators: the socket is closed 4401 after the notice; the
    page says why in its language (Dutch here), opens no new socket, and offers the seat."""
    tid, host = _host_table(web_server, spectators=False)
    page = new_page(browser, locale="nl-NL", size=WIDE)
    enter(page, web_server.url + "/", "Bo")
    page.goto(f"{web_server.url}/#/t/{tid}")
    # not seated yet, a table without spectators refuses the socket: the page says so and
    # offers the open seat (the invite link's way in)
    page.locator("#shut-out").wait_for()
    assert page.locator("#shut-out h2").inner_text() == "Deze tafel laat je niet binnen"
    page.click("#retake-seat")
    page.wait_for_function(SEATED, arg="Bo")
    opened = _sockets(page)

    _kick(web_server, host, tid, 1)
    card = page.locator("#shut-out")
    card.wait_for()
    assert card.locator("h2").inner_text() == "Je bent van je plaats gehaald"
    why = page.locator("#shut-out-why").inner_text()
    assert "Hanna heeft je van plaats 2 gehaald" in why and "meekijken" in why, why
    assert page.locator("#retake-seat").is_visible()
    assert not page.evaluate("() => document.body.classList.contains('offline')")
    # a reconnect would come 300 ms after the close (web/socket.js), then 600 ms after that
    page.wait_for_timeout(1000)
    assert opened == [], opened
    _shots(page, "kicked-no-spectators")
    page.context.set_offline(True)  # the network coming back does not knock again either
    page.context.set_offline(False)
    page.wait_for_timeout(800)
    assert opened == [], opened

    page.click("#retake-seat")  # the open seat taken again: one new socket, seated
    page.wait_for_function(SEATED, arg="Bo")
    assert len(opened) == 1, opened
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


def _as(page: Any, url: str, player: dict[str, Any]) -> None:
    """The page holds ``player``'s identity (as its own name form would have stored it)."""
    page.goto(url + "/")
    page.locator("#name").wait_for()  # the lobby has drawn its name form: no route pending
    page.evaluate("(p) => localStorage.setItem('hexfolk.player', p)", json.dumps(player))


def _finished_table(server: ThreadServer, game: str) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """A finished two-seat ``game`` table of Ann (seat 0) against a bot, and a second person
    (Cy) who holds no seat there: the id and both identities. Ann builds on the island (a
    scripted player); at Scythe her 0.05 s clock plays her seat (about 12 s a game)."""

    async def finish() -> tuple[str, dict[str, Any], dict[str, Any]]:
        async with HexfolkClient(server.url) as host, HexfolkClient(server.url) as fan:
            ann = await host.create_player("Ann")
            cy = await fan.create_player("Cy")
            seats = [{"kind": "host"}, {"kind": "bot", "level": "easy"}]
            if game == "island":
                t = await host.create_table(
                    game="island", players=2, options={"vp_target": 8}, seed=5, clock=None,
                    bot_delay=0, seats=seats,
                )  # fmt: skip
                await host.start(t["id"])
                async with host.connect(t["id"]) as conn:
                    await conn.next_view()
                    await play_scripted(
                        conn, _builder(random.Random(5)), max_actions=20_000, timeout=150
                    )
            else:
                seats[1]["level"] = "random"
                t = await host.create_table(
                    game="scythe", players=2, seed=3, clock=0.05, bot_delay=0, seats=seats,
                    options={"factions": "polania,saxony", "mats": "mechanical,agricultural"},
                    disconnect={"policy": "wait", "grace": 600},
                )  # fmt: skip
                await start_and_watch_to_the_end(host, t["id"], timeout=150)
            return str(t["id"]), ann, cy

    return in_thread(finish, timeout=170)  # type: ignore[no-any-return]


@pytest.mark.parametrize("game", ["island", "scythe"])
def test_every_page_of_the_old_table_shows_the_way_to_the_rematch(
    browser: Any, web_server: ThreadServer, game: str
) -> None:
    """Finding 7: the player who asks goes to the new table; the same player's other page (the
    island's overview; Scythe's end panel in another tab) and a spectator's table page (Korean
    here) are pushed the link to it, in place of the Rematch button."""
    tid, ann, cy = _finished_table(web_server, game)
    url = web_server.url
    asker = new_page(browser, size=WIDE)
    _as(asker, url, ann)
    asker.goto(f"{url}/#/t/{tid}")
    wait_rendered(asker, "v.status === 'finished'")
    other = new_page(browser, size=WIDE)
    _as(other, url, ann)
    other_at = f"#/t/{tid}/overview" if game == "island" else f"#/t/{tid}"
    other.goto(url + "/" + other_at)
    other.locator("#rematch").wait_for()
    watcher = new_page(browser, locale="ko-KR", size=WIDE)
    _as(watcher, url, cy)
    watcher.goto(f"{url}/#/t/{tid}")
    wait_rendered(watcher, "v.status === 'finished'")
    watcher.locator("#end h2").first.wait_for()
    assert watcher.locator("#end #rematch").count() == 0  # a watcher cannot ask
    other.wait_for_timeout(300)  # its socket says hello

    asker.click("#end #rematch")
    asker.wait_for_function(
        f"() => location.hash.startsWith('#/t/') && location.hash !== '#/t/{tid}'"
    )
    new = asker.evaluate("() => location.hash.slice(4)")
    asker.locator("#seats").wait_for()  # the new table's lobby, the same seats
    assert "Ann" in asker.locator("#seats").inner_text()

    for page, words in (
        (other, "Ann opened a new table"),
        (watcher, "Ann 님이 같은 자리의 새 테이블"),
    ):
        link = page.locator("#rematch-link")
        link.wait_for()
        assert link.get_attribute("href") == f"#/t/{new}"
        assert words in page.locator("#rematch-note").inner_text()
        assert page.evaluate("() => location.hash") in (other_at, f"#/t/{tid}")
        assert page.locator("#rematch").count() == 0  # the way there, not a second ask
    _shots(watcher, f"rematch-{game}-watcher", "#rematch-note")
    _shots(other, f"rematch-{game}-other", "#rematch-note")
    other.click("#rematch-link")
    other.wait_for_function(f"() => location.hash === '#/t/{new}'")
    other.locator("#seats").wait_for()
    for page in (asker, other, watcher):
        assert page.errors == []  # type: ignore[attr-defined]
        page.context.close()


def _say(page: Any, text: str) -> Any:
    """Send ``text`` from the page's chat form; its line in the page's chat, once drawn."""
    page.fill("#chat-input", text)
    page.click(".chat-form button[type=submit]")
    line = page.locator("#chat li", has_text=text)
    line.wait_for()
    return line


@pytest.mark.parametrize("game", ["island", "scythe"])
def test_the_chat_shows_each_lines_channel_and_where_a_line_goes(
    browser: Any, web_server: ThreadServer, game: str
) -> None:
    """Chat channels (docs/server.md, "Chat"): a seated player's form says "to the players",
    a spectator's "to the spectators"; every line is marked with the channel the server gave
    it, and the players do not read the spectators during the game."""
    ann = new_page(browser, size=WIDE)
    tid = at_a_table_with_a_bot(ann, web_server, game, 9)
    wait_rendered(ann, "true")
    fan = new_page(browser, locale="es-ES", size=WIDE)
    enter(fan, web_server.url + "/", "Cy")
    fan.goto(f"{web_server.url}/#/t/{tid}")
    wait_rendered(fan, "true")

    assert ann.locator("#chat-to .chat-ch").inner_text().lower() == "→ players"
    assert "players" in (ann.get_attribute("#chat-input", "placeholder") or "")
    assert fan.locator("#chat-to .chat-ch").inner_text().lower() == "→ espectadores"
    assert "espectadores" in (fan.get_attribute("#chat-input", "placeholder") or "")

    line = _say(fan, "hola desde la grada")
    assert line.get_attribute("data-channel") == "spectators"
    assert line.locator(".chat-ch").inner_text().lower() == "espectadores"

    mine = _say(ann, "good luck bot")
    assert mine.get_attribute("data-channel") == "players"
    assert mine.locator(".chat-ch").inner_text().lower() == "players"
    ann.wait_for_timeout(300)
    assert ann.locator("#chat li", has_text="hola desde la grada").count() == 0
    _shots(fan, f"chat-spectator-{game}", ".chat-form")
    _shots(ann, f"chat-player-{game}", ".chat-form")
    for page in (ann, fan):
        assert page.errors == []  # type: ignore[attr-defined]
        page.context.close()
