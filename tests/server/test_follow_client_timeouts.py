"""Issue 25, finding 5 (the Python client): ``TableConnection`` keeps the views' time-out marks
like the log (``docs/protocol.md``, "Time-outs"), so its users can tell a time-out's lines.

Two idle people on a 1.5 s clock (a ``--testing`` server): their setup placements are defaulted.
A spectator connected from the start merges the marks view by view; they must equal the marks
of a whole view sent to a spectator connecting later, and mark exactly the defaulted lines.
Before the fix the client had no ``timeouts``."""

from __future__ import annotations

import asyncio
import contextlib

from hexfolk.server.client import HexfolkClient
from tests.server.helpers import ThreadServer, run

CLOCK = 1.5


def test_the_client_keeps_the_time_out_marks(server: ThreadServer) -> None:
    async def scenario() -> None:
        clients = [HexfolkClient(server.url) for _ in range(2)]
        watchers = [HexfolkClient(server.url) for _ in range(2)]
        try:
            await clients[0].create_player("Idle0")
            t = await clients[0].create_table(
                game="island",
                players=2,
                clock=CLOCK,
                disconnect={"policy": "wait", "grace": 600},
                bot_delay=0,
            )
            await clients[1].create_player("Idle1")
            await clients[1].join(t["id"], 1)
            async with watchers[0].connect(t["id"], spectate=True) as early:
                await clients[0].start(t["id"])
                # three placements defaulted, seen view by view
                await early.wait_for(
                    lambda v: sum(" settles " in ln for ln in early.log) >= 3,
                    timeout=3 * CLOCK + 10,
                )
                for _ in range(5):
                    async with watchers[1].connect(t["id"], spectate=True) as late:
                        whole = await late.wait_for(lambda v: True)
                        version = int(whole["version"])
                        with contextlib.suppress(TimeoutError):
                            await early.wait_for(
                                lambda v, at=version: v["version"] >= at, timeout=2
                            )
                        assert early.view is not None
                        if early.view["version"] != whole["version"]:
                            continue  # a time-out fell in between: again
                        assert int(whole.get("log_start", 0)) == 0
                        assert early.log == late.log
                        assert early.timeouts == whole["timeouts"] == late.timeouts
                        break
                else:
                    raise AssertionError("no two views of the same version in 5 tries")
                assert early.timeouts, early.log
                for i, line in enumerate(early.log):
                    if " settles " in line or " road on " in line:
                        assert early.timed_out(i) == int(line.split()[1]), (i, line)
                # a line no time-out wrote reads as no time-out
                assert early.timed_out(len(early.log) + 10) is None
        finally:
            for c in (*clients, *watchers):
                await c.aclose()

    run(asyncio.wait_for(scenario(), 60), timeout=90)
