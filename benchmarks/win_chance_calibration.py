"""Calibration of the win-chance estimator on held-out bot games (issue 29 point 1).

For island at 2 and 4 players and Scythe at 2 and 3: ``--games`` bot games of mixed levels
(:data:`hexfolk.analysis.calibration.LEVEL_MIX`) with seeds from 1,000,000 on (the fit,
``benchmarks/win_chance_fit.py``, used seeds 0 .. games-1), a sample at the start of every
turn. Prints per configuration the Brier score (per sample, summed over the seats: 0 is
perfect) of

* the estimator (:class:`hexfolk.analysis.WinChanceModel`, the fitted numbers in
  ``analysis/data/win_chance.json``),
* the base rate (1/n for every seat),
* the naive share (island: VP share; Scythe: share of the fortune if the game ended now),

the estimator's skill score against each (1 - Brier / Brier of the baseline), the log loss,
and writes the reliability plot (predicted vs observed in ten bins, every seat of every
sample) as ``docs/win_chance_reliability.png``: x = predicted chance 0..1, y = observed win
share 0..1, grey grid every 0.1, the black diagonal is perfect calibration; one colour per
configuration (island 2p blue, island 4p green, Scythe 2p red, Scythe 3p orange), a square per
bin with at least 20 predictions.

    python benchmarks/win_chance_calibration.py --games 1000     # the issue's run
    python benchmarks/win_chance_calibration.py --games 150 --json

Not a test: the full run plays 4,000 games.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import sys
import time
from pathlib import Path

from tiny_png import Canvas

from hexfolk.analysis.calibration import brier, collect, predict, reliability
from hexfolk.analysis.estimator import temperature_of

CONFIGS = [("island", 2), ("island", 4), ("scythe", 2), ("scythe", 3)]
COLORS = {
    ("island", 2): (31, 119, 180),
    ("island", 4): (44, 160, 44),
    ("scythe", 2): (214, 39, 40),
    ("scythe", 3): (255, 127, 14),
}
HELD_OUT = 1_000_000
PNG = Path(__file__).resolve().parent.parent / "docs/win_chance_reliability.png"


def evaluate(game_id: str, players: int, games: int) -> tuple[dict, list]:
    t0 = time.perf_counter()
    samples, capped = collect(game_id, players, range(HELD_OUT, HELD_OUT + games))
    a, b = temperature_of(game_id, players)
    model = [predict(s, a, b) for s in samples]
    base = [[1.0 / players] * players for _ in samples]
    naive = [list(s.naive) for s in samples]
    bm, bb, bn = brier(model, samples), brier(base, samples), brier(naive, samples)
    loss = -sum(
        o * math.log(max(1e-12, q)) for p, s in zip(model, samples) for o, q in zip(s.outcome, p)
    ) / max(1, len(samples))
    row = {
        "game": game_id,
        "players": players,
        "games": games,
        "capped_games_left_out": capped,
        "samples": len(samples),
        "brier_model": round(bm, 4),
        "brier_base_rate": round(bb, 4),
        "brier_naive_share": round(bn, 4),
        "skill_vs_base": round(1 - bm / bb, 3),
        "skill_vs_naive": round(1 - bm / bn, 3),
        "log_loss_model": round(loss, 4),
        "log_loss_base_rate": round(math.log(players), 4),
        "temperature": {"a": a, "b": b},
        "seconds": round(time.perf_counter() - t0, 1),
    }
    return row, reliability(model, samples)


def plot(curves: dict[tuple[str, int], list], path: Path) -> None:
    size, margin = 480, 40
    c = Canvas(size + 2 * margin, size + 2 * margin)

    def xy(px: float, py: float) -> tuple[int, int]:
        return margin + round(px * size), margin + size - round(py * size)

    for i in range(11):
        x0, y0 = xy(i / 10, 0)
        x1, y1 = xy(i / 10, 1)
        c.line(x0, y0, x1, y1, (225, 225, 225))
        x0, y0 = xy(0, i / 10)
        x1, y1 = xy(1, i / 10)
        c.line(x0, y0, x1, y1, (225, 225, 225))
    c.line(*xy(0, 0), *xy(1, 1), (0, 0, 0))
    c.line(*xy(0, 0), *xy(1, 0), (0, 0, 0), 2)
    c.line(*xy(0, 0), *xy(0, 1), (0, 0, 0), 2)
    for key, bins in curves.items():
        color = COLORS[key]
        points = [xy(p, o) for p, o, n in bins if n >= 20]
        for (x0, y0), (x1, y1) in itertools.pairwise(points):
            c.line(x0, y0, x1, y1, color, 2)
        for x, y in points:
            c.square(x, y, 4, color)
    # the legend: one square per configuration, in CONFIGS order, top left
    for i, key in enumerate(CONFIGS):
        c.square(margin + 14 + 22 * i, margin + 14, 7, COLORS[key])
    c.save(path)


def from_files(paths: list[Path], png: Path) -> None:
    """The plot and a Markdown table of the rows in ``paths`` (outputs of ``--only`` runs)."""
    curves = {}
    print(
        "| game | players | games | samples | Brier | base rate | naive share | vs base "
        "| vs naive | log loss (base) |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for path in paths:
        for row in json.loads(path.read_text("utf-8"))["rows"]:
            key = (row["game"], row["players"])
            curves[key] = [tuple(x) for x in row["reliability"]]
            print(
                f"| {row['game']} | {row['players']} | {row['games']} | {row['samples']} "
                f"| {row['brier_model']:.4f} | {row['brier_base_rate']:.4f} "
                f"| {row['brier_naive_share']:.4f} | {row['skill_vs_base']:+.1%} "
                f"| {row['skill_vs_naive']:+.1%} "
                f"| {row['log_loss_model']:.3f} ({row['log_loss_base_rate']:.3f}) |"
            )
    plot(curves, png)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--png", type=Path, default=PNG)
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--only", help="one configuration, e.g. island:2 (no plot; its row as JSON on stdout)"
    )
    parser.add_argument(
        "--plot-from",
        nargs="+",
        type=Path,
        metavar="JSON",
        help="no games: draw the plot and print the table from the JSON of earlier --only runs",
    )
    args = parser.parse_args()
    if args.plot_from:
        from_files(args.plot_from, args.png)
        return
    rows, curves = [], {}
    configs = CONFIGS
    if args.only:
        gid, _, n = args.only.partition(":")
        configs = [(gid, int(n))]
    for gid, n in configs:
        row, bins = evaluate(gid, n, args.games)
        rows.append(row)
        curves[(gid, n)] = bins
        row["reliability"] = [[round(p, 3), round(o, 3), k] for p, o, k in bins]
        print(
            f"{gid} {n}p: {row['samples']} samples of {args.games} games "
            f"({row['capped_games_left_out']} capped left out): Brier model "
            f"{row['brier_model']}, base rate {row['brier_base_rate']}, naive share "
            f"{row['brier_naive_share']}; skill vs base {row['skill_vs_base']:+.1%}, vs naive "
            f"{row['skill_vs_naive']:+.1%}; log loss {row['log_loss_model']} "
            f"(base {row['log_loss_base_rate']}); {row['seconds']} s",
            file=sys.stderr,
        )
    if not args.only:
        plot(curves, args.png)
        print(f"reliability plot: {args.png}", file=sys.stderr)
    if args.json or args.only:
        print(json.dumps({"games": args.games, "rows": rows}))


if __name__ == "__main__":
    main()
