"""Best responses: the Policy-Space Response Oracles loop (Lanctot et al. 2017).

Start from a pool of strategies; solve its empirical game (:mod:`tricolore.sim.egta`) for a
symmetric equilibrium mixture; search for a strategy that beats that mixture; if it beats it
significantly, add it to the pool, play the new profiles, solve again, and repeat. The best
response's gain over the mixture is the approximate exploitability of the mixture: the curve a
reviewer wants to see fall.

**Against a mixture.** :func:`versus_mixture` seats a candidate in one seat of each game (seat
``i mod players`` in game ``i``, so every seat equally often over each block of ``players``
games) and fills the other seats with strategies drawn i.i.d. from the mixture. The draws and the
game seeds depend only on ``seed`` and the game's number: every candidate evaluated with the same
seed meets the same opponents on the same dice (common random numbers), and comparisons between
candidates are paired game by game. The mixture's own payoff on those games is the expected
payoff of a seat drawn from the mixture: each strategy of its support played in the candidate's
seat, weighted by its probability (:func:`mixture_payoffs`).

**The search.** The cross-entropy method over the parameters of every named strategy family
(:mod:`tricolore.sim.search_strategies`), each candidate scored by its mean gain over the mixture
on the same selection games, and the IS-MCTS search (``ismcts:<budget>``) on a prefix of those
games. The best candidate not already in the pool is then judged on fresh games it was not
selected on: the paired per-game difference between its payoff and the mixture's payoff on the
same line-ups, a 95% t interval, and a one-sided paired t-test of "it gains more than nothing".
It joins the pool only when that test rejects at ``alpha``. The loop stops when no candidate is
significant (the mixture is not beaten within the search's power), after ``iterations``, or when
its time budget is spent.

Payoff is the seat's share of the win (1/k to each of k winners, 0 otherwise), as in the
empirical game, or with ``payoff="score"`` its final score.
"""

from __future__ import annotations

import json
import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np
from scipy import stats as scipy_stats

import tricolore
from tricolore.agents import canonical_strategy, make_agent, strategy_parameters
from tricolore.core.errors import OptionsError
from tricolore.core.registry import get_game
from tricolore.sim import backends, egta
from tricolore.sim.batch import BatchSpec, GameRow
from tricolore.sim.jobs import run_job
from tricolore.sim.report import ACCENT, FAIR, Section, Table, new_figure, render_page, styled, svg
from tricolore.sim.search_strategies import Searched, Space, cross_entropy

PAYOFFS = egta.PAYOFFS
SMALLEST_WEIGHT = 1e-3
"""Mixture weights below this are dropped (and the rest renormalised) before a mixture is played:
an equilibrium solver leaves such crumbs, and each strategy of the support costs games."""
SEED_STRIDE = 1_000_000
"""Distance between the first seeds of the selection and validation games of successive
iterations, so no game is played twice for two purposes."""

Progress = Callable[[str], None]
Mixture = Sequence[float] | np.ndarray
"""Probabilities, one per strategy of a pool, in the pool's order."""


# --- playing against a mixture ---------------------------------------------------------------


def support(strategies: Sequence[str], mixture: Mixture) -> dict[str, float]:
    """The strategies a mixture plays, weights below :data:`SMALLEST_WEIGHT` dropped and the rest
    renormalised; one sentence if the mixture does not fit the strategies."""
    weights = np.asarray(mixture, dtype=float)
    if weights.shape != (len(strategies),):
        raise OptionsError(f"the mixture has {weights.size} weights for {len(strategies)} strategies")
    if not np.all(np.isfinite(weights)) or np.any(weights < 0) or weights.sum() <= 0:
        raise OptionsError("a mixture's weights must be finite, not negative, and not all zero")
    weights = weights / weights.sum()
    kept = {s: float(w) for s, w in zip(strategies, weights, strict=True) if w >= SMALLEST_WEIGHT}
    total = sum(kept.values())
    return {s: w / total for s, w in kept.items()}


@dataclass(frozen=True, slots=True)
class Tables:
    """The games a candidate is judged in: for game ``i`` (seed ``seed + i``) the seat it takes
    and the strategies of the other seats."""

    seed: int
    seats: tuple[int, ...]
    others: tuple[tuple[str, ...], ...]

    @classmethod
    def draw(cls, mixture: Mapping[str, float], players: int, games: int, seed: int) -> Tables:
        """Seat ``i mod players`` for the candidate; the others drawn i.i.d. from ``mixture``,
        each game from its own generator, so the first ``n`` games are the same whatever
        ``games`` is."""
        names, weights = list(mixture), list(mixture.values())
        others = tuple(
            tuple(random.Random(f"versus:{seed}:{i}").choices(names, weights, k=players - 1))
            for i in range(games)
        )
        return cls(seed, tuple(i % players for i in range(games)), others)

    def lineups(self, candidate: str) -> tuple[tuple[str, ...], ...]:
        """Every game's line-up with ``candidate`` in its seat."""
        return tuple((*o[:s], candidate, *o[s:]) for s, o in zip(self.seats, self.others, strict=True))


def seat_payoff(row: GameRow, seat: int, payoff: str = "win") -> float:
    """A seat's payoff in a game, as the empirical game counts it (:func:`egta.payoffs_of`): its
    share of the win (1/k to each of k winners), or its score."""
    return egta.payoffs_of(row, payoff)[seat]


def versus_mixture(
    game: str,
    candidate: str,
    pool: Sequence[str],
    mixture: Mixture,
    players: int,
    *,
    games: int,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    payoff: str = "win",
    backend: str = "local",
    workers: int | None = None,
    address: str | None = None,
) -> np.ndarray:
    """The candidate's payoff in each of ``games`` games against opponents drawn from the
    mixture over ``pool`` (see :class:`Tables`), in game order.

    Played as a batch job (:func:`tricolore.sim.jobs.run_job` with explicit line-ups), so the
    payoffs are the same locally, with any number of workers, or on Ray.
    """
    if games < 1:
        raise OptionsError("a candidate must play at least one game")
    if payoff not in PAYOFFS:
        raise OptionsError(f"the payoff must be one of {', '.join(PAYOFFS)}; you gave {payoff!r}")
    tables = Tables.draw(support(pool, mixture), players, games, seed)
    lineups = tables.lineups(candidate)
    used = tuple(dict.fromkeys(s for line in lineups for s in line))
    spec = BatchSpec(game, used, games, seed, dict(options or {}), lineups=lineups)
    finished = run_job(spec, backend=backend, workers=workers, address=address)
    if finished.interrupted:
        raise KeyboardInterrupt
    return np.array([seat_payoff(r, s, payoff) for r, s in zip(finished.rows, tables.seats, strict=True)])


Versus = Callable[[str, Sequence[str], np.ndarray, int, int], np.ndarray]
"""``(candidate, pool, mixture, games, seed) -> payoffs``: a candidate's per-game payoffs
against a mixture (:func:`versus_mixture` bound to a game)."""


def mixture_payoffs(versus: Versus, pool: Sequence[str], mixture: np.ndarray, games: int,
                    seed: int) -> np.ndarray:
    """The mixture's own payoff in each game of the same tables: the expected payoff of a seat
    drawn from the mixture, each strategy of its support played in the candidate's seat."""
    total = np.zeros(games)
    for strategy, weight in support(pool, mixture).items():
        total += weight * versus(strategy, pool, mixture, games, seed)
    return total


# --- what the loop plays on ------------------------------------------------------------------


class Arena(Protocol):
    """What the loop needs of a game: its empirical game, an equilibrium of it, and candidates
    played against a mixture. :class:`GameArena` plays real games; a test may bring its own."""

    def start(self, strategies: Sequence[str]) -> Any:
        """The empirical game of ``strategies``."""
        ...

    def add(self, empirical: Any, strategy: str) -> Any:
        """The empirical game with ``strategy`` added (only the new profiles played)."""
        ...

    def solve(self, empirical: Any) -> np.ndarray:
        """A symmetric equilibrium mixture of the empirical game."""
        ...

    def versus(self, candidate: str, pool: Sequence[str], mixture: np.ndarray, games: int,
               seed: int) -> np.ndarray:
        """The candidate's per-game payoffs against the mixture (see :func:`versus_mixture`)."""
        ...


@dataclass(slots=True)
class GameArena:
    """A real game: the empirical game built and extended by :mod:`tricolore.sim.egta`, and
    candidates played by :func:`versus_mixture`, all on the same back end."""

    game: str
    players: int
    options: Mapping[str, Any] = field(default_factory=dict)
    payoff: str = "win"
    games_per_profile: int = 20
    seed: int = 0
    backend: str = "local"
    workers: int | None = None
    address: str | None = None
    folder: Path | None = None
    games_played: int = 0
    """Games played against mixtures."""
    empirical_games: int = 0
    """Games played for the empirical game (kept games found again on resuming included)."""

    def start(self, strategies: Sequence[str]) -> Any:
        """The empirical game of ``strategies`` (:func:`tricolore.sim.egta.build`)."""
        return egta.build(self.game, list(strategies), self.players, games_per_profile=self.games_per_profile,
                          seed=self.seed, options=dict(self.options), payoff=self.payoff, **self._where())

    def add(self, empirical: Any, strategy: str) -> Any:
        """The empirical game extended by ``strategy`` (:func:`tricolore.sim.egta.extend`)."""
        return egta.extend(empirical, strategy, games_per_profile=self.games_per_profile, **self._where())

    def adding_seconds(self, empirical: Any, seconds_per_game: float) -> float:
        """About how long adding a strategy takes, from the seconds a game with it in one seat
        took: every new profile's games, each as slow as that times the strategy's seats."""
        n = len(empirical.strategies) + 1
        seats = [p[-1] for p in egta.profiles(n, self.players) if p[-1] > 0]
        games = egta.rounded_games(self.games_per_profile, self.players)
        return float(games * seconds_per_game * sum(seats))

    def _where(self) -> dict[str, Any]:
        def count(n: int) -> None:
            self.empirical_games += n

        return {"backend": self.backend, "workers": self.workers, "address": self.address, "progress": count,
                "folder": None if self.folder is None else self.folder / "empirical"}

    def solve(self, empirical: Any) -> np.ndarray:
        """A symmetric equilibrium of the empirical game (:func:`tricolore.sim.egta.equilibrium`)."""
        return np.asarray(egta.equilibrium(empirical), dtype=float)

    def versus(self, candidate: str, pool: Sequence[str], mixture: np.ndarray, games: int,
               seed: int) -> np.ndarray:
        """:func:`versus_mixture` on this arena's game and back end."""
        self.games_played += games
        return versus_mixture(self.game, candidate, pool, mixture, self.players, games=games, seed=seed,
                              options=self.options, payoff=self.payoff, backend=self.backend,
                              workers=self.workers, address=self.address)


class Remembered:
    """An arena's ``versus`` remembered within one mixture: under common random numbers the same
    candidate on the same games gives the same payoffs, so it is played once; the first ``n``
    games of a longer evaluation are the ``n`` games of a shorter one."""

    def __init__(self, versus: Versus) -> None:
        self._versus = versus
        self._seen: dict[tuple[str, int], np.ndarray] = {}

    def __call__(self, candidate: str, pool: Sequence[str], mixture: np.ndarray, games: int,
                 seed: int) -> np.ndarray:
        """The payoffs, played only if no evaluation as long on the same seed was made before."""
        known = self._seen.get((candidate, seed))
        if known is None or len(known) < games:
            known = np.asarray(self._versus(candidate, pool, mixture, games, seed), dtype=float)
            self._seen[(candidate, seed)] = known
        return known[:games]


# --- judging a candidate ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Gain:
    """A candidate's gain over the mixture on games it was not selected on: the mean paired
    difference with its 95% t interval, the one-sided p-value of "it gains nothing or less", and
    the two means it is the difference of."""

    gain: float
    low: float
    high: float
    p: float
    games: int
    seed: int
    candidate: float
    mixture: float

    def as_json(self) -> dict[str, Any]:
        """The figures as JSON."""
        return {"gain": _r(self.gain), "interval": [_r(self.low), _r(self.high)], "p": _r(self.p, 6),
                "games": self.games, "seed": self.seed, "candidate_mean": _r(self.candidate),
                "mixture_mean": _r(self.mixture), "test": "one-sided paired t-test"}


def _r(x: float, digits: int = 4) -> float:
    return round(float(x), digits)


def paired_gain(candidate: np.ndarray, mixture: np.ndarray, seed: int = 0) -> Gain:
    """The gain of ``candidate`` over ``mixture``, paired game by game."""
    diffs = np.asarray(candidate, dtype=float) - np.asarray(mixture, dtype=float)
    n = len(diffs)
    if n == 0:
        raise OptionsError("a gain needs at least one game")
    centre = float(diffs.mean())
    spread = float(diffs.std(ddof=1)) if n > 1 else 0.0
    if spread == 0.0 or n == 1:  # every game gave the same difference: no noise to test against
        low = high = centre
        p = 0.0 if centre > 0 else 1.0
    else:
        half = float(scipy_stats.t.ppf(0.975, n - 1)) * spread / math.sqrt(n)
        low, high = centre - half, centre + half
        p = float(scipy_stats.ttest_1samp(diffs, 0.0, alternative="greater").pvalue)
    return Gain(centre, low, high, p, n, seed, float(np.mean(candidate)), float(np.mean(mixture)))


# --- the loop --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Settings:
    """How hard the loop looks. Game counts are rounded up to a multiple of the table size so
    that every seat is the candidate's equally often."""

    iterations: int = 4
    games: int = 100
    """Selection games per candidate of the parameter search."""
    population: int = 12
    generations: int = 4
    elite: float = 0.25
    validation_games: int = 600
    """Fresh games the best named-strategy candidate is judged on."""
    search: str | None = "ismcts:10"
    """The search agent tried against the mixture (``None``: not tried)."""
    search_games: int = 20
    """Selection games of the search agent (a prefix of the parameter search's games)."""
    search_validation_games: int = 100
    """Fresh games the search agent is judged on when it is the best candidate."""
    alpha: float = 0.05
    seconds: float | None = None
    """Time budget: no iteration starts after it, and the parameter search stops early."""

    def check(self) -> None:
        """One sentence for a setting out of range."""
        for name in ("iterations", "games", "population", "generations", "validation_games",
                     "search_games", "search_validation_games"):
            if getattr(self, name) < 1:
                raise OptionsError(f"{name.replace('_', ' ')} must be at least 1")
        if not 0 < self.alpha < 1:
            raise OptionsError("alpha must be between 0 and 1")
        if self.seconds is not None and self.seconds <= 0:
            raise OptionsError("the time budget must be more than 0 seconds")

    def as_json(self) -> dict[str, Any]:
        """The settings as JSON."""
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


def _multiple(n: int, players: int) -> int:
    return players * math.ceil(n / players)


@dataclass(slots=True)
class Iteration:
    """One turn of the loop: the pool and its mixture, what the search found, and the best
    candidate's gain on fresh games (the approximate exploitability of the mixture)."""

    number: int
    pool: list[str]
    mixture: dict[str, float]
    regret: float | None
    """The mixture's regret in the empirical game (the best pure strategy's gain over it): how
    far the solver's mixture is from an equilibrium of the pool itself."""
    searched: Searched | None
    search_gain: float | None
    best: str | None
    selection_gain: float | None
    gain: Gain | None
    added: bool
    significant: bool = False
    adding_seconds: float | None = None
    """Set when a significant best response was not added because the time budget left was
    shorter than adding it would take (about this many seconds)."""
    seconds: float = 0.0

    def as_json(self) -> dict[str, Any]:
        """The iteration as JSON."""
        return {
            "iteration": self.number,
            "pool": self.pool,
            "mixture": {k: _r(v) for k, v in self.mixture.items()},
            "regret_in_pool": None if self.regret is None else _r(self.regret, 6),
            "parameter_search": None if self.searched is None else {
                "candidates": len(self.searched.scores),
                "best": self.searched.best,
                "best_selection_gain": None if self.searched.best is None else _r(self.searched.best_score),
                "ranked": [{"strategy": t, "selection_gain": _r(s)} for t, s in self.searched.ranked()[:10]],
                "generations": [{"candidates": g.candidates, "selection_gains": [_r(s) for s in g.scores],
                                 "elite": g.elite, "distribution": g.distribution}
                                for g in self.searched.generations],
            },
            "search_agent_selection_gain": None if self.search_gain is None else _r(self.search_gain),
            "best": self.best,
            "selection_gain": None if self.selection_gain is None else _r(self.selection_gain),
            "validation": None if self.gain is None else self.gain.as_json(),
            "significant": self.significant,
            "added": self.added,
            **({"not_added_for_time": {"adding_seconds": round(self.adding_seconds, 1)}}
               if self.adding_seconds is not None else {}),
            "seconds": round(self.seconds, 1),
        }


@dataclass(slots=True)
class Outcome:
    """A finished loop: every iteration, the final pool and its mixture, and why it stopped
    (``converged``: no significant best response; ``iterations``; ``time``)."""

    game: str
    players: int
    start: list[str]
    pool: list[str]
    mixture: dict[str, float]
    iterations: list[Iteration]
    stopped: str
    settings: Settings
    payoff: str = "win"
    seed: int = 0
    options: Mapping[str, Any] = field(default_factory=dict)
    seconds: float = 0.0
    games_played: int | None = None
    command: str = ""

    @property
    def found(self) -> list[Iteration]:
        """The iterations whose best response joined the pool."""
        return [it for it in self.iterations if it.added]

    def sentences(self) -> list[str]:
        """What the loop found, in plain sentences: one per strategy added, and one about the
        last mixture tried when nothing beat it."""
        out = [self._beats(it) + "." for it in self.found]
        last = self.iterations[-1] if self.iterations else None
        if last is None:
            return out
        if last.adding_seconds is not None:
            out.append(self._beats(last) + f", but did not add it: adding it would take about "
                       f"{last.adding_seconds:.0f} s, more than the time budget left.")
        elif not last.added:
            best = "no candidate outside the pool was found to judge"
            if last.gain is not None:
                g = last.gain
                best = (f"the best candidate, {last.best}, gained {g.gain:.3f} [{g.low:.3f}, {g.high:.3f}] "
                        f"{self.unit} a game; one-sided paired t-test, {_p(g.p, 'p ')}, {g.games:,} games")
            out.append(f"No strategy beating the mixture significantly was found within the budget ({best}).")
        else:
            out.append(f"The loop stopped ({self._why()}) before testing the last mixture: its "
                       "exploitability is not measured.")
        return out

    @property
    def unit(self) -> str:
        """What a payoff counts: the share of the win, or points."""
        return "share of the win" if self.payoff == "win" else "points"

    def _beats(self, it: Iteration) -> str:
        assert it.gain is not None
        g = it.gain
        return (f"Found {it.best}, which beats the pool's equilibrium mixture (iteration {it.number}) by "
                f"{g.gain:.3f} [{g.low:.3f}, {g.high:.3f}] {self.unit} a game (one-sided paired t-test, "
                f"{_p(g.p, 'p ')}, {g.games:,} games)")

    def _why(self) -> str:
        return {"iterations": "its iterations were spent", "time": "its time budget was spent"}.get(
            self.stopped, self.stopped)

    def as_json(self) -> dict[str, Any]:
        """The whole run as JSON (``psro.json``)."""
        strategies: dict[str, Any] = {}
        try:
            g = get_game(self.game)
            strategies = {s: strategy_parameters(g, s) for s in self.pool}
        except OptionsError:  # a toy arena's strategies are no game's
            strategies = {}
        return {
            "game": self.game,
            "players": self.players,
            "options": dict(self.options),
            "payoff": self.payoff,
            "seed": self.seed,
            "settings": self.settings.as_json(),
            "command": self.command,
            "tricolore": tricolore.__version__,
            "start_pool": self.start,
            "pool": self.pool,
            "mixture": {k: _r(v) for k, v in self.mixture.items()},
            "strategies": strategies,
            "iterations": [it.as_json() for it in self.iterations],
            "exploitability": [
                {"iteration": it.number, "best": it.best,
                 **({"gain": _r(it.gain.gain), "interval": [_r(it.gain.low), _r(it.gain.high)]}
                    if it.gain is not None else {"gain": None, "interval": None})}
                for it in self.iterations],
            "found": [it.best for it in self.found],
            "stopped": self.stopped,
            "sentences": self.sentences(),
            "seconds": round(self.seconds, 1),
            "games_played": self.games_played,
        }


def _p(p: float, prefix: str = "") -> str:
    """A p-value in words: ``0.003``, ``0.0004``, ``< 0.0001`` (with ``prefix="p "``: ``p = 0.003``,
    ``p < 0.0001``)."""
    if p < 1e-4:
        return f"{prefix}< 0.0001"
    return (f"{prefix}= " if prefix else "") + (f"{p:.4f}" if p < 0.01 else f"{p:.3f}")


def run_loop(
    arena: Arena,
    pool: Sequence[str],
    players: int,
    space: Space | None,
    settings: Settings = Settings(),
    *,
    seed: int = 0,
    progress: Progress | None = None,
    save: Callable[[list[Iteration], list[str], dict[str, float]], None] | None = None,
) -> tuple[list[Iteration], list[str], dict[str, float], str]:
    """The loop on any arena: returns the iterations, the final pool, its mixture, and why it
    stopped. ``space`` is what the parameter search explores (none: no parameter search);
    ``save`` hears the state after each iteration."""
    settings.check()
    say = progress or (lambda _: None)
    began = time.monotonic()
    deadline = None if settings.seconds is None else began + settings.seconds
    strategies = list(dict.fromkeys(pool))
    if not strategies:
        raise OptionsError("the pool must hold at least one strategy")
    say(f"empirical game of {len(strategies)} strategies")
    empirical = arena.start(strategies)
    iterations: list[Iteration] = []
    stopped = "iterations"
    games = _multiple(settings.games, players)
    search_games = _multiple(min(settings.search_games, settings.games), players)
    mixture = arena.solve(empirical)
    for number in range(1, settings.iterations + 1):
        if deadline is not None and time.monotonic() > deadline:
            stopped = "time"
            break
        started = time.monotonic()
        weights = support(strategies, mixture)
        regret = _regret(empirical, mixture)
        versus = Remembered(arena.versus)
        selection_seed = seed + (2 * number - 1) * SEED_STRIDE
        say(f"iteration {number}: mixture {_mix(weights)}")
        baseline = mixture_payoffs(versus, strategies, mixture, games, selection_seed)

        def score(texts: Sequence[str], *, _seed: int = selection_seed, _base: np.ndarray = baseline,
                  _mix: np.ndarray = mixture, _versus: Remembered = versus) -> list[float]:
            return [float(np.mean(_versus(t, strategies, _mix, games, _seed) - _base)) for t in texts]

        searched = None
        if space is not None:
            say(f"iteration {number}: parameter search")
            searched = cross_entropy(space, score, population=settings.population, elite=settings.elite,
                                     generations=settings.generations, seed=seed + number,
                                     exclude=strategies, deadline=deadline)
        search_gain = None
        if settings.search is not None and settings.search not in strategies:
            say(f"iteration {number}: {settings.search} against the mixture")
            played = versus(settings.search, strategies, mixture, search_games, selection_seed)
            search_gain = float(np.mean(played - baseline[:search_games]))
        best, selection_gain, judge_games = None, None, _multiple(settings.validation_games, players)
        if searched is not None and searched.best is not None:
            best, selection_gain = searched.best, searched.best_score
        if search_gain is not None and (selection_gain is None or search_gain > selection_gain):
            best, selection_gain = settings.search, search_gain
            judge_games = _multiple(settings.search_validation_games, players)
        gain, per_game = None, 0.0
        if best is not None:
            say(f"iteration {number}: judging {best} on {judge_games} fresh games")
            fresh = seed + 2 * number * SEED_STRIDE
            judge = Remembered(arena.versus)
            clock = time.monotonic()
            judged = judge(best, strategies, mixture, judge_games, fresh)
            per_game = (time.monotonic() - clock) / judge_games
            gain = paired_gain(judged, mixture_payoffs(judge, strategies, mixture, judge_games, fresh), fresh)
        significant = gain is not None and best is not None and gain.p < settings.alpha
        added, too_long = significant, None
        estimate = getattr(arena, "adding_seconds", None)
        if significant and deadline is not None and callable(estimate):
            needed = float(estimate(empirical, per_game))
            if time.monotonic() + needed > deadline:
                added, too_long = False, needed
        iterations.append(Iteration(number, list(strategies), weights, regret, searched, search_gain,
                                    best, selection_gain, gain, added, significant, too_long))
        if added:
            assert best is not None
            say(f"iteration {number}: adding {best}")
            strategies.append(best)
            empirical = arena.add(empirical, best)
            mixture = arena.solve(empirical)
        iterations[-1].seconds = time.monotonic() - started
        if save is not None:
            save(iterations, list(strategies), support(strategies, mixture))
        if too_long is not None:
            stopped = "time"
            break
        if not added:
            stopped = "converged"
            break
    return iterations, strategies, support(strategies, mixture), stopped


def _regret(empirical: Any, mixture: np.ndarray) -> float | None:
    measure = getattr(empirical, "exploitability", None)
    return float(measure(mixture)) if callable(measure) else None


def _mix(weights: Mapping[str, float]) -> str:
    return ", ".join(f"{s} {w:.2f}" for s, w in sorted(weights.items(), key=lambda sw: -sw[1]))


def psro(
    game: str,
    pool: Sequence[str],
    players: int,
    *,
    settings: Settings = Settings(),
    families: Sequence[str] | None = None,
    games_per_profile: int = 20,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    payoff: str = "win",
    backend: str = "local",
    workers: int | None = None,
    address: str | None = None,
    folder: Path | None = None,
    progress: Progress | None = None,
    command: str = "",
) -> Outcome:
    """The loop on ``game`` at ``players`` seats from ``pool``: solve, search a best response,
    add it if significant, repeat (see the module's description).

    ``families`` are the named strategies whose parameters are searched (default: every named
    strategy of the game). With ``folder``, the empirical game's rows are kept in
    ``folder/empirical`` and ``psro.json`` is written after every iteration, then ``report.html``
    at the end (:func:`write`).
    """
    g = get_game(game)
    if not g.info.min_players <= players <= g.info.max_players:
        raise OptionsError(f"{g.info.title} is played by {g.info.min_players} to {g.info.max_players} "
                           f"players, not {players}")
    if payoff not in PAYOFFS:
        raise OptionsError(f"the payoff must be one of {', '.join(PAYOFFS)}; you gave {payoff!r}")
    g.new(players, seed, dict(options or {}))  # the options, checked before anything is played
    start = [canonical_strategy(g, s) for s in pool]
    for s in start:
        make_agent(g, s)
    if settings.search is not None:
        make_agent(g, settings.search)
    space = Space.of(g, families)
    arena = GameArena(game, players, dict(options or {}), payoff, games_per_profile, seed, backend, workers,
                      address, folder)
    began = time.monotonic()

    def outcome(iterations: list[Iteration], strategies: list[str], mixture: dict[str, float],
                stopped: str) -> Outcome:
        return Outcome(game, players, start, strategies, mixture, iterations, stopped, settings, payoff, seed,
                       dict(options or {}), time.monotonic() - began, arena.games_played, command)

    def save(iterations: list[Iteration], strategies: list[str], mixture: dict[str, float]) -> None:
        if folder is not None:
            state = outcome(iterations, strategies, mixture, "running")
            (folder / "psro.json").write_text(json.dumps(state.as_json(), indent=2), encoding="utf-8")

    if folder is not None:
        folder.mkdir(parents=True, exist_ok=True)
    with backends.ray_session(backend, address, workers):
        iterations, strategies, mixture, stopped = run_loop(arena, start, players, space, settings, seed=seed,
                                                            progress=progress, save=save)
    result = outcome(iterations, strategies, mixture, stopped)
    if folder is not None:
        write(result, folder)
    return result


# --- the report ------------------------------------------------------------------------------


def write(result: Outcome, folder: Path) -> tuple[Path, Path]:
    """Write ``psro.json`` and ``report.html`` into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    data = folder / "psro.json"
    data.write_text(json.dumps(result.as_json(), indent=2), encoding="utf-8")
    page = folder / "report.html"
    page.write_text(report_page(result), encoding="utf-8")
    return data, page


def exploitability_figure(result: Outcome) -> str:
    """The best response's gain over each iteration's mixture with its 95% interval (SVG)."""
    judged = [it for it in result.iterations if it.gain is not None]
    total = sum(it.gain.games for it in judged if it.gain is not None)
    with styled():
        fig = new_figure(6.5, 3.0)
        ax = fig.add_subplot()
        xs = [it.number for it in judged]
        ys = [it.gain.gain for it in judged if it.gain is not None]
        low = [it.gain.gain - it.gain.low for it in judged if it.gain is not None]
        high = [it.gain.high - it.gain.gain for it in judged if it.gain is not None]
        ax.errorbar(xs, ys, yerr=[low, high], fmt="o-", color=ACCENT, capsize=3, lw=1.2)
        for it, y in zip(judged, ys, strict=True):
            if it.added:
                ax.annotate("added", (it.number, y), textcoords="offset points", xytext=(4, 4), fontsize=7)
        ax.axhline(0, color=FAIR, ls="--", lw=1)
        ax.set_xticks(range(1, max(xs, default=1) + 1))
        ax.set_xlabel("iteration")
        unit = "share of the win" if result.payoff == "win" else "points"
        ax.set_ylabel(f"gain ({unit} a game)")
        ax.set_title(f"Best response's gain over the mixture, 95% paired intervals ({total:,} games)")
        return svg(fig)


def mixtures_figure(result: Outcome) -> str:
    """Each iteration's mixture as stacked bars (SVG)."""
    names = result.pool
    rows = [it.mixture for it in result.iterations] + [result.mixture]
    labels = [str(it.number) for it in result.iterations] + ["final"]
    with styled():
        fig = new_figure(6.5, 1.2 + 0.3 * len(names))
        ax = fig.add_subplot()
        bottom = np.zeros(len(rows))
        for name in names:
            heights = np.array([m.get(name, 0.0) for m in rows])
            ax.bar(labels, heights, bottom=bottom, label=name, width=0.6)
            bottom += heights
        ax.set_ylim(0, 1)
        ax.set_xlabel("iteration")
        ax.set_ylabel("probability")
        ax.set_title("Equilibrium mixture of the pool at each iteration")
        ax.legend(loc="center left", bbox_to_anchor=(1.0, 0.5), frameon=False, fontsize=7)
        return svg(fig)


def report_page(result: Outcome) -> str:
    """The run as one self-contained HTML page."""
    unit = "share of the win" if result.payoff == "win" else "points"
    intro = [
        f"Best responses in {result.game} at {result.players} players, from a pool of "
        f"{len(result.start)} strategies ({', '.join(result.start)}); payoff: {unit} a game.",
        *result.sentences(),
    ]
    curve_rows = []
    for it in result.iterations:
        g = it.gain
        curve_rows.append([
            it.number, len(it.pool), it.best or "-",
            "-" if it.selection_gain is None else f"{it.selection_gain:.3f}",
            "-" if g is None else f"{g.gain:.3f}", "-" if g is None else f"[{g.low:.3f}, {g.high:.3f}]",
            "-" if g is None else _p(g.p), "-" if g is None else f"{g.games:,}",
            "yes" if it.added else "no",
            "-" if it.regret is None else f"{it.regret:.4f}",
        ])
    curve = Section(
        "Exploitability",
        [f"Each iteration's best candidate judged on fresh games (not those it was selected on) against "
         f"the mixture's own payoff in the same line-ups: the gain is the mean paired difference, with "
         f"a 95% t interval and a one-sided paired t-test; the candidate joins the pool when p < "
         f"{result.settings.alpha}. The selection gain is measured on the games the candidate was "
         f"chosen on and is biased upwards. The regret column is the mixture's NashConv inside the "
         f"empirical game: how far the solver's mixture is from an equilibrium of the pool itself."],
        [exploitability_figure(result)] if any(it.gain is not None for it in result.iterations) else [],
        [Table(["iteration", "pool", "best candidate", "selection gain", "gain", "95% interval", "p",
                "games", "added", "regret in pool"], curve_rows)],
    )
    names = result.pool
    mixtures = Section(
        "Mixtures",
        ["The symmetric equilibrium of the pool's empirical game at the start of each iteration, and "
         "after the last strategy was added."],
        [mixtures_figure(result)],
        [Table(["strategy", *(f"iteration {it.number}" for it in result.iterations), "final"],
               [[n, *(f"{it.mixture.get(n, 0.0):.3f}" if n in it.pool else "-" for it in result.iterations),
                 f"{result.mixture.get(n, 0.0):.3f}"] for n in names])],
    )
    found_rows = []
    def parameters(strategy: str) -> str:
        try:
            values = strategy_parameters(get_game(result.game), strategy)
        except OptionsError:  # a toy arena's strategies are no game's
            return "-"
        return ", ".join(f"{k}={v}" for k, v in values.items()) or "-"

    for it in result.iterations:
        if it.best is not None and it.gain is not None:
            found_rows.append([it.number, it.best, parameters(it.best), f"{it.gain.gain:.3f}",
                               "yes" if it.added else "no"])
    found = Section(
        "Strategies found",
        ["Each iteration's best candidate with every parameter it plays with (defaults included)."],
        (), [Table(["iteration", "strategy", "parameters", "gain", "added"], found_rows)],
    )
    search_rows = []
    for it in result.iterations:
        if it.searched is not None:
            for text, gain in it.searched.ranked()[:5]:
                search_rows.append([it.number, "parameter search", text, f"{gain:.3f}",
                                    "yes" if text in it.pool else "no"])
        if it.search_gain is not None:
            search_rows.append([it.number, "search agent", result.settings.search or "-",
                                f"{it.search_gain:.3f}", "no"])
    s = result.settings
    search = Section(
        "Search",
        [f"The cross-entropy method over every named strategy family's parameters: {s.population} "
         f"candidates a generation, {s.generations} generations, the best {s.elite:.0%} refitting the "
         f"distribution; every candidate played the same {_multiple(s.games, result.players)} selection "
         f"games of an iteration (common random numbers)."
         + (f" The search agent {s.search} played the first "
            f"{_multiple(min(s.search_games, s.games), result.players)} of them." if s.search else ""),
         "The five best candidates of each iteration by selection gain (candidates already in the pool "
         "inform the search but are never added)."],
        (), [Table(["iteration", "from", "strategy", "selection gain", "in pool"], search_rows)],
    )
    run = Section(
        "Run",
        [],
        (),
        [Table(["", ""], [
            ["command", result.command or "-"],
            ["game", result.game], ["players", result.players], ["options", json.dumps(dict(result.options))],
            ["seed", result.seed], ["payoff", unit], ["stopped", result.stopped],
            ["games played", "-" if result.games_played is None else f"{result.games_played:,} (beside the "
             "empirical game's)"],
            ["time", f"{result.seconds:.0f} s"], ["tricolore", tricolore.__version__],
            *([k, str(v)] for k, v in s.as_json().items()),
        ])],
    )
    return render_page(f"{result.game}: best responses", intro, [curve, mixtures, found, search, run],
                       footer="Made with tricolore psro.")
