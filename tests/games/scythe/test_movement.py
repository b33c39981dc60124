"""Scenario tests for movement and the movement abilities (SR-25..SR-39)."""

from __future__ import annotations

from hexfolk.games.scythe import data as D

from .helpers import (
    L,
    clear_board,
    legal,
    play,
    position,
    put_char,
    put_mech,
    put_res,
    put_structure,
    put_workers,
    res_at,
    set_table,
)


def moving(factions: str = "nordic,crimea", mats: str = "industrial,engineering"):  # type: ignore[no-untyped-def]
    s = position(factions, mats)
    clear_board(s)
    return s


def dests(s, text: str) -> list[str]:  # type: ignore[no-untyped-def]
    """Destinations offered after selecting a unit (skipping the carry prompt)."""
    c = s.clone()
    play(c, text)
    if c.prompt().kind == "carry":
        play(c, "carry none")
    return sorted(x[3:] for x in legal(c) if x.startswith("to "))


def test_sr26_rivers_block_workers_and_riverwalk_picks_terrains() -> None:
    s = moving("rusviet,crimea", "engineering,mechanical")
    put_workers(s, 0, "r2c4", 1)  # mountain; rivers E, SE and W
    put_char(s, 0, "r2c4")
    play(s, "section 4")  # Engineering: Move/Enlist
    w = dests(s, "move worker r2c4")
    assert w == ["r1c4", "r1c5"]
    assert "r2c5" not in w and "r3c5" not in w and "r2c3" not in w  # river edges
    assert "r3c4" not in w  # a lake
    put_mech(s, 0, "riverwalk", "r2c4")  # Rusviet riverwalk: farm and village
    play(s, "skip", "skip", "end")  # finish this turn, the opponent passes
    play(s, "section 1", "skip", "skip", "end")
    play(s, "section 4")
    c = dests(s, "move character r2c4")
    assert "r2c5" in c  # farm across the river
    assert "r3c5" not in c and "r2c3" not in c  # forest, tundra: not Rusviet's terrains


def test_sr26_nordic_workers_swim() -> None:
    s = moving()
    put_workers(s, 0, "r2c4", 1)
    play(s, "section 3")
    w = dests(s, "move worker r2c4")
    assert {"r2c5", "r3c5", "r2c3"} <= set(w)
    assert "r3c4" not in w  # never onto a lake


def test_sr27_tunnels_and_own_mine() -> None:
    s = moving()
    put_workers(s, 0, "r2c3", 1)  # a tunnel
    put_structure(s, 0, "mine", "r1c5")
    play(s, "section 3")
    w = dests(s, "move worker r2c3")
    for t in D.TUNNELS:
        if D.LOC_NAMES[t] != "r2c3":
            assert D.LOC_NAMES[t] in w
    assert "r1c5" in w  # SR-27: the Mine is a tunnel for its owner
    s2 = moving()
    put_workers(s2, 1, "r2c3", 1)  # Crimea's worker
    put_structure(s2, 0, "mine", "r1c5")
    set_table(s2, active=1)
    play(s2, "section 4")  # Engineering: Move/Enlist
    assert "r1c5" not in dests(s2, "move worker r2c3")


def test_sr28_sr35_lakes_need_seaworthy() -> None:
    s = moving()
    put_char(s, 0, "r3c3")
    play(s, "section 3")
    assert "r3c4" not in dests(s, "move character r3c3")
    put_mech(s, 0, "seaworthy", "r3c5")
    assert "r3c4" in dests(s, "move character r3c3")


def test_sr29_out_of_home_base_never_back() -> None:
    s2 = moving("polania,crimea", "industrial,engineering")
    play(s2, "section 3")
    c = dests(s2, "move character home_polania")
    assert c == ["r3c1", "r4c0"]  # the lake r2c0 needs Submerge
    put_mech(s2, 0, "submerge", "r3c1")
    assert "r2c0" in dests(s2, "move character home_polania")
    put_char(s2, 0, "r3c1")
    assert "home_polania" not in dests(s2, "move character r3c1")


def test_sr30_mech_carries_workers_and_resources() -> None:
    s = moving()
    put_mech(s, 0, "riverwalk", "r1c4")
    put_workers(s, 0, "r1c4", 2)
    put_res(s, "r1c4", "wood", 3)
    play(s, "section 3", "move mech r1c4")
    assert legal(s) == [
        "carry none",
        "carry 2worker 3wood",
        "carry 2worker",
        "carry 3wood",
    ]
    play(s, "carry all", "to r2c4")
    assert s.workers_on[L("r2c4") * 2] == 2 and res_at(s, "r2c4", "wood") == 3
    # being carried is not the worker's move: the workers may still move themselves
    assert "move worker r2c4" in legal(s)
    s2 = moving()
    put_mech(s2, 0, "riverwalk", "r1c4")
    put_workers(s2, 0, "r1c4", 2)
    play(s2, "section 3", "move mech r1c4", "carry 1worker", "to r2c4")
    assert s2.workers_on[L("r2c4") * 2] == 1 and s2.workers_on[L("r1c4") * 2] == 1


def test_sr31_entering_enemy_workers_displaces_them() -> None:
    s = moving()
    put_char(s, 0, "r3c3")
    put_workers(s, 1, "r4c3", 2)
    put_res(s, "r4c3", "oil", 2)
    put_structure(s, 1, "mill", "r4c3")
    pop = s.popularity[0]
    play(s, "section 3", "move character r3c3", "to r4c3")
    assert s.workers_on[L("r4c3") * 2 + 1] == 0
    assert s.workers_on[L("home_crimea") * 2 + 1] == 2
    assert s.popularity[0] == pop - 2
    assert res_at(s, "r4c3", "oil") == 2 and s.controller(L("r4c3")) == 0


def test_sr31_workers_alone_cannot_enter_enemy_units_but_may_enter_a_structure() -> None:
    s = moving()
    put_workers(s, 0, "r3c3", 1)
    put_workers(s, 1, "r4c3", 1)
    put_structure(s, 1, "mine", "r3c2")
    play(s, "section 3")
    w = dests(s, "move worker r3c3")
    assert "r4c3" not in w
    assert "r3c2" in w  # SE-20: only a structure there


def test_sr32_character_stops_on_an_encounter_token() -> None:
    s = moving()
    put_char(s, 0, "r1c4")
    put_mech(s, 0, "speed", "r3c3")
    play(s, "section 3", "move character r1c4", "to r2c4")  # an encounter territory
    assert s.prompt().kind == "choose-unit"  # stopped despite Speed
    assert s.character_token == L("r2c4")
    play(s, "done")
    assert not s.encounter_tokens[L("r2c4")]  # SR-47 hook: the token is removed


def test_sr34_speed_two_steps_and_stop() -> None:
    s = moving()
    put_mech(s, 0, "speed", "r3c3")
    play(s, "section 3", "move mech r3c3", "to r3c2")
    assert "stop" in legal(s) and s.prompt().kind == "step"
    play(s, "to r2c1")
    assert s.mech_loc[D.FACTIONS[s.faction[0]]["mech_abilities"].index("speed")] == L("r2c1")


def test_sr36_submerge_lake_to_lake() -> None:
    s = moving("polania,crimea", "industrial,engineering")
    put_mech(s, 0, "submerge", "r2c2")
    play(s, "section 3")
    d = dests(s, "move mech r2c2")
    assert {D.LOC_NAMES[x] for x in D.LAKES} - {"r2c2"} <= set(d)


def test_sr37_township_links_controlled_villages_and_factory() -> None:
    s = moving("rusviet,crimea", "engineering,mechanical")
    put_mech(s, 0, "township", "r1c6")
    put_workers(s, 0, "r6c2", 1)  # a controlled village far away
    play(s, "section 4")
    d = dests(s, "move mech r1c6")
    assert "r6c2" in d and "r4c3" in d
    assert "r8c3" not in d  # not controlled


def test_sr38_underpass_links_mountains_tunnels_and_mine() -> None:
    s = moving("saxony,crimea", "industrial,engineering")
    put_mech(s, 0, "underpass", "r6c0")  # a mountain
    put_workers(s, 0, "r7c4", 1)  # controlled mountain
    play(s, "section 3")
    d = dests(s, "move mech r6c0")
    assert "r7c4" in d and "r2c3" in d  # mountain and tunnel
    assert "r4c4" not in d  # uncontrolled mountain


def test_sr39_wayfare_to_own_or_inactive_home_base() -> None:
    s = moving("crimea,nordic", "industrial,engineering")
    put_mech(s, 0, "wayfare", "r3c3")
    play(s, "section 3")
    d = dests(s, "move mech r3c3")
    assert {"home_crimea", "home_albion", "home_togawa", "home_rusviet"} <= set(d)
    assert "home_nordic" not in d  # Nordic is in play


def test_sr25_each_unit_moves_once_and_at_most_two_units() -> None:
    s = moving()
    put_workers(s, 0, "r1c4", 3)
    play(s, "section 3", "move worker r1c4", "to r1c5", "move worker r1c4", "to r1c5")
    assert s.prompt().kind == "bottom-action"


def test_sr34_speed_mech_loads_and_unloads_mid_move() -> None:
    s = moving()
    put_mech(s, 0, "speed", "r3c3")
    put_workers(s, 0, "r3c2", 1)
    put_res(s, "r3c2", "metal", 2)
    put_res(s, "r3c3", "wood", 1)
    play(s, "section 3", "move mech r3c3", "carry 1wood", "to r3c2")
    assert s.prompt().kind == "carry"
    assert legal(s)[0] == "carry 1wood"  # keep the cargo
    play(s, "carry 1worker 2metal")  # leave the wood, load the worker and the metal
    assert res_at(s, "r3c2", "wood") == 1
    play(s, "to r2c1")
    assert res_at(s, "r2c1", "metal") == 2 and s.workers_on[L("r2c1") * 2] == 1


def test_sr37_oq11_township_control_checked_at_the_step() -> None:
    s = moving("rusviet,crimea", "engineering,mechanical")
    put_mech(s, 0, "township", "r1c6")
    put_workers(s, 0, "r4c6", 1)
    play(s, "section 4")
    before = dests(s, "move mech r1c6")
    assert "r3c6" not in before and "r5c5" not in before
    play(s, "move worker r4c6", "to r3c6")
    # r3c6 is a village now controlled: it joins the Township links this very Move
    assert "r3c6" in dests(s, "move mech r1c6")
