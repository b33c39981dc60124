"""Chance outcomes: the deal, combat-card draws (SR-46 reshuffle), Scout, encounter cards."""

from __future__ import annotations

from typing import Any

from hexfolk.core import Action, IllegalActionError
from hexfolk.games.scythe import data as D
from hexfolk.games.scythe.actions import (
    DealFaction,
    DealFactory,
    DealMat,
    DealObjective,
    DealTile,
    DrawCard,
    DrawEncounter,
    ScoutCard,
)
from hexfolk.games.scythe.encounters import unknown_cards
from hexfolk.games.scythe.phases import OVER
from hexfolk.games.scythe.position import NV, Position
from hexfolk.games.scythe.setup import deal_weight


def chance_ready(s: Position, item: tuple[Any, ...]) -> bool:
    """Whether a pending chance event can happen now; a draw from an empty deck first reshuffles
    the discard (SR-46), and a draw or Scout with nothing left is dropped."""
    kind = item[0]
    if kind == "draw":
        if sum(s.combat_deck) == 0:
            if sum(s.combat_discard) == 0:
                return False
            # SR-46: reshuffle the discard into the deck.
            s.combat_deck = s.combat_discard
            s.combat_discard = [0] * NV
            s.write_log(None, "reshuffle")
        return True
    if kind == "scout":
        v = item[2]
        return sum(s.hand[v * NV : v * NV + NV]) > 0
    return True


def chance_outcomes(s: Position) -> list[tuple[Action, float]]:
    """The outcomes of the pending chance event with their probabilities (the deal is uniform over
    valid deals, OQ-19)."""
    if not s.chance or s.phase == OVER:
        return []
    item = s.chance[0]
    kind = item[0]
    if kind == "faction":
        seat = item[1]
        fw = [
            (f, deal_weight(s, seat, faction=f))
            for f in range(len(D.FACTIONS))
            if f not in s.faction
        ]
        ftot = sum(w for _, w in fw)
        return [(DealFaction(f), w / ftot) for f, w in fw if w]
    if kind == "mat":
        seat = item[1]
        weights = []
        for m in range(len(D.MATS)):
            if m in s.mat:
                continue
            w = deal_weight(s, seat, mat=m)
            if w:
                weights.append((m, w))
        tot = sum(w for _, w in weights)
        return [(DealMat(m), w / tot) for m, w in weights]
    if kind == "tile":
        return [(DealTile(t), 1.0 / len(D.TILE_IDS)) for t in range(len(D.TILE_IDS))]
    if kind == "offer":
        free = [c for c in D.FACTORY_NUMBERS if c not in s.factory_offer]
        return [(DealFactory(c), 1.0 / len(free)) for c in free]
    if kind == "objective":
        used = set(s.objectives_revealed)
        for hs in s.objectives:
            used.update(hs)
        for hs in s.objectives_discarded:
            used.update(hs)
        free = [o["number"] for o in D.OBJECTIVES if o["number"] not in used]
        return [(DealObjective(o), 1.0 / len(free)) for o in free]
    if kind == "draw":
        tot = sum(s.combat_deck)
        return [
            (DrawCard(D.CARD_VALUES[i]), s.combat_deck[i] / tot)
            for i in range(NV)
            if s.combat_deck[i]
        ]
    if kind == "encounter":
        free = unknown_cards(s)
        return [(DrawEncounter(c), 1.0 / len(free)) for c in free]
    if kind == "scout":
        v = item[2]
        h = s.hand[v * NV : v * NV + NV]
        tot = sum(h)
        return [(ScoutCard(D.CARD_VALUES[i]), h[i] / tot) for i in range(NV) if h[i]]
    return []


def apply_chance(s: Position, action: Action) -> None:
    item = s.chance.pop(0)
    kind = item[0]
    if isinstance(action, DealFaction):
        s.faction[item[1]] = action.faction
    elif isinstance(action, DealMat):
        s.mat[item[1]] = action.mat
    elif isinstance(action, DealTile):
        s.structure_tile = action.tile
        s.write_log(None, "tile", D.TILE_IDS[action.tile])
    elif isinstance(action, DealFactory):
        s.factory_offer.append(action.number)
    elif isinstance(action, DealObjective):
        s.objectives[item[1]].append(action.number)
        s.write_log(frozenset((item[1],)), "draws_objective", item[1], action.number)
    elif isinstance(action, DrawCard):
        p = item[1]
        i = D.CARD_INDEX[action.value]
        s.combat_deck[i] -= 1
        s.hand[p * NV + i] += 1
        s.write_log(frozenset((p,)), "draws_card_value", p, action.value)
        s.write_log_for_others((p,), "draws_card", p)
    elif isinstance(action, DrawEncounter):
        s.encounter_card = action.number
        s.write_log(None, "draws_encounter", item[1], action.number)
    elif isinstance(action, ScoutCard):
        taker, victim = item[1], item[2]
        i = D.CARD_INDEX[action.value]
        s.hand[victim * NV + i] -= 1
        s.hand[taker * NV + i] += 1
        kv = (victim * s.n + taker) * NV + i
        s.known_cards[kv] += 1
        kt = (taker * s.n + victim) * NV + i
        if s.known_cards[kt] > 0:
            s.known_cards[kt] -= 1
        vis = frozenset((taker, victim))
        s.write_log(vis, "scouts_value", taker, action.value, victim)
        s.write_log_for_others((taker, victim), "scouts", taker, victim)
    else:  # pragma: no cover - guarded by is_possible_chance
        raise IllegalActionError(f"unexpected chance outcome {action} for {kind}")
