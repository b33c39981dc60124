"""Ratings (``docs/ratings.md``): a Bayesian skill per player, game and player-count family,
updated from the final placings of a rated game with OpenSkill's Plackett–Luce model.

Pure maths over plain values: no server, no database. Its chapters: ``families`` (which
player counts share a rating), ``skill`` (a skill and the rating shown for it), ``bot_levels``
(the bots' fixed, published skills), ``placings`` (who finished where, leavers last) and
``model`` (the update).
"""

from __future__ import annotations

from hexfolk.ratings.bot_levels import BOT_SKILLS, bot_skill
from hexfolk.ratings.families import FAMILIES, UnratedGame, families_of, family_of
from hexfolk.ratings.model import Entrant, rate
from hexfolk.ratings.placings import placings
from hexfolk.ratings.skill import DEFAULT, Skill, displayed

__all__ = [
    "BOT_SKILLS",
    "DEFAULT",
    "FAMILIES",
    "Entrant",
    "Skill",
    "UnratedGame",
    "bot_skill",
    "displayed",
    "families_of",
    "family_of",
    "placings",
    "rate",
]
