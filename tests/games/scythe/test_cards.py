"""Card content (issue #5): all 28 encounter cards (SR-47, SR-41, OQ-13), all 12 Factory cards
(SR-48, SR-49, OQ-4, OQ-14), the structure bonus tile ladders (SR-55, OQ-1, OQ-2), and the
SR-35 / OQ-8 / OQ-12 movement gaps.

Expected effects are computed here from the raw card record (``data/cards.json`` read with
``json``), not by calling the engine's own card code.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hexfolk.core import PositionError
from hexfolk.games.scythe import data as D
from hexfolk.games.scythe.state import ScytheState

from .helpers import (
    L,
    clear_board,
    draw,
    give,
    hand,
    legal,
    play,
    position,
    put_char,
    put_mech,
    put_structure,
    put_workers,
    res_at,
    set_hand,
    set_seat,
    set_table,
)

RAW = json.loads((Path(D.__file__).parent / "data" / "cards.json").read_text(encoding="utf-8"))
ENC = {c["number"]: c for c in RAW["encounter_cards"]}
FAC = {c["number"]: c for c in RAW["factory_cards"]}
RES = ("oil", "metal", "food", "wood")
T = "r2c6"  # an encounter territory (farm); r2c5 is next to it, no river


def snapshot(s: ScytheState, p: int, loc: str) -> dict[str, int]:
    n = s.n
    return {
        "power": s.power[p],
        "popularity": s.popularity[p],
        "coins": s.coins[p],
        "cards": len(hand(s, p)),
        "workers_here": s.workers_on[L(loc) * n + p],
        "mechs": s.mechs_out(p),
        "structures": s.structures_built(p),
        "upgrades": bin(s.upgrades[p]).count("1"),
        "recruits": bin(s.recruits[p]).count("1"),
        **{r: res_at(s, loc, r) for r in RES},
    }


def encounter_position(
    faction: str = "nordic", mat: str = "industrial", deck_bottom: list[int] | None = None
) -> ScytheState:
    """Seat 0's character has just stepped onto the encounter territory ``T`` (from r2c5),
    with $10, 10 popularity, 5 power and a 2; ``deck_bottom``: the encounter cards already
    put back under the deck, top first (SR-47)."""
    s = position(f"{faction},crimea", f"{mat},engineering")
    clear_board(s)
    put_char(s, 0, "r2c5")
    give(s, 0, coins=10, popularity=10, power=5)
    set_hand(s, 0, [2])
    if deck_bottom is not None:
        set_table(s, encounter_deck_bottom=deck_bottom)
    move = next(i for i, sec in enumerate(D.SECTIONS[s.mat[0]]) if sec[0] == "move")
    play(s, f"section {move + 1}", "move character r2c5", f"to {T}", "done")
    return s


def resolve_grants(s: ScytheState) -> None:
    """Take every granted benefit: the first listed choice; resources as oil."""
    while not s.is_terminal():
        if s.is_chance():
            draw(s, 2)
            continue
        kind = s.prompt().kind
        if kind != "gain":
            return
        acts = legal(s)
        pick = next((a for a in acts if a.startswith("gain oil")), None)
        if pick is None:
            pick = next(a for a in acts if a not in ("skip", "done"))
        play(s, pick)


def expected_delta(option: dict[str, Any]) -> dict[str, int]:
    exp: dict[str, int] = {}
    for k, v in option["cost"].items():
        key = "cards" if k == "combat_cards" else k
        exp[key] = exp.get(key, 0) - v
    for item in option["benefit"]:
        if isinstance(item, str):
            key = {"build": "structures", "deploy": "mechs", "upgrade": "upgrades"}.get(item)
            if item == "enlist":
                exp["recruits"] = exp.get("recruits", 0) + 1
                exp["power"] = exp.get("power", 0) + 2  # the first space: +2 power
            else:
                assert key is not None
                exp[key] = exp.get(key, 0) + 1
            continue
        for k, v in item.items():
            key = {"combat_cards": "cards", "worker": "workers_here", "resources_any": "oil"}.get(
                k, k
            )
            exp[key] = exp.get(key, 0) + v
    return exp


ENC_CASES = [(c, k) for c in sorted(ENC) for k in range(len(ENC[c]["options"]))]


@pytest.mark.parametrize(
    ("card", "slot"), ENC_CASES, ids=[f"encounter_{c:02d}_option_{k + 1}" for c, k in ENC_CASES]
)
def test_sr47_encounter_option(card: int, slot: int) -> None:
    s = encounter_position()
    assert s.is_chance() and s.chance_outcomes()[0][1] == pytest.approx(1 / len(ENC))
    play(s, f"encounter {card}")
    assert s.prompt().kind == "encounter"
    assert not s.encounter_tokens[L(T)]
    obs = s.observation(1)  # the drawn card is shown to all
    assert obs["encounter"]["card"] == card
    before = snapshot(s, 0, T)
    play(s, f"option {slot + 1}")
    resolve_grants(s)
    after = snapshot(s, 0, T)
    exp = expected_delta(ENC[card]["options"][slot])
    got = {k: after[k] - before[k] for k in after if after[k] != before[k]}
    assert got == {k: v for k, v in exp.items() if v}
    # no section coins or recruit bonus; the card goes to the deck bottom
    assert s.prompt().kind == "bottom-action"
    assert s.encounter_bottom == [card] and s.encounter_card == -1


def test_sr47_unaffordable_options_are_not_offered() -> None:
    s = encounter_position()
    give(s, 0, coins=0, popularity=0)
    play(s, "encounter 1")  # option 2 costs $2, option 3 two popularity
    assert legal(s) == ["option 1"]


def test_oq13_encounter_build_on_a_taken_territory_is_forfeited() -> None:
    s = encounter_position()
    put_structure(s, 1, "mine", T)  # the opponent's mine already stands there
    play(s, "encounter 1", "option 3")  # cost 2 popularity: build
    assert s.popularity[0] == 8 and s.structures_built(0) == 0
    assert s.prompt().kind == "bottom-action"


def test_sr47_encounter_build_needs_no_worker_and_pays_no_recruit_bonus() -> None:
    s = encounter_position()
    give(s, 0, recruits=("build",))  # a build recruit would pay popularity
    play(s, "encounter 1", "option 3")
    assert s.workers_on[L(T) * 2] == 0
    assert all(a.endswith(T) for a in legal(s) if a != "skip")
    play(s, "build mine")
    assert s.structure_loc[D.STRUCT_INDEX["mine"]] == L(T) and s.popularity[0] == 8


def test_sr41_meander_two_options_first_pays_the_second() -> None:
    s = encounter_position("polania", "industrial")
    give(s, 0, coins=0)
    play(s, "encounter 13")
    assert legal(s) == ["option 1", "option 3"]  # option 2 costs $2
    play(s, "option 1")  # +$2, +1 popularity
    assert legal(s) == ["done", "option 2", "option 3"]
    play(s, "option 2")  # pays the $2 just gained: +2 power, +2 popularity
    assert (s.coins[0], s.popularity[0], s.power[0]) == (0, 13, 7)
    assert s.prompt().kind == "bottom-action"


def test_sr41_meander_any_order_and_may_stop_after_one() -> None:
    s = encounter_position("polania", "industrial")
    play(s, "encounter 13", "option 3")  # -3 popularity, five resources
    for _ in range(5):
        play(s, f"gain wood {T}")
    assert res_at(s, T, "wood") == 5 and "option 1" in legal(s)
    play(s, "done")
    assert s.popularity[0] == 7 and s.prompt().kind == "bottom-action"


def test_sr47_not_polania_only_one_option() -> None:
    s = encounter_position()
    play(s, "encounter 13", "option 1")
    assert s.prompt().kind == "bottom-action"


def test_sr47_encounter_after_combat_only_if_still_there() -> None:
    for att_dial, encounter in ((2, True), (0, False)):
        s = position("nordic,crimea", "industrial,engineering")
        clear_board(s)
        put_char(s, 0, "r2c5")
        put_mech(s, 1, "wayfare", T)
        give(s, 0, power=5)
        give(s, 1, power=5)
        set_hand(s, 0, [])
        set_hand(s, 1, [])
        play(s, "section 3", "move character r2c5", f"to {T}", "done")
        play(s, f"commit {att_dial}", "commit 1")
        if s.is_chance() and str(s.chance_outcomes()[0][0]).startswith("draw"):
            draw(s, 2)  # the loser revealed 1 or more: its consolation card
        if encounter:
            assert s.is_chance() and str(s.chance_outcomes()[0][0]).startswith("encounter")
            assert not s.encounter_tokens[L(T)]
        else:
            assert s.character_loc[0] == L("home_nordic") and s.encounter_tokens[L(T)]
            assert s.prompt().kind == "bottom-action"


def test_sr47_encounter_deck_draws_unknown_cards_then_the_known_bottom() -> None:
    s = encounter_position(deck_bottom=[c for c in sorted(ENC) if c != 5])
    assert [str(a) for a, _ in s.chance_outcomes()] == ["encounter 5"]
    s2 = encounter_position(deck_bottom=[4, *(c for c in sorted(ENC) if c != 4)])
    assert s2.encounter_card == 4 and not s2.is_chance()  # every card known: the top one, no chance


# --- Factory cards ------------------------------------------------------------------------
def factory_position(card: int) -> ScytheState:
    s = position("nordic,crimea", "industrial,engineering")
    clear_board(s)
    give(s, 0, factory_card=card, coins=10, popularity=10, power=5)
    set_hand(s, 0, [3])
    put_workers(s, 0, "r2c5", 1)  # a farm
    put_workers(s, 0, "r3c5", 1)  # a forest
    return s


@pytest.mark.parametrize("card", sorted(FAC), ids=[f"factory_{c:02d}" for c in sorted(FAC)])
def test_sr49_factory_card_top_action(card: int) -> None:
    s = factory_position(card)
    assert "section factory" in legal(s)
    play(s, "section factory")
    assert legal(s)[:2] == ["skip", "top"]
    before = snapshot(s, 0, "r2c5")
    before_forest = res_at(s, "r3c5", "wood")
    play(s, "top")
    rec = FAC[card]
    if rec["cost"].get("combat_cards"):
        assert s.prompt().kind == "pay-card"
        play(s, "pay card 3")
        assert s.combat_discard[D.CARD_INDEX[3]] == 1
    produced = 0
    while s.prompt().kind in ("produce", "gain"):
        acts = legal(s)
        if s.prompt().kind == "produce":
            pick = next((a for a in acts if a != "done"), "done")
            produced += pick != "done"
        else:
            pick = next((a for a in acts if a.startswith("gain oil r2c5")), None) or next(
                a for a in acts if a not in ("skip", "done")
            )
        play(s, pick)
        if s.is_chance():
            draw(s, 2)
    after = snapshot(s, 0, "r2c5")
    exp: dict[str, int] = {}
    for k, v in rec["cost"].items():
        exp["cards" if k == "combat_cards" else k] = -v
    for item in rec["benefit"]:
        names = [item] if isinstance(item, str) else item.get("choose", [])[:1]
        for name in names:
            key = {"build": "structures", "deploy": "mechs", "upgrade": "upgrades"}
            if name == "enlist":
                exp["recruits"] = 1
                exp["power"] = exp.get("power", 0) + 2  # first space: +2 power
            else:
                exp[key[name]] = exp.get(key[name], 0) + 1
        if isinstance(item, dict):
            for k, v in item.items():
                if k == "produce":
                    exp["food"] = 1  # OQ-14: no Mill, no produce track; farm + forest
                    assert produced == v
                    assert res_at(s, "r3c5", "wood") == before_forest + 1
                elif k == "resources_any":
                    exp["oil"] = v
                elif k != "choose":
                    key2 = "cards" if k == "combat_cards" else k
                    exp[key2] = exp.get(key2, 0) + v
    got = {k: after[k] - before[k] for k in after if after[k] != before[k]}
    assert got == {k: v for k, v in exp.items() if v}
    assert s.prompt().kind == "bottom-action"  # no mat coins, no recruit bonus


def test_oq4_factory_card_3_follows_the_decision_with_its_note() -> None:
    rec = FAC[3]
    assert (
        rec["decision"] == "OQ-4" and rec["provisional"] and rec["benefit"] == [{"popularity": 2}]
    )
    assert "sources" in rec and "note" in rec


def test_sr49_factory_choice_cards_offer_both_actions() -> None:
    for card, names in ((2, ("upgrade", "enlist")), (7, ("deploy", "build"))):
        s = factory_position(card)
        play(s, "section factory", "top")
        heads = {a.split()[0] for a in legal(s)}
        assert heads == {"skip", *names}


def test_sr48_factory_offer_seen_only_by_the_visitor_then_kept() -> None:
    s = position("nordic,crimea", "industrial,engineering")
    clear_board(s)
    put_char(s, 0, "r3c3")
    offer = sorted(s.factory_offer)
    assert len(offer) == 3  # players + 1 (SR-57)
    play(s, "section 3", "move character r3c3", "to r4c3", "done")
    assert s.prompt().kind == "factory-offer"
    assert legal(s) == [f"factory {c}" for c in offer]
    assert s.observation(0)["factory_offer_cards"] == offer
    other = json.dumps(s.observation(1))
    assert "factory_offer_cards" not in other and s.observation(1)["factory_offer"] == 3
    assert "factory_offer_cards" not in json.dumps(s.observation(None))
    play(s, f"factory {offer[1]}")
    assert s.factory_card[0] == offer[1]
    assert s.observation(1)["player_state"][0]["factory_card"] == offer[1]
    assert s.observation(0)["factory_offer_cards"] == [offer[0], offer[2]]
    assert s.prompt().kind == "bottom-action"
    # the other seat's sampled worlds may hold any unseen card in the offer
    import random

    seen = {
        tuple(sorted(s.sample_consistent_state(1, random.Random(i)).factory_offer))
        for i in range(30)
    }
    assert len(seen) > 1 and all(offer[1] not in o for o in seen)
    assert all(
        sorted(s.sample_consistent_state(0, random.Random(i)).factory_offer) == [offer[0], offer[2]]
        for i in range(5)
    )


def test_sr6_factory_section_not_twice_in_a_row_even_rusviet() -> None:
    s = position("rusviet,crimea", "patriotic,engineering")
    set_table(s, active=0)
    give(s, 0, factory_card=4)
    set_seat(s, 0, last_section="factory")
    assert "section factory" not in legal(s)
    set_seat(s, 0, last_section=1)
    assert "section factory" in legal(s) and "section 1" in legal(s)  # Relentless


def test_sr49_factory_move_one_unit_two_steps_speed_three() -> None:
    s = factory_position(5)
    put_char(s, 0, "r3c3")
    play(s, "section factory", "skip")
    assert "move character r3c3" in legal(s) and "move worker r2c5" in legal(s)
    coins = s.coins[0]
    play(s, "move character r3c3", "to r3c2")
    assert "stop" in legal(s)
    play(s, "to r2c3")
    assert s.character_loc[0] == L("r2c3") and s.coins[0] == coins  # no mat coins
    assert s.prompt().kind in ("end-turn", "choose-section")
    s2 = factory_position(5)
    put_char(s2, 0, "r3c3")
    put_mech(s2, 0, "speed", "r5c5")
    play(s2, "section factory", "skip", "move character r3c3", "to r3c2", "to r2c3")
    assert s2.prompt().kind == "step"  # Speed: a third step
    s3 = factory_position(5)
    play(s3, "section factory", "skip", "move worker r3c5", "to r2c5")
    assert s3.prompt().kind == "step"  # a worker moves 2 as well


def test_sr49_factory_move_triggers_an_encounter() -> None:
    s = factory_position(5)
    put_char(s, 0, "r2c5")
    play(s, "section factory", "skip", "move character r2c5", f"to {T}")
    assert s.is_chance() and not s.encounter_tokens[L(T)]
    play(s, "encounter 2", "option 1")
    draw(s, 2)
    assert s.prompt().kind in ("end-turn", "choose-section")


# --- structure bonus tiles ------------------------------------------------------------------
TILES = {t["id"]: t for t in RAW["structure_bonus_tiles"]}


@pytest.mark.parametrize("tile", sorted(TILES))
def test_sr55_tile_ladder(tile: str) -> None:
    rec = TILES[tile]
    assert rec["verified"] and rec["sources"] and rec["note"]
    steps = rec["ladder"]
    for count in range(0, 9):
        want = 0
        for minimum, coins in steps:
            if count >= minimum:
                want = coins
        assert D.ladder_coins(tile, count) == want, (tile, count)
    assert D.ladder_coins(tile, 0) == 0 and D.ladder_coins(tile, 1) == 2


@pytest.mark.parametrize(
    ("tile", "places", "count"),
    [
        ("adjacent_encounters", ["r2c5"], 2),  # r2c6 and r2c4 touch r2c5
        ("on_farms_or_tundra", ["r2c5", "r3c5", "r1c6"], 1),  # farm, forest, village
        ("in_a_row", ["r2c5"], 1),  # OQ-1: a lone structure is a row of 1
        ("on_tunnels", [], 0),
    ],
)
def test_oq2_tile_counts(tile: str, places: list[str], count: int) -> None:
    s = position("nordic,crimea", "industrial,engineering")
    for kind, loc in zip(D.STRUCTURES, places, strict=False):
        put_structure(s, 0, kind, loc)
    set_table(s, structure_tile=tile)
    assert s.tile_count(0) == count
    steps = TILES[tile]["ladder"]
    want = max([c for m, c in steps if count >= m], default=0)
    assert s.score_breakdown(0)["tile_coins"] == want


# --- SR-35 Seaworthy cargo, OQ-8 retreat with workers, OQ-12 Wayfare with Speed ----------
def test_sr35_seaworthy_mech_carries_a_worker_across_a_lake_never_leaving_it() -> None:
    s = position("nordic,crimea", "industrial,engineering")
    clear_board(s)
    put_mech(s, 0, "seaworthy", "r3c3")
    put_workers(s, 0, "r3c3", 1)
    play(s, "section 3", "move mech r3c3", "carry 1worker")
    assert "to r3c4" not in legal(s)  # no Speed: the worker would be left on the lake
    s2 = position("nordic,crimea", "industrial,engineering")
    clear_board(s2)
    put_mech(s2, 0, "seaworthy", "r3c3")
    put_mech(s2, 0, "speed", "r7c1")
    put_workers(s2, 0, "r3c3", 1)
    play(s2, "section 3", "move mech r3c3", "carry 1worker", "to r3c4")
    assert s2.workers_on[L("r3c4") * 2] == 1
    assert legal(s2) == ["carry 1worker"]  # nothing can be put down on the lake
    play(s2, "carry 1worker")
    assert "stop" not in legal(s2) and all(not D.IS_LAKE[L(a[3:])] for a in legal(s2))
    play(s2, legal(s2)[0])
    assert s2.workers_on[L("r3c4") * 2] == 0


def test_sr35_worker_on_a_lake_leaves_only_carried_by_a_mech() -> None:
    s = position("nordic,crimea", "industrial,engineering")
    clear_board(s)
    with pytest.raises(PositionError, match="SR-35"):
        put_workers(s, 0, "r3c4", 1)  # a worker alone on a lake is not a position
    put_mech(s, 0, "seaworthy", "r3c4")
    put_workers(s, 0, "r3c4", 1)
    play(s, "section 3")
    assert not any(a.startswith("move worker") for a in legal(s))
    s2 = position("nordic,crimea", "industrial,engineering")
    clear_board(s2)
    put_mech(s2, 0, "seaworthy", "r3c4")
    put_workers(s2, 0, "r3c4", 1)
    play(s2, "section 3", "move mech r3c4", "carry 1worker", "to r3c3")
    assert s2.workers_on[L("r3c3") * 2] == 1


def test_oq8_seaworthy_retreat_takes_workers_onto_the_lake() -> None:
    for text, on_lake in (("retreat r3c4", 1), ("retreat r3c4 no-workers", 0)):
        s = position("nordic,crimea", "industrial,engineering")
        clear_board(s)
        put_mech(s, 0, "seaworthy", "r3c3")
        put_workers(s, 0, "r3c3", 1)
        put_char(s, 1, "r3c2")
        give(s, 0, power=5)
        give(s, 1, power=5)
        set_hand(s, 0, [])
        set_hand(s, 1, [])
        set_table(s, active=1)
        move = next(i for i, sec in enumerate(D.SECTIONS[s.mat[1]]) if sec[0] == "move")
        play(s, f"section {move + 1}", "move character r3c2", "to r3c3", "done")
        play(s, "commit 2", "commit 0")
        assert text in legal(s)
        play(s, text)
        assert s.workers_on[L("r3c4") * 2] == on_lake
        assert s.workers_on[L("home_nordic") * 2] == 1 - on_lake


def test_oq12_wayfare_with_speed_one_more_step_out_of_the_base() -> None:
    s = position("crimea,nordic", "engineering,industrial")
    set_table(s, active=0)
    clear_board(s)
    put_char(s, 0, "r5c5")
    put_mech(s, 0, "wayfare", "r7c1")
    put_mech(s, 0, "speed", "r7c2")
    move = next(i for i, sec in enumerate(D.SECTIONS[s.mat[0]]) if sec[0] == "move")
    play(s, f"section {move + 1}", "move character r5c5")
    inactive = [h["id"] for h in D.HOME_BASES if h["faction"] not in ("crimea", "nordic")]
    assert all(f"to {h}" in legal(s) for h in inactive) and "to home_crimea" in legal(s)
    play(s, f"to {inactive[0]}")
    assert "stop" in legal(s)  # Speed: one ordinary step out of the base reached
    outs = [a for a in legal(s) if a.startswith("to r")]
    assert outs
