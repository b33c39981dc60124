"""The update: OpenSkill's Plackett–Luce model over one finished free-for-all game of 2–8
(``docs/ratings.md``, "The model").

Every seat is a one-player team; its place is the rank (ties allowed). Bots enter with their
fixed skill and come out unchanged (:mod:`.bot_levels`); a person's new skill is what
``PlackettLuce().rate`` gives with the model's defaults (μ 25, σ 25/3, β 25/6, τ 25/300).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from hexfolk.ratings.skill import DEFAULT, Skill, displayed

__all__ = ["DEFAULT", "MODEL", "Entrant", "Skill", "displayed", "rate"]

MODEL = PlackettLuce()
"""The model, with OpenSkill's defaults (it keeps no state between calls)."""
MAX_ENTRANTS = 8
"""The most seats a rated game has (the island game's largest)."""


@dataclass(frozen=True, slots=True)
class Entrant:
    """One seat of a rated game: its skill before, its place (0 best) and whether that skill
    is ``fixed`` (a bot)."""

    skill: Skill
    place: int
    fixed: bool = False


def rate(entrants: Sequence[Entrant]) -> list[Skill]:
    """Every entrant's skill after the game, in order (a fixed one's unchanged)."""
    if not 2 <= len(entrants) <= MAX_ENTRANTS:
        raise ValueError(f"a rated game has 2..{MAX_ENTRANTS} seats, not {len(entrants)}")
    teams = [[MODEL.rating(mu=e.skill.mu, sigma=e.skill.sigma)] for e in entrants]
    ranks: list[float] = [float(e.place) for e in entrants]
    after = MODEL.rate(teams, ranks=ranks)
    return [
        e.skill if e.fixed else Skill(team[0].mu, team[0].sigma)
        for e, team in zip(entrants, after, strict=True)
    ]
