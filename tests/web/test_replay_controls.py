"""Issue 27, point 10 and "The replay": the replay "opens at the last step, has no autoplay, shows
'roll' without the number, and its first draw took 2.4 s". On a finished bots-only game of
about 700 steps of each game (``finished_games.py``), a spectator's replay page:

- opens at the start (Scythe's step 0; the island's dealt map, step 1, Home going to step 0)
  within a generous bound of the first draw (the precise
  figure: ``benchmarks/replay_speed.py``);
- plays and pauses (the button and Space), at the chosen speed (the pace between steps follows
  it), steps back and forward (the buttons and the arrows), goes to the first and last step
  (Home, End), and jumps to the first step of a turn typed in;
- says what each step did from its structured log lines, the island's roll with its number;
- holds only what a spectator may see (SR-59; IR-7: hidden cards stay hidden): every request is
  ``reveal=false`` and no step it received carries a hand or a private line.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from tests.server.helpers import ThreadServer
from tests.web.conftest import SHOTS, keep_screenshot
from tests.web.helpers import PORTRAIT, new_page, settle

FIRST_DRAW_BOUND_MS = 5_000
"""Generous for a loaded test machine; the precise figure is benchmarks/replay_speed.py's
(the issue's target: under a second for 700 steps; it was 2.4 s)."""

PRIVATE_FORMS = {"stole", "draws_card_value", "draws_objective"}
"""Log forms written only to one seat's log (the card stolen, the combat card and objective
drawn)."""
PRIVATE_KEYS = {"hand", "dev_hand", "vp", "objective_cards", "discarded_objectives"}
"""A player's fields only their own view (or the revealed end) carries."""


@pytest.fixture(scope="module")
def web_server(finished_server: ThreadServer) -> ThreadServer:
    """The session's server of finished games (conftest): these tests only read them."""
    return finished_server


@pytest.fixture(scope="module")
def games(
    finished_tables: dict[str, tuple[str, int]], finished_steps: dict[str, list[dict[str, Any]]]
) -> dict[str, tuple[str, int, list[dict[str, Any]]]]:
    out = {}
    for game in ("island", "scythe"):
        tid, total = finished_tables[game]
        out[game] = (tid, total, finished_steps[game])
    return out


def label(page: Any) -> int:
    """The step shown (the label reads 'step i of n')."""
    return int(page.input_value("#replay-slider"))


def open_replay(browser: Any, server: ThreadServer, tid: str, **kw: Any) -> Any:
    page = new_page(browser, **kw)
    page.goto(f"{server.url}/#/t/{tid}/replay")
    page.wait_for_selector("#replay-label")
    return page


def seat_names(page: Any) -> list[str]:
    """The seats' names as the page's player list shows them, in seat order."""
    return [str(x) for x in page.locator(".replay-info li.player strong").all_inner_texts()]


def said(shown: list[str], lines: list[dict[str, Any]], names: list[str]) -> None:
    """``shown`` says each of the log ``lines`` a step wrote, one an item, each naming by name
    the seats its entry names (its params ``seat``, ``victim``, ``partner`` and the payouts')."""
    assert len(shown) == len(lines), (shown, lines)
    for text, line in zip(shown, lines, strict=True):
        params = line.get("params") or {}
        seats = [params[k] for k in ("seat", "victim", "partner") if isinstance(params.get(k), int)]
        seats += [p["seat"] for p in params.get("paid") or [] if isinstance(p, dict)]
        for k in seats:
            assert names[k] in text, (text, line)
        assert "seat " not in text, text  # a seat by its name, not its number


def go_to(page: Any, i: int) -> None:
    """Step ``i`` through the slider, as a drag on it would."""
    page.evaluate(
        "(i) => { const s = document.getElementById('replay-slider'); s.value = i;"
        " s.dispatchEvent(new Event('input')); }",
        i,
    )
    page.wait_for_function(
        "(i) => document.getElementById('replay-slider').value === String(i)", arg=i
    )


@pytest.mark.parametrize("game", ["island", "scythe"])
def test_the_replay_opens_at_the_start_in_time(
    browser: Any, web_server: ThreadServer, games: dict[str, Any], game: str
) -> None:
    tid, total, _steps = games[game]
    assert total >= 600, total  # a game as long as the issue's
    page = open_replay(browser, web_server, tid)
    # Scythe's start is its set-up board; the island's step 0 is the sea before the deal (its
    # first step, a chance step, lays the map out), so its replay opens on the dealt map, step 1
    first = 1 if game == "island" else 0
    assert page.inner_text("#replay-label") == f"step {first} of {total}"
    assert label(page) == first
    if game == "island":
        assert page.inner_text("#replay-now").strip() != "the start"
        assert page.locator("#board .hex").count() >= 19  # the dealt hexes are drawn
        page.keyboard.press("Home")
        page.wait_for_function("() => document.getElementById('replay-slider').value === '0'")
    assert page.inner_text("#replay-now").strip() == "the start"
    drawn = page.evaluate("() => performance.getEntriesByName('hexfolk-replay-drawn')[0].startTime")
    print(f"{game}: first draw of a {total}-step replay {drawn:.0f} ms after navigation")
    assert drawn < FIRST_DRAW_BOUND_MS, drawn
    # the steps behind the first page arrive while step 0 is shown; End waits for the last
    page.keyboard.press("End")
    page.wait_for_function(f"() => document.getElementById('replay-slider').value === '{total}'")
    assert page.inner_text("#replay-label") == f"step {total} of {total}"
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


@pytest.mark.parametrize("game", ["island", "scythe"])
def test_play_pause_and_speed(
    browser: Any, web_server: ThreadServer, games: dict[str, Any], game: str
) -> None:
    tid, _total, _steps = games[game]
    page = open_replay(browser, web_server, tid)
    # the time of every step shown, to read the pace
    page.evaluate(
        "() => { window.__shown = [];"
        " new MutationObserver(() => window.__shown.push(performance.now()))"
        ".observe(document.getElementById('replay-label'),"
        " {childList: true, characterData: true, subtree: true}); }"
    )

    def pace(speed: str, steps: int) -> float:
        page.select_option("#replay-speed", speed)
        page.evaluate("() => { window.__shown = []; }")
        page.click("#replay-play")
        assert page.get_attribute("#replay-play", "data-playing") == "1"
        page.wait_for_function(f"() => window.__shown.length >= {steps}", timeout=30_000)
        page.click("#replay-play")  # pause
        assert page.get_attribute("#replay-play", "data-playing") == "0"
        times = page.evaluate("() => window.__shown")
        gaps = sorted(b - a for a, b in itertools.pairwise(times))
        return float(gaps[len(gaps) // 2])

    fast = pace("4", 6)
    at = label(page)
    assert at >= 6
    page.wait_for_timeout(750)  # paused: no step more (three steps' while at 4x)
    assert label(page) == at
    slow = pace("1", 3)
    print(f"{game}: a step every {slow:.0f} ms at 1x, {fast:.0f} ms at 4x")
    assert 900 <= slow <= 1_600, slow  # one step a second at 1x
    assert 2.5 <= slow / fast <= 6, (slow, fast)  # 4x is four times the pace
    # Space plays and pauses, with the focus on the page or on the play button
    page.evaluate("() => document.activeElement.blur()")
    page.keyboard.press("Space")
    assert page.get_attribute("#replay-play", "data-playing") == "1"
    page.keyboard.press("Space")
    assert page.get_attribute("#replay-play", "data-playing") == "0"
    page.focus("#replay-play")
    page.keyboard.press("Space")
    page.wait_for_timeout(100)
    assert page.get_attribute("#replay-play", "data-playing") == "1"  # toggled once, not twice
    page.keyboard.press("Space")
    assert page.get_attribute("#replay-play", "data-playing") == "0"
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


@pytest.mark.parametrize("game", ["island", "scythe"])
def test_keys_steps_and_the_jump_to_a_turn(
    browser: Any, web_server: ThreadServer, games: dict[str, Any], game: str
) -> None:
    tid, total, steps = games[game]
    page = open_replay(browser, web_server, tid)
    assert page.locator("#replay-keys kbd").count() == 5  # the keys' help is on the page
    assert page.locator("#replay-keys").is_visible()
    page.keyboard.press("Home")  # the island opens on step 1, the dealt map
    page.wait_for_function("() => document.getElementById('replay-slider').value === '0'")
    for key, want in (("ArrowRight", 1), ("ArrowRight", 2), ("ArrowRight", 3), ("ArrowLeft", 2)):
        page.keyboard.press(key)
        assert label(page) == want, key
    page.click("#replay-next")
    assert label(page) == 3
    page.click("#replay-prev")
    assert label(page) == 2
    page.keyboard.press("End")
    page.wait_for_function(f"() => document.getElementById('replay-slider').value === '{total}'")
    page.keyboard.press("Home")
    assert label(page) == 0
    page.click("#replay-last")
    page.wait_for_function(f"() => document.getElementById('replay-slider').value === '{total}'")
    page.click("#replay-first")
    assert label(page) == 0
    # a turn typed in: its first step, the one whose view first reads that turn
    turns = [int(st["observation"]["turn"]) for st in steps]
    for n in (5, max(turns) // 2, max(turns)):
        first = turns.index(next(x for x in turns if x >= n))
        page.fill("#replay-turn", str(n))
        page.press("#replay-turn", "Enter")
        page.wait_for_function(
            f"() => document.getElementById('replay-slider').value === '{first}'"
        )
        assert turns[first] == n and (first == 0 or turns[first - 1] < n)
        assert page.inner_text("#replay-turn-label").startswith(f"turn {n} · ")
    page.fill("#replay-turn", "7")
    page.click("#replay-go")
    assert label(page) == turns.index(7)
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


def test_the_island_step_says_its_roll_and_outcomes(
    browser: Any, web_server: ThreadServer, games: dict[str, Any]
) -> None:
    """The roll's number in a die and every public line the step wrote (IR-35 production,
    IR-44 the robber's block), as the log's templates say them."""
    tid, _total, steps = games["island"]
    rolls = [
        (i, line) for i, st in enumerate(steps) for line in st["new"] if line.get("form") == "rolls"
    ]
    assert len(rolls) > 20
    page = open_replay(browser, web_server, tid)
    page.keyboard.press("End")  # every step loaded
    page.wait_for_function("() => !document.getElementById('replay-loading').textContent")
    for i, line in rolls[:3] + rolls[-3:]:
        go_to(page, i)
        total = line["params"]["total"]
        assert page.inner_text("#replay-roll").split()[-1] == str(total)
        names = seat_names(page)
        shown = page.locator("#replay-lines li").all_inner_texts()
        assert shown[0] == f"{names[line['params']['seat']]} rolls {total}"
        said(shown, steps[i]["new"], names)
    seven = next(i for i, line in rolls if line["params"]["total"] == 7)
    go_to(page, seven)
    assert page.inner_text("#replay-roll").endswith("7")
    SHOTS.mkdir(parents=True, exist_ok=True)
    keep_screenshot(page, SHOTS / "replay-island-roll-desktop.png")
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


def test_the_scythe_steps_say_moves_combat_and_stars(
    browser: Any, web_server: ThreadServer, games: dict[str, Any]
) -> None:
    """Every public line a step wrote is shown: the moves (SR-24), the stars (SR-50), the
    combats when there were some (SR-45..SR-49)."""
    tid, _total, steps = games["scythe"]
    page = open_replay(browser, web_server, tid)
    page.keyboard.press("End")
    page.wait_for_function("() => !document.getElementById('replay-loading').textContent")
    forms: dict[str, int] = {}
    for i, st in enumerate(steps):
        for line in st["new"]:
            forms.setdefault(line["form"], i)
    wanted = [f for f in forms if "star" in f or "move" in f or "combat" in f or "fight" in f]
    assert any("star" in f for f in wanted) and any("move" in f for f in wanted), sorted(forms)
    for form in wanted:
        i = forms[form]
        go_to(page, i)
        shown = page.locator("#replay-lines li").all_inner_texts()
        said(shown, steps[i]["new"], seat_names(page))
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


@pytest.mark.parametrize("game", ["island", "scythe"])
def test_the_replay_holds_only_public_information(
    browser: Any, web_server: ThreadServer, games: dict[str, Any], game: str
) -> None:
    tid, total, _steps = games[game]
    page = new_page(browser)
    asked: list[str] = []
    answers: list[Any] = []
    page.on("request", lambda r: asked.append(r.url) if "/replay?" in r.url else None)
    page.on("response", lambda r: answers.append(r) if "/replay?" in r.url else None)
    page.goto(f"{web_server.url}/#/t/{tid}/replay")
    page.wait_for_selector("#replay-label")
    page.keyboard.press("End")
    page.wait_for_function(f"() => document.getElementById('replay-slider').value === '{total}'")
    assert asked and all("reveal=false" in url for url in asked), asked
    seen = [st for answer in answers for st in answer.json()["steps"]]
    assert len(seen) == total + 1
    key = "players" if game == "island" else "player_state"
    for st in seen:
        assert "seats" not in st  # no seat's own view
        if st["step"] == total:
            continue  # the game is over: everything is revealed (IR-80, the overview's hands)
        for p in st["observation"][key]:
            assert not PRIVATE_KEYS & set(p), (st["step"], sorted(p))
        assert not PRIVATE_FORMS & {line["form"] for line in st.get("log") or []}
    page.context.close()


@pytest.mark.parametrize("locale", ["en-US", "ko-KR"])
@pytest.mark.parametrize("game", ["island", "scythe"])
def test_the_replay_fits_a_phone(
    browser: Any, web_server: ThreadServer, games: dict[str, Any], game: str, locale: str
) -> None:
    """At 390x844 and 360x640 nothing is wider than the screen; screenshots for review."""
    tid, _total, _steps = games[game]
    page = open_replay(browser, web_server, tid, locale=locale, size=PORTRAIT)
    page.keyboard.press("ArrowRight")
    SHOTS.mkdir(parents=True, exist_ok=True)
    for w, h in ((390, 844), (360, 640), (1440, 900)):
        page.set_viewport_size({"width": w, "height": h})
        settle(page)
        over = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
        assert over <= 0, (w, over)
        keep_screenshot(page, SHOTS / f"replay-{game}-{locale}-{w}x{h}.png", full_page=w < 1000)
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()
