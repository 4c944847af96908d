"""Searching a game's strategy families for the best parameters: the cross-entropy method.

A family is a named strategy with the parameters its class declares
(:func:`tricolore.agents.params.declared`). The search space is every family together: which
family, and that family's parameter values. Numbers are searched inside their declared range
(whole numbers rounded), true/false and choices as categories; a number without both bounds
keeps its default.

The cross-entropy method (Rubinstein 1999; de Boer et al. 2005, "A tutorial on the cross-entropy
method") keeps a distribution over the space: a probability for each family, and for each family
a normal distribution per number (on the range scaled to 0..1) and a probability per category.
Each generation samples candidates, scores them, and refits the distribution to the best of them
(the elite), smoothed towards the previous one. Candidates are scored all at once on the same
games (common random numbers), so a candidate seen before is not played again: its score would be
the same.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import numpy as np

from tricolore.agents import strategy_class
from tricolore.agents.params import Parameter, Value, canonical, declared
from tricolore.core.errors import OptionsError
from tricolore.core.model import Game

Score = Callable[[Sequence[str]], Sequence[float]]
"""Scores candidates given as strategy texts, all on the same games; higher is better."""

SMALLEST_SPREAD = 0.02
"""The least standard deviation of a number (on its range scaled to 0..1), so a search never
stops exploring around its mean altogether."""
SMALLEST_SHARE = 0.02
"""The least probability of a family or a category after a refit, for the same reason."""


@dataclass(frozen=True, slots=True)
class Family:
    """A named strategy and the parameters it declares."""

    name: str
    parameters: Mapping[str, Parameter] = field(default_factory=dict)

    def searched(self) -> dict[str, Parameter]:
        """The parameters the search varies: bounded numbers, true/false and choices."""
        return {k: p for k, p in self.parameters.items() if _searchable(p)}

    def text(self, values: Mapping[str, Value]) -> str:
        """The candidate ``values`` as a strategy text, written the one way (defaults left out)."""
        return canonical(self.name, values, SimpleNamespace(parameters=self.parameters))


def _searchable(p: Parameter) -> bool:
    if isinstance(p.default, bool):
        return True
    if isinstance(p.default, str):
        return len(p.choices) > 1
    return p.low is not None and p.high is not None and p.high > p.low


@dataclass(frozen=True, slots=True)
class Space:
    """The families a search chooses from."""

    families: tuple[Family, ...]

    @classmethod
    def of(cls, game: Game, names: Sequence[str] | None = None) -> Space:
        """The families of ``game``'s named strategies (or of ``names``), with what they declare."""
        chosen = list(game.strategies) if names is None else list(names)
        if not chosen:
            raise OptionsError(f"{game.info.title} has no named strategy to search")
        for name in chosen:
            if name not in game.strategies:
                raise OptionsError(f"{game.info.title} has no strategy {name!r} to search; "
                                   f"strategies are: {', '.join(game.strategies)}")
        return cls(tuple(Family(n, dict(declared(strategy_class(game, n)))) for n in chosen))


@dataclass(slots=True)
class Distribution:
    """Where the cross-entropy method samples: family probabilities, and for each family the
    mean and spread of each number (scaled to 0..1) and the probabilities of each category."""

    families: np.ndarray
    means: list[dict[str, float]]
    spreads: list[dict[str, float]]
    categories: list[dict[str, np.ndarray]]

    @classmethod
    def start(cls, space: Space, spread: float = 0.3) -> Distribution:
        """Every family alike; numbers centred on their defaults, categories alike."""
        means: list[dict[str, float]] = []
        spreads: list[dict[str, float]] = []
        categories: list[dict[str, np.ndarray]] = []
        for family in space.families:
            m: dict[str, float] = {}
            s: dict[str, float] = {}
            c: dict[str, np.ndarray] = {}
            for key, p in family.searched().items():
                options = _options(p)
                if options is not None:
                    c[key] = np.full(len(options), 1 / len(options))
                else:
                    m[key] = _scaled(p, float(p.default))
                    s[key] = spread
            means.append(m)
            spreads.append(s)
            categories.append(c)
        n = len(space.families)
        return cls(np.full(n, 1 / n), means, spreads, categories)

    def as_json(self, space: Space) -> dict[str, Any]:
        """The distribution in a results file: each family's probability and parameter means."""
        out: dict[str, Any] = {}
        for i, family in enumerate(space.families):
            params = family.searched()
            centre: dict[str, Any] = {}
            for key, u in self.means[i].items():
                centre[key] = _value(params[key], u)
            for key, probs in self.categories[i].items():
                options = _options(params[key]) or []
                centre[key] = {str(_text(o)): round(float(q), 4) for o, q in zip(options, probs, strict=True)}
            out[family.name] = {"probability": round(float(self.families[i]), 4), "centre": centre}
        return out


def _options(p: Parameter) -> list[Value] | None:
    if isinstance(p.default, bool):
        return [False, True]
    if isinstance(p.default, str):
        return list(p.choices)
    return None


def _text(v: Value) -> str:
    return ("true" if v else "false") if isinstance(v, bool) else str(v)


def _scaled(p: Parameter, x: float) -> float:
    assert p.low is not None and p.high is not None
    return (x - p.low) / (p.high - p.low)


def _value(p: Parameter, u: float) -> Value:
    """The parameter's value at ``u`` on its range scaled to 0..1 (clipped; whole numbers rounded)."""
    assert p.low is not None and p.high is not None
    x = p.low + min(1.0, max(0.0, u)) * (p.high - p.low)
    if isinstance(p.default, int):
        return int(min(p.high, max(p.low, round(x))))
    return round(x, 4)


@dataclass(frozen=True, slots=True)
class Candidate:
    """One point of the space: a family and its values, written as a strategy text."""

    family: int
    values: Mapping[str, Value]
    text: str
    scaled: Mapping[str, float]
    """Each searched number's position on its range scaled to 0..1, as sampled."""


def default_candidate(space: Space, family: int) -> Candidate:
    """A family with its defaults."""
    f = space.families[family]
    values = {k: p.default for k, p in f.searched().items()}
    scaled = {k: _scaled(p, float(p.default)) for k, p in f.searched().items()
              if _options(p) is None}
    return Candidate(family, values, f.text(values), scaled)


def sample(space: Space, dist: Distribution, rng: np.random.Generator) -> Candidate:
    """One candidate drawn from ``dist``."""
    i = int(rng.choice(len(space.families), p=dist.families))
    family = space.families[i]
    values: dict[str, Value] = {}
    scaled: dict[str, float] = {}
    for key, p in family.searched().items():
        options = _options(p)
        if options is not None:
            values[key] = options[int(rng.choice(len(options), p=dist.categories[i][key]))]
        else:
            u = float(np.clip(rng.normal(dist.means[i][key], dist.spreads[i][key]), 0.0, 1.0))
            values[key] = _value(p, u)
            scaled[key] = u
    return Candidate(i, values, family.text(values), scaled)


def refit(space: Space, dist: Distribution, elite: Sequence[Candidate], smoothing: float) -> Distribution:
    """``dist`` moved towards the elite by ``smoothing`` (1 forgets the old distribution)."""
    counts = np.bincount([c.family for c in elite], minlength=len(space.families)).astype(float)
    families = _floored((1 - smoothing) * dist.families + smoothing * counts / counts.sum())
    means = [dict(m) for m in dist.means]
    spreads = [dict(s) for s in dist.spreads]
    categories = [{k: v.copy() for k, v in c.items()} for c in dist.categories]
    for i, family in enumerate(space.families):
        members = [c for c in elite if c.family == i]
        if not members:
            continue  # no evidence about this family's parameters this generation
        for key, p in family.searched().items():
            options = _options(p)
            if options is not None:
                seen = np.array([sum(c.values[key] == o for c in members) for o in options], dtype=float)
                categories[i][key] = _floored((1 - smoothing) * categories[i][key]
                                              + smoothing * seen / seen.sum())
            else:
                us = np.array([c.scaled[key] for c in members])
                means[i][key] = (1 - smoothing) * means[i][key] + smoothing * float(us.mean())
                spread = float(us.std()) if len(us) > 1 else spreads[i][key] / 2
                spreads[i][key] = max(SMALLEST_SPREAD, (1 - smoothing) * spreads[i][key] + smoothing * spread)
    return Distribution(families, means, spreads, categories)


def _floored(probs: np.ndarray) -> np.ndarray:
    floored = np.maximum(probs, SMALLEST_SHARE)
    return np.asarray(floored / floored.sum())


@dataclass(slots=True)
class Generation:
    """What one generation of the search sampled and found."""

    candidates: list[str]
    scores: list[float]
    elite: list[str]
    distribution: dict[str, Any]


@dataclass(slots=True)
class Searched:
    """The outcome of a search: every candidate scored (in the order first seen), the best one
    that was not excluded, and the generations."""

    scores: dict[str, float]
    best: str | None
    generations: list[Generation]
    family_of: dict[str, str] = field(default_factory=dict)

    @property
    def best_score(self) -> float:
        """The best candidate's score (minus infinity when every candidate was excluded)."""
        return self.scores[self.best] if self.best is not None else -math.inf

    def ranked(self, exclude: Sequence[str] = ()) -> list[tuple[str, float]]:
        """Candidates from best to worst, without ``exclude``."""
        skip = set(exclude)
        return sorted(((t, s) for t, s in self.scores.items() if t not in skip), key=lambda ts: -ts[1])


def cross_entropy(
    space: Space,
    score: Score,
    *,
    population: int = 12,
    elite: float = 0.25,
    generations: int = 4,
    smoothing: float = 0.7,
    seed: int = 0,
    exclude: Sequence[str] = (),
    deadline: float | None = None,
) -> Searched:
    """Search ``space`` for the candidate ``score`` rates highest, by the cross-entropy method.

    The first generation holds every family's defaults (as far as ``population`` allows) and draws
    for the rest; each later generation draws ``population`` candidates, distinct as long as the
    space offers enough of them. The best ``elite``
    fraction of a generation refits the distribution. ``exclude`` names strategies that are scored
    like the others (they inform the search) but never returned as the best (e.g. those already in
    the pool). The search stops early when the clock (``time.monotonic``) passes ``deadline``,
    after at least one generation. The random draws depend only on ``seed``.
    """
    if population < 2:
        raise OptionsError("the search needs a population of at least 2 candidates")
    if not 0 < elite <= 1:
        raise OptionsError("the elite must be a fraction above 0 and at most 1 of the population")
    if not 0 < smoothing <= 1:
        raise OptionsError("the smoothing must be above 0 and at most 1")
    rng = np.random.default_rng(seed)
    dist = Distribution.start(space)
    scores: dict[str, float] = {}
    family_of: dict[str, str] = {}
    history: list[Generation] = []
    keep = max(1, math.ceil(elite * population))
    for g in range(max(1, generations)):
        if g and deadline is not None and time.monotonic() > deadline:
            break
        drawn: list[Candidate] = []
        if g == 0:
            drawn.extend(default_candidate(space, i) for i in range(min(population, len(space.families))))
        tries = 0
        while len(drawn) < population:  # distinct candidates, while the space has enough of them
            c = sample(space, dist, rng)
            tries += 1
            if tries > 20 * population or all(c.text != d.text for d in drawn):
                drawn.append(c)
        new = list(dict.fromkeys(c.text for c in drawn if c.text not in scores))
        if new:
            for text, value in zip(new, score(new), strict=True):
                scores[text] = float(value)
        for c in drawn:
            family_of.setdefault(c.text, space.families[c.family].name)
        order = sorted(range(len(drawn)), key=lambda k: -scores[drawn[k].text])
        chosen = [drawn[k] for k in order[:keep]]
        dist = refit(space, dist, chosen, smoothing)
        history.append(Generation([c.text for c in drawn], [scores[c.text] for c in drawn],
                                  [c.text for c in chosen], dist.as_json(space)))
    skip = set(exclude)
    allowed = [t for t in scores if t not in skip]
    best = max(allowed, key=lambda t: scores[t]) if allowed else None
    return Searched(scores, best, history, family_of)
