"""Errors raised by the game model."""

from __future__ import annotations


class IllegalAction(ValueError):
    """An action the rules refuse.

    ``code`` is a short machine-readable reason (``"not_your_turn"``, ``"too_many_cakes"``);
    ``message`` is one sentence a player understands, given a capital and a full stop here so
    every refusal reads the same. The state is unchanged after a refusal.

    A sentence that names seats writes them as ``{0}``, ``{1}``, ... and passes them in ``seats``:
    ``message`` names them "seat 2", and :meth:`for_names` with the players' names, so that a
    player reads "waiting for Danton" rather than a seat number.
    """

    def __init__(self, code: str, message: str, seats: tuple[int, ...] = ()) -> None:
        self.template = _sentence(message)
        self.seats = seats
        self.code = code
        self.message = self.for_names([f"seat {s}" for s in range(max(seats, default=-1) + 1)])
        super().__init__(self.message)

    def for_names(self, names: list[str]) -> str:
        """The sentence with each seat written as its name in ``names``."""
        if not self.seats:
            return self.template
        return self.template.format(*(names[s] if 0 <= s < len(names) else f"seat {s}" for s in self.seats))

    def as_dict(self) -> dict[str, str]:
        """The refusal as JSON-safe data, as the server and CLI report it."""
        return {"code": self.code, "message": self.message}


def _sentence(message: str) -> str:
    message = message.strip()
    if message:
        message = message[0].upper() + message[1:]
        if not message.endswith((".", "!", "?")):
            message += "."
    return message


def spoken(name: str) -> str:
    """A field or kind of action as players say it: ``cake_vote`` is "cake vote"."""
    return name.replace("_", " ")


def listed(items: list[str], last: str = "or") -> str:
    """``["a", "b", "c"]`` as "a, b or c", each item once, in order."""
    unique = list(dict.fromkeys(items))
    if len(unique) <= 1:
        return "".join(unique)
    return ", ".join(unique[:-1]) + f" {last} " + unique[-1]


class OptionsError(ValueError):
    """Game options that are unknown, of the wrong type, or out of range."""


class RecordError(ValueError):
    """A record that cannot be read or replayed."""
