"""The island game as an RL environment: action catalogue and observation encoding.

Built from the notation of ``docs/island.md`` and ``state.observation(seat)`` only; the board's
sizes come from the game's public ``topology``, the vocabulary (resource letters, development
cards, ratios) from its rules tables. Seats in the features are *relative* to the
observing seat (0 = itself, 1 = the next seat clockwise...); seats in action texts stay
absolute (``robber 5 steal 2``, ``complete @1 with 2``), as the notation writes them.

Driftland (a new coastline every game) has no fixed engine board, so its places are those of a
fixed **window**: every hex within the map's ``max_radius`` of the centre, its intersections and
sides (:class:`Window`). Each game's engine ids are mapped into the window from the island the
observation shows (``board.island``), so the catalogue and the vector keep one size
(``docs/rl.md``, *Driftland*).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from operator import attrgetter, itemgetter
from typing import Any, NamedTuple

import numpy as np

from hexfolk.core import Action, Game
from hexfolk.games.island import maps
from hexfolk.games.island import rules as R
from hexfolk.rl.codec import Codec, Features, UnmappedActionError, relative

JSON = dict[str, Any]
Hex = tuple[int, int]
Point = tuple[int, int]

LETTERS = "".join(R.LETTERS)
"""Resource letters of the notation, in notation order."""
RESOURCES = R.RESOURCES
"""Resource names of the observation's hands and bank, in notation order."""
TERRAINS = "".join(R.TERRAIN_LETTERS)
"""Terrain letters of a layout text (forest, hills, pasture, fields, mountains, desert)."""
HARBORS = LETTERS + "3"
"""Harbor kinds of a layout text (a resource, or ``3`` generic)."""
DEV_NAMES = R.DEV_NAMES
OFFER_SLOTS = R.MAX_OPEN_OFFERS
"""Open offers at once (IR-50); offer numbers are keyed by their slot."""
MARITIME_RATIOS = (R.RESOURCE_HARBOR_RATIO, R.GENERIC_RATIO, R.BANK_RATIO)
PHASES = (
    "setup-settlement",
    "setup-road",
    "pre-roll",
    "discard",
    "robber",
    "main",
    "road-building",
    "answer",
    "sbp-signup",
    "sbp-build",
    "over",
)
"""Prompt kinds of the observing seat (one-hot; chance kinds never reach an agent)."""
ANSWERS = ("accept", "reject", "counter")
TOKENS = R.DICE_SUMS
PLAYER_FEATURES = 14
"""Features per relative seat in the ``players`` block."""
WINDOW_MARK = "w"
"""Driftland's keys name window places: ``settle w37``, ``road w120``, ``robber w30 steal 2``."""
PLACED = ("settle", "city", "road", "robber")
"""Actions naming an engine place (a node, an edge, a hex) by id."""


def bundle(counts: Sequence[int]) -> str:
    """Canonical bundle text (``1l 2o``; ``-`` for none)."""
    words = [f"{c}{LETTERS[r]}" for r, c in enumerate(counts) if c]
    return " ".join(words) if words else "-"


def parse_bundle(text: str) -> list[int]:
    """Counts per resource of a canonical bundle text."""
    counts = [0] * len(LETTERS)
    if text == "-":
        return counts
    for word in text.split():
        counts[LETTERS.index(word[-1])] += int(word[:-1])
    return counts


def _cards(cards: dict[str, int]) -> str:
    """Canonical bundle text of an action's cards in their JSON form (``{"lumber": 1}``)."""
    return bundle([cards.get(name, 0) for name in RESOURCES])


def _one(r: int) -> list[int]:
    return [1 if i == r else 0 for i in range(len(LETTERS))]


def catalogue(players: int, hexes: int, nodes: int, edges: int, mark: str = "") -> list[str]:
    """Every action key of an island configuration, in index order (``docs/rl.md``). ``mark``
    prefixes place numbers (``"w"``: Driftland's window places)."""
    nres = len(LETTERS)
    keys = ["end", "roll", "buy", "play knight", "play roads", "robber stay", "sbp join"]
    keys.append("sbp pass")
    keys += [f"settle {mark}{v}" for v in range(nodes)]
    keys += [f"city {mark}{v}" for v in range(nodes)]
    keys += [f"road {mark}{e}" for e in range(edges)]
    keys += [f"robber {mark}{h}" for h in range(hexes)]
    keys += [f"robber {mark}{h} steal {q}" for h in range(hexes) for q in range(players)]
    keys += [f"discard {c}" for c in LETTERS]
    keys += [f"play monopoly {c}" for c in LETTERS]
    plenty = [
        [(i == r) + (i == s) for i in range(nres)] for r in range(nres) for s in range(r, nres)
    ]
    plenty += [_one(r) for r in range(nres)]
    keys += ["play plenty " + bundle(b) for b in plenty]
    for k in MARITIME_RATIOS:
        keys += [
            f"trade {k}{LETTERS[r]} for 1{LETTERS[s]}"
            for r in range(nres)
            for s in range(nres)
            if s != r
        ]
    keys += [f"offer 1{a} for 1{b}" for a in LETTERS for b in LETTERS if a != b]
    for slot in range(1, OFFER_SLOTS + 1):
        keys += [f"accept @{slot}", f"reject @{slot}", f"withdraw @{slot}"]
        keys += [f"counter @{slot}: 1{c}" for c in LETTERS]
        keys += [f"complete @{slot} with {q}" for q in range(players)]
    return keys


@dataclass(frozen=True)
class Window:
    """The fixed places of a map whose coastline changes every game: every hex within
    ``radius`` of the centre (axial, by row then column), their intersections (doubled-grid
    points by y then x, as ``board.py`` numbers nodes) and sides (sorted node pairs)."""

    radius: int
    hexes: tuple[Hex, ...]
    points: tuple[Point, ...]
    edges: tuple[tuple[int, int], ...]

    @staticmethod
    def of_radius(radius: int) -> Window:
        centre = (0, 0)
        hexes = sorted(
            ((q, r) for q in range(-radius, radius + 1) for r in range(-radius, radius + 1)),
            key=lambda h: (h[1], h[0]),
        )
        hexes = [h for h in hexes if maps.distance(h, centre) <= radius]
        points = sorted({p for h in hexes for p in maps.corners(h)}, key=lambda p: (p[1], p[0]))
        point_id = {p: i for i, p in enumerate(points)}
        edges: set[tuple[int, int]] = set()
        for h in hexes:
            ids = [point_id[p] for p in maps.corners(h)]
            for k in range(6):
                a, b = ids[k], ids[(k + 1) % 6]
                edges.add((min(a, b), max(a, b)))
        return Window(radius, tuple(hexes), tuple(points), tuple(sorted(edges)))


@dataclass
class Placement:
    """One board as the encoder sees it: engine ids -> catalogue places (the identity on a
    fixed board), the static features of the layout (terrain, tokens, harbors, water) as one
    float32 block, and the memo of the action indices on this board."""

    hex_of: Sequence[int]
    node_of: Sequence[int]
    edge_of: Sequence[int]
    block: np.ndarray
    memo: dict[type, tuple[Any, dict[Any, Any]]]
    """Per action class: the getter of its fields and the table of their values (the key
    :meth:`IslandCodec.memo_key`, split in two) -> the action's index, or for a slotted action
    its index at each slot (None: none). Keyed by value, never by object identity."""
    pieces: dict[int, tuple[list[list[int]], ...]] = field(default_factory=dict)
    """Per observing seat: the feature index of each owner's piece on each node and edge."""
    template: np.ndarray | None = None
    """The whole vector with the layout block in place and everything else 0 (encoding starts
    from a copy)."""
    drawn: dict[int, tuple[Any, list[Any], list[Any], list[Any], np.ndarray]] = field(
        default_factory=dict
    )
    """Per observing seat: the last robber hex and pieces drawn (copies) and their vector (the
    template with the robber and the pieces in place; most steps move and build nothing)."""


_SLOTTED = frozenset(("accept", "reject", "withdraw", "counter", "complete"))
"""Kinds of the actions naming an offer by number (their field ``offer``): keyed by the
offer's slot."""
_PLAYER_COUNTS = itemgetter(
    "cards",
    "dev_cards",
    "dev_bought_this_turn",
    "knights",
    "visible_vp",
    "road_length",
    "roads_left",
    "settlements_left",
    "cities_left",
)
"""The counted fields of a seat in the observation's ``players``, in block order."""
_PLAYER_SCALES = (20, 10, 5, 10, None, 15, 15, 5, 4)
"""Their scales (None: the VP target)."""
_RESOURCE_COUNTS = itemgetter(*RESOURCES)
_DEV_COUNTS = itemgetter(*DEV_NAMES)


class _Valued(NamedTuple):
    """Where :meth:`IslandCodec._put` writes the counts of one shape of an observation."""

    where: np.ndarray
    """The counted features, in :meth:`IslandCodec._fill`'s order of the values."""
    rows: bytearray
    """Their values' indices in :meth:`IslandCodec._byte_values`, as little-endian int64s:
    where each row starts (a multiple of 256), a count in its low byte (:meth:`IslandCodec._put`
    writes every count before each read)."""
    at: np.ndarray
    """:attr:`rows` as an array (a view: it reads the counts written into :attr:`rows`)."""
    scale: np.ndarray
    """Their scales (a count not a byte: :meth:`IslandCodec._put`'s general path)."""


@dataclass(frozen=True)
class _SeatTables:
    """Feature indices of the per-seat blocks as one observing seat sees them, by absolute
    seat (a seat the tables do not know sets nothing, as in a walk over the seats)."""

    flags: dict[int, int]
    """Seat -> its first flag in ``players`` (declines offers; Longest Road, Largest Army,
    active, acting follow)."""
    answers: list[dict[str, int]]
    """Per offer slot: seat (as the answers key it, text) -> its answer one-hot."""
    discards: dict[int, int]
    """Seat -> its ``owes a discard`` flag (``has committed`` follows)."""


def _field_getter(action: Action, but: str | None = None) -> Any:
    """A function of an action to its fields (a tuple, in C): the dataclass fields of its
    class but ``but``; the action itself for another class (then keyed by its own equality)."""
    if not dataclasses.is_dataclass(action):
        return lambda a: a
    names = [f.name for f in dataclasses.fields(action) if f.name != but]
    if not names:
        return attrgetter("__class__")  # a constant of the class, read in C
    return attrgetter(*names) if len(names) > 1 else attrgetter(names[0])


_SEAT = itemgetter("seat")
_OFFER_OF = attrgetter("offer")
"""The offer number of an action naming an offer (the number of its text: ``accept 5``)."""
_OFFER_NUMBER = itemgetter("id")
_ANSWER_AT = {"accept": ANSWERS.index("accept"), "reject": ANSWERS.index("reject")}
"""An answer's place in the answer one-hot (a counter is a dict)."""
_MEMO = 20_000
"""Memo entries (actions) per board before it is cleared (offer numbers keep growing)."""
_CACHE = 64
"""Boards (layouts) remembered per codec; a table of more is cleared (Driftland: one per game)."""
_BYTE = 255
"""The largest count :meth:`IslandCodec._put` takes through bytes."""
_INDEX = np.dtype("<i8")
"""The dtype of :attr:`_Valued.rows`."""


class IslandCodec(Codec):
    """Catalogue and encoder of one island configuration (player count, options, map)."""

    def __init__(self, game: Game):
        self.players = n = game.num_players
        self.window: Window | None = None
        self.island_map: Any = getattr(game, "map", None)
        """The map of the ``map`` option (``maps.IslandMap``), None on the standard board."""
        if getattr(game, "fixed_geometry", True):
            topology: Any = getattr(game, "topology")  # noqa: B009 - the island game's public geometry
            hexes, nodes, edges = topology.num_hexes, topology.num_nodes, topology.num_edges
            self.harbors = len(topology.harbor_slots)
            mark = ""
        else:
            coast = getattr(self.island_map, "coastline", None)
            if coast is None:
                raise ValueError(f"{game.options.get('map')}: no fixed board and no coastline rule")
            self.window = window = Window.of_radius(coast.max_radius)
            hexes, nodes, edges = len(window.hexes), len(window.points), len(window.edges)
            self.harbors = 0
            mark = WINDOW_MARK
        self.hexes, self.nodes, self.edges = hexes, nodes, edges
        self.vp_target = float(game.options["vp_target"])
        f = Features()
        nres = len(LETTERS)
        self.o_phase = f.add("phase", len(PHASES), "prompt kind of the seat, one-hot")
        self.o_prompt = f.add(
            "prompt", 3, "cards still to discard /10, cards of the discard /10, free roads /2"
        )
        self.o_turn = f.add("turn", 1, "turn number /200")
        if self.window is None:
            self.water = 0
            self.per_hex = len(TERRAINS) + len(TOKENS) + 1
            self.o_hex = f.add(
                "hexes",
                hexes * self.per_hex,
                "per hex: terrain one-hot (L B W G O D), token one-hot (2..12), robber here",
            )
            self.o_harbor = f.add(
                "harbors", self.harbors * len(HARBORS), "per harbor slot: kind l b w g o 3"
            )
        else:
            self.water = 2
            self.per_hex = 2 + len(TERRAINS) + len(TOKENS) + 1
            self.o_hex = f.add(
                "hexes",
                hexes * self.per_hex,
                "per window hex: sea, lake, terrain one-hot (L B W G O D), token one-hot "
                "(2..12), robber here",
            )
            self.o_harbor = f.add(
                "harbors", nodes * len(HARBORS), "per window node: harbor kind l b w g o 3"
            )
        self.o_node = f.add("nodes", nodes * 2 * n, "per node, per relative seat: settlement, city")
        self.o_edge = f.add("edges", edges * n, "per edge, per relative seat: road")
        self.o_player = f.add(
            "players",
            n * PLAYER_FEATURES,
            "per relative seat: cards /20, development cards /10, bought this turn /5, "
            "knights /10, visible VP /target, road length /15, roads left /15, settlements "
            "left /5, cities left /4, declines offers, holds Longest Road, holds Largest Army, "
            "active, acting",
        )
        self.o_hand = f.add("hand", nres, "own hand per resource /10")
        self.o_dev = f.add("dev_hand", len(DEV_NAMES), "own development cards per kind /5")
        self.o_vp = f.add("vp", 1, "own total VP /target")
        self.o_bank = f.add("bank", nres + 1, "bank per resource /19, bank hidden")
        self.o_deck = f.add("deck", 1, "development cards left /25")
        per_offer = 1 + 2 * nres + n * (len(ANSWERS) + nres)
        self.o_offer = f.add(
            "offers",
            OFFER_SLOTS * per_offer,
            "per offer slot: open, give per resource /5, get per resource /5, per relative "
            "seat: answer one-hot (accept reject counter) and the counter's give /5",
        )
        self.per_offer = per_offer
        self.o_discard = f.add(
            "discards",
            n * 2 + 1 + nres,
            "per relative seat: owes a discard, has committed; a discard is under way; own "
            "cards picked so far per resource /10",
        )
        self.rel = [[relative(s, o, n) for o in range(n)] for s in range(n)]
        """``rel[seat][other]``: where ``other`` sits from ``seat``."""
        # precomputed index tables of the vectorised writer
        self._phase_at = {kind: self.o_phase + i for i, kind in enumerate(PHASES)}
        first = [self.o_player + r * PLAYER_FEATURES for r in range(n)]
        self._player_at = [list(range(f0, f0 + 9)) for f0 in first]
        self._own_at = (
            list(range(self.o_hand, self.o_hand + nres))
            + list(range(self.o_dev, self.o_dev + len(DEV_NAMES)))
            + [self.o_vp]
        )
        self._bank_at = list(range(self.o_bank, self.o_bank + nres))
        self._offer_slot = frozenset(
            range(self.o_offer, self.o_offer + OFFER_SLOTS * self.per_offer, self.per_offer)
        )
        """The open flag of each offer slot."""
        self._seat_order = list(range(n))
        self._bundles: dict[str, list[int]] = {}
        self._boards: dict[tuple[str, str | None], Placement] = {}
        self._board: Placement | None = None
        self._board_key: tuple[str, str | None] | None = None
        self._memo: dict[type, tuple[Any, dict[Any, Any]]] = {}
        """The board's memo of :meth:`indices` (:attr:`Placement.memo`)."""
        self._at_slot: dict[str, tuple[int | None, ...]] = {}
        """A slotted key (``accept @{}``) -> its index at each slot (None: none)."""
        self._fields: dict[type, Any] = {}
        """Action class -> the getter of its fields in :meth:`memo_key`."""
        super().__init__(game, catalogue(n, hexes, nodes, edges, mark), f)
        self._scale = self._scales()
        self._values, self._row_at = self._byte_values()
        self._empty = np.zeros(f.size, dtype=np.float32)
        """The vector before the layout is drawn, everything else 0."""
        self._seat_tables = [self._tables_of(seat) for seat in range(n)]
        self._valued: dict[tuple[Any, ...], _Valued] = {}
        """:meth:`_valued_at`'s memo."""
        self._flags: dict[tuple[int, ...], np.ndarray] = {}
        """The flags that are 1 (a tuple of indices) -> as an index array (:meth:`_put`)."""
        if np.float32(_BYTE) * self._scale[self.o_turn] < 1:
            raise ValueError(f"the turn's scale is above {_BYTE}: _fill clips the turn at {_BYTE}")

    def _scales(self) -> np.ndarray:
        """1 / the scale of every feature (1 for flags and one-hot blocks), in vector order."""
        scale = np.ones(self.features.size, dtype=np.float32)
        n, nres = self.players, len(LETTERS)

        def put(at: int, *scales: float) -> None:
            scale[at : at + len(scales)] = [1.0 / x for x in scales]

        put(self.o_prompt, 10, 10, 2)
        put(self.o_turn, 200)
        target = self.vp_target
        for r in range(n):
            put(self.o_player + r * PLAYER_FEATURES, *(x or target for x in _PLAYER_SCALES))
        put(self.o_hand, *[10] * nres)
        put(self.o_dev, *[5] * len(DEV_NAMES))
        put(self.o_vp, target)
        put(self.o_bank, *[19] * nres)
        put(self.o_deck, 25)
        for i in range(OFFER_SLOTS):
            base = self.o_offer + i * self.per_offer
            put(base + 1, *[5] * (2 * nres))
            for r in range(n):
                put(base + 1 + 2 * nres + r * (len(ANSWERS) + nres) + len(ANSWERS), *[5] * nres)
        put(self.o_discard + 2 * n + 1, *[10] * nres)
        return scale

    def _byte_values(self) -> tuple[np.ndarray, np.ndarray]:
        """Every feature's value of every count 0..255, ``min(count * scale, 1)`` in float32
        (:meth:`_put` looks the values up: one numpy call instead of a multiply and a clip):
        the values, one row of 256 per distinct scale, and the start of each feature's row."""
        scales, row = np.unique(self._scale, return_inverse=True)
        counts = np.arange(_BYTE + 1, dtype=np.uint8)
        values = np.minimum(counts[None, :] * scales[:, None], np.float32(1))
        return values.ravel(), (row * (_BYTE + 1)).astype(np.intp)

    def _tables_of(self, seat: int) -> _SeatTables:
        """The feature indices of the per-seat blocks seen from ``seat``, by absolute seat."""
        n, nres, rel = self.players, len(LETTERS), self.rel[seat]
        flags = {p: self.o_player + rel[p] * PLAYER_FEATURES + 9 for p in range(n)}
        per_seat = len(ANSWERS) + nres
        answers = [
            {str(q): base + 1 + 2 * nres + rel[q] * per_seat for q in range(n)}
            for base in range(
                self.o_offer, self.o_offer + OFFER_SLOTS * self.per_offer, self.per_offer
            )
        ]
        discards = {q: self.o_discard + rel[q] * 2 for q in range(n)}
        return _SeatTables(flags, answers, discards)

    def _valued_at(self, key: tuple[Any, ...]) -> _Valued:
        """Where :meth:`_put` writes the counts of ``key`` (seat, own prompt, own hand seen,
        bank seen, then the ``shape`` of :meth:`_extra_at`; players in seat order)."""
        seat, mine, hand, bank = key[:4]
        at: list[int] = []
        if mine:
            at += (self.o_prompt, self.o_prompt + 1, self.o_prompt + 2)
        at.append(self.o_turn)
        rel = self.rel[seat]
        for p in range(self.players):
            at += self._player_at[rel[p]]
        if hand:
            at += self._own_at
        if bank:
            at += self._bank_at
        at.append(self.o_deck)
        at += self._extra_at(key[4:])
        where = np.array(at, dtype=np.intp)
        if len(self._valued) >= _MEMO:
            self._valued.clear()
        rows = bytearray(self._row_at[where].astype(_INDEX).tobytes())
        view = np.frombuffer(rows, _INDEX)
        entry = self._valued[key] = _Valued(where, rows, view, self._scale[where])
        return entry

    def _extra_at(self, shape: Sequence[int]) -> list[int]:
        """The indices of the offers' and discards' counts :meth:`_fill_offers` wrote, from
        its ``shape``: an offer's open flag (its give and get follow), a counter's answer
        one-hot (its give follows the one-hot), the first of the discard's picked cards."""
        nres = len(LETTERS)
        picked = self.o_discard + 2 * self.players + 1
        at: list[int] = []
        for where in shape:
            if where in self._offer_slot:
                at += range(where + 1, where + 1 + 2 * nres)
            elif where == picked:
                at += range(where, where + nres)
            else:
                at += range(where + len(ANSWERS), where + len(ANSWERS) + nres)
        return at

    # --------------------------------------------------------------------- boards
    def placement(self, board: JSON) -> Placement | None:
        """The :class:`Placement` of an observation's ``board`` (None before the layout)."""
        layout = board["layout"]
        if not layout:
            return None
        key = (layout, board.get("island"))
        if key == self._board_key:
            return self._board
        place = self._boards.get(key)
        if place is None:
            if len(self._boards) >= _CACHE:
                self._boards.clear()
            place = self._boards[key] = (
                self._fixed_board(layout) if self.window is None else self._window_board(key[1])
            )
        self._board_key, self._board = key, place
        self._memo = place.memo
        return place

    def _fixed_board(self, layout: str) -> Placement:
        block = np.zeros(self.o_node - self.o_hex, dtype=np.float32)
        hex_text, harbor_text, _robber = layout.split(" ")
        words = hex_text.split(".")
        if len(words) != self.hexes or len(harbor_text) != self.harbors:
            raise ValueError(
                f"layout of {len(words)} hexes and {len(harbor_text)} harbors on a board "
                f"of {self.hexes} and {self.harbors}: {layout!r}"
            )
        for h, word in enumerate(words):
            base = h * self.per_hex
            block[base + TERRAINS.index(word[0])] = 1.0
            if len(word) > 1:
                block[base + len(TERRAINS) + TOKENS.index(int(word[1:]))] = 1.0
        at = self.o_harbor - self.o_hex
        for i, c in enumerate(harbor_text):
            block[at + i * len(HARBORS) + HARBORS.index(c)] = 1.0
        return Placement(
            range(self.hexes),
            range(self.nodes),
            range(self.edges),
            block,
            self._memo,  # a fixed board's indices do not depend on its layout: one memo
            template=self._template(block),
        )

    def _template(self, block: np.ndarray) -> np.ndarray:
        """The vector of a board before anything else is written: its layout block."""
        template = np.zeros(self.features.size, dtype=np.float32)
        template[self.o_hex : self.o_node] = block
        return template

    def _window_board(self, island: str | None) -> Placement:
        window = self.window
        assert window is not None
        if island is None:
            raise ValueError(f"{self.island_map.id}: the observation's board names no island")
        layout = maps.parse_layout_text(self.island_map, island, validate=False)
        topology, _engine = maps.to_engine(layout)
        hex_id = {h: i for i, h in enumerate(window.hexes)}
        point_id = {p: i for i, p in enumerate(window.points)}
        edge_id = {e: i for i, e in enumerate(window.edges)}
        outside = [h.at for h in layout.hexes if h.at not in hex_id]
        if outside:
            raise ValueError(
                f"{self.island_map.id}: the island reaches {outside[0]}, outside the window of "
                f"radius {window.radius}"
            )
        hex_of = [hex_id[(((x - y // 3) // 2), y // 3)] for x, y in topology.hex_xy]
        node_of = [point_id[p] for p in topology.node_xy]
        edge_of = []
        for a, b in topology.edge_nodes:
            u, v = node_of[a], node_of[b]
            edge_of.append(edge_id[(min(u, v), max(u, v))])
        block = np.zeros(self.o_node - self.o_hex, dtype=np.float32)
        per = self.per_hex
        land = {h.at: h for h in layout.hexes}
        for i, h in enumerate(window.hexes):
            placed = land.get(h)
            base = i * per
            if placed is None:
                block[base] = 1.0  # sea
            elif placed.kind == maps.LAKE:
                block[base + 1] = 1.0
            elif placed.kind == maps.DESERT:
                block[base + 2 + TERRAINS.index("D")] = 1.0
            else:
                block[base + 2 + R.TERRAINS.index(placed.terrain)] = 1.0
                block[base + 2 + len(TERRAINS) + TOKENS.index(placed.token)] = 1.0
        o_harbor = self.o_harbor - self.o_hex
        for hb in layout.harbors:
            kind = "3" if hb.kind == maps.GENERIC_HARBOR else LETTERS[RESOURCES.index(hb.kind)]
            for p in hb.points():
                block[o_harbor + point_id[p] * len(HARBORS) + HARBORS.index(kind)] = 1.0
        return Placement(hex_of, node_of, edge_of, block, {}, template=self._template(block))

    # --------------------------------------------------------------------- actions
    def dynamic(self, action: Action) -> bool:
        return action.to_json()["kind"] in _SLOTTED

    def _key_of(self, action: Action, place: Placement | None) -> tuple[str, int | None]:
        """The key of an action, with ``{}`` for the offer slot, and the offer number the slot
        is taken from (None: the key has no slot). Read from the action's fields (its JSON
        form, ``docs/island.md``), never from its text; an action whose key has no slot and
        names no window place is keyed by its text, the id the catalogue lists."""
        doc = action.to_json()
        kind = doc["kind"]
        if kind in _SLOTTED:
            offer = doc["offer"]  # None: the shorthand naming no offer (``accept``)
            if offer is not None:
                if kind == "counter":  # keyed by the cards given (docs/rl.md)
                    return f"counter @{{}}: {_cards(doc['give'])}", offer
                if kind != "complete":
                    return f"{kind} @{{}}", offer
                if doc["seat"] is not None:
                    return f"complete @{{}} with {doc['seat']}", offer
        elif place is not None and kind in PLACED and self.window is not None:
            if kind == "robber":
                if doc["hex"] is not None:  # not ``robber stay``
                    victim = doc["victim"]
                    steal = "" if victim is None else f" steal {victim}"
                    return f"robber {WINDOW_MARK}{place.hex_of[doc['hex']]}{steal}", None
            elif kind == "road":
                return f"road {WINDOW_MARK}{place.edge_of[doc['edge']]}", None
            else:
                return f"{kind} {WINDOW_MARK}{place.node_of[doc['node']]}", None
        return str(action), None

    def keys(self, legal: Sequence[Action], observation: JSON) -> list[str]:
        place = self.placement(observation["board"]) if self.window is not None else None
        slots = {str(o["id"]): i + 1 for i, o in enumerate(observation["offers"])}
        out = []
        for action in legal:
            key, offer = self._key_of(action, place)
            out.append(key if offer is None else key.format(slots.get(str(offer), 0)))
        return out

    def memo_key(self, action: Action) -> Any:
        """The key of ``action`` in the memo of :meth:`indices`: its class and its fields,
        equal exactly when the actions are (the kernel's actions are frozen dataclasses,
        compared field by field), but hashed and compared in C, not by the dataclass's
        Python ``__hash__`` and ``__eq__`` (an answer is a new object at every step). A
        slotted action's key leaves out its offer number (its field ``offer``), read at each
        step: every new offer would otherwise be a miss. A value, never the object's
        identity: a copied, unpickled or parsed action has the key of the listed one."""
        return (action.__class__, self._getter(action)(action))

    def _getter(self, action: Action) -> Any:
        """The getter of :meth:`memo_key`'s fields of ``action``'s class (made once)."""
        cls = action.__class__
        getter = self._fields.get(cls)
        if getter is None:
            slotted = self.dynamic(action)
            if slotted and not hasattr(action, "offer"):
                raise ValueError(f"island: {cls.__name__} names an offer but has no field offer")
            getter = self._fields[cls] = _field_getter(action, "offer" if slotted else None)
        return getter

    def indices(self, legal: Sequence[Action], observation: JSON) -> list[int]:
        """:meth:`Codec.indices` through one memo per board: an action without a slot maps to
        its index, a slotted one to its index at each slot (its offer names the slot). An
        action is looked up by value (:meth:`memo_key`: the memo holds per class the getter
        of its fields and a table by their values), never by object identity: an action
        copied, unpickled or parsed from text finds the entry of the one listed (issue 25)."""
        # a fixed board's memo is the codec's own, one for every layout (_fixed_board), and
        # its keys do not name the board's places: only a window's board is looked up
        place = None if self.window is None else self.placement(observation["board"])
        memo = self._memo
        out: list[int] = []
        slots: list[int] | None = None
        """The offer number of each slot the seat sees."""
        for action in legal:
            by_class = memo.get(action.__class__)
            if by_class is None:
                by_class = memo[action.__class__] = (self._getter(action), {})
            value = by_class[0](action)
            entry = by_class[1].get(value)
            if entry is None:
                entry = self._memo_entry(action, place)
                table = by_class[1]
                if len(table) > _MEMO:
                    table.clear()
                table[value] = entry
            if entry.__class__ is int:
                out.append(entry)
                continue
            if slots is None:
                slots = list(map(_OFFER_NUMBER, observation["offers"]))
            offer, at_slot = _OFFER_OF(action), entry
            k = slots.index(offer) if offer in slots else OFFER_SLOTS
            if k >= OFFER_SLOTS:
                raise UnmappedActionError(
                    f"island: legal action {str(action)!r} names offer {offer}, which "
                    f"is not among the {len(slots)} open offers the seat sees"
                )
            i = at_slot[k]
            if i is None:
                slot_key = self._key_of(action, place)[0].format(k + 1)
                self._index_of(action, slot_key)  # raises: no index
            out.append(i)
        if len(set(out)) != len(out):
            raise UnmappedActionError(
                f"island: two legal actions share an index: {[str(a) for a in legal]}"
            )
        return out

    def _memo_entry(self, action: Action, place: Placement | None) -> Any:
        """An action's index, or its index at each slot (None: none)."""
        key, offer = self._key_of(action, place)
        if offer is None:
            return self._index_of(action, key)
        at_slot = self._at_slot.get(key)
        if at_slot is None:
            index = self.index
            at_slot = tuple(index.get(key.format(k + 1)) for k in range(OFFER_SLOTS))
            self._at_slot[key] = at_slot
        return at_slot

    def _index_of(self, action: Action, key: str) -> int:
        i = self.index.get(key)
        if i is None:
            raise UnmappedActionError(
                f"island: legal action {str(action)!r} (key {key!r}) has no index in the "
                "action catalogue"
            )
        return i

    # --------------------------------------------------------------------- observation
    def _bundle(self, text: str) -> list[int]:
        counts = self._bundles.get(text)
        if counts is None:
            if len(self._bundles) > 4096:
                self._bundles.clear()
            counts = self._bundles[text] = parse_bundle(text)
        return counts

    def _pieces(self, place: Placement, seat: int) -> tuple[list[list[int]], ...]:
        """Feature index of a settlement, a city and a road of each owner seen from ``seat``:
        ``[owner][engine node]`` (resp. edge), per board and seat (memo)."""
        tables = place.pieces.get(seat)
        if tables is None:
            n, rel = self.players, self.rel[seat]
            o_node, o_edge = self.o_node, self.o_edge
            settle = [[o_node + (w * n + rel[o]) * 2 for w in place.node_of] for o in range(n)]
            city = [[i + 1 for i in row] for row in settle]
            road = [[o_edge + w * n + rel[o] for w in place.edge_of] for o in range(n)]
            tables = place.pieces[seat] = (settle, city, road)
        return tables

    def encode(self, observation: JSON) -> np.ndarray:
        """The float32 feature vector of a seat's observation: a copy of the board's vector of
        the seat (:meth:`_drawn`), then :meth:`_fill`."""
        place = self.placement(observation["board"])
        seat = observation["seat"]
        if seat is None:
            seat = 0
        vec = self._empty.copy() if place is None else self._drawn(place, seat, observation).copy()
        self._fill(observation, vec, seat)
        return vec

    def _drawn(self, place: Placement, seat: int, obs: JSON) -> np.ndarray:
        """The board's template with the robber and the settlements, cities and roads of
        ``obs`` seen from ``seat``; the last one of each seat is remembered with the robber's
        hex and a copy of the pieces."""
        robber = obs["board"]["robber"]
        settlements, cities, roads = obs["settlements"], obs["cities"], obs["roads"]
        last = place.drawn.get(seat)
        if (
            last is not None
            and last[0] == robber
            and last[1] == settlements
            and last[2] == cities
            and last[3] == roads
        ):
            return last[4]
        if place.template is None:
            place.template = self._template(place.block)
        vec = place.template.copy()
        settle, city, road = self._pieces(place, seat)
        flags = [settle[o][v] for v, o in settlements]
        flags += [city[o][v] for v, o in cities]
        flags += [road[o][e] for e, o in roads]
        if robber is not None and robber >= 0:
            flags.append(self.o_hex + place.hex_of[robber] * self.per_hex + self.per_hex - 1)
        vec[np.array(flags, dtype=np.intp)] = 1.0
        copies = [list(x) for x in settlements], [list(x) for x in cities], [list(x) for x in roads]
        place.drawn[seat] = (robber, *copies, vec)
        return vec

    def write(self, obs: JSON, vec: np.ndarray) -> None:
        """Fill ``vec`` (zeros) with :meth:`encode`'s vector."""
        vec[:] = self.encode(obs)

    def _fill(self, obs: JSON, vec: np.ndarray, seat: int) -> None:
        """Write everything but the board (:meth:`_drawn`) into ``vec``: the flags as 1, each
        count as ``min(count * scale, 1)`` in float32, ``scale`` from :attr:`_scale` (1 / the
        documented scale of each feature)."""
        tables = self._seat_tables[seat]
        ones: list[int] = []
        """Indices of the flags that are 1."""
        val: list[float] = []
        """Raw values of the counted features at :meth:`_valued_at`'s indices."""
        shape: list[int] = []
        """The other counted features written (offers, counters, discards: :meth:`_extra_at`)."""
        prompt = obs["prompt"]
        mine = prompt is not None and prompt["seat"] == seat
        kind = prompt["kind"] if mine else obs["phase"]
        phase_at = self._phase_at.get(kind)
        if phase_at is not None:
            ones.append(phase_at)
        if mine:
            data = prompt["data"]
            left = data.get("left", 0)
            val += (
                left if kind == "discard" else 0,
                data.get("need", 0),
                left if kind == "road-building" else 0,
            )
        turn = obs["turn"]
        # a long game's turn past a byte: every turn from 255 on clips to 1, as 255 does
        # (checked in __init__), so it is written as 255 and the counts stay bytes
        val.append(turn if turn < _BYTE else _BYTE)
        players = obs["players"]
        if list(map(_SEAT, players)) != self._seat_order:  # not one entry per seat, in order
            players = sorted(players, key=_SEAT)
            if list(map(_SEAT, players)) != self._seat_order:
                raise ValueError(
                    f"the observation's players name seats {[p['seat'] for p in players]}; "
                    f"an island observation has one entry per seat 0..{self.players - 1}"
                )
        flags = tables.flags
        counts = _PLAYER_COUNTS
        declines = False
        for info in players:
            val += counts(info)
            if "declines_offers" in info:
                declines = True
        if declines:
            ones += [flags[p] for p, info in enumerate(players) if info.get("declines_offers")]
        own = players[seat]
        hand = "hand" in own
        if hand:
            val += _RESOURCE_COUNTS(own["hand"])
            val += _DEV_COUNTS(own["dev_hand"])
            val.append(own["vp"])
        holder = obs["longest_road"]
        if holder in flags:
            ones.append(flags[holder] + 1)
        holder = obs["largest_army"]
        if holder in flags:
            ones.append(flags[holder] + 2)
        active = obs["active"]
        if active in flags:
            ones.append(flags[active] + 3)
        for p in obs["acting"] or ():
            if p in flags:
                ones.append(flags[p] + 4)
        bank = obs["bank"]
        if bank is None:
            ones.append(self.o_bank + len(RESOURCES))
        else:
            val += _RESOURCE_COUNTS(bank)
        val.append(obs["deck"])
        self._fill_offers(obs, tables, ones, shape, val)
        key = (seat, mine, hand, bank is not None, *shape)
        self._put(vec, self._valued.get(key) or self._valued_at(key), val, tuple(ones))

    def _put(
        self, vec: np.ndarray, entry: _Valued, val: list[float], ones: tuple[int, ...]
    ) -> None:
        """``vec[where] = min(val * scale, 1)``, in float32 (``val``: the raw counts at
        ``entry``'s features), and 1 at the flags ``ones``."""
        at = self._flags.get(ones)
        if at is None:  # (a memo: the same few flags come again and again)
            if len(self._flags) >= _MEMO:
                self._flags.clear()
            at = self._flags[ones] = np.array(ones, dtype=np.intp)
        vec[at] = 1.0
        try:  # the counts are small: each is written into its index's low byte, no add (a
            # bytearray refuses a count above 255 or not an int)
            entry.rows[:: _INDEX.itemsize] = val  # type: ignore[assignment]
            vec[entry.where] = self._values[entry.at]
        except (ValueError, TypeError):  # a count above 255, not an int
            scaled = np.array(val, dtype=np.float32) * entry.scale
            vec[entry.where] = np.minimum(scaled, np.float32(1), out=scaled)

    def _fill_offers(
        self, obs: JSON, tables: _SeatTables, ones: list[int], shape: list[int], val: list[float]
    ) -> None:
        """The ``offers`` and ``discards`` blocks: flags into ``ones``, counts (raw) into
        ``val``, where they go into ``shape`` (:meth:`_extra_at`)."""
        n = self.players
        offers = obs["offers"]
        if offers:
            nres = len(LETTERS)
            bundles, known = self._bundle, self._bundles
            for i, offer in enumerate(offers[:OFFER_SLOTS]):
                base = self.o_offer + i * self.per_offer
                ones.append(base)
                shape.append(base)
                text = offer["give"]
                val += known[text] if text in known else bundles(text)
                text = offer["get"]
                val += known[text] if text in known else bundles(text)
                answer_at = tables.answers[i]
                for q, answer in offer["answers"].items():
                    where = answer_at.get(q)
                    if where is None:  # a seat key not written as the seat's number
                        where = (
                            base
                            + 1
                            + 2 * nres
                            + self.rel[obs["seat"] or 0][int(q)] * (len(ANSWERS) + nres)
                        )
                    if answer.__class__ is str and answer in _ANSWER_AT:
                        ones.append(where + _ANSWER_AT[answer])
                    elif isinstance(answer, dict):
                        ones.append(where + 2)
                        shape.append(where)
                        text = answer["counter"]["give"]
                        val += known[text] if text in known else bundles(text)
                    else:
                        ones.append(where + ANSWERS.index(answer))
        discards = obs["discards"]
        if discards:
            committed = discards["committed"]
            owes = tables.discards
            for q in discards["seats"]:
                where = owes[q] if q in owes else self.o_discard + self.rel[obs["seat"] or 0][q] * 2
                ones.append(where)
                if q in committed:
                    ones.append(where + 1)
            ones.append(self.o_discard + 2 * n)
            picked = discards.get("selected") or discards.get("own")
            if picked:
                shape.append(self.o_discard + 2 * n + 1)
                val += self._bundle(picked)


CODEC = IslandCodec
"""This game's RL encoding (:func:`hexfolk.rl.aec.make_codec` finds it by the game's id)."""
