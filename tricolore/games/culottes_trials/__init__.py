"""Culottes tutorial, "revolutionary trials": guess whether the accused grabber tells the truth.

Each trial: the accused (a grabber) secretly designates other grabbers (grabbers, the accused
included, are at most half the players); states something with a secret truth value; everyone but
the accused votes true or false twice at the same time, the first vote shown to all and not
counted, with a debate between the two; the second vote's majority (a tie counts as "true")
decides. A right majority gives each revolutionary a point; a wrong one gives the accused two and
the other grabbers one. The role of the accused passes to the left. The tutorial ends after the
``trials`` option's number of trials, or at the end of the trial in which every player has agreed
to stop. Rules as implemented: ``docs/games/culottes-trials.md``; named strategies in ``bots``.
"""

from tricolore.core import GameDefinition
from tricolore.games.culottes_trials.bots import STRATEGIES
from tricolore.games.culottes_trials.rules import INFO, TrialsOptions, TrialsState

GAME = GameDefinition(INFO, TrialsState, STRATEGIES)

__all__ = ["GAME", "TrialsOptions", "TrialsState"]
