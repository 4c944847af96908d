"""How the environments number Revolution!'s actions (see :mod:`tricolore.core.layout`): areas and
seats by name and number, and a bid placed one chip at a time on the edition's Bidding Chart
(:class:`~tricolore.games.revolution.bids.ChipByChip`)."""

from __future__ import annotations

from typing import Any

from tricolore.core.actions import Domain
from tricolore.core.layout import Chips, Layout, Values, kinds_of, seats
from tricolore.core.model import Options
from tricolore.games.revolution.bids import ChipByChip
from tricolore.games.revolution.data import AREAS, CURRENCIES, EDITIONS


def chip_by_chip(domain: Domain) -> ChipByChip:
    """A bid for a bid's domain (its chart and the chips the seat holds), no chip placed yet."""
    bid: Any = domain
    return ChipByChip(bid.chart, bid.holding())


def layout(state_class: type, players: int, options: Options) -> Layout:
    """The flat action layout of a Revolution! table."""
    chart = EDITIONS[getattr(options, "edition", "seed")].chart
    seat = seats(players)
    area = Values("area", values=tuple(a.name for a in AREAS))
    return Layout(kinds_of(state_class), {
        "area": area, "first_area": area, "second_area": area,
        "victim": seat, "first_owner": seat, "second_owner": seat,
        "placement": Chips("bid", pairs=tuple((c, s.name) for c in CURRENCIES for s in chart
                                              if s.allows(c)), chart=chart, builder=chip_by_chip)})


LAYOUT = layout
