"""The robber and the 7 (IR-41..IR-47): discards, moving the robber, the steal.

A roll of 7 (:func:`seven`) makes every seat holding more cards than the limit discard half,
all at once as hidden commitments (IR-41); then the active player moves the robber (IR-42) to
another hex, robbing one opponent with a building there and cards in hand (IR-43), whose card
the table draws (:func:`steal`, chance). A knight (:mod:`.development`) moves it too. With the
friendly robber (IR-46) hexes touching players with few visible points are off limits; with
the robber off (IR-47) a 7 only makes the discards and no robber stands on the board.
"""

from __future__ import annotations

from hexfolk.core import Action, Commitments
from hexfolk.games.island import actions as A
from hexfolk.games.island.actions import EMPTY
from hexfolk.games.island.hands import lose
from hexfolk.games.island.phases import DISCARD, MAIN, ROBBER, STEAL
from hexfolk.games.island.position import IslandPosition, resume_phase, with_item
from hexfolk.games.island.rules import FRIENDLY_MAX_VP, NRES, RESOURCES
from hexfolk.games.island.score import visible_vp
from hexfolk.games.island.stats import (
    F_GAIN,
    F_LOSS,
    F_ROBBER,
    F_STEALS,
    F_STOLEN,
    G_STEAL,
    L_DISCARD,
    L_STOLEN,
    PER_SEAT,
    SEATS_AT,
)


def discard_actions(s: IslandPosition, p: int) -> list[Action]:
    """IR-41: the cards ``p`` may discard next (one at a time, from what it still holds)."""
    hand = s.hands[p]
    part = s.discard_partial[p]
    return [A.DISCARDS[r] for r in range(NRES) if hand[r] > part[r]]


def protected_seats(s: IslandPosition, p: int) -> list[int]:
    """IR-46: the opponents of ``p`` the friendly robber protects (at most
    ``FRIENDLY_MAX_VP`` visible points; none without the option)."""
    if not s.game.options["friendly_robber"]:
        return []
    return [q for q in range(s.n) if q != p and visible_vp(s, q) <= FRIENDLY_MAX_VP]


def robber_targets(s: IslandPosition, p: int) -> list[int]:
    """Hexes the robber may move to (IR-42, IR-46); [-1] means it must stay."""
    topology = s.topology
    hexes = [h for h in range(topology.num_hexes) if h != s.robber]
    if s.game.options["friendly_robber"]:
        protected = protected_seats(s, p)
        if protected:
            no = s.node_owner
            hexes = [h for h in hexes if not any(no[v] in protected for v in topology.hex_nodes[h])]
        if not hexes:
            assert s.layout_tables is not None
            terrain = s.layout_tables.layout.terrain
            hexes = [
                h
                for h in range(topology.num_hexes)
                if terrain[h] == len(RESOURCES) and h != s.robber
            ]
            if not hexes:
                return [-1]
    return hexes


def robber_moves(s: IslandPosition, p: int) -> list[Action]:
    """IR-42/IR-43: the robber moves of ``p``: to every other hex, robbing each opponent
    with a building there and a card (else the plain move); memoized in ``robber_cache``
    (the friendly robber's moves, which depend on points, are not: IR-46)."""
    if s.game.options["friendly_robber"]:  # targets depend on VP: not cached
        return friendly_robber_moves(s, p)
    hands = s.hands
    key = p  # seat, and which opponents hold cards (they can be robbed, IR-43)
    for q in range(s.n):
        if q != p and any(hands[q]):
            key |= 8 << q
    cached = s.robber_cache.get(key)
    if cached is None:
        cached = s.robber_cache[key] = robber_table(s, p, key >> 3)
    flat, offsets = cached
    h = s.robber
    if h < 0:
        return list(flat)
    out = list(flat[: offsets[h]])
    out.extend(flat[offsets[h + 1] :])
    return out


def robber_table(
    s: IslandPosition, p: int, holders: int
) -> tuple[tuple[Action, ...], tuple[int, ...]]:
    """Robber moves of ``p`` to every hex in hex order (each hex: a steal from each
    opponent in ``holders`` with a building there, or a plain move) and where each hex's
    moves start (one more offset at the end), so the moves with the robber on ``h`` are
    ``flat[:offsets[h]] + flat[offsets[h + 1]:]``."""
    topology = s.topology
    victims: list[list[int]] = [[] for _ in range(topology.num_hexes)]
    node_hexes = topology.node_hexes
    for q in range(s.n):
        if q != p and holders >> q & 1:
            for v in s.buildings[q]:
                for h in node_hexes[v]:
                    lst = victims[h]
                    if not lst or lst[-1] != q:
                        lst.append(q)
    moves, steals = s.acts.robber, s.acts.robber_steal
    flat: list[Action] = []
    offsets = [0]
    for h in range(topology.num_hexes):
        if victims[h]:
            flat.extend(steals[h][q] for q in victims[h])
        else:
            flat.append(moves[h])
        offsets.append(len(flat))
    return tuple(flat), tuple(offsets)


def friendly_robber_moves(s: IslandPosition, p: int) -> list[Action]:
    """IR-46: the robber moves of ``p`` with the friendly robber: only to hexes touching no
    protected player (else a desert, else it stays), and protected players are never robbed,
    not even on the desert it falls back to (there the plain move is offered)."""
    out: list[Action] = []
    moves = s.acts.robber
    targets = robber_targets(s, p)
    if targets == [-1]:
        return [A.MoveRobber(-1)]
    protected = protected_seats(s, p)
    # victims per hex: unprotected opponents with a building there and a card (IR-43)
    hex_victims: dict[int, list[int]] = {}
    node_hexes = s.topology.node_hexes
    for q in range(s.n):
        if q != p and q not in protected and sum(s.hands[q]) > 0:
            for v in s.buildings[q]:
                for h in node_hexes[v]:
                    lst = hex_victims.setdefault(h, [])
                    if not lst or lst[-1] != q:
                        lst.append(q)
    for h in targets:
        victims = hex_victims.get(h)
        if victims:
            steals = s.acts.robber_steal[h]
            out.extend(steals[q] for q in victims)
        else:
            out.append(moves[h])
    return out


def seven(s: IslandPosition) -> None:
    """IR-41: a 7 was rolled: everyone over the limit discards half, rounded down, at once;
    then the robber moves (IR-42)."""
    p = s.active
    limit = s.game.options["discard_limit"]
    seats = [(p + i) % s.n for i in range(s.n)]
    over = [q for q in seats if sum(s.hands[q]) > limit]
    s.resume = MAIN
    if over:
        for q in over:
            s.discard_need[q] = sum(s.hands[q]) // 2
        s.discards = Commitments(over)
        s.phase = DISCARD
        s.seat = over[0]
    else:
        to_robber(s)


def to_robber(s: IslandPosition) -> None:
    """After the discards: the robber moves (IR-42), or with the robber off the turn goes
    on (IR-47)."""
    s.seat = s.active
    if s.game.options["robber"]:
        s.phase = ROBBER
    else:  # IR-47
        resume_phase(s)


def discard(s: IslandPosition, seat: int, a: A.Discard) -> None:
    """IR-41: one card of ``seat``'s discard. Each seat's choice is its own
    (``discard_partial[p]``), so the seats' cards may arrive interleaved in any order."""
    p = seat
    r = a.resource
    part = s.discard_partial[p]
    part = (*part[:r], part[r] + 1, *part[r + 1 :])
    if sum(part) < s.discard_need[p]:
        s.discard_partial[p] = part
        return
    commits = s.discards
    assert commits is not None
    commits.commit(p, part)
    s.discard_partial[p] = EMPTY
    nxt = commits.next_seat()
    if nxt is not None:
        s.seat = nxt
        return
    for q, cards in sorted(commits.reveal().items()):  # revealed together
        for r in range(NRES):
            if cards[r]:
                lose(s, q, r, cards[r], L_DISCARD)
        s.log.append((None, ("discards", q, tuple(cards))))
        s.discard_need[q] = 0
    s.discards = None
    to_robber(s)


def move_robber(s: IslandPosition, seat: int, a: A.MoveRobber) -> None:
    """IR-42/IR-43: the robber moves (or stays, IR-46) and robs the named player."""
    p = seat
    st = s.stats
    st[SEATS_AT + p * PER_SEAT + F_ROBBER] += 1
    if a.hex < 0:
        s.log.append((None, ("robber_stays", p, s.robber)))
        resume_phase(s)
        return
    s.robber = a.hex
    if a.victim < 0:
        s.log.append((None, ("robber", p, a.hex)))
        resume_phase(s)
        return
    s.log.append((None, ("robs", p, a.hex, a.victim)))
    s.thief = p
    s.victim = a.victim
    s.phase = STEAL


def steal(s: IslandPosition, seat: int, a: A.StealOutcome) -> None:
    """IR-43/IR-74: the stolen card changes hands; everyone sees that a card moved, only
    thief and victim see its type (the other observers' knowledge is widened)."""
    t, v, r = s.thief, s.victim, a.resource
    hands = s.hands
    n = s.n
    deficit = s.deficit
    vmask = 0
    # hidden information: observers other than thief and victim do not see the type
    for o in range(n + 1):
        if o == v:
            continue
        if o == t:  # the thief sees the type: a known loss for the victim
            d = deficit[o * n + v]
            if d is not None and d[r] and hands[v][r] - d[r] < 1:
                deficit[o * n + v] = with_item(d, r, hands[v][r] - 1)
            continue
        old = deficit[o * n + v]
        dv = [0] * NRES if old is None else list(old)
        hv = hands[v]
        for x in range(NRES):
            known = hv[x] - dv[x]
            if x == r:
                if known == 0:
                    dv[x] -= 1
            elif known > 0:
                dv[x] += 1
            if dv[x] > 0:
                vmask |= 1 << x
        deficit[o * n + v] = tuple(dv)
        old = deficit[o * n + t]
        deficit[o * n + t] = with_item(old or EMPTY, r, (old or EMPTY)[r] + 1)
    s.uncertain[v] |= vmask
    s.uncertain[t] |= 1 << r
    hands[v][r] -= 1
    hands[t][r] += 1
    st = s.stats
    st[SEATS_AT + t * PER_SEAT + F_GAIN + G_STEAL * NRES + r] += 1
    st[SEATS_AT + v * PER_SEAT + F_LOSS + L_STOLEN * NRES + r] += 1
    st[SEATS_AT + t * PER_SEAT + F_STEALS] += 1
    st[SEATS_AT + v * PER_SEAT + F_STOLEN] += 1
    # IR-74: everyone sees that one card moved; thief and victim also see its type
    texts = s.texts
    s.log.append((None, texts.steal[t][v]))
    s.log.append((texts.pair[t][v], texts.stole[t][v][r]))
    s.thief = s.victim = -1
    s.seat = s.active
    resume_phase(s)
