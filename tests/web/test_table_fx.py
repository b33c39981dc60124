"""The table's play feedback (issue 27, point 1 and its "Deliver" on feedback): a person plays
an island game against a bot through the page, and a spectator watches.

* every roll shows two dice whose faces make the rolled sum, the same for the seat and the
  spectator (the log's ``rolls`` entry: IR-23, IR-35); a 7 shows as 7 with the robber's words
  and the robber's prompt (IR-41);
* for a moment after a roll the hexes whose token shows the sum are lit (IR-35; the robber's
  hex is marked blocked, IR-44) and each seat's gains are shown as the roll's ``production``
  entry pays them (IR-35..IR-37);
* the last move is marked on the board (the latest placements, the robber's move), on Scythe
  too (the last turn's territories, from the log's entries);
* the build-cost card opens with the rules' four costs (rules sheet 1.1) in the page's language;
  the rolls so far open during play, counted from the log;
* the sounds of the dice and of building play unless muted (the page's one switch).
Numbers are checked against the server's log read by a second connection (the structured
entries, never sentences)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from hexfolk.core import LogLine
from hexfolk.games.island.rules import RULES
from hexfolk.server.client import HexfolkClient
from tests.server.helpers import ThreadServer
from tests.web.bot_table import at_a_table_with_a_bot
from tests.web.helpers import in_thread, new_page, shoot, wait_rendered
from tests.web.scythe_helpers import calm_choice, click_action, wait_drawn

WEB = Path(__file__).resolve().parents[2] / "src" / "hexfolk" / "web"
HOLD = "window.__hexfolkFxMs = 600000;"  # the moment after a roll lasts while the test looks


DICE_JS = """() => {
  const d = document.getElementById('dice');
  return {total: Number(d.dataset.total), faces: d.dataset.faces.split(' ').map(Number),
    text: d.querySelector('.dice-total').textContent,
    who: d.querySelector('.dice-who').textContent,
    pips: [...d.querySelectorAll('.die')].map((x) => x.querySelectorAll('.pip.on').length),
    seven: d.classList.contains('seven'), label: d.getAttribute('aria-label')};
}"""


def _texts(lang: str) -> dict[str, str]:
    out: dict[str, str] = json.loads((WEB / "i18n" / f"{lang}.json").read_text("utf-8"))
    out.update(json.loads((WEB / "i18n" / "island" / f"{lang}.json").read_text("utf-8")))
    return out


def _server_log(server: ThreadServer, tid: str) -> list[LogLine]:
    """The table's public log as the server sends it to a spectator (structured entries)."""

    async def read() -> list[LogLine]:
        async with HexfolkClient(server.url) as c, c.connect(tid, spectate=True) as conn:
            for _ in range(50):
                if conn.view is not None:
                    return list(conn.log)
                await asyncio.wait_for(conn.inbox.get(), 10)
            raise AssertionError("no view")

    return list(in_thread(read, timeout=30))


def _tokens(layout: str) -> list[int]:
    """Each hex's token from the view's layout text (``L5.B3.D...``, docs/island.md)."""
    return [int(c[1:]) if len(c) > 1 else 0 for c in layout.split(" ")[0].split(".")]


def _data(page: Any, sel: str, *keys: str) -> list[Any]:
    """The ``data-`` values ``keys`` of each element matching ``sel`` (one value for one key)."""
    got = page.eval_on_selector_all(
        sel, "(els, keys) => els.map((e) => keys.map((k) => e.dataset[k] ?? null))", list(keys)
    )
    return [x[0] if len(keys) == 1 else tuple(x) for x in got]


def _bundles(page: Any, rows: str, key: str, item: str) -> dict[str, dict[str, int]]:
    """``{row's data-key: {item's data-res: item's data-n}}`` of the rows matching ``rows``."""
    out: dict[str, dict[str, int]] = {}
    for row in _data(page, rows, key):
        sel = f"{rows}[data-{key}='{row}'] {item}"
        out[row] = {r: int(n) for r, n in _data(page, sel, "res", "n")}
    return out


def _dice_shown(page: Any) -> dict[str, Any]:
    page.wait_for_selector("#dice:not([hidden]):not(.rolling)", timeout=10_000)
    return dict(page.evaluate(DICE_JS))


def _check_roll(page: Any, log: list[LogLine], view: dict[str, Any], names: list[str]) -> int:
    """The dice show the log's latest roll; after a non-7 the lit hexes and the gains are the
    roll's (IR-35..IR-37). The roll's total."""
    at = max(i for i, x in enumerate(log) if x.form == "rolls")
    roll = log[at].params
    shown = _dice_shown(page)
    assert shown["total"] == roll["total"] and shown["text"] == str(roll["total"]), (shown, roll)
    assert sum(shown["faces"]) == roll["total"] and shown["pips"] == shown["faces"], shown
    assert all(1 <= f <= 6 for f in shown["faces"]), shown
    assert shown["who"].startswith(names[roll["seat"]]), shown
    en = _texts("en")
    if roll["total"] == 7:  # IR-41: a 7 moves the robber, no hex produces
        assert shown["seven"] and en["fx.robber"] in shown["who"], shown
        assert page.locator("#board g.hex.lit").count() == 0
        return 7
    assert not shown["seven"]
    fx = page.evaluate("() => window.__hexfolkFx")
    if fx and fx.get("total") == roll["total"]:
        tokens = _tokens(view["observation"]["board"]["layout"])
        robber = view["observation"]["board"]["robber"]
        want = {h for h, tok in enumerate(tokens) if tok == roll["total"] and h != robber}
        lit = {
            int(x)
            for x in page.eval_on_selector_all("#board g.hex.lit", "e => e.map(x => x.dataset.hex)")
        }
        assert lit == want, (lit, want, roll)
        # the gains: the roll's production entry, seat by seat (IR-35..IR-37)
        paid: dict[int, dict[str, int]] = {}
        for x in log[at + 1 :]:
            if x.form == "rolls":
                break
            if x.form == "production":
                for p in x.params["paid"]:
                    paid.setdefault(p["seat"], {}).update(p["cards"])
        shown_gains = _bundles(page, "#gains .gain-row", "seat", ".gain")
        assert {int(k): v for k, v in shown_gains.items()} == paid, (shown_gains, paid)
        for seat, cards in paid.items():  # and beside the seat's row
            chip = page.locator(f"#players li.player[data-seat='{seat}'] .gain-chip .gain")
            assert chip.count() == len(cards), (seat, cards)
    return int(roll["total"])


def test_island_dice_gains_last_move_costs_and_stats(
    browser: Any, web_server: ThreadServer
) -> None:
    page = new_page(browser)
    page.add_init_script(HOLD)
    tid = at_a_table_with_a_bot(page, web_server, "island", seed=11)
    page.wait_for_selector("#board .target")
    # a spectator (no name, no seat) sees the same dice; it asked for less motion
    watcher = new_page(browser)
    watcher.emulate_media(reduced_motion="reduce")
    watcher.add_init_script(
        HOLD
        + """new MutationObserver((ms) => { for (const m of ms) if (m.target.classList &&
        m.target.classList.contains('rolling')) window.__tumbled = true; })
        .observe(document, {subtree: true, attributes: true, attributeFilter: ['class']});"""
    )
    watcher.goto(f"{web_server.url}/#/t/{tid}")
    watcher.wait_for_selector("#board")
    names = page.eval_on_selector_all(
        "#players li.player strong", "e => e.map((x) => x.textContent)"
    )
    rolls: list[int] = []
    produced = placed = robbed = 0
    checked_costs = False
    for _ in range(400):
        v = wait_rendered(page, "v.legal.length > 0 || v.status === 'finished'", timeout=30_000)
        legal = [e["action"] for e in v["legal"]]
        if v["status"] == "finished" or (
            len(rolls) >= 4 and produced and placed >= 2 and robbed and 7 in rolls
        ):
            break
        if "decline-all on" in legal and not page.is_checked("#decline-all"):
            page.click("#decline-all")
            wait_rendered(page, "v.observation.players[0].declines_offers")
            continue
        settle = [a for a in legal if a.startswith("settle ")]
        road = [a for a in legal if a.startswith("road ")]
        if settle or (road and not any(a in legal for a in ("roll", "end"))):
            # a decision of the person: the bot waits, the page shows the last move
            _check_last_move(page, _server_log(web_server, tid))
            target = page.locator(".target-node.settle" if settle else ".target-edge").first
            v0 = v["version"]
            target.click()
            wait_rendered(page, f"v.version > {v0}")
            sounds = page.evaluate("() => window.__hexfolkSounds || []")
            assert "build" in sounds, sounds  # the build's sound (unmuted by default)
            if placed == 1:
                shoot(page, "fx-last-move", ("desktop", "phone"))
            placed += 1
            continue
        if "roll" in legal:
            if rolls:  # the dice still show the latest roll (the bot's, or the person's last)
                _check_roll(page, _server_log(web_server, tid), v, names)
            v0 = v["version"]
            page.click("#btn-roll")
            v = wait_rendered(
                page, f"v.version > {v0} && !v.legal.some((e) => e.action === 'roll')"
            )
            log = _server_log(web_server, tid)
            total = _check_roll(page, log, v, names)
            rolls.append(total)
            assert "dice" in page.evaluate("() => window.__hexfolkSounds || []")
            # the spectator sees the same dice, landed at once (reduced motion)
            w = _dice_shown(watcher)
            assert w["total"] == total and w["faces"] == _dice_shown(page)["faces"], w
            assert not watcher.evaluate("() => !!window.__tumbled")
            if total == 7:
                if (
                    v["acting"] == [0]
                    and (v["observation"].get("prompt") or {}).get("kind") == "robber"
                ):
                    assert _texts("en")["prompt.robber"] in page.inner_text("#prompt")
                shoot(page, "fx-seven", ("desktop", "phone"))
            elif page.locator("#gains .gain-row").count():
                produced += 1
                shoot(page, "fx-gains", ("desktop", "phone"))
                shoot(watcher, "fx-gains-spectator", ("phone",))
            if not checked_costs:
                checked_costs = True
                _check_costs_and_stats(page, log)
            continue
        robber = [a for a in legal if a.startswith("robber ") and a != "robber stay"]
        if robber:
            v0 = v["version"]
            page.locator(".target-hex").first.click()
            if page.locator("#dialog .choice").count():
                page.locator("#dialog .choice").first.click()
            v = wait_rendered(page, f"v.version > {v0}")
            hexno = v["observation"]["board"]["robber"]
            page.wait_for_selector(f"#board g.fx .lm-hex[data-hex='{hexno}']")
            assert page.locator("#board g.pieces g.robber.last-move").count() == 1
            robbed += 1
            shoot(page, "fx-robber", ("desktop",))
            continue
        discard = [a for a in legal if a.startswith("discard ")]
        if discard:
            page.evaluate("(a) => window.__hexfolkAct(a)", discard[0])
            wait_rendered(page, f"v.version > {v['version']}")
            continue
        if "end" in legal:
            v0 = v["version"]
            page.click("#btn-end")
            wait_rendered(page, f"v.version > {v0}")
            continue
        page.evaluate("(a) => window.__hexfolkAct(a)", legal[0])
        wait_rendered(page, f"v.version > {v['version']}")
    assert len(rolls) >= 4 and produced and placed >= 2, (rolls, produced, placed)
    assert 7 in rolls and robbed, rolls  # the seed gives the person a 7
    # muted: no sound any more
    page.click("#mute")
    before = len(page.evaluate("() => window.__hexfolkSounds || []"))
    v = wait_rendered(page, "v.legal.length > 0")
    if "roll" in [e["action"] for e in v["legal"]]:
        page.click("#btn-roll")
        wait_rendered(page, f"v.version > {v['version']}")
        _dice_shown(page)
        assert len(page.evaluate("() => window.__hexfolkSounds || []")) == before
    page.click("#mute")
    for p in (page, watcher):
        assert p.errors == [], p.errors  # type: ignore[attr-defined]
        p.context.close()


_PLACES = {"settles": "node", "settlement": "node", "city": "node", "road": "edge"}
_ROBBER = ("robber", "robs", "robber_stays")


def _check_last_move(page: Any, log: list[LogLine]) -> None:
    """The board marks the last move: the latest placements of one seat in one turn and the
    robber's latest move, as the log's entries name them."""
    nodes: set[int] = set()
    edges: set[int] = set()
    seat = None
    for x in reversed(log):
        kind = _PLACES.get(x.form)
        if kind:
            if seat is not None and x.params["seat"] != seat:
                break
            seat = x.params["seat"]
            (nodes if kind == "node" else edges).add(x.params[kind])
        elif seat is not None and x.form in ("ends", "rolls"):
            break
    robber = next((x.params["hex"] for x in reversed(log) if x.form in _ROBBER), None)
    got_nodes = {int(x) for x in _data(page, "#board g.fx .lm-node", "node")}
    got_edges = {int(x) for x in _data(page, "#board g.fx .lm-edge", "edge")}
    assert got_nodes == nodes and got_edges == edges, (got_nodes, got_edges, nodes, edges)
    hexes = [int(x) for x in _data(page, "#board g.fx .lm-hex", "hex")]
    assert hexes == ([] if robber is None else [robber]), (hexes, robber)
    # the pieces themselves carry the mark too
    pieces = _data(page, "#board g.pieces .last-move", "node", "edge")
    want = {("n", v) for v in nodes} | {("e", e) for e in edges}
    assert {("n", int(a)) if a is not None else ("e", int(b)) for a, b in pieces} == want, pieces
    assert page.locator("#board g.pieces g.robber.last-move").count() == (robber is not None)


def _check_costs_and_stats(page: Any, log: list[LogLine]) -> None:
    """The cost card's four costs (rules sheet 1.1) and the rolls so far (the log's rolls)."""
    page.click("#btn-costs")
    page.wait_for_selector("#costs-dialog #cost-card")
    rows = _bundles(page, "#cost-card li.cost-row", "item", ".cost-chip")
    assert rows == RULES["costs"], rows
    assert list(rows) == ["road", "settlement", "city", "development"]
    shoot(page, "fx-costs", ("desktop", "phone"))
    page.keyboard.press("Escape")
    page.wait_for_selector("#costs-dialog", state="detached")
    page.click("#btn-stats")
    page.wait_for_selector("#stats-dialog #rolls-chart")
    counts = dict(_data(page, "#rolls-chart g[data-sum]", "sum", "rolled"))
    counts = {k: int(n) for k, n in counts.items()}
    want = {str(k): 0 for k in range(2, 13)}
    for x in log:
        if x.form == "rolls":
            want[str(x.params["total"])] += 1
    assert counts == want, (counts, want)
    shoot(page, "fx-stats", ("desktop", "phone"))
    page.keyboard.press("Escape")
    page.wait_for_selector("#stats-dialog", state="detached")


def test_the_cost_card_and_the_dice_in_korean(browser: Any, web_server: ThreadServer) -> None:
    """The cost card, the buttons and the dice's words in Korean (every text in four languages)."""
    ko = _texts("ko")
    page = new_page(browser, locale="ko-KR")
    page.add_init_script("localStorage.setItem('hexfolk.lang', 'ko');" + HOLD)
    at_a_table_with_a_bot(page, web_server, "island", seed=5)
    page.wait_for_selector("#btn-costs")
    assert page.inner_text("#btn-costs") == ko["fx.costs"]
    assert page.inner_text("#btn-stats") == ko["fx.stats"]
    page.click("#btn-costs")
    page.wait_for_selector("#cost-card")
    names = page.eval_on_selector_all("#cost-card .cost-name", "e => e.map(x => x.textContent)")
    assert names == [ko["piece.road"], ko["piece.settlement"], ko["piece.city"], ko["fx.cost_dev"]]
    assert ko["res.o"] in page.inner_text("#cost-card")
    shoot(page, "fx-costs-ko", ("desktop", "phone"))
    page.keyboard.press("Escape")
    page.click("#btn-stats")
    page.wait_for_selector("#rolls-stats")
    assert ko["fx.stats_none"] in page.inner_text("#rolls-stats")
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


def test_scythe_marks_the_last_turns_places(browser: Any, web_server: ThreadServer) -> None:
    """Scythe: after each turn the places its log entries name (moves' destinations, builds,
    productions, trades, combats) are marked on the board, and only those."""
    page = new_page(browser)
    tid = at_a_table_with_a_bot(page, web_server, "scythe", seed=3)
    wait_drawn(page, "v.legal.length > 0", timeout=30_000)
    checked = 0
    for _ in range(120):
        v = wait_drawn(page, "v.legal.length > 0 || v.status === 'finished'", timeout=30_000)
        if v["status"] == "finished" or checked >= 3:
            break
        prompt = (v["observation"].get("prompt") or {}).get("kind")
        if prompt == "choose-section":
            log = _server_log(web_server, tid)
            want = _last_turn_places(log)
            if want:
                page.wait_for_function(
                    "(n) => document.querySelectorAll('#board .sc-fx .sc-last').length === n",
                    arg=len(want),
                )
                got = dict(_data(page, "#board .sc-fx .sc-last", "loc", "what"))
                assert got == want, (got, want)
                if not checked:
                    shoot(page, "fx-scythe-last", ("desktop", "phone"))
                checked += 1
        action = calm_choice(v)
        click_action(page, action, v["version"])
    assert checked >= 2, checked
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


_PLACE = {
    "moves": ("to", "moved"),
    "retreat": ("to", "moved"),
    "builds": ("territory", "built"),
    "deploys": ("territory", "built"),
    "produces": ("territory", "acted"),
    "produces_workers": ("territory", "acted"),
    "trades": ("territory", "acted"),
    "gains_on": ("territory", "acted"),
    "gains_workers": ("territory", "acted"),
    "encounter": ("territory", "acted"),
    "combat": ("territory", "fought"),
    "wins": ("territory", "fought"),
}
_RANK = {"acted": 0, "moved": 1, "fought": 2, "built": 3}


def _last_turn_places(log: list[LogLine]) -> dict[str, str]:
    """The places of the latest turn that named one, from its section choice on."""
    end = max((i for i, x in enumerate(log) if x.form in _PLACE), default=-1)
    if end < 0:
        return {}
    start = max(
        i for i in range(end + 1) if log[i].form in ("section", "factory_section") or i == 0
    )
    out: dict[str, str] = {}
    for x in log[start : end + 1]:
        if x.form in _PLACE:
            param, what = _PLACE[x.form]
            loc = x.params[param]
            if loc not in out or _RANK[what] > _RANK[out[loc]]:
                out[loc] = what
    return out
