"""The few statistics a study states: rates and means with their 95% intervals, in words."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from tricolore.sim.batch import wilson_interval

Z95 = 1.96


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

    def number(self, digits: int = 2) -> str:
        """A mean in words: "25.93 [25.10–26.76]"."""
        return f"{self.value:.{digits}f} [{self.low:.{digits}f}–{self.high:.{digits}f}]"


def rate(successes: float, n: int) -> Estimate:
    """A proportion with its Wilson score interval."""
    low, high = wilson_interval(successes, n)
    return Estimate(successes / n if n else 0.0, low, high, n)


def mean(values: Sequence[float]) -> Estimate:
    """A mean with its normal-approximation interval (the studies' samples are hundreds of games
    or more)."""
    n = len(values)
    if n == 0:
        return Estimate(0.0, 0.0, 0.0, 0)
    centre = sum(values) / n
    if n == 1:
        return Estimate(centre, centre, centre, 1)
    spread = math.sqrt(sum((v - centre) ** 2 for v in values) / (n - 1) / n)
    return Estimate(centre, centre - Z95 * spread, centre + Z95 * spread, n)


def difference(a: Sequence[float], b: Sequence[float]) -> Estimate:
    """The difference of two independent means, ``mean(a) - mean(b)``, with its interval; ``n``
    is the smaller sample."""
    ma, mb = mean(a), mean(b)
    half_a, half_b = (ma.high - ma.value), (mb.high - mb.value)
    half = math.sqrt(half_a**2 + half_b**2)
    value = ma.value - mb.value
    return Estimate(value, value - half, value + half, min(ma.n, mb.n))


def games(n: int) -> str:
    """A game count in words: "1 game", "2,000 games"."""
    return f"{n:,} game" + ("" if n == 1 else "s")
