"""Issue 25, finding 17 on the Scythe page: the end-of-game panel shows the game's duration and
each player's turns, average and longest turn (the summary's ``statistics.time``), with the
island overview's own card (``web/turn_times.js``), in every language. One bots-only game of two
easy bots, watched at its end by a spectator's page. Before the fix the Scythe end panel had no
time card."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from hexfolk.server.client import HexfolkClient
from tests.server.helpers import ThreadServer
from tests.server.people_tables import start_and_watch_to_the_end
from tests.web.conftest import SHOTS as CONFTEST_SHOTS
from tests.web.conftest import keep_screenshot
from tests.web.helpers import in_thread, new_page

SHOTS = CONFTEST_SHOTS / Path(__file__).stem  # build/web-screenshots/<module>
DURATION = {
    "en-US": "The game lasted ",
    "nl-NL": "Het spel duurde ",
    "es-ES": "La partida duró ",
    "ko-KR": "게임 시간: ",
}
HEADERS = {
    "en-US": ["Player", "turns", "Average turn", "Longest turn"],
    "nl-NL": ["Speler", None, "Gemiddelde beurt", "Langste beurt"],
}


def clock_text(sec: float) -> str:
    """``clockText`` of ``web/turn_times.js`` for the short times of a bots' game."""
    assert sec < 60
    return f"{sec:g} s"


@pytest.fixture(scope="module")
def finished(web_server: ThreadServer) -> tuple[str, dict[str, Any]]:
    async def play() -> tuple[str, dict[str, Any]]:
        async with HexfolkClient(web_server.url) as host:
            await host.create_player("Organizer")
            t = await host.create_table(
                game="scythe",
                players=2,
                options={"factions": "polania,saxony", "mats": "mechanical,agricultural"},
                seats=[{"kind": "bot", "level": "easy"}] * 2,
                bot_delay=0,
                clock=None,
                seed=2517,
            )
            await start_and_watch_to_the_end(host, t["id"], timeout=150)
            summary = await host.request("GET", f"/api/tables/{t['id']}/summary")
            return str(t["id"]), summary["statistics"]["time"]

    return in_thread(play, timeout=180)  # type: ignore[no-any-return]


@pytest.mark.parametrize("locale", list(DURATION))
def test_the_scythe_end_shows_the_turn_times(
    browser: Any, web_server: ThreadServer, finished: tuple[str, dict[str, Any]], locale: str
) -> None:
    tid, time = finished
    page = new_page(browser, locale=locale, size={"width": 1280, "height": 800})
    page.goto(f"{web_server.url}/#/t/{tid}")
    page.wait_for_selector("#scores tr.fortune", timeout=20_000)
    page.wait_for_selector("#end #time-card", timeout=10_000)
    duration = page.locator("#end #duration").inner_text()
    assert duration.startswith(DURATION[locale]), duration
    assert clock_text(time["duration"]) in duration
    rows = page.locator("#time-card tbody tr")
    assert rows.count() == len(time["seats"]) == 2
    for i, seat in enumerate(time["seats"]):
        cells = rows.nth(i).locator("td").all_inner_texts()
        want = [str(seat["turns"]), clock_text(seat["average"]), clock_text(seat["longest"])]
        assert cells == want, (cells, seat)
    heads = page.locator("#time-card thead th").all_inner_texts()
    for want, got in zip(HEADERS.get(locale, [None] * 4), heads, strict=True):
        assert want is None or want == got, heads
    if locale in ("en-US", "ko-KR"):
        SHOTS.mkdir(parents=True, exist_ok=True)
        for w, h in ((1280, 800), (390, 844)):
            page.set_viewport_size({"width": w, "height": h})
            page.wait_for_timeout(150)
            page.locator("#time-card").scroll_into_view_if_needed()
            keep_screenshot(page, SHOTS / f"scythe-end-times-{locale}-{w}x{h}.png")
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()
