"""Issue 27, "Checks that a person would make, automated": a person plays a real game through the
page against random bots, acting only by clicking what carries a listed action; at every
decision, at the desktop size (1440x900) and at two phone sizes (390x844, 360x640), every
clickable thing (enabled buttons, the board's legal targets, the mat's sections, choices),
scrolled into view from above and from below as a person scrolling meets it, is the top element
at its centre (``document.elementFromPoint``), the page is no wider than the screen, and once
per kind of decision (with its dialog) and size an axe-core scan finds no serious or critical
violation. What is found wrong is gathered over the whole game and reported at once. Real
server, Debian's Chromium; a bounded number of decisions.

Every decision is checked at the size it is clicked at, and each kind of decision (its 1st,
4th, 7th... time) at all three sizes too: the same kind at the same size runs the same page code,
so checking all of them at every size repeated itself (CI time).

One game per game is checked at the three sizes by resizing its page at a decision (the
page's layout is CSS media queries alone: a resized page is laid out as one opened at that
size), and the decision is clicked at each size in turn, so a person on a phone and one at a
desk both play; the same decisions are not played three times over (CI time)."""

from __future__ import annotations

import os
import random
import time
from typing import Any

import pytest

from hexfolk.server.client import HexfolkClient
from tests.server.helpers import ThreadServer
from tests.web.bot_table import table_with_a_bot
from tests.web.conftest import SHOTS, keep_screenshot
from tests.web.helpers import in_thread
from tests.web.own_seat import enter
from tests.web.person_checks import SIZES, axe_missing, axe_violations, covered, overflow
from tests.web.scythe_helpers import calm_choice, listed

DECISIONS = 24
"""Decisions played per game (the island's setup and a few turns; Scythe's first turns)."""
SECONDS = 75.0
"""At most this long playing (the machine is shared: fewer decisions then); each decision is
checked at three sizes."""
FULL_EVERY = 3
"""A kind of decision is checked at all three sizes at its 1st, 4th, 7th... time, otherwise at
the size it is clicked at only (each size still clicks and checks every third decision)."""
CLICK_SIZES = ("phone360", "desktop", "phone390")
"""The size decision ``i`` is clicked at: ``CLICK_SIZES[i % 3]`` (checked at the others first)."""

SNAPSHOT = """() => {
  // the drawn view (null while a newer one waits for its frame) and what visible thing carries
  // each listed action: exactly, or among others (a board target for several opens a chooser)
  const v = window.__hexfolkView;
  if (!v || window.__hexfolkVersion !== v.version) return null;
  if (!v.legal.length && v.status !== 'finished') return null;
  const can = {};
  for (const el of document.querySelectorAll('[data-act]:not([disabled])')) {
    if (!el.checkVisibility({visibilityProperty: true})) continue;
    for (const a of el.dataset.act.split('|')) {
      if (el.dataset.act === a) can[a] = 'exact';
      else if (!can[a]) can[a] = 'chooser';
    }
  }
  return {v, can};
}"""


def _island_pick(v: dict[str, Any], can: dict[str, str], rng: random.Random) -> str | None:
    """A person who builds where the page lets them, rolls, robs, answers offers with no and
    ends the turn; None when the decision is a composer's (the discard)."""
    legal = [a for a in listed(v) if a in can]
    for prefix in ("city ", "settle ", "robber ", "roll", "reject ", "road "):
        picks = [a for a in legal if a.startswith(prefix)]
        if picks and not (prefix == "road " and "end" in legal and rng.random() < 0.6):
            return rng.choice(picks)
    if "end" in legal:
        return "end"
    return rng.choice(legal) if legal else None


def _scythe_pick(v: dict[str, Any], can: dict[str, str], rng: random.Random) -> str | None:
    legal = [a for a in listed(v) if a in can]
    if not legal:
        return None
    calm = calm_choice(v)
    if calm in legal and rng.random() < 0.7:
        return calm
    return rng.choice(legal)


def _click(page: Any, action: str, how: str, seen: int) -> None:
    """Click what carries ``action`` (the chooser's button after a shared target); wait for a
    newer view drawn or the server's message. A covered target was reported already: it is
    then pressed by script, so the game goes on and the rest is checked too."""
    sel = f'[data-act="{action}"]' if how == "exact" else None
    page.evaluate("() => { document.getElementById('toast').className = ''; }")
    if sel is None:
        page.evaluate(
            """(a) => { for (const x of document.querySelectorAll('[data-click-me]'))
                 x.removeAttribute('data-click-me');
               const el = [...document.querySelectorAll('[data-act]')].find((e) =>
                 e.dataset.act.split('|').includes(a)
                 && e.checkVisibility({visibilityProperty: true}));
               el.setAttribute('data-click-me', '1'); }""",
            action,
        )
        sel = "[data-click-me]"
    target = page.locator(sel).first
    # a click Playwright delivered but timed out after (a loaded machine) is not sent twice
    page.evaluate(
        "() => { window.__checksClicked = false; if (!window.__checksListening) {"
        " window.__checksListening = true; document.addEventListener('click',"
        " () => { window.__checksClicked = true; }, true); } }"
    )
    try:
        target.click(timeout=3_000)
    except Exception:
        if page.evaluate("() => window.__hexfolkVersion") != seen:
            return  # the game moved on (a bot's step): decide again
        if not page.evaluate("() => window.__checksClicked"):
            target.evaluate("(el) => el.dispatchEvent(new MouseEvent('click', {bubbles: true}))")
    if how == "chooser":
        page.wait_for_selector(f'#dialog [data-act="{action}"]', timeout=5_000)
        page.locator(f'#dialog [data-act="{action}"]').click()
    page.wait_for_function(
        f"() => (window.__hexfolkVersion > {seen}) || document.querySelector('#toast.show')",
        timeout=15_000,
    )


def _composer(page: Any, v: dict[str, Any]) -> bool:
    """The decisions made in a composer rather than by one button: the island's discard (add
    cards until the button is ready) and Scythe's combat (the dial as it is). True if done."""
    legal = listed(v)
    seen = int(v["version"])
    if any(a.startswith("discard") for a in legal):
        page.wait_for_selector("#discard-dialog")
        go = page.locator("#discard-go")
        for _ in range(30):
            if go.is_enabled():
                break
            plus = page.locator("#discard-dialog button[aria-label$='+']:not([disabled])")
            if plus.count() == 0:
                break
            plus.first.click()
        go.click()
        # the page sends one discard per card: the dialog again only after the last
        page.wait_for_function(
            "() => !window.__hexfolkView.legal.some((e) => e.action.startsWith('discard'))"
            " || !!document.querySelector('#discard-dialog')",
            timeout=15_000,
        )
    elif any(a.startswith("commit ") for a in legal):
        page.wait_for_selector("#commit-go")
        page.click("#commit-go")
    else:
        return False
    page.wait_for_function(
        f"() => (window.__hexfolkVersion > {seen}) || document.querySelector('#toast.show')",
        timeout=15_000,
    )
    return True


def _table(server: ThreadServer, token: str, game: str) -> str:
    """The island at four seats (three random bots); Scythe at two, as in bot_table."""
    if game == "scythe":
        return table_with_a_bot(server, token, game, seed=27)

    async def make() -> str:
        async with HexfolkClient(server.url, token=token) as host:
            t = await host.create_table(
                game="island",
                players=4,
                seats=[{"kind": "host"}] + [{"kind": "bot", "level": "random"}] * 3,
                bot_delay=0,
                clock=None,
                seed=27,
            )
            await host.start(t["id"])
            return str(t["id"])

    return str(in_thread(make))


@pytest.mark.parametrize("game", ["island", "scythe"])
def test_every_target_is_on_top_at_every_decision(
    browser: Any, web_server: ThreadServer, game: str
) -> None:
    from tests.web.helpers import new_page

    assert sorted(CLICK_SIZES) == sorted(SIZES)
    page = new_page(browser, size=SIZES[CLICK_SIZES[0]])
    token = enter(page, web_server.url + "/", "Ann")
    tid = _table(web_server, token, game)
    if os.environ.get("CHECKS_DEBUG"):
        page.add_init_script("window.__hexfolkDebug = true")
    page.goto(f"{web_server.url}/#/t/{tid}")
    rng = random.Random(27)
    pick = _island_pick if game == "island" else _scythe_pick
    found: list[str] = []
    checked = dict.fromkeys(SIZES, 0)
    clicked = dict.fromkeys(SIZES, 0)
    looked = dict.fromkeys(SIZES, 0)
    kinds: dict[str, int] = {}
    decisions = 0
    scanned: set[str] = set()
    no_axe = axe_missing()
    end = time.monotonic() + SECONDS
    while decisions < DECISIONS and time.monotonic() < end:
        snap = page.wait_for_function(SNAPSHOT, timeout=30_000).json_value()
        v = snap["v"]
        if v["status"] == "finished":
            break
        # the kind of decision (a dialog open or not) for the scan once per kind and size: the
        # dialogs and composers of play are pages a person reads too (test_person_checks_pages
        # scans the rest)
        kind = (v["observation"].get("prompt") or {}).get("kind") or listed(v)[0].split()[0]
        kind += " " + str(page.evaluate("() => (document.querySelector('.modal') || {}).id"))
        click_size = CLICK_SIZES[decisions % len(CLICK_SIZES)]
        # every kind at every size: its 1st, 4th, 7th... decision at the three sizes, the
        # others at the size clicked at (the same kind at the same size runs the same code)
        full = kinds.get(kind, 0) % FULL_EVERY == 0
        kinds[kind] = kinds.get(kind, 0) + 1
        others = [s for s in CLICK_SIZES if s != click_size] if full else []
        for size in [*others, click_size]:
            page.set_viewport_size(SIZES[size])
            looked[size] += 1
            where = f"{size} decision {decisions} ("
            where += f"{(v['observation'].get('prompt') or {}).get('kind', '')} {listed(v)[:3]})"
            if no_axe is None and f"{size} {kind}" not in scanned:
                scanned.add(f"{size} {kind}")
                found += axe_violations(page, where)
            n, bad = covered(page, where)
            checked[size] += n
            found += bad + overflow(page, where)
            if decisions % 8 == 0:  # for the eye (build/web-screenshots, HEXFOLK_SCREENSHOTS)
                SHOTS.mkdir(parents=True, exist_ok=True)
                keep_screenshot(page, SHOTS / f"checks-{game}-{size}-{decisions}.png")
        decisions += 1
        # what carries each action as seen at the size clicked at (a phone's tabs hide panels)
        snap = page.evaluate(SNAPSHOT)
        if not snap or snap["v"]["version"] != v["version"]:
            continue  # the game moved on while checking (a bot's step): decide again
        v, can = snap["v"], snap["can"]
        if _composer(page, v):
            clicked[click_size] += 1
            continue
        action = pick(v, can, rng)
        assert action is not None, (
            f"nothing on the page carries a listed action at {click_size}: {listed(v)}",
            page.evaluate(
                "() => [...document.querySelectorAll('[data-act]')].map((e) => [e.dataset.act,"
                " e.disabled, e.getClientRects().length, e.outerHTML.slice(0, 120)])"
            ),
        )
        _click(page, action, can[action], int(v["version"]))
        clicked[click_size] += 1
    assert decisions >= 6, f"only {decisions} decisions in {SECONDS} s"
    assert all(looked[s] >= 2 and checked[s] > looked[s] for s in SIZES), (checked, looked)
    assert all(looked[s] >= len(kinds) for s in SIZES), (looked, kinds)  # every kind, every size
    assert all(clicked[s] >= 1 for s in SIZES), (clicked, decisions)
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()
    unique = list(dict.fromkeys(b.split(": ", 1)[1] for b in found))
    if os.environ.get("CHECKS_DEBUG"):
        print("\n".join(page.console_lines))  # type: ignore[attr-defined]
    print(
        f"{game}: {decisions} decisions, {len(kinds)} kinds, looked at {looked}, targets checked"
        f" {checked}, clicked at {clicked}"
    )
    assert not found, (
        f"{game}: {len(found)} finding(s) over {decisions} decisions at {list(SIZES)}, "
        f"{len(unique)} distinct:\n" + "\n".join(found[:40])
    )
    if no_axe:  # the rest was checked; the scan could not be
        pytest.skip(f"no axe-core scan: {no_axe}")
