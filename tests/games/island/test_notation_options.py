"""Action notation round trips, bad input (malformed / illegal / ambiguous leave the state
unchanged, IR-25) and option validation."""

from __future__ import annotations

import random

import pytest

from hexfolk.core import (
    AmbiguousActionError,
    IllegalActionError,
    MalformedActionError,
    OptionError,
    load_game,
    parse_option_texts,
)
from hexfolk.games.island import IslandGame
from hexfolk.games.island import actions as A
from hexfolk.games.island.board import beginner_layouts, random_layout, topology

from .helpers import do, fresh, give, set_turn, settle

EXAMPLES = [
    "roll",
    "roll 8",
    "settle 12",
    "road 30",
    "city 12",
    "buy",
    "draw knight",
    "draw vp",
    "play knight",
    "play roads",
    "play plenty 1l 1o",
    "play plenty 2o",
    "play monopoly w",
    "robber 5",
    "robber 5 steal 2",
    "robber stay",
    "steal o",
    "discard g",
    "trade 4l for 1o",
    "trade 8l 3w for 2g 1o",
    "offer 1l for 1o",
    "offer 2b 1g for -",
    "offer - for 1o",
    "accept",
    "reject",
    "counter 1b for 1l",
    "complete 1 with 2",
    "complete 3",
    "withdraw 1",
    "end",
    "sbp join",
    "sbp pass",
]


@pytest.mark.parametrize("text", EXAMPLES)
def test_canonical_text_round_trips(text: str) -> None:
    action = A.parse(text)
    assert str(action) == text
    assert A.parse(str(action)) == action
    assert IslandGame().parse_action_syntax(text) == action


def test_layout_text_round_trips() -> None:
    layout = random_layout(topology("hex30"), random.Random(1))
    action = A.parse("layout " + layout.text())
    assert isinstance(action, A.LayoutOutcome) and action.layout == layout
    assert A.parse(str(action)) == action


def test_shorthand_forms_parse_to_canonical() -> None:
    assert str(A.parse("TRADE 4L FOR O")) == "trade 4l for 1o"
    assert str(A.parse("offer l l for o")) == "offer 2l for 1o"
    assert str(A.parse("  play plenty o o ")) == "play plenty 2o"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "fly",
        "road",
        "road x",
        "road -1",
        "roll 13",
        "roll 7 8",
        "trade 4l",
        "trade 4l for",
        "offer 1q for 1o",
        "offer 1l 1o",
        "play vp",
        "play",
        "play monopoly",
        "robber 3 steal",
        "robber 3 4",
        "steal",
        "discard",
        "discard x",
        "draw dragon",
        "complete x with 2",
        "layout nonsense",
        "layout O5 3q r1",
        "sbp maybe",
        "offer 0l for 1o",
        "end now",
    ],
)
def test_malformed_text_raises_and_changes_nothing(text: str) -> None:
    state = fresh(4)
    give(state, 0, "4l 1o")
    before = state.fingerprint()
    with pytest.raises(MalformedActionError):
        state.parse_action(text)
    assert state.fingerprint() == before


@pytest.mark.parametrize(
    "text",
    [
        "road 999",
        "road 0",
        "settle 3",
        "city 18",
        "buy",
        "play knight",
        "roll",
        "accept",
        "trade 4w for 1o",
        "trade 3l for 1o",
        "offer 5l for 1o",
        "offer 1l for 1l",
        "complete 1 with 1",
        "withdraw 1",
        "discard l",
        "sbp join",
        "roll 8",
        "steal o",
    ],
)
def test_illegal_text_raises_and_changes_nothing(text: str) -> None:
    state = fresh(4)
    give(state, 0, "4l 1o")
    before = state.fingerprint()
    with pytest.raises(IllegalActionError):
        state.parse_action(text)
    with pytest.raises(IllegalActionError):
        state.apply(A.parse(text))
    assert state.fingerprint() == before


def test_ambiguous_shorthand_raises_and_changes_nothing() -> None:
    state = fresh(4)
    give(state, 0, "1l")
    give(state, 1, "1o")
    give(state, 2, "1o")
    do(state, "offer 1l for 1o", "accept", "accept", "reject")
    before = state.fingerprint()
    with pytest.raises(AmbiguousActionError, match="complete 1 with 1, complete 1 with 2"):
        state.parse_action("complete 1")
    assert state.fingerprint() == before
    assert str(state.parse_action("complete 1 with 2")) == "complete 1 with 2"


def test_chance_outcomes_are_checked() -> None:
    game = load_game("island", 4)
    state = game.new_initial_state()
    good = beginner_layouts("hex19")[0]
    assert state.parse_action("layout " + good.text()) == A.LayoutOutcome(good)
    tokens = list(good.tokens)
    i6, i5 = tokens.index(6), tokens.index(5)
    tokens[i6], tokens[i5] = tokens[i5], tokens[i6]  # may or may not break IR-13
    bad = good.text().replace("O5", "O4", 1)  # wrong token set
    before = state.fingerprint()
    with pytest.raises(IllegalActionError):
        state.parse_action("layout " + bad)
    with pytest.raises(IllegalActionError):
        state.parse_action("layout " + beginner_layouts("hex30")[0].text())  # wrong map
    assert state.fingerprint() == before
    beginner = load_game("island", 4, {"board": "beginner"}).new_initial_state()
    other = random_layout(topology("hex19"), random.Random(0))
    with pytest.raises(IllegalActionError):  # the beginner board is fixed
        beginner.parse_action("layout " + other.text())


def test_dice_chance_node() -> None:
    state = fresh(4)
    set_turn(state, phase="pre-roll", rolled=False)
    do(state, "roll")
    outcomes = state.chance_outcomes()
    assert [str(a) for a, _ in outcomes] == [f"roll {s}" for s in range(2, 13)]
    assert abs(sum(p for _, p in outcomes) - 1) < 1e-12
    assert dict((str(a), p) for a, p in outcomes)["roll 7"] == 6 / 36
    with pytest.raises(IllegalActionError):
        state.parse_action("end")


@pytest.mark.parametrize(
    ("players", "options", "message"),
    [
        (4, {"vp_target": 7}, "between 8 and 20"),
        (4, {"vp_target": 21}, "between 8 and 20"),
        (4, {"vp_target": "10"}, "whole number"),
        (4, {"board": "huge"}, "standard, beginner, random"),
        (4, {"robber": "yes"}, "true or false"),
        (4, {"discard_limit": 2}, "between 3 and 20"),
        (4, {"colour": "red"}, "unknown option"),
        (1, {}, "2 to 8 players"),
        (9, {}, "2 to 8 players"),
    ],
)
def test_bad_options_are_rejected(players: int, options: dict[str, object], message: str) -> None:
    with pytest.raises(OptionError, match=message):
        load_game("island", players, options)


def test_option_defaults_and_texts() -> None:
    game = load_game("island")
    assert game.num_players == 4
    assert game.options == {
        "vp_target": 10,
        "robber": True,
        "friendly_robber": False,
        "longest_road": True,
        "largest_army": True,
        "discard_limit": 7,
        "hide_bank": False,
        "board": "standard",
    }
    opts = parse_option_texts(IslandGame.option_specs, ["vp_target=12", "robber=off"])
    assert opts == {"vp_target": 12, "robber": False}
    with pytest.raises(OptionError):
        parse_option_texts(IslandGame.option_specs, ["vp_target=ten"])


def test_hide_bank_hides_counts_from_everyone() -> None:
    state = fresh(4, hide_bank=True)
    assert all(state.observation(s)["bank"] is None for s in (None, 0, 1, 2, 3))
    state2 = fresh(4)
    assert state2.observation(1)["bank"]["ore"] == 19


def test_spectator_and_seat_views() -> None:
    state = fresh(4)
    give(state, 2, "2l")
    settle(state, 2, 18)
    spectator = state.observation(None)
    assert spectator["seat"] is None and all("hand" not in p for p in spectator["players"])
    assert state.observation(2)["players"][2]["hand"]["lumber"] == 2
    assert state.observation(1)["players"][2]["cards"] == 2
    assert spectator["settlements"] == [[18, 2]]
    with pytest.raises(ValueError):
        state.observation(4)
    text = state.game.render_observation(state.observation(2))
    assert "seat 2" in text and "hand: 2 lumber" in text  # in words (issue 17)
