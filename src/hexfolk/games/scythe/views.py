"""What leaves the engine: the seats' observations, the full state, resampled worlds.

:func:`observation` is the only door out (the wire's JSON: its shape is what clients read);
:func:`full_state` the explicit fingerprint schema; :func:`resample` redraws what a seat
cannot know (others' cards and objectives, an unseen Factory offer) for ISMCTS.
"""

from __future__ import annotations

import random
from itertools import compress
from typing import Any

from hexfolk.core import check_seat, visible_log
from hexfolk.games.scythe import data as D
from hexfolk.games.scythe.actions import Commit
from hexfolk.games.scythe.combat import commit_options
from hexfolk.games.scythe.encounters import unknown_cards
from hexfolk.games.scythe.ended_by import ended_by
from hexfolk.games.scythe.log_forms import rules_text
from hexfolk.games.scythe.mat import bottom_cost
from hexfolk.games.scythe.phases import (
    ARTILLERY,
    BENEFIT,
    BOTTOM,
    CARRY,
    COMBAT_CHOOSE,
    COMMIT,
    ENCOUNTER,
    END,
    FACTORY_OFFER,
    GAIN,
    MOVE_UNIT,
    OVER,
    PAY,
    PAY_CARD,
    PHASE_NAMES,
    PRODUCE,
    RETREAT,
    STEP,
    TOP,
    TRADE_SECOND,
)
from hexfolk.games.scythe.position import NB, NS, NSTAR, NV, UNIT_NAMES, Position


def full_state(s: Position) -> dict[str, Any]:
    """Every field, hidden ones included, under the fingerprint's own names.

    The schema is explicit so that renaming a field of :class:`~.position.Position` never
    changes a fingerprint: the keys are the names the 0.1 engine used (``wk`` is
    ``workers_on``, ``cb`` is ``combat``, ...); a new field is added here by name.
    ``fdecline`` is written only when not empty (fingerprints from before partial gains).
    """
    move = s.move
    commitments = s.commitments
    out: dict[str, Any] = {
        "_combat_ended": s.combat_ends_game,
        "abil": s.abilities,
        "active": s.active,
        "allow_banned": s.allow_banned_pairs,
        "bottom_coins": s.bottom_coins,
        "bottom_taken": s.bottom_taken,
        "cargo_r": move.resources,
        "cargo_w": move.workers,
        "cb": s.combat.as_list() if s.combat is not None else [],
        "chance": s.chance,
        "char_loc": s.character_loc,
        "char_token": s.character_token,
        "cm": s.combat_units_on,
        "coercion_used": s.coercion_used,
        "coins": s.coins,
        "combats": s.combats,
        "commits": None
        if commitments is None
        else {str(q): commitments.value_for(q) for q in commitments.seats},
        "cont": None if s.continuation is None else s.continuation.value,
        "cubes": s.cubes,
        "deck": s.combat_deck,
        "discard": s.combat_discard,
        "enc_bottom": s.encounter_bottom,
        "enc_card": s.encounter_card,
        "enc_chosen": s.encounter_chosen,
        "enc_loc": s.encounter_loc,
        "end_reason": s.end_reason,
        "faction": s.faction,
        "factory_card": s.factory_card,
        "final": s.final,
        "fmove": s.factory_move,
        "forced_retreat": s.forced_retreat,
        "fpay_left": s.factory_cards_owed,
        "grant_loc": s.gains_loc,
        "grant_then": "" if s.gains_then is None else s.gains_then.value,
        "grants": s.pending_gains,
        "hand": s.hand,
        "known": s.known_cards,
        "last_section": s.last_section,
        "mat": s.mat,
        "max_units": s.max_units,
        "mech_loc": s.mech_loc,
        "move_log": s.moves_made,
        "move_start": move.start,
        "moved": s.moved_units,
        "n": s.n,
        "obj_discarded": s.objectives_discarded,
        "obj_revealed": s.objectives_revealed,
        "objectives": s.objectives,
        "offer": s.factory_offer,
        "offer_seen": s.factory_offer_seen,
        "order": s.order,
        "pay_left": s.pay_left,
        "pay_res": s.pay_resource,
        "phase": int(s.phase),
        "pop": s.popularity,
        "power": s.power,
        "prod_limit": s.produce_limit,
        "produced": s.produced,
        "recruits": s.recruits,
        "recruits_before": s.recruits_before,
        "res": s.resources,
        "result": s.result,
        "retreat_seat": s.retreat_seat,
        "section": s.section,
        "sel": (move.kind, move.index),
        "spaces": s.enlist_spaces,
        "star_total": s.star_total,
        "stars": s.stars,
        "steps_left": move.steps_left,
        "steps_taken": move.steps_taken,
        "struct_at": s.structure_at,
        "struct_loc": s.structure_loc,
        "tile": s.structure_tile,
        "token": s.encounter_tokens,
        "top_up": s.upgrades,
        "trade_left": 0,  # a field of 0.1 that was always 0
        "turns": s.turns,
        "units_moved": s.units_moved,
        "windows_used": s.reveal_windows_used,
        "wk": s.workers_on,
        "worker_loc": s.worker_loc,
    }
    if s.factory_declined:
        out["fdecline"] = s.factory_declined
    # the lines as rules 0.2 wrote them (board ids, ``cards [4, 2]``): fingerprinted, so they
    # keep that form (old records replay); observations carry the lines themselves
    out["log"] = [[sorted(v) if v is not None else None, rules_text(t)] for v, t in s.log]
    return out


def observation(s: Position, seat: int | None, *, log: bool = True) -> dict[str, Any]:
    """SR-59: the view of ``seat`` (``None``: a spectator): the board, every mat's public facts,
    the prompt, the combat, the log lines it may see (``log=False``: none, the kernel's
    ``State.observation``); its own cards and objectives."""
    check_seat(s, seat)
    n = s.n
    board: dict[str, Any] = {}
    # only the places holding something (units, resources, a structure, a token), in order
    workers, units_on, resources = s.workers_on, s.combat_units_on, s.resources
    nres = D.NRES
    held = {i // n for i in compress(range(len(workers)), workers)}
    held.update(i // n for i in compress(range(len(units_on)), units_on))
    held.update(i // nres for i in compress(range(len(resources)), resources))
    held.update(loc for loc, k in enumerate(s.structure_at) if k >= 0)
    held.update(compress(range(D.NLOC), s.encounter_tokens))
    for loc in sorted(held):
        entry: dict[str, Any] = {}
        units = {}
        for q in range(n):
            w, c = s.workers_on[loc * n + q], s.combat_units_on[loc * n + q]
            if w or c:
                ch = 1 if s.character_loc[q] == loc else 0
                units[str(q)] = {"character": ch, "mechs": c - ch, "workers": w}
        if units:
            entry["units"] = units
        r = s.resources[loc * D.NRES : loc * D.NRES + D.NRES]
        if any(r):
            entry["resources"] = {D.RESOURCES[i]: r[i] for i in range(D.NRES) if r[i]}
        k = s.structure_at[loc]
        if k >= 0:
            entry["structure"] = {"seat": k // NS, "kind": D.STRUCTURES[k % NS]}
        if s.encounter_tokens[loc]:
            entry["encounter_token"] = True
        if entry:
            entry["controller"] = s.controller(loc)
            board[D.LOC_NAMES[loc]] = entry
    players = []
    for q in range(n):
        pl: dict[str, Any] = {
            "seat": q,
            "faction": D.FACTION_IDS[s.faction[q]] if s.faction[q] >= 0 else None,
            "mat": D.MAT_IDS[s.mat[q]] if s.mat[q] >= 0 else None,
        }
        if s.faction[q] >= 0 and s.mat[q] >= 0 and s.order:
            pl.update(
                {
                    "power": s.power[q],
                    "popularity": s.popularity[q],
                    "coins": s.coins[q],
                    "stars": {
                        D.STAR_SOURCES[i]: s.stars[q * NSTAR + i]
                        for i in range(NSTAR)
                        if s.stars[q * NSTAR + i]
                    },
                    "star_total": s.star_total[q],
                    "combat_cards": sum(s.hand[q * NV : q * NV + NV]),
                    "objectives": len(s.objectives[q]),
                    "upgrades": [
                        D.TOP_BOXES[i]["id"]
                        for i in range(len(D.TOP_BOXES))
                        if s.upgrades[q] >> i & 1
                    ],
                    "cubes": {D.BOTTOM_ACTIONS[b]: s.cubes[q * NB + b] for b in range(NB)},
                    "bottom_costs": {D.BOTTOM_ACTIONS[b]: bottom_cost(s, q, b) for b in range(NB)},
                    "recruits": [D.BOTTOM_ACTIONS[b] for b in range(NB) if s.recruits[q] >> b & 1],
                    "enlist_spaces_used": [
                        D.ENLIST_SPACE_IDS[k]
                        for k in range(len(D.ENLIST_SPACES))
                        if s.enlist_spaces[q] >> k & 1
                    ],
                    "mechs": [
                        D.FACTIONS[s.faction[q]]["mech_abilities"][i]
                        for i in range(D.MECHS)
                        if s.mech_loc[q * D.MECHS + i] >= 0
                    ],
                    "structures": {
                        D.STRUCTURES[k]: D.LOC_NAMES[s.structure_loc[q * NS + k]]
                        for k in range(NS)
                        if s.structure_loc[q * NS + k] >= 0
                    },
                    "workers_out": s.workers_out(q),
                    "last_section": s.last_section[q] + 1 if s.last_section[q] >= 0 else None,
                    "factory_card": s.factory_card[q] if s.factory_card[q] >= 0 else None,
                }
            )
        if seat == q:
            pl["hand"] = [D.CARD_VALUES[i] for i in range(NV) for _ in range(s.hand[q * NV + i])]
            pl["objective_cards"] = sorted(s.objectives[q])
            pl["discarded_objectives"] = sorted(s.objectives_discarded[q])
        players.append(pl)
    obs: dict[str, Any] = {
        "game": "scythe",
        "seat": seat,
        "players": n,
        "turn": s.turns,
        "active": s.active,
        "order": list(s.order),
        "phase": PHASE_NAMES[s.phase],
        "current": s.current_player(),
        "prompt": None,
        "tile": D.TILE_IDS[s.structure_tile] if s.structure_tile >= 0 else None,
        "combat_deck": sum(s.combat_deck),
        "combat_discard": {
            str(D.CARD_VALUES[i]): s.combat_discard[i] for i in range(NV) if s.combat_discard[i]
        },
        "factory_offer": len(s.factory_offer),
        "revealed_objectives": list(s.objectives_revealed),
        "encounter_deck": {
            "unknown": len(unknown_cards(s)),
            "bottom": list(s.encounter_bottom),
        },
        "board": board,
        "player_state": players,
    }
    pr = s.prompt()
    if pr is not None:
        obs["prompt"] = pr.to_json()
    if s.phase in (
        TOP,
        MOVE_UNIT,
        CARRY,
        STEP,
        TRADE_SECOND,
        PRODUCE,
        COMBAT_CHOOSE,
        ARTILLERY,
        COMMIT,
        RETREAT,
        BOTTOM,
        PAY,
        BENEFIT,
        END,
        ENCOUNTER,
        GAIN,
        FACTORY_OFFER,
        PAY_CARD,
    ):
        obs["section"] = s.section + 1 if s.section >= 0 else None
        obs["units_moved"] = s.units_moved
        if s.move.kind >= 0:
            obs["selected"] = {
                "kind": UNIT_NAMES[s.move.kind],
                "at": D.LOC_NAMES[s.unit_location(s.active, s.move.kind, s.move.index)],
                "carrying": {
                    "workers": len(s.move.workers),
                    **{
                        D.RESOURCES[r]: s.move.resources[r]
                        for r in range(D.NRES)
                        if s.move.resources[r]
                    },
                },
            }
        if s.combats:
            obs["combats"] = [D.LOC_NAMES[t] for t in s.combats]
    if s.combat is not None and s.phase != OVER:
        cview: dict[str, Any] = {
            "territory": D.LOC_NAMES[s.combat.territory],
            "attacker": s.combat.attacker,
            "defender": s.combat.defender,
        }
        if s.commitments is not None:
            cview["commitments"] = s.commitments.view(seat)
        obs["combat"] = cview
    if s.encounter_card >= 0:
        obs["encounter"] = {
            "card": s.encounter_card,
            "territory": D.LOC_NAMES[s.encounter_loc],
            "options": D.ENCOUNTER_BY_NUMBER[s.encounter_card]["options"],
            "chosen": [k + 1 for k in s.encounter_chosen],
        }
    if s.pending_gains and s.phase == GAIN:
        obs["pending_gains"] = [list(g) for g in s.pending_gains]
    if seat is not None and s.factory_offer_seen[seat]:
        obs["factory_offer_cards"] = sorted(s.factory_offer)
    if seat is not None:
        known = {}
        for h in range(n):
            row = s.known_cards[(seat * n + h) * NV : (seat * n + h) * NV + NV]
            if h != seat and any(row):
                known[str(h)] = [D.CARD_VALUES[i] for i in range(NV) for _ in range(row[i])]
        if known:
            obs["known_cards"] = known
    if s.phase == OVER:
        obs["result"] = {
            "returns": s.returns(),
            "breakdown": s.final,
            "reason": s.end_reason,
            "ended_by": ended_by(s.end_reason),
        }
    obs["log"] = visible_log(s.log, seat if seat is not None else -1) if log else []
    return obs


def resample(s: Position, seat: int | None, rng: random.Random) -> None:
    """Redraw in ``s`` (a copy) what ``seat`` cannot know: others' cards and objectives,
    unseen offers."""
    n = s.n
    if not s.order:
        return  # before the deal completes nothing secret exists yet
    others = [q for q in range(n) if q != seat]
    # combat cards: pool = deck + others' hands minus what seat knows about them
    pool = list(s.combat_deck)
    sizes = {}
    for q in others:
        sizes[q] = sum(s.hand[q * NV : q * NV + NV])
        for i in range(NV):
            kn = s.known_cards[(seat * n + q) * NV + i] if seat is not None else 0
            pool[i] += s.hand[q * NV + i] - kn
    cards = [i for i in range(NV) for _ in range(pool[i])]
    rng.shuffle(cards)
    for q in others:
        for i in range(NV):
            kn = s.known_cards[(seat * n + q) * NV + i] if seat is not None else 0
            s.hand[q * NV + i] = kn
        need = sizes[q] - sum(s.hand[q * NV : q * NV + NV])
        for _ in range(need):
            s.hand[q * NV + cards.pop()] += 1
    s.combat_deck = [0] * NV
    for i in cards:
        s.combat_deck[i] += 1
    # a pending commitment by someone else is redrawn from the new hand
    if s.commitments is not None:

        def draw(q: int, _: Any) -> list[Any]:
            opts = commit_options(s, q)
            pick = opts[rng.randrange(len(opts))]
            assert isinstance(pick, Commit)
            return [pick.dial, list(pick.cards)]

        s.commitments = s.commitments.redrawn(seat, draw)
    # objectives
    known_obj = set(s.objectives_revealed)
    if seat is not None:
        known_obj |= set(s.objectives[seat]) | set(s.objectives_discarded[seat])
    opool = [o["number"] for o in D.OBJECTIVES if o["number"] not in known_obj]
    rng.shuffle(opool)
    for q in others:
        s.objectives[q] = sorted(opool.pop() for _ in s.objectives[q])
        s.objectives_discarded[q] = [opool.pop() for _ in s.objectives_discarded[q]]
    # factory offer, unless seat has seen it
    if seat is None or not s.factory_offer_seen[seat]:
        held = {c for c in s.factory_card if c >= 0}
        fpool = [c for c in D.FACTORY_NUMBERS if c not in held]
        rng.shuffle(fpool)
        s.factory_offer = [fpool.pop() for _ in s.factory_offer]
    s.legal_cache = None
