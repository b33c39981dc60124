"""Issue 17: a blocked production is told. The terminal's notes after each roll (whose income
the robber blocks, IR-44; what the bank could not pay, IR-37) add up, seat by seat, to the
engine's own statistics (``blocked_by_robber``, ``lost_to_shortage``) over random games."""

from __future__ import annotations

import re

from hexfolk.bots.registry import make_bot
from hexfolk.cli.terminal.game_view import view_for
from hexfolk.core import LogLine, Observation, load_game, make_rng
from hexfolk.games.island.log_forms import LOG


def _notes_of_a_game(seed: int, players: int = 4) -> tuple[dict[int, int], dict[int, int], dict]:  # type: ignore[type-arg]
    game = load_game("island", players)
    view = view_for(game)
    state = game.new_initial_state()
    chance, bots = make_rng(seed, "chance"), make_rng(seed, "bots")
    bot = make_bot("random", "island")
    blocked: dict[int, int] = {}
    short: dict[int, int] = {}
    seen = 0
    while not state.is_terminal() and state.turn_count() < 400:
        p = state.current_player()
        if p < 0:
            state.apply(state.sample_chance(chance))
        else:
            state.apply(bot.choose(Observation(state, p), state.legal_actions(), bots))
        log = state.observation(None)["log"]
        new, seen = log[seen:], len(log)
        for lines in view.notes(new, state.observation(None)).values():
            for note in lines:
                for n, s in re.findall(r"(\d+) cards? for seat (\d+)", note):
                    blocked[int(s)] = blocked.get(int(s), 0) + int(n)
                for s, got, owed in re.findall(r"seat (\d+) gets (\d+) of (\d+)", note):
                    short[int(s)] = short.get(int(s), 0) + int(owed) - int(got)
    return blocked, short, state.summary()


def test_the_terminals_production_notes_match_the_engines_statistics() -> None:
    total_blocked = total_short = 0
    for seed in range(1, 7):
        blocked, short, summary = _notes_of_a_game(seed)
        for pl in summary["players"]:
            seat = pl["seat"]
            assert blocked.get(seat, 0) == pl["blocked_by_robber"], (seed, seat)
            assert short.get(seat, 0) == pl["lost_to_shortage"], (seed, seat)
        total_blocked += sum(blocked.values())
        total_short += sum(short.values())
    assert total_blocked > 0  # the robber blocked income in these games
    # (random games never run the bank dry: no note may claim a shortage that did not happen)
    assert total_short == 0


LAYOUT = "O8.O9.D.O3.W5.G11.B2.G10.B10.L8.W11.G6.B3.L12.G4.W9.L6.L4.W5 3bwlog333 r2"


def test_a_bank_shortage_is_told_from_what_was_owed_and_what_was_paid() -> None:
    """Hex 0 is mountains 8; spots 0 and 3 are its corners (standard board)."""
    view = view_for(load_game("island", 4))
    obs = {
        "board": {"layout": LAYOUT, "robber": 2, "map": "hex19"},
        "settlements": [[0, 1]],
        "cities": [[3, 2]],
    }
    rolls = LOG.line("rolls", seat=0, total=8)

    def paid(*parts: tuple[int, int]) -> LogLine:
        return LOG.line("production", paid=[{"seat": s, "cards": {"ore": k}} for s, k in parts])

    notes = view.notes([rolls, paid((1, 1))], obs)
    assert notes == {1: ["the bank is short of ore (seat 2 gets 0 of 2) (IR-37)"]}
    nothing_paid = view.notes([rolls, LOG.line("ends", seat=0)], obs)
    assert nothing_paid == {
        0: ["the bank is short of ore (seat 1 gets 0 of 1, seat 2 gets 0 of 2) (IR-37)"]
    }
    assert view.notes([rolls, paid((1, 1), (2, 2))], obs) == {}
    blocked = {**obs, "board": {**obs["board"], "robber": 0}}
    assert view.notes([rolls], blocked) == {
        0: [
            "the robber on hex A (mountains 8) blocks 1 card for seat 1 and 2 cards for "
            "seat 2 (IR-44)"
        ]
    }
