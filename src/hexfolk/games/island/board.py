"""The board model: one geometry for any map shape, and layouts (what lies where).

A :class:`Topology` is built once per map from ``data/boards.json`` (and cached): hexes,
intersections (*nodes*) and edges get integer ids, with adjacency tables as tuples. Pointy-top
hexes sit on the doubled grid of :mod:`hexfolk.core.hexgrid`: the hex at row ``r`` and doubled
column ``x`` has its centre at ``(x, 3r)`` and its corners at the offsets of
``hexgrid.CORNERS``, so neighbouring hexes share corner points exactly. :func:`build_topology`
is the one builder of a topology, for the standard boards here and for the maps
(``maps.engine.to_engine``).

A :class:`Layout` is one game's board: terrain and token per hex, harbor kind per harbor slot,
robber start. Its text form (``layout O10.W2.L9... 3go3w33bl r9``) is the first chance outcome of
a game. :func:`random_layout` shuffles terrain, tokens (IR-13: reds first with backtracking) and
harbor kinds; :func:`validate_layout` checks a loaded one fully.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from functools import cache, lru_cache
from typing import Any

from hexfolk.core.hexgrid import DIRECTIONS, Point, centre, corners_at
from hexfolk.games.island.rules import (
    DESERT,
    DICE_PIPS,
    GENERIC,
    LETTER_INDEX,
    LETTERS,
    NRES,
    RED_TOKENS,
    RESOURCES,
    TERRAIN_LETTERS,
    TERRAINS,
    load_json,
)

BOARDS: dict[str, Any] = {k: v for k, v in load_json("boards.json").items() if k[0] != "_"}


class LayoutError(ValueError):
    """A layout text or value breaks the map's rules (counts, tokens, IR-13, robber)."""


@dataclass(frozen=True, eq=False)
class Topology:
    """Immutable geometry of one map (built once, shared by every game on that map).

    Equal and hashed by :attr:`key` (what it is built from), never by identity: a topology
    copied, deep-copied or unpickled in a bot worker equals the one it was copied from, so the
    caches keyed by a topology (:func:`layout_tables`) find it (issue 25)."""

    board_id: str
    name: str
    hex_xy: tuple[tuple[int, int], ...]
    hex_nodes: tuple[tuple[int, ...], ...]
    """The 6 corner nodes of each hex, clockwise from the top."""
    hex_adj: tuple[tuple[int, ...], ...]
    node_xy: tuple[tuple[int, int], ...]
    node_hexes: tuple[tuple[int, ...], ...]
    node_adj: tuple[tuple[int, ...], ...]
    node_edges: tuple[tuple[int, ...], ...]
    edge_nodes: tuple[tuple[int, int], ...]
    edge_hexes: tuple[tuple[int, ...], ...]
    coast: tuple[int, ...]
    """Coast edges (edges of only one land hex) in walk order, clockwise."""
    harbor_slots: tuple[int, ...]
    """Edge id of each harbor slot."""
    terrain_counts: tuple[int, ...]
    """Hexes per terrain code (0..4 producing, 5 desert)."""
    token_counts: dict[int, int]
    harbor_counts: tuple[int, ...]
    """Harbors per kind code (0..4 resource, 5 generic)."""
    edge_other: tuple[dict[int, int], ...]
    """``edge_other[e][v]``: the other end of edge ``e`` from node ``v``."""
    key: tuple[Any, ...]
    """What the geometry is built from: ``("board", board_id)``, ``("empty", map id, name)``
    or a map's ``("shape", (map id, land hexes, harbor sides, counts))``; equal keys, equal
    geometry."""
    hashed: int = field(init=False, repr=False)
    """``hash(key)``, made in each process (never pickled: string hashes differ by process)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "hashed", hash(self.key))

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, Topology) and self.key == other.key)

    def __hash__(self) -> int:
        return self.hashed

    def __reduce__(self) -> tuple[type[Topology], tuple[Any, ...]]:
        # rebuilt through __init__: the hash is made again where it lands
        return Topology, tuple(getattr(self, f.name) for f in fields(self) if f.init)

    @property
    def num_hexes(self) -> int:
        return len(self.hex_xy)

    @property
    def num_nodes(self) -> int:
        return len(self.node_xy)

    @property
    def num_edges(self) -> int:
        return len(self.edge_nodes)

    def spiral(self) -> list[int]:
        """Hex ids in the official spiral: from the first corner hex round the outer ring
        counter-clockwise, then the next ring inwards, ending in the centre."""
        remaining = list(range(self.num_hexes))
        order: list[int] = []
        start_corner: tuple[int, int] | None = None
        while remaining:
            rem = set(remaining)
            ring = [h for h in remaining if len([a for a in self.hex_adj[h] if a in rem]) < 6]
            if len(ring) == len(remaining) and len(ring) <= 1:
                order.extend(ring)
                break
            cx = sum(self.hex_xy[h][0] for h in remaining) / len(remaining)
            cy = sum(self.hex_xy[h][1] for h in remaining) / len(remaining)

            def angle(h: int, cx: float = cx, cy: float = cy) -> float:
                x, y = self.hex_xy[h]
                # screen coordinates, y down: counter-clockwise on screen = increasing angle
                return math.atan2(-(y - cy), (x - cx) * math.sqrt(3))

            first = min(ring, key=lambda h: (self.hex_xy[h][1], self.hex_xy[h][0]))
            if start_corner is None:
                start_corner = self.hex_xy[first]
            a0 = angle(first)
            ring.sort(key=lambda h: (angle(h) - a0) % (2 * math.pi))
            order.extend(ring)
            remaining = [h for h in remaining if h not in set(ring)]
        return order


_NEIGHBOUR_ORDER = ("e", "se", "sw", "w", "nw", "ne")
"""The order of each hex's neighbours in :attr:`Topology.hex_adj`."""


@cache
def topology(board_id: str) -> Topology:
    """The geometry of ``board_id`` (``hex19``, ``hex30``, ``hex44``), built once and cached."""
    spec = BOARDS[board_id]
    centres: list[Point] = []
    for r, (x0, count) in enumerate(spec["rows"]):
        centres.extend((x0 + 2 * k, 3 * r) for k in range(count))
    return build_topology(
        board_id,
        spec["name"],
        centres,
        terrain_counts=tuple(int(spec["terrain"][t]) for t in TERRAINS),
        token_counts={int(k): int(v) for k, v in spec["tokens"].items()},
        harbor_counts=(
            *(int(spec["harbors"].get(r, 0)) for r in RESOURCES),
            int(spec["harbors"]["generic"]),
        ),
        harbor_steps=spec["harbor_slots"],
        key=("board", board_id),
    )


def build_topology(
    board_id: str,
    name: str,
    centres: Sequence[Point],
    *,
    terrain_counts: tuple[int, ...],
    token_counts: dict[int, int],
    harbor_counts: tuple[int, ...],
    harbor_steps: Sequence[int] | None = None,
    harbor_ends: Sequence[tuple[Point, Point]] = (),
    key: tuple[Any, ...],
) -> Topology:
    """The one builder of a :class:`Topology`: hexes at ``centres`` (doubled grid, in hex id
    order), nodes at their corners sorted by y then x, edges as sorted node pairs.

    Harbor slots come one of two ways. A standard board (``boards.json``) gives
    ``harbor_steps``: positions along the coast walked clockwise from the top corner of hex 0,
    and :attr:`Topology.coast` is that walk. A map gives ``harbor_ends``: each slot's two end
    points; its coast (sea coast and lake shores, possibly several rings) is listed by edge id.
    ``key`` names what the geometry is built from (:attr:`Topology.key`)."""
    node_xy = sorted({p for c in centres for p in corners_at(c)}, key=lambda p: (p[1], p[0]))
    node_id = {p: i for i, p in enumerate(node_xy)}
    hex_nodes = tuple(tuple(node_id[p] for p in corners_at(c)) for c in centres)
    edge_hexes: dict[tuple[int, int], list[int]] = {}
    for h, nodes in enumerate(hex_nodes):
        for i in range(6):
            a, b = nodes[i], nodes[(i + 1) % 6]
            edge_hexes.setdefault((min(a, b), max(a, b)), []).append(h)
    edges = sorted(edge_hexes)
    edge_id = {k: i for i, k in enumerate(edges)}
    node_hexes: list[list[int]] = [[] for _ in node_xy]
    for h, nodes in enumerate(hex_nodes):
        for v in nodes:
            node_hexes[v].append(h)
    node_adj: list[list[int]] = [[] for _ in node_xy]
    node_edges: list[list[int]] = [[] for _ in node_xy]
    for e, (a, b) in enumerate(edges):
        node_adj[a].append(b)
        node_adj[b].append(a)
        node_edges[a].append(e)
        node_edges[b].append(e)
    hex_pos = {c: i for i, c in enumerate(centres)}
    steps = [centre(DIRECTIONS[d]) for d in _NEIGHBOUR_ORDER]
    hex_adj = tuple(
        tuple(hex_pos[(x + dx, y + dy)] for dx, dy in steps if (x + dx, y + dy) in hex_pos)
        for x, y in centres
    )
    coast_ids = [edge_id[k] for k in edges if len(edge_hexes[k]) == 1]
    if harbor_steps is not None:
        coast = _coast_walk(hex_nodes[0][0], node_xy, node_edges, edges, set(coast_ids))
        slots = tuple(coast[i] for i in harbor_steps)
    else:
        coast = coast_ids
        slots = tuple(
            edge_id[(min(a, b), max(a, b))]
            for a, b in ((node_id[p], node_id[q]) for p, q in harbor_ends)
        )
    return Topology(
        board_id=board_id,
        name=name,
        hex_xy=tuple(centres),
        hex_nodes=hex_nodes,
        hex_adj=hex_adj,
        node_xy=tuple(node_xy),
        node_hexes=tuple(tuple(x) for x in node_hexes),
        node_adj=tuple(tuple(x) for x in node_adj),
        node_edges=tuple(tuple(x) for x in node_edges),
        edge_nodes=tuple(edges),
        edge_hexes=tuple(tuple(edge_hexes[k]) for k in edges),
        coast=tuple(coast),
        harbor_slots=slots,
        terrain_counts=terrain_counts,
        token_counts=token_counts,
        harbor_counts=harbor_counts,
        edge_other=tuple({a: b, b: a} for a, b in edges),
        key=key,
    )


def _coast_walk(
    start: int,
    node_xy: Sequence[Point],
    node_edges: Sequence[Sequence[int]],
    edges: Sequence[tuple[int, int]],
    coast_edges: set[int],
) -> list[int]:
    """The coast edges in walk order: from node ``start`` clockwise round the island."""
    walk: list[int] = []
    prev_edge = -1
    v = start
    while True:
        options = [e for e in node_edges[v] if e in coast_edges and e != prev_edge]
        if prev_edge == -1:  # first step: go right (clockwise on screen)
            options.sort(key=lambda e: -node_xy[sum(edges[e]) - v][0])
        e = options[0]
        if e in walk:
            break
        walk.append(e)
        prev_edge = e
        v = sum(edges[e]) - v
    return walk


@dataclass(frozen=True, slots=True)
class Layout:
    """One game's board: terrain code and token per hex, harbor kind per slot, robber hex."""

    terrain: tuple[int, ...]
    tokens: tuple[int, ...]
    """Token per hex (0 for the desert)."""
    harbors: tuple[int, ...]
    robber: int
    """Robber start hex (-1: off the board, only on maps without a desert)."""

    def text(self) -> str:
        """``O10.W2....D... 3go3w33bl r9``: hexes, harbor kinds, robber start."""
        hexes = ".".join(
            TERRAIN_LETTERS[t] + (str(k) if k else "") for t, k in zip(self.terrain, self.tokens)
        )
        harbors = "".join("3" if k == GENERIC else LETTERS[k] for k in self.harbors)
        robber = "r-" if self.robber < 0 else f"r{self.robber}"
        return f"{hexes} {harbors} {robber}"


_HEX_RE = re.compile(r"^([LBWGOD])(\d{0,2})$")


def parse_layout(text: str) -> Layout:
    """Parse layout text (syntax only; :func:`validate_layout` checks it against a map)."""
    parts = text.split()
    if len(parts) != 3:
        raise LayoutError("a layout is '<hexes> <harbors> r<robber>'")
    terrain: list[int] = []
    tokens: list[int] = []
    for code in parts[0].split("."):
        m = _HEX_RE.match(code)
        if not m:
            raise LayoutError(f"bad hex code {code!r} (terrain letter + token, e.g. O10 or D)")
        terrain.append(TERRAIN_LETTERS.index(m.group(1)))
        tokens.append(int(m.group(2)) if m.group(2) else 0)
        if m.group(2) and str(tokens[-1]) != m.group(2):
            raise LayoutError(f"bad token in {code!r}")
    harbors: list[int] = []
    for ch in parts[1]:
        if ch == "3":
            harbors.append(GENERIC)
        elif ch in LETTER_INDEX:
            harbors.append(LETTER_INDEX[ch])
        else:
            raise LayoutError(f"bad harbor code {ch!r} (3 or one of {''.join(LETTERS)})")
    rob = parts[2]
    if rob == "r-":
        robber = -1
    elif re.fullmatch(r"r(0|[1-9]\d*)", rob):
        robber = int(rob[1:])
    else:
        raise LayoutError(f"bad robber start {rob!r} (r<hex> or r-)")
    return Layout(tuple(terrain), tuple(tokens), tuple(harbors), robber)


def red_conflict(topology: Topology, tokens: tuple[int, ...] | list[int]) -> tuple[int, int] | None:
    """A pair of adjacent red-token hexes (IR-13), or None."""
    for h, k in enumerate(tokens):
        if k in RED_TOKENS:
            for a in topology.hex_adj[h]:
                if a > h and tokens[a] in RED_TOKENS:
                    return (h, a)
    return None


def validate_layout(topology: Topology, layout: Layout) -> None:
    """Raise :class:`LayoutError` unless ``layout`` is a legal board for ``topology``."""
    n = topology.num_hexes
    if len(layout.terrain) != n:
        raise LayoutError(f"{topology.name} has {n} hexes, the layout {len(layout.terrain)}")
    counts = tuple(layout.terrain.count(t) for t in range(len(TERRAINS)))
    if counts != topology.terrain_counts:
        raise LayoutError(
            f"terrain counts {counts} differ from the map's {topology.terrain_counts}"
        )
    token_counts: dict[int, int] = {}
    for t, k in zip(layout.terrain, layout.tokens):
        if t == DESERT:
            if k:
                raise LayoutError("a desert carries no token (IR-10)")
        else:
            if not k:
                raise LayoutError("every producing hex carries a token (IR-12)")
            token_counts[k] = token_counts.get(k, 0) + 1
    if token_counts != topology.token_counts:
        raise LayoutError("the tokens differ from the map's token set (IR-12)")
    pair = red_conflict(topology, layout.tokens)
    if pair is not None:
        raise LayoutError(f"red tokens on adjacent hexes {pair[0]} and {pair[1]} (IR-13)")
    if len(layout.harbors) != len(topology.harbor_slots):
        raise LayoutError(f"{topology.name} has {len(topology.harbor_slots)} harbor slots")
    hcounts = tuple(layout.harbors.count(k) for k in range(NRES + 1))
    if hcounts != topology.harbor_counts:
        raise LayoutError(f"harbor kinds {hcounts} differ from the map's {topology.harbor_counts}")
    deserts = [h for h, t in enumerate(layout.terrain) if t == DESERT]
    if deserts:
        if layout.robber not in deserts:
            raise LayoutError("the robber starts on a desert (IR-14)")
    elif layout.robber != -1:
        raise LayoutError("without a desert the robber starts off the board (IR-14)")


def place_tokens(topology: Topology, terrain: list[int], rng: random.Random) -> list[int]:
    """Tokens at random with no two reds adjacent (IR-13): reds first, backtracking."""
    producing = [h for h, t in enumerate(terrain) if t != DESERT]
    reds = sorted(k for k, c in topology.token_counts.items() if k in RED_TOKENS for _ in range(c))
    others = sorted(
        k for k, c in topology.token_counts.items() if k not in RED_TOKENS for _ in range(c)
    )
    order = producing[:]
    rng.shuffle(order)
    chosen: list[int] = []

    def search(start: int) -> bool:
        if len(chosen) == len(reds):
            return True
        for i in range(start, len(order)):
            h = order[i]
            if any(a in chosen for a in topology.hex_adj[h]):
                continue
            chosen.append(h)
            if search(i + 1):
                return True
            chosen.pop()
        return False

    if not search(0):
        raise LayoutError("no red-token placement satisfies IR-13")
    tokens = [0] * topology.num_hexes
    red_values = reds[:]
    rng.shuffle(red_values)
    for h, k in zip(chosen, red_values):
        tokens[h] = k
    rest = [h for h in producing if h not in chosen]
    rng.shuffle(others)
    for h, k in zip(rest, others):
        tokens[h] = k
    return tokens


def random_layout(topology: Topology, rng: random.Random) -> Layout:
    """A random board: terrain shuffled (IR-11), tokens by IR-13, harbor kinds shuffled (IR-15),
    robber on a desert (IR-14, a random one when there are several)."""
    terrain = [t for t, c in enumerate(topology.terrain_counts) for _ in range(c)]
    rng.shuffle(terrain)
    tokens = place_tokens(topology, terrain, rng)
    harbors = [k for k, c in enumerate(topology.harbor_counts) for _ in range(c)]
    rng.shuffle(harbors)
    deserts = [h for h, t in enumerate(terrain) if t == DESERT]
    robber = deserts[int(rng.random() * len(deserts))] if deserts else -1
    return Layout(tuple(terrain), tuple(tokens), tuple(harbors), robber)


@cache
def beginner_layouts(board_id: str) -> tuple[Layout, ...]:
    """The fixed beginner layout of a map, once per robber start (one per desert)."""
    geometry = topology(board_id)
    spec = BOARDS[board_id]["beginner"]
    if spec is None:
        return ()
    if "layout" in spec:
        base = parse_layout(spec["layout"])
        terrain = list(base.terrain)
        tokens = list(base.tokens)
        harbors = list(base.harbors)
    else:
        terrain = [TERRAIN_LETTERS.index(c) for c in spec["terrain"]]
        tokens = [0] * geometry.num_hexes
        spiral_tokens = list(spec["spiral_tokens"])
        for h in geometry.spiral():
            if terrain[h] != DESERT:
                tokens[h] = spiral_tokens.pop(0)
        harbors = [GENERIC if c == "3" else LETTER_INDEX[c] for c in spec["harbors"]]
    deserts = [h for h, t in enumerate(terrain) if t == DESERT] or [-1]
    out = tuple(Layout(tuple(terrain), tuple(tokens), tuple(harbors), d) for d in deserts)
    for layout in out:
        validate_layout(geometry, layout)
    return out


class LayoutTables:
    """Per-layout lookup tables, built once per layout and shared by all clones.

    Equal and hashed by value, ``(topology, layout)``, never by identity; a pickled or copied
    one is rebuilt where it lands through :func:`layout_tables` (that process's shared tables),
    so the caches keyed by tables (``production``) find it (issue 25)."""

    __slots__ = (
        "hashed",
        "layout",
        "layout_text",
        "node_harbor",
        "node_pips",
        "node_sums",
        "production",
        "tokens",
        "topology",
    )

    def __init__(self, topology: Topology, layout: Layout):
        self.topology = topology
        self.layout = layout
        self.hashed = hash((topology, layout))
        self.layout_text: str = layout.text()
        """:meth:`Layout.text`, written once (every observation shows it)."""
        node_harbor = [-1] * topology.num_nodes
        for slot, e in enumerate(topology.harbor_slots):
            for v in topology.edge_nodes[e]:
                node_harbor[v] = layout.harbors[slot]
        self.node_harbor: tuple[int, ...] = tuple(node_harbor)
        """Harbor kind served at each node (-1 none)."""
        prod: dict[int, list[tuple[int, int, tuple[int, ...]]]] = {}
        for h, (t, k) in enumerate(zip(layout.terrain, layout.tokens)):
            if t != DESERT and k:
                prod.setdefault(k, []).append((h, t, topology.hex_nodes[h]))
        self.production: dict[int, tuple[tuple[int, int, tuple[int, ...]], ...]] = {
            k: tuple(v) for k, v in prod.items()
        }
        """For each dice sum: (hex, resource, corner nodes) of the hexes with that token."""
        self.node_pips: tuple[int, ...] = tuple(
            sum(DICE_PIPS.get(layout.tokens[h], 0) for h in topology.node_hexes[v])
            for v in range(topology.num_nodes)
        )
        self.tokens: tuple[int, ...] = layout.tokens
        """Token per hex (0 for the desert), as in the layout."""
        self.node_sums: tuple[frozenset[int], ...] = tuple(
            frozenset(
                layout.tokens[h]
                for h in topology.node_hexes[v]
                if layout.terrain[h] != DESERT and layout.tokens[h]
            )
            for v in range(topology.num_nodes)
        )
        """The dice sums whose production a building on each node takes part in."""

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if other.__class__ is not LayoutTables:
            return False
        assert isinstance(other, LayoutTables)
        return self.topology == other.topology and self.layout == other.layout

    def __hash__(self) -> int:
        return self.hashed

    def __reduce__(self) -> tuple[Any, tuple[Topology, Layout]]:
        return layout_tables, (self.topology, self.layout)


@lru_cache(maxsize=256)
def layout_tables(topology: Topology, layout: Layout) -> LayoutTables:
    """Cached :class:`LayoutTables` of ``layout`` on ``topology`` (a game creates each layout's
    tables once). Keyed by value (a topology compares by its key), so it serves the standard
    boards, the maps and every Driftland island alike, and a copied topology finds its tables."""
    return LayoutTables(topology, layout)


def empty_topology(board_id: str, name: str) -> Topology:
    """A topology without hexes: the geometry of a map whose island is only drawn with the
    layout outcome (Driftland), before that outcome."""
    return Topology(
        board_id=board_id,
        name=name,
        hex_xy=(),
        hex_nodes=(),
        hex_adj=(),
        node_xy=(),
        node_hexes=(),
        node_adj=(),
        node_edges=(),
        edge_nodes=(),
        edge_hexes=(),
        coast=(),
        harbor_slots=(),
        terrain_counts=(0,) * len(TERRAINS),
        token_counts={},
        harbor_counts=(0,) * (NRES + 1),
        edge_other=(),
        key=("empty", board_id, name),
    )
