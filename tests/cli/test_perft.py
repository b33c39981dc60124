"""`hexfolk perft` on the toy game, checked against hand counts.

Toy game (sealed bids): after the deal, each seat in turn bids one of its cards; with 2 players
and 2 cards each: seat 0 has 2 choices, seat 1 has 2, then 1 and 1, then the game ends (a
terminal node above the depth counts once).
"""

from __future__ import annotations

from pathlib import Path

from hexfolk.core import MatchRecord
from tests.cli.helpers import dealt_hands, one_json_object


def _counts(cli, *args: str) -> dict[str, int]:  # type: ignore[no-untyped-def]
    res = cli("perft", *args, "--json")
    assert res.exit_code == 0, res.output
    return one_json_object(res.stdout)["counts"]  # type: ignore[return-value]


def test_perft_counts_from_the_start_match_hand_computation(cli) -> None:
    # 2 players: 2, 2*2, then 1*1 each; terminal after depth 4
    assert _counts(cli, "bids", "--depth", "5") == {"1": 2, "2": 4, "3": 4, "4": 4, "5": 4}
    # 3 players: 2*2*2 after the first round of bids
    assert _counts(cli, "bids", "--depth", "4", "--players", "3") == {
        "1": 2,
        "2": 4,
        "3": 8,
        "4": 8,
    }
    # one card each: one line of play
    assert _counts(cli, "bids", "--depth", "3", "--option", "hand=1") == {"1": 1, "2": 1, "3": 1}


def test_perft_divide_lists_each_bid_of_seat_0(cli) -> None:
    hand = dealt_hands(7)[0]  # start_position resolves the deal with the seed's chance stream
    res = cli("perft", "bids", "--depth", "2", "--seed", "7", "--divide", "--json")
    data = one_json_object(res.stdout)
    assert data["divide"] == {f"bid {hand[0]}": 2, f"bid {hand[1]}": 2}
    text = cli("perft", "bids", "--depth", "2", "--seed", "7", "--divide").stdout
    assert f"bid {hand[0]}" in text and "divide at depth 2" in text and "nodes/s" in text


def test_perft_from_a_record_counts_chance_branches(cli, tmp_path: Path) -> None:
    path = tmp_path / "mid-deal.json"
    MatchRecord("bids", "1", 2, {"hand": 2}, 0, actions=["deal 3"]).save(path)
    # 8 cards left for seat 1, then 7, then 6 for the last deal; then seat 0 and 1 bid 2 each
    assert _counts(cli, "--record", str(path), "--depth", "5") == {
        "1": 8,
        "2": 56,
        "3": 336,
        "4": 672,
        "5": 1344,
    }
    assert _counts(cli, "bids", "--record", str(path), "--depth", "1") == {"1": 8}


def test_perft_bad_input_is_exit_2(cli, tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    MatchRecord("bids", "1", 2, {"hand": 2}, 0, actions=["deal 3", "deal 3"]).save(path)
    for args, needle in [
        (("perft", "nosuchgame", "--depth", "1"), "nosuchgame"),
        (("perft", "bids", "--depth", "1", "--players", "7"), "not 7"),
        (("perft", "bids", "--depth", "1", "--option", "hand=0"), "hand"),
        (("perft", "--depth", "1"), "name a game"),
        (("perft", "--record", str(path), "--depth", "1"), "step 1"),
        (("perft", "island", "--record", str(path), "--depth", "1"), "not 'island'"),
    ]:
        res = cli(*args)
        assert res.exit_code == 2, (args, res.output)
        assert res.stderr.startswith("error: ") and needle in res.stderr, res.stderr
        assert "Traceback" not in res.output
