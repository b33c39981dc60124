"""Hidden information through the wire, by planted sentinels (issue #12): seeded games of both
games played by people through the server, with a second tab per seat that keeps sending bad,
stale and out-of-turn actions, chat, and HTTP reads of the table, record, replay, summary and
chat before the end. Every byte every socket and every reader received is kept.

The sentinels are the secrets as their owner sees them: every log line a seat sees that the
spectator does not (a combat commitment, a card drawn, a discard, a steal), the Scythe
objective cards and the island development cards a seat holds, as its own views carry them.
None of them may appear in any frame or body another seat or a spectator received before the
game ended.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from typing import Any

import pytest

from hexfolk.server.client import HexfolkClient, ServerError, TableConnection
from tests.server.helpers import ThreadServer, play_scripted, quick_choice, run


async def _pester(conn: TableConnection, seat: int, stop: asyncio.Event) -> None:
    """A second tab of ``seat``: bad frames, stale and out-of-turn actions, chat."""
    rng = random.Random(seat)
    n = 0
    while not stop.is_set():
        await asyncio.sleep(0.05)
        view = conn.view
        if view is None or view["status"] != "playing":
            continue
        n += 1
        kind = n % 5
        if kind == 0:
            await conn.act("settle 9999", view["version"])
        elif kind == 1:
            await conn.act("discard everything", max(0, view["version"] - 3))
        elif kind == 2:
            await conn.send_raw("{not json")
        elif kind == 3:
            await conn.undo(1, view["version"])
        elif n % 40 == 4:
            await conn.chat(f"seat {seat} says {rng.randrange(1000)}")


async def _http_reads(clients: list[HexfolkClient], tid: str) -> list[tuple[int | None, str]]:
    """Every reader's view of the table over HTTP before the end (record and replay refused)."""
    out: list[tuple[int | None, str]] = []
    readers: list[tuple[int | None, HexfolkClient]] = list(enumerate(clients))
    anonymous = HexfolkClient(clients[0].base_url)
    readers.append((None, anonymous))
    for seat, c in readers:
        for path in ("", "/record", "/replay", "/summary", "/chat"):
            response = await c.http.get(f"/api/tables/{tid}{path}", headers=c._headers())
            out.append((seat, response.text))
    await anonymous.aclose()
    return out


async def _play(
    server: ThreadServer, game: str, players: int, options: dict[str, Any], seed: int
) -> tuple[list[tuple[int | None, list[str]]], list[tuple[int | None, str]]]:
    clients = [HexfolkClient(server.url) for _ in range(players)]
    for i, c in enumerate(clients):
        await c.create_player(f"P{i}")
    t = await clients[0].create_table(
        game=game, players=players, options=options, bot_delay=0, seed=seed
    )
    tid = str(t["id"])
    for c in clients[1:]:
        await c.join(tid)
    await clients[0].start(tid)
    watcher = HexfolkClient(server.url)
    frames: list[tuple[int | None, TableConnection]] = []
    bodies: list[tuple[int | None, str]] = []
    stop = asyncio.Event()
    async with contextlib.AsyncExitStack() as stack:
        spectator = await stack.enter_async_context(
            watcher.connect(tid, spectate=True, keep_raw=True)
        )
        tab = await stack.enter_async_context(clients[1].connect(tid, spectate=True, keep_raw=True))
        frames += [(None, spectator), (None, tab)]
        seats = []
        for s, c in enumerate(clients):
            seats.append(await stack.enter_async_context(c.connect(tid, keep_raw=True)))
            pest = await stack.enter_async_context(c.connect(tid, keep_raw=True))
            frames += [(s, seats[-1]), (s, pest)]
            stack.push_async_callback(asyncio.sleep, 0)
            pesters = asyncio.ensure_future(_pester(pest, s, stop))
            stack.callback(pesters.cancel)
        rng = random.Random(seed)

        async def reads_midway() -> None:
            await spectator.wait_for(lambda v: v["version"] >= 150, timeout=80)
            bodies.extend(await _http_reads(clients, tid))

        await asyncio.gather(
            reads_midway(),
            *(play_scripted(conn, quick_choice(rng), timeout=100) for conn in seats),
        )
        stop.set()
        await spectator.wait_for(lambda v: v["status"] == "finished")
    for c in [*clients, watcher]:
        with contextlib.suppress(ServerError):
            await c.aclose()
    return [(viewer, list(conn.received)) for viewer, conn in frames], bodies


def _before_end(raw_frames: list[str]) -> list[tuple[dict[str, Any], str]]:
    out = []
    for raw in raw_frames:
        msg = json.loads(raw)
        if msg.get("type") == "view" and msg.get("status") == "finished":
            break
        out.append((msg, raw))
    return out


def _log_of(frames: list[tuple[dict[str, Any], str]]) -> list[str]:
    log: list[str] = []
    for msg, _ in frames:
        if msg.get("type") == "view":
            log = log[: msg["log_start"]] + [x["text"] for x in msg["log"]]  # entries' texts
    return log


def _sentinels(game: str, seat: int, frames: list[tuple[dict[str, Any], str]]) -> set[str]:
    """Besides private log lines: the Scythe objectives ``seat`` holds, as its own views carry
    them (``"objective_cards":[3,17]``; no other seat holds the same cards), and the island
    development cards in its hand (``"dev_hand":{"knight":1,...}``, when it holds any)."""
    found: set[str] = set()
    table, key = (
        ("player_state", "objective_cards") if game == "scythe" else ("players", "dev_hand")
    )
    for msg, _ in frames:
        if msg.get("type") != "view":
            continue
        for entry in msg["observation"].get(table, []):
            held = entry.get(key)
            if (
                entry.get("seat") == seat
                and held
                and any(held.values() if isinstance(held, dict) else held)
            ):
                found.add(f'"{key}":{json.dumps(held, separators=(",", ":"))}')
    return found


# The secrets of a seat's own entry in its view (issue #12: hands, development cards, combat
# cards, objectives): the island's resource hand, development hand and VP count with the VP
# cards; Scythe's combat-card hand and objectives.
PRIVATE_FIELDS = {
    "island": ("players", ("hand", "dev_hand", "vp")),
    "scythe": ("player_state", ("hand", "objective_cards", "discarded_objectives")),
}


def _private_fields_stay_with_their_seat(game: str, per_viewer: Any) -> int:
    """Every view's entry for another seat carries none of that seat's private fields, while
    each seat's own entry does carry them (so the check is not vacuous). Returns the number
    of entries checked."""
    table, fields = PRIVATE_FIELDS[game]
    checked = 0
    for viewer, frames in per_viewer.items():
        own_seen: set[str] = set()
        for msg, _ in frames:
            if msg.get("type") != "view":
                continue
            for entry in msg["observation"].get(table, []):
                held = {f for f in fields if f in entry}
                if entry.get("seat") == viewer:
                    own_seen |= held
                else:
                    checked += 1
                    assert not held, f"seat {entry.get('seat')}'s {held} reached {viewer}"
        if viewer is not None:
            assert own_seen >= set(fields[:2]), (viewer, own_seen)
    return checked


def _check(game: str, players: int, captured: Any, bodies: Any) -> tuple[int, int]:
    per_viewer: dict[int | None, list[tuple[dict[str, Any], str]]] = {}
    for viewer, raw_frames in captured:
        per_viewer.setdefault(viewer, []).extend(_before_end(raw_frames))
    logs = {v: set(_log_of(_before_end(raw))) for v, raw in captured if v is not None}
    public = set(_log_of(per_viewer[None][: len(per_viewer[None])]))
    secrets: dict[str, set[int]] = {}  # sentinel -> seats allowed to see it
    for seat in range(players):
        own = per_viewer[seat]
        for line in logs[seat] - public:
            if len(line) >= 12:
                secrets.setdefault(line, set()).add(seat)
        for text in _sentinels(game, seat, own):
            secrets.setdefault(text, set()).add(seat)
    checked = 0
    for text, allowed in secrets.items():
        encoded = (
            text if text.startswith(('"objective_cards"', '"dev_hand"')) else json.dumps(text)[1:-1]
        )
        # the sentinel is matched as the wire carries it: its owners did receive it so
        assert any(encoded in raw for v in allowed for _, raw in per_viewer[v]), text
        for viewer, frames in per_viewer.items():
            if viewer in allowed:
                continue
            for _, raw in frames:
                checked += 1
                assert encoded not in raw, (
                    f"{text!r} (seats {allowed}) reached {viewer}: {raw[:300]}"
                )
        for viewer, body in bodies:
            if viewer not in allowed:
                assert encoded not in body, f"{text!r} in HTTP to {viewer}"
    print(sorted(secrets)[:12])
    return len(secrets), checked


@pytest.mark.parametrize(
    ("game", "players", "options", "seed"),
    [("island", 3, {"vp_target": 8}, 2024), ("scythe", 2, {}, 2025)],
)
def test_planted_secrets_never_reach_another_seat_or_a_spectator(
    server: ThreadServer, game: str, players: int, options: dict[str, Any], seed: int
) -> None:
    captured, bodies = run(_play(server, game, players, options, seed), timeout=200)
    assert any('"not_finished"' in body for _, body in bodies)  # record, replay before the end
    kinds = {json.loads(raw)["type"] for _, frames in captured for raw in frames}
    assert {"view", "error", "table", "presence"} <= kinds
    secrets, checked = _check(game, players, captured, bodies)
    per_viewer: dict[int | None, list[tuple[dict[str, Any], str]]] = {}
    for viewer, raw_frames in captured:
        per_viewer.setdefault(viewer, []).extend(_before_end(raw_frames))
    entries = _private_fields_stay_with_their_seat(game, per_viewer)
    assert entries > 100, entries
    print(f"{game}: {secrets} sentinels, {checked} frame checks")
    assert secrets >= 5 and checked > 1000, (secrets, checked)
