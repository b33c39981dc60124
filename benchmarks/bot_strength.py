"""Bot strength and decision time: hard vs medium vs easy vs random, in both games.

For each game and each pair of levels, plays 2-player games with seats rotated (entry 0 sits
first in even games, second in odd ones) from one master seed, and prints the first entry's win
rate with a 95% Wilson interval. Every decision of every bot is timed, and the median and 95th
percentile decision time per level are printed.

    python benchmarks/bot_strength.py --games 200 --workers 2
    python benchmarks/bot_strength.py --game island --pairs hard-random --games 100 --json

``--via`` says where the bots play:

* ``simulate`` (the default): in this process tree, as ``hexfolk simulate`` plays them (the
  kernel's ``Match``, the same bot codes, game seeds and seat rotation), ``--workers`` processes.
* ``server``: bots-only 2-player tables of a real ``hexfolk serve`` started as a subprocess on
  127.0.0.1 (a free port, a temporary SQLite folder, ``--bot-workers`` = ``--workers``), with no
  clock and no bot delay, ``--tables`` of them at a time; every decision goes through the
  server's worker pool (the state pickled into a spawned process). The bot failures the server
  counts (``/healthz`` and each table's statistics) are printed; they must be 0. The deals
  differ from ``simulate``'s (the server draws its own chance steps), the bots do not: the win
  rates agree within their confidence intervals. ``--max-seconds`` bounds a pair's run: tables
  still playing then are left out, and the count of games says how many ended.

    python benchmarks/bot_strength.py --via server --pairs hard-medium --games 60 --workers 2

Not a test: a full run takes a long time. The issue's targets: hard >= 95% vs random and
>= 60% vs medium; medium >= 60% vs easy; hard's median decision <= 1 s at its default budget.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from hexfolk.bots.registry import make_bot
from hexfolk.bots.tournament import game_seed, seats_for_game, wilson_interval
from hexfolk.core import Action, Bot, Match, Observation, load_game

DEFAULT_PAIRS = ("hard-random", "hard-medium", "medium-easy", "easy-random")


class TimedBot:
    """Wraps a bot and records the wall time of each decision."""

    def __init__(self, bot: Bot):
        self.bot = bot
        self.name = bot.name
        self.times: list[float] = []

    def choose(self, observation: Observation, legal: Sequence[Action], rng: Any) -> Action:
        start = time.perf_counter()
        action = self.bot.choose(observation, legal, rng)
        self.times.append(time.perf_counter() - start)
        return action


def play_one(args: tuple[str, str, str, int, int]) -> dict[str, Any]:
    game_id, first, second, seed, index = args
    game = load_game(game_id, 2)
    codes = seats_for_game([first, second], index)
    bots = [TimedBot(make_bot(code, game_id)) for code in codes]
    result = Match(game, bots, game_seed(seed, index)).run(keep_actions=False)
    first_seat = codes.index(first) if first != second else index % 2
    returns = result.returns
    return {
        "first_return": returns[first_seat],
        "finished": result.finished,
        "times": {codes[s]: bots[s].times for s in range(2)},
    }


def run_pair(game_id: str, pair: str, games: int, seed: int, workers: int) -> dict[str, Any]:
    first, _, second = pair.partition("-")
    jobs = [(game_id, first, second, seed, i) for i in range(games)]
    if workers > 1:
        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            outcomes = pool.map(play_one, jobs, chunksize=1)
    else:
        outcomes = [play_one(j) for j in jobs]
    wins = sum(o["first_return"] for o in outcomes)
    lo, hi = wilson_interval(wins, games)
    times: dict[str, list[float]] = {}
    for o in outcomes:
        for code, ts in o["times"].items():
            times.setdefault(code, []).extend(ts)
    return {
        "game": game_id,
        "pair": pair,
        "games": games,
        "finished": sum(o["finished"] for o in outcomes),
        "first_win_rate": wins / games if games else 0.0,
        "ci95": [lo, hi],
        "times": times,
    }


SEED_MASK = (1 << 62) - 1
"""A table's seed is a signed 64-bit column: game seeds are cut to 62 bits."""


@contextmanager
def serve(workers: int) -> Iterator[str]:
    """A ``hexfolk serve`` subprocess on a free loopback port; yields its address."""
    import socket

    import httpx

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = int(sock.getsockname()[1])
    with tempfile.TemporaryDirectory(prefix="hexfolk-strength-") as data:
        log_path = os.path.join(data, "server.log")
        args = [
            sys.executable,
            "-m",
            "hexfolk.cli.main",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--data-dir",
            data,
            "--allow-seeded-tables",
            "--bot-workers",
            str(max(1, workers)),
            "--sqlite-synchronous",
            "NORMAL",
            "--log-level",
            "warning",
        ]
        with open(log_path, "wb") as log:
            proc = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT)
            url = f"http://127.0.0.1:{port}"
            try:
                deadline = time.time() + 60
                while True:
                    if proc.poll() is not None or time.time() > deadline:
                        with open(log_path, encoding="utf-8", errors="replace") as f:
                            tail = f.read()[-2000:]
                        raise RuntimeError(f"hexfolk serve did not start:\n{tail}")
                    try:
                        if httpx.get(url + "/healthz", timeout=1).status_code == 200:
                            break
                    except httpx.HTTPError:
                        pass
                    time.sleep(0.2)
                yield url
            finally:
                proc.terminate()
                try:
                    proc.wait(20)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait(10)
        with open(log_path, encoding="utf-8", errors="replace") as f:
            failures = [line for line in f if "bot failure" in line]
        if failures:
            print(
                f"the server logged {len(failures)} bot failure(s): {failures[0]}", file=sys.stderr
            )


async def _server_game(
    client: Any, game_id: str, first: str, second: str, seed: int, index: int
) -> dict[str, Any]:
    codes = seats_for_game([first, second], index)
    table = await client.create_table(
        game=game_id,
        players=2,
        clock=None,
        bot_delay=0,
        public=False,
        seed=game_seed(seed, index) & SEED_MASK,
        seats=[{"kind": "bot", "level": code} for code in codes],
    )
    tid = table["id"]
    await client.start(tid)
    while (await client.table(tid))["status"] != "finished":
        await asyncio.sleep(0.5)
    summary = await client.request("GET", f"/api/tables/{tid}/summary")
    first_seat = codes.index(first) if first != second else index % 2
    return {
        "first_return": summary["result"]["returns"][first_seat],
        "finished": True,
        "bot_failures": sum(s["bot_failures"] for s in summary["statistics"]["seats"]),
        "decisions": sum(s["decisions"] for s in summary["statistics"]["seats"]),
    }


async def _server_pair(
    url: str,
    game_id: str,
    first: str,
    second: str,
    games: int,
    seed: int,
    tables: int,
    max_seconds: float,
) -> list[dict[str, Any]]:
    from hexfolk.server.client import HexfolkClient

    end = time.monotonic() + max_seconds
    outcomes: list[dict[str, Any]] = []
    async with HexfolkClient(url) as client:
        await client.create_player("Benchmark")
        todo = iter(range(games))

        async def lane() -> None:
            for index in todo:
                if time.monotonic() > end:
                    return
                remaining = max(1.0, end - time.monotonic())
                try:
                    out = await asyncio.wait_for(
                        _server_game(client, game_id, first, second, seed, index), remaining
                    )
                except TimeoutError:
                    return
                outcomes.append(out)
                print(
                    f"  {game_id} {first}-{second} game {index}: first entry "
                    f"{out['first_return']:g} ({len(outcomes)} done)",
                    file=sys.stderr,
                    flush=True,
                )

        await asyncio.gather(*(lane() for _ in range(max(1, tables))))
    return outcomes


def run_pair_server(
    url: str, game_id: str, pair: str, games: int, seed: int, tables: int, max_seconds: float
) -> dict[str, Any]:
    import httpx

    first, _, second = pair.partition("-")
    outcomes = asyncio.run(
        _server_pair(url, game_id, first, second, games, seed, tables, max_seconds)
    )
    played = len(outcomes)
    wins = sum(o["first_return"] for o in outcomes)
    lo, hi = wilson_interval(wins, played)
    health = httpx.get(url + "/healthz", timeout=10).json()
    return {
        "game": game_id,
        "pair": pair,
        "games": played,
        "asked": games,
        "finished": played,
        "first_win_rate": wins / played if played else 0.0,
        "ci95": [lo, hi],
        "bot_failures": sum(o["bot_failures"] for o in outcomes),
        "server_bot_failures": health.get("bot_failures"),
        "server_bot_decisions": health.get("bot_decisions"),
        "times": {},
    }


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=["island", "scythe", "both"], default="both")
    parser.add_argument("--pairs", default=",".join(DEFAULT_PAIRS), help="e.g. hard-random")
    parser.add_argument("--games", type=int, default=100, help="games per pair")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--via", choices=["simulate", "server"], default="simulate")
    parser.add_argument("--tables", type=int, default=0, help="server: tables at a time")
    parser.add_argument(
        "--max-seconds", type=float, default=3600.0, help="server: time bound of each pair"
    )
    args = parser.parse_args(argv)
    game_ids = ["island", "scythe"] if args.game == "both" else [args.game]
    rows = []
    level_times: dict[str, list[float]] = {}
    with serve(args.workers) if args.via == "server" else _nothing() as url:
        for game_id in game_ids:
            for pair in args.pairs.split(","):
                start = time.perf_counter()
                if url is None:
                    row = run_pair(game_id, pair.strip(), args.games, args.seed, args.workers)
                else:
                    tables = args.tables or max(2, args.workers + 1)
                    row = run_pair_server(
                        url,
                        game_id,
                        pair.strip(),
                        args.games,
                        args.seed,
                        tables,
                        args.max_seconds,
                    )
                row["seconds"] = time.perf_counter() - start
                row["via"] = args.via
                _report(row, level_times, rows, args.json)
    _timing(level_times, rows, args.json)
    return 0


@contextmanager
def _nothing() -> Iterator[None]:
    yield None


def _report(
    row: dict[str, Any], level_times: dict[str, list[float]], rows: list[Any], as_json: bool
) -> None:
    game_id = row["game"]
    for code, ts in row.pop("times").items():
        level_times.setdefault(f"{game_id}:{code}", []).extend(ts)
    rows.append(row)
    if as_json:
        return
    lo, hi = row["ci95"]
    failures = (
        f", bot failures {row['bot_failures']} (server: {row['server_bot_failures']}"
        f" of {row['server_bot_decisions']} decisions)"
        if "bot_failures" in row
        else ""
    )
    print(
        f"{game_id:7s} {row['pair']:12s} first wins {row['first_win_rate']:6.1%} "
        f"[{lo:.1%}, {hi:.1%}] over {row['games']} games "
        f"({row['finished']} finished) in {row['seconds']:.0f}s via {row['via']}{failures}",
        flush=True,
    )


def _timing(level_times: dict[str, list[float]], rows: list[Any], as_json: bool) -> None:
    timing = {
        key: {
            "decisions": len(ts),
            "median_ms": 1000 * statistics.median(ts) if ts else 0.0,
            "p95_ms": 1000 * percentile(ts, 0.95),
        }
        for key, ts in sorted(level_times.items())
    }
    if as_json:
        json.dump({"pairs": rows, "decision_time": timing}, sys.stdout, indent=1)
        print()
    else:
        print()
        for key, t in timing.items():
            print(
                f"{key:16s} decisions {t['decisions']:8d}  median {t['median_ms']:8.2f} ms"
                f"  p95 {t['p95_ms']:8.2f} ms"
            )


if __name__ == "__main__":
    sys.exit(main())
