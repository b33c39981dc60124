"""The island game (a Catan-style game) rules engine; see ``docs/island.md``."""

from hexfolk.games.island.game import IslandGame
from hexfolk.games.island.state import IslandState

__all__ = ["IslandGame", "IslandState"]
