"""Hexfolk: an open board-game table (Scythe and the island game).

The public kernel lives in :mod:`hexfolk.core`; games in :mod:`hexfolk.games`;
bots in :mod:`hexfolk.bots`; the command line in :mod:`hexfolk.cli`.
"""

__version__ = "0.1.0"
