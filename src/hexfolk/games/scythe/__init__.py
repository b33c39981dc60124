"""Scythe (base game) rules engine, registered as ``scythe``.

See ``docs/scythe.md`` for the action notation and the decision chain of a turn, and
``docs/rules/scythe_rules.md`` for the rules (SR-n, OQ-n) this engine follows.
"""

from hexfolk.games.scythe.game import ScytheGame
from hexfolk.games.scythe.state import ScytheState

__all__ = ["ScytheGame", "ScytheState"]
