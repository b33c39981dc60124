"""The heuristic evaluation of a Scythe position: each seat's projected final fortune.

``potential(state, seat)`` is the fortune the seat would score if the game ended now
(SR-53..SR-55: coins, stars, territories and resource pairs by popularity band, the structure
bonus tile) plus credit for what will earn coins later: upgrades, mechs, structures, recruits,
workers off the mat, power, combat cards and spare resources (weights in :mod:`.weights`).
``evaluate(state)`` turns the potentials into per-seat values in [0, 1] for the search bot:
a logistic of each seat's lead over the best other seat; at the end, the real returns.

Only public facts and the seat's own hand are read, so the value of a sampled world does not
depend on the opponents' hidden cards.
"""

from __future__ import annotations

import math

from hexfolk.bots.scythe.weights import DEFAULT, Weights
from hexfolk.core import State
from hexfolk.games.scythe import data as D
from hexfolk.games.scythe.state import ScytheState

NV = len(D.CARD_VALUES)
NB = len(D.BOTTOM_ACTIONS)
NS = len(D.STRUCTURES)
_BANDS = sorted(D.RULES["popularity_bands"], key=lambda b: b["min"])
ALL_TOP = (1 << len(D.TOP_BOXES)) - 1
UPGRADE, DEPLOY, BUILD, ENLIST = (
    D.BOTTOM_INDEX[b] for b in ("upgrade", "deploy", "build", "enlist")
)


def benefit_available(s: ScytheState, p: int, b: int) -> bool:
    """Whether bottom action ``b`` would still give ``p`` something."""
    if b == UPGRADE:
        if s.upgrades[p] == ALL_TOP:
            return False
        return any(s.cubes[p * NB + bb] < s.cube_slots(p, bb) for bb in range(NB))
    if b == DEPLOY:
        return s.mechs_out(p) < D.MECHS
    if b == BUILD:
        return s.structures_built(p) < NS
    return s.recruits[p] != (1 << NB) - 1


def available_resources(s: ScytheState, p: int, ctrl: list[int]) -> list[int]:
    """Per resource: tokens on territories ``p`` controls (SR-14), in one pass."""
    out = [0] * D.NRES
    res = s.resources
    for t in range(D.NTERR):
        if ctrl[t] == p:
            b = t * D.NRES
            for r in range(D.NRES):
                out[r] += res[b + r]
    return out


def fortune_now(s: ScytheState, p: int) -> tuple[float, int]:
    """SR-53..SR-55 fortune of ``p`` if the game ended now, and its resource count: the
    engine's own :meth:`~hexfolk.games.scythe.state.ScytheState.score_breakdown`."""
    breakdown = s.score_breakdown(p)
    return float(breakdown["fortune"]), int(breakdown["resources"])


def potential(s: ScytheState, p: int, w: Weights = DEFAULT, ctrl: list[int] | None = None) -> float:
    """Projected final fortune of seat ``p`` (coins), see the module docstring."""
    if ctrl is None:
        ctrl = s.control()
    total, resources = fortune_now(s, p)
    avail = available_resources(s, p, ctrl)
    for sec in D.SECTIONS[s.mat[p]]:
        b, r = sec[1], sec[2]
        if benefit_available(s, p, b):
            cost = s.bottom_cost(p, b)
            total += w.enable * (min(1.0, avail[r] / cost) if cost > 0 else 1.0)
    pop = s.popularity[p]
    total += s.star_total[p] * w.star_extra
    total += min(resources, w.resource_cap) * w.resource_use
    total += bin(s.upgrades[p]).count("1") * w.upgrade
    total += s.mechs_out(p) * w.mech
    total += s.structures_built(p) * w.structure
    total += bin(s.recruits[p]).count("1") * w.recruit
    total += s.workers_out(p) * w.worker
    total += min(s.power[p], w.power_cap) * w.power
    total += min(sum(s.hand[p * NV : p * NV + NV]), w.card_cap) * w.card
    total += pop * w.popularity
    for band in _BANDS[1:]:
        gap = band["min"] - pop
        if 0 < gap <= 3:
            total += w.band_edge * (4 - gap) / 4.0  # close to the next band: worth reaching
    if s.factory_card[p] >= 0:
        total += w.factory_card
    return total


def potentials(s: ScytheState, w: Weights = DEFAULT) -> list[float]:
    """:func:`potential` of every seat."""
    ctrl = s.control()
    return [potential(s, p, w, ctrl) for p in range(s.n)]


def lead_values(pots: list[float], scale: float) -> list[float]:
    """Per seat: logistic of the lead over the best other seat, in (0, 1)."""
    out = []
    for p, v in enumerate(pots):
        best_other = max(x for q, x in enumerate(pots) if q != p)
        d = (v - best_other) / scale
        d = max(-30.0, min(30.0, d))
        out.append(1.0 / (1.0 + math.exp(-d)))
    return out


def evaluate(state: State, w: Weights = DEFAULT) -> list[float]:
    """Per-seat values in [0, 1]: the returns at the end, else :func:`lead_values`."""
    if state.is_terminal():
        return [float(r) for r in state.returns()]
    assert isinstance(state, ScytheState)
    if not state.order:
        n = state.game.num_players
        return [1.0 / n] * n
    return lead_values(potentials(state, w), w.eval_scale)
