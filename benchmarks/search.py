"""IS-MCTS speed in every registered game: iterations per second and the cost of one decision.

    python benchmarks/search.py [--positions 20] [--iterations 100] [--games 0] [--json]

For each game it plays random games at the usual table size, keeps positions where the seat to act
has a choice, and times a search of ``--iterations`` iterations from each (through
``tricolore.agents.decide``, as a driver asks a bot). It prints iterations per second and
milliseconds per decision. With ``--games N`` it also plays N whole games of IS-MCTS (the same
budget, seats in turn) against random players and prints its win rate beside random's share.
Figures only: nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

import tricolore
from tricolore.agents import RandomAgent, decide
from tricolore.agents.search import Budget, ISMCTSAgent
from tricolore.core import State
from tricolore.sim.runner import play_game

PLAYERS = {"culottes": 5, "culottes-trials": 5, "let-them-eat-cake": 5, "revolution": 4,
           "bread-and-circuses": 6}


def positions(name: str, players: int, count: int) -> list[State]:
    """``count`` positions of random games where the seat to act has more than one move."""
    game = tricolore.get_game(name)
    rng = random.Random(1)
    found: list[State] = []
    seed = 0
    while len(found) < count:
        state = game.new(players, seed)
        seed += 1
        while not state.is_over() and len(found) < count:
            seat = min(state.pending())
            legal = state.legal_actions(seat)
            if rng.random() < 0.05 and (len(legal.families) > 1 or any(legal.families[0].params)):
                found.append(state.clone())
            state.apply(seat, legal.sample(rng))
    return found


def speed(name: str, players: int, count: int, iterations: int) -> dict[str, Any]:
    """Time one search of ``iterations`` from each of ``count`` positions."""
    done = 0
    searched = 0
    elapsed = 0.0
    for i, state in enumerate(positions(name, players, count)):
        agent = ISMCTSAgent(Budget(iterations=iterations))
        start = time.perf_counter()
        decide(agent, state, min(state.pending()), random.Random(i))
        elapsed += time.perf_counter() - start
        done += agent.last.iterations
        searched += agent.last.iterations > 0
    return {"game": name, "players": players, "decisions": searched, "iterations": done,
            "iterations_per_s": done / elapsed, "ms_per_decision": 1000 * elapsed / max(1, searched)}


def strength(name: str, players: int, games: int, iterations: int) -> dict[str, Any]:
    """IS-MCTS against random players over ``games`` whole games, its seat going round the table."""
    game = tricolore.get_game(name)
    wins = 0.0
    spent = 0.0
    for seed in range(games):
        seat = seed % players
        agents: list[Any] = [RandomAgent() for _ in range(players)]
        agents[seat] = ISMCTSAgent(Budget(iterations=iterations))
        state = game.new(players, seed)
        state.record_events = False
        start = time.perf_counter()
        result = play_game(state, agents).state.result()
        spent += time.perf_counter() - start
        if seat in result.winners:
            wins += 1 / len(result.winners)
    return {"game": name, "players": players, "games": games, "win_rate": wins / games,
            "random_share": 1 / players, "s_per_game": spent / games}


def main() -> None:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--games", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    names = [info.name for info in tricolore.list_games()]
    rows = [speed(n, PLAYERS.get(n, 3), args.positions, args.iterations) for n in names]
    wins = [strength(n, PLAYERS.get(n, 3), args.games, args.iterations) for n in names] if args.games else []
    if args.json:
        print(json.dumps({"speed": rows, "strength": wins}, indent=2))
        return
    print(f"{'game':22} {'players':>7} {'iterations/s':>13} {'ms/decision':>12}"
          f"   ({args.iterations} iterations per decision, {args.positions} positions)")
    for r in rows:
        print(f"{r['game']:22} {r['players']:7} {r['iterations_per_s']:13.0f} {r['ms_per_decision']:12.1f}")
    if wins:
        print(f"\n{'game':22} {'players':>7} {'IS-MCTS wins':>13} {'random share':>13} {'s/game':>8}"
              f"   ({args.games} games against random players)")
        for w in wins:
            print(f"{w['game']:22} {w['players']:7} {w['win_rate']:13.2f} {w['random_share']:13.2f} "
                  f"{w['s_per_game']:8.1f}")


if __name__ == "__main__":
    main()
