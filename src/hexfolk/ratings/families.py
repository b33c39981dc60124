"""Player-count families: which player counts of a game share one rating.

A two-player duel and an eight-player free-for-all reward different skills, and a place in a
big game says less than a place in a small one; counts that play alike share a rating, so a
player does not need games at every count. The families, by the engines' own player ranges
(the island game 2–8, Scythe 2–5):

========  ============================================================
island    ``2p`` (a duel), ``3-4p`` (the standard board), ``5-8p`` (the
          5–6 and 7–8 extensions: bigger boards, the special building phase)
scythe    ``2p`` (a duel), ``3-5p`` (every other count)
========  ============================================================
"""

from __future__ import annotations

FAMILIES: dict[str, tuple[tuple[int, int, str], ...]] = {
    "island": ((2, 2, "2p"), (3, 4, "3-4p"), (5, 8, "5-8p")),
    "scythe": ((2, 2, "2p"), (3, 5, "3-5p")),
}
"""Per game: (fewest players, most players, family name), in order of player count."""


class UnratedGame(ValueError):
    """A game, or a player count of it, that has no rating family."""


def families_of(game: str) -> list[str]:
    """The family names of ``game``, smallest first (:class:`UnratedGame` if it has none)."""
    if game not in FAMILIES:
        raise UnratedGame(f"the game {game!r} has no ratings; rated games: {', '.join(FAMILIES)}")
    return [name for _, _, name in FAMILIES[game]]


def family_of(game: str, players: int) -> str:
    """The family a game of ``players`` players is rated in."""
    families_of(game)
    for low, high, name in FAMILIES[game]:
        if low <= players <= high:
            return name
    raise UnratedGame(f"{game} has no rating family for {players} players")
