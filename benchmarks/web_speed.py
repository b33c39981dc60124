"""Speed of the browser client (issue 13), measured in Chromium against a real server.

Prints the time to the first view of a table (from navigation start to the first drawn board,
the ``performance.now()`` of the page) and the redraw time of an update on the 44-hex board of
an 8-player table (the page's own ``render()`` time for each view, while seven random bots
play with no delay), as median / p95 / max over the updates drawn.

    .venv/bin/python benchmarks/web_speed.py [--seconds 15] [--runs 5]

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


def _serve(data: Path) -> tuple[uvicorn.Server, str]:
    port = _port()
    cfg = ServerConfig(host="127.0.0.1", port=port, data_dir=data, sqlite_synchronous="NORMAL")
    cfg.action_rate = (100_000, 1.0)
    server = uvicorn.Server(
        uvicorn.Config(create_app(cfg), host="127.0.0.1", port=port, log_level="warning")
    )
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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=15.0, help="how long to watch the bots")
    ap.add_argument("--runs", type=int, default=5, help="first-view measurements")
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        server, url = _serve(Path(tmp))
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(
                    executable_path=args.chromium, headless=True, args=ARGS
                )
                firsts = []
                for _ in range(args.runs):
                    tid, player = _table(url, 8, 0.8)
                    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
                    stored = json.dumps(json.dumps(player))
                    ctx.add_init_script(f"localStorage.setItem('hexfolk.player', {stored})")
                    page = ctx.new_page()
                    page.goto(f"{url}/#/t/{tid}")
                    page.wait_for_function("() => window.__hexfolkFirstView !== undefined")
                    firsts.append(page.evaluate("() => window.__hexfolkFirstView"))
                    ctx.close()

                # updates: a host who never acts would stall the table, so the host is a
                # spectator here and seven bots play an 8-player game with no delay
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
                ctx = browser.new_context(viewport={"width": 1280, "height": 800})
                page = ctx.new_page()
                page.goto(f"{url}/#/t/{tid}")
                page.wait_for_function("() => window.__hexfolkFirstView !== undefined")
                time.sleep(args.seconds)
                redraws = page.evaluate("() => window.__hexfolkRedraws.slice(1)")
                version = page.evaluate("() => window.__hexfolkView.version")
                hexes = page.locator("#board .hex").count()
                ctx.close()
                browser.close()
        finally:
            server.should_exit = True
    redraws.sort()
    p95 = redraws[int(len(redraws) * 0.95) - 1] if redraws else float("nan")
    print(
        f"first view of a table (8 players, 44 hexes): median {statistics.median(firsts):.0f} ms,"
        f" max {max(firsts):.0f} ms over {len(firsts)} loads (target < 1000 ms)"
    )
    print(
        f"redraw of an update on the {hexes}-hex board: median {statistics.median(redraws):.1f} ms,"
        f" p95 {p95:.1f} ms, max {max(redraws):.1f} ms over {len(redraws)} redraws"
        f" (the table reached version {version}; target < 50 ms)"
    )


if __name__ == "__main__":
    main()
