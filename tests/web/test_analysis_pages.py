"""Issue 29 point 3, "where players see it", the browser half: the end of a game (the island's
overview, Scythe's end panel) shows the win-chance curve of every seat, luck and skill, the
inaccuracies, mistakes and blunders, and the turning points, each a link into the replay at
its step; the replay shows the curve under its scrubber with a marker at the step shown and
each seat's chance there; progress shows while the server works, a failure is said calmly, a
table without an analysis shows nothing. Both games, with the real analysis of a real finished
game (tests/web/analysis_source.py: the one fixture to swap once the server serves it).

Real server, Debian's Chromium; the page reads only the contract of docs/analysis.md."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.server.helpers import ThreadServer
from tests.web.analysis_source import (  # noqa: F401 (fixtures)
    ANALYSIS_URL,
    Script,
    analysis_endpoint,
    real_analyses,
    scripted_analysis,
)
from tests.web.conftest import SHOTS as CONFTEST_SHOTS
from tests.web.conftest import keep_screenshot
from tests.web.helpers import new_page, settle
from tests.web.person_checks import axe_missing, axe_violations, covered, overflow

SHOTS = CONFTEST_SHOTS / Path(__file__).stem  # build/web-screenshots/<module>
"""The screenshots of the analysis pages, looked at by the person who wrote them."""
GAMES = ("island", "scythe")
ISLAND_COLORS = ["#0072B2", "#E69F00", "#009E73", "#D55E00"]
"""The island's seat colours (web/board.js SEAT_COLORS): the curve's lines use them."""
SCYTHE_COLORS = {"polania": "#f4f1ea", "saxony": "#2b2b2b"}
"""The factions of the finished Scythe game (finished_games.GAMES) and their colours."""


def end_page(url: str, game: str, tid: str) -> str:
    """Where the end of a game shows its analysis: the island's overview, Scythe's table page."""
    return f"{url}/#/t/{tid}/overview" if game == "island" else f"{url}/#/t/{tid}"


def _open(page: Any, address: str, ready: str) -> None:
    page.goto(address)
    try:
        page.wait_for_selector(ready, state="attached", timeout=30_000)
    except Exception as err:  # what the page said, with the time-out
        raise AssertionError(
            f"{ready} not drawn at {address}: errors {page.errors}, console {page.console_lines}"
        ) from err


SEATS_JS = """() => [...document.querySelectorAll('#an-seats .an-seat')].map((li) => ({
  seat: Number(li.dataset.seat),
  luck: Number(li.querySelector('.an-luck').dataset.value),
  skill: Number(li.querySelector('.an-skill').dataset.value),
  counts: [...li.querySelectorAll('.an-n')].map((x) => Number(x.dataset.n)),
}))"""

LINES_JS = """(sel) => [...document.querySelectorAll(sel + ' path.an-line')].map((p) => ({
  seat: Number(p.dataset.seat), stroke: p.getAttribute('stroke'),
  points: p.getAttribute('d').split(/[ML]/).filter(Boolean).length,
}))"""

NOW_JS = """() => [...document.querySelectorAll('#an-now .an-chance')]
  .map((x) => Number(x.dataset.chance))"""


@pytest.mark.parametrize("game", GAMES)
def test_the_end_shows_the_analysis_and_a_turning_point_opens_the_replay_at_its_step(
    browser: Any,
    finished_server: ThreadServer,
    finished_tables: dict[str, tuple[str, int]],
    real_analyses: dict[str, dict[str, Any]],  # noqa: F811
    analysis_endpoint: Callable[[Any], None],  # noqa: F811
    game: str,
) -> None:
    """The end: the curve, luck and skill, the turning points; the latest turning point opens
    the replay at its step with its evaluation; there the curve follows the scrubber. One page
    through the three (they were three tests, each opening its page: CI time)."""
    tid, steps = finished_tables[game]
    an = real_analyses[game]
    assert len(an["steps"]) == steps  # the analysis's steps are the replay's (step k ↔ k)
    page = new_page(browser)
    analysis_endpoint(page)
    _open(page, end_page(finished_server.url, game, tid), "#an-chart .an-line")
    n = len(an["seats"])
    # a line per seat, in the seat's colour, through every step (thinned to at most ~600)
    lines = page.evaluate(LINES_JS, "#an-chart")
    assert [x["seat"] for x in lines] == list(range(n))
    if game == "island":
        assert [x["stroke"] for x in lines] == ISLAND_COLORS[:n]
    else:
        assert sorted(x["stroke"] for x in lines) == sorted(SCYTHE_COLORS.values())
        assert page.locator("#an-chart path.an-casing").count() == 1  # Polania's white, cased
    assert all(300 <= x["points"] <= steps + 1 for x in lines)
    # luck and skill per seat, and the thresholds' counts (docs/analysis.md: 0.05 / 0.10 / 0.20)
    shown = page.evaluate(SEATS_JS)
    assert [x["seat"] for x in shown] == list(range(n))
    for got, want in zip(shown, an["seats"], strict=True):
        assert got["luck"] == pytest.approx(want["luck"]) and got["skill"] == pytest.approx(
            want["skill"]
        )
        assert got["counts"] == [want["inaccuracies"], want["mistakes"], want["blunders"]]
        labels = [s["label"] for s in an["steps"] if s["seat"] == want["seat"]]
        assert got["counts"] == [labels.count(k) for k in ("inaccuracy", "mistake", "blunder")]
    # the luck and skill of each seat in points, as the page words them
    first = an["seats"][0]
    text = page.locator("#an-seats .an-seat").first.inner_text()
    assert f"{round(abs(first['luck']) * 100)} pts" in text
    # the turning points, largest first, each a link to the replay at its step, on the curve too
    tps = an["turning_points"][:5]
    assert tps, "a real game has turning points"
    hrefs = page.eval_on_selector_all(
        "#an-turning a.an-tp", "els => els.map(e => e.getAttribute('href'))"
    )
    assert hrefs == [f"#/t/{tid}/replay/{tp['step']}" for tp in tps]
    marks = page.eval_on_selector_all(
        "#an-chart a.an-mark", "els => els.map(e => e.getAttribute('href'))"
    )
    assert marks == hrefs
    # the latest of the turning points: past the replay's first page of steps (replay.js)
    k = max(range(len(tps)), key=lambda i: tps[i]["step"])
    step = tps[k]["step"]
    page.locator("#an-turning a.an-tp").nth(k).click()
    page.wait_for_function(
        "(s) => { const x = document.querySelector('#replay-slider');"
        " return x && Number(x.value) === s; }",
        arg=step,
        timeout=30_000,
    )
    assert page.url.endswith(f"#/t/{tid}/replay/{step}")
    assert page.locator("#replay-label").inner_text() == f"step {step} of {steps}"
    page.wait_for_selector("#an-now .an-chance")
    assert page.evaluate(NOW_JS) == pytest.approx(an["steps"][step - 1]["chances"])
    left = page.eval_on_selector("#an-strip .an-marker", "m => parseFloat(m.style.left)")
    assert left == pytest.approx(100 * step / steps, abs=0.01)
    # the replay's curve under the scrubber follows it
    lines = page.evaluate(LINES_JS, "#an-strip")
    assert [x["seat"] for x in lines] == list(range(len(an["seats"])))
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    for key, at, want in (("Home", 0, an["start"]), ("ArrowRight", 1, an["steps"][0]["chances"])):
        page.keyboard.press(key)
        page.wait_for_function(
            "(s) => Number(document.querySelector('#replay-slider').value) === s", arg=at
        )
        assert page.evaluate(NOW_JS) == pytest.approx(want), key
    # a tap on the curve goes to the step under it (the middle: about half the game)
    plot = page.locator("#an-strip .an-plot")
    plot.scroll_into_view_if_needed()
    box = plot.bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.wait_for_function(
        "(s) => Math.abs(Number(document.querySelector('#replay-slider').value) - s) <= s / 50",
        arg=steps / 2,
        timeout=30_000,
    )
    half = int(page.eval_on_selector("#replay-slider", "x => x.value"))
    assert page.evaluate(NOW_JS) == pytest.approx(an["steps"][half - 1]["chances"])
    # the last step: each seat's final result (1 to the winner)
    page.keyboard.press("End")
    page.wait_for_function(
        "(s) => Number(document.querySelector('#replay-slider').value) === s",
        arg=steps,
        timeout=30_000,
    )
    assert page.evaluate(NOW_JS) == pytest.approx([x["final"] for x in an["seats"]])
    assert sorted(page.evaluate(NOW_JS))[-1] == pytest.approx(1.0)
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


def _push_route(page: Any) -> Callable[[dict[str, Any]], None]:
    """The page's table sockets go to the real server through the test, which may push a frame
    of its own to the page (the server's `analysis` push)."""
    socks: list[Any] = []

    def route(ws: Any) -> None:
        ws.connect_to_server()
        socks.append(ws)

    page.route_web_socket(re.compile(r".*/ws/tables/.*"), route)

    def push(msg: dict[str, Any]) -> None:
        for _ in range(100):  # the page's socket, routed once it opens
            if socks:
                break
            page.wait_for_timeout(100)
        assert socks, "the page opened no table socket"
        for ws in socks:
            ws.send(json.dumps(msg))

    return push


@pytest.mark.parametrize("game", GAMES)
def test_progress_shows_while_the_server_works_then_the_push_brings_the_analysis(
    browser: Any,
    finished_server: ThreadServer,
    finished_tables: dict[str, tuple[str, int]],
    real_analyses: dict[str, dict[str, Any]],  # noqa: F811
    scripted_analysis: Callable[[Any], Script],  # noqa: F811
    game: str,
) -> None:
    tid, _ = finished_tables[game]
    an = real_analyses[game]
    page = new_page(browser)
    script = scripted_analysis(page)
    push = _push_route(page)
    # no asking again while waiting (analysis.js POLL_MS): only the push can bring the analysis
    page.add_init_script("window.__hexfolkAnalysisPollMs = 3600000")
    _open(page, end_page(finished_server.url, game, tid), "#analysis #an-progress")
    assert page.locator("#analysis").get_attribute("data-status") == "queued"
    assert "waiting" in page.locator("#analysis .an-progress").inner_text()
    push({"type": "analysis", "status": "running", "progress": 0.4})
    page.wait_for_function("() => document.querySelector('#an-progress')?.value === 0.4")
    assert "40%" in page.locator("#analysis .an-progress").inner_text()
    SHOTS.mkdir(parents=True, exist_ok=True)
    keep_screenshot(page.locator("#analysis"), SHOTS / f"{game}-progress.png")
    asked = script.asked
    script.set("ready", 1.0, an)
    push({"type": "analysis", "status": "ready", "progress": 1.0})
    page.wait_for_selector("#an-chart .an-line", timeout=10_000)
    assert script.asked == asked + 1  # "ready" made the page fetch the analysis, once
    assert page.locator("#an-progress").count() == 0
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


@pytest.mark.parametrize("game", GAMES)
def test_the_replay_shows_progress_and_asks_again_until_the_analysis_is_ready(
    browser: Any,
    finished_server: ThreadServer,
    finished_tables: dict[str, tuple[str, int]],
    real_analyses: dict[str, dict[str, Any]],  # noqa: F811
    scripted_analysis: Callable[[Any], Script],  # noqa: F811
    game: str,
) -> None:
    """The replay has no socket: it asks again (every POLL_MS, here 100 ms) while it waits."""
    tid, _ = finished_tables[game]
    page = new_page(browser, locale="nl-NL")
    script = scripted_analysis(page)
    page.add_init_script("window.__hexfolkAnalysisPollMs = 100")
    script.set("running", 0.25)
    _open(page, f"{finished_server.url}/#/t/{tid}/replay", "#an-strip #an-progress")
    assert "Het spel wordt geanalyseerd… 25%" in page.locator("#an-strip").inner_text()
    asked = script.asked
    script.set("ready", 1.0, real_analyses[game])
    page.wait_for_selector("#an-strip .an-line", timeout=10_000)
    assert script.asked > asked
    assert page.evaluate(NOW_JS)  # the step's chances shown
    n = script.asked
    page.wait_for_timeout(500)
    assert script.asked == n  # ready: no more asking
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


def _after_the_answer(page: Any) -> None:
    """The page has read the analysis endpoint's answer and drawn what it draws for it (a
    short while for its JSON, then two frames) rather than a fixed half second."""
    page.wait_for_timeout(150)
    settle(page)


@pytest.mark.parametrize("game", GAMES)
def test_a_failed_analysis_is_said_calmly_and_none_shows_nothing(
    browser: Any,
    finished_server: ThreadServer,
    finished_tables: dict[str, tuple[str, int]],
    game: str,
) -> None:
    tid, _ = finished_tables[game]
    page = new_page(browser)
    answer: dict[str, Any] = {"status": 200, "body": {}}

    def handle(route: Any) -> None:
        route.fulfill(
            status=answer["status"],
            content_type="application/json",
            body=json.dumps(answer["body"]),
        )

    page.route(re.compile(r"/api/tables/[^/?#]+/analysis(\?.*)?$"), handle)
    answer["body"] = {
        "status": "failed",
        "progress": 0.3,
        "analysis": None,
        "error": "the record did not replay",
    }
    _open(page, end_page(finished_server.url, game, tid), "#analysis .an-failed")
    text = page.locator("#analysis .an-failed").inner_text()
    assert text == "The analysis of this game could not be made: the record did not replay"
    SHOTS.mkdir(parents=True, exist_ok=True)
    keep_screenshot(page.locator("#analysis"), SHOTS / f"{game}-failed.png")
    assert page.locator("#an-chart").count() == 0
    for status, body in (
        (404, {"error": {"code": "no_table", "message": "no such table"}}),
        (409, {"error": {"code": "not_finished", "message": "not finished"}}),
    ):
        answer.update(status=status, body=body)
        page.goto("about:blank")
        with page.expect_response(ANALYSIS_URL):  # the page's question answered
            _open(page, end_page(finished_server.url, game, tid), "#to-replay")
        _after_the_answer(page)
        assert page.locator("#analysis").is_hidden()  # no card, no error
    # the replay too: no strip without an analysis
    with page.expect_response(ANALYSIS_URL):
        page.goto(f"{finished_server.url}/#/t/{tid}/replay")
        page.wait_for_selector("#replay-slider")
    _after_the_answer(page)
    assert page.locator("#an-strip").is_hidden()
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


SIZES = {
    "desktop": {"width": 1280, "height": 800},
    "phone360": {"width": 360, "height": 640},
    "phone390": {"width": 390, "height": 844},
}
LOCALES = {"nl": "nl-NL", "en": "en-US", "es": "es-ES", "ko": "ko-KR"}
TAPS_JS = """() => [...document.querySelectorAll('#analysis a, #an-strip a')]
  .filter((a) => a.getClientRects().length)
  .map((a) => { const r = a.getBoundingClientRect();
                return {href: a.getAttribute('href'), w: r.width, h: r.height}; })
  .filter((r) => r.w < 32 || r.h < 32)"""
KEYS_JS = """() => { const t = [...document.querySelectorAll('#analysis, #an-strip')]
  .map((x) => x.innerText).join(' ');
  return t.match(/\\ban\\.[a-z_.]+/g) || []; }"""


@pytest.mark.parametrize("lang", list(LOCALES))
@pytest.mark.parametrize("game", GAMES)
def test_both_pages_in_each_language_at_a_size_in_turn(
    browser: Any,
    finished_server: ThreadServer,
    finished_tables: dict[str, tuple[str, int]],
    analysis_endpoint: Callable[[Any], None],  # noqa: F811
    game: str,
    lang: str,
) -> None:
    """Every text in the page's language (no key shows), nothing wider than the screen, every
    link of the analysis at least 32 px each way, every button on top, no serious or critical
    axe-core violation; the screenshots in build/web-screenshots/test_analysis_pages. Each
    language at one size, in turn (the four languages of a game cover the three sizes, and the
    two games start the turn apart): the whole cross product took 3 minutes of the suite."""
    no_axe = axe_missing()
    scan = (lambda page, where: []) if no_axe else axe_violations
    tid, _ = finished_tables[game]
    SHOTS.mkdir(parents=True, exist_ok=True)
    found: list[str] = []
    sizes = list(SIZES)
    turn = sizes[(list(LOCALES).index(lang) + GAMES.index(game)) % len(sizes)]
    for size, viewport in [(turn, SIZES[turn])]:
        page = new_page(browser, locale=LOCALES[lang], size=viewport)
        analysis_endpoint(page)
        pages = [
            ("end", end_page(finished_server.url, game, tid), "#an-chart .an-line"),
            ("replay", f"{finished_server.url}/#/t/{tid}/replay/200", "#an-now .an-chance"),
        ]
        for name, address, ready in pages:
            _open(page, address, ready)
            page.evaluate("() => document.fonts.ready.then(() => true)")  # its fonts drawn
            settle(page)
            where = f"{game} {name} {lang} {size}"
            found += [f"{where}: key shown {k}" for k in page.evaluate(KEYS_JS)]
            found += [f"{where}: small link {x}" for x in page.evaluate(TAPS_JS)]
            found += overflow(page, where) + covered(page, where)[1] + scan(page, where)
            target = page.locator("#analysis" if name == "end" else "#an-strip")
            target.evaluate("el => el.scrollIntoView({block: 'start'})")
            keep_screenshot(page, SHOTS / f"{game}-{name}-{lang}-{size}.png")
            keep_screenshot(target, SHOTS / f"{game}-{name}-{lang}-{size}-card.png")
        assert page.errors == []  # type: ignore[attr-defined]
        page.context.close()
    assert not found, "\n".join(found)
    if no_axe:
        pytest.skip(f"no axe-core scan: {no_axe}")
