"""Revolution! (Philip duBarry): secret bids of Force, Blackmail and Gold on a twelve-space
Bidding Chart, Influence Markers in seven areas, and the support track.

Modules: ``data`` (both editions' charts, the areas, the card deck), ``bids`` (checking, drawing,
counting and building bids), ``rules`` (the state machine), ``bots`` (named strategies). The rules
as implemented, with the two editions side by side, are in ``docs/games/revolution.md``.
"""

from tricolore.core import GameDefinition
from tricolore.games.revolution.bots import STRATEGIES
from tricolore.games.revolution.rules import INFO, RevolutionOptions, RevolutionState

GAME = GameDefinition(INFO, RevolutionState, STRATEGIES)

__all__ = ["GAME", "RevolutionOptions", "RevolutionState"]
