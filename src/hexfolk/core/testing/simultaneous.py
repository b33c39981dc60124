"""Several seats at once: every arrival order of a simultaneous decision gives the same game.

Along random playouts (the games :func:`.play_random` plays), at every node where
``simultaneous_seats()`` names two or more seats, :func:`check_simultaneous`:

1. checks the contract there: ``current_player()`` is one of ``acting_seats()``, every
   simultaneous seat is acting, ``legal_actions_for(current_player())`` is ``legal_actions()``,
   every listed action of every acting seat parses back with ``parse_action_for``, and a seat
   that is not acting has no legal actions (and ``apply_for`` refuses it);
2. draws for each simultaneous seat a random *run* of its own steps (taken on a copy where only
   that seat acts) until it has no decision left in the group;
3. interleaves the runs in several orders (seat order, reversed, random interleavings), applies
   each with ``apply_for`` on a clone, and requires every order to be legal step by step and to
   end in the same state: the same fingerprint, acting seats, seat to move and legal actions of
   every acting seat;
4. writes one out-of-order interleaving as a match record (:meth:`MatchRecord.from_steps`,
   ``"@<seat> ..."`` entries), round-trips it through JSON and replays it to the same state;
5. for prompts whose kind is in ``secret_prompts`` (e.g. ``discard``, ``commit``): two different
   runs of one seat leave every other seat's and the spectator's observation unchanged while
   the group is still waiting for someone (nothing shows before the reveal).
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterable, Sequence

from hexfolk.core.actions import Action
from hexfolk.core.errors import ActionError, IllegalActionError, RecordError
from hexfolk.core.game import Game, State
from hexfolk.core.record import MatchRecord, record_entry, replay
from hexfolk.core.rng import make_rng
from hexfolk.core.testing.checks import ConformanceError, _first_difference, play_random

Step = tuple[int, Action]
_MAX_RUN = 200


def check_simultaneous(
    game: Game,
    seeds: Iterable[int],
    *,
    orders: int = 4,
    turn_cap: int | None = None,
    max_nodes: int | None = 40,
    secret_prompts: Collection[str] = (),
    require: bool = True,
) -> int:
    """Check arrival-order independence at the simultaneous decisions of random playouts.

    ``orders`` random interleavings are tried besides seat order and reversed seat order;
    ``max_nodes`` caps the simultaneous nodes checked per seed (None: all). With ``require``,
    finding no simultaneous decision at all in the playouts is an error (a check that cannot
    fail is a defect). Returns the number of nodes checked.
    """
    checked = 0
    for seed in seeds:
        result = play_random(game, seed, turn_cap=turn_cap)
        state = game.new_initial_state()
        history: list[str] = []
        done_here = 0
        for step, action in enumerate(result.actions):
            if max_nodes is None or done_here < max_nodes:
                group = state.simultaneous_seats()
                if len(group) >= 2:
                    where = f"{game.id} seed {seed} step {step}"
                    rng = make_rng(seed, "simultaneous", step)
                    _check_node(game, state, group, history, rng, orders, secret_prompts, where)
                    done_here += 1
                    checked += 1
            history.append(str(action))
            state.apply(action)
    if require and not checked:
        raise ConformanceError(f"{game.id}: no simultaneous decision in the playouts checked")
    return checked


def _check_node(
    game: Game,
    state: State,
    group: list[int],
    history: Sequence[str],
    rng: random.Random,
    orders: int,
    secret_prompts: Collection[str],
    where: str,
) -> None:
    _check_contract(game, state, group, where)
    runs = {seat: _run(state, seat, rng, where) for seat in group}
    interleavings = [
        [step for seat in group for step in runs[seat]],
        [step for seat in reversed(group) for step in runs[seat]],
    ]
    interleavings.extend(_shuffle_runs(runs, rng) for _ in range(orders))
    reference: tuple[str, State] | None = None
    for steps in interleavings:
        final = _apply_steps(state, steps, where)
        if reference is None:
            reference = (_describe(steps), final)
            continue
        _same(reference[1], final, f"{where}: {reference[0]} vs {_describe(steps)}")
    assert reference is not None
    _check_record(game, state, history, interleavings[1], reference[1], where)
    _check_secrets(state, group, runs, rng, secret_prompts, where)


def _check_contract(game: Game, state: State, group: list[int], where: str) -> None:
    acting = state.acting_seats()
    player = state.current_player()
    if player not in acting:
        raise ConformanceError(f"{where}: current_player() {player} is not in {acting}")
    if acting != sorted(acting) or len(set(acting)) != len(acting):
        raise ConformanceError(f"{where}: acting_seats() {acting} is not in seat order")
    if any(seat not in acting for seat in group):
        raise ConformanceError(f"{where}: simultaneous seats {group} are not all in {acting}")
    if [str(a) for a in state.legal_actions_for(player)] != [str(a) for a in state.legal_actions()]:
        raise ConformanceError(f"{where}: legal_actions_for(current_player()) != legal_actions()")
    for seat in range(game.num_players):
        legal = state.legal_actions_for(seat)
        if seat not in acting:
            if legal:
                raise ConformanceError(f"{where}: seat {seat} is not acting but has legal actions")
            continue
        if not legal:
            raise ConformanceError(f"{where}: acting seat {seat} has no legal action")
        for action in legal:
            try:
                parsed = state.parse_action_for(seat, str(action))
            except ActionError as exc:
                raise ConformanceError(
                    f"{where}: seat {seat}'s {action!s} does not parse for it: {exc}"
                ) from None
            if parsed != action:
                raise ConformanceError(f"{where}: seat {seat}'s {action!s} parses to {parsed!s}")
    idle = [s for s in range(game.num_players) if s not in acting]
    if idle and state.legal_actions_for(group[0]):
        probe = state.clone()
        try:
            probe.apply_for(idle[0], state.legal_actions_for(group[0])[0])
        except IllegalActionError:
            pass
        else:
            raise ConformanceError(f"{where}: apply_for accepted a step of idle seat {idle[0]}")


def _run(state: State, seat: int, rng: random.Random, where: str) -> list[Step]:
    """Random steps of ``seat`` alone until it leaves the simultaneous group."""
    copy = state.clone()
    steps: list[Step] = []
    while seat in copy.simultaneous_seats():
        legal = copy.legal_actions_for(seat)
        if not legal:
            raise ConformanceError(f"{where}: simultaneous seat {seat} has no legal action")
        action = legal[int(rng.random() * len(legal))]
        copy.apply_for(seat, action)
        steps.append((seat, action))
        if len(steps) > _MAX_RUN:
            raise ConformanceError(f"{where}: seat {seat} never leaves the simultaneous group")
    if not steps:
        raise ConformanceError(f"{where}: seat {seat} is simultaneous but takes no step")
    return steps


def _shuffle_runs(runs: dict[int, list[Step]], rng: random.Random) -> list[Step]:
    """A random interleaving that keeps each seat's own steps in order."""
    queue = [seat for seat, run in runs.items() for _ in run]
    rng.shuffle(queue)
    pos = dict.fromkeys(runs, 0)
    out: list[Step] = []
    for seat in queue:
        out.append(runs[seat][pos[seat]])
        pos[seat] += 1
    return out


def _apply_steps(state: State, steps: Sequence[Step], where: str) -> State:
    copy = state.clone()
    for i, (seat, action) in enumerate(steps):
        try:
            copy.apply_for(seat, action)
        except ActionError as exc:
            raise ConformanceError(
                f"{where}: in the order {_describe(steps)}, step {i} (seat {seat}: {action!s}) "
                f"is refused after the others' steps: {exc}"
            ) from None
    return copy


def _describe(steps: Sequence[Step]) -> str:
    return "[" + ", ".join(f"{seat}:{action!s}" for seat, action in steps) + "]"


def _same(a: State, b: State, where: str) -> None:
    if a.fingerprint() != b.fingerprint():
        raise ConformanceError(
            f"{where}: arrival orders end in different states:\n"
            f"{_first_difference(a.full_state(), b.full_state())}"
        )
    if a.acting_seats() != b.acting_seats() or a.current_player() != b.current_player():
        raise ConformanceError(f"{where}: arrival orders end with different seats to act")
    for seat in a.acting_seats():
        mine, theirs = a.legal_actions_for(seat), b.legal_actions_for(seat)
        if [str(x) for x in mine] != [str(x) for x in theirs]:
            raise ConformanceError(
                f"{where}: arrival orders end with different legal actions for seat {seat}"
            )


def _check_record(
    game: Game,
    state: State,
    history: Sequence[str],
    steps: Sequence[Step],
    expected: State,
    where: str,
) -> None:
    """The history plus an out-of-order arrival, as a record, replays to the same state."""
    try:
        record = MatchRecord.from_steps(
            game,
            0,
            [*((None, text) for text in history), *((seat, str(a)) for seat, a in steps)],
        )
        again = MatchRecord.loads(record.dumps())
        final = replay(again, game=game)
    except (RecordError, ActionError) as exc:
        raise ConformanceError(f"{where}: a record with out-of-order arrivals: {exc}") from None
    if final.fingerprint() != expected.fingerprint():
        raise ConformanceError(f"{where}: a record with out-of-order arrivals replays elsewhere")
    probe = state.clone()
    for i, (seat, action) in enumerate(steps):
        entry = record.actions[len(history) + i]
        if entry != record_entry(probe, seat, action):
            raise ConformanceError(f"{where}: entry {entry!r} for seat {seat} is not marked right")
        probe.apply_for(seat, action)


def _check_secrets(
    state: State,
    group: list[int],
    runs: dict[int, list[Step]],
    rng: random.Random,
    secret_prompts: Collection[str],
    where: str,
) -> None:
    """Another run of a seat with a secret decision looks the same to everyone else."""
    if not secret_prompts:
        return
    n = state.game.num_players
    for seat in group:
        prompt = state.prompt_for(seat)
        if prompt is None or prompt.kind not in secret_prompts:
            continue
        other_run = _run(state, seat, rng, where)
        if [str(a) for _, a in other_run] == [str(a) for _, a in runs[seat]]:
            continue
        first = _apply_steps(state, runs[seat], where)
        second = _apply_steps(state, other_run, where)
        waiting = [s for s in group if s != seat and s in first.acting_seats()]
        if not waiting or waiting != [s for s in group if s != seat and s in second.acting_seats()]:
            continue  # the group is complete: revealed
        for viewer in [None, *range(n)]:
            if viewer == seat:
                continue
            mine, theirs = first.observation(viewer), second.observation(viewer)
            if mine != theirs:
                raise ConformanceError(
                    f"{where}: seat {seat}'s secret {prompt.kind} choice shows to "
                    f"{'the spectator' if viewer is None else f'seat {viewer}'} before the "
                    f"reveal:\n{_first_difference(mine, theirs)}"
                )
