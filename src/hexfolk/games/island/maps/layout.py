"""One game's board drawn from a map (:class:`MapLayout`): every island hex with its terrain
and token, every harbor with its kind, the robber's start. Drawn by ``draw.draw_layout``,
checked by ``checks.validate_layout``, written as text by ``codec.layout_text``."""

from __future__ import annotations

from dataclasses import dataclass

from hexfolk.core.hexgrid import Hex, Point, corners, neighbour, neighbours, side_points
from hexfolk.games.island.maps.schema import LAND_KINDS, PRODUCING
from hexfolk.games.island.rules import DICE_PIPS, RESOURCES, TERRAINS


@dataclass(frozen=True, slots=True)
class PlacedHex:
    """One island hex of a drawn layout."""

    at: Hex
    kind: str
    terrain: str | None
    """The terrain of a producing hex (None for deserts and lakes)."""
    token: int
    """0 for deserts and lakes (IR-10)."""


@dataclass(frozen=True, slots=True)
class PlacedHarbor:
    at: Hex
    side: str
    kind: str

    @property
    def water(self) -> Hex:
        return neighbour(self.at, self.side)

    def points(self) -> tuple[Point, Point]:
        return side_points(self.at, self.side)


@dataclass(frozen=True)
class MapLayout:
    """One game's board drawn from a map: every island hex with its terrain and token, every
    harbor with its kind, and the robber's start (None: off the board, IR-14)."""

    map_id: str
    hexes: tuple[PlacedHex, ...]
    harbors: tuple[PlacedHarbor, ...]
    robber: Hex | None

    def kinds(self) -> dict[Hex, str]:
        return {h.at: h.kind for h in self.hexes}

    def hex_at(self, at: Hex) -> PlacedHex:
        for h in self.hexes:
            if h.at == at:
                return h
        raise KeyError(at)

    def land_intersections(self) -> set[Point]:
        return {p for h in self.hexes if h.kind in LAND_KINDS for p in corners(h.at)}

    def coast_hexes(self) -> set[Hex]:
        """Land hexes touching the sea frame (lake shores do not count)."""
        kinds = self.kinds()
        return {
            h.at
            for h in self.hexes
            if h.kind in LAND_KINDS and any(n not in kinds for n in neighbours(h.at))
        }

    def pips(self) -> dict[str, int]:
        """Pips (ways out of 36) per resource, over the producing hexes."""
        out = dict.fromkeys(RESOURCES, 0)
        for h in self.hexes:
            if h.kind == PRODUCING and h.terrain is not None:
                res = RESOURCES[TERRAINS.index(h.terrain)]
                out[res] += DICE_PIPS[h.token]
        return out
