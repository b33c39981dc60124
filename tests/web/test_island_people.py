"""Two people at one island table, each in their own browser context (issue 13 and UNDO.md):
undo and undo-turn in setup with the server's refusal shown, chat sent in one context and
received in the other with its limits shown, a network drop (``set_offline``) that brings the
person back to the seat as it was, and a counter-offer composed in the page and completed by
the proposer in the other page. What is clickable is checked against the listed actions at
every step. The table is seeded, so the board and the dice are the same every run."""

from __future__ import annotations

from typing import Any

from hexfolk.server.client import HexfolkClient
from tests.server.helpers import ThreadServer
from tests.web.helpers import (
    act_and_wait,
    check_clickable,
    in_thread,
    new_page,
    seed_tables,
    shoot,
    view,
    wait_rendered,
)
from tests.web.test_island_browser import _best_spot, _enter, _rob

RES = ["lumber", "brick", "wool", "grain", "ore"]
SEED = 11


def _mine(v: dict[str, Any], kind: str) -> list[int]:
    return [x for x, o in v["observation"][kind] if o == v["seat"]]


def _settle(page: Any) -> dict[str, Any]:
    v = wait_rendered(page, "v.legal.some((e) => e.action.startsWith('settle '))")
    check_clickable(page)
    act_and_wait(page, f'.target-node[data-act="{_best_spot(v)}"]', seen=v["version"])
    return view(page)


def _road(page: Any) -> dict[str, Any]:
    v = wait_rendered(page, "v.legal.some((e) => e.action.startsWith('road '))")
    check_clickable(page)
    act_and_wait(page, ".target-edge", seen=v["version"])
    return view(page)


def _server_view(url: str, token: str, tid: str) -> dict[str, Any]:
    async def look() -> dict[str, Any]:
        async with HexfolkClient(url, token=token) as c, c.connect(tid) as conn:
            return await conn.wait_for(lambda v: True, timeout=15)

    return dict(in_thread(look))


def test_two_people_undo_chat_network_drop_and_counter_offer(
    browser: Any, web_server: ThreadServer
) -> None:
    ada = new_page(browser)
    seed_tables(ada, SEED)
    _enter(ada, web_server.url + "/", "Ada")
    ada.wait_for_selector("#create-table")
    ada.select_option("#set-players", "2")
    ada.select_option("#set-clock", "unlimited")
    ada.select_option("#spec-0", "open")
    ada.select_option("#spec-1", "host")  # Ada sits last: in setup she places four in a row
    ada.click("#create-table")
    ada.wait_for_selector("#invite-link")
    link = ada.input_value("#invite-link")
    bo = new_page(browser)
    _enter(bo, link, "Bo")
    bo.wait_for_selector("#join")
    bo.click("#join")
    ada.wait_for_function(r"() => /\bBo\b/.test(document.querySelector('#seats').innerText)")
    ada.click("#start")

    # Bo (seat 0) places his first settlement and road
    _settle(bo)
    _road(bo)

    # --- undo (UNDO.md): offered only by the view's `undo`, the server's refusal shown -------
    v = wait_rendered(ada, "v.legal.some((e) => e.action.startsWith('settle '))")
    assert v["undo"] is None and ada.locator("#btn-undo").count() == 0
    listed_before = sorted(e["action"] for e in v["legal"])
    log_before = len(ada.locator("#log li").all())
    v = _settle(ada)
    assert v["undo"] and v["undo"]["steps"] == 1 and v["undo"]["last"].startswith("settle ")
    assert ada.locator("#btn-undo").is_visible() and ada.locator("#btn-undo-turn").count() == 0
    assert v["undo"]["last"] in (ada.get_attribute("#btn-undo", "title") or "")
    shoot(ada, "table-undo", ("desktop", "phone"))
    v0 = v["version"]
    ada.click("#btn-undo")
    v = wait_rendered(ada, f"v.version > {v0} && v.undo === null")
    assert _mine(v, "settlements") == []  # the settlement is taken back
    assert sorted(e["action"] for e in v["legal"]) == listed_before
    assert len(ada.locator("#log li").all()) == log_before  # its log line is gone
    check_clickable(ada)
    # settle, road, settle: three steps of one turn, "undo turn" takes all three back
    _settle(ada)
    _road(ada)
    v = _settle(ada)
    assert v["undo"]["steps"] == 3 and v["undo"]["turn"] == 3
    assert "3" in ada.inner_text("#btn-undo-turn")
    v0 = v["version"]
    ada.click("#btn-undo-turn")
    v = wait_rendered(ada, f"v.version > {v0} && v.undo === null")
    assert _mine(v, "settlements") == [] and _mine(v, "roads") == []
    # nothing left to undo: the server refuses, and the page shows its sentence
    ada.evaluate("() => window.__hexfolkUndo(1)")
    ada.wait_for_selector("#toast.show")
    assert "nothing of yours to undo" in ada.inner_text("#toast")
    for step in (_settle, _road, _settle, _road):
        step(ada)
    _settle(bo)
    _road(bo)

    # --- chat: sent in one context, received in the other, its limits shown -------------------
    assert "500" in ada.inner_text("#chat-limits") and "5" in ada.inner_text("#chat-limits")
    ada.fill("#chat-input", "Hello Bo")
    assert ada.inner_text("#chat-count") == "8/500"
    ada.press("#chat-input", "Enter")
    bo.wait_for_function("() => document.querySelector('#chat').innerText.includes('Hello Bo')")
    assert "Ada" in bo.inner_text("#chat")
    ada.fill("#chat-input", "x" * 600)  # the field holds no more than the server takes
    assert len(ada.input_value("#chat-input")) == 500
    assert ada.inner_text("#chat-count") == "500/500"
    ada.fill("#chat-input", "")

    # --- a network drop: Ada offline while Bo plays, then back to her seat as it was -----------
    ada.context.set_offline(True)
    ada.wait_for_function("() => document.body.classList.contains('offline')", timeout=5_000)
    shoot(ada, "table-offline", ("desktop", "phone"))
    v = wait_rendered(bo, "v.legal.some((e) => e.action === 'roll')")
    check_clickable(bo)
    act_and_wait(bo, "#btn-roll", seen=v["version"])
    v = view(bo)
    if any(e["action"].startswith("robber ") for e in v["legal"]):
        _rob(bo)
    bo_now = wait_rendered(bo, "v.legal.some((e) => e.action === 'end')")
    seen_offline = ada.evaluate("() => window.__hexfolkView.version")
    assert seen_offline < bo_now["version"]  # Ada did not see Bo's turn while offline
    ada.context.set_offline(False)
    back = wait_rendered(ada, f"v.version >= {bo_now['version']}")
    ada.wait_for_function("() => !document.body.classList.contains('offline')")
    token = ada.evaluate("() => JSON.parse(localStorage.getItem('hexfolk.player')).token")
    tid = ada.url.rsplit("/", 1)[-1]
    fresh = _server_view(web_server.url, token, tid)
    assert back["seat"] == fresh["seat"] == 1
    assert back["observation"] == fresh["observation"]  # her hand and the board as they are
    assert [e["action"] for e in back["legal"]] == [e["action"] for e in fresh["legal"]]
    check_clickable(ada)

    # --- a counter-offer composed in Ada's page, completed by Bo in his ----------------------
    bo_hand = bo_now["observation"]["players"][0]["hand"]
    ada_hand = back["observation"]["players"][1]["hand"]
    give = next(r for r in RES if bo_hand[r] > 0)  # Bo offers a card he holds
    want = next(r for r in RES if r != give)
    bo.click(f'#composer button[aria-label="You give {give} +"]')
    bo.click(f'#composer button[aria-label="You get {want} +"]')
    check_clickable(bo)
    act_and_wait(bo, "#send-offer")
    v = wait_rendered(ada, "v.legal.some((e) => e.action.startsWith('counter '))")
    check_clickable(ada)
    offer_id = v["observation"]["offers"][0]["id"]
    mine = next(r for r in RES if ada_hand[r] > 0 and r != give)  # Ada's side: a card she holds
    ada.click(f'#composer button[aria-label="You give {mine} +"]')
    ask = min(2, bo_hand[give])  # two for one when Bo holds two: a ratio the list never holds
    for _ in range(ask):
        ada.click(f'#composer button[aria-label="You get {give} +"]')
    counter = ada.locator(f'.offer[data-offer="{offer_id}"] button[data-act^="counter "]')
    assert counter.is_enabled()
    act_and_wait(ada, counter)
    v = wait_rendered(bo, f"v.legal.some((e) => e.action === 'complete {offer_id} with 1')")
    answer = v["observation"]["offers"][0]["answers"]["1"]
    assert answer["counter"]["give"] and answer["counter"]["get"]
    assert "counters" in bo.inner_text(f'.offer[data-offer="{offer_id}"]')
    shoot(bo, "table-counter", ("desktop", "phone"))
    check_clickable(bo)
    act_and_wait(
        bo, f'.offer[data-offer="{offer_id}"] button[data-act="complete {offer_id} with 1"]'
    )
    after = wait_rendered(ada, "(v.observation.offers || []).length === 0")
    hand = after["observation"]["players"][1]["hand"]
    assert hand[mine] == ada_hand[mine] - 1 and hand[give] == ada_hand[give] + ask
    for p in (ada, bo):
        assert p.errors == []  # type: ignore[attr-defined]
        p.context.close()
