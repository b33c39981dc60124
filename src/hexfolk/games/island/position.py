"""The island position: every field of a game in flat lists, and the few queries and phase
moves every rule module shares.

:class:`IslandPosition` is the plain object the rule modules (``setup``, ``production``,
``robber``, ``building``, ``development``, ``trade``, ``turn``) read and change; the kernel's
interface on top of it is :class:`~.state.IslandState`. Its fields, in the game's words:

* board: ``topology`` (geometry), ``layout_tables`` (the layout's tables), ``island`` (a
  map's drawn island), ``node_owner``/``node_level`` (settlement 1, city 2), ``edge_owner``,
  ``free`` (nodes where the distance rule allows a settlement), ``robber`` (hex, -1: off the board);
* per seat: ``hands`` (resource cards), ``dev_cards``/``dev_bought`` (development cards
  held / bought this turn), ``knights`` played, pieces left (``roads_left``, ``settlements_left``,
  ``cities_left``), ``roads``/``buildings`` (ids built on), ``ratio`` (maritime ratios),
  ``road_length`` (longest trail);
* awards ``longest_road`` (Longest Road) and ``largest_army`` (Largest Army), -1 for nobody;
  ``bank`` and ``deck`` (development cards left by kind);
* the turn: ``phase``, ``seat`` (to move), ``active`` (whose turn), ``resume`` (the phase a
  card or purchase returns to), ``turn``, ``rolled``, ``dev_played``, ``winner``;
* pending steps: the 7's ``discards``/``discard_need``/``discard_partial`` and
  ``thief``/``victim``, ``free_roads`` of Road Building, ``offers``/``rejected``/
  ``decline_all`` (IR-48..IR-51), ``sbp_queue``/``sbp_joined`` (special build phase);
* what each observer cannot know (``deficit``, ``uncertain``), the ``log`` and ``stats``.

Speed (random games run thousands of steps per second; see ``benchmarks/island_profile.py``):

* memos shared by clones: income by dice sum (``income``), robber moves (``robber_cache``),
  road and settlement spots and the views' order of the pieces (``build_cache``), trade
  listings by hand (process-wide, per set of ratios). Each depends only on the board, and a
  state that changes the board *replaces* the memo instead of editing it, so states sharing
  one always agree with it;
* recurring log lines formatted once per player count (:class:`~.log.Texts`); production lines
  lazily; each observer's rendered log kept and extended (:meth:`IslandPosition.visible_log`);
* Longest Road updated from the new road only (:func:`~.roads.length_after_road`);
* clones share the append-only log (frozen :class:`~.log.LogChunks`), the copy-on-write
  ``buildings`` and ``ratio`` lists and the immutable ``deficit`` tuples.
"""

from __future__ import annotations

import random
from abc import abstractmethod
from enum import StrEnum
from operator import ge
from typing import Any, Self

from hexfolk.core import Action, Commitments, Game, LogLine, State
from hexfolk.games.island.actions import (
    EMPTY,
    BoardActions,
    Bundle,
    LayoutOutcome,
    TradeTable,
    board_actions,
    bundle_text,
    trade_table,
)
from hexfolk.games.island.board import LayoutTables, Topology
from hexfolk.games.island.labels import labels
from hexfolk.games.island.log import (
    LOG_CHUNKS_MAX,
    LogChunks,
    LogEntry,
    Texts,
    make_line,
    seen_by,
    texts_for,
)
from hexfolk.games.island.log_forms import written
from hexfolk.games.island.phases import ANSWER, LAYOUT, MAIN, Phase
from hexfolk.games.island.rules import (
    BANK_RATIO,
    NRES,
    PIECES_CITY,
    PIECES_ROAD,
    PIECES_SETTLEMENT,
)
from hexfolk.games.island.stats import PER_SEAT, SEATS_AT, STAT_OFFSET, STAT_WIDTH

JSON = dict[str, Any]


class IslandRules(Game):
    """What a position reads from its game: the base of :class:`~.game.IslandGame` (so the
    position, below the game in the layering, names the game's type without importing it)."""

    bank_size: int
    """Cards of each resource in the bank (IR-10)."""
    deck: tuple[int, ...]
    """Development cards by kind at the start (IR-10)."""
    board_id: str
    """``hex19``/``hex30``/``hex44`` or a map id."""
    map: Any
    """The map of IR-83 the game is played on (None: the standard board)."""
    fixed_outcomes: tuple[LayoutOutcome, ...]
    """The layouts of a fixed board, as chance outcomes (empty: drawn at random)."""

    @property
    @abstractmethod
    def fixed_geometry(self) -> bool:
        """False for Driftland, whose geometry comes with each game's layout."""

    @abstractmethod
    def start_topology(self) -> Topology:
        """The geometry of a state before the layout."""

    @abstractmethod
    def draw_layout_outcome(self, rng: random.Random) -> LayoutOutcome:
        """A random layout outcome."""

    @abstractmethod
    def is_layout_outcome(self, action: Action) -> bool:
        """Whether ``action`` is a layout this game can draw."""

    @abstractmethod
    def parse_action_syntax(self, text: str) -> Action:
        """The action a text names (the island's texts name actions, never patterns)."""


class Reply(StrEnum):
    """A seat's answer to an open offer (IR-50), other than a counter-offer."""

    ACCEPT = "accept"
    REJECT = "reject"


ACCEPT = Reply.ACCEPT
REJECT = Reply.REJECT
"""The replies as module constants: reading an enum member through its class (``Reply.REJECT``)
goes through the enum's metaclass, several times the cost of a global, on the trade paths
that run at every step of a random game."""


Answer = Reply | tuple[Bundle, Bundle] | None
"""An addressee's answer: None (not yet), a :class:`Reply`, or the ``(give, get)`` of a
counter-offer written from the addressee's side."""


class OpenOffer:
    """A player-trade offer of the active player with every other seat's answer.

    ``answers[s]``: an :data:`Answer`: ``None`` (not yet), a :class:`Reply` or ``(give, get)`` of a
    counter-offer written from seat ``s``'s side.
    """

    __slots__ = ("answers", "get", "give", "id")

    def __init__(self, oid: int, give: Bundle, get: Bundle, answers: list[Answer]):
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
                answers[str(s)] = str(a)  # a StrEnum's str is its value (``.value`` is slower)
        return {
            "id": self.id,
            "give": bundle_text(self.give),
            "get": bundle_text(self.get),
            "answers": answers,
        }


class IslandPosition(State):
    """A position of the island game (mutable; :meth:`clone` is a cheap flat copy). The
    kernel's methods are :class:`~.state.IslandState`'s; this class holds the fields."""

    game: IslandRules

    def __init__(self, game: IslandRules):
        self.game = game
        n = game.num_players
        self.n = n
        self.topology = game.start_topology()
        """The board's geometry (Driftland: empty until the layout outcome brings the island)."""
        self.layout_tables: LayoutTables | None = None
        self.island: str | None = None
        """On a map, the drawn island as ``maps.layout_text`` (coordinates, lakes, coastline)."""
        self.acts: BoardActions = board_actions(
            self.topology.num_nodes, self.topology.num_edges, self.topology.num_hexes
        )
        self.phase: Phase = LAYOUT
        self.seat = -1
        """The seat to move (meaningless at chance nodes and at the end)."""
        self.active = 0
        """The player whose regular turn it is."""
        self.resume: Phase = MAIN
        self.turn = 0
        self.setup_index = 0
        self.setup_node = -1
        self.rolled = False
        self.dev_played = False
        self.winner = -1
        N, E = self.topology.num_nodes, self.topology.num_edges
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
        self.build_cache: dict[int, tuple[Any, tuple[Any, ...]]] = {}
        """Road (key ``p``) and settlement (key ``p + 8``) actions of each seat, and the
        views' order of the pieces on the board (key ``-1``, :func:`.views.pieces_order`),
        each with the pieces left when computed (a guard: nothing is reused once the pieces
        on the table changed). Shared by clones and replaced, never edited, when a road or
        building is placed (see :attr:`income`)."""
        self.trade_cache: list[TradeTable] = [
            trade_table((BANK_RATIO,) * NRES, n > 1) for _ in range(n)
        ]
        """Per seat: the :func:`~.actions.trade_table` of its ratios (replaced when they change)."""
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
        self.dev_cards = [[0] * 5 for _ in range(n)]
        self.dev_bought = [[0] * 5 for _ in range(n)]
        self.deck = list(game.deck)
        self.knights = [0] * n
        self.roads_left = [PIECES_ROAD] * n
        self.settlements_left = [PIECES_SETTLEMENT] * n
        self.cities_left = [PIECES_CITY] * n
        self.ratio = [[BANK_RATIO] * NRES for _ in range(n)]
        """Maritime ratio per seat and resource; copy-on-write like :attr:`buildings`."""
        self.road_length = [0] * n
        self.longest_road = -1
        self.largest_army = -1
        # 7s: simultaneous discards (IR-41) as hidden commitments, one partial choice per seat
        self.discards: Commitments | None = None
        self.discard_need = [0] * n
        self.discard_partial: list[Bundle] = [EMPTY] * n
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
        """The log entries since this state was last cloned (appended to in place), as
        written (:mod:`.log`); the whole log is :meth:`log_entries` (its lines made) or
        :meth:`log_as_written`."""
        self.log_base: LogChunks | None = None
        """The log before :attr:`log`: frozen chunks shared with clones (see :meth:`clone`)."""
        self.log_seen: dict[int | None, tuple[int, list[LogLine]]] = {}
        """Per observer: how many entries of :attr:`log` are rendered, and the lines of the
        whole log that observer may see up to there (this state's own list, extended in place
        by :meth:`visible_log`; never shared with a clone)."""
        self.after: tuple[tuple[int, ...], ...] = tuple(
            tuple((p + i) % n for i in range(1, n)) for p in range(n)
        )
        """Per seat ``p``, the other seats in seat order after ``p``: the order in which the
        addressees of ``p``'s offers are asked and their answers logged (never changed)."""
        self.texts: Texts = texts_for(n)
        self.vp_target: int = game.options["vp_target"]
        """(visibility, text); a text may be a lazily formatted object such as ProductionText."""
        self.stats = [0] * (SEATS_AT + n * PER_SEAT)
        """All statistics in one flat list (see STAT_FIELDS and :meth:`stat`)."""

    # ------------------------------------------------------------------ copies
    def clone(self) -> Self:
        """A copy that shares only what is never changed in place (see ``docs/island.md``)."""
        new = type(self).__new__(type(self))
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
        new.dev_cards = list(map(list.copy, self.dev_cards))
        new.dev_bought = list(map(list.copy, self.dev_bought))
        new.deck = self.deck[:]
        new.knights = self.knights[:]
        new.roads_left = self.roads_left[:]
        new.settlements_left = self.settlements_left[:]
        new.cities_left = self.cities_left[:]
        new.road_length = self.road_length[:]
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
            elif base.depth >= LOG_CHUNKS_MAX:
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

    def stat(self, name: str, seat: int | None = None) -> list[int]:
        """A statistic: ``stat("dice")`` is the histogram of sums (index = sum);
        ``stat(name, seat)`` the counts of one seat for a field of :data:`STAT_FIELDS`."""
        if seat is None:
            if name != "dice":
                raise KeyError(f"{name!r} is kept per seat")
            return self.stats[:SEATS_AT]
        base = SEATS_AT + seat * PER_SEAT + STAT_OFFSET[name]
        return self.stats[base : base + STAT_WIDTH[name]]

    def log_entries(self) -> list[tuple[frozenset[int] | None, LogLine]]:
        """The whole log, oldest first: ``(visibility, line)`` pairs (visibility None: all;
        otherwise the seats that see the entry), each line a :class:`~hexfolk.core.LogLine`
        with its places named by the board's labels."""
        places = labels(self.topology)
        return [(vis, make_line(line, places)) for vis, line in self.log_as_written()]

    def log_as_written(self) -> list[LogEntry]:
        """The whole log as the engine wrote it, oldest first: ``(visibility, line)`` pairs
        whose line may be written, not made (``(form, value, ...)``, see :mod:`.log`)."""
        if self.log_base is None:
            return self.log[:]
        return [*self.log_base.entries(), *self.log]

    def visible_log(self, seat: int | None) -> list[LogLine]:
        """The log lines ``seat`` may see (None: the spectator), oldest first (a new list).

        Incremental: the lines already rendered for ``seat`` are kept (:attr:`log_seen`, and
        per frozen chunk :meth:`LogChunks.seen`), so a call renders only the entries added
        since the previous one (the RL environments observe at every step, issue 18)."""
        cached = self.log_seen.get(seat)
        log = self.log
        if cached is None:
            base = self.log_base
            lines = base.seen(seat, labels(self.topology))[:] if base is not None else []
            done = 0
        else:
            done, lines = cached
        if done < len(log):
            seen_by(log[done:], seat, lines, labels(self.topology))
            self.log_seen[seat] = (len(log), lines)
        elif cached is None:
            self.log_seen[seat] = (done, lines)
        return lines[:]

    def legal_for(self, seat: int, action: Action) -> bool:
        """Whether ``seat`` (an acting seat or not) may take ``action`` now (the state's)."""
        raise NotImplementedError


def log_line(s: IslandPosition, vis: frozenset[int] | None, form: str, **params: Any) -> None:
    """Append the log line of ``form`` with named ``params`` (:mod:`.log_forms`), seen by
    ``vis`` (None: everyone, IR-74): written as ``(form, value, ...)``
    (:func:`~.log_forms.written`), made into its :class:`~hexfolk.core.LogLine` (its places
    named by the board's labels) when someone reads the log (:mod:`.log`). The rule modules
    append the written tuple themselves (``s.log.append((None, ("road", p, e)))``: no dict
    of params built at a step); this is the general, slower way."""
    s.log.append((vis, written(form, params)))


def first_unanswered(s: IslandPosition, p: int) -> OpenOffer | None:
    """The first open offer ``p`` has not answered (IR-50), or None."""
    for o in s.offers:
        if o.answers[p] is None:
            return o
    return None


def awaiting(s: IslandPosition) -> list[int]:
    """Seats that have not answered some open offer, in seat order after the proposer:
    the sequential walk asks them in this order before the proposer moves again."""
    offers = s.offers
    if not offers:
        return []
    out = []
    for q in s.after[s.active]:
        for o in offers:
            if o.answers[q] is None:
                out.append(q)
                break
    return out


def to_main(s: IslandPosition) -> None:
    """Back in the active player's main phase: while some seat has not answered an open
    offer the phase is ``answer`` and the sequential walk names that seat, the first of
    :func:`awaiting` (IR-50); the proposer acts alongside (``acting_seats``)."""
    offers = s.offers
    if offers:  # awaiting's walk, stopped at its first seat (after every answer: no list)
        for q in s.after[s.active]:
            for o in offers:
                if o.answers[q] is None:
                    s.phase = ANSWER
                    s.seat = q
                    return
    s.phase = MAIN
    s.seat = s.active


def interrupt(s: IslandPosition, p: int, phase: Phase) -> None:
    """Seat ``p``'s card or purchase interrupts its step with ``phase`` (the draw, the robber,
    the free roads: ``p`` decides, or the chance step is ``p``'s); :func:`resume_phase` comes
    back to the step interrupted (the main phase, with its answers still pending)."""
    s.resume = MAIN if s.phase == ANSWER else s.phase
    s.phase = phase
    s.seat = p


def resume_phase(s: IslandPosition) -> None:
    """Back to the phase a card or purchase interrupted (main phase: with its answers)."""
    s.phase = s.resume
    if s.phase == MAIN and s.offers:
        to_main(s)


def offer_by_id(s: IslandPosition, oid: int) -> OpenOffer | None:
    """The open offer numbered ``oid``, or None."""
    for o in s.offers:
        if o.id == oid:
            return o
    return None


def addressees_answers(s: IslandPosition, o: OpenOffer) -> list[Answer]:
    """The answers of ``o``'s addressees (every seat but the proposer), in seat order."""
    p = s.active
    answers = o.answers
    return answers[:p] + answers[p + 1 :]


def unanswered(s: IslandPosition, o: OpenOffer) -> bool:
    """Whether some addressee of ``o`` has not answered yet (IR-50)."""
    return None in addressees_answers(s, o)


def with_item(t: tuple[int, ...], i: int, x: int) -> tuple[int, ...]:
    """``t`` with item ``i`` replaced by ``x``."""
    items = list(t)
    items[i] = x
    return tuple(items)


def holds(hand: list[int], b: Bundle) -> bool:
    """Whether ``hand`` holds at least the cards of ``b``."""
    return all(map(ge, hand, b))
