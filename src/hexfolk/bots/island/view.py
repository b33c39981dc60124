"""A bot's picture of an island position: :class:`Pos`, built from a seat's JSON observation
(for real decisions) or from a sampled world (for search rollouts).

The real decisions of every level read only ``observation.data`` (IR-74, IR-76). Search bots
also play inside worlds drawn by ``observation.sample_world(rng)``; :func:`pos_from_state`
reads such a world directly (fast) and is the only place that touches engine fields.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from hexfolk.games.island.actions import Bundle, parse_bundle
from hexfolk.games.island.board import LayoutTables, Topology, layout_tables, parse_layout
from hexfolk.games.island.building import harbor_ratios
from hexfolk.games.island.maps import board_topology
from hexfolk.games.island.position import IslandPosition
from hexfolk.games.island.production import seat_production
from hexfolk.games.island.rules import (
    BANK_RATIO,
    DEV_NAMES,
    DICE_PIPS,
    NRES,
    RESOURCES,
)
from hexfolk.games.island.score import total_vp, visible_vp

CONFIG: dict[str, Any] = json.loads(
    (Path(__file__).parent / "data" / "levels.json").read_text(encoding="utf-8")
)
"""Tuning numbers of the island bots (``data/levels.json``)."""


@lru_cache(maxsize=64)
def _geometry(board_id: str, island: str | None) -> Topology:
    """The geometry of an observation's board (a standard board, a map, Driftland's island)."""
    return board_topology({"map": board_id, "island": island})


@lru_cache(maxsize=64)
def _tables(board_id: str, island: str | None, layout_text: str) -> LayoutTables:
    return layout_tables(_geometry(board_id, island), parse_layout(layout_text))


@lru_cache(maxsize=4096)
def bundle_of(text: str) -> Bundle:
    """Parse a bundle text of the observation (``2l 1o`` or ``-``)."""
    return parse_bundle(text.split(), "bundle")


@dataclass(slots=True)
class Pos:
    """What a seat knows, in flat lists (own hand and development cards; everyone's public
    pieces and counts)."""

    seat: int
    n: int
    topology: Topology
    layout_tables: LayoutTables | None
    phase: str
    active: int
    node_owner: list[int]
    node_level: list[int]
    edge_owner: list[int]
    hand: list[int]
    dev: list[int]
    ratio: list[int]
    bank: list[int] | None
    robber: int
    visible_vp: list[int]
    my_vp: int
    vp_target: int
    cards: list[int]
    knights: list[int]
    roads_left: list[int]
    settlements_left: list[int]
    cities_left: list[int]
    deck: int
    road_length: list[int]
    longest_road: int
    largest_army: int
    discard_limit: int
    """A 7 makes hands above this many cards discard half (the game option)."""

    def vp_view(self, p: int) -> int:
        """VP of ``p`` as this seat sees them (own total, others' visible VP)."""
        return self.my_vp if p == self.seat else self.visible_vp[p]

    def leader(self) -> int:
        """The sole leader by VP as seen from this seat, or -1 when tied at the top."""
        vps = [self.vp_view(p) for p in range(self.n)]
        top = max(vps)
        leaders = [p for p in range(self.n) if vps[p] == top]
        return leaders[0] if len(leaders) == 1 else -1

    def roads_of(self, p: int) -> list[int]:
        """The edges of ``p``'s roads, in edge order."""
        return [e for e, o in enumerate(self.edge_owner) if o == p]

    def top_opponent(self) -> int:
        """The opponent with the most visible VP (ties: more cards, then lower seat)."""
        others = [p for p in range(self.n) if p != self.seat]
        return max(others, key=lambda p: (self.visible_vp[p], self.cards[p], -p))


def ratios_of(seat: int, node_owner: list[int], tables: LayoutTables | None) -> list[int]:
    """Maritime ratios of ``seat`` from its buildings on harbors (IR-52, IR-53): the engine's
    :func:`~hexfolk.games.island.building.harbor_ratios`."""
    if tables is None:
        return [BANK_RATIO] * NRES
    return harbor_ratios(tables, node_owner, seat)


def pos_from_observation(
    data: dict[str, Any], seat: int, vp_target: int, discard_limit: int
) -> Pos:
    """Build :class:`Pos` from ``state.observation(seat)`` (plain JSON) and the game options
    ``vp_target`` and ``discard_limit``."""
    board = data["board"]
    island = board.get("island")
    topology = _geometry(board["map"], island)
    tables = _tables(board["map"], island, board["layout"]) if board["layout"] else None
    node_owner = [-1] * topology.num_nodes
    node_level = [0] * topology.num_nodes
    for v, o in data["settlements"]:
        node_owner[v] = o
        node_level[v] = 1
    for v, o in data["cities"]:
        node_owner[v] = o
        node_level[v] = 2
    edge_owner = [-1] * topology.num_edges
    for e, o in data["roads"]:
        edge_owner[e] = o
    players = data["players"]
    me = players[seat]
    hand_json = me.get("hand", {})
    dev_json = me.get("dev_hand", {})
    bank_json = data.get("bank")
    return Pos(
        seat=seat,
        n=len(players),
        topology=topology,
        layout_tables=tables,
        phase=str(data["phase"]),
        active=int(data["active"]),
        node_owner=node_owner,
        node_level=node_level,
        edge_owner=edge_owner,
        hand=[int(hand_json.get(r, 0)) for r in RESOURCES],
        dev=[int(dev_json.get(c, 0)) for c in DEV_NAMES],
        ratio=ratios_of(seat, node_owner, tables),
        bank=None if bank_json is None else [int(bank_json[r]) for r in RESOURCES],
        robber=int(board["robber"]),
        visible_vp=[int(p["visible_vp"]) for p in players],
        my_vp=int(me.get("vp", me["visible_vp"])),
        vp_target=vp_target,
        cards=[int(p["cards"]) for p in players],
        knights=[int(p["knights"]) for p in players],
        roads_left=[int(p["roads_left"]) for p in players],
        settlements_left=[int(p["settlements_left"]) for p in players],
        cities_left=[int(p["cities_left"]) for p in players],
        deck=int(data["deck"]),
        road_length=[int(p["road_length"]) for p in players],
        longest_road=-1 if data["longest_road"] is None else int(data["longest_road"]),
        largest_army=-1 if data["largest_army"] is None else int(data["largest_army"]),
        discard_limit=discard_limit,
    )


def pos_from_state(st: IslandPosition, seat: int) -> Pos:
    """Build :class:`Pos` for ``seat`` straight from an :class:`IslandState` (a sampled world in
    search; never the real state). Shares the state's lists: read only."""
    n = st.n
    return Pos(
        seat=seat,
        n=n,
        topology=st.topology,
        layout_tables=st.layout_tables,
        phase="",
        active=st.active,
        node_owner=st.node_owner,
        node_level=st.node_level,
        edge_owner=st.edge_owner,
        hand=st.hands[seat],
        dev=st.dev_cards[seat],
        ratio=st.ratio[seat],
        bank=st.bank,
        robber=st.robber,
        visible_vp=[visible_vp(st, p) for p in range(n)],
        my_vp=total_vp(st, seat),
        vp_target=st.game.options["vp_target"],
        cards=[sum(h) for h in st.hands],
        knights=st.knights,
        roads_left=st.roads_left,
        settlements_left=st.settlements_left,
        cities_left=st.cities_left,
        deck=sum(st.deck),
        road_length=st.road_length,
        longest_road=st.longest_road,
        largest_army=st.largest_army,
        discard_limit=st.game.options["discard_limit"],
    )


def production(pos: Pos, p: int, *, with_robber: bool = True) -> list[float]:
    """Expected pips per resource (out of 36) that ``p``'s buildings collect per roll: the
    engine's :func:`~hexfolk.games.island.production.seat_production` (cards per dice sum),
    each sum weighted by its pips (``DICE_PIPS``). ``with_robber`` False: as if the robber
    blocked no hex."""
    out = [0.0] * NRES
    tables = pos.layout_tables
    if tables is None:
        return out
    robber = pos.robber if with_robber else -1
    owed = seat_production(tables, pos.node_owner, pos.node_level, p, robber)
    for total, cards in owed.items():
        pips = DICE_PIPS[total]
        for r in range(NRES):
            if cards[r]:
                out[r] += pips * cards[r]
    return out
