"""Named Culottes strategies. Each sees only its seat's view and legal actions.

A strategy is a family: ``name`` plays it with its defaults, ``name:key=value,...`` tunes it, e.g.
``p-epsilon-briber:reward=2,cover=4`` (see :mod:`tricolore.agents.params`). Every parameter is
listed below with its default and range; a game lasts until every player agrees to end, so
``patience`` (rounds before a strategy agrees) sets the length of a game of bots.

``honest-revolutionary``
    Plays a Revolutionary. It tells the truth about its own citizens: a sans-culotte buys one
    cockade (the cheap, honest signal) and cake-votes sans-culotte on itself until it wears a cap; a
    privileged never buys a cockade and votes privileged on itself if it is ever capped. On other
    citizens it trusts cockades: a capped or trialed citizen without a cockade is voted privileged,
    one with cockades sans-culotte. Its own cakes are worth nothing to its score, so once the table
    has capped citizens it believes are sans-culottes it donates what it does not need for voting.
    It never recruits (each recruit costs a revolutionary a point). It accepts a bribe only to vote
    what it believes of the trialed citizen.

    - ``patience`` 6 (1 to 40): rounds before it agrees to end.
    - ``stake`` 3 (1 to 100): cakes it stakes on a cake vote (all it has, if less).
    - ``reserve`` 6 (0 to 1000): cakes a citizen keeps; it donates at most 5 above them a turn.

``puppet-grabber``
    Plays a Grabber and farms the Bastille with puppets. It recruits a puppet every turn until it
    holds ``puppets + 1`` citizens (a grabber's recruits cost nothing); its citizens cake-vote
    sans-culotte on their uncapped siblings, topping up a sibling's trial when the privileged scale
    is ahead, so every sheet ends up capped and fed at each Bastille distribution. With nothing of
    its own to push it joins the heavier side of someone else's trial for a small stake, to win a
    share of the lost cakes. It buys a cockade only when its citizens are truly sans-culottes, never
    donates, never emigrates, and agrees to end once the Bastille is empty (after round 3) or after
    ``patience`` rounds. It accepts every bribe except one asking it to vote privileged on one of
    its own citizens, and then votes the bribe's side.

    - ``patience`` 8 (1 to 40): rounds before it agrees to end.
    - ``puppets`` 3 (0 to 10): puppets it recruits, one a turn.

``p-epsilon-briber``
    Plays a Grabber: a ``puppet-grabber`` that also runs the rulebook's bribery (P+epsilon)
    attack. In the trials it cares about, those of its own citizens, it offers other players'
    citizens (not emigrated, with at least ``cover`` cakes), richest first, at most ``targets`` of
    them per trial and one offer each time it is asked, "vote sans-culotte like me, and if we lose
    I reimburse your lost cakes (up to ``cover``) and give you ``reward`` more", the deposit
    (``reward`` + ``cover``) held in escrow, from its richest citizen that keeps ``reserve`` cakes
    after it. It votes with its side, as the puppet-grabber does, and accepts every offer that does
    not ask it to vote against one of its own citizens, then votes the bribe's side with a stake
    the cover reimburses.

    - ``patience`` 8 (1 to 40), ``puppets`` 3 (0 to 10): as the puppet-grabber.
    - ``reward`` 1 (1 to 100): the epsilon, cakes paid above the reimbursement if the side loses.
    - ``cover`` 3 (1 to 100): the most lost cakes it reimburses.
    - ``targets`` 2 (1 to 20): voters it bribes per trial.
    - ``reserve`` 6 (0 to 1000): cakes the paying citizen keeps after the deposit.

``cockade-grabber``
    Plays a Grabber: a ``puppet-grabber`` that buys cockades to pass as a sans-culotte, whatever
    its citizens truly are. Cockades are a false signal only the privileged pay dearly for (3
    points each against 1), and honest revolutionaries trust them: they vote sans-culotte on a
    citizen wearing one. Each of its citizens buys one cockade a turn, at step 2, until it wears
    ``cockades``; with ``when=start`` from its first turn, with ``when=challenged`` only while it is
    on trial with cakes on its privileged scale (someone has voted that it is privileged).

    - ``patience`` 8 (1 to 40), ``puppets`` 3 (0 to 10): as the puppet-grabber.
    - ``cockades`` 1 (0 to 10): cockades each citizen wears at most; 0 buys none at all.
    - ``when`` ``start`` (``start`` or ``challenged``): when a citizen buys them.

``truth-briber``
    Plays a Revolutionary: an ``honest-revolutionary`` that bribes for the truth. In each open
    trial of another player's citizen where the side it believes (by cockades, as the
    honest-revolutionary) is not ahead on the scales, it offers other players' citizens (not the
    trialed citizen's owner's, not emigrated, with at least ``cover`` cakes), richest first, at most
    ``targets`` per trial and one offer each time it is asked: "vote the side I believe; if it
    loses, I reimburse up to ``cover`` and give ``reward`` more", from its richest citizen that
    keeps ``reserve`` cakes after the deposit. A revolutionary's cakes are worth nothing to its
    score, so the deposit costs it only voting power.

    - ``patience`` 6 (1 to 40), ``stake`` 3 (1 to 100): as the honest-revolutionary.
    - ``reserve`` 6 (0 to 1000): cakes a citizen keeps, after donating or paying a deposit.
    - ``reward`` 1 (1 to 100), ``cover`` 3 (1 to 100), ``targets`` 2 (1 to 20): its bribes.

``by-nature``
    Chooses its role by the nature of its first citizen, the only flap it sees at the role choice
    (the rulebook's four cases): ``sans_culotte`` is the role it picks when that citizen is a
    sans-culotte, ``privileged`` the role when it is a privileged. It then plays ``as_revolutionary``
    when a Revolutionary and ``as_grabber`` when a Grabber, with that strategy's defaults.

    - ``sans_culotte`` ``revolutionary`` (``revolutionary`` or ``grabber``).
    - ``privileged`` ``grabber`` (``revolutionary`` or ``grabber``).
    - ``as_revolutionary`` ``honest-revolutionary`` (``honest-revolutionary``,
      ``alliance-defender``, ``alliance-defector``, ``truth-briber`` or ``weighing-voter``).
    - ``as_grabber`` ``puppet-grabber`` (``puppet-grabber``, ``p-epsilon-briber`` or
      ``cockade-grabber``).
    - ``patience`` 0 (0 to 40): rounds before it agrees to end; 0 keeps the played strategy's
      own (6 for the revolutionaries, 8 for the grabbers).

``alliance-defender``
    Plays a Revolutionary: an ``honest-revolutionary`` that answers bribery with the rulebook's
    alliance defence. When another player's bribe (offered or accepted) pushes a side in an open
    trial of a citizen not its own, it joins the alliance voting the other side of that trial
    with the citizen it is playing (or founds one if there is none), depositing 1 cake, and then
    votes that side there; it never votes against an alliance it belongs to, and declines every
    bribe.

    - ``patience`` 6 (1 to 40), ``stake`` 3 (1 to 100), ``reserve`` 6 (0 to 1000): as the
      honest-revolutionary.
    - ``refuse_bribes`` true (true or false): declines every bribe; false accepts, as the
      honest-revolutionary does, a bribe to vote what it believes. With ``alliances=false`` too
      it plays as the honest-revolutionary: the two switches are the defence's ablations.
    - ``alliances`` true (true or false): joins and founds alliances against bribed sides.

``alliance-defector``
    An ``alliance-defender`` whose members defect when it pays. It joins and founds alliances as
    the defender does, but not on a side the other side already leads by ``threshold`` cakes or
    more; in an alliance whose other side leads by ``threshold`` or more it votes that winning side
    instead, forfeiting its deposit of 1 cake to win a share of the lost cakes. It accepts a bribe
    whose reward is more than that deposit, or one asking for its alliance's side, and declines the
    rest. With ``role=grabber`` it plays a Grabber passing as a defender: it never donates and
    votes sans-culotte on its own uncapped citizens whatever they are (and declines every bribe
    against one of them).

    - ``patience`` 6 (1 to 40), ``stake`` 3 (1 to 100), ``reserve`` 6 (0 to 1000): as the
      honest-revolutionary.
    - ``threshold`` 4 (1 to 100): the other side's lead, in cakes, at which it defects.
    - ``role`` ``revolutionary`` (``revolutionary`` or ``grabber``): the role it plays.

``weighing-voter``
    Plays a Revolutionary: an ``honest-revolutionary`` whose belief about another player's
    citizen weighs three signs. Its evidence for "sans-culotte" is ``cockade_weight`` times the
    citizen's cockades (times -1 when it wears none), plus ``scales_weight`` times the lead of the
    sans-culotte scale in its open trial as a share of the cakes on both scales (-1 to 1), plus
    ``owner_weight`` times the same share over every cake its owner's citizens have voted on it in
    the Book. It believes a sans-culotte when the evidence is above 0 (a tie is privileged, as in a
    verdict). With both other weights at 0 it believes what the honest-revolutionary believes.
    By default it distrusts self-promotion: an owner's own votes for its citizen count against
    it. (At a table of cockade-trusting voters the scales only echo the cockades, so a positive
    weight on them changes no vote there.)

    - ``patience`` 6 (1 to 40), ``stake`` 3 (1 to 100), ``reserve`` 6 (0 to 1000): as the
      honest-revolutionary.
    - ``cockade_weight`` 1.0 (0 to 10), ``scales_weight`` 0.5 (-10 to 10), ``owner_weight`` -1.0
      (-10 to 10): the weights above; a negative weight distrusts that sign.

Every strategy here answers the bribes offered to its citizens (they are free actions, so it
answers when it is next asked to act), and honours an accepted bribe first: the citizen votes the
bribe's side with a stake the cover reimburses. An offer never answered lapses when its trial
closes.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from tricolore.agents.params import Parameter
from tricolore.core import ActionSpace
from tricolore.games.culottes.book import PRIVILEGED, SANS_CULOTTE
from tricolore.games.culottes.data import GRABBER, REVOLUTIONARY, ROLES

ALLIANCE_DEPOSIT = 1
"""Cakes a citizen deposits to found or join an alliance."""


def _patience(default: int) -> Parameter:
    return Parameter(default, 1, 40, "rounds before it agrees to end")


STAKE = Parameter(3, 1, 100, "cakes it stakes on a cake vote")
RESERVE = Parameter(6, 0, 1000, "cakes a citizen keeps after donating or paying a deposit")
PUPPETS = Parameter(3, 0, 10, "puppets it recruits, one a turn")
REWARD = Parameter(1, 1, 100, "cakes a bribe pays above the reimbursement if its side loses")
COVER = Parameter(3, 1, 100, "the most lost cakes a bribe reimburses")
TARGETS = Parameter(2, 1, 20, "voters it bribes per trial")


class CulottesBot:
    """Shared plumbing: read the view, fall back to ``pass`` when a wish is not legal."""

    name: ClassVar[str] = "culottes-bot"
    role = REVOLUTIONARY
    trades = True  # answers bribes and makes deals, which are free actions
    parameters: ClassVar[Mapping[str, Parameter]] = {"patience": _patience(6)}

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


def _lead(scales: Mapping[str, int] | None, side: str) -> int:
    """How many cakes ``side``'s scale holds more than the other's (0 off trial)."""
    if scales is None:
        return 0
    return int(scales[side] - scales[_other(side)])


def _share(sans_culotte: float, privileged: float) -> float:
    """The sans-culotte side's lead as a share of both: -1 (all privileged) to 1; 0 if none."""
    total = sans_culotte + privileged
    return (sans_culotte - privileged) / total if total else 0.0


class HonestRevolutionary(CulottesBot):
    """See the module docstring."""

    name = "honest-revolutionary"
    role = REVOLUTIONARY
    donates = True
    parameters: ClassVar[Mapping[str, Parameter]] = {
        "patience": _patience(6), "stake": STAKE, "reserve": RESERVE}

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

    def believed_side(self, citizen: Mapping[str, Any], view: Mapping[str, Any]) -> str:
        """The side it would vote on ``citizen``."""
        return SANS_CULOTTE if self.believed_sans_culotte(citizen, view) else PRIVILEGED

    def accepts(self, view: Mapping[str, Any], deal: Mapping[str, Any]) -> bool:
        """Only a bribe to vote what it believes."""
        return bool(deal["side"] == self.believed_side(view["citizens"][deal["trial"]], view))

    def own_side(self, view: Mapping[str, Any], citizen: Mapping[str, Any]) -> str | None:
        """The side it votes on one of its own citizens, if any: the truth, where the table does
        not already hold it (a sans-culotte without a cap, a privileged with one)."""
        nature = view["you"]["citizens"][str(citizen["id"])]["nature"]
        if nature == SANS_CULOTTE and citizen["status"] != "cap":
            return SANS_CULOTTE
        if nature == PRIVILEGED and citizen["status"] == "cap":
            return PRIVILEGED
        return None

    def citizen_wishes(self, view: Mapping[str, Any], me: Mapping[str, Any]) -> list[dict[str, Any]]:
        """Signal honestly, vote honestly, feed the Bastille."""
        wishes: list[dict[str, Any]] = []
        nature = view["you"]["citizens"][str(me["id"])]["nature"]
        if view["step"] <= 2 and nature == SANS_CULOTTE and me["cockades"] == 0:
            wishes.append({"type": "buy_cockade"})
        fed = [c for c in view["citizens"]
               if c["status"] == "cap" and self.believed_sans_culotte(c, view)]
        if self.donates and view["step"] <= 3 and fed and me["cakes"] > self.reserve:
            wishes.append({"type": "donate", "cakes": min(me["cakes"] - self.reserve, 5)})
        if view["step"] <= 4 and me["cakes"]:
            stake = min(self.stake, me["cakes"])
            for c in view["citizens"]:
                if c["owner"] != view["seat"]:
                    continue
                own = self.own_side(view, c)
                if own is not None:
                    wishes.append(_vote(c["id"], own, stake))
            for c in view["citizens"]:
                if c["owner"] == view["seat"] or c["status"] == "none":
                    continue
                side = self.believed_side(c, view)
                if c["status"] == "cap" and side == SANS_CULOTTE:
                    continue
                if c["status"] == "scale" and _lead(c["scales"], side) > 0:
                    continue
                wishes.append(_vote(c["id"], side, stake))
        wishes.append({"type": "pass"})
        return wishes


class PuppetGrabber(CulottesBot):
    """See the module docstring."""

    name = "puppet-grabber"
    role = GRABBER
    parameters: ClassVar[Mapping[str, Parameter]] = {"patience": _patience(8), "puppets": PUPPETS}

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


def _bribe(view: Mapping[str, Any], trialed: Mapping[str, Any], side: str, *, reward: int, cover: int,
           targets: int, payer: int, spare: tuple[int, ...] = ()) -> dict[str, Any] | None:
    """The next offer to make in ``trialed``'s open trial: to the richest citizen of another
    player (not of the seats in ``spare``), not emigrated, with ``cover`` cakes, not yet asked
    since the trial opened, while fewer than ``targets`` were asked; ``None`` if there is none."""
    seat = view["seat"]
    opened = _opened_row(view, trialed["id"])
    if opened is None:
        return None
    made = [d["voter"] for d in view["deals"] if d["payer"] == seat and d["trial"] == trialed["id"]
            and d["opened_row"] == opened]
    if len(made) >= targets:
        return None
    asked = set(made)
    voters = sorted((c for c in view["citizens"] if c["owner"] != seat and c["owner"] not in spare
                     and not c["emigrated"] and c["cakes"] >= cover and c["id"] not in asked),
                    key=lambda c: (-c["cakes"], c["id"]))
    if not voters:
        return None
    return {"type": "offer_bribe", "from": payer, "trial": trialed["id"], "voter": voters[0]["id"],
            "side": side, "reward": reward, "cover": cover}


def _richest(view: Mapping[str, Any], cakes: int) -> int | None:
    """The richest citizen of the seat holding at least ``cakes``, if any."""
    own = [view["citizens"][i] for i in view["holdings"][view["seat"]]]
    payers = sorted((c for c in own if c["cakes"] >= cakes), key=lambda c: -c["cakes"])
    return int(payers[0]["id"]) if payers else None


class PEpsilonBriber(PuppetGrabber):
    """See the module docstring."""

    name = "p-epsilon-briber"
    role = GRABBER
    parameters: ClassVar[Mapping[str, Parameter]] = {
        "patience": _patience(8), "puppets": PUPPETS, "reward": REWARD, "cover": COVER,
        "targets": TARGETS, "reserve": RESERVE}

    def __init__(self, patience: int = 8, puppets: int = 3, reward: int = 1, cover: int = 3,
                 targets: int = 2, reserve: int = 6) -> None:
        super().__init__(patience, puppets)
        self.reward, self.cover, self.targets, self.reserve = reward, cover, targets, reserve

    def citizen_wishes(self, view: Mapping[str, Any], me: Mapping[str, Any]) -> list[dict[str, Any]]:
        """Bribe voters in its own citizens' trials, then vote as the puppet-grabber does."""
        return self.bribes(view) + super().citizen_wishes(view, me)

    def bribes(self, view: Mapping[str, Any]) -> list[dict[str, Any]]:
        """The next P+epsilon offer for the open trials of its own citizens, if any."""
        payer = _richest(view, self.reward + self.cover + self.reserve)
        if payer is None:
            return []
        for i in view["holdings"][view["seat"]]:
            offer = _bribe(view, view["citizens"][i], SANS_CULOTTE, reward=self.reward, cover=self.cover,
                           targets=self.targets, payer=payer)
            if offer is not None:
                return [offer]
        return []


class CockadeGrabber(PuppetGrabber):
    """See the module docstring."""

    name = "cockade-grabber"
    role = GRABBER
    parameters: ClassVar[Mapping[str, Parameter]] = {
        "patience": _patience(8), "puppets": PUPPETS,
        "cockades": Parameter(1, 0, 10, "cockades each citizen wears at most"),
        "when": Parameter("start", doc="when a citizen buys them: from its first turn, or only while "
                                       "challenged on trial", choices=("start", "challenged"))}

    def __init__(self, patience: int = 8, puppets: int = 3, cockades: int = 1, when: str = "start") -> None:
        super().__init__(patience, puppets)
        self.cockades, self.when = cockades, when

    def citizen_wishes(self, view: Mapping[str, Any], me: Mapping[str, Any]) -> list[dict[str, Any]]:
        """A cockade when its rule says so, then the puppet-grabber's play (without its own
        cockade rule)."""
        wishes = [w for w in super().citizen_wishes(view, me) if w["type"] != "buy_cockade"]
        if view["step"] <= 2 and self.wants_cockade(me):
            wishes.insert(0, {"type": "buy_cockade"})
        return wishes

    def wants_cockade(self, citizen: Mapping[str, Any]) -> bool:
        """Whether ``citizen`` buys a cockade this turn."""
        if citizen["cockades"] >= self.cockades:
            return False
        if self.when == "challenged":
            return citizen["status"] == "scale" and citizen["scales"][PRIVILEGED] > 0
        return True


class TruthBriber(HonestRevolutionary):
    """See the module docstring."""

    name = "truth-briber"
    role = REVOLUTIONARY
    parameters: ClassVar[Mapping[str, Parameter]] = {
        "patience": _patience(6), "stake": STAKE, "reserve": RESERVE, "reward": REWARD, "cover": COVER,
        "targets": TARGETS}

    def __init__(self, patience: int = 6, stake: int = 3, reserve: int = 6, reward: int = 1, cover: int = 3,
                 targets: int = 2) -> None:
        super().__init__(patience, stake, reserve)
        self.reward, self.cover, self.targets = reward, cover, targets

    def citizen_wishes(self, view: Mapping[str, Any], me: Mapping[str, Any]) -> list[dict[str, Any]]:
        """Bribe for what it believes, then play as the honest-revolutionary."""
        return self.bribes(view) + super().citizen_wishes(view, me)

    def bribes(self, view: Mapping[str, Any]) -> list[dict[str, Any]]:
        """The next offer for the side it believes in another player's trial where that side is
        not ahead, if any."""
        payer = _richest(view, self.reward + self.cover + self.reserve)
        if payer is None:
            return []
        for c in view["citizens"]:
            if c["owner"] == view["seat"] or c["status"] != "scale":
                continue
            side = self.believed_side(c, view)
            if _lead(c["scales"], side) > 0:
                continue
            offer = _bribe(view, c, side, reward=self.reward, cover=self.cover, targets=self.targets,
                           payer=payer, spare=(c["owner"],))
            if offer is not None:
                return [offer]
        return []


class AllianceDefender(HonestRevolutionary):
    """See the module docstring."""

    name = "alliance-defender"
    role = REVOLUTIONARY
    parameters: ClassVar[Mapping[str, Parameter]] = {
        "patience": _patience(6), "stake": STAKE, "reserve": RESERVE,
        "refuse_bribes": Parameter(True, doc="declines every bribe (false: accepts, as the "
                                   "honest-revolutionary does, a bribe to vote what it believes)"),
        "alliances": Parameter(True, doc="joins and founds alliances against bribed sides (false: "
                               "never does)")}

    def __init__(self, patience: int = 6, stake: int = 3, reserve: int = 6, refuse_bribes: bool = True,
                 alliances: bool = True) -> None:
        super().__init__(patience, stake, reserve)
        self.refuse_bribes = refuse_bribes
        self.alliances = alliances

    def accepts(self, view: Mapping[str, Any], deal: Mapping[str, Any]) -> bool:
        """Never: it defends against bribery (unless ``refuse_bribes`` is off)."""
        return not self.refuse_bribes and super().accepts(view, deal)

    def citizen_wishes(self, view: Mapping[str, Any], me: Mapping[str, Any]) -> list[dict[str, Any]]:
        """Join (or found) the alliance against each bribed side and vote with it; otherwise
        play honestly, never voting against an alliance it is in."""
        wishes: list[dict[str, Any]] = []
        mine = _alliances_of(view, me["id"])
        if self.alliances and view["step"] <= 4 and me["cakes"] >= 2:
            for trial, side in self.defences(view, me):
                if trial in mine:
                    continue
                joinable = [a for a in view["alliances"] if a["status"] == "open" and a["trial"] == trial
                            and a["side"] == side]
                wishes.append({"type": "join_alliance", "alliance": joinable[0]["id"], "citizen": me["id"]}
                              if joinable else
                              {"type": "found_alliance", "trial": trial, "side": side, "from": me["id"]})
                break
        if view["step"] <= 4 and me["cakes"]:
            stake = min(self.stake, me["cakes"])
            wishes += [_vote(trial, self.alliance_vote(view, trial, side), stake)
                       for trial, side in sorted(mine.items())]
        wishes += [w for w in super().citizen_wishes(view, me)
                   if w["type"] != "cake_vote" or mine.get(w["citizen"]) != _other(w["side"])]
        return wishes

    def defences(self, view: Mapping[str, Any], me: Mapping[str, Any]) -> list[tuple[int, str]]:
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

    def alliance_vote(self, view: Mapping[str, Any], trial: int, side: str) -> str:
        """The side it votes in the trial of an alliance it is in: the alliance's."""
        return side


def _alliances_of(view: Mapping[str, Any], citizen: int) -> dict[int, str]:
    """The side of each open alliance ``citizen`` is in, by trial."""
    return {a["trial"]: a["side"] for a in view["alliances"] if a["status"] == "open"
            and any(m["citizen"] == citizen for m in a["members"])}


class AllianceDefector(AllianceDefender):
    """See the module docstring."""

    name = "alliance-defector"
    parameters: ClassVar[Mapping[str, Parameter]] = {
        "patience": _patience(6), "stake": STAKE, "reserve": RESERVE,
        "threshold": Parameter(4, 1, 100, "the other side's lead, in cakes, at which it defects"),
        "role": Parameter(REVOLUTIONARY, doc="the role it plays", choices=ROLES)}

    def __init__(self, patience: int = 6, stake: int = 3, reserve: int = 6, threshold: int = 4,
                 role: str = REVOLUTIONARY) -> None:
        super().__init__(patience, stake, reserve)
        self.threshold, self.role = threshold, role
        self.donates = role == REVOLUTIONARY

    def defects(self, view: Mapping[str, Any], trial: int, side: str) -> bool:
        """Whether the side against ``side`` leads ``trial`` by ``threshold`` cakes or more."""
        return _lead(view["citizens"][trial]["scales"], _other(side)) >= self.threshold

    def alliance_vote(self, view: Mapping[str, Any], trial: int, side: str) -> str:
        """The winning side once it leads by the threshold; the alliance's otherwise."""
        return _other(side) if self.defects(view, trial, side) else side

    def defences(self, view: Mapping[str, Any], me: Mapping[str, Any]) -> list[tuple[int, str]]:
        """The defender's, but not a side already lost by the threshold, nor a trial where the
        citizen took a bribe."""
        bribed = {d["trial"] for d in view["deals"] if d["status"] == "accepted" and d["voter"] == me["id"]}
        return [(trial, side) for trial, side in super().defences(view, me)
                if trial not in bribed and not self.defects(view, trial, side)]

    def accepts(self, view: Mapping[str, Any], deal: Mapping[str, Any]) -> bool:
        """A bribe for its alliance's side, or one whose reward beats the deposit it forfeits; a
        grabber never votes against its own citizen."""
        if (self.role == GRABBER and deal["trial"] in view["holdings"][view["seat"]]
                and deal["side"] != SANS_CULOTTE):
            return False
        side = _alliances_of(view, deal["voter"]).get(deal["trial"])
        return bool(deal["side"] == side or deal["reward"] > ALLIANCE_DEPOSIT)

    def own_side(self, view: Mapping[str, Any], citizen: Mapping[str, Any]) -> str | None:
        """A grabber pushes every own citizen to a cap; a revolutionary tells the truth."""
        if self.role == GRABBER:
            return SANS_CULOTTE if citizen["status"] != "cap" else None
        return super().own_side(view, citizen)


class WeighingVoter(HonestRevolutionary):
    """See the module docstring."""

    name = "weighing-voter"
    role = REVOLUTIONARY
    parameters: ClassVar[Mapping[str, Parameter]] = {
        "patience": _patience(6), "stake": STAKE, "reserve": RESERVE,
        "cockade_weight": Parameter(1.0, 0, 10, "weight of its cockades (or of wearing none)"),
        "scales_weight": Parameter(0.5, -10, 10, "weight of the lead on its trial's scales"),
        "owner_weight": Parameter(-1.0, -10, 10, "weight of its owner's votes on it (negative: "
                                  "self-promotion is distrusted)")}

    def __init__(self, patience: int = 6, stake: int = 3, reserve: int = 6, cockade_weight: float = 1.0,
                 scales_weight: float = 0.5, owner_weight: float = -1.0) -> None:
        super().__init__(patience, stake, reserve)
        self.cockade_weight, self.scales_weight = cockade_weight, scales_weight
        self.owner_weight = owner_weight

    def evidence(self, citizen: Mapping[str, Any], view: Mapping[str, Any]) -> float:
        """Its evidence that another player's ``citizen`` is a sans-culotte (above 0: believed)."""
        cockades = citizen["cockades"] or -1
        scales = citizen["scales"] or {SANS_CULOTTE: 0, PRIVILEGED: 0}
        owner = {SANS_CULOTTE: 0, PRIVILEGED: 0}
        owners = [c["owner"] for c in view["citizens"]]
        for row in view["book"]:
            if row["citizen"] == citizen["id"] and owners[row["voter"]] == citizen["owner"]:
                owner[row["side"]] += row["cakes"]
        return float(self.cockade_weight * cockades
                     + self.scales_weight * _share(scales[SANS_CULOTTE], scales[PRIVILEGED])
                     + self.owner_weight * _share(owner[SANS_CULOTTE], owner[PRIVILEGED]))

    def believed_sans_culotte(self, citizen: Mapping[str, Any], view: Mapping[str, Any]) -> bool:
        """The truth for its own citizens; the weighed evidence for the others."""
        if str(citizen["id"]) in view["you"]["citizens"]:
            return super().believed_sans_culotte(citizen, view)
        return self.evidence(citizen, view) > 0


class ByNature(CulottesBot):
    """See the module docstring."""

    name = "by-nature"
    parameters: ClassVar[Mapping[str, Parameter]] = {
        "sans_culotte": Parameter(REVOLUTIONARY, doc="the role it picks when its first citizen is a "
                                                     "sans-culotte", choices=ROLES),
        "privileged": Parameter(GRABBER, doc="the role it picks when its first citizen is a privileged",
                                choices=ROLES),
        "as_revolutionary": Parameter("honest-revolutionary", doc="the strategy it plays as a "
                                      "Revolutionary", choices=("honest-revolutionary", "alliance-defender",
                                                                "alliance-defector", "truth-briber",
                                                                "weighing-voter")),
        "as_grabber": Parameter("puppet-grabber", doc="the strategy it plays as a Grabber",
                                choices=("puppet-grabber", "p-epsilon-briber", "cockade-grabber")),
        "patience": Parameter(0, 0, 40, "rounds before it agrees to end; 0 keeps the played "
                                        "strategy's own")}

    def __init__(self, sans_culotte: str = REVOLUTIONARY, privileged: str = GRABBER,
                 as_revolutionary: str = "honest-revolutionary", as_grabber: str = "puppet-grabber",
                 patience: int = 0) -> None:
        super().__init__(patience)
        self.by_nature = {SANS_CULOTTE: sans_culotte, PRIVILEGED: privileged}
        self.plays = {REVOLUTIONARY: as_revolutionary, GRABBER: as_grabber}
        self.played: dict[str, CulottesBot] = {}

    def act(self, view: Mapping[str, Any], legal: ActionSpace, rng: random.Random) -> dict[str, Any]:
        """The action of the strategy its role plays."""
        return self.playing(view).act(view, legal, rng)

    def chosen_role(self, view: Mapping[str, Any]) -> str:
        """Its role: the one sealed, or (before it chooses) the one its first citizen's nature picks."""
        role = view["you"]["role"]
        if role is not None:
            return str(role)
        first = view["holdings"][view["seat"]][0]
        return self.by_nature[view["you"]["citizens"][str(first)]["nature"]]

    def playing(self, view: Mapping[str, Any]) -> CulottesBot:
        """The strategy it plays for its role, built once."""
        role = self.chosen_role(view)
        if role not in self.played:
            tuned = {"patience": self.patience} if self.patience else {}
            self.played[role] = STRATEGIES[self.plays[role]](**tuned)
        return self.played[role]


def _other(side: str) -> str:
    return PRIVILEGED if side == SANS_CULOTTE else SANS_CULOTTE


STRATEGIES: dict[str, type[CulottesBot]] = {
    HonestRevolutionary.name: HonestRevolutionary,
    PuppetGrabber.name: PuppetGrabber,
    PEpsilonBriber.name: PEpsilonBriber,
    AllianceDefender.name: AllianceDefender,
    CockadeGrabber.name: CockadeGrabber,
    TruthBriber.name: TruthBriber,
    ByNature.name: ByNature,
    AllianceDefector.name: AllianceDefector,
    WeighingVoter.name: WeighingVoter,
}
"""The named strategies of Culottes, by name."""
