"""Issue 25, finding 11: a roller who must also discard after its 7 discards on the parallel
discard window of IR-27 (the lobby length capped at 60 s), like every other discarder, while
its turn window pauses (IR-26: the turn clock pauses while others discard); after the discards
its robber move runs on what its turn window had left at the roll (``docs/island.md``).

Before the fix the roller discarded on its turn window (85 s of a 90 s clock were seen) and its
robber move then had whatever the discard left."""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import AsyncIterator
from typing import Any

from hexfolk.server.client import HexfolkClient, TableConnection
from tests.server.helpers import ThreadServer, run
from tests.server.people_tables import action_events, play_until, roll_or_end, seat_people

CLOCK = 90.0
CAP = 60.0


def _roller(log: list[str]) -> int | None:
    for line in reversed(log):
        m = re.match(r"seat (\d+) rolls (\d+)", line)
        if m:
            return int(m.group(1)) if m.group(2) == "7" else None
    return None


async def _drive_until_roller_discards(conns: list[TableConnection]) -> tuple[int, dict]:
    """Nobody builds (hands grow until a 7 finds a big one): roll, discard, move the robber,
    end; setup takes the first listed spot. Until a roller has to discard."""

    def found(seat: int, conn: TableConnection, view: dict[str, Any]) -> bool:
        discards = [e for e in view["legal"] if e["action"].startswith("discard")]
        return _roller(conn.log) == seat and bool(discards)

    return await play_until(
        conns,
        found,
        roll_or_end,
        within=90,
        failure="no roller had to discard within 90 s of play",
    )


@contextlib.asynccontextmanager
async def _at_the_first_discard(
    server: ThreadServer, name: str, clock: float
) -> AsyncIterator[tuple[str, list[TableConnection], int, dict[str, Any]]]:
    """Two people (``name`` 0 and 1) at a seeded two-seat island table on ``clock``, played until
    a roller has to discard: the table's id, both connections, the roller's seat and view."""
    clients = [HexfolkClient(server.url) for _ in range(2)]
    try:
        t = await seat_people(
            clients,
            [f"{name}0", f"{name}1"],
            game="island",
            players=2,
            clock=clock,
            seed=2512,
            disconnect={"policy": "wait", "grace": 600},
            bot_delay=0,
        )
        async with (
            clients[0].connect(t["id"]) as c0,
            clients[1].connect(t["id"]) as c1,
        ):
            conns = [c0, c1]
            await c0.wait_for(lambda v: True)
            seat, view = await _drive_until_roller_discards(conns)
            yield str(t["id"]), conns, seat, view
    finally:
        for c in clients:
            await c.aclose()


def test_a_roller_who_discards_is_on_the_parallel_window(server: ThreadServer) -> None:
    async def scenario() -> None:
        async with _at_the_first_discard(server, "Roller", CLOCK) as (_, conns, seat, view):
            mine = view["clocks"]["seats"][str(seat)]
            # IR-27: the roller's discard is a parallel window capped at 60 s
            assert mine["running"] and CAP - 5 < mine["remaining"] <= CAP, mine
            assert mine["kind"] == "parallel", mine
            conn = conns[seat]
            # discard every card owed, then (after any other discard) the robber
            while True:
                view = conn.view
                assert view is not None
                legal = [e["action"] for e in view["legal"]]
                if not any(a.startswith("discard") for a in legal):
                    if legal:
                        break
                    other = conns[1 - seat].view
                    assert other is not None
                    if other["legal"]:
                        await conns[1 - seat].act(other["legal"][0]["action"], other["version"])
                    await conn.wait_for(lambda v, seen=view["version"]: v["version"] > seen)
                    continue
                await conn.act(next(a for a in legal if a.startswith("discard")), view["version"])
                # the view after this discard (not merely the next one in the inbox: a view
                # from before may still wait there behind the roll's accepted)
                await conn.wait_for(lambda v, seen=view["version"]: v["version"] > seen)
            robber = conn.view
            assert robber is not None
            back = robber["clocks"]["seats"][str(seat)]
            # the turn window resumes with what it had at the roll: more than the 60 s cap
            assert back["running"] and CAP + 10 < back["remaining"] <= CLOCK, back
            assert back["kind"] == "turn", back

    run(scenario(), timeout=150)


def test_an_expired_discard_window_defaults_the_discard_only(server: ThreadServer) -> None:
    """The roller sleeps through its discard: the discard window's defaults discard and stop;
    the robber move is defaulted only when the resumed turn window (nearly the whole clock
    left at the roll) runs out too. Before the fix one expiry defaulted the discard, the robber
    and the end of the turn together."""
    clock = 2.0

    async def scenario() -> tuple[str, int, int]:
        async with _at_the_first_discard(server, "Sleeper", clock) as (tid, conns, seat, view):
            other = conns[1 - seat]
            # the other seat answers its own discard at once; the roller sleeps
            loop = asyncio.get_running_loop()
            end = loop.time() + 4 * clock + 5
            while loop.time() < end:
                v = other.view
                if v is not None and any(e["action"].startswith("discard") for e in v["legal"]):
                    first = next(e for e in v["legal"] if e["action"].startswith("discard"))
                    await other.act(first["action"], v["version"])
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(other.inbox.get(), 0.2)
                mine = conns[seat].view
                if mine is not None and _roller(conns[seat].log) != seat:
                    break  # the next turn's roll is in the log
            return tid, seat, int(view["version"])

    tid, seat, version = run(scenario(), timeout=150)
    after = [e for e in action_events(server, tid) if e[0] > version and e[1] == seat]
    discards = [e for e in after if e[2].startswith("discard")]
    robber = next(e for e in after if e[2].startswith("robber"))
    assert discards and all(e[3] for e in discards) and robber[3], after
    last_discard = max(e[4] for e in discards if e[0] < robber[0])
    # the robber's default waited for the resumed turn window: about a whole clock
    assert robber[4] - last_discard > clock * 0.6, (robber, discards)
