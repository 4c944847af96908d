"""The table options of Bread and Circuses, and their bounds.

Kept apart from the rules so that they stay ordinary Python classes in the compiled build:
a table reads their field types and the docstring under each field (the lobby's help).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from tricolore.core import Options, OptionsError

MAX_ROUNDS = 1000
"""The upper bound of ``max_rounds``."""


@dataclass(frozen=True, slots=True)
class BreadOptions(Options):
    """Table options; the defaults are the rulebook's."""

    regulated_bribery: bool = False
    """The optional rule: binding deals of "N Gold if you play X" (or any tile but X, or honestly,
    this round or next), offered or solicited, paid automatically."""
    seat_options: ClassVar[tuple[str, ...]] = ("first_player",)
    first_player: int | None = None
    """The seat that acts first in the Sabotage windows of round 1 (moves left each round);
    ``None`` draws it at random."""
    max_rounds: int | None = 100
    """Designed: end the game after this many rounds, even on a tie. Real games last about ten
    rounds; the cap stops tables of identical strategies, which can tie for ever. ``None``: no cap."""

    def validate(self, players: int) -> None:
        """Check ranges against the number of players."""
        if self.first_player is not None and not 0 <= self.first_player < players:
            raise OptionsError(f"the option first_player must be a seat from 0 to {players - 1}")
        self.check_range("max_rounds", 1, MAX_ROUNDS)
