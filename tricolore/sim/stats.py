"""The statistics a study states: estimates with their 95% intervals, the tests behind its claims,
and the Holm–Bonferroni correction over every claim of a study.

Estimates: :func:`rate` (Wilson), :func:`mean` (t interval), :func:`paired_difference` (the mean
of per-pair differences, for two quantities measured on the same games or two arms played on the
same seeds), :func:`difference` (Welch, for truly independent samples only) and :func:`bootstrap`
(percentile interval over resampled games, for anything that is not a plain mean or rate).

Tests: :func:`one_sample_test` (t), :func:`binomial_test` (exact), :func:`chi_square_uniform`.
Claims that rest on a test are gathered in a :class:`Family` and corrected with :func:`holm`; a
claim whose test does not survive the correction is worded as not shown, with the largest effect
its interval leaves possible (:func:`excluded_effect`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy
from scipy import stats as scipy_stats

from tricolore.sim.batch import wilson_interval

Z95 = 1.96
ALPHA = 0.05
"""The level every claim of a study is tested at, after correction."""


@dataclass(frozen=True, slots=True)
class Estimate:
    """A figure with its 95% interval and the number of observations behind it."""

    value: float
    low: float
    high: float
    n: int

    def excludes(self, value: float) -> bool:
        """Whether ``value`` lies outside the interval."""
        return not self.low <= value <= self.high

    def above(self, other: Estimate) -> bool:
        """Whether this interval lies wholly above ``other``'s."""
        return self.low > other.high

    def percent(self) -> str:
        """A rate in words: "41.2% [38.1–44.3%]"."""
        return f"{100 * self.value:.1f}% [{100 * self.low:.1f}–{100 * self.high:.1f}%]"

    def points(self) -> str:
        """A difference of rates in percentage points: "+4.1 points [1.0–7.2]"."""
        return f"{100 * self.value:+.1f} points [{100 * self.low:.1f}–{100 * self.high:.1f}]"

    def number(self, digits: int = 2) -> str:
        """A mean in words: "25.93 [25.10–26.76]"."""
        return f"{self.value:.{digits}f} [{self.low:.{digits}f}–{self.high:.{digits}f}]"


def rate(successes: float, n: int) -> Estimate:
    """A proportion with its Wilson score interval."""
    low, high = wilson_interval(successes, n)
    return Estimate(successes / n if n else 0.0, low, high, n)


def _t_interval(values: Sequence[float]) -> Estimate:
    n = len(values)
    if n == 0:
        return Estimate(0.0, 0.0, 0.0, 0)
    data = numpy.asarray(values, dtype=float)
    centre = float(data.mean())
    if n == 1:
        return Estimate(centre, centre, centre, 1)
    half = float(scipy_stats.t.ppf(0.975, n - 1)) * float(data.std(ddof=1)) / math.sqrt(n)
    return Estimate(centre, centre - half, centre + half, n)


def mean(values: Sequence[float]) -> Estimate:
    """A mean with its 95% t interval (a single value, or none, gives a point)."""
    return _t_interval(values)


def paired_difference(a: Sequence[float], b: Sequence[float]) -> Estimate:
    """``mean(a) - mean(b)`` for paired observations (``a[i]`` and ``b[i]`` from the same game, or
    from two arms' games of the same seed): the mean of the per-pair differences with its t
    interval. Raises ``ValueError`` when the two lengths differ."""
    if len(a) != len(b):
        raise ValueError(f"paired samples must have the same length, not {len(a)} and {len(b)}")
    return _t_interval([x - y for x, y in zip(a, b, strict=True)])


def difference(a: Sequence[float], b: Sequence[float]) -> Estimate:
    """``mean(a) - mean(b)`` for two independent samples, with Welch's t interval (unequal
    variances, Welch–Satterthwaite degrees of freedom); ``n`` is the smaller sample. Use
    :func:`paired_difference` instead whenever the two samples come from the same games or from
    arms played on the same seeds."""
    x, y = numpy.asarray(a, dtype=float), numpy.asarray(b, dtype=float)
    if len(x) < 2 or len(y) < 2:
        value = (float(x.mean()) if len(x) else 0.0) - (float(y.mean()) if len(y) else 0.0)
        return Estimate(value, value, value, min(len(x), len(y)))
    value = float(x.mean() - y.mean())
    va, vb = float(x.var(ddof=1)) / len(x), float(y.var(ddof=1)) / len(y)
    spread = math.sqrt(va + vb)
    if spread == 0:
        return Estimate(value, value, value, min(len(x), len(y)))
    freedom = (va + vb) ** 2 / (va**2 / (len(x) - 1) + vb**2 / (len(y) - 1))
    half = float(scipy_stats.t.ppf(0.975, freedom)) * spread
    return Estimate(value, value - half, value + half, min(len(x), len(y)))


def one_sample_test(values: Sequence[float], null: float) -> float:
    """The two-sided p-value of a one-sample t-test that the mean of ``values`` is ``null``.
    Constant data is exact: p is 1 when every value equals ``null`` and 0 otherwise (no spread,
    no doubt); no data at all gives 1."""
    data = numpy.asarray(values, dtype=float)
    if len(data) == 0:
        return 1.0
    if numpy.all(data == data[0]):
        return 1.0 if data[0] == null else 0.0
    return float(scipy_stats.ttest_1samp(data, null).pvalue)


def binomial_test(successes: int, n: int, p: float) -> float:
    """The two-sided p-value of the exact binomial test of ``successes`` in ``n`` trials against a
    success probability ``p`` (no trials give 1)."""
    if n == 0:
        return 1.0
    return float(scipy_stats.binomtest(int(successes), int(n), p).pvalue)


def chi_square_uniform(counts: Sequence[float]) -> float:
    """The p-value of Pearson's chi-square test that ``counts`` (wins, or win shares, per seat)
    are spread uniformly; no counts at all give 1."""
    data = numpy.asarray(counts, dtype=float)
    if len(data) < 2 or data.sum() == 0:
        return 1.0
    return float(scipy_stats.chisquare(data).pvalue)


def holm(pvalues: Mapping[str, float], alpha: float = ALPHA) -> dict[str, tuple[float, bool]]:
    """Holm–Bonferroni over a family of tests: for each name, its adjusted p-value and whether it
    is rejected at level ``alpha``. The ``i``-th smallest of ``m`` p-values is multiplied by
    ``m - i + 1`` (capped at 1) and made no smaller than the adjusted values before it; a
    hypothesis is rejected when its adjusted p-value is at most ``alpha``."""
    ordered = sorted(pvalues.items(), key=lambda kv: kv[1])
    m = len(ordered)
    out: dict[str, tuple[float, bool]] = {}
    running = 0.0
    for i, (name, p) in enumerate(ordered):
        running = max(running, min(1.0, (m - i) * p))
        out[name] = (running, running <= alpha)
    return {name: out[name] for name in pvalues}


def bootstrap(
    rows: Sequence[Any] | numpy.ndarray[Any, Any],
    statistic: Callable[[Any], float],
    resamples: int = 1000,
    seed: int = 0,
) -> Estimate:
    """``statistic(rows)`` with its 95% percentile bootstrap interval: ``rows`` (games) are
    resampled with replacement ``resamples`` times with numpy's Generator seeded by ``seed``, so
    the same call gives the same interval. A numpy array is resampled along its first axis and
    handed to ``statistic`` as an array; any other sequence as a list."""
    n = len(rows)
    value = float(statistic(rows))
    if n < 2:
        return Estimate(value, value, value, n)
    generator = numpy.random.default_rng(seed)
    draws = generator.integers(0, n, size=(resamples, n))
    if isinstance(rows, numpy.ndarray):
        values = [float(statistic(rows[d])) for d in draws]
    else:
        listed = list(rows)
        values = [float(statistic([listed[i] for i in d])) for d in draws]
    low, high = numpy.percentile(values, [2.5, 97.5])
    return Estimate(value, float(low), float(high), n)


def excluded_effect(estimate: Estimate) -> float:
    """The largest effect a null result leaves possible: the larger absolute bound of its 95%
    interval (no difference larger than this at 95% confidence)."""
    return max(abs(estimate.low), abs(estimate.high))


def games(n: int) -> str:
    """A game count in words: "1 game", "2,000 games"."""
    return f"{n:,} game" + ("" if n == 1 else "s")


def seat_games(n: int) -> str:
    """A seat-game count in words: "1 seat-game", "10,000 seat-games"."""
    return f"{n:,} seat-game" + ("" if n == 1 else "s")


Status = Literal["shown", "not shown", "cannot show"]


@dataclass(eq=False, slots=True)
class Claim:
    """One sentence of a study, with what it rests on.

    A claim is one of three kinds: an estimate (no ``test``: a figure with its interval, always
    shown), a tested claim (``test`` and ``p``; it holds when its Holm-adjusted p-value is at most
    the family's level and every claim it ``requires`` holds), or a claim that rests only on others
    (``requires`` and no ``p``: it holds when they all hold). ``shown`` is its sentence when it
    holds and ``not_shown`` when it does not. A claim marked ``cannot`` states that its experiment
    cannot show anything (its arms played the same games).
    """

    shown: str
    games: int
    estimate: Estimate | None = None
    seat_games: int | None = None
    """Set when the claim is about seats: its estimate then counts seat-games, not games."""
    test: str = ""
    p: float | None = None
    not_shown: str = ""
    requires: tuple[Claim, ...] = ()
    cannot: bool = False
    adjusted: float | None = None
    holds: bool = True

    @property
    def status(self) -> Status:
        """``shown``, ``not shown`` or ``cannot show``."""
        if self.cannot:
            return "cannot show"
        return "shown" if self.holds else "not shown"

    def text(self) -> str:
        """The sentence: what holds or, when it does not, what was not shown."""
        return self.shown if self.holds or not self.not_shown else self.not_shown

    def counted(self) -> str:
        """The games (and seat-games) behind the claim, in words."""
        if self.seat_games is not None:
            return f"{seat_games(self.seat_games)} in {games(self.games)}"
        return games(self.games)

    def sentence(self) -> str:
        """The claim as a report prints it: its sentence, then its test, p-values and games."""
        body = self.text().rstrip(".")
        if self.p is not None and self.adjusted is not None:
            verdict = (
                ""
                if self.holds
                else (
                    "; not significant after correction"
                    if self.adjusted > ALPHA
                    else "; the test it depends on did not hold"
                )
            )
            return (
                f"{body} ({self.test}, p {_p(self.p)}, Holm-adjusted p {_p(self.adjusted)}"
                f"{verdict}; {self.counted()})."
            )
        if self.requires:
            return f"{body} ({self.test or 'resting on the tests named with it'}; {self.counted()})."
        return f"{body} ({self.counted()})."

    def record(self) -> dict[str, Any]:
        """The claim as JSON: everything a table of findings is made from."""
        e = self.estimate
        return {
            "text": self.sentence(),
            "statement": self.text(),
            "value": None if e is None else e.value,
            "interval": None if e is None else [e.low, e.high],
            "n": self.seat_games if self.seat_games is not None else self.games,
            "unit": "seat-games" if self.seat_games is not None else "games",
            "games": self.games,
            "test": self.test or ("none: an estimate with its 95% interval" if not self.requires else ""),
            "p": self.p,
            "adjusted_p": self.adjusted,
            "holds": self.holds,
            "status": self.status,
        }


def _p(p: float) -> str:
    if p < 0.0001:
        return "< 0.0001"
    return "= " + (f"{p:.2g}" if p < 0.01 else f"{p:.3f}".rstrip("0").rstrip("."))


@dataclass(slots=True)
class Family:
    """Every claim of a study that rests on a test, corrected together with Holm–Bonferroni at
    level ``alpha``. Claims :meth:`register`; :meth:`settle` sets each one's adjusted p-value and
    whether it holds."""

    alpha: float = ALPHA
    claims: list[Claim] = field(default_factory=list)

    def register(self, claim: Claim) -> Claim:
        """Add ``claim`` to the family (estimates and claims that cannot show anything are kept
        but not tested)."""
        self.claims.append(claim)
        return claim

    def tested(self) -> list[Claim]:
        """The claims that carry a p-value."""
        return [c for c in self.claims if c.p is not None and not c.cannot]

    def settle(self) -> None:
        """Apply the correction: adjusted p-values first, then claims resting on others."""
        tested = self.tested()
        adjusted = holm({str(i): c.p for i, c in enumerate(tested) if c.p is not None}, self.alpha)
        for i, claim in enumerate(tested):
            claim.adjusted, claim.holds = adjusted[str(i)]
        for claim in self.claims:
            if claim.cannot:
                claim.holds = False
        for claim in self.claims:
            claim.holds = _holds(claim)

    def method(self) -> str:
        """The correction in words, for a report."""
        return (
            f"Holm–Bonferroni over the {len(self.tested())} claims that rest on a test, at the "
            f"{100 * self.alpha:.0f}% level: a claim is stated as shown only when its Holm-adjusted "
            "p-value is at most 0.05 (and the test it depends on holds); otherwise it is worded as "
            "not shown. Intervals are 95% intervals, not corrected."
        )


def _holds(claim: Claim) -> bool:
    if claim.cannot:
        return False
    own = claim.holds if claim.p is not None else True
    return own and all(_holds(r) for r in claim.requires)
