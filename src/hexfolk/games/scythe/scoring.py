"""Scoring and the end of the game (SR-11, SR-53..SR-56, OQ-1, OQ-2, OQ-9).

:func:`score_breakdown` is the one fortune formula (popularity band x stars, territories,
resource pairs, the structure bonus tile, coins); bots and the end of the game both call it.
:func:`end_game` closes the game on a sixth star.
"""

from __future__ import annotations

from typing import Any

from hexfolk.games.scythe import data as D
from hexfolk.games.scythe.log_forms import GAME_OVER_FORMS
from hexfolk.games.scythe.phases import OVER
from hexfolk.games.scythe.position import NS, Position


def tile_count(s: Position, p: int) -> int:
    """What the structure bonus tile counts for ``p`` (OQ-1, OQ-2)."""
    tile = D.TILE_IDS[s.structure_tile] if s.structure_tile >= 0 else ""
    mine = [x for x in s.structure_loc[p * NS : p * NS + NS] if x >= 0]
    near: set[int] = set()
    for t in mine:
        near.update(d for d in D.GEO_TERR[t] if d != t)
    if tile == "adjacent_tunnels":
        return sum(1 for t in near if D.IS_TUNNEL[t])
    if tile == "adjacent_lakes":
        return sum(1 for t in near if D.IS_LAKE[t])
    if tile == "adjacent_encounters":
        return sum(1 for t in near if D.HAS_ENCOUNTER[t])
    if tile == "on_tunnels":
        return sum(1 for t in mine if D.IS_TUNNEL[t])
    if tile == "on_farms_or_tundra":
        ok = {D.TERRAIN_INDEX["farm"], D.TERRAIN_INDEX["tundra"]}
        return sum(1 for t in mine if D.TERRAIN[t] in ok)
    if tile == "in_a_row":
        have = set(mine)
        best = 1 if mine else 0
        for t in mine:
            q, r = D.AXIAL[t]
            for dq, dr in ((1, 0), (0, 1), (-1, 1)):
                k = 1
                while D.AXIAL_INDEX.get((q + dq * k, r + dr * k), -1) in have:
                    k += 1
                best = max(best, k)
        return best
    return 0


def score_breakdown(s: Position, p: int) -> dict[str, Any]:
    """SR-53..SR-55: the fortune of ``p`` now, itemised."""
    b = D.band(s.popularity[p])
    territories = 0
    resources = 0
    for t in range(D.NTERR):
        if s.controller(t) == p:
            territories += D.RULES["factory_territory_value"] if t == D.FACTORY_LOC else 1
            resources += sum(s.resources[t * D.NRES : t * D.NRES + D.NRES])
    tile_coins = (
        D.ladder_coins(D.TILE_IDS[s.structure_tile], tile_count(s, p))
        if s.structure_tile >= 0
        else 0
    )
    stars = s.star_total[p]
    total = (
        s.coins[p]
        + stars * b["star"]
        + territories * b["territory"]
        + (resources // 2) * b["resources2"]
        + tile_coins
    )
    return {
        "coins": s.coins[p],
        "stars": stars,
        "star_coins": stars * b["star"],
        "territories": territories,
        "territory_coins": territories * b["territory"],
        "resources": resources,
        "resource_coins": (resources // 2) * b["resources2"],
        "tile_coins": tile_coins,
        "popularity": s.popularity[p],
        "power": s.power[p],
        "units_and_structures": s.workers_out(p) + s.mechs_out(p) + s.structures_built(p),
        "fortune": total,
    }


def rank_key(s: Position, p: int) -> tuple[int, ...]:
    """SR-56: fortune, then the tie-breakers."""
    final = s.final[p]
    return (final["fortune"], *(final[k] for k in D.RULES["tie_breakers"]))


def end_game(s: Position, reason: str) -> None:
    """SR-11, SR-53..SR-56: the game ends: units in unresolved combats go back with their cargo
    (OQ-9), every fortune is scored, the best share the win (OQ-16)."""
    p = s.active
    # OQ-9: units left in unresolved combats return with their cargo.
    for loc in s.combats:
        for kind, i, start, end, cargo_r, cargo_w in reversed(s.moves_made):
            if end != loc or s.unit_location(p, kind, i) != loc:
                continue
            s.place_unit(p, kind, i, start)
            for j in cargo_w:
                if s.worker_loc[p * D.WORKERS_TOTAL + j] == loc:
                    s.place_worker(p, j, start)
            for r in range(D.NRES):
                take = min(cargo_r[r], s.resources[loc * D.NRES + r])
                s.resources[loc * D.NRES + r] -= take
                s.resources[start * D.NRES + r] += take
    s.combats = []
    s.chance = []
    s.continuation = None
    s.commitments = None
    s.end_reason = reason
    s.final = [score_breakdown(s, q) for q in range(s.n)]
    keys = [rank_key(s, q) for q in range(s.n)]
    best = max(keys)
    winners = [q for q in range(s.n) if keys[q] == best]
    s.result = [1.0 / len(winners) if q in winners else 0.0 for q in range(s.n)]
    form = GAME_OVER_FORMS.get(reason)
    if form is None:
        s.write_log(None, "game_over_because", reason, winners)
    else:
        s.write_log(None, form, winners)
    s.phase = OVER
