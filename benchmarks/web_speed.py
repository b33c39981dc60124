"""Speed of the browser client (issue 13), measured in Chromium against a real server.

Prints the time to the first view of a table (from navigation start to the first drawn board,
the ``performance.now()`` of the page) and the redraw time of an update (the page's own
``render()`` time for each view plus the layout it causes, while random bots play with no
delay), as median / p95 / max over the updates drawn, for each game: the island on the 44-hex
board of an 8-player table, Scythe on its board with a 5-player table (issue 15). ``--game
both`` (the default) measures the two pages side by side, round by round, in one command.

    .venv/bin/python benchmarks/web_speed.py [--game island|scythe|both] [--seconds 15]
        [--runs 5] [--against DIR] [--json]

Click-to-redraw (issue 27): a person (the page) at a table of the same size with random bots
clicks what carries a listed action at each of their decisions (``--clicks`` seconds per game);
the time from the click event to the end of the redraw (with its layout) of the view that
answers it, as median / p95 / max. Targets: median <= 50 ms, p95 <= 120 ms.

With ``HEXFOLK_TRACE=FILE`` in the environment (``hexfolk/server/trace.py``), the server's
share of a click is printed too: from the action's frame received to its new view written, and
its stages (queue, engine, commit, views, sending). Together with the page's share (the
answer's arrival to its redraw's end: the wait for the next frame and the redraw) the rest is
the way through the sockets and the browser's own queue.

``--json`` prints, after the text, one JSON line per side with each game's figures unrounded
(first views and redraws in ms: median, mean, p95, max, count; what ``before_after.py`` reads).

``--against DIR`` serves another copy of the web client (for example the one of an older
commit: ``git archive <commit> src/hexfolk/web | tar -x -C /tmp/old``, then
``--against /tmp/old/src/hexfolk/web``) from a second server and measures both side by side,
round by round, printing the ratios: on a shared, loaded machine only ratios mean much.

Each phase (the first views and the redraws, then the clicks) of each side, game and round
runs on a server of its own (``web_server.py``), stopped with its tables' bots when the phase
ends: the bots-only game watched for the redraws goes on without delay, and on one shared
server it loaded the clicks measured after it.

Needs ``playwright`` (pip) and Debian's ``chromium`` (``/usr/bin/chromium``).
Targets: first view within 1 s; an update redrawn in under 50 ms.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from web_server import run, served  # run from benchmarks/

from hexfolk.server.client import HexfolkClient
from hexfolk.server.config import ServerConfig

ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]


def _fast(cfg: ServerConfig) -> None:
    """No rate limit on actions: the clicking page and the bots act as fast as they can."""
    cfg.action_rate = (100_000, 1.0)


GAMES = {"island": 8, "scythe": 5}
"""The players of each game's table: the island's largest, Scythe's base game's largest."""
WATCH_DELAY = {"island": 0.0, "scythe": 0.03}
"""The bots' delay while the page is watched: five random Scythe bots with none finish a game
(about 2,700 views) before the page has loaded, so they wait 30 ms a step."""
CELL = {"island": "#board .hex", "scythe": "#board .sc-hex"}
"""A board cell of each game's page (counted to say what was drawn)."""


def _table(url: str, game: str, players: int, delay: float) -> tuple[str, dict[str, str]]:
    async def go() -> tuple[str, dict[str, str]]:
        async with HexfolkClient(url) as host:
            me = await host.create_player("Bench")
            seats = [{"kind": "host"}] + [{"kind": "bot", "level": "random"}] * (players - 1)
            t = await host.create_table(
                game=game, players=players, seats=seats, clock=None, bot_delay=delay
            )
            await host.start(t["id"])
            return str(t["id"]), {"id": me["id"], "name": me["name"], "token": me["token"]}

    return run(go())


def _first_views(browser: Any, url: str, runs: int, game: str) -> list[float]:
    firsts = []
    for _ in range(runs):
        tid, player = _table(url, game, GAMES[game], 0.8)
        ctx = browser.new_context(viewport={"width": 1440, "height": 900})
        stored = json.dumps(json.dumps(player))
        ctx.add_init_script(f"localStorage.setItem('hexfolk.player', {stored})")
        page = ctx.new_page()
        page.goto(f"{url}/app/index.html#/t/{tid}")  # the side's own index.html
        page.wait_for_function("() => window.__hexfolkFirstView !== undefined")
        firsts.append(float(page.evaluate("() => window.__hexfolkFirstView")))
        ctx.close()
    return firsts


def _redraws(browser: Any, url: str, seconds: float, game: str) -> tuple[list[float], int, int]:
    """Random bots fill every seat and play (no delay on the island, ``WATCH_DELAY``); a host
    who never acts would stall the table, so the page is a spectator; the page's render() time
    of every view drawn."""

    async def bots_table() -> str:
        async with HexfolkClient(url) as host:
            await host.create_player("Watcher")
            seats = [{"kind": "bot", "level": "random"}] * GAMES[game]
            t = await host.create_table(
                game=game,
                players=GAMES[game],
                seats=seats,
                clock=None,
                bot_delay=WATCH_DELAY[game],
            )
            await host.start(t["id"])
            return str(t["id"])

    tid = run(bots_table())
    ctx = browser.new_context(viewport={"width": 1440, "height": 900})
    # a redraw's time includes the layout it causes (read at its end), not only its script
    ctx.add_init_script("window.__hexfolkLayoutInRedraw = true")
    page = ctx.new_page()
    page.goto(f"{url}/app/index.html#/t/{tid}")  # the side's own index.html
    page.wait_for_function("() => window.__hexfolkFirstView !== undefined")
    time.sleep(seconds)
    redraws = [float(x) for x in page.evaluate("() => window.__hexfolkRedraws.slice(1)")]
    version = int(page.evaluate("() => window.__hexfolkView.version"))
    hexes = int(page.locator(CELL[game]).count())
    ctx.close()
    return redraws, version, hexes


CLICK_INIT = """
window.__hexfolkLayoutInRedraw = true;
(() => {
  // each drawn version with the time its redraw ended (table_page.js sets __hexfolkVersion
  // right after render() and the layout it causes), and the last click on a listed action
  let ver;
  const drawn = [];
  window.__drawn = drawn;
  Object.defineProperty(window, '__hexfolkVersion', {configurable: true, get: () => ver,
    set: (x) => {
      ver = x;
      drawn.push([x, performance.now(), window.__hexfolkRedrawMs]);
      if (drawn.length > 500) drawn.shift();
    }});
  // and the time each view reached the page (table_page.js's onView sets __hexfolkView as
  // it takes a view): the click's time splits into the way there and back, and the page's
  let view;
  const came = [];
  window.__came = came;
  Object.defineProperty(window, '__hexfolkView', {configurable: true, get: () => view,
    set: (x) => {
      view = x;
      came.push([x.version, performance.now()]);
      if (came.length > 500) came.shift();
    }});
  document.addEventListener('click', (e) => {
    if (e.target.closest && e.target.closest('[data-act]') && window.__hexfolkView)
      window.__click = {t: e.timeStamp, v: window.__hexfolkView.version};
  }, true);
})();
"""

SNAPSHOT = """() => {
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
  return {legal: v.legal.map((e) => e.action), kind: (v.observation.prompt || {}).kind || '',
          status: v.status, version: v.version, can};
}"""

CALM: tuple[str, ...] = (
    "settle ",
    "road ",
    "city ",
    "roll",
    "robber ",
    "section ",
    "carry none",
    "no artillery",
)
CALM += ("done", "skip", "pass", "end", "reject ")
"""What the clicking person prefers (listed actions only): building, rolling, the plainest
Scythe steps, ending the turn; never a trade offer (its composer is not one click)."""


PAGE_PART: list[float] = []
"""Of each click measured: the ms from the answer's arrival to the end of its redraw."""
RENDER_PART: list[float] = []
"""Of each click measured: the ms of the answer's redraw itself (render() and its layout; the
rest of ``PAGE_PART`` is the wait for the browser's next frame)."""


def _click_and_time(page: Any, selector: str, seen: int) -> float | None:
    """Click ``selector``; the ms from the click event to the end of the redraw of the first
    newer version (None when the server refused it or another view came first)."""
    page.evaluate("() => { window.__click = null; }")
    try:
        page.locator(selector).first.click(timeout=5_000)
    except Exception:
        return None
    try:
        page.wait_for_function(
            "() => (window.__click && window.__drawn.some(([v, t]) => v > window.__click.v &&"
            " t >= window.__click.t)) || document.querySelector('#toast.show')",
            timeout=15_000,
        )
    except Exception:
        return None
    got = page.evaluate(
        """(seen) => { const c = window.__click; if (!c || c.v !== seen) return null;
           const d = window.__drawn.find(([v, t]) => v > c.v && t >= c.t);
           const a = window.__came.find(([v, t]) => v > c.v && t >= c.t);
           return d ? [d[1] - c.t, a ? d[1] - a[1] : null, d[2]] : null; }""",
        seen,
    )
    if got is None:
        return None
    if got[1] is not None:
        PAGE_PART.append(float(got[1]))
        if got[2] is not None:
            RENDER_PART.append(float(got[2]))
    return float(got[0])


def _clicks(
    browser: Any, url: str, seconds: float, game: str, side: str
) -> tuple[list[float], int]:
    """A person (the page) at a table of ``GAMES[game]`` seats with random bots (no delay)
    clicks what carries a listed action at each of their decisions for ``seconds``: the time
    from each click to the end of the redraw of the answer (click-to-redraw, issue 27)."""
    tid, player = _table(url, game, GAMES[game], 0.0)
    ctx = browser.new_context(viewport={"width": 1440, "height": 900})
    ctx.add_init_script(f"localStorage.setItem('hexfolk.player', {json.dumps(json.dumps(player))})")
    ctx.add_init_script(CLICK_INIT)
    page = ctx.new_page()
    page.goto(f"{url}/app/index.html#/t/{tid}")
    page.wait_for_function("() => window.__hexfolkFirstView !== undefined")
    times: list[float] = []
    PAGE_PART.clear()
    RENDER_PART.clear()
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            snap = page.wait_for_function(SNAPSHOT, timeout=30_000).json_value()
        except Exception:
            break
        if snap["status"] == "finished":
            break
        page.evaluate("() => { document.getElementById('toast').className = ''; }")
        legal, can, seen = snap["legal"], snap["can"], int(snap["version"])
        if any(a.startswith("discard") for a in legal) and page.locator("#discard-go").count():
            for _ in range(30):  # the discard's composer: cards first, then the one send
                if page.locator("#discard-go").is_enabled():
                    break
                page.locator(
                    "#discard-dialog button[aria-label$='+']:not([disabled])"
                ).first.click()
            page.click("#discard-go")
            page.wait_for_timeout(200)
            continue
        if any(a.startswith("commit ") for a in legal) and page.locator("#commit-go").count():
            got = _click_and_time(page, "#commit-go", seen)
            if got is not None:
                times.append(got)
            continue
        exact = [a for a in legal if can.get(a) == "exact"]
        pick = next((a for p in CALM for a in exact if a.startswith(p)), None)
        pick = pick or (exact[0] if exact else None)
        if pick is None:
            page.wait_for_timeout(50)  # a chooser or composer only: let the bots move on
            continue
        got = _click_and_time(page, f'[data-act="{pick}"]', seen)
        if got is not None:
            times.append(got)
        if os.environ.get("WEB_SPEED_DEBUG"):
            print(game, pick, got, flush=True)
    hexes = int(page.locator(CELL[game]).count())
    ctx.close()
    PAGE_PARTS[(side, game)] = PAGE_PARTS.get((side, game), []) + PAGE_PART
    RENDER_PARTS[(side, game)] = RENDER_PARTS.get((side, game), []) + RENDER_PART
    return times, hexes


PAGE_PARTS: dict[tuple[str, str], list[float]] = {}
"""The page's part of the clicks (``PAGE_PART``) of each side and game."""
RENDER_PARTS: dict[tuple[str, str], list[float]] = {}
"""The redraws of the clicks' answers (``RENDER_PART``) of each side and game."""


def _server_split() -> None:
    """With ``HEXFOLK_TRACE=FILE`` set, the server's trace (written when the servers stopped,
    ``hexfolk/server/trace.py``): a person's action from its frame received to its new view
    written, and the stages of that way (the servers of both sides together)."""
    path = os.environ.get("HEXFOLK_TRACE")
    if not path or not Path(path).exists():
        return
    stages = json.loads(Path(path).read_text())["stages"]
    parts = []
    for name, what in [
        ("total", "frame received to the new view written"),
        ("queue", "waiting for the room"),
        ("apply", "the engine"),
        ("act_commit", "the commit"),
        ("act_views", "the views built and queued"),
        ("send", "any view queued to written"),
    ]:
        st = stages.get(name, {})
        if st.get("n"):
            parts.append(f"{what} ({name}) p50 {st['p50_ms']:.1f} ms, p90 {st['p90_ms']:.1f} ms")
    if parts:
        print("[server] a person's action: " + "; ".join(parts))


def _p95(xs: list[float]) -> float:
    xs = sorted(xs)
    return xs[max(0, int(len(xs) * 0.95) - 1)] if xs else float("nan")


def _figures(firsts: list[float], redraws: list[float], clicks: list[float]) -> dict[str, float]:
    """One game's figures for ``--json``, in ms, unrounded (the clicks' when measured)."""
    more = {}
    if clicks:
        more = {
            "click_median": statistics.median(clicks),
            "click_p95": _p95(clicks),
            "click_max": max(clicks),
            "clicks": len(clicks),
        }
    return more | {
        "first_view_median": statistics.median(firsts),
        "first_view_max": max(firsts),
        "first_views": len(firsts),
        "redraw_median": statistics.median(redraws),
        "redraw_mean": statistics.fmean(redraws),
        "redraw_p95": _p95(redraws),
        "redraw_max": max(redraws),
        "redraws": len(redraws),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=15.0, help="how long to watch the bots")
    ap.add_argument("--runs", type=int, default=5, help="first-view measurements")
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    ap.add_argument(
        "--game",
        choices=("island", "scythe", "both"),
        default="both",
        help="which page: the island (8 players), Scythe (5 players), or both side by side",
    )
    ap.add_argument(
        "--against",
        type=Path,
        default=None,
        help="another copy of src/hexfolk/web (e.g. from git archive) measured side by side, "
        "round by round, so a loaded machine slows both alike",
    )
    ap.add_argument(
        "--clicks",
        type=float,
        default=15.0,
        help="seconds of clicking per game and side (click-to-redraw; 0: not measured)",
    )
    ap.add_argument("--json", action="store_true", help="also print the figures as JSON lines")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    games = list(GAMES) if args.game == "both" else [args.game]
    sides = {"this": None, "against": args.against} if args.against else {"this": None}
    keys = [(k, g) for k in sides for g in games]
    firsts: dict[tuple[str, str], list[float]] = {k: [] for k in keys}
    redraws: dict[tuple[str, str], list[float]] = {k: [] for k in keys}
    info: dict[tuple[str, str], tuple[int, int]] = {}
    clicks: dict[tuple[str, str], list[float]] = {k: [] for k in keys}
    click_cells: dict[tuple[str, str], int] = {}
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=args.chromium, headless=True, args=ARGS)
        rounds = 2 if len(keys) > 1 else 1
        share = args.seconds / rounds
        for i in range(rounds):
            for k, g in keys if i % 2 == 0 else keys[::-1]:  # each first once
                # each phase on a server of its own, stopped (with its tables' bots) when the
                # phase ends (web_server.py): the bots-only game watched for the redraws plays
                # on without delay, and on a shared server it loaded the clicks measured next
                with served(Path(tmp) / f"{k}-{g}-{i}", sides[k], _fast) as url:
                    firsts[(k, g)] += _first_views(browser, url, max(1, args.runs // rounds), g)
                    got, version, hexes = _redraws(browser, url, share, g)
                    redraws[(k, g)] += got
                    info[(k, g)] = (version, hexes)
                if args.clicks > 0:
                    with served(Path(tmp) / f"{k}-{g}-{i}-clicks", sides[k], _fast) as url:
                        got, cells = _clicks(browser, url, args.clicks / rounds, g, k)
                    clicks[(k, g)] += got
                    click_cells[(k, g)] = cells
        browser.close()
    for k, g in keys:
        f, r = firsts[(k, g)], redraws[(k, g)]
        version, hexes = info[(k, g)]
        label = f"[{k} {g}]" if args.against else f"[{g}]"
        print(
            f"{label} first view of a table ({GAMES[g]} players, {hexes} cells):"
            f" median {statistics.median(f):.0f} ms, max {max(f):.0f} ms over {len(f)} loads"
            " (target < 1000 ms)"
        )
        print(
            f"{label} redraw of an update on the {hexes}-cell board: median"
            f" {statistics.median(r):.1f} ms, p95 {_p95(r):.1f} ms, max {max(r):.1f} ms over"
            f" {len(r)} redraws (the last table reached version {version}; target < 50 ms)"
        )
        c = clicks[(k, g)]
        if c:
            print(
                f"{label} click-to-redraw of the person's own action on the"
                f" {click_cells[(k, g)]}-cell board ({GAMES[g]} players): median"
                f" {statistics.median(c):.1f} ms, p95 {_p95(c):.1f} ms, max {max(c):.1f} ms over"
                f" {len(c)} clicks (targets: median <= 50 ms, p95 <= 120 ms)"
            )
            part = PAGE_PARTS.get((k, g), [])
            if part:
                print(
                    f"{label}   of which the page (the answer's arrival to its redraw's end):"
                    f" median {statistics.median(part):.1f} ms, p95 {_p95(part):.1f} ms;"
                    " the rest is the way to the server and back"
                )
            drawn = RENDER_PARTS.get((k, g), [])
            if drawn:
                print(
                    f"{label}   and of the page's part its redraw (render() and layout):"
                    f" median {statistics.median(drawn):.1f} ms, p95 {_p95(drawn):.1f} ms;"
                    " the rest is the wait for the next frame"
                )
    if any(clicks.values()):
        _server_split()
    if args.json:
        for k in sides:
            print(
                json.dumps(
                    {
                        "side": k,
                        **{
                            g: _figures(firsts[(k, g)], redraws[(k, g)], clicks[(k, g)])
                            for g in games
                        },
                    }
                )
            )
    if len(games) == 2:
        a, b = redraws[("this", "scythe")], redraws[("this", "island")]
        fa, fb = firsts[("this", "scythe")], firsts[("this", "island")]
        print(
            "ratio scythe/island: first view median"
            f" {statistics.median(fa) / statistics.median(fb):.2f},"
            f" redraw median {statistics.median(a) / statistics.median(b):.2f},"
            f" p95 {_p95(a) / _p95(b):.2f}"
        )
    if args.against:
        for g in games:
            a, b = redraws[("this", g)], redraws[("against", g)]
            fa, fb = firsts[("this", g)], firsts[("against", g)]
            print(
                f"ratio this/against ({g}): first view median"
                f" {statistics.median(fa) / statistics.median(fb):.2f},"
                f" redraw median {statistics.median(a) / statistics.median(b):.2f},"
                f" p95 {_p95(a) / _p95(b):.2f}"
            )


if __name__ == "__main__":
    main()
