"""The benefits granted by cards: encounter options and Factory tops (SR-12, SR-47, SR-49).

A card's benefit is queued as items (:func:`start_gains`): fixed gains are taken at once
(parts may be declined, SR-12), tokens to place, a worker, a Produce, a granted bottom or
top action. :func:`next_gain` works through the queue, asking (phase ``gain``) only where
there is a choice, then runs the card's continuation.
"""

from __future__ import annotations

from typing import Any

from hexfolk.core import Action
from hexfolk.games.scythe import data as D
from hexfolk.games.scythe.actions import DECLINE_KEY, DONE, SKIP, Done, GainResource, Skip
from hexfolk.games.scythe.mat import apply_benefit, bottom_benefits, produce_options
from hexfolk.games.scythe.phases import GAIN, NEXT_GAIN, PRODUCE, Continuation
from hexfolk.games.scythe.position import Position


def fixed_gains(benefit: list[Any]) -> dict[str, int]:
    """SR-47/SR-49: the fixed gains of a card benefit that may be declined in part, by
    notation name (``cards`` for combat cards), summed over the benefit's items."""
    out: dict[str, int] = {}
    for item in benefit:
        if isinstance(item, dict):
            for name, key in DECLINE_KEY.items():
                if key in item:
                    out[name] = out.get(name, 0) + item[key]
    return out


def decline_fits(benefit: list[Any], decline: tuple[tuple[str, int], ...]) -> bool:
    """Every declined part is a fixed gain of ``benefit``, by at most its amount."""
    gains = fixed_gains(benefit)
    return all(name in gains and amount <= gains[name] for name, amount in decline)


def start_gains(
    s: Position,
    benefit: list[Any],
    loc: int,
    then: Continuation,
    decline: tuple[tuple[str, int], ...] = (),
) -> None:
    """Queue a card's benefit items; ``loc`` is the encounter territory where gains are
    placed (-1: a Factory card, whose gains follow the normal placement rules).
    ``decline`` leaves parts of the fixed gains untaken (SR-47, SR-49; amount 0 = all)."""
    p = s.active
    s.gains_loc = loc
    s.gains_then = then
    left = {DECLINE_KEY[name]: amount or 1 << 30 for name, amount in decline}
    q: list[tuple[Any, ...]] = []
    for item in benefit:
        if isinstance(item, str):
            q.append(("act", (item,)))
            continue
        for k, v in item.items():
            if left.get(k, 0) and isinstance(v, int):
                cut = min(v, left[k])
                left[k] -= cut
                v -= cut
                s.write_log(None, "declines", p, cut, k)
                if v == 0:
                    continue
            if k == "choose":
                q.append(("act", tuple(v)))
            elif k == "resources_any":
                q.append(("res", v))
            elif k == "produce":
                q.append(("produce", v))
            elif k == "worker":
                q.append(("worker", v))
            elif k in D.RES_INDEX:
                q.append(("put", D.RES_INDEX[k], v))
            else:
                s.gain(p, k, v)
    s.pending_gains = q
    s.continuation = NEXT_GAIN


def next_gain(s: Position) -> None:
    """Work through the pending gains: place tokens and workers on the encounter territory, run a
    Produce, ask where there is a choice; then the card's continuation."""
    p = s.active
    while s.pending_gains:
        g = s.pending_gains[0]
        kind = g[0]
        if kind == "put":
            s.resources[s.gains_loc * D.NRES + g[1]] += g[2]
            s.write_log(None, "gains_on", p, g[2], D.RESOURCES[g[1]], D.LOC_NAMES[s.gains_loc])
        elif kind == "worker":
            base = p * D.WORKERS_TOTAL
            made = 0
            for j in range(D.WORKERS_TOTAL):  # the leftmost mat workers (SR-47)
                if made < g[1] and s.worker_loc[base + j] < 0:
                    s.place_worker(p, j, s.gains_loc)
                    made += 1
            s.write_log(None, "gains_workers", p, made, D.LOC_NAMES[s.gains_loc])
        elif kind == "produce":
            s.pending_gains.pop(0)
            s.produce_limit = g[1]
            s.produced = []
            if produce_options(s, p):
                s.phase = PRODUCE
                return
            s.produce_limit = 0
            continue
        elif gain_options(s, p)[1:]:
            s.phase = GAIN
            return
        s.pending_gains.pop(0)
    then = s.gains_then
    s.gains_then = None
    assert then is not None
    s.proceed(then)


def gain_options(s: Position, p: int) -> list[Action]:
    """The choices of the first pending gain: where a gained token goes, or which granted bottom
    action and how (SR-47)."""
    g = s.pending_gains[0]
    loc = s.gains_loc
    if g[0] == "res":
        terrs = [loc] if loc >= 0 else s.worker_territories(p)
        return [DONE, *(GainResource(r, t) for r in range(D.NRES) for t in terrs)]
    out: list[Action] = [SKIP]
    for name in g[1]:
        out += bottom_benefits(s, p, D.BOTTOM_INDEX[name], loc)
    return out


def apply_gain(s: Position, p: int, a: Action) -> None:
    g = s.pending_gains[0]
    if isinstance(a, GainResource):
        s.resources[a.loc * D.NRES + a.resource] += 1
        s.write_log(None, "gains_on", p, 1, D.RESOURCES[a.resource], D.LOC_NAMES[a.loc])
        if g[1] > 1:
            s.pending_gains[0] = ("res", g[1] - 1)
        else:
            s.pending_gains.pop(0)
    else:
        if not isinstance(a, (Skip, Done)):
            apply_benefit(s, p, a)
        s.pending_gains.pop(0)
    s.continuation = NEXT_GAIN


# --- the gain phase: one item of a card's benefit (SR-47, SR-49) ----------------------------------
def legal_gain(s: Position, p: int) -> list[Action]:
    return gain_options(s, p)


def prompt_gain(s: Position, p: int) -> tuple[str, dict[str, Any]]:
    g = s.pending_gains[0]
    if g[0] == "res":
        return f"place {g[1]} gained resource token(s), or done", {"resources": g[1]}
    return f"take the granted {' or '.join(g[1])}, or skip", {"actions": list(g[1])}
