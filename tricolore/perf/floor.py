"""The bare-Python floor: a toy simultaneous game written as one plain loop.

Six players; each round every player picks one of three tiles (numbered 1, 2 and 3) uniformly at
random, other than the tile it picked the round before; a tile picked by at most two players
scores its number of points to each player who picked it; the game ends at the end of the round
in which a player reaches 15 points. One pick is one decision.

It is the yardstick every figure of the benchmark is divided by: as fast as idiomatic Python
allows without tricks (one loop, plain lists and a ``random.Random``), so that a ratio to it says
how much an engine spends per decision beyond drawing a legal move and keeping score, whatever
machine the benchmark runs on. It has no rules engine, no objects per move and no validation, on
purpose: the engine's figures are expected to be a fraction of it, never above it.
"""

from __future__ import annotations

import random
import time

PLAYERS = 6
TARGET = 15
ALLOWED = ((1, 2, 3), (2, 3), (1, 3), (1, 2))
"""The tiles a player may pick, by the tile it picked last round (0: none yet, the first round)."""


def play(rng: random.Random, players: int = PLAYERS, target: int = TARGET) -> int:
    """Play one game of the floor with ``rng``; return the number of decisions (picks) made."""
    scores = [0] * players
    last = [0] * players
    decisions = 0
    choice = rng.choice
    while max(scores) < target:
        picked = [0, 0, 0, 0]  # how many players picked each tile this round (index 0 unused)
        for p in range(players):
            tile = choice(ALLOWED[last[p]])
            last[p] = tile
            picked[tile] += 1
        for p in range(players):
            tile = last[p]
            if picked[tile] <= 2:
                scores[p] += tile
        decisions += players
    return decisions


def state_bytes() -> int:
    """The memory of one floor state (its two lists of scores and last picks), as tracemalloc
    counts a copy of it: the floor's figure for the memory of a state."""
    import tracemalloc

    scores, last = [7] * PLAYERS, [2] * PLAYERS
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        kept = [(scores[:], last[:]) for _ in range(100)]
        size = (tracemalloc.get_traced_memory()[0] - before) / len(kept)
    finally:
        tracemalloc.stop()
    return round(size)


def run_for(seconds: float, rng: random.Random) -> tuple[int, int, float]:
    """Play whole games of the floor for at least ``seconds``: (games, decisions, seconds taken)."""
    games = decisions = 0
    start = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds or games == 0:
        decisions += play(rng)
        games += 1
        elapsed = time.perf_counter() - start
    return games, decisions, elapsed
