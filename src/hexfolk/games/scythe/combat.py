"""Combat (SR-42..SR-46, SR-41 abilities, OQ-6, OQ-8).

After all movement (SR-31) each territory holding the mover's and an opponent's character or
mechs is fought (the mover picks the order, :func:`next_combat`):

* C1 :func:`combat_step` - pre-combat abilities, attacker then defender: Artillery
  (Crimea... the Artillery mech: pay 1 power, opponent loses 2), Scout (take a random card),
  Disarm (on tunnels, OQ-5);
* C2 :func:`commit` - both commit a dial and up to :func:`commit_limit` cards in secret;
* C3-C6 :func:`resolve_combat` - reveal, pay, ties to the attacker, a star for the winner,
  popularity lost for displacing workers (SR-44; Camaraderie keeps it);
* C7 :func:`retreat_loser` - the loser's units go home (Seaworthy: a lake, OQ-8), a
  consolation card if it committed 7 or more.
"""

from __future__ import annotations

from typing import Any

from hexfolk.core import Action, Commitments
from hexfolk.games.scythe import data as D
from hexfolk.games.scythe.actions import Commit, Fight, Retreat, UseArtillery
from hexfolk.games.scythe.encounters import after_move
from hexfolk.games.scythe.log_forms import LOG
from hexfolk.games.scythe.phases import (
    ARTILLERY,
    COMBAT_CHOOSE,
    COMBAT_STEP,
    COMMIT,
    NEXT_COMBAT,
    PHASE_NAMES,
    RETREAT,
)
from hexfolk.games.scythe.position import NS, NV, Combat, Position
from hexfolk.games.scythe.scoring import end_game
from hexfolk.games.scythe.stars import add_star


def next_combat(s: Position) -> None:
    """SR-43: the next combat of the Move (the mover chooses among several), or, when none is left,
    the encounter (SR-47)."""
    if len(s.combats) > 1:
        s.phase = COMBAT_CHOOSE
    elif s.combats:
        start_combat(s, s.combats[0])
    else:
        after_move(s)


def start_combat(s: Position, loc: int) -> None:
    """SR-43: open the combat on ``loc``: the mover attacks the opponent with a character or mech
    there."""
    p = s.active
    defender = s.enemy_with_combat_units(p, loc)
    s.combat = Combat(loc, p, defender)
    s.write_log(None, "combat", D.LOC_NAMES[loc], p, defender)
    combat_step(s)


def combat_step(s: Position) -> None:
    """SR-43 C1: the abilities used before committing, attacker first (stages 0-2), then
    the defender (3-5): Artillery (asked), Scout (a chance outcome), Disarm (automatic).
    Then C2: both commit in secret."""
    combat = s.combat
    assert combat is not None
    loc, attacker, defender, stage = (
        combat.territory,
        combat.attacker,
        combat.defender,
        combat.stage,
    )
    while stage < 6:
        me = attacker if stage < 3 else defender
        opp = defender if stage < 3 else attacker
        sub = stage % 3
        stage += 1
        combat.stage = stage
        ab = s.abilities[me]
        if sub == 0 and ab & D.A_ARTILLERY and s.power[me] >= D.RULES["artillery"]["cost_power"]:
            combat.artillery_seat = me
            s.phase = ARTILLERY
            return
        if sub == 1 and ab & D.A_SCOUT and sum(s.hand[opp * NV : opp * NV + NV]):
            s.chance.append(("scout", me, opp))
            s.continuation = COMBAT_STEP
            return
        mine = s.structure_loc[me * NS + D.MINE]
        on_tunnel = D.IS_TUNNEL[loc] or (
            not s.game.options["oq5_disarm_tunnels_only"] and loc == mine
        )
        if sub == 2 and ab & D.A_DISARM and on_tunnel:
            s.write_log(None, "disarm", me)
            s.lose(opp, "power", D.RULES["disarm"]["opponent_loses"])
    s.commitments = Commitments((attacker, defender))
    s.phase = COMMIT


def commit_limit(s: Position, p: int, loc: int) -> int:
    """SR-43 C2: cards allowed = own characters/mechs there (+1 People's Army)."""
    k = s.combat_units_on[loc * s.n + p]
    if s.abilities[p] & D.A_PEOPLES_ARMY and s.workers_on[loc * s.n + p]:
        k += 1
    return k


def commit_options(s: Position, p: int) -> list[Action]:
    """SR-43 C2: every dial (0 to the power, at most 7) with every choice of cards."""
    assert s.combat is not None
    loc = s.combat.territory
    dial_max = min(D.DIAL_MAX, s.power[p])
    multis = card_choices(s.hand[p * NV : p * NV + NV], commit_limit(s, p, loc))
    return [Commit(d, c) for c in multis for d in range(dial_max + 1)]


def commit(s: Position, p: int, a: Commit) -> None:
    """SR-43 C2 / SR-59: ``p``'s secret commitment. Attacker and defender commit in any
    order; when the second arrives, the two commitments' log lines are put in commitment
    order (attacker first), so the state does not depend on who was first."""
    commits = s.commitments
    assert commits is not None
    commits.commit(p, [a.dial, list(a.cards)])
    s.write_log(None, "commits", p)
    s.write_log(frozenset((p,)), "commits_cards", p, a.dial, list(a.cards))
    if commits.complete():
        first = commits.seats[0]
        tail = s.log[-4:]
        if tail[0][1] != LOG.write("commits", (first,)):  # the defender was first:
            s.log[-4:] = tail[2:] + tail[:2]  # swap the pairs
        resolve_combat(s)


def committing_seats(s: Position) -> list[int]:
    """SR-59: the seats still to commit in secret (both combatants may act at once)."""
    if s.phase != COMMIT or s.chance or s.commitments is None:
        return []
    commits = s.commitments
    return sorted(q for q in commits.seats if commits.value_for(q) is None)


def resolve_combat(s: Position) -> None:
    """SR-43 C3-C7: reveal both commitments, pay them, decide the winner, place its star,
    then the loser retreats."""
    assert s.commitments is not None and s.combat is not None
    combat = s.combat
    loc, attacker, defender = combat.territory, combat.attacker, combat.defender
    vals = s.commitments.reveal()
    totals = {}
    n = s.n
    for q in (attacker, defender):
        dial, cards = vals[q]
        totals[q] = dial + sum(cards)
        s.write_log(None, "reveals", q, dial, list(cards), totals[q])
        # C4: pay the dial, discard the cards face up
        s.power[q] = max(0, s.power[q] - dial)
        for v in cards:
            i = D.CARD_INDEX[v]
            s.hand[q * NV + i] -= 1
            s.combat_discard[i] += 1
            s.forget_card(q, i)
    winner = (
        attacker if totals[attacker] >= totals[defender] else defender
    )  # C3: ties to the attacker
    loser = defender if winner == attacker else attacker
    s.write_log(None, "wins", winner, D.LOC_NAMES[loc])
    ended = add_star(s, winner, "combat")  # C5 (SR-45)
    if winner == attacker:
        dw = s.workers_on[loc * n + defender]
        if dw:
            s.forced_retreat = True
            if not s.abilities[attacker] & D.A_CAMARADERIE:  # C6 / SR-44
                s.lose(attacker, "popularity", dw)
    if totals[loser] >= D.RULES["loser_draw_min_total"]:
        s.chance.append(("draw", loser))  # C7 consolation
    s.commitments = None
    combat.stage = 7
    s.combat_ends_game = ended
    # C7: retreat (Seaworthy may choose an adjacent lake, OQ-8)
    if retreat_options(s, loser)[1:]:
        s.retreat_seat = loser
        s.phase = RETREAT
        return
    retreat_loser(s, loser, D.HOME_OF[s.faction[loser]])


def retreat_options(s: Position, q: int) -> list[int]:
    """SR-43 C7: where ``q``'s units may retreat: home, and for Seaworthy an adjacent lake with no
    opponent unit (SR-35, OQ-8)."""
    home = D.HOME_OF[s.faction[q]]
    out = [home]
    if (
        s.abilities[q] & D.A_SEAWORTHY
        and s.combat is not None
        and s.game.options["oq8_seaworthy_lake_retreat"]
    ):
        loc = s.combat.territory
        lakes = [d for d, _ in D.GEO[loc] if d < D.NTERR and D.IS_LAKE[d]]
        out += sorted(d for d in lakes if not s.has_enemy_units(q, d))
    return out


def retreat_loser(s: Position, q: int, dest: int, workers: bool = True) -> None:
    """SR-43 C7: the loser's character and mechs retreat to ``dest`` (home, or a lake for
    Seaworthy, OQ-8, taking the workers along unless ``workers`` is False); its workers go
    home. Then the next combat, unless the winner's star ended the game."""
    assert s.combat is not None
    loc = s.combat.territory
    if s.character_loc[q] == loc:
        s.place_character(q, dest)
    mech = False
    for i in range(D.MECHS):
        if s.mech_loc[q * D.MECHS + i] == loc:
            s.place_mech(q, i, dest)
            mech = True
    if mech and workers and D.IS_LAKE[dest]:
        # OQ-8: a mech retreating onto a lake takes the workers along
        base = q * D.WORKERS_TOTAL
        for j in range(D.WORKERS_TOTAL):
            if s.worker_loc[base + j] == loc:
                s.place_worker(q, j, dest)
    s.send_workers_home(q, loc)
    s.write_log(None, "retreat", q, D.LOC_NAMES[loc], D.LOC_NAMES[dest])
    s.combats.remove(loc)
    s.retreat_seat = -1
    if s.combat_ends_game:
        end_game(s, "sixth star in combat")
        return
    s.combat = None
    s.continuation = NEXT_COMBAT


def card_choices(counts: list[int], k: int) -> list[tuple[int, ...]]:
    """All multisets of card values of size <= k drawn from ``counts`` (sorted tuples)."""
    out: list[tuple[int, ...]] = [()]

    def rec(i: int, cur: list[int], left: int) -> None:
        if i == NV:
            return
        for take in range(1, min(counts[i], left) + 1):
            nxt = cur + [D.CARD_VALUES[i]] * take
            out.append(tuple(nxt))
            rec(i + 1, nxt, left - take)
        rec(i + 1, cur, left)

    rec(0, [], k)
    out.sort(key=lambda t: (len(t), t))
    return out


# --- the phases of a combat (SR-43) ---------------------------------------------------------------
def legal_choose_combat(s: Position, p: int) -> list[Action]:
    return [Fight(t) for t in s.combats]


def apply_choose_combat(s: Position, p: int, a: Action) -> None:
    assert isinstance(a, Fight)
    start_combat(s, a.loc)


def legal_artillery(s: Position, p: int) -> list[Action]:
    return [UseArtillery(False), UseArtillery(True)]


def apply_artillery(s: Position, p: int, a: Action) -> None:
    """C1, SR-41 Artillery: pay power, the opponent loses power."""
    assert isinstance(a, UseArtillery)
    combat = s.combat
    assert combat is not None
    if a.use:
        me = combat.artillery_seat
        opp = combat.defender if me == combat.attacker else combat.attacker
        s.write_log(None, "artillery", me)
        s.lose(me, "power", D.RULES["artillery"]["cost_power"])
        s.lose(opp, "power", D.RULES["artillery"]["opponent_loses"])
    s.continuation = COMBAT_STEP


def legal_commit(s: Position, p: int) -> list[Action]:
    return commit_options(s, p)


def apply_commit(s: Position, p: int, a: Action) -> None:
    assert isinstance(a, Commit)
    commit(s, p, a)


def prompt_commit(s: Position, p: int) -> tuple[str, dict[str, Any]]:
    assert s.combat is not None
    return "commit power and combat cards in secret", {"territory": D.LOC_NAMES[s.combat.territory]}


def legal_retreat(s: Position, p: int) -> list[Action]:
    """C7: home, or (Seaworthy, OQ-8) an adjacent lake, with or without the workers."""
    assert s.combat is not None
    out: list[Action] = []
    loc = s.combat.territory
    both = s.workers_on[loc * s.n + p] and s.combat_units_on[loc * s.n + p] > (
        s.character_loc[p] == loc
    )
    for x in retreat_options(s, p):
        out.append(Retreat(x))
        if both and D.IS_LAKE[x]:
            out.append(Retreat(x, False))
    return out


def apply_retreat(s: Position, p: int, a: Action) -> None:
    assert isinstance(a, Retreat)
    retreat_loser(s, p, a.loc, a.workers)


def prompt_combat_territory(s: Position, p: int) -> tuple[str, dict[str, Any]]:
    """The prompt of choose-combat, artillery and retreat: the territory fought over."""
    kind = PHASE_NAMES[s.phase]
    if s.combat is None:
        return kind, {}
    return kind, {"territory": D.LOC_NAMES[s.combat.territory]}
