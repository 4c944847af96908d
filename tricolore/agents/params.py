"""Strategies as families: a named strategy and the parameters that tune it.

A strategy is written ``name`` or ``name:key=value,key=value``: ``p-epsilon-briber:reward=2,cover=4``
is the rulebook's bribery attack paying 2 cakes above a cover of 4. A strategy class declares what
it takes in a ``parameters`` class attribute, a mapping of keyword to :class:`Parameter` (its
default, its range or its choices, and one line saying what it does); the class is built with
those keywords. A parameter left out keeps its default.

:func:`canonical` writes a strategy in one way only (keys sorted, defaults left out), so the same
strategy always has the same name in a results file, a lobby or a report; :func:`resolved` gives
every parameter's value, defaults included, which is what a results file records.

>>> parse("p-epsilon-briber:reward=2,cover=4")
('p-epsilon-briber', {'reward': '2', 'cover': '4'})
>>> Parameter(3, 0, 10, "cakes").convert("reward", "4")
4
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tricolore.core.errors import OptionsError

Value = int | float | bool | str


@dataclass(frozen=True, slots=True)
class Parameter:
    """One parameter of a strategy: its default, its bounds (numbers) or choices (text), and
    what it does. The default's type is the parameter's type."""

    default: Value
    low: float | None = None
    high: float | None = None
    doc: str = ""
    choices: tuple[str, ...] = ()

    @property
    def kind(self) -> str:
        """``int``, ``float``, ``bool`` or ``str``."""
        return type(self.default).__name__

    def describe(self) -> str:
        """The range in words: ``0 to 10``, ``true or false``, ``one of a, b``."""
        if isinstance(self.default, bool):
            return "true or false"
        if isinstance(self.default, str):
            return "one of " + ", ".join(self.choices)
        return f"{_number(self.low)} to {_number(self.high)}"

    def as_dict(self, key: str) -> dict[str, Any]:
        """The parameter as JSON, named ``key``: its kind, default, bounds, choices and doc (what
        the lobby builds its controls from)."""
        return {"key": key, "kind": self.kind, "default": self.default, "low": self.low,
                "high": self.high, "choices": list(self.choices), "doc": self.doc}

    def convert(self, key: str, text: str | Value) -> Value:
        """``text`` as this parameter's value; an :class:`OptionsError` with one sentence if it is
        not of the right kind or out of range."""
        raw = str(text).strip() if not isinstance(text, bool) else text
        value: Value
        if isinstance(self.default, bool):
            if raw in (True, "true", "1", "yes"):
                return True
            if raw in (False, "false", "0", "no"):
                return False
            raise OptionsError(f"the parameter {key} must be true or false; you gave {raw!r}")
        if isinstance(self.default, str):
            if raw not in self.choices:
                raise OptionsError(f"the parameter {key} must be {self.describe()}; you gave {raw!r}")
            return str(raw)
        try:
            value = int(raw) if isinstance(self.default, int) else float(raw)
        except (TypeError, ValueError):
            what = "a whole number" if isinstance(self.default, int) else "a number"
            raise OptionsError(f"the parameter {key} must be {what}; you gave {str(raw)[:40]!r}") from None
        if isinstance(value, float) and not math.isfinite(value):
            raise OptionsError(f"the parameter {key} must be a finite number; you gave {raw!r}")
        if (self.low is not None and value < self.low) or (self.high is not None and value > self.high):
            raise OptionsError(f"the parameter {key} must be from {self.describe()}; you gave {value}")
        return value


def _number(x: float | None) -> str:
    if x is None:
        return "any"
    return str(int(x)) if float(x).is_integer() else str(x)


def parse(text: str) -> tuple[str, dict[str, str]]:
    """A strategy's name and its parameters as given: ``"a:x=1,y=2"`` → ``("a", {"x": "1", "y": "2"})``.
    Text after the colon without ``=`` (``ismcts:300``, ``llm:qwen2.5:7b``) is not parameters:
    the whole text is returned as the name with no parameters."""
    name, colon, rest = text.partition(":")
    if not colon or "=" not in rest:
        return text, {}
    values: dict[str, str] = {}
    for item in rest.split(","):
        key, equals, value = item.partition("=")
        key = key.strip()
        if not equals or not key:
            raise OptionsError(f"strategy parameters are written key=value, separated by commas; "
                               f"{item.strip()[:40]!r} in {text[:80]!r} is not")
        if key in values:
            raise OptionsError(f"the parameter {key} is given twice in {text[:80]!r}")
        values[key] = value.strip()
    return name.strip(), values


def split(text: str) -> list[str]:
    """A comma-separated list of strategies, where a strategy's own parameters are separated by
    commas too: an item ``key=value`` with no colon continues the strategy before it.

    >>> split("kingmaker:seize_at=12,short_of_medals=2,random,ismcts:300")
    ['kingmaker:seize_at=12,short_of_medals=2', 'random', 'ismcts:300']
    """
    out: list[str] = []
    for item in (part.strip() for part in text.split(",")):
        if out and "=" in item and ":" not in item and ":" in out[-1] and "=" in out[-1]:
            out[-1] += "," + item
        else:
            out.append(item)
    return out


def declared(strategy: object) -> Mapping[str, Parameter]:
    """The parameters a strategy class (or agent) declares; none if it declares none."""
    found = getattr(strategy, "parameters", None)
    return found if isinstance(found, Mapping) else {}


def convert(name: str, strategy: object, given: Mapping[str, str | Value]) -> dict[str, Value]:
    """``given`` checked against the parameters ``strategy`` declares and converted to their
    types; one sentence names an unknown key with the keys there are."""
    known = declared(strategy)
    out: dict[str, Value] = {}
    for key, text in given.items():
        if key not in known:
            keys = ", ".join(known) if known else "none"
            raise OptionsError(f"the strategy {name} has no parameter {key!r}; its parameters are: {keys}")
        out[key] = known[key].convert(key, text)
    return out


def canonical(name: str, values: Mapping[str, Value], strategy: object | None = None) -> str:
    """The one way to write a strategy: keys sorted, defaults left out.

    >>> canonical("a", {"y": 2, "x": 1.5})
    'a:x=1.5,y=2'
    """
    known = declared(strategy) if strategy is not None else {}
    kept = {k: v for k, v in values.items() if k not in known or known[k].default != v}
    if not kept:
        return name
    return name + ":" + ",".join(f"{k}={_text(v)}" for k, v in sorted(kept.items()))


def _text(value: Value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(value)
    return str(value)


def schema(strategy: object) -> list[dict[str, Any]]:
    """Every parameter ``strategy`` declares, as JSON (see :meth:`Parameter.as_dict`), in the
    order it declares them."""
    return [p.as_dict(key) for key, p in declared(strategy).items()]


def full(strategy: object, values: Mapping[str, Value]) -> dict[str, Value]:
    """Every parameter's value, defaults included."""
    return {key: values.get(key, p.default) for key, p in declared(strategy).items()}
