"""Speed of the browser client (issue 13), measured in Chromium against a real server.

Prints the time to the first view of a table (from navigation start to the first drawn board,
the ``performance.now()`` of the page) and the redraw time of an update on the 44-hex board of
an 8-player table (the page's own ``render()`` time for each view plus the layout it causes,
while eight random bots play with no delay), as median / p95 / max over the updates drawn.

    .venv/bin/python benchmarks/web_speed.py [--seconds 15] [--runs 5] [--against DIR]

``--against DIR`` serves another copy of the web client (for example the one of an older
commit: ``git archive <commit> src/hexfolk/web | tar -x -C /tmp/old``, then
``--against /tmp/old/src/hexfolk/web``) from a second server and measures both side by side,
round by round, printing the ratios: on a shared, loaded machine only ratios mean much.

Needs ``playwright`` (pip) and Debian's ``chromium`` (``/usr/bin/chromium``).
Targets: first view within 1 s; an update redrawn in under 50 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import uvicorn

from hexfolk.server import app as server_app
from hexfolk.server.app import create_app
from hexfolk.server.client import HexfolkClient
from hexfolk.server.config import ServerConfig

ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _serve(data: Path, web: Path | None = None) -> tuple[uvicorn.Server, str]:
    """A server on a free port; ``web`` serves another copy of the web client (``--against``)
    at ``/app/`` (pages are opened at ``/app/index.html``, so each side loads its own shell)."""
    port = _port()
    cfg = ServerConfig(host="127.0.0.1", port=port, data_dir=data, sqlite_synchronous="NORMAL")
    cfg.action_rate = (100_000, 1.0)
    saved = (server_app.WEB_DIR, server_app.INDEX)
    if web is not None:
        server_app.WEB_DIR, server_app.INDEX = web, web / "index.html"
    try:
        app = create_app(cfg)
    finally:
        server_app.WEB_DIR, server_app.INDEX = saved
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.02)
    return server, f"http://127.0.0.1:{port}"


def _run(coro: Any) -> Any:
    """``asyncio.run`` in a thread of its own (Playwright's sync API owns this thread's loop)."""
    out: list[Any] = []
    th = threading.Thread(target=lambda: out.append(asyncio.run(coro)))
    th.start()
    th.join()
    return out[0]


def _table(url: str, players: int, delay: float) -> tuple[str, dict[str, str]]:
    async def go() -> tuple[str, dict[str, str]]:
        async with HexfolkClient(url) as host:
            me = await host.create_player("Bench")
            seats = [{"kind": "host"}] + [{"kind": "bot", "level": "random"}] * (players - 1)
            t = await host.create_table(
                game="island", players=players, seats=seats, clock=None, bot_delay=delay
            )
            await host.start(t["id"])
            return str(t["id"]), {"id": me["id"], "name": me["name"], "token": me["token"]}

    return _run(go())  # type: ignore[no-any-return]


def _first_views(browser: Any, url: str, runs: int) -> list[float]:
    firsts = []
    for _ in range(runs):
        tid, player = _table(url, 8, 0.8)
        ctx = browser.new_context(viewport={"width": 1440, "height": 900})
        stored = json.dumps(json.dumps(player))
        ctx.add_init_script(f"localStorage.setItem('hexfolk.player', {stored})")
        page = ctx.new_page()
        page.goto(f"{url}/app/index.html#/t/{tid}")  # the side's own index.html
        page.wait_for_function("() => window.__hexfolkFirstView !== undefined")
        firsts.append(float(page.evaluate("() => window.__hexfolkFirstView")))
        ctx.close()
    return firsts


def _redraws(browser: Any, url: str, seconds: float) -> tuple[list[float], int, int]:
    """Eight random bots play with no delay (a host who never acts would stall the
    table, so the page is a spectator); the page's render() time of every view drawn."""

    async def bots_table() -> str:
        async with HexfolkClient(url) as host:
            await host.create_player("Watcher")
            seats = [{"kind": "bot", "level": "random"}] * 8
            t = await host.create_table(
                game="island", players=8, seats=seats, clock=None, bot_delay=0
            )
            await host.start(t["id"])
            return str(t["id"])

    tid = _run(bots_table())
    ctx = browser.new_context(viewport={"width": 1440, "height": 900})
    # a redraw's time includes the layout it causes (read at its end), not only its script
    ctx.add_init_script("window.__hexfolkLayoutInRedraw = true")
    page = ctx.new_page()
    page.goto(f"{url}/app/index.html#/t/{tid}")  # the side's own index.html
    page.wait_for_function("() => window.__hexfolkFirstView !== undefined")
    time.sleep(seconds)
    redraws = [float(x) for x in page.evaluate("() => window.__hexfolkRedraws.slice(1)")]
    version = int(page.evaluate("() => window.__hexfolkView.version"))
    hexes = int(page.locator("#board .hex").count())
    ctx.close()
    return redraws, version, hexes


def _p95(xs: list[float]) -> float:
    xs = sorted(xs)
    return xs[max(0, int(len(xs) * 0.95) - 1)] if xs else float("nan")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=15.0, help="how long to watch the bots")
    ap.add_argument("--runs", type=int, default=5, help="first-view measurements")
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    ap.add_argument(
        "--against",
        type=Path,
        default=None,
        help="another copy of src/hexfolk/web (e.g. from git archive) measured side by side, "
        "round by round, so a loaded machine slows both alike",
    )
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    sides = {"this": None, "against": args.against} if args.against else {"this": None}
    firsts: dict[str, list[float]] = {k: [] for k in sides}
    redraws: dict[str, list[float]] = {k: [] for k in sides}
    info: dict[str, tuple[int, int]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        servers = {k: _serve(Path(tmp) / k, web) for k, web in sides.items()}
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(
                    executable_path=args.chromium, headless=True, args=ARGS
                )
                rounds = 2 if args.against else 1
                for i in range(rounds):
                    order = list(servers.items())
                    for k, (_, url) in order if i % 2 == 0 else order[::-1]:  # each side first once
                        firsts[k] += _first_views(browser, url, max(1, args.runs // rounds))
                        got, version, hexes = _redraws(browser, url, args.seconds / rounds)
                        redraws[k] += got
                        info[k] = (version, hexes)
                browser.close()
        finally:
            for server, _ in servers.values():
                server.should_exit = True
    for k in sides:
        f, r = firsts[k], redraws[k]
        version, hexes = info[k]
        print(
            f"[{k}] first view of a table (8 players, 44 hexes): median {statistics.median(f):.0f}"
            f" ms, max {max(f):.0f} ms over {len(f)} loads (target < 1000 ms)"
        )
        print(
            f"[{k}] redraw of an update on the {hexes}-hex board: median"
            f" {statistics.median(r):.1f} ms, p95 {_p95(r):.1f} ms, max {max(r):.1f} ms over"
            f" {len(r)} redraws (the last table reached version {version}; target < 50 ms)"
        )
    if args.against:
        a, b = redraws["this"], redraws["against"]
        print(
            "ratio this/against: first view median"
            f" {statistics.median(firsts['this']) / statistics.median(firsts['against']):.2f},"
            f" redraw median {statistics.median(a) / statistics.median(b):.2f},"
            f" p95 {_p95(a) / _p95(b):.2f}"
        )


if __name__ == "__main__":
    main()
