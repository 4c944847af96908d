"""Draws of chance a game makes often, the same as :mod:`random`'s and cheaper once compiled.

A game shuffles a deck when it deals, and shuffles what a seat has not seen each time a search
resamples a world (``determinize``); random play draws a number for every decision. In
:mod:`random` these are interpreted code (a shuffle makes a call per card). :func:`shuffle`,
:func:`randrange`, :func:`randint` and :func:`choice` give the very outcome the generator's
methods give, drawing the same bits, so seeds, records and digests are unchanged, at a fraction of
the cost on the compiled build. A generator of a class of its own (a script of chance) draws its
own way.

Random play draws its choices with :func:`pick`, which is not :mod:`random`'s: it is uniform too,
but takes one 32-bit word a draw where ``randrange`` takes up to two on average, and none for a
choice of one. A game's own chance never uses it, so no seed, record or digest depends on it.

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

from mypy_extensions import i64

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


_WORD: Final = 1 << 32
"""The range of one word of the Mersenne Twister, as ``getrandbits(32)`` draws it."""

_LOW_WORD: Final = _WORD - 1

_MOST_PICKED: Final = 1 << 31
"""The widest range :func:`pick` draws from one word: a word times a number under it fits the 64
bits the compiled build multiplies natively."""

_BYTE_PICKED: Final = 16
"""The widest range :func:`pick` draws from a word's top byte: a byte is one of the numbers
Python keeps made (up to 256), so nothing is allocated, and at most 15 bytes in 256 are drawn
again."""


def pick(rng: random.Random, n: int) -> int:
    """A whole number from 0 to ``n - 1``, each equally likely, drawn for random play: nothing
    drawn when ``n`` is 1, else one word of the generator multiplied by ``n``, its high part the
    number (Lemire's method: a product whose low part falls in the values that would favour some
    numbers is drawn again, so the draw is exact). For ``n`` up to 16 the word is its top 8 bits
    (``getrandbits(8)``), else all 32. Not what ``rng.randrange(n)`` draws: the game's chance keeps
    :func:`randrange`. A generator of a class of its own (a script of chance), or a range wider
    than ``2**31``, is drawn with ``randrange(n)``."""
    if type(rng) is not PLAIN or n <= 0 or n > _MOST_PICKED:
        return rng.randrange(n)
    if n == 1:
        return 0
    if n <= _BYTE_PICKED:
        small: int = _GETRANDBITS(rng, 8) * n
        if small & 255 < n:
            short_of_byte = 256 % n  # the low bytes that would favour some numbers
            while small & 255 < short_of_byte:
                small = _GETRANDBITS(rng, 8) * n
        return small >> 8
    count: i64 = n  # 64-bit arithmetic, native once compiled (a word times n overflows 62 bits)
    word: i64 = _GETRANDBITS(rng, 32)
    product = word * count
    low = product & _LOW_WORD
    if low < count:
        short = (_WORD - count) % count  # 2**32 % n: the low words that would favour some numbers
        while low < short:
            word = _GETRANDBITS(rng, 32)
            product = word * count
            low = product & _LOW_WORD
    return int(product >> 32)


def pick_between(rng: random.Random, low: int, high: int) -> int:
    """A whole number from ``low`` to ``high``, each equally likely, drawn with :func:`pick`."""
    if high < low:
        return rng.randint(low, high)  # the refusal of an empty range
    return low + pick(rng, high - low + 1)


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
