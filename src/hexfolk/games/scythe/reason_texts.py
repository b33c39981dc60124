"""The English sentences of Scythe's refusals: one template per reason code.

:data:`REASONS` is the game's :class:`~hexfolk.core.ReasonBook` (:mod:`.reasons` builds every
refusal from it). The browser's templates are the ``sc.why.<code>`` keys of
``web/i18n/scythe/<lang>.json`` with the same params (``tests/games/test_reason_templates.py``
checks that every code has one in each language). Param values: players by seat number;
territories, resources, units, structures and actions by their ids (``"r4c6"``, ``"oil"``,
``"mech"``, ``"mill"``, ``"upgrade"``); a pending decision by its prompt kind
(``"choose-section"``); costs as ``{"coins": 3, "power": 2}``.
"""

from __future__ import annotations

from typing import Any

from hexfolk.core import ReasonBook
from hexfolk.games.scythe.territory_labels import PLACE_KINDS

DECISIONS = {
    "choose-section": "choose a section for the action token (SR-7)",
    "top-action": "take the top-row action or skip it (SR-7)",
    "choose-unit": "choose a unit to move, or done (SR-16)",
    "carry": "choose what the moving unit carries (SR-30)",
    "step": "choose where the moving unit steps (SR-25)",
    "trade-second-token": "place the second traded token, or done (SR-18)",
    "produce": "choose territories to produce on, or done (SR-19)",
    "choose-combat": "choose the next combat (SR-43)",
    "artillery": "decide whether to use Artillery (SR-43 C1)",
    "commit": "commit power and combat cards in secret (SR-43 C2)",
    "retreat": "choose where the losing units retreat (SR-43 C7)",
    "bottom-action": "take the bottom-row action or skip it (SR-7)",
    "pay": "pay the bottom action's cost from controlled territories (SR-12, SR-14)",
    "benefit": "choose the bottom action's benefit (SR-12)",
    "end-turn": "end the turn (or reveal an objective first, SR-51)",
    "encounter": "choose an option of the encounter card (SR-47)",
    "gain": "take what the encounter grants (SR-47)",
    "factory-offer": "keep one Factory card of the offer (SR-48)",
    "pay-card": "discard a combat card to pay the Factory card (SR-49)",
    "pending": "finish the pending decision",
    "play": "play",
}
"""The decision of each phase (by prompt kind), for refusals made in the wrong phase."""

GAIN_WORDS = {
    "move-coins": "Move",
    "bolster-power": "Bolster power",
    "bolster-cards": "Bolster cards",
    "trade-popularity": "Trade popularity",
}
"""The top-row boxes whose amount a player chooses."""


def _track(cost: Any) -> str:
    """``$3 and 2 power``, ``1 combat card``; ``nothing`` when empty."""
    words = []
    for k, v in cost.items():
        if k == "coins":
            words.append(f"${v}")
        elif k == "combat_cards":
            words.append(f"{v} combat card{'s' if v != 1 else ''}")
        else:
            words.append(f"{v} {k}")
    return " and ".join(words) or "nothing"


TEXTS: dict[str, str] = {
    # whose decision it is
    "game_over": "the game is over: a sixth star was placed ({rule})",
    "chance_impossible": "{action} is not a possible outcome of the pending draw ({rule})",
    "chance_no_player": "no player acts now: the table draws the next card or deal",
    "chance_not_move": "{action} is a draw the table makes, not a move; {waiting}",
    "not_your_decision": "P{seat} has no decision to make now; {waiting}",
    "wrong_phase": "not now: P{seat} must {decision:decision}",
    "not_a_choice": "{action} is not among the choices: P{seat} must {decision:decision}",
    "wait_commit": "{seats:players} commit in secret for the combat ({rule})",
    "wait_decision": "it is P{seat}'s decision: {decision:decision}",
    # costs
    "cost_top": "{top:cap} costs {cost:track}; you have {held:track} ({rule})",
    "cost_factory_top": (
        "Factory card {number}'s top action costs {cost:track}; you have {held:track} ({rule})"
    ),
    "cost_option": "option {slot} costs {cost:track}; you have {held:track} ({rule})",
    # sections
    "no_factory_card": "you hold no Factory card, so there is no fifth section ({rule})",
    "factory_twice": (
        "you used the Factory card last turn; not twice in a row, even Rusviet ({rule})"
    ),
    "no_section": "your player mat has sections 1 to {count}",
    "section_repeat": (
        "you used section {section} last turn; the token must move to another ({rule})"
    ),
    # top row
    "top_kind_factory": "the top action of the Factory card is {top}, not {want} ({rule})",
    "top_kind": "the top action of section {section} is {top}, not {want} ({rule})",
    "too_many": "{box:gain} gains at most {value}, so {amount} is too many ({rule})",
    "bolster_kind": "Bolster gives power or combat cards ({rule})",
    "trade_where": (
        "traded tokens go on a territory you control with one of your workers; "
        "{loc:territory} is not one ({rule})"
    ),
    "produce_nothing": (
        "{loc:territory} produces nothing: lakes, the Factory and home bases do not ({rule})"
    ),
    "produced": "{loc:territory} has already produced in this action ({rule})",
    "not_controlled": "you do not control {loc:territory} ({rule})",
    "no_worker": "you have no worker on {loc:territory} to produce there ({rule})",
    "produce_reach": "Produce reaches at most {limit} territories ({rule})",
    "produce_most": "{loc:territory} produces at most {count} ({rule})",
    # movement
    "no_unit": "you have no {unit} on {loc:territory}",
    "factory_move_only": "only the Factory card's bottom row is a Move ({rule})",
    "moved_enough": "this Move has already moved {count} units ({rule})",
    "unit_done": (
        "your {unit} on {loc:territory} has already moved in this Move or has nowhere to go "
        "({rule})"
    ),
    "not_stepped": "the unit has not stepped yet: choose where it goes ({rule})",
    "lake_leave": "workers or resources cannot be left on a lake ({rule})",
    "home_base": "no Move puts a unit onto a home base ({loc:territory}), except Wayfare ({rule})",
    "lake_enter": "your {unit} cannot enter the lake {loc:territory} ({rule})",
    "step_blocked": (
        "your {unit} on {here:territory} cannot step to {loc:territory}: not adjacent, across a "
        "river, or a worker facing enemy units ({rule})"
    ),
    "carry_workers": "a {unit} never carries workers; only mechs do ({rule})",
    "carry_few_workers": "only {count} of your workers are here to carry ({rule})",
    "carry_few_res": "only {count} {res} lie here to pick up ({rule})",
    "carry_all": (
        "workers brought onto a lake cannot be left there: the mech takes all {count} "
        "along ({rule})"
    ),
    "cargo_lake": "cargo cannot be left on a lake ({rule})",
    # combat
    "dial": "the dial goes from 0 to min({max}, your power {power}) = {top} ({rule})",
    "commit_cards": "you may add at most {count} combat {count|card|cards} here ({rule})",
    "commit_unheld": "you do not hold {count} combat card(s) of value {value}",
    "no_combat": (
        "there is no combat on {loc:territory}; combats wait on {combats:territories} ({rule})"
    ),
    "retreat_home": (
        "your units retreat to {home:territory} (or, with Seaworthy, an adjacent lake: {rule})"
    ),
    # bottom row
    "factory_bottom": (
        "the Factory card's bottom row is a Move of one unit: choose the unit ({rule})"
    ),
    "bottom_cost": "{action:cap} costs {need} {res}; you control {have} ({rule})",
    "no_card_value": "you hold no combat card of value {value}",
    "coercion_only": "only Crimea (Coercion) pays with a combat card ({rule})",
    "coercion_used": "Coercion replaces one resource per turn, already used ({rule})",
    "pay_in": "this cost is paid in {res}, not {other} ({rule})",
    "pay_uncontrolled": "you do not control {loc:territory}, so its tokens are not yours ({rule})",
    "pay_none": "there is no {res} on {loc:territory} ({rule})",
    "bottom_is": "this bottom action is {action} ({rule})",
    "upgrade_full": "that top box is already upgraded or that bottom slot is full ({rule})",
    "mech_deployed": "that mech is already deployed ({rule})",
    "deploy_where": (
        "a mech is deployed on a territory you control with one of your workers, never a "
        "lake; {loc:territory} is not one ({rule})"
    ),
    "built": "your {structure} is already built ({rule})",
    "structure_there": "{loc:territory} already holds a structure ({rule})",
    "build_where": (
        "a structure goes on a territory you control with one of your workers, never a "
        "lake or home base; {loc:territory} is not one ({rule})"
    ),
    "enlisted": "that recruit is already enlisted or that one-time space is taken ({rule})",
    # encounters, factory, objectives
    "place_gain_first": "place the gained resource tokens first, or done ({rule})",
    "gain_where": "gained tokens go on {loc:territory} ({rule})",
    "take_grant": "take the granted {grants:list_or}, or skip ({rule})",
    "no_option": "encounter card {card} has options 1 to {count}",
    "option_chosen": "you already chose option {slot} ({rule})",
    "meander_only": "only Polania (Meander) chooses a second option ({rule})",
    "option_too_much": "option {slot} asks more than you can give ({rule})",
    "factory_not_offered": "Factory card {number} is not in the offer ({rule})",
    "objective_unheld": "you do not hold objective {number} ({rule})",
    "reveal_window": "an objective was already revealed in this window ({rule})",
    "objective_false": "the condition of objective {number} does not hold now ({rule})",
    "objective_star": "you already have your objective star ({rule})",
    "option_first": "choose an option you can pay first ({rule})",
}
"""English template of each code (syntax: :mod:`hexfolk.core.reasons`)."""

REASONS = ReasonBook(
    TEXTS,
    {
        "track": _track,
        "decision": lambda key: DECISIONS[key],
        "gain": lambda key: GAIN_WORDS[key],
    },
    PLACE_KINDS,  # {loc:territory} reads the board's label, as the board shows it
)
