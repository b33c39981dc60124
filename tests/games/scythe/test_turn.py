"""Scenario tests for the turn skeleton, the top row and the bottom row (SR-5..SR-24)."""

from __future__ import annotations

import pytest

from hexfolk.core import IllegalActionError
from hexfolk.games.scythe import data as D

from .helpers import (
    L,
    clear_board,
    draw,
    give,
    hand,
    legal,
    play,
    position,
    put_mech,
    put_res,
    put_structure,
    put_workers,
    res_at,
    set_hand,
)


def worked_turn_position():  # type: ignore[no-untyped-def]
    """The 'turn played out' of the English seed: Produce/Deploy with three mechs out."""
    s = position("crimea,nordic", "industrial,engineering")
    clear_board(s)
    put_workers(s, 0, "r4c6", 2)
    put_workers(s, 0, "r3c6", 1)
    put_workers(s, 0, "r3c5", 1)
    for ability in ("riverwalk", "wayfare", "scout"):
        put_mech(s, 0, ability, "r4c6")
    put_res(s, "r4c6", "metal", 1)
    give(s, 0, coins=5, power=4)
    set_hand(s, 0, [])
    give(s, 1, recruits=("deploy",))  # the neighbour's Deploy recruit
    return s


def test_sr12_sr19_sr22_worked_turn_from_the_seed() -> None:
    s = worked_turn_position()
    coins1 = s.coins[1]
    play(s, "section 2")  # Industrial: Produce over Deploy
    # SR-19: 4 workers off the mat -> the produce track costs 1 power.
    play(s, "produce r4c6")
    assert s.power[0] == 3 and res_at(s, "r4c6", "metal") == 3
    play(s, "produce r3c6")  # the village makes a worker from the mat
    assert s.workers_out(0) == 5
    assert s.prompt().kind == "bottom-action"  # two territories used: the top action ends
    # SR-12: top-row gains pay the bottom row; the only territory with metal pays by itself.
    play(s, "bottom")
    assert res_at(s, "r4c6", "metal") == 0
    play(s, "deploy speed r4c6")
    assert s.mechs_out(0) == 4
    assert s.coins[0] == 5 + 2  # Deploy's section coins after the cost
    assert s.coins[1] == coins1 + 1  # SR-9: the neighbour's Deploy recruit
    assert s.stars[D.STAR_INDEX["mechs"]] == 1  # SR-50: fourth mech
    play(s, "end")
    assert s.active == 1
    play(s, "section 1", "skip", "skip", "end")
    assert "section 2" not in legal(s)  # SR-6


def test_sr5_first_player_is_lowest_mat_and_play_goes_clockwise() -> None:
    s = position("polania,nordic,crimea", "agricultural,patriotic,industrial")
    assert s.order == [1, 2, 0]  # Nordic, Crimea, Polania clockwise
    assert s.active == 2  # Industrial is mat 1
    play(s, "section 1", "skip", "skip", "end")
    assert s.active == 0  # clockwise after Crimea comes Polania


def test_sr6_section_not_repeated_except_relentless() -> None:
    s = position("nordic,rusviet", "industrial,engineering")
    play(s, "section 3", "skip", "skip", "end")
    play(s, "section 3", "skip", "skip", "end")  # Rusviet may reuse its previous section...
    assert "section 3" not in legal(s)  # ...Nordic may not
    play(s, "section 1", "skip", "skip", "end")
    assert "section 3" in legal(s)  # SR-6 (Relentless)


def test_sr8_dead_turn_still_moves_the_token() -> None:
    s = position("nordic,crimea", "industrial,engineering")
    give(s, 0, coins=0)
    play(s, "section 1")  # Bolster/Upgrade: cannot pay $1 nor 3 oil
    assert legal(s) == ["skip"]
    play(s, "skip")
    assert legal(s) == ["skip"]
    play(s, "skip")
    assert legal(s) == ["end"]  # the reveal window (public: objectives held)
    play(s, "end")
    assert s.last_section[0] == 0 and s.active == 1


def test_sr16_move_or_coins_never_both() -> None:
    s = position("nordic,crimea", "industrial,engineering")
    play(s, "section 3")  # Industrial: Move/Build
    assert "coins" in legal(s)
    play(s, "coins")
    assert s.coins[0] == 4 + 1
    assert s.prompt().kind == "bottom-action"


def test_sr17_bolster_and_monument() -> None:
    s = position("nordic,crimea", "industrial,engineering")
    put_structure(s, 0, "monument", "r1c4")
    play(s, "section 1", "bolster power")
    assert (s.coins[0], s.power[0], s.popularity[0]) == (3, 6, 3)
    s2 = position("nordic,crimea", "industrial,engineering")
    play(s2, "section 1", "bolster cards")
    draw(s2, 5)
    assert hand(s2, 0).count(5) >= 1 and len(hand(s2, 0)) == 2


def test_sr18_trade_resources_or_popularity_and_armory() -> None:
    s = position("nordic,crimea", "industrial,engineering")
    put_structure(s, 0, "armory", "r1c5")
    play(s, "section 4")  # Industrial: Trade/Enlist
    opts = legal(s)
    assert "trade popularity" in opts and "trade oil r1c4" in opts
    assert not any(o.startswith("trade") and "r7c3" in o for o in opts)
    play(s, "trade oil r1c4", "trade food r1c5")
    assert res_at(s, "r1c4", "oil") == 1 and res_at(s, "r1c5", "food") == 1
    assert s.coins[0] == 3 and s.power[0] == 5 and s.popularity[0] == 2  # SE-12: never both


def test_sr19_produce_track_mill_and_limits() -> None:
    s = position("nordic,crimea", "industrial,engineering")
    clear_board(s)
    put_workers(s, 0, "r1c4", 2)  # forest
    put_workers(s, 0, "r1c5", 2)  # tundra
    put_workers(s, 0, "r2c4", 1)  # mountain
    put_workers(s, 0, "r1c6", 1)  # village
    put_structure(s, 0, "mill", "r2c5")  # farm, no worker there
    give(s, 0, popularity=5)
    play(s, "section 2")
    # 6 workers off the mat: cost 1 power and 1 popularity (SR-19)
    play(s, "produce r1c4")
    assert (s.power[0], s.popularity[0]) == (3, 4)
    assert res_at(s, "r1c4", "wood") == 2
    play(s, "produce r1c6")  # village: one new worker
    assert s.workers_out(0) == 7
    # the limit of 2 is reached, but the Mill's territory is still an extra choice
    assert legal(s) == ["done", "produce r2c5"]
    play(s, "produce r2c5")
    assert res_at(s, "r2c5", "food") == 1
    assert s.prompt().kind == "bottom-action"


def test_sr20_sr21_upgrade_lowers_bottom_cost() -> None:
    s = position("nordic,crimea", "industrial,engineering")
    put_res(s, "r1c5", "oil", 3)
    assert s.bottom_cost(0, D.BOTTOM_INDEX["deploy"]) == 3
    play(s, "section 1", "skip", "bottom")
    assert res_at(s, "r1c5", "oil") == 0
    opts = legal(s)
    assert "upgrade move-units deploy" in opts and "skip" in opts
    assert "upgrade move-units upgrade" in opts  # Industrial upgrade has one slot
    play(s, "upgrade move-units deploy")
    assert s.bottom_cost(0, D.BOTTOM_INDEX["deploy"]) == 2
    assert s.coins[0] == 4 + 3  # section coins
    assert s.top_value(0, "move-units") == 3


def test_sr12_cannot_take_an_unaffordable_bottom_action() -> None:
    s = position("nordic,crimea", "industrial,engineering")
    put_res(s, "r1c5", "oil", 2)
    play(s, "section 1", "skip")
    assert "bottom" not in legal(s)
    with pytest.raises(IllegalActionError):
        s.parse_action("bottom")


def test_sr14_pay_only_from_controlled_territories_chosen_by_the_player() -> None:
    s = position("nordic,crimea", "industrial,engineering")
    put_res(s, "r1c4", "oil", 2)
    put_res(s, "r1c5", "oil", 2)
    put_res(s, "r3c3", "oil", 5)  # nobody controls it
    play(s, "section 1", "skip", "bottom")
    assert legal(s) == ["pay oil r1c4", "pay oil r1c5"]
    play(s, "pay oil r1c4", "pay oil r1c4")
    assert legal(s) == ["pay oil r1c5"] or s.prompt().kind == "benefit"
    assert res_at(s, "r3c3", "oil") == 5


def test_sr22_sr23_deploy_and_build_need_a_worker_and_no_lake() -> None:
    s = position("nordic,crimea", "industrial,engineering")
    put_res(s, "r1c5", "wood", 3)
    put_structure(s, 1, "mine", "r1c4")  # an enemy structure: no second structure there
    play(s, "section 3", "skip", "bottom")
    opts = legal(s)
    assert "build mill r1c5" in opts
    assert not any("r1c4" in o for o in opts)  # SR-23: one structure per territory
    play(s, "build mill r1c5")
    assert s.structure_at[L("r1c5")] >= 0
    assert s.coins[0] == 4 + 1


def test_sr24_enlist_one_time_bonus_and_ongoing_bonus_oq18() -> None:
    s = position("nordic,crimea", "industrial,engineering")
    put_res(s, "r1c5", "food", 4)
    play(s, "section 4", "skip", "bottom")
    opts = legal(s)
    assert len(opts) == 1 + 16
    play(s, "enlist enlist coins")
    # +2 coins one-time; the Enlist recruit pays its combat card on this very action (OQ-18)
    assert s.coins[0] == 4 + 2
    draw(s, 3)
    assert 3 in hand(s, 0)


def test_sr9_recruit_bonus_neighbours_3p_and_once_in_2p() -> None:
    s = position("nordic,rusviet,crimea", "industrial,engineering,mechanical")
    for p in range(3):
        give(s, p, recruits=("upgrade",))
    put_res(s, "r1c5", "oil", 3)
    powers = list(s.power)
    play(s, "section 1", "skip", "bottom", "skip")  # paid only for the coins
    assert s.power == [powers[0] + 1, powers[1] + 1, powers[2] + 1]
    s2 = position("nordic,crimea", "industrial,engineering")
    give(s2, 1, recruits=("upgrade",))
    put_res(s2, "r1c5", "oil", 3)
    p1 = s2.power[1]
    play(s2, "section 1", "skip", "bottom", "skip")
    assert s2.power[1] == p1 + 1  # SR-9: once, though both neighbours


def test_sr9_top_actions_never_trigger_recruit_bonuses() -> None:
    s = position("nordic,crimea", "industrial,engineering")
    give(s, 1, recruits=tuple(D.BOTTOM_ACTIONS))
    before = (s.power[1], s.coins[1], s.popularity[1])
    play(s, "section 1", "bolster power", "skip")
    assert (s.power[1], s.coins[1], s.popularity[1]) == before


def test_sr15_tracks_are_capped() -> None:
    s = position("nordic,crimea", "industrial,engineering")
    give(s, 0, power=15)
    play(s, "section 1", "bolster power")
    assert s.power[0] == D.POWER_MAX
    assert s.stars[D.STAR_INDEX["power"]] == 1  # SR-50


def test_sr10_off_turn_recruit_star_placed_after_the_action() -> None:
    s = position("nordic,crimea", "industrial,engineering")
    give(s, 1, recruits=("upgrade",), power=15)
    put_res(s, "r1c5", "oil", 3)
    play(s, "section 1", "skip", "bottom", "skip")
    assert s.power[1] == 16
    assert s.stars[len(D.STAR_SOURCES) + D.STAR_INDEX["power"]] == 1


def test_sr10_sr11_active_sixth_star_blocks_off_turn_star() -> None:
    s = position("nordic,crimea", "industrial,engineering")
    five = {"combat": 2, "objective": 1, "mechs": 1, "structures": 1}
    give(s, 1, recruits=("upgrade",), power=15, stars=five)
    boxes = ("move-coins", "bolster-power", "bolster-cards", "trade-popularity")
    cubes = ("deploy", "deploy", "enlist", "enlist", "upgrade")
    give(s, 0, stars=five, upgrades=dict(zip((*boxes, "produce-territories"), cubes)))
    put_res(s, "r1c5", "oil", 3)
    play(s, "section 1", "skip", "bottom", "upgrade move-units build")
    assert s.is_terminal()
    assert s.star_total == [6, 5]  # Crimea's 16-power star is never placed
    assert s.power[1] == 16
    assert s.returns()[0] + s.returns()[1] == 1.0


def test_sr12_benefits_taken_in_part_and_coins_declined() -> None:
    s = position("nordic,crimea", "industrial,engineering")
    before = s.fingerprint()
    play(s, "section 1")
    assert "bolster power 1" not in legal(s)  # exact partial forms are accepted, not listed
    with pytest.raises(IllegalActionError):
        s.parse_action("bolster power 3")  # more than the benefit
    play(s, "bolster power 1")
    assert s.power[0] == 5 and s.coins[0] == 3
    put_res(s, "r1c5", "oil", 3)
    play(s, "bottom no-coins", "skip")
    assert s.coins[0] == 3  # SR-7: the section coins were declined
    assert s.fingerprint() != before


def test_oq18_option_enlist_recruit_pays_only_later() -> None:
    s = position("nordic,crimea", "industrial,engineering", oq18_enlist_pays_same_action=False)
    put_res(s, "r1c5", "food", 4)
    play(s, "section 4", "skip", "bottom", "enlist enlist coins")
    assert not s.is_chance()  # no combat card this time
    assert s.prompt().kind == "end-turn"


def test_sr12_sr19_produce_fewer_workers_than_possible() -> None:
    s = position("nordic,crimea", "industrial,engineering")
    clear_board(s)
    put_workers(s, 0, "r1c6", 3)  # a village
    play(s, "section 2", "produce r1c6 1")
    assert s.workers_out(0) == 4  # one new worker, not three
    with pytest.raises(IllegalActionError):
        s.parse_action("produce r1c6 1")  # already produced there
