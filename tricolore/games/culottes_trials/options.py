"""The table options of the revolutionary trials, and their bounds.

Kept apart from the rules so that they stay ordinary Python classes in the compiled build:
a table reads their field types and the docstring under each field (the lobby's help).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from tricolore.core import Options, OptionsError

MAX_TRIALS = 100
MAX_ARGUMENTS_PER_DEBATE = 20
"""Upper bounds of the options."""


@dataclass(frozen=True, slots=True)
class TrialsOptions(Options):
    """Table options."""

    trials: int | None = None
    """Trials before the tutorial ends; ``None`` gives every player one turn as the accused."""
    seat_options: ClassVar[tuple[str, ...]] = ("first_accused",)
    first_accused: int | None = None
    """The seat that is accused first (the oldest player); ``None`` draws it at random."""
    arguments_per_debate: int = 3
    """Arguments each player may make in the debate between the two votes."""

    def validate(self, players: int) -> None:
        """Check ranges against the number of players (upper bounds: more than a table wants)."""
        self.check_range("trials", 1, MAX_TRIALS)
        if self.first_accused is not None and not 0 <= self.first_accused < players:
            raise OptionsError(f"the option first_accused must be a seat from 0 to {players - 1}")
        self.check_range("arguments_per_debate", 0, MAX_ARGUMENTS_PER_DEBATE)
