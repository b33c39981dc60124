"""Fit the win-chance estimator's temperatures on self-play games and write them into
``src/hexfolk/analysis/data/win_chance.json`` (``docs/analysis.md``, "The estimator").

For every game and player count: ``--games`` bot games of mixed levels
(:data:`hexfolk.analysis.calibration.LEVEL_MIX`, each seat's level drawn from the game's seed)
with seeds ``0 .. games-1`` (the calibration benchmark holds out seeds from 1,000,000 on),
sampled at the start of every turn; ``a`` and ``b`` of ``T = a + b * (1 - progress)`` by
maximum likelihood (:func:`hexfolk.analysis.calibration.fit_temperature`).

    python benchmarks/win_chance_fit.py --games 150
    python benchmarks/win_chance_fit.py --games 1000 --only island:4

Not a test: a full run plays thousands of games.
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
import time
from pathlib import Path

from hexfolk.analysis.calibration import LEVEL_MIX, collect, fit_temperature

CONFIGS = [("island", 2), ("island", 3), ("island", 4), ("scythe", 2), ("scythe", 3)]
SCALE = {"island": 1.0, "scythe": 6.0}
"""The grid's unit per game: a VP of island score, six coins of Scythe fortune."""
OUT = Path(__file__).resolve().parent.parent / "src/hexfolk/analysis/data/win_chance.json"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=150)
    parser.add_argument("--only", help="one configuration, e.g. island:4")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    configs = CONFIGS
    if args.only:
        gid, _, n = args.only.partition(":")
        configs = [(gid, int(n))]
    data = json.loads(args.out.read_text("utf-8")) if args.out.exists() else {"models": {}}
    models = data.setdefault("models", {})
    fits = data.setdefault("fits", {})
    for gid, n in configs:
        t0 = time.perf_counter()
        samples, capped = collect(gid, n, range(args.games))
        a, b, loss = fit_temperature(samples, SCALE[gid])
        secs = time.perf_counter() - t0
        models.setdefault(gid, {})[str(n)] = {"a": round(a, 4), "b": round(b, 4)}
        fits[f"{gid}:{n}"] = {
            "games": args.games,
            "capped_games_left_out": capped,
            "samples": len(samples),
            "seeds": f"0..{args.games - 1}",
            "log_loss": round(loss, 5),
            "seconds": round(secs, 1),
        }
        print(
            f"{gid} {n}p: a={a:.4f} b={b:.4f} log loss {loss:.4f} "
            f"({len(samples)} samples, {capped} capped games, {secs:.0f} s)",
            file=sys.stderr,
        )
    data["_comment"] = (
        "Win-chance temperatures T(progress) = max(0.05, a + b * (1 - progress)) per game and "
        "player count (docs/analysis.md), written by benchmarks/win_chance_fit.py."
    )
    data["fitted"] = {
        "how": "maximum likelihood of the winners over a grid of (a, b), samples at the start "
        "of every turn of finished self-play games",
        "level_mix": [list(x) for x in LEVEL_MIX],
        "date": datetime.date.today().isoformat(),
    }
    args.out.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", "utf-8")


if __name__ == "__main__":
    main()
