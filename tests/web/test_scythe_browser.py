"""Scythe in the browser (issue 15), with Playwright on Debian's Chromium against a real uvicorn
server: a person creates a Scythe table in the lobby (a banned pair is refused with the engine's
reason), plays ten full turns by clicking the board and the mat (Produce, Trade, Bolster, Move
with a carry, a bottom action paid from a territory, a combat with a dial and a card, an undo),
with what is clickable checked against what the server listed at every decision; the rest goes
through the Python client to the final scoring and the replay; a spectator sees no hand,
objective or Factory offer; the four languages render. Screenshots at 1440x900, 1024x768,
768x1024 and a phone's 390x844 go to ``build/web-screenshots``."""

from __future__ import annotations

import asyncio
import json
import random
import threading
import time
from typing import Any

from hexfolk.server.client import HexfolkClient
from tests.server.helpers import ThreadServer, play_scripted, quick_choice
from tests.web.conftest import SHOTS, keep_screenshot
from tests.web.helpers import Background, in_thread, new_page, seed_tables, settle
from tests.web.scythe_helpers import (
    DESKTOP,
    SIZES,
    Hunter,
    character_at,
    check_clickable,
    click_action,
    hints,
    listed,
    names_a_place,
    wait_drawn,
)

SEED = 5
LANGS = ("nl", "en", "es", "ko")
POST = "r7c4"
"""The mountain with an encounter token where the person's character waits (an encounter when
it gets there): the Rusviet Riverwalk mech (across rivers onto farms and villages) reaches it in
six steps from its start, through the farm ``WAY`` beside Crimea's home."""
WAY = ("r7c3",)
DEBUG = bool(__import__("os").environ.get("HEXFOLK_WEB_DEBUG"))
"""The table's seed (the test server allows seeds): the same deal, tile and cards every run."""


def shoot(
    page: Any, name: str, sizes: tuple[str, ...] = ("desktop", "tablet", "portrait", "phone")
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    for size in sizes:
        page.set_viewport_size(SIZES[size])
        settle(page)
        keep_screenshot(page, SHOTS / f"scythe-{name}-{size}.png")
    page.set_viewport_size(DESKTOP)
    settle(page)


class Person:
    """The person's choices, made to cover what the issue's test names; each is clicked."""

    NEEDS = ("produce", "trade", "bolster", "move")

    def __init__(self, post: str, way: tuple[str, ...]) -> None:
        self.post = post  # where the character goes and waits for the attack
        self.way = way  # the places it goes through
        self.done: dict[str, int] = {}
        self.turns = 0

    def bump(self, k: str) -> None:
        self.done[k] = self.done.get(k, 0) + 1

    def choose(self, v: dict[str, Any]) -> str:
        legal = listed(v)
        h = hints(v)
        obs = v["observation"]
        kind = (obs.get("prompt") or {}).get("kind")
        me = v["seat"]
        char = character_at(obs, me) or ""
        board = obs.get("board", {})
        loaded = lambda loc: bool(board.get(loc, {}).get("resources"))  # noqa: E731
        if kind == "choose-section":
            secs = [a for a in legal if a != "section factory"]
            wanted = sorted(self.NEEDS, key=lambda n: self.done.get(n, 0))
            for need in wanted:
                for a in secs:
                    if h[a].startswith(need):
                        return a
            return secs[0]
        if kind == "top-action":
            if "bolster cards" in legal:
                hand = obs["player_state"][me].get("hand") or []
                self.bump("bolster")
                return "bolster cards" if len(hand) < 2 else "bolster power"
            produces = [a for a in legal if a.startswith("produce ")]
            if produces:
                self.bump("produce")
                return produces[0]
            trades = [a for a in legal if a.startswith("trade ") and a != "trade popularity"]
            if trades:
                self.bump("trade")
                return next((a for a in trades if a.startswith("trade oil")), trades[0])
            if char != self.post and f"move character {char}" in legal:
                self.bump("move")
                return f"move character {char}"
            carriers = [a for a in legal if a.startswith("move worker") and loaded(a.split()[2])]
            if carriers:
                self.bump("move")
                return carriers[0]
            return "skip"
        if kind == "choose-unit":
            carriers = [a for a in legal if a.startswith("move worker") and loaded(a.split()[2])]
            if carriers and not self.done.get("carry"):
                return carriers[0]
            return "done"
        if kind == "carry":
            loads = [a for a in legal if a != "carry none"]
            if loads:
                self.bump("carry")
                return loads[0]
            return "carry none"
        if kind == "step" and (obs.get("selected") or {}).get("kind") == "character":
            for place in (self.post, *self.way):
                if f"to {place}" in legal:
                    return f"to {place}"
            calm = [a for a in legal if a.startswith("to ") and "COMBAT" not in h[a]]
            return calm[0] if calm else legal[0]
        if kind == "trade-second-token":
            more = [a for a in legal if a.startswith("trade ")]
            return more[0] if more else "done"
        if kind == "bottom-action":
            if "bottom" in legal:
                self.bump("bottom")
                return "bottom"
            return "skip"
        if kind == "pay":  # from a territory, keeping the combat cards (Coercion) for the fight
            self.bump("pay")
            return next((a for a in legal if not a.startswith("pay card")), legal[0])
        if kind == "benefit":
            gains = [a for a in legal if a != "skip"]
            if gains:
                self.bump("benefit")
                return gains[0]
            return "skip"
        if kind == "end-turn":
            self.turns += 1
            return "end"
        if kind == "encounter":
            self.bump("encounter")
        if kind == "artillery":
            return "no artillery"
        for calm in ("done", "skip"):
            if calm in legal and kind not in ("encounter", "gain", "factory-offer"):
                return calm
        return legal[0]


def _commit(page: Any, v: dict[str, Any]) -> None:
    """Set the dial to 1 and put one combat card in, in the composer; send."""
    page.wait_for_selector("#commit")
    check_clickable(page)
    page.click('#commit .dialv[data-dial="1"]')
    page.locator("#commit button.ccard").first.click()
    text = page.inner_text("#commit-go")
    assert "dial 1" in text and "cards —" not in text, text
    shoot(page, "combat-commit", ("desktop",))
    v0 = v["version"]
    page.click("#commit-go")
    page.wait_for_function(f"() => window.__hexfolkVersion > {v0}")


def _undo_once(page: Any, v: dict[str, Any]) -> None:
    """Right after choosing a section: undo it (one step) and see the choice again."""
    page.wait_for_selector("#undo-one")
    shoot(page, "undo", ("desktop",))
    v0 = v["version"]
    page.click("#undo-one")
    back = wait_drawn(page, f"v.version > {v0} && v.observation.prompt.kind === 'choose-section'")
    assert back["undo"] is None
    assert page.locator("#undo-one").count() == 0
    # nothing left to undo: the server refuses, and the page shows why
    page.evaluate("() => window.__hexfolkUndo(1)")
    page.wait_for_selector("#toast.show")
    assert page.inner_text("#toast").strip(), "a refused undo shows the server's reason"


NEEDS = ("produce", "trade", "bolster", "move", "carry", "bottom", "pay", "benefit", "commit")
NEEDS += ("encounter",)
"""What the person must have done by clicking (issue 15's test list)."""


def _undo_turn(page: Any, v: dict[str, Any]) -> None:
    """Two or more steps into a turn: take the whole turn back, to the choice of a section."""
    n = v["undo"]["turn"]
    assert f"({n} " in page.inner_text("#undo-turn")
    page.click("#undo-turn")
    back = wait_drawn(
        page, f"v.version > {v['version']} && v.observation.prompt.kind === 'choose-section'"
    )
    assert back["undo"] is None and back["observation"]["turn"] == v["observation"]["turn"]


def _person_turns(page: Any, person: Person, seconds: float) -> bool:
    """Play the person's decisions by clicking; True once an undo was taken and refused."""
    end = time.time() + seconds
    undone = turn_undone = by_keyboard = False
    reasons_seen = 0
    need = set(NEEDS)
    while time.time() < end and not (person.turns >= 10 and need <= person.done.keys()):
        wait_drawn(page, "v.legal.length > 0 || v.status === 'finished'", timeout=30_000)
        v = check_clickable(page)["view"]
        if v["status"] == "finished":
            break
        if not v["legal"]:
            continue
        if v["observation"].get("encounter"):  # the drawn card is public: its options shown
            n = len(v["observation"]["encounter"]["options"])
            assert page.locator("#encounter li.option").count() == n
        legal = listed(v)
        kind = v["observation"]["prompt"]["kind"]
        if kind == "choose-section":
            reasons_seen += _section_reasons_shown(page, v)
        if any(a.startswith("commit ") for a in legal):
            _commit(page, v)
            person.bump("commit")
            reveal = wait_drawn(page, "!!document.querySelector('#reveal')")
            assert reveal is not None
            shoot(page, "combat-reveal", ("desktop", "tablet"))
            continue
        if v.get("undo") and v["undo"]["turn"] >= 2 and person.turns >= 3 and not turn_undone:
            _undo_turn(page, v)
            turn_undone = True
            continue
        action = person.choose(v)
        assert action in legal, (action, legal)
        if kind == "choose-section" and person.turns == 2 and not undone:
            click_action(page, action, v["version"])
            _undo_once(page, wait_drawn(page, "!!v.undo"))
            undone = True
            continue
        if kind == "choose-section" and person.turns == 0:
            shoot(page, "choose-section")
        if DEBUG:
            print(v["version"], kind, action, round(time.time() % 1000, 2), flush=True)
        keyboard = not by_keyboard and names_a_place(action)  # once: a board target by keyboard
        by_keyboard = by_keyboard or keyboard
        click_action(page, action, v["version"], keyboard=keyboard)
    # issue 17: a section that cannot be chosen says why (SR-6: not the one used last turn)
    assert reasons_seen > 0, "no section refused with a reason was seen"
    return undone and turn_undone and by_keyboard


def _section_reasons_shown(page: Any, v: dict[str, Any]) -> int:
    """Each section the server refuses carries the server's reason as its tooltip (the view's
    `refused`, docs/protocol.md); a listed section carries none. Returns how many were shown."""
    refused = {r["action"]: r["reason"] for r in v.get("refused") or []}
    shown = 0
    for n in ("1", "2", "3", "4"):
        el = page.locator(f'#my-mat .section[data-section="{n}"]')
        title = el.get_attribute("title")
        if f"section {n}" in listed(v):
            assert not title, (n, title)
        elif f"section {n}" in refused:
            assert title == refused[f"section {n}"], (n, title, refused)
            shown += 1
    return shown


def test_a_person_plays_scythe_against_a_steered_opponent(
    browser: Any, web_server: ThreadServer
) -> None:
    t0 = time.time()
    page = new_page(browser, size=DESKTOP)
    seed_tables(page, SEED)
    page.goto(web_server.url + "/")
    page.fill("#name", "Anna")
    page.click(".name-form button[type=submit]")
    page.wait_for_selector("#set-game")
    page.select_option("#set-game", "scythe")
    page.wait_for_selector("#sc-opt-allow_banned_pairs")
    page.select_option("#set-clock", "unlimited")
    page.select_option("#set-bot-delay", "0")
    page.select_option("#spec-1", "open")
    # a banned pair (SR-58) is refused with the engine's reason, and nothing is created
    page.select_option("#sc-faction-0", "rusviet")
    page.select_option("#sc-mat-0", "industrial")
    page.select_option("#sc-faction-1", "nordic")
    page.select_option("#sc-mat-1", "engineering")
    shoot(page, "lobby", ("desktop", "portrait", "phone"))
    page.click("#create-table")
    page.wait_for_selector("#toast.show")
    assert "banned pair" in page.inner_text("#toast")
    page.select_option("#sc-faction-0", "crimea")
    page.select_option("#sc-mat-0", "mechanical")
    page.select_option("#sc-faction-1", "rusviet")
    page.click("#create-table")
    page.wait_for_selector("#seats li.seat")
    tid = page.url.rsplit("/", 1)[-1]
    assert "Crimea" in page.inner_text(".settings-line")
    shoot(page, "table-lobby", ("desktop",))
    # the host's settings: the same Scythe fields, saved with PATCH
    page.click("details.settings summary")
    assert page.input_value("#sc-faction-0") == "crimea"
    assert page.input_value("#sc-mat-1") == "engineering"
    page.uncheck("#set-public")
    page.click("details.settings button:has-text('Save')")
    page.wait_for_function(
        "() => document.querySelector('.settings-line').innerText.includes('by invite link')"
    )

    # the opponent: a person on the Python client, steered to attack the person's character
    stop = threading.Event()
    hunter = Hunter(prey=0, post=POST)

    async def opponent() -> dict[str, Any]:
        async with HexfolkClient(web_server.url) as bo:
            await bo.create_player("Bo")
            await bo.join(tid, 1)
            async with bo.connect(tid) as conn:
                acted = -1
                while not stop.is_set():
                    v = conn.view
                    if v is not None and v["status"] == "finished":
                        return v
                    if v is not None and v["legal"] and v["version"] != acted:
                        acted = v["version"]
                        choice = hunter(v)
                        if DEBUG:
                            print(
                                "   bo",
                                v["version"],
                                v["observation"]["prompt"]["kind"],
                                choice,
                                flush=True,
                            )
                        await conn.act(choice, v["version"])
                    try:
                        msg = await asyncio.wait_for(conn.inbox.get(), 0.5)
                    except TimeoutError:
                        continue
                    if msg.get("type") == "error":
                        acted = -1
                rng = random.Random(SEED)
                return await play_scripted(conn, quick_choice(rng), timeout=150)

    bo = Background(opponent)
    page.wait_for_function(r"() => /\bBo\b/.test(document.querySelector('#seats').innerText)")
    page.click("#start")
    wait_drawn(page, "v.legal.length > 0", timeout=30_000)
    assert page.locator("#my-mat .section").count() == 4
    person = Person(POST, WAY)
    assert _person_turns(page, person, 70), "undo one, undo the turn, a refusal, a keyboard move"
    for k in NEEDS:
        assert person.done.get(k), (k, person.done)
    assert person.turns >= 10, person.turns
    assert hunter.fought
    assert page.errors == []  # type: ignore[attr-defined]
    times = sorted(page.evaluate("() => window.__hexfolkRedraws"))
    print(
        f"scythe page: {len(times)} redraws, median {times[len(times) // 2]:.1f} ms, "
        f"p95 {times[int(len(times) * 0.95)]:.1f} ms"
    )
    assert times[len(times) // 2] < 100, times  # generous: a loaded 2-core machine
    shoot(page, "table-main")
    # the board in words for screen readers: whose units stand where
    desc = page.evaluate("() => document.getElementById('board-desc').textContent")
    assert "Anna (Crimea)" in desc and "Bo (Rusviet)" in desc, desc
    box = page.get_attribute("#board", "viewBox")
    page.click(".zoom-in")
    assert float(page.get_attribute("#board", "data-zoom") or 1) > 1
    assert page.get_attribute("#board", "viewBox") != box
    shoot(page, "zoomed", ("tablet",))
    page.click(".zoom-home")
    assert page.get_attribute("#board", "viewBox") == box

    # a spectator sees no hand, no objective and no Factory offer, and nothing to click
    spec = new_page(browser, size=DESKTOP)
    spec.goto(f"{web_server.url}/#/t/{tid}")
    sv = wait_drawn(spec, "true")
    first = spec.evaluate("() => window.__hexfolkFirstView")
    print(f"scythe page: the first view drawn {first:.0f} ms after opening the table's address")
    assert first < 5_000
    assert sv["seat"] is None and sv["legal"] == []
    for ps in sv["observation"]["player_state"]:
        assert "hand" not in ps and "objective_cards" not in ps
    assert "factory_offer_cards" not in sv["observation"]
    assert spec.locator("#my-mat").is_hidden()
    assert (
        spec.locator(".ccard-face, #factory-offer, #my-cards .objectives:not(.public)").count() == 0
    )
    assert spec.locator("[data-act]").count() == 0
    shoot(spec, "spectator", ("desktop",))
    spec.context.close()

    # a refresh brings the person back to the seat as it was
    before = page.evaluate("() => window.__hexfolkView.version")
    page.reload()
    again = wait_drawn(page, f"v.version >= {before}")
    assert again["seat"] == 0

    # the rest through the Python client, same token, to the final scoring
    token = page.evaluate("() => JSON.parse(localStorage.getItem('hexfolk.player')).token")
    stop.set()

    async def finish() -> dict[str, Any]:
        me = HexfolkClient(web_server.url, token=token)
        async with me, me.connect(tid) as conn:
            return await play_scripted(conn, quick_choice(random.Random(SEED)), timeout=150)

    final = in_thread(finish, timeout=170)
    assert final["status"] == "finished"
    bo.result(30)
    page.wait_for_selector("#scores tr.fortune", timeout=20_000)
    text = page.inner_text("#end")
    breakdown = final["result"]["summary"]["breakdown"]
    for b in breakdown:
        assert f"${b['fortune']}" in text
    assert page.locator("#scores thead th[data-seat]").count() == 2
    assert page.locator("#download-record").count() == 1 and page.locator("#rematch").count() == 1
    shoot(page, "end")
    page.click("#to-replay")
    page.wait_for_selector("#replay-slider")
    page.click("#replay-first")
    assert page.inner_text("#replay-label").startswith("step 0 of")
    page.click("#replay-next")
    assert page.inner_text("#replay-label").startswith("step 1 of")
    shoot(page, "replay", ("desktop",))
    # a rematch: the same settings at a new table, in its lobby
    page.goto(f"{web_server.url}/#/t/{tid}")
    page.click("#rematch")
    page.wait_for_function(
        f"() => location.hash.startsWith('#/t/') && !location.hash.includes('{tid}')"
    )
    page.wait_for_selector("#seats li.seat")
    assert "Crimea" in page.inner_text(".settings-line")
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()
    assert time.time() - t0 < 170


def test_the_geometry_draws_the_data_board() -> None:
    """The served geometry (ScytheGame.board_geometry) is the data module's board: every
    territory and home base, each river a pair of neighbours, lakes and tunnels as printed."""
    from hexfolk.core import load_game
    from hexfolk.games.scythe import data as D

    geo = load_game("scythe", 2, {}).board_geometry()
    assert geo is not None
    assert set(geo["territories"]) == {t["id"] for t in D.TERRITORIES}
    assert set(geo["home_bases"]) == {hb["id"] for hb in D.HOME_BASES}
    assert geo["factory"] == "r4c3" and geo["territories"]["r4c3"]["terrain"] == "factory"
    assert sorted(geo["lakes"]) == sorted(D.LOC_NAMES[i] for i in D.LAKES)
    assert sorted(geo["tunnels"]) == sorted(D.LOC_NAMES[i] for i in D.TUNNELS)
    rivers = {tuple(p) for p in geo["rivers"]}
    listed_rivers = {
        tuple(sorted((D.LOC_NAMES[i], D.LOC_NAMES[j])))
        for i, steps in enumerate(D.GEO)
        for j, river in steps
        if river
    }
    assert rivers == listed_rivers and rivers
    for a, b in rivers:  # neighbours: their centres are one hex apart on the doubled grid
        (ax, ay), (bx, by) = (
            (geo["territories"].get(x) or geo["home_bases"][x])["xy"] for x in (a, b)
        )
        assert (abs(ax - bx), abs(ay - by)) in ((2, 0), (1, 3)), (a, b)
    assert set(geo["components"]["mats"]) == set(D.MAT_IDS)
    assert len(geo["components"]["objectives"]) == len(D.OBJECTIVES)


def test_the_four_languages_render_a_scythe_table(browser: Any, web_server: ThreadServer) -> None:
    async def table() -> str:
        async with HexfolkClient(web_server.url) as host:
            await host.create_player("Host")
            t = await host.create_table(
                game="scythe",
                players=2,
                options={"factions": "polania,saxony", "mats": "mechanical,agricultural"},
                seats=[{"kind": "host"}, {"kind": "bot", "level": "easy"}],
                bot_delay=0,
                clock=None,
            )
            await host.start(t["id"])
            return str(t["id"])

    tid = in_thread(table)
    words = {
        "nl": "Triomfspoor",
        "en": "Triumph track",
        "es": "Marcador de triunfos",
        "ko": "승리 트랙",
    }
    for code, word in words.items():
        page = new_page(browser, locale=code, size=DESKTOP)
        page.goto(f"{web_server.url}/#/t/{tid}")
        wait_drawn(page, "true")
        page.wait_for_selector("#triumph h2")
        assert page.inner_text("#triumph h2") == word
        assert "Polania" in page.inner_text("#players") or "폴라니아" in page.inner_text("#players")
        if code == "ko":
            shoot(page, "korean", ("desktop",))
        assert page.errors == []  # type: ignore[attr-defined]
        page.context.close()


def test_five_factions_watched_by_a_spectator(browser: Any, web_server: ThreadServer) -> None:
    """Five bots play; a spectator's page draws every faction's units, tracks and mats, and
    offers nothing to click."""

    async def table() -> str:
        async with HexfolkClient(web_server.url) as host:
            await host.create_player("Organizer")
            t = await host.create_table(
                game="scythe",
                players=5,
                seats=[{"kind": "bot", "level": "random"}] * 5,
                bot_delay=0,  # the test is about the drawing, not the bots' pace
                clock=None,
                seed=SEED,
            )
            await host.start(t["id"])
            return str(t["id"])

    tid = in_thread(table)
    page = new_page(browser, size=DESKTOP)
    page.goto(f"{web_server.url}/#/t/{tid}")
    v = wait_drawn(page, "v.version > 150 || v.status === 'finished'", timeout=60_000)
    assert v["seat"] is None
    assert page.locator("#players li.player").count() == 5
    assert page.locator("#triumph tbody tr").count() == 5
    seats_js = "els => els.map(e => e.dataset.seat)"
    drawn = set(page.eval_on_selector_all("#board .sc-units", seats_js))
    assert drawn == {"0", "1", "2", "3", "4"}
    assert page.locator("[data-act]").count() == 0
    shoot(page, "five-factions", ("desktop", "tablet"))
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


def test_the_scythe_texts_exist_in_every_language() -> None:
    """The four Scythe text files hold the same keys, share none with the page's own files, and
    every literal key the Scythe modules ask for is in one of the two."""
    import re
    from pathlib import Path

    web = Path(__file__).resolve().parents[2] / "src" / "hexfolk" / "web"
    files = {c: json.loads((web / "i18n" / "scythe" / f"{c}.json").read_text()) for c in LANGS}
    base = json.loads((web / "i18n" / "en.json").read_text())
    keys = set(files["en"])
    for code, texts in files.items():
        assert set(texts) == keys, (code, set(texts) ^ keys)
        assert all(str(v).strip() for v in texts.values()), code
    assert not keys & set(base)
    used: set[str] = set()
    for js in (web / "scythe").glob("*.js"):
        used |= set(re.findall(r'\bt\("([^"]+)"', js.read_text()))
    missing = sorted(k for k in used if k not in keys and k not in base)
    assert not missing, missing
