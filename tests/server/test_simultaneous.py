"""Several seats at once over the wire: two seats discard after a 7 with the same version;
the second arrives stamped with an older version and is accepted, because its decision did
not change (the lichess/boardgame.io stale-state check, relaxed for simultaneous decisions)."""

from __future__ import annotations

from typing import Any

from hexfolk.core import load_game, make_rng
from hexfolk.server.client import HexfolkClient
from tests.server.helpers import ThreadServer, run

PLAYERS = 3
OPTIONS = {"vp_target": 8}


def _policy(legal: list[str]) -> str:
    """Never build or trade: hands grow until a 7 makes several seats discard."""
    for word in ("end", "roll"):
        for a in legal:
            if a == word:
                return a
    calm = [a for a in legal if not a.startswith(("offer", "counter", "trade", "buy"))]
    return (calm or legal)[0]


def _find_seed() -> tuple[int, int]:
    """A seed whose game (the server's chance streams, this policy) reaches a moment where
    two seats owe a decision at once; returns (seed, version)."""
    for seed in range(1, 400):
        state = load_game("island", PLAYERS, OPTIONS).new_initial_state()
        steps = 0
        while not state.is_terminal() and steps < 600:
            if state.is_chance():
                state.apply(state.sample_chance(make_rng(seed, "chance", steps + 1)))
                steps += 1
                continue
            acting = state.acting_seats()
            if len(acting) >= 2:
                return seed, steps
            seat = acting[0]
            legal = [str(a) for a in state.legal_actions_for(seat)]
            state.apply_for(seat, state.parse_action_for(seat, _policy(legal)))
            steps += 1
    raise AssertionError("no seed reaches simultaneous decisions")


def test_a_raced_discard_with_an_older_version_is_accepted(server: ThreadServer) -> None:
    seed, at_version = _find_seed()

    async def scenario() -> dict[str, Any]:
        clients = [HexfolkClient(server.url) for _ in range(PLAYERS)]
        for i, c in enumerate(clients):
            await c.create_player(f"S{i}")
        t = await clients[0].create_table(
            game="island", players=PLAYERS, options=OPTIONS, clock=None, seed=seed
        )
        for c in clients[1:]:
            await c.join(t["id"])
        await clients[0].start(t["id"])
        async with (
            clients[0].connect(t["id"]) as c0,
            clients[1].connect(t["id"]) as c1,
            clients[2].connect(t["id"]) as c2,
        ):
            conns = [c0, c1, c2]
            while True:
                view = await c0.wait_for(lambda v: True)
                if len(view["acting"]) >= 2:
                    break
                seat = view["acting"][0]
                mine = await conns[seat].wait_for(
                    lambda v, ver=view["version"]: v["version"] == ver
                )
                await conns[seat].act(
                    _policy([e["action"] for e in mine["legal"]]), mine["version"]
                )
                await conns[seat].expect("accepted")
                await c0.wait_for(lambda v, ver=view["version"]: v["version"] > ver)
            assert view["version"] == at_version
            a, b = view["acting"][:2]
            va = await conns[a].wait_for(lambda v: v["version"] == at_version)
            vb = await conns[b].wait_for(lambda v: v["version"] == at_version)
            # both answer the same version; the second one arrives after the first landed
            await conns[a].act(va["legal"][0]["action"], at_version, ref="first")
            first = await conns[a].expect("accepted")
            await conns[b].act(vb["legal"][0]["action"], at_version, ref="second")
            second = await conns[b].expect("accepted")
            assert first["version"] == at_version + 1
            assert second["version"] > first["version"]
            for c in clients:
                await c.aclose()
            return dict(t)

    table = run(scenario())
    assert table["id"]
