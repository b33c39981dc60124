"""The table page's redraw cost on one recorded stream of views, two clients side by side
(issue 26: "no benchmark more than 5% slower"), steady on a loaded machine.

``web_speed.py`` measures redraws while random bots play live: each side watches its own game,
which goes as far as the loaded server lets it in the time given, and the page draws as many
views at once as arrived since its last frame. Two runs of the same client then differ by a
factor of two. Here a spectator's socket messages of one live game (``--record`` seconds of
random bots on this tree's server, with ``web_speed.py``'s ``WATCH_DELAY``; at most ``--max``
messages) are recorded once, and each
client is then fed exactly those messages by a stand-in ``WebSocket`` (set before the page's
scripts run): ``--batch`` messages at once every ``--every`` ms, so that every client draws
the same views in the same groups. Printed per side and round: the page's redraw times (its
``render()`` and the layout it causes, as in ``web_speed.py``) and the CPU time of the
renderer's main thread in its animation frames (Chromium's trace, ``tdur``: the time
the thread ran, not the time it waited for a core); the ratio of that CPU time is the figure
to compare.

    .venv/bin/python benchmarks/web_redraw_replay.py --against DIR [--game island|scythe]
        [--rounds 4] [--record 6] [--max 1500] [--batch 5] [--every 40] [--this DIR]

``DIR``: another copy of ``src/hexfolk/web`` (``git archive <commit> src/hexfolk/web | tar -x
-C /tmp/old``, then ``--against /tmp/old/src/hexfolk/web``). Needs ``playwright`` (pip) and
Debian's ``chromium``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from web_server import run, served  # run from benchmarks/
from web_speed import ARGS, GAMES, WATCH_DELAY, _fast, _p95

from hexfolk.server.client import HexfolkClient

RECORD = """
(() => {
  const Real = window.WebSocket;
  window.__rec = [];
  window.WebSocket = class extends Real {
    constructor(...a) {
      super(...a);
      this.addEventListener('message', (e) => window.__rec.push(e.data));
    }
  };
})();
"""
"""Keeps every message the page's socket receives (``window.__rec``)."""

FEED = """
(() => {
  window.__hexfolkLayoutInRedraw = true;
  // the page's socket: it answers the hello with the recorded messages, in fixed groups
  class Recorded extends EventTarget {
    constructor(url) {
      super();
      this.readyState = 0;
      this.url = url;
      setTimeout(() => { this.readyState = 1; if (this.onopen) this.onopen({}); }, 0);
    }
    send(m) { if (JSON.parse(m).type === 'hello') this.play(); }
    close() { this.readyState = 3; this.stopped = true; }
    play() {
      const msgs = window.__msgs, every = window.__every, k = window.__batch;
      let i = 0;
      const tick = () => {
        if (this.stopped) return;
        // the first group: the welcome, the table and the first view (the first draw)
        const n = i === 0 ? 3 : k;
        for (let j = 0; j < n && i < msgs.length; j++) {
          const data = msgs[i++];
          if (this.onmessage) this.onmessage({data});
        }
        if (i < msgs.length) setTimeout(tick, i === 3 ? 1500 : every);
        else window.__played = true;
      };
      tick();
    }
  }
  window.WebSocket = Recorded;
})();
"""
"""Feeds ``window.__msgs`` to the page, ``__batch`` at once every ``__every`` ms."""


def _table(url: str, game: str, delay: float) -> str:
    """A started bots-only table of ``GAMES[game]`` random bots: its id."""

    async def go() -> str:
        async with HexfolkClient(url) as host:
            await host.create_player("Watcher")
            seats = [{"kind": "bot", "level": "random"}] * GAMES[game]
            t = await host.create_table(
                game=game, players=GAMES[game], seats=seats, clock=None, bot_delay=delay
            )
            await host.start(t["id"])
            return str(t["id"])

    return str(run(go()))


def _record(browser: Any, url: str, game: str, seconds: float, most: int) -> list[str]:
    """A spectator page's socket messages while random bots play (``WATCH_DELAY``)."""
    tid = _table(url, game, WATCH_DELAY[game])
    ctx = browser.new_context(viewport={"width": 1440, "height": 900})
    ctx.add_init_script(RECORD)
    page = ctx.new_page()
    page.goto(f"{url}/app/index.html#/t/{tid}")
    page.wait_for_function("() => window.__hexfolkFirstView !== undefined")
    time.sleep(seconds)
    msgs = [str(m) for m in page.evaluate("() => window.__rec")][:most]
    ctx.close()
    return msgs


def _replay(
    browser: Any, url: str, game: str, msgs: list[str], batch: int, every: float
) -> tuple[list[float], float]:
    """Feed ``msgs`` to a page of ``url``'s client: its redraw times (ms, the first draw left
    out) and the main thread's CPU time in its animation frames (ms, the first left out)."""
    tid = _table(url, game, 5.0)  # the page's one HTTP request; its socket is the recording
    ctx = browser.new_context(viewport={"width": 1440, "height": 900})
    ctx.add_init_script(
        f"window.__msgs = {json.dumps(msgs)}; window.__every = {every};"
        f" window.__batch = {batch};" + FEED
    )
    page = ctx.new_page()
    cdp = ctx.new_cdp_session(page)
    events: list[dict[str, Any]] = []
    done: list[bool] = []
    cdp.on("Tracing.dataCollected", lambda p: events.extend(p["value"]))
    cdp.on("Tracing.tracingComplete", lambda p: done.append(True))
    cdp.send("Tracing.start", {"categories": "devtools.timeline", "transferMode": "ReportEvents"})
    page.goto(f"{url}/app/index.html#/t/{tid}")
    page.wait_for_function("() => window.__played === true", timeout=600_000)
    page.wait_for_timeout(300)
    cdp.send("Tracing.end")
    while not done:
        page.wait_for_timeout(50)
    redraws = [float(x) for x in page.evaluate("() => window.__hexfolkRedraws.slice(1)")]
    frames = [
        e.get("tdur", 0) / 1000
        for e in events
        if e.get("name") == "FireAnimationFrame" and e.get("ph") == "X"
    ]
    ctx.close()
    return redraws, sum(frames[1:])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--against", type=Path, required=True, help="the other web client's folder")
    ap.add_argument("--this", type=Path, default=None, help="this side's (default: this tree's)")
    ap.add_argument("--game", choices=tuple(GAMES), default="island")
    ap.add_argument("--rounds", type=int, default=4, help="replays per side, alternating")
    ap.add_argument("--record", type=float, default=6.0, help="seconds of the live game kept")
    ap.add_argument("--max", type=int, default=1500, help="at most this many messages")
    ap.add_argument("--batch", type=int, default=5, help="messages fed at once")
    ap.add_argument("--every", type=float, default=40.0, help="ms between two groups")
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    sides = {"this": args.this, "against": args.against}
    redraws: dict[str, list[list[float]]] = {k: [] for k in sides}
    cpu: dict[str, list[float]] = {k: [] for k in sides}
    with tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
        urls = {
            k: stack.enter_context(served(Path(tmp) / k, web, _fast)) for k, web in sides.items()
        }
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=args.chromium, headless=True, args=ARGS)
            msgs = _record(browser, urls["this"], args.game, args.record, args.max)
            print(f"recorded {len(msgs)} messages of a {GAMES[args.game]}-player {args.game} game")
            for r in range(args.rounds):
                for k in list(sides) if r % 2 == 0 else list(sides)[::-1]:
                    got, ms = _replay(browser, urls[k], args.game, msgs, args.batch, args.every)
                    redraws[k].append(got)
                    cpu[k].append(ms)
                    print(
                        f"[{k}] round {r + 1}: {len(got)} redraws, median"
                        f" {statistics.median(got):.1f} ms, mean {statistics.fmean(got):.1f} ms;"
                        f" frames' CPU {ms:.0f} ms",
                        flush=True,
                    )
            browser.close()
    for k in sides:
        every = [x for xs in redraws[k] for x in xs]
        print(
            f"[{k}] {len(every)} redraws: median {statistics.median(every):.1f} ms, mean"
            f" {statistics.fmean(every):.1f} ms, p95 {_p95(every):.1f} ms; frames' CPU"
            f" {statistics.fmean(cpu[k]):.0f} ms a replay"
        )
    per = [a / b for a, b in zip(cpu["this"], cpu["against"], strict=True)]
    means = [
        statistics.fmean(a) / statistics.fmean(b)
        for a, b in zip(redraws["this"], redraws["against"], strict=True)
    ]
    total = sum(cpu["this"]) / sum(cpu["against"])
    print(
        f"ratio this/against ({args.game}): frames' CPU {total:.3f}"
        f" (rounds {min(per):.3f}..{max(per):.3f}), redraw mean by round"
        f" {min(means):.2f}..{max(means):.2f}"
    )


if __name__ == "__main__":
    main()
