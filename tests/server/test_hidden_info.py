"""Hidden information on the wire: every message a socket receives is built from its own
seat's observation only (spectators: the public one), and no secret of another seat (hands,
development cards, combat cards, objectives), no seed and no other token ever reaches it.

Every view is compared with the observation of its viewer at that version, rebuilt from the
published record; the kernel's conformance kit proves that those observations hide the other
seats' secrets, so equality here proves the wire adds nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from typing import Any

import httpx
import pytest

from hexfolk.core import MatchRecord, State
from hexfolk.server.client import HexfolkClient, TableConnection
from hexfolk.server.views import log_json
from tests.server.helpers import ThreadServer, play_scripted, quick_choice, run

SEED = 7_349_118_552_907_314_441
SECRET_KEYS = {
    "island": ("players", ("hand", "dev_hand")),
    "scythe": ("player_state", ("hand", "objective_cards")),
}


async def _play(server: ThreadServer, game: str, players: int, options: dict[str, Any]) -> Any:
    clients = [HexfolkClient(server.url) for _ in range(players + 1)]
    try:
        for i, c in enumerate(clients):
            await c.create_player(f"P{i}")
        host = clients[0]
        t = await host.create_table(
            game=game, players=players, options=options, bot_delay=0, seed=SEED
        )
        tid = t["id"]
        for c in clients[1:players]:
            await c.join(tid)
        await host.start(tid)
        watcher = HexfolkClient(server.url)  # anonymous spectator
        conns: list[tuple[int | None, TableConnection]] = []
        async with (
            watcher.connect(tid, spectate=True, keep_raw=True) as spectator,
            clients[0].connect(tid, spectate=True, keep_raw=True) as spectator_tab,
        ):
            async with contextlib.AsyncExitStack() as stack:
                seat_conns = [
                    await stack.enter_async_context(c.connect(tid, keep_raw=True))
                    for c in clients[:players]
                ]
                rng = random.Random(SEED)
                await asyncio.gather(
                    *(play_scripted(conn, quick_choice(rng), timeout=80) for conn in seat_conns)
                )
                await spectator.wait_for(lambda v: v["status"] == "finished")
                await spectator_tab.wait_for(lambda v: v["status"] == "finished")
            conns = [(s, conn) for s, conn in enumerate(seat_conns)]
            conns += [(None, spectator), (None, spectator_tab)]
        await watcher.aclose()
        tokens = [str(c.token) for c in clients]
        return tid, conns, tokens
    finally:
        for c in clients:
            await c.aclose()


def _check(server: ThreadServer, game: str, tid: str, conns: Any, tokens: list[str]) -> int:
    record = MatchRecord.loads(httpx.get(f"{server.url}/api/tables/{tid}/record", timeout=60).text)
    # which (version, viewer) pairs we must rebuild
    wanted: dict[int, set[int | None]] = {}
    messages: list[tuple[int | None, dict[str, Any], str]] = []
    for viewer, conn in conns:
        for raw in conn.received:
            msg = json.loads(raw)
            messages.append((viewer, msg, raw))
            if msg["type"] == "view":
                wanted.setdefault(msg["version"], set()).add(viewer)
    expected: dict[
        tuple[int, int | None],
        tuple[dict[str, Any], list[str], list[str], list[dict[str, str]]],
    ] = {}
    for version, (state, _) in enumerate(record.states()):
        for viewer in wanted.get(version, ()):
            obs = state.observation(viewer)
            log = log_json(obs.pop("log", []))  # the wire's {form, params, text} entries
            legal = (
                [str(a) for a in state.legal_actions_for(viewer)]
                if viewer is not None and viewer in state.acting_seats()
                else []
            )
            refused = _refused(state, viewer)
            if viewer is not None and refused:
                # a reason speaks only of what the seat sees: the same in every world its
                # observation allows (hidden parts redrawn)
                for world in range(2):
                    other = state.sample_consistent_state(
                        viewer, random.Random(version * 7 + world)
                    )
                    assert other.observation(viewer) == state.observation(viewer)
                    assert _refused(other, viewer) == refused, f"a reason leaks at {version}"
            expected[(version, viewer)] = (json.loads(json.dumps(obs)), log, legal, refused)
    field, secret = SECRET_KEYS[game]
    views = 0
    reasons: list[str] = []
    costs = 0
    for viewer, msg, raw in messages:
        assert str(SEED) not in raw, "the seed reached a client"
        assert "full_state" not in raw and "fingerprint" not in raw
        for i, token in enumerate(tokens):
            assert token not in raw, f"player {i}'s token reached a client"
        if msg["type"] != "view":
            continue
        views += 1
        obs, log, legal, refused = expected[(msg["version"], viewer)]
        assert msg["seat"] == viewer
        assert msg["observation"] == obs
        assert msg["log"] == log[msg["log_start"] :]
        assert [e["action"] for e in msg["legal"]] == legal
        assert msg["refused"] == refused
        if viewer is None:
            assert msg["refused"] == [], "a spectator has no buttons to be refused"
        reasons.extend(e["reason"] for e in msg["refused"])
        for e in msg["refused"]:
            if e["action"] == "buy" and e["reason"].startswith("a development card costs"):
                # IR-61: the cost and what the seat holds, as its own observation shows it
                assert e["reason"].startswith(
                    "a development card costs 1 wool, 1 grain and 1 ore; you have "
                ), e["reason"]
                hand = msg["observation"]["players"][viewer]["hand"]
                held = e["reason"].split("; you have ", 1)[1].removesuffix(" (IR-61)")
                for part in held.replace(" and ", ", ").split(", "):
                    k, res = part.split(" ")
                    assert hand[res] == int(k), (e["reason"], hand)
                    assert int(k) < 1  # only what is short is named
                costs += 1
        if msg["status"] == "finished":
            continue  # everything is revealed once the game is over
        for entry in msg["observation"][field]:
            if entry.get("seat") != viewer:
                for key in secret:
                    assert key not in entry, f"seat {entry.get('seat')}'s {key} leaked"
    # the reasons are the engine's own sentences, not the generic one
    assert reasons and not any("legal are e.g." in r for r in reasons)
    if game == "island":
        assert costs > 0, "no view refused a development card for its cost"
    else:  # SR-6: the section used last turn
        assert any("last turn; the token must move to another (SR-6)" in r for r in reasons)
    return views


def _refused(state: State, viewer: int | None) -> list[dict[str, Any]]:
    """The view's ``refused`` rebuilt from the record's state: the standing actions of the
    viewer's seat not legal now, with the engine's reasons (none for spectators)."""
    if viewer is None or state.is_terminal():
        return []
    out = []
    for action in state.standing_actions(viewer):
        reason = state.why_illegal_reason(viewer, action)  # as a sentence and as data
        if reason is not None:
            out.append({"action": str(action), "reason": reason.text, "why": reason.to_json()})
    return out


@pytest.mark.parametrize(
    ("game", "players", "options"),
    [("island", 3, {"vp_target": 8}), ("scythe", 2, {})],
)
def test_no_secret_reaches_another_seat_or_a_spectator(
    server: ThreadServer, game: str, players: int, options: dict[str, Any]
) -> None:
    tid, conns, tokens = run(_play(server, game, players, options), timeout=110)
    views = _check(server, game, tid, conns, tokens)
    assert views > 100
