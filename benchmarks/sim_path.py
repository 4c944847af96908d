"""Where a decision of the simulation path spends its time, in every game, on the build that runs.

    python benchmarks/sim_path.py [--games 40] [--rounds 3] [--json]

The simulation path (``tricolore/sim/runner.py`` with random agents) is four calls a decision:
``acting()`` (the seats asked, worked out without making their prompts; the runner takes the
first), ``legal_actions(seat)`` (the action
space), ``sample(rng)`` on it (one random action, built as a dict) and ``apply_trusted`` (the rule
applied), plus ``game.new`` once a game; events are not recorded, as the runner records none
for agents that are not told the log. cProfile cannot see inside the compiled build's modules,
so this times each call with ``time.thread_time_ns`` (CPU time, which other work on a busy
machine does not add to) around it, and subtracts the cost of the timer itself (measured around
nothing); the timed parts add up to somewhat more than the untimed loop. It prints microseconds per
decision for each call and for the whole loop without the timers, beside the bare-Python floor's
microseconds per decision in the same run; ``TRICOLORE_BUILD=pure`` measures the pure build.
Every round plays ``--games`` games of seeds it has not played before (the timed calls and the
untimed loop each their own), as a simulation plays new games. Figures only: nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from typing import Any

import tricolore
from tricolore.core import get_game
from tricolore.perf import floor
from tricolore.perf.bench import TABLE_SIZES as TABLES
from tricolore.perf.bench import WARM_UP_SEED, play_simulation_path

CALLS = ("new", "acting", "legal_actions", "sample", "apply_trusted")


def timer_cost(samples: int = 200_000) -> float:
    """Nanoseconds two ``thread_time_ns`` calls cost around nothing."""
    clock = time.thread_time_ns
    spent = 0
    for _ in range(samples):
        start = clock()
        spent += clock() - start
    return spent / samples


def timed_calls(name: str, seeds: range, overhead: float) -> dict[str, float]:
    """Nanoseconds a decision spends in each call, over the random games of ``seeds``."""
    game, players, clock = get_game(name), TABLES[name], time.thread_time_ns
    spent = dict.fromkeys(CALLS, 0.0)
    decisions = 0
    for seed in seeds:
        rng = random.Random(seed)
        start = clock()
        state = game.new(players, seed)
        state.record_events = False  # as the runner plays agents that are not told the log
        spent["new"] += clock() - start - overhead
        while not state.is_over():
            start = clock()
            seat = state.acting()[0]
            middle = clock()
            space = state.legal_actions(seat)
            after_legal = clock()
            action = space.sample(rng)
            after_sample = clock()
            state.apply_trusted(seat, action)
            end = clock()
            spent["acting"] += middle - start - overhead
            spent["legal_actions"] += after_legal - middle - overhead
            spent["sample"] += after_sample - after_legal - overhead
            spent["apply_trusted"] += end - after_sample - overhead
            decisions += 1
    return {call: max(0.0, total / decisions) for call, total in spent.items()}


def whole_loop(name: str, seeds: range) -> float:
    """Nanoseconds a decision of the untimed loop takes over the games of ``seeds`` (CPU time)."""
    game, players = get_game(name), TABLES[name]
    start = time.process_time_ns()
    decisions = play_simulation_path(game, players, seeds)
    return (time.process_time_ns() - start) / decisions


def floor_decision_ns(seconds: float = 0.3) -> float:
    """Nanoseconds a decision of the bare-Python floor takes."""
    _, decisions, took = floor.run_for(seconds, random.Random(0))
    return took / decisions * 1e9


def measure(games: int, rounds: int) -> dict[str, Any]:
    """Every game's figures: the median over ``rounds`` of each call's and the loop's cost."""
    overhead = timer_cost()
    runs: dict[str, list[dict[str, float]]] = {name: [] for name in TABLES}
    floors: list[float] = []
    # Every round plays games not played before, as a simulation does: a cache of what earlier
    # games worked out is only worth what it gives on new ones. The warm-up plays other games
    # still, so that what a game builds once for all its games is built before timing.
    for name in TABLES:
        whole_loop(name, range(WARM_UP_SEED, WARM_UP_SEED + games))
    for number in range(rounds):
        floors.append(floor_decision_ns())
        for name in TABLES:
            figures = timed_calls(name, range(2 * number * games, (2 * number + 1) * games), overhead)
            figures["loop"] = whole_loop(name, range((2 * number + 1) * games, (2 * number + 2) * games))
            runs[name].append(figures)
    median = {name: {key: statistics.median(r[key] for r in rows) for key in rows[0]}
              for name, rows in runs.items()}
    return {"build": tricolore.build(), "games": games, "rounds": rounds,
            "timer_ns": overhead, "floor_ns": statistics.median(floors), "games_figures": median}


def table(result: dict[str, Any]) -> str:
    """The figures as a Markdown table (µs per decision; ``new`` spread over a game's decisions)."""
    floor_us = result["floor_ns"] / 1000
    lines = [f"{result['build']} build, {result['games']} games a round, median of "
             f"{result['rounds']} rounds; the floor decides in {floor_us:.2f} µs "
             f"(0.28× the floor is {floor_us / 0.28:.2f} µs a decision)", "",
             "| game | new | acting | legal_actions | sample | apply_trusted | whole loop µs | × floor |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for name, figures in result["games_figures"].items():
        cells = " | ".join(f"{figures[call] / 1000:.2f}" for call in CALLS)
        loop = figures["loop"] / 1000
        lines.append(f"| {name} | {cells} | {loop:.2f} | {floor_us / loop:.3f}× |")
    return "\n".join(lines)


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40, help="random games of each game a round")
    parser.add_argument("--rounds", type=int, default=3, help="rounds (the median is shown)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    if args.games < 1 or args.rounds < 1:
        sys.exit("--games and --rounds must be at least 1")
    result = measure(args.games, args.rounds)
    print(json.dumps(result, indent=2) if args.json else table(result))


if __name__ == "__main__":
    main()
