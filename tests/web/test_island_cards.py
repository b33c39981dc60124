"""Development cards and the special build phase in the page (issue 13; IR-29..IR-34, IR-38):
a person at a seeded 5-player table with four bots plays every decision by clicking — the
sign-up buttons after each other turn (IR-30), building or buying in a special build slot with
no trade and no card play listed or shown (IR-32), bank trades towards a card, buying one, and
playing one in a later turn (IR-34, IR-38: not the turn it was bought). What is clickable is
exactly what the server listed at every decision."""

from __future__ import annotations

import time
from typing import Any

from tests.server.helpers import ThreadServer
from tests.web.helpers import (
    act_and_wait,
    check_clickable,
    new_page,
    seed_tables,
    shoot,
    wait_rendered,
)
from tests.web.test_island_browser import _best_spot, _enter, _rob

SEED = 5
NEED = {"wool": 1, "grain": 1, "ore": 1}
"""A development card's cost (IR-38 in the reference sheet)."""
PLAYABLE = ("knight", "roads", "plenty", "monopoly")


def _listed(v: dict[str, Any]) -> list[str]:
    return [e["action"] for e in v["legal"]]


def _bank_towards_card(v: dict[str, Any]) -> str | None:
    """A listed bank or harbor trade that gives the most-held card for a missing card cost."""
    hand = v["observation"]["players"][v["seat"]]["hand"]
    letters = {"lumber": "l", "brick": "b", "wool": "w", "grain": "g", "ore": "o"}
    missing = [letters[r] for r, k in NEED.items() if hand[r] < k]
    if not missing:
        return None
    spare = sorted(
        (r for r in letters if r not in NEED or hand[r] > NEED[r]), key=lambda r: -hand[r]
    )
    for r in spare:
        for m in missing:
            for a in _listed(v):
                if a.startswith("trade ") and a.endswith(f"{letters[r]} for 1{m}"):
                    return a
    return None


def test_a_person_buys_and_plays_a_card_and_uses_the_special_build_phase(
    browser: Any, web_server: ThreadServer
) -> None:
    page = new_page(browser)
    seed_tables(page, SEED)
    _enter(page, web_server.url + "/", "Cato")
    page.wait_for_selector("#create-table")
    page.select_option("#set-players", "5")
    page.select_option("#set-clock", "unlimited")
    page.select_option("#set-bot-delay", "0")
    for i in range(1, 5):
        page.select_option(f"#spec-{i}", "bot:random")
    page.click("#create-table")
    page.wait_for_selector("#start")
    page.click("#start")

    done: dict[str, int] = {}
    bump = lambda k: done.__setitem__(k, done.get(k, 0) + 1)  # noqa: E731
    end = time.time() + 150
    while time.time() < end and not {"buy", "play", "sbp join", "sbp pass", "sbp build"} <= set(
        done
    ):
        v = wait_rendered(page, "v.legal.length > 0 || v.status !== 'playing'", timeout=30_000)
        assert v["status"] == "playing", "the game ended before the person bought and played"
        legal = _listed(v)
        check_clickable(page)
        me = v["observation"]["players"][v["seat"]]
        act = lambda target, v=v: act_and_wait(page, target, seen=v["version"])  # noqa: E731
        kind = (v["observation"].get("prompt") or {}).get("kind")
        if "sbp join" in legal:
            # IR-30: after another seat's turn; join when a card can be bought, else pass
            can_buy = all(me["hand"][r] >= k for r, k in NEED.items())
            shoot(page, "table-sbp-signup", ("desktop", "phone"))
            if can_buy or "sbp join" not in done:
                act('#actions button[data-act="sbp join"]')
                bump("sbp join")
            else:
                act('#actions button[data-act="sbp pass"]')
                bump("sbp pass")
        elif kind == "sbp-build":
            # IR-32: build and buy only; no trade and no card play listed, none shown
            assert not any(a.startswith(("trade ", "offer ", "play ")) for a in legal), legal
            assert (
                page.locator("#bank-trade").count() == 0
                and page.locator("#send-offer").count() == 0
            )
            shoot(page, "table-sbp-build", ("desktop", "phone"))
            if "buy" in legal:
                act("#btn-buy")
                bump("buy")
            else:
                act("#btn-end")
            bump("sbp build")
        elif any(a.startswith("discard") for a in legal):
            page.wait_for_selector("#discard-dialog")
            go = page.locator("#discard-go")
            while not go.is_enabled():
                page.locator(
                    "#discard-dialog button[aria-label$='+']:not([disabled])"
                ).first.click()
            go.click()
            wait_rendered(page, "!v.legal.some((e) => e.action.startsWith('discard'))")
        elif any(a.startswith("robber ") for a in legal):
            _rob(page)
        elif any(a.startswith("settle ") for a in legal) and kind and kind.startswith("setup"):
            act(f'.target-node[data-act="{_best_spot(v)}"]')
        elif any(a.startswith("road ") for a in legal) and kind and kind.startswith("setup"):
            act(".target-edge")
        elif any(a.startswith("reject ") for a in legal):
            act("#trade button[data-act^='reject']")
        elif kind == "road-building":
            act(".target-edge")
        elif "play" not in done and any(a.startswith("play ") for a in legal):
            # a card bought in an earlier turn (IR-34), marked playable in the hand
            assert page.locator("#hand .devcard.playable").count() >= 1
            a = next(a for a in legal if a.startswith("play "))
            shoot(page, "table-play-card", ("desktop", "phone"))
            if a in ("play knight", "play roads"):
                act(f"#btn-{a.replace(' ', '-')}")
            else:
                page.click("#btn-plenty" if a.startswith("play plenty") else "#btn-monopoly")
                check_clickable(page)
                act("#dialog .choice")
            bump("play")
        elif "roll" in legal:
            act("#btn-roll")
        elif "buy" in legal and not ("play" in done and "buy" in done):
            act("#btn-buy")
            bump("buy")
            after = wait_rendered(page, f"v.version > {v['version']}")
            hand = after["observation"]["players"][after["seat"]]
            # the card just bought is not playable this turn (IR-38): not marked, not listed
            assert hand.get("dev_bought_this_turn"), hand
            assert page.locator("#hand .devnote").count() == 1
        elif (trade := _bank_towards_card(v)) is not None:
            act(f'#bank-trade button[data-act="{trade}"]')
            bump("bank")
        elif "end" in legal:
            act("#btn-end")
        else:
            act(page.locator("[data-act]:not([disabled])").first)
        assert v["seat"] == 0
    assert {"buy", "play", "sbp join", "sbp build"} <= set(done), done
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()
