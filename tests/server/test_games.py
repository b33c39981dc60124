"""Complete games of both games through the server: bots only, and scripted people; the record
replays in the kernel and in ``hexfolk replay``; the replay endpoint and the summary."""

from __future__ import annotations

import json
import random
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from hexfolk.core import MatchRecord, replay
from hexfolk.server.client import HexfolkClient
from tests.server.helpers import ThreadServer, play_scripted, quick_choice, run


async def _bots_only(server: ThreadServer, game: str, options: dict[str, Any], level: str) -> str:
    async with HexfolkClient(server.url) as host:
        await host.create_player("Organizer")
        t = await host.create_table(
            game=game,
            players=2,
            options=options,
            bot_delay=0,
            seats=[{"kind": "bot", "level": level}, {"kind": "bot", "level": level}],
        )
        await host.start(t["id"])
        async with host.connect(t["id"], spectate=True) as watcher:
            view = await watcher.wait_for(lambda v: v["status"] == "finished", timeout=100)
            assert view["result"]["winners"]
            assert view["legal"] == []  # a spectator never gets legal actions
        return str(t["id"])


def _check_record(server: ThreadServer, tid: str, tmp_path: Path) -> MatchRecord:
    text = httpx.get(f"{server.url}/api/tables/{tid}/record").text
    record = MatchRecord.loads(text)
    assert record.seed == 0  # the table's seed is never published
    final = replay(record)
    assert final.is_terminal() and final.winners() == record.result["winners"]
    path = tmp_path / f"{tid}.json"
    path.write_text(text)
    out = subprocess.run(
        [sys.executable, "-m", "hexfolk.cli.main", "replay", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    return record


@pytest.fixture(scope="module")
def island_bots_game(server: ThreadServer) -> str:
    """One island game of two easy bots, played to the end once for the tests that read it
    (the summary test corrupts its stored summary and puts it back)."""
    return run(_bots_only(server, "island", {"vp_target": 8}, "easy"))


def test_island_bots_only_game_finishes_and_replays(
    server: ThreadServer, island_bots_game: str, tmp_path: Path
) -> None:
    tid = island_bots_game
    record = _check_record(server, tid, tmp_path)
    assert record.bots == ["easy", "easy"]
    summary = httpx.get(f"{server.url}/api/tables/{tid}/summary").json()
    assert "dice" in str(summary["result"]["summary"])  # IR-80: the dice histogram
    stats = summary["statistics"]["seats"]
    assert all(s["bot"] == s["decisions"] > 0 for s in stats)


def test_scythe_bots_only_game_finishes_and_replays(server: ThreadServer, tmp_path: Path) -> None:
    tid = run(_bots_only(server, "scythe", {}, "easy"))
    _check_record(server, tid, tmp_path)
    summary = httpx.get(f"{server.url}/api/tables/{tid}/summary").json()
    assert summary["result"]["summary"] and summary["text"]


def _scripted(
    server: ThreadServer, game: str, options: dict[str, Any], seed: int, level: str
) -> str:
    async def scenario() -> str:
        async with HexfolkClient(server.url) as person:
            await person.create_player("Scripted")
            t = await person.create_table(
                game=game,
                players=2,
                options=options,
                bot_delay=0,
                seed=seed,
                seats=[{"kind": "host"}, {"kind": "bot", "level": level}],
            )
            await person.start(t["id"])
            rng = random.Random(seed)
            async with person.connect(t["id"], keep_raw=True) as conn:
                final = await play_scripted(conn, quick_choice(rng))
                assert final["status"] == "finished"
                # the log assembled from the views' increments equals the seat's whole log in
                # the full view a sync answers (docs/protocol.md), at the same version; a late
                # message (a refusal raced by the end, a view resent) may come first
                mark = len(conn.received)
                await conn.sync(None)
                await conn.wait_for(lambda v: v["log_start"] == 0, timeout=10)
                # every view frame in order, with whether it came after the sync was sent
                views = [
                    (i >= mark, m)
                    for i, m in enumerate(json.loads(r) for r in conn.received)
                    if m.get("type") == "view"
                ]
                answer = next(
                    k for k, (late, m) in enumerate(views) if late and m["log_start"] == 0
                )
                full = views[answer][1]
                assembled: list[str] = []
                for _, m in views[:answer]:
                    assembled = assembled[: m["log_start"]] + m["log"]
                assert full["status"] == "finished"
                assert views[answer - 1][1]["version"] == full["version"]
                assert assembled == full["log"] and len(assembled) > 0
            return str(t["id"])

    return run(scenario())


SCRIPTED: dict[str, tuple[str, dict[str, Any], int, str]] = {
    "island": ("island", {"vp_target": 8}, 5, "easy"),
    "scythe": ("scythe", {}, 11, "random"),
}
"""The scripted person's game of each game: options, seed and the bot's level."""


@pytest.fixture(scope="module")
def scripted_game(server: ThreadServer) -> Callable[[str], str]:
    """A game of :data:`SCRIPTED` (a scripted person against a bot, checked as it is played:
    the log the views assemble is the synced one), played once, when a test first asks for it,
    for the tests that only read it; its table's id."""
    played: dict[str, str] = {}

    def table(game: str) -> str:
        if game not in played:
            played[game] = _scripted(server, *SCRIPTED[game])
        return played[game]

    return table


def test_island_person_against_a_bot(
    server: ThreadServer, scripted_game: Callable[[str], str], tmp_path: Path
) -> None:
    tid = scripted_game("island")
    record = _check_record(server, tid, tmp_path)
    assert record.bots[0].startswith("human:")
    steps = httpx.get(f"{server.url}/api/tables/{tid}/replay", params={"limit": 5}).json()
    assert steps["steps_total"] == len(record.actions)
    assert [s["step"] for s in steps["steps"]] == [0, 1, 2, 3, 4]
    assert len(steps["steps"][1]["seats"]) == 2  # revealed once over
    last = httpx.get(
        f"{server.url}/api/tables/{tid}/replay",
        params={"start": len(record.actions), "limit": 1, "reveal": False},
    ).json()
    assert last["steps"][0]["observation"]["winner"] is not None
    assert "seats" not in last["steps"][0]


def _replay(url: str, tid: str, log: str) -> list[dict[str, Any]]:
    """Every public step of the replay, 50 a page (pages start inside the game), ``log=<log>``."""
    steps: list[dict[str, Any]] = []
    total = 1
    while len(steps) < total:
        page = httpx.get(
            f"{url}/api/tables/{tid}/replay",
            params={"start": len(steps), "limit": 50, "reveal": False, "log": log},
        ).json()
        total = page["steps_total"] + 1
        steps += page["steps"]
    return steps


@pytest.mark.parametrize("game", ["island", "scythe"])
def test_the_replay_sends_each_step_s_new_log_lines(
    server: ThreadServer, scripted_game: Callable[[str], str], game: str
) -> None:
    """``log=new`` (what the browser asks for): a step's view without its log, the step with
    the lines changed since the step before (``log_start``, ``log``), which rebuild every
    step's whole log as ``log=all`` sends it, across pages too."""
    tid = scripted_game(game)
    whole = _replay(server.url, tid, "all")
    new = _replay(server.url, tid, "new")
    assert [s["step"] for s in new] == [s["step"] for s in whole] == list(range(len(whole)))
    log: list[Any] = []
    for a, b in zip(whole, new, strict=True):
        assert "log" not in b["observation"]
        log = log[: b["log_start"]] + b["log"]
        assert log == a["observation"]["log"], a["step"]
        assert b["observation"] == {k: v for k, v in a["observation"].items() if k != "log"}
    assert sum(len(s["log"]) for s in new) < sum(len(s["observation"]["log"]) for s in whole)


def test_scythe_person_against_a_bot(
    server: ThreadServer, scripted_game: Callable[[str], str], tmp_path: Path
) -> None:
    tid = scripted_game("scythe")
    _check_record(server, tid, tmp_path)


def test_a_summary_that_cannot_be_written_is_said_not_hidden(
    server: ThreadServer, island_bots_game: str, caplog: pytest.LogCaptureFixture
) -> None:
    """A finished table whose stored summary this version cannot write as text (a corrupt or
    foreign record) still serves its result and statistics; ``text_error`` says why and the
    server logs it (errors are never swallowed)."""
    tid = island_bots_game
    good = httpx.get(f"{server.url}/api/tables/{tid}/summary").json()
    assert good["text"] and "text_error" not in good
    db = server.config.resolved_data_dir() / "hexfolk.sqlite"
    with sqlite3.connect(db) as con:
        (raw,) = con.execute("SELECT result FROM tables WHERE id = ?", (tid,)).fetchone()
        result = json.loads(raw)
        result["summary"] = {"vp": "not a list of points", "dice": 7}
        con.execute("UPDATE tables SET result = ? WHERE id = ?", (json.dumps(result), tid))
    try:
        # the server keeps finished rows in memory only while live: read it back from the
        # database
        with caplog.at_level("ERROR", logger="hexfolk.server"):
            bad = httpx.get(f"{server.url}/api/tables/{tid}/summary").json()
    finally:  # the shared game's summary as it was
        with sqlite3.connect(db) as con:
            con.execute("UPDATE tables SET result = ? WHERE id = ?", (raw, tid))
    assert bad["text"] == "" and bad["text_error"]
    assert bad["statistics"] == good["statistics"]
    assert any(tid in r.getMessage() for r in caplog.records)
