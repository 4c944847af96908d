"""The empirical game of a set of strategies (empirical game-theoretic analysis).

A symmetric game of ``players`` seats is reduced to its *heuristic payoff table*: for every profile
(a count vector over the strategies that sums to ``players``, one per multiset of strategies at the
table) the mean payoff of each strategy present, with its standard error and its number of
seat-games. The table is played as one simulation batch per profile (:class:`BatchSpec` with the
profile's seats, turned from game to game so every strategy of the profile sits in every seat
alike) and every profile plays the same seeds, so two profiles are compared on the same dice
(common random numbers).

A seat's payoff is, by default, its share of the win: ``1/k`` to each of the ``k`` winners of a
game, 0 to every other seat (a game nobody wins pays nobody). ``payoff="score"`` takes the seat's
final score instead. A strategy's payoff in one game is the mean over its seats in that game, and
its standard error is taken over games: the seats of one strategy at one table are not independent.

On the table: :meth:`EmpiricalGame.deviation_payoffs` (the expected payoff of each strategy when
the other ``players - 1`` seats are drawn from a mixture), :func:`equilibrium` (a symmetric Nash
equilibrium, with its regret to say how approximate it is), :func:`replicator` (replicator
dynamics, with OpenSpiel's ``dynamics.replicator``), :func:`alpha_rank` (α-Rank, OpenSpiel's for two
players) and :func:`bootstrap` (intervals for all of them, games resampled).

The table is built from rows alone (:func:`from_rows`, :func:`load`), so a finished run can be
analysed again from its Parquet files.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
import math
import os
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray
from open_spiel.python.egt import alpharank, dynamics, heuristic_payoff_table
from scipy import optimize
from scipy.special import gammaln, logsumexp
from scipy.stats import hypergeom

from tricolore.agents import canonical_strategy, make_agent
from tricolore.core.errors import OptionsError
from tricolore.core.registry import get_game
from tricolore.sim import backends
from tricolore.sim.batch import BatchSpec, GameRow
from tricolore.sim.jobs import run_job, stopping
from tricolore.sim.results import job_of, read, rows_of

Profile = tuple[int, ...]
"""How many seats play each strategy, in the order of the game's strategies."""

Vector = NDArray[np.float64]

PAYOFFS = ("win", "score")
"""What a seat's payoff is: its share of the win, or its final score."""

GAMES_PER_PROFILE = 200
"""Games played per profile unless told otherwise, when the profiles are few (see
:func:`default_games`)."""

GAMES_BUDGET = 50_000
"""Most games a run plays by default: with many profiles each gets fewer games (Culottes' nine
named strategies at five players make 1,287 profiles, 40 games each)."""

QUICK_GAMES = 2_000
"""Most games a smoke run plays: one turn of the seats per profile, or one game when that is
more."""

ALPHA = 20.0
"""α-Rank's selection intensity, applied to payoffs rescaled so the table spans 0 to 1. With the
population of :data:`POPULATION`, a mutant ahead by 1% of the table's span is about e^10 times
likelier to take over than a neutral one, while differences far below that (noise) are close to
neutral: α-Rank's strong-selection ranking for every difference the games can resolve."""

POPULATION = 50
"""α-Rank's population size ``m`` (OpenSpiel's default)."""

RESAMPLES = 200
"""Bootstrap resamples unless told otherwise."""

PROFILES_FOLDER = "profiles"
"""Where :func:`build` keeps each profile's rows, inside its folder."""


def profiles(n_strategies: int, players: int) -> list[Profile]:
    """Every profile of ``players`` seats over ``n_strategies`` strategies: every count vector
    summing to ``players``, ``C(n_strategies + players - 1, players)`` of them, in a fixed order.

    >>> profiles(2, 2)
    [(2, 0), (1, 1), (0, 2)]
    """
    if n_strategies < 1 or players < 1:
        raise OptionsError("an empirical game needs at least one strategy and one player")
    out = []
    for seats in itertools.combinations_with_replacement(range(n_strategies), players):
        counts = [0] * n_strategies
        for s in seats:
            counts[s] += 1
        out.append(tuple(counts))
    return out


@dataclass(frozen=True, slots=True)
class ProfileGames:
    """The games of one profile: the seed of each game, and per game (rows) and strategy (columns)
    the mean payoff of the strategy's seats in that game (NaN for a strategy not at the table)."""

    seeds: NDArray[np.int64]
    values: Vector


def payoffs_of(row: GameRow, payoff: str = "win") -> list[float]:
    """Each seat's payoff in one game: its share of the win (``1/k`` to each of ``k`` winners, 0
    otherwise) or, with ``payoff="score"``, its score."""
    if payoff == "score":
        return [float(s) for s in row.scores]
    share = 1.0 / len(row.winners) if row.winners else 0.0
    return [share if seat in row.winners else 0.0 for seat in range(len(row.strategies))]


def _check_payoff(payoff: str) -> None:
    if payoff not in PAYOFFS:
        raise OptionsError(f"the payoff must be one of {', '.join(PAYOFFS)}; you gave {payoff!r}")


@dataclass(slots=True)
class EmpiricalGame:
    """The heuristic payoff table of a symmetric game: ``strategies`` (canonical strategy texts)
    at tables of ``players`` seats, and every profile's games.

    Derived on construction, one row per profile in the order of :func:`profiles`: ``counts``
    (the profiles), ``means`` (each strategy's mean payoff, NaN where it is absent), ``errors``
    (standard errors of those means over games; NaN with a single game) and ``seat_games``.
    """

    game: str
    players: int
    strategies: tuple[str, ...]
    played: Mapping[Profile, ProfileGames]
    options: Mapping[str, Any] = field(default_factory=dict)
    payoff: str = "win"
    seed: int = 0
    counts: NDArray[np.int64] = field(init=False)
    means: Vector = field(init=False)
    errors: Vector = field(init=False)
    seat_games: NDArray[np.int64] = field(init=False)
    _others: NDArray[np.int64] = field(init=False, repr=False)
    _coefficients: Vector = field(init=False, repr=False)
    _deviation: Vector = field(init=False, repr=False)

    def __post_init__(self) -> None:
        _check_payoff(self.payoff)
        if len(set(self.strategies)) != len(self.strategies):
            raise OptionsError("an empirical game names each strategy once")
        every = profiles(len(self.strategies), self.players)
        missing = [p for p in every if p not in self.played]
        if missing:
            raise OptionsError(
                f"the empirical game lacks {len(missing)} of its {len(every)} profiles, "
                f"e.g. {self.describe(missing[0])}; play them before analysing the table"
            )
        n = len(self.strategies)
        self.counts = np.array(every, dtype=np.int64)
        self.means = np.full((len(every), n), np.nan)
        self.errors = np.full((len(every), n), np.nan)
        self.seat_games = np.zeros((len(every), n), dtype=np.int64)
        for i, p in enumerate(every):
            games = self.played[p]
            present = self.counts[i] > 0
            if games.values.ndim != 2 or games.values.shape[1] != n or len(games.values) == 0:
                raise OptionsError(
                    f"the profile {self.describe(p)} has no games, or not one value per strategy"
                )
            values = games.values[:, present]
            self.means[i, present] = values.mean(axis=0)
            if len(values) > 1:
                self.errors[i, present] = values.std(axis=0, ddof=1) / math.sqrt(len(values))
            self.seat_games[i] = self.counts[i] * len(values)
        if np.isnan(self.means[self.counts > 0]).any():
            raise OptionsError("a payoff of the empirical game is missing (NaN) for a strategy at its table")
        # What a deviation meets: every profile of the other players - 1 seats, with the payoff
        # the deviating strategy gets there, so deviation payoffs are one matrix product.
        index = {p: i for i, p in enumerate(every)}
        self._others = np.array(profiles(n, self.players - 1) if self.players > 1 else [(0,) * n])
        self._coefficients = np.exp(gammaln(self.players) - gammaln(self._others + 1).sum(axis=1))
        self._deviation = np.array(
            [[self.means[index[_plus(o, j)], j] for j in range(n)] for o in self._others]
        )

    @classmethod
    def from_function(
        cls,
        strategies: Sequence[str],
        players: int,
        payoff: Callable[[Profile], Sequence[float]],
        *,
        game: str = "",
        kind: str = "win",
    ) -> EmpiricalGame:
        """The empirical game whose every profile was played once with the payoffs ``payoff``
        gives it (one per strategy; those of absent strategies are ignored): for a game whose
        payoffs are known exactly."""
        played = {}
        for p in profiles(len(strategies), players):
            values = np.array([float(v) if c else np.nan for v, c in zip(payoff(p), p, strict=True)])
            played[p] = ProfileGames(np.zeros(1, dtype=np.int64), values[None, :])
        return cls(game, players, tuple(strategies), played, payoff=kind)

    def describe(self, profile: Profile) -> str:
        """A profile in words: ``2 × a, 3 × b``."""
        return ", ".join(f"{c} × {s}" for c, s in zip(profile, self.strategies, strict=True) if c)

    def check_mixture(self, mixture: Sequence[float] | Vector) -> Vector:
        """``mixture`` as an array, refused with a sentence unless it is a distribution over the
        strategies."""
        x = np.asarray(mixture, dtype=float)
        if x.shape != (len(self.strategies),):
            raise OptionsError(
                f"a mixture gives one weight to each of the {len(self.strategies)} strategies; "
                f"this one has shape {x.shape}"
            )
        if not np.isfinite(x).all() or (x < -1e-12).any() or abs(x.sum() - 1) > 1e-6:
            raise OptionsError("a mixture's weights must be at least 0 and add up to 1")
        return np.clip(x, 0.0, None) / np.clip(x, 0.0, None).sum()

    def _payoffs(self, x: Vector) -> Vector:
        probability = self._coefficients * np.prod(np.power(x, self._others), axis=1)
        return np.asarray(probability @ self._deviation, dtype=float)

    def deviation_payoffs(self, mixture: Sequence[float] | Vector) -> Vector:
        """The expected payoff of each strategy in one seat when the other ``players - 1`` seats
        are drawn independently from ``mixture``.

        (OpenSpiel's ``PayoffTable.expected_payoff`` is another quantity: a strategy's payoff given
        that it is at the table, which weights its tables by how many seats it holds.)"""
        return self._payoffs(self.check_mixture(mixture))

    def value(self, mixture: Sequence[float] | Vector) -> float:
        """A seat's expected payoff when every seat plays ``mixture``."""
        x = self.check_mixture(mixture)
        return float(x @ self._payoffs(x))

    def regrets(self, mixture: Sequence[float] | Vector) -> Vector:
        """What each pure strategy gains over ``mixture``'s value when the other seats play
        ``mixture`` (negative: it loses)."""
        x = self.check_mixture(mixture)
        u = self._payoffs(x)
        return u - x @ u

    def exploitability(self, mixture: Sequence[float] | Vector) -> float:
        """The best deviation's gain over ``mixture``: the largest regret (0 at an equilibrium)."""
        return max(0.0, float(self.regrets(mixture).max()))

    def nash_conv(self, mixture: Sequence[float] | Vector) -> float:
        """NashConv as OpenSpiel defines it: the sum over players of what each gains by its best
        deviation; in this symmetric game, ``players`` times :meth:`exploitability`."""
        return self.players * self.exploitability(mixture)

    def matrix(self) -> Vector:
        """``[i, j]``: the payoff of one seat playing strategy ``i`` when every other seat plays
        ``j`` (the two-player payoff matrix when ``players`` is 2)."""
        n = len(self.strategies)
        index = {tuple(int(c) for c in p): i for i, p in enumerate(self.counts)}
        out = np.empty((n, n))
        for i in range(n):
            for j in range(n):
                p = [0] * n
                p[j] += self.players - 1
                p[i] += 1
                out[i, j] = self.means[index[tuple(p)], i]
        return out

    def span(self) -> float:
        """The range of the table's payoffs (1 when every payoff is the same)."""
        present = self.means[self.counts > 0]
        width = float(present.max() - present.min())
        return width if width > 0 else 1.0

    def payoff_table(self) -> heuristic_payoff_table.PayoffTable:
        """The table as OpenSpiel's heuristic payoff table (absent strategies' payoffs 0)."""
        return heuristic_payoff_table.from_heuristic_payoff_table(
            np.hstack([self.counts.astype(float), np.nan_to_num(self.means)])
        )

    def games_played(self) -> int:
        """Games behind the table (a game counted once per profile it was played for)."""
        return int(sum(len(g.seeds) for g in self.played.values()))

    def resampled(self, rng: np.random.Generator, *, paired: bool) -> EmpiricalGame:
        """The same game with every profile's games drawn again with replacement; ``paired``
        draws the same seeds for every profile (for games played on common seeds)."""
        played = {}
        first = next(iter(self.played.values()))
        shared = rng.integers(0, len(first.seeds), len(first.seeds)) if paired else None
        for p, games in self.played.items():
            pick = shared if shared is not None else rng.integers(0, len(games.seeds), len(games.seeds))
            played[p] = ProfileGames(games.seeds[pick], games.values[pick])
        return EmpiricalGame(
            self.game, self.players, self.strategies, played, self.options, self.payoff, self.seed
        )

    def common_seeds(self) -> bool:
        """Whether every profile was played on the same seeds, in the same order."""
        first = next(iter(self.played.values())).seeds
        return all(np.array_equal(g.seeds, first) for g in self.played.values())


def _plus(profile: Sequence[int], strategy: int) -> Profile:
    out = [int(c) for c in profile]
    out[strategy] += 1
    return tuple(out)


# --- playing the table ---------------------------------------------------------------------------


def lineup_of(strategies: Sequence[str], profile: Profile) -> tuple[str, ...]:
    """The seats of a profile's batch: each strategy as many times as the profile counts it, in
    the order of ``strategies`` (the batch turns them from seat to seat)."""
    return tuple(s for s, c in zip(strategies, profile, strict=True) for _ in range(c))


def profile_file(folder: Path, seats: Sequence[str]) -> Path:
    """Where a profile's rows are kept: named by a digest of its seats, so a profile keeps its
    file when strategies are added."""
    digest = hashlib.sha256(json.dumps(sorted(seats)).encode()).hexdigest()[:16]
    return folder / PROFILES_FOLDER / f"{digest}.parquet"


def rounded_games(games: int, players: int) -> int:
    """``games`` rounded up to whole turns of the seats (a multiple of ``players``), so every
    strategy of a profile sits in every seat equally often. Fewer games than ``players`` cannot
    give every seat its turn and stay as they are (a smoke run's single game per profile)."""
    if games < 1:
        raise OptionsError("an empirical game plays at least one game per profile")
    return games if games < players else -(-games // players) * players


def default_games(n_profiles: int, players: int) -> int:
    """Games per profile unless told otherwise: :data:`GAMES_PER_PROFILE`, fewer when the profiles
    are so many that the run would pass :data:`GAMES_BUDGET`, never less than one turn of the
    seats."""
    return rounded_games(max(players, min(GAMES_PER_PROFILE, GAMES_BUDGET // max(1, n_profiles))), players)


def quick_games(n_profiles: int, players: int) -> int:
    """Games per profile of a smoke run: one turn of the seats, or a single game when the
    profiles are so many that the run would pass :data:`QUICK_GAMES`."""
    return players if n_profiles * players <= QUICK_GAMES else 1


def canonical_strategies(game: str, strategies: Sequence[str]) -> tuple[str, ...]:
    """``strategies`` written the one way, each checked; refused with a sentence when one is
    unknown, malformed or named twice."""
    g = get_game(game)
    names = tuple(canonical_strategy(g, s.strip()) for s in strategies)
    for name in names:
        make_agent(g, name)
    if len(set(names)) != len(names):
        twice = next(n for n in names if names.count(n) > 1)
        raise OptionsError(f"the strategy {twice} is named twice; name each strategy once")
    if not names:
        raise OptionsError("an empirical game needs at least one strategy")
    return names


def _play(
    game: str,
    strategies: tuple[str, ...],
    players: int,
    wanted: Sequence[Profile],
    *,
    games_per_profile: int,
    seed: int,
    options: Mapping[str, Any],
    backend: str,
    workers: int | None,
    address: str | None,
    folder: Path | None,
    progress: Callable[[int], None] | None,
) -> dict[Profile, list[GameRow]]:
    """Play the batch of every wanted profile (resuming any kept in ``folder``).

    On this machine with several workers, profiles are shared out whole, each played in one
    worker process (a profile's batch is often too short to split); on Ray, each profile's games
    are spread over the cluster in turn."""
    games = rounded_games(games_per_profile, players)
    get_game(game).new(players, seed, options)  # the player count and options, checked first
    jobs: dict[Profile, tuple[BatchSpec, Path | None]] = {}
    for p in wanted:
        seats = lineup_of(strategies, p)
        path = profile_file(folder, seats) if folder is not None else None
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
        jobs[p] = (BatchSpec(game, seats, games, seed, dict(options), rotate=True), path)
    if backend == "local" and address is None and (workers or os.cpu_count() or 1) > 1 and len(jobs) > 1:
        return _play_shared(jobs, workers or os.cpu_count() or 1, progress)
    out: dict[Profile, list[GameRow]] = {}
    with backends.ray_session(backend, address, workers):
        for p, (spec, path) in jobs.items():
            finished = run_job(
                spec,
                backend=backend,
                workers=workers,
                address=address,
                out=path,
                resume=True,
                progress=progress,
            )
            if finished.interrupted:
                raise KeyboardInterrupt
            out[p] = finished.rows
    return out


def play_profile(spec: BatchSpec, path: Path | None) -> list[GameRow]:
    """One profile's batch, played in this process and kept at ``path`` (the work a worker of
    :func:`build` is given)."""
    finished = run_job(spec, workers=1, out=path, resume=True)
    if finished.interrupted:
        raise KeyboardInterrupt
    return finished.rows


def _play_shared(
    jobs: Mapping[Profile, tuple[BatchSpec, Path | None]],
    workers: int,
    progress: Callable[[int], None] | None,
) -> dict[Profile, list[GameRow]]:
    out: dict[Profile, list[GameRow]] = {}
    with stopping() as stop:
        pool = ProcessPoolExecutor(
            max_workers=workers, initializer=backends.start_worker, initargs=(os.getpid(),)
        )
        complete = False
        try:
            running = {pool.submit(play_profile, spec, path): p for p, (spec, path) in jobs.items()}
            for future in as_completed(running):
                rows = future.result()
                out[running[future]] = rows
                if progress:
                    progress(len(rows))
                stop.check()
            complete = True
        finally:
            if not complete:
                backends.stop_workers(pool)  # a profile cut short resumes from its journal
            pool.shutdown(wait=True, cancel_futures=True)
    return out


def _games_of(rows: Sequence[GameRow], strategies: Sequence[str], payoff: str) -> ProfileGames:
    column = {s: i for i, s in enumerate(strategies)}
    values = np.full((len(rows), len(strategies)), np.nan)
    for g, row in enumerate(rows):
        sums: dict[int, list[float]] = {}
        for seat, value in enumerate(payoffs_of(row, payoff)):
            sums.setdefault(column[row.strategies[seat]], []).append(value)
        for j, vs in sums.items():
            values[g, j] = sum(vs) / len(vs)
    return ProfileGames(np.array([r.seed for r in rows], dtype=np.int64), values)


def build(
    game: str,
    strategies: Sequence[str],
    players: int,
    *,
    games_per_profile: int = GAMES_PER_PROFILE,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    payoff: str = "win",
    backend: str = "local",
    workers: int | None = None,
    address: str | None = None,
    folder: Path | None = None,
    progress: Callable[[int], None] | None = None,
) -> EmpiricalGame:
    """Play every profile of ``strategies`` at tables of ``players`` and return the table.

    Each profile is a batch of ``games_per_profile`` games (rounded up to a multiple of
    ``players``, see :func:`rounded_games`) on seeds ``seed, seed + 1, ...``, the same for every
    profile, played by :func:`~tricolore.sim.jobs.run_job` on ``backend``. With ``folder``, each
    batch's rows are kept in ``folder/profiles/`` as it finishes, and a run started again resumes
    where it stopped. ``progress`` hears the number of games each finished chunk adds. An
    interrupted run (Ctrl-C) raises ``KeyboardInterrupt`` once its finished games are kept.
    """
    _check_payoff(payoff)
    options = dict(options or {})
    names = canonical_strategies(game, strategies)
    rows = _play(
        game,
        names,
        players,
        profiles(len(names), players),
        games_per_profile=games_per_profile,
        seed=seed,
        options=options,
        backend=backend,
        workers=workers,
        address=address,
        folder=folder,
        progress=progress,
    )
    played = {p: _games_of(r, names, payoff) for p, r in rows.items()}
    return EmpiricalGame(game, players, names, played, options, payoff, seed)


def extend(
    eg: EmpiricalGame,
    new_strategy: str,
    *,
    games_per_profile: int | None = None,
    backend: str = "local",
    workers: int | None = None,
    address: str | None = None,
    folder: Path | None = None,
    progress: Callable[[int], None] | None = None,
) -> EmpiricalGame:
    """``eg`` with ``new_strategy`` added: only the profiles that seat it are played (on the same
    seeds as the others), and the new strategy is the last. ``games_per_profile`` defaults to the
    number of games of ``eg``'s profiles."""
    (name,) = canonical_strategies(eg.game, [new_strategy])
    if name in eg.strategies:
        raise OptionsError(f"the empirical game already has the strategy {name}")
    names = (*eg.strategies, name)
    games = games_per_profile or len(next(iter(eg.played.values())).seeds)
    wanted = [p for p in profiles(len(names), eg.players) if p[-1] > 0]
    rows = _play(
        eg.game,
        names,
        eg.players,
        wanted,
        games_per_profile=games,
        seed=eg.seed,
        options=eg.options,
        backend=backend,
        workers=workers,
        address=address,
        folder=folder,
        progress=progress,
    )
    played: dict[Profile, ProfileGames] = {}
    for p, games_of in eg.played.items():
        values = np.hstack([games_of.values, np.full((len(games_of.values), 1), np.nan)])
        played[(*p, 0)] = ProfileGames(games_of.seeds, values)
    for p, r in rows.items():
        played[p] = _games_of(r, names, eg.payoff)
    return EmpiricalGame(eg.game, eg.players, names, played, eg.options, eg.payoff, eg.seed)


def from_rows(
    rows: Iterable[GameRow],
    *,
    game: str,
    players: int,
    strategies: Sequence[str] | None = None,
    options: Mapping[str, Any] | None = None,
    payoff: str = "win",
    seed: int = 0,
) -> EmpiricalGame:
    """The empirical game of finished games' rows, grouped by the multiset of strategies at each
    table. ``strategies`` fixes their order (default: as first seen); a row seating another
    strategy, or of another table size, is refused."""
    _check_payoff(payoff)
    rows = list(rows)
    names = (
        list(strategies)
        if strategies is not None
        else list(dict.fromkeys(s for r in rows for s in r.strategies))
    )
    column = {s: i for i, s in enumerate(names)}
    grouped: dict[Profile, list[GameRow]] = {}
    for row in rows:
        if len(row.strategies) != players:
            raise OptionsError(f"a row of seed {row.seed} has {len(row.strategies)} seats, not {players}")
        unknown = [s for s in row.strategies if s not in column]
        if unknown:
            raise OptionsError(
                f"a row of seed {row.seed} seats {unknown[0]}, which is not among the strategies"
            )
        counts = Counter(column[s] for s in row.strategies)
        grouped.setdefault(tuple(counts.get(i, 0) for i in range(len(names))), []).append(row)
    played = {p: _games_of(sorted(r, key=lambda x: x.seed), names, payoff) for p, r in grouped.items()}
    return EmpiricalGame(game, players, tuple(names), played, dict(options or {}), payoff, seed)


def load(folder: Path, *, strategies: Sequence[str] | None = None, payoff: str = "win") -> EmpiricalGame:
    """The empirical game kept in ``folder`` by :func:`build` (its ``profiles/`` results files)."""
    files = sorted((folder / PROFILES_FOLDER).glob("*.parquet"))
    if not files:
        raise OptionsError(f"{folder} holds no profile results (no {PROFILES_FOLDER}/*.parquet)")
    rows: list[GameRow] = []
    job: dict[str, Any] | None = None
    for path in files:
        table = read(path)
        job = job or job_of(table)
        rows.extend(rows_of(table))
    if job is None:
        raise OptionsError(f"the results in {folder} do not say which job made them")
    return from_rows(
        rows,
        game=job["game"],
        players=int(job["players"]),
        strategies=strategies,
        options=job.get("options", {}),
        payoff=payoff,
        seed=int(job.get("seed", 0)),
    )


def _number(x: float) -> float | None:
    return None if math.isnan(x) else round(float(x), 6)


def to_json(eg: EmpiricalGame) -> dict[str, Any]:
    """The table as JSON: the game, its players, strategies, options and payoff, and for every
    profile its games and each present strategy's mean, standard error and seat-games."""
    return {
        "game": eg.game,
        "players": eg.players,
        "strategies": list(eg.strategies),
        "options": dict(eg.options),
        "payoff": eg.payoff,
        "seed": eg.seed,
        "profiles": [
            {
                "counts": [int(c) for c in counts],
                "games": len(eg.played[tuple(int(c) for c in counts)].seeds),
                "payoffs": {
                    eg.strategies[j]: {
                        "mean": _number(eg.means[i, j]),
                        "se": _number(eg.errors[i, j]),
                        "seat_games": int(eg.seat_games[i, j]),
                    }
                    for j in range(len(eg.strategies))
                    if counts[j]
                },
            }
            for i, counts in enumerate(eg.counts)
        ],
    }


# --- solving the table ---------------------------------------------------------------------------


def _flow(eg: EmpiricalGame) -> Callable[[Vector], Vector]:
    """The replicator field on the simplex, payoffs rescaled to span 1 (so time is comparable
    between tables): OpenSpiel's ``SinglePopulationDynamics`` on the payoff matrix for two
    players, and ``dynamics.replicator`` on the deviation payoffs for more."""
    span = eg.span()
    if eg.players == 2:
        a = eg.matrix() / span
        field_ = dynamics.SinglePopulationDynamics(np.stack([a, a.T]), dynamics.replicator)
        return lambda x: np.asarray(field_(x), dtype=float)
    return lambda x: np.asarray(dynamics.replicator(x, eg._payoffs(x) / span), dtype=float)


def replicator(
    eg: EmpiricalGame, start: Sequence[float] | Vector | None = None, steps: int = 2000, dt: float = 0.5
) -> Vector:
    """The replicator dynamics from ``start`` (default: uniform), integrated with fixed-step
    Runge–Kutta (order 4): ``steps + 1`` mixtures, one per ``dt``, time measured with the payoffs
    rescaled to span 1."""
    x = eg.check_mixture(start if start is not None else np.full(len(eg.strategies), 1 / len(eg.strategies)))
    if steps < 0 or dt <= 0:
        raise OptionsError("the replicator dynamics need at least 0 steps of a positive length")
    flow = _flow(eg)
    out = np.empty((steps + 1, len(x)))
    out[0] = x
    for t in range(steps):
        k1 = flow(x)
        k2 = flow(x + dt / 2 * k1)
        k3 = flow(x + dt / 2 * k2)
        k4 = flow(x + dt * k3)
        x = np.clip(x + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4), 0.0, None)
        x = x / x.sum()
        out[t + 1] = x
    return out


def _gap(eg: EmpiricalGame, x: Vector) -> float:
    x = np.clip(x, 0.0, None)
    x = x / x.sum()
    u = eg._payoffs(x)
    return float((np.clip(u - x @ u, 0.0, None) ** 2).sum())


def _polish(eg: EmpiricalGame, x: Vector) -> Vector:
    """Solve "every strategy of the support earns the same" exactly, near ``x``."""
    support = np.flatnonzero(x > 1e-6)
    if len(support) < 2:
        return x

    def equations(y: Vector) -> Vector:
        z = np.zeros(len(x))
        z[support] = y
        u = eg._payoffs(z)[support]
        return np.append(u[1:] - u[0], y.sum() - 1.0)

    solved = optimize.root(equations, x[support], method="hybr")
    if not solved.success or (solved.x < 0).any():
        return x
    z = np.zeros(len(x))
    z[support] = solved.x
    return z / z.sum()


def _local(eg: EmpiricalGame, start: Vector) -> Vector:
    n = len(start)
    scale = eg.span() ** 2
    found = optimize.minimize(
        lambda y: _gap(eg, y) / scale,
        start,
        method="SLSQP",
        bounds=[(0.0, 1.0)] * n,
        constraints=[{"type": "eq", "fun": lambda y: y.sum() - 1.0}],
        options={"ftol": 1e-16, "maxiter": 300},
    )
    x = np.clip(found.x, 0.0, None)
    x[x < 1e-9] = 0.0
    x = x / x.sum()
    polished = _polish(eg, x)
    return polished if eg.exploitability(polished) <= eg.exploitability(x) else x


def equilibrium(
    eg: EmpiricalGame,
    *,
    starts: Sequence[Sequence[float] | Vector] | None = None,
    tolerance: float = 1e-6,
    seed: int = 0,
) -> Vector:
    """A symmetric Nash equilibrium of the empirical game: a mixture no strategy gains against.

    Search: from each start in turn, minimise the squared positive regrets over the simplex
    (SLSQP), then solve the equal-payoff conditions on the support found; the first mixture whose
    :meth:`~EmpiricalGame.exploitability` is within ``tolerance`` of the table's payoff span is
    returned, else the least exploitable one found. Starts (default): the end of the replicator
    dynamics from uniform (so a stable equilibrium is preferred), uniform, every pure strategy,
    then eight mixtures drawn from ``seed``. Check how approximate the answer is with
    :meth:`~EmpiricalGame.exploitability`.
    """
    n = len(eg.strategies)
    if starts is None:
        rng = np.random.default_rng(seed)
        uniform = np.full(n, 1 / n)
        starts = [replicator(eg, uniform)[-1], uniform, *np.eye(n), *rng.dirichlet(np.ones(n), 8)]
    limit = tolerance * eg.span()
    best: Vector | None = None
    best_gain = math.inf
    for start in starts:
        x = _local(eg, eg.check_mixture(start))
        gain = eg.exploitability(x)
        if gain <= limit:
            return x
        if gain < best_gain:
            best, best_gain = x, gain
    assert best is not None
    return best


@functools.lru_cache(maxsize=16)
def _co_players(population: int, players: int) -> tuple[Vector, Vector]:
    """Row ``k - 1`` (``k`` = 1 .. population - 1 mutants): the chance that a mutant's, then a
    resident's, ``players - 1`` co-players drawn from the rest of the population hold ``j``
    mutants (column ``j``)."""
    js = np.arange(players)
    ks = np.arange(1, population)[:, None]
    mutant = hypergeom.pmf(js[None, :], population - 1, ks - 1, players - 1)
    resident = hypergeom.pmf(js[None, :], population - 1, ks, players - 1)
    return np.nan_to_num(mutant), np.nan_to_num(resident)


def fixation(eg: EmpiricalGame, *, alpha: float = ALPHA, population: int = POPULATION) -> Vector:
    """``[s, r]``: the probability that one mutant playing ``r`` takes over a population of
    ``population`` playing ``s`` (α-Rank's Fermi–Moran process, payoffs rescaled to span 1).

    A player's fitness is its expected payoff when its ``players - 1`` co-players are drawn
    without replacement from the rest of the population; for two players this is OpenSpiel's
    single-population model."""
    if population < eg.players:
        raise OptionsError(f"the α-Rank population must be at least the {eg.players} players of a table")
    n = len(eg.strategies)
    p = eg.players
    scaled = eg.means / eg.span()
    index = {tuple(int(c) for c in q): i for i, q in enumerate(eg.counts)}
    mutant, resident = _co_players(population, p)
    rho = np.zeros((n, n))
    for s in range(n):
        for r in range(n):
            if r == s:
                continue

            def table(mutants: int, r: int = r, s: int = s) -> int:
                q = [0] * n
                q[r] += mutants
                q[s] += p - mutants
                return index[tuple(q)]

            # a mutant's payoff beside j other mutants, a resident's beside j mutants
            as_mutant = np.array([scaled[table(j + 1), r] for j in range(p)])
            as_resident = np.array([scaled[table(j), s] for j in range(p)])
            exponents = np.cumsum(-alpha * (mutant @ as_mutant - resident @ as_resident))
            rho[s, r] = math.exp(-np.logaddexp(0.0, logsumexp(exponents)))
    return rho


def _stationary(rho: Vector) -> Vector:
    n = len(rho)
    c = rho / (n - 1)
    c[np.diag_indices(n)] = 1.0 - c.sum(axis=1)
    system = np.vstack([c.T - np.eye(n), np.ones(n)])
    pi, *_ = np.linalg.lstsq(system, np.append(np.zeros(n), 1.0), rcond=None)
    pi = np.clip(pi, 0.0, None)
    return np.asarray(pi / pi.sum(), dtype=float)


def alpha_rank(eg: EmpiricalGame, *, alpha: float = ALPHA, population: int = POPULATION) -> Vector:
    """α-Rank's mass on each strategy (Omidshafiei et al. 2019): the stationary distribution of
    the single-population Markov chain over monomorphic populations, with :func:`fixation`'s
    probabilities. Two-player tables are ranked by OpenSpiel's ``alpharank.compute`` itself (on
    the table rescaled to span 1, without the local selection model); larger tables by the same
    process with co-players drawn from the population."""
    n = len(eg.strategies)
    if n == 1:
        return np.ones(1)
    if eg.players == 2:
        scaled = np.hstack([eg.counts.astype(float), np.nan_to_num(eg.means) / eg.span()])
        table = heuristic_payoff_table.from_heuristic_payoff_table(scaled)
        try:
            _, _, pi, _, _ = alpharank.compute(
                [table], m=population, alpha=alpha, use_local_selection_model=False
            )
            return np.asarray(pi, dtype=float)
        except ValueError:  # a chain OpenSpiel's eigen-solver finds reducible at this alpha
            pass
    return _stationary(fixation(eg, alpha=alpha, population=population))


# --- intervals -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Bootstrap:
    """Percentile intervals over resampled games: per strategy, ``(low, high)`` arrays for the
    equilibrium mixture, each strategy's regret against it and α-Rank's masses, and the interval
    of the point equilibrium's exploitability in the resampled tables (is it still close to an
    equilibrium once the noise is shaken?)."""

    resamples: int
    paired: bool
    equilibrium: tuple[Vector, Vector]
    regrets: tuple[Vector, Vector]
    alpha_rank: tuple[Vector, Vector]
    exploitability: tuple[float, float]


def bootstrap(
    eg: EmpiricalGame,
    *,
    resamples: int = RESAMPLES,
    seed: int = 0,
    point: Vector | None = None,
    alpha: float = ALPHA,
    population: int = POPULATION,
    confidence: float = 0.95,
) -> Bootstrap:
    """Resample every profile's games with replacement ``resamples`` times (the same seeds for
    every profile when all were played on common seeds, keeping their pairing), solve each
    resampled table again and take percentile intervals. The search in a resample starts from
    ``point`` (default: :func:`equilibrium` of ``eg``), so it follows that equilibrium where the
    table has several. Deterministic for a given ``seed``."""
    if resamples < 1:
        raise OptionsError("a bootstrap needs at least one resample")
    n = len(eg.strategies)
    point = equilibrium(eg) if point is None else eg.check_mixture(point)
    rng = np.random.default_rng(seed)
    paired = eg.common_seeds()
    mixtures, regrets, masses, gains = [], [], [], []
    starts = [point, np.full(n, 1 / n), *np.eye(n)]
    for _ in range(resamples):
        again = eg.resampled(rng, paired=paired)
        x = equilibrium(again, starts=starts)
        mixtures.append(x)
        regrets.append(again.regrets(x))
        masses.append(
            _stationary(fixation(again, alpha=alpha, population=population)) if n > 1 else np.ones(1)
        )
        gains.append(again.exploitability(point))
    tail = (1 - confidence) / 2 * 100

    def interval(samples: list[Vector]) -> tuple[Vector, Vector]:
        stacked = np.array(samples)
        return np.percentile(stacked, tail, axis=0), np.percentile(stacked, 100 - tail, axis=0)

    low, high = np.percentile(np.array(gains), [tail, 100 - tail])
    return Bootstrap(
        resamples, paired, interval(mixtures), interval(regrets), interval(masses), (float(low), float(high))
    )


@dataclass(frozen=True, slots=True)
class Analysis:
    """Everything said about one empirical game: the equilibrium with its exploitability and each
    strategy's regret against it, the replicator trajectory from uniform, α-Rank's masses and
    fixation probabilities, and the bootstrap intervals."""

    equilibrium: Vector
    exploitability: float
    regrets: Vector
    trajectory: Vector
    alpha_rank: Vector
    fixation: Vector
    bootstrap: Bootstrap
    alpha: float = ALPHA
    population: int = POPULATION


def analyse(
    eg: EmpiricalGame,
    *,
    resamples: int = RESAMPLES,
    seed: int = 0,
    alpha: float = ALPHA,
    population: int = POPULATION,
) -> Analysis:
    """Solve the table and bootstrap the answers (see :class:`Analysis`)."""
    x = equilibrium(eg, seed=seed)
    return Analysis(
        equilibrium=x,
        exploitability=eg.exploitability(x),
        regrets=eg.regrets(x),
        trajectory=replicator(eg),
        alpha_rank=alpha_rank(eg, alpha=alpha, population=population),
        fixation=fixation(eg, alpha=alpha, population=population),
        bootstrap=bootstrap(eg, resamples=resamples, seed=seed, point=x, alpha=alpha, population=population),
        alpha=alpha,
        population=population,
    )


def role_shares(folder: Path, strategies: Sequence[str]) -> dict[str, dict[str, float]]:
    """For each strategy, the share of its seat-games it played in each secret role (Culottes:
    grabber or revolutionary), read from the rows kept in ``folder``; empty for a game without
    roles. A strategy that chooses its role (by its citizen's nature, say) plays both."""
    counts: dict[str, dict[str, int]] = {s: {} for s in strategies}
    for path in sorted((folder / PROFILES_FOLDER).glob("*.parquet")):
        table = read(path).select(["strategies", "roles"])
        for seats, roles in zip(table.column("strategies").to_pylist(), table.column("roles").to_pylist(),
                                strict=True):
            for strategy, role in zip(seats, roles or (), strict=False):
                if role and strategy in counts:
                    counts[strategy][role] = counts[strategy].get(role, 0) + 1
    return {s: {r: n / sum(c.values()) for r, n in sorted(c.items())} for s, c in counts.items() if c}


def roles_at(shares: Mapping[str, Mapping[str, float]], strategies: Sequence[str],
             mixture: Sequence[float] | Vector) -> dict[str, float]:
    """The share of seats in each role when every seat plays ``mixture``: at the equilibrium, how
    many players choose to be grabbers."""
    out: dict[str, float] = {}
    for s, weight in zip(strategies, mixture, strict=True):
        for role, share in shares.get(s, {}).items():
            out[role] = out.get(role, 0.0) + float(weight) * share
    return out


def analysis_json(eg: EmpiricalGame, analysis: Analysis) -> dict[str, Any]:
    """The analysis as JSON, per strategy: equilibrium mass, regret against the equilibrium,
    replicator end share and α-Rank mass, each with its bootstrap interval where it has one."""
    b = analysis.bootstrap

    def per(values: Vector, interval: tuple[Vector, Vector] | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for j, s in enumerate(eg.strategies):
            entry: dict[str, Any] = {"value": _number(values[j])}
            if interval is not None:
                entry["interval_95"] = [_number(interval[0][j]), _number(interval[1][j])]
            out[s] = entry
        return out

    return {
        "equilibrium": {
            "mixture": per(analysis.equilibrium, b.equilibrium),
            "exploitability": _number(analysis.exploitability),
            "exploitability_resampled_95": [_number(b.exploitability[0]), _number(b.exploitability[1])],
            "nash_conv": _number(eg.players * analysis.exploitability),
            "value": _number(eg.value(analysis.equilibrium)),
        },
        "regrets": per(analysis.regrets, b.regrets),
        "replicator": {
            "start": "uniform",
            "steps": len(analysis.trajectory) - 1,
            "end": per(analysis.trajectory[-1]),
        },
        "alpha_rank": {
            "alpha": analysis.alpha,
            "population": analysis.population,
            "payoffs_rescaled_to_span": 1,
            "masses": per(analysis.alpha_rank, b.alpha_rank),
        },
        "bootstrap": {"resamples": b.resamples, "paired_seeds": b.paired, "interval": "percentile 95%"},
    }
