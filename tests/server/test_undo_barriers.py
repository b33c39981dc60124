"""The undo barriers of issue 25, finding 14 (``hexfolk.server.undo``, ``docs/protocol.md``
"Undo within your own turn"): a seat takes back only its own steps of its own turn, and never
a step another seat has seen change its cards or the public state in a way the rules make
final (Board Game Arena's policy).

Each wire test plays a seeded table through a real server (raw WebSocket clients) to the
moment it needs: the script is found offline first by replaying the room's seeded chance
draws (``make_rng(seed, "chance", seq)``, as in ``test_simultaneous``), then sent step by step.
Before the fix every refused undo here but the Factory look's (a reveal barrier that held
already; its test keeps the wire coverage the combat commitments gave) was offered and taken:
B took back its discard during A's 7, A took back ``complete 1 with 1`` (B's hand changed
back), A took back ``play plenty``, B took back its answer to A's offer, a Scythe mover took
back the step onto an opponent's units and the ``done`` that began the combat. The plain road
and the plain Scythe step pin down that the feature still works.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from typing import Any

import pytest

from hexfolk.core import State, load_game, make_rng
from hexfolk.games.island import final as island_final
from hexfolk.games.scythe import final as scythe_final
from hexfolk.server import reveal_checks
from hexfolk.server import undo as U
from hexfolk.server.client import HexfolkClient, TableConnection
from hexfolk.server.store import Step
from tests.server.helpers import ThreadServer, run
from tests.server.people_tables import connect_all
from tests.server.undo_answer import undo_answer

ISLAND = {"vp_target": 12}
"""A long island game: the scenarios come before anyone could win."""


@dataclass
class Script:
    """The person steps (seat, text) that bring a seeded table to a scenario's moment, the
    state there, and what the scenario found (its seats and actions)."""

    steps: list[tuple[int, str]] = field(default_factory=list)
    state: Any = None
    found: dict[str, Any] = field(default_factory=dict)


Stop = Callable[[State], dict[str, Any] | None]
Policy = Callable[[State, int, list[str], random.Random], str]


def _find(
    game: str, players: int, options: dict[str, Any], stop: Stop, policy: Policy, limit: int
) -> tuple[int, Script]:
    """The first seed (of 1..60) whose game, played by ``policy`` (the lowest acting seat
    moves), reaches a state where ``stop`` finds something within ``limit`` steps."""
    for seed in range(1, 61):
        state = load_game(game, players, options).new_initial_state()
        script = Script()
        rng = random.Random(seed)
        seq = 0
        while not state.is_terminal() and seq < limit:
            seq += 1
            if state.is_chance():
                state.apply(state.sample_chance(make_rng(seed, "chance", seq)))
                continue
            found = stop(state)
            if found is not None:
                script.state, script.found = state, found
                return seed, script
            seat = state.acting_seats()[0]
            legal = [str(a) for a in state.legal_actions_for(seat)]
            text = policy(state, seat, legal, rng)
            state.apply_for(seat, state.parse_action_for(seat, text))
            script.steps.append((seat, text))
    raise AssertionError(f"no seed reaches the {game} scenario")


def _calm(state: State, seat: int, legal: list[str], rng: random.Random) -> str:
    """Never build or trade: hands grow (7s make seats discard, offers can be paid)."""
    for word in ("end", "roll"):
        if word in legal:
            return word
    calm = [a for a in legal if not a.startswith(("offer", "counter", "trade", "buy"))]
    return (calm or legal)[0]


def _buyer(state: State, seat: int, legal: list[str], rng: random.Random) -> str:
    """Buy development cards whenever possible (never play one), else as :func:`_calm`."""
    if "buy" in legal:
        return "buy"
    return _calm(state, seat, [a for a in legal if not a.startswith("play")] or legal, rng)


def _obs(state: State) -> dict[str, Any]:
    return state.observation(None, log=False)


async def _table(
    url: str, game: str, players: int, seed: int, options: dict[str, Any]
) -> tuple[list[HexfolkClient], str]:
    clients = [HexfolkClient(url) for _ in range(players)]
    for i, c in enumerate(clients):
        await c.create_player(f"U{i}")
    t = await clients[0].create_table(
        game=game, players=players, seed=seed, options=options, clock=None
    )
    for c in clients[1:]:
        await c.join(t["id"])
    await clients[0].start(t["id"])
    return clients, str(t["id"])


async def _step(conns: list[TableConnection], seat: int, text: str) -> dict[str, Any]:
    """``seat`` sends ``text`` on the current view; every connection then sees the result."""
    view = conns[seat].view
    assert view is not None
    await conns[seat].act(text, view["version"], ref="s")
    ack = await conns[seat].expect("accepted")
    for c in conns:
        await c.wait_for(lambda v, at=ack["version"]: v["version"] >= at)
    mine = conns[seat].view
    assert mine is not None
    return mine


async def _refused(conn: TableConnection, message: str) -> None:
    """No undo is offered, and a request is refused with ``message``; nothing changes."""
    view = conn.view
    assert view is not None
    assert view["undo"] is None, view["undo"]
    err = await undo_answer(conn, 1)
    assert err["type"] == "error" and err["code"] == "cannot_undo", err
    assert err["message"] == message
    assert err["version"] == view["version"]


async def _play(
    url: str,
    game: str,
    players: int,
    seed: int,
    options: dict[str, Any],
    script: Script,
    then: Callable[[list[TableConnection]], Any],
) -> None:
    clients, tid = await _table(url, game, players, seed, options)
    try:
        async with AsyncExitStack() as stack:
            conns = await connect_all(stack, clients, tid)
            for seat, text in script.steps:
                await _step(conns, seat, text)
            await then(conns)
    finally:
        for c in clients:
            await c.aclose()


# --- the island ----------------------------------------------------------------------------
def _discard_by_another(state: State) -> dict[str, Any] | None:
    obs = _obs(state)
    if obs["phase"] != "discard":
        return None
    others = [q for q in state.acting_seats() if q != obs["active"]]
    return {"seat": others[0], "active": obs["active"]} if others else None


def test_b_cannot_take_back_its_discard_during_a_s_7(server: ThreadServer) -> None:
    """IR-41, finding 14: B's discard during A's 7 is final once sent (before the fix B was
    offered its discard back: ``undoable()`` checked only the turn count)."""
    seed, script = _find("island", 3, ISLAND, _discard_by_another, _calm, 900)
    b = script.found["seat"]

    async def then(conns: list[TableConnection]) -> None:
        view = await conns[b].wait_for(lambda v: True)
        discard = next(e["action"] for e in view["legal"] if e["action"].startswith("discard"))
        await _step(conns, b, discard)
        await _refused(conns[b], U.FINAL.format(why=island_final.DISCARDED))

    run(_play(server.url, "island", 3, seed, ISLAND, script, then), timeout=240)


def _tradeable(state: State) -> dict[str, Any] | None:
    """A's main phase with a listed offer another seat can accept, and a road A can build
    after the trade."""
    obs = _obs(state)
    if obs["phase"] != "main":
        return None
    a = obs["active"]
    for offer in [x for x in state.legal_actions_for(a) if str(x).startswith("offer")][:40]:
        probe = state.clone()
        probe.apply_for(a, offer)
        for b in probe.acting_seats():
            if b == a:
                continue
            accept = [x for x in probe.legal_actions_for(b) if str(x).startswith("accept")]
            if not accept:
                continue
            probe.apply_for(b, accept[0])
            done = f"complete 1 with {b}"
            if done not in [str(x) for x in probe.legal_actions_for(a)]:
                break
            probe.apply_for(a, probe.parse_action_for(a, done))
            roads = [str(x) for x in probe.legal_actions_for(a) if str(x).startswith("road")]
            if roads:
                return {
                    "a": a,
                    "b": b,
                    "offer": str(offer),
                    "accept": str(accept[0]),
                    "complete": done,
                    "road": roads[0],
                }
            break
    return None


def test_a_cannot_take_back_a_completed_trade_but_its_road_after_it(
    server: ThreadServer,
) -> None:
    """IR-50, finding 14: ``complete 1 with B`` changed B's hand, so A cannot take it back;
    a road A builds after it can still be undone (one step, not two), and B's hand is the
    one the trade gave it (before the fix A was offered both steps back)."""
    seed, script = _find("island", 2, ISLAND, _tradeable, _calm, 900)
    f = script.found
    a, b = f["a"], f["b"]

    async def then(conns: list[TableConnection]) -> None:
        await _step(conns, a, f["offer"])
        await _step(conns, b, f["accept"])
        await _refused(conns[b], U.FINAL.format(why=island_final.ANSWERED))
        traded = await _step(conns, a, f["complete"])
        b_view = conns[b].view
        assert b_view is not None
        b_hand = b_view["observation"]["players"][b]
        await _refused(conns[a], U.FINAL.format(why=island_final.TRADED))
        built = await _step(conns, a, f["road"])
        assert built["undo"] == {"steps": 1, "turn": 1, "last": f["road"]}
        err = await undo_answer(conns[a], 2)
        assert err["type"] == "error" and err["message"].startswith("only 1 of your steps")
        assert island_final.TRADED in err["message"]
        done = await undo_answer(conns[a], "turn")
        assert done["type"] == "undone" and done["steps"] == 1
        back = conns[a].view
        assert back is not None and back["legal"] == traded["legal"]
        assert back["observation"]["players"] == traded["observation"]["players"]
        seen = await conns[b].wait_for(lambda v, at=done["version"]: v["version"] >= at)
        assert seen["observation"]["players"][b] == b_hand
        await _refused(conns[a], U.FINAL.format(why=island_final.TRADED))

    run(_play(server.url, "island", 2, seed, ISLAND, script, then), timeout=240)


def _plenty(state: State) -> dict[str, Any] | None:
    obs = _obs(state)
    if obs["phase"] not in ("main", "pre-roll"):
        return None
    a = obs["active"]
    plays = [str(x) for x in state.legal_actions_for(a) if str(x).startswith("play plenty")]
    return {"a": a, "play": plays[0]} if plays else None


def test_a_cannot_take_back_year_of_plenty(server: ThreadServer) -> None:
    """IR-62, IR-65, finding 14: a development card played stays played (before the fix
    ``play plenty ...`` was offered back)."""
    seed, script = _find("island", 2, ISLAND, _plenty, _buyer, 1500)
    a = script.found["a"]

    async def then(conns: list[TableConnection]) -> None:
        played = await _step(conns, a, script.found["play"])
        assert played["acting"] == [a]
        await _refused(conns[a], U.FINAL.format(why=island_final.CARD_PLAYED))

    run(_play(server.url, "island", 2, seed, ISLAND, script, then), timeout=240)


def test_an_answer_in_another_seat_s_turn_stays_and_no_undo_reaches_past_it(
    server: ThreadServer,
) -> None:
    """IR-50, finding 14: B's reject of A's offer is B's step in A's turn: final at once
    (before the fix B was offered it back); A cannot undo past it into what B answered."""
    seed, script = _find("island", 2, ISLAND, _tradeable, _calm, 900)
    f = script.found
    a, b = f["a"], f["b"]

    async def then(conns: list[TableConnection]) -> None:
        offered = await _step(conns, a, f["offer"])
        assert offered["undo"] == {"steps": 1, "turn": 1, "last": f["offer"]}
        view = await conns[b].wait_for(lambda v: True)
        reject = next(e["action"] for e in view["legal"] if e["action"].startswith("reject"))
        await _step(conns, b, reject)
        await _refused(conns[b], U.FINAL.format(why=island_final.ANSWERED))
        await _refused(conns[a], U.OTHER_SEAT)

    run(_play(server.url, "island", 2, seed, ISLAND, script, then), timeout=240)


def _road(state: State) -> dict[str, Any] | None:
    obs = _obs(state)
    if obs["phase"] != "main":
        return None
    a = obs["active"]
    roads = [str(x) for x in state.legal_actions_for(a) if str(x).startswith("road")]
    return {"a": a, "road": roads[0]} if roads else None


def test_a_plain_road_is_still_undoable_in_one_s_own_turn(server: ThreadServer) -> None:
    """The feature still works (finding 14 keeps it): a road built in the main phase is
    offered back and undone, and the view is the one before it."""
    seed, script = _find("island", 2, ISLAND, _road, _calm, 900)
    a = script.found["a"]

    async def then(conns: list[TableConnection]) -> None:
        before = await conns[a].wait_for(lambda v: True)
        built = await _step(conns, a, script.found["road"])
        assert built["undo"] == {"steps": 1, "turn": 1, "last": script.found["road"]}
        done = await undo_answer(conns[a], 1)
        assert done["type"] == "undone" and done["steps"] == 1
        back = conns[a].view
        assert back is not None
        assert back["legal"] == before["legal"] and back["observation"] == before["observation"]

    run(_play(server.url, "island", 2, seed, ISLAND, script, then), timeout=240)


# --- Scythe --------------------------------------------------------------------------------
def _random(state: State, seat: int, legal: list[str], rng: random.Random) -> str:
    """A random step; never a combat card bolster or objective reveal (chance, finality)."""
    calm = [a for a in legal if a not in ("bolster cards",) and not a.startswith("reveal")]
    return rng.choice(calm or legal)


def _steps(state: State) -> tuple[int, list[str], list[str]] | None:
    """At a Scythe step prompt: the seat, its steps into an opponent's territory and its
    plain steps (those the rules leave undoable)."""
    seat = state.current_player()
    if seat < 0 or state.simultaneous_seats():
        return None
    prompt = state.prompt_for(seat)
    if prompt is None or prompt.kind != "step":
        return None
    into, plain = [], []
    for x in state.legal_actions_for(seat):
        if not str(x).startswith("to "):
            continue
        why = state.why_final(seat, x)
        probe = state.clone()
        probe.apply_for(seat, x)
        if why == scythe_final.ENTERED:
            into.append(str(x))
        elif why is None and not probe.is_chance() and probe.turn_count() == state.turn_count():
            plain.append(str(x))
    return seat, into, plain


def test_scythe_a_step_into_an_opponent_is_final_a_plain_step_is_undoable(
    server: ThreadServer,
) -> None:
    """SR-31, SR-43, finding 14: the step that brings a character or mech onto an opponent's
    units (a combat follows, or their workers go home) cannot be taken back (before the fix
    it was offered back); a plain step of the same game's turns still can."""

    def stop(state: State) -> dict[str, Any] | None:
        found = _steps(state)
        if found is None or not found[1]:
            return None
        return {"seat": found[0], "into": found[1][0]}

    seed, script = _find("scythe", 2, {}, stop, _random, 1500)
    # the last plain step the script took: replay to it and undo it there
    plain_at = None
    state = load_game("scythe", 2, {}).new_initial_state()
    seq = 0
    k = 0
    while k < len(script.steps):
        seq += 1
        if state.is_chance():
            state.apply(state.sample_chance(make_rng(seed, "chance", seq)))
            continue
        found = _steps(state)
        seat, text = script.steps[k]
        if found is not None and text in found[2]:
            plain_at = k
        state.apply_for(seat, state.parse_action_for(seat, text))
        k += 1
    assert plain_at is not None, "the script takes a plain step before"
    mover = script.found["seat"]

    async def then(conns: list[TableConnection]) -> None:
        entered = await _step(conns, mover, script.found["into"])
        assert entered["undo"] is None
        await _refused(conns[mover], U.FINAL.format(why=scythe_final.ENTERED))

    async def plain(conns: list[TableConnection]) -> None:
        seat, text = script.steps[plain_at]
        before = await conns[seat].wait_for(lambda v: True)
        stepped = await _step(conns, seat, text)
        assert stepped["undo"] is not None and stepped["undo"]["last"] == text
        done = await undo_answer(conns[seat], 1)
        assert done["type"] == "undone" and done["steps"] == 1
        back = conns[seat].view
        assert back is not None
        assert back["legal"] == before["legal"] and back["observation"] == before["observation"]

    prefix = Script(steps=script.steps[:plain_at])
    run(_play(server.url, "scythe", 2, seed, {}, prefix, plain), timeout=300)
    run(_play(server.url, "scythe", 2, seed, {}, script, then), timeout=300)


def _into_combat(state: State) -> dict[str, Any] | None:
    """A step of a character or mech onto an opponent's character or mech (SR-31)."""
    found = _steps(state)
    if found is None:
        return None
    seat = found[0]
    for text in found[1]:
        probe = state.clone()
        probe.apply_for(seat, state.parse_action_for(seat, text))
        # the opponent's units are still there after the step: a combat follows the move
        if len(_fighters(probe, seat)) > len(_fighters(state, seat)):
            return {"seat": seat, "into": text}
    return None


def _fighters(state: State, seat: int) -> list[str]:
    """The territories where ``seat``'s character or mechs share a territory with another
    player's character or mechs (from the spectator's view of the board)."""
    board = state.observation(None, log=False)["board"]
    out = []
    for loc, there in board.items():
        units = there.get("units", {})
        owners = {int(q) for q, u in units.items() if u["character"] or u["mechs"]}
        if seat in owners and len(owners) > 1:
            out.append(loc)
    return out


def test_scythe_the_move_that_starts_a_combat_is_final(server: ThreadServer) -> None:
    """SR-31, SR-43, finding 14: the step onto an opponent's character or mech cannot be
    taken back (before the fix it was offered back); when the move then ends, the combat
    begins and that step cannot be taken back either: the defender is asked to commit."""
    seed, script = _find("scythe", 2, {}, _into_combat, _random, 2500)
    mover = script.found["seat"]

    async def then(conns: list[TableConnection]) -> None:
        entered = await _step(conns, mover, script.found["into"])
        await _refused(conns[mover], U.FINAL.format(why=scythe_final.ENTERED))
        kinds = {(entered["observation"].get("prompt") or {}).get("kind")}
        if "commit" not in kinds and "artillery" not in kinds:
            legal = [e["action"] for e in entered["legal"]]
            assert "done" in legal, legal
            begun = await _step(conns, mover, "done")
            kinds = {(begun["observation"].get("prompt") or {}).get("kind")}
            await _refused(conns[mover], U.FINAL.format(why=scythe_final.COMBAT_BEGUN))
        assert kinds & {"commit", "artillery", "choose-combat"}, kinds

    run(_play(server.url, "scythe", 2, seed, {}, script, then), timeout=300)


# --- the walk back, barrier 5 ----------------------------------------------------------------
def _st(seq: int, seat: int | None, turn: int, **flags: Any) -> Step:
    return Step(
        seq, "action" if seat is not None else "chance", seat, f"s{seq}", turn=turn, **flags
    )


def test_a_final_step_stays_and_only_the_steps_after_it_go() -> None:
    """Barrier 5 of ``undo.undoable``: the final step itself is never counted; the refusal
    names the game's reason."""
    steps = [_st(1, None, 5), _st(2, 0, 5), _st(3, 0, 5, final="played"), _st(4, 0, 5)]
    u = U.undoable(steps, [s.turn for s in steps], 0, 5)
    assert (u.steps, u.reason) == (1, U.FINAL.format(why="played"))
    u = U.undoable(steps[:3], [s.turn for s in steps[:3]], 0, 5)
    assert (u.steps, u.reason) == (0, U.FINAL.format(why="played"))


def test_final_reason_on_real_states_of_both_games() -> None:
    """``undo.final_reason`` on states of real games: every decision given at once with other
    seats is final (the engines' sentence first, ``AT_ONCE`` otherwise); every step of the
    active seat it leaves undoable changes no other seat's hand (island) or holdings and
    starts no combat (Scythe)."""
    seen: dict[str, set[str | None]] = {"island": set(), "scythe": set()}
    for game, players in (("island", 3), ("scythe", 2)):
        for g in range(4):
            rng = random.Random(g)
            state = load_game(game, players, {}).new_initial_state()
            for _ in range(1500):
                if state.is_terminal():
                    break
                if state.is_chance():
                    state.apply(state.sample_chance(rng))
                    continue
                seat = rng.choice(state.acting_seats())
                action = rng.choice(state.legal_actions_for(seat))
                why = U.final_reason(state, seat, action)
                seen[game].add(why)
                if seat in state.simultaneous_seats():
                    assert why is not None, (game, str(action))
                if why is None:
                    others = [q for q in range(players) if q != seat]
                    before = [_public(state, q) for q in others]
                    probe = state.clone()
                    probe.apply_for(seat, action)
                    if not probe.is_chance():
                        assert [_public(probe, q) for q in others] == before, str(action)
                    if game == "scythe" and probe.prompt() is not None:
                        assert probe.prompt().kind not in ("commit", "choose-combat", "artillery")  # type: ignore[union-attr]
                state.apply_for(seat, action)
    assert {island_final.ANSWERED, island_final.TRADED, island_final.ROBBER_MOVED} <= seen["island"]
    assert None in seen["island"] and None in seen["scythe"]
    assert scythe_final.OTHERS_CHANGED in seen["scythe"]


def _public(state: State, q: int) -> Any:
    """Seat ``q``'s own view of what it holds: island, its cards; Scythe, its tracks, coins,
    combat cards, stars and mechs."""
    obs = state.observation(q, log=False)
    if obs["game"] == "island":
        mine = obs["players"][q]
        return [mine[k] for k in ("cards", "hand", "dev_cards", "dev_hand")]
    mine = obs["player_state"][q]
    keys = ("power", "popularity", "coins", "star_total", "combat_cards", "hand", "mechs")
    return [mine[k] for k in keys]


def _factory_look(state: State) -> dict[str, Any] | None:
    """A step of the active seat, undoable by the rules, that brings its character to the
    Factory offer (SR-48): it shows the seat the offer's hidden cards."""
    seat = state.current_player()
    if seat < 0 or state.simultaneous_seats():
        return None
    for x in state.legal_actions_for(seat):
        if state.why_final(seat, x) is not None:
            continue
        probe = state.clone()
        probe.apply_for(seat, x)
        prompt = probe.prompt()
        if prompt is not None and prompt.kind == "factory-offer":
            return {"seat": seat, "look": str(x)}
    return None


@pytest.mark.parametrize("path", ["checked", "settled"])
def test_scythe_the_factory_look_is_a_reveal_barrier(
    server: ThreadServer, monkeypatch: pytest.MonkeyPatch, path: str
) -> None:
    """Barrier 6 over the wire (SR-48): the step that shows the mover the Factory offer is
    no final step by the rules, but it showed hidden cards, so it cannot be taken back.
    ``checked``: the reveal check, run after the view went out, withdraws the offer and the
    undo is refused with the reveal's sentence; ``settled``: the undo comes before any check
    (held back here) and the room settles it then, with the same refusal and a corrected
    view. (The combat commitments, which covered this path before, are final at once now.)"""
    if path == "settled":
        monkeypatch.setattr(reveal_checks, "REVEAL_CHECK_DELAY", 600.0)
    seed, script = _find("scythe", 2, {}, _factory_look, _random, 1500)
    seat, look = script.found["seat"], script.found["look"]
    assert script.state.reveals_to(
        seat, script.state.parse_action_for(seat, look), random.Random(1)
    )

    async def then(conns: list[TableConnection]) -> None:
        looked = await _step(conns, seat, look)
        assert looked["undo"] is not None and looked["undo"]["last"] == look  # not yet known
        if path == "checked":
            fixed = await conns[seat].wait_for(lambda v: v["undo"] is None, timeout=20)
            assert fixed["version"] == looked["version"]
        err = await undo_answer(conns[seat], 1)
        assert err["type"] == "error" and err["code"] == "cannot_undo"
        assert err["message"] == U.REVEALED
        fixed = await conns[seat].wait_for(lambda v: v["undo"] is None, timeout=20)
        assert fixed["version"] == looked["version"]

    run(_play(server.url, "scythe", 2, seed, {}, script, then), timeout=300)
