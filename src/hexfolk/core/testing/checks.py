"""Playout, determinism, record and hidden-information checks."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from hexfolk.core.actions import Action
from hexfolk.core.bot import Observation
from hexfolk.core.errors import ActionError, RecordError
from hexfolk.core.game import CHANCE, TERMINAL, Game, State
from hexfolk.core.match import Match, MatchResult
from hexfolk.core.record import MatchRecord, replay
from hexfolk.core.rng import make_rng

PlantSentinel = Callable[[State, int, str], "State | None"]


class ConformanceError(AssertionError):
    """A game broke the kernel contract; the message says where and how."""


class _RandomBot:
    name = "random"

    def choose(
        self, observation: Observation, legal: Sequence[Action], rng: random.Random
    ) -> Action:
        return legal[int(rng.random() * len(legal))]


def play_random(game: Game, seed: int, *, turn_cap: int | None = None) -> MatchResult:
    """One game between random bots (the runner's seeded streams)."""
    bots = [_RandomBot() for _ in range(game.num_players)]
    return Match(game, bots, seed, turn_cap=turn_cap, check_legal=True).run()


def _walk(
    game: Game, seed: int, turn_cap: int | None = None
) -> Iterable[tuple[int, State, Action]]:
    """Replay a random game step by step, yielding ``(step, state_before, action)``."""
    result = play_random(game, seed, turn_cap=turn_cap)
    state = game.new_initial_state()
    for step, action in enumerate(result.actions):
        yield step, state, action
        state.apply(action)


def _json(value: Any, what: str) -> str:
    try:
        return json.dumps(value, sort_keys=True)
    except (TypeError, ValueError) as exc:
        raise ConformanceError(f"{what} is not plain JSON: {exc}") from None


def _check_step(game: Game, state: State, step: int, deep: bool) -> None:
    player = state.current_player()
    where = f"{game.id} step {step}"
    if player == CHANCE:
        outcomes = state.chance_outcomes()
        if outcomes:
            total = sum(p for _, p in outcomes)
            if abs(total - 1.0) > 1e-9:
                raise ConformanceError(f"{where}: chance probabilities sum to {total}")
            if any(p <= 0 for _, p in outcomes):
                raise ConformanceError(f"{where}: a chance outcome has probability <= 0")
            for outcome, _ in outcomes:
                _check_notation(game, outcome, where)
        if state.legal_actions():
            raise ConformanceError(f"{where}: a chance node lists legal actions")
    elif player >= 0:
        legal = state.legal_actions()
        if not legal:
            raise ConformanceError(f"{where}: seat {player} is to move but has no legal action")
        again = state.legal_actions()
        if [str(a) for a in legal] != [str(a) for a in again]:
            raise ConformanceError(f"{where}: legal_actions() order is not deterministic")
        if len(set(legal)) != len(legal):
            raise ConformanceError(f"{where}: legal_actions() lists an action twice")
        for action in legal:
            _check_notation(game, action, where)
            parsed = state.parse_action(str(action))
            if parsed != action:
                raise ConformanceError(f"{where}: {action!s} parses to a different action")
    if not deep:
        return
    before = state.fingerprint()
    copy = state.clone()
    if copy.fingerprint() != before:
        raise ConformanceError(f"{where}: clone() has a different fingerprint")
    if copy.current_player() >= 0:
        copy.apply(copy.legal_actions()[-1])
    elif copy.current_player() == CHANCE:
        copy.apply(copy.sample_chance(make_rng(step, "clone-check")))
    if state.fingerprint() != before:
        raise ConformanceError(f"{where}: applying to a clone changed the original")
    for seat in [None, *range(game.num_players)]:
        view = state.observation(seat)
        _json(view, f"{where}: observation({seat})")
        lean = {**view, "log": []} if "log" in view else view
        if state.observation(seat, log=False) != lean:
            raise ConformanceError(
                f"{where}: observation({seat}, log=False) is not the view with an empty log"
            )
        if seat is not None and seat not in state.acting_seats() and state.legal_actions_for(seat):
            raise ConformanceError(f"{where}: seat {seat} is not to move but has legal actions")
    _json(state.full_state(), f"{where}: full_state()")


def _check_notation(game: Game, action: Action, where: str) -> None:
    text = str(action)
    try:
        parsed = game.parse_action_syntax(text)
    except ActionError as exc:
        raise ConformanceError(f"{where}: {text!r} does not parse: {exc}") from None
    if parsed != action:
        raise ConformanceError(f"{where}: {text!r} parses to {parsed!r}, not {action!r}")


def check_random_playouts(
    game: Game, seeds: Iterable[int], *, turn_cap: int | None = None, deep_every: int = 7
) -> list[MatchResult]:
    """Random games that end (or reach the cap), checking the contract at every step."""
    results = []
    for seed in seeds:
        result = play_random(game, seed, turn_cap=turn_cap)
        if not result.finished and result.state.current_player() == TERMINAL:
            raise ConformanceError(f"seed {seed}: capped game is terminal")
        state = game.new_initial_state()
        for step, action in enumerate(result.actions):
            _check_step(game, state, step, deep=step % deep_every == 0)
            state.apply(action)
        if state.fingerprint() != result.state.fingerprint():
            raise ConformanceError(f"seed {seed}: replaying the actions gives another state")
        try:
            replayed = replay(result.record, game=game)
        except (RecordError, ActionError) as exc:
            raise ConformanceError(f"seed {seed}: the record does not replay: {exc}") from None
        if replayed.fingerprint() != state.fingerprint():
            raise ConformanceError(f"seed {seed}: the record replays to another state")
        if result.finished:
            if not state.is_terminal():
                raise ConformanceError(f"seed {seed}: finished game is not terminal")
            returns = state.returns()
            if len(returns) != game.num_players:
                raise ConformanceError(f"seed {seed}: returns() has the wrong length")
            _json(state.summary(), f"seed {seed}: summary()")
        results.append(result)
    return results


def check_determinism(game: Game, seed: int, *, turn_cap: int | None = None) -> None:
    """Same game, options and seed twice: identical records and final fingerprints."""
    a = play_random(game, seed, turn_cap=turn_cap)
    b = play_random(game, seed, turn_cap=turn_cap)
    if a.record.actions != b.record.actions:
        first = next(
            (i for i, (x, y) in enumerate(zip(a.record.actions, b.record.actions)) if x != y),
            min(len(a.record.actions), len(b.record.actions)),
        )
        raise ConformanceError(f"seed {seed}: two runs differ first at step {first}")
    if a.state.fingerprint() != b.state.fingerprint():
        raise ConformanceError(f"seed {seed}: same actions but different final fingerprints")


def check_record_roundtrip(game: Game, seed: int, *, turn_cap: int | None = None) -> None:
    """Record -> JSON -> record -> replay is the same game; tampering is detected."""
    result = play_random(game, seed, turn_cap=turn_cap)
    text = result.record.dumps()
    again = MatchRecord.loads(text)
    if again.dumps() != text:
        raise ConformanceError(f"seed {seed}: record JSON does not round-trip")
    try:
        final = replay(again, game=game)
    except (RecordError, ActionError) as exc:
        raise ConformanceError(f"seed {seed}: record does not replay: {exc}") from None
    if final.fingerprint() != result.state.fingerprint():
        raise ConformanceError(f"seed {seed}: replay ends in another state")
    if len(again.actions) < 2:
        return
    # Tampering: change one action to another legal one, or drop the last one.
    tampered = MatchRecord.loads(text)
    tampered.actions = tampered.actions[:-1]
    try:
        replay(tampered, game=game)
    except RecordError:
        pass
    else:
        raise ConformanceError(f"seed {seed}: a record missing its last action still verifies")


def check_action_notation(game: Game, seeds: Iterable[int]) -> None:
    """``game.parse_action_syntax(str(a)) == a`` for every legal action and chance outcome seen."""
    for seed in seeds:
        for step, state, _ in _walk(game, seed):
            where = f"{game.id} seed {seed} step {step}"
            for action in state.legal_actions():
                _check_notation(game, action, where)
            if state.is_chance():
                for outcome, _ in state.chance_outcomes():
                    _check_notation(game, outcome, where)


def check_hidden_information(
    game: Game,
    seeds: Iterable[int],
    *,
    plant_sentinel: PlantSentinel | None = None,
    every: int = 5,
    turn_cap: int | None = None,
) -> None:
    """Sampled worlds look the same to the seat; planted secrets never show to others."""
    sentinel = "SENTINEL-7f3a9c"
    seats = list(range(game.num_players))
    for seed in seeds:
        rng = make_rng(seed, "hidden-information")
        for step, state, _ in _walk(game, seed, turn_cap):
            if step % every:
                continue
            where = f"{game.id} seed {seed} step {step}"
            if plant_sentinel is not None:
                for seat in seats:
                    planted = plant_sentinel(state.clone(), seat, sentinel)
                    if planted is None:
                        continue
                    for other in [*seats, None]:
                        if other == seat:
                            continue
                        if sentinel in _json(planted.observation(other), where):
                            raise ConformanceError(
                                f"{where}: seat {seat}'s secret shows in the view of "
                                f"{'the spectator' if other is None else f'seat {other}'}"
                            )
            for viewer in [*seats, None]:
                mine = state.observation(viewer)
                world = state.sample_consistent_state(viewer, rng)
                if world.observation(viewer) != mine:
                    raise ConformanceError(
                        f"{where}: a sampled world looks different to viewer {viewer}:\n"
                        f"{_first_difference(mine, world.observation(viewer))}"
                    )
                if world.current_player() != state.current_player():
                    raise ConformanceError(f"{where}: sampled world has another seat to move")
                if (
                    viewer is not None
                    and state.current_player() == viewer
                    and (
                        [str(a) for a in world.legal_actions()]
                        != [str(a) for a in state.legal_actions()]
                    )
                ):
                    raise ConformanceError(
                        f"{where}: seat {viewer} has other legal actions in a sampled world"
                    )
                _play_on(world, rng, where)


def _play_on(world: State, rng: Any, where: str, steps: int = 3) -> None:
    """A sampled world must be a real state: a few legal steps must apply cleanly."""
    for _ in range(steps):
        player = world.current_player()
        if player == TERMINAL:
            return
        if player == CHANCE:
            action = world.sample_chance(rng)
        else:
            legal = world.legal_actions()
            if not legal:
                raise ConformanceError(f"{where}: a sampled world has no legal action")
            action = legal[int(rng.random() * len(legal))]
        try:
            world.apply(action)
        except ActionError as exc:
            raise ConformanceError(f"{where}: a sampled world does not play on: {exc}") from None


def _first_difference(a: Any, b: Any, path: str = "") -> str:
    if type(a) is not type(b):
        return f"{path or '/'}: {a!r} != {b!r}"
    if isinstance(a, dict):
        for key in sorted(set(a) | set(b), key=str):
            if a.get(key) != b.get(key):
                return _first_difference(a.get(key), b.get(key), f"{path}/{key}")
    if isinstance(a, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return _first_difference(x, y, f"{path}[{i}]")
    return f"{path or '/'}: {a!r} != {b!r}"
