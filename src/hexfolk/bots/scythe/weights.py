"""Tuning weights of the Scythe bots (bot judgement, not game rules: game numbers come from
``hexfolk.games.scythe.data``). All values are in coins of projected final fortune."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Weights:
    """What the heuristic evaluation credits beyond the fortune a state would score now."""

    star_extra: float = 1.5
    """A star is worth its band value plus this (stars also bring the end of the game)."""
    resource_use: float = 0.3
    """Each resource token on a controlled territory (it pays for bottom actions)."""
    resource_cap: int = 10
    enable: float = 1.0
    """Per useful bottom action, scaled by the share of its cost already on hand."""
    """Resources beyond this count score only through the fortune (pairs)."""
    upgrade: float = 3.0
    mech: float = 4.0
    structure: float = 3.0
    recruit: float = 3.5
    worker: float = 1.5
    """Per worker off the mat (production, spread)."""
    power: float = 0.35
    power_cap: int = 10
    card: float = 0.7
    card_cap: int = 5
    popularity: float = 0.3
    band_edge: float = 3.0
    """Credit for being at or above the next band's lower edge, scaled by closeness."""
    factory_card: float = 2.0
    encounter_near: float = 0.0
    eval_scale: float = 9.0
    """Coins of lead that give a value of ~0.73 (logistic scale of the evaluation)."""


DEFAULT = Weights()
