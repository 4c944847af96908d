"""JSON text from outside (records, command-line options, typed actions) read within limits.

``json.loads`` alone lets hostile text through in three ways: thousands of nested brackets raise
``RecursionError``, a number of more than 4300 digits raises a bare ``ValueError``, and ``NaN`` or
``Infinity`` are accepted though they are not JSON. :func:`parse_json` turns each into
:class:`JSONRefused` with a readable reason, and refuses nesting deeper than :data:`MAX_DEPTH`
so the data cannot overflow the stack of code that walks it later.
"""

from __future__ import annotations

import json
import sys
from typing import Any

MAX_DEPTH = 64
"""Deepest nesting of arrays and objects accepted; real records nest about six levels."""


class JSONRefused(ValueError):
    """JSON text that cannot be read. ``str(exc)`` is a clause such as "it nests deeper than 64
    levels"; ``malformed`` tells text that is not JSON at all from JSON beyond the limits."""

    def __init__(self, reason: str, *, malformed: bool) -> None:
        super().__init__(reason)
        self.malformed = malformed


def _refuse_constant(name: str) -> Any:
    raise JSONRefused(f"{name} is not a JSON value", malformed=True)


def depth(data: Any) -> int:
    """How deeply arrays and objects nest in ``data`` (0 for a scalar), without recursion."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, level + 1)
        if deepest > MAX_DEPTH:
            return deepest
        stack.extend((child, level + 1) for child in children)
    return deepest


def parse_json(text: str | bytes) -> Any:
    """``json.loads`` that raises only :class:`JSONRefused` on text it cannot read."""
    try:
        data = json.loads(text, parse_constant=_refuse_constant)
    except JSONRefused:
        raise
    except RecursionError:
        raise JSONRefused(f"it nests deeper than {MAX_DEPTH} levels", malformed=False) from None
    except json.JSONDecodeError as exc:
        raise JSONRefused(f"{exc.msg} at line {exc.lineno}, column {exc.colno}", malformed=True) from None
    except ValueError:
        # Python refuses to convert integers longer than this many digits.
        raise JSONRefused(f"it holds a number longer than {sys.get_int_max_str_digits()} digits",
                          malformed=False) from None
    if depth(data) > MAX_DEPTH:
        raise JSONRefused(f"it nests deeper than {MAX_DEPTH} levels", malformed=False)
    return data
