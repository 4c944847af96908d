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
   ``path=value``. A bucket adds its leaves in float32 in the order of a depth-first walk that
   takes the last key or item first; each bucket is then clipped to ±:data:`BOUND`. Environments
   hash through a :class:`ViewHasher`, which walks again only the parts of a view it has not met
   (the vectors are the same, bit for bit).

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


def clip(values: np.ndarray, low: np.ndarray | float, high: np.ndarray | float) -> None:
    """Clip ``values`` between ``low`` and ``high`` in place (two ufuncs: ``np.clip`` goes through
    numpy's interpreted wrappers, about three times the cost at the sizes of an observation)."""
    np.maximum(values, low, out=values)
    np.minimum(values, high, out=values)


@functools.lru_cache(maxsize=1 << 16)
def _bucket(path: str) -> tuple[int, float]:
    digest = hashlib.blake2b(path.encode(), digest_size=8).digest()
    number = int.from_bytes(digest, "little")
    return number % VIEW_FEATURES, 1.0 if number >> 63 else -1.0


TEXTS_PER_PATH = 64
"""Distinct text values whose bucket a path keeps (more are hashed each time they are met)."""
_TEXT = VIEW_FEATURES
"""Added to the bucket of a text or null leaf in a walk's codes (its value is added as is)."""


class _Path:
    """One path of a view (``citizens/3/cakes``), its children, and its bucket and sign, so a walk
    builds no string for a path it met before."""

    __slots__ = ("path", "keys", "items", "code", "sign", "texts")

    def __init__(self, path: str) -> None:
        self.path = path
        self.keys: dict[str, _Path] = {}
        self.items: list[_Path] = []
        self.code = -1  # the bucket, once a number was met here
        self.sign = 0.0
        self.texts: dict[str | None, tuple[int, float]] = {}

    def key(self, k: Any) -> _Path:
        name = k if type(k) is str else f"{k}"
        child = self.keys.get(name)
        if child is None:
            child = self.keys[name] = _Path(f"{self.path}/{name}")
        return child

    def extend(self, size: int) -> list[_Path]:
        # a new list, whole before it is seen: walks in other threads never meet a half-made one
        items = self.items
        items = self.items = [*items, *(_Path(f"{self.path}/{i}") for i in range(len(items), size))]
        return items

    def number(self) -> None:
        bucket, self.sign = _bucket(self.path)
        self.code = bucket  # last: a code is only read with its sign set

    def text(self, value: Any) -> tuple[int, float]:
        bucket, sign = _bucket(f"{self.path}={value}")
        found = (bucket + _TEXT, sign)
        if (type(value) is str or value is None) and len(self.texts) < TEXTS_PER_PATH:
            self.texts[value] = found
        return found


_ROOT = _Path("")

MEMO_DEPTH = 2
"""The levels of a view whose subtrees a :class:`ViewHasher` keeps."""
MEMO_PATHS = 4096
"""Paths a :class:`ViewHasher` keeps subtrees of at most (it starts afresh beyond)."""
_Segment = tuple[Any, list[int], list[float]]
"""A subtree of a view, and the codes and values its walk gave."""


def _walk(value: Any, node: _Path, codes: list[int], values: list[float],
          memo: dict[_Path, list[_Segment]] | None = None, kept: int = 1, depth: int = 0) -> None:
    """Appends a code and a value for every leaf under ``value`` (at ``node``), in the order of a
    last-in first-out walk: a number's code is its bucket and its value ``sign × x``; a text's code
    is its bucket plus ``_TEXT`` and its value the sign. With ``memo`` (what walks gave for the
    last ``kept`` subtrees met at each path down to :data:`MEMO_DEPTH` levels) a subtree equal to
    one of them is not walked again."""
    kind = type(value)
    if kind is list or kind is tuple:
        items = node.items
        if len(items) < len(value):
            items = node.extend(len(value))
        pairs: Any = zip(reversed(items[:len(value)]), reversed(value), strict=True)
    else:
        get, key = node.keys.get, node.key
        pairs = [(get(k) or key(k), v)
                 for k, v in (reversed(value.items()) if kind is dict else reversed(list(value.items())))]
    for child, v in pairs:
        t = type(v)
        if t is int or t is float or t is bool:
            if child.code < 0:
                child.number()
            codes.append(child.code)
            values.append(child.sign * v)
        elif t is str or v is None:
            found = child.texts.get(v)
            if found is None:
                found = child.text(v)
            codes.append(found[0])
            values.append(found[1])
        elif t is dict or t is list or t is tuple or isinstance(v, Mapping):
            if memo is None:
                _walk(v, child, codes, values)
                continue
            met = memo.get(child)
            if met is None:
                met = memo[child] = []
            else:
                for last in met:
                    if last[0] == v:
                        codes.extend(last[1])
                        values.extend(last[2])
                        break
                else:
                    last = None
                if last is not None:
                    continue
            start = len(codes)
            _walk(v, child, codes, values, memo if depth + 1 < MEMO_DEPTH else None, kept, depth + 1)
            met.insert(0, (v, codes[start:], values[start:]))
            del met[kept:]
        else:
            found = child.text(v)
            codes.append(found[0])
            values.append(found[1])


def _add(codes: list[int], values: list[float], vec: np.ndarray) -> np.ndarray:
    """Adds a walk's leaves into ``vec`` (in the walk's order) and clips it to ±BOUND."""
    if codes:
        code = np.fromiter(codes, np.intp, len(codes))
        x = np.fromiter(values, np.float64, len(values))
        # numbers are squashed (sign(x)·log1p|x|); true is 1, false 0; a text or null adds its sign
        added = np.where(code >= _TEXT, x, np.sign(x) * np.log1p(np.abs(x)))
        np.add.at(vec, code & (VIEW_FEATURES - 1), added.astype(np.float32))
    clip(vec, -BOUND, BOUND)
    return vec


def hash_view(view: Mapping[str, Any], out: np.ndarray | None = None) -> np.ndarray:
    """The view part of an observation: every leaf of ``view`` hashed into VIEW_FEATURES buckets
    (added into ``out`` if given)."""
    codes: list[int] = []
    values: list[float] = []
    _walk(view, _ROOT, codes, values)
    return _add(codes, values, np.zeros(VIEW_FEATURES, dtype=np.float32) if out is None else out)


class ViewHasher:
    """:func:`hash_view` for the successive views of a table's seats: a subtree of a view (down to
    :data:`MEMO_DEPTH` levels) equal to one of the last ``kept`` met at its path is not walked
    again. A seat's view between two of its turns keeps most of its content, and the seats' views
    share what is public (give ``kept`` the number of seats). Every vector is the one
    :func:`hash_view` gives for that view alone. Views must not be changed after they are hashed."""

    def __init__(self, kept: int = 1) -> None:
        self.kept = kept
        self._memo: dict[_Path, list[_Segment]] = {}

    def __call__(self, view: Mapping[str, Any], out: np.ndarray | None = None) -> np.ndarray:
        """As :func:`hash_view`, the same vector."""
        if len(self._memo) > MEMO_PATHS:
            self._memo.clear()
        codes: list[int] = []
        values: list[float] = []
        _walk(view, _ROOT, codes, values, self._memo, self.kept)
        return _add(codes, values, np.zeros(VIEW_FEATURES, dtype=np.float32) if out is None else out)


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
            # the other parts are within ±BOUND already (0/1 flags, a clipped hashed view)
            clip(out[at:at + self.codec.size], -BOUND, BOUND)
        at += self.codec.size
        if hashed is not None:
            out[at:] = hashed
        else:
            hash_view(state.view(seat) if view is None else view, out[at:])
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

    def vector(self, state: State, seat: Seat, partial: Partial | None = None,
               view: Mapping[str, Any] | None = None, public: Mapping[str, Any] | None = None
               ) -> np.ndarray:
        """The same observation as one fresh float32 vector (of the flat layout for the
        structured form), which :meth:`output` turns into the observation. ``public``: the
        public part ``view`` was made of (``state.public_view()``), if known."""

    def output(self, vector: np.ndarray) -> Any:
        """The observation whose vector is ``vector`` (for the structured form, arrays that are
        views of it)."""


class HashedObserver:
    """The hashed form: :class:`ObservationEncoder`'s vector, the same values.

    The view part is computed once per view: passing the same ``view`` object again (one action is
    built in several steps over one view) reuses it, and a part of a view equal to the last one's
    is not walked again (:class:`ViewHasher`). Views are not changed after they are made."""

    form = "hashed"

    def __init__(self, codec: FlatActions, hasher: ViewHasher | None = None) -> None:
        self.codec = codec
        self.encoder = ObservationEncoder(codec)
        self.size = self.encoder.size
        self._last: tuple[Mapping[str, Any], np.ndarray] | None = None
        self.hasher = ViewHasher() if hasher is None else hasher
        """Hashes the views (the seats of a table may share one, see :class:`ViewHasher`)."""

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
            last = self._last = (view, self.hasher(view))
        return self.encoder.encode(state, seat, partial, view, last[1])

    def vector(self, state: State, seat: Seat, partial: Partial | None = None,
               view: Mapping[str, Any] | None = None, public: Mapping[str, Any] | None = None
               ) -> np.ndarray:
        """As :meth:`encode`: a fresh vector (``public`` is not needed)."""
        return self.encode(state, seat, partial, view)

    @staticmethod
    def output(vector: np.ndarray) -> np.ndarray:
        """The observation of a vector of :meth:`vector`: the vector itself."""
        return vector


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
