"""The island game in the browser (issue 13), with Playwright on Debian's Chromium against a
real uvicorn server: a person plays through the page, what is clickable is exactly what the
server listed, invite links, spectators, a refresh mid-turn, the four languages, and the
end-of-game overview and replay. Screenshots of every page go to ``build/web-screenshots``."""

from __future__ import annotations

import json
import random
import re
import time
from pathlib import Path
from typing import Any

from hexfolk.server.client import HexfolkClient
from tests.server.helpers import ThreadServer, play_scripted
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

WEB = Path(__file__).resolve().parents[2] / "src" / "hexfolk" / "web"
SEED = 7
"""The table's seed, added to the page's create request (the test server allows seeds)."""


def _enter(page: Any, url: str, name: str) -> None:
    page.goto(url)
    page.fill("#name", name)
    page.click(".name-form button[type=submit]")


def _listed(v: dict[str, Any]) -> list[str]:
    return [e["action"] for e in v["legal"]]


def _compose_offer(page: Any, v: dict[str, Any]) -> bool:
    """Set 1 held card for 1 card of another type in the composer; False if nothing is held."""
    hand = v["observation"]["players"][v["seat"]]["hand"]
    names = ["lumber", "brick", "wool", "grain", "ore"]
    held = [r for r in names if hand[r] > 0]
    if not held:
        return False
    give = held[0]
    get = next(r for r in names if r != give)
    page.click(f'#composer button[aria-label="You give {give} +"]')
    page.click(f'#composer button[aria-label="You get {get} +"]')
    return True


def _person_turns(page: Any, seconds: float) -> dict[str, int]:
    """Play the person's decisions through the page for a while; count what was done."""
    done: dict[str, int] = {}
    end = time.time() + seconds
    # buying and playing a card are done when the cards allow, not waited for
    want = {"settle", "road", "roll", "offer", "answered", "discard", "robber", "bank", "build"}
    while time.time() < end and not want <= done.keys():
        try:
            v = wait_rendered(page, "v.legal.length > 0 || v.status === 'finished'", timeout=15_000)
        except Exception:
            break
        if v["status"] == "finished":
            break
        legal = _listed(v)
        check_clickable(page)
        me = v["seat"]
        act = lambda target, v=v: act_and_wait(page, target, seen=v["version"])  # noqa: E731
        bump = lambda k: done.__setitem__(k, done.get(k, 0) + 1)  # noqa: E731
        if any(a.startswith("discard") for a in legal):
            page.wait_for_selector("#discard-dialog")
            check_clickable(page)
            shoot(page, "table-discard", ("desktop", "phone"))
            go = page.locator("#discard-go")
            for _ in range(30):
                if go.is_enabled():
                    break
                plus = page.locator("#discard-dialog button[aria-label$='+']:not([disabled])")
                if plus.count() == 0:
                    break
                plus.first.click()
            left = int(go.inner_text().split()[-1])
            v0 = v["version"]
            go.click()
            # one step per card; then no discard is listed, or a new 7 opened a new dialog
            wait_rendered(
                page,
                f"v.version >= {v0 + left} && (!v.legal.some((e) => e.action.startsWith('discard'))"
                " || !!document.querySelector('#discard-dialog'))",
            )
            bump("discard")
        elif any(a.startswith("robber ") for a in legal):
            shoot(page, "table-robber", ("desktop",))
            _rob(page)
            bump("robber")
        elif "roll" in legal:
            if "play knight" in legal and "play" not in done:
                act("#btn-play-knight")
                bump("play")
            else:
                act("#btn-roll")
                bump("roll")
        elif "end" in legal:
            _main_turn(page, v, legal, done, bump, act)
        elif any(a.startswith("settle ") for a in legal):
            act(f'.target-node[data-act="{_best_spot(v)}"]')
            bump("settle")
        elif any(a.startswith("road ") for a in legal):
            act(".target-edge")
            bump("road")
        elif any(a.startswith("reject ") for a in legal):
            act("#trade button[data-act^='reject']")
            bump("answered")
        else:
            first = page.locator("[data-act]:not([disabled])").first
            act(first)
        assert me == v["seat"]
    return done


def _best_spot(v: dict[str, Any]) -> str:
    """The listed settlement spot whose hexes (named in the server's hint) roll most often."""

    def pips(hint: str) -> int:
        # the hint names each hex by terrain and number: "touches fields 3 and hills 10; ..."
        terrain = r"(?:forest|hills|pasture|fields|mountains)"
        return sum(6 - abs(7 - int(m)) for m in re.findall(rf"\b{terrain} (\d+)\b", hint))

    spots = [e for e in v["legal"] if e["action"].startswith("settle ")]
    return str(max(spots, key=lambda e: pips(e["hint"]))["action"])


def _builder(rng: random.Random) -> Any:
    """A scripted person who declines every offer and builds whatever it can (short games)."""
    said = []
    order = ("city ", "settle ", "buy", "play knight", "play ", "road ", "trade ", "roll")
    order += ("robber ",)

    def choose(v: dict[str, Any]) -> str:
        if not said:
            said.append(True)
            return "decline-all on"
        legal = _listed(v)
        for prefix in order:
            options = [a for a in legal if a.startswith(prefix)]
            if options and not (prefix == "road " and rng.random() < 0.5):
                return str(rng.choice(options))
        return "end" if "end" in legal else str(rng.choice(legal))

    return choose


def _rob(page: Any) -> None:
    v0 = page.evaluate("() => window.__hexfolkView.version")
    page.locator(".target-hex").first.click()
    if page.locator("#dialog .choice").count():
        page.locator("#dialog .choice").first.click()
    page.wait_for_function(f"() => window.__hexfolkVersion > {v0}")


def _main_turn(
    page: Any, v: dict[str, Any], legal: list[str], done: dict[str, int], bump: Any, act: Any
) -> None:
    hoard = "discard" not in done  # keep cards until a 7 makes the person discard
    builds = [a for a in legal if a.startswith(("settle ", "city ", "road "))]
    plays = [a for a in legal if a.startswith("play ")]
    offering = "offer" not in done and any(a.startswith("offer ") for a in legal)
    if offering and _compose_offer(page, v):
        check_clickable(page)
        act("#send-offer")
        # a bot answers within the table's bot delay (0 here)
        wait_rendered(page, "v.observation.offers.some((o) => Object.keys(o.answers).length > 0)")
        shoot(page, "table-offer")
        complete = page.locator("#trade button[data-act^='complete']")
        if complete.count():
            act(complete.first)
            bump("trade")
        elif page.locator("#trade button[data-act^='withdraw']").count():
            act("#trade button[data-act^='withdraw']")
        bump("offer")
    elif "bank" not in done and any(a.startswith("trade ") for a in legal):
        act("#bank-trade button[data-act]")
        bump("bank")
    elif not hoard and "build" not in done and builds:
        kind = builds[0].split()[0]
        sel = {"settle": ".target-node.settle", "city": ".target-node.city"}
        act(sel.get(kind, ".target-edge"))
        bump("build")
    elif not hoard and "buy" not in done and "buy" in legal:
        act("#btn-buy")
        bump("buy")
    elif "play" not in done and plays:
        a = plays[0]
        if a in ("play knight", "play roads"):
            act(f"#btn-{a.replace(' ', '-')}")
        else:
            page.click("#btn-plenty" if a.startswith("play plenty") else "#btn-monopoly")
            check_clickable(page)
            act("#dialog .choice")
        bump("play")
    else:
        act("#btn-end")


def test_a_person_plays_with_three_bots_to_the_overview(
    browser: Any, web_server: ThreadServer
) -> None:
    page = new_page(browser)
    seed_tables(page, SEED)
    _enter(page, web_server.url + "/", "Anna")
    page.wait_for_selector("#create-table")
    shoot(page, "lobby")
    page.select_option("#set-clock", "unlimited")
    page.select_option("#set-vp", "8")
    page.select_option("#set-discard", "3")
    page.select_option("#set-bot-delay", "0")
    for i in (1, 2, 3):
        page.select_option(f"#spec-{i}", "bot:random")
    page.click("#create-table")
    page.wait_for_selector("#seats li.seat")
    assert page.locator("#seats li.seat").count() == 4
    assert "Anna" in page.locator("#seats").inner_text()
    shoot(page, "table-lobby")
    page.click("#start")
    page.wait_for_selector(".target-node.settle")
    check_clickable(page)
    shoot(page, "table-setup")
    done = _person_turns(page, 45)
    assert done.get("settle") == 2 and done.get("road", 0) >= 2, done
    for kind in ("roll", "offer", "answered", "discard", "robber"):
        assert done.get(kind), (kind, done)
    assert page.errors == []  # type: ignore[attr-defined]
    shoot(page, "table-main")

    # the rest of the person's decisions through the Python client, same token
    token = page.evaluate("() => JSON.parse(localStorage.getItem('hexfolk.player')).token")
    tid = page.url.rsplit("/", 1)[-1]

    async def finish() -> dict[str, Any]:
        person = HexfolkClient(web_server.url, token=token)
        async with person, person.connect(tid) as conn:
            return await play_scripted(conn, _builder(random.Random(SEED)), timeout=100)

    final = in_thread(finish, timeout=120)
    assert final["status"] == "finished"
    page.wait_for_selector("#to-overview", timeout=20_000)
    shoot(page, "table-end")
    page.click("#to-overview")
    # a sum never rolled draws a bar of height 0, which Playwright does not count as visible
    page.wait_for_selector("#dice-chart rect.bar", state="attached")
    assert page.locator("#dice-chart rect.bar").count() == 11
    heights = page.eval_on_selector_all(
        "#dice-chart rect.bar", "bars => bars.map(b => Number(b.getAttribute('height')))"
    )
    assert any(x > 0 for x in heights), heights
    assert "Anna" in page.inner_text(".overview")
    shoot(page, "overview")
    page.click("#to-replay")
    page.wait_for_selector("#replay-slider")
    page.focus("#replay-slider")
    page.keyboard.press("Home")
    assert page.inner_text("#replay-label").startswith("step 0 of")
    page.click("#replay-next")
    page.click("#replay-next")
    assert page.inner_text("#replay-label").startswith("step 2 of")
    shoot(page, "replay")
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


def test_invite_link_spectator_and_refresh(browser: Any, web_server: ThreadServer) -> None:
    async def host_table() -> tuple[str, str]:
        async with HexfolkClient(web_server.url) as host:
            await host.create_player("Host")
            seats = [{"kind": "open"}, {"kind": "host"}, {"kind": "bot", "level": "random"}]
            t = await host.create_table(
                game="island", players=3, seats=seats, clock=None, bot_delay=0
            )
            return str(t["id"]), str(host.token)

    tid, host_token = in_thread(host_table)
    guest = new_page(browser)
    _enter(guest, f"{web_server.url}/#/t/{tid}", "Bo")
    guest.wait_for_selector("#join")
    shoot(guest, "invite")
    guest.click("#join")
    # the name as a word: the bot's seat reads "Bot …", which holds "Bo" too
    guest.wait_for_function(r"() => /\bBo\b/.test(document.querySelector('#seats').innerText)")

    async def start() -> None:
        async with HexfolkClient(web_server.url, token=host_token) as host:
            await host.start(tid)

    in_thread(start)
    guest.wait_for_selector(".target-node.settle")
    got = check_clickable(guest)
    assert got["listed"] and all(a.startswith("settle ") for a in got["listed"])
    act_and_wait(guest, guest.locator(".target-node.settle").nth(5))
    before = wait_rendered(guest, "v.legal.some((e) => e.action.startsWith('road '))")
    # a refresh in the middle of the turn keeps the seat and the decision
    guest.reload()
    after = view(guest)
    assert after["seat"] == before["seat"] == 0
    assert _listed(after) == _listed(before)
    check_clickable(guest)
    # a refused action shows the server's reason
    guest.evaluate("() => window.__hexfolkAct('road 999')")
    guest.wait_for_selector("#toast.show")
    assert "999" in guest.inner_text("#toast") or "road" in guest.inner_text("#toast")
    # every action can be done with the keyboard: Tab to a road, Enter
    guest.locator(".target-edge").first.focus()
    v0 = after["version"]
    guest.keyboard.press("Enter")
    wait_rendered(guest, f"v.version > {v0}")

    # a third person watches by the same link, without a name: the board, no hand, nothing to
    # click
    watcher = new_page(browser, size={"width": 390, "height": 844})
    watcher.goto(f"{web_server.url}/#/t/{tid}")
    watcher.wait_for_selector("#board .hex")
    seen = view(watcher)
    assert seen["seat"] is None and seen["legal"] == []
    assert all("hand" not in p for p in seen["observation"]["players"])
    assert watcher.locator("#hand").is_hidden()
    assert watcher.locator("#board .target").count() == 0
    assert watcher.locator(".spectating").is_visible()
    watcher.click("#tab-chat")  # a phone: the chat is a tab of its own (issue 27)
    assert watcher.locator("#chat-input").is_hidden()  # no name, no chat (the server's rule)
    assert watcher.locator("#chat-limits").is_visible()
    shoot(watcher, "spectator")
    for p in (guest, watcher):
        assert p.errors == []  # type: ignore[attr-defined]
        p.context.close()


def test_the_four_languages_render(browser: Any, web_server: ThreadServer) -> None:
    page = new_page(browser, locale="ko-KR")
    for lang, locale in (("ko", "ko-KR"), ("nl", "nl-NL"), ("es", "es-ES"), ("en", "en-GB")):
        texts = json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
        ctx = browser.new_context(locale=locale, viewport={"width": 1440, "height": 900})
        p = ctx.new_page()
        p.goto(web_server.url + "/")
        p.wait_for_selector("h1")
        assert p.inner_text("h1") == texts["lobby.welcome"]
        assert p.evaluate("document.documentElement.lang") == lang
        shoot(p, f"lobby-{lang}", ("desktop", "phone"))
        ctx.close()
    # the switch changes the language and remembers it
    page.goto(web_server.url + "/")
    page.wait_for_selector("h1")
    page.select_option("#lang", "es")
    page.wait_for_function("() => document.documentElement.lang === 'es'")
    es = json.loads((WEB / "i18n" / "es.json").read_text(encoding="utf-8"))
    title = json.dumps(es["lobby.welcome"])
    page.wait_for_function(f"() => document.querySelector('h1').innerText === {title}")
    page.reload()
    page.wait_for_selector("h1")
    assert page.inner_text("h1") == es["lobby.welcome"]
    page.context.close()


def test_every_language_has_every_text() -> None:
    # the page's texts and each game's own (i18n/<game>/<lang>.json), which share no key
    for folder in (WEB / "i18n", WEB / "i18n" / "island", WEB / "i18n" / "scythe"):
        keys = {
            lang: set(json.loads((folder / f"{lang}.json").read_text(encoding="utf-8")))
            for lang in ("nl", "en", "es", "ko")
        }
        assert keys["nl"] == keys["en"] == keys["es"] == keys["ko"], folder
    page = set(json.loads((WEB / "i18n" / "en.json").read_text(encoding="utf-8")))
    for game in ("island", "scythe"):
        own = set(json.loads((WEB / "i18n" / game / "en.json").read_text(encoding="utf-8")))
        assert not page & own, game
