"""Scythe as an RL environment: action catalogue and observation encoding.

Built from the notation of ``docs/scythe.md`` (its vocabulary — locations, resources,
structures, top boxes, recruits, abilities, card values — from the game's data tables) and
``state.observation(seat)`` only. Every small decision of the turn chain has its choices in
the catalogue; a cargo (``carry 1worker 2oil``) is keyed by its place among the cargos listed
at that step (``carry #1`` .. ``carry #8``), since the listed cargos are a handful of a
large family. Seats in the features are relative to the observing seat.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations_with_replacement
from typing import Any

import numpy as np

from hexfolk.core import Action, Game
from hexfolk.games.scythe import data as D
from hexfolk.games.scythe.state import PHASE_NAMES
from hexfolk.rl.codec import Codec, Features, relative, scaled

JSON = dict[str, Any]

PROMPTS = tuple(PHASE_NAMES[1:])  # every prompt kind the engine names (all but "setup")
"""Prompt kinds of the seat (one-hot)."""
ACTIONS = ("move", "trade", "produce", "bolster", *D.BOTTOM_ACTIONS, "factory")
"""Top and bottom actions a prompt's ``data["action"]`` names."""
UNIT_KINDS = ("character", "mech", "worker")
CARRY_SLOTS = 8
"""Cargos listed at one step, at most (keyed ``carry #1`` ..)."""
MAX_COMMIT_CARDS = 6
"""Combat cards in one commitment, at most: one per character and mech there (1 + 4), and
one more with People's Army."""
OPTIONS = 3
"""Options of an encounter card."""
SECTIONS = D.FACTORY_SECTION + 1

_FACTION_AT: dict[Any, int] = dict(D.FACTION_INDEX)
_MAT_AT: dict[Any, int] = dict(D.MAT_INDEX)
_STAR_AT = {source: i for i, source in enumerate(D.STAR_SOURCES)}
_TOP_AT = dict(D.TOP_BOX_INDEX)
_BOTTOM_AT = dict(D.BOTTOM_INDEX)
_ENLIST_AT = {space: i for i, space in enumerate(D.ENLIST_SPACE_IDS)}
"""Index tables of the players block (name -> place in its run)."""


def catalogue() -> list[str]:
    """Every Scythe action key, in index order (the same at every player count)."""
    locs = D.LOC_NAMES
    res = D.RESOURCES
    keys = [f"section {i}" for i in range(1, D.FACTORY_SECTION + 1)] + ["section factory"]
    keys += ["skip", "done", "end", "bottom", "top", "stop", "coins"]
    keys += ["bolster power", "bolster cards", "trade popularity", "artillery", "no artillery"]
    keys += [f"reveal {o['number']}" for o in D.CARDS["objectives"]]
    keys += [f"factory {c['number']}" for c in D.CARDS["factory_cards"]]
    keys += [f"option {k}" for k in range(1, OPTIONS + 1)]
    keys += [f"pay card {v}" for v in D.CARD_VALUES]
    keys += [f"carry #{k}" for k in range(1, CARRY_SLOTS + 1)]
    for dial in range(D.DIAL_MAX + 1):
        keys.append(f"commit {dial}")
        for size in range(1, MAX_COMMIT_CARDS + 1):
            for cards in combinations_with_replacement(D.CARD_VALUES, size):
                keys.append(f"commit {dial} cards " + ",".join(map(str, cards)))
    keys += [f"upgrade {b['id']} {a}" for b in D.TOP_BOXES for a in D.BOTTOM_ACTIONS]
    keys += [f"enlist {a} {s}" for a in D.BOTTOM_ACTIONS for s in D.ENLIST_SPACE_IDS]
    for loc in locs:
        keys += [f"move {kind} {loc}" for kind in UNIT_KINDS]
        keys += [f"to {loc}", f"produce {loc}", f"fight {loc}"]
        keys += [f"retreat {loc}", f"retreat {loc} no-workers"]
        keys += [f"trade {r} {loc}" for r in res]
        keys += [f"gain {r} {loc}" for r in res]
        keys += [f"pay {r} {loc}" for r in res]
        keys += [f"build {s} {loc}" for s in D.STRUCTURES]
        keys += [f"deploy {a} {loc}" for a in D.ABILITY_NAMES]
    return keys


def _kind(action: Action) -> str | None:
    """The kind of an action's structured form (``docs/scythe.md``; None: a shorthand)."""
    form = action.json_form
    return None if form is None else form.kind


class ScytheCodec(Codec):
    """Catalogue and encoder of one Scythe configuration (the player count)."""

    def __init__(self, game: Game):
        self.players = n = game.num_players
        L = len(D.LOC_NAMES)
        self.loc_index = {name: i for i, name in enumerate(D.LOC_NAMES)}
        nres = len(D.RESOURCES)
        nst = len(D.STRUCTURES)
        f = Features()
        self.o_prompt = f.add("prompt", len(PROMPTS), "prompt kind of the seat, one-hot")
        self.o_action = f.add("prompt_action", len(ACTIONS), "the action a prompt names")
        self.o_pay = f.add("pay", nres + 1, "resource to pay, one-hot; tokens left /5")
        self.o_turn = f.add(
            "turn", 4, "turn /300, units moved /3, units allowed /3, combats waiting /4"
        )
        self.o_section = f.add("section", SECTIONS, "section taken this turn (1..4, factory)")
        self.o_selected = f.add(
            "selected",
            len(UNIT_KINDS) + L + 1 + nres,
            "moving unit: kind, location one-hot, workers carried /8, resources carried /8",
        )
        self.o_combat = f.add(
            "combat",
            L + 3 * n,
            "combat: territory one-hot, attacker and defender (relative seat), committed",
        )
        ncards = len(D.CARDS["encounter_cards"])
        self.o_encounter = f.add(
            "encounter", ncards + OPTIONS, "encounter card drawn one-hot, options chosen"
        )
        nfactory = len(D.CARDS["factory_cards"])
        self.o_factory = f.add(
            "factory_offer",
            nfactory + 1,
            "Factory cards in the offer (if seen), face-down offer size /5",
        )
        self.o_known = f.add(
            "known_cards", n * len(D.CARD_VALUES), "combat cards known in other hands /4"
        )
        self.o_tile = f.add("tile", len(D.TILE_IDS), "structure bonus tile, one-hot")
        nobj = len(D.CARDS["objectives"])
        self.o_decks = f.add(
            "decks",
            2 + len(D.CARD_VALUES) + nobj,
            "combat deck /42, encounter cards unknown /28, discard per card value /10, "
            "revealed objectives",
        )
        per_loc = 3 * n + nres + nst + n + 1 + n
        self.per_loc = per_loc
        self.o_board = f.add(
            "board",
            L * per_loc,
            "per location (data order): per relative seat character, mechs /4, workers /8; "
            "resources /8; structure kind; its owner (relative); encounter token; controller",
        )
        nfac, nmat, nab = len(D.FACTION_IDS), len(D.MAT_IDS), len(D.ABILITY_NAMES)
        nstar = len(D.STAR_SOURCES)
        ntop, nbot = len(D.TOP_BOXES), len(D.BOTTOM_ACTIONS)
        nspace = len(D.ENLIST_SPACE_IDS)
        per_player = (
            nfac + nmat + 7 + nstar + ntop + 2 * nbot + nbot + nspace + nab + nst + SECTIONS + 4
        )
        self.per_player = per_player
        self.o_player = f.add(
            "players",
            n * per_player,
            "per relative seat: faction, mat, power /16, popularity /18, coins /60, stars /6, "
            "combat cards /12, objectives /2, workers out /8, stars per source /2, upgraded "
            "top boxes, cubes per bottom action /3, bottom costs /4, recruits, enlist spaces "
            "used, mechs deployed (by ability), structures built, last section, holds a "
            "Factory card, active, to move, reserved",
        )
        self.o_own = f.add(
            "own",
            len(D.CARD_VALUES) + nobj + nfactory,
            "own combat cards per value /6, own objectives, own Factory card",
        )
        self.ncards = ncards
        self.nfactory = nfactory
        self.rel = [[relative(s, o, n) for o in range(n)] for s in range(n)]
        """``rel[seat][other]``: where ``other`` sits from ``seat``."""
        self.loc_at = {name: self.o_board + i * per_loc for i, name in enumerate(D.LOC_NAMES)}
        self.res_at = {r: i for i, r in enumerate(D.RESOURCES)}
        self.st_at = {k: i for i, k in enumerate(D.STRUCTURES)}
        super().__init__(game, catalogue(), f)

    # --------------------------------------------------------------------- actions
    def dynamic(self, action: Action) -> bool:
        return _kind(action) == "carry"

    def keys(self, legal: Sequence[Action], observation: JSON) -> list[str]:
        """Each action's text, the id the catalogue lists; the ``carry`` choices (read by
        their kind, never from their text) numbered in the order listed."""
        out = []
        carry = 0
        for action in legal:
            if _kind(action) == "carry":
                carry += 1
                out.append(f"carry #{carry}")
            else:
                out.append(str(action))
        return out

    # --------------------------------------------------------------------- observation
    def write(self, obs: JSON, vec: np.ndarray) -> None:
        n = self.players
        seat = obs["seat"]
        if seat is None:
            seat = 0
        loc_index = self.loc_index
        prompt = obs.get("prompt")
        mine = prompt is not None and prompt["seat"] == seat
        kind = prompt["kind"] if mine and prompt else obs["phase"]
        if kind in PROMPTS:
            vec[self.o_prompt + PROMPTS.index(kind)] = 1.0
        data = prompt["data"] if mine and prompt else {}
        action = data.get("action")
        if action in ACTIONS:
            vec[self.o_action + ACTIONS.index(action)] = 1.0
        if kind == "pay" and data.get("resource") in D.RESOURCES:
            vec[self.o_pay + D.RESOURCES.index(data["resource"])] = 1.0
            vec[self.o_pay + len(D.RESOURCES)] = scaled(data.get("left", 0), 5)
        vec[self.o_turn] = scaled(obs["turn"], 300)
        vec[self.o_turn + 1] = scaled(data.get("units_moved", 0), 3)
        vec[self.o_turn + 2] = scaled(data.get("max_units", 0), 3)
        vec[self.o_turn + 3] = scaled(len(obs.get("combats") or ()), 4)
        section = obs.get("section")
        if section is not None and 0 <= section < SECTIONS:
            vec[self.o_section + section] = 1.0
        selected = obs.get("selected")
        L = len(D.LOC_NAMES)
        if selected:
            at = self.o_selected
            vec[at + UNIT_KINDS.index(selected["kind"])] = 1.0
            vec[at + len(UNIT_KINDS) + loc_index[selected["at"]]] = 1.0
            carrying = selected.get("carrying") or {}
            vec[at + len(UNIT_KINDS) + L] = scaled(carrying.get("workers", 0), 8)
            for r, name in enumerate(D.RESOURCES):
                vec[at + len(UNIT_KINDS) + L + 1 + r] = scaled(carrying.get(name, 0), 8)
        combat = obs.get("combat")
        if combat:
            at = self.o_combat
            vec[at + loc_index[combat["territory"]]] = 1.0
            vec[at + L + relative(seat, combat["attacker"], n)] = 1.0
            vec[at + L + n + relative(seat, combat["defender"], n)] = 1.0
            for q in (combat.get("commitments") or {}).get("committed", ()):
                vec[at + L + 2 * n + relative(seat, q, n)] = 1.0
        encounter = obs.get("encounter")
        if encounter:
            card = encounter["card"]
            if 1 <= card <= self.ncards:
                vec[self.o_encounter + card - 1] = 1.0
            for k in encounter.get("chosen", ()):
                if 1 <= k <= OPTIONS:
                    vec[self.o_encounter + self.ncards + k - 1] = 1.0
        for number in obs.get("factory_offer_cards") or ():
            if 1 <= number <= self.nfactory:
                vec[self.o_factory + number - 1] = 1.0
        vec[self.o_factory + self.nfactory] = scaled(obs.get("factory_offer") or 0, 5)
        nval = len(D.CARD_VALUES)
        for q, values in (obs.get("known_cards") or {}).items():
            base = self.o_known + relative(seat, int(q), n) * nval
            for i, v in enumerate(D.CARD_VALUES):
                vec[base + i] = scaled(values.count(v), 4)
        if obs.get("tile") in D.TILE_IDS:
            vec[self.o_tile + D.TILE_IDS.index(obs["tile"])] = 1.0
        at = self.o_decks
        vec[at] = scaled(obs.get("combat_deck", 0), 42)
        vec[at + 1] = scaled((obs.get("encounter_deck") or {}).get("unknown", 0), 28)
        for v, count in (obs.get("combat_discard") or {}).items():
            vec[at + 2 + D.CARD_VALUES.index(int(v))] = scaled(count, 10)
        for number in obs.get("revealed_objectives") or ():
            vec[at + 2 + nval + number - 1] = 1.0
        self._write_board(obs["board"], seat, vec)
        self._write_players(obs, seat, vec)

    def _write_board(self, board: JSON, seat: int, vec: np.ndarray) -> None:
        n = self.players
        rel = self.rel[seat]
        res_at = self.res_at
        st_at = self.st_at
        loc_at = self.loc_at
        idx: list[int] = []
        val: list[float] = []
        for name, cell in board.items():
            base = loc_at[name]
            units = cell.get("units")
            if units:
                for q, u in units.items():
                    at = base + rel[int(q)] * 3
                    idx += (at, at + 1, at + 2)
                    val += (
                        1.0 if u.get("character") else 0.0,
                        min(u.get("mechs", 0) / 4, 1.0),
                        min(u.get("workers", 0) / 8, 1.0),
                    )
            resources = cell.get("resources")
            if resources:
                at = base + 3 * n
                for r, count in resources.items():
                    idx.append(at + res_at[r])
                    val.append(min(count / 8, 1.0))
            structure = cell.get("structure")
            at = base + 3 * n + len(D.RESOURCES)
            if structure:
                idx += (
                    at + st_at[structure["kind"]],
                    at + len(D.STRUCTURES) + rel[structure["seat"]],
                )
                val += (1.0, 1.0)
            at += len(D.STRUCTURES) + n
            if cell.get("encounter_token"):
                idx.append(at)
                val.append(1.0)
            controller = cell.get("controller", -1)
            if controller is not None and controller >= 0:
                idx.append(at + 1 + rel[controller])
                val.append(1.0)
        if idx:
            vec[idx] = val

    def _write_players(self, obs: JSON, seat: int, vec: np.ndarray) -> None:
        rel = self.rel[seat]
        active = obs.get("active")
        current = obs.get("current")
        nst = len(D.STRUCTURES)
        nbot = len(D.BOTTOM_ACTIONS)
        idx: list[int] = []
        val: list[float] = []
        ones: list[int] = []
        for info in obs["player_state"]:
            p = info["seat"]
            at = self.o_player + rel[p] * self.per_player
            faction = _FACTION_AT.get(info.get("faction"))
            if faction is not None:
                ones.append(at + faction)
            at += len(D.FACTION_IDS)
            mat = _MAT_AT.get(info.get("mat"))
            if mat is not None:
                ones.append(at + mat)
            at += len(D.MAT_IDS)
            idx += range(at, at + 7)
            val += (
                info["power"] / 16,
                info["popularity"] / 18,
                info["coins"] / 60,
                info["star_total"] / 6,
                info["combat_cards"] / 12,
                info["objectives"] / 2,
                info["workers_out"] / 8,
            )
            at += 7
            stars = info.get("stars")
            if stars:
                for source, count in stars.items():
                    i = _STAR_AT.get(source)
                    if i is not None and count:
                        idx.append(at + i)
                        val.append(count / 2)
            at += len(D.STAR_SOURCES)
            for box in info.get("upgrades") or ():
                i = _TOP_AT.get(box)
                if i is not None:
                    ones.append(at + i)
            at += len(D.TOP_BOXES)
            cubes = info.get("cubes")
            if cubes:
                for b, count in cubes.items():
                    i = _BOTTOM_AT.get(b)
                    if i is not None and count:
                        idx.append(at + i)
                        val.append(count / 3)
            costs = info.get("bottom_costs")
            if costs:
                for b, count in costs.items():
                    i = _BOTTOM_AT.get(b)
                    if i is not None and count:
                        idx.append(at + nbot + i)
                        val.append(count / 4)
            for b in info.get("recruits") or ():
                i = _BOTTOM_AT.get(b)
                if i is not None:
                    ones.append(at + 2 * nbot + i)
            at += 3 * nbot
            for space in info.get("enlist_spaces_used") or ():
                i = _ENLIST_AT.get(space)
                if i is not None:
                    ones.append(at + i)
            at += len(D.ENLIST_SPACE_IDS)
            for ability in info.get("mechs") or ():
                ones.append(at + D.ABILITY_NAMES.index(ability))
            at += len(D.ABILITY_NAMES)
            for kind in info.get("structures") or {}:
                ones.append(at + D.STRUCTURES.index(kind))
            at += nst
            last = info.get("last_section")
            if last is not None and 0 <= last < SECTIONS:
                ones.append(at + last)
            at += SECTIONS
            if info.get("factory_card") is not None:
                ones.append(at)
            if active == p:
                ones.append(at + 1)
            if current == p:
                ones.append(at + 2)
            if p == seat:
                own = self.o_own
                hand = info.get("hand") or ()
                for i, v in enumerate(D.CARD_VALUES):
                    count = hand.count(v)
                    if count:
                        idx.append(own + i)
                        val.append(count / 6)
                own += len(D.CARD_VALUES)
                for number in info.get("objective_cards") or ():
                    ones.append(own + number - 1)
                own += len(D.CARDS["objectives"])
                card = info.get("factory_card")
                if card is not None and 1 <= card <= self.nfactory:
                    ones.append(own + card - 1)
        vec[idx] = np.minimum(val, 1.0)
        vec[ones] = 1.0


CODEC = ScytheCodec
"""This game's RL encoding (:func:`hexfolk.rl.aec.make_codec` finds it by the game's id)."""
