"""Phone first (issue 27, points 2, 6 and 8 and the Deliver's "Phone first"): both games played
one-handed on a phone held upright (360x640, 390x844) or on its side (640x360, 844x390), and
still whole on a desktop (1440x900).

- No page is wider than its window (``document.documentElement.scrollWidth <= innerWidth``):
  the lobby, both games' create forms, both games' table pages, the island's overview and
  replay, Scythe's end and replay (point 2: Scythe was 430-433 px wide on a 390 px phone).
- At each of the person's decisions on a phone, every control the page offers for it is the
  top element at its centre (``elementFromPoint``: the pinned prompt covered Scythe's Skip and
  End-the-turn buttons, point 2), in sight with the board, without a tab tapped (the page
  shows the decision's tab by itself).
- The tab bar reaches an offer, the log and the chat with the board in sight (point 6); an
  offer to answer and an unread chat line show as badges.
- A tap on a refused control, or the keyboard's focus on it, shows its reason in the page's
  language beside it (point 8; Dutch here).

Playwright on Debian's Chromium against a real uvicorn server, real games with bots."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest

from hexfolk.server.client import HexfolkClient, TableConnection
from tests.server.helpers import ThreadServer
from tests.web.bot_table import table_with_a_bot
from tests.web.conftest import SHOTS, keep_screenshot
from tests.web.helpers import in_thread, settle, wait_rendered
from tests.web.own_seat import enter
from tests.web.scythe_helpers import calm_choice
from tests.web.test_island_reasons import _at_a_turn_without_a_card

WEB = Path(__file__).resolve().parents[2] / "src" / "hexfolk" / "web"
NL_REASONS = json.loads((WEB / "i18n" / "reasons" / "nl.json").read_text(encoding="utf-8"))

SIZES = {
    "phone360": {"width": 360, "height": 640},
    "phone390": {"width": 390, "height": 844},
    "side640": {"width": 640, "height": 360},
    "side844": {"width": 844, "height": 390},
    "desktop": {"width": 1440, "height": 900},
}
PHONES = ("phone360", "phone390", "side844")
CALM = ("settle", "road", "robber", "discard")  # the island's steps a test plays at random

WIDTH_JS = """() => ({scroll: document.documentElement.scrollWidth, inner: innerWidth,
  wide: [...document.querySelectorAll('body *')].filter((e) => {
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.right > innerWidth + 1 && !e.closest('.scroll, .pane, .dock, .sc-mat');
  }).slice(0, 5).map((e) => `${e.tagName}#${e.id}.${e.className}`)})"""

# every control the page offers for the decision of the moment that is shown (not in a hidden
# tab), with what elementFromPoint finds at its centre; the board's targets are checked in
# the board's own box (an SVG target's centre may lie on a piece drawn over it)
ON_TOP_JS = """() => {
  const out = [];
  const seen = (el) => el.checkVisibility() && el.getBoundingClientRect().width > 0;
  const offered = '#actions [data-act], #actions button, #combat-box [data-act], '
    + '.pane [data-act], .sc-mat [data-act], #tabbar button';
  for (const el of document.querySelectorAll(offered)) {
    if (!seen(el) || el.disabled) continue;
    const r = el.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    // a control scrolled out of its own box (the tab's panels, the dock) is not in view
    const box = el.closest('.pane, .dock, .sc-mat');
    const scrolls = box && getComputedStyle(box).overflowY === 'auto';
    const r0 = scrolls ? box.getBoundingClientRect() : null;
    const b = r0 ? {left: r0.left + box.clientLeft, top: r0.top + box.clientTop,  // its inside
                    right: r0.left + box.clientLeft + box.clientWidth,
                    bottom: r0.top + box.clientTop + box.clientHeight}
      : {left: 0, top: 0, right: innerWidth, bottom: innerHeight};
    const inView = x >= Math.max(0, b.left) + 2 && x < Math.min(innerWidth, b.right) - 2
      && y >= Math.max(0, b.top) + 2 && y < Math.min(innerHeight, b.bottom) - 2;
    const top = inView ? document.elementFromPoint(x, y) : null;
    out.push({what: el.dataset.act || el.id || el.textContent.trim().slice(0, 30), inView,
              onTop: !!top && el.contains(top),
              by: top ? `${top.tagName}#${top.id}.${top.className}` : null,
              scroller: !!box});
  }
  return out;
}"""

VISIBLE_ACT_JS = """(a) => {
  const els = [...document.querySelectorAll('[data-act]')]
    .filter((el) => el.dataset.act.split('|').includes(a) && el.checkVisibility());
  return els.length > 0;
}"""

BOARD_IN_SIGHT_JS = """() => {
  const r = document.querySelector('.board-wrap').getBoundingClientRect();
  return r.top >= 0 && r.height >= 90 && r.bottom <= innerHeight && r.width >= 150; }"""


@pytest.fixture(scope="module")
def web_server(finished_server: ThreadServer) -> ThreadServer:
    """The session's server of finished games (conftest, as test_replay_controls): its
    finished games are played once per test process, not once more for this module; this
    module's own tables are made there too."""
    return finished_server


def _phone(browser: Any, size: str, locale: str = "en-US") -> Any:
    ctx = browser.new_context(viewport=SIZES[size], locale=locale, has_touch=True)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors  # type: ignore[attr-defined]
    return page


def _fits(page: Any, where: str) -> None:
    got = page.evaluate(WIDTH_JS)
    assert got["scroll"] <= got["inner"], (where, got)


def _shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    keep_screenshot(page, SHOTS / f"phone-{name}.png")


def _each_size(page: Any, where: str, sizes: tuple[str, ...] = tuple(SIZES)) -> None:
    for size in sizes:
        page.set_viewport_size(SIZES[size])
        settle(page)
        _fits(page, f"{where} at {size}")
        _shot(page, f"{where}-{size}")


# --- nothing wider than the window ------------------------------------------------------------
def test_no_page_is_wider_than_the_window(browser: Any, web_server: ThreadServer) -> None:
    page = _phone(browser, "phone390")
    token = enter(page, web_server.url + "/", "Ann")
    _each_size(page, "lobby")
    # the create form's game picker is labelled in words before any game's texts load
    assert page.inner_text("label[for=set-game]") == "Game"
    page.select_option("#set-game", "scythe")
    page.wait_for_selector(".sc-pick")
    _each_size(page, "create-scythe")  # was 433 px wide on a 390 px phone (point 2)
    page.select_option("#set-game", "island")
    page.wait_for_selector("#map-preview")
    _each_size(page, "create-island")
    for game in ("island", "scythe"):
        tid = table_with_a_bot(web_server, token, game, seed=3)
        page.goto(f"{web_server.url}/#/t/{tid}")
        wait_rendered(page, "v.legal.length > 0")
        _each_size(page, f"table-{game}")
        for tab in ("log", "chat", "players"):
            page.set_viewport_size(SIZES["phone360"])
            page.locator(f"#tab-{tab}").tap()
            _each_size(page, f"table-{game}-{tab}", ("phone360", "side640"))
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


@pytest.fixture(scope="module")
def finished_games(finished_tables: dict[str, tuple[str, int]]) -> dict[str, str]:
    """A finished island game and Scythe game of easy bots (finished_games.GAMES, shared with
    the replay's and the analysis' tests): their ids."""
    return {game: finished_tables[game][0] for game in ("island", "scythe")}


def test_the_end_overview_and_replay_fit(
    browser: Any, web_server: ThreadServer, finished_games: dict[str, str]
) -> None:
    page = _phone(browser, "phone390")
    isl, sc = finished_games["island"], finished_games["scythe"]
    for where, url, ready in (
        ("island-end", f"#/t/{isl}", "#to-overview"),
        ("island-overview", f"#/t/{isl}/overview", ".overview"),
        ("island-replay", f"#/t/{isl}/replay", "#replay-slider"),
        ("scythe-end", f"#/t/{sc}", "#scores"),
        ("scythe-replay", f"#/t/{sc}/replay", "#replay-slider"),
    ):
        page.set_viewport_size(SIZES["phone390"])
        page.goto(f"{web_server.url}/{url}")
        page.wait_for_selector(ready, timeout=20_000)
        page.wait_for_timeout(300)
        _each_size(page, where)
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


# --- the decision on top, in sight with the board ---------------------------------------------
def _check_decision(page: Any, where: str) -> list[dict[str, Any]]:
    """Every offered control shown is the top element at its centre (after its scroller brings
    it into the window); the board stays in sight; the page does not scroll."""
    items = page.evaluate(ON_TOP_JS)
    for it in items:
        if not it["inView"] and it["scroller"]:
            continue  # below in its own scroller: checked when scrolled to (_tap)
        assert it["inView"] and it["onTop"], (where, it, items)
    assert page.evaluate(BOARD_IN_SIGHT_JS), where
    assert page.evaluate("() => document.scrollingElement.scrollTop") == 0, where
    _fits(page, where)
    return list(items)


def _tap(page: Any, action: str, version: int) -> bool:
    """Tap what carries ``action`` (shown without a tab tapped: the decision's tab is the one
    shown), a chooser's button when it is one of several; False when the game moved first."""
    found = page.evaluate(
        """(a) => {
          const els = [...document.querySelectorAll('[data-act]')]
            .filter((el) => el.dataset.act.split('|').includes(a) && el.checkVisibility());
          const el = els.find((x) => x.dataset.act === a) || els[0];
          if (!el) return null;
          for (const x of document.querySelectorAll('[data-tap-me]'))
            x.removeAttribute('data-tap-me');
          el.setAttribute('data-tap-me', '1');
          return el.dataset.act === a ? 'exact' : 'chooser';
        }""",
        action,
    )
    if page.evaluate("() => window.__hexfolkVersion") != version:
        return False
    assert found, f"{action!r} is not in sight without a tab tapped"
    target = page.locator("[data-tap-me]").first
    target.scroll_into_view_if_needed()
    box = target.bounding_box()
    assert box is not None
    centre = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    top_is_it = page.evaluate(
        "([x, y]) => { const t = document.querySelector('[data-tap-me]');"
        " const e = document.elementFromPoint(x, y);"
        " return !!e && (t.contains(e) || !!t.closest('svg')); }",
        list(centre),
    )
    assert top_is_it, f"{action!r}: something covers it"
    page.mouse.click(*centre)
    if found == "chooser":
        page.wait_for_selector("#dialog")
        page.locator(f'#dialog [data-act="{action}"]').click()
    page.wait_for_function(
        f"() => window.__hexfolkVersion > {version} || document.querySelector('#toast.show')",
        timeout=15_000,
    )
    return True


def _island_pick(v: dict[str, Any], rng: random.Random) -> str:
    legal = [e["action"] for e in v["legal"]]
    for first in ("roll", "end"):
        if first in legal:
            return first
    calm = [a for a in legal if a.split(" ")[0] in CALM]
    return rng.choice(calm or legal)


def _sizes_tapping_last(i: int) -> list[str]:
    """The phone sizes a decision is checked at, by resizing the same page (the layout is CSS
    media queries alone), the one tapped at last: decision ``i`` is tapped at ``PHONES[i % 3]``."""
    tap = PHONES[i % len(PHONES)]
    return [s for s in PHONES if s != tap] + [tap]


def test_the_island_decision_is_on_top_with_the_board(
    browser: Any, web_server: ThreadServer
) -> None:
    """At each decision, every phone size (``PHONES``); each size taps in turn."""
    page = _phone(browser, PHONES[0])
    token = enter(page, web_server.url + "/", "Ann")
    tid = table_with_a_bot(web_server, token, "island", seed=5)
    page.goto(f"{web_server.url}/#/t/{tid}")
    rng = random.Random(5)
    done: list[str] = []
    tapped_at: set[str] = set()
    decisions = 0
    while len(done) < 8:
        v = wait_rendered(page, "v.legal.length > 0 || v.status === 'finished'", timeout=30_000)
        if v["status"] == "finished":
            break
        if v["observation"].get("discards") and page.locator("#discard-dialog").count():
            break  # a dialog over the page: not this test's
        sizes = _sizes_tapping_last(decisions)
        for size in sizes:
            page.set_viewport_size(SIZES[size])
            _check_decision(page, f"island {size} v{v['version']}")
        decisions += 1
        pick = _island_pick(v, rng)
        if _tap(page, pick, v["version"]):
            done.append(pick)
            tapped_at.add(sizes[-1])
    assert any(a.startswith("settle ") for a in done) and any(a.startswith("road ") for a in done)
    assert tapped_at == set(PHONES), tapped_at
    for size in PHONES:
        page.set_viewport_size(SIZES[size])
        _shot(page, f"island-decision-{size}")
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


def test_scythes_skip_and_end_turn_are_on_top_with_the_board(
    browser: Any, web_server: ThreadServer
) -> None:
    """At each decision, every phone size (``PHONES``); each size taps in turn."""
    page = _phone(browser, PHONES[0])
    token = enter(page, web_server.url + "/", "Ann")
    tid = table_with_a_bot(web_server, token, "scythe", seed=7)
    page.goto(f"{web_server.url}/#/t/{tid}")
    pressed: set[str] = set()
    tapped_at: set[str] = set()
    decisions = 0
    while not {"skip", "end"} <= pressed and decisions < 40:
        v = wait_rendered(page, "v.legal.length > 0", timeout=30_000)
        legal = [e["action"] for e in v["legal"]]
        pick = calm_choice(v)
        sizes = _sizes_tapping_last(decisions)
        for size in sizes:
            page.set_viewport_size(SIZES[size])
            items = _check_decision(page, f"scythe {size} v{v['version']}")
            for a in ("skip", "end"):
                if a in legal:  # the buttons the pinned prompt covered (point 2): on top now
                    assert any(it["what"] == a and it["onTop"] for it in items), (a, size, items)
            if decisions == 0:
                # the mat is the decision's tab, shown by itself; away from it (the log), the
                # hint in the decision's box takes the person back
                assert page.locator("#my-mat .section.pick").first.is_visible(), size
                page.locator("#tab-log").tap()
                assert page.locator("#my-mat").is_hidden() and page.locator("#log").is_visible()
                page.locator("#hint-to-my-mat").tap()
                page.locator("#my-mat .section.pick").first.wait_for(state="visible")
            if pick in ("skip", "end"):
                _shot(page, f"scythe-{pick}-{size}")
        if _tap(page, pick, v["version"]):
            decisions += 1
            tapped_at.add(sizes[-1])
            if pick in ("skip", "end"):
                pressed.add(pick)
    assert {"skip", "end"} <= pressed, pressed
    assert tapped_at == set(PHONES), tapped_at
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


# --- the tabs: an offer, the log and the chat, with the board in sight -------------------------
async def _bea_offers(url: str, ann_token: str) -> tuple[str, str]:
    """Ann (``ann_token``) hosts a two-seat island table, Bea sits in the other seat; both are
    played from here until Bea, in her turn, offers Ann a trade; the table's id and Bea's
    token."""
    rng = random.Random(9)
    async with (
        HexfolkClient(url, token=ann_token) as ann,
        HexfolkClient(url) as bea,
    ):
        await bea.create_player("Bea")
        t = await ann.create_table(
            game="island",
            players=2,
            seats=[{"kind": "host"}, {"kind": "open"}],
            clock=None,
            bot_delay=0,
            seed=9,
        )
        tid = str(t["id"])
        await bea.join(tid, seat=1)
        await ann.start(tid)
        async with ann.connect(tid) as a_conn, bea.connect(tid) as b_conn:
            conns: dict[int, TableConnection] = {0: a_conn, 1: b_conn}
            acted = {0: -1, 1: -1}
            loop = asyncio.get_running_loop()
            end = loop.time() + 90
            while loop.time() < end:
                for seat, conn in conns.items():
                    v = conn.view
                    if v is None or not v["legal"] or v["version"] == acted[seat]:
                        continue
                    legal = [e["action"] for e in v["legal"]]
                    main = v["observation"].get("phase") == "main"
                    offers = [a for a in legal if a.startswith("offer ")]
                    if seat == 1 and main and offers:
                        await conn.act(rng.choice(offers), v["version"])
                        await conn.wait_for(
                            lambda w: bool(w["observation"].get("offers")), timeout=10
                        )
                        return tid, str(bea.token)
                    acted[seat] = v["version"]
                    pick = next((a for a in ("roll", "end") if a in legal), None)
                    if pick is None:
                        calm = [a for a in legal if a.split(" ")[0] in CALM]
                        pick = rng.choice(calm or legal)
                    await conn.act(pick, v["version"])
                await asyncio.sleep(0.02)
    raise AssertionError("Bea never had an offer to make")


def test_the_tabs_reach_an_offer_the_log_and_the_chat(
    browser: Any, web_server: ThreadServer
) -> None:
    page = _phone(browser, "phone360")
    token = enter(page, web_server.url + "/", "Ann")
    tid, bea = in_thread(lambda: _bea_offers(web_server.url, token))
    page.goto(f"{web_server.url}/#/t/{tid}")
    v = wait_rendered(page, "(v.observation.offers || []).length > 0 && v.legal.length > 0")
    assert all(e["kind"] in ("accept", "reject", "counter") for e in v["legal"]), v["legal"]
    # answering the offer is all Ann can do: the trade tab is shown by itself, marked, and
    # counts the offer; its buttons are on top, the board in sight
    page.wait_for_function(
        "() => document.querySelector('#tab-trade').getAttribute('aria-pressed') === 'true'"
    )
    assert "decide" in (page.get_attribute("#tab-trade", "class") or "")
    assert page.inner_text("#tab-trade .tab-badge") == "1"
    offer = page.locator(".offer").first
    assert offer.is_visible()
    _check_decision(page, "an offer to answer")
    answer = next(e["action"] for e in v["legal"] if e["kind"] in ("accept", "reject"))
    assert page.locator(f'.offer button[data-act="{answer}"]').is_visible()
    _shot(page, "tab-trade-phone360")

    # the chat: Bea's line, unread, counted on the tab; the tab shows it with the board in sight
    async def bea_says() -> None:
        async with HexfolkClient(web_server.url, token=bea) as c, c.connect(tid) as conn:
            await conn.chat("zin in een ruil?")
            await conn.wait_for(lambda w: True, timeout=5)

    in_thread(bea_says)
    page.wait_for_function(
        "() => document.querySelector('#tab-chat .tab-badge').textContent === '1'"
    )
    assert page.locator("#chat").is_hidden()
    page.locator("#tab-chat").tap()
    assert page.locator("#chat li").last.inner_text().endswith("zin in een ruil?")
    assert page.locator("#chat-input").is_visible()
    assert page.locator("#tab-chat .tab-badge").is_hidden()  # read now
    assert page.evaluate(BOARD_IN_SIGHT_JS) and page.locator("#status").is_visible()
    _fits(page, "the chat tab")
    _shot(page, "tab-chat-phone360")
    page.fill("#chat-input", "goed")
    page.locator(".chat-form button[type=submit]").tap()
    page.wait_for_function(
        "() => [...document.querySelectorAll('#chat li')]"
        ".some((li) => li.textContent.endsWith('goed'))"
    )
    # the log: its lines with the board and the status in sight
    page.locator("#tab-log").tap()
    assert page.locator("#log li").count() > 5 and page.locator("#log").is_visible()
    assert page.evaluate(BOARD_IN_SIGHT_JS) and page.locator("#status").is_visible()
    _shot(page, "tab-log-phone360")
    # back to the trade tab: the answer is tapped there
    page.locator("#tab-trade").tap()
    assert _tap(page, answer, v["version"])
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


# --- a refused control's reason on a tap ------------------------------------------------------
def test_a_tap_on_a_refused_button_shows_why_in_dutch(
    browser: Any, web_server: ThreadServer
) -> None:
    page = _phone(browser, "phone360", locale="nl-NL")
    token = enter(page, web_server.url + "/", "Anke")
    tid, served = in_thread(lambda: _at_a_turn_without_a_card(web_server.url, token))
    why = {e["action"]: e["why"] for e in served["refused"]}
    assert why["roll"]["code"] == "rolled"  # IR-23: one roll a turn
    page.goto(f"{web_server.url}/#/t/{tid}")
    wait_rendered(page, f"v.version === {served['version']}")
    rolled = NL_REASONS["why.rolled"].replace("{rule}", "IR-23")
    roll = page.locator("#btn-roll")
    assert roll.is_disabled()
    # a tap on the disabled button itself (no hover on a touch screen): its reason by it
    roll.tap(force=True)
    pop = page.locator("#why-pop")
    pop.wait_for(state="visible")
    assert pop.inner_text() == rolled  # "je hebt deze beurt al gegooid (IR-23)"
    pb, rb = pop.bounding_box(), roll.bounding_box()
    assert pb and rb and abs((pb["y"] + pb["height"]) - rb["y"]) < 40  # just above the button
    assert pb["x"] >= 0 and pb["x"] + pb["width"] <= SIZES["phone360"]["width"]
    _shot(page, "why-tap-phone360")
    # a tap elsewhere hides it
    page.locator("#status").tap()
    pop.wait_for(state="hidden")
    buy = page.locator("#btn-buy")
    buy.tap(force=True)
    pop.wait_for(state="visible")
    assert pop.inner_text() == buy.get_attribute("title")
    assert " kost " in pop.inner_text() and "costs" not in pop.inner_text()  # IR-61, in Dutch
    # the keyboard: the focus on the "?" beside the refused button says why as well
    page.locator("#status").tap()
    pop.wait_for(state="hidden")
    page.locator("#btn-roll-tap").focus()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")  # a keyboard's focus (focus-visible)
    pop.wait_for(state="visible")
    assert pop.inner_text() == rolled
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()
