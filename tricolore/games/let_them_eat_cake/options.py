"""The table options of Let Them Eat Cake, and their bounds.

Kept apart from the rules so that they stay ordinary Python classes in the compiled build:
a table reads their field types and the docstring under each field (the lobby's help).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from tricolore.core import Options, OptionsError

MAX_WINNING_CAKES = 1000
MAX_ROUNDS = 1000
"""Upper bounds of the options."""


@dataclass(frozen=True, slots=True)
class LetThemEatCakeOptions(Options):
    """Table options; the defaults are the rulebook's."""

    seat_options: ClassVar[tuple[str, ...]] = ("first_head",)
    first_head: int | None = None
    """The seat the owner gives the Head of Committee token to at the start; ``None``: at random."""
    memory_mode: bool = False
    """Hide the record of past votes: each ballot stays on the table only until the next one."""
    winning_cakes: int = 40
    """Cakes in a stash that end the game at the end of a round."""
    max_rounds: int | None = None
    """Designed: end the game after this many rounds (for simulations and timed tables)."""

    def validate(self, players: int) -> None:
        """Check ranges against the number of players (upper bounds: more than a table wants)."""
        if self.first_head is not None and not 0 <= self.first_head < players:
            raise OptionsError(f"the option first_head must be a seat from 0 to {players - 1}")
        self.check_range("winning_cakes", 1, MAX_WINNING_CAKES)
        self.check_range("max_rounds", 1, MAX_ROUNDS)
