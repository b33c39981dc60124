"""Stars and objectives (SR-10, SR-11, SR-50, SR-51, OQ-3, OQ-10).

A star is placed the moment its condition holds (:func:`check_stars`), at most one per source
(combat: two, Saxony's Dominate: unlimited; objectives: one, Saxony two). Objectives are
revealed in one of the turn's three windows (:data:`~.phases.WINDOW_OF_PHASE`);
:func:`finish_turn` opens the window after the bottom row.
"""

from __future__ import annotations

from hexfolk.core import Action
from hexfolk.games.scythe import data as D
from hexfolk.games.scythe.actions import Reveal
from hexfolk.games.scythe.phases import END, WINDOW_OF_PHASE
from hexfolk.games.scythe.position import ALL_TOP, NB, NS, NSTAR, NV, Position
from hexfolk.games.scythe.scoring import end_game


def star_cap(s: Position, p: int, src: int) -> int:
    """SR-50: how many stars ``p`` may place from source ``src`` (combat 2, objectives 1; Saxony's
    Dominate more, SR-41)."""
    name = D.STAR_SOURCES[src]
    dom = bool(s.abilities[p] & D.A_DOMINATE)
    if name == "combat":
        return 99 if dom else D.RULES["combat_star_max"]
    if name == "objective":
        return D.RULES["saxony_objective_star_max"] if dom else D.RULES["objective_star_max"]
    return 1


def add_star(s: Position, p: int, source: str) -> bool:
    """Place a star if the source allows it; True if that was the player's sixth."""
    src = D.STAR_INDEX[source]
    k = p * NSTAR + src
    if s.star_total[p] >= D.STARS_TO_END or s.stars[k] >= star_cap(s, p, src):
        return False
    s.stars[k] += 1
    s.star_total[p] += 1
    s.write_log(None, "star", p, source, s.star_total[p])
    return s.star_total[p] >= D.STARS_TO_END


def check_stars(s: Position, p: int, tracks_only: bool = False) -> bool:
    """Place every star whose condition holds now; True if the game must end."""
    ended = False
    conds: list[tuple[str, bool]] = []
    if not tracks_only:
        conds += [
            ("upgrades", s.upgrades[p] == ALL_TOP),
            ("mechs", s.mechs_out(p) == D.MECHS),
            ("structures", s.structures_built(p) == NS),
            ("recruits", s.recruits[p] == (1 << NB) - 1),
            ("workers", s.workers_out(p) == D.WORKERS_TOTAL),
        ]
    conds += [("popularity", s.popularity[p] >= D.POP_MAX), ("power", s.power[p] >= D.POWER_MAX)]
    for name, ok in conds:
        if ok and s.stars[p * NSTAR + D.STAR_INDEX[name]] == 0 and add_star(s, p, name):
            ended = True
    return ended


def objective_holds(s: Position, p: int, number: int) -> bool:
    """True if objective ``number``'s condition holds for ``p`` now (data predicate)."""
    test = D.OBJECTIVE_BY_NUMBER[number]["test"]
    pred = test["pred"]
    n = s.n
    ctrl = s.control()

    def mine() -> list[int]:
        return [t for t in range(D.NTERR) if ctrl[t] == p]

    def res_on(t: int) -> list[int]:
        return s.resources[t * D.NRES : t * D.NRES + D.NRES]

    if pred == "control_terrain":
        ti = D.TERRAIN_INDEX[test["terrain"]]
        return sum(1 for t in mine() if D.TERRAIN[t] == ti) >= test["min"]
    if pred == "control_tunnels":
        return sum(1 for t in mine() if D.IS_TUNNEL[t]) >= test["min"]
    if pred == "factory_and_top_power":
        return ctrl[D.FACTORY_LOC] == p and s.power[p] >= max(s.power)
    if pred == "worker_retreated_and_power":
        return s.forced_retreat and p == s.active and s.power[p] >= test["min_power"]
    if pred == "factory_card_mechs_workers":
        return (
            s.factory_card[p] >= 0
            and s.mechs_out(p) >= test["min_mechs"]
            and s.workers_out(p) <= test["max_workers"]
        )
    if pred == "coins_workers_popularity":
        return (
            s.coins[p] <= test["max_coins"]
            and s.workers_out(p) >= test["min_workers"]
            and s.popularity[p] >= test["min_popularity"]
        )
    if pred == "stockpile":
        return any(sum(res_on(t)) >= test["min"] and all(res_on(t)) for t in mine())
    if pred == "min_coins":
        return s.coins[p] >= test["min"]
    if pred == "pieces_on_one_territory":
        for t in mine():
            k = s.workers_on[t * n + p] + s.combat_units_on[t * n + p]
            owner = s.structure_at[t]
            if owner >= 0 and owner // NS == p:
                k += 1
            if k >= test["min"]:
                return True
        return False
    if pred == "hedge":
        return (
            s.upgrades[p] != 0
            and s.mechs_out(p) >= 1
            and s.structures_built(p) >= 1
            and s.recruits[p] != 0
            and all(sum(s.resources[t * D.NRES + r] for t in mine()) for r in range(D.NRES))
        )
    if pred == "workers_equal_recruits":
        return s.workers_out(p) == bin(s.recruits[p]).count("1")
    if pred == "wolf":
        for t in mine():
            if (
                s.character_loc[p] == t
                and s.combat_units_on[t * n + p] - 1 == test["mechs"]
                and s.workers_on[t * n + p] == test["workers"]
                and sum(res_on(t)) >= test["min_resources"]
            ):
                return True
        return False
    if pred == "no_factory_card_near_factory":
        near = sum(1 for t in D.GEO_TERR[D.FACTORY_LOC] if ctrl[t] == p)
        return s.factory_card[p] < 0 and near >= test["min"]
    if pred == "pacifist":
        return (
            s.power[p] <= test["max_power"]
            and s.popularity[p] >= test["min_popularity"]
            and s.workers_out(p) >= test["min_workers"]
        )
    if pred == "shore":
        return any(
            sum(1 for t in D.GEO_TERR[lake] if ctrl[t] == p) >= test["min"] for lake in D.LAKES
        )
    if pred == "foothold":
        return (
            s.structures_built(p) >= test["min_structures"]
            and s.popularity[p] >= test["min_popularity"]
            and s.mechs_out(p) <= test["max_mechs"]
        )
    if pred == "monopoly":
        return any(
            sum(s.resources[t * D.NRES + r] for t in mine()) >= test["min"] for r in range(D.NRES)
        )
    if pred == "factory_card_no_upgrades":
        return s.factory_card[p] >= 0 and bin(s.upgrades[p]).count("1") <= test["max_upgrades"]
    if pred == "tactical":
        return (
            sum(s.hand[p * NV : p * NV + NV]) >= test["min_cards"]
            and s.stars[p * NSTAR + D.STAR_INDEX["combat"]] >= test["min_combat_stars"]
        )
    raise ValueError(f"unknown objective predicate {pred!r}")  # pragma: no cover


def reveal_options(s: Position, p: int) -> list[Action]:
    """SR-51: one reveal per window (before the top action, between the rows, after the
    bottom row) of a held objective whose condition holds now (OQ-3)."""
    if s.reveal_windows_used & WINDOW_OF_PHASE.get(s.phase, 0) or s.stars[
        p * NSTAR + D.STAR_INDEX["objective"]
    ] >= star_cap(s, p, D.STAR_INDEX["objective"]):
        return []
    return [Reveal(o) for o in sorted(s.objectives[p]) if objective_holds(s, p, o)]


def reveal(s: Position, p: int, number: int) -> None:
    """SR-51: reveal objective ``number``: the star, the other card under the deck (Saxony keeps
    it), perhaps the end."""
    s.objectives[p].remove(number)
    s.objectives_revealed.append(number)
    s.reveal_windows_used |= WINDOW_OF_PHASE.get(s.phase, 0)
    s.write_log(None, "reveals_objective", p, number)
    if not s.abilities[p] & D.A_DOMINATE:
        # SR-51: the other card goes to the deck bottom unseen.
        for o in s.objectives[p]:
            s.objectives_discarded[p].append(o)
            s.write_log(frozenset((p,)), "discards_objective", p, o)
        if s.objectives[p]:
            s.write_log_for_others((p,), "discards_objective_hidden", p)
        s.objectives[p] = []
    if add_star(s, p, "objective"):
        end_game(s, "sixth star from an objective")
        return
    if s.phase == END and not reveal_options(s, p):
        s.end_turn()


def finish_turn(s: Position) -> None:
    """The reveal window after the bottom action (SR-7, SR-51). It is offered whenever a
    reveal is possible by public facts (an objective held, the objective-star cap not
    reached, none revealed this turn), so its presence never tells others anything."""
    p = s.active
    cap = star_cap(s, p, D.STAR_INDEX["objective"])
    if (
        s.objectives[p]
        and not s.reveal_windows_used & WINDOW_OF_PHASE[END]
        and s.stars[p * NSTAR + D.STAR_INDEX["objective"]] < cap
    ):
        s.phase = END
        return
    s.end_turn()
