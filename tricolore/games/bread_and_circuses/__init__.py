"""Bread and Circuses (John du Bois, Prototype H): bluffing with Bread, Circus and Abstain tiles,
disclosures, Sabotage cards and the Riot Counter; regulated bribery as deals.

Modules: ``data`` (tiles, the designed Sabotage cards), ``rules`` (the state machine), ``bots``
(named strategies). The rules as implemented are in ``docs/games/bread-and-circuses.md``; the deal
mechanism in ``docs/deals.md``.
"""

from tricolore.core import GameDefinition
from tricolore.games.bread_and_circuses.bots import STRATEGIES
from tricolore.games.bread_and_circuses.rules import INFO, BreadOptions, BreadState

GAME = GameDefinition(INFO, BreadState, STRATEGIES)

__all__ = ["GAME", "BreadOptions", "BreadState"]
