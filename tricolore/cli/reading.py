"""Reading what a person types or passes on the command line: numbers and lines of text.

Every number the command line reads goes through :func:`whole_number`, which accepts ASCII digits
only: ``str.isdigit`` is true for ``'²'`` yet ``int('²')`` fails, ``int`` reads other scripts'
digits (``'٣'``), and Python refuses to convert more than 4300 digits.
"""

from __future__ import annotations

from tricolore.core.inputs import control_character, is_valid_unicode

MAX_DIGITS = 12
"""Longest number read; anything longer is a mistake, and no count in a game comes near it."""


def whole_number(text: str, *, signed: bool = False) -> int | None:
    """The whole number written in ``text`` with ASCII digits (after a minus sign if ``signed``),
    or ``None`` if ``text`` is anything else or longer than :data:`MAX_DIGITS` digits."""
    text = text.strip()
    digits = text[1:] if signed and text.startswith("-") else text
    if not digits or len(digits) > MAX_DIGITS or not (digits.isascii() and digits.isdigit()):
        return None
    return int(text)


def menu_number(text: str, count: int) -> int | None:
    """The entry of a numbered menu of ``count`` entries that ``text`` picks (1 to ``count``),
    or ``None``."""
    number = whole_number(text)
    return number if number is not None and 1 <= number <= count else None


def text_problem(text: str) -> str | None:
    """Why ``text`` cannot be taken as typed text, or ``None``: a lone surrogate (bytes that were
    not UTF-8) cannot be printed or saved, and a control character (an arrow key read without
    line editing) would be written back to the terminal as a command."""
    if not is_valid_unicode(text):
        return "it holds bytes that are not UTF-8 text"
    char = control_character(text.replace("\t", " "))
    return None if char is None else f"it holds the control character U+{ord(char):04X}"
