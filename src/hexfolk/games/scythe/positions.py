"""Scythe positions as a public document (``ScytheGame.load_position``, ``state.position()``).

A position is plain JSON naming every field of a game in the game's words, hidden parts
included (it is a full state: never send it to a seat). :func:`write_position` writes one;
:func:`load_position` checks a document against the game's invariants and fills a blank
:class:`~.position.Position` from it, or refuses it with a
:class:`~hexfolk.core.PositionError` whose sentence names the problem. What follows from
other fields is not written and is rebuilt: the unit counts per territory, the structure on
each territory, the abilities (faction + deployed mechs), the star totals.

The document (``docs/scythe.md``, "Positions", lists every field)::

    {"game": "scythe", "players": 2, "options": {...}, "format": 1,
     "seats": [{"faction": "nordic", "mat": "industrial", "power": 4, "popularity": 2,
                "coins": 5, "combat_cards": [2, 3], "objectives": [12], "stars": {...},
                "upgrades": [...], "cubes": {...}, "recruits": [...], "enlist_spaces": [...],
                "character": "home_nordic", "mechs": {"riverwalk": "r2c4"},
                "workers": ["r1c4", "r1c5", null, ...], "structures": {"mill": "r1c4"},
                "factory_card": null, "last_section": 2, "known_cards": {"1": [4]}}, ...],
     "resources": {"r1c4": {"oil": 2}}, "encounter_tokens": ["r1c3", ...],
     "structure_tile": "adjacent_lakes", "combat_deck": {"2": 16, ...},
     "combat_discard": {...}, "factory_offer": [3, 12, 4], "factory_offer_seen": [],
     "encounter_deck_bottom": [], "encounter_card": null, "objectives_revealed": [],
     "order": [0, 1], "active": 0, "turns": 0, "phase": "choose-section", "chance": [],
     "continuation": null, "turn": {...}, "end": {...}, "log": [[null, "..."], ...]}
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from hexfolk.core import Commitments, LogLine, PositionError
from hexfolk.games.scythe import data as D
from hexfolk.games.scythe.log_forms import LOG
from hexfolk.games.scythe.mat import cube_slots
from hexfolk.games.scythe.phases import PHASE_NAMES, PHASE_OF_KIND, Continuation, Phase
from hexfolk.games.scythe.position import (
    NB,
    NS,
    NSTAR,
    NV,
    UNIT_NAMES,
    Combat,
    Position,
    UnitMove,
)
from hexfolk.games.scythe.stars import star_cap

FORMAT = 1
"""The version of the document layout."""

_WINDOWS = ("before-top", "between-rows", "after-bottom")
"""The reveal windows (SR-7, SR-51), bit 1, 2 and 4 of ``reveal_windows_used``."""

CONTINUATION_NAMES = {c: c.name.lower().replace("_", "-") for c in Continuation}
"""A continuation's name in a position document (``encounter-option-done``)."""
_CONTINUATION_OF_NAME = {v: k for k, v in CONTINUATION_NAMES.items()}


# ------------------------------------------------------------------------------------------------
# writing
def _loc(loc: int) -> str | None:
    return D.LOC_NAMES[loc] if loc >= 0 else None


def _cards(counts: list[int]) -> dict[str, int]:
    return {str(D.CARD_VALUES[i]): counts[i] for i in range(NV)}


def _bits(value: int, names: list[str] | tuple[str, ...]) -> list[str]:
    return [names[i] for i in range(len(names)) if value >> i & 1]


def _section_name(section: int) -> int | str | None:
    if section < 0:
        return None
    return "factory" if section == D.FACTORY_SECTION else section + 1


def _unit_bits(moved: int) -> list[str]:
    out = ["character"] if moved & 1 else []
    out += [f"mech {i}" for i in range(D.MECHS) if moved >> (1 + i) & 1]
    out += [f"worker {j}" for j in range(D.WORKERS_TOTAL) if moved >> (1 + D.MECHS + j) & 1]
    return out


def _seat_doc(s: Position, p: int) -> dict[str, Any]:
    f = s.faction[p]
    mech_names = D.FACTIONS[f]["mech_abilities"] if f >= 0 else [str(i) for i in range(D.MECHS)]
    n = s.n
    return {
        "faction": D.FACTION_IDS[f] if f >= 0 else None,
        "mat": D.MAT_IDS[s.mat[p]] if s.mat[p] >= 0 else None,
        "power": s.power[p],
        "popularity": s.popularity[p],
        "coins": s.coins[p],
        "combat_cards": [D.CARD_VALUES[i] for i in range(NV) for _ in range(s.hand[p * NV + i])],
        "objectives": list(s.objectives[p]),
        "objectives_discarded": list(s.objectives_discarded[p]),
        "stars": {
            D.STAR_SOURCES[k]: s.stars[p * NSTAR + k]
            for k in range(NSTAR)
            if s.stars[p * NSTAR + k]
        },
        "upgrades": _bits(s.upgrades[p], [b["id"] for b in D.TOP_BOXES]),
        "cubes": {D.BOTTOM_ACTIONS[b]: s.cubes[p * NB + b] for b in range(NB)},
        "recruits": _bits(s.recruits[p], D.BOTTOM_ACTIONS),
        "enlist_spaces": _bits(s.enlist_spaces[p], D.ENLIST_SPACE_IDS),
        "character": _loc(s.character_loc[p]),
        "mechs": {
            mech_names[i]: D.LOC_NAMES[s.mech_loc[p * D.MECHS + i]]
            for i in range(D.MECHS)
            if s.mech_loc[p * D.MECHS + i] >= 0
        },
        "workers": [_loc(s.worker_loc[p * D.WORKERS_TOTAL + j]) for j in range(D.WORKERS_TOTAL)],
        "structures": {
            D.STRUCTURES[k]: D.LOC_NAMES[s.structure_loc[p * NS + k]]
            for k in range(NS)
            if s.structure_loc[p * NS + k] >= 0
        },
        "factory_card": s.factory_card[p] if s.factory_card[p] >= 0 else None,
        "last_section": _section_name(s.last_section[p]),
        "known_cards": {
            str(h): [
                D.CARD_VALUES[i]
                for i in range(NV)
                for _ in range(s.known_cards[(p * n + h) * NV + i])
            ]
            for h in range(n)
            if any(s.known_cards[(p * n + h) * NV : (p * n + h) * NV + NV])
        },
    }


def _turn_doc(s: Position) -> dict[str, Any]:
    move = s.move
    commitments = s.commitments
    combat = s.combat
    return {
        "section": _section_name(s.section),
        "units_moved": s.units_moved,
        "max_units": s.max_units,
        "moved": _unit_bits(s.moved_units),
        "moving": {
            "kind": UNIT_NAMES[move.kind] if move.kind >= 0 else None,
            "index": move.index,
            "start": _loc(move.start),
            "steps_left": move.steps_left,
            "steps_taken": move.steps_taken,
            "workers": list(move.workers),
            "resources": list(move.resources),
        },
        "moves_made": [
            {
                "kind": UNIT_NAMES[kind],
                "index": i,
                "start": _loc(start),
                "end": _loc(end),
                "resources": list(res),
                "workers": list(workers),
            }
            for kind, i, start, end, res, workers in s.moves_made
        ],
        "combats": [D.LOC_NAMES[t] for t in s.combats],
        "combat": None
        if combat is None
        else {
            "territory": D.LOC_NAMES[combat.territory],
            "attacker": combat.attacker,
            "defender": combat.defender,
            "stage": combat.stage,
            "artillery_seat": combat.artillery_seat,
        },
        "commitments": None
        if commitments is None
        else {
            "seats": list(commitments.seats),
            "values": {
                str(q): commitments.value_for(q)
                for q in commitments.seats
                if commitments.value_for(q) is not None
            },
        },
        "retreat_seat": s.retreat_seat,
        "coercion_used": s.coercion_used,
        "reveal_windows_used": _bits(s.reveal_windows_used, _WINDOWS),
        "encounter_territory": _loc(s.encounter_loc),
        "encounter_options_chosen": [k + 1 for k in s.encounter_chosen],
        "pending_gains": [list(g) for g in s.pending_gains],
        "gains_then": None if s.gains_then is None else CONTINUATION_NAMES[s.gains_then],
        "gains_territory": _loc(s.gains_loc),
        "factory_move": s.factory_move,
        "produce_limit": s.produce_limit,
        "factory_cards_owed": s.factory_cards_owed,
        "forced_retreat": s.forced_retreat,
        "character_token": _loc(s.character_token),
        "factory_declined": [list(x) for x in s.factory_declined],
        "produced": [D.LOC_NAMES[t] for t in s.produced],
        "pay_resource": D.RESOURCES[s.pay_resource] if s.pay_resource >= 0 else None,
        "pay_left": s.pay_left,
        "bottom_taken": s.bottom_taken,
        "bottom_coins": s.bottom_coins,
        "recruits_before": _bits(s.recruits_before, D.BOTTOM_ACTIONS),
        "combat_ends_game": s.combat_ends_game,
    }


def write_position(s: Position) -> dict[str, Any]:
    """The position document of ``s`` (see the module docstring)."""
    res = s.resources
    return {
        "game": "scythe",
        **s.game.config(),
        "format": FORMAT,
        "seats": [_seat_doc(s, p) for p in range(s.n)],
        "resources": {
            D.LOC_NAMES[t]: {
                D.RESOURCES[r]: res[t * D.NRES + r] for r in range(D.NRES) if res[t * D.NRES + r]
            }
            for t in range(D.NLOC)
            if any(res[t * D.NRES : t * D.NRES + D.NRES])
        },
        "encounter_tokens": [D.LOC_NAMES[t] for t in range(D.NLOC) if s.encounter_tokens[t]],
        "structure_tile": D.TILE_IDS[s.structure_tile] if s.structure_tile >= 0 else None,
        "combat_deck": _cards(s.combat_deck),
        "combat_discard": _cards(s.combat_discard),
        "factory_offer": list(s.factory_offer),
        "factory_offer_seen": [p for p in range(s.n) if s.factory_offer_seen[p]],
        "encounter_deck_bottom": list(s.encounter_bottom),
        "encounter_card": s.encounter_card if s.encounter_card >= 0 else None,
        "objectives_revealed": list(s.objectives_revealed),
        "order": list(s.order),
        "active": s.active,
        "turns": s.turns,
        "phase": PHASE_NAMES[s.phase],
        "chance": [list(item) for item in s.chance],
        "continuation": None if s.continuation is None else CONTINUATION_NAMES[s.continuation],
        "turn": _turn_doc(s),
        "end": {"reason": s.end_reason, "returns": list(s.result), "breakdown": list(s.final)},
        "log": [[sorted(v) if v is not None else None, _log_entry(t)] for v, t in s.log],
    }


def _log_entry(line: str) -> Any:
    """A log line as a position writes it: ``{form, params, text}`` (a plain line of an older
    document as its text)."""
    return line.to_json() if isinstance(line, LogLine) else line


# ------------------------------------------------------------------------------------------------
# reading
def _log_line(d: _Reader, line: Any) -> str:
    """A log line of a document: ``{form, params}`` (its English made again from the book), a
    line object as it is, or the plain text of a document from before log entries were data."""
    if isinstance(line, str):
        return line
    if not (isinstance(line, Mapping) and isinstance(line.get("params"), Mapping)):
        raise d.fail(f"a log line is text or {{form, params, text}}, not {line!r}")
    form = line.get("form")
    if form not in LOG.templates:
        raise d.fail(f"{form!r} is not a Scythe log form")
    try:
        return LOG.make(form, dict(line["params"]))
    except (KeyError, IndexError, TypeError, ValueError) as e:
        raise d.fail(f"log line {line!r}: {e}") from e


class _Reader:
    """Typed access to a document's fields; every failure is a :class:`PositionError`."""

    def __init__(self, doc: Mapping[str, Any], where: str):
        self.doc = doc
        self.where = where

    def fail(self, text: str) -> PositionError:
        return PositionError(f"{self.where}{text}")

    def get(self, key: str, default: Any = ...) -> Any:
        if key not in self.doc:
            if default is ...:
                raise self.fail(f"the field {key!r} is missing")
            return default
        return self.doc[key]

    def whole(self, key: str, low: int, high: int, default: Any = ...) -> int:
        v = self.get(key, default)
        if not isinstance(v, int) or isinstance(v, bool) or not low <= v <= high:
            raise self.fail(f"{key} is {v!r}; it must be a whole number from {low} to {high}")
        return v

    def flag(self, key: str, default: Any = ...) -> bool:
        v = self.get(key, default)
        if not isinstance(v, bool):
            raise self.fail(f"{key} is {v!r}; it must be true or false")
        return v

    def seq(self, key: str, default: Any = ...) -> list[Any]:
        v = self.get(key, default)
        if not isinstance(v, list):
            raise self.fail(f"{key} must be a list, not {v!r}")
        return v

    def obj(self, key: str, default: Any = ...) -> Mapping[str, Any]:
        v = self.get(key, default)
        if not isinstance(v, Mapping):
            raise self.fail(f"{key} must be an object, not {v!r}")
        return v

    def sub(self, key: str, where: str) -> _Reader:
        return _Reader(self.obj(key), where)

    def loc(self, value: Any, what: str, allow_none: bool = True) -> int:
        if value is None and allow_none:
            return -1
        if not isinstance(value, str) or value not in D.LOC_INDEX:
            raise self.fail(f"{what} {value!r} is not a territory or home base of the board")
        return D.LOC_INDEX[value]

    def name(self, value: Any, names: tuple[str, ...] | list[str], what: str) -> int:
        if value not in names:
            raise self.fail(f"{what} {value!r} is not one of {', '.join(map(str, names))}")
        return list(names).index(value)

    def bits(self, key: str, names: tuple[str, ...] | list[str]) -> int:
        out = 0
        for x in self.seq(key):
            i = self.name(x, names, key)
            if out >> i & 1:
                raise self.fail(f"{key} names {x!r} twice")
            out |= 1 << i
        return out

    def cards(self, value: Any, what: str) -> list[int]:
        counts = [0] * NV
        if not isinstance(value, list):
            raise self.fail(f"{what} must be a list of card values, not {value!r}")
        for v in value:
            if v not in D.CARD_INDEX:
                raise self.fail(f"{what}: {v!r} is not a combat card value (2 to 5)")
            counts[D.CARD_INDEX[v]] += 1
        return counts

    def card_counts(self, key: str) -> list[int]:
        m = self.obj(key)
        counts = [0] * NV
        for k, v in m.items():
            try:
                value = int(k)
            except ValueError:
                value = -1
            if value not in D.CARD_INDEX:
                raise self.fail(f"{key}: {k!r} is not a combat card value (2 to 5)")
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                raise self.fail(f"{key}: the count of {k}s is {v!r}, not a count")
            counts[D.CARD_INDEX[value]] = v
        return counts


def _parse(doc: str | Mapping[str, Any]) -> Mapping[str, Any]:
    if isinstance(doc, str):
        try:
            doc = json.loads(doc)
        except json.JSONDecodeError as exc:
            raise PositionError(f"the position is not JSON: {exc}") from exc
    if not isinstance(doc, Mapping):
        raise PositionError("a position document is a JSON object")
    return doc


def _section_of(r: _Reader, value: Any, what: str) -> int:
    if value is None:
        return -1
    if value == "factory":
        return D.FACTORY_SECTION
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= D.MAT_SECTIONS:
        raise r.fail(
            f"{what} is {value!r}; it is a section 1 to {D.MAT_SECTIONS}, 'factory' or null"
        )
    return value - 1


def _load_seat(s: Position, p: int, r: _Reader) -> None:
    n = s.n
    faction = r.get("faction")
    s.faction[p] = -1 if faction is None else r.name(faction, D.FACTION_IDS, "faction")
    mat = r.get("mat")
    s.mat[p] = -1 if mat is None else r.name(mat, D.MAT_IDS, "mat")
    s.power[p] = r.whole("power", 0, D.POWER_MAX)
    s.popularity[p] = r.whole("popularity", 0, D.POP_MAX)
    s.coins[p] = r.whole("coins", 0, 1 << 30)
    s.hand[p * NV : p * NV + NV] = r.cards(r.get("combat_cards"), "combat_cards")
    for key, target in (
        ("objectives", s.objectives),
        ("objectives_discarded", s.objectives_discarded),
    ):
        for o in r.seq(key):
            if o not in D.OBJECTIVE_BY_NUMBER:
                raise r.fail(f"{key}: {o!r} is not an objective card number")
        target[p] = list(r.seq(key))
    stars = r.obj("stars")
    for source, count in stars.items():
        k = r.name(source, D.STAR_SOURCES, "star source")
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise r.fail(f"stars {source}: {count!r} is not a count")
        s.stars[p * NSTAR + k] = count
    s.star_total[p] = sum(s.stars[p * NSTAR : p * NSTAR + NSTAR])
    s.upgrades[p] = r.bits("upgrades", [b["id"] for b in D.TOP_BOXES])
    cubes = r.obj("cubes")
    for name, count in cubes.items():
        b = r.name(name, D.BOTTOM_ACTIONS, "cubes")
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise r.fail(f"cubes {name}: {count!r} is not a count")
        s.cubes[p * NB + b] = count
    s.recruits[p] = r.bits("recruits", D.BOTTOM_ACTIONS)
    s.enlist_spaces[p] = r.bits("enlist_spaces", D.ENLIST_SPACE_IDS)
    s.place_character(p, r.loc(r.get("character"), "character"))
    mechs = r.obj("mechs")
    if mechs and s.faction[p] < 0:
        raise r.fail("mechs are deployed but the seat has no faction")
    for ability, where in mechs.items():
        names = D.FACTIONS[s.faction[p]]["mech_abilities"]
        i = r.name(ability, names, f"{D.FACTION_IDS[s.faction[p]]} mech")
        s.place_mech(p, i, r.loc(where, f"the {ability} mech's location", False))
    workers = r.seq("workers")
    if len(workers) != D.WORKERS_TOTAL:
        raise r.fail(
            f"workers lists {len(workers)} workers; a faction has {D.WORKERS_TOTAL} "
            "(null for one still on the mat)"
        )
    for j, where in enumerate(workers):
        s.place_worker(p, j, r.loc(where, f"worker {j}'s location"))
    for kind, where in r.obj("structures").items():
        k = r.name(kind, D.STRUCTURES, "structure")
        s.structure_loc[p * NS + k] = r.loc(where, f"the {kind}'s location", False)
    card = r.get("factory_card")
    if card is not None and card not in D.FACTORY_BY_NUMBER:
        raise r.fail(f"factory_card {card!r} is not a Factory card number")
    s.factory_card[p] = -1 if card is None else card
    s.last_section[p] = _section_of(r, r.get("last_section"), "last_section")
    for holder, values in r.obj("known_cards").items():
        h = int(holder) if isinstance(holder, str) and holder.isdigit() else -1
        if not 0 <= h < n or h == p:
            raise r.fail(f"known_cards names {holder!r}, not another seat")
        s.known_cards[(p * n + h) * NV : (p * n + h) * NV + NV] = r.cards(values, "known_cards")


def _load_turn(s: Position, r: _Reader) -> None:
    n = s.n
    s.section = _section_of(r, r.get("section"), "section")
    s.units_moved = r.whole("units_moved", 0, 99)
    s.max_units = r.whole("max_units", 0, 99)
    moved = 0
    for unit in r.seq("moved"):
        kind, _, index = str(unit).partition(" ")
        if kind == "character" and not index:
            moved |= 1
        elif kind == "mech" and index.isdigit() and int(index) < D.MECHS:
            moved |= 1 << (1 + int(index))
        elif kind == "worker" and index.isdigit() and int(index) < D.WORKERS_TOTAL:
            moved |= 1 << (1 + D.MECHS + int(index))
        else:
            raise r.fail(f"moved: {unit!r} is not 'character', 'mech i' or 'worker j'")
    s.moved_units = moved
    m = r.sub("moving", "turn.moving: ")
    kind_name = m.get("kind")
    s.move = UnitMove(
        -1 if kind_name is None else m.name(kind_name, UNIT_NAMES, "kind"),
        m.whole("index", -1, D.WORKERS_TOTAL - 1),
        m.loc(m.get("start"), "start"),
        m.whole("steps_left", -1, 9),
        m.whole("steps_taken", 0, 9),
        [int(j) for j in m.seq("workers")],
        [int(x) for x in m.seq("resources")],
    )
    if len(s.move.resources) != D.NRES:
        raise r.fail(f"turn.moving.resources needs {D.NRES} counts")
    made = []
    for entry in r.seq("moves_made"):
        e = _Reader(entry if isinstance(entry, Mapping) else {}, "turn.moves_made: ")
        made.append(
            (
                e.name(e.get("kind"), UNIT_NAMES, "kind"),
                e.whole("index", 0, D.WORKERS_TOTAL - 1),
                e.loc(e.get("start"), "start"),
                e.loc(e.get("end"), "end"),
                tuple(int(x) for x in e.seq("resources")),
                tuple(int(x) for x in e.seq("workers")),
            )
        )
    s.moves_made = made
    s.combats = [r.loc(t, "combats", False) for t in r.seq("combats")]
    combat = r.get("combat")
    if combat is None:
        s.combat = None
    else:
        c = _Reader(combat if isinstance(combat, Mapping) else {}, "turn.combat: ")
        s.combat = Combat(
            c.loc(c.get("territory"), "territory", False),
            c.whole("attacker", 0, n - 1),
            c.whole("defender", 0, n - 1),
            c.whole("stage", 0, 7),
            c.whole("artillery_seat", -1, n - 1),
        )
    commitments = r.get("commitments")
    if commitments is None:
        s.commitments = None
    else:
        c = _Reader(commitments if isinstance(commitments, Mapping) else {}, "turn.commitments: ")
        seats = [int(q) for q in c.seq("seats")]
        made_c = Commitments(seats)
        for q, value in c.obj("values").items():
            if not q.isdigit() or int(q) not in seats:
                raise c.fail(f"values names seat {q!r}, which does not commit")
            made_c.commit(int(q), value)
        s.commitments = made_c
    s.retreat_seat = r.whole("retreat_seat", -1, n - 1)
    s.coercion_used = r.flag("coercion_used")
    s.reveal_windows_used = r.bits("reveal_windows_used", _WINDOWS)
    s.encounter_loc = r.loc(r.get("encounter_territory"), "encounter_territory")
    s.encounter_chosen = [int(k) - 1 for k in r.seq("encounter_options_chosen")]
    s.pending_gains = [
        tuple(tuple(x) if isinstance(x, list) else x for x in g) for g in r.seq("pending_gains")
    ]
    then = r.get("gains_then")
    s.gains_then = None if then is None else _continuation(r, then)
    s.gains_loc = r.loc(r.get("gains_territory"), "gains_territory")
    s.factory_move = r.flag("factory_move")
    s.produce_limit = r.whole("produce_limit", 0, 9)
    s.factory_cards_owed = r.whole("factory_cards_owed", 0, 9)
    s.forced_retreat = r.flag("forced_retreat")
    s.character_token = r.loc(r.get("character_token"), "character_token")
    s.factory_declined = tuple((str(k), int(v)) for k, v in r.seq("factory_declined"))
    s.produced = [r.loc(t, "produced", False) for t in r.seq("produced")]
    pay = r.get("pay_resource")
    s.pay_resource = -1 if pay is None else r.name(pay, D.RESOURCES, "pay_resource")
    s.pay_left = r.whole("pay_left", 0, 9)
    s.bottom_taken = r.flag("bottom_taken")
    s.bottom_coins = r.flag("bottom_coins")
    s.recruits_before = r.bits("recruits_before", D.BOTTOM_ACTIONS)
    s.combat_ends_game = r.flag("combat_ends_game")


def _continuation(r: _Reader, name: Any) -> Continuation:
    if name not in _CONTINUATION_OF_NAME:
        raise r.fail(f"{name!r} is not a continuation ({', '.join(_CONTINUATION_OF_NAME)})")
    return _CONTINUATION_OF_NAME[name]


def load_position(s: Position, doc: str | Mapping[str, Any]) -> None:
    """Fill ``s`` (a blank position of the document's game) from ``doc``, or refuse it with a
    :class:`~hexfolk.core.PositionError` naming the problem (see the module docstring)."""
    d = _Reader(_parse(doc), "")
    game = s.game
    if d.get("game", "scythe") != "scythe":
        raise d.fail(f"the position is of the game {d.get('game')!r}, not scythe")
    if d.get("players", game.num_players) != game.num_players:
        raise d.fail(
            f"the position has {d.get('players')} players; this game has {game.num_players}"
        )
    options = d.get("options", None)
    if options is not None and dict(options) != dict(game.options):
        diff = sorted(
            k for k in set(options) | set(game.options) if options.get(k) != game.options.get(k)
        )
        raise d.fail(f"the position's options differ from this game's: {', '.join(diff)}")
    if d.get("format", FORMAT) != FORMAT:
        raise d.fail(f"position format {d.get('format')!r} is not {FORMAT}")
    n = s.n
    seats = d.seq("seats")
    if len(seats) != n:
        raise d.fail(f"seats lists {len(seats)} seats; this game has {n} players")
    for p, seat in enumerate(seats):
        if not isinstance(seat, Mapping):
            raise d.fail(f"seat {p} must be an object")
        _load_seat(s, p, _Reader(seat, f"seat {p}: "))
    for name, res in d.obj("resources").items():
        loc = d.loc(name, "resources:", False)
        if not isinstance(res, Mapping):
            raise d.fail(f"resources on {name} must be an object")
        for rname, count in res.items():
            r = d.name(rname, D.RESOURCES, f"resources on {name}:")
            if not isinstance(count, int) or isinstance(count, bool) or count < 0:
                raise d.fail(f"resources on {name}: {count!r} {rname} is not a count")
            s.resources[loc * D.NRES + r] = count
    s.encounter_tokens = [False] * D.NLOC
    for name in d.seq("encounter_tokens"):
        loc = d.loc(name, "encounter_tokens:", False)
        if not D.HAS_ENCOUNTER[loc]:
            raise d.fail(f"{name} has no encounter token printed on the board (SR-47)")
        s.encounter_tokens[loc] = True
    tile = d.get("structure_tile")
    s.structure_tile = -1 if tile is None else d.name(tile, D.TILE_IDS, "structure_tile")
    s.combat_deck = d.card_counts("combat_deck")
    s.combat_discard = d.card_counts("combat_discard")
    s.factory_offer = list(d.seq("factory_offer"))
    seen = d.seq("factory_offer_seen")
    s.factory_offer_seen = [p in seen for p in range(n)]
    s.encounter_bottom = list(d.seq("encounter_deck_bottom"))
    card = d.get("encounter_card")
    s.encounter_card = -1 if card is None else card
    s.objectives_revealed = list(d.seq("objectives_revealed"))
    s.order = [int(p) for p in d.seq("order")]
    s.active = d.whole("active", -1, n - 1)
    s.turns = d.whole("turns", 0, 1 << 30)
    kind = d.get("phase")
    if kind not in PHASE_OF_KIND:
        raise d.fail(f"phase {kind!r} is not a prompt kind ({', '.join(PHASE_NAMES)})")
    s.phase = PHASE_OF_KIND[kind]
    s.chance = [tuple(item) for item in d.seq("chance")]
    cont = d.get("continuation")
    s.continuation = None if cont is None else _continuation(d, cont)
    _load_turn(s, d.sub("turn", "turn: "))
    end = d.sub("end", "end: ")
    s.end_reason = str(end.get("reason"))
    s.result = [float(x) for x in end.seq("returns")]
    s.final = [dict(x) for x in end.seq("breakdown")]
    log = []
    for entry in d.seq("log"):
        if not (isinstance(entry, list) and len(entry) == 2):
            raise d.fail(f"a log entry is [visibility, line], not {entry!r}")
        vis = entry[0]
        log.append(
            (None if vis is None else frozenset(int(x) for x in vis), _log_line(d, entry[1]))
        )
    s.log = log
    _derive(s)
    _check(s, d)
    s.refresh()


def _derive(s: Position) -> None:
    """The fields that follow from others: structures per territory, abilities."""
    for k, loc in enumerate(s.structure_loc):
        if loc >= 0:
            s.structure_at[loc] = k
    for p in range(s.n):
        f = s.faction[p]
        if f < 0 or not s.order:
            continue
        bits = D.FACTION_ABILITY_BIT[f]
        for i in range(D.MECHS):
            if s.mech_loc[p * D.MECHS + i] >= 0:
                bits |= D.MECH_ABILITY_BITS[f][i]
        s.abilities[p] = bits


def _check(s: Position, d: _Reader) -> None:
    """The game's invariants (SR-4 components, SR-15 tracks, SR-50 stars, the decks)."""
    n = s.n
    factions = [f for f in s.faction if f >= 0]
    if len(set(factions)) != len(factions):
        raise d.fail("two seats have the same faction")
    mats = [m for m in s.mat if m >= 0]
    if len(set(mats)) != len(mats):
        raise d.fail("two seats have the same player mat")
    if s.order and sorted(s.order) != list(range(n)):
        raise d.fail(f"order {s.order} is not every seat once")
    if s.order and not 0 <= s.active < n:
        raise d.fail(f"active seat {s.active} is not a seat of the game")
    # the combat deck: every card is in the deck, the discard pile or one hand (SR-46)
    for i, value in enumerate(D.CARD_VALUES):
        total = s.combat_deck[i] + s.combat_discard[i] + sum(s.hand[p * NV + i] for p in range(n))
        if total != D.DECK_COUNTS[i]:
            raise d.fail(
                f"there are {total} combat cards of value {value} in the deck, the discard pile "
                f"and the hands; the game has {D.DECK_COUNTS[i]}"
            )
    # objectives, Factory cards and encounter cards: each card in one place at most
    objectives = list(s.objectives_revealed)
    for p in range(n):
        objectives += s.objectives[p] + s.objectives_discarded[p]
    if len(set(objectives)) != len(objectives):
        raise d.fail("an objective card is in two places")
    for o in s.objectives_revealed:
        if o not in D.OBJECTIVE_BY_NUMBER:
            raise d.fail(f"objectives_revealed: {o!r} is not an objective card number")
    factory = s.factory_offer + [c for c in s.factory_card if c >= 0]
    if len(set(factory)) != len(factory) or any(c not in D.FACTORY_BY_NUMBER for c in factory):
        raise d.fail("the Factory cards of the offer and the seats are not distinct card numbers")
    encounters = s.encounter_bottom + ([s.encounter_card] if s.encounter_card >= 0 else [])
    if len(set(encounters)) != len(encounters) or any(
        c not in D.ENCOUNTER_BY_NUMBER for c in encounters
    ):
        raise d.fail("the encounter cards drawn are not distinct encounter card numbers")
    for p in range(n):
        who = f"seat {p}"
        # SR-50: stars
        for k in range(NSTAR):
            cap = star_cap(s, p, k) if s.faction[p] >= 0 else 1
            if s.stars[p * NSTAR + k] > cap:
                raise d.fail(
                    f"{who} has {s.stars[p * NSTAR + k]} {D.STAR_SOURCES[k]} stars; "
                    f"at most {cap} (SR-50)"
                )
        if s.star_total[p] > D.STARS_TO_END:
            raise d.fail(f"{who} has {s.star_total[p]} stars; the game ends at {D.STARS_TO_END}")
        # SR-21: one cube per upgrade, at most the section's slots
        ups = bin(s.upgrades[p]).count("1")
        cubes = sum(s.cubes[p * NB : p * NB + NB])
        if cubes != ups:
            raise d.fail(f"{who} has {ups} upgrades but {cubes} cubes on bottom actions (SR-21)")
        if s.mat[p] >= 0:
            for b in range(NB):
                if s.cubes[p * NB + b] > cube_slots(s, p, b):
                    raise d.fail(
                        f"{who} has {s.cubes[p * NB + b]} cubes on {D.BOTTOM_ACTIONS[b]}; "
                        f"its section has {cube_slots(s, p, b)} (SR-21)"
                    )
        # SR-24: one enlist space per recruit
        recruits = bin(s.recruits[p]).count("1")
        spaces = bin(s.enlist_spaces[p]).count("1")
        if recruits != spaces:
            raise d.fail(f"{who} has {recruits} recruits but {spaces} enlist spaces used (SR-24)")
        # units: a worker never on a lake (SR-35) unless a mech of its own is there
        for j in range(D.WORKERS_TOTAL):
            loc = s.worker_loc[p * D.WORKERS_TOTAL + j]
            if loc >= 0 and D.IS_LAKE[loc] and not s.combat_units_on[loc * n + p]:
                raise d.fail(
                    f"{who}'s worker {j} is on the lake {D.LOC_NAMES[loc]} without a mech "
                    "to carry it (SR-35)"
                )
        for k in range(NS):
            loc = s.structure_loc[p * NS + k]
            if loc >= 0 and (D.IS_LAKE[loc] or D.IS_HOME[loc]):
                raise d.fail(
                    f"{who}'s {D.STRUCTURES[k]} stands on {D.LOC_NAMES[loc]}; structures go on "
                    "land territories (SR-23)"
                )
    built = [loc for loc in s.structure_loc if loc >= 0]
    if len(set(built)) != len(built):
        raise d.fail("two structures stand on one territory (SR-23)")
    if s.phase not in (Phase.SETUP, Phase.OVER) and not s.order:
        raise d.fail(f"phase {PHASE_NAMES[s.phase]} needs the seating order (setup is not done)")
