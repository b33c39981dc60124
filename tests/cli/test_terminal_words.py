"""Issue 17: what the terminal prints reads as sentences, and every card name has help."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from hexfolk.cli.terminal.cards import ISLAND_CARDS, help_lines
from hexfolk.cli.terminal.island_view import blocked_production, hint
from hexfolk.cli.terminal.menu import menu_lines
from hexfolk.cli.terminal.offers import offer_words
from hexfolk.cli.terminal.words import bundle_words, island_sentence
from hexfolk.core import IllegalActionError, load_game, make_rng
from hexfolk.games.island.board import topology
from hexfolk.games.island.labels import labels
from hexfolk.games.island.log_forms import LOG

ISLAND = load_game("island", 4)
SCYTHE = load_game("scythe", 2)
OBS = {"board": {"layout": "O8.O9.D.O3.W5.G11 3bwlog333 r2", "robber": 2, "map": "hex19"}}


def test_bundles_and_hexes_in_words() -> None:
    """Log lines are read by their forms and params (docs/log.md); places by the board's
    labels (hex 5 of the standard board is F, hex 2 is C)."""
    assert bundle_words("2w 1o") == "2 wool and 1 ore"
    assert bundle_words("1l 1b 1g") == "1 lumber, 1 brick and 1 grain"
    assert bundle_words("-") == "nothing"
    places = labels(topology("hex19"))
    line = island_sentence(LOG.line("robs", places, seat=1, hex=5, victim=2), OBS, 0)
    assert line == "seat 1 moves the robber to hex F (fields 11) and robs seat 2"
    laid_out = LOG.line("laid_out", places, hex=2)
    assert island_sentence(laid_out, OBS, 0).endswith("hex C (desert)")
    paid = [{"seat": 1, "cards": {"grain": 1}}, {"seat": 3, "cards": {"brick": 1, "grain": 1}}]
    assert island_sentence(LOG.line("production", paid=paid), OBS, 0) == (
        "seat 1 gets 1 grain; seat 3 gets 1 brick and 1 grain"
    )
    stole = LOG.line("stole", seat=0, resource="ore", victim=2)
    assert island_sentence(stole, OBS, 0) == "(seat 0 stole 1 ore from seat 2)"
    settles = LOG.line("settles", places, seat=0, node=0)
    assert island_sentence(settles, OBS, 0) == f"seat 0 settles spot {places.label('node', 0)}"
    assert island_sentence("an old line", OBS, 0) == "an old line"


def test_offers_and_answers_read_from_the_readers_side() -> None:
    def offers(seat: int) -> str:
        line = LOG.line("offers", seat=seat, offer=3, give={"ore": 1}, get={"grain": 1})
        return island_sentence(line, OBS, 0)

    assert offers(1) == "seat 1 offers 1 ore for your 1 grain (offer #3)"
    assert offers(0) == "you offer 1 ore for 1 grain (offer #3)"
    parts = [
        {"seat": 1, "answer": "rejects"},
        {"seat": 2, "answer": "counters", "give": {"lumber": 1}, "get": {"grain": 1}},
        {"seat": 3, "answer": "silent"},
    ]
    answers = island_sentence(LOG.line("answers", offer=1, answers=parts), OBS, 0)
    assert answers == (
        "answers to offer #1: seat 1 rejects, seat 2 counters: would give 1 lumber for 1 grain, "
        "seat 3 does not answer"
    )
    offer = {
        "id": 1,
        "give": "1o",
        "get": "1g",
        "answers": {"1": {"counter": {"give": "1l", "get": "1g"}}, "2": "reject"},
    }
    text = offer_words(offer, 3, 0)
    assert text == (
        "offer #1: seat 3 offers 1 ore for your 1 grain; seat 1 counters: would give 1 lumber "
        "for 1 grain; seat 2 rejects"
    )
    accept = hint({"offers": [offer]}, {"kind": "accept", "offer": 1}, "")
    assert accept == "you would give 1 grain and receive 1 ore"


def test_a_blocked_production_is_told() -> None:
    obs = {
        "board": {"layout": ISLAND_LAYOUT, "robber": 0, "map": "hex19"},
        "settlements": [[0, 2]],  # spot 0 is a corner of hex 0 on the standard board
        "cities": [[3, 1]],
    }
    tile = ISLAND_LAYOUT.split(".")[0]
    line = blocked_production(ISLAND, LOG.line("rolls", seat=0, total=int(tile[1:])), obs)
    assert line is not None and "blocks 2 cards for seat 1 and 1 card for seat 2" in line
    assert "(IR-44)" in line and "hex A (" in line  # hex 0 by its label
    assert blocked_production(ISLAND, LOG.line("rolls", seat=0, total=2), obs) is None


ISLAND_LAYOUT = "O8.O9.D.O3.W5.G11.B2.G10.B10.L8.W11.G6.B3.L12.G4.W9.L6.L4.W5 3bwlog333 r2"


def test_help_on_every_card_and_the_costs_card() -> None:
    costs = " ".join(help_lines(ISLAND, "costs", {}, 0))
    assert "city = 2 grain + 3 ore" in costs and "road = 1 lumber + 1 brick" in costs
    for name in ("plenty", "knight", "roads", "monopoly", "vp", "year", "road-building"):
        (line,) = help_lines(ISLAND, name, {}, 0)
        assert line in ISLAND_CARDS.values()
    assert "Year of Plenty" in help_lines(ISLAND, "plenty", {}, 0)[0]
    assert "no help on 'dragons'" in help_lines(ISLAND, "dragons", {}, 0)[0]
    assert any("help costs" in x for x in help_lines(ISLAND, "", {}, 0))
    assert "King of the Hill" in help_lines(SCYTHE, "objective 5", {}, 0)[0]
    assert help_lines(SCYTHE, "factory 1", {}, 0)[0].startswith("factory card 1: pay")
    assert len(help_lines(SCYTHE, "encounter 1", {}, 0)) == 4  # the card and 3 options
    assert "Nordic Kingdoms" in help_lines(SCYTHE, "nordic", {}, 0)[0]
    assert "top actions" in help_lines(SCYTHE, "costs", {}, 0)[0]


def test_the_island_costs_card_agrees_with_the_engines_reason() -> None:
    """The card's city cost is the one the engine refuses a city with (IR-58)."""
    state = ISLAND.new_initial_state()
    rng = make_rng(1, "chance")
    while state.is_chance() or state.prompt().kind != "main":  # type: ignore[union-attr]
        state.apply(state.sample_chance(rng) if state.is_chance() else state.legal_actions()[0])
    seat = state.current_player()
    mine = next(v for v, o in state.observation(seat)["settlements"] if o == seat)
    with pytest.raises(IllegalActionError) as refused:
        state.parse_action(f"city {mine}")
    reason = refused.value.reason
    assert "2 grain" in reason and "3 ore" in reason, reason
    assert "city = 2 grain + 3 ore" in help_lines(ISLAND, "costs", {}, 0)[0]


def test_menu_numbers_always_match_the_items() -> None:
    entries = [(n, f"settle {n - 1}", "") for n in range(1, 55)]
    for columns, rows in ((80, 14), (40, 6), (80, 3)):
        lines = menu_lines(entries, columns, rows)
        assert len(lines) <= rows and all(len(x) <= columns for x in lines)
        for number, text in re.findall(r"(\d+)\. (settle \d+)", " ".join(lines)):
            assert text == f"settle {int(number) - 1}"  # number k is always the k-th action


def test_docs_name_the_terminal_commands() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "cli.md").read_text()
    for word in ("--offer-wait", "board", "mats", "help costs", "decline-all on", "Hand over"):
        assert word in doc, word


RAW = re.compile(r"\{'|\{\"|\[\[|': |\": |\[\d+(, \d+)*\]")


@pytest.mark.parametrize(
    ("game", "players", "columns"),
    [("island", "random,random,random,random", 80), ("scythe", "random,random", 80),
     ("island", "random,random,random", 60)],
)  # fmt: skip
def test_a_whole_game_prints_no_raw_data(
    cli, monkeypatch, game: str, players: str, columns: int
) -> None:  # type: ignore[no-untyped-def]
    """Every line of a whole game (log, offers, answers, discards, the summary) is words,
    within the terminal's width (``COLUMNS`` is respected)."""
    monkeypatch.setenv("COLUMNS", str(columns))
    monkeypatch.setenv("LINES", "24")
    res = cli("play", game, "--players", players, "--seed", "4", input="")
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    assert any("Game over." in x for x in lines)
    for line in lines:
        assert not RAW.search(line), line
        assert len(line) <= columns, line
