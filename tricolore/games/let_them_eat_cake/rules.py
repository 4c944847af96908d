"""Let Them Eat Cake: the complete game, as a state machine on the core model.

A round is five elections in the rulebook's order: Head of Committee, Enemy of the Revolution
(a vote only when the fewest Medals are tied), Guillotine Operator, Secretary and Food Inspector,
each followed by the winner's action, then donations and the end-of-round check.

Every election is one or more *votes*. A vote opens with the coup window (players with three
Generals, clockwise from the Head), then the ballot, a simultaneous secret move in which every
player with a vote plays one Voting card, then the Head's tie-break if needed, then the rigging
window (players with a General); an allegation of rigging starts a fresh vote. Windows ask one
seat at a time, clockwise from the Head, and ask only seats that can pay; a seat that cannot pay is
skipped. Medals, Generals and Cake cards change hands at any time through free actions.

Decisions on what the rulebook leaves open are in ``docs/games/let-them-eat-cake.md``.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final, Self

from mypy_extensions import mypyc_attr

from tricolore.core import (
    Action,
    ActionFamily,
    ActionSpace,
    Amount,
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
)
from tricolore.core.actions import NO_ACTIONS, Worded, rebuilt, worded
from tricolore.core.draws import choice, randrange, shuffle
from tricolore.core.errors import listed
from tricolore.core.fields import Copy, Field, Seen, declare, payload, sorted_items
from tricolore.core.model import ALONE, one_prompt, prompts
from tricolore.games.let_them_eat_cake import refusals
from tricolore.games.let_them_eat_cake.data import (
    COLOURS,
    COUP_COST,
    EXECUTION_MEDALS,
    GENERAL,
    MEDALS_IN_CENTRE,
    MEDALS_PER_PLAYER,
    OFFICE_TITLES,
    OFFICES,
    PANTRY,
    PAWNS_PER_PLAYER,
    RIGGING_COST,
    SEIZE_COST,
    STARTER_CAKES,
    STARTER_CAKES_PER_PLAYER,
    STARTER_GENERALS,
    Phase,
    voting_copies,
)
from tricolore.games.let_them_eat_cake.options import LetThemEatCakeOptions

# The phases as module constants, which the compiled build reads directly (``Phase.X`` is a
# lookup on the enum class at each of the many comparisons a decision makes). The state's phase is
# always one of these members, so it is compared by identity: ``==`` on a str enum is a generic
# string comparison.
BALLOT_PHASE: Final = Phase.BALLOT
COUP_PHASE: Final = Phase.COUP
DEAL_PHASE: Final = Phase.DEAL
DONATE_PHASE: Final = Phase.DONATE
ENEMY_PHASE: Final = Phase.ENEMY
GUILLOTINE_PHASE: Final = Phase.GUILLOTINE
HEAD_MEDAL_PHASE: Final = Phase.HEAD_MEDAL
INSPECT_PHASE: Final = Phase.INSPECT
OVER_PHASE: Final = Phase.OVER
RIGGING_PHASE: Final = Phase.RIGGING
SEIZE_PHASE: Final = Phase.SEIZE
START_PHASE: Final = Phase.START
TIE_PHASE: Final = Phase.TIE

WINDOW_COST: Mapping[str, int] = MappingProxyType(
    {"coup": COUP_COST, "rigging": RIGGING_COST, "seize": SEIZE_COST})
"""Generals a seat needs to be asked in each window of the Generals."""
# Read as a compiled dict, where the proxy is generic; keyed by the phases themselves, which the
# lookup then finds by identity.
_WINDOW_COST: Final = {Phase(name): cost for name, cost in WINDOW_COST.items()}


def _window_cost(phase: Phase) -> int:
    """:data:`WINDOW_COST` of the window ``phase``, found by comparing it with the phases (asked
    for every seat each time a window asks who acts: a lookup in a dict costs several times)."""
    if phase is COUP_PHASE:
        return COUP_COST
    if phase is RIGGING_PHASE:
        return RIGGING_COST
    if phase is SEIZE_PHASE:
        return SEIZE_COST
    return _WINDOW_COST[phase]


INFO = GameInfo(
    name="let-them-eat-cake", title="Let Them Eat Cake", rules_version="2", min_players=3,
    max_players=6, options=LetThemEatCakeOptions, simultaneous=True, hidden_information=True,
    chance=True,
    summary="Committee elections with Voting cards and Pawns, Medals, the Guillotine and Generals.")


@dataclass(frozen=True, slots=True, init=False)
class CakeCard:
    """A Cake card in a stash. ``id`` tells cards apart inside the state (never shown);
    ``starter`` marks a starter Cake; ``known`` is the seats that know this card is this one in
    this stash (``None``: everyone, as for a card dealt face up by the Secretary)."""

    id: int
    value: int
    starter: bool
    known: frozenset[Seat] | None

    # Written out, not generated, so that the compiled build makes it natively (see
    # tricolore.core.actions.Worded).
    def __init__(self, id: int, value: int, starter: bool, known: frozenset[Seat] | None) -> None:
        object.__setattr__(self, "id", id)
        object.__setattr__(self, "value", value)
        object.__setattr__(self, "starter", starter)
        object.__setattr__(self, "known", known)

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuilt(self)

    def known_to(self, seat: Seat) -> bool:
        """Whether ``seat`` knows this card's value where it lies."""
        return self.known is None or seat in self.known

    def payload(self) -> list[Any]:
        """Every field, for digests."""
        return [self.id, self.value, self.starter, None if self.known is None else sorted(self.known)]


@mypyc_attr(allow_interpreted_subclasses=True)  # copied and pickled without __init__
class Election:
    """The election of one office: its candidates, its votes so far and the vote in progress."""

    __slots__ = ("office", "candidates", "vote_number", "ballot", "cards", "tally", "tied",
                 "winner", "coup_by", "rigged_by")

    def __init__(self, office: str, candidates: Iterable[Seat]) -> None:
        self.office = office
        self.candidates: tuple[Seat, ...] = tuple(candidates)
        self.vote_number = 0
        self.ballot: SealedSubmissions | None = None
        self.cards: dict[Seat, Seat] = {}
        self.tally: dict[Seat, int] = {}
        self.tied: tuple[Seat, ...] = ()
        self.winner: Seat | None = None
        self.coup_by: Seat | None = None
        self.rigged_by: list[Seat] = []

    def copy(self) -> Election:
        """An independent copy."""
        other = Election(self.office, ())
        other.candidates, other.vote_number = self.candidates, self.vote_number
        other.cards, other.tally, other.tied = self.cards, self.tally, self.tied
        other.winner, other.coup_by = self.winner, self.coup_by
        other.ballot = None if self.ballot is None else self.ballot.copy()
        other.rigged_by = list(self.rigged_by)
        return other

    def public(self, players: int) -> dict[str, Any]:
        """The election as everyone sees it (a sealed ballot shows only who has chosen); the
        revealed cards and the tally are lists indexed by seat, ``None`` where a seat played no
        card or is no candidate."""
        return {"office": self.office, "title": OFFICE_TITLES[self.office],
                "candidates": list(self.candidates), "vote_number": self.vote_number,
                "ballot": None if self.ballot is None else self.ballot.public(),
                "cards": [self.cards.get(s) for s in range(players)],
                "tally": [self.tally.get(s) for s in range(players)], "tied": list(self.tied),
                "winner": self.winner, "coup_by": self.coup_by, "rigged_by": list(self.rigged_by)}

    def payload(self) -> list[Any]:
        """Every field, for digests."""
        return [self.office, list(self.candidates), self.vote_number,
                None if self.ballot is None else self.ballot.payload(), sorted(self.cards.items()),
                sorted(self.tally.items()), list(self.tied), self.winner, self.coup_by,
                self.rigged_by]


# The moves (:meth:`LetThemEatCakeState.legal_moves`): the seven actions without a choice of seat
# or card, then one block of ``MOVE_SEATS`` per kind that names a seat (or a drawn card: the
# Secretary draws one per player), then the deals, ``MOVE_SEATS`` cards by ``MOVE_SEATS`` seats.
# Each stands for the same action in every position. Trading (the free actions) has no moves.
MOVE_SEATS: Final = 6
"""The width of a block: the most seats at a table (``INFO.max_players``), so the most cards."""
PASS_MOVE: Final = 0
ALLEGE_RIGGING_MOVE: Final = 1
EXECUTE_MOVE: Final = 2
MERCY_MOVE: Final = 3
SAFE_MOVE: Final = 4
UNSAFE_MOVE: Final = 5
DONATE_NOBODY_MOVE: Final = 6
"""A donation that takes no Medal (``take_from`` null)."""
VOTE_MOVES: Final = 7
"""A Voting card: ``VOTE_MOVES + candidate``."""
COUP_MOVES: Final = VOTE_MOVES + MOVE_SEATS
"""A coup: ``COUP_MOVES + winner``."""
BREAK_TIE_MOVES: Final = COUP_MOVES + MOVE_SEATS
"""The Head's tie-break: ``BREAK_TIE_MOVES + winner``."""
AWARD_MOVES: Final = BREAK_TIE_MOVES + MOVE_SEATS
"""The Head's Medal from the centre: ``AWARD_MOVES + to``."""
REMOVE_MOVES: Final = AWARD_MOVES + MOVE_SEATS
"""The Head's Medal to the centre: ``REMOVE_MOVES + from``."""
DONATE_MOVES: Final = REMOVE_MOVES + MOVE_SEATS
"""A donation taking a Medal: ``DONATE_MOVES + take_from``."""
SEIZE_MOVES: Final = DONATE_MOVES + MOVE_SEATS
"""A seizure: ``SEIZE_MOVES + card``."""
DEAL_MOVES: Final = SEIZE_MOVES + MOVE_SEATS
"""A deal: ``DEAL_MOVES + MOVE_SEATS * card + to``."""
MOVE_COUNT: Final = DEAL_MOVES + MOVE_SEATS * MOVE_SEATS
"""Every move is below this."""


def _move_action(move: int) -> dict[str, Any]:
    """The action of ``move`` (see the moves above)."""
    simple = ("pass", "allege_rigging", "execute", "mercy")
    if 0 <= move < len(simple):
        return {"type": simple[move]}
    if move in (SAFE_MOVE, UNSAFE_MOVE):
        return {"type": "inspect", "safe": move == SAFE_MOVE}
    if move == DONATE_NOBODY_MOVE:
        return {"type": "donate", "take_from": None}
    if VOTE_MOVES <= move < DEAL_MOVES:
        block, index = divmod(move - VOTE_MOVES, MOVE_SEATS)
        kind, name = (("vote", "candidate"), ("coup", "winner"), ("break_tie", "winner"),
                      ("award_medal", "to"), ("remove_medal", "from"), ("donate", "take_from"),
                      ("seize", "card"))[block]
        return {"type": kind, name: index}
    if DEAL_MOVES <= move < MOVE_COUNT:
        card, to = divmod(move - DEAL_MOVES, MOVE_SEATS)
        return {"type": "deal", "card": card, "to": to}
    raise ValueError(f"no such move: {move!r}")


_MOVE_ACTIONS: Final[dict[int, dict[str, Any]]] = {m: _move_action(m) for m in range(MOVE_COUNT)}
"""Each move's action, made once and shared by every position (a vote is kept as the sealed
ballot; no rule changes an action it keeps)."""


def _block(base: int, mask: int) -> list[int]:
    """``base + i`` for every bit ``1 << i`` of ``mask``, in order."""
    return [base + i for i in range(MOVE_SEATS) if mask >> i & 1]


_CLOCKWISE: Final = [[tuple((first + i) % players for i in range(players)) for first in range(players)]
                     for players in range(MOVE_SEATS + 1)]
"""Every seat clockwise from the first, by table size and first seat: the order of each window,
shared by the windows that open with the same Head."""
_ALL_SEATS: Final = (1 << MOVE_SEATS) - 1
_MASKS: Final = range(_ALL_SEATS + 1)
_NO_MOVES: Final[list[int]] = []
_PASS: Final = [PASS_MOVE]
_RIGGING: Final = [ALLEGE_RIGGING_MOVE, PASS_MOVE]
_GUILLOTINE: Final = [EXECUTE_MOVE, MERCY_MOVE]
_INSPECT: Final = [SAFE_MOVE, UNSAFE_MOVE]
_VOTES: Final = [_block(VOTE_MOVES, mask) for mask in _MASKS]
"""The votes of a hand, by the bits of the candidates on its cards."""
_COUPS: Final = [[*_block(COUP_MOVES, mask), PASS_MOVE] for mask in _MASKS]
"""A coup window's moves, by the bits of the election's candidates."""
_TIES: Final = [_block(BREAK_TIE_MOVES, mask) for mask in _MASKS]
"""A tie-break, by the bits of the tied candidates."""
_SEIZES: Final = [[*_block(SEIZE_MOVES, mask), PASS_MOVE] for mask in _MASKS]
"""A seize window's moves, by the bits of the cards still on the table."""
_DONATES: Final = [[*_block(DONATE_MOVES, mask), DONATE_NOBODY_MOVE, PASS_MOVE] for mask in _MASKS]
"""A donor's moves, by the bits of the other players holding a Medal."""
_HEAD_MEDALS: Final[dict[int, list[int]]] = {}
"""The Head's Medal moves, by ``awardable << MOVE_SEATS | removable`` (bits of seats)."""
_DEALS: Final[dict[int, list[int]]] = {}
"""The Secretary's deals, by ``cards << MOVE_SEATS | seats`` (bits of the cards still on the
table and of the players still without one)."""


def _head_medals(key: int) -> list[int]:
    found = _HEAD_MEDALS.get(key)
    if found is None:
        found = _HEAD_MEDALS[key] = (_block(AWARD_MOVES, key >> MOVE_SEATS)
                                     + _block(REMOVE_MOVES, key & _ALL_SEATS))
    return found


def _deals(key: int) -> list[int]:
    found = _DEALS.get(key)
    if found is None:
        seats = key & _ALL_SEATS
        found = _DEALS[key] = [DEAL_MOVES + MOVE_SEATS * card + to
                               for card in range(MOVE_SEATS) if key >> (MOVE_SEATS + card) & 1
                               for to in range(MOVE_SEATS) if seats >> to & 1]
    return found


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
class LetThemEatCakeState(State):
    """A game of Let Them Eat Cake. See the module docstring for the shape of a round."""

    info = INFO
    FIELDS = declare(
        options=Field(digest=False),
        phase=Field(),
        round=Field(),
        head=Field(),
        pawns=Field(copy=Copy.SHALLOW),
        guillotine=Field(),
        medals=Field(copy=Copy.SHALLOW),
        centre=Field(),
        pantry_generals=Field(copy=Copy.SHALLOW),
        starter_generals=Field(copy=Copy.SHALLOW),
        starter_pile=Field(),
        hands=Field(copy=Copy.NESTED),
        used=Field(copy=Copy.NESTED),
        deck=Field(copy=Copy.SHALLOW, seen=Seen.NOBODY),
        deck_unseen=Field(),
        stashes=Field(copy=Copy.NESTED, seen=Seen.OWNER,
                      digest=lambda stashes: [[c.payload() for c in st] for st in stashes]),
        removed_starters=Field(copy=Copy.SHALLOW, seen=Seen.NOBODY),
        next_card_id=Field(),
        unity_rule_pending=Field(),
        offices=Field(copy=Copy.SHALLOW, digest=sorted_items),
        enemy=Field(),
        election=Field(copy=Copy.OWN, digest=payload, seen=Seen.OWNER),
        window=Field(copy=Copy.OWN, digest=payload),
        draw=Field(copy=Copy.SHALLOW),
        placed=Field(copy=Copy.SHALLOW, digest=sorted_items),
        batch_safe=Field(),
        seized=Field(copy=Copy.SHALLOW, digest=sorted_items),
        received=Field(copy=Copy.SHALLOW, digest=sorted_items),
        donors=Field(copy=Copy.SHALLOW, digest=sorted),
        last_ballot=Field(copy=Copy.SHALLOW, digest=lambda ballot: _digested_ballot(ballot)),
        gifts=Field(),
        end_reason=Field(),
        dead=Field(),
        stats=Field(copy=Copy.SHALLOW),
    )
    """The state's fields. ``view`` and ``determinize`` are written out: they say which Cake
    cards, Pantry cards and sealed votes each seat knows."""

    def __init__(self, players: int, seed: int, options: LetThemEatCakeOptions) -> None:
        self._init_base(players, seed)
        self.options = options
        everyone = range(players)
        self.pawns = [PAWNS_PER_PLAYER] * players
        self.guillotine: Seat | None = None
        self.medals = [MEDALS_PER_PLAYER] * players
        self.centre = MEDALS_IN_CENTRE
        self.pantry_generals = [0] * players
        self.starter_generals = [0] * players
        self.starter_pile = STARTER_GENERALS
        copies = voting_copies(players)
        self.hands = [sorted(t for t in everyone if t != s for _ in range(copies)) for s in everyone]
        self.used: list[list[Seat]] = [[] for _ in everyone]
        deck = list(PANTRY)
        shuffle(self.rng, deck)
        self.deck = deck
        self.deck_unseen = len(deck)
        starters = list(STARTER_CAKES)
        shuffle(self.rng, starters)
        self.next_card_id = 0
        self.stashes: list[list[CakeCard]] = []
        for s in everyone:
            dealt = starters[STARTER_CAKES_PER_PLAYER * s:STARTER_CAKES_PER_PLAYER * (s + 1)]
            self.stashes.append([self._card(v, True, frozenset({s})) for v in dealt])
        self.removed_starters = starters[STARTER_CAKES_PER_PLAYER * players:]
        self.head = (options.first_head if options.first_head is not None
                     else randrange(self.rng, players))
        self.round = 0
        self.unity_rule_pending = True
        self.offices: dict[str, Seat] = {}
        self.enemy: Seat | None = None
        self.election: Election | None = None
        self.window: ResponseWindow | None = None
        self.phase = START_PHASE
        self.draw: list[int] = []
        """The Secretary's cards this round; they stay on view until the round ends."""
        self.placed: dict[int, Seat] = {}
        self.batch_safe: bool | None = None
        """The Food Inspector's verdict on this round's batch; ``None`` until it is given."""
        self.seized: dict[Seat, int] = {}
        self.received: dict[Seat, int] = {}
        self.donors: set[Seat] = set()
        self.last_ballot: dict[str, Any] | None = None
        # giver → receiver → (Medals, Generals, Cake cards) given; immutable, so clones share it
        self.gifts = tuple(tuple((0, 0, 0) for _ in everyone) for _ in everyone)
        self.end_reason: str | None = None
        self.dead: Seat | None = None
        self.stats = {"executions": 0, "mercies": 0, "riggings": 0, "coups": 0, "seizures": 0,
                      "donations": 0, "unsafe_batches": 0, "safe_batches": 0, "votes": 0}
        if self.record_events:
            self.emit("game_started", head=self.head, colours=list(COLOURS[:players]))
        for s in everyone:
            if self.record_events:
                self.emit("starter_cakes", to=[s], seat=s, cakes=[c.value for c in self.stashes[s]])
        self._start_round()

    def _card(self, value: int, starter: bool, known: frozenset[Seat] | None) -> CakeCard:
        card = CakeCard(self.next_card_id, value, starter, known)
        self.next_card_id += 1
        return card

    # -- public facts ------------------------------------------------------------------------
    def generals(self, seat: Seat) -> int:
        """Generals beside ``seat``'s Pawns, of either pile."""
        return self.pantry_generals[seat] + self.starter_generals[seat]

    def weight(self, seat: Seat) -> int:
        """``seat``'s vote: its Pawns, less one on the Guillotine."""
        pawns = self.pawns[seat]
        guillotine = self.guillotine
        if guillotine is not None and guillotine == seat:  # compared natively once narrowed
            return pawns - 1
        return pawns

    def cakes(self, seat: Seat) -> int:
        """The cakes in ``seat``'s stash (a secret of that seat until the end)."""
        return sum(c.value for c in self.stashes[seat])

    def unplaced_cards(self) -> tuple[int, ...]:
        """The cards of this round's draw not yet in front of a player."""
        placed = self.placed
        return tuple([i for i in range(len(self.draw)) if i not in placed])  # a list: no generator made

    def players_without_card(self) -> tuple[Seat, ...]:
        """The players the Secretary has not yet given a card this round."""
        given = [False] * self.players
        for to in self.placed.values():
            given[to] = True
        return tuple([s for s in range(self.players) if not given[s]])

    def clockwise_from_head(self) -> list[Seat]:
        """Every seat, starting with the Head of Committee."""
        return list(_CLOCKWISE[self.players][self.head])

    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.phase is OVER_PHASE

    # -- prompts -----------------------------------------------------------------------------
    def window_seat(self) -> Seat | None:
        """The seat the open window asks now: the first, clockwise from the Head, that has not
        passed and can act (can pay, or for donations still holds this round's Cake card)."""
        window = self.window
        if window is None:
            return None
        # As waiting() lists them, without making the tuple; whether a seat can act is the cheaper
        # test, and rules out most seats.
        for seat in window.order:
            if self._can_act_in_window(seat) and window.waits_for(seat):
                return seat
        return None

    def _can_act_in_window(self, seat: Seat) -> bool:
        if self.phase is DONATE_PHASE:  # asked even if the card was traded away since: that is secret
            return seat not in self.donors and seat in self.received
        if self.phase is SEIZE_PHASE and seat in self.seized:
            return False
        return self.generals(seat) >= _window_cost(self.phase)

    def _received_card(self, seat: Seat) -> CakeCard | None:
        card_id = self.received.get(seat)
        if card_id is None:
            return None
        for c in self.stashes[seat]:  # a loop: a generator is an object made for each call
            if c.id == card_id:
                return c
        return None

    def _pending(self) -> Mapping[Seat, Prompt]:
        """Who must act now."""
        if self.phase is OVER_PHASE:
            return {}
        if self.phase is BALLOT_PHASE:
            assert self.election is not None and self.election.ballot is not None
            return prompts(self.election.ballot.waiting(), ("vote",), secret=True)
        if self.window is not None:
            seat = self.window_seat()
            assert seat is not None
            kind = {"coup": "coup", "rigging": "allege_rigging", "seize": "seize",
                    "donate": "donate"}[self.phase]
            return one_prompt(seat, (kind, "pass"), window=self.phase)
        seat = self._decider()
        return one_prompt(seat, self.legal_actions(seat).kinds)

    def _decider(self) -> Seat:
        phase = self.phase
        if phase is TIE_PHASE or phase is HEAD_MEDAL_PHASE:
            return self.head
        if phase is GUILLOTINE_PHASE:
            return self.offices["operator"]
        if phase is DEAL_PHASE:
            return self.offices["secretary"]
        if phase is INSPECT_PHASE:
            return self.offices["inspector"]
        raise KeyError(phase)

    def _asked(self, seat: Seat) -> bool:
        if self.phase is OVER_PHASE:
            return False
        if self.phase is BALLOT_PHASE:
            assert self.election is not None and self.election.ballot is not None
            return self.election.ballot.waits_for(seat)
        if self.window is not None:
            return seat == self.window_seat()
        return seat == self._decider()

    def _legal_actions(self, seat: Seat) -> ActionSpace:
        """The actions ``seat`` may take for its prompt."""
        if not self._asked(seat):
            return NO_ACTIONS
        election = self.election
        if self.phase is BALLOT_PHASE:
            assert election is not None
            return _ballot_space(self.hands[seat], bool(self.used[seat]), election.office)
        phase = self.phase
        if phase is RIGGING_PHASE:
            return RIGGING_SPACE
        if phase is GUILLOTINE_PHASE:
            return GUILLOTINE_SPACE
        if phase is INSPECT_PHASE:
            return INSPECT_SPACE
        if phase is DEAL_PHASE:  # rarely the same twice: the cards on the table differ
            return self._deal_space()
        if self.players > MOVE_SEATS or phase is SEIZE_PHASE:  # keys number at most six seats
            return self._made_space(seat)
        if phase is COUP_PHASE:
            assert election is not None
            key = (_seat_code(election.candidates) << 3 | _OFFICE_CODES[election.office]) << 3 | _COUP_SPACE
        elif phase is DONATE_PHASE:
            key = ((self._other_medal_holders(seat) << 1 | (self._received_card(seat) is not None)) << 3
                   | _DONATE_SPACE)
        elif phase is TIE_PHASE:
            assert election is not None
            key = (_seat_code(election.tied) << 3 | _OFFICE_CODES[election.office]) << 3 | _TIE_SPACE
        elif phase is HEAD_MEDAL_PHASE:
            key = ((((self._other_medal_holders(seat) << 3 | seat) << 3 | self.players) << 1
                    | (self.centre > 0)) << 3 | _HEAD_MEDAL_SPACE)
        else:
            return NO_ACTIONS
        found = _SHARED_SPACES.get(key)
        if found is None:
            if len(_SHARED_SPACES) > 8192:  # positions repeat; anything else is a test's
                _SHARED_SPACES.clear()
            found = _SHARED_SPACES[key] = self._made_space(seat)
        return found

    def _deal_space(self) -> ActionSpace:
        """The Secretary's deal: a drawn card still on the table to a player still without one.
        The players' choice is one of few, made once for each set of players."""
        without = self._seats_without_card()
        players = _DEAL_TO.get(without)
        if players is None:
            if len(_DEAL_TO) > 4096:  # at most 64 sets of six seats; anything else is a test's
                _DEAL_TO.clear()
            seats = self.players_without_card()
            players = _DEAL_TO[without] = _seats(seats, worded(_still_without_rule, seats))
        return ActionSpace((ActionFamily(
            "deal", {"card": self._cards_on_the_table(_DEAL_RULE), "to": players},
            help="Place one of the drawn cards in front of a player"),))

    def _made_space(self, seat: Seat) -> ActionSpace:
        """The actions of ``seat``'s prompt in a phase after the ballot, made anew. They depend on
        the few facts :meth:`_legal_actions` keys them by, so one is shared by every position
        (and every game) where those are the same: an action space is read-only."""
        election = self.election
        if self.phase is COUP_PHASE:
            assert election is not None
            return ActionSpace((
                ActionFamily("coup", {"winner": _seats(election.candidates, worded(
                    _candidates_rule, election.office, election.candidates))},
                             help=f"Spend {COUP_COST} Generals and a Medal: name the "
                                  f"{OFFICE_TITLES[election.office]} without a vote"),
                ActionFamily("pass", help="Let the vote happen")))
        if self.phase is SEIZE_PHASE:
            return ActionSpace((
                ActionFamily("seize", {"card": self._cards_on_the_table(
                    "you may seize only a card nobody has seized yet")},
                             help=f"Spend {SEIZE_COST} Generals and a Medal: take one of the "
                                  "drawn cards as yours this round"),
                ActionFamily("pass", help="Leave the cards to the Secretary")))
        if self.phase is DONATE_PHASE:
            others = tuple(s for s in range(self.players) if s != seat and self.medals[s])
            labels = (*(COLOURS[s] for s in others), "nobody")
            rule = worded(_medal_takers_rule, others)
            keep = ActionFamily("pass", help="Keep the cake")
            if self._received_card(seat) is None:
                return ActionSpace((keep,))
            # With no Medal to take, the field may be left out (or sent as null).
            return ActionSpace((
                ActionFamily("donate", {"take_from": Choice((*others, None), labels, rule)},
                             optional=frozenset() if others else frozenset({"take_from"}),
                             help="\"Let them eat cake!\": this round's Cake card to the Pantry, "
                                  "a Medal from another player"),
                keep))
        if self.phase is TIE_PHASE:
            assert election is not None
            return ActionSpace((ActionFamily(
                "break_tie", {"winner": _seats(election.tied, worded(
                    _colours_after, "the Head of Committee chooses among the tied candidates only: ",
                    election.tied))},
                help=f"As Head of Committee, choose the {OFFICE_TITLES[election.office]}"),))
        if self.phase is HEAD_MEDAL_PHASE:
            families = []
            rest = tuple(s for s in range(self.players) if s != seat)
            if self.centre:
                families.append(ActionFamily(
                    "award_medal", {"to": _seats(rest, worded(
                        _colours_after, "the Head of Committee awards the Medal to another player: ",
                        rest))},
                    help="Give a Medal from the centre to a player"))
            holders = tuple(s for s in rest if self.medals[s])
            if holders:
                families.append(ActionFamily(
                    "remove_medal", {"from": _seats(holders, worded(
                        _colours_after, "the Head of Committee removes a Medal from another player "
                                        "who has one: ", holders))},
                    help="Take a Medal from a player to the centre"))
            return ActionSpace(tuple(families))
        return NO_ACTIONS

    def _free_actions(self, seat: Seat) -> ActionSpace:
        """Trading at any time: Medals, Generals and whole Cake cards change hands."""
        if self.phase is OVER_PHASE:
            return ActionSpace(())
        rest = tuple(s for s in range(self.players) if s != seat)
        others = _seats(rest, "a gift goes to another player: " + _colours(rest))
        families = []
        if self.medals[seat]:
            families.append(ActionFamily(
                "give_medals", {"to": others, "medals": Amount(
                    1, self.medals[seat], 1, f"you have {refusals.count(self.medals[seat], 'Medal')}")},
                help="Give Medals of Honour to another player"))
        if self.generals(seat):
            families.append(ActionFamily(
                "give_generals", {"to": others, "generals": Amount(
                    1, self.generals(seat), 1, f"you have {refusals.count(self.generals(seat), 'General')}")},
                help="Give Generals to another player"))
        if self.stashes[seat]:
            size = len(self.stashes[seat])
            where = ("your stash has one Cake card, at position 0" if size == 1 else
                     f"name Cake cards by their position in your stash, 0 to {size - 1}")
            families.append(ActionFamily(
                "give_cakes", {"to": others, "cards": Subset(tuple(range(size)), size, 1, where)},
                help="Give whole Cake cards from your stash (by position) to another player"))
        return ActionSpace(tuple(families))

    def _hand_rule(self, seat: Seat, cards: Iterable[Seat]) -> str:
        """Why a Voting card is not in ``seat``'s hand: none in its own colour, played ones not
        back yet."""
        return _hand_refusal(tuple(cards), bool(self.used[seat]))


    def _cards_on_the_table(self, rule: str) -> Choice:
        """The drawn cards not yet in front of a player, by index, named by what they are."""
        free = self.unplaced_cards()
        draw = self.draw
        names = tuple([_card_name(draw[i]) for i in free])
        return Choice(free, names, worded(_cards_listed, rule, free, names))

    # -- moves -------------------------------------------------------------------------------
    def acting(self) -> tuple[Seat, ...]:
        """The seats asked now, in seat order."""
        phase = self.phase
        if phase is OVER_PHASE:
            return ()
        if phase is BALLOT_PHASE:
            assert self.election is not None and self.election.ballot is not None
            return self.election.ballot.waiting()
        if self.window is not None:
            seat = self.window_seat()
            assert seat is not None
            return ALONE[seat]
        return ALONE[self._decider()]  # made once: asked at every decision

    def legal_moves(self, seat: Seat) -> list[int]:
        """The prompt's actions as moves (see the moves above); every one of them is a move."""
        phase = self.phase
        if phase is OVER_PHASE:
            return _NO_MOVES
        election = self.election
        if phase is BALLOT_PHASE:
            assert election is not None and election.ballot is not None
            if not election.ballot.waits_for(seat):
                return _NO_MOVES
            mask = 0
            for card in self.hands[seat]:
                mask |= 1 << card
            return _VOTES[mask]
        if self.window is not None:
            if seat != self.window_seat():
                return _NO_MOVES
            if phase is RIGGING_PHASE:
                return _RIGGING
            if phase is COUP_PHASE:
                assert election is not None
                mask = 0
                for candidate in election.candidates:
                    mask |= 1 << candidate
                return _COUPS[mask]
            if phase is SEIZE_PHASE:
                return _SEIZES[self._cards_left()]
            if not self._holds_received(seat):  # donations
                return _PASS
            return _DONATES[self._other_medal_holders(seat)]
        if seat != self._decider():
            return _NO_MOVES
        if phase is GUILLOTINE_PHASE:
            return _GUILLOTINE
        if phase is INSPECT_PHASE:
            return _INSPECT
        if phase is TIE_PHASE:
            assert election is not None
            mask = 0
            for winner in election.tied:
                mask |= 1 << winner
            return _TIES[mask]
        if phase is HEAD_MEDAL_PHASE:
            awards = ((1 << self.players) - 1) & ~(1 << seat) if self.centre else 0
            return _head_medals(awards << MOVE_SEATS | self._other_medal_holders(seat))
        if phase is DEAL_PHASE:
            return _deals(self._cards_left() << MOVE_SEATS | self._seats_without_card())
        return _NO_MOVES

    def move_action(self, move: int) -> dict[str, Any]:
        """The action of ``move``, made once and shared."""
        found = _MOVE_ACTIONS.get(move)
        if found is None:
            raise ValueError(f"no such move: {move!r}")
        return found

    def _other_medal_holders(self, seat: Seat) -> int:
        """The bits of the players other than ``seat`` who hold a Medal."""
        mask = 0
        medals = self.medals
        for other in range(self.players):
            if other != seat and medals[other]:
                mask |= 1 << other
        return mask

    def _seats_without_card(self) -> int:
        """The bits of the players the Secretary has not yet given a card this round."""
        mask = (1 << self.players) - 1
        for to in self.placed.values():
            mask &= ~(1 << to)
        return mask

    def _cards_left(self) -> int:
        """The bits of the drawn cards not yet in front of a player."""
        mask = (1 << len(self.draw)) - 1
        for card in self.placed:
            mask &= ~(1 << card)
        return mask

    def _holds_received(self, seat: Seat) -> bool:
        """Whether this round's Cake card of ``seat`` is still in its stash."""
        card_id = self.received.get(seat)
        if card_id is None:
            return False
        for card in self.stashes[seat]:  # a loop: a generator costs more than the few cards
            if card.id == card_id:
                break
        else:
            return False
        return True

    # -- refusals ----------------------------------------------------------------------------
    def refusal(self, seat: Seat, action: Action, refused: IllegalAction) -> IllegalAction | None:
        """A kind of action this seat may not take now is refused with the rule that refuses it
        (who decides, what it costs, when it comes), and "not your turn" is said only where
        waiting would help (:mod:`.refusals`)."""
        kind = action["type"]
        if kind in self.legal_actions(seat).kinds or kind in self.free_actions(seat).kinds:
            return None
        return refusals.refusal(self, seat, kind)

    # -- the round ---------------------------------------------------------------------------
    def _start_round(self) -> None:
        self.round += 1
        self.offices = {}
        self.enemy = None
        self.draw, self.placed, self.seized, self.received = [], {}, {}, {}
        self.batch_safe = None
        self.donors = set()
        if self.record_events:
            self.emit("round_started", round=self.round, head=self.head)
        self._elect("head", range(self.players))

    def _elect(self, office: str, candidates: Iterable[Seat]) -> None:
        self.election = Election(office, candidates)
        if self.record_events:
            self.emit("election_opened", office=office, candidates=list(self.election.candidates))
        self._open_vote()

    def _open_vote(self) -> None:
        """Before any vote: the coup window."""
        assert self.election is not None
        self.election.vote_number += 1
        self.election.cards, self.election.tally, self.election.tied = {}, {}, ()
        self._open_window(COUP_PHASE)

    def _open_window(self, name: Phase) -> None:
        self.phase = name
        order = _CLOCKWISE[self.players][self.head]
        # A window nobody can act in would close at once: it is not made (most are like this).
        for seat in order:
            if self._can_act_in_window(seat):
                self.window = ResponseWindow(name, order)
                break
        else:
            self._close_window()
        self._settle()

    def _settle(self) -> None:
        """Close windows nobody can act in and skip decisions nobody can make."""
        while self.phase is not OVER_PHASE:
            if self.window is not None and self.window_seat() is None:
                self._close_window()
            elif self.phase is HEAD_MEDAL_PHASE and not self._head_can_move():
                self._after_head_medal()
            elif self.phase is DEAL_PHASE and len(self.placed) >= len(self.draw) - 1:
                self._deal_last()
            else:
                return

    def _head_can_move(self) -> bool:
        return bool(self.centre) or any(self.medals[s] for s in range(self.players) if s != self.head)

    def _close_window(self) -> None:
        name = self.phase
        self.window = None
        if name is COUP_PHASE:
            self._open_ballot()
        elif name is RIGGING_PHASE:
            self._vote_stands()
        elif name is SEIZE_PHASE:
            self.phase = DEAL_PHASE
        elif name is DONATE_PHASE:
            self._end_round()

    def _open_ballot(self) -> None:
        assert self.election is not None
        voters = [s for s in range(self.players) if self.weight(s) > 0]
        self.election.ballot = SealedSubmissions(self.election.office, voters, revisable=False)
        self.phase = BALLOT_PHASE

    # -- the Generals ------------------------------------------------------------------------
    def _spend_generals(self, seat: Seat, count: int, use: str) -> None:
        """Spend ``count`` Generals, Pantry ones first, and a Medal; spent Generals go to the
        bottom of their own pile."""
        from_pantry, from_starter = self._take_generals(seat, count)
        self.deck.extend([GENERAL] * from_pantry)
        self.starter_pile += from_starter
        medal = self._lose_medal(seat)
        if self.record_events:
            self.emit("generals_spent", seat=seat, use=use, generals=count, medal=medal)

    def _take_generals(self, seat: Seat, count: int) -> tuple[int, int]:
        """Take ``count`` Generals from ``seat``, Pantry ones first; returns (Pantry, starter)."""
        from_pantry = min(count, self.pantry_generals[seat])
        self.pantry_generals[seat] -= from_pantry
        self.starter_generals[seat] -= count - from_pantry
        return from_pantry, count - from_pantry

    def _lose_medal(self, seat: Seat) -> bool:
        if not self.medals[seat]:
            return False
        self.medals[seat] -= 1
        self.centre += 1
        return True

    def _gain_medals(self, seat: Seat, count: int) -> int:
        gained = min(count, self.centre)
        self.medals[seat] += gained
        self.centre -= gained
        return gained

    def do_coup(self, seat: Seat, action: Mapping[str, Any]) -> None:
        """Spend 3 Generals immediately before a vote and name the winner; nobody votes."""
        assert self.election is not None
        self._spend_generals(seat, COUP_COST, "coup")
        self.stats["coups"] += 1
        self.window = None
        self.election.coup_by = seat
        if self.record_events:
            self.emit("coup", seat=seat, office=self.election.office, winner=action["winner"])
        self._elected(action["winner"], by_vote=False)

    def do_allege_rigging(self, seat: Seat, action: Mapping[str, Any]) -> None:
        """Spend 1 General at the end of a vote: its result is ignored and a new vote is held
        with fresh cards (the cards played stay played)."""
        assert self.election is not None
        self._spend_generals(seat, RIGGING_COST, "rigging")
        self.stats["riggings"] += 1
        self.window = None
        self.election.rigged_by.append(seat)
        self.election.winner = None
        if self.record_events:
            self.emit("vote_rigging_alleged", seat=seat, office=self.election.office)
        self._open_vote()
        self._settle()

    def do_seize(self, seat: Seat, action: Mapping[str, Any]) -> None:
        """Spend 2 Generals after the Secretary's draw and take one of the cards as yours."""
        assert self.window is not None
        self._spend_generals(seat, SEIZE_COST, "seize")
        self.stats["seizures"] += 1
        self.placed[action["card"]] = seat
        self.seized[seat] = action["card"]
        if self.record_events:
            self.emit("cake_seized", seat=seat, card=action["card"], value=self.draw[action["card"]])
        self.window.acted(seat)
        self._settle()

    def do_pass(self, seat: Seat, action: Mapping[str, Any]) -> None:
        """Let the moment go by."""
        assert self.window is not None
        self.window.passed(seat)
        self._settle()

    # -- votes -------------------------------------------------------------------------------
    def do_vote(self, seat: Seat, action: Mapping[str, Any]) -> None:
        """Play a Voting card face down; when everyone has, the cards are revealed together."""
        election = self.election
        assert election is not None
        ballot = election.ballot
        assert ballot is not None
        if self.record_events:  # the event's keywords make a dict: made only for an event kept
            self.emit("has_chosen", seat=seat, move="vote")
        if not ballot.submit(seat, action):
            return
        # Every voter has chosen: the cards in seat order. The cards and votes are counted in
        # lists by seat (``None``: no card, no candidate), from which the last ballot is made.
        players = self.players
        shown: list[Seat | None] = [None] * players
        counts: list[int | None] = [None] * players
        for candidate in election.candidates:
            counts[candidate] = 0
        cards: dict[Seat, Seat] = {}
        for s in ballot.seats:
            sealed = ballot.submitted(s)
            assert sealed is not None
            card: Seat = sealed["candidate"]  # typed, so the lists below are indexed natively
            cards[s] = card
            shown[s] = card
            self._play_card(s, card)
            count = counts[card]
            if count is not None:  # a card naming someone who is not a candidate counts for nothing
                counts[card] = count + self.weight(s)
        election.ballot = None
        tally: dict[Seat, int] = {}
        top = 0
        for candidate in election.candidates:
            votes = counts[candidate]
            assert votes is not None
            tally[candidate] = votes
            top = max(top, votes)
        election.cards, election.tally = cards, tally
        election.tied = tuple([c for c in election.candidates if counts[c] == top])
        self.stats["votes"] += 1
        if self.record_events:  # a call with ** is an interpreted one: made only for an event kept
            event: dict[str, Any] = {}
            if not self.options.memory_mode:  # in memory mode the cards stay only on the table
                event["cards"] = list(shown)
            if self.record_events:
                self.emit("ballot_revealed", office=election.office, vote_number=election.vote_number,
                          tally=list(counts), **event)
        self.last_ballot = {"round": self.round, "office": election.office,
                            "vote_number": election.vote_number, "cards": shown, "tally": counts}
        if len(election.tied) == 1:
            self._vote_counted(election.tied[0])
        else:
            self.phase = TIE_PHASE

    def _play_card(self, seat: Seat, card: Seat) -> None:
        """A played card goes to the used pile; the pile comes back when the hand is empty."""
        hand = self.hands[seat]
        for i in range(len(hand)):  # found natively: remove() compares every card generically
            if hand[i] == card:
                hand.pop(i)
                break
        else:
            raise ValueError(f"seat {seat} holds no card {card}")
        self.used[seat].append(card)
        if not self.hands[seat]:
            self.hands[seat], self.used[seat] = sorted(self.used[seat]), []
            if self.record_events:
                self.emit("hand_refreshed", seat=seat)

    def do_break_tie(self, seat: Seat, action: Mapping[str, Any]) -> None:
        """The Head of Committee decides a tied vote."""
        assert self.election is not None
        if self.record_events:
            self.emit("tie_broken", head=seat, office=self.election.office, winner=action["winner"])
        self._vote_counted(action["winner"])

    def _vote_counted(self, winner: Seat) -> None:
        assert self.election is not None
        self.election.winner = winner
        if self.record_events:  # the event's keywords make a dict: made only for an event kept
            self.emit("vote_result", office=self.election.office, winner=winner,
                      vote_number=self.election.vote_number)
        self._open_window(RIGGING_PHASE)

    def _vote_stands(self) -> None:
        assert self.election is not None and self.election.winner is not None
        self._elected(self.election.winner, by_vote=True)

    # -- the offices -------------------------------------------------------------------------
    def _elected(self, winner: Seat, by_vote: bool) -> None:
        election = self.election
        assert election is not None
        office = election.office
        if self.record_events:
            self.emit("elected", office=office, seat=winner, by_vote=by_vote)
        if office == "head":
            self._new_head(winner, election, by_vote)
        elif office == "enemy":
            self._to_the_guillotine(winner)
        else:
            self.offices[office] = winner
            if office == "operator":
                self.phase = GUILLOTINE_PHASE
            elif office == "secretary":
                self._secretary_draws()
            else:
                self.phase = INSPECT_PHASE
        self._settle()

    def _new_head(self, head: Seat, election: Election, by_vote: bool) -> None:
        """The new Head takes the token and a Medal, then moves a Medal; in the game's first Head
        vote everyone but the Head who voted for someone else loses a Medal."""
        self.head = head
        self.offices["head"] = head
        if self.unity_rule_pending:
            self.unity_rule_pending = False
            if by_vote:
                dissenters = [s for s, c in election.cards.items() if s != head and c != head]
                lost = [s for s in dissenters if self._lose_medal(s)]
                if self.record_events:
                    self.emit("unity_rule", head=head, lost_medal=lost)
        gained = self._gain_medals(head, 1)
        if self.record_events:
            self.emit("head_medal", head=head, gained=gained)
        self.phase = HEAD_MEDAL_PHASE

    def do_award_medal(self, seat: Seat, action: Mapping[str, Any]) -> None:
        """The Head gives a Medal from the centre to another player."""
        self._gain_medals(action["to"], 1)
        if self.record_events:
            self.emit("medal_awarded", head=seat, seat=action["to"])
        self._after_head_medal()

    def do_remove_medal(self, seat: Seat, action: Mapping[str, Any]) -> None:
        """The Head takes a Medal from another player to the centre."""
        self._lose_medal(action["from"])
        if self.record_events:
            self.emit("medal_removed", head=seat, seat=action["from"])
        self._after_head_medal()

    def _after_head_medal(self) -> None:
        self.phase = ENEMY_PHASE
        generals = [self.generals(s) for s in range(self.players)]
        most = max(generals)
        backed = [s for s in range(self.players) if generals[s] == most]
        immune = backed[0] if len(backed) == 1 else None
        exposed = [s for s in range(self.players) if s != immune]
        fewest = min(self.medals[s] for s in exposed)
        candidates = [s for s in exposed if self.medals[s] == fewest]
        if self.record_events:
            self.emit("enemy_candidates", candidates=candidates, immune=immune, medals=fewest)
        if len(candidates) == 1:
            self._to_the_guillotine(candidates[0])
        else:
            self._elect("enemy", candidates)
        self._settle()

    def _to_the_guillotine(self, enemy: Seat) -> None:
        self.enemy = enemy
        self.offices["enemy"] = enemy
        self.guillotine = enemy
        if self.record_events:
            self.emit("enemy_of_the_revolution", seat=enemy)
        self._elect("operator", range(self.players))

    def do_execute(self, seat: Seat, action: Mapping[str, Any]) -> None:
        """The Pawn dies; its owner regains three Medals and a starter General, if there are any.
        A player who loses their last Pawn is killed and the game ends at once."""
        victim = self.guillotine
        assert victim is not None
        self.guillotine = None
        self.pawns[victim] -= 1
        self.stats["executions"] += 1
        if not self.pawns[victim]:
            self.dead = victim
            if self.record_events:
                self.emit("executed", operator=seat, seat=victim, pawns=0, medals=0, general=False)
            self._game_over("death")
            return
        medals = self._gain_medals(victim, EXECUTION_MEDALS)
        general = self.starter_pile > 0
        if general:
            self.starter_pile -= 1
            self.starter_generals[victim] += 1
        if self.record_events:
            self.emit("executed", operator=seat, seat=victim, pawns=self.pawns[victim], medals=medals,
                      general=general)
        self._elect("secretary", range(self.players))
        self._settle()

    def do_mercy(self, seat: Seat, action: Mapping[str, Any]) -> None:
        """The Pawn goes back to its owner; the Operator loses a Medal."""
        victim = self.guillotine
        self.guillotine = None
        self.stats["mercies"] += 1
        medal = self._lose_medal(seat)
        if self.record_events:
            self.emit("mercy", operator=seat, seat=victim, medal=medal)
        self._elect("secretary", range(self.players))
        self._settle()

    def _secretary_draws(self) -> None:
        if len(self.deck) < self.players:
            self._game_over("pantry")
            return
        self.draw = self.deck[:self.players]
        del self.deck[:self.players]
        self.deck_unseen = max(0, self.deck_unseen - self.players)
        if self.record_events:
            self.emit("pantry_drawn", secretary=self.offices["secretary"],
                      cards=[_card_name(c) for c in self.draw])
        self._open_window(SEIZE_PHASE)

    def do_deal(self, seat: Seat, action: Mapping[str, Any]) -> None:
        """The Secretary places a drawn card in front of a player."""
        self._place(action["card"], action["to"])
        self._settle()

    def _place(self, card: int, to: Seat) -> None:
        self.placed[card] = to
        if self.record_events:
            self.emit("card_dealt", secretary=self.offices["secretary"], card=card,
                      value=self.draw[card], receiver=to)

    def _deal_last(self) -> None:
        free = self.unplaced_cards()
        without = self.players_without_card()
        if free:
            self._place(free[0], without[0])
        self._elect("inspector", range(self.players))

    def do_inspect(self, seat: Seat, action: Mapping[str, Any]) -> None:
        """Safe: everyone keeps their card. Unsafe: Cake cards to the bottom of the Pantry,
        Generals kept, the Inspector loses a Medal. After a safe batch, donations."""
        safe = action["safe"]
        for card, to in sorted(self.placed.items()):
            value = self.draw[card]
            if value == GENERAL:
                self.pantry_generals[to] += 1
            elif safe:
                received = self._card(value, False, None)
                self.stashes[to].append(received)
                self.received[to] = received.id
            else:
                self.deck.append(value)
        medal = False if safe else self._lose_medal(seat)
        self.stats["safe_batches" if safe else "unsafe_batches"] += 1
        if self.record_events:
            self.emit("batch_inspected", inspector=seat, safe=safe, medal=medal)
        self.batch_safe = safe  # the cards stay on view, as the table remembers who got what
        if safe:
            self._open_window(DONATE_PHASE)
        else:
            self._end_round()
        self._settle()

    def do_donate(self, seat: Seat, action: Mapping[str, Any]) -> None:
        """"Let them eat cake!": this round's Cake card to the bottom of the Pantry; take a Medal
        from another player."""
        assert self.window is not None
        card = self._received_card(seat)
        assert card is not None
        stash = self.stashes[seat]
        for i in range(len(stash)):  # the card itself, found natively (remove() compares the
            if stash[i] is card:      # dataclasses field by field in interpreted code)
                stash.pop(i)
                break
        self.deck.append(card.value)
        self.donors.add(seat)
        self.stats["donations"] += 1
        taken = action.get("take_from")
        if taken is not None:
            self.medals[taken] -= 1
            self.medals[seat] += 1
        if self.record_events:
            self.emit("let_them_eat_cake", seat=seat, value=card.value, took_medal_from=taken)
        self.window.acted(seat)
        self._settle()

    def _end_round(self) -> None:
        self.window = None
        self.election = None
        richest = max(self.cakes(s) for s in range(self.players))
        if richest >= self.options.winning_cakes:
            self._game_over("cake")
        elif self.options.max_rounds is not None and self.round >= self.options.max_rounds:
            self._game_over("rounds")
        else:
            self._start_round()

    def _game_over(self, reason: str) -> None:
        self.phase = OVER_PHASE
        self.window = None
        self.end_reason = reason
        if self.record_events:  # the result is worked out for the event only when it is kept
            self.emit("game_over", reason=reason, dead=self.dead,
                      stashes=[[c.value for c in st] for st in self.stashes],
                      winners=sorted(self.result().winners))

    # -- trading -----------------------------------------------------------------------------
    def _count_gift(self, giver: Seat, receiver: Seat, kind: int, n: int) -> None:
        """Add ``n`` to what ``giver`` gave ``receiver`` (``kind``: 0 Medals, 1 Generals, 2 Cake
        cards), building new tuples for the changed row."""
        row = list(self.gifts[giver])
        medals, generals, cakes = row[receiver]
        row[receiver] = (medals + n * (kind == 0), generals + n * (kind == 1), cakes + n * (kind == 2))
        gifts = list(self.gifts)
        gifts[giver] = tuple(row)
        self.gifts = tuple(gifts)

    def do_give_medals(self, seat: Seat, action: Mapping[str, Any]) -> None:
        """Medals change hands."""
        self.medals[seat] -= action["medals"]
        self.medals[action["to"]] += action["medals"]
        self._count_gift(seat, action["to"], 0, action["medals"])
        if self.record_events:
            self.emit("medals_given", giver=seat, receiver=action["to"], medals=action["medals"])
        self._settle()

    def do_give_generals(self, seat: Seat, action: Mapping[str, Any]) -> None:
        """Generals change hands, Pantry Generals first."""
        count = action["generals"]
        from_pantry, from_starter = self._take_generals(seat, count)
        self.pantry_generals[action["to"]] += from_pantry
        self.starter_generals[action["to"]] += from_starter
        self._count_gift(seat, action["to"], 1, count)
        if self.record_events:
            self.emit("generals_given", giver=seat, receiver=action["to"], generals=count)
        self._settle()

    def do_give_cakes(self, seat: Seat, action: Mapping[str, Any]) -> None:
        """Whole Cake cards change hands; everyone sees how many, only the two traders see which."""
        receiver = action["to"]
        positions = set(action["cards"])
        traders = frozenset({seat, receiver})
        stash = self.stashes[seat]
        given = [stash[i] for i in sorted(positions)]
        # Onlookers no longer know which of the giver's cards stayed.
        self.stashes[seat] = [_known(c, frozenset({seat}))
                              for i, c in enumerate(stash) if i not in positions]
        self.stashes[receiver].extend(_known(c, traders) for c in given)
        self._count_gift(seat, receiver, 2, len(given))
        if self.record_events:
            self.emit("cakes_given", giver=seat, receiver=receiver, cards=len(given))
            self.emit("cake_values_given", to=traders, giver=seat, receiver=receiver,
                      values=[c.value for c in given])
        self._settle()

    # -- the end -----------------------------------------------------------------------------
    def standing(self, seat: Seat) -> tuple[int, int, int, int]:
        """What ranks a player at the end: alive, then cake, then Pawns, then Generals."""
        return (seat != self.dead, self.cakes(seat), self.pawns[seat], self.generals(seat))

    def result(self) -> Result:
        """The living player with most cake wins; ties go to most Pawns, then most Generals."""
        keys = [self.standing(s) for s in range(self.players)]
        order = [(tuple(-k for k in keys[s]), s) for s in range(self.players)]
        ranking = tuple(sorted(range(self.players), key=order.__getitem__))
        best = keys[ranking[0]]
        winners = frozenset(s for s in range(self.players) if keys[s] == best)
        breakdown = tuple({"alive": s != self.dead, "cakes": self.cakes(s),
                           "cake_cards": [c.value for c in self.stashes[s]],
                           "pawns": self.pawns[s], "generals": self.generals(s),
                           "medals": self.medals[s], "winner": s in winners}
                          for s in range(self.players))
        metrics: dict[str, float] = {"rounds": self.round, **self.stats,
                                     "winning_cakes": self.cakes(ranking[0])}
        for reason in ("cake", "death", "pantry", "rounds"):
            metrics["end_by_" + reason] = float(self.end_reason == reason)
        return Result(tuple(float(self.cakes(s)) for s in range(self.players)), breakdown, ranking,
                      winners, metrics)

    # -- views -------------------------------------------------------------------------------
    def public_view(self) -> dict[str, Any]:
        """What every seat sees: everything but the hands, stashes and sealed votes."""
        over = self.phase is OVER_PHASE
        out: dict[str, Any] = {
            "game": self.info.name, "players": self.players,
            "colours": list(COLOURS[:self.players]), "phase": self.phase, "round": self.round,
            "head": self.head, "offices": dict(self.offices), "guillotine": self.guillotine,
            "pawns": list(self.pawns), "votes": [self.weight(s) for s in range(self.players)],
            "medals": list(self.medals), "centre_medals": self.centre,
            "generals": [{"pantry": self.pantry_generals[s], "starter": self.starter_generals[s]}
                         for s in range(self.players)],
            "starter_generals_pile": self.starter_pile, "pantry": len(self.deck),
            "stash_cards": [len(st) for st in self.stashes],
            "hand_cards": [len(h) for h in self.hands], "used_cards": [len(u) for u in self.used],
            "election": None if self.election is None else self.election.public(self.players),
            "window": None if self.window is None else {**self.window.public(),
                                                         "asking": self.window_seat()},
            "draw": [{"card": i, "value": v, "name": _card_name(v), "to": self.placed.get(i),
                      "seized": i in self.seized.values()} for i, v in enumerate(self.draw)],
            "inspection": None if self.batch_safe is None else
                          "safe" if self.batch_safe else "unsafe",
            "donors": sorted(self.donors),
            "gifts": [{"giver": giver, "receiver": receiver, "medals": m, "generals": g,
                       "cake_cards": c}
                      for giver, row in enumerate(self.gifts)
                      for receiver, (m, g, c) in enumerate(row) if m or g or c],
            "last_ballot": None if self.last_ballot is None else {
                **self.last_ballot, "cards": list(self.last_ballot["cards"]),
                "tally": list(self.last_ballot["tally"])},
            "pending": [p.as_dict() for p in self.pending().values()],
            "options": self.options.as_dict(),
        }
        if over:
            out["end_reason"] = self.end_reason
            out["dead"] = self.dead
            out["reveal"] = {"stashes": [[c.value for c in st] for st in self.stashes],
                             "cakes": [self.cakes(s) for s in range(self.players)]}
            out["result"] = self.result().as_dict()
        return out

    def private_view(self, seat: Seat) -> dict[str, Any]:
        """``seat``'s hand, used cards, stash, cakes, sealed vote and the card it received."""
        ballot = None if self.election is None else self.election.ballot
        sealed = None if ballot is None else ballot.submitted(seat)
        return {"hand": list(self.hands[seat]), "used": sorted(self.used[seat]),
                "stash": [c.value for c in self.stashes[seat]], "cakes": self.cakes(seat),
                "sealed_vote": None if sealed is None else sealed["candidate"],
                "received": self._received_view(seat)}

    def _received_view(self, seat: Seat) -> dict[str, Any] | None:
        """The card ``seat`` received this round (from the Secretary, or seized), while the round
        lasts: ``in_stash`` is true while this round's Cake card is in its stash (after a safe
        batch, not given away nor donated), which is when it may be donated."""
        card = next((i for i, s in self.placed.items() if s == seat), None)
        if card is None:
            return None
        value = self.draw[card]
        return {"card": card, "value": value, "name": _card_name(value),
                "in_stash": self._received_card(seat) is not None}

    # -- search and replay -------------------------------------------------------------------
    def determinize(self, seat: Seat, rng: random.Random) -> Self:
        """Resample what ``seat`` does not know: the order of the unseen top of the Pantry, the
        values of Cake cards in other stashes it has not seen (each keeps its origin, starter or
        Pantry), the starters removed unseen, and the sealed votes of others."""
        other = self.reseeded_clone(rng.getrandbits(64), self.log_for(seat))
        if self.phase is OVER_PHASE:
            return other
        # The unseen Pantry and the values of the hidden Pantry cards in stashes are one pool; the
        # hidden starters and the starters removed unseen another.
        general = GENERAL  # a local: read from an interpreted module, the name is a lookup per card
        pantry = self.deck[:self.deck_unseen]
        cakes = [v for v in pantry if v != general]
        generals = len(pantry) - len(cakes)
        starter_pool = list(self.removed_starters)
        hidden: list[tuple[Seat, int, CakeCard]] = []
        for s in range(self.players):
            if s != seat:
                for i, card in enumerate(self.stashes[s]):
                    if not card.known_to(seat):
                        hidden.append((s, i, card))
                        if card.starter:
                            starter_pool.append(card.value)
                        elif card.value != general:
                            cakes.append(card.value)
                        else:
                            generals += 1
        # A hidden stash card is a Cake, never a General: deal them their values first, each
        # drawn from the Cakes left (a few draws, where shuffling all the Cakes twice cost more).
        shuffle(rng, starter_pool)
        for s, i, card in hidden:
            value = starter_pool.pop() if card.starter else cakes.pop(randrange(rng, len(cakes)))
            other.stashes[s][i] = CakeCard(card.id, value, card.starter, card.known)
        rest = cakes + [general] * generals
        shuffle(rng, rest)
        other.deck[:self.deck_unseen] = rest
        other.removed_starters = starter_pool
        ballot = None if other.election is None else other.election.ballot
        if ballot is not None:
            for s, _ in list(ballot.in_seat_order()):
                if s != seat:
                    ballot.replace(s, {"type": "vote", "candidate": choice(rng, self.hands[s])})
        return other


def _digested_ballot(ballot: dict[str, Any] | None) -> dict[str, Any] | None:
    """The last ballot in the shape digests have always hashed it, so that records verify."""
    if ballot is None:
        return None
    return {**ballot, "cards": _by_seat_text(ballot["cards"]), "tally": _by_seat_text(ballot["tally"])}


def _by_seat_text(values: list[Any]) -> dict[str, Any]:
    """Per-seat data in the shape digests have always hashed it: seat as text → value."""
    return {str(s): v for s, v in enumerate(values) if v is not None}


# Action spaces are immutable: those that depend on nothing are built once, the others once for
# what they depend on, and shared by every position that asks the same.
RIGGING_SPACE = ActionSpace((
    ActionFamily("allege_rigging", help=f"Spend {RIGGING_COST} General and a Medal: "
                                        "the vote is ignored and held again"),
    ActionFamily("pass", help="Accept the result")))
GUILLOTINE_SPACE = ActionSpace((ActionFamily("execute", help="The Pawn on the Guillotine dies"),
                                ActionFamily("mercy", help="The Pawn goes back; you lose a Medal")))
INSPECT_SPACE = ActionSpace((ActionFamily(
    "inspect", {"safe": Choice((True, False), ("safe", "unsafe"),
                               "declare the batch safe (true) or unsafe (false)")},
    help="Declare the batch safe (everyone keeps their card) or unsafe"),))


def _cards_in(hand: list[Seat]) -> tuple[Seat, ...]:
    """The different Voting cards in ``hand``, in order: a hand is kept sorted, so one pass finds
    them (a hand found out of order is sorted first)."""
    out: list[Seat] = []
    last = -1
    for card in hand:
        if card < last:
            return tuple(sorted(set(hand)))
        if card != last:
            out.append(card)
            last = card
    return tuple(out)


_SHARED_SPACES: Final[dict[int, ActionSpace]] = {}
"""The action spaces of the phases after a ballot, by a whole number made of the facts each
depends on, the phase in its lowest three bits (:meth:`LetThemEatCakeState._legal_actions`)."""

_DEAL_TO: Final[dict[int, Choice]] = {}
"""The players a deal may go to, by the bits of the seats still without a card."""

_DEAL_RULE: Final = "you may deal only a card still on the table"

_COUP_SPACE: Final = 1
_DONATE_SPACE: Final = 2
_TIE_SPACE: Final = 3
_HEAD_MEDAL_SPACE: Final = 4

_OFFICE_CODES: Final = {office: i for i, office in enumerate(OFFICES)}


def _seat_code(seats: tuple[Seat, ...]) -> int:
    """``seats`` in order as one whole number: a digit of three bits a seat (up to six seats)."""
    code = 0
    for s in seats:
        code = code << 3 | (s + 1)
    return code


_BALLOT_SPACES: Final[dict[str, dict[int, ActionSpace]]] = {}
"""Each office's ballots (:func:`_ballot_space`), by the cards held as bits and whether some were played."""


def _ballot_space(hand: list[Seat], used: bool, office: str) -> ActionSpace:
    """:func:`_vote_space` of the different cards in ``hand``, found by a whole number (a bit
    per card, and ``used``) rather than by a key made of a tuple of the cards at every ballot."""
    held = 0
    for card in hand:
        held = held | (1 << card)
    key = held * 2 + used
    spaces = _BALLOT_SPACES.get(office)
    if spaces is None:
        spaces = _BALLOT_SPACES[office] = {}
    found = spaces.get(key)
    if found is None:
        if len(spaces) > 4096:  # hands are few; anything else is a test's
            spaces.clear()
        found = spaces[key] = _vote_space(_cards_in(hand), used, office)
    return found


@functools.lru_cache(maxsize=4096)
def _vote_space(cards: tuple[Seat, ...], used: bool, office: str) -> ActionSpace:
    """A ballot: a Voting card from the hand (``cards``; ``used``: some were played already),
    face down, for ``office``."""
    return ActionSpace((ActionFamily(
        "vote", {"candidate": _seats(cards, _hand_refusal(cards, used))},
        help=f"Play a Voting card face down for {OFFICE_TITLES[office]}"),))


def _hand_refusal(cards: tuple[Seat, ...], used: bool) -> str:
    """Why a Voting card is not in a hand holding ``cards``: none in its own colour, played ones
    (``used``) not back yet."""
    held = _colours(cards, "and")
    if used:
        return (f"your hand holds Voting cards for {held} only: played cards come back only "
                "when your hand is empty, and you hold none in your own colour")
    return f"your hand holds Voting cards for {held} only; you hold none in your own colour"


def _seats(seats: Iterable[Seat], refusal: str | Worded) -> Choice:
    """A choice of seats, labelled with their colours; ``refusal`` is the rule that rules out any
    other seat."""
    chosen = tuple(seats)
    colours = COLOURS  # a module's global, read once
    return Choice(chosen, tuple([colours[s] for s in chosen]), refusal)


def _colours(seats: Iterable[Seat], last: str = "or") -> str:
    """The seats' colours as a phrase: "red, blue or green"."""
    return listed([COLOURS[s] for s in seats], last)


# The refusals of the legal actions, worded only when a value is refused (:func:`worded`).
def _colours_after(lead: str, seats: tuple[Seat, ...]) -> str:
    """``lead`` followed by the seats' colours ("...: red or blue")."""
    return lead + _colours(seats)


def _candidates_rule(office: str, candidates: tuple[Seat, ...]) -> str:
    """Who a coup may name for ``office``."""
    if office == "enemy":
        return ("only the players tied for the fewest Medals can be named Enemy of the "
                "Revolution: " + _colours(candidates))
    return f"the {OFFICE_TITLES[office]} must be one of the players: " + _colours(candidates)


def _medal_takers_rule(others: tuple[Seat, ...]) -> str:
    """Who a donor may take a Medal from (``others``: the other players holding one)."""
    if others:
        return (f"you may take a Medal only from another player who has one ({_colours(others)}), "
                "or from nobody")
    return "no other player has a Medal for you to take"


def _still_without_rule(without: tuple[Seat, ...]) -> str:
    """Who the Secretary may still deal a card to."""
    return (f"every player receives exactly one card, and only {_colours(without, 'and')} "
            f"{'is' if len(without) == 1 else 'are'} still without one")


def _cards_listed(rule: str, cards: tuple[int, ...], names: tuple[str, ...]) -> str:
    """``rule`` followed by the cards still on the table, by index and what each is."""
    listing = listed([f"card {i} ({name})" for i, name in zip(cards, names, strict=True)])
    return f"{rule}: {listing}"


def _card_name(value: int) -> str:
    """What a card of ``value`` is called: a General, or a Cake of its value."""
    if 0 <= value < len(_CARD_NAMES):
        return _CARD_NAMES[value]
    return _spelled(value)


def _spelled(value: int) -> str:
    """:func:`_card_name` written out."""
    return "General" if value == GENERAL else f"Cake {value}"


_CARD_NAMES: Final[tuple[str, ...]] = tuple(_spelled(v) for v in range(max(PANTRY + STARTER_CAKES) + 1))
"""The name of each card value in the Pantry and the starter Cakes, by value (:func:`_card_name`)."""


def _known(card: CakeCard, known: frozenset[Seat]) -> CakeCard:
    return CakeCard(card.id, card.value, card.starter, known)


__all__ = ["INFO", "CakeCard", "Election", "LetThemEatCakeOptions", "LetThemEatCakeState"]
