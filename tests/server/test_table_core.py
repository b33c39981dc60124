"""The table core (``server/table_core.py``) driven directly: no sockets, no uvicorn, no store.
Real island games on a table row; each event goes in (an action, an undo, a clock expiry), its
pending steps are committed with :meth:`TableCore.commit` (what the room does once the store
wrote them), and the test reads the state, the version and the steps that came out."""

from __future__ import annotations

from typing import Any

import pytest

from hexfolk.server.errors import ApiError
from hexfolk.server.models import TableRow
from hexfolk.server.table_core import TableCore
from hexfolk.server.views import build_parts


def _row(**over: Any) -> TableRow:
    values: dict[str, Any] = dict(
        id="t",
        game="island",
        players=2,
        options={},
        seed=2612,
        clock=None,
        commit_clock=None,
        clock_state={},
        status="playing",
        version=0,
        seats=[
            {"kind": "person", "player_id": "a", "name": "A"},
            {"kind": "person", "player_id": "b", "name": "B"},
        ],
    )
    values.update(over)
    return TableRow(**values)


def _started(**over: Any) -> TableCore:
    core = TableCore(_row(**over))
    core.start()
    core.commit(now=100.0)
    return core


def _snapshot(core: TableCore) -> tuple[Any, ...]:
    assert core.state is not None
    return (
        core.state.fingerprint(),
        core.version,
        list(core.pending),
        list(core.live),
        dict(core.decision_since),
    )


def test_the_game_starts_with_its_chance_steps_committed() -> None:
    core = _started()
    assert core.version == 1  # the board layout, drawn from the table's seed
    assert [st.kind for st in core.live] == ["chance"]
    assert core.state is not None and core.state.acting_seats() == [0]
    # same seed, same game (determinism)
    again = _started()
    assert again.live[0].action == core.live[0].action


@pytest.mark.parametrize(
    "text, code",
    [("xyzzy 3", "malformed"), ("road 0", "illegal"), ("settle 9999", "illegal")],
)
def test_a_refused_action_changes_nothing(text: str, code: str) -> None:
    core = _started()
    before = _snapshot(core)
    with pytest.raises(ApiError) as err:
        core.act(0, text, core.version)
    assert err.value.code == code
    assert _snapshot(core) == before


def test_a_seat_that_owes_nothing_is_refused_and_nothing_changes() -> None:
    core = _started()
    before = _snapshot(core)
    with pytest.raises(ApiError) as err:
        core.act(1, "settle 0", core.version)
    assert err.value.code == "not_your_turn"
    assert _snapshot(core) == before


def test_an_action_on_a_version_whose_decision_changed_is_stale() -> None:
    """Seat 0 places its setup settlement; its decision (now a road) changed, so an action
    sent at the older version is refused ``stale`` and changes nothing."""
    core = _started()
    seen = core.version
    accepted = core.act(0, str(core.legal_for(0)[0]), seen)
    assert accepted.seq == seen + 1
    core.commit(now=101.0)
    assert core.version == seen + 1
    before = _snapshot(core)
    with pytest.raises(ApiError) as err:
        core.act(0, str(core.legal_for(0)[0]), seen)
    assert err.value.code == "stale" and err.value.extra["version"] == core.version
    assert _snapshot(core) == before


class _TwoSeatsAtOnce:
    """A stand-in state where both seats owe a decision (discards after a 7)."""

    class game:
        num_players = 2

    def __init__(self) -> None:
        self.legal = {0: ["discard 1b", "discard 1w"], 1: ["discard 2o"]}

    def acting_seats(self) -> list[int]:
        return [s for s, options in self.legal.items() if options]

    def legal_actions_for(self, seat: int) -> list[str]:
        return list(self.legal[seat])


def test_an_older_version_is_accepted_when_only_another_seat_moved() -> None:
    core = TableCore(_row(version=10))
    state = _TwoSeatsAtOnce()
    core.state = state  # type: ignore[assignment]
    core.note_decisions()
    # seat 1 discards (version 11); seat 0's decision is unchanged
    state.legal[1] = []
    core.version = 11
    core.note_decisions()
    assert core.version_ok(0, 10) and core.version_ok(0, 11)
    assert not core.version_ok(1, 10)
    # seat 0's options change at version 12: its older views are stale now
    state.legal[0] = ["discard 1b"]
    core.version = 12
    core.note_decisions()
    assert not core.version_ok(0, 11) and core.version_ok(0, 12)
    assert not core.version_ok(0, 13)  # a version from the future


def test_an_undo_takes_the_step_back_and_is_an_event_of_its_own() -> None:
    """docs/server.md, "Undo": a seat takes back its own latest step of its turn; nothing is
    deleted (the undo is a step, versions only grow)."""
    core = _started()
    assert core.state is not None
    at_start = core.state.fingerprint()
    core.act(0, str(core.legal_for(0)[0]), core.version)
    core.commit(now=101.0)
    assert core.undoable(0).steps == 1
    assert core.undo_offer(0, by_person=True) == {"steps": 1, "turn": 1, "last": "settle 0"}
    assert core.undo_offer(0, by_person=False) is None  # a stand-in never undoes
    assert core.undo(0, 1, core.version) == 1
    made = core.commit(now=102.0, full=True)
    assert [st.kind for st in made.steps] == ["undo"] and made.full
    assert core.version == 3
    assert core.state.fingerprint() == at_start
    assert [st.kind for st in core.live] == ["chance"]
    assert core.undoable(0).steps == 0


def test_undo_barriers_another_seats_step_and_a_bot_seat() -> None:
    """Barrier 2 (docs/server.md, "Undo"): once another seat has acted, nothing before it can
    be undone; a refused undo changes nothing. A seat a bot plays never undoes."""
    core = _started()
    for _ in range(2):  # seat 0: settlement and road; then seat 1's settlement
        assert core.state is not None
        seat = core.state.acting_seats()[0]
        core.act(seat, str(core.legal_for(seat)[0]), core.version)
        core.commit(now=101.0)
    assert core.state is not None and core.state.acting_seats() == [1]
    core.act(1, str(core.legal_for(1)[0]), core.version)
    core.commit(now=102.0)
    with pytest.raises(ApiError) as bot:
        core.undo(1, 1, core.version, by_person=False)
    assert bot.value.code == "cannot_undo"
    before = _snapshot(core)
    with pytest.raises(ApiError) as err:
        core.undo(0, 1, core.version)
    assert err.value.code == "cannot_undo"
    assert _snapshot(core) == before
    with pytest.raises(ApiError) as stale:
        core.undo(1, 1, core.version - 1)
    assert stale.value.code == "stale"
    assert _snapshot(core) == before


def test_a_time_out_plays_the_games_default_as_time_out_steps() -> None:
    """IR-28: when a seat's clock runs out the game's default is played for it; the steps
    carry the timeout flag and the viewers' logs get a time-out mark."""
    core = _started(clock=5.0)
    window = core.clock.current(0)
    assert window is not None and window.deadline == pytest.approx(105.0)
    assert core.expire(104.0) == [] and core.pending == []  # not yet
    timed_out = core.expire(106.0)
    assert timed_out and timed_out[0][0] == 0
    assert core.pending and all(st.timeout for st in core.pending if st.kind == "action")
    applied = sum(1 for st in core.pending if st.kind == "action")
    assert applied == timed_out[0][1]
    core.commit(now=106.0)
    assert core.state is not None and 0 not in core.state.acting_seats()
    marks = core.timeouts.for_view(None, 0, 10_000)
    assert marks and marks[0]["seat"] == 0


def test_a_click_lists_legal_actions_once_per_acting_seat(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 26: after a step the core lists each acting seat's legal actions once, for the
    decision marks and every viewer's view together (cached per seat and version)."""
    core = _started()
    assert core.state is not None
    cls = type(core.state)
    calls: list[int] = []
    inner = cls.legal_actions_for

    def counted(self: Any, seat: int) -> Any:
        calls.append(seat)
        return inner(self, seat)

    core.act(0, str(core.legal_for(0)[0]), core.version)
    monkeypatch.setattr(cls, "legal_actions_for", counted)
    core.commit(now=101.0)  # the decision marks
    for viewer in (0, 1, None):  # every viewer's view
        build_parts(core.state, viewer, core.legal_for)
    assert calls == [0]


def test_a_step_that_cannot_reveal_anything_is_never_checked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The reveal check (sampled worlds) runs only for steps the engine says can reveal
    something (``State.can_reveal``); the others are marked as revealing nothing at once."""
    core = _started()
    assert core.state is not None
    # an engine that says a step may reveal something: the table asks the sampled worlds
    monkeypatch.setattr(type(core.state), "can_reveal", lambda self, seat, action: True)
    asked = core.act(0, str(core.legal_for(0)[0]), core.version)
    assert asked.check_reveal and core.pending[-1].reveals is None
    core.commit(now=101.0)
    core.undo(0, 1, core.version)
    core.commit(now=102.0, full=True)
    # the island's own answer for a setup placement: nothing to reveal, no check
    monkeypatch.undo()
    quiet = core.act(0, str(core.legal_for(0)[0]), core.version)
    assert not quiet.check_reveal and core.pending[-1].reveals is False
    assert quiet.before is not None  # still undoable


@pytest.mark.parametrize("game", ["island", "scythe"])
def test_a_played_game_and_its_replay_agree_on_every_final_mark(game: str) -> None:
    """Undo barrier 5 (``server/undo.py``; issue 26's speed pass): a person's step is asked
    ``why_final`` only when no chance draw or new turn follows it (those barriers come first in
    every walk of the undo rules), and the replay of a restarted room marks the same steps.
    Random person steps of both seats, committed one by one, then the log replayed."""
    import random

    core = _started(game=game, options={})
    rng = random.Random(26)
    asked = 0
    for _ in range(150):
        state = core.state
        assert state is not None
        if state.is_terminal():
            break
        seat = state.acting_seats()[0]
        action = rng.choice(core.legal_for(seat))
        core.act(seat, str(action), core.version)
        core.commit(now=100.0)
        asked += 1
    assert asked > 20
    _, replayed = core.replay(core.live)
    assert [(st.seq, st.final) for st in replayed] == [(st.seq, st.final) for st in core.live]
    # a step followed by a chance draw or a new turn carries no mark; some steps are final
    for i, st in enumerate(core.live[:-1]):
        after = core.live[i + 1]
        if st.kind == "action" and (after.kind == "chance" or after.turn != st.turn):
            assert st.final is None
    if game == "scythe":
        assert any(st.final for st in core.live)
