"""The revolutionary trials (Culottes tutorial) as a state machine on the core model."""

from __future__ import annotations

import functools
import random
from collections.abc import Mapping
from typing import Any, Final, Self

from mypy_extensions import mypyc_attr

from tricolore.core import (
    Action,
    ActionFamily,
    ActionSpace,
    Choice,
    GameInfo,
    IllegalAction,
    Prompt,
    ResponseWindow,
    Result,
    SealedSubmissions,
    Seat,
    State,
    Subset,
    Text,
)
from tricolore.core.actions import NO_ACTIONS
from tricolore.core.draws import choice, randrange
from tricolore.core.fields import Copy, Field, Seen, declare, payload, sorted_items
from tricolore.core.model import ALONE, one_prompt, prompt, prompts
from tricolore.games.culottes.data import GRABBER, REVOLUTIONARY
from tricolore.games.culottes_trials import refusals
from tricolore.games.culottes_trials.data import Phase
from tricolore.games.culottes_trials.options import TrialsOptions

# The phases as module constants, which the compiled build reads directly (``Phase.X`` is a
# lookup on the enum class at each of the many comparisons a decision makes).
DEBATE_PHASE: Final = Phase.DEBATE
DESIGNATE_PHASE: Final = Phase.DESIGNATE
FIRST_VOTE_PHASE: Final = Phase.FIRST_VOTE
SECOND_VOTE_PHASE: Final = Phase.SECOND_VOTE
STATEMENT_PHASE: Final = Phase.STATEMENT

STATEMENT_LENGTH = 280
EXAMPLE_STATEMENTS = (
    "I have some candy in the right pocket of my pants",
    "There is a duck in the background picture of my phone",
    "I have more than 50% of battery in my phone",
    "There is only one bottle of soda left in the fridge",
)
VOTES = (FIRST_VOTE_PHASE, SECOND_VOTE_PHASE)
"""The two votes of a trial."""
EXAMPLE_ARGUMENTS = ("They hesitated before answering.", "That is easy to check: I believe it.",
                     "A grabber would say exactly that.")


INFO = GameInfo(
    name="culottes-trials", title="Culottes: revolutionary trials", rules_version="1",
    min_players=3, max_players=12, options=TrialsOptions, simultaneous=True,
    hidden_information=True, chance=False,
    summary="The Culottes tutorial: guess whether the accused grabber tells the truth.")


def max_grabbers(players: int) -> int:
    """Grabbers, the accused included, may be at most half the players, rounded down."""
    return players // 2


def majority_guess(guesses: Mapping[Seat, bool]) -> bool:
    """The second vote's majority; a tie counts as "true"."""
    true = sum(1 for g in guesses.values() if g)
    return true >= len(guesses) - true


def votes_by_seat(votes: Mapping[Seat, bool], players: int) -> list[bool | None]:
    """A vote as a list indexed by seat (the views' convention): each seat's guess, ``None`` for
    the accused, who does not vote."""
    return [votes.get(s) for s in range(players)]


def _digested_votes(votes: list[bool | None]) -> dict[str, bool]:
    """A vote in the shape digests have always hashed it: seat as text → guess."""
    return {str(s): g for s, g in enumerate(votes) if g is not None}


def trial_points(players: int, accused: Seat, grabbers: frozenset[Seat], majority_right: bool
                 ) -> list[int]:
    """Points of one trial: a right majority gives each revolutionary 1; a wrong one gives the
    accused 2 and every other grabber 1."""
    if majority_right:
        return [0 if s in grabbers else 1 for s in range(players)]
    return [2 if s == accused else 1 if s in grabbers else 0 for s in range(players)]


# The action spaces are immutable, so each is built once and shared by every position.
STATE_SPACE = ActionSpace((ActionFamily(
    "state", {"statement": Text(STATEMENT_LENGTH, examples=EXAMPLE_STATEMENTS),
              "truth": Choice((True, False))},
    help="Say something hard to guess but easy to check; secretly note if it is true"),))
PASS_FAMILY = ActionFamily("pass", help="Nothing more to say")
PASS_SPACE = ActionSpace((PASS_FAMILY,))
ARGUE_SPACE = ActionSpace((ActionFamily(
    "argue", {"text": Text(STATEMENT_LENGTH, examples=EXAMPLE_ARGUMENTS, label="argument")},
    help="Make your case before the second vote"), PASS_FAMILY))
VOTE_SPACE = ActionSpace((ActionFamily("vote", {"guess": Choice((True, False), (
    "true (closed fist)", "false (open hand)"))}, help="True (closed fist) or false (open hand)"),))
AGREE_SPACE = ActionSpace((ActionFamily("agree_end", {"agree": Choice((True, False), refusal=(
    "agree to stop after this trial with true, or withdraw your agreement with false"))},
                                        help="Stop the tutorial after this trial"),))


GRABBERS_ARE_OTHERS = "the accused is a grabber already, and names other players at this table"
"""Why a designation names someone it may not (the players, not their seat numbers)."""


@functools.lru_cache(maxsize=256)
def _designate_space(players: int, accused: Seat) -> ActionSpace:
    """The accused secretly names the other grabbers: at most half the players are grabbers."""
    others = tuple(s for s in range(players) if s != accused)
    return ActionSpace((ActionFamily(
        "designate", {"grabbers": Subset(others, max_grabbers(players) - 1, refusal=GRABBERS_ARE_OTHERS)},
        help="Secretly name the other grabbers"),))


# The moves (:meth:`TrialsState.legal_moves`): the two votes, passing, each example statement
# as true and as false, each example argument, then a designation as the accused plus the bits
# of the other grabbers' seats. Each stands for the same action in every position.
VOTE_TRUE: Final = 0
VOTE_FALSE: Final = 1
PASS_MOVE: Final = 2
STATE_MOVES: Final = 3
"""A statement: ``STATE_MOVES + 2 * i`` states example ``i`` as true, the next as false."""
ARGUE_MOVES: Final = STATE_MOVES + 2 * len(EXAMPLE_STATEMENTS)
DESIGNATE_MOVES: Final = ARGUE_MOVES + len(EXAMPLE_ARGUMENTS)
"""A designation: ``DESIGNATE_MOVES`` plus the bits ``1 << seat`` of the other grabbers."""
_VOTES: Final = [VOTE_TRUE, VOTE_FALSE]
_PASS: Final = [PASS_MOVE]
_STATEMENTS: Final = list(range(STATE_MOVES, ARGUE_MOVES))
_ARGUMENTS: Final = [*range(ARGUE_MOVES, DESIGNATE_MOVES), PASS_MOVE]
_NO_MOVES: Final[list[int]] = []
_DESIGNATIONS: Final[dict[int, list[int]]] = {}
"""The designations open to the accused, by ``players * 64 + accused``."""
_MOVE_ACTIONS: Final[dict[int, dict[str, Any]]] = {}
"""Each move's action, made the first time it is asked."""


def _designations(players: int, accused: Seat) -> list[int]:
    """Every designation the accused may whisper: at most ``max_grabbers - 1`` other seats."""
    key = players * 64 + accused
    found = _DESIGNATIONS.get(key)
    if found is None:
        most = max_grabbers(players) - 1
        found = _DESIGNATIONS[key] = [
            DESIGNATE_MOVES + bits for bits in range(1 << players)
            if not bits & (1 << accused) and bin(bits).count("1") <= most]
    return found


def _move_action(move: int) -> dict[str, Any]:
    """The action of ``move`` (see the moves above)."""
    if move in (VOTE_TRUE, VOTE_FALSE):
        return {"type": "vote", "guess": move == VOTE_TRUE}
    if move == PASS_MOVE:
        return {"type": "pass"}
    if STATE_MOVES <= move < ARGUE_MOVES:
        example, false = divmod(move - STATE_MOVES, 2)
        return {"type": "state", "statement": EXAMPLE_STATEMENTS[example], "truth": not false}
    if ARGUE_MOVES <= move < DESIGNATE_MOVES:
        return {"type": "argue", "text": EXAMPLE_ARGUMENTS[move - ARGUE_MOVES]}
    if move >= DESIGNATE_MOVES:
        bits = move - DESIGNATE_MOVES
        return {"type": "designate", "grabbers": [s for s in range(bits.bit_length()) if bits >> s & 1]}
    raise ValueError(f"no such move: {move!r}")


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
class TrialsState(State):
    """A game of revolutionary trials."""

    info = INFO
    FIELDS = declare(
        options=Field(digest=False),
        trials_total=Field(digest=False),
        trial=Field(),
        accused=Field(),
        phase=Field(),
        grabbers=Field(digest=sorted, seen=Seen.OWNER),
        statement=Field(),
        truth=Field(seen=Seen.OWNER),
        vote=Field(copy=Copy.OWN, digest=payload, seen=Seen.OWNER),
        first_votes=Field(copy=Copy.SHALLOW, digest=sorted_items),
        debate=Field(copy=Copy.OWN, digest=payload),
        arguments=Field(copy=Copy.SHALLOW),
        arguments_made=Field(copy=Copy.SHALLOW, digest=False),
        points=Field(copy=Copy.SHALLOW),
        history=Field(copy=Copy.SHALLOW, digest=lambda history: [
            {**h, "first_vote": _digested_votes(h["first_vote"]),
             "second_vote": _digested_votes(h["second_vote"])} for h in history]),
        agrees_to_end=Field(copy=Copy.SHALLOW),
        over=Field(),
    )
    """The trial's fields; ``view`` and ``determinize`` are written out, as they say what each
    seat knows of the grabbers, the truth and the sealed votes."""

    def __init__(self, players: int, seed: int, options: TrialsOptions) -> None:
        self._init_base(players, seed)
        self.options = options
        self.trials_total = options.trials if options.trials is not None else players
        self.accused = (options.first_accused if options.first_accused is not None
                        else randrange(self.rng, players))
        self.trial = 1
        self.points = [0] * players
        self.history: list[dict[str, Any]] = []
        self.agrees_to_end = [False] * players
        self.over = False
        self._start_trial()

    def _start_trial(self) -> None:
        self.phase = DESIGNATE_PHASE
        self.grabbers: frozenset[Seat] = frozenset({self.accused})
        self.statement: str | None = None
        self.truth: bool | None = None
        self.vote: SealedSubmissions | None = None
        self.first_votes: dict[Seat, bool] | None = None
        self.debate: ResponseWindow | None = None
        self.arguments: list[dict[str, Any]] = []
        self.arguments_made = [0] * self.players
        """Arguments each seat made in this debate (counted from :attr:`arguments`)."""
        if self.record_events:
            self.emit("trial_started", trial=self.trial, accused=self.accused)

    def voters(self) -> list[Seat]:
        """Everyone but the accused."""
        return [s for s in range(self.players) if s != self.accused]

    # -- the protocol ------------------------------------------------------------------------
    def is_over(self) -> bool:
        """Whether the tutorial has ended."""
        return self.over

    def _pending(self) -> Mapping[Seat, Prompt]:
        """Who must act now."""
        if self.over:
            return {}
        if self.phase in (DESIGNATE_PHASE, STATEMENT_PHASE):
            return one_prompt(self.accused, self.legal_actions(self.accused).kinds)
        if self.phase == DEBATE_PHASE:
            assert self.debate is not None
            return {s: prompt(s, ("argue", "pass") if self._arguments_left(s) else ("pass",),
                              window="debate")
                    for s in self.debate.waiting()}
        assert self.vote is not None
        return prompts(self.vote.waiting(), ("vote",), secret=True)

    def _legal_actions(self, seat: Seat) -> ActionSpace:
        """The actions ``seat`` may take for its prompt."""
        if self.over:
            return NO_ACTIONS
        if self.phase == DESIGNATE_PHASE and seat == self.accused:
            return _designate_space(self.players, seat)
        if self.phase == STATEMENT_PHASE and seat == self.accused:
            return STATE_SPACE
        if self.phase == DEBATE_PHASE and self.debate is not None and self.debate.waits_for(seat):
            return ARGUE_SPACE if self._arguments_left(seat) else PASS_SPACE
        if self.phase in VOTES and self.vote and self.vote.expects(seat):
            return VOTE_SPACE
        return NO_ACTIONS

    def acting(self) -> tuple[Seat, ...]:
        """The seats asked now, in seat order."""
        if self.over:
            return ()
        phase = self.phase
        if phase is DESIGNATE_PHASE or phase is STATEMENT_PHASE:
            return ALONE[self.accused]  # made once: asked at every decision
        if phase is DEBATE_PHASE:
            assert self.debate is not None
            return self.debate.waiting_by_seat()
        assert self.vote is not None
        return self.vote.waiting()

    def legal_moves(self, seat: Seat) -> list[int]:
        """The prompt's actions as moves: a statement and an argument from the examples."""
        if self.over:
            return _NO_MOVES
        phase = self.phase
        if phase == DESIGNATE_PHASE:
            return _designations(self.players, seat) if seat == self.accused else _NO_MOVES
        if phase == STATEMENT_PHASE:
            return _STATEMENTS if seat == self.accused else _NO_MOVES
        if phase == DEBATE_PHASE:
            debate = self.debate
            if debate is None or not debate.waits_for(seat):
                return _NO_MOVES
            return _ARGUMENTS if self._arguments_left(seat) else _PASS
        vote = self.vote
        return _VOTES if vote is not None and vote.expects(seat) else _NO_MOVES

    def move_action(self, move: int) -> dict[str, Any]:
        """The action of ``move``, made once and shared."""
        found = _MOVE_ACTIONS.get(move)
        if found is None:
            found = _MOVE_ACTIONS[move] = _move_action(move)
        return found

    def _arguments_left(self, seat: Seat) -> int:
        return max(0, self.options.arguments_per_debate - self.arguments_made[seat])

    def _free_actions(self, seat: Seat) -> ActionSpace:
        """Agreeing (or no longer agreeing) to stop after this trial, at any time."""
        if self.over:
            return NO_ACTIONS
        return AGREE_SPACE

    def refusal(self, seat: Seat, action: Action, refused: IllegalAction) -> IllegalAction | None:
        """An action the rules do not allow now is refused with the rule that forbids it ("The
        accused does not vote."), players by name, under the same code (``not_allowed_now``, or
        ``not_your_turn`` where waiting is the answer); see :mod:`.refusals`."""
        return refusals.refusal(self, seat, action, refused, max_grabbers(self.players))

    # -- a trial -----------------------------------------------------------------------------
    def do_designate(self, seat: Seat, action: Mapping[str, Any]) -> None:
        """The accused whispers "grabber" or "revolutionary" to each player."""
        self.grabbers = frozenset({self.accused, *action["grabbers"]})
        if self.record_events:
            for s in range(self.players):
                self.emit("your_role", to=[s], seat=s, role=GRABBER if s in self.grabbers else REVOLUTIONARY)
            self.emit("roles_whispered", accused=self.accused)
        self.phase = STATEMENT_PHASE

    def do_state(self, seat: Seat, action: Mapping[str, Any]) -> None:
        """The accused states something, its truth noted secretly; the first vote opens."""
        self.statement = action["statement"].strip()
        self.truth = action["truth"]
        if self.record_events:
            self.emit("statement", accused=seat, statement=self.statement)
            self.emit("truth_noted", to=[seat], truth=self.truth)
        self.phase = FIRST_VOTE_PHASE
        self.vote = SealedSubmissions("first_vote", self.voters(), revisable=False)

    def do_vote(self, seat: Seat, action: Mapping[str, Any]) -> None:
        """A secret true/false vote; when all have voted, the votes are shown together."""
        assert self.vote is not None
        if self.record_events:
            self.emit("has_chosen", seat=seat, move=self.phase)
        if not self.vote.submit(seat, action):
            return
        guesses = {s: bool(a["guess"]) for s, a in self.vote.in_seat_order()}
        self.vote = None
        if self.phase == FIRST_VOTE_PHASE:
            self.first_votes = guesses
            if self.record_events:
                self.emit("first_vote", votes=votes_by_seat(guesses, self.players))
            self.phase = DEBATE_PHASE
            self.debate = ResponseWindow.clockwise("debate", self.players, (self.accused + 1)
                                                   % self.players)
        else:
            self._close_trial(guesses)

    def do_argue(self, seat: Seat, action: Mapping[str, Any]) -> None:
        """An argument in the debate; everyone may answer before the second vote."""
        assert self.debate is not None
        self.arguments.append({"seat": seat, "text": action["text"].strip()})
        self.arguments_made[seat] += 1
        if self.record_events:
            self.emit("argument", seat=seat, text=action["text"].strip())
        self.debate.acted(seat)

    def do_pass(self, seat: Seat, action: Mapping[str, Any]) -> None:
        """Nothing (more) to say; when everyone has passed, the second vote opens."""
        assert self.debate is not None
        if self.debate.passed(seat):
            self.debate = None
            self.phase = SECOND_VOTE_PHASE
            self.vote = SealedSubmissions("second_vote", self.voters(), revisable=False)
            if self.record_events:
                self.emit("debate_closed")

    def _close_trial(self, guesses: dict[Seat, bool]) -> None:
        assert self.truth is not None
        majority = majority_guess(guesses)
        right = majority == self.truth
        gained = trial_points(self.players, self.accused, self.grabbers, right)
        self.points = [p + g for p, g in zip(self.points, gained, strict=True)]
        record: dict[str, Any] = {"trial": self.trial, "accused": self.accused, "statement": self.statement,
                  "truth": self.truth, "grabbers": sorted(self.grabbers),
                  "first_vote": votes_by_seat(self.first_votes or {}, self.players),
                  "second_vote": votes_by_seat(guesses, self.players),
                  "majority": majority, "majority_right": right, "points": gained}
        self.history.append(record)
        if self.record_events:  # a call with ** is an interpreted one: made only for an event kept
            self.emit("trial_closed", **self._public_record(record))
        self.trial += 1
        self.accused = (self.accused + 1) % self.players
        if self.trial > self.trials_total or all(self.agrees_to_end):
            self.over = True
            if self.record_events:
                self.emit("game_over", points=list(self.points))
        else:
            self._start_trial()

    def do_agree_end(self, seat: Seat, action: Mapping[str, Any]) -> None:
        """Agree (or withdraw agreement) to stop at the end of this trial."""
        self.agrees_to_end[seat] = action["agree"]
        if self.record_events:
            self.emit("agrees_to_end", seat=seat, agree=action["agree"])

    # -- results and views -------------------------------------------------------------------
    @staticmethod
    def _public_record(record: Mapping[str, Any]) -> dict[str, Any]:
        """A closed trial as views and events show it: a copy (its votes are lists indexed by
        seat)."""
        return {**record, "grabbers": list(record["grabbers"]), "points": list(record["points"]),
                "first_vote": list(record["first_vote"]),
                "second_vote": list(record["second_vote"])}

    def result(self) -> Result:
        """Points per player, with each trial's points in the breakdown."""
        breakdown = [{"points": self.points[s],
                      "trials": [{"trial": h["trial"], "role": GRABBER if s in h["grabbers"]
                                  else REVOLUTIONARY, "points": h["points"][s]} for h in self.history]}
                     for s in range(self.players)]
        right = sum(1 for h in self.history if h["majority_right"])
        return Result.from_scores(self.points, breakdown,
                                  {"trials": len(self.history), "majority_right": right})

    def public_view(self) -> dict[str, Any]:
        """What every seat sees: the trial, the open votes, the arguments and the past trials."""
        out: dict[str, Any] = {
            "game": self.info.name, "players": self.players,
            "phase": "over" if self.over else self.phase, "trial": self.trial,
            "trials_total": self.trials_total, "accused": self.accused,
            "statement": self.statement, "first_vote": None if self.first_votes is None else
            votes_by_seat(self.first_votes, self.players),
            "vote": None if self.vote is None else self.vote.public(),
            "debate": None if self.debate is None else self.debate.public(),
            "arguments": [dict(a) for a in self.arguments], "points": list(self.points),
            "history": [self._public_record(h) for h in self.history],
            "agrees_to_end": list(self.agrees_to_end),
            "max_grabbers": max_grabbers(self.players),
            "pending": [p.as_dict() for p in self.pending().values()],
        }
        if self.over:
            out["result"] = self.result().as_dict()
        return out

    def private_view(self, seat: Seat) -> dict[str, Any] | None:
        """``seat``'s role, the accused's grabbers and truth, and its sealed vote (nothing once
        the game is over: the result shows all)."""
        if self.over:
            return None
        designated = self.phase != DESIGNATE_PHASE
        you: dict[str, Any] = {
            "role": (GRABBER if seat in self.grabbers else REVOLUTIONARY) if designated
            else (GRABBER if seat == self.accused else None)}
        if seat == self.accused:
            you["grabbers"] = sorted(self.grabbers) if designated else None
            you["truth"] = self.truth
        if self.vote is not None and self.vote.submitted(seat) is not None:
            you["vote"] = self.vote.submitted(seat)["guess"]  # type: ignore[index]
        return you

    # -- search and replay -------------------------------------------------------------------
    def determinize(self, seat: Seat, rng: random.Random) -> Self:
        """Resample the grabbers ``seat`` does not know, the truth unless ``seat`` is the accused,
        and the sealed votes of others."""
        other = self.reseeded_clone(rng.getrandbits(64), self.log_for(seat))
        if self.over or seat == self.accused:
            return other
        if self.phase != DESIGNATE_PHASE:
            unknown = [s for s in range(self.players) if s not in (seat, self.accused)]
            room = max_grabbers(self.players) - 1 - (seat in self.grabbers)
            chosen = rng.sample(unknown, rng.randint(0, min(room, len(unknown))))
            other.grabbers = frozenset({self.accused, *chosen, *([seat] if seat in self.grabbers
                                                                 else [])})
        if self.truth is not None:
            other.truth = choice(rng, (True, False))
        if other.vote is not None:
            for s, _ in list(other.vote.in_seat_order()):
                if s != seat:
                    other.vote.replace(s, {"type": "vote", "guess": choice(rng, (True, False))})
        return other
