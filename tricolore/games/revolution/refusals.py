"""Why the rules refuse an action in Revolution!, in the players' words.

The sentences that refuse a marker the rules rule out (the Spy's, the Apothecary's, a Remove 1
Influence card's) are here, for the action spaces of :mod:`.rules` to give. The core refuses an
action outside the legal and free action spaces in general words ("It is not your turn", "You
cannot decline now"). :func:`refusal` finds the rule behind two such refusals
that the general words would word badly, naming players as ``{0}``, ``{1}`` ... (see
:class:`IllegalAction`); the state's :meth:`~tricolore.core.model.State.refusal` hands it to
:meth:`State.apply`. It only reads the state, and returns ``None`` where the core's own sentence
is the best there is.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Final, Protocol

from tricolore.core import IllegalAction, Seat
from tricolore.core.errors import listed
from tricolore.core.mechanisms import SealedSubmissions
from tricolore.games.revolution.data import AREAS, Phase

# The sentences that refuse a marker for the Spy, the Apothecary and a Remove 1 Influence card:
# "empty" an area with no marker, "only" an area with none but the chooser's (or, for the
# Apothecary's second marker, none but the first marker's owner's), "self" the chooser's own
# marker, "none" a player with no marker in the chosen area, "nobody" a seat not at the table.
# The rules (Resolving Actions; Cards): the Spy replaces "a previously placed Influence Marker
# with her own" and "does not enable a player to place an Influence Marker on an empty Influence
# Space"; the Apothecary switches "any two previously placed Influence Markers, including his
# own" (of two different players: a swap of one owner's markers changes nothing); a Remove card
# removes "an opponent's Influence Marker from any occupied area".
SPY_SAYS: Final[Mapping[str, str]] = MappingProxyType({
    "empty": "there is no marker in the {area} to replace: the Spy never fills an empty space",
    "only": "you cannot spy on your own marker: every marker in the {area} is yours",
    "self": "you cannot spy on your own marker",
    "none": "that player has no marker in the {area} to replace",
    "nobody": "choose an opponent who has a marker in the {area}"})
SWAP_SAYS: Final[Mapping[str, str]] = MappingProxyType({
    "empty": "there is no marker in the {area} to swap",
    "only": "the Apothecary swaps the markers of two different players: every marker in the {area} "
            "belongs to the player whose marker you chose first",
    "self": "the Apothecary swaps the markers of two different players: choose someone else's",
    "none": "that player has no marker in the {area} to swap",
    "nobody": "choose a player who has a marker in the {area}"})
REMOVE_SAYS: Final[Mapping[str, str]] = MappingProxyType({
    "empty": "there is no marker in the {area} to remove",
    "only": "Remove 1 Influence takes an opponent's marker: every marker in the {area} is yours",
    "self": "Remove 1 Influence takes an opponent's marker, not your own",
    "none": "that player has no marker in the {area} to remove",
    "nobody": "choose an opponent who has a marker in the {area}"})
NO_SUCH_AREA: Final = "there is no such area; the areas are " + listed([a.name for a in AREAS], "and")


class Table(Protocol):
    """What the refusals read of a game of Revolution!: its state, never changed here."""

    phase: Phase
    decider: Seat | None

    @property
    def bids(self) -> SealedSubmissions | None:
        """The bids behind the shields this round, if bidding is open."""


def refusal(state: Table, seat: Seat, action: Mapping[str, Any]) -> IllegalAction | None:
    """The rule that refuses ``action`` by ``seat`` (an action the core has refused), or ``None``.

    Bidding: each player bids once a round, behind the shield; Cards: a Remove 1 Influence card
    instructs the player, it is not optional (docs/games/revolution.md).
    """
    if state.phase == Phase.BID and state.bids is not None and not state.bids.expects(seat):
        waiting = state.bids.waiting()
        names = listed([f"{{{i}}}" for i in range(len(waiting))], "and")
        verb = "has" if len(waiting) == 1 else "have"
        return IllegalAction("already_bid", f"you have already placed your bid this round; the "
                             f"shields come down when {names} {verb} bid", tuple(waiting))
    if action.get("type") == "decline" and state.phase == Phase.REMOVE and seat == state.decider:
        return IllegalAction("remove_is_not_optional", "a Remove 1 Influence card cannot be "
                             "declined: choose an opponent's marker to remove")
    return None
