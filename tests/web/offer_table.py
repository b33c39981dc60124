"""An island table of two people and a real bot for the browser tests of offers (issue 27):
the page's person and a second person played from Python, both driven from Python until a
position of one of them is reached; then the page takes over its seat."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import Callable
from typing import Any

from hexfolk.server.client import HexfolkClient
from tests.server.helpers import ThreadServer
from tests.server.people_tables import play_until
from tests.web.helpers import in_thread

CALM = ("offer", "counter", "accept", "trade", "buy", "complete", "withdraw")
"""Kinds the Python drivers never pick: their hands stay as the dice and the bots make them."""


def person(server: ThreadServer, name: str) -> str:
    """A new player named ``name``; their token."""

    async def make() -> str:
        async with HexfolkClient(server.url) as c:
            return str((await c.create_player(name))["token"])

    return str(in_thread(make))


def two_people_and_a_bot(
    server: ThreadServer, host: str, guest: str, *, level: str, bot_delay: float, seed: int
) -> str:
    """A started table: ``host`` (a token) in seat 0, ``guest`` in seat 1, a ``level`` bot in
    seat 2; no clock, people wait for each other; its id."""

    async def make() -> str:
        async with (
            HexfolkClient(server.url, token=host) as h,
            HexfolkClient(server.url, token=guest) as g,
        ):
            t = await h.create_table(
                game="island",
                players=3,
                seats=[{"kind": "host"}, {"kind": "open"}, {"kind": "bot", "level": level}],
                clock=None,
                bot_delay=bot_delay,
                seed=seed,
                disconnect={"policy": "wait", "grace": 600},
            )
            await g.join(t["id"], 1)
            await h.start(t["id"])
            return str(t["id"])

    return str(in_thread(make))


def calm_choice(rng: random.Random) -> Callable[[dict[str, Any]], str]:
    """Roll, reject, end the turn; else a random listed action that is no trade."""

    def choose(view: dict[str, Any]) -> str:
        by_kind = {e["kind"]: e["action"] for e in view["legal"]}
        for kind in ("roll", "reject", "end"):
            if kind in by_kind:
                return by_kind[kind]
        calm = [e["action"] for e in view["legal"] if e["kind"] not in CALM]
        return rng.choice(calm or [e["action"] for e in view["legal"]])

    return choose


def hand_size(view: dict[str, Any], seat: int) -> int:
    hand = view["observation"]["players"][seat].get("hand") or {}
    return sum(hand.values())


def play_until_seat(
    server: ThreadServer,
    tid: str,
    tokens: tuple[str, str],
    seat: int,
    found: Callable[[dict[str, Any]], bool],
    seed: int,
) -> dict[str, Any]:
    """Seats 0 and 1 (``tokens``) play calmly until seat ``seat`` has a view where ``found``
    holds; that view. The connections close after."""

    async def drive() -> dict[str, Any]:
        rng = random.Random(seed)
        async with (
            HexfolkClient(server.url, token=tokens[0]) as a,
            HexfolkClient(server.url, token=tokens[1]) as b,
            a.connect(tid) as ca,
            b.connect(tid) as cb,
        ):
            _, view = await play_until(
                [ca, cb],
                lambda s, conn, v: s == seat and found(v),
                calm_choice(rng),
                within=120,
                failure=f"seat {seat} never reached the position",
            )
            return view

    return dict(in_thread(drive, timeout=150))


def main_turn_of(seat: int, cards: int) -> Callable[[dict[str, Any]], bool]:
    """The main phase of ``seat``'s turn after the roll, with an offer listed and at least
    ``cards`` cards in hand."""

    def found(v: dict[str, Any]) -> bool:
        kinds = {e["kind"] for e in v["legal"]}
        return (
            v["observation"]["active"] == seat
            and "end" in kinds
            and "offer" in kinds
            and hand_size(v, seat) >= cards
        )

    return found


def act_as(
    server: ThreadServer, token: str, tid: str, pick: Callable[[dict[str, Any]], str | None]
) -> str:
    """Connect as ``token``, wait (up to 20 s) for a view where ``pick`` names an action, send it;
    that action."""

    async def go() -> str:
        async with HexfolkClient(server.url, token=token) as c, c.connect(tid) as conn:
            loop = asyncio.get_running_loop()
            end = loop.time() + 20
            while loop.time() < end:
                v = conn.view
                action = pick(v) if v is not None else None
                if action is not None:
                    sent = int(v["version"])
                    await conn.act(action, sent)
                    await conn.wait_for(lambda w, sent=sent: w["version"] > sent, timeout=10)
                    return action
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(conn.inbox.get(), 2)
            raise AssertionError("no view named an action to send")

    return str(in_thread(go, timeout=40))


def whole_log(server: ThreadServer, token: str, tid: str) -> list[dict[str, Any]]:
    """The table's log as ``token``'s seat reads it (a new connection's whole view)."""

    async def look() -> list[dict[str, Any]]:
        async with HexfolkClient(server.url, token=token) as c, c.connect(tid) as conn:
            v = await conn.wait_for(lambda v: True, timeout=15)
            return list(v["log"])

    return list(in_thread(look))
