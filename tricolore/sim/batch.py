"""Batch simulation: many games between strategies, summarised per strategy.

Game ``i`` of a batch plays with seed ``seed + i``, so any single game can be replayed alone, and
the summary does not depend on how many worker processes shared the work.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tricolore.agents import make_agent
from tricolore.core.registry import get_game
from tricolore.sim.runner import play_game


@dataclass(frozen=True, slots=True)
class BatchSpec:
    """What to simulate: a game, its seats' strategies, options, and the seeds to play."""

    game: str
    seats: tuple[str, ...]
    games: int
    seed: int = 0
    options: Mapping[str, Any] = field(default_factory=dict)
    records: str | None = None

    @property
    def players(self) -> int:
        """Number of players (one per seat)."""
        return len(self.seats)


@dataclass(frozen=True, slots=True)
class GameRow:
    """One finished game."""

    seed: int
    scores: tuple[float, ...]
    winners: tuple[int, ...]
    actions: int
    metrics: Mapping[str, float]


def play_one(spec: BatchSpec, seed: int) -> GameRow:
    """Play the game of ``seed`` and, if the spec asks for records, save it with its digests."""
    game = get_game(spec.game)
    state = game.new(spec.players, seed, spec.options)
    state.record_events = False
    agents = [make_agent(game, s) for s in spec.seats]
    played = play_game(state, agents, keep_digests=spec.records is not None)
    if spec.records is not None:
        played.record.save(Path(spec.records) / f"{spec.game}-{seed}.json")
    result = state.result()
    return GameRow(seed, result.scores, tuple(sorted(result.winners)), played.actions,
                   dict(result.metrics))


def _play_chunk(spec: BatchSpec, seeds: Sequence[int]) -> list[GameRow]:
    return [play_one(spec, s) for s in seeds]


def run_rows(spec: BatchSpec, workers: int | None = None,
             progress: Callable[[int], None] | None = None) -> Iterator[GameRow]:
    """Play every game of the batch, yielding rows in seed order; ``progress`` hears each chunk.

    The game, options and strategies are checked by playing nothing before workers start.
    """
    game = get_game(spec.game)
    game.new(spec.players, spec.seed, spec.options)
    for strategy in spec.seats:
        make_agent(game, strategy)
    if spec.records is not None:
        Path(spec.records).mkdir(parents=True, exist_ok=True)
    seeds = [spec.seed + i for i in range(spec.games)]
    workers = workers or os.cpu_count() or 1
    if workers == 1 or spec.games < 20:
        for s in seeds:
            row = play_one(spec, s)
            if progress:
                progress(1)
            yield row
        return
    size = max(1, min(50, len(seeds) // (workers * 4)))
    chunks = [seeds[i:i + size] for i in range(0, len(seeds), size)]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for rows in pool.map(_play_chunk, [spec] * len(chunks), chunks):
            if progress:
                progress(len(rows))
            yield from rows


def wilson_interval(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if n == 0:
        return (0.0, 0.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def summarise(spec: BatchSpec, rows: Sequence[GameRow], interrupted: bool = False) -> dict[str, Any]:
    """Per-strategy mean score and win rate (a shared win counts as a win), mean game length, and
    the mean of every game-specific metric."""
    per: dict[str, dict[str, float]] = {}
    for row in rows:
        for seat, strategy in enumerate(spec.seats):
            s = per.setdefault(strategy, {"seat_games": 0, "score": 0.0, "wins": 0})
            s["seat_games"] += 1
            s["score"] += row.scores[seat]
            s["wins"] += seat in row.winners
    strategies = {}
    for name, s in per.items():
        n = int(s["seat_games"])
        low, high = wilson_interval(s["wins"], n)
        strategies[name] = {"seats": spec.seats.count(name), "seat_games": n,
                            "mean_score": round(s["score"] / n, 4), "wins": int(s["wins"]),
                            "win_rate": round(s["wins"] / n, 4),
                            "win_rate_95": [round(low, 4), round(high, 4)]}
    metric_names = sorted({k for r in rows for k in r.metrics})
    metrics = {k: round(sum(r.metrics.get(k, 0) for r in rows) / len(rows), 4) for k in metric_names
               } if rows else {}
    return {
        "game": spec.game, "players": spec.players, "seats": list(spec.seats),
        "options": dict(spec.options), "seed": spec.seed, "games": len(rows),
        "interrupted": interrupted,
        "mean_actions": round(sum(r.actions for r in rows) / len(rows), 2) if rows else 0,
        "mean_turns": metrics.get("turns"),
        "strategies": strategies, "metrics": metrics,
        "records": spec.records,
    }
