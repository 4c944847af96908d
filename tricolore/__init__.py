"""Tricolore: negotiation games of the French Revolution, for players, researchers and agents.

>>> import tricolore
>>> state = tricolore.make("culottes", 4, seed=7)
>>> sorted(state.pending())
[0, 1, 2, 3]
"""

from tricolore.core import IllegalAction, get_game, list_games, make

__version__ = "0.1.0"
__all__ = ["IllegalAction", "get_game", "list_games", "make"]
