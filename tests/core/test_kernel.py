"""The kernel: options, actions and their three errors, records, the match runner, registry."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from hexfolk.bots import RandomBot
from hexfolk.core import (
    AmbiguousActionError,
    Commitments,
    IllegalActionError,
    MalformedActionError,
    Match,
    MatchRecord,
    OptionError,
    OptionSpec,
    RecordError,
    UnknownGameError,
    derive_seed,
    game_ids,
    load_game,
    make_rng,
    parse_option_texts,
    replay,
    resolve_options,
)
from tests.core.toygame import Bid, BidsGame

SPECS = (
    OptionSpec("target", "int", 10, "points to win", 8, 20),
    OptionSpec("robber", "bool", True, "use the robber"),
    OptionSpec("board", "choice", "standard", "board", choices=("standard", "beginner")),
)


def test_options_defaults_and_parsing() -> None:
    assert resolve_options(SPECS, {}) == {"target": 10, "robber": True, "board": "standard"}
    parsed = parse_option_texts(SPECS, ["target=12", "robber=off", "board=beginner"])
    assert parsed == {"target": 12, "robber": False, "board": "beginner"}


@pytest.mark.parametrize(
    ("texts", "message"),
    [
        (["target=7"], "between 8 and 20"),
        (["target=ten"], "whole number"),
        (["robber=maybe"], "true or false"),
        (["board=hexagon"], "one of standard, beginner"),
        (["colour=red"], "unknown option 'colour'"),
        (["target"], "key=value"),
    ],
)
def test_bad_options_are_rejected_with_a_reason(texts: list[str], message: str) -> None:
    with pytest.raises(OptionError, match=message):
        parse_option_texts(SPECS, texts)


def test_bad_player_count_is_rejected() -> None:
    with pytest.raises(OptionError, match="2 to 4 players, not 5"):
        BidsGame(5)
    with pytest.raises(OptionError, match="unknown option"):
        BidsGame(2, {"nope": 1})


def test_unknown_game_lists_known_ones() -> None:
    with pytest.raises(UnknownGameError, match=r"known games: .*bids"):
        load_game("chess")
    assert {"island", "scythe", "bids"} <= set(game_ids())


def _started(seed: int = 4) -> tuple[BidsGame, object]:
    game = BidsGame(2)
    state = game.new_initial_state()
    rng = make_rng(seed, "chance")
    while state.is_chance():
        state.apply(state.sample_chance(rng))
    return game, state


def test_three_action_errors_and_state_unchanged() -> None:
    _, state = _started()
    before = state.fingerprint()  # type: ignore[attr-defined]
    hand = state.hands[0]  # type: ignore[attr-defined]
    missing = next(c for c in range(1, 10) if c not in hand)
    with pytest.raises(MalformedActionError):
        state.parse_action("bid")  # type: ignore[attr-defined]
    with pytest.raises(MalformedActionError, match="empty"):
        state.parse_action("  ")  # type: ignore[attr-defined]
    with pytest.raises(IllegalActionError, match="not legal now for seat 0"):
        state.parse_action(f"bid {missing}")  # type: ignore[attr-defined]
    with pytest.raises(IllegalActionError):
        state.apply(Bid(missing))  # type: ignore[attr-defined]
    assert state.fingerprint() == before  # type: ignore[attr-defined]


class _AnyBid:
    def matches(self, action: object) -> bool:
        return isinstance(action, Bid)


def test_shorthand_matching_several_actions_is_ambiguous(monkeypatch: pytest.MonkeyPatch) -> None:
    game, state = _started()
    monkeypatch.setattr(game, "parse_action_syntax", lambda text: _AnyBid())
    with pytest.raises(AmbiguousActionError, match="could mean any of: bid"):
        state.parse_action("bid?")  # type: ignore[attr-defined]


def test_parse_canonical_refuses_a_pattern(monkeypatch: pytest.MonkeyPatch) -> None:
    game, _ = _started()
    assert game.parse_canonical("bid 3") == Bid(3)
    monkeypatch.setattr(game, "parse_action_syntax", lambda text: _AnyBid())
    with pytest.raises(MalformedActionError, match="is a shorthand, not the text of one action"):
        game.parse_canonical("bid?")


def test_match_is_deterministic_and_bots_do_not_shift_the_dice() -> None:
    game = BidsGame(3)
    a = Match(game, [RandomBot()] * 3, 11).run()
    b = Match(game, [RandomBot()] * 3, 11).run()
    assert a.record.dumps() == b.record.dumps()
    c = Match(game, [RandomBot()] * 3, 12).run()
    assert c.record.actions != a.record.actions
    # The deal (chance) depends only on the seed's chance stream, not on the bots.
    deals = [t for t in a.record.actions if t.startswith("deal")]
    assert deals == [t for t in b.record.actions if t.startswith("deal")]


def test_record_round_trip_and_replay(tmp_path: Path) -> None:
    result = Match(BidsGame(2), [RandomBot()] * 2, 3).run()
    path = tmp_path / "game.json"
    result.record.save(path)
    loaded = MatchRecord.load(path)
    assert loaded.to_json() == result.record.to_json()
    assert replay(loaded).fingerprint() == result.state.fingerprint()


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda d: d.update(format="other"), "not a hexfolk record"),
        (lambda d: d.update(actions="deal 1"), "'actions'"),
        (lambda d: d.update(seed="x"), "'seed'"),
        (lambda d: d.update(game="chess"), "cannot be set up"),
        (lambda d: d.update(rules_version="0"), "rules"),
        (lambda d: d["actions"].__setitem__(0, "deal 99"), "step 0"),
        (lambda d: d["actions"].__setitem__(0, "bid 1"), "step 0"),
        (lambda d: d.update(final_fingerprint="0" * 32), "fingerprint"),
        (lambda d: d.update(players=9), "cannot be set up"),
    ],
)
def test_corrupt_or_tampered_records_fail_loudly(edit: object, message: str) -> None:
    result = Match(BidsGame(2), [RandomBot()] * 2, 3).run()
    data = json.loads(result.record.dumps())
    edit(data)  # type: ignore[operator]
    with pytest.raises(RecordError, match=message):
        replay(MatchRecord.from_json(data))


def test_record_that_is_not_json() -> None:
    with pytest.raises(RecordError, match="not valid JSON"):
        MatchRecord.loads("{not json")


def test_commitments_stay_hidden_until_reveal() -> None:
    c = Commitments([0, 1])
    c.commit(0, 5)
    assert c.view(1) == {"seats": [0, 1], "committed": [0]}
    assert c.view(0)["own"] == 5
    with pytest.raises(ValueError, match="not every seat"):
        c.reveal()
    with pytest.raises(ValueError, match="cannot commit"):
        c.commit(0, 3)
    c.commit(1, 2)
    assert c.reveal() == {0: 5, 1: 2}
    assert c.view(None)["values"] == {"0": 5, "1": 2}


def test_commitments_redrawn_for_a_sampled_world() -> None:
    c = Commitments([2, 0, 1])
    c.commit(1, "b")
    c.commit(2, "c")
    calls: list[tuple[int, object]] = []

    def draw(seat: int, old: object) -> str:
        calls.append((seat, old))
        return f"new{seat}"

    world = c.redrawn(1, draw)
    assert calls == [(2, "c")]  # only other seats that committed, in seat order
    assert world.value_for(1) == "b" and world.value_for(2) == "new2"
    assert world.value_for(0) is None and world.next_seat() == 0  # still owes its value
    assert c.value_for(2) == "c"  # the real commitments are untouched
    calls.clear()
    spectator = c.redrawn(None, draw)
    assert calls == [(2, "c"), (1, "b")] and spectator.value_for(1) == "new1"
    world.commit(0, "a")
    world.reveal()
    calls.clear()
    assert world.redrawn(1, draw).reveal() == {0: "a", 1: "b", 2: "new2"} and calls == []


def test_derived_seeds_are_stable_constants() -> None:
    # Pinned values: the derivation must not change across Python versions or processes
    # (every record's chance stream and every bot's stream depend on it).
    assert derive_seed(1, "chance") == 12939143859374738491
    assert derive_seed(1, "bot", 0) == 2890017342381438853
    assert derive_seed(0, "x") == 15838549821452497134
    assert make_rng(1, "chance").random() == random.Random(12939143859374738491).random()


def test_legal_actions_for_a_seat_not_to_move_is_empty() -> None:
    _, state = _started()
    assert state.legal_actions_for(1) == []  # type: ignore[attr-defined]
    assert state.legal_actions_for(0)  # type: ignore[attr-defined]


def test_summary_outline_is_readable() -> None:
    text = BidsGame(2).render_summary(
        {"dice": {"2": {"rolled": 1, "expected": 0.5}}, "players": [{"seat": 0, "vp": 3}]}
    )
    assert text.splitlines() == [
        "dice:",
        "  2: rolled 1, expected 0.5",
        "players:",
        "  - seat 0, vp 3",
    ]
