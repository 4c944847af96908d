"""How the environments number Bread and Circuses' actions (see :mod:`tricolore.core.layout`):
tiles, icons and sabotage cards by name, Gold capped at 30, deals offered by position."""

from __future__ import annotations

from tricolore.core.layout import Layout, Positions, Values, amounts, kinds_of, seats
from tricolore.core.model import Options
from tricolore.games.bread_and_circuses.data import CARDS, TILES
from tricolore.games.bread_and_circuses.rules import DEAL_CONDITIONS, DEAL_ROUNDS


def layout(state_class: type, players: int, options: Options) -> Layout:
    """The flat action layout of a Bread and Circuses table."""
    return Layout(kinds_of(state_class), {
        "tile": Values("tile", values=(*TILES, None)), "icon": Values("icon", values=TILES),
        "card": Values("sabotage card", values=tuple(CARDS)),
        "target": seats(players, "target", none="nobody"), "to": seats(players),
        "gold": amounts("gold", 30), "condition": Values("condition", values=DEAL_CONDITIONS),
        "when": Values("when", values=DEAL_ROUNDS), "deal": Positions("deal")})


LAYOUT = layout
