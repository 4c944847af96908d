"""Self-play training of a small policy with PPO, in numpy only.

One learner seat of a Tricolore game (``tricolore.interop.gymnasium.TricoloreEnv``) plays against a
pool of opponents: the game's named strategies and the learner's own past snapshots (each saved
as ``.npz`` and played as the strategy ``policy:PATH@sample=true``). The policy is
:class:`tricolore.agents.policy.Policy`: one hidden layer of ``tanh`` units, a masked softmax over
the flat action space and a value head. The update is PPO (Schulman et al., 2017) as CleanRL
writes it: generalised advantage estimation, the clipped objective, an entropy bonus, gradient
clipping and Adam, the gradients worked out by hand.

After every iteration the policy plays greedily on fixed evaluation games (seeds, seats and named
opponents fixed in advance) and its win share goes to ``curve.csv`` (and ``curve.png``), beside
the win share of a uniformly random choice of index on the same games.

    python examples/selfplay.py --game culottes-trials --players 3 --seconds 150 --out runs/trials

writes ``runs/trials/policy.npz``, which plays wherever strategies are named:

    tricolore simulate culottes-trials --players 3 --seats policy:runs/trials/policy.npz,skeptic,skeptic
"""

from __future__ import annotations

import argparse
import csv
import itertools
import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from tricolore.agents.policy import Policy
from tricolore.core.registry import get_game
from tricolore.interop.gymnasium import TricoloreEnv


@dataclass
class Config:
    """What a training run does; every field is also a command-line option (:data:`HELP`)."""

    game: str = "culottes-trials"
    players: int = 3
    seconds: float = 150.0
    iterations: int = 1000
    steps: int = 2048
    epochs: int = 4
    minibatch: int = 256
    hidden: int = 64
    learning_rate: float = 3e-3
    gamma: float = 1.0  # one reward, at the end of a game: no discount
    gae_lambda: float = 1.0  # whole returns, less the value: the reward comes at the end
    clip: float = 0.2
    entropy: float = 0.01
    value_weight: float = 0.5
    max_grad_norm: float = 0.5
    snapshot_every: int = 5
    snapshot_share: float = 0.3
    eval_games: int = 270  # a multiple of players × named pairs visits each equally
    eval_every: int = 2
    opponents: str = ""
    reward: str = "shaped"
    seed: int = 0
    out: Path = field(default_factory=lambda: Path("runs/selfplay"))


HELP: dict[str, str] = {
    "game": "the game to train in",
    "players": "the table's size",
    "seconds": "stop after the iteration that passes this many seconds of wall-clock time, "
               "the evaluations included",
    "iterations": "or after this many iterations",
    "steps": "the learner's steps collected per iteration",
    "epochs": "passes over each iteration's steps",
    "minibatch": "steps per gradient step",
    "hidden": "units in each of the policy's two hidden layers",
    "learning_rate": "Adam's step size",
    "gamma": "the discount (1: the reward comes at the end of a game)",
    "gae_lambda": "GAE's lambda (1: whole returns less the value)",
    "clip": "PPO's clipping of the probability ratio",
    "entropy": "the entropy bonus's weight",
    "value_weight": "the value loss's weight",
    "max_grad_norm": "the whole gradient is clipped to this norm",
    "snapshot_every": "iterations between snapshots of the policy joining the opponents",
    "snapshot_share": "the chance an opponent seat is a snapshot, once there are some",
    "eval_games": "fixed evaluation games per point of the curve",
    "eval_every": "iterations between points of the curve",
    "opponents": "the named strategies to train and evaluate against, comma-separated "
                 "(empty: all the game's own)",
    "reward": "the training reward: win, score or shaped (the evaluation counts wins)",
    "seed": "the seed of the run",
    "out": "the folder for the policy, its snapshots and the curve",
}
"""The command line's help for each :class:`Config` field."""


class Adam:
    """Adam (Kingma & Ba, 2015) over a dictionary of arrays, updated in place."""

    def __init__(self, params: dict[str, np.ndarray], lr: float) -> None:
        self.params, self.lr, self.t = params, lr, 0
        self.m = {k: np.zeros_like(v) for k, v in params.items()}
        self.v = {k: np.zeros_like(v) for k, v in params.items()}

    def step(self, grads: dict[str, np.ndarray], b1: float = 0.9, b2: float = 0.999) -> None:
        """One step down ``grads``."""
        self.t += 1
        for k, g in grads.items():
            self.m[k] = b1 * self.m[k] + (1 - b1) * g
            self.v[k] = b2 * self.v[k] + (1 - b2) * g * g
            m_hat, v_hat = self.m[k] / (1 - b1 ** self.t), self.v[k] / (1 - b2 ** self.t)
            self.params[k] -= self.lr * m_hat / (np.sqrt(v_hat) + 1e-8)


def ppo_gradients(policy: Policy, batch: dict[str, np.ndarray], cfg: Config
                  ) -> tuple[dict[str, np.ndarray], dict[str, float]]:
    """The gradients of PPO's loss on one minibatch, and its parts (for the curve)."""
    w = policy.weights
    obs, masks, actions = batch["obs"], batch["masks"], batch["actions"]
    adv = batch["advantages"]
    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    n = len(actions)
    hidden, log_p, values = policy.forward(obs, masks)
    rows = np.arange(n)
    ratio = np.exp(log_p[rows, actions] - batch["log_probs"])
    unclipped, clipped = -adv * ratio, -adv * np.clip(ratio, 1 - cfg.clip, 1 + cfg.clip)
    # the gradient flows through the ratio only where the unclipped term is the larger
    d_log_p = np.where(unclipped >= clipped, -adv * ratio, 0.0) / n
    p = np.where(masks > 0, np.exp(log_p), 0.0)
    safe_log_p = np.where(masks > 0, log_p, 0.0)
    entropy = -(p * safe_log_p).sum(axis=1)
    onehot = np.zeros_like(p)
    onehot[rows, actions] = 1.0
    d_logits = d_log_p[:, None] * (onehot - p)
    # minus the entropy bonus: d(-H)/d logit_j = p_j (log p_j + H)
    d_logits += cfg.entropy * p * (safe_log_p + entropy[:, None]) / n
    d_values = cfg.value_weight * (values - batch["returns"]) / n
    grads = {"w_pi": hidden.T @ d_logits, "b_pi": d_logits.sum(axis=0),
             "w_v": hidden.T @ d_values[:, None], "b_v": np.array([d_values.sum()])}
    d_hidden = (d_logits @ w["w_pi"].T + d_values[:, None] @ w["w_v"].T) * (1 - hidden ** 2)
    grads["w1"], grads["b1"] = obs.T @ d_hidden, d_hidden.sum(axis=0)
    norm = np.sqrt(sum(float((g * g).sum()) for g in grads.values()))
    if norm > cfg.max_grad_norm:
        grads = {k: g * (cfg.max_grad_norm / norm) for k, g in grads.items()}
    stats = {"policy_loss": float(np.maximum(unclipped, clipped).mean()),
             "value_loss": float(0.5 * ((values - batch["returns"]) ** 2).mean()),
             "entropy": float(entropy.mean()),
             "approx_kl": float(((ratio - 1) - np.log(ratio)).mean())}
    return grads, stats


class Tables:
    """The environments of every (learner seat, opponents) met so far, made once each."""

    def __init__(self, cfg: Config, reward: str) -> None:
        self.cfg, self.reward = cfg, reward
        self.made = dict[tuple[int, tuple[str, ...]], TricoloreEnv]()

    def get(self, seat: int, opponents: tuple[str, ...]) -> TricoloreEnv:
        """The environment of the learner in ``seat`` against ``opponents`` (one per other seat)."""
        key = (seat, opponents)
        if key not in self.made:
            self.made[key] = TricoloreEnv(self.cfg.game, players=self.cfg.players, seat=seat,
                                          opponents=list(opponents), reward=self.reward,
                                          observation="hashed")  # the policy reads the hashed view
        return self.made[key]


def collect(policy: Policy, tables: Tables, pool: list[str], snapshots: list[str], cfg: Config,
            rng: np.random.Generator) -> tuple[dict[str, np.ndarray], list[float]]:
    """At least ``cfg.steps`` learner steps of whole games against opponents drawn from the pool,
    with their advantages and returns (GAE); and each game's reward."""
    rows: dict[str, list[Any]] = {k: [] for k in ("obs", "masks", "actions", "log_probs", "values",
                                                  "rewards", "dones")}
    rewards: list[float] = []
    while len(rows["actions"]) < cfg.steps:
        def draw() -> str:
            if snapshots and rng.random() < cfg.snapshot_share:
                return f"policy:{snapshots[rng.integers(len(snapshots))]}@sample=true"
            return pool[rng.integers(len(pool))]
        seat = int(rng.integers(cfg.players))
        env = tables.get(seat, tuple(draw() for _ in range(cfg.players - 1)))
        observation, _ = env.reset(seed=int(rng.integers(2**31)))
        done = False
        while not done:
            obs, mask = observation["observation"], observation["action_mask"]
            _, log_p, value = policy.forward(obs[None, :], mask[None, :])
            allowed = np.flatnonzero(mask)
            action = int(rng.choice(allowed, p=np.exp(log_p[0, allowed]) / np.exp(log_p[0, allowed]).sum()))
            observation, reward, terminated, truncated, _ = env.step(action)
            done = terminated or truncated
            for key, item in (("obs", obs), ("masks", mask), ("actions", action),
                              ("log_probs", log_p[0, action]), ("values", value[0]),
                              ("rewards", reward), ("dones", done)):
                rows[key].append(item)
        rewards.append(float(reward))
    batch = {k: np.asarray(v) for k, v in rows.items()}
    values, dones, advantages = batch["values"], batch["dones"], np.zeros(len(batch["rewards"]))
    last = 0.0
    for t in reversed(range(len(advantages))):
        following = 0.0 if dones[t] else values[t + 1]
        delta = batch["rewards"][t] + cfg.gamma * following - values[t]
        last = delta + cfg.gamma * cfg.gae_lambda * (0.0 if dones[t] else last)
        advantages[t] = last
    batch["advantages"], batch["returns"] = advantages, advantages + values
    return batch, rewards


def evaluation_games(cfg: Config, bots: list[str]) -> list[tuple[int, tuple[str, ...], int]]:
    """The fixed evaluation games: (learner seat, named opponents, seed), every seat and every
    combination of the named strategies in turn."""
    tables = list(itertools.product(bots, repeat=cfg.players - 1))
    return [(i % cfg.players, tables[(i // cfg.players) % len(tables)], 10_000 + i)
            for i in range(cfg.eval_games)]


def evaluate(policy: Policy, tables: Tables, games: list[tuple[int, tuple[str, ...], int]],
             greedy: bool = False) -> float:
    """The mean win share of ``policy`` on ``games``, drawing each index from its distribution
    with a generator seeded by the game's seed (``greedy``: taking the likeliest)."""
    total = 0.0
    for seat, opponents, seed in games:
        env = tables.get(seat, opponents)
        observation, _ = env.reset(seed=seed)
        rng, done, reward = random.Random(seed), False, 0.0
        while not done:
            action = policy.choose(observation["observation"], observation["action_mask"],
                                   None if greedy else rng)
            observation, reward, terminated, truncated, _ = env.step(action)
            done = terminated or truncated
        total += float(reward)
    return total / len(games)


def train(cfg: Config) -> Policy:
    """Trains by self-play as :class:`Config` says; writes ``policy.npz``, ``snapshots/``,
    ``curve.csv`` and ``curve.png`` in ``cfg.out``, and returns the policy."""
    cfg.out.mkdir(parents=True, exist_ok=True)
    (cfg.out / "snapshots").mkdir(exist_ok=True)
    rng = np.random.default_rng(cfg.seed)
    bots = [s.strip() for s in cfg.opponents.split(",") if s.strip()] or list(get_game(cfg.game).strategies)
    policy = Policy.initial(cfg.game, cfg.players, hidden=cfg.hidden, seed=cfg.seed)
    optimiser = Adam(policy.weights, cfg.learning_rate)
    tables, judged, snapshots = Tables(cfg, cfg.reward), Tables(cfg, "win"), list[str]()
    games = evaluation_games(cfg, bots)
    # The untrained policy is uniform over each mask: random, with the very draws of the later
    # evaluations, so the curve is paired with it game by game. (Its greedy choice, the lowest
    # index, is a strategy of its own.)
    random_share = evaluate(policy, judged, games)
    nothing = float("nan")
    curve: list[dict[str, float]] = [{
        "iteration": 0, "steps": 0, "seconds": 0.0, "win_share": random_share,
        "greedy_win_share": evaluate(policy, judged, games, greedy=True), "random_win_share": random_share,
        "training_reward": nothing, "policy_loss": nothing, "value_loss": nothing, "entropy": nothing,
        "approx_kl": nothing}]
    print_point(curve[0])
    start = time.perf_counter()
    steps = 0
    for iteration in range(1, cfg.iterations + 1):
        batch, rewards = collect(policy, tables, bots, snapshots, cfg, rng)
        steps += len(batch["actions"])
        stats: dict[str, list[float]] = {}
        for _ in range(cfg.epochs):
            order = rng.permutation(len(batch["actions"]))
            for at in range(0, len(order), cfg.minibatch):
                picked = order[at:at + cfg.minibatch]
                grads, parts = ppo_gradients(policy, {k: v[picked] for k, v in batch.items()}, cfg)
                optimiser.step(grads)
                for k, v in parts.items():
                    stats.setdefault(k, []).append(v)
        if iteration % cfg.snapshot_every == 0:
            path = cfg.out / "snapshots" / f"policy-{iteration:04d}.npz"
            policy.save(path)
            snapshots.append(str(path))
        last = cfg.iterations == iteration or time.perf_counter() - start >= cfg.seconds
        if iteration % cfg.eval_every == 0 or last:
            curve.append({"iteration": iteration, "steps": steps,
                          "seconds": round(time.perf_counter() - start, 2),
                          "win_share": evaluate(policy, judged, games),
                          "greedy_win_share": evaluate(policy, judged, games, greedy=True),
                          "random_win_share": random_share,
                          "training_reward": float(np.mean(rewards)),
                          **{k: float(np.mean(v)) for k, v in stats.items()}})
            print_point(curve[-1])
        if last:
            break
    policy.save(cfg.out / "policy.npz")
    write_curve(curve, cfg.out)
    return policy


def print_point(point: dict[str, float]) -> None:
    """One point of the learning curve, as a line of output."""
    print(", ".join(f"{k} {v:.3g}" for k, v in point.items()), flush=True)


def write_curve(curve: list[dict[str, float]], out: Path) -> None:
    """The learning curve as ``curve.csv`` and ``curve.png``."""
    with open(out / "curve.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(curve[0]))
        writer.writeheader()
        writer.writerows(curve)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    fig, ax = plt.subplots(figsize=(6, 3.5))
    iterations = [r["iteration"] for r in curve]
    ax.plot(iterations, [r["win_share"] for r in curve], label="policy")
    ax.plot(iterations, [r["greedy_win_share"] for r in curve], label="policy, greedy", alpha=0.6)
    ax.axhline(curve[0]["random_win_share"], color="grey", linestyle="--", label="random index")
    ax.set(xlabel="iteration", ylabel="win share against the named strategies", ylim=(0, 1))
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.legend()
    fig.tight_layout()
    fig.savefig(out / "curve.png", dpi=100)
    plt.close(fig)


def main() -> None:
    """The command line: every :class:`Config` field as ``--name value``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    defaults = Config()
    for name, value in vars(defaults).items():
        parser.add_argument(f"--{name.replace('_', '-')}", type=type(value), default=value,
                            help=f"{HELP[name]} (default: {value})")
    train(Config(**vars(parser.parse_args())))


if __name__ == "__main__":
    main()
