"""The English sentences of the island's refusals: one template per reason code.

:data:`REASONS` is the game's :class:`~hexfolk.core.ReasonBook` (:mod:`.reasons` builds every
refusal from it). The browser's templates are the ``why.<code>`` keys of ``web/i18n/<lang>.json``
with the same params (``tests/games/test_reason_templates.py`` checks that every code has one in
each language). Param values: seats, nodes, edges, hexes and offers by number; resources by name
(``"ore"``), bundles as ``{"ore": 2}``, development cards by key (``"knight"``).
"""

from __future__ import annotations

from typing import Any

from hexfolk.core import ReasonBook
from hexfolk.games.island.labels import PLACE_KINDS

CARD_WORDS = {
    "knight": "Knight",
    "vp": "Victory Point",
    "roads": "Road Building",
    "plenty": "Year of Plenty",
    "monopoly": "Monopoly",
}
"""Names of the development cards in sentences, by key."""

PIECE_WORDS = {
    "road": "a road",
    "settlement": "a settlement",
    "city": "a city",
    "dev": "a development card",
}
"""What a cost is the cost of."""

TRADE_WORDS = {"offer": "an offer", "counter": "a counter-offer"}

DRAW_WORDS = {
    "layout": "the board layout",
    "dice": "the dice",
    "steal": "the card the robber takes",
    "draw": "the development card drawn",
}
"""What the table draws next, by chance phase."""


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _cards(bundle: Any) -> str:
    """``2 grain and 3 ore``; ``no cards`` when empty."""
    words = [f"{k} {r}" for r, k in bundle.items()]
    return _and(words) if words else "no cards"


def _counts(bundle: Any) -> str:
    """``1 ore and 0 grain``: how many of each the seat holds (zeros too)."""
    return _and([f"{k} {r}" for r, k in bundle.items()])


TEXTS: dict[str, str] = {
    # whose decision it is
    "game_over": "the game is over",
    "game_won": "the game is over: seat {winner} won ({rule})",
    "chance_not_move": "{action} is a chance outcome the table draws, not a move; {waiting}",
    "not_your_decision": "seat {seat} has no decision to make now; {waiting}",
    "wait_discard": "{seats:seats} {seats|is|are} discarding after a 7 ({rule})",
    "wait_answer": (
        "seat {active} is trading; {others:seats} {others|is|are} answering its offers ({rule})"
    ),
    "wait_sbp_signup": "{seats:seats} may sign up for the special build phase ({rule})",
    "wait_decision": "it is seat {seat}'s decision: {what} ({rule})",
    # chance
    "chance_no_seat": "no seat acts now: the table draws {pending:draw} next",
    "chance_not_pending": (
        "{action} is not the pending chance step: the table draws {pending:draw} next"
    ),
    "steal_none": "seat {victim} holds no {res}, so the robber cannot take one ({rule})",
    "draw_none": "no {card:card} card is left in the deck ({rule})",
    "layout_impossible": "that layout is not a possible board for this map ({rule})",
    # pieces
    "no_node": "there is no intersection {node} on this board",
    "node_taken": "intersection {node:node} is taken by seat {owner}'s building",
    "node_distance": "intersection {node:node} is next to a building: the distance rule ({rule})",
    "node_distance_on": (
        "intersection {node:node} is next to a building on {near:node}: the distance rule ({rule})"
    ),
    "no_edge": "there is no edge {edge} on this board",
    "edge_yours": "edge {edge:edge} already holds your road",
    "edge_taken": "edge {edge:edge} already holds seat {owner}'s road",
    "setup_road_touch": (
        "the setup road must touch the settlement just placed on {node:node} ({rule})"
    ),
    "roads_all_placed": "all {pieces} of your roads are on the board ({rule})",
    "road_unconnected": (
        "a road must connect to your own road or building; edge {edge:edge} touches none ({rule})"
    ),
    "road_blocked": "a road cannot connect through seat {owner}'s building on {node:node} ({rule})",
    "cost": "{what:piece} costs {cost:cards}; you have {held:counts} ({rule})",
    "no_road_edge": "there is no edge left where a road may go ({rule})",
    "settlements_all_placed": (
        "all {pieces} of your settlements are on the board; upgrade one to a city first ({rule})"
    ),
    "settle_no_road": (
        "a settlement must touch one of your roads; {node:node} touches none ({rule})"
    ),
    "city_on_nothing": (
        "you have no settlement on {node:node} (nothing stands there); a city replaces one ({rule})"
    ),
    "city_on_other": (
        "you have no settlement on {node:node} (seat {owner}'s building stands there); a city "
        "replaces one ({rule})"
    ),
    "city_already": "{node:node} is already a city ({rule})",
    "cities_all_placed": "all {pieces} of your cities are on the board ({rule})",
    "deck_empty": "the development deck is empty ({rule})",
    # development cards
    "card_played": "you have already played a development card this turn ({rule})",
    "card_none": "you hold no {card:card} card",
    "card_new": "a card bought this turn cannot be played ({rule}): your {card:card} is new",
    "no_free_road_edge": "there is no edge where a free road could go ({rule})",
    "plenty_bank_empty": "the bank is empty: Year of Plenty takes nothing ({rule})",
    "plenty_count": (
        "Year of Plenty takes {want} {want|card|cards} from the bank, not {took} ({rule})"
    ),
    "bank_short": "the bank holds only {held} {res} ({rule})",
    # trade
    "maritime_empty": "a maritime trade gives at least one lot of cards ({rule})",
    "maritime_same": ("the card received must be of another type than those given ({rule}): {res}"),
    "maritime_lot": "you trade {res} at {ratio}:1, so {count} {res} is not a whole lot ({rule})",
    "hand_short": "you have {held} {res}, not {count}",
    "maritime_count": "{give:cards} buys {lots} {lots|card|cards}, not {got} ({rule})",
    "trade_empty": "{what:trade} with both sides empty is not a trade ({rule})",
    "trade_same": "{what:trade} cannot give and ask for the same resource ({res}) ({rule})",
    "nobody": "there is nobody to trade with",
    "offers_max": "no more than {max} offers may be open at once ({rule})",
    "offer_unheld": (
        "an offer gives only cards you hold: it gives {give:cards}; you have {held:counts} ({rule})"
    ),
    "offer_rejected": (
        "every seat rejected this offer this turn; it cannot be re-sent unchanged ({rule})"
    ),
    "offer_open": "this offer is already open (#{offer})",
    "no_offer_left": "you have no offer left to answer",
    "no_offer": "there is no open offer #{offer}",
    "answered": "you have already answered offer #{offer}",
    "accept_short": "offer #{offer} asks for {get:cards}; you have {held:counts} ({rule})",
    "counter_same": "that counter-offer is offer #{offer} itself: accept it instead ({rule})",
    "counter_unheld": (
        "a counter-offer gives only cards you hold: {give:cards}; you have {held:counts} ({rule})"
    ),
    "not_addressee": "seat {seat} is not an addressee of offer #{offer}",
    "not_answered": "seat {seat} has not answered offer #{offer} yet ({rule})",
    "offer_refused": "seat {seat} rejected offer #{offer} ({rule})",
    "trade_gives": "the trade gives {give:cards}; you have {held:counts} now ({rule})",
    "partner_short": "seat {seat} no longer holds {get:cards} ({rule})",
    "decline_all_on": "decline-all is already on",
    "decline_all_off": "decline-all is already off",
    "answer_own": "only the other seats answer your offers ({rule})",
    "no_open_offer": "there is no open offer to answer",
    "sbp_players": "the special build phase needs {min} or more players ({rule})",
    "sbp_after_turn": "the special build sign-up comes after a regular turn ends ({rule})",
    # phases
    "setup_road_first": "place your setup settlement first; its road follows ({rule})",
    "setup_settle_only": (
        "setup: place a settlement; setup has no trading, robber, cards or rolls ({rule})"
    ),
    "setup_road_only": "setup: place the road next to your settlement on {node:node} ({rule})",
    "roll_before_end": "roll the dice before ending the turn ({rule})",
    "roll_first": "no trading or building before the roll: roll first ({rule})",
    "robber_before_roll": "the robber moves after a 7 or a Knight, not before the roll ({rule})",
    "discard_when": "discards follow a roll of 7 with more than {limit} cards ({rule})",
    "sbp_no_card": "no development card may be played in the special build phase ({rule})",
    "sbp_no_trade": "no trading in the special build phase ({rule})",
    "rolled": "you have already rolled this turn ({rule})",
    "robber_when": "the robber moves only after a 7 or a Knight ({rule})",
    "discard_chosen": ("you have {held} {res} and have already chosen {chosen} of them to discard"),
    "discard_none": "you have no {res} to discard",
    "discard_first": (
        "discard {left} more {left|card|cards} first: more than {limit} cards after a 7 means "
        "discarding half ({need}) ({rule})"
    ),
    "robber_first": "move the robber first ({rule})",
    "robber_stay_only": "the robber stays only when no hex may take it ({rule})",
    "robber_must_stay": "no hex may take the robber: it stays (robber stay, {rule})",
    "no_hex": "there is no hex {hex} on this board",
    "robber_same": "the robber must move to a different hex than {hex:hex} ({rule})",
    "robber_friendly_hex": (
        "hex {hex:hex} touches a building of a player with at most {vp} visible VP "
        "(friendly robber, {rule})"
    ),
    "must_rob": "on hex {hex:hex} you must rob {seats:seats_or} ({rule})",
    "rob_self": "you cannot rob yourself ({rule})",
    "victim_absent": "seat {victim} has no building on hex {hex:hex} ({rule})",
    "victim_no_cards": "seat {victim} holds no cards to steal ({rule})",
    "victim_protected": (
        "seat {victim} has at most {vp} visible VP: the friendly robber never robs them ({rule})"
    ),
    "free_roads_first": "place your free {left|road|roads} first ({left} left, {rule}), or end",
    "answer_offers": (
        "seat {active} is trading: answer its offers (accept, reject or counter) ({rule})"
    ),
    "sbp_signup_first": "answer the special build sign-up first: sbp join or sbp pass ({rule})",
}
"""English template of each code (syntax: :mod:`hexfolk.core.reasons`)."""

REASONS = ReasonBook(
    TEXTS,
    {
        "cards": _cards,
        "counts": _counts,
        "card": lambda key: CARD_WORDS[key],
        "piece": lambda key: PIECE_WORDS[key],
        "trade": lambda key: TRADE_WORDS[key],
        "draw": lambda key: DRAW_WORDS[key],
    },
    PLACE_KINDS,
)
