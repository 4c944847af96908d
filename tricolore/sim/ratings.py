"""Ratings of strategies from played games: OpenSkill (Plackett-Luce) and a head-to-head matrix.

Every game is a match in which each strategy at the table is one team. A strategy that holds
several seats of a game is judged by its best seat: its **standing** in the game is the best of
its seats' ``(score, won)`` pairs, so a higher score ranks first and, at equal scores, a seat the
game declared a winner (its own tie-break) ranks above one it did not. Equal standings share a
rank. A game with a single strategy at the table says nothing about strategies against each other
and is left out.

Everything here is a pure function of :class:`~tricolore.sim.batch.GameRow` lists, so the
``tournament`` command, the HTML report and a study all rate the same games the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from openskill.models import PlackettLuce

from tricolore.sim.batch import GameRow

Standing = tuple[float, bool]
"""A strategy's result in one game: its best seat's score and whether that seat won."""


@dataclass(frozen=True, slots=True)
class Rating:
    """A strategy's OpenSkill rating: skill ``mu``, its uncertainty ``sigma``, and the games rated."""

    strategy: str
    mu: float
    sigma: float
    games: int

    @property
    def ordinal(self) -> float:
        """The conservative skill estimate ``mu - 3 sigma`` (what the ratings are sorted by)."""
        return self.mu - 3 * self.sigma

    def as_dict(self) -> dict[str, float | int | str]:
        """The rating as JSON, rounded to four decimals."""
        return {
            "strategy": self.strategy,
            "games": self.games,
            "mu": round(self.mu, 4),
            "sigma": round(self.sigma, 4),
            "ordinal": round(self.ordinal, 4),
        }


@dataclass(frozen=True, slots=True)
class Pairing:
    """How strategy ``a`` fared against ``b`` over the games where both sat.

    ``share`` is the fraction of those games in which ``a``'s standing beat ``b``'s, a tie
    counting half (``None`` when they never met).
    """

    a: str
    b: str
    beat: float
    games: int

    @property
    def share(self) -> float | None:
        """Games won against ``b`` (ties half) over games played with ``b``."""
        return self.beat / self.games if self.games else None


def standings(row: GameRow) -> dict[str, Standing]:
    """Each strategy at the table and its standing: the best of its seats' ``(score, won)``.

    >>> standings(GameRow(0, ("a", "b", "a"), (3.0, 5.0, 7.0), (2,), 10, {}))
    {'a': (7.0, True), 'b': (5.0, False)}
    """
    best: dict[str, Standing] = {}
    for seat, strategy in enumerate(row.strategies):
        mine = (row.scores[seat], seat in row.winners)
        if strategy not in best or mine > best[strategy]:
            best[strategy] = mine
    return best


def ranks(row: GameRow) -> dict[str, int]:
    """Each strategy's rank in the game (1 is first); equal standings share a rank.

    >>> ranks(GameRow(0, ("a", "b", "c"), (4.0, 9.0, 4.0), (1,), 10, {}))
    {'a': 2, 'b': 1, 'c': 2}
    """
    best = standings(row)
    order = sorted(set(best.values()), reverse=True)
    return {s: order.index(v) + 1 for s, v in best.items()}


def strategies_of(rows: Sequence[GameRow]) -> list[str]:
    """Every strategy that sat in ``rows``, in order of first appearance."""
    return list(dict.fromkeys(s for row in rows for s in row.strategies))


def rate(rows: Sequence[GameRow], model: PlackettLuce | None = None) -> list[Rating]:
    """The OpenSkill rating of every strategy after the games of ``rows``, best ordinal first.

    Games are rated one after another in the order given (give them in seed order for a result
    that does not depend on how the games were played); ``model`` defaults to
    :class:`openskill.models.PlackettLuce` with its usual prior (mu 25, sigma 25/3). A strategy
    that never met another keeps the prior.
    """
    model = model or PlackettLuce()
    names = strategies_of(rows)
    current = {s: model.rating(name=s) for s in names}
    games = dict.fromkeys(names, 0)
    for row in rows:
        place = ranks(row)
        if len(place) < 2:
            continue
        teams = list(place)
        rated = model.rate([[current[s]] for s in teams], ranks=[float(place[s]) for s in teams])
        for s, team in zip(teams, rated, strict=True):
            current[s] = team[0]
            games[s] += 1
    ratings = [Rating(s, current[s].mu, current[s].sigma, games[s]) for s in names]
    return sorted(ratings, key=lambda r: (-r.ordinal, r.strategy))


def head_to_head(rows: Sequence[GameRow]) -> dict[str, dict[str, Pairing]]:
    """For every ordered pair of strategies ``a``, ``b``: how ``a`` fared against ``b``.

    ``result[a][b].share`` is the share of the games where both sat in which ``a``'s standing
    (its best seat) beat ``b``'s, ties counting half; ``result[a][b].share + result[b][a].share``
    is 1 wherever they met. The diagonal is left out.

    >>> rows = [GameRow(0, ("a", "b"), (2.0, 1.0), (0,), 5, {}),
    ...         GameRow(1, ("a", "b"), (1.0, 1.0), (0, 1), 5, {})]
    >>> head_to_head(rows)["a"]["b"].share
    0.75
    """
    names = strategies_of(rows)
    beat = {a: dict.fromkeys((b for b in names if b != a), 0.0) for a in names}
    met = {a: dict.fromkeys((b for b in names if b != a), 0) for a in names}
    for row in rows:
        best = standings(row)
        for a, mine in best.items():
            for b, theirs in best.items():
                if a != b:
                    met[a][b] += 1
                    beat[a][b] += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
    return {a: {b: Pairing(a, b, beat[a][b], met[a][b]) for b in beat[a]} for a in names}


def head_to_head_json(matrix: dict[str, dict[str, Pairing]]) -> dict[str, dict[str, dict[str, Any]]]:
    """The head-to-head matrix as JSON: ``{a: {b: {"share": ..., "games": ...}}}``."""
    return {
        a: {
            b: {"share": None if p.share is None else round(p.share, 4), "games": p.games}
            for b, p in row.items()
        }
        for a, row in matrix.items()
    }


RESAMPLES = 100
"""Bootstrap resamples behind the intervals of ratings and head-to-head shares."""


@dataclass(frozen=True, slots=True)
class Intervals:
    """95% percentile bootstrap intervals (games resampled with replacement, recomputed): of each
    strategy's ordinal and mu, and of each head-to-head share (``None`` where the pair never
    met)."""

    ordinal: dict[str, tuple[float, float]]
    mu: dict[str, tuple[float, float]]
    share: dict[str, dict[str, tuple[float, float] | None]]
    resamples: int


def bootstrap(rows: Sequence[GameRow], resamples: int = RESAMPLES, seed: int = 0) -> Intervals:
    """Bootstrap intervals of the ratings and the head-to-head shares of ``rows``: each resample
    draws as many games as there are, with replacement (a seeded numpy generator, so the intervals
    repeat), rates them in seed order as :func:`rate` does, and recomputes every share."""
    names = strategies_of(rows)
    rng = np.random.default_rng(seed)
    mus: dict[str, list[float]] = {s: [] for s in names}
    ordinals: dict[str, list[float]] = {s: [] for s in names}
    # per game, how each ordered pair fared (1 beat, 0.5 tie, 0 lost; NaN where not both sat)
    index = {s: i for i, s in enumerate(names)}
    beat = np.full((len(rows), len(names), len(names)), np.nan)
    for g, row in enumerate(rows):
        best = standings(row)
        for a, mine in best.items():
            for b, theirs in best.items():
                if a != b:
                    beat[g, index[a], index[b]] = 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
    shares: list[np.ndarray] = []
    for _ in range(resamples):
        draw = rng.integers(0, len(rows), len(rows))
        picked = sorted(draw.tolist(), key=lambda i: rows[i].seed)
        for r in rate([rows[i] for i in picked]):
            mus[r.strategy].append(r.mu)
            ordinals[r.strategy].append(r.ordinal)
        sample = beat[draw]
        met = (~np.isnan(sample)).sum(axis=0)
        with np.errstate(invalid="ignore", divide="ignore"):
            shares.append(np.where(met > 0, np.nansum(sample, axis=0) / np.maximum(met, 1), np.nan))
    stacked = np.array(shares) if shares else np.full((1, len(names), len(names)), np.nan)

    def bounds(values: Sequence[float]) -> tuple[float, float]:
        low, high = np.percentile(values, [2.5, 97.5]) if values else (np.nan, np.nan)
        return float(low), float(high)

    share: dict[str, dict[str, tuple[float, float] | None]] = {}
    for a in names:
        share[a] = {}
        for b in names:
            if a == b:
                continue
            column = stacked[:, index[a], index[b]]
            column = column[~np.isnan(column)]
            share[a][b] = None if not len(column) else bounds(list(column))
    return Intervals({s: bounds(ordinals[s]) for s in names}, {s: bounds(mus[s]) for s in names}, share,
                     resamples)
