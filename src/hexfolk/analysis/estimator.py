"""The win-chance estimator: for any state, a probability distribution over the seats
(``docs/analysis.md``, "The estimator").

A seat's chance is a softmax over the seats' scores (:mod:`.features`) with a temperature that
shrinks as the game nears its end::

    T(progress) = max(T_MIN, a + b * (1 - progress))
    chance[s]   = exp(score[s] / T) / sum_q exp(score[q] / T)

``a`` and ``b`` are fitted per game and player count on self-play records by
``benchmarks/win_chance_fit.py`` (maximum likelihood, a grid search) and stored with how they
were fitted in ``analysis/data/win_chance.json``. A player count without fitted numbers uses
the nearest fitted one of the same game.

A finished game gives each seat its :meth:`~hexfolk.core.State.returns` normalised to sum to
1: 1 to a sole winner; a shared win (Scythe's tie rule, SR-56) split equally among the tied
winners. The result is always a proper distribution: non-negative, summing to 1 (up to the
float rounding of one division).

Optional rollouts (:attr:`WinChanceModel.rollouts` > 0): the chance is the mean, over that many
playouts of at most ``depth`` steps by the strongest bot's rollout policy (chance outcomes
drawn from the caller's RNG), of the static chance where each playout stops.
"""

from __future__ import annotations

import json
import math
import random
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from hexfolk.analysis.features import GameFeatures, features_of
from hexfolk.core import CHANCE, TERMINAL, State

T_MIN = 0.05
"""The lowest temperature (score units): keeps the softmax finite near the end."""


@cache
def fitted_parameters() -> dict[str, Any]:
    """The stored fit (``analysis/data/win_chance.json``), read once."""
    text = resources.files("hexfolk.analysis").joinpath("data/win_chance.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def temperature_of(game_id: str, players: int) -> tuple[float, float]:
    """``(a, b)`` of the temperature for ``game_id`` at ``players`` seats (the nearest fitted
    player count when that one was not fitted)."""
    models = fitted_parameters()["models"]
    if game_id not in models:
        raise ValueError(f"no fitted win-chance model for the game {game_id!r}")
    table: dict[str, dict[str, float]] = models[game_id]
    nearest = min(table, key=lambda k: (abs(int(k) - players), int(k)))
    entry = table[nearest]
    return float(entry["a"]), float(entry["b"])


def softmax_chances(scores: list[float], temperature: float) -> list[float]:
    """``exp(score / T)`` normalised (shifted by the best score, so it never overflows)."""
    t = max(T_MIN, temperature)
    top = max(scores)
    weights = [math.exp((x - top) / t) for x in scores]
    total = sum(weights)
    return [w / total for w in weights]


def result_chances(state: State) -> list[float]:
    """A finished game's distribution: the returns normalised (ties split equally)."""
    r = [max(0.0, float(x)) for x in state.returns()]
    total = sum(r)
    n = state.game.num_players
    if total <= 0:
        return [1.0 / n] * n
    return [x / total for x in r]


@dataclass(frozen=True)
class WinChanceModel:
    """Win chances of one game at one player count (see the module docstring)."""

    game_id: str
    players: int
    a: float
    b: float
    rollouts: int = 0
    """Playouts per estimate (0: the static estimate only)."""
    depth: int = 0
    """Steps of each playout."""

    @classmethod
    def for_game(
        cls, game_id: str, players: int, *, rollouts: int = 0, depth: int = 0
    ) -> WinChanceModel:
        """The fitted model of ``game_id`` at ``players`` seats."""
        features_of(game_id)  # a clear error for an unknown game
        a, b = temperature_of(game_id, players)
        return cls(game_id, players, a, b, rollouts, depth)

    @property
    def features(self) -> GameFeatures:
        return features_of(self.game_id)

    def temperature(self, progress: float) -> float:
        """The softmax temperature at ``progress`` (0: the start, 1: the end)."""
        return max(T_MIN, self.a + self.b * (1.0 - progress))

    def static(self, state: State) -> list[float]:
        """The chances without playouts: the result at the end, else the softmax."""
        if state.is_terminal():
            return result_chances(state)
        f = self.features
        return softmax_chances(f.scores(state), self.temperature(f.progress(state)))

    def chances(self, state: State, rng: random.Random | None = None) -> list[float]:
        """Each seat's chance to win from ``state``; with rollouts, ``rng`` draws them (required
        then, so that a caller's seed decides every playout)."""
        if self.rollouts <= 0 or state.is_terminal():
            return self.static(state)
        if rng is None:
            raise ValueError("a model with rollouts needs the caller's rng")
        n = state.game.num_players
        total = [0.0] * n
        policy = self.features.rollout
        for _ in range(self.rollouts):
            world = state.clone()
            for _ in range(self.depth):
                player = world.current_player()
                if player == TERMINAL:
                    break
                if player == CHANCE:
                    world.apply_unchecked(world.sample_chance(rng))
                else:
                    world.apply_unchecked(policy(world, world.legal_actions(), rng))
            for s, x in enumerate(self.static(world)):
                total[s] += x
        return [x / self.rollouts for x in total]
