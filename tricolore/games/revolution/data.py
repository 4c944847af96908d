"""Revolution!'s components as data: the Bidding Chart of each edition, the seven areas, the
seed edition's card deck.

The seed (the designer's early edition) names only some spaces; the rest of its chart is the
published Steve Jackson Games (SJG) chart with the two spaces SJG renamed put back (game-facts
1.3). Values marked *designed* below are ours, not the publisher's: keep them here, documented.

Everything here is shared by every game in the process, so it is read-only: tuples, frozen
dataclasses and ``MappingProxyType``. A state or view that needs a mapping of its own copies it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Final

# Final: the compiled rules and bids read these as constants rather than look them up
FORCE: Final = "force"
BLACKMAIL: Final = "blackmail"
GOLD: Final = "gold"
CURRENCIES: Final[tuple[str, ...]] = (FORCE, BLACKMAIL, GOLD)
"""From strongest to weakest: one Force beats any Blackmail and Gold, one Blackmail any Gold."""

STARTING_CHIPS: Mapping[str, int] = MappingProxyType({FORCE: 1, BLACKMAIL: 1, GOLD: 3})
MINIMUM_CHIPS: Final = 5
"""Chips a player holds at the start of each round: fewer are topped up with Gold."""
MAX_SPACES_PER_BID: Final = 6
MAX_GOLD_ON_CARD: Final = 3


class Phase(StrEnum):
    """The phases of a round, and the end of the game."""

    BID = "bid"
    """Everyone places their bids, sealed."""
    RESOLVE = "resolve"
    """The spaces are settled in chart order."""
    SPY = "spy"
    """The Spy's winner may replace an opponent's marker."""
    APOTHECARY = "apothecary"
    """The Apothecary's winner may swap two markers."""
    REMOVE = "remove"
    """A card's holder may remove a marker."""
    OVER = "over"
    """The game has ended."""


@dataclass(frozen=True, slots=True)
class Space:
    """A character on the Bidding Chart: what its winner gets, and what may not be bid on it.

    ``special`` is ``"spy"`` (replace an opponent's marker), ``"apothecary"`` (swap two markers)
    or ``"card"`` (not a contest: each Gold draws a card), else ``None``.
    """

    name: str
    support: int = 0
    chips: Mapping[str, int] = field(default_factory=dict)
    area: str | None = None
    forbidden: frozenset[str] = frozenset()
    special: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "chips", MappingProxyType(dict(self.chips)))

    def allows(self, currency: str) -> bool:
        """Whether ``currency`` may be bid here."""
        return currency not in self.forbidden


ONLY_GOLD = frozenset({FORCE, BLACKMAIL})

_COMMON = (
    Space("General", 1, {FORCE: 1}, "Fortress", frozenset({FORCE})),
    Space("Captain", 1, {FORCE: 1}, "Harbor", frozenset({FORCE})),
    Space("Innkeeper", 3, {BLACKMAIL: 1}, "Tavern", frozenset({BLACKMAIL})),
    Space("Magistrate", 1, {BLACKMAIL: 1}, "Town Hall", frozenset({BLACKMAIL})),
    Space("Priest", 6, {}, "Cathedral"),
    Space("Aristocrat", 5, {GOLD: 3}, "Plantation"),
    Space("Merchant", 3, {GOLD: 5}, "Market"),
    Space("Printer", 10),
)

SEED_CHART: tuple[Space, ...] = (
    *_COMMON,
    Space("Professor", 0, {BLACKMAIL: 2}),  # designed: no forbidden currency known
    Space("Spy", forbidden=frozenset({FORCE}), special="spy"),
    Space("Apothecary", forbidden=frozenset({FORCE}), special="apothecary"),
    Space("Card", forbidden=ONLY_GOLD, special="card"),
)
"""The seed edition's chart, General (upper left) to Card (lower right), in resolution order."""

SJG_CHART: tuple[Space, ...] = (
    *_COMMON,
    Space("Rogue", 0, {BLACKMAIL: 2}, forbidden=ONLY_GOLD),
    Space("Spy", forbidden=frozenset({BLACKMAIL}), special="spy"),
    Space("Apothecary", forbidden=frozenset({FORCE}), special="apothecary"),
    Space("Mercenary", 3, {FORCE: 1}, forbidden=ONLY_GOLD),
)
"""The published (Steve Jackson Games, 2009) chart, General to Mercenary."""


@dataclass(frozen=True, slots=True)
class Area:
    """An area of the board: its influence spaces and the support its winner gets."""

    name: str
    spaces: int
    support: int


AREAS: tuple[Area, ...] = (
    Area("Tavern", 4, 20), Area("Market", 5, 25), Area("Plantation", 6, 30),
    Area("Cathedral", 7, 35), Area("Harbor", 6, 40), Area("Town Hall", 7, 45),
    Area("Fortress", 8, 50),
)
"""The seven areas (43 influence spaces), the same in both editions."""

SUPPORT_1, SUPPORT_3, SUPPORT_5 = "support_1", "support_3", "support_5"
FORCE_CARD, BLACKMAIL_CARD, GOLD_CARD = "force_1", "blackmail_1", "gold_4"
REMOVE = "remove_influence"

CARD_EFFECTS: Mapping[str, tuple[int, Mapping[str, int]]] = MappingProxyType({
    face: (support, MappingProxyType(chips)) for face, (support, chips) in {
        SUPPORT_1: (1, {}), SUPPORT_3: (3, {}), SUPPORT_5: (5, {}),
        FORCE_CARD: (0, {FORCE: 1}), BLACKMAIL_CARD: (0, {BLACKMAIL: 1}), GOLD_CARD: (0, {GOLD: 4}),
        REMOVE: (0, {}),
    }.items()})
"""Each card face: the support it gives now and the chips it gives for the next round."""

CARD_DECK: tuple[str, ...] = tuple(face for face in CARD_EFFECTS for _ in range(4))
"""The seed edition's deck. Designed: four of each face, 28 cards (only the four Remove 1
Influence cards are known)."""

CARD_TITLES: Mapping[str, str] = MappingProxyType({
    SUPPORT_1: "Support 1", SUPPORT_3: "Support 3", SUPPORT_5: "Support 5", FORCE_CARD: "1 Force",
    BLACKMAIL_CARD: "1 Blackmail", GOLD_CARD: "4 Gold", REMOVE: "Remove 1 Influence"})

LEFTOVER_SUPPORT: Mapping[str, int] = MappingProxyType({FORCE: 5, BLACKMAIL: 3, GOLD: 1})
"""The published edition's end scoring: support per chip still held."""

SJG_BANK: Mapping[str, int] = MappingProxyType({FORCE: 12, BLACKMAIL: 12, GOLD: 32})
SJG_MARKERS_PER_PLAYER = 25


@dataclass(frozen=True, slots=True)
class Edition:
    """One edition's rules, as data: the chart and how the editions differ."""

    name: str
    chart: tuple[Space, ...]
    losing_chips_returned: bool
    leftover_scoring: bool
    bank: Mapping[str, int] | None
    markers_per_player: int | None

    def __post_init__(self) -> None:
        if self.bank is not None:
            object.__setattr__(self, "bank", MappingProxyType(dict(self.bank)))


EDITIONS: Mapping[str, Edition] = MappingProxyType({
    "seed": Edition("seed", SEED_CHART, losing_chips_returned=True, leftover_scoring=False,
                    bank=None, markers_per_player=None),
    "sjg": Edition("sjg", SJG_CHART, losing_chips_returned=False, leftover_scoring=True,
                   bank=SJG_BANK, markers_per_player=SJG_MARKERS_PER_PLAYER),
})
"""The seed edition (the default rules) and the published edition (option ``edition="sjg"``).
The seed has an unlimited chip supply and unlimited markers (designed); SJG's bank and 25 markers
per colour are as reported for the published game."""
