"""A game decided by a forced sequence shows the chance jump at the right step (issue 29
point 6): the last steps of real bot games, replayed from the real position before them
(``State.position()``), end at the winning step with the largest swing; playing on instead of
the winning move is a blunder whose best choice found is that move."""

from __future__ import annotations

import pytest

from hexfolk.analysis import Budget, analyze_record
from hexfolk.analysis.result import BLUNDER
from hexfolk.core import MatchRecord
from hexfolk.core.record import split_entry
from tests.analysis.records import ending, record


@pytest.mark.parametrize(
    ("game_id", "players", "codes", "seed"),
    [("island", 2, ("medium", "medium"), 21), ("scythe", 2, ("medium", "medium"), 21)],
)
def test_the_jump_is_at_the_winning_step(
    game_id: str, players: int, codes: tuple[str, ...], seed: int
) -> None:
    full = record(game_id, players, codes, seed, 0)
    assert full.result["finished"]
    (winner,) = full.result["winners"]
    tail = ending(full, 4)
    analysis = analyze_record(tail, Budget(actions=6))
    assert analysis.finished and analysis.winners == (winner,)
    last = analysis.steps[-1]
    assert last.chances[winner] == 1.0
    assert all(st.chances[winner] < 1.0 for st in analysis.steps[:-1])
    assert analysis.turning_points[0].step == len(tail.actions)
    assert analysis.turning_points[0].swing == pytest.approx(
        1.0 - analysis.steps[-2].chances[winner]
    )


def close_finish() -> tuple[MatchRecord, int]:
    """The last step of the first seeded medium-vs-medium island game (seeds 21..60) whose
    winner won on its own turn, could have ended the turn instead, and was not yet sure to win
    (chance at most 0.6 before the winning step), and the winner."""
    for seed in range(21, 61):
        full = record("island", 2, ("medium", "medium"), seed, 0)
        (winner,) = full.result["winners"]
        tail = ending(full, 1)
        seat, _ = split_entry(tail.actions[0])
        start = tail.start_state(tail.make_game())
        if seat is not None or start.current_player() != winner:
            continue
        if "end" not in [str(a) for a in start.legal_actions()]:
            continue
        if analyze_record(tail, Budget(horizon=0)).start[winner] <= 0.6:
            return tail, winner
    raise AssertionError("no close finish among the seeds 21..60")


def test_ending_the_turn_instead_of_winning_is_a_blunder() -> None:
    tail, winner = close_finish()
    game = tail.make_game()
    played_on = MatchRecord.from_steps(game, tail.seed, [(None, "end")], position=tail.position)
    analysis = analyze_record(played_on, Budget(actions=64))
    (step,) = analysis.steps
    assert step.seat == winner and step.best is not None
    won = tail.start_state(game)
    won.apply(won.parse_action(step.best))
    assert won.is_terminal() and won.winners() == [winner]
    assert step.best_chance == 1.0
    assert step.lost >= BLUNDER and step.label == "blunder"
    assert analysis.seats[winner].blunders == 1
