"""The board's drawing geometry for clients that show it (the browser): one formula for
:meth:`IslandGame.board_geometry` (a fixed board) and :meth:`IslandState.board_geometry`
(the state's board, Driftland's coastline once the layout has drawn it).

Pointy-top hexes on the doubled grid of :class:`~.board.Topology` (``docs/web.md``):
``hexes[h]`` the centre ``[x, y]`` of hex ``h`` (one hex is 2 wide and 4 tall in these units),
``nodes[v]`` the point of intersection ``v``, ``edges[e]`` the two nodes of edge ``e``,
``harbors[k]`` the edge of harbor slot ``k`` with its land hex (the layout text gives each
slot's kind), ``labels`` the places' readable names by id (``{"hexes": ["A", ...], "nodes":
["1", ...], "edges": ["1-2", ...]}``, :mod:`.labels`: what the log, the reasons and the page
name a place by), and ``costs``, the build costs of the rules (rules sheet 1.1: ``{"road":
{"lumber": 1, "brick": 1}, "settlement": ..., "city": ..., "development": ...}``, the page's
cost card: issue 27). Only places and the rules' fixed numbers: no terrain, token, harbor kind
or piece.
"""

from __future__ import annotations

from typing import Any

from hexfolk.games.island.board import Topology
from hexfolk.games.island.labels import labels
from hexfolk.games.island.rules import RULES


def drawing_geometry(topology: Topology) -> dict[str, Any]:
    """The drawing geometry of ``topology`` as plain JSON."""
    return {
        "board": topology.board_id,
        "name": topology.name,
        "hexes": [list(xy) for xy in topology.hex_xy],
        "nodes": [list(xy) for xy in topology.node_xy],
        "edges": [list(ab) for ab in topology.edge_nodes],
        "harbors": [{"edge": e, "hex": topology.edge_hexes[e][0]} for e in topology.harbor_slots],
        "labels": labels(topology).to_json(),
        "costs": {item: dict(spec) for item, spec in RULES["costs"].items()},
    }
