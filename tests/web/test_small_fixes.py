"""Issue 27, points 11 and 12, in the browser against the real server (bots and people):

* 11: Scythe's create form takes "my faction chosen, the bot's random", and a refused form
  says every problem in the page's language (a banned pair is not replaced by another error);
* 12: the discard dialog counts down while cards are picked; an invitee is offered one way in
  ("Join" or "Sit here", never both); the map preview's frame holds every harbor; a road target
  looks like no seat's road; an emoji in the chat is drawn in colour; the hidden toast leaves
  no shadow at the page's bottom."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from hexfolk.server.client import HexfolkClient, TableConnection
from tests.server.helpers import ThreadServer
from tests.web.bot_table import at_a_table_with_a_bot
from tests.web.helpers import PORTRAIT, in_thread, new_page, shoot, wait_rendered
from tests.web.offer_table import person, play_until_seat, two_people_and_a_bot
from tests.web.own_seat import enter

SEAT_COLORS = [
    "#0072B2",
    "#E69F00",
    "#009E73",
    "#D55E00",
    "#56B4E9",
    "#CC79A7",
    "#F0E442",
    "#3d3d3d",
]
"""web/board.js SEAT_COLORS (Okabe-Ito)."""


def _rgb(css: str) -> tuple[int, ...]:
    if css.startswith("#"):
        return tuple(int(css[i : i + 2], 16) for i in (1, 3, 5))
    return tuple(int(float(x)) for x in css[css.index("(") + 1 : css.index(")")].split(",")[:3])


# --- point 11 ------------------------------------------------------------------------------
def test_scythe_form_takes_a_chosen_faction_beside_a_random_one_and_says_every_problem(
    browser: Any, web_server: ThreadServer
) -> None:
    page = new_page(browser, locale="nl-NL")
    enter(page, web_server.url + "/", "Vormer")
    page.select_option("#set-game", "scythe")
    page.wait_for_selector("#sc-faction-1")
    assert page.locator("label[for=set-game]").inner_text() == "Spel"  # not the key
    # two problems at once: the same faction twice and a banned pair (SR-58)
    page.select_option("#sc-faction-0", "rusviet")
    page.select_option("#sc-mat-0", "industrial")
    page.select_option("#sc-faction-1", "rusviet")
    page.select_option("#spec-1", "bot:easy")
    page.click("#create-table")
    box = page.locator("#create-problems")
    box.wait_for(state="visible")
    said = box.locator("p").all_inner_texts()
    assert len(said) == 2, said
    assert any("verboden paar" in x and "Rusviet met Industrieel" in x for x in said), said
    assert any("twee stoelen" in x for x in said), said
    assert not any("allow_banned_pairs" in x or "option '" in x for x in said), said
    shoot(page, "scythe-form-problems", sizes=("desktop", "phone"), show="#create-problems")

    # my faction chosen, the bot's random: accepted
    page.select_option("#sc-mat-0", "random")
    page.select_option("#sc-faction-1", "random")
    page.click("#create-table")
    page.wait_for_selector("#seats li.seat")
    tid = page.url.rsplit("/", 1)[-1]
    table = page.evaluate(f"() => fetch('/api/tables/{tid}').then((r) => r.json())")
    assert table["options"]["factions"] == "rusviet,random", table["options"]
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


# --- point 12 ------------------------------------------------------------------------------
def _lobby_table(server: ThreadServer, open_seats: int) -> str:
    async def make() -> str:
        async with HexfolkClient(server.url) as host:
            await host.create_player("Gastheer")
            seats = [{"kind": "host"}] + [{"kind": "open"}] * open_seats
            t = await host.create_table(
                game="island", players=1 + open_seats, seats=seats, clock=None
            )
            return str(t["id"])

    return str(in_thread(make))


def test_an_invitee_is_offered_one_way_in(browser: Any, web_server: ThreadServer) -> None:
    page = new_page(browser)
    enter(page, web_server.url + "/", "Gast")
    one = _lobby_table(web_server, 1)
    page.goto(f"{web_server.url}/#/t/{one}")
    page.wait_for_selector("#seats li.seat")
    page.wait_for_selector("#join")
    assert page.locator(".join-seat").count() == 0, "one open seat: Join only, no 'Sit here'"
    shoot(page, "invite-one-open", sizes=("desktop", "phone"))
    two = _lobby_table(web_server, 2)
    page.goto(f"{web_server.url}/#/t/{two}")
    page.wait_for_function("() => document.querySelectorAll('.join-seat').length === 2")
    assert page.locator("#join").count() == 0, "two open seats: 'Sit here' on each, no Join"
    page.locator(".join-seat").nth(1).click()
    page.wait_for_function(
        r"() => /\bGast\b/.test(document.querySelector('#seats li[data-seat=\"2\"]').innerText)"
    )
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


HARBORS_INSIDE = """() => {
  const svg = document.querySelector('#map-preview svg.map-preview');
  if (!svg) return null;
  const vb = svg.viewBox.baseVal;
  const out = [];
  for (const c of svg.querySelectorAll('.harbor circle')) {
    const b = c.getBBox(); const w = Number(getComputedStyle(c).strokeWidth.replace('px', '')) / 2;
    if (b.x - w < vb.x || b.y - w < vb.y
        || b.x + b.width + w > vb.x + vb.width || b.y + b.height + w > vb.y + vb.height)
      out.push([b.x, b.y, b.width, b.height]);
  }
  const n = svg.querySelectorAll('.harbor circle').length;
  return {n, out, map: document.querySelector('#map-preview').dataset.map};
}"""


MAP_DRAWN = """(n) => {
  const b = document.querySelector('#map-preview');
  return b.dataset.want && b.dataset.want.startsWith(n + '/') && b.querySelector('svg')
    && (n !== 'standard' ? b.dataset.map === n : true);
}"""


def test_the_map_preview_holds_every_harbor(browser: Any, web_server: ThreadServer) -> None:
    page = new_page(browser)
    enter(page, web_server.url + "/", "Kaart")
    page.wait_for_function("() => document.querySelectorAll('#set-map option').length > 1")
    maps = page.locator("#set-map option").evaluate_all("(l) => l.map((o) => o.value)")
    for players in ("4", "6"):
        page.select_option("#set-players", players)
        for name in maps:
            page.select_option("#set-map", name)
            page.wait_for_function(
                MAP_DRAWN,
                arg=name,
            )
            got = page.evaluate(HARBORS_INSIDE)
            assert got and got["n"] > 0, (name, got)
            assert got["out"] == [], (
                f"map {name} ({players} players): harbors cut by the frame {got}"
            )
    page.select_option("#set-players", "4")
    page.select_option("#set-map", "standard")
    shoot(page, "map-preview", sizes=("desktop", "phone"), show="#map-preview")
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


def test_a_road_target_looks_like_no_seats_road(browser: Any, web_server: ThreadServer) -> None:
    page = new_page(browser)
    at_a_table_with_a_bot(page, web_server, "island", seed=31)
    wait_rendered(page, "v.legal.some((e) => e.kind === 'settle')")
    page.locator("#board .target-node").first.click()
    wait_rendered(page, "v.legal.some((e) => e.kind === 'road')")
    page.wait_for_selector("#board .target-edge")
    band = page.evaluate(
        "() => getComputedStyle(document.querySelector('#board .target-edge .track')).stroke"
    )
    # the band that reads as "a road here" is far from every seat's colour (RGB distance)
    far = min(sum((a - b) ** 2 for a, b in zip(_rgb(band), _rgb(c))) ** 0.5 for c in SEAT_COLORS)
    assert far > 120, (band, far)
    shoot(page, "road-targets", sizes=("desktop", "phone"))
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


EMOJI_IN_COLOUR = """(el) => {
  const c = document.createElement('canvas'); c.width = 64; c.height = 64;
  const g = c.getContext('2d');
  const st = getComputedStyle(el);
  g.font = `40px ${st.fontFamily}`; g.textBaseline = 'top';
  g.fillStyle = '#000'; g.fillText('\\u{1F3B2}', 4, 4);
  const d = g.getImageData(0, 0, 64, 64).data;
  let coloured = 0;
  for (let i = 0; i < d.length; i += 4) {
    const [r, gg, b, a] = [d[i], d[i + 1], d[i + 2], d[i + 3]];
    if (a > 100 && Math.max(r, gg, b) - Math.min(r, gg, b) > 60) coloured++;
  }
  return {coloured, family: st.fontFamily};
}"""


def test_an_emoji_in_the_chat_is_drawn_in_colour(browser: Any, web_server: ThreadServer) -> None:
    page = new_page(browser)
    at_a_table_with_a_bot(page, web_server, "island", seed=32)
    page.wait_for_selector("#chat-input")
    page.fill("#chat-input", "gg 🎲")
    page.press("#chat-input", "Enter")
    line = page.locator("#chat .chat-text").last
    line.wait_for()
    assert "🎲" in line.inner_text()
    got = page.evaluate(EMOJI_IN_COLOUR, line.element_handle())
    assert "Emoji" in got["family"], got  # the page's font stack names an emoji font
    assert got["coloured"] > 50, f"the die is drawn as a box or in black: {got}"
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


def test_the_hidden_toast_leaves_no_shadow(browser: Any, web_server: ThreadServer) -> None:
    page = new_page(browser, size=PORTRAIT)
    page.goto(web_server.url + "/")
    page.wait_for_selector("#name")
    style = (
        "() => { const s = getComputedStyle(document.querySelector('#toast'));"
        " return [s.visibility, s.boxShadow]; }"
    )
    assert page.evaluate(style) == ["hidden", "none"]
    page.evaluate("async () => (await import('/app/dom.js')).toast('hallo', 'note')")
    page.wait_for_function(
        "() => getComputedStyle(document.querySelector('#toast')).visibility === 'visible'"
    )
    assert page.evaluate(style)[1] != "none"  # shown: with its shadow
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


# --- the discard dialog counts down ---------------------------------------------------------
def _owes(v: dict[str, Any], seat: int) -> bool:
    d = v["observation"]["discards"]
    return bool(
        d and seat in d["seats"] and seat not in d["committed"] and d["need"][str(seat)] >= 2
    )


async def _until_ann_discards(conns: list[TableConnection], rng: random.Random) -> dict[str, Any]:
    loop = asyncio.get_running_loop()
    end = loop.time() + 120
    acted = [-1, -1]
    while loop.time() < end:
        for i, conn in enumerate(conns):
            v = conn.view
            if v is None:
                continue
            if i == 0 and v["legal"] and _owes(v, 0):
                return v
            if v["legal"] and v["version"] != acted[i]:
                acted[i] = v["version"]
                legal = [e["action"] for e in v["legal"]]
                pick = next((a for a in ("roll", "end") if a in legal), None)
                await conn.act(pick or rng.choice(legal), v["version"])
        # on at the next message on either connection (a newer view), at most 10 ms
        gets = [asyncio.ensure_future(c.inbox.get()) for c in conns]
        await asyncio.wait(gets, timeout=0.01, return_when=asyncio.FIRST_COMPLETED)
        for g in gets:
            g.cancel()
    raise AssertionError("no 7 made Ann discard two cards or more")


def test_the_discard_dialog_counts_down_while_cards_are_picked(
    browser: Any, web_server: ThreadServer
) -> None:
    page = new_page(browser)
    ann = enter(page, web_server.url + "/", "Ann")

    async def setup() -> tuple[str, dict[str, Any]]:
        async with (
            HexfolkClient(web_server.url, token=ann) as a,
            HexfolkClient(web_server.url) as bo,
        ):
            await bo.create_player("Bo")
            t = await a.create_table(
                game="island",
                players=2,
                options={"discard_limit": 3},
                seats=[{"kind": "host"}, {"kind": "open"}],
                clock=None,
                bot_delay=0,
                seed=7,
            )
            tid = str(t["id"])
            await bo.join(tid, 1)
            await a.start(tid)
            async with a.connect(tid) as ca, bo.connect(tid) as cb:
                v = await _until_ann_discards([ca, cb], random.Random(7))
            return tid, v

    tid, at7 = in_thread(setup, timeout=150)
    need = at7["observation"]["discards"]["need"]["0"]
    page.goto(f"{web_server.url}/#/t/{tid}")
    page.wait_for_selector("#discard-dialog #discard-need")
    said = page.locator("#discard-need")
    assert said.inner_text().startswith(f"Choose {need} card(s)"), said.inner_text()
    plus = page.locator("#discard-dialog .discard button[aria-label$='+']:not([disabled])")
    plus.first.click()
    assert said.inner_text() == f"Choose {need - 1} more", said.inner_text()
    for _ in range(need - 1):
        plus.first.click()
    assert said.inner_text() == f"Ready: discard these {need}.", said.inner_text()
    assert page.locator("#discard-go").is_enabled()
    shoot(page, "discard-countdown", sizes=("desktop", "phone"), show="#discard-go")
    page.click("#discard-go")
    wait_rendered(page, "!v.observation.discards || v.observation.discards.committed.includes(0)")
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


# --- "Rob whom?" shows each victim's cards ---------------------------------------------------
def _two_victims(v: dict[str, Any]) -> bool:
    by_hex: dict[int, set[int]] = {}
    for e in v["legal"]:
        if e["kind"] == "robber" and e.get("hex") is not None and e.get("victim") is not None:
            by_hex.setdefault(e["hex"], set()).add(e["victim"])
    return any(len(x) >= 2 for x in by_hex.values())


def test_rob_whom_shows_each_victims_card_count(browser: Any, web_server: ThreadServer) -> None:
    """Ann (the page) moves the robber to a hex of two other seats (IR-43): the chooser names
    each with the number of cards in hand, as the players' panel shows it (public)."""
    page = new_page(browser)
    ann = enter(page, web_server.url + "/", "Ann")
    cy = person(web_server, "Cy")
    tid = two_people_and_a_bot(web_server, ann, cy, level="easy", bot_delay=0, seed=2712)
    v = play_until_seat(web_server, tid, (ann, cy), 0, _two_victims, seed=12)
    page.goto(f"{web_server.url}/#/t/{tid}")
    wait_rendered(page, f"v.version === {v['version']}")
    by_hex: dict[int, set[int]] = {}
    for e in v["legal"]:
        if e["kind"] == "robber" and e.get("victim") is not None:
            by_hex.setdefault(e["hex"], set()).add(e["victim"])
    hexes = [x for x, vs in by_hex.items() if len(vs) >= 2]
    acts = "|".join(
        e["action"] for e in v["legal"] if e["kind"] == "robber" and e["hex"] == hexes[0]
    )
    page.locator(f'#board .target-hex[data-act="{acts}"]').click()
    page.wait_for_selector("#dialog .choices button")
    labels = page.locator("#dialog .choices button").all_inner_texts()
    players = v["observation"]["players"]
    for victim in by_hex[hexes[0]]:
        name = "Cy" if victim == 1 else "Bot 3 (easy)"
        want = f"{name} · {players[victim]['cards']} card(s)"
        assert want in labels, (want, labels)
    shoot(page, "rob-whom", sizes=("desktop", "phone"))
    page.locator("#dialog .choices button").first.click()
    wait_rendered(page, "!v.legal.some((e) => e.kind === 'robber')")
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


# --- the special build phase's sign-up ---------------------------------------------------
COSTS = {
    "road": {"lumber": 1, "brick": 1},
    "settlement": {"lumber": 1, "brick": 1, "wool": 1, "grain": 1},
    "city": {"grain": 2, "ore": 3},
    "card": {"wool": 1, "grain": 1, "ore": 1},
}
"""IR-56..IR-59's costs: a hand that pays none of them builds nothing."""


def _signup_with_nothing_to_build(v: dict[str, Any]) -> bool:
    hand = v["observation"]["players"][0].get("hand") or {}
    pays = any(all(hand.get(r, 0) >= n for r, n in cost.items()) for cost in COSTS.values())
    return "sbp pass" in [e["action"] for e in v["legal"]] and not pays


def test_the_special_build_is_not_offered_with_nothing_to_build(
    browser: Any, web_server: ThreadServer
) -> None:
    """IR-30/IR-32 at five seats: the sign-up of a hand that pays for nothing lists only
    "pass", and the page offers no "Join the special build" (the server's listing, drawn)
    and its status does not ask to "join or pass"."""
    page = new_page(browser)
    ann = enter(page, web_server.url + "/", "Ann")
    cy = person(web_server, "Cy")

    async def make() -> str:
        async with (
            HexfolkClient(web_server.url, token=ann) as a,
            HexfolkClient(web_server.url, token=cy) as c,
        ):
            bots = [{"kind": "bot", "level": "random"}] * 3
            t = await a.create_table(
                game="island",
                players=5,
                seats=[{"kind": "host"}, {"kind": "open"}, *bots],
                clock=None,
                bot_delay=0,
                seed=2730,
                disconnect={"policy": "wait", "grace": 600},
            )
            await c.join(t["id"], 1)
            await a.start(t["id"])
            return str(t["id"])

    tid = str(in_thread(make))
    v = play_until_seat(web_server, tid, (ann, cy), 0, _signup_with_nothing_to_build, seed=30)
    assert "sbp join" not in [e["action"] for e in v["legal"]], v["legal"]
    page.goto(f"{web_server.url}/#/t/{tid}")
    drawn = wait_rendered(page, "v.legal.some((e) => e.action === 'sbp pass')")
    assert "sbp join" not in [e["action"] for e in drawn["legal"]], (v["version"], drawn["version"])
    page.wait_for_selector("#btn-sbp-pass")
    assert page.locator("#btn-sbp-join").count() == 0
    # the status says there is nothing to build, not "join or pass"
    assert "nothing you can build" in page.inner_text("#prompt")
    shoot(page, "sbp-pass-only", sizes=("desktop", "phone"), show="#actions")
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()
