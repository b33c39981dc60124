"""The turn (IR-4, IR-5, IR-24, IR-28..IR-34): its start, its end, the win check and the
special build phase of games with 5 or more players.

The win check (IR-4) runs after every step that can change a seat's points, and at the start
of a turn; it never runs in setup or in the special build phase (IR-33).
"""

from __future__ import annotations

from hexfolk.games.island import actions as A
from hexfolk.games.island.phases import (
    ANSWER,
    NO_WIN_PHASES,
    OVER,
    PRE_ROLL,
    SPECIAL_BUILD,
    SPECIAL_BUILD_SIGNUP,
)
from hexfolk.games.island.position import IslandPosition, unanswered
from hexfolk.games.island.rules import (
    SBP_MIN_PLAYERS,
)
from hexfolk.games.island.score import total_vp
from hexfolk.games.island.stats import F_LA_TURNS, F_LR_TURNS, F_SBP, F_TURNS, PER_SEAT, SEATS_AT
from hexfolk.games.island.trade import log_answers


def check_win(s: IslandPosition) -> None:
    """IR-4: the active player wins as soon as they reach the target in their own turn
    (called after every step that can change VP; never in setup or SBP, IR-33). A win while
    answers to offers are pending is the proposer's step (IR-50): the game ends at the
    winner's seat, not at the seat the answers had come to."""
    phase = s.phase
    if phase in NO_WIN_PHASES:
        return
    p = s.active
    vp = total_vp(s, p)
    if vp >= s.vp_target:
        s.winner = p
        if phase == ANSWER:
            s.seat = p
        s.phase = OVER
        s.log.append((None, ("wins", p, vp)))


def start_turn(s: IslandPosition, p: int) -> None:
    """IR-24: seat ``p``'s turn begins (cards bought last turn become playable, IR-61)."""
    s.active = p
    s.seat = p
    s.turn += 1
    s.rolled = False
    s.dev_played = False
    s.dev_bought[p] = [0] * 5
    if s.rejected:
        s.rejected = []
    if s.offers:
        s.offers = []
    st = s.stats
    if s.longest_road >= 0:
        st[SEATS_AT + s.longest_road * PER_SEAT + F_LR_TURNS] += 1
    if s.largest_army >= 0:
        st[SEATS_AT + s.largest_army * PER_SEAT + F_LA_TURNS] += 1
    st[SEATS_AT + p * PER_SEAT + F_TURNS] += 1
    s.phase = PRE_ROLL
    # IR-4/IR-5: checked at the start of the turn, before the roll
    check_win(s)


def end_special_build(s: IslandPosition, seat: int, a: A.EndTurn) -> None:
    """IR-31/IR-32: a special build slot ends; the next one, or the next player's turn."""
    s.sbp_joined.pop(0)
    if s.sbp_joined:
        s.seat = s.sbp_joined[0]
    else:
        start_turn(s, (s.active + 1) % s.n)


def end_turn(s: IslandPosition, seat: int, a: A.EndTurn) -> None:
    """IR-28: the turn ends (open offers are withdrawn); with 5+ players the special build
    phase opens (IR-29, IR-30), else the next seat's turn starts."""
    p = seat
    if s.offers:
        for o in s.offers:
            if unanswered(s, o):
                log_answers(s, o)  # IR-28/IR-50: missing answers count as rejections
        s.log.append((None, ("withdrawn", p, tuple([o.id for o in s.offers]))))
        s.offers = []
    s.log.append((None, s.texts.end[p]))
    if s.n >= SBP_MIN_PLAYERS:  # IR-29/IR-30
        s.sbp_queue = [(p + i) % s.n for i in range(1, s.n)]
        s.sbp_joined = []
        s.phase = SPECIAL_BUILD_SIGNUP
        s.seat = s.sbp_queue[0]
        return
    start_turn(s, (p + 1) % s.n)


def sign_up(s: IslandPosition, seat: int, a: A.SpecialBuildSignUp) -> None:
    """IR-30: the other seats sign up at once, in any order; the window closes with the
    last answer, which writes every seat's answer to the log in seat order."""
    p = seat
    s.sbp_queue = [q for q in s.sbp_queue if q != p]
    n, active = s.n, s.active
    if a.join:
        # IR-31: slots in seat order after the active player, whatever the arrival order
        joined = [*s.sbp_joined, p]
        s.sbp_joined = sorted(joined, key=lambda q: (q - active) % n)
        s.stats[SEATS_AT + p * PER_SEAT + F_SBP] += 1
    if s.sbp_queue:
        s.seat = s.sbp_queue[0]
        return
    for i in range(1, n):
        q = (active + i) % n
        s.log.append((None, ("sbp_join" if q in s.sbp_joined else "sbp_pass", q)))
    if s.sbp_joined:
        s.phase = SPECIAL_BUILD
        s.seat = s.sbp_joined[0]
    else:
        start_turn(s, (s.active + 1) % s.n)
