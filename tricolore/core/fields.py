"""A state's fields, declared once: how each is copied, whether it is digested, who may see it.

A game's state lists every attribute it owns in a class-level ``FIELDS`` mapping of
:class:`Field` records, in the order its digest has always hashed them::

    FIELDS = declare(
        options=Field(digest=False),
        phase=Field(),
        points=Field(copy=Copy.SHALLOW),
        grabbers=Field(digest=sorted, seen=Seen.OWNER),
        vote=Field(copy=Copy.OWN, digest=payload, seen=Seen.OWNER),
    )

:class:`~tricolore.core.model.State` derives ``clone`` and ``digest_payload`` from it, and the
conformance suite proves that the declaration covers every attribute, that a clone owns every
field declared mutable, that every digested field reaches the digest, and that ``determinize``
leaves every public field as it was.
"""

from __future__ import annotations

import importlib.util
import sys
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from types import MappingProxyType
from typing import Any


class Copy(StrEnum):
    """How a copy of a state gets a field."""

    SHARED = "shared"
    """The value is immutable (a number, text, tuple, frozen record): copies share it."""
    SHALLOW = "shallow"
    """A list, dict or set whose items are immutable: copies get a new container."""
    NESTED = "nested"
    """A list or dict of lists, dicts or sets of immutable items: both levels are copied."""
    JSON = "json"
    """JSON-like data of any depth: copied with :func:`~tricolore.core.model.copy_json`."""
    OWN = "own"
    """An object that copies itself with its ``copy()`` method (``None`` stays ``None``)."""


class Seen(StrEnum):
    """Who may see a field."""

    PUBLIC = "public"
    """Everyone at the table: ``determinize`` never changes it."""
    OWNER = "owner"
    """Each seat its own part (a role, a hand, a sealed move): others' parts are resampled."""
    NOBODY = "nobody"
    """No seat (the order of a deck, a sheet's face-down flap)."""


Copier = Callable[[Any], Any]


@dataclass(frozen=True, slots=True)
class Field:
    """One attribute of a game's state.

    ``copy`` is a :class:`Copy` or a function from the value to an independent copy (deep as
    far as the rules mutate it). ``digest`` is ``True`` (hashed as it is), ``False`` (left out:
    derived or constant data) or a function giving the JSON-safe form hashed; with ``splice``
    that function gives several entries, spliced into the payload in its place. ``digest_if``,
    given the state, says whether the field is hashed now (so that positions that never used a
    later addition keep their digests). ``seen`` says who may see it.
    """

    copy: Copy | Copier = Copy.SHARED
    digest: bool | Callable[[Any], Any] = True
    seen: Seen = Seen.PUBLIC
    splice: bool = False
    digest_if: Callable[[Any], bool] | None = None

    @property
    def mutable(self) -> bool:
        """Whether copies of a state own a copy of the field."""
        return self.copy is not Copy.SHARED


def _nested(value: Any) -> Any:
    if value is None:
        return None
    if type(value) is dict:
        return {key: item.copy() for key, item in value.items()}
    return [item.copy() for item in value]


@dataclass(frozen=True, slots=True)
class Plan:
    """A declaration compiled for speed: what a clone copies and what a digest hashes.

    ``copy_fields(mine, theirs)`` gives the copy a copy of each mutable field of the original;
    ``share_fields(mine, theirs)`` gives it each shared field (a state whose attributes live in
    its ``__dict__`` gets those with it instead).
    """

    digested: tuple[tuple[str, Callable[[Any], Any] | None, bool, Callable[[Any], bool] | None],
                    ...]
    copy_fields: Callable[[Any, Any], None]
    share_fields: Callable[[Any, Any], None]


_INLINE: Mapping[Copy, str] = {
    Copy.SHALLOW: "None if x is None else x.copy()",
    Copy.OWN: "None if x is None else x.copy()",
    Copy.NESTED: "_nested(x)",
    Copy.JSON: "_json(x)",
}


def _copy_fields(copiers: Sequence[tuple[str, Copy | Copier]]) -> Callable[[Any, Any], None]:
    """One function that gives a copy every field of ``copiers``, written out as a hand-written
    ``clone`` would be: a clone is on the hot path of every search, and a loop over the fields
    calling a copier each costs it half as much again."""
    namespace: dict[str, Any] = {"_nested": _nested, "_json": _json_copier()}
    lines = ["def copy_fields(mine, theirs):"]
    for i, (name, how) in enumerate(copiers):
        if how is Copy.SHARED:
            lines.append(f"    theirs.{name} = mine.{name}")
            continue
        if isinstance(how, Copy):
            expression = _INLINE[how]
        else:
            namespace[f"_copier{i}"] = how
            expression = f"_copier{i}(x)"
        lines += [f"    x = mine.{name}", f"    theirs.{name} = {expression}"]
    if not copiers:
        lines.append("    pass")
    exec("\n".join(lines), namespace)  # the source holds only checked attribute names
    return typing.cast(Callable[[Any, Any], None], namespace["copy_fields"])


def _json_copier() -> Copier:
    from tricolore.core.model import copy_json  # the model imports this module

    return copy_json


def compile_fields(owner: str, fields: Mapping[str, Field], base: frozenset[str]) -> Plan:
    """The plan of ``fields``, declared by the state class ``owner``; ``base`` are the names the
    base class owns, which a game may not declare."""
    clash = sorted(set(fields) & base)
    if clash:
        raise TypeError(f"{owner} declares {clash[0]!r}, which the base state owns")
    digested = []
    for name, f in fields.items():
        if not name.isidentifier():
            raise TypeError(f"{owner} declares {name!r}, which is not an attribute name")
        if f.digest is not False:
            digested.append((name, None if f.digest is True else f.digest, f.splice, f.digest_if))
    inline = [(name, f.copy) for name, f in fields.items() if f.copy is not Copy.SHARED]
    shared = [(name, f.copy) for name, f in fields.items() if f.copy is Copy.SHARED]
    return Plan(tuple(digested), _copy_fields(inline), _copy_fields(shared))


def declare(**fields: Field) -> Mapping[str, Field]:
    """A state's ``FIELDS``, read-only, in the order given (the order its digest hashes them)."""
    return MappingProxyType(fields)


def payload(value: Any) -> Any:
    """A digest form: the object's own ``payload()``, ``None`` for ``None``."""
    return None if value is None else value.payload()


def sorted_items(value: Mapping[Any, Any] | None) -> Any:
    """A digest form: a mapping's items in key order, ``None`` for ``None``."""
    return None if value is None else sorted(value.items())


def digest_value(f: Field, value: Any) -> Any:
    """The form of ``value`` that the digest hashes for field ``f`` (itself if ``f`` is hashed
    as it is, or not at all)."""
    return f.digest(value) if callable(f.digest) else value


def copy_kinds(fields: Mapping[str, Field]) -> tuple[tuple[str, str], ...]:
    """How a copy gets each field of ``fields``: ``(name, kind)``, the kind a :class:`Copy`'s
    value, or ``"custom"`` for a copier function (what a generated copy is written from)."""
    return tuple((name, f.copy.value if isinstance(f.copy, Copy) else "custom") for name, f in fields.items())


def adopt_copies(cls: Any, made_from: tuple[tuple[str, str], ...], copy_fields: Callable[[Any, Any], None],
                 share_fields: Callable[[Any, Any], None]) -> bool:
    """Make ``copy_fields`` and ``share_fields`` (written out for the compiled build from the
    declaration ``made_from``, see :mod:`tricolore._copies`) those of ``cls``'s plan, if ``cls``
    declares its fields as ``made_from`` says; returns whether it did (an edited declaration keeps
    the copy made from itself)."""
    declared = vars(cls).get("FIELDS")
    plan = vars(cls).get("_plan")
    if declared is None or plan is None or copy_kinds(declared) != made_from:
        return False
    cls._plan = replace(plan, copy_fields=copy_fields, share_fields=share_fields)
    return True


def adopt_generated_copies(cls: type) -> None:
    """Import the ``_copying`` module written beside the module of the state class ``cls`` by the
    compiled build, if there is one (it adopts its copy itself: :func:`adopt_copies`)."""
    package = cls.__module__.rpartition(".")[0]
    name = f"{package}._copying"
    if not package or name in sys.modules:
        return
    try:
        found = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return
    if found is not None:
        importlib.import_module(name)


__all__ = ["Copy", "Field", "Plan", "Seen", "adopt_copies", "adopt_generated_copies", "compile_fields",
           "copy_kinds", "declare", "digest_value", "payload", "sorted_items"]
