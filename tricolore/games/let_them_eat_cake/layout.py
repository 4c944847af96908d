"""How the environments number Let Them Eat Cake's actions (see :mod:`tricolore.core.layout`):
seats and nobody, Medals and Generals capped at 12, a stash chosen one card at a time."""

from __future__ import annotations

from tricolore.core.layout import Items, Layout, Values, amounts, kinds_of, seats
from tricolore.core.model import Options
from tricolore.games.let_them_eat_cake.data import PANTRY, STARTER_CAKES


def layout(state_class: type, players: int, options: Options) -> Layout:
    """The flat action layout of a Let Them Eat Cake table."""
    seat = seats(players, none="nobody")
    return Layout(kinds_of(state_class), {
        "to": seat, "from": seat, "winner": seat, "candidate": seat, "take_from": seat,
        "card": Values("drawn card", values=tuple(range(players))),
        "safe": Values("safe", values=(True, False)),
        "medals": amounts("medals", 12), "generals": amounts("generals", 12),
        "cards": Items("stash card", values=tuple(range(len(PANTRY) + len(STARTER_CAKES))))})


LAYOUT = layout
