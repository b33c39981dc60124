"""The Factory (SR-48, SR-49): the offer, the card kept, its top action and its Move."""

from __future__ import annotations

from typing import Any

from hexfolk.core import Action
from hexfolk.games.scythe import data as D
from hexfolk.games.scythe.actions import PayCard, TakeFactory
from hexfolk.games.scythe.gains import start_gains
from hexfolk.games.scythe.mat import to_bottom
from hexfolk.games.scythe.phases import AFTER_TOP, PAY_CARD
from hexfolk.games.scythe.position import NV, Position
from hexfolk.games.scythe.scoring import end_game
from hexfolk.games.scythe.stars import check_stars, finish_turn


def take_factory(s: Position, p: int, number: int) -> None:
    """SR-48: keep Factory card ``number`` of the offer."""
    s.factory_offer.remove(number)
    s.factory_card[p] = number
    s.write_log(None, "factory_keep", p, number)
    after_factory(s)


def factory_top(s: Position, p: int, decline: tuple[tuple[str, int], ...] = ()) -> None:
    """SR-49: the Factory card's top action: pay its cost (combat cards one by one), then its
    benefit."""
    card = D.FACTORY_BY_NUMBER[s.factory_card[p]]
    s.write_log(None, "factory_top", p, card["number"])
    s.pay_track_cost(p, card["cost"])
    s.factory_cards_owed = card["cost"].get("combat_cards", 0)
    if s.factory_cards_owed:
        s.factory_declined = decline
        s.phase = PAY_CARD
        return
    start_gains(s, card["benefit"], -1, AFTER_TOP, decline)


def factory_pay_card(s: Position, p: int, a: PayCard) -> None:
    """SR-49: discard one combat card of the Factory card's cost; the last grants the benefit."""
    i = D.CARD_INDEX[a.value]
    s.hand[p * NV + i] -= 1
    s.combat_discard[i] += 1
    s.forget_card(p, i)
    s.write_log(None, "factory_discard", p, a.value)
    s.factory_cards_owed -= 1
    if s.factory_cards_owed == 0:
        card = D.FACTORY_BY_NUMBER[s.factory_card[p]]
        decline, s.factory_declined = s.factory_declined, ()
        start_gains(s, card["benefit"], -1, AFTER_TOP, decline)


def after_factory(s: Position, check: bool = True) -> None:
    """After the Factory: stars, then the bottom row (or, after the Factory card's Move, the end of
    the turn)."""
    if check and check_stars(s, s.active):
        end_game(s, "sixth star")
        return
    if s.factory_move:
        s.factory_move = False
        finish_turn(s)
    else:
        to_bottom(s)


# --- the Factory phases (SR-48, SR-49) ------------------------------------------------------------
def legal_factory_offer(s: Position, p: int) -> list[Action]:
    return [TakeFactory(c) for c in sorted(s.factory_offer)]


def apply_factory_offer(s: Position, p: int, a: Action) -> None:
    assert isinstance(a, TakeFactory)
    take_factory(s, p, a.number)


def prompt_factory_offer(s: Position, p: int) -> tuple[str, dict[str, Any]]:
    return "keep one Factory card of the offer", {"offer": len(s.factory_offer)}


def legal_pay_card(s: Position, p: int) -> list[Action]:
    return [PayCard(D.CARD_VALUES[i]) for i in range(NV) if s.hand[p * NV + i]]


def apply_pay_card(s: Position, p: int, a: Action) -> None:
    assert isinstance(a, PayCard)
    factory_pay_card(s, p, a)


def prompt_pay_card(s: Position, p: int) -> tuple[str, dict[str, Any]]:
    return "discard a combat card to pay the Factory card", {"left": s.factory_cards_owed}
