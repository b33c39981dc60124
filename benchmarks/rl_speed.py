"""RL environment speed: steps/s of random masked actions, and a peer measured in the same run.

Measures, on one core:

* the PettingZoo AEC environments (``hexfolk.rl.env``) of both games at 2 and 4 players: every
  agent step counts, each taking a uniformly random action allowed by the observation's mask
  (the observation is encoded at every step, as a learner would see it);
* the Gymnasium wrapper (``hexfolk.rl.gym_env``) of the island game, 1 versus 1 against the
  random bot: a step is one decision of the learning seat (the opponent's moves happen
  inside ``step``), its action uniform among the mask's;
* side by side, catanatron's Gymnasium environment (``catanatron-gym``: 1 versus 1 against its
  random bot, 10 VP), the learner's action uniform among its ``valid_actions``, in its own
  virtualenv (``benchmarks/.venv-catanatron-gym``, git-ignored, created with
  ``catanatron-gym==4.0.0`` from PyPI when missing) as a subprocess reporting JSON.

Batches alternate between hexfolk and catanatron (``--rounds``) so a busy machine slows both
alike; the ratio is of the summed steps over the summed seconds. For hexfolk the table also
splits a step's time, measured in one more batch per environment whose timers are not in the
rates: ``obs us`` is the engine's ``state.observation(seat, log=False)`` (JSON; the encoders
read no log), ``enc us`` the encoding into the feature vector.

    python benchmarks/rl_speed.py --seconds 10 --rounds 3

``--json`` prints the rates as one JSON line at the end, each hexfolk environment's also per
CPU second (``"<name> cpu"``: steadier on a loaded machine); ``--no-split`` skips the batches
of the split (what ``before_after.py`` runs).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
import venv
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from hexfolk import rl

HERE = Path(__file__).resolve().parent
VENV = HERE / ".venv-catanatron-gym"
CATANATRON_GYM = "catanatron-gym==4.0.0"

WORKER = r"""
import json, random, sys, time
from catanatron_gym.envs.catanatron_env import CatanatronEnv

seconds, seed = float(sys.argv[1]), int(sys.argv[2])
rng = random.Random(seed)
env = CatanatronEnv()  # 1 v 1 against catanatron's RandomPlayer, 10 VP
obs, info = env.reset(seed=seed)
steps = episodes = 0
start = time.perf_counter()
while time.perf_counter() - start < seconds:
    obs, reward, terminated, truncated, info = env.step(rng.choice(info["valid_actions"]))
    steps += 1
    if terminated or truncated:
        episodes += 1
        obs, info = env.reset(seed=seed + episodes)
elapsed = time.perf_counter() - start
print(json.dumps({"steps": steps, "seconds": elapsed, "episodes": episodes}))
"""


def python_in_venv() -> Path:
    return VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def ensure_venv() -> Path:
    """Create the catanatron-gym virtualenv if it is missing; return its python."""
    py = python_in_venv()
    probe = [str(py), "-c", "import catanatron_gym"]
    if py.exists() and subprocess.run(probe, capture_output=True).returncode == 0:
        return py
    print(f"creating {VENV} with {CATANATRON_GYM} ...", flush=True)
    venv.create(VENV, with_pip=True)
    subprocess.run([str(py), "-m", "pip", "install", "-q", CATANATRON_GYM], check=True)
    return py


def pin_one_core() -> list[str]:
    """Pin this process (and so the worker) to one core where the OS allows it."""
    if hasattr(os, "sched_setaffinity"):
        cpu = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})
        if subprocess.run(["which", "taskset"], capture_output=True).returncode == 0:
            return ["taskset", "-c", str(cpu)]
    return []


Result = dict[str, float]


def time_observations(env: rl.HexfolkEnv) -> dict[str, float]:
    """Count the seconds the environment spends in ``state.observation(seat)`` (the engine's
    JSON view) and in encoding it, by wrapping the environment's own two calls."""
    spent = {"observation": 0.0, "encode": 0.0}
    build, encode = env._observation_json, env.codec.encode

    def timed_build(seat: int) -> dict[str, Any]:
        t = time.perf_counter()
        try:
            return build(seat)
        finally:
            spent["observation"] += time.perf_counter() - t

    def timed_encode(observation: dict[str, Any]) -> np.ndarray:
        t = time.perf_counter()
        try:
            return encode(observation)
        finally:
            spent["encode"] += time.perf_counter() - t

    env._observation_json = timed_build  # type: ignore[method-assign]
    env.codec.encode = timed_encode  # type: ignore[method-assign]
    return spent


def pick(mask: np.ndarray, rng: random.Random) -> int:
    """A uniformly random index the mask allows (Python's ``random``, as the catanatron
    worker's ``rng.choice``: numpy's ``Generator.choice`` alone costs several µs a call; the
    mask's own ``nonzero`` skips ``np.flatnonzero``'s wrappers, half of its 2.7 µs)."""
    legal = mask.nonzero()[0]
    return int(legal[int(rng.random() * len(legal))])


def run_aec(game: str, players: int, seconds: float, seed: int, split: bool = False) -> Result:
    """Agent steps of random masked actions in the AEC environment for ``seconds``; ``split``:
    also the time in the observation and its encoding (the timers slow the steps)."""
    env = rl.env(game, players=players)
    spent = time_observations(env) if split else {}
    rng = random.Random(seed)
    steps = episodes = 0
    cpu = time.process_time()
    start = time.perf_counter()
    env.reset(seed=seed)
    while time.perf_counter() - start < seconds:
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            if not env.agents:
                episodes += 1
                env.reset(seed=seed + episodes)
            continue
        mask = env.observe(agent)["action_mask"]
        env.step(pick(mask, rng))
        steps += 1
    seconds = time.perf_counter() - start
    cpu = time.process_time() - cpu
    return {"steps": steps, "seconds": seconds, "cpu": cpu, "episodes": episodes, **spent}


def run_gym(game: str, seconds: float, seed: int, split: bool = False) -> Result:
    """Learner steps of the 1-versus-1 Gymnasium wrapper against the random bot (``split`` as
    in :func:`run_aec`)."""
    env = rl.gym_env(game, players=2, opponents="random")
    spent = time_observations(env.aec) if split else {}
    rng = random.Random(seed)
    steps = episodes = 0
    cpu = time.process_time()
    start = time.perf_counter()
    obs, _ = env.reset(seed=seed)
    while time.perf_counter() - start < seconds:
        obs, _, terminated, truncated, _ = env.step(pick(obs["action_mask"], rng))
        steps += 1
        if terminated or truncated:
            episodes += 1
            obs, _ = env.reset(seed=seed + episodes)
    seconds = time.perf_counter() - start
    cpu = time.process_time() - cpu
    return {"steps": steps, "seconds": seconds, "cpu": cpu, "episodes": episodes, **spent}


def run_catanatron(py: Path, prefix: list[str], seconds: float, seed: int) -> Result:
    out = subprocess.run(
        [*prefix, str(py), "-c", WORKER, str(seconds), str(seed)],
        check=True,
        capture_output=True,
        text=True,
    )
    result: Result = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def _add(total: dict[str, Result], name: str, r: Result) -> None:
    t = total.setdefault(name, {})
    for k, v in r.items():
        t[k] = t.get(k, 0.0) + v


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=(__doc__ or "").split("\n\n")[0],
        epilog="\n\n".join((__doc__ or "").split("\n\n")[1:]),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--seconds", type=float, default=10.0, help="per batch (default 10)")
    parser.add_argument("--rounds", type=int, default=3, help="batches of each (default 3)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-peer", action="store_true", help="skip catanatron-gym")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON too")
    parser.add_argument(
        "--no-split", action="store_true", help="skip the batches that split a step's time"
    )
    parser.add_argument(
        "--only",
        default="",
        help="comma-separated words: run only the hexfolk environments whose name has one "
        "(e.g. 'gym'; catanatron-gym always runs unless --no-peer)",
    )
    args = parser.parse_args(argv)
    py = None if args.no_peer else ensure_venv()
    prefix = pin_one_core()
    runs: list[tuple[str, Callable[..., Result]]] = [
        ("hexfolk island AEC 2p", lambda s, seed, **k: run_aec("island", 2, s, seed, **k)),
        ("hexfolk island AEC 4p", lambda s, seed, **k: run_aec("island", 4, s, seed, **k)),
        ("hexfolk scythe AEC 2p", lambda s, seed, **k: run_aec("scythe", 2, s, seed, **k)),
        ("hexfolk scythe AEC 4p", lambda s, seed, **k: run_aec("scythe", 4, s, seed, **k)),
        ("hexfolk island gym 1v1 random", lambda s, seed, **k: run_gym("island", s, seed, **k)),
    ]
    words = [w.strip() for w in args.only.split(",") if w.strip()]
    if words:
        runs = [(name, run) for name, run in runs if any(w in name for w in words)]
    if py is not None:
        peer = py
        runs.append(
            ("catanatron-gym 1v1 random", lambda s, seed: run_catanatron(peer, prefix, s, seed))
        )
    total: dict[str, Result] = {}
    per_round: list[dict[str, float]] = []
    for r in range(args.rounds):
        per_round.append({})
        for name, run in runs:
            result = run(args.seconds, args.seed + 1000 * r)
            _add(total, name, result)
            rate = per_round[-1][name] = result["steps"] / result["seconds"]
            print(f"round {r + 1}  {name:32s} {rate:9.0f} steps/s", flush=True)
    # the split of a step's time, in batches of their own: its timers are not in the rates
    split: dict[str, Result] = {}
    for name, run in runs:
        if name.startswith("hexfolk") and not args.no_split:
            split[name] = run(args.seconds, args.seed, split=True)
    print()
    print(
        f"{'environment':32s} {'steps/s':>9s} {'steps':>9s} {'episodes':>9s} "
        f"{'us/step':>8s} {'obs us':>7s} {'enc us':>7s}"
    )
    rates: dict[str, Any] = {}
    cpu_rates: dict[str, float] = {}
    for name, t in total.items():
        rates[name] = t["steps"] / t["seconds"]
        if t.get("cpu"):
            cpu_rates[f"{name} cpu"] = t["steps"] / t["cpu"]
        per = 1e6 / t["steps"]
        s = split.get(name)
        obs = f"{s['observation'] * 1e6 / s['steps']:7.0f}" if s else f"{'-':>7s}"
        enc = f"{s['encode'] * 1e6 / s['steps']:7.0f}" if s else f"{'-':>7s}"
        print(
            f"{name:32s} {rates[name]:9.0f} {t['steps']:9.0f} {t['episodes']:9.0f} "
            f"{t['seconds'] * per:8.0f} {obs} {enc}"
        )
    peer_rate = rates.get("catanatron-gym 1v1 random")
    if peer_rate and "hexfolk island gym 1v1 random" in rates:
        ratio = rates["hexfolk island gym 1v1 random"] / peer_rate
        rates["ratio island gym / catanatron-gym"] = ratio
        # each round's batches ran side by side: the median of their ratios shrugs off a
        # round that a busy moment slowed on one side only
        rounds = sorted(
            r["hexfolk island gym 1v1 random"] / r["catanatron-gym 1v1 random"] for r in per_round
        )
        median = statistics.median(rounds)
        rates["median round ratio"] = median
        print(
            f"\nisland gym 1v1 / catanatron-gym 1v1: {ratio:.2f}x (target 3x); median of the "
            f"{len(rounds)} rounds' ratios {median:.2f}x "
            f"(from {rounds[0]:.2f}x to {rounds[-1]:.2f}x)"
        )
    if args.json:
        print(json.dumps(rates | cpu_rates))
    return 0


if __name__ == "__main__":
    sys.exit(main())
