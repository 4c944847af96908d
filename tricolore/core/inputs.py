r"""Text and JSON from outside, checked once where they enter: the server, the command line, records.

Everything a table stores must be sendable to every seat, so text is refused when it is not valid
Unicode (a lone UTF-16 surrogate such as the JSON escape ``"\ud800"`` cannot be encoded as UTF-8),
holds control characters where they make no sense, or is too long. JSON is refused when it nests
deeper than any message of the protocol needs, or holds ``NaN`` or ``Infinity``.

>>> text_problem("Danton", "name", 24) is None
True
>>> text_problem("\ud800x", "name", 24)
'the name must be valid Unicode text'
>>> loads('{"a": [1, 2]}')
{'a': [1, 2]}
>>> loads("[" * 5000)
Traceback (most recent call last):
...
tricolore.core.inputs.InputError: it nests deeper than 32 levels
"""

from __future__ import annotations

import json
import re
import sys
import unicodedata
from typing import Any

from mypy_extensions import mypyc_attr

MAX_DEPTH = 32
"""The deepest nesting of lists and objects accepted from a client of the server."""
RECORD_DEPTH = 64
"""The deepest nesting accepted in records, options and typed actions; real records nest about
six levels."""

_SURROGATE = re.compile(r"[\ud800-\udfff]")
# The bidirectional embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069) count as
# control characters: they reorder the text around them, so a name could pass for another player's.
_CONTROL_IN_LINE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_CONTROL_IN_TEXT = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


@mypyc_attr(native_class=False)  # a compiled class may not extend ValueError
class InputError(ValueError):
    """JSON from outside that cannot be taken. ``str(exc)`` is a clause ("it nests deeper than 32
    levels") for the caller to put in its sentence; ``malformed`` tells text that is not JSON at
    all from JSON beyond the limits.

    ``parsed`` holds the JSON value when it parsed but was refused for its content (depth,
    invalid Unicode), so that a server can still name the message it refuses.
    """

    def __init__(self, reason: str, parsed: Any = None, *, malformed: bool = False) -> None:
        super().__init__(reason)
        self.parsed = parsed
        self.malformed = malformed


def is_valid_unicode(value: str) -> bool:
    """Whether ``value`` can be encoded as UTF-8 (it holds no lone surrogate)."""
    return _SURROGATE.search(value) is None


def control_character(value: str, *, lines: bool = False) -> str | None:
    """The first control character in ``value`` (tabs and line breaks pass where ``lines``), or
    ``None``."""
    found = (_CONTROL_IN_TEXT if lines else _CONTROL_IN_LINE).search(value)
    return None if found is None else found.group()


def text_problem(value: object, what: str, max_length: int, *, lines: bool = False) -> str | None:
    """Why ``value`` is refused as text called ``what``, or ``None``.

    Text must be a string of valid Unicode, at most ``max_length`` characters, with no control
    characters (tabs and line breaks are allowed where ``lines`` is true: a chat message).
    """
    if not isinstance(value, str):
        return f"the {what} must be text"
    if not is_valid_unicode(value):
        return f"the {what} must be valid Unicode text"
    if len(value) > max_length:
        return f"the {what} must be at most {max_length} characters; it has {len(value)}"
    if control_character(value, lines=lines) is not None:
        return f"the {what} must not hold control characters"
    return None


def clean_text(value: str, max_length: int) -> str:
    """``value`` made storable: lone surrogates become U+FFFD, control characters are dropped,
    whitespace is collapsed, and the result cut to ``max_length`` (used to repair stored text)."""
    value = _SURROGATE.sub("\ufffd", value)
    value = "".join(c for c in value if unicodedata.category(c) != "Cc")
    return " ".join(value.split())[:max_length]


def _refuse_constant(name: str) -> Any:
    raise InputError(f"{name} is not a JSON value", malformed=True)


def depth_problem(value: object, max_depth: int = MAX_DEPTH) -> str | None:
    """Why parsed JSON ``value`` is refused: nesting beyond ``max_depth``, or a string (key or
    value) that is not valid Unicode; ``None`` if it is fine."""
    stack: list[tuple[object, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            if not is_valid_unicode(item):
                return "it holds a lone surrogate, which is not valid Unicode text"
        elif isinstance(item, dict | list):
            if depth > max_depth:
                return f"it nests deeper than {max_depth} levels"
            if isinstance(item, dict):
                stack.extend((k, depth) for k in item)
                stack.extend((v, depth + 1) for v in item.values())
            else:
                stack.extend((v, depth + 1) for v in item)
    return None


def loads(text: str | bytes, max_depth: int = MAX_DEPTH) -> Any:
    """Parse JSON from outside, refusing with :class:`InputError` what a table cannot take:
    malformed JSON, nesting deeper than ``max_depth``, ``NaN``/``Infinity``, invalid Unicode."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InputError(f"byte {exc.start} is not UTF-8 text", malformed=True) from None
    try:
        value = json.loads(text, parse_constant=_refuse_constant)
    except InputError:
        raise
    except RecursionError:
        raise InputError(f"it nests deeper than {max_depth} levels") from None
    except json.JSONDecodeError as exc:
        raise InputError(f"{exc.msg} at line {exc.lineno}, column {exc.colno}", malformed=True) from None
    except ValueError:  # Python refuses to convert integers longer than this many digits
        raise InputError(f"it holds a number longer than {sys.get_int_max_str_digits()} digits") from None
    why = depth_problem(value, max_depth)
    if why:
        raise InputError(why, value)
    return value
