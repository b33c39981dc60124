"""Self-play samples, the temperature fit and calibration figures of the win-chance estimator
(``benchmarks/win_chance_fit.py`` and ``benchmarks/win_chance_calibration.py`` drive these;
``docs/analysis.md`` has the method and the figures).

A *sample* is a non-terminal state of a bot game at the start of a turn (every time the game's
turn count moves on, and the first state after the set-up chance steps), reduced to what the
estimator and the baselines read (each seat's score, the progress, the naive share) and the
game's outcome (the normalised returns). Games stopped by the turn cap have no outcome and
give no samples.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from hexfolk.analysis.estimator import T_MIN, result_chances, softmax_chances
from hexfolk.analysis.features import features_of
from hexfolk.bots.registry import make_bot
from hexfolk.core import Match, load_game
from hexfolk.core.rng import make_rng

LEVEL_MIX: tuple[tuple[str, int], ...] = (
    ("random", 1),
    ("easy", 3),
    ("medium", 3),
    ("hard:iters=24", 1),
)
"""The bot levels of the calibration games and their weights: each seat draws its level from
this mix with the game's seed (``hard`` at a reduced search budget, so that a run fits in an
evening)."""


@dataclass(frozen=True)
class Sample:
    """One state of a finished bot game, as the estimator and the baselines see it."""

    scores: tuple[float, ...]
    progress: float
    naive: tuple[float, ...]
    outcome: tuple[float, ...]
    game_seed: int


def seat_levels(seed: int, players: int, mix: Sequence[tuple[str, int]] = LEVEL_MIX) -> list[str]:
    """The bot codes of a calibration game, drawn from ``mix`` by ``seed``."""
    rng = make_rng(seed, "calibration-levels")
    codes = [code for code, weight in mix for _ in range(weight)]
    return [codes[rng.randrange(len(codes))] for _ in range(players)]


def game_samples(game_id: str, players: int, seed: int) -> list[Sample]:
    """Play one calibration game (levels by :func:`seat_levels`) and return its samples
    (none when the turn cap stopped it)."""
    game = load_game(game_id, players)
    bots = [make_bot(code, game_id) for code in seat_levels(seed, players)]
    result = Match(game, bots, seed).run()
    if not result.finished:
        return []
    outcome = tuple(result_chances(result.state))
    f = features_of(game_id)
    out: list[Sample] = []
    last_turn = -1
    for state, _ in result.record.states(game):
        if state.is_terminal() or state.is_chance():
            continue
        turn = state.turn_count()
        if turn == last_turn:
            continue
        last_turn = turn
        out.append(
            Sample(
                tuple(f.scores(state)),
                f.progress(state),
                tuple(f.naive(state)),
                outcome,
                seed,
            )
        )
    return out


def collect(
    game_id: str,
    players: int,
    seeds: Iterable[int],
    progress: Callable[[int], None] | None = None,
) -> tuple[list[Sample], int]:
    """Samples of the games ``seeds`` and how many games were stopped by the turn cap."""
    samples: list[Sample] = []
    capped = 0
    for i, seed in enumerate(seeds):
        got = game_samples(game_id, players, seed)
        if not got:
            capped += 1
        samples.extend(got)
        if progress is not None:
            progress(i + 1)
    return samples, capped


def predict(sample: Sample, a: float, b: float) -> list[float]:
    """The estimator's chances for ``sample`` with temperature numbers ``a``, ``b``."""
    return softmax_chances(list(sample.scores), max(T_MIN, a + b * (1.0 - sample.progress)))


def log_loss(samples: Sequence[Sample], a: float, b: float) -> float:
    """Mean cross-entropy of the outcomes under the chances (lower is better)."""
    total = 0.0
    for s in samples:
        p = predict(s, a, b)
        total -= sum(o * math.log(max(1e-12, q)) for o, q in zip(s.outcome, p) if o > 0)
    return total / max(1, len(samples))


def fit_temperature(samples: Sequence[Sample], scale: float) -> tuple[float, float, float]:
    """``(a, b, log loss)`` minimising :func:`log_loss`: a grid of ``scale`` multiples, then
    two finer grids around the best point (deterministic: no random restarts)."""
    grid = [scale * x for x in (0.05, 0.1, 0.2, 0.35, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 5.0)]
    best = (math.inf, grid[0], 0.0)
    for a in grid:
        for b in [0.0, *grid]:
            loss = log_loss(samples, a, b)
            if loss < best[0]:
                best = (loss, a, b)
    step_a, step_b = best[1] / 2, max(best[2], scale * 0.1) / 2
    for _ in range(2):
        _, a0, b0 = best
        for i in range(-3, 4):
            for j in range(-3, 4):
                a, b = a0 + i * step_a / 3, b0 + j * step_b / 3
                if a <= 0 or b < 0:
                    continue
                loss = log_loss(samples, a, b)
                if loss < best[0]:
                    best = (loss, a, b)
        step_a, step_b = step_a / 3, step_b / 3
    return best[1], best[2], best[0]


def brier(predictions: Sequence[Sequence[float]], samples: Sequence[Sample]) -> float:
    """Mean over samples of the summed squared error over seats (0 is perfect)."""
    total = 0.0
    for p, s in zip(predictions, samples):
        total += sum((q - o) ** 2 for q, o in zip(p, s.outcome))
    return total / max(1, len(samples))


def reliability(
    predictions: Sequence[Sequence[float]], samples: Sequence[Sample], bins: int = 10
) -> list[tuple[float, float, int]]:
    """Per bin of predicted chance (``bins`` equal widths over [0, 1]), over every seat of
    every sample: ``(mean predicted, observed win share, count)``; empty bins left out."""
    sums = [[0.0, 0.0, 0] for _ in range(bins)]
    for p, s in zip(predictions, samples):
        for q, o in zip(p, s.outcome):
            k = min(bins - 1, int(q * bins))
            sums[k][0] += q
            sums[k][1] += o
            sums[k][2] += 1
    return [(x / int(c), y / int(c), int(c)) for x, y, c in sums if c]
