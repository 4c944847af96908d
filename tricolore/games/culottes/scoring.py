"""Culottes scoring, the rulebook's eight steps, as a pure function.

1. Natures and roles are revealed.
2. A grabber's citizen scores its cakes minus the starting cakes it was given.
3. A revolutionary's citizen scores every Bastille cake given to a true sans-culotte ...
4. ... minus every Bastille cake given to a true privileged.
5. A revolutionary loses one point per citizen recruited.
6. A sans-culotte citizen loses the price of each cockade it bought (1 by default) ...
7. ... a privileged citizen three times as much (3 by default).
8. A grabber scores the sum of their citizens, a revolutionary the best of theirs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tricolore.games.culottes.data import GRABBER, SANS_CULOTTE


@dataclass(frozen=True, slots=True)
class CitizenTally:
    """What scoring needs of one citizen sheet once its flap is turned."""

    name: str
    nature: str
    puppet: bool
    recruited: bool
    cakes: int
    cockades: int
    bastille_cakes: int


def cockade_cost(tally: CitizenTally, price_sans_culotte: int, price_privileged: int) -> int:
    """Steps 6 and 7: cockades are paid at the end, by the citizen's true nature."""
    price = price_sans_culotte if tally.nature == SANS_CULOTTE else price_privileged
    return tally.cockades * price


def bastille_totals(citizens: Sequence[CitizenTally]) -> tuple[int, int]:
    """Bastille cakes given to true sans-culottes and to true privileged, all players together."""
    to_sc = sum(c.bastille_cakes for c in citizens if c.nature == SANS_CULOTTE)
    return to_sc, sum(c.bastille_cakes for c in citizens) - to_sc


def score_player(role: str, own: Sequence[CitizenTally], everyone: Sequence[CitizenTally], *,
                 starting_cakes: int, price_sans_culotte: int, price_privileged: int
                 ) -> dict[str, Any]:
    """One player's score with its breakdown, following the eight steps.

    ``own`` are the player's citizens in sheet order, ``everyone`` every citizen at the table.
    """
    to_sc, to_priv = bastille_totals(everyone)
    rows: list[dict[str, Any]] = []
    for c in own:
        cost = cockade_cost(c, price_sans_culotte, price_privileged)
        if role == GRABBER:
            earned = c.cakes - starting_cakes
            score = earned - cost
            rows.append({"name": c.name, "nature": c.nature, "puppet": c.puppet,
                         "recruited": c.recruited, "cakes": c.cakes, "cakes_earned": earned,
                         "cockades": c.cockades, "cockade_cost": cost,
                         "bastille_cakes": c.bastille_cakes, "score": score})
        else:
            score = to_sc - to_priv - cost
            rows.append({"name": c.name, "nature": c.nature, "puppet": c.puppet,
                         "recruited": c.recruited, "cakes": c.cakes, "cockades": c.cockades,
                         "cockade_cost": cost, "bastille_cakes": c.bastille_cakes, "score": score})
    recruits = sum(c.recruited for c in own)
    if role == GRABBER:
        total = sum(r["score"] for r in rows)
        recruit_cost = 0
    else:
        recruit_cost = recruits
        total = max(r["score"] for r in rows) - recruit_cost
    return {"role": role, "citizens": rows, "recruits": recruits, "recruit_cost": recruit_cost,
            "bastille_to_sans_culottes": to_sc, "bastille_to_privileged": to_priv,
            "combined": "sum" if role == GRABBER else "best", "score": total}
