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
    rounds. It accepts a bribe paying its citizen to vote what the citizen would vote anyway on a
    citizen it holds to be a sans-culotte or not, and then votes the bribe's side; it declines
    every other bribe.

``p-epsilon-briber``
    Plays a Grabber: a ``puppet-grabber`` that also runs the rulebook's bribery (P+epsilon)
    attack. In the trials it cares about, those of its own citizens, it offers other players'
    citizens, richest first and at most ``targets`` of them per trial, "vote sans-culotte like me,
    and if we lose I reimburse your lost cakes (up to ``cover``) and give you ``reward`` more",
    the deposit (``reward`` + ``cover``) held in escrow, from a citizen that keeps ``reserve``
    cakes after it. It votes with its side, as the puppet-grabber does, and accepts every offer
    that does not ask it to vote against one of its own citizens, then votes the bribe's side
    with a stake the cover reimburses.

``alliance-defender``
    Plays a Revolutionary: an ``honest-revolutionary`` that answers bribery with the rulebook's
    alliance defence. When another player's bribe (offered or accepted) pushes a side in an open
    trial of a citizen not its own, it joins the alliance voting the other side of that trial
    with the citizen it is playing (or founds one if there is none), depositing 1 cake, and then
    votes that side there; it never votes against an alliance it belongs to, and declines every
    bribe.

Every strategy here answers the bribes offered to its citizens (they are free actions, so it
answers when it is next asked to act); an offer never answered lapses when its trial closes.
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
    trades = True  # answers bribes and makes deals, which are free actions

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
        wishes: list[dict[str, Any]] = self.answers(view)
        if self.wants_end(view) and not view["agrees_to_end"][view["seat"]]:
            wishes.append({"type": "agree_end", "agree": True})
        if view["phase"] == "recruit":
            wishes.append({"type": "recruit"} if self.wants_recruit(view) else {"type": "pass"})
            return wishes
        me = view["citizens"][view["current_citizen"]]
        if me["emigrated"] and view["step"] == 1:
            wishes.append({"type": "vive_la_revolution"})
        if view["step"] <= 4 and me["cakes"]:
            wishes += self.honour_bribes(view, me)
        wishes += self.citizen_wishes(view, me)
        return wishes

    def answers(self, view: Mapping[str, Any]) -> list[dict[str, Any]]:
        """Accept or decline every bribe waiting for this seat's answer."""
        return [{"type": "accept_bribe" if self.accepts(view, d) else "decline_bribe", "deal": d["id"]}
                for d in view.get("deals", ()) if d["status"] == "offered" and d["payee"] == view["seat"]]

    def accepts(self, view: Mapping[str, Any], deal: Mapping[str, Any]) -> bool:
        """Whether to accept a bribe offered to one of its citizens: never, by default."""
        return False

    def honour_bribes(self, view: Mapping[str, Any], me: Mapping[str, Any]) -> list[dict[str, Any]]:
        """Vote the side of each accepted bribe of the current citizen, still open, with a stake
        the cover reimburses."""
        return [_vote(d["trial"], d["side"], max(1, min(d["cover"], me["cakes"])))
                for d in view.get("deals", ()) if d["status"] == "accepted" and d["voter"] == me["id"]
                and _trial_is_open(view, d)]

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


def _opened_row(view: Mapping[str, Any], citizen: int) -> int | None:
    """The Book row that opened ``citizen``'s open trial, if it is on trial."""
    for row in view["book"]:
        if row["citizen"] == citizen and row["closing"] is None:
            return int(row["row"])
    return None


def _trial_is_open(view: Mapping[str, Any], deal: Mapping[str, Any]) -> bool:
    """Whether the trial a deal or alliance is about is still open."""
    return _opened_row(view, deal["trial"]) == deal["opened_row"]


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

    def accepts(self, view: Mapping[str, Any], deal: Mapping[str, Any]) -> bool:
        """Only a bribe to vote what it believes."""
        trialed = view["citizens"][deal["trial"]]
        believed = SANS_CULOTTE if self.believed_sans_culotte(trialed, view) else PRIVILEGED
        return bool(deal["side"] == believed)

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

    def accepts(self, view: Mapping[str, Any], deal: Mapping[str, Any]) -> bool:
        """Any bribe that does not ask it to vote against one of its own citizens."""
        own = deal["trial"] in view["holdings"][view["seat"]]
        return not own or deal["side"] == SANS_CULOTTE

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


class PEpsilonBriber(PuppetGrabber):
    """See the module docstring."""

    name = "p-epsilon-briber"
    role = GRABBER

    def __init__(self, patience: int = 8, puppets: int = 3, reward: int = 1, cover: int = 3,
                 targets: int = 2, reserve: int = 6) -> None:
        super().__init__(patience, puppets)
        self.reward, self.cover, self.targets, self.reserve = reward, cover, targets, reserve

    def citizen_wishes(self, view: Mapping[str, Any], me: Mapping[str, Any]) -> list[dict[str, Any]]:
        """Bribe voters in its own citizens' trials, then vote as the puppet-grabber does."""
        return self.bribes(view) + super().citizen_wishes(view, me)

    def bribes(self, view: Mapping[str, Any]) -> list[dict[str, Any]]:
        """P+epsilon offers for the open trials of its own citizens."""
        seat = view["seat"]
        own = [view["citizens"][i] for i in view["holdings"][seat]]
        deposit = self.reward + self.cover
        payers = sorted((c for c in own if c["cakes"] >= deposit + self.reserve), key=lambda c: -c["cakes"])
        if not payers:
            return []
        wishes = []
        for trialed in own:
            opened = _opened_row(view, trialed["id"])
            if opened is None:
                continue
            made = [d for d in view["deals"] if d["payer"] == seat and d["trial"] == trialed["id"]
                    and d["opened_row"] == opened]
            asked = {d["voter"] for d in made}
            voters = sorted((c for c in view["citizens"] if c["owner"] != seat and not c["emigrated"]
                             and c["cakes"] >= self.cover and c["id"] not in asked),
                            key=lambda c: (-c["cakes"], c["id"]))
            for voter in voters[:max(0, self.targets - len(made))]:
                wishes.append({"type": "offer_bribe", "from": payers[0]["id"], "trial": trialed["id"],
                               "voter": voter["id"], "side": SANS_CULOTTE, "reward": self.reward,
                               "cover": self.cover})
        return wishes[:1]


class AllianceDefender(HonestRevolutionary):
    """See the module docstring."""

    name = "alliance-defender"
    role = REVOLUTIONARY

    def accepts(self, view: Mapping[str, Any], deal: Mapping[str, Any]) -> bool:
        """Never: it defends against bribery."""
        return False

    def citizen_wishes(self, view: Mapping[str, Any], me: Mapping[str, Any]) -> list[dict[str, Any]]:
        """Join (or found) the alliance against each bribed side and vote with it; otherwise
        play honestly, never voting against an alliance it is in."""
        wishes: list[dict[str, Any]] = []
        mine = {(a["trial"], a["side"]) for a in view["alliances"] if a["status"] == "open"
                and any(m["citizen"] == me["id"] for m in a["members"])}
        if view["step"] <= 4 and me["cakes"] >= 2:
            for trial, side in self.defences(view):
                if any(t == trial for t, _ in mine):
                    continue
                joinable = [a for a in view["alliances"] if a["status"] == "open" and a["trial"] == trial
                            and a["side"] == side]
                wishes.append({"type": "join_alliance", "alliance": joinable[0]["id"], "citizen": me["id"]}
                              if joinable else
                              {"type": "found_alliance", "trial": trial, "side": side, "from": me["id"]})
                break
        if view["step"] <= 4 and me["cakes"]:
            stake = min(self.stake, me["cakes"])
            wishes += [_vote(trial, side, stake) for trial, side in sorted(mine)]
        wishes += [w for w in super().citizen_wishes(view, me)
                   if w["type"] != "cake_vote" or (w["citizen"], _other(w["side"])) not in mine]
        return wishes

    def defences(self, view: Mapping[str, Any]) -> list[tuple[int, str]]:
        """(trial, side) for each open trial of another player's citizen where a bribe by
        someone else pushes the other side."""
        seat = view["seat"]
        out = []
        for d in view["deals"]:
            if (d["status"] in ("offered", "accepted") and d["payer"] != seat and _trial_is_open(view, d)
                    and view["citizens"][d["trial"]]["owner"] != seat):
                pair = (d["trial"], _other(d["side"]))
                if pair not in out:
                    out.append(pair)
        return out


def _other(side: str) -> str:
    return PRIVILEGED if side == SANS_CULOTTE else SANS_CULOTTE


STRATEGIES = {
    HonestRevolutionary.name: HonestRevolutionary,
    PuppetGrabber.name: PuppetGrabber,
    PEpsilonBriber.name: PEpsilonBriber,
    AllianceDefender.name: AllianceDefender,
}
"""The named strategies of Culottes, by name."""
