"""The board drawn as text, from a seat's observation only.

Two drawings of the same map. The engine's text rendering (``render_observation``: replay
``--show``, the golden playthroughs) names places by id, as the action texts do: hexes show
``[id]`` over terrain letter and token (``O8``; ``*`` marks the robber); every intersection
shows its id, or ``S<seat>``/``C<seat>`` when a settlement or city stands there; every edge
shows a stroke (``/``, ``\\``, ``|``) and its id, or ``r<seat>`` for a road. The terminal's
drawing (``labelled=True``) names them by their labels (:mod:`.labels`, ``docs/log.md``,
"Place labels"), as the log and the terminal's menu do: ``[A]`` over ``O8``, intersections
``1`` … ``N``, an edge a bare stroke (its label is its two ends: ``road 12-13``), a road
``/r2``. Geometry comes from the map's :class:`Topology` (``maps.board_topology`` of the
observation's board: a standard board, a map, or Driftland's drawn island): hex centres and
corners on the doubled grid of :mod:`hexfolk.core.hexgrid`; one x unit is 4 columns, one y unit
2 rows. Lakes, which are not engine hexes, show as ``~~~~``; a harbor on a lake shore is listed
with ``(lake)``.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from hexfolk.core.hexgrid import centre, corners
from hexfolk.games.island.actions import BuildCity, BuildRoad, BuildSettlement, MoveRobber
from hexfolk.games.island.board import parse_layout
from hexfolk.games.island.labels import labels
from hexfolk.games.island.maps import board_topology, lake_hexes
from hexfolk.games.island.rules import LETTERS, RESOURCES, TERRAIN_LETTERS
from hexfolk.games.island.words import and_list, tile_words

_layout = lru_cache(maxsize=64)(parse_layout)
""":func:`parse_layout` once per layout text (a :class:`Layout` is immutable): a view asks
:func:`describe` for each legal action, up to 54 settlement spots in the setup."""

_XS = 4  # columns per x unit
_YS = 2  # rows per y unit


def _put(grid: dict[tuple[int, int], str], row: int, col: int, text: str) -> None:
    start = col - len(text) // 2
    for i, ch in enumerate(text):
        grid[(row, start + i)] = ch


def draw_board(obs: dict[str, Any], labelled: bool = False) -> str:
    """The map of an island observation as lines of text ("" before the layout exists), then
    its ``harbors:`` line: places by id, or by label when ``labelled`` (the terminal's)."""
    board = obs.get("board") or {}
    if not board.get("layout"):
        return ""
    topology = board_topology(board)
    layout = parse_layout(board["layout"])
    places = labels(topology)
    hex_name = places.hexes if labelled else [str(h) for h in range(topology.num_hexes)]
    node_name = places.nodes if labelled else [str(v) for v in range(topology.num_nodes)]
    owner_node: dict[int, str] = {v: f"S{o}" for v, o in obs.get("settlements", [])}
    owner_node.update({v: f"C{o}" for v, o in obs.get("cities", [])})
    owner_edge = {e: f"r{o}" for e, o in obs.get("roads", [])}
    grid: dict[tuple[int, int], str] = {}
    for h, (x, y) in enumerate(topology.hex_xy):
        terrain = TERRAIN_LETTERS[layout.terrain[h]]
        token = str(layout.tokens[h]) if layout.tokens[h] else ""
        robber = "*" if board.get("robber") == h else ""
        _put(grid, y * _YS - 1, x * _XS, f"[{hex_name[h]}]")
        _put(grid, y * _YS + 1, x * _XS, f"{terrain}{token}{robber}")
    lake_points: set[tuple[int, int]] = set()
    for q, r in lake_hexes(board):
        x, y = centre((q, r))
        _put(grid, y * _YS - 1, x * _XS, "~~~~")
        _put(grid, y * _YS + 1, x * _XS, "~~~~")
        lake_points.update(corners((q, r)))
    for v, (x, y) in enumerate(topology.node_xy):
        _put(grid, y * _YS, x * _XS, owner_node.get(v) or node_name[v])
    for e, (a, b) in enumerate(topology.edge_nodes):
        (x1, y1), (x2, y2) = topology.node_xy[a], topology.node_xy[b]
        row = (y1 + y2) * _YS // 2
        col = (x1 + x2) * _XS // 2
        if x1 == x2:
            mark = "|"
        else:  # the upper end is the one with the smaller y
            mark = "/" if (y1 < y2) == (x1 > x2) else "\\"
        _put(grid, row, col, mark + owner_edge.get(e, "" if labelled else str(e)))
    rows = [r for r, _ in grid]
    cols = [c for _, c in grid]
    r0, c0 = min(rows), min(cols)
    lines = []
    for r in range(r0, max(rows) + 1):
        line = "".join(grid.get((r, c), " ") for c in range(c0, max(cols) + 1))
        lines.append(line.rstrip())
    harbors = []
    for slot, kind in zip(topology.harbor_slots, layout.harbors):
        a, b = topology.edge_nodes[slot]
        ratio = "3:1" if kind >= len(LETTERS) else f"2:1 {RESOURCES[kind]}"
        lake = {topology.node_xy[a], topology.node_xy[b]} <= lake_points
        at = places.edges[slot] if labelled else f"{a}-{b}"
        harbors.append(f"{ratio} at {at}" + (" (lake)" if lake else ""))
    return "\n".join([*lines, "harbors: " + ", ".join(harbors)])


def describe(obs: dict[str, Any], action: object) -> str:
    """A hint for a person choosing ``action``: what a spot touches, where a road runs."""
    board = obs.get("board") or {}
    if not board.get("layout"):
        return ""
    topology = board_topology(board)
    layout = _layout(board["layout"])

    def hex_name(h: int) -> str:
        token = str(layout.tokens[h]) if layout.tokens[h] else ""
        return tile_words(f"{TERRAIN_LETTERS[layout.terrain[h]]}{token}")

    if isinstance(action, BuildSettlement | BuildCity):
        v = action.node
        parts = [and_list([hex_name(h) for h in topology.node_hexes[v]]) or "the coast only"]
        for slot, kind in zip(topology.harbor_slots, layout.harbors):
            if v in topology.edge_nodes[slot]:
                parts.append(
                    "a 3:1 harbor" if kind >= len(LETTERS) else f"a 2:1 {RESOURCES[kind]} harbor"
                )
        return "touches " + "; ".join(parts)
    places = labels(topology)
    if isinstance(action, BuildRoad):
        a, b = topology.edge_nodes[action.edge]
        return f"from spot {places.label('node', a)} to spot {places.label('node', b)}"
    if isinstance(action, MoveRobber):
        owners = sorted(
            {
                o
                for v, o in [*obs.get("settlements", []), *obs.get("cities", [])]
                if v in topology.hex_nodes[action.hex]
            }
        )
        who = and_list([f"seat {o}" for o in owners]) or "nobody"
        return f"hex {places.label('hex', action.hex)}, {hex_name(action.hex)}: buildings of {who}"
    return ""
