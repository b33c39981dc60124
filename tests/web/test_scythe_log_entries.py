"""Scythe's log entries in the browser (issue 26, Deliver 2 "Log entries as data"):
``web/scythe/log_kinds.js`` writes each entry ``{form, params, text}`` in the page's language
from ``i18n/log/scythe/<lang>.json`` (seats by name, territories by the board's labels, the
game's words translated), an old record's plain line as it is; the board draws each
territory's label (docs/scythe.md, "Territory labels"). Real uvicorn server, Debian's
Chromium; the entries are the engine's own lines (``LOG.make(...).to_json()``). Screenshots of
the table at 1280x800 and 390x844 in Dutch and Korean go to ``build/web-screenshots``."""

from __future__ import annotations

from typing import Any

from hexfolk.games.scythe.log_forms import LOG
from hexfolk.server.client import HexfolkClient
from tests.server.helpers import ThreadServer
from tests.web.conftest import SHOTS, keep_screenshot
from tests.web.helpers import in_thread, new_page
from tests.web.scythe_helpers import wait_drawn

WIDE = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}

ENTRIES = [
    LOG.make("moves", {"seat": 0, "unit": "worker", "to": "r4c6"}).to_json(),  # SR-25
    LOG.make("reveals", {"seat": 1, "dial": 3, "cards": [2, 4], "total": 9}).to_json(),  # SR-43
    LOG.make("retreat", {"seat": 0, "territory": "r3c2", "to": "home_saxony"}).to_json(),
    LOG.make("builds", {"seat": 1, "structure": "mill", "territory": "r4c3"}).to_json(),
    LOG.make("game_over", {"winners": [1]}).to_json(),  # SR-11
    "P0 gains 2 coins",  # an old record's plain line
]
SEATS = [{"kind": "person", "name": "Anna"}, {"kind": "person", "name": "Bo"}]
EXPECTED = {
    "nl": [
        "Anna: arbeider naar G4",
        "Bo onthult krachtschijf 3 en gevechtskaarten 2, 4: sterkte 9",
        "de eenheden van Anna op C3 trekken zich terug naar thuisbasis van Saksen",
        "Bo bouwt een molen op Fabriek",
        "einde van het spel (zesde ster), winnaar(s): Bo",
        "P0 gains 2 coins",
    ],
    "ko": [
        "Anna: 일꾼 → G4",
        "Bo: 다이얼 3, 전투 카드 2, 4 공개, 전투력 9",
        "Anna: C3의 유닛이 본거지: 작센(으)로 후퇴",
        "Bo: 공장에 방앗간 건설",
        "게임 종료 (여섯 번째 별), 승자: Bo",
        "P0 gains 2 coins",
    ],
    "en": [
        "Anna worker to G4",
        "Bo reveals dial 3 and combat cards 2 and 4: strength 9",
        "Anna's units on C3 retreat to home base of Saxony",
        "Bo builds a mill on Factory",
        "game over (sixth star): Bo wins",
        "P0 gains 2 coins",
    ],
}
"""Each entry in the page's words (the engine's English is each entry's ``text``)."""

RENDER_JS = """async ([tid, entries, seats]) => {
  const { scytheLogLine } = await import('/app/scythe/log_kinds.js');
  const geo = (await (await fetch(`/api/tables/${tid}/geometry`)).json()).geometry;
  return entries.map((e) => scytheLogLine(e, seats, geo));
}"""


def _table(url: str) -> str:
    async def make() -> str:
        async with HexfolkClient(url) as host:
            await host.create_player("Host")
            t = await host.create_table(
                game="scythe",
                players=2,
                options={"factions": "nordic,crimea", "mats": "industrial,engineering"},
                seats=[{"kind": "host"}, {"kind": "bot", "level": "easy"}],
                bot_delay=0,
                clock=None,
            )
            await host.start(t["id"])
            return str(t["id"])

    return str(in_thread(make))


def test_log_entries_read_in_the_page_s_language(browser: Any, web_server: ThreadServer) -> None:
    tid = _table(web_server.url)
    assert ENTRIES[0]["text"] == "P0 worker to G4"  # the engine's English names the label
    for code, want in EXPECTED.items():
        page = new_page(browser, locale=code, size=WIDE)
        page.goto(f"{web_server.url}/#/t/{tid}")
        wait_drawn(page, "true")
        got = page.evaluate(RENDER_JS, [tid, ENTRIES, SEATS])
        assert got == want, (code, got)
        assert page.errors == []  # type: ignore[attr-defined]
        page.context.close()


def test_the_board_draws_the_territory_labels(browser: Any, web_server: ThreadServer) -> None:
    tid = _table(web_server.url)
    SHOTS.mkdir(parents=True, exist_ok=True)
    for code in ("nl", "ko"):
        page = new_page(browser, locale=code, size=WIDE)
        page.goto(f"{web_server.url}/#/t/{tid}")
        wait_drawn(page, "true")
        page.wait_for_selector("#board .sc-id.coord")
        labels = page.eval_on_selector_all(
            "#board .sc-id.coord", "els => els.map(e => e.textContent)"
        )
        assert "G4" in labels and "A2" in labels and "D8" in labels, labels
        assert not any(x.startswith("r") for x in labels), labels  # no board ids
        tip = page.eval_on_selector('#board .sc-hex[data-loc="r4c6"] title', "e => e.textContent")
        assert tip.endswith(" G4"), tip  # terrain and label
        keep_screenshot(page, SHOTS / f"scythe-labels-{code}-1280.png")
        page.set_viewport_size(PHONE)
        page.wait_for_timeout(200)
        keep_screenshot(page, SHOTS / f"scythe-labels-{code}-phone.png")
        assert page.errors == []  # type: ignore[attr-defined]
        page.context.close()
