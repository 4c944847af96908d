"""Random-play throughput of every registered game, beside OpenSpiel's games in the same run.

    python benchmarks/playout.py [--games 300] [--json]

For each game it plays random games through the public API (``pending``, ``legal_actions``,
``sample``, ``apply``, events off, as a simulation runs) and prints microseconds per decision,
decisions per second and games per second, then the cost of the other operations per call at
positions met on the way (``view``, ``clone``, ``determinize``, ``digest``) and the memory of one
state. With ``open_spiel`` installed (``pip install -e '.[bench]'``) it plays random games of
OpenSpiel's Python-implemented games and of their C++ twins with the same loop, and prints each of
our games' cost per decision as a ratio to each peer's, all measured in this run.
"""

from __future__ import annotations

import argparse
import json
import random
import time
import tracemalloc
from typing import Any

import tricolore
from tricolore.core import State

PLAYERS = {"culottes": 5, "culottes-trials": 5, "let-them-eat-cake": 5, "revolution": 4,
           "bread-and-circuses": 6}
PEERS = ("python_liars_poker", "python_kuhn_poker", "kuhn_poker", "liars_dice")


def playouts(name: str, players: int, games: int) -> dict[str, Any]:
    """Time random games of ``name``; sample positions for the per-operation costs."""
    game = tricolore.get_game(name)
    rng = random.Random(1)
    positions: list[State] = []
    actions = 0
    start = time.perf_counter()
    for seed in range(games):
        state = game.new(players, seed)
        state.record_events = False
        while not state.is_over():
            seat = min(state.pending())
            state.apply(seat, state.legal_actions(seat).sample(rng))
            actions += 1
            if actions % 97 == 0 and len(positions) < 200 and not state.is_over():
                positions.append(state.clone())
    elapsed = time.perf_counter() - start
    out: dict[str, Any] = {"game": name, "players": players, "games": games, "decisions": actions,
                           "us_per_decision": 1e6 * elapsed / actions,
                           "decisions_per_s": actions / elapsed, "games_per_s": games / elapsed}
    ops = {
        "legal_actions_us": lambda s: s.legal_actions(min(s.pending())),
        "view_us": lambda s: s.view(0),
        "clone_us": lambda s: s.clone(),
        "determinize_us": lambda s: s.determinize(0, rng),
        "digest_us": lambda s: s.digest(),
    }
    for label, op in ops.items():
        t = time.perf_counter()
        for s in positions:
            op(s)
        out[label] = 1e6 * (time.perf_counter() - t) / max(1, len(positions))
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    kept = [s.clone() for s in positions]
    out["state_kib"] = (tracemalloc.get_traced_memory()[0] - base) / 1024 / max(1, len(kept))
    tracemalloc.stop()
    return out


def peer_playouts(name: str, games: int) -> dict[str, Any] | None:
    """The same random loop over an OpenSpiel game, or ``None`` without OpenSpiel."""
    try:
        import pyspiel
        from open_spiel.python import games as _python_games  # noqa: F401  registers python_* games
    except ImportError:
        return None
    game = pyspiel.load_game(name)
    rng = random.Random(1)
    actions = 0
    start = time.perf_counter()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probs)[0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
            actions += 1
    elapsed = time.perf_counter() - start
    return {"game": f"open_spiel:{name}", "games": games, "decisions": actions,
            "us_per_decision": 1e6 * elapsed / actions, "decisions_per_s": actions / elapsed,
            "games_per_s": games / elapsed}


def main() -> None:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    ours = [playouts(info.name, PLAYERS.get(info.name, info.min_players), args.games)
            for info in tricolore.list_games()]
    peers = [p for p in (peer_playouts(name, args.games * 10) for name in PEERS) if p]
    ratios = {f"{o['game']} / {p['game']}": o["us_per_decision"] / p["us_per_decision"]
              for o in ours for p in peers}
    if args.json:
        print(json.dumps({"ours": ours, "peers": peers, "ratios": ratios}, indent=2))
        return
    print(f"{'game':28} {'us/decision':>12} {'decisions/s':>12} {'games/s':>9}")
    for row in ours + peers:
        print(f"{row['game']:28} {row['us_per_decision']:12.1f} {row['decisions_per_s']:12.0f} "
              f"{row['games_per_s']:9.1f}")
    print()
    print(f"{'game':28} {'legal':>8} {'view':>8} {'clone':>8} {'determ.':>8} {'digest':>8} {'KiB':>6}"
          "   (microseconds per call, memory per state)")
    for o in ours:
        print(f"{o['game']:28} {o['legal_actions_us']:8.1f} {o['view_us']:8.1f} {o['clone_us']:8.1f} "
              f"{o['determinize_us']:8.1f} {o['digest_us']:8.1f} {o['state_kib']:6.1f}")
    if ratios:
        print("\ncost per decision, ours / peer (same run):")
        for k, v in ratios.items():
            print(f"  {k:55} {v:6.2f}x")
    else:
        print("\n(no peers: pip install -e '.[bench]' to measure OpenSpiel beside us)")


if __name__ == "__main__":
    main()
