"""Named Revolution! strategies. Each sees only its seat's view and legal actions.

Both build their bid chip by chip with :class:`~tricolore.games.revolution.bids.ChipByChip`
(so every bid they make is legal), each chip going where the strategy values it most, a space's
value shrinking with the chips already put there. Both judge the Spy, the Apothecary and the
"Remove 1 Influence" card the same way: the choice that most improves the area support they would
win at the end, less the best opponent's.

``printer-first``
    Chases support on the track: the Printer (10) first, then the Priest (6), the Aristocrat and
    the other characters by their support plus the chips they give; Gold left over buys cards.
    Influence is a side effect.

``area-control``
    Chases majorities. A character is worth the support of its area when the area is still open
    and within reach (it leads, or trails by at most one marker) and it has markers left, little
    when the area is full or lost. It bids high on the Spy and the Apothecary when a replacement
    or a swap would turn an area its way, and uses them for the biggest swing.

Parameters (``name:key=value``; the defaults are the strategies as described above):

both
    ``shake`` (0.5, 0 to 2): how much each chip's space values are shaken at random (0: not at
    all; players of one strategy may then tie on the same spaces for ever).

``printer-first``
    ``card_worth`` (2.5, 0 to 20): what winning the Card space is worth. ``power_bonus`` (1, 0 to
    20): what a space's power (the Spy, the Apothecary) adds to its support and chips.

``area-control``
    ``reach`` (1, 0 to 10): how many markers it may trail an area's leader by and still chase the
    area. ``card_worth`` (2, 0 to 20): what winning the Card space is worth.

The batch (:mod:`~tricolore.games.revolution.batch_bots`) plays both strategies with these
defaults.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from tricolore.agents.params import Parameter
from tricolore.core import ActionSpace
from tricolore.games.revolution.bids import ChipByChip
from tricolore.games.revolution.data import AREAS, EDITIONS, FORCE

CHIP_WORTH = {"force": 4.0, "blackmail": 2.5, "gold": 1.0}
SHAKE = 0.5
"""How much each chip's space values are shaken at random, by default."""
FORCE_WEIGHT = 3.0
"""How much more a Force chip's placement counts than another chip's (the chips of one currency are
placed together, so this orders nothing between spaces)."""
PRINTER_CARD_WORTH = 2.5
"""What the Card space is worth to ``printer-first``, by default."""
PRINTER_POWER_BONUS = 1.0
"""What a space's power adds for ``printer-first``, by default."""
AREA_CARD_WORTH = 2.0
"""What the Card space is worth to ``area-control``, by default."""
AREA_REACH = 1
"""How many markers ``area-control`` may trail an area's leader by and still chase it, by default."""
Board = dict[str, list[int]]


def area_points(board: Mapping[str, Sequence[int]], seat: int) -> int:
    """The area support ``seat`` would win if the game ended with this board, less the best
    opponent's."""
    won = [0] * len(next(iter(board.values())))
    for area in AREAS:
        markers = board[area.name]
        best = max(markers)
        if best and markers.count(best) == 1:
            won[markers.index(best)] += area.support
    return won[seat] - max(w for s, w in enumerate(won) if s != seat)


def board_of(view: Mapping[str, Any]) -> Board:
    """The markers per area, from a view."""
    return {a["name"]: list(a["markers"]) for a in view["areas"]}


class RevolutionBot:
    """Shared plumbing: bid chip by chip by value; choose powers by the area swing."""

    name: ClassVar[str] = "revolution-bot"
    parameters: ClassVar[Mapping[str, Parameter]] = {
        "shake": Parameter(SHAKE, 0, 2, "how much each chip's space values are shaken at random "
                                        "(0: not at all)"),
    }

    def __init__(self, shake: float = SHAKE) -> None:
        self.shake = shake

    def act(self, view: Mapping[str, Any], legal: ActionSpace, rng: random.Random) -> dict[str, Any]:
        """The strategy's action (always legal)."""
        kinds = legal.kinds
        if "bid" in kinds:
            return self.bid(view, rng)
        if "spy" in kinds:
            return self.best(view, legal, "spy", self.spy_options(view)) or {"type": "decline"}
        if "swap" in kinds:
            return self.best(view, legal, "swap", self.swap_options(view)) or {"type": "decline"}
        if "remove_influence" in kinds:
            choice = self.best(view, legal, "remove_influence", self.spy_options(view), strict=False)
            return choice or legal.sample(rng)
        return legal.sample(rng)

    # -- bids --------------------------------------------------------------------------------
    def space_value(self, view: Mapping[str, Any], space: Mapping[str, Any]) -> float:
        """What winning ``space`` is worth to the strategy."""
        return space["support"] + sum(CHIP_WORTH[c] * n for c, n in space["chips"].items())

    def bid(self, view: Mapping[str, Any], rng: random.Random) -> dict[str, Any]:
        """Every chip where it adds most value, strongest currency first. Each chip's values are
        shaken by up to ``shake`` (a half), so players of one strategy do not tie on the same
        spaces for ever."""
        me = view["seat"]
        chart = EDITIONS[view["edition"]].chart
        values = {s["name"]: self.space_value(view, s) for s in view["chart"]}
        builder = ChipByChip(chart, view["chips"][me])
        while not builder.done:
            scored = []
            for currency, space in builder.options():
                already = sum(builder.placed.get(space, {}).values())
                weight = FORCE_WEIGHT if currency == FORCE else 1.0
                shake = 1 + rng.random() * self.shake
                scored.append((values[space] * shake * weight / (1 + already), currency, space))
            _, currency, space = max(scored)
            builder.place(currency, space)
        return builder.action()

    # -- powers ------------------------------------------------------------------------------
    def spy_options(self, view: Mapping[str, Any]) -> list[tuple[dict[str, Any], Board]]:
        """Every (action fields, resulting board) for replacing or removing one opponent marker."""
        me = view["seat"]
        out = []
        for area, markers in board_of(view).items():
            for victim, n in enumerate(markers):
                if n and victim != me:
                    board = board_of(view)
                    board[area][victim] -= 1
                    board[area][me] += 1
                    out.append(({"area": area, "victim": victim}, board))
        return out

    def swap_options(self, view: Mapping[str, Any]) -> list[tuple[dict[str, Any], Board]]:
        """Every swap of two markers of different players that involves this seat's marker."""
        me = view["seat"]
        base = board_of(view)
        out = []
        for a1, m1 in base.items():
            if not m1[me]:
                continue
            for a2, m2 in base.items():
                for other, n in enumerate(m2):
                    if n and other != me and a1 != a2:
                        board = board_of(view)
                        board[a1][me] -= 1
                        board[a1][other] += 1
                        board[a2][other] -= 1
                        board[a2][me] += 1
                        out.append(({"first_area": a1, "first_owner": me, "second_area": a2,
                                     "second_owner": other}, board))
        return out

    def best(self, view: Mapping[str, Any], legal: ActionSpace, kind: str,
             options: list[tuple[dict[str, Any], Board]], strict: bool = True
             ) -> dict[str, Any] | None:
        """The option with the biggest gain in area points (``strict``: only a real gain)."""
        me = view["seat"]
        now = area_points(board_of(view), me)
        scored = []
        for fields, board in options:
            if kind == "remove_influence":
                board = {a: list(m) for a, m in board.items()}
                board[fields["area"]][me] -= 1  # a removal, not a replacement
            action = {"type": kind, **fields}
            if legal.contains(action):
                scored.append((area_points(board, me) - now, action))
        if not scored:
            return None
        gain, action = max(scored, key=lambda x: x[0])
        return action if gain > 0 or not strict else None


class PrinterFirst(RevolutionBot):
    """Chases support on the track (see the module docstring)."""

    name = "printer-first"
    parameters: ClassVar[Mapping[str, Parameter]] = {
        **RevolutionBot.parameters,
        "card_worth": Parameter(PRINTER_CARD_WORTH, 0, 20, "what winning the Card space is worth"),
        "power_bonus": Parameter(PRINTER_POWER_BONUS, 0, 20, "what a space's power (the Spy, the "
                                                             "Apothecary) adds to its value"),
    }

    def __init__(self, shake: float = SHAKE, card_worth: float = PRINTER_CARD_WORTH,
                 power_bonus: float = PRINTER_POWER_BONUS) -> None:
        super().__init__(shake)
        self.card_worth = card_worth
        self.power_bonus = power_bonus

    def space_value(self, view: Mapping[str, Any], space: Mapping[str, Any]) -> float:
        """Support plus chips gained; a card is worth about two support; powers little."""
        if space["special"] == "card":
            return self.card_worth
        return super().space_value(view, space) + (self.power_bonus if space["special"] else 0.0)


class AreaControl(RevolutionBot):
    """Chases majorities and uses the Spy and the Apothecary (see the module docstring)."""

    name = "area-control"
    parameters: ClassVar[Mapping[str, Parameter]] = {
        **RevolutionBot.parameters,
        "reach": Parameter(AREA_REACH, 0, 10, "how many markers it may trail an area's leader by "
                                              "and still chase the area"),
        "card_worth": Parameter(AREA_CARD_WORTH, 0, 20, "what winning the Card space is worth"),
    }

    def __init__(self, shake: float = SHAKE, reach: int = AREA_REACH,
                 card_worth: float = AREA_CARD_WORTH) -> None:
        super().__init__(shake)
        self.reach = reach
        self.card_worth = card_worth

    def space_value(self, view: Mapping[str, Any], space: Mapping[str, Any]) -> float:
        """An open area within reach is worth its support; the powers, their best swing."""
        me = view["seat"]
        out_of_markers = view["markers_left"] is not None and view["markers_left"][me] == 0
        if space["area"] is not None and not out_of_markers:
            area = next(a for a in view["areas"] if a["name"] == space["area"])
            markers = area["markers"]
            lead = markers[me] - max(n for s, n in enumerate(markers) if s != me)
            open_ = sum(markers) < area["spaces"]
            reach = open_ and lead >= -self.reach
            return (area["support"] / 3 if reach else 2.0) + space["support"] * 0.3
        if space["special"] == "spy":
            gains = [area_points(b, me) for _, b in self.spy_options(view)]
            return max(0.0, (max(gains, default=0) - area_points(board_of(view), me)) / 3)
        if space["special"] == "apothecary":
            gains = [area_points(b, me) for _, b in self.swap_options(view)]
            return max(0.0, (max(gains, default=0) - area_points(board_of(view), me)) / 3)
        if space["special"] == "card":
            return self.card_worth
        return super().space_value(view, space) * 0.5


STRATEGIES = {PrinterFirst.name: PrinterFirst, AreaControl.name: AreaControl}
