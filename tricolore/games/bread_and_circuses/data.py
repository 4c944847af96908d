"""Bread and Circuses' components as data, and the sixteen Sabotage cards.

The rulebook (Prototype H) has sixteen Sabotage cards but never lists them. The set below is
**designed by us** (game-facts 3.3): keep it here, documented in ``docs/games/bread-and-circuses.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import Final

BREAD: Final = "bread"
CIRCUS: Final = "circus"
ABSTAIN: Final = "abstain"
TILES: tuple[str, ...] = (BREAD, CIRCUS, ABSTAIN)
ICONS: tuple[str, ...] = (BREAD, CIRCUS)
"""The icons of a Disclosure card: a tile may be disclosed on Bread or Circus, never Abstain."""

NEGOTIATION, AFTER_REVEAL, SCORING = "negotiation", "after_reveal", "scoring"
"""When a Sabotage card may be played."""


class Phase(StrEnum):
    """The phases of a round, and the end of the game."""

    NEGOTIATION = "negotiation"
    """Disclosures, Sabotage, Gold and deals, until everyone is ready."""
    PLAY = "play"
    """Everyone places a tile face down."""
    AFTER_REVEAL = "after_reveal"
    """The tiles are revealed; the After-Reveal Sabotage window."""
    SCORING = "scoring"
    """The Scoring Sabotage window, then the payouts."""
    OVER = "over"
    """The game has ended."""


RIOTS_TO_END: Final = 5
GOLD_TO_END_PER_PLAYER = 5


@dataclass(frozen=True, slots=True)
class Sabotage:
    """A Sabotage card: its timing, what it asks for, and its effect in words.

    ``target`` says which player the card names: ``"other"`` (another player), ``"other_gold"``
    (another player with Gold), ``"disclosed"`` (another player with a disclosed tile),
    ``"other_bread"`` / ``"other_circus"`` (another player whose tile counts as that now),
    ``"honest"`` (a player who disclosed honestly), or ``None``.
    """

    name: str
    timing: str
    target: str | None
    effect: str


SABOTAGE: tuple[Sabotage, ...] = (
    Sabotage("Informant", NEGOTIATION, "disclosed",
             "Secretly look at the tile another player has placed on their Disclosure card."),
    Sabotage("Public Accusation", NEGOTIATION, "disclosed",
             "A player with a disclosed tile takes it back and may not disclose again this round."),
    Sabotage("Pickpocket", NEGOTIATION, "other_gold", "Take 1 Gold from another player."),
    Sabotage("Forged Promise", NEGOTIATION, None,
             "This round you may disclose Abstain (beside your Disclosure card); honest if you "
             "play Abstain."),
    Sabotage("Grain Hoarding", AFTER_REVEAL, "other_bread",
             "One revealed Bread tile of another player counts as Abstain this round."),
    Sabotage("Cancelled Games", AFTER_REVEAL, "other_circus",
             "One revealed Circus tile of another player counts as Abstain this round."),
    Sabotage("Secret Granary", AFTER_REVEAL, None, "Your own revealed tile counts as Bread this round."),
    Sabotage("Hired Acrobats", AFTER_REVEAL, None, "Your own revealed tile counts as Circus this round."),
    Sabotage("Charity Kitchen", AFTER_REVEAL, None,
             "Add one Bread that belongs to nobody to the count this round."),
    Sabotage("Street Players", AFTER_REVEAL, None,
             "Add one Circus that belongs to nobody to the count this round."),
    Sabotage("Exposed Lie", SCORING, "honest", "Cancel one player's honest-disclosure bonus this round."),
    Sabotage("Monopoly", SCORING, None, "Your tile's payout (not the disclosure bonus) is doubled."),
    Sabotage("Spoiled Supplies", SCORING, "other",
             "One other player's tile pays 0 Gold this round (their disclosure bonus still pays; "
             "an Abstain riot penalty still applies)."),
    Sabotage("Bribed Magistrate", SCORING, None,
             "If there is a riot, you do not pay the Abstain penalty this round."),
    Sabotage("Rabble-Rouser", SCORING, None,
             "If there is a riot this round, the Riot Counter advances by 2 instead of 1."),
    Sabotage("Appease the Mob", SCORING, None,
             "If there is a riot this round, the Riot Counter does not advance."),
)
"""Designed: the sixteen Sabotage cards, one copy each."""

CARDS: Mapping[str, Sabotage] = MappingProxyType({card.name: card for card in SABOTAGE})


def sabotage_per_player(players: int) -> int:
    """Sabotage cards dealt to each player: three with 3 to 5 players, two with 6 to 8."""
    return 3 if players <= 5 else 2
