"""Decisions per second of Revolution!'s batched numpy path beside a bare-Python floor.

    python benchmarks/revolution_batch.py [--games 20000] [--players 4] [--json]

The floor is a toy simultaneous game in one plain loop: each player draws a bid with
``random.randrange``, the highest single bid scores. It costs about as little as a Python decision
can. The batch (:func:`tricolore.games.revolution.batch.play`, random strategy, writing no records)
is timed in the same run, for each edition; the ratio is batch decisions per second over the
floor's. One bid by one player is one decision.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

from tricolore.games.revolution import batch


def floor(players: int, decisions: int) -> float:
    """Seconds per decision of the toy simultaneous game."""
    rng = random.Random(1)
    scores = [0] * players
    bids = [0] * players
    done = 0
    start = time.perf_counter()
    while done < decisions:
        for seat in range(players):
            bids[seat] = rng.randrange(5)
        done += players
        best = max(bids)
        if bids.count(best) == 1:
            scores[bids.index(best)] += 1
    return (time.perf_counter() - start) / done


def main() -> None:
    """Measure and print (or print as JSON) the floor and the batch per edition."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    batch.play(200, args.players)  # builds the bid tables once
    rows: list[dict[str, Any]] = []
    for edition in ("seed", "sjg"):
        base = floor(args.players, 1_000_000)
        out = batch.play(args.games, args.players, seed=1, edition=edition)
        per = out.seconds / out.decisions
        rows.append({"edition": edition, "players": args.players, "games": args.games,
                     "decisions": out.decisions, "floor_us_per_decision": 1e6 * base,
                     "batch_us_per_decision": 1e6 * per, "batch_decisions_per_s": 1 / per,
                     "ratio_to_floor": base / per})
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    for r in rows:
        print(f"{r['edition']:>5}: floor {r['floor_us_per_decision']:.3f} us/decision, batch "
              f"{r['batch_us_per_decision']:.3f} us/decision ({r['batch_decisions_per_s']:,.0f}/s), "
              f"{r['ratio_to_floor']:.1f} x the floor")


if __name__ == "__main__":
    main()
