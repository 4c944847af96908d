"""Named strategies for the revolutionary trials. Each sees only its seat's view and legal actions.

No voter knows whether the statement is true: only the accused does. What a voter can see is the
record of the trials closed at this table (each statement's truth, the grabbers, both votes), the
first vote of the trial in progress and the arguments of its debate. Both strategies read that
record, each its own way, and argue at most once in each debate.

``honest-revolutionary``
    Wants the truth to triumph, whatever role it is whispered. As a voter it votes by the evidence
    it can see: the share of true statements on the record, with Laplace's rule of succession (one
    true and one false statement assumed before the first), the accused's own statements counting
    twice. It votes true when that share is above one half and false when it is below; with nothing
    to go on it flips a coin in the first vote and follows the first vote's majority (a tie counts
    as "true") in the second. It votes the same way when designated a grabber. In the debate it
    says truthfully how it voted and why. As the trialed grabber it designates nobody (it wants
    every other citizen on the truth's side), makes its statement true or false by a fair coin, so
    that it is hard to guess, and says nothing in the debate rather than lie.

``bluffing-grabber``
    Reads every trial as a grabber would: the trialed grabber makes the statement that beats the
    majority the table is expected to vote. The majority it expects is the second-vote majority
    shown most often on the record (a tie counts as "true"; with no record "true", since a tied
    vote counts as "true"). As the trialed grabber it designates as many other grabbers as the
    rules allow, the players with the fewest points first (so the grabbers' point does not feed the
    leader), makes its statement false when it expects a "true" majority and true otherwise, and
    bluffs in the debate, claiming the opposite of the truth. Designated a grabber, it votes with
    the majority it expects (in the second vote: with the first vote's majority), betting that the
    accused has made that majority wrong, and argues for it. As a revolutionary it votes against
    the majority it expects, in both votes, and argues for its vote.

``skeptic``
    Takes the accused for a grabber whose word is worth nothing. In the first vote it votes false:
    it doubts every statement. In the second it reads the accused's last argument in the debate;
    if that claims the statement is "true" or "false" (one of the words, not both), it takes the
    claim for a lie: as a revolutionary it votes the opposite, and designated a grabber it votes
    with the claim, backing the accused's deception. With no such claim it votes false again. It
    says nothing in the debate as a voter. As the trialed grabber it designates as many other
    grabbers as the rules allow, at random, makes a true statement (a doubting table votes false)
    and says so in the debate: the truth, told to be disbelieved.

Parameters (``name:key=value``; the defaults are the strategies as described above):

``honest-revolutionary``
    ``threshold`` (0.5, 0 to 1): the share of true statements on the record above which it votes
    true and below which it votes false. ``accused_weight`` (2, 1 to 10): how many times the
    accused's own statements count in that share (this matters once someone is accused again, with
    more trials than players). ``truth_chance`` (0.5, 0 to 1): the chance that
    its statement as the trialed grabber is true.

``bluffing-grabber``
    ``accomplices`` (11, 0 to 11): the most other grabbers it designates as the trialed grabber
    (never more than the rules allow). ``bluffs`` (true): as the accused, it claims the opposite of
    the truth in the debate; ``false``: it says nothing.

``skeptic``
    ``accomplices`` (11, 0 to 11): as for ``bluffing-grabber``. ``doubt`` (1, 0 to 1): the chance
    that it votes false in the first vote (true otherwise).
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from tricolore.agents.params import Parameter
from tricolore.core import ActionSpace
from tricolore.games.culottes.data import GRABBER
from tricolore.games.culottes_trials.rules import EXAMPLE_STATEMENTS

Action = dict[str, Any]
ACCOMPLICES = Parameter(11, 0, 11, "the most other grabbers it designates as the trialed grabber "
                                   "(never more than the rules allow)")


def said(guess: bool) -> str:
    """A guess as the players say it."""
    return "true" if guess else "false"


def majority_of(votes: Sequence[bool | None]) -> bool:
    """The majority of a vote listed by seat (``None`` for the accused); a tie counts as "true"."""
    cast = [v for v in votes if v is not None]
    true = sum(1 for v in cast if v)
    return true >= len(cast) - true


def statement_record(view: Mapping[str, Any], accused: int | None = None) -> tuple[int, int]:
    """(true statements, statements) on the record of closed trials; only ``accused``'s, if given."""
    trials = [h for h in view["history"] if accused is None or h["accused"] == accused]
    return sum(1 for h in trials if h["truth"]), len(trials)


def majority_record(view: Mapping[str, Any]) -> tuple[int, int]:
    """(second votes whose majority was "true", second votes) on the record of closed trials."""
    return sum(1 for h in view["history"] if h["majority"]), len(view["history"])


def arguments_made(view: Mapping[str, Any]) -> int:
    """How many arguments this seat has made in the debate in progress."""
    return sum(1 for a in view["arguments"] if a["seat"] == view["seat"])


class TrialsBot:
    """Shared plumbing: one answer per prompt, each from the strategy's reading of the record."""

    name: ClassVar[str] = "trials-bot"

    def act(self, view: Mapping[str, Any], legal: ActionSpace, rng: random.Random) -> Action:
        """The strategy's action; ``pass`` (or any legal action) if its wish is not legal."""
        for wish in self.wishes(view, rng):
            if legal.contains(wish):
                return wish
        fallback = {"type": "pass"}
        return fallback if legal.contains(fallback) else legal.sample(rng)

    def wishes(self, view: Mapping[str, Any], rng: random.Random) -> list[Action]:
        """What the strategy would like to do now, best first."""
        phase = view["phase"]
        if phase == "designate":
            return [{"type": "designate", "grabbers": self.designate(view, rng)}]
        if phase == "statement":
            return [{"type": "state", "statement": rng.choice(EXAMPLE_STATEMENTS),
                     "truth": self.statement_truth(view, rng)}]
        if phase in ("first_vote", "second_vote"):
            return [{"type": "vote", "guess": self.guess(view, rng)}]
        if phase == "debate" and arguments_made(view) == 0:
            text = self.argument(view)
            if text is not None:
                return [{"type": "argue", "text": text}, {"type": "pass"}]
        return [{"type": "pass"}]

    def designate(self, view: Mapping[str, Any], rng: random.Random) -> list[int]:
        """The other grabbers it names as the accused."""
        return []

    def statement_truth(self, view: Mapping[str, Any], rng: random.Random) -> bool:
        """Whether its statement as the accused is true."""
        return rng.random() < 0.5

    def guess(self, view: Mapping[str, Any], rng: random.Random) -> bool:
        """Its vote."""
        raise NotImplementedError

    def argument(self, view: Mapping[str, Any]) -> str | None:
        """What it says in the debate, or ``None`` to pass."""
        return None


class HonestRevolutionary(TrialsBot):
    """Votes by the evidence and argues truthfully (see the module docstring)."""

    name = "honest-revolutionary"
    parameters: ClassVar[Mapping[str, Parameter]] = {
        "threshold": Parameter(0.5, 0, 1, "the share of true statements on the record above which "
                                          "it votes true (below it, false)"),
        "accused_weight": Parameter(2, 1, 10, "how many times the accused's own statements count "
                                              "on the record"),
        "truth_chance": Parameter(0.5, 0, 1, "the chance that its statement as the trialed grabber "
                                             "is true"),
    }

    def __init__(self, threshold: float = 0.5, accused_weight: int = 2,
                 truth_chance: float = 0.5) -> None:
        self.threshold = threshold
        self.accused_weight = accused_weight
        self.truth_chance = truth_chance

    def belief(self, view: Mapping[str, Any]) -> float:
        """The chance the statement is true, by the record: Laplace's rule of succession over
        every statement, the accused's own counting ``accused_weight`` times."""
        true, total = statement_record(view)
        own_true, own = statement_record(view, view["accused"])
        extra = self.accused_weight - 1
        return (true + extra * own_true + 1) / (total + extra * own + 2)

    def statement_truth(self, view: Mapping[str, Any], rng: random.Random) -> bool:
        """True with the chance ``truth_chance``."""
        return rng.random() < self.truth_chance

    def guess(self, view: Mapping[str, Any], rng: random.Random) -> bool:
        """Above the threshold true, below false; undecided, a coin, then the first vote's majority."""
        belief = self.belief(view)
        if belief != self.threshold:
            return belief > self.threshold
        if view["phase"] == "second_vote" and view["first_vote"] is not None:
            return majority_of(view["first_vote"])
        return rng.random() < 0.5

    def argument(self, view: Mapping[str, Any]) -> str | None:
        """How it voted and why; the accused says nothing."""
        if view["seat"] == view["accused"] or view["first_vote"] is None:
            return None
        vote = view["first_vote"][view["seat"]]
        true, total = statement_record(view)
        if total == 0:
            return f"I voted {said(vote)} on a hunch: there is nothing on the record yet."
        return (f"I voted {said(vote)}: {true} of the {total} statement{'s' if total > 1 else ''} "
                "so far were true.")


class BluffingGrabber(TrialsBot):
    """Bluffs and plays the expected majority (see the module docstring)."""

    name = "bluffing-grabber"
    parameters: ClassVar[Mapping[str, Parameter]] = {
        "accomplices": ACCOMPLICES,
        "bluffs": Parameter(True, doc="as the accused, it claims the opposite of the truth in the "
                                      "debate (false: it says nothing)"),
    }

    def __init__(self, accomplices: int = 11, bluffs: bool = True) -> None:
        self.accomplices = accomplices
        self.bluffs = bluffs

    @staticmethod
    def expected_majority(view: Mapping[str, Any]) -> bool:
        """The second-vote majority shown most often on the record; "true" on a tie or with no
        record, since a tied vote counts as "true"."""
        true, total = majority_record(view)
        return true >= total - true

    def designate(self, view: Mapping[str, Any], rng: random.Random) -> list[int]:
        """As many others as allowed (at most ``accomplices``), the fewest points first."""
        me, points = view["seat"], view["points"]
        others = sorted((s for s in range(view["players"]) if s != me), key=lambda s: (points[s], s))
        return sorted(others[:min(self.accomplices, view["max_grabbers"] - 1)])

    def statement_truth(self, view: Mapping[str, Any], rng: random.Random) -> bool:
        """Against the majority it expects."""
        return not self.expected_majority(view)

    def guess(self, view: Mapping[str, Any], rng: random.Random) -> bool:
        """A grabber joins the expected majority; a revolutionary votes against it."""
        if view["you"]["role"] == GRABBER:
            if view["phase"] == "second_vote" and view["first_vote"] is not None:
                return majority_of(view["first_vote"])
            return self.expected_majority(view)
        return not self.expected_majority(view)

    def argument(self, view: Mapping[str, Any]) -> str | None:
        """The accused claims the opposite of the truth (unless it does not bluff); a voter argues
        for its vote."""
        if view["seat"] == view["accused"]:
            return f"It is {said(not view['you']['truth'])}, I swear it." if self.bluffs else None
        if view["first_vote"] is None:
            return None
        return f"Trust me, it is {said(view['first_vote'][view['seat']])}."


def claim_of(text: str) -> bool | None:
    """What an argument claims about the statement: ``True`` if it says "true" and not "false",
    ``False`` the other way round, ``None`` if it says neither or both."""
    words = set(re.findall(r"[a-z]+", text.casefold()))
    if ("true" in words) == ("false" in words):
        return None
    return "true" in words


class Skeptic(TrialsBot):
    """Doubts the accused (see the module docstring)."""

    name = "skeptic"
    parameters: ClassVar[Mapping[str, Parameter]] = {
        "accomplices": ACCOMPLICES,
        "doubt": Parameter(1.0, 0, 1, "the chance that it votes false in the first vote (true "
                                      "otherwise)"),
    }

    def __init__(self, accomplices: int = 11, doubt: float = 1.0) -> None:
        self.accomplices = accomplices
        self.doubt = doubt

    def designate(self, view: Mapping[str, Any], rng: random.Random) -> list[int]:
        """As many others as allowed (at most ``accomplices``), at random."""
        others = [s for s in range(view["players"]) if s != view["seat"]]
        return sorted(rng.sample(others, min(self.accomplices, view["max_grabbers"] - 1)))

    def statement_truth(self, view: Mapping[str, Any], rng: random.Random) -> bool:
        """True: a doubting table votes false."""
        return True

    @staticmethod
    def accused_claim(view: Mapping[str, Any]) -> bool | None:
        """The claim of the accused's last argument in this debate, if it makes one."""
        said_by_accused = [a["text"] for a in view["arguments"] if a["seat"] == view["accused"]]
        return claim_of(said_by_accused[-1]) if said_by_accused else None

    def guess(self, view: Mapping[str, Any], rng: random.Random) -> bool:
        """False (in the first vote, with the chance ``doubt``); in the second vote, against the
        accused's claim (a grabber: with it)."""
        if view["phase"] == "first_vote" and self.doubt < 1:
            return rng.random() >= self.doubt
        claim = self.accused_claim(view) if view["phase"] == "second_vote" else None
        if claim is None:
            return False
        return claim if view["you"]["role"] == GRABBER else not claim

    def argument(self, view: Mapping[str, Any]) -> str | None:
        """The accused tells the truth; a voter says nothing."""
        if view["seat"] == view["accused"]:
            return f"It is {said(view['you']['truth'])}, and that is the truth."
        return None


STRATEGIES = {HonestRevolutionary.name: HonestRevolutionary, BluffingGrabber.name: BluffingGrabber,
              Skeptic.name: Skeptic}
"""The named strategies of the revolutionary trials, by name."""
