"""Scenario tests for combat (SR-42..SR-46) and the combat abilities (SR-40, SR-41)."""

from __future__ import annotations

from typing import Any

import pytest

from hexfolk.core import IllegalActionError
from hexfolk.games.scythe import data as D
from hexfolk.games.scythe.actions import Carry

from .helpers import (
    L,
    clear_board,
    draw,
    edit,
    give,
    hand,
    legal,
    play,
    position,
    put_char,
    put_mech,
    put_res,
    put_workers,
    res_at,
    set_hand,
)

NSTAR = len(D.STAR_SOURCES)
COMBAT = D.STAR_INDEX["combat"]


def battle(factions: str = "nordic,crimea", mats: str = "industrial,engineering"):  # type: ignore[no-untyped-def]
    """P0's character on r3c3 next to P1's mech and worker on the Factory (r4c3)."""
    s = position(factions, mats)
    clear_board(s)
    put_char(s, 0, "r3c3")
    put_mech(s, 1, "riverwalk", "r4c3")
    put_workers(s, 1, "r4c3", 1)
    put_res(s, "r4c3", "oil", 2)
    set_hand(s, 0, [5])
    set_hand(s, 1, [2, 3])
    give(s, 0, power=5, popularity=6)
    give(s, 1, power=5)
    return s


def test_sr42_sr43_tie_goes_to_attacker_payments_retreat_and_consolation() -> None:
    s = battle()
    play(s, "section 3", "move character r3c3", "to r4c3", "done")
    assert s.prompt().kind == "commit" and s.current_player() == 0
    legal0 = legal(s)
    assert "commit 5 cards 5" in legal0 and "commit 6" not in legal0  # dial <= power
    play(s, "commit 2")
    assert s.current_player() == 1
    assert "commit 2 cards 2,3" not in legal(s)  # one card per character/mech there
    play(s, "commit 0 cards 2")
    # C3: 2 vs 2, the attacker wins ties; C4: both pay the dial
    assert s.power == [3, 5]
    assert s.stars[COMBAT] == 1
    assert s.popularity[0] == 6 - 1  # C6: one defending worker retreated
    assert s.mech_loc[1 * D.MECHS + 0] == L("home_crimea")
    assert s.workers_on[L("home_crimea") * 2 + 1] == 1
    assert s.controller(L("r4c3")) == 0 and res_at(s, "r4c3", "oil") == 2  # C5
    assert s.combat_discard[D.CARD_INDEX[2]] == 1
    draw(s, 4)  # C7: the loser revealed 2 >= 1 and draws a card
    assert sorted(hand(s, 1)) == [3, 4]


def test_sr43_c7_loser_with_zero_total_draws_nothing() -> None:
    s = battle()
    play(s, "section 3", "move character r3c3", "to r4c3", "done", "commit 1", "commit 0")
    assert not s.is_chance()
    # the winner's character is on the Factory after combat: the offer comes next (SR-48)
    assert s.prompt().kind == "factory-offer"
    play(s, legal(s)[0])
    assert s.prompt().kind == "bottom-action"


def test_sr44_defender_wins_and_loses_no_popularity() -> None:
    s = battle()
    pop1 = s.popularity[1]
    play(s, "section 3", "move character r3c3", "to r4c3", "done", "commit 0", "commit 1")
    assert s.character_loc[0] == L("home_nordic")
    assert s.stars[NSTAR + COMBAT] == 1 and s.popularity[1] == pop1
    assert not s.is_chance()  # the attacker revealed 0


def test_sr59_commitments_hidden_until_reveal() -> None:
    s = battle()
    play(s, "section 3", "move character r3c3", "to r4c3", "done", "commit 3 cards 5")
    obs1 = s.observation(1)
    assert "own" not in obs1["combat"]["commitments"]
    assert obs1["combat"]["commitments"]["committed"] == [0]
    assert obs1["player_state"][0]["combat_cards"] == 1  # count unchanged until reveal
    assert s.observation(0)["combat"]["commitments"]["own"] == [3, [5]]


def test_sr43_c1_artillery() -> None:
    s = battle()
    put_mech(s, 0, "artillery", "r3c2")
    play(s, "section 3", "move character r3c3", "to r4c3", "done")
    assert legal(s) == ["no artillery", "artillery"]
    play(s, "artillery")
    assert s.power == [4, 3]
    assert "commit 4" in legal(s)


def test_sr43_c1_scout_takes_a_random_card() -> None:
    s = battle("crimea,nordic", "industrial,engineering")
    # swap roles: Crimea (P0) attacks Nordic (P1)
    clear_board(s)
    put_char(s, 0, "r3c3")
    put_mech(s, 0, "scout", "r3c2")
    put_mech(s, 1, "riverwalk", "r4c3")
    set_hand(s, 0, [])
    set_hand(s, 1, [5, 5])
    play(s, "section 3", "move character r3c3", "to r4c3", "done")
    assert s.is_chance()
    assert [str(a) for a, _ in s.chance_outcomes()] == ["scout 5"]
    play(s, "scout 5")
    assert hand(s, 0) == [5] and hand(s, 1) == [5]
    assert "commit 0 cards 5" in legal(s)  # playable now


def test_sr43_c1_disarm_only_on_a_printed_tunnel_oq5() -> None:
    s = position("saxony,crimea", "industrial,engineering")
    clear_board(s)
    put_char(s, 0, "r5c1")
    put_mech(s, 0, "disarm", "r7c1")
    put_mech(s, 1, "riverwalk", "r5c2")  # a tunnel farm
    give(s, 1, power=5)
    play(s, "section 3", "move character r5c1", "to r5c2", "done")
    assert s.power[1] == 3


def test_sr43_peoples_army_extra_card_with_a_worker() -> None:
    s = position("rusviet,crimea", "engineering,mechanical")
    clear_board(s)
    put_mech(s, 0, "peoples-army", "r4c4")
    put_workers(s, 0, "r4c4", 1)
    put_mech(s, 1, "riverwalk", "r4c3")
    set_hand(s, 0, [2, 3])
    play(s, "section 4", "move mech r4c4", "carry all", "to r4c3", "done")
    assert "commit 0 cards 2,3" in legal(s)  # 1 mech + People's Army with a worker


def test_sr44_camaraderie_cancels_the_winning_attackers_loss() -> None:
    s = position("polania,crimea", "industrial,engineering")
    clear_board(s)
    put_char(s, 0, "r3c3")
    put_mech(s, 0, "camaraderie", "r3c2")
    put_mech(s, 1, "riverwalk", "r4c3")
    put_workers(s, 1, "r4c3", 2)
    pop = s.popularity[0]
    play(s, "section 3", "move character r3c3", "to r4c3", "done", "commit 1", "commit 0")
    assert s.popularity[0] == pop


def test_sr45_combat_stars_capped_at_two_except_saxony() -> None:
    s = battle()
    give(s, 0, stars={"combat": 2})
    play(s, "section 3", "move character r3c3", "to r4c3", "done", "commit 1", "commit 0")
    assert s.stars[COMBAT] == 2 and s.star_total[0] == 2
    x = position("saxony,crimea", "industrial,engineering")
    clear_board(x)
    put_char(x, 0, "r3c3")
    put_mech(x, 1, "riverwalk", "r4c3")
    give(x, 0, stars={"combat": 2})
    play(x, "section 3", "move character r3c3", "to r4c3", "done", "commit 1", "commit 0")
    assert x.stars[COMBAT] == 3  # SR-52 Dominate


def empty_the_combat_deck(doc: dict[str, Any]) -> None:
    """Every combat card not in a hand is on the discard pile."""
    doc["combat_discard"] = dict(doc["combat_deck"])
    doc["combat_deck"] = {value: 0 for value in doc["combat_deck"]}


def test_sr46_empty_deck_reshuffles_the_discard() -> None:
    s = battle()
    edit(s, empty_the_combat_deck)
    discarded = sum(s.combat_discard)
    play(s, "section 1", "bolster cards")
    assert s.is_chance() and sum(s.combat_deck) == discarded > 0 and sum(s.combat_discard) == 0


def test_sr41_coercion_pays_with_a_combat_card_once_per_turn() -> None:
    s = position("crimea,nordic", "industrial,engineering")
    put_res(s, "r7c3", "oil", 2)
    set_hand(s, 0, [2, 4])
    play(s, "section 1", "skip", "bottom")  # Upgrade costs 3 oil
    assert legal(s) == ["pay oil r7c3", "pay card 2", "pay card 4"]
    play(s, "pay card 2")
    assert hand(s, 0) == [4] and s.combat_discard[D.CARD_INDEX[2]] == 1
    assert legal(s) == ["pay oil r7c3"] or s.prompt().kind == "benefit"


def test_sr11_sixth_star_in_combat_ends_game_and_returns_units_oq9() -> None:
    s = battle()
    put_mech(s, 0, "speed", "r1c6")
    put_char(s, 1, "r2c5")
    give(s, 0, stars={"combat": 1, "objective": 1, "power": 1, "popularity": 1, "upgrades": 1})
    play(s, "section 3", "move character r3c3", "to r4c3")
    play(s, "move mech r1c6", "to r2c5")  # Speed stops on the enemy character
    assert legal(s) == ["fight r2c5", "fight r4c3"]
    play(s, "fight r4c3", "commit 1", "commit 0")
    assert s.is_terminal()
    assert s.star_total[0] == 6
    slot = D.FACTIONS[s.faction[0]]["mech_abilities"].index("speed")
    assert s.mech_loc[slot] == L("r1c6")  # OQ-9: back where its Move began
    assert s.summary()["end_reason"].startswith("sixth star")


def test_sr42_illegal_commit_is_rejected_and_changes_nothing() -> None:
    s = battle()
    play(s, "section 3", "move character r3c3", "to r4c3", "done")
    before = s.fingerprint()
    with pytest.raises(IllegalActionError):
        s.apply(s.game.parse_action_syntax("commit 9"))
    with pytest.raises(IllegalActionError):
        s.parse_action("commit 1 cards 4")
    assert s.fingerprint() == before


def test_oq6_camaraderie_option_also_cancels_displacement_loss() -> None:
    for literal, loss in ((True, 1), (False, 0)):
        s = position(
            "polania,crimea", "industrial,engineering", oq6_camaraderie_combat_only=literal
        )
        clear_board(s)
        put_char(s, 0, "r3c3")
        put_mech(s, 0, "camaraderie", "r3c2")
        put_workers(s, 1, "r4c3", 1)
        pop = s.popularity[0]
        play(s, "section 3", "move character r3c3", "to r4c3")
        assert s.popularity[0] == pop - loss  # OQ-6 default: displacement still costs popularity


def test_sr35_oq8_seaworthy_loser_may_retreat_to_an_adjacent_lake() -> None:
    s = position("crimea,nordic", "industrial,engineering")
    clear_board(s)
    put_char(s, 0, "r3c3")
    put_mech(s, 1, "seaworthy", "r4c3")  # Nordic defends the Factory
    play(s, "section 3", "move character r3c3", "to r4c3", "done", "commit 1", "commit 0")
    assert s.current_player() == 1 and s.prompt().kind == "retreat"
    assert legal(s) == ["retreat home_nordic", "retreat r3c4", "retreat r4c2", "retreat r5c4"]
    play(s, "retreat r3c4")
    slot = D.FACTIONS[s.faction[1]]["mech_abilities"].index("seaworthy")
    assert s.mech_loc[D.MECHS + slot] == L("r3c4")
    s2 = position("crimea,nordic", "industrial,engineering", oq8_seaworthy_lake_retreat=False)
    clear_board(s2)
    put_char(s2, 0, "r3c3")
    put_mech(s2, 1, "seaworthy", "r4c3")
    play(s2, "section 3", "move character r3c3", "to r4c3", "done", "commit 1", "commit 0")
    assert s2.mech_loc[D.MECHS + slot] == L("home_nordic")


def _nordic_on_the_lake_with_a_worker():  # type: ignore[no-untyped-def]
    """Nordic (seat 1) defends the Factory with its Seaworthy mech and a worker, loses, and
    retreats onto the lake r3c4 with the worker (OQ-8); then it is Nordic's turn."""
    s = position("crimea,nordic", "industrial,engineering")
    clear_board(s)
    put_char(s, 0, "r3c3")
    put_mech(s, 1, "seaworthy", "r4c3")
    put_workers(s, 1, "r4c3", 1)
    play(s, "section 3", "move character r3c3", "to r4c3", "done", "commit 1", "commit 0")
    play(s, "retreat r3c4")
    assert s.workers_on[L("r3c4") * 2 + 1] == 1  # the worker came along (OQ-8)
    while s.current_player() == 0 or s.is_chance():
        if s.is_chance():
            s.apply(s.chance_outcomes()[0][0])
        else:
            play(s, "skip" if "skip" in legal(s) else legal(s)[0])
    return s


def test_sr35_oq8_a_mech_leaving_a_lake_takes_the_workers_brought_there() -> None:
    """SR-35: workers brought onto a lake cannot be left there, and a worker leaves a lake only
    carried by a mech: a Seaworthy mech starting its move on a lake with a worker (after an
    OQ-8 retreat) must take it along; ``carry none`` would strand it."""
    s = _nordic_on_the_lake_with_a_worker()
    assert s.current_player() == 1 and s.prompt().kind == "choose-section"
    play(s, "section 4", "move mech r3c4")
    assert s.prompt().kind == "carry"
    assert legal(s) == ["carry 1worker"]
    reason = s.why_illegal(1, Carry(0, (0, 0, 0, 0)))
    assert reason is not None and "SR-35" in reason
    play(s, "carry 1worker")
    step = next(a for a in legal(s) if a.startswith("to "))
    play(s, step)
    assert s.workers_on[L("r3c4") * 2 + 1] == 0  # nobody is left on the lake
    assert s.workers_on[L(step[3:]) * 2 + 1] == 1
