"""Issue 27, point 11: the Scythe create form sends "my faction chosen, the bot's random"
(``factions: "nordic,random"``), which the engine refused with ``option 'factions': 'random'
is not one of ...``; and that sentence hid the banned-pair sentence (SR-58) when both applied.
Now each item of ``factions`` and ``mats`` may be ``random``: that seat's faction (mat) is dealt
at the start as a chance outcome, uniform over the deals with no banned pair that keep what is
fixed (SR-57 step 5, SR-58, OQ-19), so a table's seed decides it. Every problem is said.
"""

from __future__ import annotations

import random

import pytest

from hexfolk.core import CHANCE, OptionError, load_game
from hexfolk.games.scythe import data as D
from hexfolk.games.scythe.game import ScytheGame
from hexfolk.games.scythe.state import ScytheState


def _dealt(options: dict[str, object], seed: int, players: int = 2) -> ScytheState:
    """The state after the deal (every chance outcome of the setup drawn from ``seed``)."""
    state = load_game("scythe", players, options).new_initial_state()
    rng = random.Random(seed)
    while state.current_player() == CHANCE:
        state.apply(state.sample_chance(rng))
    assert isinstance(state, ScytheState)
    return state


def _pairs(state: ScytheState) -> list[tuple[str, str]]:
    return [(D.FACTION_IDS[f], D.MAT_IDS[m]) for f, m in zip(state.faction, state.mat)]


def test_sr57_one_seat_chosen_the_other_random() -> None:
    game = load_game("scythe", 2, {"factions": "nordic,random"})
    assert isinstance(game, ScytheGame)
    assert game.fixed_factions == [0, -1] and game.fixed_mats is None
    seen = set()
    for seed in range(40):
        pairs = _pairs(_dealt({"factions": "nordic,random"}, seed))
        assert pairs[0][0] == "nordic" and pairs[1][0] != "nordic"
        seen.add(pairs[1][0])
    assert seen == {"rusviet", "crimea", "saxony", "polania"}
    # the seed decides: the same seed deals the same
    assert _pairs(_dealt({"factions": "nordic,random"}, 7)) == _pairs(
        _dealt({"factions": "nordic,random"}, 7)
    )


def test_sr58_a_random_seat_is_never_dealt_a_banned_pair() -> None:
    options = {"factions": "rusviet,crimea,random", "mats": "random,random,industrial"}
    for seed in range(60):
        pairs = _pairs(_dealt(options, seed, players=3))
        assert pairs[0][1] != "industrial" and pairs[1][1] != "patriotic", pairs
        assert pairs[2][0] != "rusviet" and pairs[2][1] == "industrial"
        assert len({f for f, _ in pairs}) == 3 and len({m for _, m in pairs}) == 3


def test_all_random_items_deal_as_the_word_random() -> None:
    """``random,random`` is ``random``: the same chance events, the same games."""
    game = load_game("scythe", 2, {"factions": "random,random", "mats": "random,random"})
    assert isinstance(game, ScytheGame)
    assert game.fixed_factions is None and game.fixed_mats is None
    for seed in (1, 2):
        a = _dealt({"factions": "random,random"}, seed)
        b = _dealt({}, seed)
        assert a.fingerprint() == b.fingerprint()


@pytest.mark.parametrize(
    ("options", "sentences"),
    [
        (
            {"factions": "rusviet,random", "mats": "industrial,random"},
            ["rusviet with the industrial mat is a banned pair (SR-58)"],
        ),
        (
            {"factions": "rusviet,bogus", "mats": "industrial,random"},
            [
                "option 'factions': 'bogus' is not one of nordic, rusviet, crimea, saxony, "
                "polania or random",
                "rusviet with the industrial mat is a banned pair (SR-58)",
            ],
        ),
        (
            {"factions": "crimea,rusviet", "mats": "patriotic,industrial"},
            [
                "crimea with the patriotic mat and rusviet with the industrial mat are banned "
                "pairs (SR-58); set allow_banned_pairs=true to allow them"
            ],
        ),
        (
            {"factions": "nordic,nordic", "mats": "agricultural,plough"},
            [
                "option 'factions' names the same one twice",
                "option 'mats': 'plough' is not one of",
            ],
        ),
        ({"factions": "nordic"}, ["option 'factions' needs 2 comma-separated names"]),
    ],
)
def test_sr58_every_problem_is_said(options: dict[str, str], sentences: list[str]) -> None:
    with pytest.raises(OptionError) as err:
        load_game("scythe", 2, options)
    message = str(err.value)
    for sentence in sentences:
        assert sentence in message, message
    assert "'random' is not one of" not in message


def test_sr58_the_first_game_allowance_takes_a_banned_pair_beside_a_random_seat() -> None:
    options = {"factions": "rusviet,random", "mats": "industrial,random"}
    state = _dealt({**options, "allow_banned_pairs": True}, 3)
    assert _pairs(state)[0] == ("rusviet", "industrial")
