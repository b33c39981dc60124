"""Victory points (IR-1, IR-3): the one VP formula, used by the engine, the views and the bots.

A seat's points are its settlements and cities on the board, the awards it holds (Longest Road,
Largest Army) and its victory point cards. Everyone sees the first three (:func:`visible_vp`);
the cards are hidden until the end or until they win (IR-7), so only :func:`total_vp` counts
them.
"""

from __future__ import annotations

from dataclasses import dataclass

from hexfolk.games.island.position import IslandPosition
from hexfolk.games.island.rules import (
    PIECES_CITY,
    PIECES_SETTLEMENT,
    VICTORY,
    VP_CARD,
    VP_CITY,
    VP_LARGEST_ARMY,
    VP_LONGEST_ROAD,
    VP_SETTLEMENT,
)


@dataclass(frozen=True, slots=True)
class VictoryPoints:
    """A seat's points by source (IR-3)."""

    settlements: int
    cities: int
    longest_road: int
    largest_army: int
    vp_cards: int
    """Hidden from the other seats until the end (IR-7)."""

    @property
    def visible(self) -> int:
        """The points everyone sees (buildings and awards)."""
        return self.settlements + self.cities + self.longest_road + self.largest_army

    @property
    def total(self) -> int:
        """All points, victory point cards included."""
        return self.visible + self.vp_cards

    def to_json(self) -> dict[str, int]:
        """The breakdown as the summary writes it."""
        return {
            "settlements": self.settlements,
            "cities": self.cities,
            "vp_cards": self.vp_cards,
            "longest_road": self.longest_road,
            "largest_army": self.largest_army,
        }


def vp_breakdown(s: IslandPosition, p: int) -> VictoryPoints:
    """Seat ``p``'s points by source (IR-3)."""
    return VictoryPoints(
        settlements=(PIECES_SETTLEMENT - s.settlements_left[p]) * VP_SETTLEMENT,
        cities=(PIECES_CITY - s.cities_left[p]) * VP_CITY,
        longest_road=VP_LONGEST_ROAD if s.longest_road == p else 0,
        largest_army=VP_LARGEST_ARMY if s.largest_army == p else 0,
        vp_cards=s.dev_cards[p][VICTORY] * VP_CARD,
    )


def vp_counts(s: IslandPosition, p: int) -> dict[str, int]:
    """What seat ``p``'s points of :func:`vp_breakdown` are counted from (IR-1): settlements and
    cities on the board, victory point cards, and the awards held (1 or 0). The summary writes
    it beside the breakdown, so the overview can say "4 cities, 8 VP"."""
    return {
        "settlements": PIECES_SETTLEMENT - s.settlements_left[p],
        "cities": PIECES_CITY - s.cities_left[p],
        "vp_cards": s.dev_cards[p][VICTORY],
        "longest_road": int(s.longest_road == p),
        "largest_army": int(s.largest_army == p),
    }


def visible_vp(s: IslandPosition, p: int) -> int:
    """The points of ``p`` everyone can see: buildings and awards (IR-3). The sum of
    :func:`vp_breakdown`'s visible parts, written out (it runs at every win check)."""
    vp = (PIECES_SETTLEMENT - s.settlements_left[p]) * VP_SETTLEMENT
    vp += (PIECES_CITY - s.cities_left[p]) * VP_CITY
    if s.longest_road == p:
        vp += VP_LONGEST_ROAD
    if s.largest_army == p:
        vp += VP_LARGEST_ARMY
    return vp


def total_vp(s: IslandPosition, p: int, visible: int | None = None) -> int:
    """All points of ``p``, hidden victory point cards included (IR-1, IR-3); ``visible``:
    :func:`visible_vp` of ``p`` when the caller has it already (an observation writes both)."""
    if visible is None:
        visible = visible_vp(s, p)
    return visible + s.dev_cards[p][VICTORY] * VP_CARD
