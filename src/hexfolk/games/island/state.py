"""The island game state: flat integer lists, a small prompt stack, hidden-information tracking.

A turn is a chain of small decisions (see ``docs/island.md``). The phase says what is pending:

* ``layout`` (chance) → ``setup-settlement`` / ``setup-road`` in snake order (IR-18..IR-21);
* ``pre-roll`` (roll or play a card, IR-24) → ``dice`` (chance) → production (IR-35..IR-37), or on
  a 7: ``discard`` (hidden commitments, IR-41) → ``robber`` (IR-42, IR-46) → ``steal`` (chance);
* ``main``: build, buy (→ ``draw``, chance), play a card, maritime trades, offers (→ ``answer``
  by every other seat), complete/withdraw offers, end;
* with 5+ players: ``sbp-signup`` by every other seat, then ``sbp-build`` slots (IR-29..IR-34).

Hidden information: besides hands and development cards, the state tracks for every observer
(each seat and the spectator) how many cards of each player's hand that observer cannot know by
type (``deficit``), so :meth:`IslandState.sample_consistent_state` redraws exactly those.

Speed (random games run thousands of steps per second; see ``benchmarks/island_profile.py``):

* memos shared by clones: income by dice sum (``income``), robber moves (``robber_cache``),
  road and settlement spots (``build_cache``), trade listings by hand (process-wide, per set
  of ratios). Each depends only on the board, and a state that changes the board *replaces*
  the memo instead of editing it, so states sharing one always agree with it;
* recurring log lines formatted once per player count (``_Texts``); production lines lazily;
* Longest Road updated from the new road only (:func:`~.roads.length_after_road`);
* clones share the append-only log (frozen :class:`LogChunks`), the copy-on-write
  ``buildings`` and ``ratio`` lists and the immutable ``deficit`` tuples.
"""

from __future__ import annotations

import dataclasses
import random
from typing import TYPE_CHECKING, Any

from hexfolk.core import (
    CHANCE,
    TERMINAL,
    Action,
    AmbiguousActionError,
    Commitments,
    MalformedActionError,
    Prompt,
    State,
    check_seat,
)
from hexfolk.games.island import actions as A
from hexfolk.games.island.actions import Bundle, bundle_text
from hexfolk.games.island.board import LayoutTables, Topology, layout_tables
from hexfolk.games.island.maps import MapLayoutOutcome, layout_text
from hexfolk.games.island.roads import award_after_change, length_after_road, road_length
from hexfolk.games.island.rules import (
    BANK_RATIO,
    COST_CITY,
    COST_DEV,
    COST_ROAD,
    COST_SETTLEMENT,
    DEV_NAMES,
    DICE_PIPS,
    DICE_SUMS,
    DICE_TOTAL,
    FRIENDLY_MAX_VP,
    GENERIC,
    GENERIC_RATIO,
    KNIGHT,
    LARGEST_ARMY_MIN,
    LETTERS,
    MAX_OPEN_OFFERS,
    MONOPOLY,
    NRES,
    PIECES_CITY,
    PIECES_ROAD,
    PIECES_SETTLEMENT,
    PLENTY,
    PLENTY_CARDS,
    RESOURCE_HARBOR_RATIO,
    RESOURCES,
    ROAD_BUILDING_ROADS,
    ROADS,
    ROBBER_SUM,
    SBP_MIN_PLAYERS,
    VICTORY,
    VP_CARD,
    VP_CITY,
    VP_LARGEST_ARMY,
    VP_LONGEST_ROAD,
    VP_SETTLEMENT,
)

if TYPE_CHECKING:
    from hexfolk.games.island.game import IslandGame

JSON = dict[str, Any]

# Phases (the top of the prompt stack).
LAYOUT, SETUP_SETTLE, SETUP_ROAD, PRE_ROLL, DICE, DISCARD, ROBBER, STEAL, MAIN, DRAW = range(10)
ROAD_BUILDING, ANSWER, SBP_SIGNUP, SBP_BUILD, OVER = range(10, 15)
PHASE_NAMES = (
    "layout",
    "setup-settlement",
    "setup-road",
    "pre-roll",
    "dice",
    "discard",
    "robber",
    "steal",
    "main",
    "draw",
    "road-building",
    "answer",
    "sbp-signup",
    "sbp-build",
    "over",
)
_CHANCE_PHASES = frozenset((LAYOUT, DICE, STEAL, DRAW))
_NO_WIN_PHASES = frozenset((LAYOUT, SETUP_SETTLE, SETUP_ROAD, SBP_SIGNUP, SBP_BUILD, OVER))

# Statistics: gain sources and loss sinks (IR-80).
GAIN_SOURCES = ("setup", "production", "steal", "monopoly", "plenty", "trade", "bank", "harbor")
LOSS_SINKS = (
    "discard",
    "stolen",
    "monopoly",
    "trade",
    "road",
    "settlement",
    "city",
    "development",
    "bank",
    "harbor",
)
_NG = len(GAIN_SOURCES)
_NL = len(LOSS_SINKS)
STAT_FIELDS: tuple[tuple[str, int], ...] = (
    ("rolls", 13),
    ("gain", _NG * NRES),
    ("loss", _NL * NRES),
    ("blocked", 1),
    ("shortage", 1),
    ("robber_moves", 1),
    ("steals", 1),
    ("stolen_from", 1),
    ("offers", 1),
    ("counters", 1),
    ("trades", 1),
    ("maritime", 3),
    ("dev_bought", 5),
    ("dev_played", 5),
    ("built", 3),
    ("longest_road_turns", 1),
    ("largest_army_turns", 1),
    ("turns", 1),
    ("sbp_slots", 1),
)
"""Per-seat statistics (IR-80) and their widths. The state keeps all statistics in one flat
list (so a clone copies one list): the dice histogram (13 counts) first, then one block of
``_W`` counts per seat laid out as here. ``gain``/``loss`` are per source/sink and resource,
``maritime`` counts lots by ratio 2, 3, 4, ``built`` roads, settlements, cities."""
STAT_OFFSET: dict[str, int] = {}
_w = 0
for _name, _width in STAT_FIELDS:
    STAT_OFFSET[_name] = _w
    _w += _width
_W = _w
_S0 = 13
F_ROLLS, F_GAIN, F_LOSS = STAT_OFFSET["rolls"], STAT_OFFSET["gain"], STAT_OFFSET["loss"]
F_BLOCKED, F_SHORTAGE = STAT_OFFSET["blocked"], STAT_OFFSET["shortage"]
F_ROBBER, F_STEALS, F_STOLEN = (
    STAT_OFFSET["robber_moves"],
    STAT_OFFSET["steals"],
    STAT_OFFSET["stolen_from"],
)
F_OFFERS, F_COUNTERS, F_TRADES = (
    STAT_OFFSET["offers"],
    STAT_OFFSET["counters"],
    STAT_OFFSET["trades"],
)
F_MARITIME, F_BUILT = STAT_OFFSET["maritime"], STAT_OFFSET["built"]
F_DEV_BOUGHT, F_DEV_PLAYED = STAT_OFFSET["dev_bought"], STAT_OFFSET["dev_played"]
F_LR_TURNS, F_LA_TURNS = STAT_OFFSET["longest_road_turns"], STAT_OFFSET["largest_army_turns"]
F_TURNS, F_SBP = STAT_OFFSET["turns"], STAT_OFFSET["sbp_slots"]
G_SETUP, G_PROD, G_STEAL, G_MONO, G_PLENTY, G_TRADE, G_BANK, G_HARBOR = range(8)
L_DISCARD, L_STOLEN, L_MONO, L_TRADE, L_ROAD, L_SETTLE, L_CITY, L_DEV, L_BANK, L_HARBOR = range(10)

_DICE_OUTCOMES = [(A.DICE[s], DICE_PIPS[s] / DICE_TOTAL) for s in DICE_SUMS]
_END, _BUY, _ROLL = A.END, A.BUY, A.ROLL
_DICE_BY_PIP = tuple(A.DICE[s] for s in DICE_SUMS for _ in range(DICE_PIPS[s]))
"""The dice outcome of each of the ``DICE_TOTAL`` equally likely pips, in sum order."""

_ACTION_CACHE: dict[tuple[int, int, int], tuple[Any, ...]] = {}
"""Per map: road, settlement, city, robber and robber-with-victim action objects by id."""
_MARITIME: dict[tuple[int, int, int], A.MaritimeTrade] = {}
for _ratio in (RESOURCE_HARBOR_RATIO, GENERIC_RATIO, BANK_RATIO):
    for _r in range(NRES):
        for _s in range(NRES):
            if _r != _s:
                _give = tuple(_ratio if i == _r else 0 for i in range(NRES))
                _get = tuple(1 if i == _s else 0 for i in range(NRES))
                _MARITIME[(_ratio, _r, _s)] = A.MaritimeTrade(_give, _get)
_MARITIME_LOT: dict[int, tuple[int, int, int]] = {
    id(act): (k, r, s) for (k, r, s), act in _MARITIME.items()
}
"""``id`` of each canonical single-lot maritime action (the objects ``legal_actions`` lists,
alive as long as the module) -> (ratio, resource given, resource taken): the fast path of
:meth:`IslandState._do_maritime`. Other objects (parsed, multi-lot) take the general path."""
_MARITIME_ROW: dict[int, tuple[tuple[A.MaritimeTrade, ...], ...]] = {
    k: tuple(tuple(_MARITIME[(k, r, s)] for s in range(NRES) if s != r) for r in range(NRES))
    for k in (RESOURCE_HARBOR_RATIO, GENERIC_RATIO, BANK_RATIO)
}
"""Canonical maritime trades by ratio and resource given, in the order of resource taken."""
_ONE = tuple(tuple(1 if i == r else 0 for i in range(NRES)) for r in range(NRES))
_OFFER11 = [[A.Offer(_ONE[r], _ONE[s]) for s in range(NRES)] for r in range(NRES)]
_OFFERS_BY_HELD = tuple(
    tuple(_OFFER11[r][s] for r in range(NRES) if m >> r & 1 for s in range(NRES) if not m >> s & 1)
    for m in range(1 << NRES)
)
"""Canonical offers by the set of resource types held: 1 held card for 1 card of a type not held."""
_PLENTY: list[A.PlayPlenty] = []
for _r in range(NRES):
    for _s in range(_r, NRES):
        _PLENTY.append(A.PlayPlenty(tuple((i == _r) + (i == _s) for i in range(NRES))))
_PLENTY_ONE = [A.PlayPlenty(_ONE[r]) for r in range(NRES)]


class _Texts:
    """Log lines that recur every turn, formatted once per player count (formatting them at
    every step would cost more than the rest of the step)."""

    def __init__(self, n: int):
        seats = range(n)
        self.roll = tuple(tuple(f"seat {p} rolls {s}" for s in range(13)) for p in seats)
        self.end = tuple(f"seat {p} ends the turn" for p in seats)
        self.buy = tuple(f"seat {p} buys a development card" for p in seats)
        self.draw = tuple(tuple(f"seat {p} draws {name}" for name in DEV_NAMES) for p in seats)
        self.only = tuple(frozenset((p,)) for p in seats)
        """Visibility of an entry only ``p`` sees."""
        self.pair = tuple(tuple(frozenset((p, q)) for q in seats) for p in seats)
        """Visibility of an entry only ``p`` and ``q`` see."""
        self.steal = tuple(
            tuple(f"seat {t} steals a card from seat {v}" for v in seats) for t in seats
        )
        self.stole = tuple(
            tuple(tuple(f"(seat {t} stole {c} from seat {v})" for c in LETTERS) for v in seats)
            for t in seats
        )
        self.trade = tuple(
            {
                id(act): f"seat {p} trades {bundle_text(act.give)} for {bundle_text(act.get)}"
                for act in _MARITIME.values()
            }
            for p in seats
        )
        """Maritime trade lines by seat and ``id`` of the canonical action object."""


_TEXTS: dict[int, _Texts] = {}


def _texts(n: int) -> _Texts:
    texts = _TEXTS.get(n)
    if texts is None:
        texts = _TEXTS[n] = _Texts(n)
    return texts


def _actions_for(nodes: int, edges: int, hexes: int) -> tuple[Any, ...]:
    """The build and robber actions of a board with these sizes (they name ids only, so every
    board of the same size, standard or map, shares them)."""
    key = (nodes, edges, hexes)
    cached = _ACTION_CACHE.get(key)
    if cached is None:
        cached = (
            tuple(A.BuildRoad(e) for e in range(edges)),
            tuple(A.BuildSettlement(v) for v in range(nodes)),
            tuple(A.BuildCity(v) for v in range(nodes)),
            tuple(A.MoveRobber(h) for h in range(hexes)),
            tuple(tuple(A.MoveRobber(h, q) for q in range(8)) for h in range(hexes)),
        )
        _ACTION_CACHE[key] = cached
    return cached


_TRADE_TABLES: dict[tuple[tuple[int, ...], bool], dict[tuple[int, ...], tuple[Action, ...]]] = {}
_TRADE_TABLE_LIMIT = 20000
"""Hands remembered per table (a bound on memory; the hands of real games are far fewer)."""


def _trade_table(ratio: tuple[int, ...], offers: bool) -> dict[tuple[int, ...], tuple[Action, ...]]:
    """The process-wide memo of :func:`_trades` for one set of ratios, by hand."""
    table = _TRADE_TABLES.get((ratio, offers))
    if table is None:
        table = _TRADE_TABLES[(ratio, offers)] = {}
    return table


def _trades(
    ratio: list[int] | tuple[int, ...], hand: list[int], offers: bool
) -> tuple[Action, ...]:
    """The trades ``IslandState._main_actions`` lists for ``hand`` and ``ratio`` when every
    resource is in the bank and no offer is open or rejected (the cached common case):
    single-lot maritime trades, then (``offers``) the canonical 1-for-1 offers."""
    out: list[Action] = []
    mask = 0
    for r in range(NRES):
        if hand[r] >= ratio[r]:
            out.extend(_MARITIME_ROW[ratio[r]][r])
        if hand[r]:
            mask |= 1 << r
    if offers:
        out.extend(_OFFERS_BY_HELD[mask])
    return tuple(out)


LogEntry = tuple[frozenset[int] | None, Any]
"""``(visibility, text)``: visibility None is everyone, else the seats that see the entry."""
_LOG_CHUNKS_MAX = 32
"""Chunks a log chain may reach before a clone merges them into one."""


def _seen_by(entries: Any, seat: int | None, out: list[str]) -> None:
    """Append to ``out`` the text of each entry of ``entries`` that ``seat`` may see."""
    append = out.append
    for vis, text in entries:
        if vis is None or (seat is not None and seat in vis):
            append(text if text.__class__ is str else str(text))


class LogChunks:
    """An immutable prefix of a log: a chunk of entries after an earlier prefix (or None).

    Clones share these chains, so copying a state never copies its log (see
    :meth:`IslandState.clone`). Each chunk also remembers, per observer, the rendered lines of
    the whole prefix that observer may see (:meth:`seen`): a function of the frozen entries
    only, the same for every state sharing the chunk, filled lazily and never changed."""

    __slots__ = ("chunk", "depth", "parent", "seen_lines")

    def __init__(self, parent: LogChunks | None, chunk: tuple[LogEntry, ...]):
        self.parent = parent
        self.chunk = chunk
        self.depth: int = 1 if parent is None else parent.depth + 1
        self.seen_lines: dict[int | None, list[str]] = {}
        """Per observer (None: the spectator): the visible lines of the whole prefix. A list
        stored here is never appended to (readers copy it)."""

    def seen(self, seat: int | None) -> list[str]:
        """The lines of the whole prefix that ``seat`` may see, oldest first (do not change
        the list: it is the chunk's memo)."""
        lines = self.seen_lines.get(seat)
        if lines is not None:
            return lines
        todo: list[LogChunks] = []
        node: LogChunks | None = self
        start: list[str] = []
        while node is not None:
            known = node.seen_lines.get(seat)
            if known is not None:
                start = known
                break
            todo.append(node)
            node = node.parent
        out = start[:]
        for node in reversed(todo):
            _seen_by(node.chunk, seat, out)
        self.seen_lines[seat] = out
        return out

    def entries(self) -> list[LogEntry]:
        """All entries of the prefix, oldest first."""
        chunks = []
        node: LogChunks | None = self
        while node is not None:
            chunks.append(node.chunk)
            node = node.parent
        out: list[LogEntry] = []
        for chunk in reversed(chunks):
            out.extend(chunk)
        return out


class ProductionText:
    """A production log line, formatted only when someone reads it (keeps rolls cheap)."""

    __slots__ = ("paid",)

    def __init__(self, paid: tuple[tuple[int, int, int], ...]):
        self.paid = paid
        """(seat, resource, cards), sorted by seat then resource."""

    def __str__(self) -> str:
        parts = []
        seats = sorted({o for o, _, _ in self.paid})
        for q in seats:
            cards = [0] * NRES
            for o, r, k in self.paid:
                if o == q:
                    cards[r] += k
            parts.append(f"seat {q} gets {bundle_text(tuple(cards))}")
        return "; ".join(parts)

    def __eq__(self, other: object) -> bool:
        return str(self) == str(other)

    def __hash__(self) -> int:
        return hash(self.paid)


class OpenOffer:
    """A player-trade offer of the active player with every other seat's answer.

    ``answers[s]``: ``None`` (not yet), ``"accept"``, ``"reject"`` or ``(give, get)`` of a
    counter-offer written from seat ``s``'s side.
    """

    __slots__ = ("answers", "get", "give", "id")

    def __init__(self, oid: int, give: Bundle, get: Bundle, answers: list[Any]):
        self.id = oid
        self.give = give
        self.get = get
        self.answers = answers

    def copy(self) -> OpenOffer:
        return OpenOffer(self.id, self.give, self.get, self.answers[:])

    def to_json(self) -> JSON:
        answers: dict[str, Any] = {}
        for s, a in enumerate(self.answers):
            if a is None:
                continue
            if isinstance(a, tuple):
                answers[str(s)] = {"counter": {"give": bundle_text(a[0]), "get": bundle_text(a[1])}}
            else:
                answers[str(s)] = a
        return {
            "id": self.id,
            "give": bundle_text(self.give),
            "get": bundle_text(self.get),
            "answers": answers,
        }


_NONE = (0,) * NRES


def _with(t: tuple[int, ...], i: int, x: int) -> tuple[int, ...]:
    """``t`` with item ``i`` replaced by ``x``."""
    items = list(t)
    items[i] = x
    return tuple(items)


def _has(hand: list[int], b: Bundle) -> bool:
    return all(h >= x for h, x in zip(hand, b))


class IslandState(State):
    """A position of the island game (mutable; :meth:`clone` is a cheap flat copy)."""

    game: IslandGame

    def __init__(self, game: IslandGame):
        self.game = game
        n = game.num_players
        self.n = n
        self.topo = game.start_topology()
        """The board's geometry (Driftland: empty until the layout outcome brings the island)."""
        self.lt: LayoutTables | None = None
        self.island: str | None = None
        """On a map, the drawn island as ``maps.layout_text`` (coordinates, lakes, coastline)."""
        self.acts = _actions_for(self.topo.num_nodes, self.topo.num_edges, self.topo.num_hexes)
        self.phase = LAYOUT
        self.seat = -1
        """The seat to move (meaningless at chance nodes and at the end)."""
        self.active = 0
        """The player whose regular turn it is."""
        self.resume = MAIN
        self.turn = 0
        self.setup_index = 0
        self.setup_node = -1
        self.rolled = False
        self.dev_played = False
        self.winner = -1
        N, E = self.topo.num_nodes, self.topo.num_edges
        self.node_owner = [-1] * N
        self.node_level = [0] * N
        self.income: dict[int, tuple[Any, ...]] = {}
        """Cache of :meth:`_income` by dice sum (and robber hex when the robber stands on a hex
        of that sum). Shared by clones: an entry depends only on the buildings, and a state
        that changes a building replaces the dict (:meth:`_touch_income`) instead of editing
        it, so entries added by any state sharing the dict hold for all of them."""
        self.robber_cache: dict[int, tuple[tuple[Action, ...], tuple[int, ...]]] = {}
        """:meth:`_robber_table` by seat and the opponents holding cards (without the friendly
        robber). Shared by clones: it depends only on where buildings stand, and a
        state that places a settlement replaces the dict instead of editing it."""
        self.build_cache: dict[int, tuple[int, tuple[Action, ...]]] = {}
        """Road (key ``p``) and settlement (key ``p + 8``) actions of each seat, with the
        number of roads left on the table when computed (a check against pieces placed behind
        the state's back, as scenario tests do). Shared by clones and replaced, never edited,
        when a road or building is placed (see :attr:`income`)."""
        self.trade_cache: list[dict[tuple[int, ...], tuple[Action, ...]]] = [
            _trade_table((BANK_RATIO,) * NRES, n > 1) for _ in range(n)
        ]
        """Per seat: the :func:`_trade_table` of its ratios (replaced when they change)."""
        self.free = [True] * N
        self.edge_owner = [-1] * E
        self.roads: list[list[int]] = [[] for _ in range(n)]
        self.buildings: list[list[int]] = [[] for _ in range(n)]
        """Nodes built on per seat. Copy-on-write like :attr:`ratio`: shared by clones,
        replaced (outer and inner list) when a settlement is placed, never changed in place."""
        self.robber = -1
        bank = game.bank_size
        self.bank = [bank] * NRES
        self.hands = [[0] * NRES for _ in range(n)]
        self.dev = [[0] * 5 for _ in range(n)]
        self.dev_new = [[0] * 5 for _ in range(n)]
        self.deck = list(game.deck)
        self.knights = [0] * n
        self.roads_left = [PIECES_ROAD] * n
        self.settles_left = [PIECES_SETTLEMENT] * n
        self.cities_left = [PIECES_CITY] * n
        self.ratio = [[BANK_RATIO] * NRES for _ in range(n)]
        """Maritime ratio per seat and resource; copy-on-write like :attr:`buildings`."""
        self.road_len = [0] * n
        self.lr_holder = -1
        self.la_holder = -1
        # 7s: simultaneous discards (IR-41) as hidden commitments, one partial choice per seat
        self.discards: Commitments | None = None
        self.discard_need = [0] * n
        self.discard_partial: list[Bundle] = [_NONE] * n
        """Per seat, the cards chosen so far towards its discard (tuples, replaced on change;
        hidden from everyone else until the reveal)."""
        # robber steal in progress
        self.thief = -1
        self.victim = -1
        # Road Building
        self.free_roads = 0
        # offers (IR-48..IR-51): open offers never block; answers are keyed by seat
        self.offers: list[OpenOffer] = []
        self.next_offer = 1
        self.decline_all = 0
        """Bitmask of the seats that decline every player-trade offer (``decline-all on``)."""
        self.rejected: list[tuple[Bundle, Bundle]] = []
        # special build phase
        self.sbp_queue: list[int] = []
        self.sbp_joined: list[int] = []
        # hidden-information tracking: deficit[o * n + p] = cards of p's hand that observer o
        # (n = spectator) cannot know by type, per resource; None = knows them all. The
        # entries are tuples, replaced on change, so a clone copies only the outer list.
        self.deficit: list[tuple[int, ...] | None] = [None] * ((n + 1) * n)
        self.uncertain = [0] * n
        """Per seat, a bitmask of the resources in which some observer has a deficit for that
        seat's hand (it may hold extra bits; only a clear bit is a promise): when a card of a
        clear resource leaves the hand, no observer's knowledge changes."""
        self.log: list[LogEntry] = []
        """The log entries since this state was last cloned (appended to in place); the
        whole log is :meth:`log_entries`."""
        self.log_base: LogChunks | None = None
        """The log before :attr:`log`: frozen chunks shared with clones (see :meth:`clone`)."""
        self.log_seen: dict[int | None, tuple[int, list[str]]] = {}
        """Per observer: how many entries of :attr:`log` are rendered, and the lines of the
        whole log that observer may see up to there (this state's own list, extended in place
        by :meth:`visible_log`; never shared with a clone)."""
        self.texts = _texts(n)
        self.vp_target: int = game.options["vp_target"]
        """(visibility, text); a text may be a lazily formatted object such as ProductionText."""
        self.stats = [0] * (_S0 + n * _W)
        """All statistics in one flat list (see STAT_FIELDS and :meth:`stat`)."""

    # ------------------------------------------------------------------ copies
    def clone(self) -> IslandState:
        new = IslandState.__new__(IslandState)
        d = new.__dict__
        d.update(self.__dict__)
        new.node_owner = self.node_owner[:]
        new.node_level = self.node_level[:]
        new.free = self.free[:]
        new.edge_owner = self.edge_owner[:]
        new.roads = list(map(list.copy, self.roads))
        # buildings and ratio are shared: they are replaced, never changed in place
        new.bank = self.bank[:]
        new.hands = list(map(list.copy, self.hands))
        new.dev = list(map(list.copy, self.dev))
        new.dev_new = list(map(list.copy, self.dev_new))
        new.deck = self.deck[:]
        new.knights = self.knights[:]
        new.roads_left = self.roads_left[:]
        new.settles_left = self.settles_left[:]
        new.cities_left = self.cities_left[:]
        new.road_len = self.road_len[:]
        new.discards = self.discards.copy() if self.discards is not None else None
        new.discard_need = self.discard_need[:]
        new.discard_partial = self.discard_partial[:]
        new.offers = [o.copy() for o in self.offers] if self.offers else []
        new.rejected = self.rejected[:]
        new.sbp_queue = self.sbp_queue[:]
        new.sbp_joined = self.sbp_joined[:]
        new.deficit = self.deficit[:]
        new.uncertain = self.uncertain[:]
        # the log is append-only: freeze what this state wrote since its last clone into a
        # chunk that both share, so a clone costs O(entries since then), not O(log)
        if self.log:
            base = self.log_base
            chunk = tuple(self.log)
            if base is None:
                base = LogChunks(None, chunk)
            elif base.depth >= _LOG_CHUNKS_MAX:
                base = LogChunks(None, (*base.entries(), *chunk))
            else:
                base = LogChunks(base, chunk)
            # the lines this state rendered of the whole log are the new chunk's: hand them
            # over (the state starts a list of its own at its next observation)
            size = len(chunk)
            for seat, (done, lines) in self.log_seen.items():
                if done == size:
                    base.seen_lines[seat] = lines
            self.log_seen = {}
            self.log_base = base
            self.log = []
        new.log_base = self.log_base
        new.log = []
        new.log_seen = {}
        new.stats = self.stats[:]
        return new

    # ------------------------------------------------------------------ whose move
    def current_player(self) -> int:
        phase = self.phase
        if phase == OVER:
            return TERMINAL
        if phase in _CHANCE_PHASES:
            return CHANCE
        return self.seat

    def prompt(self) -> Prompt | None:
        phase = self.phase
        if phase == OVER or phase in _CHANCE_PHASES:
            return None
        return self._prompt(self.seat)

    def _prompt(self, seat: int) -> Prompt:
        phase = self.phase
        if phase == ANSWER and seat == self.active:
            phase = MAIN
        name = PHASE_NAMES[phase]
        data: dict[str, Any] = {}
        if phase == SETUP_SETTLE:
            text = f"seat {seat}: place a setup settlement"
        elif phase == SETUP_ROAD:
            text = f"seat {seat}: place a road next to settlement {self.setup_node}"
            data["settlement"] = self.setup_node
        elif phase == PRE_ROLL:
            text = f"seat {seat}: roll the dice (or play a development card first)"
        elif phase == DISCARD:
            need = self.discard_need[seat]
            left = need - sum(self.discard_partial[seat])
            text = f"seat {seat}: discard {left} more card(s) of {need}"
            data.update(need=need, left=left)
        elif phase == ROBBER:
            text = f"seat {seat}: move the robber"
        elif phase == MAIN:
            text = f"seat {seat}: trade, build, play a card, or end the turn"
            if self.phase == ANSWER:
                text += " (answers to your offers are coming in)"
        elif phase == ROAD_BUILDING:
            text = f"seat {seat}: place a free road ({self.free_roads} left)"
            data["left"] = self.free_roads
        elif phase == ANSWER:
            offer = self._first_unanswered(seat)
            assert offer is not None
            text = (
                f"seat {seat}: seat {self.active} offers {bundle_text(offer.give)} for "
                f"{bundle_text(offer.get)}: accept, reject or counter (offer #{offer.id}; "
                "'decline-all on' declines every offer)"
            )
            data["offer"] = offer.id
        elif phase == SBP_SIGNUP:
            text = f"seat {seat}: sign up for the special build phase?"
        else:  # SBP_BUILD
            text = f"seat {seat}: special build phase: build or buy, then end"
        return Prompt(name, seat, text, data)

    # ------------------------------------------------------------------ chance
    def chance_outcomes(self) -> list[tuple[Action, float]]:
        phase = self.phase
        if phase == DICE:
            return list(_DICE_OUTCOMES)
        if phase == STEAL:
            hand = self.hands[self.victim]
            total = sum(hand)
            return [(A.STEALS[r], c / total) for r, c in enumerate(hand) if c]
        if phase == DRAW:
            total = sum(self.deck)
            return [(A.DRAWS[c], k / total) for c, k in enumerate(self.deck) if k]
        if phase == LAYOUT:
            fixed = self.game.fixed_outcomes
            if fixed:
                return [(x, 1 / len(fixed)) for x in fixed]
        return []

    def sample_chance(self, rng: random.Random) -> Action:
        phase = self.phase
        if phase == DICE:  # fast path: one draw indexes the 36 equally likely pips
            return _DICE_BY_PIP[int(rng.random() * DICE_TOTAL)]
        if phase in (STEAL, DRAW):  # as State.sample_chance over chance_outcomes
            outcomes: tuple[Action, ...]
            if phase == STEAL:
                counts, outcomes = self.hands[self.victim], A.STEALS
            else:
                counts, outcomes = self.deck, A.DRAWS
            total = sum(counts)
            x = rng.random()
            acc = 0.0
            last = -1
            for i, c in enumerate(counts):
                if c:
                    acc += c / total
                    if x < acc:
                        return outcomes[i]
                    last = i
            if last >= 0:
                return outcomes[last]
        if phase == LAYOUT and not self.game.fixed_outcomes:
            return self.game.draw_layout_outcome(rng)
        return super().sample_chance(rng)

    def is_possible_chance(self, action: Action) -> bool:
        phase = self.phase
        if phase == LAYOUT:
            return self.game.is_layout_outcome(action)
        if phase == DICE:
            return isinstance(action, A.DiceOutcome) and action.total in DICE_PIPS
        if phase == STEAL:
            return (
                isinstance(action, A.StealOutcome) and self.hands[self.victim][action.resource] > 0
            )
        if phase == DRAW:
            return isinstance(action, A.DrawDevelopment) and self.deck[action.card] > 0
        return False

    # ------------------------------------------------------------------ legality
    def legal_actions(self) -> list[Action]:
        phase = self.phase
        if phase == MAIN:
            return self._main_actions()
        if phase == PRE_ROLL:
            out: list[Action] = [_ROLL]
            if not self.dev_played:
                p = self.seat
                dev = self.dev[p]
                if dev != self.dev_new[p]:  # some card was not bought this turn
                    self._dev_plays(p, dev, out)
            return out
        if phase == DISCARD:
            return self._discard_actions(self.seat)
        if phase == ROBBER:
            return self._robber_moves(self.seat)
        if phase == OVER or phase in _CHANCE_PHASES:
            return []
        p = self.seat
        roads, settles = self.acts[0], self.acts[1]
        if phase == SETUP_SETTLE:
            return [settles[v] for v, ok in enumerate(self.free) if ok]
        if phase == SETUP_ROAD:
            eo = self.edge_owner
            return [roads[e] for e in self.topo.node_edges[self.setup_node] if eo[e] < 0]
        if phase == ROAD_BUILDING:
            return list(self._road_actions(p))
        if phase == ANSWER:
            return self._answers(p)
        if phase == SBP_SIGNUP:
            return [A.SBP_JOIN, A.SBP_PASS]
        # SBP_BUILD
        out = [A.END]
        self._builds(p, out)
        return out

    def _discard_actions(self, p: int) -> list[Action]:
        hand = self.hands[p]
        part = self.discard_partial[p]
        return [A.DISCARDS[r] for r in range(NRES) if hand[r] > part[r]]

    def _main_actions(self) -> list[Action]:
        p = self.active
        hand = self.hands[p]
        out: list[Action] = [_END]
        # builds, as _builds (inlined: this is the most frequent listing)
        lumber, brick, wool, grain, ore = hand
        if lumber and brick:
            if self.roads_left[p]:
                out.extend(self._road_actions(p))
            if wool and grain and self.settles_left[p]:
                out.extend(self._settle_actions(p))
        if grain >= 2 and ore >= 3 and self.cities_left[p]:
            level = self.node_level
            cities = self.acts[2]
            out.extend([cities[v] for v in sorted(self.buildings[p]) if level[v] == 1])
        if wool and grain and ore and any(self.deck):
            out.append(_BUY)
        if not self.dev_played:
            dev = self.dev[p]
            if dev != self.dev_new[p]:  # some card was not bought this turn
                self._dev_plays(p, dev, out)
        offers = self.offers
        if not offers and not self.rejected and 0 not in self.bank:
            key = tuple(hand)
            cache = self.trade_cache[p]
            trades = cache.get(key)
            if trades is None:
                trades = _trades(self.ratio[p], hand, self.n > 1)
                if len(cache) < _TRADE_TABLE_LIMIT:
                    cache[key] = trades
            out.extend(trades)
            return out
        # maritime: one lot at a time in the listing (several lots parse as legal too)
        ratio = self.ratio[p]
        bank_full = 0 not in self.bank
        for r in range(NRES):
            k = ratio[r]
            if hand[r] >= k:
                if bank_full:
                    out.extend(_MARITIME_ROW[k][r])
                else:
                    bank = self.bank
                    out.extend(act for act in _MARITIME_ROW[k][r] if bank[act.get.index(1)])
        # player offers: a small canonical set (1 held card for 1 card of a type not held)
        if len(offers) < MAX_OPEN_OFFERS and self.n > 1:
            mask = 0
            for r in range(NRES):
                if hand[r]:
                    mask |= 1 << r
            canonical = _OFFERS_BY_HELD[mask]
            if canonical:
                if self.rejected or offers:
                    skip = self.rejected + [(o.give, o.get) for o in offers]
                    out.extend(off for off in canonical if (off.give, off.get) not in skip)
                else:
                    out.extend(canonical)
        for o in offers:
            for s, ans in enumerate(o.answers):
                if ans is None or ans == "reject":
                    continue
                if self._can_complete(o, s):
                    out.append(A.Complete(o.id, s))
            out.append(A.Withdraw(o.id))
        return out

    def _builds(self, p: int, out: list[Action]) -> None:
        """Append the builds and the purchase ``p`` can afford (also in :meth:`_main_actions`)."""
        hand = self.hands[p]
        lumber, brick, wool, grain, ore = hand
        if lumber and brick:
            if self.roads_left[p]:
                out.extend(self._road_actions(p))
            if wool and grain and self.settles_left[p]:
                out.extend(self._settle_actions(p))
        if grain >= 2 and ore >= 3 and self.cities_left[p]:
            level = self.node_level
            cities = self.acts[2]
            out.extend([cities[v] for v in sorted(self.buildings[p]) if level[v] == 1])
        if wool and grain and ore and any(self.deck):
            out.append(A.BUY)

    def _dev_plays(self, p: int, dev: list[int], out: list[Action]) -> None:
        """Append the cards ``p`` may play (the caller checked that none was played yet)."""
        new = self.dev_new[p]
        if dev[KNIGHT] > new[KNIGHT]:
            out.append(A.PLAY_KNIGHT)
        if dev[ROADS] > new[ROADS] and self.roads_left[p] and self._road_actions(p):
            out.append(A.PLAY_ROADS)
        if dev[PLENTY] > new[PLENTY]:
            bank = self.bank
            total = sum(bank)
            if total >= PLENTY_CARDS:
                out.extend(x for x in _PLENTY if all(b >= t for b, t in zip(bank, x.take)))
            elif total:
                out.extend(_PLENTY_ONE[r] for r in range(NRES) if bank[r])
        if dev[MONOPOLY] > new[MONOPOLY]:
            out.extend(A.MONOPOLIES)

    def _road_actions(self, p: int) -> tuple[Action, ...]:
        """:meth:`_road_edges` as actions, cached in :attr:`build_cache`."""
        sig = sum(self.roads_left)
        hit = self.build_cache.get(p)
        if hit is not None and hit[0] == sig:
            return hit[1]
        roads = self.acts[0]
        acts = tuple(roads[e] for e in self._road_edges(p))
        self.build_cache[p] = (sig, acts)
        return acts

    def _settle_actions(self, p: int) -> tuple[Action, ...]:
        """:meth:`_settle_nodes` as actions, cached in :attr:`build_cache`."""
        sig = sum(self.roads_left)
        hit = self.build_cache.get(p + 8)
        if hit is not None and hit[0] == sig:
            return hit[1]
        settles = self.acts[1]
        acts = tuple(settles[v] for v in self._settle_nodes(p))
        self.build_cache[p + 8] = (sig, acts)
        return acts

    def _road_edges(self, p: int) -> list[int]:
        """Empty edges where ``p`` may build a road (IR-56), sorted."""
        no = self.node_owner
        eo = self.edge_owner
        node_edges = self.topo.node_edges
        edge_nodes = self.topo.edge_nodes
        nodes = set(self.buildings[p])
        for e in self.roads[p]:
            for v in edge_nodes[e]:
                o = no[v]
                if o < 0 or o == p:
                    nodes.add(v)
        found = {e for v in nodes for e in node_edges[v] if eo[e] < 0}
        return sorted(found)

    def _settle_nodes(self, p: int) -> list[int]:
        """Nodes where ``p`` may build a settlement after setup (IR-57)."""
        free = self.free
        edge_nodes = self.topo.edge_nodes
        return sorted({v for e in self.roads[p] for v in edge_nodes[e] if free[v]})

    def _robber_targets(self, p: int) -> list[int]:
        """Hexes the robber may move to (IR-42, IR-46); [-1] means it must stay."""
        topo = self.topo
        hexes = [h for h in range(topo.num_hexes) if h != self.robber]
        if self.game.options["friendly_robber"]:
            protected = [
                q for q in range(self.n) if q != p and self.visible_vp(q) <= FRIENDLY_MAX_VP
            ]
            if protected:
                no = self.node_owner
                hexes = [h for h in hexes if not any(no[v] in protected for v in topo.hex_nodes[h])]
            if not hexes:
                assert self.lt is not None
                terrain = self.lt.layout.terrain
                hexes = [
                    h
                    for h in range(topo.num_hexes)
                    if terrain[h] == len(RESOURCES) and h != self.robber
                ]
                if not hexes:
                    return [-1]
        return hexes

    def _robber_moves(self, p: int) -> list[Action]:
        if self.game.options["friendly_robber"]:  # targets depend on VP: not cached
            return self._robber_moves_uncached(p)
        hands = self.hands
        key = p  # seat, and which opponents hold cards (they can be robbed, IR-43)
        for q in range(self.n):
            if q != p and any(hands[q]):
                key |= 8 << q
        cached = self.robber_cache.get(key)
        if cached is None:
            cached = self.robber_cache[key] = self._robber_table(p, key >> 3)
        flat, offsets = cached
        h = self.robber
        if h < 0:
            return list(flat)
        out = list(flat[: offsets[h]])
        out.extend(flat[offsets[h + 1] :])
        return out

    def _robber_table(self, p: int, holders: int) -> tuple[tuple[Action, ...], tuple[int, ...]]:
        """Robber moves of ``p`` to every hex in hex order (each hex: a steal from each
        opponent in ``holders`` with a building there, or a plain move) and where each hex's
        moves start (one more offset at the end), so the moves with the robber on ``h`` are
        ``flat[:offsets[h]] + flat[offsets[h + 1]:]``."""
        topo = self.topo
        victims: list[list[int]] = [[] for _ in range(topo.num_hexes)]
        node_hexes = topo.node_hexes
        for q in range(self.n):
            if q != p and holders >> q & 1:
                for v in self.buildings[q]:
                    for h in node_hexes[v]:
                        lst = victims[h]
                        if not lst or lst[-1] != q:
                            lst.append(q)
        moves, steals = self.acts[3], self.acts[4]
        flat: list[Action] = []
        offsets = [0]
        for h in range(topo.num_hexes):
            if victims[h]:
                flat.extend(steals[h][q] for q in victims[h])
            else:
                flat.append(moves[h])
            offsets.append(len(flat))
        return tuple(flat), tuple(offsets)

    def _robber_moves_uncached(self, p: int) -> list[Action]:
        out: list[Action] = []
        moves = self.acts[3]
        targets = self._robber_targets(p)
        if targets == [-1]:
            return [A.MoveRobber(-1)]
        # victims per hex: opponents with a building there and at least one card (IR-43)
        hex_victims: dict[int, list[int]] = {}
        node_hexes = self.topo.node_hexes
        for q in range(self.n):
            if q != p and sum(self.hands[q]) > 0:
                for v in self.buildings[q]:
                    for h in node_hexes[v]:
                        lst = hex_victims.setdefault(h, [])
                        if not lst or lst[-1] != q:
                            lst.append(q)
        for h in targets:
            victims = hex_victims.get(h)
            if victims:
                steals = self.acts[4][h]
                out.extend(steals[q] for q in victims)
            else:
                out.append(moves[h])
        return out

    def _answers(self, p: int) -> list[Action]:
        """Answers of ``p`` to every open offer it has not answered, by offer number."""
        hand = self.hands[p]
        out: list[Action] = []
        for offer in self.offers:
            if offer.answers[p] is not None:
                continue
            oid = offer.id
            if _has(hand, offer.get):
                out.append(A.Accept(oid))
            out.append(A.Reject(oid))
            # canonical counters: give 1 card of a held type instead, for the same cards
            for t in range(NRES):
                if hand[t] and not offer.give[t]:
                    give = _ONE[t]
                    if give != offer.get and any(offer.give):
                        out.append(A.Counter(give, offer.give, oid))
        return out

    def _first_unanswered(self, p: int) -> OpenOffer | None:
        for o in self.offers:
            if o.answers[p] is None:
                return o
        return None

    def _awaiting(self) -> list[int]:
        """Seats that have not answered some open offer, in seat order after the proposer:
        the sequential walk asks them in this order before the proposer moves again."""
        if not self.offers:
            return []
        n, p = self.n, self.active
        out = []
        for i in range(1, n):
            q = (p + i) % n
            for o in self.offers:
                if o.answers[q] is None:
                    out.append(q)
                    break
        return out

    def _to_main(self) -> None:
        """Back in the active player's main phase: while some seat has not answered an open
        offer the phase is ``answer`` and the sequential walk names that seat (IR-50); the
        proposer acts alongside (``acting_seats``)."""
        waiting = self._awaiting()
        if waiting:
            self.phase = ANSWER
            self.seat = waiting[0]
        else:
            self.phase = MAIN
            self.seat = self.active

    def _resume(self) -> None:
        self.phase = self.resume
        if self.phase == MAIN and self.offers:
            self._to_main()

    def _offer(self, oid: int) -> OpenOffer | None:
        for o in self.offers:
            if o.id == oid:
                return o
        return None

    def _can_complete(self, o: OpenOffer, s: int) -> bool:
        ans = o.answers[s]
        p = self.active
        if ans == "accept":
            return _has(self.hands[p], o.give) and _has(self.hands[s], o.get)
        if isinstance(ans, tuple):
            give, get = ans  # from s's side
            return _has(self.hands[p], get) and _has(self.hands[s], give)
        return False

    def _valid_pair(self, give: Bundle, get: Bundle) -> bool:
        if not any(give) and not any(get):
            return False
        return not any(g and t for g, t in zip(give, get))

    def is_legal(self, action: Action) -> bool:
        phase = self.phase
        if phase == OVER:
            return False
        if phase in _CHANCE_PHASES:
            return self.is_possible_chance(action)
        cls = type(action)
        if cls is A.Offer:
            assert isinstance(action, A.Offer)
            return (
                phase == MAIN
                and self.n > 1
                and len(self.offers) < MAX_OPEN_OFFERS
                and self._valid_pair(action.give, action.get)
                and _has(self.hands[self.seat], action.give)
                and (action.give, action.get) not in self.rejected
                and all((o.give, o.get) != (action.give, action.get) for o in self.offers)
            )
        if cls is A.Counter or cls is A.Accept or cls is A.Reject:
            if phase != ANSWER:
                return False
            if not action.offer:  # type: ignore[attr-defined]
                # offer 0: the first open offer the seat has not answered (the text form
                # without a number is refused as ambiguous by parse_action when there are more)
                first = self._first_unanswered(self.seat)
                if first is None or self.seat == self.active:
                    return False
                action = dataclasses.replace(action, offer=first.id)  # type: ignore[type-var]
            if cls is A.Counter:
                assert isinstance(action, A.Counter)
                return self._counter_ok(self.seat, action)
            return action in self._answers(self.seat)
        if cls is A.DeclineAll:
            assert isinstance(action, A.DeclineAll)
            return bool(self.decline_all >> self.seat & 1) != action.on
        if cls is A.MaritimeTrade:
            assert isinstance(action, A.MaritimeTrade)
            return phase == MAIN and self._maritime_ok(self.seat, action.give, action.get)
        if cls is A.EndTurn and phase == ROAD_BUILDING:
            return True  # IR-28: the turn clock forfeits the unplaced roads (typed, not listed)
        return action in self.legal_actions()

    def _counter_ok(self, p: int, a: A.Counter) -> bool:
        offer = self._offer(a.offer)
        return (
            offer is not None
            and p != self.active
            and offer.answers[p] is None
            and self._valid_pair(a.give, a.get)
            and (a.give, a.get) != (offer.get, offer.give)
            and _has(self.hands[p], a.give)
        )

    def _maritime_ok(self, p: int, give: Bundle, get: Bundle) -> bool:
        ratio = self.ratio[p]
        hand = self.hands[p]
        lots = 0
        for r in range(NRES):
            g = give[r]
            if g:
                if get[r] or g % ratio[r] or hand[r] < g:
                    return False
                lots += g // ratio[r]
        return lots > 0 and sum(get) == lots and all(b >= x for b, x in zip(self.bank, get))

    def parse_action(self, text: str) -> Action:
        """Parse text into a legal action; ``robber <hex>`` and ``complete <offer>`` are
        shorthands resolved against the legal actions (ambiguous when several fit)."""
        text = text.strip()
        if not text:
            raise MalformedActionError("empty action text")
        action = self.game.parse_action_syntax(text)
        if self.current_player() >= 0:
            action = self._resolve_answer(self.seat, action, text)
        if self.is_legal(action):
            return action
        if self.current_player() >= 0 and (
            (isinstance(action, A.MoveRobber) and action.victim < 0 and action.hex >= 0)
            or (isinstance(action, A.Complete) and action.seat < 0)
        ):
            found: list[Action]
            if isinstance(action, A.MoveRobber):
                found = [
                    a
                    for a in self.legal_actions()
                    if isinstance(a, A.MoveRobber) and a.hex == action.hex
                ]
            else:
                found = [
                    a
                    for a in self.legal_actions()
                    if isinstance(a, A.Complete) and a.offer == action.offer
                ]
            if len(found) == 1:
                return found[0]
            if len(found) > 1:
                raise AmbiguousActionError(
                    f"{text!r} could mean any of: {', '.join(str(a) for a in found)}"
                )
        raise self.refusal(self.current_player(), text, action)

    def _resolve_answer(self, p: int, action: Action, text: str) -> Action:
        """``accept``, ``reject`` and ``counter <give> for <get>`` without an offer number
        name the one open offer ``p`` has not answered (ambiguous when there are several)."""
        cls = type(action)
        if cls not in (A.Accept, A.Reject, A.Counter) or action.offer:  # type: ignore[attr-defined]
            return action
        if self.phase != ANSWER or p == self.active:
            return action
        pending = [o.id for o in self.offers if o.answers[p] is None]
        if len(pending) > 1:
            raise AmbiguousActionError(
                f"{text!r} could answer any of the offers {', '.join(map(str, pending))}: "
                "write the offer number"
            )
        if not pending:
            return action
        if cls is A.Counter:
            assert isinstance(action, A.Counter)
            return A.Counter(action.give, action.get, pending[0])
        return A.Accept(pending[0]) if cls is A.Accept else A.Reject(pending[0])

    # ------------------------------------------------------------------ several seats at once
    def acting_seats(self) -> list[int]:
        """IR-41: every seat that still owes cards after a 7; IR-50: while offers are open the
        active player and every seat that has not answered one; IR-30: every seat that has not
        answered the special-build sign-up (in seat order)."""
        phase = self.phase
        if phase == DISCARD:
            commits = self.discards
            assert commits is not None
            return sorted(q for q in commits.seats if commits.value_for(q) is None)
        if phase == ANSWER:
            return sorted([self.active, *self._awaiting()])
        if phase == SBP_SIGNUP:
            return sorted(self.sbp_queue)  # IR-30: every other seat signs up at once
        return super().acting_seats()

    def simultaneous_seats(self) -> list[int]:
        """The discarding seats, the seats that have not answered an open offer (the
        proposer races them: completing or withdrawing closes an offer for everyone), or the
        seats that have not answered the special-build sign-up (IR-30)."""
        phase = self.phase
        if phase == DISCARD:
            return self.acting_seats()
        if phase == ANSWER:
            return sorted(self._awaiting())
        if phase == SBP_SIGNUP:
            return sorted(self.sbp_queue)
        return []

    def legal_actions_for(self, seat: int) -> list[Action]:
        phase = self.phase
        if phase == DISCARD:
            commits = self.discards
            assert commits is not None
            if seat in commits.seats and commits.value_for(seat) is None:
                return self._discard_actions(seat)
            return []
        if phase == ANSWER:
            if seat == self.active:
                return self._main_actions()
            if self._first_unanswered(seat) is not None:
                return self._answers(seat)
            return []
        if phase == SBP_SIGNUP:
            return [A.SBP_JOIN, A.SBP_PASS] if seat in self.sbp_queue else []
        return super().legal_actions_for(seat)

    def prompt_for(self, seat: int) -> Prompt | None:
        if self.phase in (DISCARD, ANSWER, SBP_SIGNUP) and seat in self.acting_seats():
            return self._prompt(seat)
        return super().prompt_for(seat)

    def _as_seat(self, seat: int) -> tuple[int, int]:
        """Put the state in ``seat``'s own view of the decision (the proposer's main phase
        while answers are pending; a discarding seat's turn to discard); return what to
        restore. The handlers read ``self.seat`` and ``self.phase``."""
        saved = (self.phase, self.seat)
        if self.phase == ANSWER and seat == self.active:
            self.phase = MAIN
        self.seat = seat
        return saved

    def _legal_for(self, seat: int, action: Action) -> bool:
        if seat not in self.acting_seats():
            return False
        if seat == self.seat:
            return self.is_legal(action)
        saved = self._as_seat(seat)
        try:
            return self.is_legal(action)
        finally:
            self.phase, self.seat = saved

    def parse_action_for(self, seat: int, text: str) -> Action:
        if seat not in self.acting_seats():
            raise self.refusal(seat, text.strip(), self._named_action(text))
        if seat == self.seat:
            return self.parse_action(text)
        saved = self._as_seat(seat)
        try:
            return self.parse_action(text)
        finally:
            self.phase, self.seat = saved

    def apply_for(self, seat: int, action: Action) -> None:
        if not self._legal_for(seat, action):
            raise self.refusal(seat, str(action), action)
        if seat == self.seat:
            self.apply_unchecked(action)
            return
        phase = self.phase
        self._as_seat(seat)
        _DISPATCH[type(action)](self, action)
        if phase == ANSWER and self.phase == MAIN:
            self._to_main()  # the proposer's step left the main phase's answers pending
        elif phase == DISCARD and self.phase == DISCARD:
            nxt = self.discards.next_seat() if self.discards is not None else None
            self.seat = self.seat if nxt is None else nxt

    def why_illegal(self, seat: int, action: Action) -> str | None:
        """Why ``seat`` may not take ``action`` now, in the game's words (see :mod:`.reasons`)."""
        from hexfolk.games.island.reasons import why_illegal

        return why_illegal(self, seat, action)

    # ------------------------------------------------------------------ apply
    def apply_unchecked(self, action: Action) -> None:
        _DISPATCH[type(action)](self, action)

    def _check_win(self) -> None:
        """IR-4: the active player wins as soon as they reach the target in their own turn
        (called after every step that can change VP; never in setup or SBP, IR-33)."""
        if self.phase in _NO_WIN_PHASES:
            return
        p = self.active
        vp = (
            (PIECES_SETTLEMENT - self.settles_left[p]) * VP_SETTLEMENT
            + (PIECES_CITY - self.cities_left[p]) * VP_CITY
            + self.dev[p][VICTORY] * VP_CARD
        )
        if self.lr_holder == p:
            vp += VP_LONGEST_ROAD
        if self.la_holder == p:
            vp += VP_LARGEST_ARMY
        if vp >= self.vp_target:
            self.winner = p
            self.phase = OVER
            self._log(None, f"seat {p} wins with {self.total_vp(p)} VP")

    def _log(self, vis: frozenset[int] | None, text: str) -> None:
        self.log.append((vis, text))

    # --- layout and setup
    def _do_layout(self, a: A.LayoutOutcome) -> None:
        if isinstance(a, MapLayoutOutcome):  # a map: keep its island's text for the views
            self.island = layout_text(a.island)
            if not self.game.fixed_geometry:  # Driftland: the geometry comes with the island
                self._set_topology(a.topo)
        self.lt = layout_tables(self.topo, a.layout)
        # the memos depend on the layout: clones made before it may draw another one
        self.income = {}
        self.robber_cache = {}
        self.build_cache = {}
        self.robber = a.layout.robber
        self._log(None, f"board laid out; robber on hex {self.robber}")
        self.phase = SETUP_SETTLE
        self.seat = 0

    def _set_topology(self, topo: Topology) -> None:
        """Size the board's lists for ``topo`` (only before any piece stands)."""
        self.topo = topo
        N, E = topo.num_nodes, topo.num_edges
        self.node_owner = [-1] * N
        self.node_level = [0] * N
        self.free = [True] * N
        self.edge_owner = [-1] * E
        self.acts = _actions_for(N, E, topo.num_hexes)

    def _setup_seat(self) -> int:
        i, n = self.setup_index, self.n
        return i if i < n else 2 * n - 1 - i

    def _do_settle(self, a: A.BuildSettlement) -> None:
        p = self.seat
        v = a.node
        if self.phase == SETUP_SETTLE:
            self._place_settlement(p, v)
            self._log(None, f"seat {p} settles {v}")
            if self.setup_index >= self.n:  # IR-21: the second settlement yields
                assert self.lt is not None
                terrain = self.lt.layout.terrain
                owed = [0] * NRES
                for h in self.topo.node_hexes[v]:
                    if terrain[h] < NRES:
                        owed[terrain[h]] += 1
                got = [min(owed[r], self.bank[r]) for r in range(NRES)]  # IR-37 (b)
                for r in range(NRES):
                    if got[r]:
                        self._gain(p, r, got[r], G_SETUP)
                if any(got):
                    self._log(None, f"seat {p} receives {bundle_text(tuple(got))}")
            self.setup_node = v
            self.phase = SETUP_ROAD
            return
        self._pay(p, COST_SETTLEMENT, L_SETTLE)
        self._place_settlement(p, v)
        self.stats[_S0 + p * _W + F_BUILT + 1] += 1
        self._log(None, f"seat {p} builds a settlement on {v}")
        self._after_settlement(p, v)
        self._check_win()

    def _place_settlement(self, p: int, v: int) -> None:
        self.node_owner[v] = p
        self.node_level[v] = 1
        self._touch_income(v)
        # new dicts every time, even when empty: an empty memo may be shared with clones too
        self.robber_cache = {}
        self.build_cache = {}
        self.free[v] = False
        for u in self.topo.node_adj[v]:
            self.free[u] = False
        buildings = self.buildings[:]  # copy-on-write (shared with clones)
        buildings[p] = [*buildings[p], v]
        self.buildings = buildings
        self.settles_left[p] -= 1
        assert self.lt is not None
        kind = self.lt.node_harbor[v]
        if kind >= 0:
            ratio = self.ratio[p][:]  # copy-on-write (shared with clones)
            if kind == GENERIC:
                for r in range(NRES):
                    ratio[r] = min(ratio[r], GENERIC_RATIO)
            else:
                ratio[kind] = min(ratio[kind], RESOURCE_HARBOR_RATIO)
            ratios = self.ratio[:]
            ratios[p] = ratio
            self.ratio = ratios
            caches = self.trade_cache[:]
            caches[p] = _trade_table(tuple(ratio), self.n > 1)
            self.trade_cache = caches

    def _after_settlement(self, p: int, v: int) -> None:
        # IR-67/IR-70: a settlement may break other players' roads through v
        eo = self.edge_owner
        hit = sorted({eo[e] for e in self.topo.node_edges[v] if eo[e] >= 0 and eo[e] != p})
        for q in hit:
            if sum(1 for e in self.topo.node_edges[v] if eo[e] == q) >= 2:
                old = self.road_len[:]
                self.road_len[q] = road_length(self.topo, eo, self.node_owner, self.roads[q], q)
                self._award_road(old)

    def _do_road(self, a: A.BuildRoad) -> None:
        p = self.seat
        e = a.edge
        phase = self.phase
        if phase in (MAIN, SBP_BUILD):
            self._pay(p, COST_ROAD, L_ROAD)
        self.edge_owner[e] = p
        self.roads[p].append(e)
        self.roads_left[p] -= 1
        self.build_cache = {}  # replaced, never cleared: clones may share it (see income)
        self.stats[_S0 + p * _W + F_BUILT] += 1
        self._log(None, f"seat {p} builds a road on {e}")
        # only trails through the new road can be longer than before (IR-66)
        before = self.road_len[p]
        grown = length_after_road(self.topo, self.edge_owner, self.node_owner, p, e, before)
        if grown > before:
            old = self.road_len[:]
            self.road_len[p] = grown
            self._award_road(old)
        if phase == SETUP_ROAD:
            self.setup_index += 1
            if self.setup_index == 2 * self.n:
                self._start_turn(0)
            else:
                self.phase = SETUP_SETTLE
                self.seat = self._setup_seat()
        elif phase == ROAD_BUILDING:
            self.free_roads -= 1
            if self.free_roads <= 0 or not self.roads_left[p] or not self._road_actions(p):
                self._resume()
        self._check_win()

    def _award_road(self, old: list[int]) -> None:
        if not self.game.options["longest_road"]:
            return
        holder = award_after_change(self.lr_holder, old, self.road_len)
        if holder != self.lr_holder:
            if holder >= 0:
                self._log(None, f"seat {holder} takes Longest Road ({self.road_len[holder]})")
            else:
                self._log(None, "Longest Road is set aside")
            self.lr_holder = holder

    def _do_city(self, a: A.BuildCity) -> None:
        p = self.seat
        self._pay(p, COST_CITY, L_CITY)
        self.node_level[a.node] = 2
        self._touch_income(a.node)
        self.settles_left[p] += 1  # IR-58: the settlement returns to supply
        self.cities_left[p] -= 1
        self.stats[_S0 + p * _W + F_BUILT + 2] += 1
        self._log(None, f"seat {p} builds a city on {a.node}")
        self._check_win()

    # --- turn
    def _start_turn(self, p: int) -> None:
        self.active = p
        self.seat = p
        self.turn += 1
        self.rolled = False
        self.dev_played = False
        self.dev_new[p] = [0] * 5
        if self.rejected:
            self.rejected = []
        if self.offers:
            self.offers = []
        st = self.stats
        if self.lr_holder >= 0:
            st[_S0 + self.lr_holder * _W + F_LR_TURNS] += 1
        if self.la_holder >= 0:
            st[_S0 + self.la_holder * _W + F_LA_TURNS] += 1
        st[_S0 + p * _W + F_TURNS] += 1
        self.phase = PRE_ROLL
        # IR-4/IR-5: checked at the start of the turn, before the roll (as _check_win)
        vp = (
            (PIECES_SETTLEMENT - self.settles_left[p]) * VP_SETTLEMENT
            + (PIECES_CITY - self.cities_left[p]) * VP_CITY
            + self.dev[p][VICTORY] * VP_CARD
        )
        if self.lr_holder == p:
            vp += VP_LONGEST_ROAD
        if self.la_holder == p:
            vp += VP_LARGEST_ARMY
        if vp >= self.vp_target:
            self._check_win()

    def _do_roll(self, a: A.Roll) -> None:
        self.phase = DICE

    def _do_dice(self, a: A.DiceOutcome) -> None:
        s = a.total
        p = self.active
        self.rolled = True
        st = self.stats
        st[s] += 1  # the dice histogram is at the start of the list
        st[_S0 + p * _W + F_ROLLS + s] += 1
        self.log.append((None, self.texts.roll[p][s]))
        if s != ROBBER_SUM:
            self._produce(s)
            self.phase = MAIN
            self.seat = p
            return
        # IR-41: everyone over the limit discards half, rounded down, simultaneously
        limit = self.game.options["discard_limit"]
        seats = [(p + i) % self.n for i in range(self.n)]
        over = [q for q in seats if sum(self.hands[q]) > limit]
        self.resume = MAIN
        if over:
            for q in over:
                self.discard_need[q] = sum(self.hands[q]) // 2
            self.discards = Commitments(over)
            self.phase = DISCARD
            self.seat = over[0]
        else:
            self._to_robber()

    def _to_robber(self) -> None:
        self.seat = self.active
        if self.game.options["robber"]:
            self.phase = ROBBER
        else:  # IR-47
            self._resume()

    def _produce(self, s: int) -> None:
        """IR-35..IR-37: pay every building next to a hex with token ``s``."""
        robber = self.robber
        lt = self.lt
        assert lt is not None
        # the robber only matters for this roll when it stands on a hex with token s
        key = s + 16 * (robber + 1) if robber >= 0 and lt.tokens[robber] == s else s
        income = self.income
        entry = income.get(key)
        if entry is None:
            entry = income[key] = self._income(s)
        blocked, due, need, owners, text = entry
        st = self.stats
        for i, k in blocked:  # IR-44: the robber's hex produces nothing
            st[i] += k
        if not due:
            return
        bank = self.bank
        hands = self.hands
        for r, k in need:
            if bank[r] < k:
                break
        else:  # IR-37 (a) for every resource
            for o, r, k, i in due:
                hands[o][r] += k
                bank[r] -= k
                st[i] += k
            self.log.append((None, text))
            return
        short = [False] * NRES  # decided before anyone is paid
        for r, k in need:
            short[r] = k > bank[r]
        base = _S0 + F_SHORTAGE
        paid: list[tuple[int, int, int]] = []
        for o, r, k, i in due:
            if short[r]:
                if owners[r] > 1:  # IR-37 (c): nobody gets this resource
                    st[base + o * _W] += k
                    continue
                st[base + o * _W] += k - bank[r]  # IR-37 (b): the sole owed player gets the rest
                k = bank[r]
                if not k:
                    continue
            hands[o][r] += k
            bank[r] -= k
            st[i] += k
            paid.append((o, r, k))
        if paid:
            self.log.append((None, ProductionText(tuple(paid))))

    def _income(self, s: int) -> tuple[Any, ...]:
        """What a roll of ``s`` pays with the robber where it stands: blocked income as
        (statistics index, cards), cards due as (seat, resource, cards, statistics index) sorted
        by seat and resource, total due and number of owed seats per resource, and the log text
        of a full payout; the totals due are (resource, cards) pairs. Cached in
        ``self.income`` (see :meth:`_touch_income`)."""
        assert self.lt is not None
        no, lv = self.node_owner, self.node_level
        robber = self.robber
        owed: dict[int, int] = {}
        blocked: dict[int, int] = {}
        for h, r, nodes in self.lt.production.get(s, ()):
            for v in nodes:
                o = no[v]
                if o >= 0:
                    if h == robber:
                        blocked[o] = blocked.get(o, 0) + lv[v]
                    else:
                        owed[o * NRES + r] = owed.get(o * NRES + r, 0) + lv[v]
        need = [0] * NRES
        owners = [0] * NRES
        due = []
        for key in sorted(owed):
            o, r = divmod(key, NRES)
            need[r] += owed[key]
            owners[r] += 1
            due.append((o, r, owed[key], _S0 + o * _W + F_GAIN + G_PROD * NRES + r))
        return (
            tuple((_S0 + o * _W + F_BLOCKED, k) for o, k in sorted(blocked.items())),
            tuple(due),
            tuple((r, k) for r, k in enumerate(need) if k),
            tuple(owners),
            ProductionText(tuple((o, r, k) for o, r, k, _ in due)),
        )

    def _touch_income(self, v: int) -> None:
        """A building on ``v`` was placed or upgraded: drop the cached income of the dice sums
        around it. The cache dict is replaced, never changed here, so clones that share it keep
        entries that are still right for them."""
        assert self.lt is not None
        sums = self.lt.node_sums[v]
        # always a new dict, even from an empty one: an empty memo is shared with clones too,
        # and entries this state adds after the change must not reach them (issue 11)
        self.income = {k: e for k, e in self.income.items() if k & 15 not in sums}

    def _do_discard(self, a: A.Discard) -> None:
        """IR-41: one card of ``self.seat``'s discard. Each seat's choice is its own
        (``discard_partial[p]``), so the seats' cards may arrive interleaved in any order."""
        p = self.seat
        r = a.resource
        part = self.discard_partial[p]
        part = (*part[:r], part[r] + 1, *part[r + 1 :])
        if sum(part) < self.discard_need[p]:
            self.discard_partial[p] = part
            return
        commits = self.discards
        assert commits is not None
        commits.commit(p, part)
        self.discard_partial[p] = _NONE
        nxt = commits.next_seat()
        if nxt is not None:
            self.seat = nxt
            return
        for q, cards in sorted(commits.reveal().items()):  # revealed together
            for r in range(NRES):
                if cards[r]:
                    self._lose(q, r, cards[r], L_DISCARD)
            self._log(None, f"seat {q} discards {bundle_text(cards)}")
            self.discard_need[q] = 0
        self.discards = None
        self._to_robber()

    def _do_robber(self, a: A.MoveRobber) -> None:
        p = self.seat
        st = self.stats
        st[_S0 + p * _W + F_ROBBER] += 1
        if a.hex < 0:
            self._log(None, f"seat {p}: the robber stays on {self.robber}")
            self._resume()
            return
        self.robber = a.hex
        if a.victim < 0:
            self._log(None, f"seat {p} moves the robber to {a.hex}")
            self._resume()
            return
        self._log(None, f"seat {p} moves the robber to {a.hex} and robs seat {a.victim}")
        self.thief = p
        self.victim = a.victim
        self.phase = STEAL

    def _do_steal(self, a: A.StealOutcome) -> None:
        t, v, r = self.thief, self.victim, a.resource
        hands = self.hands
        n = self.n
        deficit = self.deficit
        vmask = 0
        # hidden information: observers other than thief and victim do not see the type
        for o in range(n + 1):
            if o == v:
                continue
            if o == t:  # the thief sees the type: a known loss for the victim
                d = deficit[o * n + v]
                if d is not None and d[r] and hands[v][r] - d[r] < 1:
                    deficit[o * n + v] = _with(d, r, hands[v][r] - 1)
                continue
            old = deficit[o * n + v]
            dv = [0] * NRES if old is None else list(old)
            hv = hands[v]
            for x in range(NRES):
                known = hv[x] - dv[x]
                if x == r:
                    if known == 0:
                        dv[x] -= 1
                elif known > 0:
                    dv[x] += 1
                if dv[x] > 0:
                    vmask |= 1 << x
            deficit[o * n + v] = tuple(dv)
            old = deficit[o * n + t]
            deficit[o * n + t] = _with(old or _NONE, r, (old or _NONE)[r] + 1)
        self.uncertain[v] |= vmask
        self.uncertain[t] |= 1 << r
        hands[v][r] -= 1
        hands[t][r] += 1
        st = self.stats
        st[_S0 + t * _W + F_GAIN + G_STEAL * NRES + r] += 1
        st[_S0 + v * _W + F_LOSS + L_STOLEN * NRES + r] += 1
        st[_S0 + t * _W + F_STEALS] += 1
        st[_S0 + v * _W + F_STOLEN] += 1
        # IR-74: everyone sees that one card moved; thief and victim also see its type
        texts = self.texts
        self.log.append((None, texts.steal[t][v]))
        self.log.append((texts.pair[t][v], texts.stole[t][v][r]))
        self.thief = self.victim = -1
        self.seat = self.active
        self._resume()

    # --- development cards
    def _do_buy(self, a: A.BuyDevelopment) -> None:
        p = self.seat
        self._pay(p, COST_DEV, L_DEV)
        self.log.append((None, self.texts.buy[p]))
        self.resume = self.phase
        self.phase = DRAW

    def _do_draw(self, a: A.DrawDevelopment) -> None:
        p = self.seat
        c = a.card
        self.deck[c] -= 1
        self.dev[p][c] += 1
        self.dev_new[p][c] += 1
        self.stats[_S0 + p * _W + F_DEV_BOUGHT + c] += 1
        self.log.append((self.texts.only[p], self.texts.draw[p][c]))
        self._resume()
        self._check_win()  # IR-4: a VP card can win at once (never in SBP, IR-33)

    def _play(self, p: int, card: int) -> None:
        self.dev[p][card] -= 1
        self.dev_played = True
        self.stats[_S0 + p * _W + F_DEV_PLAYED + card] += 1

    def _do_knight(self, a: A.PlayKnight) -> None:
        p = self.seat
        self._play(p, KNIGHT)
        self.knights[p] += 1
        self._log(None, f"seat {p} plays a knight")
        # IR-72: first to 3 knights; only strictly more takes it over
        if self.game.options["largest_army"] and self.knights[p] >= LARGEST_ARMY_MIN:
            h = self.la_holder
            if h != p and (h < 0 or self.knights[p] > self.knights[h]):
                self.la_holder = p
                self._log(None, f"seat {p} takes Largest Army ({self.knights[p]})")
        if self.game.options["robber"]:
            self.resume = self.phase
            self.phase = ROBBER
        self._check_win()  # IR-4: Largest Army can win at once

    def _do_road_building(self, a: A.PlayRoadBuilding) -> None:
        p = self.seat
        self._play(p, ROADS)
        self._log(None, f"seat {p} plays road building")
        self.free_roads = min(ROAD_BUILDING_ROADS, self.roads_left[p])
        self.resume = self.phase
        self.phase = ROAD_BUILDING

    def _do_plenty(self, a: A.PlayPlenty) -> None:
        p = self.seat
        self._play(p, PLENTY)
        for r in range(NRES):
            if a.take[r]:
                self._gain(p, r, a.take[r], G_PLENTY)
        self._log(None, f"seat {p} plays year of plenty: {bundle_text(a.take)}")

    def _do_monopoly(self, a: A.PlayMonopoly) -> None:
        p = self.seat
        r = a.resource
        self._play(p, MONOPOLY)
        total = 0
        for q in range(self.n):
            if q != p:
                k = self.hands[q][r]
                if k:
                    self._lose(q, r, k, L_MONO, to_bank=False)
                    self.hands[p][r] += k
                    self.stats[_S0 + p * _W + F_GAIN + G_MONO * NRES + r] += k
                    total += k
        self._log(None, f"seat {p} plays monopoly on {RESOURCES[r]} and takes {total}")

    # --- trade
    def _do_maritime(self, a: A.MaritimeTrade) -> None:
        p = self.seat
        lot = _MARITIME_LOT.get(id(a))
        if lot is not None:  # a listed single lot: its ratio is the player's ratio for r
            k, r, s = lot
            if k < BANK_RATIO:
                sink, src = L_HARBOR, G_HARBOR
            else:
                sink, src = L_BANK, G_BANK
            self._lose(p, r, k, sink)
            st = self.stats
            base = _S0 + p * _W
            st[base + F_MARITIME + k - 2] += 1
            self.hands[p][s] += 1
            self.bank[s] -= 1
            st[base + F_GAIN + src * NRES + s] += 1
            self.log.append((None, self.texts.trade[p][id(a)]))
            return
        harbor = any(a.give[r] and self.ratio[p][r] < BANK_RATIO for r in range(NRES))
        sink, src = (L_HARBOR, G_HARBOR) if harbor else (L_BANK, G_BANK)
        for r in range(NRES):
            if a.give[r]:
                self._lose(p, r, a.give[r], sink)
                self.stats[_S0 + p * _W + F_MARITIME + self.ratio[p][r] - 2] += (
                    a.give[r] // self.ratio[p][r]
                )
            if a.get[r]:
                self._gain(p, r, a.get[r], src)
        self._log(None, f"seat {p} trades {bundle_text(a.give)} for {bundle_text(a.get)}")

    def _do_offer(self, a: A.Offer) -> None:
        """IR-49/IR-50: an offer to every other seat. It never blocks: the other seats answer
        in any order (seats with ``decline-all on`` reject at once) while the proposer plays
        on; the sequential walk asks the seats in order after the proposer first."""
        p = self.active
        declined = self.decline_all
        answers: list[Any] = [
            "reject" if q != p and declined >> q & 1 else None for q in range(self.n)
        ]
        o = OpenOffer(self.next_offer, a.give, a.get, answers)
        self.next_offer += 1
        self.offers.append(o)
        self.stats[_S0 + p * _W + F_OFFERS] += 1
        self._log(None, f"seat {p} offers #{o.id}: {bundle_text(a.give)} for {bundle_text(a.get)}")
        self._after_answer(o)

    def _answer(self, p: int, oid: int, value: Any) -> None:
        """Seat ``p``'s answer to offer ``oid``, kept by seat (so answers commute). It shows
        in the offer at once; the log line of an offer's answers is written when the last
        addressee answers or the offer closes (:meth:`_log_answers`)."""
        o = self._offer(oid)
        assert o is not None and o.answers[p] is None
        o.answers[p] = value
        if value == "accept":
            self._reveal(p, o.get)
        elif value != "reject":
            self._reveal(p, value[0])
            self.stats[_S0 + p * _W + F_COUNTERS] += 1
        self._after_answer(o)

    def _after_answer(self, o: OpenOffer) -> None:
        p = self.active
        if all(x is not None for q, x in enumerate(o.answers) if q != p):
            self._log_answers(o)
            if all(x == "reject" for q, x in enumerate(o.answers) if q != p):
                self._close_rejected(o)
        self._to_main()

    def _log_answers(self, o: OpenOffer) -> None:
        """One public line with every addressee's answer to ``o``, in seat order after the
        proposer (so it does not depend on the order the answers arrived in)."""
        n, p = self.n, self.active
        parts = []
        for i in range(1, n):
            q = (p + i) % n
            x = o.answers[q]
            if x is None:
                parts.append(f"seat {q} does not answer")
            elif x == "accept":
                parts.append(f"seat {q} accepts")
            elif x == "reject":
                parts.append(f"seat {q} rejects")
            else:
                parts.append(f"seat {q} counters {bundle_text(x[0])} for {bundle_text(x[1])}")
        self._log(None, f"answers to offer #{o.id}: " + ", ".join(parts))

    def _close_rejected(self, o: OpenOffer) -> None:
        """IR-51: rejected by every addressee (unanswered counts as rejected): it closes and
        cannot be re-sent unchanged this turn."""
        self.offers.remove(o)
        self.rejected.append((o.give, o.get))
        self._log(None, f"offer #{o.id} is rejected by every seat")

    def _unanswered(self, o: OpenOffer) -> bool:
        p = self.active
        return any(x is None for q, x in enumerate(o.answers) if q != p)

    def _offer_answered(self, oid: int) -> int:
        """The offer an answer names (0: the one offer the seat has not answered)."""
        if oid:
            return oid
        o = self._first_unanswered(self.seat)
        assert o is not None
        return o.id

    def _do_accept(self, a: A.Accept) -> None:
        self._answer(self.seat, self._offer_answered(a.offer), "accept")

    def _do_reject(self, a: A.Reject) -> None:
        self._answer(self.seat, self._offer_answered(a.offer), "reject")

    def _do_counter(self, a: A.Counter) -> None:
        self._answer(self.seat, self._offer_answered(a.offer), (a.give, a.get))

    def _do_decline_all(self, a: A.DeclineAll) -> None:
        """A seat's standing answer: on rejects every open offer it has not answered and
        every later one as it is made; off asks it again from the next offer."""
        p = self.seat
        if a.on:
            self.decline_all |= 1 << p
            if p != self.active:
                for o in list(self.offers):
                    if o.answers[p] is None:
                        self._answer(p, o.id, "reject")
        else:
            self.decline_all &= ~(1 << p)
        if self.phase in (MAIN, ANSWER):
            self._to_main()
        elif self.phase == DISCARD:
            assert self.discards is not None
            nxt = self.discards.next_seat()
            self.seat = self.active if nxt is None else nxt
        elif self.phase == SBP_SIGNUP and self.sbp_queue:
            self.seat = self.sbp_queue[0]

    def _do_complete(self, a: A.Complete) -> None:
        """IR-50: the proposer takes one acceptance or counter-offer without waiting for the
        other answers (missing answers count as rejections); both hands were re-checked."""
        p = self.active
        o = self._offer(a.offer)
        assert o is not None
        if self._unanswered(o):
            self._log_answers(o)
        s = a.seat
        ans = o.answers[s]
        if ans == "accept":
            give, get = o.give, o.get
        else:
            get, give = ans  # the counter, from s's side
        for r in range(NRES):
            if give[r]:
                self._lose(p, r, give[r], L_TRADE, to_bank=False)
                self.hands[s][r] += give[r]
                self.stats[_S0 + s * _W + F_GAIN + G_TRADE * NRES + r] += give[r]
            if get[r]:
                self._lose(s, r, get[r], L_TRADE, to_bank=False)
                self.hands[p][r] += get[r]
                self.stats[_S0 + p * _W + F_GAIN + G_TRADE * NRES + r] += get[r]
        self.offers.remove(o)
        self.stats[_S0 + p * _W + F_TRADES] += 1
        self.stats[_S0 + s * _W + F_TRADES] += 1
        self._log(None, f"seat {p} trades {bundle_text(give)} for {bundle_text(get)} with seat {s}")
        if self.offers:
            self._to_main()

    def _do_withdraw(self, a: A.Withdraw) -> None:
        o = self._offer(a.offer)
        assert o is not None
        if self._unanswered(o):
            self._log_answers(o)
        self.offers.remove(o)
        self._log(None, f"seat {self.active} withdraws offer #{o.id}")
        p = self.active
        if all(x in (None, "reject") for q, x in enumerate(o.answers) if q != p):
            self.rejected.append((o.give, o.get))  # IR-51: nobody accepted or countered
        if self.offers or self.phase == ANSWER:
            self._to_main()

    # --- end of turn, special build phase
    def _do_end(self, a: A.EndTurn) -> None:
        p = self.seat
        if self.phase == ROAD_BUILDING:  # IR-28: forfeit the unplaced roads
            self._log(None, f"seat {p} forfeits {self.free_roads} unplaced road(s)")
            self.free_roads = 0
            self._resume()
            return
        if self.phase == SBP_BUILD:
            self.sbp_joined.pop(0)
            if self.sbp_joined:
                self.seat = self.sbp_joined[0]
            else:
                self._start_turn((self.active + 1) % self.n)
            return
        if self.offers:
            for o in self.offers:
                if self._unanswered(o):
                    self._log_answers(o)  # IR-28/IR-50: missing answers count as rejections
            self._log(None, f"seat {p}'s open offers are withdrawn")
            self.offers = []
        self.log.append((None, self.texts.end[p]))
        if self.n >= SBP_MIN_PLAYERS:  # IR-29/IR-30
            self.sbp_queue = [(p + i) % self.n for i in range(1, self.n)]
            self.sbp_joined = []
            self.phase = SBP_SIGNUP
            self.seat = self.sbp_queue[0]
            return
        self._start_turn((p + 1) % self.n)

    def _do_signup(self, a: A.SpecialBuildSignUp) -> None:
        """IR-30: the other seats sign up at once, in any order; the window closes with the
        last answer, which writes every seat's answer to the log in seat order."""
        p = self.seat
        self.sbp_queue = [q for q in self.sbp_queue if q != p]
        n, active = self.n, self.active
        if a.join:
            # IR-31: slots in seat order after the active player, whatever the arrival order
            joined = [*self.sbp_joined, p]
            self.sbp_joined = sorted(joined, key=lambda q: (q - active) % n)
            self.stats[_S0 + p * _W + F_SBP] += 1
        if self.sbp_queue:
            self.seat = self.sbp_queue[0]
            return
        for i in range(1, n):
            q = (active + i) % n
            verb = "signs up for" if q in self.sbp_joined else "passes"
            self._log(None, f"seat {q} {verb} the special build phase")
        if self.sbp_joined:
            self.phase = SBP_BUILD
            self.seat = self.sbp_joined[0]
        else:
            self._start_turn((self.active + 1) % self.n)

    # ------------------------------------------------------------------ cards
    def _gain(self, p: int, r: int, k: int, source: int) -> None:
        self.hands[p][r] += k
        self.bank[r] -= k
        self.stats[_S0 + p * _W + F_GAIN + source * NRES + r] += k

    def _lose(self, p: int, r: int, k: int, sink: int, to_bank: bool = True) -> None:
        """``p`` publicly loses ``k`` cards of ``r`` (to the bank unless ``to_bank`` is False)."""
        hand = self.hands[p]
        old = hand[r]
        hand[r] = old - k
        if to_bank:
            self.bank[r] += k
        self.stats[_S0 + p * _W + F_LOSS + sink * NRES + r] += k
        if self.uncertain[p] >> r & 1:
            deficit = self.deficit
            left = False
            for i in range(p, len(deficit), self.n):  # observer o's entry is o * n + p
                d = deficit[i]
                if d is not None and d[r]:
                    if old - d[r] < k:
                        d = deficit[i] = _with(d, r, hand[r])
                    if d[r]:
                        left = True
            if not left:
                self.uncertain[p] &= ~(1 << r)

    def _pay(self, p: int, cost: Bundle, sink: int) -> None:
        for r in range(NRES):
            if cost[r]:
                self._lose(p, r, cost[r], sink)

    def _reveal(self, p: int, cards: Bundle) -> None:
        """Everyone learns that ``p`` holds at least ``cards`` (an accepted offer or counter)."""
        if not self.uncertain[p]:
            return
        hand = self.hands[p]
        deficit = self.deficit
        for i in range(p, len(deficit), self.n):  # observer o's entry is o * n + p
            d = deficit[i]
            if d is not None:
                for r in range(NRES):
                    if cards[r] and hand[r] - d[r] < cards[r]:
                        d = _with(d, r, hand[r] - cards[r])
                deficit[i] = d

    # ------------------------------------------------------------------ scores
    def visible_vp(self, p: int) -> int:
        """VP everyone can see: buildings and awards (IR-3)."""
        vp = (PIECES_SETTLEMENT - self.settles_left[p]) * VP_SETTLEMENT
        vp += (PIECES_CITY - self.cities_left[p]) * VP_CITY
        if self.lr_holder == p:
            vp += VP_LONGEST_ROAD
        if self.la_holder == p:
            vp += VP_LARGEST_ARMY
        return vp

    def total_vp(self, p: int) -> int:
        """All VP including hidden VP cards (IR-1, IR-3)."""
        return self.visible_vp(p) + self.dev[p][VICTORY] * VP_CARD

    def returns(self) -> list[float]:
        out = [0.0] * self.n
        if self.winner >= 0:
            out[self.winner] = 1.0
        return out

    def scores(self) -> list[float]:
        return [float(self.total_vp(p)) for p in range(self.n)]

    def turn_count(self) -> int:
        return self.turn

    def timeout_action(self, seat: int, rng: random.Random) -> Action | None:
        """IR-28's default for ``seat``'s pending decision (see :mod:`.timeouts`)."""
        from hexfolk.games.island.timeouts import timeout_action

        return timeout_action(self, seat, rng)

    # ------------------------------------------------------------------ views
    def observation(self, seat: int | None) -> JSON:
        check_seat(self, seat)
        from hexfolk.games.island.views import observation

        return observation(self, seat)

    def full_state(self) -> JSON:
        from hexfolk.games.island.views import full_state

        return full_state(self)

    def summary(self) -> JSON:
        from hexfolk.games.island.views import summary

        return summary(self)

    def sample_consistent_state(self, seat: int | None, rng: random.Random) -> IslandState:
        check_seat(self, seat)
        from hexfolk.games.island.views import sample_consistent_state

        return sample_consistent_state(self, seat, rng)

    def stat(self, name: str, seat: int | None = None) -> list[int]:
        """A statistic: ``stat("dice")`` is the histogram of sums (index = sum);
        ``stat(name, seat)`` the counts of one seat for a field of :data:`STAT_FIELDS`."""
        if seat is None:
            if name != "dice":
                raise KeyError(f"{name!r} is kept per seat")
            return self.stats[:_S0]
        base = _S0 + seat * _W + STAT_OFFSET[name]
        return self.stats[base : base + dict(STAT_FIELDS)[name]]

    def log_entries(self) -> list[LogEntry]:
        """The whole log, oldest first: ``(visibility, text)`` pairs (visibility None: all;
        otherwise the seats that see the entry; text may be lazily formatted, use ``str``)."""
        if self.log_base is None:
            return self.log[:]
        return [*self.log_base.entries(), *self.log]

    def visible_log(self, seat: int | None) -> list[str]:
        """The log lines ``seat`` may see (None: the spectator), oldest first (a new list).

        Incremental: the lines already rendered for ``seat`` are kept (:attr:`log_seen`, and
        per frozen chunk :meth:`LogChunks.seen`), so a call renders only the entries added
        since the previous one (the RL environments observe at every step, issue 18)."""
        cached = self.log_seen.get(seat)
        log = self.log
        if cached is None:
            base = self.log_base
            lines = base.seen(seat)[:] if base is not None else []
            done = 0
        else:
            done, lines = cached
        if done < len(log):
            _seen_by(log[done:], seat, lines)
            self.log_seen[seat] = (len(log), lines)
        elif cached is None:
            self.log_seen[seat] = (done, lines)
        return lines[:]


_DISPATCH: dict[type, Any] = {
    A.LayoutOutcome: IslandState._do_layout,
    MapLayoutOutcome: IslandState._do_layout,
    A.BuildSettlement: IslandState._do_settle,
    A.BuildRoad: IslandState._do_road,
    A.BuildCity: IslandState._do_city,
    A.Roll: IslandState._do_roll,
    A.DiceOutcome: IslandState._do_dice,
    A.Discard: IslandState._do_discard,
    A.MoveRobber: IslandState._do_robber,
    A.StealOutcome: IslandState._do_steal,
    A.BuyDevelopment: IslandState._do_buy,
    A.DrawDevelopment: IslandState._do_draw,
    A.PlayKnight: IslandState._do_knight,
    A.PlayRoadBuilding: IslandState._do_road_building,
    A.PlayPlenty: IslandState._do_plenty,
    A.PlayMonopoly: IslandState._do_monopoly,
    A.MaritimeTrade: IslandState._do_maritime,
    A.Offer: IslandState._do_offer,
    A.Accept: IslandState._do_accept,
    A.Reject: IslandState._do_reject,
    A.Counter: IslandState._do_counter,
    A.Complete: IslandState._do_complete,
    A.Withdraw: IslandState._do_withdraw,
    A.DeclineAll: IslandState._do_decline_all,
    A.EndTurn: IslandState._do_end,
    A.SpecialBuildSignUp: IslandState._do_signup,
}
