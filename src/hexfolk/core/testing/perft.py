"""Perft: count the leaves of the game tree to a fixed depth from fixed positions.

Chance nodes are branches: every outcome of ``chance_outcomes()`` counts once (probabilities
are ignored). A perft file pins the counts of a position so that any change in move generation
shows up, with a per-action *divide* on mismatch to find the culprit.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hexfolk.core.actions import Action
from hexfolk.core.game import CHANCE, JSON, TERMINAL, Game, State
from hexfolk.core.registry import load_game
from hexfolk.core.rng import make_rng
from hexfolk.core.testing.checks import ConformanceError
from hexfolk.core.testing.golden import REGEN_VARIABLE, regenerating


def _children(state: State) -> list[Action]:
    player = state.current_player()
    if player == TERMINAL:
        return []
    if player == CHANCE:
        outcomes = state.chance_outcomes()
        if not outcomes:
            raise ConformanceError("perft reached a chance node whose outcomes cannot be listed")
        return [a for a, _ in outcomes]
    return state.legal_actions()


def perft(state: State, depth: int) -> int:
    """Number of nodes ``depth`` steps below ``state`` (terminal nodes above count once)."""
    if depth == 0:
        return 1
    children = _children(state)
    if not children:
        return 1
    if depth == 1:
        return len(children)
    total = 0
    for action in children:
        child = state.clone()
        child.apply_unchecked(action)
        total += perft(child, depth - 1)
    return total


def divide(state: State, depth: int) -> dict[str, int]:
    """Perft of each child at ``depth - 1``, keyed by action text."""
    out: dict[str, int] = {}
    for action in _children(state):
        child = state.clone()
        child.apply_unchecked(action)
        out[str(action)] = perft(child, depth - 1)
    return out


def start_position(game: Game, seed: int = 0, actions: Sequence[str] = ()) -> State:
    """The initial state with leading chance nodes drawn from ``seed``, then ``actions``."""
    state = game.new_initial_state()
    rng = make_rng(seed, "chance")
    while state.current_player() == CHANCE:
        state.apply_unchecked(state.sample_chance(rng))
    for text in actions:
        state.apply(state.parse_action(text))
    return state


@dataclass
class PerftSpec:
    """One perft file: a position and its known counts."""

    game: str
    players: int
    options: dict[str, Any]
    seed: int
    actions: list[str]
    counts: dict[int, int]
    divide: dict[str, int] = field(default_factory=dict)
    document: JSON | None = None
    """A position document (:meth:`~hexfolk.core.Game.load_position`) to start from instead
    of the seeded start; ``actions`` are then played from it. JSON key ``"position"``."""

    @classmethod
    def load(cls, path: str | Path) -> PerftSpec:
        target = Path(path)
        if not target.is_file():
            raise ConformanceError(
                f"perft file {target} is missing (write_perft_file writes one; "
                f"check_perft writes it with {REGEN_VARIABLE}=1)"
            )
        data = json.loads(target.read_text(encoding="utf-8"))
        return cls(
            game=data["game"],
            players=data["players"],
            options=data.get("options", {}),
            seed=data.get("seed", 0),
            actions=list(data.get("actions", [])),
            counts={int(k): int(v) for k, v in data["counts"].items()},
            divide=dict(data.get("divide", {})),
            document=data.get("position"),
        )

    def position(self) -> State:
        """The state the counts start from."""
        game = load_game(self.game, self.players, self.options)
        if self.document is None:
            return start_position(game, self.seed, self.actions)
        state = game.load_position(self.document)
        for text in self.actions:
            state.apply(state.parse_action(text))
        return state

    def to_json(self) -> JSON:
        data: JSON = {
            "game": self.game,
            "players": self.players,
            "options": self.options,
            "seed": self.seed,
            "actions": self.actions,
        }
        if self.document is not None:
            data["position"] = self.document
        data["counts"] = {str(k): v for k, v in self.counts.items()}
        data["divide"] = self.divide
        return data


def write_perft_file(
    path: str | Path,
    game: Game,
    seed: int,
    actions: Sequence[str],
    depths: int,
    *,
    position: JSON | None = None,
) -> PerftSpec:
    """Compute and write a perft file (review its numbers before committing it): from the
    seeded start, or from ``position`` (a position document), then ``actions``."""
    spec = PerftSpec(
        game=game.id,
        players=game.num_players,
        options=dict(game.options),
        seed=seed,
        actions=list(actions),
        counts={},
        document=position,
    )
    state = spec.position()
    spec.counts = {d: perft(state, d) for d in range(1, depths + 1)}
    spec.divide = divide(state, depths)
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text(json.dumps(spec.to_json(), indent=1) + "\n", encoding="utf-8")
    return spec


def check_perft(
    path: str | Path,
    game: Game,
    *,
    depths: int,
    seed: int = 0,
    actions: Sequence[str] = (),
    position: JSON | None = None,
    max_depth: int | None = None,
) -> None:
    """Check the perft file of this position, which must exist and describe the same position
    (game, players, options, seed, actions, position document). With
    ``HEXFOLK_REGEN_GOLDEN=1`` the file is (re)written to ``depths`` instead: review its
    numbers. A missing file without it is a :class:`ConformanceError` naming the file."""
    if regenerating():
        write_perft_file(path, game, seed, actions, depths, position=position)
        return
    spec = PerftSpec.load(path)
    given = (game.id, game.num_players, dict(game.options), seed, list(actions), position)
    stored = (spec.game, spec.players, spec.options, spec.seed, spec.actions, spec.document)
    if given != stored:
        raise ConformanceError(
            f"perft file {path} describes another position than the test's "
            f"({REGEN_VARIABLE}=1 rewrites it)"
        )
    check_perft_file(path, max_depth)


def check_perft_file(path: str | Path, max_depth: int | None = None) -> None:
    """Check a perft file; on mismatch the error lists the per-action divide differences."""
    spec = PerftSpec.load(path)
    state = spec.position()
    deepest = max(spec.counts)
    for depth in sorted(spec.counts):
        if max_depth is not None and depth > max_depth:
            break
        got = perft(state, depth)
        expected = spec.counts[depth]
        if got == expected:
            continue
        lines = [f"{path}: perft({depth}) = {got}, expected {expected}"]
        if spec.divide and depth == deepest:
            mine = divide(state, depth)
            for key in sorted(set(mine) | set(spec.divide)):
                a, b = mine.get(key), spec.divide.get(key)
                if a != b:
                    lines.append(f"  {key}: got {a}, expected {b}")
        else:
            for key, count in divide(state, depth).items():
                lines.append(f"  {key}: {count}")
        raise ConformanceError("\n".join(lines))
