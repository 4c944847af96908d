"""The vocabulary of a game's flat action layout: how the environments number its actions.

An action is built in steps (:meth:`tricolore.core.actions.ActionSpace.steps`): first the kind,
then each required parameter. A layout says which *block* of slots each parameter is chosen in:
:class:`Values` (one slot per value of a fixed vocabulary, so an index means the same thing in
every state), :class:`Positions` (one slot per value offered now), :class:`Items` (a list chosen one
item at a time, then "done"), :class:`Phrases` (required free text, from the domain's examples)
and :class:`Chips` (a bid placed one chip at a time).

A game declares its layout in a ``layout.py`` beside its rules, as ``LAYOUT``: a function of the
state class, the number of players and the options that returns a :class:`Layout`
(:func:`tricolore.core.registry.companions` finds it). A game without one gets :func:`fallback`.
The codec that reads a layout is :class:`tricolore.interop.codec.FlatActions`.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from tricolore.core.actions import Amount, Choice, Domain, Subset, Text
from tricolore.core.errors import OptionsError
from tricolore.core.model import Options

DEAL_POSITIONS = 8
"""Open deals (and Culottes alliances) reachable by position: the first 8 offered."""
FALLBACK_POSITIONS = 32
"""A game without a declared layout: values of a choice offered by position, the first 32."""


def slot_key(value: object) -> tuple[str, object]:
    """The key a value is found by in a block: JSON true must not pass for 1, nor 1 for true."""
    return (type(value).__name__, value)


@dataclass(eq=False)
class Block:
    """A block of consecutive slots: one vocabulary of parameter values."""

    name: str
    offset: int = field(default=0, init=False)

    @property
    def size(self) -> int:
        """How many slots the block holds."""
        raise NotImplementedError

    def label(self, slot: int) -> str:
        """What slot ``slot`` of the block means."""
        raise NotImplementedError


@dataclass(eq=False)
class Values(Block):
    """One slot per value of a fixed vocabulary (seats, areas, card names, amounts...).

    ``strict``: a value offered outside the vocabulary is a bug in the layout (raise); otherwise
    (a capped vocabulary, such as amounts) it is simply not reachable.
    """

    values: tuple[object, ...] = ()
    labels: tuple[str, ...] | None = None
    strict: bool = True
    of_seats: bool = False
    """Whether the values are the seats (:func:`seats`): a player is shown by name there."""
    _index: dict[tuple[str, object], int] = field(default_factory=dict, init=False, repr=False)

    def __post_init__(self) -> None:
        self._index = {slot_key(v): i for i, v in enumerate(self.values)}
        numbers = [v for v in self.values if type(v) is int]
        whole = bool(numbers) and len(numbers) == len(self.values)
        self.span: tuple[int, int] | None = (
            (numbers[0], numbers[-1]) if whole and numbers == list(range(numbers[0], numbers[-1] + 1))
            else None)
        """``(first, last)`` when the values are the whole numbers from first to last."""

    @property
    def size(self) -> int:
        """How many slots the block holds."""
        return len(self.values)

    def slot(self, value: object) -> int | None:
        """The slot of ``value``, or ``None`` if it is outside the vocabulary."""
        return self._index.get(slot_key(value))

    def label(self, slot: int) -> str:
        """What slot ``slot`` of the block means."""
        if self.labels is not None:
            return f"{self.name} {self.labels[slot]}"
        value = self.values[slot]
        if value is None or isinstance(value, bool):
            return f"{self.name} {'none' if value is None else str(value).lower()}"
        return f"{self.name} {value}"


@dataclass(eq=False)
class Positions(Block):
    """One slot per position among the values offered now (values with no fixed vocabulary)."""

    count: int = DEAL_POSITIONS

    @property
    def size(self) -> int:
        """How many slots the block holds."""
        return self.count

    def label(self, slot: int) -> str:
        """What slot ``slot`` of the block means."""
        return f"{self.name}: option {slot + 1} offered now"


@dataclass(eq=False)
class Items(Block):
    """A list parameter chosen one item at a time: one slot per item (keyed by value, or by
    position when ``values`` is ``None``), then one slot that closes the list."""

    values: tuple[object, ...] | None = None
    count: int = 0
    of_seats: bool = False
    """Whether the items are seats: a player is shown by name there."""
    _index: dict[tuple[str, object], int] = field(default_factory=dict, init=False, repr=False)

    def __post_init__(self) -> None:
        if self.values is not None:
            self.count = len(self.values)
            self._index = {slot_key(v): i for i, v in enumerate(self.values)}

    @property
    def size(self) -> int:
        """How many slots the block holds: the items, and "done"."""
        return self.count + 1

    @property
    def done(self) -> int:
        """The slot that closes the list."""
        return self.count

    def slot(self, item: object) -> int | None:
        """The slot of ``item`` when items are keyed by value, or ``None``."""
        return self._index.get(slot_key(item))

    def label(self, slot: int) -> str:
        """What slot ``slot`` of the block means."""
        if slot == self.done:
            return f"{self.name}: done"
        if self.values is None:
            return f"{self.name}: add option {slot + 1} offered now"
        return f"{self.name}: add {self.values[slot]}"


class ChipBuilder(Protocol):
    """A bid being placed one chip at a time (Revolution!'s ``ChipByChip``)."""

    @property
    def done(self) -> bool:
        """Whether every chip is placed."""
        ...

    def options(self) -> list[tuple[str, str]]:
        """The (currency, space) pairs the next chip may go to."""
        ...

    def place(self, currency: str, space: str) -> None:
        """Place one chip of ``currency`` on ``space``."""
        ...

    def placement(self) -> dict[str, dict[str, int]]:
        """The bid: space → currency → chips."""
        ...


@dataclass(eq=False)
class Chips(Block):
    """A bid placed chip by chip: one slot per (currency, space) pair.

    ``builder`` starts a bid for the parameter's domain; the domain's ``held`` tells whether the
    seat has any chip to place (a bid with none needs no step). The finished value is the
    builder's placement, ``{space: {currency: chips}}``.
    """

    pairs: tuple[tuple[str, str], ...] = ()
    chart: tuple[Any, ...] = ()
    builder: Callable[[Domain], ChipBuilder] | None = None

    @property
    def size(self) -> int:
        """How many slots the block holds."""
        return len(self.pairs)

    def label(self, slot: int) -> str:
        """What slot ``slot`` of the block means."""
        currency, space = self.pairs[slot]
        return f"{self.name}: one {currency.capitalize()} chip on the {space}"

    def start(self, domain: Domain) -> ChipBuilder:
        """A new bid for ``domain``, no chip placed yet."""
        if self.builder is None:
            raise OptionsError(f"the {self.name} block has no way to place chips")
        return self.builder(domain)


@dataclass(eq=False)
class Phrases(Block):
    """Required free text: one slot per example phrase the game's domain offers."""

    count: int = 0

    @property
    def size(self) -> int:
        """How many slots the block holds."""
        return self.count

    def label(self, slot: int) -> str:
        """What slot ``slot`` of the block means."""
        return f"{self.name}: example phrase {slot + 1}"


@dataclass
class Layout:
    """A game's flat action space: its kinds, and which block each parameter is chosen in.

    ``params`` maps a parameter name, or ``"kind.name"`` for one kind only, to its block; a
    parameter it does not name falls back on ``by_domain`` (a block per domain type).
    """

    kinds: tuple[str, ...]
    params: dict[str, Block]
    by_domain: dict[type, Block] = field(default_factory=dict)
    _found: dict[tuple[str, str, type], Block] = field(default_factory=dict, init=False, repr=False,
                                                       compare=False)

    def block(self, kind: str, name: str, domain: Domain) -> Block:
        """The block ``name`` of ``kind`` is chosen in."""
        key = (kind, name, type(domain))
        found = self._found.get(key)
        if found is None:
            found = self._found[key] = self._block(kind, name, domain)
        return found

    def _block(self, kind: str, name: str, domain: Domain) -> Block:
        found = self.params.get(f"{kind}.{name}") or self.params.get(name)
        if found is None:
            for cls in type(domain).__mro__:
                if cls in self.by_domain:
                    return self.by_domain[cls]
            raise OptionsError(f"the flat action space has no place for the {name} of a {kind}")
        return found


MakeLayout = Callable[[type, int, Options], Layout]
"""What a game's ``layout.py`` declares as ``LAYOUT``: the layout for a state class, a number of
players and the table's options."""


def kinds_of(state_class: type) -> tuple[str, ...]:
    """The kinds of action of a game: every ``do_<kind>`` method of its state class, sorted."""
    return tuple(sorted(name[3:] for name, _ in inspect.getmembers(state_class)
                        if name.startswith("do_")))


def seats(players: int, name: str = "seat", none: str | None = None) -> Values:
    """One slot per seat, and one for nobody (labelled ``none``) if given."""
    values: tuple[object, ...] = tuple(range(players))
    if none is not None:
        values += (None,)
    return Values(name, values=values,
                  labels=tuple(str(s) for s in range(players)) + ((none,) if none else ()), of_seats=True)


def amounts(name: str, top: int, low: int = 1) -> Values:
    """One slot per amount from ``low`` to ``top``; a larger amount cannot be spelled."""
    return Values(name, values=tuple(range(low, top + 1)), strict=False)


def fallback(state_class: type) -> Layout:
    """The layout of a game without a declared one: its kinds, then every choice by position (the
    first 32 offered), amounts 0 to 20, list items by position, text from its examples, and any
    other domain that lists its values by position (a family whose domain cannot is not offered)."""
    choice = Positions("choice", count=FALLBACK_POSITIONS)
    return Layout(kinds_of(state_class), {}, {
        Choice: choice,
        Amount: amounts("amount", 20, low=0),
        Subset: Items("item", count=FALLBACK_POSITIONS),
        Text: Phrases("text", count=8),
        Domain: choice})


__all__ = ["DEAL_POSITIONS", "FALLBACK_POSITIONS", "Block", "ChipBuilder", "Chips", "Items", "Layout",
           "MakeLayout", "Phrases", "Positions", "Values", "amounts", "fallback", "kinds_of",
           "seats", "slot_key"]
