"""Movement (SR-16, SR-25..SR-39): units, steps, carrying, rivers, lakes, tunnels, abilities.

:func:`destinations` is where one step can take a unit (rivers SR-26, lakes SR-35, tunnels
SR-27, home bases SR-29, the faction and mech abilities Riverwalk, Swim, Seaworthy,
Submerge, Township, Underpass, Wayfare SR-36..SR-39); :func:`unit_options` the units that
can move; :func:`start_unit`, :func:`carry`, :func:`step`, :func:`finish_unit` one unit's
move, with what it carries (SR-30, SR-34, SR-35) and who it displaces (SR-31). When all
units moved, :func:`end_movement` starts the combats.
"""

from __future__ import annotations

from typing import Any

from hexfolk.core import Action, IllegalActionError
from hexfolk.games.scythe import data as D
from hexfolk.games.scythe.actions import DONE, STOP, Carry, Done, SelectUnit, Step, Stop
from hexfolk.games.scythe.combat import next_combat
from hexfolk.games.scythe.phases import CARRY, MOVE_UNIT, STEP
from hexfolk.games.scythe.position import CHARACTER, MECH, NS, WORKER, ZERO4, Position


def unit_options(s: Position, p: int) -> list[Action]:
    """SR-16, SR-25: the units ``p`` could start moving (one ``SelectUnit`` per kind and
    territory)."""
    out: list[Action] = []
    mv = s.moved_units
    if not mv & 1:
        loc = s.character_loc[p]
        if destinations(s, p, CHARACTER, loc, False):
            out.append(SelectUnit(CHARACTER, loc))
    seen: set[int] = set()
    for i in range(D.MECHS):
        loc = s.mech_loc[p * D.MECHS + i]
        if loc >= 0 and not mv >> (1 + i) & 1 and loc not in seen:
            seen.add(loc)
            if destinations(s, p, MECH, loc, False):
                out.append(SelectUnit(MECH, loc))
    seen = set()
    for i in range(D.WORKERS_TOTAL):
        loc = s.worker_loc[p * D.WORKERS_TOTAL + i]
        if loc >= 0 and not mv >> (1 + D.MECHS + i) & 1 and loc not in seen:
            seen.add(loc)
            if destinations(s, p, WORKER, loc, False):
                out.append(SelectUnit(WORKER, loc))
    out.sort(key=lambda a: (a.kind, a.loc))  # type: ignore[attr-defined]
    return out


def unit_bit(s: Position, kind: int, i: int) -> int:
    """The bit of a unit in ``moved_units`` (each unit moves once per Move, SR-16)."""
    if kind == CHARACTER:
        return 1
    if kind == MECH:
        return 1 << (1 + i)
    return 1 << (1 + D.MECHS + i)


def pick_unit(s: Position, p: int, kind: int, loc: int) -> int:
    """The index of an unmoved unit of ``kind`` on ``loc``."""
    if kind == CHARACTER:
        return 0
    if kind == MECH:
        for i in range(D.MECHS):
            if s.mech_loc[p * D.MECHS + i] == loc and not s.moved_units >> (1 + i) & 1:
                return i
    else:
        for i in range(D.WORKERS_TOTAL):
            if (
                s.worker_loc[p * D.WORKERS_TOTAL + i] == loc
                and not s.moved_units >> (1 + D.MECHS + i) & 1
            ):
                return i
    raise IllegalActionError("no such unit can move")  # pragma: no cover


def carry_available(s: Position, p: int) -> tuple[int, tuple[int, int, int, int]]:
    """SR-30: what the selected unit could carry here: workers (mechs only) and resource tokens."""
    kind, i = s.move.kind, s.move.index
    loc = s.unit_location(p, kind, i)
    if D.IS_HOME[loc]:
        return 0, ZERO4
    b = loc * D.NRES
    c = s.move.resources  # mid-move, what the unit already holds may be kept
    r = (
        s.resources[b] + c[0],
        s.resources[b + 1] + c[1],
        s.resources[b + 2] + c[2],
        s.resources[b + 3] + c[3],
    )
    w = s.workers_on[loc * s.n + p] if kind == MECH else 0
    return w, r


def cargo_on_lake(s: Position) -> bool:
    """SR-35: the selected unit is on a lake with cargo, which cannot be left there."""
    kind, i = s.move.kind, s.move.index
    loc = s.unit_location(s.active, kind, i)
    return D.IS_LAKE[loc] and (bool(s.move.workers) or any(s.move.resources))


def on_lake(s: Position) -> bool:
    """Whether the selected unit stands on a lake."""
    kind, i = s.move.kind, s.move.index
    return D.IS_LAKE[s.unit_location(s.active, kind, i)]


def workers_to_take(s: Position, p: int) -> int:
    """SR-35 (with OQ-8): the workers the selected mech must take along as it starts its move
    on a lake. Workers brought onto a lake cannot be left there and leave it only carried by
    a mech, so the last of ``p``'s mechs there that has not moved takes every worker; with
    another one still to move, any split is fine."""
    kind, i = s.move.kind, s.move.index
    if kind != MECH or s.move.steps_taken:
        return 0
    loc = s.mech_loc[p * D.MECHS + i]
    if not D.IS_LAKE[loc]:
        return 0
    for j in range(D.MECHS):
        if j != i and s.mech_loc[p * D.MECHS + j] == loc and not s.moved_units >> (1 + j) & 1:
            return 0
    return s.workers_on[loc * s.n + p]


def carry_options(s: Position, p: int) -> list[Action]:
    """SR-30/SR-34/SR-35: what the selected unit may take along now."""
    w, r = carry_available(s, p)
    out: list[Action] = []
    if s.move.steps_taken and on_lake(s):
        # SR-35: nothing is left on a lake; a mech may pick up workers there
        keep = (s.move.resources[0], s.move.resources[1], s.move.resources[2], s.move.resources[3])
        out.append(Carry(len(s.move.workers), keep))
        if w > len(s.move.workers):
            out.append(Carry(w, keep))
        return out
    if s.move.steps_taken:
        # SR-30/SR-34: mid-move, keep the cargo (first), drop it, or load more
        out.append(
            Carry(
                len(s.move.workers),
                (
                    s.move.resources[0],
                    s.move.resources[1],
                    s.move.resources[2],
                    s.move.resources[3],
                ),
            )
        )
    for a in (Carry(0, ZERO4), Carry(w, r)):
        if a not in out:
            out.append(a)
    if w and any(r):
        for a in (Carry(w, ZERO4), Carry(0, r)):
            if a not in out:
                out.append(a)
    must = workers_to_take(s, p)
    if must:
        return [a for a in out if isinstance(a, Carry) and a.workers >= must]
    return out


def carry_ok(s: Position, a: Carry) -> bool:
    """Whether a written carry (``carry 1worker``, ``carry 2oil``) fits what is here (SR-30,
    SR-35)."""
    w, r = carry_available(s, s.deciding_seat())
    if s.move.steps_taken and on_lake(s):
        return len(s.move.workers) <= a.workers <= w and list(a.resources) == s.move.resources
    must = workers_to_take(s, s.deciding_seat())
    return must <= a.workers <= w and all(0 <= x <= y for x, y in zip(a.resources, r))


def selected_destinations(s: Position) -> list[int]:
    """Where the selected unit may step next, with its cargo and steps left."""
    p = s.active
    kind, i = s.move.kind, s.move.index
    loc = s.unit_location(p, kind, i)
    carrying = bool(s.move.workers) or any(s.move.resources)
    return destinations(s, p, kind, loc, carrying, s.move.steps_left - 1)


def destinations(
    s: Position, p: int, kind: int, loc: int, carrying: bool, more: int = 0
) -> list[int]:
    """Where one step can take this unit (SR-25..SR-39); ``more`` = steps left after it.
    A unit with cargo enters a lake only if it can go on to land with it (SR-35)."""
    abilities = s.abilities[p]  # faction and deployed mechs (SR-36..SR-41)
    f = s.faction[p]
    combat_unit = kind != WORKER
    if not combat_unit and (s.enemy_with_combat_units(p, loc) >= 0 or D.IS_LAKE[loc]):
        # SR-31: a worker may not leave a territory with enemy character/mechs;
        # SR-35: a worker leaves a lake only carried by a mech
        return []
    lake_ok = combat_unit and bool(abilities & (D.A_SEAWORTHY | D.A_SUBMERGE))
    out: set[int] = set()
    for d, river in D.GEO[loc]:
        if d >= D.NTERR:
            continue  # SR-29: no step onto a home base
        if D.IS_LAKE[d]:
            if not lake_ok:
                continue
        elif river:
            if combat_unit:
                if not (abilities & D.A_RIVERWALK and D.TERRAIN[d] in D.RIVERWALK_TERRAINS[f]):
                    continue
            elif not abilities & D.A_SWIM:
                continue
        out.add(d)
    if loc < D.NTERR:
        mine = s.structure_loc[p * NS + D.MINE]
        if D.IS_TUNNEL[loc] or loc == mine:
            out.update(D.TUNNELS)
            if mine >= 0:
                out.add(mine)
        if combat_unit:
            # SR-37 Township: controlled villages and the Factory (OQ-11: at the step)
            if abilities & D.A_TOWNSHIP and (
                loc == D.FACTORY_LOC or (D.TERRAIN[loc] == D.VILLAGE and s.controller(loc) == p)
            ):
                out.add(D.FACTORY_LOC)
                out.update(v for v in D.VILLAGES if s.controller(v) == p)
            # SR-38 Underpass: controlled mountains, tunnels and the own Mine
            if abilities & D.A_UNDERPASS and (
                D.IS_TUNNEL[loc]
                or loc == mine
                or (D.TERRAIN[loc] == D.MOUNTAIN and s.controller(loc) == p)
            ):
                out.update(D.TUNNELS)
                if mine >= 0:
                    out.add(mine)
                out.update(m for m in D.MOUNTAINS if s.controller(m) == p)
            if abilities & D.A_SUBMERGE and D.IS_LAKE[loc]:
                out.update(D.LAKES)
    if combat_unit and abilities & D.A_WAYFARE:
        # SR-39: own home base or any inactive home base, one step (OQ-12)
        out.add(D.HOME_OF[f])
        for hb in range(D.NTERR, D.NLOC):
            fac = D.HOME_BASE_FACTION[hb]
            if fac not in D.FACTION_INDEX or D.FACTION_INDEX[fac] not in s.faction:
                out.add(hb)
    out.discard(loc)
    if not combat_unit:
        out = {d for d in out if not D.IS_LAKE[d] and not s.has_enemy_units(p, d)}
    elif carrying:
        out = {
            d
            for d in out
            if not D.IS_LAKE[d]
            or (
                more >= 1
                and not s.has_enemy_units(p, d)
                and destinations(s, p, kind, d, True, more - 1)
            )
        }
    return sorted(out)


def start_unit(s: Position, p: int, kind: int, loc: int) -> None:
    """SR-16, SR-25: select a unit; its steps (Speed +1, SR-40; the Factory card's Move, SR-49);
    first what it carries."""
    i = pick_unit(s, p, kind, loc)
    s.move.kind, s.move.index = kind, i
    s.moved_units |= unit_bit(s, kind, i)
    s.move.start = loc
    s.move.workers = []
    s.move.resources = [0, 0, 0, 0]
    s.move.steps_taken = 0
    base = 1
    if s.factory_move:  # SR-49: the Factory card's Move, one unit up to 2 (Speed 3)
        base = D.FACTORY_BY_NUMBER[s.factory_card[p]]["move_steps"]
    if kind == WORKER:
        s.move.steps_left = base
    else:
        extra = D.RULES["speed_extra_steps"] if s.abilities[p] & D.A_SPEED else 0
        s.move.steps_left = base + extra
    w, r = carry_available(s, p)
    if w or any(r):
        s.phase = CARRY
    else:
        s.phase = STEP


def carry(s: Position, p: int, a: Carry) -> None:
    """SR-30, SR-34: put down what is carried here, pick up the new cargo."""
    kind, i = s.move.kind, s.move.index
    loc = s.unit_location(p, kind, i)
    # mid-move: put down what is carried, then pick up the new cargo
    for r in range(D.NRES):
        s.resources[loc * D.NRES + r] += s.move.resources[r]
    s.move.resources = [0, 0, 0, 0]
    s.move.workers = []
    if a.workers:
        # carried workers that have not moved yet go first (they may still move later)
        base = p * D.WORKERS_TOTAL
        here = [j for j in range(D.WORKERS_TOTAL) if s.worker_loc[base + j] == loc]
        here.sort(key=lambda j: (s.moved_units >> (1 + D.MECHS + j) & 1, j))
        s.move.workers = here[: a.workers]
    for r in range(D.NRES):
        if a.resources[r]:
            s.resources[loc * D.NRES + r] -= a.resources[r]
            s.move.resources[r] += a.resources[r]
    s.phase = STEP


def step(s: Position, p: int, dest: int) -> None:
    """One step of the selected unit with its cargo (SR-25), in the rulebook's order: (1) move; (2)
    a character or mech entering a territory with an opponent's character or mech stops there:
    combat after all movement (SR-31); (3) else the opponent's workers there retreat home and
    the mover loses popularity (SR-31, OQ-6); (4) a character stopping on an encounter token
    stops (SR-32); (5) the unit's move ends when it stopped, has no step left or nowhere to go;
    else it may load or unload (SR-34)."""
    kind, i = s.move.kind, s.move.index
    n = s.n
    s.place_unit(p, kind, i, dest)
    for j in s.move.workers:
        s.place_worker(p, j, dest)
    s.move.steps_taken += 1
    s.move.steps_left -= 1
    stop = False
    if kind != WORKER and dest < D.NTERR:
        opp = s.enemy_with_combat_units(p, dest)
        if opp >= 0:
            stop = True  # SR-31: combat after all movement
        else:
            displaced = 0
            for q in range(n):
                if q != p and s.workers_on[dest * n + q]:
                    displaced += s.send_workers_home(q, dest)
            if displaced:
                # SR-31: workers retreat, the mover loses popularity (OQ-6: even Camaraderie)
                stop = True
                s.forced_retreat = True
                if s.game.options["oq6_camaraderie_combat_only"] or not (
                    s.abilities[p] & D.A_CAMARADERIE
                ):
                    s.lose(p, "popularity", displaced * D.RULES["displacement_popularity_loss"])
        if kind == CHARACTER and s.encounter_tokens[dest]:
            stop = True  # SR-32
            s.character_token = dest
    s.write_log(None, "moves", p, ("character", "mech", "worker")[kind], D.LOC_NAMES[dest])
    if stop or s.move.steps_left <= 0 or not selected_destinations(s):
        finish_unit(s, p)
        return
    w, r = carry_available(s, p)
    if w or any(r):
        s.phase = CARRY  # SR-34: load and unload mid-move


def finish_unit(s: Position, p: int) -> None:
    """The unit's move ends: its cargo is put down (SR-30); next unit, or the end of movement."""
    kind, i = s.move.kind, s.move.index
    loc = s.unit_location(p, kind, i)
    for r in range(D.NRES):
        s.resources[loc * D.NRES + r] += s.move.resources[r]
    s.moves_made.append(
        (kind, i, s.move.start, loc, tuple(s.move.resources), tuple(s.move.workers))
    )
    s.move.workers = []
    s.move.resources = [0, 0, 0, 0]
    s.move.kind, s.move.index = -1, -1
    s.units_moved += 1
    if s.units_moved >= s.max_units:
        end_movement(s)
    else:
        s.phase = MOVE_UNIT


def end_movement(s: Position) -> None:
    """SR-31: after all movement, every territory with the mover's and an opponent's character or
    mechs is a combat."""
    p = s.active
    n = s.n
    s.combats = [
        t
        for t in range(D.NTERR)
        if s.combat_units_on[t * n + p] and s.enemy_with_combat_units(p, t) >= 0
    ]
    next_combat(s)


# --- the phases of a Move (SR-16, SR-25) --------------------------------------------------------
def legal_move_unit(s: Position, p: int) -> list[Action]:
    """Choose the next unit to move, or done."""
    return [DONE, *unit_options(s, p)]


def apply_move_unit(s: Position, p: int, a: Action) -> None:
    if isinstance(a, Done):
        end_movement(s)
    else:
        assert isinstance(a, SelectUnit)
        start_unit(s, p, a.kind, a.loc)


def prompt_move_unit(s: Position, p: int) -> tuple[str, dict[str, Any]]:
    return "choose a unit to move, or done", _moved(s)


def legal_carry(s: Position, p: int) -> list[Action]:
    return carry_options(s, p)


def apply_carry(s: Position, p: int, a: Action) -> None:
    assert isinstance(a, Carry)
    carry(s, p, a)


def prompt_carry(s: Position, p: int) -> tuple[str, dict[str, Any]]:
    return "choose what the unit carries", _moved(s)


def legal_step(s: Position, p: int) -> list[Action]:
    acts: list[Action] = [Step(d) for d in selected_destinations(s)]
    if s.move.steps_taken > 0 and not cargo_on_lake(s):
        acts.insert(0, STOP)
    return acts


def apply_step(s: Position, p: int, a: Action) -> None:
    if isinstance(a, Stop):
        finish_unit(s, p)
    else:
        assert isinstance(a, Step)
        step(s, p, a.loc)


def prompt_step(s: Position, p: int) -> tuple[str, dict[str, Any]]:
    return "choose where the unit steps", _moved(s)


def _moved(s: Position) -> dict[str, Any]:
    return {"units_moved": s.units_moved, "max_units": s.max_units}
