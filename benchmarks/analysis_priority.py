"""Do post-game analyses delay live tables? (issue 29 point 3: "the server computes the analysis
after a game ends in the bot worker pool at low priority, without delaying live tables (measure
it)"; ``docs/analysis.md``, "On the server").

The server's own parts, in one process: a :class:`~hexfolk.server.botpool.BotPool` of
``--workers`` bot workers (the server's default: 2) answers the decisions of ``--tables`` live
tables, each asking its next decision as soon as the last one is answered (bot delay 0: the bot
workers are kept busy, the worst case), while the pool's analysis lane
(:class:`~hexfolk.server.analysis_lane.AnalysisLane`) analyses finished games back to back.
Three phases, alternated in rounds so that the machine's drift falls on each alike (the lane's
worker is started for each phase and ended with it, so no analysis spills into the next phase):

* ``none``: no analysis;
* ``nice19``: analyses in the lane as the server runs it (nice 19);
* ``nice0``: the same analyses at the bot workers' priority (what the lane's priority saves).

Per phase: the decisions answered, their latency (from asking the pool to its answer: p50, p95,
p99, mean) and the analyses' progress (steps analysed per second of wall time). The decisions
are island positions of 4-player games, asked of the ``--level`` bot (medium by default); the
analyses are of 4-player island games at ``--budget`` (the server's default budget).

    python benchmarks/analysis_priority.py
    python benchmarks/analysis_priority.py --rounds 3 --seconds 20 --json

Not a test (timings are measured here, never in timed tests). The machine's other load counts:
run it on a quiet machine for the figures in the docs, and read ``load`` (the load average at
the start and end) next to them.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import time
from typing import Any

from hexfolk.analysis import Budget
from hexfolk.bots.registry import make_bot
from hexfolk.core import CHANCE, Match, State, load_game
from hexfolk.core.record import split_entry
from hexfolk.server.analysis_lane import AnalysisLane
from hexfolk.server.botpool import BotPool, _watch_parent

PHASES = ("none", "nice19", "nice0")


def positions(count: int, seed: int) -> list[tuple[State, int]]:
    """Island positions (4 players) where a seat has a real choice, from random games."""
    game = load_game("island", 4)
    rng = random.Random(seed)
    out: list[tuple[State, int]] = []
    while len(out) < count:
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal() and steps < 2000 and len(out) < count:
            player = state.current_player()
            if player == CHANCE:
                state.apply(state.sample_chance(rng))
            else:
                legal = state.legal_actions()
                if len(legal) > 3 and rng.random() < 0.05:
                    out.append((state.clone(), player))
                state.apply(rng.choice(legal))
            steps += 1
    return out


def finished_tables(count: int) -> list[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """Finished 4-player island games of medium bots as the server stores them: the table's
    settings and its event rows (what the lane is given)."""
    out = []
    for i in range(count):
        game = load_game("island", 4)
        record = (
            Match(game, [make_bot("medium", "island") for _ in range(4)], 2000 + i).run().record
        )
        state = record.start_state(game)
        events = []
        for seq, entry in enumerate(record.actions, start=1):
            mark, text = split_entry(entry)
            mover = state.current_player()
            if mover == CHANCE and mark is None:
                state.apply(state.parse_action(text))
                events.append(
                    {"seq": seq, "kind": "chance", "seat": None, "action": text, "undoes": None}
                )
            else:
                seat = mover if mark is None else mark
                action = state.parse_action_for(seat, text)
                state.apply_for(seat, action)
                events.append(
                    {
                        "seq": seq,
                        "kind": "action",
                        "seat": seat,
                        "action": str(action),
                        "undoes": None,
                    }
                )
        seats = [{"kind": "bot", "level": "medium"}] * 4
        table = {"id": f"bench{i}", "game": "island", "players": 4, "options": {}, "seats": seats}
        out.append((table, events))
    return out


async def phase(
    pool: BotPool,
    lane: AnalysisLane | None,
    spots: list[tuple[State, int]],
    tables: list[tuple[dict[str, Any], list[dict[str, Any]]]],
    budget: str,
    level: str,
    n_tables: int,
    seconds: float,
) -> dict[str, Any]:
    latencies: list[float] = []
    analysed = [0]
    stop = asyncio.Event()

    async def table(k: int) -> None:
        i = k
        while not stop.is_set():
            state, seat = spots[i % len(spots)]
            i += n_tables
            t0 = time.perf_counter()
            await pool.choose(state, seat, level, i)
            latencies.append(time.perf_counter() - t0)

    async def analyses() -> None:
        assert lane is not None
        j = 0
        while not stop.is_set():
            table_data, events = tables[j % len(tables)]
            j += 1
            done = [0.0]

            def progress(fraction: float, done: list[float] = done) -> None:
                done[0] = fraction

            task = asyncio.ensure_future(lane.run(table_data, events, {}, budget, progress))
            while not task.done():
                await asyncio.wait({task}, timeout=0.2)
                if stop.is_set() and not task.done():
                    task.cancel()
                    analysed[0] += int(done[0] * len(events))
                    return
            task.result()
            analysed[0] += len(events)

    # warm the workers (spawned processes import the engines first); the lane's worker is started
    # fresh for each phase and stopped at its end: the executor cannot cancel a running
    # analysis, and one left running would load the next phase
    await pool.choose(*spots[0], level, 0)
    if lane is not None:  # the worker imports the analysis and loads the game: not measured
        table_data, events = tables[0]
        await lane.run(table_data, events[:60], {}, budget, lambda _f: None)
    workers = [asyncio.ensure_future(table(k)) for k in range(n_tables)]
    if lane is not None:
        workers.append(asyncio.ensure_future(analyses()))
    t0 = time.perf_counter()
    await asyncio.sleep(seconds)
    stop.set()
    wall = time.perf_counter() - t0
    await asyncio.gather(*workers, return_exceptions=True)
    if lane is not None:
        lane.shutdown()
    return {"latencies": latencies, "analysed_steps": analysed[0], "wall": wall}


def summary(latencies: list[float]) -> dict[str, float]:
    xs = sorted(latencies)

    def q(p: float) -> float:
        return xs[min(len(xs) - 1, int(p * len(xs)))] * 1000

    return {
        "decisions": len(xs),
        "p50_ms": round(q(0.50), 1),
        "p95_ms": round(q(0.95), 1),
        "p99_ms": round(q(0.99), 1),
        "mean_ms": round(statistics.fmean(xs) * 1000, 1),
    }


async def run(args: argparse.Namespace) -> dict[str, Any]:
    spots = positions(200, 7)
    tables = finished_tables(args.games)
    pool = BotPool(args.workers)
    lanes = {"nice19": AnalysisLane(_watch_parent), "nice0": AnalysisLane(_watch_parent, 0)}
    collected: dict[str, dict[str, Any]] = {
        p: {"latencies": [], "analysed_steps": 0, "wall": 0.0} for p in PHASES
    }
    load_before = os.getloadavg()
    try:
        for _ in range(args.rounds):
            for name in PHASES:
                got = await phase(
                    pool,
                    lanes.get(name),
                    spots,
                    tables,
                    args.budget,
                    args.level,
                    args.tables,
                    args.seconds,
                )
                bucket = collected[name]
                bucket["latencies"] += got["latencies"]
                bucket["analysed_steps"] += got["analysed_steps"]
                bucket["wall"] += got["wall"]
        nices = {name: await lane.ask_nice() for name, lane in lanes.items()}
    finally:
        pool.shutdown()
        for lane in lanes.values():
            lane.shutdown()
    out: dict[str, Any] = {
        "workers": args.workers,
        "tables": args.tables,
        "level": args.level,
        "budget": Budget.parse(args.budget).text(),
        "rounds": args.rounds,
        "seconds_per_phase": args.seconds,
        "load_before": [round(x, 2) for x in load_before],
        "load_after": [round(x, 2) for x in os.getloadavg()],
        "lane_nice": nices,
        "phases": {},
    }
    for name in PHASES:
        bucket = collected[name]
        row = summary(bucket["latencies"])
        row["analysed_steps_per_s"] = round(bucket["analysed_steps"] / bucket["wall"], 1)
        out["phases"][name] = row
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, default=2, help="bot workers (server default 2)")
    parser.add_argument("--tables", type=int, default=2, help="live tables asking decisions")
    parser.add_argument("--level", default="medium", help="the live tables' bot level")
    parser.add_argument("--budget", default="default", help="the analyses' budget")
    parser.add_argument("--games", type=int, default=2, help="finished games analysed in turn")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=15.0, help="per phase and round")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    out = asyncio.run(run(args))
    print(
        f"{args.tables} live tables asking {args.level} bots ({args.workers} bot workers); "
        f"analyses at budget {out['budget']}; {args.rounds} rounds x {args.seconds:g} s per "
        f"phase; load {out['load_before']} -> {out['load_after']}; lane nice {out['lane_nice']}"
    )
    print(
        f"{'phase':8} {'decisions':>9} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} "
        f"{'mean ms':>8} {'analysed steps/s':>17}"
    )
    for name, row in out["phases"].items():
        print(
            f"{name:8} {row['decisions']:>9} {row['p50_ms']:>8} {row['p95_ms']:>8} "
            f"{row['p99_ms']:>8} {row['mean_ms']:>8} {row['analysed_steps_per_s']:>17}"
        )
    if args.json:
        print(json.dumps(out))


if __name__ == "__main__":
    main()
