"""How the environments number Culottes' actions (see :mod:`tricolore.core.layout`): a citizen's
slot means the same citizen whichever parameter (the citizen voted on, the giver, the voter) is
being chosen; cakes are capped at 20, a bribe's reward and cover at 10; deals and alliances are
offered by position."""

from __future__ import annotations

from tricolore.core.layout import Layout, Positions, Values, amounts, kinds_of
from tricolore.core.model import Options
from tricolore.games.culottes.book import SIDES
from tricolore.games.culottes.data import ROLES

CITIZENS_PER_SHEET = 4
"""Culottes numbers ``CITIZENS_PER_SHEET × players × citizen sheets per player`` citizens."""


def layout(state_class: type, players: int, options: Options) -> Layout:
    """The flat action layout of a Culottes table."""
    sheets = getattr(options, "citizen_sheets_per_player", 2)
    citizen = Values("citizen", values=tuple(range(CITIZENS_PER_SHEET * players * sheets)), strict=False)
    deal = Positions("deal")
    return Layout(kinds_of(state_class), {
        "role": Values("role", values=ROLES), "side": Values("side", values=SIDES),
        "agree": Values("agree", values=(True, False)),
        "citizen": citizen, "from": citizen, "to": citizen, "voter": citizen, "trial": citizen,
        "cakes": amounts("cakes", 20), "reward": amounts("reward", 10), "cover": amounts("cover", 10),
        "deal": deal, "alliance": Positions("alliance")})


LAYOUT = layout
