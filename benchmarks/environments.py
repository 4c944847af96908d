"""The environments' speed in every game, beside PettingZoo's classic connect_four_v3 measured in
the same run.

    python benchmarks/environments.py [--steps 10000] [--rounds 3] [--json] [--profile GAME]

For each game at its default table size (4 seats, or the nearest the game allows) it runs, with
masked random actions (a uniformly drawn index among those the mask allows), the PettingZoo AEC
environment, the Parallel environment and the OpenSpiel game (one ``apply_action`` and the next
player's ``observation_tensor`` a step), and prints steps per second and the ratio to
connect_four_v3's AEC steps per second; for the Parallel form also its decisions per second (the
indices chosen by the seats asked, the unit of an AEC step: a Parallel step carries one from every
seat asked at once) and their ratio to the AEC form's steps (×AEC). The peer is timed again before
every measurement and the figures are the medians over ``--rounds`` interleaved rounds. A
measurement plays whole games (10,000 steps by default, two games at the step cap): a step late in
a game costs more than one early (in Culottes deals pile up), so a short window flatters the
slower games. Times are the process's CPU time (``time.process_time``), so other work on a busy
machine does not count, and both sides are timed alike. A step is one index of an action
(Parallel: one index from every seat asked). With ``--profile GAME`` it prints where an AEC step
of that game spends its time (cProfile) instead; with ``--same-games GAME`` it times both forms on
the very same recorded games (:func:`same_games`). Needs the rl extra and pygame (connect_four_v3
draws with it). Figures only: nothing is asserted.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import statistics
import time
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from tricolore.core.registry import games
from tricolore.interop.pettingzoo import env, parallel_env

FORMS = ("aec", "parallel")
"""The forms :func:`same_games` replays."""


def pick(rng: np.random.Generator, mask: np.ndarray) -> int:
    """A uniformly drawn index among those ``mask`` allows (the only one, without drawing)."""
    allowed = np.flatnonzero(mask)
    return int(allowed[0]) if len(allowed) == 1 else int(rng.choice(allowed))


def aec_speed(table: Any, steps: int, seed: int = 0) -> float:
    """AEC steps per second with masked random actions, resetting finished games."""
    rng = np.random.default_rng(seed)
    table.reset(seed=seed)
    done = 0
    start = time.process_time()
    while done < steps:
        if not table.agents:
            table.reset(seed=int(rng.integers(1 << 30)))
            continue
        observation, _, terminated, truncated, _ = table.last()
        if terminated or truncated:
            table.step(None)
            continue
        table.step(pick(rng, observation["action_mask"]))
        done += 1
    return steps / (time.process_time() - start)


def parallel_speed(table: Any, steps: int, seed: int = 0) -> tuple[float, float]:
    """Parallel steps and decisions per second with masked random actions from every seat (a
    decision is one index chosen by a seat asked to act: the unit of an AEC step)."""
    rng = np.random.default_rng(seed)
    observations, _ = table.reset(seed=seed)
    noop = table.codec.size
    done = decisions = 0
    start = time.process_time()
    while done < steps:
        if not table.agents:
            observations, _ = table.reset(seed=int(rng.integers(1 << 30)))
            continue
        actions = {}
        for agent, observation in observations.items():
            mask = observation["action_mask"]
            if mask[noop]:  # a seat not asked: the no-op is its only index
                actions[agent] = noop
                continue
            actions[agent] = pick(rng, mask)
            decisions += 1
        observations, *_ = table.step(actions)
        done += 1
    elapsed = time.process_time() - start
    return steps / elapsed, decisions / elapsed


def openspiel_speed(name: str, steps: int, seed: int = 0) -> float | None:
    """OpenSpiel steps per second: a random legal action, then the observation tensor of the next
    player (``None`` without OpenSpiel)."""
    try:
        import pyspiel

        from tricolore.interop.openspiel import openspiel_name
    except ImportError:
        return None
    rng = np.random.default_rng(seed)
    game = pyspiel.load_game(openspiel_name(name), {"players": _players(name), "seed": seed})
    state = game.new_initial_state()
    done = 0
    start = time.process_time()
    while done < steps:
        if state.is_terminal():
            state = game.new_initial_state()
            continue
        state.apply_action(int(rng.choice(state.legal_actions())))
        if not state.is_terminal():
            state.observation_tensor(state.current_player())
        done += 1
    return steps / (time.process_time() - start)


def _players(name: str) -> int:
    return env(name).table.players


def peer() -> Callable[[int], float]:
    """connect_four_v3's AEC steps per second, the same loop."""
    from pettingzoo.classic import connect_four_v3

    table = connect_four_v3.env()
    return lambda steps: aec_speed(table, steps)


def measure(steps: int, rounds: int, observation: str | None = None) -> list[dict[str, Any]]:
    """Every game's figures, interleaved with the peer's (``observation``: the environments' form,
    their default if ``None``)."""
    connect_four = peer()
    rows = []
    for name in sorted(games()):
        figures: dict[str, list[float]] = {"aec": [], "parallel": [], "decisions": [], "openspiel": [],
                                           "peer": []}
        form: dict[str, Any] = {} if observation is None else {"observation": observation}
        aec, parallel = env(name, **form), parallel_env(name, **form)
        for i in range(rounds):
            figures["peer"].append(connect_four(steps))
            figures["aec"].append(aec_speed(aec, steps, i))
            parallel_steps, decisions = parallel_speed(parallel, steps, i)
            figures["parallel"].append(parallel_steps)
            figures["decisions"].append(decisions)
            spiel = openspiel_speed(name, steps, i)
            if spiel is not None:
                figures["openspiel"].append(spiel)
        row: dict[str, Any] = {"game": name}
        for key, values in figures.items():
            row[key] = statistics.median(values) if values else None
        # the Parallel form's decisions against the AEC form's steps, round by round
        row["decisions_per_aec"] = statistics.median(
            d / a for d, a in zip(figures["decisions"], figures["aec"], strict=True))
        for key in ("aec", "parallel", "decisions", "openspiel"):
            row[f"{key}_ratio"] = None if row[key] is None else row[key] / row["peer"]
        rows.append(row)
    return rows


def same_games(name: str, games: int, rounds: int, forms: tuple[str, ...] = FORMS) -> dict[str, float]:
    """Both forms on the very same games: ``games`` games of ``name`` played through the AEC form
    with masked random indices and recorded, then replayed through the AEC form (``last`` then
    ``step``, as a policy reads its observation before it acts) and through the Parallel form
    (``step`` with every seat's index: each seat asked its next recorded index, the others the
    no-op, worked out before the timing), ``rounds`` times in turn.
    Returns the decisions, each form's median µs per decision and the median ratio of the
    Parallel form's speed to the AEC form's. Each replay must end every game where the recording
    did (its final digest, taken outside the timed part). Only for games where one seat is asked
    at a time (Culottes): where several are, the two forms play them in another order.
    ``forms``: the forms replayed (one alone, or none with no rounds, to count the instructions of
    a replay under valgrind: see ``docs/performance.md``)."""
    aec, parallel = env(name), parallel_env(name)
    rng = np.random.default_rng(0)
    recorded: list[list[tuple[str, int]]] = []
    ends: list[str] = []  # each game's final digest, which both replays must reach
    for seed in range(games):
        aec.reset(seed=seed)
        played = []
        while aec.agents:
            observation, _, terminated, truncated, _ = aec.last()
            if terminated or truncated:
                aec.step(None)
                continue
            index = pick(rng, observation["action_mask"])
            played.append((aec.agent_selection, index))
            aec.step(index)
        recorded.append(played)
        ends.append(aec.state.digest())
    decisions = sum(map(len, recorded))

    def check(state: Any, seed: int, form: str) -> None:
        """A replayed game must end where its recording did (checked outside the timed part)."""
        if state.digest() != ends[seed]:
            raise RuntimeError(f"game {seed} ended elsewhere in the {form} form: the two forms did "
                               "not play the same game")

    def replay_aec() -> float:
        elapsed = 0.0
        for seed, played in enumerate(recorded):
            start = time.process_time()
            aec.reset(seed=seed)
            for _, index in played:
                aec.last()  # what a policy reads before it acts
                aec.step(index)
            elapsed += time.process_time() - start
            check(aec.state, seed, "AEC")
        return elapsed

    # each step's actions of the Parallel form, worked out once, outside the timed part: each
    # seat asked takes its next recorded index, the others the no-op (as the AEC replay, the timed
    # part is the environment's alone, not a policy's reading of every seat's mask)
    steps: list[list[dict[str, int]]] = []
    if "parallel" in forms:
        noop = parallel.codec.size
        for seed, played in enumerate(recorded):
            observations, _ = parallel.reset(seed=seed)
            queues: dict[str, list[int]] = {agent: [] for agent in parallel.possible_agents}
            for agent, index in reversed(played):
                queues[agent].append(index)
            game: list[dict[str, int]] = []
            while parallel.agents:
                actions = {agent: noop if observation["action_mask"][noop] else queues[agent].pop()
                           for agent, observation in observations.items()}
                game.append(actions)
                observations, *_ = parallel.step(actions)
            steps.append(game)

    def replay_parallel() -> float:
        elapsed = 0.0
        for seed, game in enumerate(steps):
            start = time.process_time()
            parallel.reset(seed=seed)
            for actions in game:
                parallel.step(actions)
            elapsed += time.process_time() - start
            check(parallel.state, seed, "Parallel")
        return elapsed

    aec_times: list[float] = []
    parallel_times: list[float] = []
    for _ in range(rounds):
        if "aec" in forms:
            aec_times.append(replay_aec())
        if "parallel" in forms:
            parallel_times.append(replay_parallel())
    figures: dict[str, float] = {"decisions": decisions}
    if aec_times:
        figures["aec_us"] = statistics.median(aec_times) / decisions * 1e6
    if parallel_times:
        figures["parallel_us"] = statistics.median(parallel_times) / decisions * 1e6
    if aec_times and parallel_times:
        figures["parallel_per_aec"] = statistics.median(
            a / b for a, b in zip(aec_times, parallel_times, strict=True))
    return figures


def profile(name: str, steps: int, observation: str | None = None) -> str:
    """Where an AEC step of ``name`` spends its time: cProfile's top entries by own time."""
    table = env(name) if observation is None else env(name, observation=observation)
    profiler = cProfile.Profile()
    profiler.enable()
    aec_speed(table, steps)
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(15)
    return out.getvalue()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=10000,
                        help="steps per measurement (whole games: steps grow dearer as a game goes on)")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (the median is shown)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--profile", metavar="GAME", help="profile the AEC environment of GAME instead")
    parser.add_argument("--observation", metavar="FORM",
                        help="the observation form (default: the environments' own)")
    parser.add_argument("--same-games", metavar="GAME",
                        help="replay the same recorded games of GAME through both forms instead")
    parser.add_argument("--games", type=int, default=12, help="games recorded for --same-games")
    parser.add_argument("--form", choices=[*FORMS, "both"], default="both",
                        help="the forms --same-games replays")
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    if args.same_games:
        forms = FORMS if args.form == "both" else (args.form,)
        figures = same_games(args.same_games, args.games, args.rounds, forms)
        found = [f"AEC {figures['aec_us']:.1f} µs a decision" if "aec_us" in figures else "",
                 f"Parallel {figures['parallel_us']:.1f} µs" if "parallel_us" in figures else "",
                 f"Parallel × AEC {figures['parallel_per_aec']:.2f}" if "parallel_per_aec" in figures else ""]
        print(f"{args.same_games}: {figures['decisions']:.0f} decisions in {args.games} games, replayed "
              f"{args.rounds} times: " + ", ".join(f for f in found if f))
        return
    if args.profile:
        print(profile(args.profile, args.steps, args.observation))
        return
    rows = measure(args.steps, args.rounds, args.observation)
    if args.json:
        print(json.dumps(rows, indent=1))
        return
    print(f"{'game':20} {'AEC/s':>8} {'×c4':>6} {'Parallel/s':>11} {'×c4':>6} {'decisions/s':>12} {'×c4':>6}"
          f" {'×AEC':>6} {'OpenSpiel/s':>12} {'×c4':>6} {'c4 AEC/s':>9}")
    for row in rows:
        spiel = "skipped" if row["openspiel"] is None else f"{row['openspiel']:.0f}"
        spiel_ratio = "" if row["openspiel"] is None else f"{row['openspiel_ratio']:.2f}"
        print(f"{row['game']:20} {row['aec']:8.0f} {row['aec_ratio']:6.2f} {row['parallel']:11.0f} "
              f"{row['parallel_ratio']:6.2f} {row['decisions']:12.0f} {row['decisions_ratio']:6.2f} "
              f"{row['decisions_per_aec']:6.2f} {spiel:>12} {spiel_ratio:>6} {row['peer']:9.0f}")


if __name__ == "__main__":
    main()
