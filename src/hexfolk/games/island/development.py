"""Development cards (IR-60..IR-65): buying, drawing, and playing knights, Road Building,
Year of Plenty and Monopoly (victory point cards are counted by :mod:`.score`).

A card bought this turn cannot be played this turn (``dev_bought``, IR-61), and only one card is
played per turn (``dev_played``, IR-62); a knight may be played before the roll (IR-24).
"""

from __future__ import annotations

from hexfolk.core import Action
from hexfolk.games.island import actions as A
from hexfolk.games.island.actions import PLENTY_ONE, PLENTY_TAKES
from hexfolk.games.island.building import place_road, road_actions
from hexfolk.games.island.hands import gain, lose, pay
from hexfolk.games.island.phases import DRAW, ROAD_BUILDING, ROBBER
from hexfolk.games.island.position import IslandPosition, interrupt, resume_phase
from hexfolk.games.island.rules import (
    COST_DEV,
    KNIGHT,
    LARGEST_ARMY_MIN,
    MONOPOLY,
    NRES,
    PLENTY,
    PLENTY_CARDS,
    RESOURCES,
    ROAD_BUILDING_ROADS,
    ROADS,
)
from hexfolk.games.island.stats import (
    F_DEV_BOUGHT,
    F_DEV_PLAYED,
    F_GAIN,
    G_MONO,
    G_PLENTY,
    L_DEV,
    L_MONO,
    PER_SEAT,
    SEATS_AT,
)
from hexfolk.games.island.turn import check_win


def card_plays(s: IslandPosition, p: int, dev: list[int], out: list[Action]) -> None:
    """Append the cards ``p`` may play (the caller checked that none was played yet)."""
    new = s.dev_bought[p]
    if dev[KNIGHT] > new[KNIGHT]:
        out.append(A.PLAY_KNIGHT)
    if dev[ROADS] > new[ROADS] and s.roads_left[p] and road_actions(s, p):
        out.append(A.PLAY_ROADS)
    if dev[PLENTY] > new[PLENTY]:
        bank = s.bank
        total = sum(bank)
        if total >= PLENTY_CARDS:
            out.extend(x for x in PLENTY_TAKES if all(b >= t for b, t in zip(bank, x.take)))
        elif total:
            out.extend(PLENTY_ONE[r] for r in range(NRES) if bank[r])
    if dev[MONOPOLY] > new[MONOPOLY]:
        out.extend(A.MONOPOLIES)


def buy(s: IslandPosition, seat: int, a: A.BuyDevelopment) -> None:
    """IR-60: pay a development card's cost; the card is drawn next (chance)."""
    p = seat
    pay(s, p, COST_DEV, L_DEV)
    s.log.append((None, s.texts.buy[p]))
    interrupt(s, p, DRAW)


def draw(s: IslandPosition, seat: int, a: A.DrawDevelopment) -> None:
    """IR-60: the drawn card goes to the buyer (only they see which, IR-74); a victory
    point card can win at once (IR-4; never in the special build phase, IR-33)."""
    p = seat
    c = a.card
    s.deck[c] -= 1
    s.dev_cards[p][c] += 1
    s.dev_bought[p][c] += 1
    s.stats[SEATS_AT + p * PER_SEAT + F_DEV_BOUGHT + c] += 1
    s.log.append((s.texts.only[p], s.texts.draw[p][c]))
    resume_phase(s)
    check_win(s)  # IR-4: a VP card can win at once (never in SBP, IR-33)


def play_card(s: IslandPosition, p: int, card: int) -> None:
    """IR-61/IR-62: one card per turn, never one bought this turn (the caller checked)."""
    s.dev_cards[p][card] -= 1
    s.dev_played = True
    s.stats[SEATS_AT + p * PER_SEAT + F_DEV_PLAYED + card] += 1


def play_knight(s: IslandPosition, seat: int, a: A.PlayKnight) -> None:
    """IR-45/IR-72: a knight moves the robber (not with the robber off, IR-47) and counts
    for Largest Army: first to 3, then only strictly more takes it over."""
    p = seat
    play_card(s, p, KNIGHT)
    s.knights[p] += 1
    s.log.append((None, ("knight", p)))
    # IR-72: first to 3 knights; only strictly more takes it over
    if s.game.options["largest_army"] and s.knights[p] >= LARGEST_ARMY_MIN:
        h = s.largest_army
        if h != p and (h < 0 or s.knights[p] > s.knights[h]):
            s.largest_army = p
            s.log.append((None, ("largest", p, s.knights[p])))
    if s.game.options["robber"]:
        interrupt(s, p, ROBBER)
    check_win(s)  # IR-4: Largest Army can win at once


def play_road_building(s: IslandPosition, seat: int, a: A.PlayRoadBuilding) -> None:
    """IR-63: up to 2 free roads (fewer if fewer are left in supply)."""
    p = seat
    play_card(s, p, ROADS)
    s.log.append((None, ("road_building", p)))
    s.free_roads = min(ROAD_BUILDING_ROADS, s.roads_left[p])
    interrupt(s, p, ROAD_BUILDING)


def play_plenty(s: IslandPosition, seat: int, a: A.PlayPlenty) -> None:
    """IR-64: two cards of the player's choice from the bank (one if it holds one)."""
    p = seat
    play_card(s, p, PLENTY)
    for r in range(NRES):
        if a.take[r]:
            gain(s, p, r, a.take[r], G_PLENTY)
    s.log.append((None, ("plenty", p, tuple(a.take))))


def play_monopoly(s: IslandPosition, seat: int, a: A.PlayMonopoly) -> None:
    """IR-65: every other player gives all their cards of the named resource."""
    p = seat
    r = a.resource
    play_card(s, p, MONOPOLY)
    total = 0
    for q in range(s.n):
        if q != p:
            k = s.hands[q][r]
            if k:
                lose(s, q, r, k, L_MONO, to_bank=False)
                s.hands[p][r] += k
                s.stats[SEATS_AT + p * PER_SEAT + F_GAIN + G_MONO * NRES + r] += k
                total += k
    s.log.append((None, ("monopoly", p, RESOURCES[r], total)))


def place_free_road(s: IslandPosition, seat: int, a: A.BuildRoad) -> None:
    """IR-63: one of Road Building's free roads; the card ends with the last one, or when the
    seat has no road left or nowhere to place one."""
    p = seat
    place_road(s, p, a.edge)
    s.free_roads -= 1
    if s.free_roads <= 0 or not s.roads_left[p] or not road_actions(s, p):
        resume_phase(s)
    check_win(s)


def forfeit_free_roads(s: IslandPosition, seat: int, a: A.EndTurn) -> None:
    """IR-28: the turn clock (or ``end``) forfeits Road Building's unplaced roads."""
    s.log.append((None, ("forfeits", seat, s.free_roads)))
    s.free_roads = 0
    resume_phase(s)
