"""Snapshots of live tables: a state written at a moment of its game, so that a restarted server
rebuilds a table from its latest snapshot and the actions after it rather than from its first
action.

A snapshot is this server's own pickle of a :class:`~tricolore.core.model.State`, stored beside the
actions in the table's own database; it is never read from anyone else. It is used only when it was
written by the same code (:func:`code`) and the state it gives back has the digest the table
recorded for that action; otherwise the table is replayed whole, as before snapshots existed.
"""

from __future__ import annotations

import copyreg
import io
import pickle
import sys
from types import MappingProxyType
from typing import Any

import tricolore
from tricolore.core.model import State
from tricolore.core.registry import get_game

EVERY = 32
"""A live table's snapshot is renewed once every this many actions."""


def readonly(mapping: dict[Any, Any]) -> MappingProxyType[Any, Any]:
    """A read-only mapping again, as a snapshot reads it back."""
    return MappingProxyType(mapping)


def _mapping_proxy(proxy: MappingProxyType[Any, Any]) -> tuple[Any, tuple[dict[Any, Any]]]:
    return readonly, (dict(proxy),)


class _Pickler(pickle.Pickler):
    """A pickler that also writes read-only mappings (the games' constant data holds some; frozen
    records write themselves as calls to their constructor)."""

    dispatch_table = {**copyreg.dispatch_table, MappingProxyType: _mapping_proxy}  # noqa: RUF012


def code(game: str) -> str:
    """What a snapshot must have been written by to be read: this version of Tricolore, the game's
    rules version and this Python's minor version."""
    info = get_game(game).info
    return f"{tricolore.__version__}/{info.rules_version}/{sys.version_info[0]}.{sys.version_info[1]}"


def dumps(state: State) -> bytes:
    """The snapshot of ``state``."""
    out = io.BytesIO()
    _Pickler(out, protocol=5).dump(state)
    return out.getvalue()


def loads(data: bytes, digest: str) -> State | None:
    """The state of a snapshot, if it reads back to ``digest``; ``None`` otherwise."""
    try:
        state = pickle.loads(data)  # written by this server into its own database, never sent
    except Exception:  # an older or damaged snapshot: the table is replayed whole instead
        return None
    if not isinstance(state, State) or not all(hasattr(state, name) for name in _attributes(type(state))):
        return None  # a snapshot of an older version of the state, without an attribute it has now
    if state.digest() != digest:
        return None
    return state


def _attributes(cls: type[State]) -> list[str]:
    """The attributes a state of ``cls`` holds: the game's fields and the base's own (``rng`` is
    not one: it is the generator made, when first read, from the one kept)."""
    return [*cls.FIELDS, *sorted(State.BASE_FIELDS - {"rng"})]
