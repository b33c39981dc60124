"""Issue 25, finding 5: every connection sees which steps the clock applied (IR-28: defaults
are logged as time-outs). Each view carries ``timeouts``, the marks of the log lines the
clock's defaults wrote (per viewer: its own log), and every connection gets a ``timeout``
message after the view that shows them. The marks are rebuilt from the event log's timeout
flags, so a restart keeps them."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from hexfolk.core import load_game
from hexfolk.server.client import HexfolkClient, TableConnection
from hexfolk.server.timeout_marks import rebuild
from tests.server.conftest import FAST_RATE
from tests.server.helpers import ThreadServer, run, thread_server
from tests.server.people_tables import against_a_bot


def _marked(log: list[str], marks: list[dict[str, int]]) -> list[tuple[int, str]]:
    return [(m["seat"], line) for m in marks for line in log[m["log_from"] : m["log_to"]]]


def _live_steps(server: ThreadServer, table_id: str, upto: int) -> list[Any]:
    db = server.config.resolved_data_dir() / "hexfolk.sqlite"
    with sqlite3.connect(db) as conn:
        rows = conn.execute(
            "SELECT kind, seat, action, timeout FROM events WHERE table_id = ? AND seq <= ? "
            "ORDER BY seq",
            (table_id, upto),
        )
        return [SimpleNamespace(kind=k, seat=s, action=a, timeout=bool(t)) for k, s, a, t in rows]


def merge(marks: list[dict[str, int]], view: dict[str, Any]) -> list[dict[str, int]]:
    """A client's marks after a view (``docs/protocol.md``): the view resends the marks of
    the lines from ``log_start`` on."""
    start = view["log_start"]
    return [m for m in marks if m["log_to"] <= start] + view["timeouts"]


async def _collect(
    conn: TableConnection, until: int
) -> tuple[list[dict[str, Any]], list[dict[str, int]]]:
    """Messages until a view of version ``until`` or later: the timeout messages, and the
    marks of the connection's log."""
    kept: list[dict[str, Any]] = []
    marks: list[dict[str, int]] = []
    while True:
        msg = await asyncio.wait_for(conn.inbox.get(), 30)
        if msg.get("type") == "timeout":
            kept.append(msg)
        if msg.get("type") == "view":
            marks = merge(marks, msg)
            if msg["version"] >= until:
                return kept, marks


async def _dozy_table(host: HexfolkClient) -> Any:
    """Dozy, who never answers, against a random bot on a 0.3 s clock that never gives the
    seat away."""
    return await against_a_bot(
        host,
        "Dozy",
        "random",
        clock=0.3,
        disconnect={"policy": "wait", "grace": 600},
        bot_delay=0,
    )


def test_every_connection_sees_the_time_outs(server: ThreadServer) -> None:
    async def scenario() -> tuple[str, int, dict[str, Any], list[str]]:
        async with HexfolkClient(server.url) as host:
            t = await _dozy_table(host)
            watcher = HexfolkClient(server.url)
            async with (
                host.connect(t["id"]) as mine,
                watcher.connect(t["id"], spectate=True) as spy,
            ):
                await host.start(t["id"])
                got = await asyncio.gather(_collect(mine, 25), _collect(spy, 25))
                for conn, (timeouts, marks) in zip((mine, spy), got, strict=True):
                    # a timeout message for the sleeping seat only, on every connection
                    assert timeouts and {m["seat"] for m in timeouts} == {0}, timeouts
                    assert marks and all(m["seat"] == 0 for m in marks)
                    marked = _marked(conn.log, marks)
                    # IR-28: seat 0's setup placements were defaults; seat 1's steps were not
                    # (what seat 1 receives from seat 0's timed-out roll is part of that roll)
                    assert any(line.startswith("seat 0 settles") for _, line in marked), marked
                    others = [x for _, x in marked if x.startswith("seat 1 ")]
                    assert all(
                        x.startswith(("seat 1 receives ", "seat 1 gets ")) for x in others
                    ), others
            await watcher.aclose()
            # a connection opened later gets the whole log with its marks
            late = HexfolkClient(server.url)
            async with late.connect(t["id"], spectate=True) as again:
                view = await again.next_view()
                log = list(again.log)
            await late.aclose()
            return str(t["id"]), int(view["version"]), view, log

    tid, version, view, log = run(scenario())
    assert view["log_start"] == 0 and view["timeouts"]
    # the same marks come back from the event log alone (what a restart rebuilds)
    state = load_game("island", 2).new_initial_state()
    rebuilt = rebuild(state, _live_steps(server, tid, version)).for_view(None, 0, len(log))
    assert _marked(log, rebuilt) == _marked(log, view["timeouts"])


def test_the_marks_survive_a_restart(tmp_path: Path) -> None:
    """A server restarted on the same database rebuilds the marks from the event log: a new
    connection's whole view marks the same lines as before the restart."""
    common: dict[str, Any] = {
        "data_dir": tmp_path / "data",
        "testing": True,
        "action_rate": FAST_RATE,
    }

    async def marks_now(url: str, tid: str) -> tuple[list[str], list[dict[str, int]]]:
        watcher = HexfolkClient(url)
        try:
            async with watcher.connect(tid, spectate=True) as spy:
                view = await spy.next_view()
                return list(spy.log), list(view["timeouts"])
        finally:
            await watcher.aclose()

    async def sleepy(url: str) -> str:
        async with HexfolkClient(url) as host:
            t = await _dozy_table(host)
            await host.start(t["id"])
            async with host.connect(t["id"], spectate=True) as spy:
                await spy.wait_for(lambda v: v["version"] > 12, timeout=30)
            return str(t["id"])

    with thread_server(**common) as first:
        tid = run(sleepy(first.url))
        log1, marks1 = run(marks_now(first.url, tid))
    with thread_server(**common) as second:
        log2, marks2 = run(marks_now(second.url, tid))
    assert marks1 and log2[: len(log1)] == log1
    assert _marked(log2, marks2)[: len(_marked(log1, marks1))] == _marked(log1, marks1)
