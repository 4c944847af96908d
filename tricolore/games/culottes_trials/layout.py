"""How the environments number the revolutionary trials' actions (see
:mod:`tricolore.core.layout`): statements and arguments are the game's example phrases, grabbers
are chosen one seat at a time."""

from __future__ import annotations

from tricolore.core.layout import Items, Layout, Phrases, Values, kinds_of
from tricolore.core.model import Options
from tricolore.games.culottes_trials.rules import EXAMPLE_ARGUMENTS, EXAMPLE_STATEMENTS


def layout(state_class: type, players: int, options: Options) -> Layout:
    """The flat action layout of a table of the revolutionary trials."""
    boolean = Values("answer", values=(True, False))
    return Layout(kinds_of(state_class), {
        "truth": boolean, "guess": boolean, "agree": boolean,
        "statement": Phrases("statement", count=len(EXAMPLE_STATEMENTS)),
        "text": Phrases("argument", count=len(EXAMPLE_ARGUMENTS)),
        "grabbers": Items("grabbers", values=tuple(range(players)), of_seats=True)})


LAYOUT = layout
