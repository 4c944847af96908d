"""Errors raised by the game model."""

from __future__ import annotations


class IllegalAction(ValueError):
    """An action the rules refuse.

    ``code`` is a short machine-readable reason (``"not_your_turn"``, ``"too_many_cakes"``);
    ``message`` is one sentence a player understands, given a capital and a full stop here so
    every refusal reads the same. The state is unchanged after a refusal.
    """

    def __init__(self, code: str, message: str) -> None:
        message = message.strip()
        if message:
            message = message[0].upper() + message[1:]
            if not message.endswith((".", "!", "?")):
                message += "."
        super().__init__(message)
        self.code = code
        self.message = message

    def as_dict(self) -> dict[str, str]:
        """The refusal as JSON-safe data, as the server and CLI report it."""
        return {"code": self.code, "message": self.message}


class OptionsError(ValueError):
    """Game options that are unknown, of the wrong type, or out of range."""


class RecordError(ValueError):
    """A record that cannot be read or replayed."""
