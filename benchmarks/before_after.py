"""Before and after: every speed benchmark on two revisions, alternating, with a 5% bound.

Checks out the two revisions as git worktrees in a temporary folder outside the repository
(``--workdir``, default ``$TMPDIR/hexfolk-before-after``; made once and reused by later runs)
and runs each benchmark for both trees in turn for ``--rounds`` rounds, so that a busy machine
slows both alike: before, after, then after, before (the pair's order swaps every round, so a
load that grows or fades during the runs does not weigh on one side). Every run is a fresh
process of the same Python (``--python``, default this one) with ``PYTHONPATH=<tree>/src`` and
the tree as its working folder. ``--after worktree`` (the default) measures this checkout as it
is, uncommitted changes included; give a revision (``--after HEAD``) to measure a commit.

The benchmarks and the figures compared (``--only`` picks some):

* ``island``: ``island_speed.py``, 4-player 10-VP random-bot games per CPU second;
* ``scythe``: ``scythe_speed.py``, 2- and 5-player random-bot games per CPU second;
* ``server``: ``server_load.py --tables 200`` on loopback: committed steps/s, the server's CPU
  per step and the p50 time from an action to its new version (p99: shown, not judged);
* ``web``: ``web_speed.py`` in Chromium (``/usr/bin/chromium``): first view of the island's
  8-player and Scythe's 5-player table (median), and the mean redraw of an update (the median
  is shown, not judged: the page's clock ticks in 0.1 ms, 8% of a 1.3 ms Scythe redraw);
* ``rl``: ``rl_speed.py --no-peer --no-split``: steps per CPU second of the five hexfolk
  environments (wall-clock rates are in the JSON).

Engine and RL rates are per CPU second of the benchmark's process: on a shared 2-core machine
wall-clock rates halve when another job starts, CPU rates move less (not nothing). The
server's CPU per step is the server process's; its latencies and the browser's times are wall
clock.

Each tree runs its own copy of a benchmark's script when it has one that takes the options used
here (read from its ``--help``); otherwise the after tree's copy (or this checkout's) with that
tree's ``src``: 05c1abc has no ``island_speed.py``, no ``--json`` in ``server_load.py`` and
``web_speed.py`` and no ``--no-split`` in ``rl_speed.py``, so both trees then run the same
measuring script over their own engine (the summary says which copy each side ran).

Per figure it prints the median of each side's runs, the ratio after/before of the medians and
the verdict: FAIL when the after tree is more than ``--bound`` (5%) slower, i.e. a rate below
0.95 times before's or a time above 1.05 times before's. The last column, the median of each
round's own ratio (its two runs ran back to back), is a second look that a burst of load on one
run moves less; it does not decide. For the island and Scythe games it also says whether both
trees played the same seeded games (the same count of decisions). A markdown table goes to
stdout, ``--json FILE`` also writes every run's figures. The exit status is 1 when a judged
figure fails or a run errs. Each run's output is kept in ``<workdir>/logs/``.

    python benchmarks/before_after.py                      # 05c1abc vs this checkout, ~14 min
    python benchmarks/before_after.py --quick --json /tmp/ba.json   # ~5 min
    python benchmarks/before_after.py --before main --after HEAD --only island,scythe

``--cleanup`` removes the worktrees this run made or reused when it ends (``git worktree
remove``); otherwise they stay for the next run.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
BEFORE = "05c1abc"
"""The last commit before issue 26's restructuring."""
WORKTREE = "worktree"
"""``--after``'s default: this checkout's files as they are."""
BOUND = 0.05
"""The largest slowdown that passes: 5%."""

Figures = dict[str, float]


@dataclass(frozen=True)
class Metric:
    """One figure compared: its key in a run's figures, and which way is faster."""

    key: str
    label: str
    unit: str
    higher_is_better: bool
    judged: bool = True


@dataclass(frozen=True)
class Sizes:
    """How long each benchmark runs (one run of one tree)."""

    island_games: int
    scythe_games: int
    server_seconds: float
    web_seconds: float
    web_runs: int
    rl_seconds: float
    rounds: int


FULL = Sizes(
    island_games=600,
    scythe_games=60,
    server_seconds=45,
    web_seconds=8,
    web_runs=4,
    rl_seconds=5,
    rounds=4,
)
QUICK = Sizes(
    island_games=200,
    scythe_games=20,
    server_seconds=30,
    web_seconds=4,
    web_runs=2,
    rl_seconds=2,
    rounds=2,
)


class BenchError(RuntimeError):
    """A run that failed, timed out or printed no figures."""


def last_json(stdout: str) -> dict[str, Any]:
    """The last line of ``stdout`` that is a JSON object."""
    for line in reversed(stdout.splitlines()):
        line = line.strip()
        if line.startswith("{"):
            data: dict[str, Any] = json.loads(line)
            return data
    raise BenchError("no JSON line in the output")


def json_lines(stdout: str) -> list[dict[str, Any]]:
    return [json.loads(x) for x in stdout.splitlines() if x.strip().startswith("{")]


def parse_island(stdout: str) -> Figures:
    r = last_json(stdout)
    keys = ("games_per_cpu_s", "games_per_s", "decisions")
    return {k: float(r[k]) for k in keys}


def parse_scythe(stdout: str) -> Figures:
    out: Figures = {}
    for r in json_lines(stdout):
        p = int(r["players"])
        out[f"{p}p_games_per_cpu_s"] = r["games_per_cpu_s"]
        out[f"{p}p_games_per_s"] = r["games_per_s"]
        out[f"{p}p_decisions"] = r["decisions"]
    return out


def parse_server(stdout: str) -> Figures:
    r = last_json(stdout)
    if r["lost"]:
        raise BenchError(f"{r['lost']} acknowledged actions missing from the event log")
    if not r["steps"]:
        raise BenchError("no step committed")
    keys = ("steps_per_s", "cpu_ms_per_step", "p50_ms", "p99_ms", "person_actions_per_s")
    # no latency sample (no person's action answered: on a loaded machine 200 tables can take
    # the whole run to open) leaves the latencies out of this run's figures
    return {k: float(r[k]) for k in keys if r[k] is not None} | {"errors": float(r["errors"])}


def parse_web(stdout: str) -> Figures:
    this = [r for r in json_lines(stdout) if r.get("side") == "this"]
    if not this:
        raise BenchError("no JSON line of side 'this'")
    out: Figures = {}
    for game in ("island", "scythe"):
        for k, v in this[-1][game].items():
            out[f"{game}_{k}"] = float(v)
    return out


def parse_rl(stdout: str) -> Figures:
    rates = last_json(stdout)
    return {k: float(v) for k, v in rates.items() if k.startswith("hexfolk")}


@dataclass(frozen=True)
class Bench:
    """One benchmark script: how to run it and which of its figures are compared."""

    name: str
    script: str
    args: Callable[[Sizes], list[str]]
    needs: tuple[str, ...]
    parse: Callable[[str], Figures]
    metrics: tuple[Metric, ...]
    timeout: Callable[[Sizes], float]
    same: tuple[str, ...] = ()
    """Figures every run of both trees must share (the decisions of the same seeded games:
    issue 26 keeps behaviour the same, so both trees play the same games)."""


RL_ENVS = (
    "hexfolk island AEC 2p",
    "hexfolk island AEC 4p",
    "hexfolk scythe AEC 2p",
    "hexfolk scythe AEC 4p",
    "hexfolk island gym 1v1 random",
)

BENCHES: tuple[Bench, ...] = (
    Bench(
        "island",
        "island_speed.py",
        lambda s: ["--json", "--games", str(s.island_games)],
        ("--json", "--games"),
        parse_island,
        (Metric("games_per_cpu_s", "island 4p games/s (CPU)", "games/s", True),),
        lambda s: 60 + s.island_games * 0.5,
        ("decisions",),
    ),
    Bench(
        "scythe",
        "scythe_speed.py",
        lambda s: ["--json", "--games", str(s.scythe_games), "--players", "2", "5"],
        ("--json", "--games", "--players"),
        parse_scythe,
        (
            Metric("2p_games_per_cpu_s", "scythe 2p games/s (CPU)", "games/s", True),
            Metric("5p_games_per_cpu_s", "scythe 5p games/s (CPU)", "games/s", True),
        ),
        lambda s: 60 + s.scythe_games * 2.0,
        ("2p_decisions", "5p_decisions"),
    ),
    Bench(
        "server",
        "server_load.py",
        lambda s: ["--json", "--tables", "200", "--seconds", f"{s.server_seconds:g}"],
        ("--json", "--tables", "--seconds"),
        parse_server,
        (
            Metric("steps_per_s", "server 200 tables: committed steps/s", "steps/s", True),
            Metric("cpu_ms_per_step", "server 200 tables: server CPU per step", "ms", False),
            Metric("p50_ms", "server 200 tables: action->version p50", "ms", False),
            Metric("p99_ms", "server 200 tables: action->version p99", "ms", False, False),
        ),
        lambda s: 180 + s.server_seconds * 2,
    ),
    Bench(
        "web",
        "web_speed.py",
        lambda s: [
            "--json",
            "--game",
            "both",
            "--seconds",
            f"{s.web_seconds:g}",
            "--runs",
            str(s.web_runs),
        ],
        ("--json", "--game", "--seconds", "--runs"),
        parse_web,
        (
            Metric("island_first_view_median", "web island 8p first view", "ms", False),
            Metric("island_redraw_mean", "web island redraw (mean)", "ms", False),
            Metric("island_redraw_median", "web island redraw (median)", "ms", False, False),
            Metric("scythe_first_view_median", "web scythe 5p first view", "ms", False),
            Metric("scythe_redraw_mean", "web scythe redraw (mean)", "ms", False),
            Metric("scythe_redraw_median", "web scythe redraw (median)", "ms", False, False),
        ),
        lambda s: 180 + s.web_seconds * 3 + s.web_runs * 20,
    ),
    Bench(
        "rl",
        "rl_speed.py",
        lambda s: [
            "--no-peer",
            "--no-split",
            "--json",
            "--rounds",
            "1",
            "--seconds",
            f"{s.rl_seconds:g}",
        ],
        ("--no-peer", "--no-split", "--json", "--rounds", "--seconds"),
        parse_rl,
        tuple(
            Metric(f"{env} cpu", f"rl {env[8:]} steps/s (CPU)", "steps/s", True) for env in RL_ENVS
        ),
        lambda s: 120 + s.rl_seconds * 10,
    ),
)
BENCH_NAMES = tuple(b.name for b in BENCHES)


# -- verdicts and the table (pure: the tests drive these with made-up numbers) ------------------


@dataclass(frozen=True)
class Row:
    """One figure's comparison."""

    bench: str
    metric: Metric
    before: list[float]
    after: list[float]
    bound: float = BOUND
    error: str = ""
    paired: list[float] = field(default_factory=list)
    """After over before of each round whose two runs both gave the figure."""

    @property
    def paired_median(self) -> float | None:
        return statistics.median(self.paired) if self.paired else None

    @property
    def before_median(self) -> float | None:
        return statistics.median(self.before) if self.before else None

    @property
    def after_median(self) -> float | None:
        return statistics.median(self.after) if self.after else None

    @property
    def ratio(self) -> float | None:
        """After over before (of the medians)."""
        b, a = self.before_median, self.after_median
        if a is None or b is None or b == 0:
            return None
        return a / b

    @property
    def slower(self) -> float | None:
        """How much slower the after tree is, as a fraction of before's figure (negative:
        faster): a rate's drop, or a time's rise."""
        r = self.ratio
        if r is None:
            return None
        return 1.0 - r if self.metric.higher_is_better else r - 1.0

    @property
    def verdict(self) -> str:
        r = self.ratio
        if self.error or r is None:
            return "ERROR"
        if not self.metric.judged:
            return "info"
        # compared on the ratio itself, so that exactly the bound passes
        if self.metric.higher_is_better:
            return "FAIL" if r < 1.0 - self.bound else "PASS"
        return "FAIL" if r > 1.0 + self.bound else "PASS"

    def to_json(self) -> dict[str, Any]:
        return {
            "bench": self.bench,
            "figure": self.metric.label,
            "key": self.metric.key,
            "unit": self.metric.unit,
            "higher_is_better": self.metric.higher_is_better,
            "judged": self.metric.judged,
            "before": self.before,
            "after": self.after,
            "before_median": self.before_median,
            "after_median": self.after_median,
            "ratio_after_before": self.ratio,
            "paired_ratios": self.paired,
            "paired_median": self.paired_median,
            "slower": self.slower,
            "verdict": self.verdict,
            "error": self.error,
        }


def number(x: float | None) -> str:
    """A figure with about four significant digits."""
    if x is None:
        return "-"
    if abs(x) >= 1000:
        return f"{x:,.0f}"
    if abs(x) >= 100:
        return f"{x:.1f}"
    if abs(x) >= 10:
        return f"{x:.2f}"
    return f"{x:.3f}"


def markdown_table(rows: Sequence[Row]) -> str:
    """The comparison as a markdown table, one row per figure."""
    lines = [
        "| figure | unit | runs | before (median) | after (median) | after/before "
        "| slower by | verdict | rounds' after/before (median) |",
        "|---|---|---|---:|---:|---:|---:|---|---:|",
    ]
    for row in rows:
        better = "higher" if row.metric.higher_is_better else "lower"
        ratio = "-" if row.ratio is None else f"{row.ratio:.3f}"
        slower = "-" if row.slower is None else f"{row.slower * 100:+.1f}%"
        paired = "-" if row.paired_median is None else f"{row.paired_median:.3f}"
        lines.append(
            f"| {row.metric.label} | {row.metric.unit} ({better} is faster) "
            f"| {len(row.before)}+{len(row.after)} | {number(row.before_median)} "
            f"| {number(row.after_median)} | {ratio} | {slower} | {row.verdict} | {paired} |"
        )
    return "\n".join(lines)


def rows_for(
    bench: Bench,
    before: Sequence[Figures | None],
    after: Sequence[Figures | None],
    bound: float = BOUND,
    error: str = "",
) -> list[Row]:
    """The rows of one benchmark from each side's runs, round by round (``None``: a run that
    failed, ``error`` says why). A run that lacks a figure makes that figure's row an error."""
    rows = []
    for m in bench.metrics:
        k = m.key
        pairs = [
            a[k] / b[k] for b, a in zip(before, after) if a and b and k in a and k in b and b[k]
        ]
        missing = [
            f"{side} round {i + 1}"
            for side, runs in (("before", before), ("after", after))
            for i, r in enumerate(runs)
            if r is not None and k not in r
        ]
        why = [error] if error else []
        why += [f"no {k} in {', '.join(missing)}"] if missing else []
        rows.append(
            Row(
                bench.name,
                m,
                [r[k] for r in before if r and k in r],
                [r[k] for r in after if r and k in r],
                bound,
                "; ".join(why),
                pairs,
            )
        )
    return rows


def differing(bench: Bench, runs: Sequence[Figures]) -> list[str]:
    """The ``same`` figures of ``bench`` that differ between runs (a note, not a verdict)."""
    return [k for k in bench.same if len({r[k] for r in runs if k in r}) > 1]


def passed(rows: Sequence[Row]) -> bool:
    return all(r.verdict in ("PASS", "info") for r in rows)


# -- command line ---------------------------------------------------------------------------------


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    doc = __doc__ or ""
    parser = argparse.ArgumentParser(
        description=doc.split("\n\n")[0],
        epilog="\n\n".join(doc.split("\n\n")[1:]),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--before", default=BEFORE, help=f"revision measured first (default {BEFORE})"
    )
    parser.add_argument(
        "--after",
        default=WORKTREE,
        help=f"revision measured second, or '{WORKTREE}' for this checkout as it is (default)",
    )
    parser.add_argument(
        "--only",
        default=",".join(BENCH_NAMES),
        help=f"comma-separated benchmarks (default all: {','.join(BENCH_NAMES)})",
    )
    parser.add_argument("--quick", action="store_true", help="short runs, 2 rounds (~5 min)")
    parser.add_argument(
        "--rounds", type=int, default=None, help="runs of each tree (default 4, --quick 2)"
    )
    parser.add_argument(
        "--bound",
        type=float,
        default=BOUND,
        help="largest slowdown that passes, as a fraction (default 0.05)",
    )
    parser.add_argument("--json", type=Path, default=None, metavar="FILE", help="also write JSON")
    parser.add_argument(
        "--python", default=sys.executable, help="the interpreter of every run (default: this)"
    )
    parser.add_argument(
        "--workdir",
        type=Path,
        default=Path(tempfile.gettempdir()) / "hexfolk-before-after",
        help="where the worktrees and logs go; never inside the repository",
    )
    parser.add_argument(
        "--cleanup", action="store_true", help="remove the worktrees at the end (git worktree)"
    )
    args = parser.parse_args(argv)
    names = [n.strip() for n in args.only.split(",") if n.strip()]
    unknown = sorted(set(names) - set(BENCH_NAMES))
    if unknown or not names:
        parser.error(f"--only: unknown {unknown or 'empty'}; choose from {','.join(BENCH_NAMES)}")
    args.only = [n for n in BENCH_NAMES if n in names]
    if args.rounds is not None and args.rounds < 1:
        parser.error("--rounds must be at least 1")
    if not 0 <= args.bound < 1:
        parser.error("--bound must be a fraction in [0, 1)")
    base = QUICK if args.quick else FULL
    args.sizes = Sizes(**{**base.__dict__, "rounds": args.rounds or base.rounds})
    return args


# -- trees and runs -------------------------------------------------------------------------------


@dataclass
class Tree:
    """A side of the comparison: a folder holding the project at one revision."""

    side: str
    rev: str
    commit: str
    root: Path
    made: bool = False
    scripts: dict[str, tuple[Path, str]] = field(default_factory=dict)

    @property
    def src(self) -> Path:
        return self.root / "src"


def git(*args: str, cwd: Path = REPO) -> str:
    out = subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True)
    return out.stdout.strip()


def inside(path: Path, folder: Path) -> bool:
    path, folder = path.resolve(), folder.resolve()
    return path == folder or folder in path.parents


def make_tree(side: str, rev: str, workdir: Path) -> Tree:
    """This checkout for ``worktree``; else a detached git worktree of ``rev`` in ``workdir``,
    reused when one at that commit with no changes is already there."""
    if rev == WORKTREE:
        dirty = " + uncommitted changes" if git("status", "--porcelain", "--", "src") else ""
        return Tree(side, rev, git("rev-parse", "HEAD") + dirty, REPO)
    commit = git("rev-parse", "--verify", f"{rev}^{{commit}}")
    path = workdir / f"tree-{commit[:12]}"
    listed = git("worktree", "list", "--porcelain").splitlines()
    registered = f"worktree {path.resolve()}" in listed
    if path.exists():
        if not registered:
            raise SystemExit(f"{path} exists but is not a git worktree of this repository")
        if git("rev-parse", "HEAD", cwd=path) == commit and not git(
            "status", "--porcelain", cwd=path
        ):
            return Tree(side, rev, commit, path, made=True)
        git("worktree", "remove", "--force", str(path))
    git("worktree", "prune")
    git("worktree", "add", "--detach", str(path), commit)
    return Tree(side, rev, commit, path, made=True)


def env_for(tree: Tree) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(tree.src)
    env.pop("HEXFOLK_TRACE", None)
    env.pop("HEXFOLK_PROFILE", None)
    return env


def check_tree(tree: Tree, python: str) -> None:
    """The tree's ``hexfolk`` is the one imported (not the venv's own install)."""
    probe = [python, "-c", "import hexfolk; print(hexfolk.__file__)"]
    out = subprocess.run(probe, env=env_for(tree), cwd=tree.root, capture_output=True, text=True)
    where = Path(out.stdout.strip() or "?")
    if out.returncode != 0 or not inside(where, tree.src):
        raise SystemExit(f"{tree.side}: hexfolk imports from {where}, not {tree.src}")


def accepts(script: Path, tree: Tree, python: str, needs: Sequence[str]) -> bool:
    """Whether ``script`` exists and its ``--help`` (run over ``tree``) lists every option."""
    if not script.exists():
        return False
    out = subprocess.run(
        [python, str(script), "--help"],
        env=env_for(tree),
        cwd=tree.root,
        capture_output=True,
        text=True,
        timeout=120,
    )
    return out.returncode == 0 and all(opt in out.stdout for opt in needs)


def script_for(bench: Bench, tree: Tree, after: Tree, python: str) -> tuple[Path, str]:
    """The tree's own copy of the script if it takes the options; else the after tree's, else
    this checkout's (run with ``tree``'s src)."""
    if bench.name not in tree.scripts:
        candidates = [
            (tree.root, "its own"),
            (after.root, "the after tree's"),
            (REPO, "this checkout's"),
        ]
        for root, origin in candidates:
            script = root / "benchmarks" / bench.script
            if accepts(script, tree, python, bench.needs):
                tree.scripts[bench.name] = (script, origin)
                break
        else:
            raise BenchError(f"no {bench.script} takes {' '.join(bench.needs)}")
    return tree.scripts[bench.name]


def run_once(bench: Bench, tree: Tree, after: Tree, args: argparse.Namespace, log: Path) -> Figures:
    script, _ = script_for(bench, tree, after, args.python)
    cmd = [args.python, str(script), *bench.args(args.sizes)]
    proc = subprocess.Popen(
        cmd,
        env=env_for(tree),
        cwd=tree.root,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group: a time-out ends its server too
    )
    try:
        stdout, stderr = proc.communicate(timeout=bench.timeout(args.sizes))
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        stdout, stderr = proc.communicate()
        log.write_text(f"$ {' '.join(cmd)}\n(timed out)\n{stdout}\n--- stderr\n{stderr}")
        raise BenchError(f"timed out after {bench.timeout(args.sizes):.0f} s; see {log}") from None
    log.write_text(f"$ {' '.join(cmd)}\n{stdout}\n--- stderr\n{stderr}")
    if proc.returncode != 0:
        raise BenchError(f"exit status {proc.returncode}; see {log}")
    try:
        return bench.parse(stdout)
    except (KeyError, ValueError, TypeError) as exc:
        raise BenchError(f"unreadable output ({type(exc).__name__}: {exc}); see {log}") from None


def order(trees: Sequence[Tree], rnd: int) -> list[Tree]:
    """The trees in the order round ``rnd`` (from 0) runs them: ABBA."""
    return list(trees) if rnd % 2 == 0 else list(trees)[::-1]


def measure(
    bench: Bench, trees: Sequence[Tree], args: argparse.Namespace, logs: Path
) -> tuple[list[Row], dict[str, list[Figures | None]]]:
    """``rounds`` runs of each tree, alternating, the first of a round's pair swapped every
    round (before, after, after, before, ...: a load that grows or fades during the runs
    weighs on both sides alike); the rows and every run's figures (``None``: failed)."""
    runs: dict[str, list[Figures | None]] = {t.side: [] for t in trees}
    errors: list[str] = []
    after = trees[-1]
    for rnd in range(args.sizes.rounds):
        for tree in order(trees, rnd):
            log = logs / f"{bench.name}-{tree.side}-{rnd + 1}.txt"
            start = time.perf_counter()
            try:
                figures = run_once(bench, tree, after, args, log)
            except (BenchError, OSError, subprocess.SubprocessError) as exc:
                errors.append(f"{tree.side} round {rnd + 1}: {exc}")
                print(f"  {bench.name} {tree.side} round {rnd + 1}: ERROR {exc}", flush=True)
                runs[tree.side].append(None)
                continue
            runs[tree.side].append(figures)
            shown = ", ".join(
                f"{m.key} {number(figures.get(m.key))}" for m in bench.metrics if m.judged
            )
            print(
                f"  {bench.name} {tree.side} round {rnd + 1} "
                f"({time.perf_counter() - start:.0f} s): {shown}",
                flush=True,
            )
    before_runs, after_runs = runs[trees[0].side], runs[after.side]
    error = "; ".join(errors)
    return rows_for(bench, before_runs, after_runs, args.bound, error), runs


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    workdir = args.workdir.resolve()
    if inside(workdir, REPO):
        raise SystemExit(f"--workdir {workdir} is inside the repository {REPO}")
    logs = workdir / "logs" / time.strftime("%Y%m%d-%H%M%S")
    logs.mkdir(parents=True, exist_ok=True)
    trees = [make_tree("before", args.before, workdir), make_tree("after", args.after, workdir)]
    for tree in trees:
        check_tree(tree, args.python)
        print(f"{tree.side}: {tree.rev} = {tree.commit} at {tree.root}", flush=True)
    print(f"python {args.python}; {args.sizes}; logs in {logs}", flush=True)
    benches = [b for b in BENCHES if b.name in args.only]
    rows: list[Row] = []
    raw: dict[str, Any] = {}
    started = time.perf_counter()
    try:
        for bench in benches:
            print(f"{bench.name}: {bench.script} {' '.join(bench.args(args.sizes))}", flush=True)
            bench_rows, runs = measure(bench, trees, args, logs)
            rows += bench_rows
            raw[bench.name] = {
                "runs": runs,
                "scripts": {t.side: [str(p) for p in t.scripts.get(bench.name, ())] for t in trees},
            }
    finally:
        if args.cleanup:  # one worktree when both sides name one commit (an A/A run)
            for root in dict.fromkeys(t.root for t in trees if t.made):
                git("worktree", "remove", "--force", str(root))
    print()
    print(
        f"{trees[0].rev} ({trees[0].commit[:12]}) -> {trees[1].rev} ({trees[1].commit[:12]}), "
        f"{args.sizes.rounds} rounds alternating, {time.perf_counter() - started:.0f} s, "
        f"bound {args.bound:.0%}"
    )
    print()
    print(markdown_table(rows))
    print()
    for bench in benches:
        used = [
            f"{t.side} ran {t.scripts[bench.name][1]} {bench.script}"
            for t in trees
            if bench.name in t.scripts
        ]
        print(f"* {bench.name}: {'; '.join(used) or 'no script ran'}")
    for bench in benches:
        errs = {row.error for row in rows if row.bench == bench.name and row.error}
        for err in sorted(errs):
            print(f"* {bench.name} errors: {err}")
        sides = raw.get(bench.name, {}).get("runs", {}).values()
        every_run = [r for side in sides for r in side if r]
        if bench.same:
            keys = differing(bench, every_run)
            same = f"NOT the same games: {', '.join(keys)} differ" if keys else "the same games"
            print(f"* {bench.name}: both trees played {same} (seeded)")
    ok = passed(rows)
    print(
        f"\n{'PASS' if ok else 'FAIL'}: {sum(r.verdict == 'FAIL' for r in rows)} figures fail, "
        f"{sum(r.verdict == 'ERROR' for r in rows)} err"
    )
    if args.json:
        doc = {
            "before": {"rev": trees[0].rev, "commit": trees[0].commit},
            "after": {"rev": trees[1].rev, "commit": trees[1].commit},
            "python": args.python,
            "sizes": args.sizes.__dict__,
            "bound": args.bound,
            "rows": [r.to_json() for r in rows],
            "benchmarks": raw,
            "passed": ok,
        }
        args.json.write_text(json.dumps(doc, indent=2) + "\n")
        print(f"JSON written to {args.json}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
