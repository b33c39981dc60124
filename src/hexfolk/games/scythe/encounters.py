"""Encounters (SR-47, SR-41 Meander, OQ-10): a character that ends its move on a token.

After the Move's combats (:func:`after_move`): the token is removed, the top card drawn (a
chance outcome among the never-drawn cards), an affordable option chosen (Polania: two),
its benefit granted through ``gains``; the card goes to the deck bottom. Then the Factory
(:func:`after_encounter`).
"""

from __future__ import annotations

from typing import Any

from hexfolk.core import Action
from hexfolk.games.scythe import data as D
from hexfolk.games.scythe.actions import DONE, EncounterOption
from hexfolk.games.scythe.factory import after_factory
from hexfolk.games.scythe.gains import start_gains
from hexfolk.games.scythe.phases import ENCOUNTER, ENCOUNTER_OPTION_DONE, FACTORY_OFFER
from hexfolk.games.scythe.position import Position
from hexfolk.games.scythe.scoring import end_game
from hexfolk.games.scythe.stars import check_stars


def unknown_cards(s: Position) -> list[int]:
    """Encounter cards in the unknown part of the deck (never drawn yet)."""
    seen = set(s.encounter_bottom)
    return [c for c in D.ENCOUNTER_NUMBERS if c not in seen and c != s.encounter_card]


def after_move(s: Position) -> None:
    """SR-47 (step 2c): after all combats, an encounter if the character stopped on a token and is
    still there; stars first (OQ-10)."""
    p = s.active
    # SR-47 (step 2c): encounter if the character stopped on a token and is still there.
    t = s.character_token
    if t >= 0 and s.character_loc[p] == t and s.encounter_tokens[t]:
        if check_stars(s, p):
            end_game(s, "sixth star")
            return
        s.encounter_tokens[t] = False
        encounter(s, p, t)
        return
    after_encounter(s)


def encounter(s: Position, p: int, loc: int) -> None:
    """Discard the token and draw the top card: a chance outcome from the never-drawn
    cards, or (all drawn once) the known card on top of the put-back ones."""
    s.write_log(None, "encounter", p, D.LOC_NAMES[loc])
    s.encounter_loc = loc
    s.encounter_chosen = []
    if unknown_cards(s):
        s.chance.append(("encounter", p))
    else:
        s.encounter_card = s.encounter_bottom.pop(0)
        s.write_log(None, "draws_encounter", p, s.encounter_card)
    s.phase = ENCOUNTER


def affordable_options(s: Position, p: int) -> list[int]:
    """SR-47: the options of the drawn card ``p`` can pay for (Meander: a second, different one,
    SR-41)."""
    card = D.ENCOUNTER_BY_NUMBER[s.encounter_card]
    if len(s.encounter_chosen) >= (D.MEANDER_OPTIONS if s.abilities[p] & D.A_MEANDER else 1):
        return []
    return [
        k
        for k, o in enumerate(card["options"])
        if k not in s.encounter_chosen and s.can_pay_card_cost(p, o["cost"])
    ]


def choose_option(
    s: Position, p: int, slot: int, decline: tuple[tuple[str, int], ...] = ()
) -> None:
    """SR-47: pay option ``slot``'s cost and grant its benefit, less the declined parts (SR-12)."""
    option = D.ENCOUNTER_BY_NUMBER[s.encounter_card]["options"][slot]
    s.encounter_chosen.append(slot)
    s.write_log(None, "option", p, slot + 1, s.encounter_card)
    s.pay_track_cost(p, option["cost"])
    start_gains(s, option["benefit"], s.encounter_loc, ENCOUNTER_OPTION_DONE, decline)


def option_done(s: Position) -> None:
    """After an option's gains: Meander's second option (SR-41), else the encounter ends."""
    if affordable_options(s, s.active):
        s.phase = ENCOUNTER  # SR-41 Meander: a second, different option
        return
    finish_encounter(s)


def finish_encounter(s: Position) -> None:
    """SR-47: the card goes face down to the bottom of the deck; then the Factory."""
    s.encounter_bottom.append(s.encounter_card)  # face down to the deck bottom
    s.write_log(None, "encounter_bottom", s.encounter_card)
    s.encounter_card = -1
    s.encounter_loc = -1
    after_encounter(s)


def after_encounter(s: Position) -> None:
    """SR-48 (step 2d): stars (OQ-10), then the Factory offer if the character is on the Factory
    without a card."""
    p = s.active
    if check_stars(s, p):  # OQ-10: after the encounter
        end_game(s, "sixth star")
        return
    # SR-48 (step 2d): the Factory card, viewed only by this player.
    if s.character_loc[p] == D.FACTORY_LOC and s.factory_card[p] < 0 and s.factory_offer:
        s.factory_offer_seen[p] = True
        s.write_log(None, "factory_look", p)
        s.phase = FACTORY_OFFER
        return
    after_factory(s, False)


# --- the encounter phase (SR-47) ------------------------------------------------------------------
def legal_encounter(s: Position, p: int) -> list[Action]:
    out: list[Action] = [EncounterOption(k + 1) for k in affordable_options(s, p)]
    if s.encounter_chosen or not out:
        out.insert(0, DONE)
    return out


def apply_encounter(s: Position, p: int, a: Action) -> None:
    if isinstance(a, EncounterOption):
        choose_option(s, p, a.slot - 1, a.decline)
    else:
        finish_encounter(s)


def prompt_encounter(s: Position, p: int) -> tuple[str, dict[str, Any]]:
    data = {
        "card": s.encounter_card,
        "territory": D.LOC_NAMES[s.encounter_loc],
        "chosen": [k + 1 for k in s.encounter_chosen],
    }
    return f"choose an option of encounter card {s.encounter_card}", data
