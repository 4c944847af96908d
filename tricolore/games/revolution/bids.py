"""Bids on the Bidding Chart: checking a full placement, drawing a random one, counting them, and
building one chip by chip.

A bid is one action for people and the network: ``{"type": "bid", "placement": {"Printer":
{"force": 1}, "Card": {"gold": 2}, ...}}``, every chip placed. For RL and search, :class:`ChipByChip`
decomposes it into single-chip steps (Force first, then Blackmail, then Gold), each offering only
the (currency, space) pairs from which a legal bid can still be completed.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations_with_replacement
from typing import Any

from tricolore.core.actions import Domain
from tricolore.core.errors import listed
from tricolore.games.revolution.data import (
    AREAS,
    CURRENCIES,
    GOLD,
    MAX_GOLD_ON_CARD,
    MAX_SPACES_PER_BID,
    SEED_CHART,
    SJG_CHART,
    Space,
)

Placement = dict[str, dict[str, int]]
"""Space name → currency → chips, only spaces and currencies with chips."""


def cap(space: Space, currency: str) -> int | None:
    """The most chips of ``currency`` one player may put on ``space`` (``None``: no limit)."""
    if not space.allows(currency):
        return 0
    return MAX_GOLD_ON_CARD if space.special == "card" and currency == GOLD else None


def title(currency: str) -> str:
    """A currency as the rulebook writes it: ``"force"`` is "Force"."""
    return currency.capitalize()


def shown(value: object) -> str:
    """A value a player sent, short enough to quote in a sentence (JSON's true, not True)."""
    text = repr(value) if isinstance(value, str) else str(value).replace("True", "true").replace(
        "False", "false").replace("None", "null")
    return text if len(text) <= 40 else text[:37] + "..."


def not_a_currency(value: object) -> str:
    """Why ``value`` is not a currency."""
    return f"{shown(value)} is not a currency; the currencies are Force, Blackmail and Gold"


def over_cap(space: Space, currency: str, n: int) -> str | None:
    """The rule broken by placing ``n`` chips of ``currency`` on ``space`` (its forbidden
    currencies; at most three Gold on Card), or ``None``."""
    limit = cap(space, currency)
    if limit == 0 and n:
        takes = listed([title(c) for c in CURRENCIES if space.allows(c)], "and")
        return f"{title(currency)} may not be bid on the {space.name}; it takes only {takes}"
    if limit is not None and n > limit:
        each = ", one card for each" if space.special == "card" else ""
        return f"at most {limit} {title(currency)} may be placed on the {space.name}{each}; you placed {n}"
    return None


def no_such_space(chart: Sequence[Space], name: object) -> str:
    """Why ``name`` is not a space to bid on: an area, the other edition's character, or a typo."""
    area = next((a for a in AREAS if a.name == name), None)
    if area is not None:
        character = next((s.name for s in chart if s.area == area.name), None)
        return (f"the {area.name} is an area of the board, not a space on the Bidding Chart; "
                f"the {character} places markers there")
    if any(s.name == name for chart_ in (SEED_CHART, SJG_CHART) for s in chart_):
        return f"the {name} is not on this edition's Bidding Chart"
    return (f"there is no space {shown(name)} on the Bidding Chart; its spaces are "
            f"{listed([s.name for s in chart], 'and')}")


def normalise(placement: Mapping[str, Mapping[str, int]]) -> Placement:
    """The placement without empty entries, spaces and currencies in a fixed order."""
    return {space: {c: n for c, n in sorted(chips.items()) if n}
            for space, chips in sorted(placement.items()) if any(chips.values())}


@dataclass(frozen=True, slots=True)
class Bid(Domain):
    """Every legal placement of ``chips`` on ``chart``."""

    chart: tuple[Space, ...]
    chips: tuple[tuple[str, int], ...]

    def holding(self) -> dict[str, int]:
        """The chips to place, by currency."""
        return dict(self.chips)

    def problem(self, name: str, value: object) -> str | None:
        """Why ``value`` is not a legal placement, as the rule it breaks (Bidding), or ``None``."""
        if not isinstance(value, Mapping):
            return f'a bid places chips on spaces, like {{"Printer": {{"gold": 2}}}}; you sent {shown(value)}'
        spaces = {s.name: s for s in self.chart}
        placed = dict.fromkeys(CURRENCIES, 0)
        used = 0
        for space_name, chips in value.items():
            space = spaces.get(space_name)
            if space is None:
                return no_such_space(self.chart, space_name)
            if not isinstance(chips, Mapping):
                return (f'the chips on the {space.name} must give each currency its number of chips, '
                        f'like {{"gold": 2}}; you sent {shown(chips)}')
            counted = 0
            for currency, n in chips.items():
                if currency not in CURRENCIES:
                    return not_a_currency(currency)
                if type(n) is not int:
                    return (f"the {title(currency)} on the {space.name} must be a whole number of chips; "
                            f"you sent {shown(n)}")
                if n < 0:
                    return (f"the {title(currency)} on the {space.name} must be 0 chips or more; "
                            f"you sent {n}")
                why = over_cap(space, currency, n)
                if why:
                    return why
                placed[currency] += n
                counted += n
            used += counted > 0
        holding = self.holding()
        for currency in CURRENCIES:
            held = holding.get(currency, 0)
            if placed[currency] > held:
                return (f"you placed {placed[currency]} {title(currency)} but hold "
                        f"{held or 'none'}: a bid uses only the chips you hold")
        if used > MAX_SPACES_PER_BID:
            return (f"a bid may use at most {MAX_SPACES_PER_BID} spaces of the Bidding Chart; "
                    f"this one uses {used}")
        for currency in CURRENCIES:
            held = holding.get(currency, 0)
            if placed[currency] < held:
                return (f"every chip must be placed: you hold {held} {title(currency)} and placed "
                        f"{placed[currency]}")
        return None

    def sample(self, rng: random.Random) -> Placement:
        """A random legal placement, built chip by chip."""
        builder = ChipByChip(self.chart, self.holding())
        while not builder.done:
            options = builder.options()
            builder.place(*options[rng.randrange(len(options))])
        return builder.placement()

    def values(self) -> Sequence[object] | None:
        """Every legal placement, for holdings of up to seven chips."""
        if sum(n for _, n in self.chips) > 7:
            return None
        return list(enumerate_bids(self.chart, self.holding()))

    def describe(self) -> dict[str, Any]:
        """The chips to place and each space's restrictions, as JSON."""
        return {"kind": "bid", "chips": dict(self.chips),
                "spaces": [{"name": s.name, "forbidden": sorted(s.forbidden),
                            "max_gold": cap(s, GOLD)} for s in self.chart],
                "max_spaces": MAX_SPACES_PER_BID}


def enumerate_bids(chart: Sequence[Space], chips: Mapping[str, int]) -> Iterator[Placement]:
    """Every legal placement of ``chips``, each once."""

    def spread(i: int, placement: dict[str, dict[str, int]]) -> Iterator[Placement]:
        if i == len(CURRENCIES):
            if sum(1 for v in placement.values() if any(v.values())) <= MAX_SPACES_PER_BID:
                yield normalise(placement)
            return
        currency = CURRENCIES[i]
        allowed = [s for s in chart if s.allows(currency)]
        for combo in combinations_with_replacement(range(len(allowed)), chips.get(currency, 0)):
            counts: dict[str, int] = {}
            for k in combo:
                counts[allowed[k].name] = counts.get(allowed[k].name, 0) + 1
            if any((lim := cap(s, currency)) is not None and counts.get(s.name, 0) > lim
                   for s in allowed):
                continue
            trial = {k: dict(v) for k, v in placement.items()}
            for name, n in counts.items():
                trial.setdefault(name, {})[currency] = n
            yield from spread(i + 1, trial)

    yield from spread(0, {})


class ChipByChip:
    """A bid built one chip at a time: the decomposition for RL and tree search.

    Chips are placed strongest currency first. :meth:`options` lists the (currency, space) pairs
    for the next chip from which every remaining chip can still be placed legally.
    """

    def __init__(self, chart: Sequence[Space], chips: Mapping[str, int]) -> None:
        self.chart = tuple(chart)
        self.left = {c: chips.get(c, 0) for c in CURRENCIES}
        self.placed: dict[str, dict[str, int]] = {}
        self.caps = {(s.name, c): cap(s, c) for s in self.chart for c in CURRENCIES}
        self.open_to_all = frozenset(s.name for s in self.chart
                                     if all(self.caps[s.name, c] is None for c in CURRENCIES))

    @property
    def done(self) -> bool:
        """Whether every chip is placed."""
        return not any(self.left.values())

    def currency(self) -> str | None:
        """The currency of the next chip."""
        return next((c for c in CURRENCIES if self.left[c]), None)

    def options(self) -> list[tuple[str, str]]:
        """Legal (currency, space) pairs for the next chip."""
        currency = self.currency()
        if currency is None:
            return []
        used = {name for name, chips in self.placed.items() if any(chips.values())}
        out = []
        for space in self.chart:
            limit = self.caps[space.name, currency]
            here = self.placed.get(space.name, {}).get(currency, 0)
            if limit is not None and here >= limit:
                continue
            opens = space.name not in used
            if opens and len(used) >= MAX_SPACES_PER_BID:
                continue
            if self._completable(used | {space.name}, currency, space.name):
                out.append((currency, space.name))
        return out

    def _completable(self, used: set[str], currency: str, name: str) -> bool:
        """Whether the chips left after this one fit in the spaces the bid may still use."""
        room = MAX_SPACES_PER_BID - len(used)
        if (room > 0 and self.open_to_all) or used & self.open_to_all:
            # every chip left fits on one space that takes any currency without limit (the
            # Printer, say): one already used, or a fresh one
            return True
        left = dict(self.left)
        left[currency] -= 1
        for c in CURRENCIES:
            if not left[c]:
                continue
            capacity = 0
            for space in self.chart:
                limit = self.caps[space.name, c]
                if limit == 0:
                    continue
                here = self.placed.get(space.name, {}).get(c, 0) + (c == currency and space.name == name)
                free = None if limit is None else limit - here
                if space.name in used or room > 0:
                    capacity = left[c] if free is None else capacity + free
                if capacity >= left[c]:
                    break
            if capacity < left[c]:
                return False
        return True

    def refusal(self, currency: str, space: str) -> str | None:
        """Why the next chip may not be ``currency`` on ``space``, in the rules' words, or ``None``."""
        if (currency, space) in self.options():
            return None
        if currency not in CURRENCIES:
            return not_a_currency(currency)
        spaces = {s.name: s for s in self.chart}
        if space not in spaces:
            return no_such_space(self.chart, space)
        if not self.left[currency]:
            return f"no {title(currency)} is left to place"
        following = self.currency()
        if currency != following:
            return (f"the {title(following or currency)} is placed before the {title(currency)}: "
                    "chips go Force first, then Blackmail, then Gold")
        here = self.placed.get(space, {}).get(currency, 0)
        why = over_cap(spaces[space], currency, here + 1)
        if why:
            return why
        used = {name for name, chips in self.placed.items() if any(chips.values())}
        if space not in used and len(used) >= MAX_SPACES_PER_BID:
            return (f"a bid may use at most {MAX_SPACES_PER_BID} spaces of the Bidding Chart; all "
                    f"{MAX_SPACES_PER_BID} are in use")
        return (f"{title(currency)} on the {space} would leave chips that cannot all be placed "
                "within the chart's limits")

    def place(self, currency: str, space: str) -> None:
        """Put the next chip (of ``currency``) on ``space``; a ``ValueError`` says which rule
        forbids it."""
        why = self.refusal(currency, space)
        if why is not None:
            raise ValueError(why[0].upper() + why[1:] + ".")
        self.left[currency] -= 1
        chips = self.placed.setdefault(space, {})
        chips[currency] = chips.get(currency, 0) + 1

    def placement(self) -> Placement:
        """The placement so far."""
        return normalise(self.placed)

    def action(self) -> dict[str, Any]:
        """The finished bid as an action."""
        if not self.done:
            raise ValueError("chips are left to place")
        return {"type": "bid", "placement": self.placement()}
