"""Stars, objectives, end of game and scoring (SR-11, SR-50..SR-56), setup (SR-57, SR-58),
options and bad input."""

from __future__ import annotations

import pytest

from hexfolk.core import (
    AmbiguousActionError,
    IllegalActionError,
    MalformedActionError,
    OptionError,
    load_game,
)
from hexfolk.games.scythe import data as D
from hexfolk.games.scythe.scoring import end_game

from .helpers import (
    clear_board,
    give,
    legal,
    play,
    position,
    put_char,
    put_res,
    put_structure,
    put_workers,
    set_objectives,
    set_seat,
    set_table,
)

NSTAR = len(D.STAR_SOURCES)


def test_sr53_sr54_fortune_by_band_factory_counts_three() -> None:
    s = position("nordic,crimea", "industrial,engineering")
    clear_board(s)
    put_char(s, 0, "r4c3")  # the Factory: 3 territories
    put_workers(s, 0, "r3c3", 1)
    put_res(s, "r3c3", "wood", 5)  # 2 pairs
    put_res(s, "home_nordic", "oil", 4)  # home bases never score (SR-14)
    set_table(s, structure_tile="on_tunnels")
    give(s, 0, coins=10, popularity=7, stars={"combat": 2})
    b = s.score_breakdown(0)
    assert b["territories"] == 4 and b["resources"] == 5
    assert b["fortune"] == 10 + 2 * 4 + 4 * 3 + 2 * 2  # band 7-12
    give(s, 0, popularity=6)
    assert s.score_breakdown(0)["fortune"] == 10 + 2 * 3 + 4 * 2 + 2 * 1  # band 0-6
    give(s, 0, popularity=13)
    assert s.score_breakdown(0)["fortune"] == 10 + 2 * 5 + 4 * 4 + 2 * 3


def test_sr55_structure_bonus_tiles_oq1_oq2() -> None:
    s = position("nordic,crimea", "industrial,engineering")
    put_structure(s, 0, "mine", "r3c3")
    put_structure(s, 0, "mill", "r3c2")  # same row as r3c3
    put_structure(s, 0, "armory", "r3c1")
    set_table(s, structure_tile="in_a_row")
    assert s.tile_count(0) == 3
    assert s.score_breakdown(0)["tile_coins"] == 6
    set_table(s, structure_tile="adjacent_lakes")
    # r3c3 touches r2c2, r3c4, r4c2; r3c2 touches r2c2, r4c2; r3c1 touches r2c0
    assert s.tile_count(0) == 4
    set_table(s, structure_tile="on_tunnels")
    assert s.tile_count(0) == 1  # r3c2 only
    set_table(s, structure_tile="adjacent_tunnels")
    assert s.tile_count(0) == 2  # r3c2 is not adjacent to itself; r2c3 and r3c2 via r3c3
    set_table(s, structure_tile="on_farms_or_tundra")
    assert s.tile_count(0) == 0 and s.score_breakdown(0)["tile_coins"] == 0


def test_sr56_tie_breakers_and_oq16_shared_win() -> None:
    s = position("nordic,crimea", "industrial,engineering")
    clear_board(s)
    for p in (0, 1):
        give(s, p, coins=10, popularity=5, power=3)
    end_game(s, "test")
    assert s.returns() == [0.5, 0.5]  # all tie-breakers equal: shared
    s2 = position("nordic,crimea", "industrial,engineering")
    clear_board(s2)
    give(s2, 0, coins=10, popularity=5, power=3)
    give(s2, 1, coins=10, popularity=5, power=4)  # tie-breaker 2: power
    end_game(s2, "test")
    assert s2.returns() == [0.0, 1.0]
    assert s2.summary()["breakdown"][1]["power"] == 4
    assert s2.scores() == [10.0, 10.0]


def test_sr50_workers_star_and_sr11_bottom_star_after_bonuses() -> None:
    s = position("nordic,crimea", "industrial,engineering")
    clear_board(s)
    put_workers(s, 0, "r1c6", 7)  # a village: one more worker makes eight
    give(s, 0, stars={"combat": 2, "objective": 1, "popularity": 1})
    play(s, "section 2", "produce r1c6")
    assert s.stars[D.STAR_INDEX["workers"]] == 1 and s.star_total[0] == 5
    assert not s.is_terminal()


def test_sr51_reveal_objective_and_discard_the_other() -> None:
    s = position("nordic,crimea", "industrial,engineering")
    set_objectives(s, 0, [12, 1])
    give(s, 0, coins=20)
    assert "reveal 12" not in legal(s)  # not before the section is chosen
    play(s, "section 1")
    assert "reveal 12" in legal(s) and "reveal 1" not in legal(s)
    play(s, "reveal 12")
    assert s.stars[D.STAR_INDEX["objective"]] == 1
    assert s.objectives[0] == [] and s.objectives_discarded[0] == [1]
    assert "reveal 1" not in legal(s)
    assert "1" not in str(s.observation(1)["revealed_objectives"][1:])


def test_sr52_saxony_keeps_the_second_objective() -> None:
    s = position("saxony,crimea", "industrial,engineering")
    set_objectives(s, 0, [12, 20])
    give(s, 0, coins=20)
    play(s, "section 1", "reveal 12")
    assert s.objectives[0] == [20]


def test_sr51_reveal_window_after_the_bottom_action() -> None:
    s = position("nordic,crimea", "industrial,engineering")
    set_objectives(s, 0, [12])
    give(s, 0, coins=19)
    play(s, "section 3", "coins")  # Move's coins: now $20
    assert "reveal 12" in legal(s)
    play(s, "skip")
    assert legal(s) == ["end", "reveal 12"]
    play(s, "end")
    assert s.active == 1


def test_sr58_banned_pairs_rejected_unless_allowed() -> None:
    with pytest.raises(OptionError, match="banned"):
        load_game("scythe", 2, {"factions": "rusviet,nordic", "mats": "industrial,patriotic"})
    with pytest.raises(OptionError, match="banned"):
        load_game("scythe", 2, {"factions": "crimea,nordic", "mats": "patriotic,mechanical"})
    game = load_game(
        "scythe",
        2,
        {"factions": "rusviet,nordic", "mats": "industrial,patriotic", "allow_banned_pairs": True},
    )
    s = game.new_initial_state()
    assert s.faction == [D.FACTION_INDEX["rusviet"], D.FACTION_INDEX["nordic"]]
    assert s.mat[0] == D.MAT_IDS.index("industrial") and s.is_chance()  # the deal goes on


def test_sr58_random_deal_never_offers_a_banned_pair_oq19() -> None:
    game = load_game("scythe", 5, {"factions": "nordic,rusviet,crimea,saxony,polania"})
    s = game.new_initial_state()
    outcomes = dict((str(a), p) for a, p in s.chance_outcomes())
    assert set(outcomes) == {f"mat {m}" for m in D.MAT_IDS}
    s.apply(s.parse_action("mat patriotic"))  # Nordic gets Patriotic
    outcomes = dict((str(a), p) for a, p in s.chance_outcomes())
    assert "mat industrial" not in outcomes  # Rusviet + Industrial is banned
    assert abs(sum(outcomes.values()) - 1.0) < 1e-9


@pytest.mark.parametrize(
    "options",
    [
        {"factions": "nordic"},
        {"factions": "nordic,nordic"},
        {"factions": "nordic,albion"},
        {"mats": "industrial,unknown"},
        {"allow_banned_pairs": "maybe"},
        {"variant": 1},
    ],
)
def test_bad_options_are_rejected(options: dict[str, object]) -> None:
    with pytest.raises(OptionError):
        load_game("scythe", 2, options)


@pytest.mark.parametrize("players", [1, 6])
def test_player_count_2_to_5(players: int) -> None:
    with pytest.raises(OptionError):
        load_game("scythe", players)


def test_sr57_setup_units_power_cards_popularity_coins() -> None:
    s = position(
        "nordic,rusviet,crimea,saxony,polania",
        "industrial,engineering,agricultural,mechanical,patriotic",
    )
    for p in range(5):
        f = D.FACTIONS[s.faction[p]]
        m = D.MATS[s.mat[p]]
        assert s.power[p] == f["power"]
        assert sum(s.hand[p * 4 : p * 4 + 4]) == f["combat_cards"]
        assert (s.popularity[p], s.coins[p]) == (m["popularity"], m["coins"])
        assert len(s.objectives[p]) == m["objectives"]
        assert s.workers_out(p) == 2 and s.mechs_out(p) == 0
        assert s.character_loc[p] == D.HOME_OF[s.faction[p]]
    assert len(s.factory_offer) == 6 and s.structure_tile >= 0
    assert sum(s.encounter_tokens) == 11


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("", MalformedActionError),
        ("fly to the moon", MalformedActionError),
        ("section 9", MalformedActionError),
        ("to r9c9", MalformedActionError),
        ("carry 2potatoes", MalformedActionError),
        ("commit x", MalformedActionError),
        ("section 2", None),
        ("bolster power", IllegalActionError),
        ("produce r1c4", IllegalActionError),
    ],
)
def test_bad_input_gives_the_right_error_and_changes_nothing(
    text: str, error: type[Exception] | None
) -> None:
    s = position("nordic,crimea", "industrial,engineering")
    play(s, "section 1", "skip", "skip", "end")  # P1's turn; P0's last section is 1
    play(s, "section 1", "skip", "skip", "end")
    before = s.fingerprint()
    if error is None:
        s.parse_action(text)
        return
    with pytest.raises(error):
        s.apply(s.parse_action(text))
    assert s.fingerprint() == before


def test_carry_exact_forms_and_shorthand() -> None:
    s = position("nordic,crimea", "industrial,engineering")
    clear_board(s)
    put_workers(s, 0, "r1c4", 1)
    put_res(s, "r1c4", "wood", 3)
    put_res(s, "r1c4", "oil", 1)
    play(s, "section 3", "move worker r1c4")
    exact = s.parse_action("carry 2wood")
    assert str(exact) == "carry 2wood"
    assert str(s.parse_action("carry all")) == "carry 1oil 3wood"
    with pytest.raises(IllegalActionError):
        s.parse_action("carry 4wood")
    with pytest.raises(IllegalActionError):
        s.parse_action("carry 1worker")  # a worker carries no workers
    play(s, "carry 1oil 2wood", "to r1c5")
    assert s.resources[D.LOC_INDEX["r1c4"] * 4 + D.RES_INDEX["wood"]] == 1


def test_shorthand_is_resolved_or_ambiguous() -> None:
    s = position("nordic,crimea", "industrial,engineering")
    put_res(s, "r1c4", "wood", 3)
    play(s, "section 3", "skip", "bottom")
    with pytest.raises(AmbiguousActionError):
        s.parse_action("build mill")  # r1c4 or r1c5
    before = s.fingerprint()
    with pytest.raises(IllegalActionError):
        s.parse_action("deploy speed")
    assert s.fingerprint() == before
    s2 = position("nordic,crimea", "industrial,engineering")
    clear_board(s2)
    put_workers(s2, 0, "r1c4", 1)
    put_res(s2, "r1c4", "wood", 3)
    play(s2, "section 3", "skip", "bottom")
    assert str(s2.parse_action("build mill")) == "build mill r1c4"


def test_sr13_control_units_beat_structures() -> None:
    s = position("nordic,crimea", "industrial,engineering")
    clear_board(s)
    put_structure(s, 0, "mill", "r3c3")
    assert s.controller(D.LOC_INDEX["r3c3"]) == 0  # a structure alone controls
    put_workers(s, 1, "r3c3", 1)
    assert s.controller(D.LOC_INDEX["r3c3"]) == 1  # never against an enemy unit
    assert s.controller(D.LOC_INDEX["home_nordic"]) == -1  # home bases never


@pytest.mark.parametrize(
    ("source", "setup", "section", "actions"),
    [
        ("upgrades", "upgrade", 1, ["skip", "bottom", "upgrade move-units build"]),
        ("structures", "build", 3, ["skip", "bottom", "build mill r1c5"]),
        ("recruits", "enlist", 4, ["skip", "bottom", "enlist enlist power"]),
    ],
)
def test_sr50_star_sources_from_the_bottom_row(
    source: str, setup: str, section: int, actions: list[str]
) -> None:
    s = position("nordic,crimea", "industrial,engineering")
    resource = {"upgrade": "oil", "build": "wood", "enlist": "food"}[setup]
    put_res(s, "r1c5", resource, 4)
    if source == "upgrades":
        # every top box but move-units upgraded; their cubes leave one Build slot free (SR-21)
        boxes = [b["id"] for b in D.TOP_BOXES if b["id"] != "move-units"]
        bottoms = ["upgrade", "deploy", "deploy", "enlist", "enlist"]
        give(s, 0, upgrades=dict(zip(boxes, bottoms, strict=True)))
    elif source == "structures":
        for k, loc in enumerate(("r6c1", "r6c2", "r6c3")):
            put_structure(s, 0, D.STRUCTURES[k], loc)
    else:
        # every recruit but Enlist's, on every enlist space but power's (SR-24)
        set_seat(
            s,
            0,
            recruits=["upgrade", "deploy", "build"],
            enlist_spaces=["coins", "popularity", "cards"],
        )
    play(s, f"section {section}", *actions)
    assert s.stars[D.STAR_INDEX[source]] == 1 and s.star_total[0] == 1
