"""Revolution!: the complete game, as a state machine on the core model.

A round: everyone's chips are shown and topped up to five with Gold; every player places all
their chips behind the shield (one sealed ``bid`` each, a simultaneous secret move); the bids are
revealed together and the twelve spaces resolved in chart order. A contested space goes to the
strongest bid (Force, then Blackmail, then Gold); its winner pays and takes the benefits, which may
ask them a decision (the Spy's replacement, the Apothecary's swap). The Card space is not a
contest: each Gold there draws a card, and a "Remove 1 Influence" card asks its drawer which
opponent marker to remove. The game ends after the round in which every influence space is full.

Decisions on what the rulebook leaves open are in ``docs/games/revolution.md``.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final, Self, TypeVar, final

from mypy_extensions import mypyc_attr

from tricolore.core import (
    Action,
    ActionFamily,
    ActionSpace,
    Choice,
    GameInfo,
    IllegalAction,
    Prompt,
    Result,
    Seat,
    State,
)
from tricolore.core.actions import NO_ACTIONS, Chosen, Worded, depends, rebuilt, worded
from tricolore.core.draws import pick, shuffle
from tricolore.core.fields import Copy, Field, Seen, declare, payload
from tricolore.core.model import ALONE, decision, one_prompt, prompts
from tricolore.games.revolution import refusals
from tricolore.games.revolution.bids import (
    Bid,
    Counts,
    RevealedBids,
    SealedBids,
    chips_of,
    drawn_or_normalised,
    holding_number,
    holding_of,
    number_of_holding,
    table_of,
)
from tricolore.games.revolution.data import (
    AREAS,
    BLACKMAIL,
    CARD_DECK,
    CARD_EFFECTS,
    CARD_TITLES,
    CURRENCIES,
    EDITIONS,
    FORCE,
    GOLD,
    LEFTOVER_SUPPORT,
    MINIMUM_CHIPS,
    REMOVE,
    STARTING_CHIPS,
    Phase,
    Space,
)
from tricolore.games.revolution.options import RevolutionOptions
from tricolore.games.revolution.refusals import NO_SUCH_AREA, REMOVE_SAYS, SPY_SAYS, SWAP_SAYS

# The phases as module constants, which the compiled build reads directly (``Phase.X`` is a
# lookup on the enum class at each of the many comparisons a decision makes).
APOTHECARY_PHASE: Final = Phase.APOTHECARY
BID_PHASE: Final = Phase.BID
OVER_PHASE: Final = Phase.OVER
REMOVE_PHASE: Final = Phase.REMOVE
RESOLVE_PHASE: Final = Phase.RESOLVE
SPY_PHASE: Final = Phase.SPY

FORCE_AT: Final = 0
BLACKMAIL_AT: Final = 1
GOLD_AT: Final = 2
"""Where each currency's chips are counted in a holding (:data:`CURRENCIES` order)."""

Gains = tuple[tuple[int, str, int], ...]
"""Chips taken, by currency: each its place in a holding, its name and the chips."""


def _gains(chips: Mapping[str, int]) -> Gains:
    """``chips`` (currency → chips) as :data:`Gains`, currencies without chips left out."""
    return tuple((ci, c, chips[c]) for ci, c in enumerate(CURRENCIES) if chips.get(c))


_CARD_GAINS: Final[dict[str, tuple[int, Gains]]] = {
    card: (support, _gains(chips)) for card, (support, chips) in CARD_EFFECTS.items()}
"""Each card's support and chips (:data:`CARD_EFFECTS`) as a plain dict of tuples, read natively."""
_STARTING_CHIPS: Final = [STARTING_CHIPS[c] for c in CURRENCIES]
""":data:`STARTING_CHIPS` as a holding counted in :data:`CURRENCIES` order, which a new game copies."""
AREA_NAMES: Final = tuple(a.name for a in AREAS)
AREA_SPACES: Final[Mapping[str, int]] = MappingProxyType({a.name: a.spaces for a in AREAS})
_AREA_SIZES: Final = tuple((a.name, a.spaces) for a in AREAS)


def _owners(markers: list[int], skipped: int) -> list[int]:
    """The players with a marker among an area's ``markers``, but ``skipped`` (-1: none), in seat
    order."""
    found: list[int] = []
    for s, n in enumerate(markers):
        if n and s != skipped:
            found.append(s)
    return found


def _placed(markers: list[int]) -> int:
    """The markers in an area, every player's (``sum``, a builtin the compiled build calls as
    Python, loops over a list several times a decision: this loop compiles to C)."""
    total = 0
    for n in markers:
        total += n
    return total


INFO = GameInfo(
    name="revolution", title="Revolution!", rules_version="1", min_players=2, max_players=4,
    options=RevolutionOptions, simultaneous=True, hidden_information=True, chance=True,
    summary="Secret bids of Force, Blackmail and Gold for the characters who sway seven areas.")

# The moves (``docs/games/revolution.md``): a marker is ``SEAT_SLOTS * area + owner``, the areas
# in board order; a bid that puts each currency's chips on one space is
# ``BID_MOVES + holding_number(chips) * spaces ** 3 + code`` (:meth:`.bids.Table.from_code`).
SEAT_SLOTS: Final = INFO.max_players
MARKER_SLOTS: Final = len(AREAS) * SEAT_SLOTS
DECLINE_MOVE: Final = 0
SPY_MOVES: Final = 1
"""The Spy replacing the marker ``m``: ``SPY_MOVES + m``."""
REMOVE_MOVES: Final = SPY_MOVES + MARKER_SLOTS
"""Remove 1 Influence taking the marker ``m`` off the board: ``REMOVE_MOVES + m``."""
SWAP_MOVES: Final = REMOVE_MOVES + MARKER_SLOTS
"""The Apothecary swapping the markers ``m1`` and ``m2``: ``SWAP_MOVES + MARKER_SLOTS * m1 + m2``."""
BID_MOVES: Final = SWAP_MOVES + MARKER_SLOTS * MARKER_SLOTS
_NO_MOVES: Final[list[int]] = []
_SWAP_MOVE_NUMBERS: Final[list[Any]] = [SWAP_MOVES + pair for pair in range(MARKER_SLOTS * MARKER_SLOTS)]
"""The Apothecary's moves, by ``MARKER_SLOTS * m1 + m2``: numbers above 256, each a new object when
worked out, made once here and handed out (items of type ``Any``, which the compiled build hands
on as they are, where it would make an ``int`` anew)."""
_BID_MOVES: Final[dict[tuple[str, int, int, int], list[int]]] = {}
"""The bid moves of each edition and holding, made the first time they are asked and shared."""
_MOVE_ACTIONS: Final[dict[str, dict[int, dict[str, Any]]]] = {name: {} for name in EDITIONS}
"""Each edition's move actions, made the first time they are asked and shared by every position
(a bid is kept as the sealed move and then as the revealed placement; no rule changes either)."""


@dataclass(frozen=True, slots=True, init=False)
class RuledChoice(Choice):
    """A choice whose ruled-out values each come with the rule that rules them out.

    ``reasons`` pairs a value with its sentence ("You cannot spy on your own marker"); a value
    listed neither there nor in ``options`` (a typo) gets the generic sentence naming the options.
    """

    reasons: tuple[tuple[object, str], ...] | Callable[[], tuple[tuple[object, str], ...]] = ()
    """The pairs, or a function that works them out when a value is refused."""

    # Written out, not generated, so that the compiled build makes it natively (see
    # tricolore.core.actions.Worded).
    def __init__(self, options: tuple[object, ...], labels: tuple[str, ...] | None = None,
                 refusal: str | Worded | None = None,
                 reasons: tuple[tuple[object, str], ...] | Callable[[], tuple[tuple[object, str], ...]] = ()
                 ) -> None:
        Choice.__init__(self, options, labels, refusal)
        object.__setattr__(self, "reasons", reasons)

    def __reduce__(self) -> tuple[Any, ...]:
        return rebuilt(self)

    def problem(self, name: str, value: object) -> str | None:
        """The rule that refuses ``value``, or ``None`` if it is allowed."""
        if any(type(value) is type(o) and value == o for o in self.options):
            return None
        for ruled, why in (self.reasons() if callable(self.reasons) else self.reasons):
            if type(value) is type(ruled) and value == ruled:
                return why
        return Choice.problem(self, name, value)


Row = list[list[int] | None]
"""Every seat's chips on one space, in seat order, each counted per currency in
:data:`CURRENCIES` order (``None``: no chips there), shown and digested as a placement's chips
(:func:`_shown_row`)."""

Resolution = tuple[str, Seat | None, list[Counts | None], int]
"""A space resolved: its name, its winner (``None``: nobody), the round's bids counted in seat
order (:attr:`.bids.RevealedBids.counts`, shared: read, never changed) and the space's number in
chart order, from which every seat's chips there are read (:func:`_row`)."""

TIE: Final = -1
""":func:`strongest_at` of a space where the strongest bids tie."""
NOBODY: Final = -2
""":func:`strongest_at` of a space nobody bid on."""


def _row(counted: list[Counts | None], at: int) -> Row:
    """Every seat's chips on the space numbered ``at`` in chart order, from each seat's revealed
    bid counted (:meth:`.bids.Table.counts_of`) in seat order."""
    return [None if counts is None else counts[at] for counts in counted]


def _shown_row(row: Row) -> list[dict[str, int] | None]:
    """``row`` as each seat's chips in a placement's form (currency → chips), as shown and
    digested."""
    return [None if here is None else chips_of(here) for here in row]


def strength(chips: Mapping[str, int]) -> tuple[int, int, int]:
    """A bid's strength: Force beats any Blackmail and Gold, Blackmail any Gold, more beats less."""
    return (chips.get("force", 0), chips.get("blackmail", 0), chips.get("gold", 0))


_OUTWEIGHS: Final = 1 << 20
"""When every bid holds fewer Blackmail and Gold than this, one chip of a stronger currency
outweighs this many of a weaker one, and a bid's :func:`strength` can be read as one whole number."""


def contest(bids: dict[Seat, dict[str, int]]) -> Seat | None:
    """The winner of a space among ``bids`` (seat → chips there), or ``None`` on a full tie."""
    if len(bids) == 1:
        return next(iter(bids))
    counted: list[Counts | None] = [None if (chips := bids.get(s)) is None else [list(strength(chips))]
                                    for s in range(max(bids) + 1)]
    winner = strongest_at(counted, 0)
    return winner if winner >= 0 else None


def strongest_at(counted: list[Counts | None], at: int) -> int:
    """The seat whose bid on the space numbered ``at`` is the strongest, among the bids
    ``counted`` in seat order (each space's chips per currency); :data:`TIE` when the strongest
    bids tie, :data:`NOBODY` when nobody bid there."""
    best = -1
    winner = NOBODY
    for seat, counts in enumerate(counted):
        chips = None if counts is None else counts[at]
        if chips is None:
            continue
        force, blackmail, gold = chips
        if blackmail >= _OUTWEIGHS or gold >= _OUTWEIGHS:  # too many for one number to keep the order
            return _strongest_at(counted, at)
        # strength() as one number (a compiled comparison of two ints, not of two tuples)
        bid = (force * _OUTWEIGHS + blackmail) * _OUTWEIGHS + gold
        if bid > best:
            best, winner = bid, seat
        elif bid == best:
            winner = TIE  # a tie for the strongest bid, unless a stronger one comes
    return winner


def _strongest_at(counted: list[Counts | None], at: int) -> int:
    """:func:`strongest_at` comparing strengths as tuples, for bids of any size."""
    best: tuple[int, int, int] | None = None
    winner = NOBODY
    for seat, counts in enumerate(counted):
        chips = None if counts is None else counts[at]
        if chips is None:
            continue
        force, blackmail, gold = chips
        bid = (force, blackmail, gold)
        if best is None or bid > best:
            best, winner = bid, seat
        elif bid == best:
            winner = TIE
    return winner


def area_winner(markers: Mapping[Seat, int]) -> Seat | None:
    """The player with most markers in an area (plurality); a tie for most awards nobody."""
    best = max(markers.values(), default=0)
    if best == 0:
        return None
    top = [s for s, n in markers.items() if n == best]
    return top[0] if len(top) == 1 else None


AREAS_JSON = tuple({"name": a.name, "spaces": a.spaces, "support": a.support} for a in AREAS)
"""Each area's fixed facts, as a view shows them (a view copies them)."""


@functools.cache
def _chart_json(edition: str) -> tuple[dict[str, Any], ...]:
    """Each space of ``edition``'s chart as a view shows it, worked out once (a view copies it)."""
    return tuple({"name": s.name, "support": s.support, "chips": dict(s.chips), "area": s.area,
                  "forbidden": sorted(s.forbidden), "special": s.special} for s in EDITIONS[edition].chart)


def _by_currency(held: list[int]) -> dict[str, int]:
    """A holding counted in :data:`CURRENCIES` order as currency → chips, every currency named,
    as views, events and the digest show it."""
    return {FORCE: held[FORCE_AT], BLACKMAIL: held[BLACKMAIL_AT], GOLD: held[GOLD_AT]}


def _placement(placement: Mapping[str, Mapping[str, int]] | None) -> dict[str, dict[str, int]] | None:
    """A copy of a placement (space → currency → chips) for a view."""
    return None if placement is None else {space: dict(c) for space, c in placement.items()}


NO_SPECIAL: Final = 0
SPY_SPACE: Final = 1
APOTHECARY_SPACE: Final = 2
CARD_SPACE: Final = 3
_SPECIALS: Final = {None: NO_SPECIAL, "spy": SPY_SPACE, "apothecary": APOTHECARY_SPACE, "card": CARD_SPACE}


@final
class ChartSpace:
    """A space of the Bidding Chart as the resolution reads it, in typed fields worked out once
    per chart (a :class:`Space` is a frozen dataclass of the shared data, read through mappings)."""

    __slots__ = ("space", "name", "support", "gains", "area", "area_spaces", "special")

    def __init__(self, space: Space) -> None:
        self.space = space
        """The space of the shared data it is made from."""
        self.name: str = space.name
        self.support: int = space.support
        self.gains: Gains = _gains(space.chips)
        """The chips its winner takes, by currency."""
        self.area: str | None = space.area
        self.area_spaces: int = 0 if space.area is None else AREA_SPACES[space.area]
        """The influence spaces of its area."""
        self.special: int = _SPECIALS[space.special]

    def __reduce__(self) -> tuple[Any, ...]:
        """Made again from its space when unpickled (a state keeps the chart's, and snapshots and
        the environments' copies pickle states)."""
        return ChartSpace, (self.space,)


_CHART_SPACES: Final[dict[int, tuple[tuple[Space, ...], tuple[ChartSpace, ...]]]] = {}


def chart_spaces(chart: tuple[Space, ...]) -> tuple[ChartSpace, ...]:
    """The :class:`ChartSpace` of each space of ``chart``, in chart order, made once."""
    known = _CHART_SPACES.get(id(chart))
    if known is not None and known[0] is chart:
        return known[1]
    if len(_CHART_SPACES) > 64:  # charts are made once per edition; anything else is a test's
        _CHART_SPACES.clear()
    spaces = tuple(ChartSpace(space) for space in chart)
    _CHART_SPACES[id(chart)] = (chart, spaces)
    return spaces


def bid_space(chart: tuple[Space, ...], chips: list[int]) -> ActionSpace:
    """The legal bids of a player holding ``chips`` (counted per currency): it depends on nothing
    else, and an action space is read-only, so each is made once and shared by every position and
    every game."""
    spaces = table_of(chart).bid_spaces
    key = number_of_holding(chips[FORCE_AT], chips[BLACKMAIL_AT], chips[GOLD_AT])
    space = spaces.get(key)
    if space is not None:
        return space
    if len(spaces) > 4096:
        spaces.clear()
    space = ActionSpace((ActionFamily(
        "bid", {"placement": Bid(chart, tuple(zip(CURRENCIES, chips, strict=True)))},
        help="Place all your chips behind the shield: space → currency → chips"),))
    spaces[key] = space
    return space


def _area_reasons(options: tuple[str, ...], empty: tuple[str, ...], says: Mapping[str, str]
                  ) -> tuple[tuple[object, str], ...]:
    """Why each area not in ``options`` is refused: it is ``empty``, or holds only one's own."""
    return tuple((a, (says["empty"] if a in empty else says["only"]).format(area=a))
                 for a in AREA_NAMES if a not in options)


def _in_area(sentence: str, area: object) -> str:
    """``sentence`` naming ``area``."""
    return sentence.format(area=area)


def _victim_reasons(options: tuple[int, ...], area: object, exclude: object, players: int,
                    says: Mapping[str, str]) -> tuple[tuple[object, str], ...]:
    """Why each seat not in ``options`` is refused as the victim in ``area``."""
    return tuple((s, (says["self"] if s == exclude else says["none"]).format(area=area))
                 for s in range(players) if s not in options)


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
class RevolutionState(State):
    """A game of Revolution!. See the module docstring for the shape of a round."""

    info = INFO
    FIELDS = declare(
        options=Field(digest=False),
        edition=Field(digest=False),
        chart=Field(digest=False),
        spaces=Field(digest=False),
        uses_cards=Field(digest=False),
        round=Field(),
        phase=Field(),
        chips=Field(copy=Copy.NESTED, digest=lambda chips: [_by_currency(held) for held in chips]),
        support=Field(copy=Copy.SHALLOW),
        board=Field(copy=Copy.NESTED),
        bank=Field(copy=Copy.SHALLOW),
        markers_left=Field(copy=Copy.SHALLOW),
        deck=Field(copy=Copy.SHALLOW, seen=Seen.NOBODY),
        discard=Field(copy=Copy.SHALLOW),
        bids=Field(copy=Copy.OWN, digest=payload, seen=Seen.OWNER),
        revealed=Field(digest=payload),
        next_space=Field(),
        results=Field(copy=Copy.SHALLOW, digest=lambda results: [  # the shape digests always hashed
            {"space": space, "winner": winner,
             "bids": {str(s): chips_of(c) for s, c in enumerate(_row(counted, at)) if c is not None}}
            for space, winner, counted, at in results]),
        decider=Field(),
        draws=Field(copy=Copy.SHALLOW),
        drawn=Field(copy=Copy.SHALLOW),
        card_start=Field(),
        end_reason=Field(),
        # The rules never read it, and records made before it was kept still verify.
        past_rounds=Field(copy=Copy.SHALLOW, digest=False),
    )
    """The state's fields (the edition, its chart and whether it uses cards follow from the
    options, and are not digested). ``view`` and ``determinize`` are written out."""

    def __init__(self, players: int, seed: int, options: RevolutionOptions) -> None:
        self._init_base(players, seed)
        self.options = options
        self.edition = EDITIONS[options.edition]
        self.chart: tuple[Space, ...] = self.edition.chart
        self.spaces = chart_spaces(self.chart)
        """The chart's spaces as the resolution reads them."""
        self.chips = [_STARTING_CHIPS.copy() for _ in range(players)]
        self.support = [0] * players
        self.board = {a.name: [0] * players for a in AREAS}
        self.bank = None if self.edition.bank is None else dict(self.edition.bank)
        self.markers_left: list[int] | None = (
            None if self.edition.markers_per_player is None
            else [self.edition.markers_per_player] * players)
        self.uses_cards = any(s.special == "card" for s in self.chart)
        deck = list(CARD_DECK) if self.uses_cards else []
        if deck:  # the published edition has no cards, and draws nothing
            shuffle(self.rng, deck)
        self.deck: list[str] = deck
        self.discard: list[str] = []
        self.round = 0
        self.phase = BID_PHASE
        self.bids: SealedBids | None = None
        self.revealed = RevealedBids(self.chart, [])
        """The bids of the round resolved last, shown."""
        self.next_space = 0
        self.results: list[Resolution] = []
        """This round's spaces resolved so far, in chart order: each space's name, its winner and
        every seat's chips there."""
        self.past_rounds: list[dict[str, Any]] = []
        """Each round resolved: its number, each space's winner in chart order, the cards drawn."""
        self.decider: Seat | None = None
        self.draws: list[tuple[Seat, int]] = []
        self.drawn: list[dict[str, Any]] = []
        self.card_start = 0
        self.end_reason: str | None = None
        self._new_round()

    # -- public facts ------------------------------------------------------------------------
    def area(self, name: str) -> Any:
        """The area called ``name``."""
        return next(a for a in AREAS if a.name == name)

    def filled(self, name: str) -> int:
        """Influence spaces taken in an area."""
        return _placed(self.board[name])

    def board_full(self) -> bool:
        """Whether every influence space of every area is taken."""
        board = self.board
        for name, spaces in _AREA_SIZES:  # a loop: the compiled build makes a generator slowly
            placed = _placed(board[name])
            if placed < spaces:
                return False
        return True

    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.phase is OVER_PHASE

    def holding(self, seat: Seat) -> dict[str, int]:
        """``seat``'s chips by currency (``chips[seat]`` counts them in :data:`CURRENCIES` order)."""
        return _by_currency(self.chips[seat])

    def set_holding(self, seat: Seat, chips: Mapping[str, int]) -> None:
        """Give ``seat`` the chips ``chips`` (currency → chips; a currency left out: none)."""
        self.chips[seat] = [chips.get(c, 0) for c in CURRENCIES]

    # -- the round ---------------------------------------------------------------------------
    def _new_round(self) -> None:
        """Everyone sees everyone's chips, then tops up to five with Gold."""
        self.round += 1
        if self.record_events:
            self.emit("round_started", round=self.round, chips=[_by_currency(c) for c in self.chips])
        for seat in range(self.players):
            held = self.chips[seat]
            short = MINIMUM_CHIPS - held[FORCE_AT] - held[BLACKMAIL_AT] - held[GOLD_AT]
            if short > 0:
                given = self._take_from_bank(GOLD, short)
                held[GOLD_AT] = held[GOLD_AT] + given
                if self.record_events:
                    self.emit("topped_up", seat=seat, gold=given)
        self.phase = BID_PHASE
        self.bids = SealedBids(self.chart, range(self.players))

    def _take_from_bank(self, currency: str, count: int) -> int:
        if self.bank is None:
            return count
        given = min(count, self.bank[currency])
        self.bank[currency] = self.bank[currency] - given
        return given

    def _pay_to_bank(self, chips: list[int]) -> None:
        """Chips counted per currency (:data:`CURRENCIES` order) back to the bank, if the
        edition has one."""
        bank = self.bank
        if bank is not None:
            for ci in range(len(CURRENCIES)):
                n = chips[ci]
                if n:
                    currency = CURRENCIES[ci]
                    bank[currency] = bank[currency] + n

    # -- prompts -----------------------------------------------------------------------------
    def _pending(self) -> Mapping[Seat, Prompt]:
        """Who must act now."""
        if self.phase is BID_PHASE:
            assert self.bids is not None
            return prompts(self.bids.waiting(), ("bid",), secret=True)
        if self.phase in (SPY_PHASE, APOTHECARY_PHASE, REMOVE_PHASE) and self.decider is not None:
            return one_prompt(self.decider, self.legal_actions(self.decider).kinds)
        return {}

    def _legal_actions(self, seat: Seat) -> ActionSpace:
        """The actions ``seat`` may take for its prompt."""
        if self.phase is BID_PHASE and self.bids is not None and self.bids.expects(seat):
            return bid_space(self.chart, self.chips[seat])
        if seat != self.decider:
            return NO_ACTIONS
        phase = self.phase
        if phase is SPY_PHASE:
            return ActionSpace(kinds=_SPY_KINDS, make=_decision_family, args=(self, seat, _DECLINE_SPY))
        if phase is APOTHECARY_PHASE:
            return ActionSpace(kinds=_SWAP_KINDS, make=_decision_family, args=(self, seat, _DECLINE_SWAP))
        if phase is REMOVE_PHASE:
            return ActionSpace((_decision_family("remove_influence", (self, seat, None)),))
        return NO_ACTIONS

    def _target_areas(self, exclude: object, says: Mapping[str, str]) -> RuledChoice:
        """The areas holding a marker of someone other than ``exclude``; each other area is
        refused with the rule that rules it out (``says``: ``"empty"`` and ``"only"``)."""
        seat = exclude if isinstance(exclude, int) and 0 <= exclude < self.players else -1
        empty: list[str] = []
        options = tuple(self._areas_of_others(seat, empty))
        reasons = functools.partial(_area_reasons, options, tuple(empty), says)
        return RuledChoice(options, reasons=reasons, refusal=NO_SUCH_AREA)

    def _areas_of_others(self, seat: int, empty: list[str] | None = None) -> list[str]:
        """The areas holding a marker of someone other than ``seat`` (-1: of anyone), in board
        order; the empty areas are added to ``empty``, if given (one pass for both)."""
        board = self.board
        found: list[str] = []
        for name in AREA_NAMES:
            markers = board[name]
            placed = _placed(markers)
            if not placed:
                if empty is not None:
                    empty.append(name)
            elif seat < 0 or placed > markers[seat]:
                found.append(name)
        return found

    def _victims(self, area: object, exclude: object, says: Mapping[str, str]) -> RuledChoice:
        """The players other than ``exclude`` with a marker in ``area``; ``exclude`` is refused
        with ``says["self"]``, the others with no marker there with ``says["none"]``."""
        if area not in self.board:
            return RuledChoice(())
        skipped = exclude if isinstance(exclude, int) else -1  # compared as ints, natively
        options = tuple(_owners(self.board[str(area)], skipped))
        reasons = functools.partial(_victim_reasons, options, area, exclude, self.players, says)
        return RuledChoice(options, reasons=reasons, refusal=worded(_in_area, says["nobody"], area))

    def _others_placed(self, seat: Seat) -> bool:
        """Whether an area holds a marker of someone other than ``seat`` (whether
        :meth:`_target_areas` would offer any), found without listing them."""
        board = self.board
        for name in AREA_NAMES:
            markers = board[name]
            if _placed(markers) > markers[seat]:
                return True
        return False

    def _can_swap(self) -> bool:
        """Whether markers of two different players are placed."""
        board = self.board
        first = -1
        for name in AREA_NAMES:
            for s, n in enumerate(board[name]):
                if n:
                    if first < 0:
                        first = s
                    elif s != first:
                        return True
        return False

    def refusal(self, seat: Seat, action: Action, refused: IllegalAction) -> IllegalAction | None:
        """An action from a player who has bid, while others still bid, and a declined Remove 1
        Influence card are refused with their own rule (:mod:`.refusals`)."""
        return refusals.refusal(self, seat, action)

    # -- moves -------------------------------------------------------------------------------
    def acting(self) -> tuple[Seat, ...]:
        """The seats asked now, in seat order."""
        phase = self.phase
        if phase is BID_PHASE:
            bids = self.bids
            return () if bids is None else bids.waiting()
        decider = self.decider
        if decider is not None and (phase is SPY_PHASE or phase is APOTHECARY_PHASE
                                    or phase is REMOVE_PHASE):
            return ALONE[decider]
        return ()

    def legal_moves(self, seat: Seat) -> list[int]:
        """The prompt's actions as moves: every decision during the resolution, and of the bids
        those that put each currency's chips on one space (the others stay open through
        :meth:`apply`)."""
        phase = self.phase
        if phase is BID_PHASE:
            bids = self.bids
            if bids is None or not bids.expects(seat):
                return _NO_MOVES
            chips = self.chips[seat]
            key = (self.edition.name, chips[FORCE_AT], chips[BLACKMAIL_AT], chips[GOLD_AT])
            moves = _BID_MOVES.get(key)
            if moves is None:
                if len(_BID_MOVES) > 512:  # holdings grow without limit in a long game
                    _BID_MOVES.clear()
                held = key[1:]
                table = table_of(self.chart)
                first = BID_MOVES + holding_number(held) * len(self.chart) ** 3
                moves = _BID_MOVES[key] = [first + code for code in table.concentrated(held)]
            return moves
        if seat != self.decider:
            return _NO_MOVES
        board = self.board
        players = self.players
        found: list[int] = []
        if phase is APOTHECARY_PHASE:
            # Each two markers once, the lower-numbered first: swapping them the other way round
            # does the same.
            markers: list[int] = []
            owners: list[int] = []
            for a, name in enumerate(AREA_NAMES):
                here = board[name]
                for s in range(players):
                    if here[s]:
                        markers.append(SEAT_SLOTS * a + s)
                        owners.append(s)
            swaps = _SWAP_MOVE_NUMBERS
            for i, first in enumerate(markers):
                start = MARKER_SLOTS * first
                owner = owners[i]
                for j in range(i + 1, len(markers)):
                    if owners[j] != owner:
                        found.append(swaps[start + markers[j]])
            found.append(DECLINE_MOVE)
            return found
        if phase is SPY_PHASE or phase is REMOVE_PHASE:
            start = SPY_MOVES if phase is SPY_PHASE else REMOVE_MOVES
            for a, name in enumerate(AREA_NAMES):
                here = board[name]
                for s in range(players):
                    if s != seat and here[s]:
                        found.append(start + SEAT_SLOTS * a + s)
            if phase is SPY_PHASE:
                found.append(DECLINE_MOVE)
            return found
        return _NO_MOVES

    def move_action(self, move: int) -> dict[str, Any]:
        """The action of ``move``, made once and shared."""
        actions = _MOVE_ACTIONS[self.edition.name]
        found = actions.get(move)
        if found is None:
            if len(actions) > 65536:  # one for each bid drawn, and holdings grow
                actions.clear()
            found = actions[move] = self._move_action(move)
        return found

    def _move_action(self, move: int) -> dict[str, Any]:
        """The action of ``move`` (see the moves above), made anew."""
        if move < 0:
            raise ValueError(f"no such move: {move!r}")
        if move >= BID_MOVES:
            held, code = divmod(move - BID_MOVES, len(self.chart) ** 3)
            try:
                placement = table_of(self.chart).from_code(holding_of(held), code)
            except ValueError:
                raise ValueError(f"no such move: {move!r}") from None
            return {"type": "bid", "placement": placement}
        if move == DECLINE_MOVE:
            return {"type": "decline"}
        if move >= SWAP_MOVES:
            first, second = divmod(move - SWAP_MOVES, MARKER_SLOTS)
            if first % SEAT_SLOTS == second % SEAT_SLOTS:
                raise ValueError(f"no such move: {move!r} swaps two markers of one player")
            return {"type": "swap", "first_area": AREA_NAMES[first // SEAT_SLOTS],
                    "first_owner": first % SEAT_SLOTS, "second_area": AREA_NAMES[second // SEAT_SLOTS],
                    "second_owner": second % SEAT_SLOTS}
        kind = "spy" if move < REMOVE_MOVES else "remove_influence"
        marker = move - (SPY_MOVES if move < REMOVE_MOVES else REMOVE_MOVES)
        return {"type": kind, "area": AREA_NAMES[marker // SEAT_SLOTS], "victim": marker % SEAT_SLOTS}

    def apply_move(self, seat: Seat, move: int) -> None:
        """Carry out ``move``; a bid's placement is already in order, and is kept as it is."""
        action = self.move_action(move)
        try:
            if move >= BID_MOVES:
                self._bid(seat, action)
            else:
                decision(self, action["type"])(self, seat, action)
        finally:
            self.changed()

    # -- bidding -----------------------------------------------------------------------------
    def do_bid(self, seat: Seat, action: Mapping[str, Any]) -> None:
        """Place every chip behind the shield; when all have, the shields come down."""
        drawn = action["placement"]
        placement = drawn_or_normalised(table_of(self.chart), drawn)
        if placement is drawn and type(action) is dict and len(action) == 2:
            self._bid(seat, action)  # as drawn: already a plain bid of a placement in order
        else:
            self._bid(seat, {"type": "bid", "placement": placement})

    def _bid(self, seat: Seat, bid: dict[str, Any]) -> None:
        """:meth:`do_bid` of ``bid``, its placement normalised, kept as it is."""
        assert self.bids is not None
        if self.record_events:
            self.emit("has_chosen", seat=seat, move="bid")
        if self.bids.submit(seat, bid):
            self._reveal(self.bids)

    def play_drawn(self, seat: Seat, rng: random.Random) -> None:
        """A bid drawn as the bid's action space draws it (:meth:`.bids.Table.draw`, the same
        numbers) and sealed as counts, never written as a placement unless something reads it;
        any other decision as every game plays it."""
        bids = self.bids
        if self.phase is BID_PHASE and bids is not None:  # sealing checks that the seat is to bid
            counts = table_of(self.chart).draw(self.chips[seat], rng)
            try:
                complete = bids.seal_drawn(seat, counts)
                if self.record_events:
                    self.emit("has_chosen", seat=seat, move="bid")
                if complete:
                    self._reveal(bids)
            finally:
                self.changed()
        elif seat == self.decider and (self.phase is SPY_PHASE or self.phase is APOTHECARY_PHASE
                                       or self.phase is REMOVE_PHASE):
            try:
                self._decide_drawn(seat, rng)
            finally:
                self.changed()
        else:
            State.play_drawn(self, seat, rng)

    def _decide_drawn(self, seat: Seat, rng: random.Random) -> None:
        """The decision during the resolution drawn as its action space draws it: the power or
        declining it (a Remove 1 Influence card cannot be declined: nothing is drawn), then each
        parameter in order among the values it allows, uniformly."""
        phase = self.phase
        if phase is not REMOVE_PHASE and pick(rng, 2) == 1:  # the kinds: the power, "decline"
            self.do_decline(seat, _DECLINED)
            return
        board = self.board
        if phase is APOTHECARY_PHASE:
            first_area = _drawn_from(self._areas_of_others(-1), rng)
            first_owner = _drawn_from(_owners(board[first_area], -1), rng)
            second_area = _drawn_from(self._areas_of_others(first_owner), rng)
            second_owner = _drawn_from(_owners(board[second_area], first_owner), rng)
            self._swap(seat, first_area, first_owner, second_area, second_owner)
            return
        area = _drawn_from(self._areas_of_others(seat), rng)
        victim = _drawn_from(_owners(board[area], seat), rng)
        if phase is SPY_PHASE:
            self._spy(seat, area, victim)
        else:
            self._remove_influence(seat, area, victim)

    def _reveal(self, bids: SealedBids) -> None:
        """The shields come down on ``bids``, every seat's, and the chart is resolved."""
        revealed = self.revealed = bids.reveal(self.players)
        self.results, self.drawn = [], []  # the last round's stay on show until now
        self.bids = None
        # all behind the shield, now on the chart (each copy of a state owns its holdings)
        for held in self.chips:
            held[FORCE_AT] = held[BLACKMAIL_AT] = held[GOLD_AT] = 0
        if self.record_events:
            self.emit("bids_revealed", bids=[revealed.placement(s) for s in range(self.players)])
        self.phase = RESOLVE_PHASE
        self.next_space = 0
        self._resolve()

    def _resolve(self) -> None:
        """Resolve spaces in chart order until a decision is needed or the chart is done."""
        spaces = self.spaces
        counted = self.revealed.counts
        returned = self.edition.losing_chips_returned
        while self.phase is RESOLVE_PHASE:
            if self.draws:
                self._draw_next()
                continue
            at = self.next_space
            if at >= len(spaces):
                self._end_round()
                return
            space = spaces[at]
            self.next_space = at + 1
            if space.special == CARD_SPACE:
                self._card_space(space, counted, at)
            else:
                self._contest(space, counted, at, returned)

    def _contest(self, space: ChartSpace, counted: list[Counts | None], at: int, returned: bool) -> None:
        """Resolve ``space``, the space numbered ``at``, bid on by the bids ``counted``;
        ``returned``: whether the losers' chips go back to them (the edition's rule)."""
        name = space.name
        won = strongest_at(counted, at)
        if won == NOBODY:
            self.results.append((name, None, counted, at))
            if self.record_events:
                self.emit("space_resolved", space=name, winner=None, tie=False)
            return
        winner = None if won == TIE else won
        self.results.append((name, winner, counted, at))
        bank = self.bank
        for s, counts in enumerate(counted):
            chips = None if counts is None else counts[at]
            if chips is None:
                continue
            if s != won and returned:
                held = self.chips[s]
                force, blackmail, gold = chips
                if force:
                    held[FORCE_AT] = held[FORCE_AT] + force  # natively, where += is generic
                if blackmail:
                    held[BLACKMAIL_AT] = held[BLACKMAIL_AT] + blackmail
                if gold:
                    held[GOLD_AT] = held[GOLD_AT] + gold
            else:
                self._pay_to_bank(chips)
        if self.record_events:
            self.emit("space_resolved", space=name, winner=winner, tie=winner is None)
        if winner is None:
            return
        support = self.support
        support[winner] = support[winner] + space.support  # natively, where += is generic
        held = self.chips[winner]
        for ci, currency, n in space.gains:
            held[ci] = held[ci] + (n if bank is None else self._take_from_bank(currency, n))
        if space.area is not None:
            self._place_marker(winner, space.area, space.area_spaces)
        if space.special == SPY_SPACE and self._has_markers(winner) and self._others_placed(winner):
            self.phase, self.decider = SPY_PHASE, winner
        elif space.special == APOTHECARY_SPACE and self._can_swap():
            self.phase, self.decider = APOTHECARY_PHASE, winner

    def _gain_chips(self, seat: Seat, gains: Gains) -> None:
        """``seat`` takes the chips of ``gains``, from the bank if the edition has one."""
        held = self.chips[seat]
        for ci, currency, n in gains:
            held[ci] = held[ci] + self._take_from_bank(currency, n)

    def _has_markers(self, seat: Seat) -> bool:
        return self.markers_left is None or self.markers_left[seat] > 0

    def _place_marker(self, seat: Seat, area: str, spaces: int) -> None:
        """An Influence Marker in ``area`` (of ``spaces`` influence spaces), if a space is free
        there and the player has one."""
        markers = self.board[area]
        if _placed(markers) >= spaces:
            if self.record_events:
                self.emit("area_full", seat=seat, area=area)
            return
        if not self._has_markers(seat):
            if self.record_events:
                self.emit("no_markers_left", seat=seat)
            return
        markers[seat] = markers[seat] + 1  # natively, where += on an item is generic
        left = self.markers_left
        if left is not None:
            left[seat] = left[seat] - 1
        if self.record_events:
            self.emit("influence_placed", seat=seat, area=area)

    def _card_space(self, space: ChartSpace, counted: list[Counts | None], at: int) -> None:
        """Each Gold on Card (the space numbered ``at``, bid on by the bids ``counted``) is spent
        and draws a card, players in turn from this round's first."""
        players = self.players
        start = self.card_start
        self.card_start = (start + 1) % players
        for i in range(players):
            seat = (start + i) % players
            counts = counted[seat]
            chips = None if counts is None else counts[at]
            gold = 0 if chips is None else chips[2]
            if gold:
                self._pay_to_bank([0, 0, gold])
                self.draws.append((seat, gold))
        self.results.append((space.name, None, counted, at))

    def _draw_next(self) -> None:
        seat, count = self.draws[0]
        if count == 1:
            self.draws.pop(0)
        else:
            self.draws[0] = (seat, count - 1)
        if not self.deck:
            self.deck, self.discard = self.discard, []
            shuffle(self.rng, self.deck)
            if self.record_events:
                self.emit("deck_reshuffled", cards=len(self.deck))
        card = self.deck.pop()
        self.discard.append(card)
        support, gains = _CARD_GAINS[card]
        self.support[seat] = self.support[seat] + support
        self._gain_chips(seat, gains)
        self.drawn.append({"seat": seat, "card": card})
        if self.record_events:
            self.emit("card_drawn", seat=seat, card=card, title=CARD_TITLES[card])
        if card == REMOVE and self._others_placed(seat):
            self.phase, self.decider = REMOVE_PHASE, seat

    # -- decisions during resolution --------------------------------------------------------
    def do_spy(self, seat: Seat, action: Mapping[str, Any]) -> None:
        """Replace an opponent's marker with one of yours (never on an empty space)."""
        self._spy(seat, action["area"], action["victim"])

    def _spy(self, seat: Seat, area: str, victim: Seat) -> None:
        markers = self.board[area]
        markers[victim] = markers[victim] - 1  # natively, where -= on an item is generic
        markers[seat] = markers[seat] + 1
        left = self.markers_left
        if left is not None:
            left[seat] = left[seat] - 1
            left[victim] = left[victim] + 1
        if self.record_events:
            self.emit("spy", seat=seat, area=area, victim=victim)
        self._continue()

    def do_swap(self, seat: Seat, action: Mapping[str, Any]) -> None:
        """Swap the owners of two placed markers."""
        self._swap(seat, action["first_area"], action["first_owner"], action["second_area"],
                   action["second_owner"])

    def _swap(self, seat: Seat, a1: str, o1: Seat, a2: str, o2: Seat) -> None:
        first, second = self.board[a1], self.board[a2]
        first[o1] = first[o1] - 1  # natively, where -= on an item is generic
        first[o2] = first[o2] + 1
        second[o2] = second[o2] - 1
        second[o1] = second[o1] + 1
        if self.record_events:
            self.emit("apothecary", seat=seat, first_area=a1, first_owner=o1, second_area=a2,
                      second_owner=o2)
        self._continue()

    def do_decline(self, seat: Seat, action: Mapping[str, Any]) -> None:
        """Use neither the Spy nor the Apothecary."""
        if self.record_events:
            self.emit("declined", seat=seat, power=self.phase)
        self._continue()

    def do_remove_influence(self, seat: Seat, action: Mapping[str, Any]) -> None:
        """Remove 1 Influence: an opponent's marker leaves the board; nobody takes the space."""
        self._remove_influence(seat, action["area"], action["victim"])

    def _remove_influence(self, seat: Seat, area: str, victim: Seat) -> None:
        markers = self.board[area]
        markers[victim] = markers[victim] - 1  # natively, where -= on an item is generic
        left = self.markers_left
        if left is not None:
            left[victim] = left[victim] + 1
        if self.record_events:
            self.emit("influence_removed", seat=seat, area=area, victim=victim)
        self._continue()

    def _continue(self) -> None:
        self.phase, self.decider = RESOLVE_PHASE, None
        self._resolve()

    # -- the end -----------------------------------------------------------------------------
    def _end_round(self) -> None:
        self.past_rounds.append({"round": self.round, "winners": [r[1] for r in self.results],
                                 "cards": [dict(d) for d in self.drawn]})
        if self.record_events:
            self.emit("round_resolved", round=self.round, support=list(self.support))
        if self.board_full():
            self._game_over("board_full")
        elif self.options.max_rounds is not None and self.round >= self.options.max_rounds:
            self._game_over("rounds")
        else:
            self._new_round()

    def _game_over(self, reason: str) -> None:
        self.phase = OVER_PHASE
        self.end_reason = reason
        if self.record_events:  # the result is worked out for the event only when it is kept
            self.emit("game_over", reason=reason, scores=list(self.result().scores),
                      areas={a: area_winner(dict(enumerate(self.board[a]))) for a in AREA_NAMES})

    def result(self) -> Result:
        """Support on the track, plus each area won by plurality, plus (published edition)
        leftover chips; equal totals share the rank."""
        breakdown: list[dict[str, Any]] = []
        for seat in range(self.players):
            areas = {a.name: a.support for a in AREAS
                     if area_winner(dict(enumerate(self.board[a.name]))) == seat}
            held = self.chips[seat]
            leftover = (sum(LEFTOVER_SUPPORT[c] * n for c, n in zip(CURRENCIES, held, strict=True))
                        if self.edition.leftover_scoring else 0)
            total = self.support[seat] + sum(areas.values()) + leftover
            breakdown.append({"track": self.support[seat], "areas": areas, "leftover_chips": leftover,
                              "markers": sum(self.board[a][seat] for a in AREA_NAMES), "score": total})
        metrics = {"rounds": float(self.round),
                   "areas_tied": float(sum(1 for a in AREA_NAMES
                                           if area_winner(dict(enumerate(self.board[a]))) is None)),
                   "board_full": float(self.end_reason == "board_full")}
        return Result.from_scores([b["score"] for b in breakdown], breakdown, metrics)

    # -- views -------------------------------------------------------------------------------
    def public_view(self) -> dict[str, Any]:
        """What every seat sees: everything but the sealed bids."""
        out: dict[str, Any] = {
            "game": self.info.name, "players": self.players,
            "edition": self.edition.name, "phase": self.phase, "round": self.round,
            "chart": [{**s, "chips": s["chips"].copy(), "forbidden": s["forbidden"].copy()}
                      for s in _chart_json(self.edition.name)],
            "areas": [{**a, "markers": list(self.board[name])}
                      for name, a in zip(AREA_NAMES, AREAS_JSON, strict=True)],
            "chips": [_by_currency(c) for c in self.chips], "support": list(self.support),
            "bids": None if self.bids is None else self.bids.public(),
            "revealed": [_placement(self.revealed.placement(s)) for s in range(self.players)]
            if self.revealed.shown() else None,
            "resolved": [{"space": space, "winner": winner,
                          "bids": _shown_row(_row(counted, at))}
                         for space, winner, counted, at in self.results],
            "past_rounds": [{"round": r["round"], "winners": list(r["winners"]),
                             "cards": [dict(d) for d in r["cards"]]} for r in self.past_rounds],
            "next_space": self.next_space, "decider": self.decider,
            "drawn": [dict(d) for d in self.drawn],
            "deck": len(self.deck), "discard": list(self.discard),
            "bank": None if self.bank is None else dict(self.bank),
            "markers_left": None if self.markers_left is None else list(self.markers_left),
            "pending": [p.as_dict() for p in self.pending().values()],
            "options": self.options.as_dict(),
        }
        if self.phase is OVER_PHASE:
            out["end_reason"] = self.end_reason
            out["result"] = self.result().as_dict()
        return out

    def private_view(self, seat: Seat) -> dict[str, Any]:
        """``seat``'s own sealed bid."""
        sealed = None if self.bids is None else self.bids.submitted(seat)
        return {"sealed_bid": None if sealed is None else _placement(sealed["placement"])}

    # -- search and replay -------------------------------------------------------------------
    def determinize(self, seat: Seat, rng: random.Random) -> Self:
        """Resample the other players' sealed bids and the order of the deck."""
        other = self.reseeded_clone(rng.getrandbits(64), self.log_for(seat))
        shuffle(rng, other.deck)
        bids = other.bids
        if bids is not None:
            table = table_of(self.chart)
            for s in bids.seats:
                if s != seat and not bids.waits_for(s):
                    bids.replace_drawn(s, table.draw(self.chips[s], rng))
        return other


_DECLINED: Final[dict[str, Any]] = {"type": "decline"}
T = TypeVar("T")


def _drawn_from(options: list[T], rng: random.Random) -> T:
    """One of ``options`` drawn as a choice draws it (:meth:`~tricolore.core.actions.Choice.sample`)."""
    return options[pick(rng, len(options))]


_SPY_KINDS: Final = ("spy", "decline")
_SWAP_KINDS: Final = ("swap", "decline")
_DECLINE_SPY: Final = ActionFamily("decline", help="Replace nothing")
_DECLINE_SWAP: Final = ActionFamily("decline", help="Swap nothing")


def _decision_family(kind: str, args: tuple[Any, ...]) -> ActionFamily:
    """The family of ``kind`` for the player deciding during the resolution (``args``: the state,
    the seat and the family that declines), made when asked: a random player declines half the
    time. The areas and victims are read from the state when the family is made, as its later
    parameters are when they are chosen."""
    state: RevolutionState = args[0]
    seat: Seat = args[1]
    if kind == "spy":
        return ActionFamily("spy", {"area": state._target_areas(seat, SPY_SAYS),
                                    "victim": depends(state._victims, Chosen("area"), seat, SPY_SAYS)},
                            help="Replace an opponent's Influence Marker with one of yours")
    if kind == "swap":
        return ActionFamily("swap", {
            "first_area": state._target_areas(None, SWAP_SAYS),
            "first_owner": depends(state._victims, Chosen("first_area"), None, SWAP_SAYS),
            "second_area": depends(state._target_areas, Chosen("first_owner"), SWAP_SAYS),
            "second_owner": depends(state._victims, Chosen("second_area"), Chosen("first_owner"), SWAP_SAYS)},
            help="Swap two placed Influence Markers of different players")
    if kind == "remove_influence":
        return ActionFamily("remove_influence", {
            "area": state._target_areas(seat, REMOVE_SAYS),
            "victim": depends(state._victims, Chosen("area"), seat, REMOVE_SAYS)},
            help="Remove 1 Influence: an opponent's marker leaves the board")
    declines: ActionFamily = args[2]
    return declines
