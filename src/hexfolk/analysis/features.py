"""What the win-chance estimator reads of a state, per game: each seat's *score* (the strongest
bot's own evaluation, in the game's units), the game's *progress* towards its end, and the
naive share estimate the calibration compares against (``docs/analysis.md``).

* island: the hard bot's score (:func:`hexfolk.bots.island.bots.evaluate`'s sum): total VP
  (hidden VP cards included) + production pips / ``pips_per_vp`` + ``card_value`` per card in
  hand (up to ``card_cap``) + ``dev_value`` per unplayed development card that is not a VP
  card; progress = the leader's total VP / the VP target; naive share = VP / all VP.
* scythe: the hard bot's projected final fortune
  (:func:`hexfolk.bots.scythe.evaluation.potential`, in coins); progress = the most stars /
  the stars that end the game (``data.STARS_TO_END``); naive share = fortune if the game
  ended now / all fortune.

The analysis runs after the game on the full record, so these read the full state (hidden
cards included): nothing here is ever shown to a seat during play.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import cast

from hexfolk.bots.island.policy import production
from hexfolk.bots.island.rollout import fast_rollout
from hexfolk.bots.island.view import CONFIG, pos_from_state
from hexfolk.bots.scythe.evaluation import fortune_now, potentials
from hexfolk.bots.scythe.policy import RulePolicy
from hexfolk.core import Action, State
from hexfolk.games.island.position import IslandPosition
from hexfolk.games.island.rules import DEV_NAMES
from hexfolk.games.island.score import total_vp
from hexfolk.games.scythe import data as SD
from hexfolk.games.scythe.state import ScytheState

_EV = CONFIG["evaluation"]
_VP_CARD = DEV_NAMES.index("vp")


def island_scores(state: State) -> list[float]:
    """The island hard bot's score of every seat (see the module docstring)."""
    st = cast(IslandPosition, state)
    pos = pos_from_state(st, 0)
    out = []
    for p in range(st.n):
        pips = sum(production(pos, p))
        dev = sum(st.dev_cards[p]) - st.dev_cards[p][_VP_CARD]
        out.append(
            total_vp(st, p)
            + pips / _EV["pips_per_vp"]
            + _EV["card_value"] * min(sum(st.hands[p]), _EV["card_cap"])
            + _EV["dev_value"] * dev
        )
    return out


def island_progress(state: State) -> float:
    """The leader's total VP over the VP target, in [0, 1]."""
    st = cast(IslandPosition, state)
    best = max(total_vp(st, p) for p in range(st.n))
    return min(1.0, best / st.vp_target)


def island_naive(state: State) -> list[float]:
    """VP share (uniform while nobody has a VP)."""
    st = cast(IslandPosition, state)
    return _share([float(total_vp(st, p)) for p in range(st.n)])


def scythe_scores(state: State) -> list[float]:
    """The Scythe hard bot's projected final fortune of every seat (zeros before the set-up
    has dealt the seats their factions)."""
    s = cast(ScytheState, state)
    if not s.order:
        return [0.0] * s.n
    return potentials(s)


def scythe_progress(state: State) -> float:
    """The most stars any seat has, over the stars that end the game, in [0, 1]."""
    s = cast(ScytheState, state)
    return min(1.0, max(s.star_total) / SD.STARS_TO_END)


def scythe_naive(state: State) -> list[float]:
    """Share of the fortune each seat would score if the game ended now."""
    s = cast(ScytheState, state)
    if not s.order or s.structure_tile < 0:
        return [1.0 / s.n] * s.n
    return _share([max(0.0, fortune_now(s, p)[0]) for p in range(s.n)])


def _share(values: list[float]) -> list[float]:
    total = sum(values)
    if total <= 0:
        return [1.0 / len(values)] * len(values)
    return [v / total for v in values]


@dataclass(frozen=True)
class GameFeatures:
    """The per-game functions the estimator uses."""

    scores: Callable[[State], list[float]]
    progress: Callable[[State], float]
    naive: Callable[[State], list[float]]
    rollout: Callable[..., Action]
    """The strongest bot's rollout policy ``(state, legal, rng) -> action`` (for the optional
    rollouts of a budget)."""


_SCYTHE_ROLLOUT = RulePolicy(commit_noise=1.0)

FEATURES: dict[str, GameFeatures] = {
    "island": GameFeatures(island_scores, island_progress, island_naive, fast_rollout),
    "scythe": GameFeatures(scythe_scores, scythe_progress, scythe_naive, _SCYTHE_ROLLOUT),
}


def features_of(game_id: str) -> GameFeatures:
    """The features of ``game_id``; ValueError for a game the analysis does not know."""
    try:
        return FEATURES[game_id]
    except KeyError:
        raise ValueError(
            f"no win-chance estimator for the game {game_id!r}; known: {', '.join(FEATURES)}"
        ) from None
