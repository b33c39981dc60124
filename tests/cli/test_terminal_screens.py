"""Issue 17: every decision screen of terminal play fits the terminal and shows no raw data.

Random games of both games are walked; at every decision of seat 0 the screen `hexfolk play`
prints is drawn at several terminal sizes and checked: never taller than ``rows - 1`` (the
input line is the last row), no line wider than ``columns``, the decision and menu entry 1
on it, no Python dict or list syntax. The views on request (board, mats, hand, ...) are
checked for width too.
"""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console

from hexfolk.bots.registry import make_bot
from hexfolk.cli.play_cmd import PlaySession
from hexfolk.cli.terminal.screen import Size
from hexfolk.core import Observation, load_game, make_rng

SIZES = [Size(80, 24), Size(60, 18), Size(132, 50)]
RAW = re.compile(r"\{'|\{\"|\[\[|': |\": |\[\d+, \d+\]")
"""Python/JSON data showing through: dict braces, nested lists, key: value pairs."""


def _session(game_id: str, players: int, size: Size) -> tuple[PlaySession, io.StringIO]:
    game = load_game(game_id, players)
    out = io.StringIO()
    console = Console(file=out, width=1000, color_system=None, highlight=False)
    codes = ["human"] + ["random"] * (players - 1)
    session = PlaySession(
        game, codes, 1, console=console, read_line=lambda p: None, size=lambda: size
    )
    return session, out


def _decisions(game_id: str, players: int, seed: int, limit: int):  # type: ignore[no-untyped-def]
    """States of a random game where seat 0 decides (at most ``limit`` of them)."""
    game = load_game(game_id, players)
    state = game.new_initial_state()
    chance, bots = make_rng(seed, "chance"), make_rng(seed, "bots")
    bot = make_bot("random", game_id)
    found = 0
    while not state.is_terminal() and found < limit:
        p = state.current_player()
        if p < 0:
            state.apply(state.sample_chance(chance))
            continue
        if p == 0:
            found += 1
            yield state.clone()
        state.apply(bot.choose(Observation(state, p), state.legal_actions(), bots))


def _check(lines: list[str], size: Size, *, decision: bool) -> None:
    for line in lines:
        assert len(line) <= size.columns, (size, line)
        assert not RAW.search(line), line
    if decision:
        assert len(lines) <= size.rows - 1, (size, len(lines), lines)
        assert any(line.startswith("seat 0, your move:") for line in lines), lines
        assert any(re.match(r"\s+1\. ", line) for line in lines), lines


@pytest.mark.parametrize(("game_id", "players"), [("island", 4), ("scythe", 2)])
def test_every_decision_screen_fits_and_reads_as_words(game_id: str, players: int) -> None:
    kinds: set[str] = set()
    for seed in (1, 2):
        for state in _decisions(game_id, players, seed, 120):
            prompt = state.prompt()
            assert prompt is not None
            kinds.add(prompt.kind)
            for size in SIZES:
                session, out = _session(game_id, players, size)
                session.state = state
                session.print_screen(0, state.legal_actions())
                _check(out.getvalue().splitlines(), size, decision=True)
    # several kinds of decision were seen (setup, dice, building, sections, moves ...)
    assert len(kinds) >= 4, kinds


@pytest.mark.parametrize(("game_id", "players"), [("island", 4), ("scythe", 2)])
def test_views_on_request_fit_the_width(game_id: str, players: int) -> None:
    states = list(_decisions(game_id, players, 3, 60))
    for state in (states[0], states[len(states) // 2], states[-1]):
        for size in SIZES:
            session, out = _session(game_id, players, size)
            session.state = state
            for word in ("board", "mats", "hand", "players", "log", "list", "offers", "help"):
                session._typed(0, word, state.legal_actions())
            lines = out.getvalue().splitlines()
            assert lines
            _check(lines, size, decision=False)


def test_the_scythe_map_fits_80_columns_and_the_full_map_comes_when_wide() -> None:
    state = next(iter(_decisions("scythe", 2, 1, 1)))
    narrow, out80 = _session("scythe", 2, Size(80, 24))
    narrow.state = state
    narrow._typed(0, "board", [])
    text80 = out80.getvalue()
    assert "D5 tu" in text80 and "where things are:" in text80  # the condensed grid (r5c3)
    assert max(len(x) for x in text80.splitlines()) <= 80
    wide, out = _session("scythe", 2, Size(160, 60))
    wide.state = state
    wide._typed(0, "board", [])
    assert max(len(x) for x in out.getvalue().splitlines()) > 80  # the engine's full map


@pytest.mark.parametrize(
    ("game_id", "players", "mark"), [("island", 4, "[A]"), ("scythe", 2, "D5 tu")]
)
def test_a_bigger_terminal_shows_more(game_id: str, players: int, mark: str) -> None:
    """From 40 rows the board comes above the decision when it fits; 80 × 24 has no room."""
    state = list(_decisions(game_id, players, 4, 8))[-1]
    shown = {}
    for size in (Size(80, 24), Size(140, 72)):
        session, out = _session(game_id, players, size)
        session.state = state
        session.print_screen(0, state.legal_actions())
        lines = out.getvalue().splitlines()
        _check(lines, size, decision=True)
        shown[size.rows] = lines
    assert not any(mark in x for x in shown[24])
    assert any(mark in x for x in shown[72])
    assert len(shown[72]) > len(shown[24])
