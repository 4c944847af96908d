"""Culottes: the full game, as a state machine on the core model.

A turn follows the rulebook's ten steps. For each of the current player's citizen sheets in order
(those the player had when the turn began): step 1 picks the citizen (an emigrant may say "Vive la
revolution" or pass), then the optional steps 2 (buy a cockade), 3 (donate to the Bastille),
4 (cake vote, then the die), 5 (verdict and rewards, when the die closes the trial) and 6 (emigrate),
each at most once and in that order; ``pass`` moves on to the next citizen (step 7). Then step 8
(recruit, at most one), step 9 (Bastille cakes, automatic) and step 10 (the next player).

Decisions on what the rulebook leaves open are in ``docs/games/culottes.md``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Self

from tricolore.core import (
    Action,
    ActionFamily,
    ActionSpace,
    Amount,
    Choice,
    Event,
    GameInfo,
    IllegalAction,
    Options,
    OptionsError,
    Prompt,
    Result,
    SealedSubmissions,
    Seat,
    State,
    Text,
)
from tricolore.core.errors import listed
from tricolore.games.culottes.book import (
    BASTILLE,
    PRIVILEGED,
    SANS_CULOTTE,
    SIDES,
    BookOfPublicSafety,
    TrialClosing,
)
from tricolore.games.culottes.data import CITIZEN_NAMES, GRABBER, NATURES, REVOLUTIONARY, ROLES
from tricolore.games.culottes.scoring import CitizenTally, score_player

NAME_LENGTH = 24

MAX_STARTING_CAKES = 1000
MAX_DIE_FACES = 20
MAX_COCKADE_PRICE = 100
MAX_SHEETS_PER_PLAYER = 10
MAX_ROUNDS = 1000
"""Upper bounds of the options: generous for any real table, and small enough that no option
can make a game slow or large."""

AGREE_REFUSAL = "agree to end the game with true, or withdraw your agreement with false"
"""Why an ``agree`` other than true or false is refused."""
CITIZEN_STEPS = ("vive_la_revolution", "buy_cockade", "donate", "cake_vote", "emigrate")
"""The kinds of action a citizen takes in steps 1 to 6 of its owner's turn."""
KINDS = (*CITIZEN_STEPS, "choose_role", "pass", "recruit", "agree_end", "give_cakes")
"""Every kind of action of the game."""
DONE_AT_STEP = {3: "bought a cockade", 4: "donated to the Bastille", 6: "cake-voted"}
"""What the current citizen did last this turn, by the step it has reached."""


@dataclass(frozen=True, slots=True)
class CulottesOptions(Options):
    """Table options; the defaults are the rulebook's values."""

    starting_cakes: int = 20
    """Cakes on a new citizen sheet, and what scoring subtracts per grabber citizen."""
    die_faces: int = 6
    """Faces of the revolutionary die."""
    closing_faces: tuple[int, ...] = (5, 6)
    """Die faces that close the trial just voted on."""
    cockade_price_sans_culotte: int = 1
    """Points a cockade costs a true sans-culotte at the end."""
    cockade_price_privileged: int = 3
    """Points a cockade costs a true privileged at the end."""
    citizen_sheets_per_player: int = 2
    """Sheets in the shuffled stack per player, half sans-culotte and half privileged."""
    first_player: int | None = None
    """The seat that starts (the most sans-culotte-looking player); ``None`` draws it at random."""
    max_rounds: int | None = None
    """Designed: end the game after this many full rounds (for simulations and timed tables)."""
    emigrants_get_bastille_cakes: bool = True
    """Whether an emigrated citizen holding a cap still receives Bastille cakes."""
    final_verdicts: bool = False
    """At the end, close every open trial with the Book instead of returning its cakes."""

    def validate(self, players: int) -> None:
        """Check ranges against each other and the number of players. Each upper bound is more
        than a real table wants (the rulebook asks for at least 2 sheets per player)."""
        self.check_range("starting_cakes", 1, MAX_STARTING_CAKES)
        self.check_range("die_faces", 2, MAX_DIE_FACES)
        if not 1 <= len(self.closing_faces) <= self.die_faces:
            raise OptionsError(f"the option closing_faces must list at least 1 and at most {self.die_faces} "
                               f"faces (the die's); it lists {len(self.closing_faces)}")
        if any(not 1 <= f <= self.die_faces for f in self.closing_faces):
            raise OptionsError("the option closing_faces must be faces of the die, "
                               f"between 1 and {self.die_faces}")
        if len(set(self.closing_faces)) != len(self.closing_faces):
            raise OptionsError("the option closing_faces lists a face twice")
        self.check_range("cockade_price_sans_culotte", 0, MAX_COCKADE_PRICE)
        self.check_range("cockade_price_privileged", 0, MAX_COCKADE_PRICE)
        self.check_range("citizen_sheets_per_player", 2, MAX_SHEETS_PER_PLAYER)
        if self.first_player is not None and not 0 <= self.first_player < players:
            raise OptionsError(f"the option first_player must be a seat from 0 to {players - 1}")
        self.check_range("max_rounds", 1, MAX_ROUNDS)


INFO = GameInfo(
    name="culottes", title="Culottes", rules_version="1", min_players=3, max_players=12,
    options=CulottesOptions, simultaneous=True, hidden_information=True, chance=True,
    summary="Cake votes on who deserves the Bastille's cakes: revolutionaries against grabbers.")


def _not_now(rule: str) -> IllegalAction:
    """A refusal of a kind of action the rules do not allow now, naming the rule."""
    return IllegalAction("not_allowed_now", rule)


def _wait(rule: str, waiting: tuple[Seat, ...]) -> IllegalAction:
    """A refusal where waiting is the answer: the rule, then the seats waited for."""
    names = listed([f"{{{i}}}" for i in range(len(waiting))], "and")
    return IllegalAction("not_your_turn", f"{rule}; waiting for {names}", waiting)


class Citizen:
    """A citizen sheet. ``sheet`` indexes the stack the sheet was drawn from; its flap nature is
    a secret of the state. ``first`` marks the owner's first sheet, where the role is written."""

    __slots__ = ("id", "owner", "name", "sheet", "first", "cakes", "cockades", "bastille_cakes",
                 "cap", "on_trial", "emigrated", "recruited")

    def __init__(self, id: int, owner: Seat, name: str, sheet: int, first: bool, cakes: int) -> None:
        self.id, self.owner, self.name, self.sheet, self.first = id, owner, name, sheet, first
        self.cakes = cakes
        self.cockades = 0
        self.bastille_cakes = 0
        self.cap = False
        self.on_trial = False
        self.emigrated = False
        self.recruited = not first

    @property
    def status(self) -> str:
        """``"scale"`` while on trial, ``"cap"`` with a Phrygian cap, else ``"none"``."""
        return "scale" if self.on_trial else "cap" if self.cap else "none"

    def copy(self) -> Citizen:
        """An independent copy."""
        other = Citizen.__new__(Citizen)
        for name in Citizen.__slots__:
            setattr(other, name, getattr(self, name))
        return other

    def payload(self) -> list[Any]:
        """Every field, for digests."""
        return [getattr(self, name) for name in Citizen.__slots__]


class Bastille:
    """The fortress's strategic reserve of cakes, with its ledger: cakes donated (step 3), won
    from verdicts (step 5, the Bastille's reward and leftovers) and handed out (step 9)."""

    __slots__ = ("donated", "from_verdicts", "distributed")

    def __init__(self) -> None:
        self.donated = 0
        self.from_verdicts = 0
        self.distributed = 0

    @property
    def cakes(self) -> int:
        """Cakes held now: everything received less everything handed out."""
        return self.donated + self.from_verdicts - self.distributed

    def receive_donation(self, cakes: int) -> None:
        """Step 3: a citizen's donation."""
        self.donated += cakes

    def receive_reward(self, cakes: int) -> None:
        """Step 5: the Bastille's share of lost cakes, leftovers included."""
        self.from_verdicts += cakes

    def give_cake(self) -> bool:
        """Step 9: one cake out, if any is left."""
        if not self.cakes:
            return False
        self.distributed += 1
        return True

    def ledger(self) -> dict[str, int]:
        """The reserve and its ledger, as JSON."""
        return {"cakes": self.cakes, "donated": self.donated, "from_verdicts": self.from_verdicts,
                "distributed": self.distributed}

    def copy(self) -> Bastille:
        """An independent copy."""
        other = Bastille()
        other.donated, other.from_verdicts, other.distributed = (
            self.donated, self.from_verdicts, self.distributed)
        return other


class CulottesState(State):
    """A game of Culottes. See the module docstring for the shape of a turn."""

    info = INFO

    def __init__(self, players: int, seed: int, options: CulottesOptions) -> None:
        self._init_base(players, seed)
        self.options = options
        self.stack_size = players * options.citizen_sheets_per_player
        half = [SANS_CULOTTE, PRIVILEGED] * (self.stack_size // 2)
        if self.stack_size % 2:
            half.append(self.rng.choice(NATURES))
        self.rng.shuffle(half)
        self.sheets: list[str] = half
        self.next_sheet = 0
        names = list(CITIZEN_NAMES)
        self.rng.shuffle(names)
        self.spare_names = names
        self.citizens: list[Citizen] = []
        self.holdings: list[list[int]] = [[] for _ in range(players)]
        for seat in range(players):
            self._new_citizen(seat, self._spare_name(), first=True)
        self.roles: list[str | None] = [None] * players
        self.role_choice: SealedSubmissions | None = SealedSubmissions("choose_role", range(players),
                                                                      revisable=False)
        self.book: BookOfPublicSafety[int] = BookOfPublicSafety()
        self.closings: list[dict[str, Any]] = []
        self.bastille = Bastille()
        self.first_player = (options.first_player if options.first_player is not None
                             else self.rng.randrange(players))
        self.current = self.first_player
        self.phase = "roles"
        self.turn_citizens: tuple[int, ...] = ()
        self.citizen_index = 0
        self.step = 1
        self.turn = 0
        self.rounds_completed = 0
        self.last_roll: int | None = None
        self.agrees_to_end = [False] * players
        self.end_agreed = False
        self.final_turns_left: int | None = None
        self.end_reason: str | None = None

    # -- set-up ------------------------------------------------------------------------------
    def _spare_name(self) -> str:
        taken = {c.name.casefold() for c in self.citizens}
        while self.spare_names:
            name = self.spare_names.pop()
            if name.casefold() not in taken:
                return name
        n = len(self.citizens) + 1
        while f"Citizen {n}".casefold() in taken:
            n += 1
        return f"Citizen {n}"

    def _draw_sheet(self) -> int:
        """The next sheet of the stack; past the printed stack, new sheets are drawn 50/50."""
        index = self.next_sheet
        if index >= len(self.sheets):
            self.sheets.append(self.rng.choice(NATURES))
        self.next_sheet += 1
        return index

    def _new_citizen(self, owner: Seat, name: str, first: bool) -> Citizen:
        citizen = Citizen(len(self.citizens), owner, name, self._draw_sheet(), first,
                          self.options.starting_cakes)
        self.citizens.append(citizen)
        self.holdings[owner].append(citizen.id)
        return citizen

    def nature(self, citizen: Citizen) -> str:
        """The citizen's true nature: its flap, except a grabber's puppet, whose nature is that of
        the grabber's first sheet."""
        if not citizen.first and self.roles[citizen.owner] == GRABBER:
            return self.sheets[self.citizens[self.holdings[citizen.owner][0]].sheet]
        return self.sheets[citizen.sheet]

    def role_of(self, seat: Seat) -> str | None:
        """The seat's role, or the role it has sealed but not yet revealed to the table."""
        if self.roles[seat] is None and self.role_choice is not None:
            sealed = self.role_choice.submitted(seat)
            return None if sealed is None else sealed["role"]
        return self.roles[seat]

    def sealed_name(self, seat: Seat) -> str | None:
        """The name the seat sent with its sealed role choice, until every role is chosen and
        the name is written on its first sheet for all to see."""
        if self.role_choice is None:
            return None
        sealed = self.role_choice.submitted(seat)
        return None if sealed is None or "name" not in sealed else str(sealed["name"]).strip()

    def is_puppet(self, citizen: Citizen) -> bool:
        """Whether the citizen is a grabber's puppet (a recruit of a grabber)."""
        return not citizen.first and self.roles[citizen.owner] == GRABBER

    def flap(self, citizen: Citizen) -> dict[str, Any]:
        """What the secret bottom flap tells: the true nature, and whether it is a puppet."""
        return {"nature": self.nature(citizen), "puppet": self.is_puppet(citizen)}

    # -- the protocol ------------------------------------------------------------------------
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.phase == "over"

    def pending(self) -> Mapping[Seat, Prompt]:
        """Who must act now."""
        if self.phase == "roles":
            assert self.role_choice is not None
            return {s: Prompt(s, ("choose_role",), secret=True) for s in self.role_choice.waiting()}
        if self.phase == "over":
            return {}
        return {self.current: Prompt(self.current, self.legal_actions(self.current).kinds)}

    def current_citizen(self) -> Citizen | None:
        """The citizen whose steps 1 to 7 are being played, if any."""
        if self.phase != "turn":
            return None
        return self.citizens[self.turn_citizens[self.citizen_index]]

    def _legal_actions(self, seat: Seat) -> ActionSpace:
        """The actions ``seat`` may take for its prompt."""
        if self.phase == "roles":
            assert self.role_choice is not None
            if not self.role_choice.expects(seat):
                return ActionSpace(())
            return ActionSpace((ActionFamily(
                "choose_role",
                {"role": Choice(ROLES),
                 "name": Text(NAME_LENGTH, self._names_taken(seat), CITIZEN_NAMES)},
                optional=frozenset({"name"}),
                help="Secretly write R or G on your first sheet; optionally name your citizen"),))
        if self.phase == "over" or seat != self.current:
            return ActionSpace(())
        families: list[ActionFamily] = []
        if self.phase == "recruit":
            families.append(ActionFamily("recruit", {"name": Text(NAME_LENGTH, self._names_taken(),
                                                                  CITIZEN_NAMES)},
                                         optional=frozenset({"name"}),
                                         help="Step 8: recruit a new citizen"))
            families.append(ActionFamily("pass", help="Do not recruit"))
        else:
            citizen = self.current_citizen()
            assert citizen is not None
            if self.step == 1 and citizen.emigrated:
                families.append(ActionFamily("vive_la_revolution",
                                             help="Step 1: bring this citizen back from emigration"))
            else:
                if self.step <= 2:
                    families.append(ActionFamily("buy_cockade", help="Step 2: buy a cockade"))
                if self.step <= 3 and citizen.cakes:
                    families.append(ActionFamily(
                        "donate", {"cakes": Amount(1, citizen.cakes, 3,
                                                   f"{citizen.name} has {citizen.cakes} cakes")},
                        help="Step 3: donate cakes to the Bastille"))
                if self.step <= 4 and citizen.cakes:
                    families.append(ActionFamily(
                        "cake_vote",
                        {"citizen": Choice(tuple(range(len(self.citizens))),
                                           tuple(c.name for c in self.citizens)),
                         "side": Choice(SIDES),
                         "cakes": Amount(1, citizen.cakes, 5,
                                         f"{citizen.name} has {citizen.cakes} cakes")},
                        help="Step 4: cake-vote on a citizen, then roll the die"))
                if self.step <= 6:
                    families.append(ActionFamily("emigrate", help="Step 6: emigrate"))
            families.append(ActionFamily("pass", help="Step 7: done with this citizen"))
        if not self.agrees_to_end[seat] and not self.end_agreed:
            families.append(ActionFamily("agree_end", {"agree": Choice((True,), refusal=AGREE_REFUSAL)},
                                         help="Agree to end the game"))
        return ActionSpace(tuple(families))

    def _free_actions(self, seat: Seat) -> ActionSpace:
        """Cake transfers between citizens, and agreeing to end, at any time once play begins."""
        if self.phase not in ("turn", "recruit"):
            return ActionSpace(())
        families = []
        givers = tuple(i for i in self.holdings[seat] if self.citizens[i].cakes)
        others = tuple(c.id for c in self.citizens if c.owner != seat)
        if givers and others:
            own = listed([self.citizens[i].name for i in self.holdings[seat]], "and")
            families.append(ActionFamily(
                "give_cakes",
                {"from": Choice(givers, tuple(self.citizens[i].name for i in givers),
                                "you may give cakes only from one of your own citizens with cakes: "
                                + listed([self.citizens[i].name for i in givers])),
                 "to": Choice(others, tuple(self.citizens[i].name for i in others),
                              f"cakes go to another player's citizen, not to one of your own ({own})"),
                 "cakes": lambda chosen: self._give_limit(chosen.get("from"))},
                help="Give cakes from one of your citizens to another player's citizen"))
        if not self.end_agreed:
            families.append(ActionFamily("agree_end", {"agree": Choice((True, False),
                                                                       refusal=AGREE_REFUSAL)},
                                         help="Agree (or no longer agree) to end the game"))
        return ActionSpace(tuple(families))

    def apply(self, seat: Seat, action: Action) -> list[Event]:
        """Check ``action`` for ``seat``, carry it out, and return the events it caused.

        As :meth:`State.apply`; a kind of action the rules do not allow now is refused with the
        rule that forbids it ("Danton has already cake-voted this turn; ...") rather than with the
        list of what is allowed, under the same code (``not_allowed_now``, or ``not_your_turn``
        where waiting is the answer). The state is unchanged after a refusal.
        """
        try:
            return super().apply(seat, action)
        except IllegalAction as refused:
            if refused.code not in ("not_allowed_now", "not_your_turn"):
                raise
            better = self._rule_against(seat, str(action["type"]))
            if better is None:
                raise
            raise better from None

    def _rule_against(self, seat: Seat, kind: str) -> IllegalAction | None:
        """The rule that refuses ``kind`` to ``seat`` now, when the core refused it as out of
        turn or not allowed now; ``None`` keeps the core's sentence (an unknown kind, or another
        player's turn, where waiting is the answer)."""
        if kind not in KINDS:
            return None
        if self.phase == "roles":
            assert self.role_choice is not None
            waiting = self.role_choice.waiting()
            if kind == "choose_role":
                return _wait("you have already chosen your role", waiting)
            if self.role_choice.expects(seat):
                return _not_now("play begins once every player has secretly chosen a role; "
                                "choose yours first")
            return _wait("play begins once every player has chosen a role", waiting)
        if kind == "choose_role":
            return _not_now("every player chose a role at the start of the game, and a role is "
                            "never changed")
        if kind == "agree_end":
            return _not_now("every player has already agreed to end the game; each plays one "
                            "last turn")
        if kind == "give_cakes":
            return _not_now("none of your citizens has any cakes to give")
        if seat != self.current:
            return None
        if self.phase == "recruit":
            if kind in CITIZEN_STEPS:
                return _not_now("your citizens have all played this turn; now recruit a new "
                                "citizen or pass (step 8)")
            return None
        citizen = self.current_citizen()
        assert citizen is not None
        return self._citizen_rule_against(citizen, kind)

    def _citizen_rule_against(self, citizen: Citizen, kind: str) -> IllegalAction | None:
        """Why the current citizen may not take ``kind`` at its step (steps 1 to 7)."""
        name = citizen.name
        if kind == "recruit":
            return _not_now(f"recruiting is step 8, once each of your citizens has played; pass "
                            f"to finish with {name}")
        if kind == "vive_la_revolution":
            if self.step == 2:
                return _not_now(f"{name} is already back from emigration")
            return _not_now(f"{name} has not emigrated; vive la révolution brings back an "
                            "emigrated citizen")
        if citizen.emigrated:
            return _not_now(f"{name} has emigrated: say vive la révolution first, or pass")
        done = DONE_AT_STEP.get(self.step)
        if kind == "buy_cockade" and done is not None:
            if self.step == 3:
                return _not_now(f"{name} has already bought a cockade this turn; a citizen buys "
                                "at most one a turn")
            return _not_now(f"{name} has already {done} this turn; cockades are bought before "
                            "that, at step 2")
        if kind == "donate":
            if self.step == 4:
                return _not_now(f"{name} has already donated this turn; a citizen donates once a turn")
            if self.step == 6:
                return _not_now(f"{name} has already cake-voted this turn; donations come before "
                                "the cake vote, at step 3")
            return _not_now(f"{name} has no cakes to donate")
        if kind == "cake_vote":
            if self.step == 6:
                return _not_now(f"{name} has already cake-voted this turn; a citizen cake-votes "
                                "once a turn")
            return _not_now(f"{name} has no cakes to vote with")
        return None

    def _give_limit(self, giver: object) -> Amount:
        if type(giver) is int and 0 <= giver < len(self.citizens):
            c = self.citizens[giver]
            return Amount(1, c.cakes, 3, f"{c.name} has {c.cakes} cakes")
        return Amount(1, 0)

    def _names_taken(self, seat: Seat | None = None) -> frozenset[str]:
        taken = {c.name for c in self.citizens if seat is None or c.id != self.holdings[seat][0]}
        if self.role_choice is not None:
            for other, action in self.role_choice.in_seat_order():
                if other != seat and "name" in action:
                    taken.add(action["name"].strip())
        return frozenset(taken)

    # -- the secret choice of role -----------------------------------------------------------
    def do_choose_role(self, seat: Seat, action: Mapping[str, Any]) -> None:
        """How to start, 4: secretly write R or G on the first sheet (a simultaneous secret move)."""
        assert self.role_choice is not None
        self.emit("role_chosen", to=[seat], seat=seat, role=action["role"])
        self.emit("has_chosen", seat=seat, move="choose_role")
        if self.role_choice.submit(seat, action):
            for s, sealed in self.role_choice.in_seat_order():
                self.roles[s] = sealed["role"]
                if "name" in sealed:
                    self.citizens[self.holdings[s][0]].name = sealed["name"].strip()
            self.role_choice = None
            self.emit("citizens_named", names=[c.name for c in self.citizens])
            self._start_turn()

    # -- a turn ------------------------------------------------------------------------------
    def _start_turn(self) -> None:
        self.phase = "turn"
        self.turn_citizens = tuple(self.holdings[self.current])
        self.citizen_index = 0
        self.step = 1
        self.emit("turn_started", seat=self.current, turn=self.turn + 1)

    def do_vive_la_revolution(self, seat: Seat, action: Mapping[str, Any]) -> None:
        """Step 1: an emigrated citizen comes back and plays steps 2 to 7."""
        citizen = self.current_citizen()
        assert citizen is not None
        citizen.emigrated = False
        self.step = 2
        self.emit("vive_la_revolution", citizen=citizen.id)

    def do_buy_cockade(self, seat: Seat, action: Mapping[str, Any]) -> None:
        """Step 2: buy one cockade; its price is deducted from the score at the end."""
        citizen = self.current_citizen()
        assert citizen is not None
        citizen.cockades += 1
        self.step = 3
        self.emit("cockade_bought", citizen=citizen.id)

    def do_donate(self, seat: Seat, action: Mapping[str, Any]) -> None:
        """Step 3: donate any number of the citizen's cakes to the Bastille."""
        citizen = self.current_citizen()
        assert citizen is not None
        citizen.cakes -= action["cakes"]
        self.bastille.receive_donation(action["cakes"])
        self.step = 4
        self.emit("donated", citizen=citizen.id, cakes=action["cakes"])

    def do_cake_vote(self, seat: Seat, action: Mapping[str, Any]) -> None:
        """Step 4: put cakes on a scale of any citizen's trial, write the Book, roll the die.

        A citizen without a scale gets one; a capped citizen's cap becomes its scale. A roll in
        ``closing_faces`` closes that trial (step 5).
        """
        voter = self.current_citizen()
        assert voter is not None
        trialed = self.citizens[action["citizen"]]
        cakes = action["cakes"]
        if not trialed.on_trial:
            trialed.on_trial = True
            trialed.cap = False
        voter.cakes -= cakes
        self.book.write(voter.id, trialed.id, cakes, action["side"], self.turn + 1)
        self.step = 6
        self.emit("cake_vote", voter=voter.id, citizen=trialed.id, side=action["side"], cakes=cakes)
        self.last_roll = self.rng.randint(1, self.options.die_faces)
        closes = self.last_roll in self.options.closing_faces
        self.emit("die_rolled", roll=self.last_roll, closes_trial=closes)
        if closes:
            self.verdict_and_rewards(trialed)

    def seating_from_left(self) -> list[Seat]:
        """Seats from the current player's left, clockwise, the current player last."""
        return [(self.current + i) % self.players for i in range(1, self.players + 1)]

    def citizens_from_left(self) -> list[int]:
        """Every citizen in seating order from the current player's left, sheets in order."""
        return [i for s in self.seating_from_left() for i in self.holdings[s]]

    def verdict_and_rewards(self, trialed: Citizen) -> TrialClosing[int]:
        """Step 5: close the trial through the Book of Public Safety and pay the winners."""
        closing = self.book.close(trialed.id, self.citizens_from_left())
        trialed.on_trial = False
        trialed.cap = closing.verdict == SANS_CULOTTE
        for reward in closing.rewards:
            if reward.voter == BASTILLE:
                self.bastille.receive_reward(reward.reward)
            else:
                self.citizens[reward.voter].cakes += reward.returned + reward.reward  # type: ignore[index]
        record: dict[str, Any] = {"closing": self.book.closings, "citizen": trialed.id, "turn": self.turn + 1,
                  "roll": self.last_roll, "verdict": closing.verdict,
                  "winning_cakes": closing.winning_cakes, "lost_cakes": closing.lost_cakes,
                  "bastille_vote": closing.bastille_vote, "leftover": closing.leftover,
                  "rewards": [{"voter": r.voter, "returned": r.returned, "reward": r.reward,
                               "share": str(r.share)} for r in closing.rewards],
                  "lost": [{"voter": v, "cakes": n} for v, n in closing.lost]}
        self.closings.append(record)
        self.emit("trial_closed", **record)
        return closing

    def do_emigrate(self, seat: Seat, action: Mapping[str, Any]) -> None:
        """Step 6: the citizen emigrates; its turns are passed until "Vive la revolution"."""
        citizen = self.current_citizen()
        assert citizen is not None
        citizen.emigrated = True
        self.emit("emigrated", citizen=citizen.id)
        self._next_citizen()

    def do_pass(self, seat: Seat, action: Mapping[str, Any]) -> None:
        """Step 1's "I pass", or done with this citizen (step 7); at step 8, do not recruit."""
        if self.phase == "recruit":
            self._end_turn()
            return
        citizen = self.current_citizen()
        assert citizen is not None
        self.emit("passed", citizen=citizen.id)
        self._next_citizen()

    def _next_citizen(self) -> None:
        """Step 7: any citizen left? Then step 1 for it, else step 8."""
        self.citizen_index += 1
        self.step = 1
        if self.citizen_index >= len(self.turn_citizens):
            self.phase = "recruit"

    def do_recruit(self, seat: Seat, action: Mapping[str, Any]) -> None:
        """Step 8: draw a new sheet with the starting cakes; it first plays next turn.

        A revolutionary's recruit has the nature on its flap; a grabber's recruit is a puppet
        whose nature is that of the grabber's first sheet.
        """
        name = action["name"].strip() if "name" in action else self._spare_name()
        citizen = self._new_citizen(seat, name, first=False)
        self.emit("recruited", seat=seat, citizen=citizen.id, name=name)
        self.emit("recruit_nature", to=[seat], citizen=citizen.id, nature=self.nature(citizen),
                  puppet=self.is_puppet(citizen))
        self._end_turn()

    def distribute_bastille_cakes(self) -> list[int]:
        """Step 9: one Bastille cake to each capped citizen, from the first citizen of the player
        on the left, until the Bastille is empty. Returns the citizens served, in order."""
        served = []
        for i in self.citizens_from_left():
            if not self.bastille.cakes:
                break
            c = self.citizens[i]
            if c.cap and not c.on_trial and (self.options.emigrants_get_bastille_cakes
                                             or not c.emigrated):
                self.bastille.give_cake()
                c.cakes += 1
                c.bastille_cakes += 1
                served.append(i)
        if served:
            self.emit("bastille_distribution", citizens=served)
        return served

    def _end_turn(self) -> None:
        """Steps 9 and 10, then the end-of-game checks."""
        self.distribute_bastille_cakes()
        self.turn += 1
        self.emit("turn_ended", seat=self.current, turn=self.turn)
        if all(c.emigrated for c in self.citizens):
            self._game_over("every citizen has emigrated")
            return
        if self.end_agreed:
            if self.final_turns_left is None:
                self.final_turns_left = self.players
            else:
                self.final_turns_left -= 1
            if self.final_turns_left == 0:
                self._game_over("the players agreed to end and each played one last turn")
                return
        self.current = (self.current + 1) % self.players
        if self.current == self.first_player:
            self.rounds_completed += 1
            if self.options.max_rounds is not None and self.rounds_completed >= self.options.max_rounds:
                self._game_over(f"{self.rounds_completed} rounds were played (max_rounds)")
                return
        self._start_turn()

    # -- ending ------------------------------------------------------------------------------
    def do_agree_end(self, seat: Seat, action: Mapping[str, Any]) -> None:
        """Agree (or withdraw agreement) to end; once all agree, each player plays one last turn."""
        self.agrees_to_end[seat] = action["agree"]
        self.emit("agrees_to_end", seat=seat, agree=action["agree"])
        if all(self.agrees_to_end):
            self.end_agreed = True
            self.emit("end_agreed")

    def do_give_cakes(self, seat: Seat, action: Mapping[str, Any]) -> None:
        """A deposit, bribe or reimbursement: cakes from one citizen's sheet to another's."""
        giver, receiver = self.citizens[action["from"]], self.citizens[action["to"]]
        giver.cakes -= action["cakes"]
        receiver.cakes += action["cakes"]
        self.emit("cakes_given", giver=giver.id, receiver=receiver.id, cakes=action["cakes"])

    def _game_over(self, reason: str) -> None:
        self.settle_open_trials()
        self.phase = "over"
        self.end_reason = reason
        self.emit("game_over", reason=reason,
                  roles=list(self.roles),
                  natures=[self.nature(c) for c in self.citizens],
                  puppets=[c.id for c in self.citizens if self.is_puppet(c)],
                  scores=list(self.result().scores))

    def settle_open_trials(self) -> None:
        """Cakes still on open scales go back to their voters, or, with the ``final_verdicts``
        option, every open trial is closed through the Book, from the left of the last player."""
        for i in self.citizens_from_left():
            c = self.citizens[i]
            if not c.on_trial:
                continue
            if self.options.final_verdicts:
                self.verdict_and_rewards(c)
                continue
            rows = self.book.open_rows(c.id)
            self.book.closings += 1
            for row in rows:
                row.closing = self.book.closings
                self.citizens[row.voter].cakes += row.cakes
            c.on_trial = False
            self.closings.append({"closing": self.book.closings, "citizen": c.id,
                                  "turn": self.turn, "verdict": None, "returned": True})
            self.emit("trial_abandoned", citizen=c.id, returned=len(rows))

    def tallies(self) -> list[CitizenTally]:
        """Every citizen as scoring sees it, true natures revealed."""
        return [CitizenTally(c.name, self.nature(c), self.is_puppet(c), c.recruited, c.cakes,
                             c.cockades, c.bastille_cakes) for c in self.citizens]

    def result(self) -> Result:
        """The eight scoring steps, with each player's breakdown."""
        tallies = self.tallies()
        breakdown = []
        for seat in range(self.players):
            own = [tallies[i] for i in self.holdings[seat]]
            breakdown.append(score_player(
                self.roles[seat] or REVOLUTIONARY, own, tallies,
                starting_cakes=self.options.starting_cakes,
                price_sans_culotte=self.options.cockade_price_sans_culotte,
                price_privileged=self.options.cockade_price_privileged))
        first = breakdown[0]
        metrics = {"bastille_to_sans_culottes": first["bastille_to_sans_culottes"],
                   "bastille_to_privileged": first["bastille_to_privileged"],
                   "bastille_donated": self.bastille.donated,
                   "bastille_from_verdicts": self.bastille.from_verdicts,
                   "turns": self.turn, "rounds": self.rounds_completed,
                   "trials_closed": sum(1 for c in self.closings if c.get("verdict")),
                   "grabbers": sum(r == GRABBER for r in self.roles)}
        return Result.from_scores([b["score"] for b in breakdown], breakdown, metrics)

    # -- views -------------------------------------------------------------------------------
    def view(self, seat: Seat | None) -> dict[str, Any]:
        """The table as ``seat`` sees it: everything public, plus its own secrets."""
        over = self.phase == "over"
        citizen = self.current_citizen()
        out: dict[str, Any] = {
            "game": self.info.name, "seat": seat, "players": self.players, "phase": self.phase,
            "turn": self.turn + 1, "rounds_completed": self.rounds_completed,
            "first_player": self.first_player, "current_player": self.current,
            "current_citizen": None if citizen is None else citizen.id,
            "step": self.step if self.phase == "turn" else 8 if self.phase == "recruit" else None,
            "bastille": self.bastille.cakes, "bastille_ledger": self.bastille.ledger(),
            "last_roll": self.last_roll,
            "agrees_to_end": list(self.agrees_to_end), "end_agreed": self.end_agreed,
            "final_turns_left": self.final_turns_left,
            "holdings": [list(h) for h in self.holdings],
            "recruits": [sum(self.citizens[i].recruited for i in h) for h in self.holdings],
            "citizens": [{"id": c.id, "owner": c.owner, "name": c.name, "cakes": c.cakes,
                          "cockades": c.cockades, "bastille_cakes": c.bastille_cakes,
                          "status": c.status, "emigrated": c.emigrated, "recruited": c.recruited,
                          "scales": self.book.scales(c.id) if c.on_trial else None}
                         for c in self.citizens],
            "book": [{"row": i + 1, "voter": r.voter, "citizen": r.citizen, "cakes": r.cakes,
                      "side": r.side, "turn": r.turn, "closing": r.closing}
                     for i, r in enumerate(self.book.rows)],
            "closings": [{**c, "rewards": [dict(r) for r in c["rewards"]],
                          "lost": [dict(v) for v in c["lost"]]} if "rewards" in c else dict(c)
                         for c in self.closings],
            "role_choice": None if self.role_choice is None else self.role_choice.public(),
            "pending": [p.as_dict() for p in self.pending().values()],
            "options": self.options.as_dict(),
        }
        if seat is not None:
            out["you"] = {
                "role": self.role_of(seat), "sealed_name": self.sealed_name(seat),
                "citizens": {str(i): self.flap(self.citizens[i]) for i in self.holdings[seat]}}
        if over:
            out["end_reason"] = self.end_reason
            out["reveal"] = {"roles": list(self.roles),
                             "citizens": [self.flap(c) for c in self.citizens]}
            out["result"] = self.result().as_dict()
        return out

    # -- search and replay -------------------------------------------------------------------
    def clone(self) -> Self:
        """An independent copy."""
        other = self._shallow_copy()
        other.sheets = list(self.sheets)
        other.spare_names = list(self.spare_names)
        other.citizens = [c.copy() for c in self.citizens]
        other.holdings = [list(h) for h in self.holdings]
        other.roles = list(self.roles)
        other.role_choice = None if self.role_choice is None else self.role_choice.copy()
        other.book = self.book.copy()
        other.bastille = self.bastille.copy()
        other.closings = list(self.closings)
        other.agrees_to_end = list(self.agrees_to_end)
        return other

    def determinize(self, seat: Seat, rng: random.Random) -> Self:
        """Resample what ``seat`` does not know: other players' roles, the flaps of sheets it has
        not seen (shuffled among themselves; sheets drawn beyond the printed stack redrawn
        50/50), and the future of the die."""
        other = self.clone()
        other.rng = random.Random(rng.getrandbits(64))
        if self.phase == "over":
            return other
        known = {self.citizens[i].sheet for i in self.holdings[seat]}
        unknown = [i for i in range(self.stack_size) if i not in known]
        flaps = [self.sheets[i] for i in unknown]
        rng.shuffle(flaps)
        for i, flap in zip(unknown, flaps, strict=True):
            other.sheets[i] = flap
        for i in range(self.stack_size, len(self.sheets)):
            if i not in known:
                other.sheets[i] = rng.choice(NATURES)
        for s in range(self.players):
            if s == seat:
                continue
            if other.roles[s] is not None:
                other.roles[s] = rng.choice(ROLES)
            elif other.role_choice is not None and other.role_choice.submitted(s) is not None:
                sealed = dict(other.role_choice.submitted(s) or {})
                sealed["role"] = rng.choice(ROLES)
                other.role_choice.replace(s, sealed)
        other.log = self.log_for(seat)
        return other

    def digest_payload(self) -> Any:
        """The full state, for digests."""
        return [self.phase, self.sheets, self.next_sheet, self.spare_names,
                [c.payload() for c in self.citizens], self.holdings, self.roles,
                None if self.role_choice is None else self.role_choice.payload(),
                [[r.voter, r.citizen, r.cakes, r.side, r.closing, r.turn] for r in self.book.rows],
                self.book.closings, self.bastille.ledger(), self.first_player, self.current,
                list(self.turn_citizens), self.citizen_index, self.step, self.turn,
                self.rounds_completed, self.last_roll, self.agrees_to_end, self.end_agreed,
                self.final_turns_left, self.end_reason]
