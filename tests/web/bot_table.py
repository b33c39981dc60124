"""A table of one person (the page's) against one bot, started from Python, for the browser tests
of the table page's plumbing (network, refusals, log, chat) on both games."""

from __future__ import annotations

from typing import Any

from hexfolk.server.client import HexfolkClient
from tests.server.helpers import ThreadServer
from tests.web.helpers import in_thread
from tests.web.own_seat import enter


def table_with_a_bot(
    server: ThreadServer,
    token: str,
    game: str,
    seed: int,
    *,
    level: str = "random",
    clock: float | None = None,
    disconnect: dict[str, Any] | None = None,
) -> str:
    """A started two-seat ``game`` table: the person of ``token`` in seat 0, a bot of ``level``
    in seat 1 (no delay, seeded; no clock unless ``clock`` seconds; the server's disconnect
    policy unless ``disconnect``); its id."""

    async def make() -> str:
        async with HexfolkClient(server.url, token=token) as host:
            options: dict[str, Any] = {}
            if game == "scythe":
                options = {"factions": "polania,saxony", "mats": "mechanical,agricultural"}
            t = await host.create_table(
                game=game,
                players=2,
                options=options,
                seats=[{"kind": "host"}, {"kind": "bot", "level": level}],
                bot_delay=0,
                clock=clock,
                seed=seed,
                **({"disconnect": disconnect} if disconnect else {}),
            )
            await host.start(t["id"])
            return str(t["id"])

    return str(in_thread(make))


def at_a_table_with_a_bot(page: Any, server: ThreadServer, game: str, seed: int) -> str:
    """Ann enters ``page``, sits at a new :func:`table_with_a_bot` and the page opens it; its id."""
    token = enter(page, server.url + "/", "Ann")
    tid = table_with_a_bot(server, token, game, seed)
    page.goto(f"{server.url}/#/t/{tid}")
    return tid
