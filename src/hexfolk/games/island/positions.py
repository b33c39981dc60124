"""Island positions as a public document (as FEN is for chess): :func:`write_position` and
:func:`load_position` (``state.position()`` and ``IslandGame.load_position(doc)``).

A position names every field of a state in the game's words, hidden ones included (it is a
full state: never send it to a seat). Its fields (``docs/island.md``, "Positions"):

* ``game``, ``players``, ``options``: the game it belongs to (as ``game.config()``);
* ``board``: ``map`` (``hex19``... or a map id) and ``layout`` (the layout outcome's text, on
  a map the drawn island; None before the layout), ``robber`` (hex, -1: none on the board);
* ``turn``: ``phase`` (a prompt kind or ``layout``/``dice``/``steal``/``draw``/``over``),
  ``seat`` (to move), ``active`` (whose turn), ``resume`` (the phase a card or purchase returns
  to), ``number``, ``rolled``, ``card_played``, ``setup_index`` and ``setup_settlement``
  (snake order), ``winner`` (None until the end); ``prompt`` (what the seat to move is asked:
  checked against the rebuilt state when given);
* ``buildings``: per seat, in the order built, ``[node, "settlement" | "city"]``; ``roads``:
  per seat, in the order built, the edge ids;
* ``seats``: per seat its ``hand`` (counts by resource name), ``dev_cards``
  and ``bought_this_turn`` by card name, ``knights`` played, ``road_length``,
  ``declines_offers``, ``discard`` (``owed`` and ``chosen`` during a 7's discards);
* ``bank``, ``deck`` (development cards left by name), ``awards`` (``longest_road``,
  ``largest_army``: a seat or None);
* pending steps: ``discards`` (``seats`` and the ``committed`` bundles), ``steal``
  (``thief``, ``victim``), ``free_roads``, ``offers`` (as in observations), ``next_offer``,
  ``rejected_offers``, ``special_build`` (``to_answer``, ``joined``);
* ``unknown_cards``: ``[observer, seat, bundle]`` for the cards of a seat's hand an observer
  cannot know by type (observer ``players`` is the spectator); ``log`` (``[seats | None,
  text]``) and ``statistics`` (``dice`` and per seat the counts of :data:`~.stats.STAT_FIELDS`).

Pieces left in supply, open spots, harbors and the memos are derived. :func:`load_position`
checks the invariants before building anything and refuses a bad document with a
:class:`~hexfolk.core.PositionError` whose one sentence names the problem.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, TypeVar

from hexfolk.core import Commitments, LogLine, MalformedActionError, PositionError
from hexfolk.games.island.actions import (
    Bundle,
    LayoutOutcome,
    bundle_text,
    parse_bundle,
    trade_table,
)
from hexfolk.games.island.building import distance_rule_allows, harbor_ratios
from hexfolk.games.island.labels import Labels, labels
from hexfolk.games.island.log import Note
from hexfolk.games.island.log_forms import LOG, NOTE_FORMS
from hexfolk.games.island.phases import (
    ANSWER,
    DISCARD,
    PHASE_BY_NAME,
    PHASE_NAMES,
    ROAD_BUILDING,
    SETUP_ROAD,
    SPECIAL_BUILD,
    SPECIAL_BUILD_SIGNUP,
    STEAL,
)
from hexfolk.games.island.position import (
    Answer,
    IslandPosition,
    OpenOffer,
    Reply,
)
from hexfolk.games.island.rules import (
    BANK_RATIO,
    DEV_NAMES,
    KNIGHT,
    LARGEST_ARMY_MIN,
    LONGEST_ROAD_MIN,
    NRES,
    PIECES_CITY,
    PIECES_ROAD,
    PIECES_SETTLEMENT,
    RESOURCES,
)
from hexfolk.games.island.setup import lay_out
from hexfolk.games.island.stats import PER_SEAT, SEATS_AT, STAT_FIELDS, STAT_OFFSET

JSON = dict[str, Any]
P = TypeVar("P", bound=IslandPosition)
_LEVEL = {"settlement": 1, "city": 2}
_LEVEL_NAME = {1: "settlement", 2: "city"}


# ------------------------------------------------------------------------------ writing
def _cards(counts: list[int] | tuple[int, ...], names: tuple[str, ...]) -> dict[str, int]:
    return {name: counts[i] for i, name in enumerate(names)}


def _seat_or_none(seat: int) -> int | None:
    return seat if seat >= 0 else None


def write_position(s: IslandPosition) -> JSON:
    """``s`` as a position document (the module docstring lists the fields)."""
    n = s.n
    game = s.game
    layout: str | None = None
    if s.layout_tables is not None:
        layout = s.island if game.map is not None else s.layout_tables.layout_text
    prompt = s.prompt()
    seats = []
    for p in range(n):
        info: JSON = {
            "seat": p,
            "hand": _cards(s.hands[p], RESOURCES),
            "dev_cards": _cards(s.dev_cards[p], DEV_NAMES),
            "bought_this_turn": _cards(s.dev_bought[p], DEV_NAMES),
            "knights": s.knights[p],
            "road_length": s.road_length[p],
            "declines_offers": bool(s.decline_all >> p & 1),
        }
        if s.discard_need[p] or any(s.discard_partial[p]):
            info["discard"] = {
                "owed": s.discard_need[p],
                "chosen": bundle_text(s.discard_partial[p]),
            }
        seats.append(info)
    discards = s.discards
    stats = s.stats
    return {
        "game": game.id,
        "players": n,
        "options": dict(game.options),
        "board": {"map": game.board_id, "layout": layout},
        "robber": s.robber,
        "turn": {
            "phase": PHASE_NAMES[s.phase],
            "seat": s.seat,
            "active": s.active,
            "resume": PHASE_NAMES[s.resume],
            "number": s.turn,
            "rolled": s.rolled,
            "card_played": s.dev_played,
            "setup_index": s.setup_index,
            "setup_settlement": s.setup_node,
            "winner": _seat_or_none(s.winner),
        },
        "prompt": prompt.to_json() if prompt is not None else None,
        "buildings": [
            [[v, _LEVEL_NAME[s.node_level[v]]] for v in s.buildings[p]] for p in range(n)
        ],
        "roads": [list(s.roads[p]) for p in range(n)],
        "seats": seats,
        "bank": _cards(s.bank, RESOURCES),
        "deck": _cards(s.deck, DEV_NAMES),
        "awards": {
            "longest_road": _seat_or_none(s.longest_road),
            "largest_army": _seat_or_none(s.largest_army),
        },
        "discards": None
        if discards is None
        else {
            "seats": list(discards.seats),
            "committed": {
                str(q): bundle_text(discards.value_for(q))
                for q in discards.seats
                if discards.value_for(q) is not None
            },
        },
        "steal": None if s.thief < 0 else {"thief": s.thief, "victim": s.victim},
        "free_roads": s.free_roads,
        "offers": [o.to_json() for o in s.offers],
        "next_offer": s.next_offer,
        "rejected_offers": [[bundle_text(a), bundle_text(b)] for a, b in s.rejected],
        "special_build": {"to_answer": list(s.sbp_queue), "joined": list(s.sbp_joined)},
        "unknown_cards": [
            [o, p, bundle_text(d)]
            for i, d in enumerate(s.deficit)
            if d and any(d)
            for o, p in [divmod(i, n)]
        ],
        "log": [[sorted(v) if v is not None else None, t.to_json()] for v, t in s.log_entries()],
        "statistics": {
            "dice": stats[:SEATS_AT],
            "seats": [
                {
                    name: stats[SEATS_AT + p * PER_SEAT + STAT_OFFSET[name] :][:width]
                    for name, width in STAT_FIELDS
                }
                for p in range(n)
            ],
        },
    }


# ------------------------------------------------------------------------------ reading
class _Doc:
    """A mapping of the document with refusals that name the field."""

    def __init__(self, data: Any, where: str):
        if not isinstance(data, Mapping):
            raise PositionError(f"{where or 'the position'} must be an object, not {data!r}")
        self.data = data
        self.where = where

    def name(self, key: str) -> str:
        return f"{self.where}.{key}" if self.where else key

    def get(self, key: str, default: Any = None, required: bool = True) -> Any:
        if key not in self.data:
            if required:
                raise PositionError(f"the position has no {self.name(key)!r}")
            return default
        return self.data[key]

    def integer(self, key: str, low: int, high: int, default: int | None = None) -> int:
        value = self.get(key, default, required=default is None)
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise PositionError(f"{self.name(key)} is {value!r}; it must be {low}..{high}")
        return value

    def flag(self, key: str, default: bool | None = None) -> bool:
        value = self.get(key, default, required=default is None)
        if not isinstance(value, bool):
            raise PositionError(f"{self.name(key)} is {value!r}; it must be true or false")
        return value

    def sub(self, key: str, required: bool = True) -> _Doc:
        return _Doc(self.get(key, {}, required=required), self.name(key))

    def seats(self, key: str, n: int, default: list[int] | None = None) -> list[int]:
        value = self.get(key, default, required=default is None)
        if not isinstance(value, list) or any(
            not isinstance(q, int) or isinstance(q, bool) or not 0 <= q < n for q in value
        ):
            raise PositionError(f"{self.name(key)} is {value!r}; it must list seats 0..{n - 1}")
        return list(value)


def _counts(doc: _Doc, key: str, names: tuple[str, ...], default: bool = False) -> list[int]:
    """Counts by name (``{"lumber": 2, ...}``): every name, non-negative integers."""
    if default and key not in doc.data:
        return [0] * len(names)
    sub = doc.sub(key)
    unknown = sorted(set(sub.data) - set(names))
    if unknown:
        raise PositionError(f"{sub.where} names {unknown[0]!r}; the names are {', '.join(names)}")
    return [sub.integer(name, 0, 999, default=0) for name in names]


def _bundle(text: Any, where: str) -> Bundle:
    if not isinstance(text, str):
        raise PositionError(f"{where} is {text!r}; it must be cards like '2l 1o' or '-'")
    try:
        return parse_bundle(text.split(), where)
    except MalformedActionError as exc:
        raise PositionError(f"{where}: {exc}") from None


def _phase(doc: _Doc, key: str) -> Any:
    name = doc.get(key)
    if name not in PHASE_BY_NAME:
        raise PositionError(f"{doc.name(key)} is {name!r}; the phases are {', '.join(PHASE_NAMES)}")
    return PHASE_BY_NAME[name]


def _parse(doc: str | Mapping[str, Any]) -> _Doc:
    if isinstance(doc, str):
        try:
            data = json.loads(doc)
        except json.JSONDecodeError as exc:
            raise PositionError(
                f"the position is not JSON: {exc.msg} at line {exc.lineno}"
            ) from None
        return _Doc(data, "")
    return _Doc(doc, "")


def load_position(blank: P, doc: str | Mapping[str, Any]) -> P:
    """Fill ``blank`` (a new state of the document's game, before the layout) from ``doc`` and
    return it, or refuse the document with a :class:`PositionError` naming the problem."""
    s = blank
    d = _parse(doc)
    game = s.game
    n = s.n
    if d.get("game", game.id, required=False) != game.id:
        raise PositionError(f"the position is of {d.get('game')!r}, not {game.id!r}")
    if d.get("players", n, required=False) != n:
        raise PositionError(f"the position has {d.get('players')!r} players; this game has {n}")
    options = d.get("options", dict(game.options), required=False)
    if not isinstance(options, Mapping) or {
        k: v for k, v in options.items() if game.options.get(k) != v
    }:
        raise PositionError(
            f"the position's options {options!r} differ from {dict(game.options)!r}"
        )
    # the board: the layout outcome rebuilds the geometry, the layout tables and the island
    board = d.sub("board")
    if board.get("map", game.board_id, required=False) != game.board_id:
        raise PositionError(f"board.map is {board.get('map')!r}; this game's is {game.board_id!r}")
    layout = board.get("layout", None, required=False)
    if layout is not None:
        if not isinstance(layout, str):
            raise PositionError(f"board.layout is {layout!r}; it must be the layout's text")
        try:
            outcome = game.parse_action_syntax("layout " + layout)
        except MalformedActionError as exc:
            raise PositionError(f"board.layout: {exc}") from None
        if not isinstance(outcome, LayoutOutcome) or not game.is_layout_outcome(outcome):
            raise PositionError("board.layout is not a board this game can draw (IR-11..IR-15)")
        lay_out(s, s.seat, outcome)
    s.log = []
    topology = s.topology
    nodes, edges, hexes = topology.num_nodes, topology.num_edges, topology.num_hexes
    s.robber = d.integer("robber", -1, hexes - 1)
    if layout is None and s.robber != -1:
        raise PositionError("the robber stands on a hex of a board not yet laid out")
    if s.robber >= 0 and not game.options["robber"]:
        raise PositionError(f"the robber is on hex {s.robber} with the robber off (IR-47)")
    # buildings and roads, in the order each seat built them
    buildings_doc = d.get("buildings")
    roads_doc = d.get("roads")
    if not isinstance(buildings_doc, list) or len(buildings_doc) != n:
        raise PositionError(f"buildings must list the buildings of each of the {n} seats")
    if not isinstance(roads_doc, list) or len(roads_doc) != n:
        raise PositionError(f"roads must list the roads of each of the {n} seats")
    if layout is None and (any(buildings_doc) or any(roads_doc)):
        raise PositionError("pieces stand on a board not yet laid out")
    for p in range(n):
        built = buildings_doc[p]
        if not isinstance(built, list):
            raise PositionError(f"buildings[{p}] is {built!r}; it must list [node, kind] pairs")
        for item in built:
            if (
                not isinstance(item, list)
                or len(item) != 2
                or not isinstance(item[0], int)
                or item[1] not in _LEVEL
            ):
                raise PositionError(
                    f"buildings[{p}] holds {item!r}; each is [node, 'settlement' or 'city']"
                )
            v, kind = item
            if not 0 <= v < nodes:
                raise PositionError(f"seat {p} builds on node {v}; the board has 0..{nodes - 1}")
            if s.node_owner[v] >= 0:
                raise PositionError(f"node {v} holds two buildings (seats {s.node_owner[v]}, {p})")
            s.node_owner[v] = p
            s.node_level[v] = _LEVEL[kind]
        s.buildings[p] = [v for v, _ in built]
        settlements = sum(1 for _, kind in built if kind == "settlement")
        cities = len(built) - settlements
        if settlements > PIECES_SETTLEMENT:
            raise PositionError(
                f"seat {p} has {settlements} settlements on the board; a player has "
                f"{PIECES_SETTLEMENT} (IR-59)"
            )
        if cities > PIECES_CITY:
            raise PositionError(
                f"seat {p} has {cities} cities on the board; a player has {PIECES_CITY} (IR-59)"
            )
        s.settlements_left[p] = PIECES_SETTLEMENT - settlements
        s.cities_left[p] = PIECES_CITY - cities
        roads = roads_doc[p]
        if not isinstance(roads, list) or any(not isinstance(e, int) for e in roads):
            raise PositionError(f"roads[{p}] is {roads!r}; it must list edge ids")
        for e in roads:
            if not 0 <= e < edges:
                raise PositionError(
                    f"seat {p} has a road on edge {e}; the board has 0..{edges - 1}"
                )
            if s.edge_owner[e] >= 0:
                raise PositionError(f"edge {e} holds two roads (seats {s.edge_owner[e]}, {p})")
            s.edge_owner[e] = p
        if len(roads) > PIECES_ROAD:
            raise PositionError(
                f"seat {p} has {len(roads)} roads on the board; a player has {PIECES_ROAD} (IR-59)"
            )
        s.roads[p] = list(roads)
        s.roads_left[p] = PIECES_ROAD - len(roads)
    for v in range(nodes):  # IR-19/IR-57: the distance rule
        owner = s.node_owner[v]
        near = [u for u in topology.node_adj[v] if s.node_owner[u] >= 0]
        if owner >= 0 and near:
            raise PositionError(
                f"the buildings on nodes {v} and {near[0]} are neighbours (distance rule, IR-19)"
            )
        s.free[v] = distance_rule_allows(topology, s.node_owner, v)
    _harbors(s)
    # the turn
    turn = d.sub("turn")
    s.phase = _phase(turn, "phase")
    s.resume = _phase(turn, "resume")
    s.seat = turn.integer("seat", -1, n - 1)
    s.active = turn.integer("active", 0, n - 1)
    s.turn = turn.integer("number", 0, 10**9)
    s.rolled = turn.flag("rolled")
    s.dev_played = turn.flag("card_played")
    s.setup_index = turn.integer("setup_index", 0, 2 * n)
    s.setup_node = turn.integer("setup_settlement", -1, nodes - 1)
    winner = turn.get("winner", None, required=False)
    s.winner = -1 if winner is None else turn.integer("winner", 0, n - 1)
    # the seats' cards
    seats = d.get("seats")
    if not isinstance(seats, list) or len(seats) != n:
        raise PositionError(f"seats must describe each of the {n} seats")
    decline = 0
    for p, raw in enumerate(seats):
        pd = _Doc(raw, f"seats[{p}]")
        s.hands[p] = _counts(pd, "hand", RESOURCES)
        s.dev_cards[p] = _counts(pd, "dev_cards", DEV_NAMES)
        s.dev_bought[p] = _counts(pd, "bought_this_turn", DEV_NAMES, default=True)
        if any(b > h for b, h in zip(s.dev_bought[p], s.dev_cards[p])):
            raise PositionError(f"seat {p} bought more cards this turn than it holds")
        s.knights[p] = pd.integer("knights", 0, 99, default=0)
        s.road_length[p] = pd.integer("road_length", 0, PIECES_ROAD, default=0)
        if pd.flag("declines_offers", default=False):
            decline |= 1 << p
        discard = pd.sub("discard", required=False)
        s.discard_need[p] = discard.integer("owed", 0, 999, default=0)
        s.discard_partial[p] = _bundle(
            discard.get("chosen", "-", required=False), discard.name("chosen")
        )
    s.decline_all = decline
    s.bank = _counts(d, "bank", RESOURCES)
    for r in range(NRES):  # IR-10: the cards of each resource are all somewhere
        total = s.bank[r] + sum(h[r] for h in s.hands)
        if total != game.bank_size:
            raise PositionError(
                f"{total} {RESOURCES[r]} cards in the bank and hands; the game has "
                f"{game.bank_size} (IR-10)"
            )
    s.deck = _counts(d, "deck", DEV_NAMES)
    # statistics (optional: zero when left out)
    stats_doc = d.sub("statistics", required=False)
    stats = [0] * (SEATS_AT + n * PER_SEAT)
    if stats_doc.data:
        dice = stats_doc.get("dice")
        if not isinstance(dice, list) or len(dice) != SEATS_AT:
            raise PositionError(f"statistics.dice must hold {SEATS_AT} counts (index = sum)")
        stats[:SEATS_AT] = dice
        per_seat = stats_doc.get("seats")
        if not isinstance(per_seat, list) or len(per_seat) != n:
            raise PositionError(f"statistics.seats must describe each of the {n} seats")
        for p, raw in enumerate(per_seat):
            sd = _Doc(raw, f"statistics.seats[{p}]")
            for name, width in STAT_FIELDS:
                values = sd.get(name)
                if not isinstance(values, list) or len(values) != width:
                    raise PositionError(f"{sd.name(name)} must hold {width} counts")
                at = SEATS_AT + p * PER_SEAT + STAT_OFFSET[name]
                stats[at : at + width] = values
    s.stats = stats
    for c, name in enumerate(DEV_NAMES):  # IR-10: the deck's composition
        held = s.deck[c] + sum(dev[c] for dev in s.dev_cards)
        played = sum(
            stats[SEATS_AT + p * PER_SEAT + STAT_OFFSET["dev_played"] + c] for p in range(n)
        )
        # the cards played are counted by the statistics (zero when they are left out)
        if held + played > game.deck[c]:
            raise PositionError(
                f"{held + played} {name} cards in the deck, hands and played; the game has "
                f"{game.deck[c]} (IR-10)"
            )
    knights = sum(s.knights) + s.deck[KNIGHT] + sum(dev[KNIGHT] for dev in s.dev_cards)
    if knights > game.deck[KNIGHT]:
        raise PositionError(
            f"{knights} knights played, held and in the deck; the game has {game.deck[KNIGHT]}"
        )
    # awards (IR-68..IR-73)
    awards = d.sub("awards")
    s.longest_road = _award(awards, "longest_road", n)
    s.largest_army = _award(awards, "largest_army", n)
    road, army = s.longest_road, s.largest_army
    if road >= 0 and s.road_length[road] < LONGEST_ROAD_MIN:
        raise PositionError(
            f"seat {road} holds Longest Road with a road of {s.road_length[road]}; it takes "
            f"{LONGEST_ROAD_MIN} (IR-68)"
        )
    if army >= 0 and s.knights[army] < LARGEST_ARMY_MIN:
        raise PositionError(
            f"seat {army} holds Largest Army with {s.knights[army]} knights; it takes "
            f"{LARGEST_ARMY_MIN} (IR-72)"
        )
    # pending steps
    _pending(s, d)
    # hidden information and the log
    unknown = d.get("unknown_cards", [], required=False)
    if not isinstance(unknown, list):
        raise PositionError("unknown_cards must list [observer, seat, cards] triples")
    for item in unknown:
        if not isinstance(item, list) or len(item) != 3:
            raise PositionError(f"unknown_cards holds {item!r}; each is [observer, seat, cards]")
        o, p, text = item
        if not isinstance(o, int) or not 0 <= o <= n or not isinstance(p, int) or not 0 <= p < n:
            raise PositionError(f"unknown_cards holds {item!r}; observer 0..{n}, seat 0..{n - 1}")
        cards = _bundle(text, "unknown_cards")
        if any(c > h for c, h in zip(cards, s.hands[p])):
            raise PositionError(f"observer {o} cannot know more of seat {p}'s cards than it holds")
        s.deficit[o * n + p] = cards
        s.uncertain[p] |= sum(1 << r for r in range(NRES) if cards[r])
    log = d.get("log", [], required=False)
    if not isinstance(log, list):
        raise PositionError("log must list [seats or null, text] entries")
    entries = []
    places = labels(s.topology)
    for item in log:
        if (
            not isinstance(item, list)
            or len(item) not in (2, 3)
            or not isinstance(item[1], str | dict)
            or item[2:] not in ([], ["note"])
        ):
            raise PositionError(
                f"log holds {item!r}; each entry is [seats or null, line] (a line "
                '{"form", "params", "text"}, or an old text) or [seats or null, text, "note"]'
            )
        seen = item[0]
        entries.append((None if seen is None else frozenset(seen), _line(item, places)))
    s.log = entries
    s.log_base = None
    s.log_seen = {}
    s.income, s.robber_cache, s.build_cache = {}, {}, {}
    _check_prompt(s, d)
    return s


def _line(item: list[Any], places: Labels) -> LogLine:
    """The log line of a position's log entry: a :class:`~hexfolk.core.LogLine` kept as it is;
    a line document ``{"form", "params", ...}``
    made again from its form and params (its text is the book's, places by this board's
    labels), or an old document's text kept as it is (form ``text``; ``"note"`` marks a note)."""
    raw = item[1]
    if isinstance(raw, LogLine):  # a line as it is (a world rebuilt from an observation)
        if raw.form in NOTE_FORMS and raw.__class__ is not Note:
            return Note(raw, raw.form, raw.params)
        return raw
    if isinstance(raw, str):
        return LOG.line("text", line_class=Note if item[2:] else LogLine, text=raw)
    form, params = raw.get("form"), raw.get("params")
    if form not in LOG.templates or not isinstance(params, dict):
        raise PositionError(f"log line {raw!r} has no known form with params")
    try:
        return LOG.line(form, places, line_class=Note if form in NOTE_FORMS else LogLine, **params)
    except (KeyError, TypeError, ValueError, IndexError) as e:
        raise PositionError(f"log line {raw!r} does not fit its form: {e}") from None


def _award(doc: _Doc, key: str, n: int) -> int:
    value = doc.get(key, None, required=False)
    return -1 if value is None else doc.integer(key, 0, n - 1)


def _harbors(s: IslandPosition) -> None:
    """Maritime ratios from the buildings on harbors (IR-52, IR-53)."""
    tables = s.layout_tables
    ratios = [
        harbor_ratios(tables, s.node_owner, p) if tables is not None else [BANK_RATIO] * NRES
        for p in range(s.n)
    ]
    s.ratio = ratios
    s.trade_cache = [trade_table(tuple(r), s.n > 1) for r in ratios]


def _pending(s: IslandPosition, d: _Doc) -> None:
    """The 7's discards, a steal, Road Building, offers, the special build phase."""
    n = s.n
    discards = d.get("discards")
    if discards is not None:
        dd = _Doc(discards, "discards")
        commits = Commitments(dd.seats("seats", n))
        committed = dd.sub("committed", required=False)
        for key, text in committed.data.items():
            if not key.isdigit() or int(key) not in commits.seats:
                raise PositionError(f"discards.committed names seat {key!r}, not a discarding seat")
            cards = _bundle(text, f"discards.committed.{key}")
            if any(c > h for c, h in zip(cards, s.hands[int(key)])):
                raise PositionError(f"seat {key} commits to discard cards it does not hold (IR-41)")
            commits.commit(int(key), cards)
        s.discards = commits
    elif s.phase == DISCARD:
        raise PositionError("the phase is discard but no seat is discarding (IR-41)")
    steal = d.get("steal")
    if steal is not None:
        sd = _Doc(steal, "steal")
        s.thief = sd.integer("thief", 0, n - 1)
        s.victim = sd.integer("victim", 0, n - 1)
        if not any(s.hands[s.victim]):
            raise PositionError(f"seat {s.victim} is robbed but holds no card (IR-43)")
    elif s.phase == STEAL:
        raise PositionError("the phase is steal but nobody is robbing (IR-43)")
    s.free_roads = d.integer("free_roads", 0, 2)
    if s.phase == ROAD_BUILDING and not s.free_roads:
        raise PositionError("the phase is road-building but no free road is left (IR-63)")
    offers = d.get("offers")
    if not isinstance(offers, list):
        raise PositionError("offers must list the open offers")
    s.offers = [_offer(raw, i, n) for i, raw in enumerate(offers)]
    s.next_offer = d.integer("next_offer", 1, 10**9)
    if any(o.id >= s.next_offer for o in s.offers):
        raise PositionError("an open offer's id is not below next_offer")
    rejected = d.get("rejected_offers")
    if not isinstance(rejected, list) or any(
        not isinstance(x, list) or len(x) != 2 for x in rejected
    ):
        raise PositionError("rejected_offers must list [give, get] pairs")
    s.rejected = [
        (_bundle(a, "rejected_offers"), _bundle(b, "rejected_offers")) for a, b in rejected
    ]
    if s.phase == ANSWER and not any(x is None for o in s.offers for x in o.answers):
        raise PositionError("the phase is answer but every open offer is answered (IR-50)")
    sbp = d.sub("special_build")
    s.sbp_queue = sbp.seats("to_answer", n, default=[])
    s.sbp_joined = sbp.seats("joined", n, default=[])
    if s.phase == SPECIAL_BUILD and (not s.sbp_joined or s.sbp_joined[0] != s.seat):
        raise PositionError("the phase is sbp-build but the seat holds no special build slot")
    if s.phase == SPECIAL_BUILD_SIGNUP and not s.sbp_queue:
        raise PositionError("the phase is sbp-signup but no seat is left to answer (IR-30)")
    if s.phase == SETUP_ROAD and (s.setup_node < 0 or s.node_owner[s.setup_node] != s.seat):
        raise PositionError("the phase is setup-road but the seat has no settlement to start from")


def _offer(raw: Any, i: int, n: int) -> OpenOffer:
    od = _Doc(raw, f"offers[{i}]")
    give = _bundle(od.get("give"), od.name("give"))
    get = _bundle(od.get("get"), od.name("get"))
    answers: list[Answer] = [None] * n
    for key, value in od.sub("answers", required=False).data.items():
        if not key.isdigit() or not 0 <= int(key) < n:
            raise PositionError(f"offers[{i}].answers names seat {key!r}")
        if value in ("accept", "reject"):
            answers[int(key)] = Reply(value)
        elif isinstance(value, Mapping) and isinstance(value.get("counter"), Mapping):
            counter = value["counter"]
            where = f"offers[{i}].answers.{key}"
            answers[int(key)] = (
                _bundle(counter.get("give"), where),
                _bundle(counter.get("get"), where),
            )
        else:
            raise PositionError(
                f"offers[{i}].answers.{key} is {value!r}; accept, reject or a counter"
            )
    return OpenOffer(od.integer("id", 1, 10**9), give, get, answers)


def _check_prompt(s: IslandPosition, d: _Doc) -> None:
    """The pending prompt the document names must be the rebuilt state's."""
    want = d.get("prompt", None, required=False)
    if want is None:
        return
    got = s.prompt()
    if got is None:
        raise PositionError(f"the position names a prompt {want!r}, but nobody decides now")
    wd = _Doc(want, "prompt")
    kind, seat = wd.get("kind"), wd.get("seat")
    if (kind, seat) != (got.kind, got.seat):
        raise PositionError(
            f"the position's prompt is {kind!r} for seat {seat!r}, but the position asks "
            f"{got.kind!r} of seat {got.seat}"
        )


__all__ = ["load_position", "write_position"]
