"""Records are checked whole (issue 17): periodic checkpoints name a changed step within their
interval, every derivable result field is verified, old records without checkpoints replay."""

from __future__ import annotations

import re

import pytest

from hexfolk.bots.registry import make_bot
from hexfolk.core import Match, MatchRecord, RecordError, load_game, replay
from hexfolk.core.record import CHECKPOINT_EVERY

EVERY = CHECKPOINT_EVERY


def _record(game_id: str, seed: int = 3) -> MatchRecord:
    """A seeded game between easy bots (a few hundred steps: fast to replay many times)."""
    game = load_game(game_id, 3)
    bots = [make_bot("easy", game_id) for _ in range(game.num_players)]
    result = Match(game, bots, seed, checkpoint_every=EVERY).run()
    return MatchRecord.loads(result.record.dumps())  # through JSON, as on disk


@pytest.fixture(scope="module")
def island() -> MatchRecord:
    return _record("island")


@pytest.fixture(scope="module")
def scythe() -> MatchRecord:
    return _record("scythe")


def _copy(record: MatchRecord) -> MatchRecord:
    return MatchRecord.loads(record.dumps())


def test_records_carry_a_checkpoint_every_interval_and_replay(island: MatchRecord) -> None:
    steps = [s for s, _ in island.checkpoints]
    assert steps == list(range(EVERY, len(island.actions) + 1, EVERY))
    assert '"checkpoints":[[50,' in island.dumps()
    final = replay(island)
    assert final.fingerprint() == island.final_fingerprint


def _named_steps(message: str) -> tuple[int, int]:
    """The step window an error names: ``record steps a..b`` or ``record step k``."""
    window = re.search(r"record steps (\d+)\.\.(\d+)", message)
    if window:
        return int(window.group(1)), int(window.group(2))
    one = re.search(r"record step (\d+)", message)
    assert one, message
    return int(one.group(1)), int(one.group(1))


def _tamper_chance(
    record: MatchRecord, pattern: str, swap: dict[str, str], *, need_checkpoint: bool
) -> tuple[int, str]:
    """Change the first chance entry matching ``pattern`` whose replacement still replays up
    to the next checkpoint (so only the checkpoint can catch it); return (index, error)."""
    for i, entry in enumerate(record.actions):
        m = re.fullmatch(pattern, entry)
        if not m or m.group(1) not in swap or i < EVERY:
            continue
        tampered = _copy(record)
        tampered.actions[i] = entry.replace(m.group(1), swap[m.group(1)])
        with pytest.raises(RecordError) as info:
            replay(tampered)
        message = str(info.value)
        if need_checkpoint and "checkpoint" not in message:
            continue
        return i, message
    raise AssertionError("no tamperable chance outcome found")


def test_a_tampered_dice_roll_is_named_within_the_interval(island: MatchRecord) -> None:
    swap = {"6": "8", "8": "6", "5": "9", "9": "5", "4": "10", "10": "4"}
    index, message = _tamper_chance(island, r"roll (\d+)", swap, need_checkpoint=True)
    first, last = _named_steps(message)
    # entry i is applied as step i + 1: the state after step i + 1 is the first one changed
    assert first <= index + 1 <= last and last - first < EVERY, message
    assert last < len(island.actions) - EVERY, "named long before the end"


def test_a_tampered_card_draw_is_named_within_the_interval(scythe: MatchRecord) -> None:
    swap = {"2": "3", "3": "2", "4": "5", "5": "4"}
    index, message = _tamper_chance(scythe, r"draw (\d+)", swap, need_checkpoint=False)
    first, last = _named_steps(message)
    if first == last:  # a later step stopped replaying (entry k is "record step k")
        assert index <= first < index + EVERY, message
    else:  # a checkpoint caught it (entry i is step i + 1)
        assert first <= index + 1 <= last and last - first < EVERY, message


def test_a_tampered_checkpoint_is_refused(island: MatchRecord) -> None:
    tampered = _copy(island)
    step, _ = tampered.checkpoints[2]
    tampered.checkpoints[2] = (step, "0" * 32)
    with pytest.raises(RecordError, match=rf"record steps {step - EVERY + 1}\.\.{step}"):
        replay(tampered)


@pytest.mark.parametrize(
    ("key", "value"),
    [("finished", False), ("winners", [9]), ("scores", [99.0, 0.0, 0.0]), ("turns", 1)],
)
def test_a_stored_result_that_differs_is_refused(
    island: MatchRecord, key: str, value: object
) -> None:
    tampered = _copy(island)
    tampered.result[key] = value
    with pytest.raises(RecordError, match=rf"record says {key} "):
        replay(tampered)


def test_scores_of_the_wrong_type_are_refused(island: MatchRecord) -> None:
    tampered = _copy(island)
    tampered.result["scores"] = "high"
    with pytest.raises(RecordError, match="record says scores"):
        replay(tampered)


def test_old_records_without_checkpoints_or_result_fields_still_replay(
    island: MatchRecord,
) -> None:
    old = _copy(island)
    old.checkpoints = []
    old.result = {"winners": island.result["winners"]}
    assert "checkpoints" not in old.dumps()
    assert replay(MatchRecord.loads(old.dumps())).fingerprint() == island.final_fingerprint


def test_malformed_checkpoints_are_refused(island: MatchRecord) -> None:
    data = island.to_json()
    for bad in ("x", [[1]], [["a", "b"]], [[60, "f"], [50, "f"]], [[10**9, "f"]]):
        data["checkpoints"] = bad
        with pytest.raises(RecordError, match="checkpoint"):
            MatchRecord.from_json(data)


def test_from_steps_writes_the_same_checkpoints(island: MatchRecord) -> None:
    game = load_game("island", 3)
    rebuilt = MatchRecord.from_steps(game, island.seed, [(None, a) for a in island.actions])
    assert rebuilt.checkpoints == island.checkpoints
    assert rebuilt.final_fingerprint == island.final_fingerprint
