"""Batch simulation: many games between strategies, summarised per strategy and per seat.

Game ``i`` of a batch plays with seed ``seed + i`` and the line-up :func:`lineup` gives it, so any
single game can be replayed alone, and the rows do not depend on how many worker processes, or
which back end, shared the work.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tricolore.agents import make_agent
from tricolore.core.registry import get_game
from tricolore.sim.provenance import job_provenance
from tricolore.sim.runner import play_game


@dataclass(frozen=True, slots=True)
class BatchSpec:
    """What to simulate: a game, the strategies to seat, options, and the seeds to play.

    ``seats`` is one strategy per seat, or with ``pool`` the strategies each game's line-up is
    drawn from. With ``rotate`` (the default) seat positions turn from game to game so that every
    strategy sits in every seat equally often (exactly so over each block of ``players`` games).
    ``lineups``, when given, is the line-up of every game in order (one per game; ``seats`` then
    names the strategies they use), for jobs that choose each game's seats themselves.
    """

    game: str
    seats: tuple[str, ...]
    games: int
    seed: int = 0
    options: Mapping[str, Any] = field(default_factory=dict)
    records: str | None = None
    players_in_pool: int | None = None
    rotate: bool = True
    lineups: tuple[tuple[str, ...], ...] = ()

    @property
    def pool(self) -> bool:
        """Whether the line-ups are drawn from ``seats`` rather than given by it."""
        return self.players_in_pool is not None

    @property
    def players(self) -> int:
        """Number of players at each table."""
        if self.lineups:
            return len(self.lineups[0])
        return self.players_in_pool if self.players_in_pool is not None else len(self.seats)

    def seeds(self) -> list[int]:
        """The seed of every game of the batch, in order."""
        return [self.seed + i for i in range(self.games)]

    def lineup(self, game_seed: int) -> tuple[str, ...]:
        """The strategy in each seat for the game of ``game_seed`` (see :func:`lineup`)."""
        if self.lineups:
            return self.lineups[game_seed - self.seed]
        return lineup(
            self.seats, self.players, self.seed, game_seed - self.seed, pool=self.pool, rotate=self.rotate
        )

    def describe(self) -> dict[str, Any]:
        """The job as JSON: what a results file records so that a resumed job can be checked,
        and under ``provenance`` what else its rows depend on (the code, the rules version and
        every strategy's parameters; see :func:`~tricolore.sim.provenance.job_provenance`), which
        a resumed job need not share."""
        return {
            "game": self.game,
            "players": self.players,
            "seats": list(self.seats),
            "pool": self.pool,
            "rotate": self.rotate,
            "seed": self.seed,
            "options": dict(self.options),
            **({"lineups": [list(s) for s in self.lineups]} if self.lineups else {}),
            "provenance": job_provenance(self.game, self.seats),
        }


def lineup(
    strategies: Sequence[str], players: int, seed: int, index: int, *, pool: bool = False, rotate: bool = True
) -> tuple[str, ...]:
    """The strategy in each seat of game ``index`` of a batch.

    Games come in blocks of ``players``. A block's base line-up is ``strategies`` itself, or for
    a pool a draw from it (distinct strategies when the pool has enough, otherwise each strategy
    as often as any other, give or take one) made from ``seed`` and the block's number. Game
    ``r`` of the block seats the base line-up turned by ``r`` places, so over a block every
    strategy of the line-up sits once in every seat.

    >>> [lineup(["a", "b", "c"], 3, 0, i) for i in range(4)]
    [('a', 'b', 'c'), ('b', 'c', 'a'), ('c', 'a', 'b'), ('a', 'b', 'c')]
    """
    block, turn = divmod(index, players)
    if pool:
        rng = random.Random(f"lineup:{seed}:{block}")
        whole, extra = divmod(players, len(strategies))
        base = list(strategies) * whole + rng.sample(list(strategies), extra)
        rng.shuffle(base)
    else:
        base = list(strategies)
    if not rotate:
        return tuple(base)
    return tuple(base[(seat + turn) % players] for seat in range(players))


@dataclass(frozen=True, slots=True)
class GameRow:
    """One finished game: its seed, who sat where, and how it ended."""

    seed: int
    strategies: tuple[str, ...]
    scores: tuple[float, ...]
    winners: tuple[int, ...]
    actions: int
    metrics: Mapping[str, float]
    roles: tuple[str, ...] = ()
    """Each seat's secret side where the game has one (Culottes: grabber or revolutionary)."""


def play_one(spec: BatchSpec, seed: int) -> GameRow:
    """Play the game of ``seed`` and, if the spec asks for records, save it with its digests."""
    game = get_game(spec.game)
    state = game.new(spec.players, seed, spec.options)
    strategies = spec.lineup(seed)
    agents = [make_agent(game, s) for s in strategies]
    talkers = [a for a in agents if getattr(a, "talks", False)]
    state.record_events = bool(talkers)  # only talking agents are told the log
    played = play_game(state, agents, keep_digests=spec.records is not None)
    if spec.records is not None:
        played.record.save(Path(spec.records) / f"{spec.game}-{seed}.json")
    result = state.result()
    state.release()  # freed when this returns, not at the garbage collector's next full pass
    roles = tuple(str(b.get("role", "")) for b in result.breakdown)
    metrics = {k: float(v) for k, v in result.metrics.items()}
    if talkers:
        metrics.update(talk_metrics(talkers, len(played.chat)))
        for agent in talkers:
            if callable(close := getattr(agent, "close", None)):
                close()  # its HTTP connection
    return GameRow(
        seed,
        strategies,
        tuple(float(s) for s in result.scores),
        tuple(sorted(result.winners)),
        played.actions,
        metrics,
        roles if any(roles) else (),
    )


def talk_metrics(talkers: Sequence[object], chat_messages: int) -> dict[str, float]:
    """A game's figures for its talking agents: ``chat_messages`` said at the table, and each
    counter of their ``counters`` (language-model players: calls, retries, fallbacks, tokens,
    latency), added up over the table and prefixed ``llm_``."""
    out = {"chat_messages": float(chat_messages)}
    for agent in talkers:
        counters = getattr(agent, "counters", None)
        if counters is None:
            continue
        for key, value in counters.as_dict().items():
            out[f"llm_{key}"] = out.get(f"llm_{key}", 0.0) + float(value)
    return out


def play_chunk(spec: BatchSpec, seeds: Sequence[int]) -> list[GameRow]:
    """Play the games of ``seeds`` in order (the unit of work a worker is given)."""
    return [play_one(spec, s) for s in seeds]


def check(spec: BatchSpec) -> None:
    """Refuse a bad game, player count, options or strategy before any worker starts."""
    game = get_game(spec.game)
    game.new(spec.players, spec.seed, spec.options)
    for strategy in spec.seats:
        make_agent(game, strategy)
    if spec.records is not None:
        Path(spec.records).mkdir(parents=True, exist_ok=True)


def wilson_interval(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if n == 0:
        return (0.0, 0.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def _rate(wins: float, n: int) -> dict[str, Any]:
    low, high = wilson_interval(wins, n)
    return {
        "wins": int(wins),
        "win_rate": round(wins / n, 4) if n else 0.0,
        "win_rate_95": [round(low, 4), round(high, 4)],
    }


def summarise(spec: BatchSpec, rows: Sequence[GameRow], interrupted: bool = False) -> dict[str, Any]:
    """Per-strategy mean score and win rate (a shared win counts as a win), per-seat win rate
    whatever the strategy (the seat's own advantage), mean game length, and the mean of every
    game-specific metric."""
    per: dict[str, dict[str, float]] = {}
    seats = [{"games": 0, "wins": 0, "score": 0.0} for _ in range(spec.players)]
    for row in rows:
        for seat, strategy in enumerate(row.strategies):
            s = per.setdefault(strategy, {"seat_games": 0, "score": 0.0, "wins": 0})
            s["seat_games"] += 1
            s["score"] += row.scores[seat]
            s["wins"] += seat in row.winners
            seats[seat]["games"] += 1
            seats[seat]["wins"] += seat in row.winners
            seats[seat]["score"] += row.scores[seat]
    strategies = {}
    for name in sorted(per, key=lambda n: (spec.seats.index(n) if n in spec.seats else 0, n)):
        s = per[name]
        n = int(s["seat_games"])
        strategies[name] = {"seat_games": n, "mean_score": round(s["score"] / n, 4), **_rate(s["wins"], n)}
    by_seat = [
        {
            "seat": i + 1,
            "games": int(s["games"]),
            "mean_score": round(s["score"] / s["games"], 4) if s["games"] else 0.0,
            **_rate(s["wins"], int(s["games"])),
        }
        for i, s in enumerate(seats)
    ]
    metric_names = sorted({k for r in rows for k in r.metrics})
    metrics = (
        {k: round(sum(r.metrics.get(k, 0) for r in rows) / len(rows), 4) for k in metric_names}
        if rows
        else {}
    )
    return {
        "game": spec.game,
        "players": spec.players,
        "seats": list(spec.seats),
        "pool": spec.pool,
        "rotate": spec.rotate,
        "options": dict(spec.options),
        "seed": spec.seed,
        "games": len(rows),
        "interrupted": interrupted,
        "mean_actions": round(sum(r.actions for r in rows) / len(rows), 2) if rows else 0,
        "mean_turns": metrics.get("turns"),
        "strategies": strategies,
        "by_seat": by_seat,
        "metrics": metrics,
        "records": spec.records,
    }


def in_seed_order(rows: Iterable[GameRow]) -> list[GameRow]:
    """Rows sorted by seed, one per seed (the last one wins if a seed was played twice)."""
    return sorted({r.seed: r for r in rows}.values(), key=lambda r: r.seed)
