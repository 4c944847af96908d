"""The table options of Culottes, and their bounds.

Kept apart from the rules so that they stay ordinary Python classes in the compiled build:
a table reads their field types and the docstring under each field (the lobby's help).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from tricolore.core import Options, OptionsError

MAX_STARTING_CAKES = 1000
MAX_DIE_FACES = 20
MAX_COCKADE_PRICE = 100
MAX_SHEETS_PER_PLAYER = 10
MAX_ROUNDS = 1000
"""Upper bounds of the options: generous for any real table, and small enough that no option
can make a game slow or large."""


@dataclass(frozen=True, slots=True)
class CulottesOptions(Options):
    """Table options; the defaults are the rulebook's values."""

    starting_cakes: int = 20
    """Cakes on a new citizen sheet, and what scoring subtracts per grabber citizen."""
    die_faces: int = 6
    """Faces of the revolutionary die."""
    closing_faces: tuple[int, ...] = (5, 6)
    """Die faces that close the trial just voted on."""
    cockade_price_sans_culotte: int = 1
    """Points a cockade costs a true sans-culotte at the end."""
    cockade_price_privileged: int = 3
    """Points a cockade costs a true privileged at the end."""
    citizen_sheets_per_player: int = 2
    """Sheets in the shuffled stack per player, half sans-culotte and half privileged."""
    seat_options: ClassVar[tuple[str, ...]] = ("first_player",)
    first_player: int | None = None
    """The seat that starts (the most sans-culotte-looking player); ``None`` draws it at random."""
    max_rounds: int | None = None
    """Designed: end the game after this many full rounds (for simulations and timed tables)."""
    emigrants_get_bastille_cakes: bool = True
    """Whether an emigrated citizen holding a cap still receives Bastille cakes."""
    final_verdicts: bool = False
    """At the end, close every open trial with the Book instead of returning its cakes."""
    deals: bool = True
    """Whether the engine keeps bribes and alliances with deposits in escrow (off: talk only,
    and cakes may still be given)."""

    def validate(self, players: int) -> None:
        """Check ranges against each other and the number of players. Each upper bound is more
        than a real table wants (the rulebook asks for at least 2 sheets per player)."""
        self.check_range("starting_cakes", 1, MAX_STARTING_CAKES)
        self.check_range("die_faces", 2, MAX_DIE_FACES)
        if not 1 <= len(self.closing_faces) <= self.die_faces:
            raise OptionsError(f"the option closing_faces must list at least 1 and at most {self.die_faces} "
                               f"faces (the die's); it lists {len(self.closing_faces)}")
        if any(not 1 <= f <= self.die_faces for f in self.closing_faces):
            raise OptionsError("the option closing_faces must be faces of the die, "
                               f"between 1 and {self.die_faces}")
        if len(set(self.closing_faces)) != len(self.closing_faces):
            raise OptionsError("the option closing_faces lists a face twice")
        self.check_range("cockade_price_sans_culotte", 0, MAX_COCKADE_PRICE)
        self.check_range("cockade_price_privileged", 0, MAX_COCKADE_PRICE)
        self.check_range("citizen_sheets_per_player", 2, MAX_SHEETS_PER_PLAYER)
        if self.first_player is not None and not 0 <= self.first_player < players:
            raise OptionsError(f"the option first_player must be a seat from 0 to {players - 1}")
        self.check_range("max_rounds", 1, MAX_ROUNDS)
