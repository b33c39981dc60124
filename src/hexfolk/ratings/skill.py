"""A skill (μ, σ) and the one number a player is shown for it (``docs/ratings.md``,
"The displayed rating")."""

from __future__ import annotations

from dataclasses import dataclass

MU = 25.0
"""A new player's μ (OpenSkill's default prior mean)."""
SIGMA = MU / 3
"""A new player's σ (OpenSkill's default: μ/3)."""
SCALE = 40.0
"""Display points per unit of skill."""
BASE = 1000.0
"""The displayed rating of a new player (its μ − 3σ is 0)."""


@dataclass(frozen=True, slots=True)
class Skill:
    """A belief about a player's skill: mean ``mu``, uncertainty ``sigma``."""

    mu: float
    sigma: float


DEFAULT = Skill(MU, SIGMA)
"""A player's skill before their first rated game of a family."""


def displayed(skill: Skill) -> int:
    """The rating shown: ``round(1000 + 40 × (μ − 3σ))``, never below 0.

    μ − 3σ (OpenSkill's ordinal) is a skill the player has with 99.7% confidence: it starts
    at 0 (1000 shown) and rises both with wins and with the games that make σ shrink, so a
    player cannot top the leaderboard from one lucky game."""
    return max(0, round(BASE + SCALE * (skill.mu - 3 * skill.sigma)))
