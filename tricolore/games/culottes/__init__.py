"""Culottes: a Schelling-game vote on who deserves the Bastille's cakes.

Modules: ``book`` (the Book of Public Safety and the reward rule), ``scoring`` (the eight scoring
steps), ``data`` (sides, roles, names), ``rules`` (the state machine), ``bots`` (named strategies).
The rules as implemented are in ``docs/games/culottes.md``.
"""

from tricolore.core import GameDefinition
from tricolore.games.culottes.bots import STRATEGIES
from tricolore.games.culottes.rules import INFO, CulottesOptions, CulottesState

GAME = GameDefinition(INFO, CulottesState, STRATEGIES)

__all__ = ["GAME", "CulottesOptions", "CulottesState"]
