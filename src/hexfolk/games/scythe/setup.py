"""Setup (SR-57, SR-58, OQ-19): dealing factions and mats, then every player's start."""

from __future__ import annotations

from functools import lru_cache
from itertools import permutations

from hexfolk.games.scythe import data as D
from hexfolk.games.scythe.phases import SECTION
from hexfolk.games.scythe.position import Position


@lru_cache(maxsize=4096)
def count_deals(factions: tuple[int, ...], mats: tuple[int, ...], allow_banned: bool) -> int:
    """Complete faction/mat deals extending the partial one (-1 = undealt) with no banned pair
    (SR-58) unless allowed."""
    n = len(factions)
    free_f = [f for f in range(len(D.FACTIONS)) if f not in factions]
    free_m = [m for m in range(len(D.MATS)) if m not in mats]
    empty_f = [s for s in range(n) if factions[s] < 0]
    empty_m = [s for s in range(n) if mats[s] < 0]
    count = 0
    for pf in permutations(free_f, len(empty_f)):
        fs = list(factions)
        for s, f in zip(empty_f, pf):
            fs[s] = f
        for pm in permutations(free_m, len(empty_m)):
            ms = list(mats)
            for s, m in zip(empty_m, pm):
                ms[s] = m
            if allow_banned or all((fs[s], ms[s]) not in D.BANNED_PAIRS for s in range(n)):
                count += 1
    return count


def begin(s: Position, factions: list[int] | None, mats: list[int] | None) -> None:
    """SR-57: queue the deal. Factions and mats not fixed by the options (None: no seat's;
    ``-1``: that seat's) are dealt as chance outcomes (seat by seat, uniform over the deals
    with no banned pair that keep what is fixed, SR-58, OQ-19); then every player's start."""
    n = s.n
    for seat in range(n):
        if factions is not None and factions[seat] >= 0:
            s.faction[seat] = factions[seat]
    for seat in range(n):
        if mats is not None and mats[seat] >= 0:
            s.mat[seat] = mats[seat]
    for seat in range(n):
        if factions is None or factions[seat] < 0:
            s.chance.append(("faction", seat))
    for seat in range(n):
        if mats is None or mats[seat] < 0:
            s.chance.append(("mat", seat))
    s.chance.append(("init",))


def deal_weight(s: Position, seat: int, faction: int = -1, mat: int = -1) -> int:
    """Valid complete deals if ``seat`` gets this faction/mat (OQ-19: uniform)."""
    fs = list(s.faction)
    ms = list(s.mat)
    if faction >= 0:
        fs[seat] = faction
    if mat >= 0:
        ms[seat] = mat
    return count_deals(tuple(fs), tuple(ms), s.allow_banned_pairs)


def init_players(s: Position) -> None:
    """SR-57: every player's start: tracks from the mat and faction, the character home, two
    workers; the seating and the first player; then the tile, the Factory offer, objectives and
    combat cards as chance events."""
    n = s.n
    for p in range(n):
        f, m = s.faction[p], s.mat[p]
        fac, mat = D.FACTIONS[f], D.MATS[m]
        s.power[p] = fac["power"]
        s.popularity[p] = mat["popularity"]
        s.coins[p] = mat["coins"]
        s.abilities[p] = D.FACTION_ABILITY_BIT[f]
        s.place_character(p, D.HOME_OF[f])
        for i, loc in enumerate(D.START_WORKERS[f]):
            s.place_worker(p, i, loc)
    s.order = sorted(range(n), key=lambda p: D.FACTIONS[s.faction[p]]["seat_order"])
    first = min(range(n), key=lambda p: D.MATS[s.mat[p]]["number"])
    s.active = first
    seating = [[p, D.FACTION_IDS[s.faction[p]], D.MAT_IDS[s.mat[p]]] for p in s.order]
    s.write_log(None, "seating", seating, first)
    s.chance.append(("tile",))
    for _ in range(n + 1):
        s.chance.append(("offer",))
    for p in range(n):
        for _ in range(D.MATS[s.mat[p]]["objectives"]):
            s.chance.append(("objective", p))
    for p in range(n):
        for _ in range(D.FACTIONS[s.faction[p]]["combat_cards"]):
            s.chance.append(("draw", p))
    s.phase = SECTION
