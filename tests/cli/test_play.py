"""`hexfolk play`: scripted terminal games against the random bot on the toy game."""

from __future__ import annotations

import json
from pathlib import Path

from hexfolk.core import MatchRecord, replay
from tests.cli.helpers import dealt_hands

SEED = 3


def _play(cli, script: str, tmp_path: Path, *extra: str):  # type: ignore[no-untyped-def]
    path = tmp_path / "game.json"
    res = cli("play", "bids", "--seed", str(SEED), "--record", str(path), *extra, input=script)
    return res, path


def test_play_pick_by_number_then_by_text(cli, tmp_path: Path) -> None:
    mine = dealt_hands(SEED)[0]
    # round 1: number 2 (the higher card, list is sorted); round 2: the other card by text
    res, path = _play(cli, f"2\nbid {mine[0]}\n", tmp_path)
    assert res.exit_code == 0, res.output
    out = res.stdout
    assert f"hand {mine} points [0, 0] round 0" in out  # the human's own view (rendered)
    assert f"1. bid {mine[0]}" in out and f"2. bid {mine[1]}" in out
    assert "Game over." in out and "scores: seat 0:" in out
    rec = MatchRecord.load(path)
    bids = [a for a in rec.actions if a.startswith("bid")]
    assert bids[0] == f"bid {mine[1]}" and bids[2] == f"bid {mine[0]}"
    assert rec.bots == ["human", "random"] and rec.result["finished"] is True
    final = replay(rec)
    assert final.is_terminal() and rec.result["winners"] == final.winners()


def test_play_bad_inputs_get_a_message_and_a_new_prompt(cli, tmp_path: Path) -> None:
    mine = dealt_hands(SEED)[0]
    not_mine = next(c for c in range(1, 10) if c not in mine)
    script = f"\nbid 0\nfold\n9\n0\nbid {not_mine}\n?\nhelp\n1\n1\n"
    res, path = _play(cli, script, tmp_path)
    assert res.exit_code == 0, res.output
    out = res.stdout
    assert "type the number of an action" in out  # empty line
    assert "not understood: 'bid 0'" in out  # malformed
    assert "not understood: 'fold'" in out
    assert "there is no action 9; choose 1 to 2" in out  # out-of-range numbers
    assert "there is no action 0; choose 1 to 2" in out
    assert f"not legal now: 'bid {not_mine}'" in out  # illegal
    assert out.count(f"1. bid {mine[0]}") == 3  # the list, then reprinted by ? and help
    assert out.count("seat 0> ") == 8 + 2  # a new prompt after every bad input
    rec = MatchRecord.load(path)  # nothing changed by the bad inputs: first legal, then last
    bids = [a for a in rec.actions if a.startswith("bid")]
    assert bids[0] == f"bid {mine[0]}" and bids[2] == f"bid {mine[1]}"


def test_play_quit_saves_the_record_and_exits_0(cli, tmp_path: Path) -> None:
    res, path = _play(cli, "1\nquit\n", tmp_path)
    assert res.exit_code == 0, res.output
    assert "You left the game." in res.stdout and "Game over" not in res.stdout
    rec = MatchRecord.load(path)
    assert rec.result["finished"] is False and rec.result["quit"] is True
    assert len(rec.actions) == 6  # 4 deals, 2 bids
    assert not replay(rec).is_terminal()
    assert cli("replay", str(path)).exit_code == 0


def test_play_end_of_input_quits(cli, tmp_path: Path) -> None:
    res, path = _play(cli, "", tmp_path)
    assert res.exit_code == 0 and "You left the game." in res.stdout
    assert len(json.loads(path.read_text())["actions"]) == 4


def test_play_never_shows_the_bots_hidden_cards(cli, tmp_path: Path) -> None:
    mine, theirs = dealt_hands(SEED)
    res, _ = _play(cli, "1\n1\n", tmp_path)
    out = res.stdout
    for card in theirs:  # seat 1's deal is secret (its bids are revealed together later)
        assert f"seat 1 is dealt {card}" not in out
    assert f"seat 0 is dealt {mine[0]}" in out  # own private log lines are shown
    assert "seat 1 bids" in out  # the bot's moves appear as the viewer's log shows them
    assert "bids revealed" in out


def test_play_hot_seat_hands_over_and_shows_only_own_cards(cli, tmp_path: Path) -> None:
    """Hot seat: a hand-over screen between people; each sees only its own deal."""
    mine, theirs = dealt_hands(SEED)
    res, _ = _play(cli, "1\n\n1\n\n1\n\n1\n", tmp_path, "--players", "human,human")
    assert res.exit_code == 0, res.output
    out = res.stdout
    assert "seat 0 is dealt a card" in out  # the spectator's log between the screens
    parts = out.split("Hand over to seat ")
    assert len(parts) == 4  # 0 -> 1 -> 0 -> 1: three hand-overs
    hands = (mine, theirs)
    for index, part in enumerate(parts):
        seat = 0 if index == 0 else int(part[0])
        other = 1 - seat
        for card in hands[other]:  # nobody's screen shows the other person's cards
            assert f"seat {other} is dealt {card}" not in part, (index, part)
    assert "seat 1: your view" in out and "Game over." in out


def test_play_default_players_is_one_human_and_random_bots(cli, tmp_path: Path) -> None:
    res, path = _play(cli, "1\n1\n", tmp_path)
    assert "seat 0: human (you)" in res.stdout and "seat 1: random" in res.stdout
    assert MatchRecord.load(path).bots == ["human", "random"]


def test_play_bad_setup_is_exit_2(cli) -> None:
    for args, needle in [
        (("play", "nosuchgame"), "nosuchgame"),
        (("play", "bids", "--players", "human"), "2 to 4"),
        (("play", "bids", "--players", "human,wizard"), "wizard"),
        (("play", "bids", "--option", "hand=3"), "hand"),
        (("play", "bids", "--offer-wait", "-1"), "--offer-wait"),
        (("play", "bids", "--offer-wait", "soon"), "--offer-wait"),
    ]:
        res = cli(*args, input="")
        assert res.exit_code == 2, (args, res.output)
        assert res.stderr.startswith("error: ") and needle in res.stderr
        assert "Traceback" not in res.output


def test_play_island_decline_all_offers_stops_the_questions(cli, tmp_path: Path) -> None:
    """Issue 12: offers never block a person; ``decline-all on`` answers every bot offer."""
    path = tmp_path / "island.json"
    script = "decline-all on\n" + "1\n" * 200
    res = cli(
        "play", "island", "--players", "human,easy,medium,easy", "--seed", "5",
        "-o", "board=beginner", "--record", str(path), input=script,
    )  # fmt: skip
    assert res.exit_code == 0, res.output
    out = res.stdout
    assert "— answer with `accept " not in out  # never shown an offer to answer
    assert "seat 0 rejects" in out  # the bots' offers were answered for the person
    rec = MatchRecord.load(path)
    assert rec.actions.count("decline-all on") == 1
    assert replay(rec).fingerprint() == rec.final_fingerprint


def test_play_island_answers_offers_when_asked(cli, tmp_path: Path) -> None:
    path = tmp_path / "island.json"
    res = cli(
        "play", "island", "--players", "human,easy,medium,easy", "--seed", "5",
        "-o", "board=beginner", "--record", str(path), input="1\n" * 200,
    )  # fmt: skip
    assert res.exit_code == 0, res.output
    assert "— answer with `accept " in res.stdout  # a bot's offer, shown once with how to answer
    rec = MatchRecord.load(path)
    assert any(a.startswith(("accept ", "reject ", "counter ")) for a in rec.actions)
    assert replay(rec).fingerprint() == rec.final_fingerprint


def test_play_shows_the_engines_reason_for_an_illegal_action(cli, tmp_path: Path) -> None:
    path = tmp_path / "island.json"
    script = "road 0\nquit\n"
    res = cli("play", "island", "--seed", "1", "--record", str(path), input=script)
    assert res.exit_code == 0, res.output
    assert "not legal now: place your setup settlement first; its road follows" in " ".join(
        res.stdout.split()
    )
    assert "legal are e.g." not in res.stdout  # the specific reason, not the generic sentence
