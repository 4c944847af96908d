"""Draws of chance a game makes often, the same as :mod:`random`'s and cheaper once compiled.

A game shuffles a deck when it deals, and shuffles what a seat has not seen each time a search
resamples a world (``determinize``); random play draws a number for every decision. In
:mod:`random` these are interpreted code (a shuffle makes a call per card). :func:`shuffle`,
:func:`randrange`, :func:`randint` and :func:`choice` give the very outcome the generator's
methods give, drawing the same bits, so seeds, records and digests are unchanged, at a fraction of
the cost on the compiled build. A generator of a class of its own (a script of chance) draws its
own way.

>>> import random
>>> mine, theirs = list(range(10)), list(range(10))
>>> shuffle(random.Random(7), mine)
>>> random.Random(7).shuffle(theirs)
>>> mine == theirs
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Final, TypeVar

T = TypeVar("T")

PLAIN: Final = random.Random
"""The generator class whose draws these repeat (a module constant, which the compiled build reads
directly where ``random.Random`` is two lookups)."""


_GETRANDBITS: Final = random.Random.getrandbits
"""The plain generator's ``getrandbits``, called on a generator of that very class: cheaper once
compiled than asking the generator for its method at every draw."""


def _below(rng: random.Random, n: int) -> int:
    """A whole number from 0 to ``n - 1`` (``n`` at least 1) drawn as :mod:`random` draws one for
    ``randrange``, ``choice`` and ``shuffle``: ``n.bit_length()`` random bits, drawn again while
    they make ``n`` or more. ``rng`` is a plain generator."""
    bits = n.bit_length()
    drawn: int = _GETRANDBITS(rng, bits)
    while drawn >= n:
        drawn = _GETRANDBITS(rng, bits)
    return drawn


def randrange(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)``: a whole number from 0 to ``n - 1``, the same one."""
    if type(rng) is not PLAIN or n <= 0:
        return rng.randrange(n)  # a script of chance, or the refusal of an empty range
    return _below(rng, n)


def randint(rng: random.Random, low: int, high: int) -> int:
    """``rng.randint(low, high)``: a whole number from ``low`` to ``high``, the same one."""
    if type(rng) is not PLAIN or high < low:
        return rng.randint(low, high)
    return low + _below(rng, high - low + 1)


def choice(rng: random.Random, items: Sequence[T]) -> T:
    """``rng.choice(items)``: one of ``items``, the same one."""
    if type(rng) is not PLAIN or not items:
        return rng.choice(items)
    return items[_below(rng, len(items))]


def shuffle(rng: random.Random, items: list[Any]) -> None:
    """Shuffle ``items`` in place, in the order ``rng.shuffle(items)`` would put them (the
    Fisher–Yates shuffle of :mod:`random`, from the end). A generator of a class of its own, such
    as a script of chance, shuffles its own way."""
    if type(rng) is not PLAIN:
        rng.shuffle(items)
        return
    n = len(items)
    bits = n.bit_length()
    while n > 1:
        if n < 1 << (bits - 1):  # the bits of n, kept as n counts down rather than asked each time
            bits -= 1
        j: int = _GETRANDBITS(rng, bits)
        while j >= n:
            j = _GETRANDBITS(rng, bits)
        n -= 1
        items[n], items[j] = items[j], items[n]
