"""The bots' fixed, published skills (``docs/ratings.md``, "Bots").

A bot's rating never changes: a game is no evidence about a program that does not learn. A bot
still counts as an opponent, with the skill below, so a person's game against bots is rated.

The numbers follow the bots' measured strength (``docs/bots-island.md``, two-player games):
hard beats medium 60% of the time, medium beats easy 93%, easy and medium beat the random bot
in every game measured (≥ 98% at 95% confidence). In the Plackett–Luce model with σ = 1 for
the bots and β = 25/6, a 60% win is a μ gap of about 2.5, 93% about 16 and 98% about 24;
medium sits at the prior mean of a new player (25). One table for both games: Scythe's levels
are built the same way and not yet measured apart.
"""

from __future__ import annotations

from hexfolk.ratings.skill import Skill

BOT_SIGMA = 1.0
"""Every bot level's σ: its skill is taken as known."""

BOT_SKILLS: dict[str, Skill] = {
    "random": Skill(-15.0, BOT_SIGMA),
    "easy": Skill(9.0, BOT_SIGMA),
    "medium": Skill(25.0, BOT_SIGMA),
    "hard": Skill(27.5, BOT_SIGMA),
}
"""Bot level (``hexfolk.bots.registry.LEVELS`` and ``random``) → its fixed skill."""


def bot_skill(level: str | None) -> Skill:
    """The fixed skill of a bot of ``level``; ``ValueError`` for a level without one."""
    if level not in BOT_SKILLS:
        raise ValueError(f"no published rating for the bot level {level!r}")
    return BOT_SKILLS[level]
