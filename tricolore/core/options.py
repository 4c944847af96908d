"""The base of every game's options: a frozen dataclass of rulebook defaults, checked on creation.

It stays an ordinary Python module in the compiled build: a table reads the field types of each
game's options and the docstring under each field (the lobby's help) from the classes themselves.
"""

from __future__ import annotations

import ast
import contextvars
import dataclasses
import functools
import inspect
import itertools
import textwrap
import types
import typing
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, ClassVar, Self

from tricolore.core.errors import OptionsError

_RANGES: contextvars.ContextVar[dict[str, tuple[int, int]] | None] = contextvars.ContextVar(
    "ranges", default=None)
"""Where :meth:`Options.schema` collects the ranges :meth:`Options.check_range` is asked for."""


class Options:
    """Base of every game's options: a frozen dataclass whose fields have rulebook defaults.

    Subclasses validate ranges in :meth:`validate` and raise :class:`OptionsError` with a sentence.
    Every whole-number option has an upper bound a real table could want, so that no option can
    make a game slow or large (:meth:`check_range`).
    """

    choices: ClassVar[Mapping[str, tuple[str, ...]]] = MappingProxyType({})
    """The text options that take one of a few values, and those values (for a lobby's select)."""
    seat_options: ClassVar[tuple[str, ...]] = ()
    """The options whose value is a seat (``None``: the rulebook's way, such as at random)."""

    def validate(self, players: int) -> None:
        """Check the options against each other and the player count."""

    def check_range(self, name: str, low: int, high: int) -> None:
        """Refuse the option ``name`` unless it is from ``low`` to ``high`` (``None``, where the
        option allows it, passes)."""
        ranges = _RANGES.get()
        if ranges is not None:
            ranges[name] = (low, high)
        value = getattr(self, name)
        if value is not None and not low <= value <= high:
            raise OptionsError(f"the option {name} must be from {low} to {high}; got {value}")

    def __post_init__(self) -> None:
        hints = _type_hints(type(self))
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            value = getattr(self, f.name)
            if not _fits(value, hints[f.name]):
                raise OptionsError(f"option {f.name} must be {_type_name(hints[f.name])}; got {value!r}")

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any] | None) -> Self:
        """Options from JSON-like values; lists become tuples; unknown names are refused."""
        values = dict(values or {})
        names = {f.name for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
        unknown = sorted(set(values) - names)
        if unknown:
            raise OptionsError(f"unknown option {unknown[0]!r}; options are: {', '.join(sorted(names))}")
        return cls(**{k: tuple(v) if isinstance(v, list) else v for k, v in values.items()})

    def as_dict(self) -> dict[str, Any]:
        """The options as JSON (a fresh dict: every view carries one)."""
        return {name: _jsonable(value) for name, value in _fields_of(self)}

    @classmethod
    def schema(cls, players: int) -> list[dict[str, Any]]:
        """Each option as a form can offer it, in declaration order: ``name``, ``kind`` (``bool``,
        ``int``, ``number``, ``text``, ``choice``, ``seat`` or ``list`` of whole numbers), ``default``,
        ``nullable`` (whether ``null`` is allowed, meaning the rulebook's way), ``min`` and ``max``
        where :meth:`validate` bounds it (checked for ``players``), ``choices`` for a choice,
        and ``help``, the field's docstring."""
        defaults = cls()
        ranges: dict[str, tuple[int, int]] = {}
        token = _RANGES.set(ranges)
        try:
            defaults.validate(players)
        except OptionsError:
            pass  # the defaults of every game are valid; the bounds found so far still hold
        finally:
            _RANGES.reset(token)
        hints = _type_hints(cls)
        helps = _field_docs(cls)
        out = []
        for f in dataclasses.fields(cls):  # type: ignore[arg-type]
            hint = hints[f.name]
            args = typing.get_args(hint) if typing.get_origin(hint) in (typing.Union, types.UnionType) else ()
            nullable = type(None) in args
            base = next((a for a in args if a is not type(None)), hint)
            if f.name in cls.choices:
                kind = "choice"
            elif f.name in cls.seat_options:
                kind = "seat"
                ranges[f.name] = (0, players - 1)
            elif typing.get_origin(base) is tuple:
                kind = "list"
            else:
                kind = {bool: "bool", int: "int", float: "number", str: "text"}.get(base, "text")
            entry: dict[str, Any] = {"name": f.name, "kind": kind,
                                     "default": _jsonable(getattr(defaults, f.name)),
                                     "nullable": nullable, "help": helps.get(f.name, "")}
            if f.name in ranges:
                entry["min"], entry["max"] = ranges[f.name]
            if kind == "choice":
                entry["choices"] = list(cls.choices[f.name])
            out.append(entry)
        return out


_HINTS: dict[type, dict[str, Any]] = {}


def _type_hints(cls: type) -> dict[str, Any]:
    if cls not in _HINTS:
        _HINTS[cls] = typing.get_type_hints(cls)
    return _HINTS[cls]


def _fits(value: object, hint: Any) -> bool:
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return any(_fits(value, h) for h in typing.get_args(hint))
    if hint is type(None):
        return value is None
    if origin is tuple:
        args = typing.get_args(hint)
        return isinstance(value, tuple) and all(_fits(v, args[0]) for v in value)
    if hint is float:
        return type(value) in (int, float)
    if isinstance(hint, type):
        return type(value) is hint
    return True


def _type_name(hint: Any) -> str:
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return " or ".join(_type_name(h) for h in typing.get_args(hint))
    if hint is type(None):
        return "null"
    if origin is tuple:
        return f"a list of {_type_name(typing.get_args(hint)[0])}"
    return {int: "a whole number", bool: "true or false", str: "text", float: "a number"}.get(
        hint, str(hint))


_DOCS: dict[type, dict[str, str]] = {}


def _field_docs(cls: type) -> dict[str, str]:
    """The docstring written under each field of a dataclass, read from its source."""
    if cls not in _DOCS:
        docs: dict[str, str] = {}
        try:
            tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
        except (OSError, TypeError, SyntaxError):
            tree = None
        body = tree.body[0].body if tree and isinstance(tree.body[0], ast.ClassDef) else []
        for field_node, doc in itertools.pairwise(body):
            if (isinstance(field_node, ast.AnnAssign) and isinstance(field_node.target, ast.Name)
                    and isinstance(doc, ast.Expr) and isinstance(doc.value, ast.Constant)
                    and isinstance(doc.value.value, str)):
                docs[field_node.target.id] = " ".join(doc.value.value.replace("``", "").split())
        _DOCS[cls] = docs
    return _DOCS[cls]


@functools.lru_cache(maxsize=256)
def _fields_of(options: Options) -> tuple[tuple[str, Any], ...]:
    """Each field of ``options`` and its value, in declaration order, found once per set of
    options (the options are frozen)."""
    return tuple((f.name, getattr(options, f.name))
                 for f in dataclasses.fields(options))  # type: ignore[arg-type]


def _jsonable(value: object) -> Any:
    return list(value) if isinstance(value, tuple) else value
