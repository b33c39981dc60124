"""Scythe's cards in the browser (issue 15), clicked on a real page against a real server: the
encounter card's two options of Polania's Meander, the Factory's offer (seen by its visitor
alone: neither the other seat nor a spectator gets it) and the card kept, and an objective
revealed when it holds (SR-51); the card texts in the player's language.

The situation comes by play, quickly: a seeded table (Polania on the Mechanical mat against
Crimea), both seats steered through the Python client (the server rebuilds a table only from
its events, so there is no shortcut), and the person's page does the clicking whenever one of
these cards waits. Seed 2 deals Polania the objective "Technological Breakthrough" (#22: a
Factory card and no upgrade), which holds as soon as the Factory card is kept."""

from __future__ import annotations

import asyncio
import json
import threading
from typing import Any

from hexfolk.server.client import HexfolkClient
from tests.server.helpers import ThreadServer
from tests.web.helpers import Background, new_page
from tests.web.scythe_helpers import (
    DESKTOP,
    PHONE,
    FactoryGoer,
    calm_choice,
    check_clickable,
    click_action,
    hints,
    listed,
    wait_drawn,
)
from tests.web.test_scythe_browser import shoot

SEED = 2
ENCOUNTER = "r4c1"
"""The village with an encounter token two steps from Polania's home, inside its rivers."""
CLICKED_KINDS = ("encounter", "factory-offer")


def _for_the_page(v: dict[str, Any]) -> bool:
    """The decisions the person's page clicks (the steering leaves them alone)."""
    kind = (v["observation"].get("prompt") or {}).get("kind")
    return kind in CLICKED_KINDS or any(a.startswith("reveal ") for a in listed(v))


def test_encounter_factory_and_objective_are_clicked(
    browser: Any, web_server: ThreadServer
) -> None:
    made: dict[str, Any] = {}
    ready = threading.Event()
    stop = threading.Event()
    other_views: list[dict[str, Any]] = []
    seat_said = threading.Event()

    async def steer() -> dict[str, Any]:
        async with HexfolkClient(web_server.url) as a, HexfolkClient(web_server.url) as b:
            made["player"] = await a.create_player("Pia")
            await b.create_player("Kai")
            t = await a.create_table(
                game="scythe",
                players=2,
                options={"factions": "polania,crimea", "mats": "mechanical,agricultural"},
                seats=[{"kind": "host"}, {"kind": "open"}],
                bot_delay=0,
                clock=None,
                seed=SEED,
            )
            made["tid"] = t["id"]
            await b.join(t["id"], 1)
            await a.start(t["id"])
            ready.set()
            goer = FactoryGoer((ENCOUNTER,))
            acted = {0: -1, 1: -1}
            async with a.connect(t["id"]) as ca, b.connect(t["id"]) as cb:
                while not stop.is_set():
                    if cb.view is not None:
                        other_views.append(cb.view)
                    for seat, conn, choose in ((0, ca, goer), (1, cb, calm_choice)):
                        v = conn.view
                        if not v or not v["legal"] or v["version"] == acted[seat]:
                            continue
                        if seat == 0 and _for_the_page(v):
                            continue
                        acted[seat] = v["version"]
                        await conn.act(choose(v), v["version"])
                    if seat_said.is_set() and not made.get("said"):
                        made["said"] = True
                        await cb.chat("hallo Pia")
                    # on at the next message on either connection (a newer view), at most 30 ms
                    gets = [asyncio.ensure_future(c.inbox.get()) for c in (ca, cb)]
                    await asyncio.wait(gets, timeout=0.03, return_when=asyncio.FIRST_COMPLETED)
                    for g in gets:
                        g.cancel()
            return {}

    bg = Background(steer)
    assert ready.wait(30)
    tid = made["tid"]
    page = new_page(browser, locale="nl-NL", size=DESKTOP)
    page.add_init_script(
        f"localStorage.setItem('hexfolk.player', {json.dumps(json.dumps(made['player']))})"
    )
    page.goto(f"{web_server.url}/#/t/{tid}")
    seen: set[str] = set()
    chosen_options: list[str] = []
    try:
        # Polania's character reaches the encounter token: two options, each clicked (Meander)
        v = wait_drawn(page, "v.observation.prompt && v.observation.prompt.kind === 'encounter'")
        card = v["observation"]["encounter"]["card"]
        assert page.locator("#encounter li.option").count() == len(
            v["observation"]["encounter"]["options"]
        )
        # the card's text in the player's language (Dutch), keyed by the card's number
        nl = json.loads(
            (page.context.request.get(f"{web_server.url}/app/i18n/scythe/nl.json")).text()
        )
        assert nl[f"card.enc.{card}.1"] in page.inner_text("#encounter")
        shoot(page, "encounter", ("desktop", "tablet", "phone"))
        # on a phone the card is in its tab under the board (issue 27): its jump button shows
        # that tab and scrolls the card into sight, the board still in sight above it
        assert page.locator("#to-choice").is_hidden()  # not needed beside the board
        page.set_viewport_size(PHONE)
        page.click("#tab-log")  # away from the card
        assert page.locator("#encounter").is_hidden()
        page.click("#to-choice")
        page.wait_for_function(
            "() => { const r = document.getElementById('encounter').getBoundingClientRect();"
            " const b = document.querySelector('.board-wrap').getBoundingClientRect();"
            " return r.height > 0 && r.top >= b.bottom && r.top < window.innerHeight * 0.7"
            " && b.top >= 0 && b.height > 100; }"
        )
        page.set_viewport_size(DESKTOP)
        while v["observation"]["prompt"]["kind"] == "encounter":
            check_clickable(page)
            options = [a for a in listed(v) if a.startswith("option ")]
            pick = [a for a in options if "upgrade" not in hints(v)[a]]  # #22 wants no upgrade
            if len(chosen_options) == 2 or not pick:
                break
            click_action(page, pick[0], v["version"])
            chosen_options.append(pick[0])
            seen.add("option")
            v = wait_drawn(page, f"v.version > {v['version']}")
        assert len(chosen_options) == 2, chosen_options  # Polania chooses two (Meander)
        if "done" in listed(v) and v["observation"]["prompt"]["kind"] == "encounter":
            click_action(page, "done", v["version"])

        # the chat marks each seat with its faction's badge, not the island's seat colour
        page.fill("#chat-input", "goed zo")
        page.press("#chat-input", "Enter")
        seat_said.set()
        page.wait_for_selector('#chat li[data-seat="1"]')
        for seat, faction in ((0, "Polania"), (1, "Krim")):
            row = page.locator(f'#chat li[data-seat="{seat}"]').first
            assert row.locator(".fbadge").get_attribute("title") == faction
            assert row.locator(".swatch").count() == 0

        # the Factory: the offer is the visitor's alone
        v = wait_drawn(
            page, "v.observation.prompt && v.observation.prompt.kind === 'factory-offer'", 60_000
        )
        offer = v["observation"]["factory_offer_cards"]
        assert len(offer) == 3
        check_clickable(page)
        assert page.locator("#factory-offer li.option").count() == 3
        assert nl[f"card.fac.{offer[0]}"] in page.inner_text("#factory-offer")
        others = [x for x in other_views if x["version"] >= v["version"]] or other_views[-1:]
        assert others and all("factory_offer_cards" not in x["observation"] for x in others)
        spec = new_page(browser, size=DESKTOP)
        spec.goto(f"{web_server.url}/#/t/{tid}")
        sv = wait_drawn(spec, f"v.version >= {v['version']}")
        assert sv["seat"] is None and "factory_offer_cards" not in sv["observation"]
        assert spec.locator("#factory-offer").count() == 0
        assert spec.locator("[data-act]").count() == 0
        shoot(page, "factory-offer", ("desktop", "tablet"))
        keep = f"factory {offer[0]}"
        click_action(page, keep, v["version"])
        v = wait_drawn(page, f"v.version > {v['version']}")
        assert v["observation"]["player_state"][0]["factory_card"] == offer[0]
        seen.add("factory")
        assert page.locator("#my-mat .section").count() == 5  # the card as a fifth section
        assert nl[f"card.fac.{offer[0]}"] in page.inner_text("#my-mat .section.factory")

        # the objective holds (a Factory card, no upgrade): revealed by a click (SR-51)
        v = wait_drawn(page, "v.legal.some((e) => e.action === 'reveal 22')")
        check_clickable(page)
        assert page.locator('#my-cards [data-act="reveal 22"]').count() == 1
        assert nl["card.obj.22.name"] in page.inner_text("#my-cards")
        shoot(page, "objective", ("desktop",))
        click_action(page, "reveal 22", v["version"])
        v = wait_drawn(page, "(v.observation.revealed_objectives || []).length > 0")
        assert page.locator("#my-cards .objectives.public .objective").count() == 1
        seen.add("reveal")
        sv = wait_drawn(spec, "(v.observation.revealed_objectives || []).length > 0")
        assert nl["card.obj.22.name"] not in spec.inner_text("#my-cards")  # English spectator
        assert "Technological Breakthrough" in spec.inner_text("#my-cards")
        assert page.errors == [] and spec.errors == []  # type: ignore[attr-defined]
        spec.context.close()
    finally:
        stop.set()
        bg.result(30)
        page.context.close()
    assert seen == {"option", "factory", "reveal"}


def test_every_card_has_a_text_in_every_language() -> None:
    """Each printed card of the data file (23 objectives with name and condition, every option
    of the 28 encounter cards, the 12 Factory cards) has its text in nl, en, es and ko, keyed
    by its number; the English texts of the objectives are the data file's own."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "src" / "hexfolk"
    cards = json.loads((root / "games" / "scythe" / "data" / "cards.json").read_text())
    want = set()
    for o in cards["objectives"]:
        want |= {f"card.obj.{o['number']}.name", f"card.obj.{o['number']}.cond"}
    for e in cards["encounter_cards"]:
        want |= {f"card.enc.{e['number']}.{k}" for k in range(1, len(e["options"]) + 1)}
    want |= {f"card.fac.{f['number']}" for f in cards["factory_cards"]}
    assert len(want) == 23 * 2 + sum(len(e["options"]) for e in cards["encounter_cards"]) + 12
    texts = {
        code: json.loads((root / "web" / "i18n" / "scythe" / f"{code}.json").read_text())
        for code in ("nl", "en", "es", "ko")
    }
    for code, t in texts.items():
        have = {k for k in t if k.startswith("card.")}
        assert have == want, (code, sorted(have ^ want)[:5])
        assert all(t[k].strip() for k in want), code
    for o in cards["objectives"]:
        assert texts["en"][f"card.obj.{o['number']}.name"] == o["name"]
        assert texts["en"][f"card.obj.{o['number']}.cond"] == o["condition"]
    for code in ("nl", "es", "ko"):  # translated, not copied
        same = [k for k in want if k.endswith(".name") and texts[code][k] == texts["en"][k]]
        assert not same, (code, same)
