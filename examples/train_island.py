"""Train a masked policy for the island game, 1 versus 1 against the random bot, and report
its win rate against random with a 95% confidence interval (``docs/rl.md``).

A small PyTorch PPO: one network with a policy head over the ``Discrete(N)`` action catalogue
(illegal entries masked out of the softmax with the environment's ``action_mask``) and a value
head, trained on batches from several ``hexfolk.rl.gym_env`` environments (the learner plays
seat 0 in half of them and seat 1 in the others). Reward: the game's return (1 for a win) plus
a shaped ``--shaped`` per victory point gained. Needs ``torch`` (``pip install torch``) and the
``rl`` extra.

    python examples/train_island.py --minutes 20 --eval-games 200
    python examples/train_island.py --minutes 0.2 --eval-games 4   # a smoke run
"""

from __future__ import annotations

import argparse
import math
import time
from typing import Any

import numpy as np
import torch
from torch import nn

from hexfolk import rl


class Policy(nn.Module):
    """MLP body, masked policy logits and a value."""

    def __init__(self, obs_size: int, actions: int, hidden: int = 256):
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(obs_size, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh()
        )
        self.pi = nn.Linear(hidden, actions)
        self.v = nn.Linear(hidden, 1)
        nn.init.orthogonal_(self.pi.weight, 0.01)
        nn.init.zeros_(self.pi.bias)

    def forward(self, obs: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = self.body(obs)
        logits = self.pi(h).masked_fill(~mask, -1e9)
        return logits, self.v(h).squeeze(-1)


def make_env(seat: int, seed: int, shaped: float) -> Any:
    # max_cycles: a guard against a policy that never ends its turn
    return rl.gym_env(
        "island", players=2, seat=seat, opponents="random", seed=seed, shaped=shaped,
        max_cycles=4000,
    )  # fmt: skip


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a win rate."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


def act(policy: Policy, obs: list[dict[str, np.ndarray]], greedy: bool = False) -> Any:
    x = torch.as_tensor(np.stack([o["observation"] for o in obs]))
    m = torch.as_tensor(np.stack([o["action_mask"] for o in obs]).astype(bool))
    with torch.no_grad():
        logits, value = policy(x, m)
    dist = torch.distributions.Categorical(logits=logits)
    a = logits.argmax(-1) if greedy else dist.sample()
    return x, m, a, dist.log_prob(a), value


def evaluate(policy: Policy, games: int, seed: int) -> tuple[int, int, float]:
    """Wins of the (sampling) policy against random over ``games``, seats alternating;
    also the mean learner steps per game."""
    wins = 0
    steps = 0
    for g in range(games):
        env = make_env(g % 2, seed + g, 0.0)
        obs, _ = env.reset(seed=seed + g)
        while True:
            _, _, a, _, _ = act(policy, [obs])
            obs, reward, terminated, truncated, _ = env.step(int(a[0]))
            steps += 1
            if terminated or truncated:
                wins += int(float(reward) >= 1.0)  # the last reward holds the win
                break
    return wins, games, steps / max(games, 1)


def train(args: argparse.Namespace) -> Policy:
    torch.manual_seed(args.seed)
    envs = [make_env(i % 2, args.seed + i, args.shaped) for i in range(args.envs)]
    obs = [env.reset(seed=args.seed + 100 * i)[0] for i, env in enumerate(envs)]
    policy = Policy(envs[0].observation_space["observation"].shape[0], envs[0].action_space.n)
    opt = torch.optim.Adam(policy.parameters(), lr=args.lr)
    start = time.perf_counter()
    deadline = start + 60 * args.minutes
    total_steps = episodes = wins = 0
    update = 0
    while time.perf_counter() < deadline and (not args.updates or update < args.updates):
        xs, ms, acts, logps, values, rewards, dones = [], [], [], [], [], [], []
        for _t in range(args.horizon):
            x, m, a, logp, v = act(policy, obs)
            r_t, d_t = [], []
            for i, env in enumerate(envs):
                o, r, terminated, truncated, _ = env.step(int(a[i]))
                done = terminated or truncated
                if done:
                    episodes += 1
                    wins += int(terminated and env.aec.state.returns()[env.seat] >= 1.0)
                    o, _ = env.reset()
                obs[i] = o
                r_t.append(float(r))
                d_t.append(float(done))
            xs.append(x), ms.append(m), acts.append(a), logps.append(logp), values.append(v)
            rewards.append(torch.tensor(r_t)), dones.append(torch.tensor(d_t))
        total_steps += args.horizon * len(envs)
        with torch.no_grad():
            _, _, _, _, last_v = act(policy, obs)
        # generalised advantage estimation
        adv = torch.zeros(args.horizon, len(envs))
        gae = torch.zeros(len(envs))
        for t in reversed(range(args.horizon)):
            nxt = last_v if t == args.horizon - 1 else values[t + 1]
            nonterminal = 1.0 - dones[t]
            delta = rewards[t] + args.gamma * nxt * nonterminal - values[t]
            gae = delta + args.gamma * args.lam * nonterminal * gae
            adv[t] = gae
        ret = adv + torch.stack(values)
        b_x, b_m = torch.cat(xs), torch.cat(ms)
        b_a, b_logp = torch.cat(acts), torch.cat(logps)
        b_adv, b_ret = adv.reshape(-1), ret.reshape(-1)
        b_adv = (b_adv - b_adv.mean()) / (b_adv.std() + 1e-8)
        n = b_x.shape[0]
        for _epoch in range(args.epochs):
            perm = torch.randperm(n)
            for lo in range(0, n, args.minibatch):
                idx = perm[lo : lo + args.minibatch]
                logits, v = policy(b_x[idx], b_m[idx])
                dist = torch.distributions.Categorical(logits=logits)
                ratio = torch.exp(dist.log_prob(b_a[idx]) - b_logp[idx])
                a_i = b_adv[idx]
                pg = -torch.min(ratio * a_i, ratio.clamp(1 - args.clip, 1 + args.clip) * a_i)
                loss = (
                    pg.mean()
                    + 0.5 * (v - b_ret[idx]).pow(2).mean()
                    - args.entropy * dist.entropy().mean()
                )
                opt.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
                opt.step()
        update += 1
        if update % args.log_every == 0:
            minutes = (time.perf_counter() - start) / 60
            rate = wins / episodes if episodes else float("nan")
            print(
                f"update {update:4d}  {minutes:5.1f} min  steps {total_steps:8d}  "
                f"episodes {episodes:5d}  training win rate {rate:.2f}",
                flush=True,
            )
    return policy


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=20.0, help="training time budget")
    parser.add_argument("--updates", type=int, default=0, help="stop after this many (0: time)")
    parser.add_argument("--eval-games", type=int, default=200)
    parser.add_argument("--baseline-games", type=int, default=0, help="evaluate untrained too")
    parser.add_argument("--envs", type=int, default=8)
    parser.add_argument("--horizon", type=int, default=128)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--minibatch", type=int, default=256)
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--gamma", type=float, default=0.995)
    parser.add_argument("--lam", type=float, default=0.95)
    parser.add_argument("--clip", type=float, default=0.2)
    parser.add_argument("--entropy", type=float, default=0.01)
    parser.add_argument("--shaped", type=float, default=0.1, help="reward per VP gained")
    parser.add_argument("--threads", type=int, default=1, help="torch threads")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--log-every", type=int, default=5)
    parser.add_argument("--save", default="", help="save the policy's state_dict here")
    return parser


def main() -> None:
    args = parser().parse_args()
    torch.set_num_threads(args.threads)
    if args.baseline_games:
        torch.manual_seed(args.seed)
        env = make_env(0, 0, 0.0)
        untrained = Policy(env.observation_space["observation"].shape[0], env.action_space.n)
        w, g, length = evaluate(untrained, args.baseline_games, 10_000)
        lo, hi = wilson(w, g)
        print(f"untrained: {w}/{g} wins = {w / g:.3f} [{lo:.3f}, {hi:.3f}], {length:.0f} steps")
    t0 = time.perf_counter()
    policy = train(args)
    print(f"trained for {(time.perf_counter() - t0) / 60:.1f} min")
    if args.save:
        torch.save(policy.state_dict(), args.save)
    w, g, length = evaluate(policy, args.eval_games, 20_000)
    lo, hi = wilson(w, g)
    print(
        f"trained vs random: {w}/{g} wins = {w / max(g, 1):.3f}, 95% CI [{lo:.3f}, {hi:.3f}], "
        f"{length:.0f} learner steps per game"
    )


if __name__ == "__main__":
    main()
