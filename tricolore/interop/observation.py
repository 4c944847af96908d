"""The observation encoding: a seat's view as a fixed-size float32 vector.

A view (``state.view(seat)``) is JSON whose shape grows through a game (citizens recruited, rounds
played, the Book of trials). :class:`ObservationEncoder` turns it into a vector of one fixed length
for a game, its table size and its options, the same at every step, in four parts:

1. **seat** (``players`` values): one-hot of the observing seat.
2. **prompt** (3 values): 1 where the seat is asked to act now, where that move is a secret
   simultaneous one, where it is a response window (from ``state.pending()``; public facts).
3. **partial** (``FlatActions.size`` values): how many times each flat index has been chosen in
   the action the seat is building now (the kind, the parameters so far, the chips of a bid), so a
   policy knows which step of a decomposed action it is at.
4. **view** (:data:`VIEW_FEATURES` values): every leaf of the view, hashed (the "hashing trick",
   Weinberger et al., 2009). A leaf's path (keys and list positions, ``citizens/3/cakes``) picks a
   bucket and a sign from a BLAKE2b hash of the path; a number (or true/false as 1/0) adds
   ``sign × log1p(|x|) × sign(x)`` there; text and null add ``sign × 1`` at the bucket of
   ``path=value``. Each bucket is then clipped to ±:data:`BOUND`.

Only the seat's own view goes in (and the public prompt), so an observation holds nothing the seat
may not know; the raw view itself is handed out beside it (``infos[agent]["view"]``) for agents
that read JSON.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

import numpy as np

from tricolore.core.errors import OptionsError
from tricolore.core.model import Seat, State
from tricolore.interop.codec import FlatActions, Partial

VIEW_FEATURES = 2048
"""Buckets of the hashed view."""
BOUND = 32.0
"""Every value of an observation is within ±BOUND."""
PROMPT_FEATURES = 3


@functools.lru_cache(maxsize=1 << 16)
def _bucket(path: str) -> tuple[int, float]:
    digest = hashlib.blake2b(path.encode(), digest_size=8).digest()
    number = int.from_bytes(digest, "little")
    return number % VIEW_FEATURES, 1.0 if number >> 63 else -1.0


def hash_view(view: Mapping[str, Any], out: np.ndarray | None = None) -> np.ndarray:
    """The view part of an observation: every leaf of ``view`` hashed into VIEW_FEATURES buckets."""
    vec = np.zeros(VIEW_FEATURES, dtype=np.float32) if out is None else out
    buckets: list[int] = []
    signs: list[float] = []
    numbers: list[float] = []
    flags: list[float] = []  # 1.0 where the leaf is text or null (added as is), 0.0 for a number
    stack: list[tuple[str, Any]] = [("", view)]
    pop, push = stack.pop, stack.append
    while stack:
        path, value = pop()
        kind = type(value)
        if kind is dict:
            for k, v in value.items():
                push((f"{path}/{k}", v))
        elif kind is list or kind is tuple:
            for i, v in enumerate(value):
                push((f"{path}/{i}", v))
        elif kind is int or kind is float or kind is bool:
            bucket, sign = _bucket(path)
            buckets.append(bucket)
            signs.append(sign)
            numbers.append(float(value))
            flags.append(0.0)
        elif isinstance(value, Mapping):
            for k, v in value.items():
                push((f"{path}/{k}", v))
        else:
            bucket, sign = _bucket(f"{path}={value}")
            buckets.append(bucket)
            signs.append(sign)
            numbers.append(1.0)
            flags.append(1.0)
    if buckets:
        x = np.asarray(numbers, dtype=np.float64)
        # numbers are squashed (sign(x)·log1p|x|); true is 1, false 0, text and null 1
        squashed = np.where(np.asarray(flags) > 0, x, np.sign(x) * np.log1p(np.abs(x)))
        np.add.at(vec, np.asarray(buckets), (np.asarray(signs) * squashed).astype(np.float32))
    np.clip(vec, -BOUND, BOUND, out=vec)
    return vec


class ObservationEncoder:
    """Encodes what one seat knows, and the action it is building, as a fixed-size vector."""

    def __init__(self, codec: FlatActions) -> None:
        self.codec = codec
        self.players = codec.players
        self.size = self.players + PROMPT_FEATURES + codec.size + VIEW_FEATURES
        """The length of every observation of this game, table size and options."""

    def encode(self, state: State, seat: Seat, partial: Partial | None = None,
               view: Mapping[str, Any] | None = None, hashed: np.ndarray | None = None) -> np.ndarray:
        """The observation of ``seat`` with ``partial`` the action it is building; ``view`` is the
        seat's view if already made, ``hashed`` its :func:`hash_view` (a view is the same at every
        step of one action, so environments hash it once)."""
        out = np.zeros(self.size, dtype=np.float32)
        out[seat] = 1.0
        at = self.players
        prompt = state.pending().get(seat)
        if prompt is not None:
            out[at] = 1.0
            out[at + 1] = float(prompt.secret)
            out[at + 2] = float(prompt.window is not None)
        at += PROMPT_FEATURES
        if partial is not None:
            for index in self.codec.chosen_indices(partial):
                out[at + index] += 1.0
        at += self.codec.size
        if hashed is not None:
            out[at:] = hashed
        else:
            hash_view(state.view(seat) if view is None else view, out[at:])
        np.clip(out, -BOUND, BOUND, out=out)
        return out


FORMS = ("hashed", "structured", "flat")
"""The observation forms :func:`make_observer` builds: ``hashed`` (:class:`ObservationEncoder`'s
vector), ``structured`` (a ``gymnasium.spaces.Dict`` of named fixed-shape arrays, see
:mod:`tricolore.interop.structured`) and ``flat`` (the structured one flattened into one vector)."""


@runtime_checkable
class Observer(Protocol):
    """Encodes one seat's observation in one form (see :func:`make_observer`)."""

    form: str
    """One of :data:`FORMS`."""
    size: int
    """The length of the vector (hashed, flat); for the structured form, of its flattening."""

    @property
    def space(self) -> Any:
        """The gymnasium space every observation of this observer is in."""

    def encode(self, state: State, seat: Seat, partial: Partial | None = None,
               view: Mapping[str, Any] | None = None) -> Any:
        """The observation of ``seat`` building ``partial``; ``view`` is ``state.view(seat)`` if
        already made. A float32 vector (hashed, flat) or a dict of arrays (structured)."""


class HashedObserver:
    """The hashed form: :class:`ObservationEncoder`'s vector, the same values.

    The view part is computed once per view: passing the same ``view`` object again (one action is
    built in several steps over one view) reuses it. Views are not changed after they are made."""

    form = "hashed"

    def __init__(self, codec: FlatActions) -> None:
        self.codec = codec
        self.encoder = ObservationEncoder(codec)
        self.size = self.encoder.size
        self._last: tuple[Mapping[str, Any], np.ndarray] | None = None

    @functools.cached_property
    def space(self) -> Any:
        """``Box(-BOUND, BOUND, (size,), float32)``."""
        from gymnasium import spaces
        return spaces.Box(-BOUND, BOUND, (self.size,), np.float32)

    def encode(self, state: State, seat: Seat, partial: Partial | None = None,
               view: Mapping[str, Any] | None = None) -> np.ndarray:
        """The observation vector (see :meth:`ObservationEncoder.encode`)."""
        if view is None:
            return self.encoder.encode(state, seat, partial)
        last = self._last
        if last is None or last[0] is not view:
            last = self._last = (view, hash_view(view))
        return self.encoder.encode(state, seat, partial, view, last[1])


def make_observer(codec: FlatActions, form: str = "hashed") -> Observer:
    """The observer of ``codec``'s game, table size and options in ``form`` (one of :data:`FORMS`).

    The structured and flat forms need gymnasium (the ``rl`` extra)."""
    if form == "hashed":
        return HashedObserver(codec)
    if form in ("structured", "flat"):
        from tricolore.interop.structured import FlatObserver, StructuredObserver
        structured = StructuredObserver(codec)
        return structured if form == "structured" else FlatObserver(structured)
    raise OptionsError(f"there is no observation form {form!r}; the forms are {', '.join(FORMS)}")
