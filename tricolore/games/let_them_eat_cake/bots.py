"""Named Let Them Eat Cake strategies. Each sees only its seat's view and legal actions.

Both rank the other players as *friends* and *rivals* from public facts, then play every
decision from that ranking: Voting cards for friends in the Committee's offices and for rivals as
Enemy, the Head's Medal to a friend or from a rival, the Secretary's cards, the Inspector's verdict.

``cake-hoarder``
    Keeps every cake it gets and never donates or gives anything away. It buys its protection
    with Generals: it keeps them to be the unique holder of most Generals (immune from being Enemy),
    spends a coup only to name someone else Enemy when it is itself among the tied candidates, and
    alleges rigging when a vote makes it the Enemy or puts a rival in charge of its Pawn on the
    Guillotine. As Secretary it takes the biggest Cake; as Inspector it declares the batch safe only
    when its own card is worth as much as the best card a rival got. Its rivals are the players
    with the biggest stashes; its friends the smallest.

``kingmaker``
    Trades its votes for cake. Its patron is whoever has given it the most (a Cake card counts 3,
    a General 2, a Medal 1, from the public record of gifts); with no patron yet it backs the player
    with the smallest stash against the leader (the biggest stash). It votes the patron into
    every office and the leader as Enemy, shows mercy to the patron's Pawn, gives the patron the
    best card as Secretary (the second best to itself), protects the patron with a Medal when the
    patron has the fewest, and donates a small Cake to take a Medal from the leader when it is
    short of Medals. It spends Generals to seize a big Cake, and alleges rigging when a vote makes
    the patron or itself the Enemy.

Parameters (``name:key=value``; the defaults are the strategies as described above):

``cake-hoarder``
    ``reserve`` (1, 1 to 20): the Generals it must hold before it alleges rigging. ``watched``
    (2, 1 to 5): as Inspector, how many rivals (the biggest stashes first) its own card must be
    worth as much as for the batch to be safe.

``kingmaker``
    ``cake_card_worth`` (3), ``general_worth`` (2), ``medal_worth`` (1), each 0 to 10: what each
    Cake card, General and Medal given to it counts for when it chooses its patron.
    ``seize_at`` (10, 1 to 14): the smallest Cake it spends two Generals to seize.
    ``donate_up_to`` (4, 0 to 14): the biggest Cake it donates to take a Medal from the leader.
    ``short_of_medals`` (1, 0 to 10): it donates only while it holds this many Medals or fewer.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from tricolore.agents.params import Parameter
from tricolore.core import ActionSpace
from tricolore.games.let_them_eat_cake.data import GENERAL

Action = dict[str, Any]


class CakeBot:
    """Shared plumbing: rank the table, then answer each prompt from the ranking."""

    name: ClassVar[str] = "cake-bot"
    watched = 2
    """As Inspector, how many rivals' cards its own is compared with."""

    def act(self, view: Mapping[str, Any], legal: ActionSpace, rng: random.Random) -> Action:
        """The strategy's action, or a random legal one if its wish is not legal."""
        for wish in self.wishes(view, legal):
            if legal.contains(wish):
                return wish
        fallback = {"type": "pass"}
        return fallback if legal.contains(fallback) else legal.sample(rng)

    # -- what the strategy thinks of the table ---------------------------------------------
    def friends(self, view: Mapping[str, Any]) -> list[int]:
        """Other seats, the one it most wants in office first."""
        me = view["seat"]
        return sorted((s for s in range(view["players"]) if s != me),
                      key=lambda s: (view["stash_cards"][s], s))

    def rivals(self, view: Mapping[str, Any]) -> list[int]:
        """Other seats, the one it most wants on the Guillotine first."""
        return list(reversed(self.friends(view)))

    # -- decisions ---------------------------------------------------------------------------
    def wishes(self, view: Mapping[str, Any], legal: ActionSpace) -> list[Action]:
        """What the strategy would like to do now, best first."""
        kinds = legal.kinds
        election = view["election"]
        me = view["seat"]
        if "vote" in kinds:
            return self.votes(view, election)
        if "break_tie" in kinds:
            order = self.rivals(view) if election["office"] == "enemy" else [me, *self.friends(view)]
            return [{"type": "break_tie", "winner": s} for s in order]
        if "coup" in kinds:
            return self.coup(view, election)
        if "allege_rigging" in kinds:
            return [{"type": "allege_rigging"}] if self.contests(view, election) else []
        if "seize" in kinds:
            return self.seize(view)
        if "award_medal" in kinds or "remove_medal" in kinds:
            return self.medal_move(view)
        if "execute" in kinds:
            return [{"type": "mercy"} if self.spares(view) else {"type": "execute"}]
        if "deal" in kinds:
            return self.deal(view)
        if "inspect" in kinds:
            return [{"type": "inspect", "safe": self.batch_is_safe(view)}]
        if "donate" in kinds:
            return self.donate(view)
        return []

    def votes(self, view: Mapping[str, Any], election: Mapping[str, Any]) -> list[Action]:
        """Cards for the best candidate first; a card naming nobody useful last."""
        if election["office"] == "enemy":
            order = [s for s in self.rivals(view) if s in election["candidates"]]
        else:
            order = self.friends(view)
        hand = view["you"]["hand"]
        rest = [s for s in reversed(self.friends(view)) if s not in order]
        return [{"type": "vote", "candidate": s} for s in [*order, *rest] if s in hand]

    def coup(self, view: Mapping[str, Any], election: Mapping[str, Any]) -> list[Action]:
        """A coup only to escape being named Enemy."""
        me = view["seat"]
        if election["office"] == "enemy" and me in election["candidates"]:
            return [{"type": "coup", "winner": s} for s in self.rivals(view)
                    if s in election["candidates"]]
        return []

    def contests(self, view: Mapping[str, Any], election: Mapping[str, Any]) -> bool:
        """Whether to allege rigging against this result."""
        me = view["seat"]
        if election["office"] == "enemy":
            return bool(election["winner"] == me)
        if election["office"] == "operator" and view["guillotine"] == me:
            return election["winner"] in self.rivals(view)[:1]
        return False

    def seize(self, view: Mapping[str, Any]) -> list[Action]:
        """Seize a big Cake when there are Generals to spare."""
        return []

    def medal_move(self, view: Mapping[str, Any]) -> list[Action]:
        """Take a Medal from the leading rival, else give one to the first friend."""
        return [*({"type": "remove_medal", "from": s} for s in self.rivals(view)),
                *({"type": "award_medal", "to": s} for s in self.friends(view))]

    def spares(self, view: Mapping[str, Any]) -> bool:
        """Whether to show mercy to the Pawn on the Guillotine."""
        return False

    def deal(self, view: Mapping[str, Any]) -> list[Action]:
        """The best card to the first in line, and so on."""
        free = sorted((c for c in view["draw"] if c["to"] is None), key=lambda c: -c["value"])
        placed = {c["to"] for c in view["draw"] if c["to"] is not None}
        line = [s for s in self.deal_order(view) if s not in placed]
        return [{"type": "deal", "card": free[0]["card"], "to": line[0]}] if free and line else []

    def deal_order(self, view: Mapping[str, Any]) -> list[int]:
        """Who gets the best card first (Generals count as worth nothing)."""
        return [view["seat"], *self.friends(view)]

    def batch_is_safe(self, view: Mapping[str, Any]) -> bool:
        """Safe when its own card is at least as good as any of the first ``watched`` rivals'."""
        me = view["seat"]
        mine = next((c["value"] for c in view["draw"] if c["to"] == me), GENERAL)
        watched = self.rivals(view)[:self.watched]
        best_rival = max((c["value"] for c in view["draw"] if c["to"] in watched), default=GENERAL)
        return mine >= best_rival

    def donate(self, view: Mapping[str, Any]) -> list[Action]:
        """Keep the cake."""
        return [{"type": "pass"}]


class CakeHoarder(CakeBot):
    """Keeps its cake and buys protection with Generals (see the module docstring)."""

    name = "cake-hoarder"
    parameters: ClassVar[Mapping[str, Parameter]] = {
        "reserve": Parameter(1, 1, 20, "the Generals it must hold before it alleges rigging"),
        "watched": Parameter(2, 1, 5, "as Inspector, how many rivals (the biggest stashes first) "
                                      "its own card must be worth as much as for a safe batch"),
    }

    def __init__(self, reserve: int = 1, watched: int = 2) -> None:
        self.reserve = reserve
        self.watched = watched

    def contests(self, view: Mapping[str, Any], election: Mapping[str, Any]) -> bool:
        """Allege rigging only when it costs no protection it needs."""
        me = view["seat"]
        mine = view["generals"][me]["pantry"] + view["generals"][me]["starter"]
        return mine >= self.reserve and super().contests(view, election)


class Kingmaker(CakeBot):
    """Trades its votes for cake (see the module docstring)."""

    name = "kingmaker"
    trades = True
    parameters: ClassVar[Mapping[str, Parameter]] = {
        "cake_card_worth": Parameter(3, 0, 10, "what a Cake card given to it counts for, choosing "
                                               "its patron"),
        "general_worth": Parameter(2, 0, 10, "what a General given to it counts for"),
        "medal_worth": Parameter(1, 0, 10, "what a Medal given to it counts for"),
        "seize_at": Parameter(10, 1, 14, "the smallest Cake it spends two Generals to seize"),
        "donate_up_to": Parameter(4, 0, 14, "the biggest Cake it donates to take a Medal from the "
                                            "leader"),
        "short_of_medals": Parameter(1, 0, 10, "it donates only while it holds this many Medals "
                                               "or fewer"),
    }

    def __init__(self, cake_card_worth: int = 3, general_worth: int = 2, medal_worth: int = 1,
                 seize_at: int = 10, donate_up_to: int = 4, short_of_medals: int = 1) -> None:
        self.weights = {"medals": medal_worth, "generals": general_worth,
                        "cake_cards": cake_card_worth}
        self.seize_at = seize_at
        self.donate_up_to = donate_up_to
        self.short_of_medals = short_of_medals

    def patron(self, view: Mapping[str, Any]) -> int:
        """The seat that has given this one the most, else the smallest stash."""
        me = view["seat"]
        given = dict.fromkeys((s for s in range(view["players"]) if s != me), 0)
        for gift in view["gifts"]:
            if gift["receiver"] == me:
                given[gift["giver"]] += sum(w * gift[k] for k, w in self.weights.items())
        best = max(given.values())
        if best > 0:
            return min(s for s, v in given.items() if v == best)
        return min(given, key=lambda s: (view["stash_cards"][s], s))

    def friends(self, view: Mapping[str, Any]) -> list[int]:
        """The patron first, then the smallest stashes."""
        patron = self.patron(view)
        return [patron, *(s for s in super().friends(view) if s != patron)]

    def rivals(self, view: Mapping[str, Any]) -> list[int]:
        """The leader (biggest stash) first; the patron is never a rival."""
        me, patron = view["seat"], self.patron(view)
        return sorted((s for s in range(view["players"]) if s not in (me, patron)),
                      key=lambda s: (-view["stash_cards"][s], s))

    def deal_order(self, view: Mapping[str, Any]) -> list[int]:
        """The patron's card first, then its own."""
        return [self.patron(view), view["seat"], *self.friends(view)[1:]]

    def wishes(self, view: Mapping[str, Any], legal: ActionSpace) -> list[Action]:
        """A Medal to a patron in danger before anything else."""
        out: list[Action] = []
        patron, me = self.patron(view), view["seat"]
        medals = view["medals"]
        if medals[me] > 1 and medals[patron] == min(medals) and "give_medals" in legal.kinds:
            out.append({"type": "give_medals", "to": patron, "medals": 1})
        return [*out, *super().wishes(view, legal)]

    def contests(self, view: Mapping[str, Any], election: Mapping[str, Any]) -> bool:
        """Against a vote that makes the patron or itself the Enemy."""
        if election["office"] == "enemy":
            return election["winner"] in (view["seat"], self.patron(view))
        return super().contests(view, election)

    def seize(self, view: Mapping[str, Any]) -> list[Action]:
        """A Cake of ``seize_at`` (10) or more is worth two Generals."""
        big = [c for c in view["draw"] if c["to"] is None and c["value"] >= self.seize_at]
        return [{"type": "seize", "card": max(big, key=lambda c: c["value"])["card"]}] if big else []

    def spares(self, view: Mapping[str, Any]) -> bool:
        """Mercy for the patron's Pawn."""
        return bool(view["guillotine"] == self.patron(view))

    def batch_is_safe(self, view: Mapping[str, Any]) -> bool:
        """Unsafe only when the leader got the best card and neither it nor the patron got cake."""
        owners = {c["to"]: c["value"] for c in view["draw"]}
        best = max(owners.values(), default=GENERAL)
        leader = self.rivals(view)[0] if self.rivals(view) else None
        ours = max(owners.get(view["seat"], GENERAL), owners.get(self.patron(view), GENERAL))
        return not (leader is not None and owners.get(leader) == best and ours == GENERAL)

    def donate(self, view: Mapping[str, Any]) -> list[Action]:
        """A small Cake (at most ``donate_up_to``) buys a Medal from the leader when Medals are
        short (at most ``short_of_medals``)."""
        me = view["seat"]
        received = view["you"]["received"]
        if (view["medals"][me] <= self.short_of_medals and received is not None
                and received["value"] <= self.donate_up_to):
            return [{"type": "donate", "take_from": s} for s in self.rivals(view)
                    if view["medals"][s]]
        return [{"type": "pass"}]


STRATEGIES = {CakeHoarder.name: CakeHoarder, Kingmaker.name: Kingmaker}
