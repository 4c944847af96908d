"""Named Bread and Circuses strategies. Each sees only its seat's view and its actions.

``honest-discloser``
    Keeps the peace and tells the truth. In Negotiation it discloses, honestly, whichever of Bread
    and Circus the other disclosures show less of (either, at random, on a tie). With regulated
    bribery, if the disclosures still lack Bread or Circus, it offers 2 Gold to the next player who
    has not disclosed to play the missing one. Then it declares ready, and declares it again
    whenever another player's change clears it. It accepts a deal that pays it only for what it
    does anyway this round (its tile, any tile but another, an honest disclosure), and pays a
    solicited deal of at most 2 Gold for a tile the disclosures still lack. With its Sabotage
    cards it prevents riots: Charity Kitchen or Street Players when the count lacks Bread or
    Circus, Appease the Mob when there is a riot; it plays Monopoly whenever it can.

``free-rider``
    Abstains when it expects the others to cover both needs. It never discloses, declares ready
    at once (and again after any change), and chooses its tile last, in the Play phase: Abstain if
    the other disclosures show at least one Bread and one Circus (nine times in ten: it does not
    trust them blindly), otherwise the missing one. With regulated bribery, when the disclosures
    lack Bread or Circus it solicits 2 Gold from the richest other player for playing the missing
    one (which it would play anyway). It takes any deal worth 2 Gold or more that asks for a tile
    (or any tile but one), this round or next, and plays what it was paid for; it never pays a
    solicited deal. It pickpockets the richest player, plays Bribed Magistrate when a riot catches
    it abstaining, and Monopoly whenever it can.

Parameters (``name:key=value``; the defaults are the strategies as described above):

``honest-discloser``
    ``offers`` (2, 0 to 20): the Gold it offers, with regulated bribery, for a tile the disclosures
    lack (0: it offers nothing). ``pays_up_to`` (2, 0 to 20): the most Gold it pays on a deal
    solicited from it (0: it pays none).

``free-rider``
    ``trust`` (0.9, 0 to 1): the chance that it believes the disclosures cover both needs when
    they say so, and abstains. ``asks`` (2, 0 to 20): the Gold it solicits, with regulated bribery,
    for playing the missing tile (0: it asks nothing). ``sells_at`` (2, 1 to 20): the least Gold
    for which it accepts a deal.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from tricolore.agents.params import Parameter
from tricolore.core import ActionSpace
from tricolore.games.bread_and_circuses.data import ABSTAIN, BREAD, CIRCUS

Action = dict[str, Any]


class BreadBot:
    """Shared plumbing: the first wish that is legal, else pass, ready or any legal action."""

    name: ClassVar[str] = "bread-bot"
    trades = True  # answers deals, which are free actions

    def __init__(self) -> None:
        self.rng = random.Random(0)

    def act(self, view: Mapping[str, Any], legal: ActionSpace, rng: random.Random) -> Action:
        """The strategy's action (always legal)."""
        self.rng = rng
        for wish in self.wishes(view, legal):
            if legal.contains(wish):
                return wish
        for fallback in ({"type": "pass"}, {"type": "ready"}):
            if legal.contains(fallback):
                return fallback
        prompted = [f for f in legal.families
                    if f.kind not in ("give_gold", "offer_deal", "solicit_deal", "withdraw_deal")]
        return ActionSpace(tuple(prompted) or legal.families).sample(rng)

    def others_disclosed(self, view: Mapping[str, Any]) -> dict[str, int]:
        """How many other players disclosed on each icon."""
        me = view["seat"]
        icons = [d for s, d in enumerate(view["disclosures"]) if s != me and d is not None]
        return {BREAD: icons.count(BREAD), CIRCUS: icons.count(CIRCUS)}

    def scarcer(self, view: Mapping[str, Any]) -> str:
        """Bread or Circus, whichever the other disclosures show less of (either on a tie)."""
        shown = self.others_disclosed(view)
        if shown[BREAD] == shown[CIRCUS]:
            return self.rng.choice((BREAD, CIRCUS))
        return CIRCUS if shown[CIRCUS] < shown[BREAD] else BREAD

    def intended(self, view: Mapping[str, Any]) -> str:
        """The tile it means to play."""
        return self.scarcer(view)

    @staticmethod
    def promised(view: Mapping[str, Any]) -> list[Mapping[str, Any]]:
        """The conditions of the accepted deals that pay it for this round's play."""
        me = view["seat"]
        return [d["condition"] for d in view["deals"] if d["payee"] == me
                and d["status"] == "accepted" and d["condition"]["round"] == view["round"]]

    @staticmethod
    def keeps(tile: str, condition: Mapping[str, Any]) -> bool:
        """Whether playing ``tile`` meets a deal's tile condition (an honesty condition is about
        the disclosure, not the tile, and is met by disclosing honestly)."""
        if "play" in condition:
            return bool(tile == condition["play"])
        if "any_but" in condition:
            return bool(tile != condition["any_but"])
        return True

    @staticmethod
    def missing(view: Mapping[str, Any]) -> list[str]:
        """Bread and Circus, as far as neither is on any disclosure yet."""
        shown = set(view["disclosures"])
        return [t for t in (BREAD, CIRCUS) if t not in shown]

    def wishes(self, view: Mapping[str, Any], legal: ActionSpace) -> list[Action]:
        """What the strategy would like to do now, best first."""
        me = view["seat"]
        out: list[Action] = []
        for deal in view["deals"]:
            if deal["status"] == "offered" and deal["offered_by"] != me and me in (
                    deal["payer"], deal["payee"]):
                good = self.takes(view, deal) if deal["payee"] == me else self.pays(view, deal)
                out.append({"type": "accept_deal" if good else "decline_deal", "deal": deal["id"]})
        phase = view["phase"]
        if phase == "negotiation":
            out += self.negotiate(view)
        elif phase == "play":
            out.append({"type": "play", "tile": self.choose_tile(view)})
        elif phase in ("after_reveal", "scoring"):
            out += self.sabotage(view)
        return out

    def takes(self, view: Mapping[str, Any], deal: Mapping[str, Any]) -> bool:
        """Whether to accept a deal that pays it: only for this round's tile it means to play."""
        condition = deal["condition"]
        return (condition["round"] == view["round"] and "honest" not in condition
                and self.keeps(self.intended(view), condition))

    def pays(self, view: Mapping[str, Any], deal: Mapping[str, Any]) -> bool:
        """Whether to accept a deal another player solicits from it: never, by default."""
        return False

    def negotiate(self, view: Mapping[str, Any]) -> list[Action]:
        """Negotiation wishes."""
        return [{"type": "ready"}]

    def choose_tile(self, view: Mapping[str, Any]) -> str:
        """The tile for the Play phase."""
        return self.intended(view)

    def sabotage(self, view: Mapping[str, Any]) -> list[Action]:
        """Window wishes: Monopoly whenever it can."""
        return [{"type": "play_sabotage", "card": "Monopoly", "target": None}]

    @staticmethod
    def counted(view: Mapping[str, Any]) -> Mapping[str, int]:
        """Breads and Circuses counted so far this round."""
        return view["counts"] or {"breads": 0, "circuses": 0}


class HonestDiscloser(BreadBot):
    """Discloses honestly what the table lacks (see the module docstring)."""

    name = "honest-discloser"
    parameters: ClassVar[Mapping[str, Parameter]] = {
        "offers": Parameter(2, 0, 20, "the Gold it offers, with regulated bribery, for a tile the "
                                     "disclosures lack (0: none)"),
        "pays_up_to": Parameter(2, 0, 20, "the most Gold it pays on a deal solicited from it"),
    }

    def __init__(self, offers: int = 2, pays_up_to: int = 2) -> None:
        super().__init__()
        self.offers = offers
        self.pays_up_to = pays_up_to

    def intended(self, view: Mapping[str, Any]) -> str:
        """Its disclosed tile once it has one, else the scarcer of Bread and Circus."""
        return view["you"]["disclosed_tile"] or self.scarcer(view)

    def takes(self, view: Mapping[str, Any], deal: Mapping[str, Any]) -> bool:
        """Paid for what it does anyway: its tile, or an honest disclosure while it may make one."""
        condition = deal["condition"]
        if condition["round"] != view["round"]:
            return False
        if "honest" in condition:
            return view["seat"] not in view["barred"]
        return self.keeps(self.intended(view), condition)

    def pays(self, view: Mapping[str, Any], deal: Mapping[str, Any]) -> bool:
        """At most ``pays_up_to`` (2) Gold, this round, for a tile the disclosures still lack."""
        condition = deal["condition"]
        return (deal["amount"] <= min(self.pays_up_to, view["gold"][view["seat"]])
                and condition["round"] == view["round"]
                and condition.get("play") in self.missing(view))

    def negotiate(self, view: Mapping[str, Any]) -> list[Action]:
        """Disclose honestly; with regulated bribery, pay for what the table still lacks; ready."""
        if view["you"]["disclosed_tile"] is None:
            tile = self.scarcer(view)
            return [{"type": "disclose", "tile": tile, "icon": tile}, {"type": "ready"}]
        return [*self.bribe(view), {"type": "ready"}]

    def bribe(self, view: Mapping[str, Any]) -> list[Action]:
        """Offer ``offers`` (2) Gold to the next undisclosed player to play what no disclosure
        shows yet."""
        me, players = view["seat"], view["players"]
        gold = self.offers
        if not view["options"]["regulated_bribery"] or not gold or view["gold"][me] < gold:
            return []
        if any(d["offered_by"] == me and d["condition"]["round"] >= view["round"]
               for d in view["deals"]):
            return []
        missing = self.missing(view)
        quiet = [(me + i) % players for i in range(1, players)
                 if view["disclosures"][(me + i) % players] is None]
        if not missing or not quiet:
            return []
        return [{"type": "offer_deal", "to": quiet[0], "gold": gold, "condition": "play",
                 "tile": missing[0], "when": "this"}]

    def sabotage(self, view: Mapping[str, Any]) -> list[Action]:
        """Prevent riots; Monopoly."""
        counts = self.counted(view)
        out: list[Action] = []
        if counts["breads"] == 0:
            out.append({"type": "play_sabotage", "card": "Charity Kitchen", "target": None})
        if counts["circuses"] == 0:
            out.append({"type": "play_sabotage", "card": "Street Players", "target": None})
        if view["riot"]:
            out.append({"type": "play_sabotage", "card": "Appease the Mob", "target": None})
        return [*out, *super().sabotage(view)]


class FreeRider(BreadBot):
    """Abstains when the others cover both needs (see the module docstring)."""

    name = "free-rider"
    parameters: ClassVar[Mapping[str, Parameter]] = {
        "trust": Parameter(0.9, 0, 1, "the chance that it believes the disclosures cover both "
                                      "needs when they say so, and abstains"),
        "asks": Parameter(2, 0, 20, "the Gold it solicits, with regulated bribery, for playing the "
                                    "missing tile (0: none)"),
        "sells_at": Parameter(2, 1, 20, "the least Gold for which it accepts a deal"),
    }

    def __init__(self, trust: float = 0.9, asks: int = 2, sells_at: int = 2) -> None:
        super().__init__()
        self.trust = trust
        """How often it believes the disclosures cover both needs when they say so."""
        self.asks = asks
        self.sells_at = sells_at

    def intended(self, view: Mapping[str, Any]) -> str:
        """Abstain if the others show both, else what is missing; what it was paid for first."""
        shown = self.others_disclosed(view)
        if shown[BREAD] and shown[CIRCUS] and self.rng.random() < self.trust:
            choice = ABSTAIN
        elif shown[BREAD] and shown[CIRCUS]:
            choice = self.scarcer(view)
        else:
            choice = BREAD if not shown[BREAD] else CIRCUS
        promised = self.promised(view)
        for tile in (choice, BREAD, CIRCUS, ABSTAIN):
            if all(self.keeps(tile, c) for c in promised):
                return tile
        return choice

    def takes(self, view: Mapping[str, Any], deal: Mapping[str, Any]) -> bool:
        """Any deal worth ``sells_at`` (2) Gold or more for a tile (not for honesty: it never
        discloses), if it has not already sold that round's tile."""
        me, condition = view["seat"], deal["condition"]
        sold = any(d["payee"] == me and d["status"] == "accepted"
                   and d["condition"]["round"] == condition["round"] for d in view["deals"])
        return deal["amount"] >= self.sells_at and "honest" not in condition and not sold

    def negotiate(self, view: Mapping[str, Any]) -> list[Action]:
        """Pickpocket the richest; with regulated bribery, solicit pay for the missing tile; then
        ready without disclosing."""
        me = view["seat"]
        gold = view["gold"]
        richest = max((s for s in range(view["players"]) if s != me), key=lambda s: (gold[s], -s))
        out: list[Action] = [{"type": "play_sabotage", "card": "Pickpocket", "target": richest}]
        asked = any(d["offered_by"] == me and d["condition"]["round"] == view["round"]
                    for d in view["deals"])
        missing = self.missing(view)
        if view["options"]["regulated_bribery"] and missing and not asked and self.asks:
            out.append({"type": "solicit_deal", "to": richest, "gold": self.asks, "condition": "play",
                        "tile": missing[0], "when": "this"})
        return [*out, {"type": "ready"}]

    def sabotage(self, view: Mapping[str, Any]) -> list[Action]:
        """Escape the Abstain penalty; Monopoly."""
        me = view["seat"]
        out: list[Action] = []
        if view["riot"] and view["counts_as"] and view["counts_as"][me] == ABSTAIN:
            out.append({"type": "play_sabotage", "card": "Bribed Magistrate", "target": None})
        return [*out, *super().sabotage(view)]


STRATEGIES = {HonestDiscloser.name: HonestDiscloser, FreeRider.name: FreeRider}
