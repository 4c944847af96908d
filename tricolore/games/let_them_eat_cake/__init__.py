"""Let Them Eat Cake (Peer Sylvester): committee elections with Voting cards and Pawns, Medals of
Honour, the Guillotine, Generals and the Pantry deck.

Modules: ``data`` (components, the designed Pantry and starter Cakes), ``rules`` (the state
machine), ``bots`` (named strategies). The rules as implemented are in
``docs/games/let-them-eat-cake.md``.
"""

from tricolore.core import GameDefinition
from tricolore.games.let_them_eat_cake.bots import STRATEGIES
from tricolore.games.let_them_eat_cake.rules import INFO, LetThemEatCakeOptions, LetThemEatCakeState

GAME = GameDefinition(INFO, LetThemEatCakeState, STRATEGIES)

__all__ = ["GAME", "LetThemEatCakeOptions", "LetThemEatCakeState"]
