"""Before and after in instructions: the engines' and the RL environment's work counted by
``valgrind --tool=callgrind``, which counts the same whatever else the machine is doing.

``before_after.py`` compares rates (games per CPU second); on a noisy machine the same tree
can move by 25% between runs (see ``benchmarks/README.md``, "Full run of 2026-12-06 evening").
This script runs fixed, seeded work on both trees under callgrind and prints the instructions
per unit of work: each piece of work is run twice, with its count and with none (the
interpreter's start-up, the imports and one warm-up game), and the difference is the work's.

    python benchmarks/instruction_counts.py --before 05c1abc --after HEAD

The trees are ``before_after.py``'s git worktrees (``--workdir``). The pieces, with the same
seeds on both trees: Scythe 2- and 5-player random games, island 4-player random games, and
steps of the island's 4-player AEC environment (random masked actions). A ratio over 1.05
fails (exit status 1), as in ``before_after.py``. Needs ``valgrind`` (Debian's package); a
full run takes about 6 minutes on 2 cores (each piece's two trees run side by side).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from before_after import Tree, make_tree  # run from benchmarks/

WORK = """
import random, sys
from hexfolk.core import Match, load_game
what, players, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])

class RandomBot:
    name = "random"
    def choose(self, observation, legal, rng):
        return legal[int(rng.random() * len(legal))]

if what == "aec":
    from hexfolk import rl
    env = rl.env("island", players=players)
    rng = random.Random(1)
    env.reset(seed=1)
    steps = episodes = 0
    while steps < 200 + n:
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            if not env.agents:
                episodes += 1
                env.reset(seed=1 + episodes)
            continue
        legal = env.observe(agent)["action_mask"].nonzero()[0]
        env.step(int(legal[int(rng.random() * len(legal))]))
        steps += 1
else:
    game = load_game(what, players)
    bots = [RandomBot() for _ in range(players)]
    Match(game, bots, 5, turn_cap=None).run(keep_actions=False)
    for i in range(n):
        Match(game, bots, 1000 + i, turn_cap=None).run(keep_actions=False)
"""

PIECES = [
    ("Scythe 2-player random games", "scythe", 2, 20),
    ("Scythe 5-player random games", "scythe", 5, 10),
    ("island 4-player random games", "island", 4, 30),
    ("island AEC environment steps, 4 players", "aec", 4, 3000),
]
BOUND = 0.05


def count(tree: Tree, python: str, what: str, players: int, n: int) -> int:
    """Instructions of one run of the work under callgrind."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        script = Path(tmp) / "work.py"
        script.write_text(WORK)
        env = dict(os.environ, PYTHONPATH=str(tree.src))
        cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", python]
        subprocess.run(
            [*cmd, str(script), what, str(players), str(n)],
            env=env,
            cwd=tree.root,
            check=True,
            capture_output=True,
        )
        found = re.search(r"^summary: (\d+)", out.read_text(), re.M)
        if found is None:
            raise RuntimeError(f"no summary in callgrind's output for {what}")
        return int(found.group(1))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", default="05c1abc")
    ap.add_argument("--after", default="HEAD")
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument(
        "--workdir", type=Path, default=Path(tempfile.gettempdir()) / "hexfolk-before-after"
    )
    args = ap.parse_args()
    args.workdir.mkdir(parents=True, exist_ok=True)
    sides = [("before", args.before), ("after", args.after)]
    trees = [make_tree(side, rev, args.workdir) for side, rev in sides]
    print(f"before {trees[0].commit[:12]}, after {trees[1].commit[:12]}")
    print("| work | before | after | after/before |\n|---|---:|---:|---:|")
    ok = True
    with ThreadPoolExecutor(max_workers=2) as pool:
        for name, what, players, n in PIECES:
            per = []
            for tree in trees:
                full = pool.submit(count, tree, args.python, what, players, n)
                base = pool.submit(count, tree, args.python, what, players, 0)
                per.append(full.result() - base.result())
            ratio = per[1] / per[0]
            ok = ok and ratio <= 1 + BOUND
            print(f"| {n:,} {name} | {per[0] / 1e6:,.1f} M | {per[1] / 1e6:,.1f} M | {ratio:.3f} |")
    print("PASS" if ok else f"FAIL: some work costs over {BOUND:.0%} more instructions")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
