"""Culottes data: sides, roles, and the names citizens are given when a player does not choose.

The names are ours (the rulebook lets each player name their citizens): people of 1789-1794.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final

from tricolore.games.culottes.book import PRIVILEGED, SANS_CULOTTE

NATURES = (SANS_CULOTTE, PRIVILEGED)
"""What the secret bottom flap of a citizen sheet says."""



class Phase(StrEnum):
    """The phases of the game."""

    ROLES = "roles"
    """Everyone secretly chooses a role."""
    TURN = "turn"
    """A player's turn: steps 1 to 7 for each of their citizens in turn."""
    RECRUIT = "recruit"
    """Step 8: the player may recruit a new citizen."""
    OVER = "over"
    """The game has ended."""


REVOLUTIONARY: Final = "revolutionary"
GRABBER: Final = "grabber"
ROLES = (REVOLUTIONARY, GRABBER)
"""What a player secretly writes on the flap of their first citizen sheet."""

CITIZEN_NAMES = (
    "Robespierre", "Danton", "Marat", "Desmoulins", "Saint-Just", "Hébert", "Roland", "Brissot",
    "Condorcet", "Couthon", "Barère", "Carnot", "Fabre", "Chaumette", "Santerre", "Théroigne",
    "Lafayette", "Mirabeau", "Sieyès", "Bailly", "Pétion", "Vergniaud", "Billaud", "Collot",
    "Fouché", "Tallien", "Barras", "Lebas", "Le Peletier", "Manon", "Olympe", "Charlotte",
    "Lucile", "Pauline", "Claire", "Reine", "Gracchus", "Varlet", "Roux", "Momoro",
    "Legendre", "Merlin", "Cambon", "Lindet", "Prieur", "Romme", "Grégoire", "Abbé Maury",
    "Cazalès", "Malouet", "Necker", "Calonne", "Breteuil", "Polignac", "Artois", "Provence",
    "Lamballe", "Tourzel", "Élisabeth", "Dillon",
)

CITIZEN_STEPS = ("vive_la_revolution", "buy_cockade", "donate", "cake_vote", "emigrate")
"""The kinds of action a citizen takes in steps 1 to 6 of its owner's turn."""
DEAL_KINDS = ("offer_bribe", "accept_bribe", "decline_bribe", "withdraw_bribe", "found_alliance",
              "join_alliance")
"""The deals the engine keeps: the rulebook's bribery attack and alliance defence."""
KINDS = (*CITIZEN_STEPS, "choose_role", "pass", "recruit", "agree_end", "give_cakes", *DEAL_KINDS)
"""Every kind of action of the game."""
