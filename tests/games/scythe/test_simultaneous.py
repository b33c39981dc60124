"""The two secret combat commitments (SR-43 C2, SR-59) are simultaneous (issue 12 item 5): the
defender may commit before the attacker, every order gives the same state, nobody sees the
other's dial or cards before the reveal, and records keep the arrival order."""

from __future__ import annotations

import pytest

from hexfolk.core import IllegalActionError, MatchRecord, load_game, replay
from hexfolk.core import testing as kit

from .helpers import play
from .test_combat import battle


@pytest.mark.parametrize(("players", "seeds"), [(2, range(6)), (3, range(4))])
def test_every_arrival_order_of_the_commitments_gives_the_same_state(
    players: int, seeds: range
) -> None:
    checked = kit.check_simultaneous(
        load_game("scythe", players), seeds, secret_prompts=("commit",)
    )
    assert checked >= 3


def _at_commit():  # type: ignore[no-untyped-def]
    s = battle()
    play(s, "section 3", "move character r3c3", "to r4c3", "done")
    assert s.prompt().kind == "commit"
    return s


def test_sr43_both_seats_commit_at_once_the_walk_names_the_attacker() -> None:
    s = _at_commit()
    assert s.current_player() == 0 and s.acting_seats() == [0, 1] == s.simultaneous_seats()
    assert "commit 0 cards 2" in [str(a) for a in s.legal_actions_for(1)]
    assert s.prompt_for(1).seat == 1  # type: ignore[union-attr]
    s.apply_for(1, s.parse_action_for(1, "commit 1 cards 3"))  # the defender first
    assert s.acting_seats() == [0] and s.current_player() == 0
    assert s.observation(0)["combat"]["commitments"]["committed"] == [1]
    assert "own" not in s.observation(0)["combat"]["commitments"]
    assert "commits dial" not in " ".join(s.observation(0)["log"])
    assert s.observation(1)["combat"]["commitments"]["own"] == [1, [3]]
    with pytest.raises(IllegalActionError):
        s.parse_action_for(1, "commit 0")  # already committed
    play(s, "commit 2")
    assert s.power == [3, 4]  # 2 vs 4: the defender wins, both pay the dial


def test_sr59_either_order_gives_the_same_state_and_log() -> None:
    first = _at_commit()
    first.apply_for(0, first.parse_action_for(0, "commit 2"))
    first.apply_for(1, first.parse_action_for(1, "commit 0 cards 2"))
    second = _at_commit()
    second.apply_for(1, second.parse_action_for(1, "commit 0 cards 2"))
    second.apply_for(0, second.parse_action_for(0, "commit 2"))
    assert first.fingerprint() == second.fingerprint()
    assert first.observation(None)["log"] == second.observation(None)["log"]


def test_records_keep_the_defender_committing_first() -> None:
    game = load_game("scythe", 2)
    for seed in range(12):
        result = kit.play_random(game, seed)
        state = game.new_initial_state()
        steps: list[tuple[int | None, str]] = []
        for action in result.actions:
            if len(state.simultaneous_seats()) == 2:
                break
            steps.append((None, str(action)))
            state.apply(action)
        else:
            continue
        attacker = state.current_player()
        for seat in sorted(state.simultaneous_seats(), key=lambda q: q == attacker):
            action = state.legal_actions_for(seat)[0]
            steps.append((seat, str(action)))
            state.apply_for(seat, action)
        record = MatchRecord.from_steps(game, seed, steps)
        assert record.actions[-2].startswith("@")  # the defender, before the attacker
        replayed = replay(MatchRecord.loads(record.dumps()), game=game)
        assert replayed.fingerprint() == state.fingerprint()
        return
    pytest.skip("no combat in these games")
