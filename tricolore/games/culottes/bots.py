"""Named Culottes strategies. Each sees only its seat's view and legal actions.

``honest-revolutionary``
    Plays a Revolutionary. It tells the truth about its own citizens: a sans-culotte buys one
    cockade (the cheap, honest signal) and cake-votes sans-culotte on itself until it wears a cap; a
    privileged never buys a cockade and votes privileged on itself if it is ever capped. On other
    citizens it trusts cockades: a capped or trialed citizen without a cockade is voted privileged,
    one with cockades sans-culotte. Its own cakes are worth nothing to its score, so once the table
    has capped citizens it believes are sans-culottes it donates what it does not need for voting.
    It never recruits (each recruit costs a revolutionary a point) and agrees to end after
    ``patience`` rounds.

``puppet-grabber``
    Plays a Grabber and farms the Bastille with puppets. It recruits a puppet every turn until it
    holds ``puppets + 1`` citizens (a grabber's recruits cost nothing); its citizens cake-vote
    sans-culotte on their uncapped siblings, topping up a sibling's trial when the privileged scale
    is ahead, so every sheet ends up capped and fed at each Bastille distribution. With nothing of
    its own to push it joins the heavier side of someone else's trial for a small stake, to win a
    share of the lost cakes. It buys a cockade only when its citizens are truly sans-culottes, never
    donates, never emigrates, and agrees to end once the Bastille is empty or after ``patience``
    rounds.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from tricolore.core import ActionSpace
from tricolore.games.culottes.book import PRIVILEGED, SANS_CULOTTE
from tricolore.games.culottes.data import GRABBER, REVOLUTIONARY


class CulottesBot:
    """Shared plumbing: read the view, fall back to ``pass`` when a wish is not legal."""

    name = "culottes-bot"
    role = REVOLUTIONARY

    def __init__(self, patience: int = 6) -> None:
        self.patience = patience

    def act(self, view: Mapping[str, Any], legal: ActionSpace, rng: random.Random) -> dict[str, Any]:
        """The strategy's action, or ``pass`` (or any legal action) if its wish is not legal."""
        for wish in self.wishes(view, rng):
            if legal.contains(wish):
                return wish
        fallback = {"type": "pass"}
        return fallback if legal.contains(fallback) else legal.sample(rng)

    def wishes(self, view: Mapping[str, Any], rng: random.Random) -> list[dict[str, Any]]:
        """What the strategy would like to do now, best first."""
        if view["phase"] == "roles":
            return [{"type": "choose_role", "role": self.role}]
        wishes: list[dict[str, Any]] = []
        if self.wants_end(view) and not view["agrees_to_end"][view["seat"]]:
            wishes.append({"type": "agree_end", "agree": True})
        if view["phase"] == "recruit":
            wishes.append({"type": "recruit"} if self.wants_recruit(view) else {"type": "pass"})
            return wishes
        me = view["citizens"][view["current_citizen"]]
        if me["emigrated"] and view["step"] == 1:
            wishes.append({"type": "vive_la_revolution"})
        wishes += self.citizen_wishes(view, me)
        return wishes

    def wants_end(self, view: Mapping[str, Any]) -> bool:
        """Whether to agree to end the game now."""
        return bool(view["rounds_completed"] >= self.patience)

    def wants_recruit(self, view: Mapping[str, Any]) -> bool:
        """Whether to recruit at step 8."""
        return False

    def citizen_wishes(self, view: Mapping[str, Any], me: Mapping[str, Any]) -> list[dict[str, Any]]:
        """Wishes for the current citizen's steps 2 to 6."""
        return []


def _vote(citizen: int, side: str, cakes: int) -> dict[str, Any]:
    return {"type": "cake_vote", "citizen": citizen, "side": side, "cakes": cakes}


class HonestRevolutionary(CulottesBot):
    """See the module docstring."""

    name = "honest-revolutionary"
    role = REVOLUTIONARY

    def __init__(self, patience: int = 6, stake: int = 3, reserve: int = 6) -> None:
        super().__init__(patience)
        self.stake = stake
        self.reserve = reserve

    def believed_sans_culotte(self, citizen: Mapping[str, Any], view: Mapping[str, Any]) -> bool:
        """Trust the truth for its own citizens, cockades for the others."""
        mine = view["you"]["citizens"].get(str(citizen["id"]))
        if mine is not None:
            return bool(mine["nature"] == SANS_CULOTTE)
        return bool(citizen["cockades"] > 0)

    def citizen_wishes(self, view: Mapping[str, Any], me: Mapping[str, Any]) -> list[dict[str, Any]]:
        """Signal honestly, vote honestly, feed the Bastille."""
        wishes: list[dict[str, Any]] = []
        nature = view["you"]["citizens"][str(me["id"])]["nature"]
        if view["step"] <= 2 and nature == SANS_CULOTTE and me["cockades"] == 0:
            wishes.append({"type": "buy_cockade"})
        fed = [c for c in view["citizens"]
               if c["status"] == "cap" and self.believed_sans_culotte(c, view)]
        if view["step"] <= 3 and fed and me["cakes"] > self.reserve:
            wishes.append({"type": "donate", "cakes": min(me["cakes"] - self.reserve, 5)})
        if view["step"] <= 4 and me["cakes"]:
            stake = min(self.stake, me["cakes"])
            for c in view["citizens"]:
                if c["owner"] != view["seat"]:
                    continue
                own_nature = view["you"]["citizens"][str(c["id"])]["nature"]
                if own_nature == SANS_CULOTTE and c["status"] != "cap":
                    wishes.append(_vote(c["id"], SANS_CULOTTE, stake))
                elif own_nature == PRIVILEGED and c["status"] == "cap":
                    wishes.append(_vote(c["id"], PRIVILEGED, stake))
            for c in view["citizens"]:
                if c["owner"] == view["seat"] or c["status"] == "none":
                    continue
                side = SANS_CULOTTE if self.believed_sans_culotte(c, view) else PRIVILEGED
                scales = c["scales"] or {SANS_CULOTTE: 0, PRIVILEGED: 0}
                if c["status"] == "cap" and side == SANS_CULOTTE:
                    continue
                if c["status"] == "scale" and scales[side] > scales[_other(side)]:
                    continue
                wishes.append(_vote(c["id"], side, stake))
        wishes.append({"type": "pass"})
        return wishes


class PuppetGrabber(CulottesBot):
    """See the module docstring."""

    name = "puppet-grabber"
    role = GRABBER

    def __init__(self, patience: int = 8, puppets: int = 3) -> None:
        super().__init__(patience)
        self.puppets = puppets

    def wants_end(self, view: Mapping[str, Any]) -> bool:
        """Once the Bastille is dry there is little left to grab."""
        return bool(view["rounds_completed"] >= self.patience
                    or (view["rounds_completed"] >= 3 and view["bastille"] == 0))

    def wants_recruit(self, view: Mapping[str, Any]) -> bool:
        """Recruit puppets up to the target."""
        return len(view["holdings"][view["seat"]]) <= self.puppets

    def citizen_wishes(self, view: Mapping[str, Any], me: Mapping[str, Any]) -> list[dict[str, Any]]:
        """Cap the puppets, then ride the majority."""
        wishes: list[dict[str, Any]] = []
        nature = view["you"]["citizens"][str(me["id"])]["nature"]
        if view["step"] <= 2 and nature == SANS_CULOTTE and me["cockades"] == 0:
            wishes.append({"type": "buy_cockade"})
        if view["step"] <= 4 and me["cakes"]:
            own = [view["citizens"][i] for i in view["holdings"][view["seat"]]]
            siblings = [c for c in own if c["id"] != me["id"]] + [me]
            for c in siblings:
                scales = c["scales"] or {SANS_CULOTTE: 0, PRIVILEGED: 0}
                if c["status"] == "scale" and scales[SANS_CULOTTE] <= scales[PRIVILEGED]:
                    need = scales[PRIVILEGED] - scales[SANS_CULOTTE] + 1
                    wishes.append(_vote(c["id"], SANS_CULOTTE, min(need, me["cakes"])))
                elif c["status"] == "none":
                    wishes.append(_vote(c["id"], SANS_CULOTTE, min(2, me["cakes"])))
            trials = [c for c in view["citizens"]
                      if c["status"] == "scale" and c["owner"] != view["seat"]]
            trials.sort(key=lambda c: -abs(c["scales"][SANS_CULOTTE] - c["scales"][PRIVILEGED]))
            for c in trials[:1]:
                s = c["scales"]
                if s[SANS_CULOTTE] != s[PRIVILEGED]:
                    side = SANS_CULOTTE if s[SANS_CULOTTE] > s[PRIVILEGED] else PRIVILEGED
                    wishes.append(_vote(c["id"], side, min(2, me["cakes"])))
        wishes.append({"type": "pass"})
        return wishes


def _other(side: str) -> str:
    return PRIVILEGED if side == SANS_CULOTTE else SANS_CULOTTE


STRATEGIES = {
    HonestRevolutionary.name: HonestRevolutionary,
    PuppetGrabber.name: PuppetGrabber,
}
"""The named strategies of Culottes, by name."""
