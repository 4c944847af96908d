"""The components of Let Them Eat Cake, as data.

The rulebook gives the Pantry deck's size (55 cards) and says it mixes Generals with Cake cards
worth 1 to 14; the split and the values are not published, nor are the starter Cakes' values.
``PANTRY`` and ``STARTER_CAKES`` are **designed by us** (game-facts 2.2) and easy to change here.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from types import MappingProxyType
from typing import Final

GENERAL: Final = 0
"""A Pantry card that is a General rather than a Cake (every other card is its cake value)."""

PANTRY: tuple[int, ...] = (*(value for value in range(1, 15) for _ in range(3)), *(GENERAL,) * 13)
"""Designed: three Cake cards of each value 1 to 14 (315 cakes) and 13 Generals, 55 cards."""

STARTER_CAKES: tuple[int, ...] = (1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6)
"""Designed: the twelve starter Cakes; two are dealt to each player, the rest removed unseen."""

STARTER_GENERALS: Final = 8
"""The face-up pile of starter Generals."""

MEDALS_PER_PLAYER: Final = 3
MEDALS_IN_CENTRE: Final = 3
PAWNS_PER_PLAYER: Final = 3
STARTER_CAKES_PER_PLAYER: Final = 2

COLOURS: tuple[str, ...] = ("red", "blue", "green", "yellow", "purple", "black")
"""The characters' colours, one per seat; a Voting card names a colour, that is, a player."""

OFFICES: tuple[str, ...] = ("head", "enemy", "operator", "secretary", "inspector")
"""The elections of a round, in order: Head of Committee, Enemy of the Revolution (only when the
fewest Medals are tied), Guillotine Operator, Secretary, Food Inspector."""

OFFICE_TITLES: Mapping[str, str] = MappingProxyType({
    "head": "Head of Committee", "enemy": "Enemy of the Revolution",
    "operator": "Guillotine Operator", "secretary": "Secretary", "inspector": "Food Inspector"})

RIGGING_COST: Final = 1
SEIZE_COST: Final = 2
COUP_COST: Final = 3
"""Generals spent to allege vote rigging, to seize cake and to have a coup (each also costs a
Medal)."""

EXECUTION_MEDALS: Final = 3
"""Medals an executed Pawn's owner regains from the centre, if there are that many."""


class Phase(StrEnum):
    """What the table is doing: the steps of a round, its windows, and the end of the game."""

    START = "start"
    """Before the first round."""
    COUP = "coup"
    """The window before a vote: a player may stage a coup."""
    BALLOT = "ballot"
    """Everyone with a vote plays a Voting card face down."""
    RIGGING = "rigging"
    """The window after a vote: a player may allege that it was rigged."""
    TIE = "tie"
    """The Head of Committee breaks a tied vote."""
    HEAD_MEDAL = "head_medal"
    """The new Head of Committee moves a Medal."""
    ENEMY = "enemy"
    """The Enemy of the People is named."""
    GUILLOTINE = "guillotine"
    """The Guillotine Operator executes the Pawn or shows mercy."""
    DEAL = "deal"
    """The Secretary deals the drawn cards."""
    SEIZE = "seize"
    """The window in which a player may seize one of the Secretary's cards."""
    INSPECT = "inspect"
    """The Food Inspector declares the batch safe or unsafe."""
    DONATE = "donate"
    """The window in which a player may donate this round's Cake card."""
    OVER = "over"
    """The game has ended."""


def voting_copies(players: int) -> int:
    """Voting cards per opponent's colour: two with 3 or 4 players, one with 5 or 6."""
    return 2 if players <= 4 else 1
