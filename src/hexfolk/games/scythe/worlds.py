"""Scythe worlds rebuilt from one seat's observation (``ScytheGame.world_from_observation``).

A remote client (``hexfolk connect``) holds only ``observation(seat)``; the Scythe bots search
in sampled worlds. :func:`world_from_observation` writes a position document
(:mod:`~.positions`) from what the observation shows, loads it with ``load_position`` (the
engine's invariants are checked), then redraws what the seat cannot know with the engine's own
``sample_consistent_state``. What the observation does not carry is decided here
(``docs/scythe.md``, "Worlds from an observation"):

* combat cards: the deck's composition (SR-46) minus the discard pile, the seat's own hand and
  the cards it knows another seat holds (``known_cards``) is dealt to the other seats by their
  counts, the rest is the deck;
* objectives: the other seats' cards are drawn from those not revealed and not the seat's own
  (its discarded ones included); what the others discarded is not shown, so they discarded none;
* the Factory offer: the cards shown to the seat, else drawn from the Factory cards no seat
  holds; the encounter deck is derived by the engine from the drawn cards (its bottom and the
  card in play are shown);
* units: workers and mechs by territory from the board (worker ``j`` and mech ``i`` numbered in
  territory order; a deployed mech's ability is not tied to a territory in the observation);
  the units moved this turn are the ones standing where this turn's ``moves`` log entries
  (read by form and params, never by sentence) left them;
* the turn's bookkeeping: the territories produced on from this turn's ``produces`` entries, a
  payment from its prompt, a combat's stage from its prompt (Artillery, commitments, retreat:
  SR-43); another seat's pending commitment is drawn by ``sample_consistent_state``; while a
  card's granted benefits are taken, what follows them (the encounter's next option when an
  encounter card is in play, else the rest of the turn: a Factory card's); the rest as at a
  fresh decision (no pending Factory card move);
* the log is rebuilt as public lines (the seat's own private lines included: the world is the
  seat's own); what other seats know of one another is not shown and left empty.
"""

from __future__ import annotations

import random
from typing import Any

from hexfolk.core import Game, LogLine, PositionError, State
from hexfolk.games.scythe import data as D
from hexfolk.games.scythe.phases import Continuation
from hexfolk.games.scythe.positions import CONTINUATION_NAMES

JSON = dict[str, Any]
Entry = tuple[str | None, dict[str, Any]]
"""A log line's form and params (``(None, {})`` for a plain line of an older document)."""


def _entries(log: list[Any]) -> list[Entry]:
    """The observation's log lines as data: a line object (:class:`~hexfolk.core.LogLine`)
    or its JSON ``{form, params, text}``."""
    out: list[Entry] = []
    for line in log:
        if isinstance(line, LogLine):
            out.append((line.form, line.params))
        elif isinstance(line, dict):
            out.append((line.get("form"), line.get("params") or {}))
        else:
            out.append((None, {}))
    return out


def _this_turn(log: list[Any], active: int) -> list[Entry]:
    """The log entries since the active seat chose a mat section this turn."""
    entries = _entries(log)
    for i in range(len(entries) - 1, -1, -1):
        form, params = entries[i]
        if form == "section" and params["seat"] == active:
            return entries[i:]
    return []


def _units(obs: JSON, n: int) -> tuple[list[list[str | None]], list[dict[str, str]], list[Any]]:
    """Per seat: the workers' territories (``None``: on the mat), the deployed mechs by ability,
    the character's territory."""
    board: JSON = obs["board"]
    workers: list[list[str | None]] = [[] for _ in range(n)]
    mech_at: list[list[str]] = [[] for _ in range(n)]
    character: list[Any] = [None] * n
    for loc in D.LOC_NAMES:  # territory order
        units = board.get(loc, {}).get("units", {})
        for key, u in units.items():
            q = int(key)
            workers[q] += [loc] * u["workers"]
            mech_at[q] += [loc] * u["mechs"]
            if u["character"]:
                character[q] = loc
    mechs: list[dict[str, str]] = []
    for q in range(n):
        deployed = obs["player_state"][q].get("mechs", [])
        if len(deployed) != len(mech_at[q]):
            raise PositionError(
                f"seat {q} has {len(deployed)} mechs deployed but {len(mech_at[q])} on the board"
            )
        mechs.append(dict(zip(deployed, mech_at[q])))
        if len(workers[q]) > D.WORKERS_TOTAL:
            raise PositionError(f"seat {q} has more than {D.WORKERS_TOTAL} workers on the board")
        workers[q] += [None] * (D.WORKERS_TOTAL - len(workers[q]))
    return workers, mechs, character


def _moved(
    obs: JSON, workers: list[str | None], mechs: dict[str, str], character: Any, abilities: Any
) -> list[str]:
    """The active seat's units moved this turn: where this turn's move lines left them."""
    if obs.get("section") is None:
        return []
    active = obs["active"]
    out: list[str] = []
    taken: set[str] = set()
    for form, params in _this_turn(obs["log"], active):
        if form != "moves" or params["seat"] != active:
            continue
        kind, dest = params["unit"], params["to"]
        if kind == "character":
            if character == dest:
                taken.add("character")
        elif kind == "worker":
            for j, loc in enumerate(workers):
                name = f"worker {j}"
                if loc == dest and name not in taken:
                    taken.add(name)
                    break
        else:
            for ability, loc in mechs.items():
                name = f"mech {list(abilities).index(ability)}"
                if loc == dest and name not in taken:
                    taken.add(name)
                    break
    for name in ["character", *(f"mech {i}" for i in range(D.MECHS))]:
        if name in taken:
            out.append(name)
    out += [f"worker {j}" for j in range(D.WORKERS_TOTAL) if f"worker {j}" in taken]
    return out


def _deal_cards(
    obs: JSON, seat: int, n: int, rng: random.Random
) -> tuple[list[list[int]], dict[str, int]]:
    """Every seat's combat cards (the seat's own as shown) and the deck."""
    players = obs["player_state"]
    pool = {v: D.DECK_COUNTS[i] for i, v in enumerate(D.CARD_VALUES)}
    for value, count in obs["combat_discard"].items():
        pool[int(value)] -= count
    hands: list[list[int]] = [[] for _ in range(n)]
    hands[seat] = list(players[seat].get("hand", []))
    known = obs.get("known_cards", {})
    for q in range(n):
        if q != seat:
            hands[q] = list(known.get(str(q), []))
    for hand in hands:
        for v in hand:
            pool[v] -= 1
    if any(c < 0 for c in pool.values()):
        raise PositionError("the shown combat cards are more than the deck has (SR-46)")
    cards = [v for v, c in pool.items() for _ in range(c)]
    rng.shuffle(cards)
    for q in range(n):
        if q == seat:
            continue
        missing = players[q].get("combat_cards", 0) - len(hands[q])
        if missing < 0 or missing > len(cards):
            raise PositionError(f"seat {q}'s combat card count does not fit the unseen cards")
        hands[q] += cards[:missing]
        cards = cards[missing:]
    if len(cards) != obs["combat_deck"]:
        raise PositionError(
            f"{len(cards)} combat cards are unseen; the observation's deck has {obs['combat_deck']}"
        )
    return hands, {str(v): cards.count(v) for v in D.CARD_VALUES}


def _deal_objectives(obs: JSON, seat: int, n: int, rng: random.Random) -> list[list[int]]:
    players = obs["player_state"]
    own = list(players[seat].get("objective_cards", []))
    seen = set(obs["revealed_objectives"]) | set(own)
    seen |= set(players[seat].get("discarded_objectives", []))
    pool = [o["number"] for o in D.OBJECTIVES if o["number"] not in seen]
    rng.shuffle(pool)
    out: list[list[int]] = []
    for q in range(n):
        if q == seat:
            out.append(own)
            continue
        k = players[q].get("objectives", 0)
        if k > len(pool):
            raise PositionError(f"seat {q} holds more objectives than are unseen")
        out.append(sorted(pool[:k]))
        pool = pool[k:]
    return out


def _factory_offer(obs: JSON, seat: int, rng: random.Random) -> tuple[list[int], list[int]]:
    if "factory_offer_cards" in obs:
        return list(obs["factory_offer_cards"]), [seat]
    held = {pl.get("factory_card") for pl in obs["player_state"]}
    pool = [c for c in D.FACTORY_NUMBERS if c not in held]
    rng.shuffle(pool)
    k = obs["factory_offer"]
    if k > len(pool):
        raise PositionError("the Factory offer is larger than the cards no seat holds")
    return pool[:k], []


def _section(number: Any) -> Any:
    """An observation's section (1..4, 5 for the Factory card, SR-6) as a position names it."""
    return "factory" if number == D.FACTORY_SECTION + 1 else number


def _produced(obs: JSON) -> list[str]:
    """The territories the active seat produced on this turn (its ``produces`` lines)."""
    out: list[str] = []
    for form, params in _this_turn(obs["log"], obs["active"]):
        mine = form in ("produces", "produces_workers") and params["seat"] == obs["active"]
        if mine and params["territory"] not in out:
            out.append(params["territory"])
    return out


def _unit_index(seat_doc: JSON, abilities: list[str], kind: str, at: str) -> int:
    """The number of a unit of ``kind`` standing on ``at`` (workers and mechs are numbered in
    territory order)."""
    if kind == "worker":
        return next((j for j, loc in enumerate(seat_doc["workers"]) if loc == at), 0)
    if kind == "mech":
        for ability, loc in seat_doc["mechs"].items():
            if loc == at:
                return abilities.index(ability)
    return 0


def _turn(obs: JSON, seat: int, moved: list[str], index: int, carried: list[int]) -> JSON:
    prompt = obs.get("prompt") or {}
    data = prompt.get("data") or {}
    combat = obs.get("combat")
    selected = obs.get("selected")
    commitments = None
    stage = 0
    kind = prompt.get("kind")
    asked = prompt.get("seat", -1)
    artillery = asked if kind == "artillery" else -1
    if combat is not None and artillery >= 0:  # SR-43 C1: the attacker's (1), defender's (4)
        stage = 1 if artillery == combat["attacker"] else 4
    if combat is not None and kind == "retreat":
        stage = 7  # after the reveal (SR-43 C3)
    if combat is not None:
        view = combat.get("commitments")
        if view is not None:
            stage = 6
            values: JSON = {}
            for q in view.get("committed", []):
                if "values" in view:
                    values[str(q)] = view["values"][str(q)]
                elif q == seat and "own" in view:
                    values[str(q)] = view["own"]
                else:
                    values[str(q)] = [0, []]  # redrawn by sample_consistent_state
            commitments = {"seats": list(view["seats"]), "values": values}
            if "values" in view:
                stage = 7
    moving: JSON = {
        "kind": None,
        "index": -1,
        "start": None,
        "steps_left": -1,
        "steps_taken": 0,
        "workers": [],
        "resources": [0] * D.NRES,
    }
    if selected is not None:
        carrying = selected.get("carrying", {})
        kind, at = selected["kind"], selected["at"]
        lines = _this_turn(obs["log"], obs["active"])
        # SR-25: each step is logged; a unit that stepped here last is still on its way
        last = lines[-1] if lines else (None, {})
        moved_here = dict(seat=obs["active"], unit=kind, to=at)
        taken = 1 if last[0] == "moves" and last[1] == moved_here else 0
        speed = "speed" in obs["player_state"][obs["active"]].get("mechs", [])
        steps = 1 + (D.RULES["speed_extra_steps"] if kind != "worker" and speed else 0)
        moving.update(
            kind=kind,
            index=index,
            start=at,
            steps_left=steps - taken,
            steps_taken=taken,
            workers=carried[: carrying.get("workers", 0)],
            resources=[carrying.get(r, 0) for r in D.RESOURCES],
        )
    return {
        "section": _section(obs.get("section")),
        "units_moved": obs.get("units_moved", 0),
        "max_units": data.get("max_units", 0),
        "moved": moved,
        "moving": moving,
        "moves_made": [],
        "combats": list(obs.get("combats", [])),
        "combat": None
        if combat is None
        else {
            "territory": combat["territory"],
            "attacker": combat["attacker"],
            "defender": combat["defender"],
            "stage": stage,
            "artillery_seat": artillery,
        },
        "commitments": commitments,
        "retreat_seat": asked if kind == "retreat" else -1,
        "coercion_used": False,
        "reveal_windows_used": [],
        "encounter_territory": (obs.get("encounter") or {}).get("territory"),
        "encounter_options_chosen": list((obs.get("encounter") or {}).get("chosen", [])),
        "pending_gains": [list(g) for g in obs.get("pending_gains", [])],
        "gains_then": _gains_then(obs),
        "gains_territory": (obs.get("encounter") or {}).get("territory"),
        "factory_move": False,
        "produce_limit": 0,
        "factory_cards_owed": 0,
        "forced_retreat": False,
        "character_token": (obs.get("encounter") or {}).get("territory"),
        "factory_declined": [],
        "produced": _produced(obs) if obs.get("section") is not None else [],
        "pay_resource": data.get("resource") if prompt.get("kind") == "pay" else None,
        "pay_left": data.get("left", 0) if prompt.get("kind") == "pay" else 0,
        "bottom_taken": False,
        "bottom_coins": False,
        "recruits_before": [],
        "combat_ends_game": False,
    }


def _gains_then(obs: JSON) -> str | None:
    """What follows a card's granted benefits (SR-47, SR-49) while they are being taken (the
    observation lists them): the encounter's next option or its end when an encounter card is
    in play, else the turn after the top-row action (a Factory card's). None without gains."""
    if not obs.get("pending_gains"):
        return None
    then = Continuation.ENCOUNTER_OPTION_DONE if obs.get("encounter") else Continuation.AFTER_TOP
    return CONTINUATION_NAMES[then]


def world_from_observation(game: Game, obs: JSON, seat: int, rng: random.Random) -> State:
    """A state whose ``observation(seat)`` is ``obs``, the hidden parts drawn from ``rng``
    (the module docstring lists what is drawn and how)."""
    n = game.num_players
    if obs.get("game") != "scythe" or obs.get("seat") != seat or obs.get("players") != n:
        raise PositionError(f"the observation is not seat {seat}'s view of this Scythe game")
    players = obs["player_state"]
    workers, mechs, character = _units(obs, n)
    hands, deck = _deal_cards(obs, seat, n, rng)
    objectives = _deal_objectives(obs, seat, n, rng)
    offer, offer_seen = _factory_offer(obs, seat, rng)
    seats = []
    for q, pl in enumerate(players):
        faction = pl.get("faction")
        abilities = D.FACTIONS[D.FACTION_IDS.index(faction)]["mech_abilities"] if faction else []
        seats.append(
            {
                "faction": faction,
                "mat": pl.get("mat"),
                "power": pl.get("power", 0),
                "popularity": pl.get("popularity", 0),
                "coins": pl.get("coins", 0),
                "combat_cards": hands[q],
                "objectives": objectives[q],
                "objectives_discarded": list(pl.get("discarded_objectives", []))
                if q == seat
                else [],
                "stars": dict(pl.get("stars", {})),
                "upgrades": list(pl.get("upgrades", [])),
                "cubes": dict(pl.get("cubes", {})),
                "recruits": list(pl.get("recruits", [])),
                "enlist_spaces": list(pl.get("enlist_spaces_used", [])),
                "character": character[q],
                "mechs": mechs[q],
                "workers": workers[q],
                "structures": dict(pl.get("structures", {})),
                "factory_card": pl.get("factory_card"),
                "last_section": _section(pl.get("last_section")),
                "known_cards": dict(obs.get("known_cards", {})) if q == seat else {},
                "_abilities": abilities,
            }
        )
    active = obs["active"]
    moved: list[str] = []
    index = 0
    carried: list[int] = []
    if 0 <= active < n and seats[active]["faction"]:
        sa = seats[active]
        moved = _moved(obs, sa["workers"], sa["mechs"], sa["character"], sa["_abilities"])
        selected = obs.get("selected")
        if selected is not None:
            index = _unit_index(sa, sa["_abilities"], selected["kind"], selected["at"])
            carried = [j for j, loc in enumerate(sa["workers"]) if loc == selected["at"]]
            if selected["kind"] == "worker":
                carried = [j for j in carried if j != index]
    for doc_seat in seats:
        del doc_seat["_abilities"]
    board: JSON = obs["board"]
    encounter = obs.get("encounter")
    result = obs.get("result")
    doc: JSON = {
        "game": "scythe",
        **game.config(),
        "format": 1,
        "seats": seats,
        "resources": {loc: dict(e["resources"]) for loc, e in board.items() if "resources" in e},
        "encounter_tokens": [loc for loc, e in board.items() if e.get("encounter_token")],
        "structure_tile": obs.get("tile"),
        "combat_deck": deck,
        "combat_discard": {str(v): obs["combat_discard"].get(str(v), 0) for v in D.CARD_VALUES},
        "factory_offer": offer,
        "factory_offer_seen": offer_seen,
        "encounter_deck_bottom": list(obs["encounter_deck"]["bottom"]),
        "encounter_card": None if encounter is None else encounter["card"],
        "objectives_revealed": list(obs["revealed_objectives"]),
        "order": list(obs["order"]),
        "active": active,
        "turns": obs["turn"],
        "phase": obs["phase"],
        "chance": [],
        "continuation": None,
        "turn": _turn(obs, seat, moved, index, carried),
        "end": {
            "reason": "" if result is None else result["reason"],
            "returns": [] if result is None else list(result["returns"]),
            "breakdown": [] if result is None else list(result["breakdown"]),
        },
        "log": [[None, line] for line in obs["log"]],
    }
    loaded = game.load_position(doc)
    return loaded.sample_consistent_state(seat, rng)


__all__ = ["world_from_observation"]
