"""The 7's discards as a person meets them (issue 25, finding 18; IR-41 simultaneous discards,
IR-27 the clock of a decision out of turn): the discard dialog says who rolled the 7, who else
owes a discard and who is done (the view's ``discards``: ``seats``, ``need``, ``committed``;
the page holds no rule), with each discarder's clock ticking from the server's deadlines. And
after an ``illegal`` refusal the page shows the server's reason and asks for the current view
(``sync``, docs/protocol.md): the test keeps the views of the other seat's discards from the
page (a lossy network, ``wire_tap.Tap``), so only the resync brings them.

Two people at a seeded island table with a discard limit of 3: Python clients play both seats
(setup at random, roll, end) until a 7 makes both discard at least 2 cards; then Ann's seat is
opened in the browser while Bo still chooses. Playwright on Debian's Chromium against a real
uvicorn server."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

from hexfolk.server.client import HexfolkClient, TableConnection
from tests.server.helpers import ThreadServer
from tests.web.helpers import in_thread, new_page, shoot, wait_rendered
from tests.web.own_seat import enter
from tests.web.wire_tap import Tap

SEED = 7
CLOCK = 300
I18N = Path(__file__).resolve().parents[2] / "src" / "hexfolk" / "web" / "i18n"


def _texts(lang: str) -> dict[str, str]:
    """The page's texts and the island's own (``i18n/island/``: its trade and discard panels)."""
    texts = dict(json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8")))
    texts.update(json.loads((I18N / "island" / f"{lang}.json").read_text(encoding="utf-8")))
    return texts


def _both_discard(v: dict[str, Any]) -> bool:
    d = v["observation"]["discards"]
    return bool(
        d
        and sorted(d["seats"]) == [0, 1]
        and not d["committed"]
        and min(d["need"].values()) >= 2
        and v["observation"]["phase"] == "discard"
    )


def _pick(v: dict[str, Any], rng: random.Random) -> str:
    """Hoard: roll, end the turn, otherwise (setup, the robber, a discard) at random."""
    legal = [e["action"] for e in v["legal"]]
    for a in ("roll", "end"):
        if a in legal:
            return a
    return rng.choice(legal)


async def _to_the_discards(conns: list[TableConnection], rng: random.Random) -> dict[str, Any]:
    """Play both seats until a view where both owe at least two cards and nobody has chosen."""
    loop = asyncio.get_running_loop()
    end = loop.time() + 120
    acted = [-1, -1]
    while loop.time() < end:
        for i, conn in enumerate(conns):
            v = conn.view
            if v is None:
                continue
            if _both_discard(v):
                return v
            if v["legal"] and v["version"] != acted[i]:
                acted[i] = v["version"]
                await conn.act(_pick(v, rng), v["version"])
        await asyncio.sleep(0.01)
    raise AssertionError("no 7 made both seats discard")


def test_discard_dialog_shows_the_others_and_the_clocks_and_resyncs_after_illegal(
    browser: Any, web_server: ThreadServer
) -> None:
    page = new_page(browser)
    tap = Tap(page)
    ann_token = enter(page, web_server.url + "/", "Ann")
    bo_box: dict[str, Any] = {}

    async def setup() -> tuple[str, dict[str, Any]]:
        async with (
            HexfolkClient(web_server.url, token=ann_token) as ann,
            HexfolkClient(web_server.url) as bo,
        ):
            await bo.create_player("Bo")
            bo_box["token"] = bo.token
            t = await ann.create_table(
                game="island",
                players=2,
                options={"discard_limit": 3},
                seats=[{"kind": "host"}, {"kind": "open"}],
                clock=CLOCK,
                bot_delay=0,
                seed=SEED,
            )
            tid = str(t["id"])
            await bo.join(tid, 1)
            await ann.start(tid)
            async with ann.connect(tid) as ca, bo.connect(tid) as cb:
                v = await _to_the_discards([ca, cb], random.Random(SEED))
            return tid, v

    tid, at7 = in_thread(setup)
    d = at7["observation"]["discards"]
    roller = at7["observation"]["active"]

    # --- the dialog: who rolled, who owes, each one's clock ----------------------------------
    page.goto(f"{web_server.url}/#/t/{tid}")
    wait_rendered(page, f"v.version === {at7['version']}")
    page.wait_for_selector("#discard-dialog #discard-progress li")
    en = _texts("en")
    rows = page.locator("#discard-progress li")
    seats = rows.evaluate_all("(l) => l.map((e) => e.dataset.seat)")
    assert sorted(int(x) for x in seats) == [0, 1]
    for seat, name in ((0, en["discard.me"]), (1, "Bo")):
        row = page.locator(f"#discard-progress li[data-seat='{seat}']")
        assert row.get_attribute("data-done") == "0"
        want = en["discard.row"].replace("{who}", name).replace("{n}", str(d["need"][str(seat)]))
        assert row.locator(".who").text_content() == want
        assert row.locator(".state").text_content() == en["discard.waiting"]
        # a running clock of at most the 60 s cap of a decision out of turn (IR-27), ticking
        clock = row.locator(f".clock[data-clock='{seat}'] .ctime")
        page.wait_for_function(
            "(el) => /^\\d+:\\d\\d$/.test(el.textContent)", arg=clock.element_handle()
        )
        m, s = clock.text_content().split(":")
        assert 0 < int(m) * 60 + int(s) <= CLOCK
    who = en["discard.me"] if roller == 0 else "Bo"
    rolled = page.locator("#discard-roller").text_content()
    assert en["discard.rolled"].replace("{who}", who) in rolled
    shoot(page, "discard-window", ("desktop", "phone"), show="#discard-progress")

    # --- Bo discards every card he owes while the page hears nothing (views held back) --------
    tap.drop_views = 10**6
    bo_done: dict[str, Any] = {}

    async def bo_discards() -> None:
        bo = HexfolkClient(web_server.url, token=bo_box["token"])
        async with bo, bo.connect(tid) as cb:
            v = await cb.wait_for(lambda v: bool(v["legal"]), timeout=15)
            while v["legal"] and any(e["action"].startswith("discard") for e in v["legal"]):
                await cb.act(v["legal"][0]["action"], v["version"])
                ver = v["version"]
                v = await cb.wait_for(lambda x, ver=ver: x["version"] > ver, timeout=15)
            bo_done["view"] = v

    in_thread(bo_discards)
    assert bo_done["view"]["observation"]["discards"]["committed"] == [1]
    server_version = bo_done["view"]["version"]
    page.wait_for_timeout(300)
    assert page.evaluate("() => window.__hexfolkVersion") == at7["version"]  # behind, on purpose
    assert page.locator("#discard-progress li[data-seat='1']").get_attribute("data-done") == "0"

    # --- an illegal click: the reason shown, then the page asks for the current view ---------
    tap.drop_views = 0
    syncs = len(tap.sent_of("sync"))
    page.evaluate("() => window.__hexfolkAct('roll')")  # the same path as a click
    page.wait_for_selector("#toast.show")
    refusal = [m for m in tap.received_of("error") if m.get("code") == "illegal"]
    assert refusal, tap.received_of("error")
    assert page.locator("#toast").text_content() == en["err.illegal"].replace(
        "{why}", refusal[-1]["message"]
    )
    wait_rendered(page, f"v.version === {server_version}")
    assert len(tap.sent_of("sync")) == syncs + 1
    assert tap.sent_of("sync")[-1]["since"] == at7["version"]
    done = page.locator("#discard-progress li[data-seat='1']")
    page.wait_for_function(
        "() => document.querySelector(\"#discard-progress li[data-seat='1']\").dataset.done === '1'"
    )
    assert done.locator(".state").text_content() == f"✓ {en['discard.done']}"
    assert done.locator(".clock").count() == 0  # no clock for a seat that is done
    shoot(page, "discard-window-one-done", ("desktop", "phone"), show="#discard-progress")

    # --- Ann discards by clicking: the dialog closes, the game goes on -------------------------
    need = d["need"]["0"]
    for _ in range(need):
        page.locator("#discard-dialog button[aria-label$='+']:not([disabled])").first.click()
    page.click("#discard-go")
    wait_rendered(page, "!v.observation.discards")
    assert page.locator("#discard-dialog").count() == 0
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()
