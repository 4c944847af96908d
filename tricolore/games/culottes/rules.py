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

import functools
import random
from collections.abc import Callable, Mapping
from typing import Any, Final, Self, TypeVar, cast

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
    Result,
    SealedSubmissions,
    Seat,
    State,
    Text,
)
from tricolore.core.actions import NO_ACTIONS, Chosen, depends, names_listed, worded
from tricolore.core.deals import Deal, DealBook, Escrow, about
from tricolore.core.draws import choice, randint, randrange, shuffle
from tricolore.core.errors import listed
from tricolore.core.fields import Copy, Field, Seen, declare, payload, sorted_items
from tricolore.core.model import ALONE, NOT_KEPT, one_prompt, prompts
from tricolore.games.culottes import refusals
from tricolore.games.culottes.book import (
    BASTILLE,
    PRIVILEGED,
    SANS_CULOTTE,
    SIDES,
    BookOfPublicSafety,
    BookRow,
    TrialClosing,
)
from tricolore.games.culottes.data import (
    CITIZEN_NAMES,
    GRABBER,
    NATURES,
    REVOLUTIONARY,
    ROLES,
    Phase,
)
from tricolore.games.culottes.options import (
    CulottesOptions,
)
from tricolore.games.culottes.refusals import (
    AGREE_REFUSAL,
    members_who_may,
    not_to_your_own,
    open_trials_only,
    trials_named,
)
from tricolore.games.culottes.scoring import CitizenTally, score_player

# The phases as module constants, which the compiled build reads directly (``Phase.X`` is a
# lookup on the enum class at each of the many comparisons a decision makes).
OVER_PHASE: Final = Phase.OVER
RECRUIT_PHASE: Final = Phase.RECRUIT
ROLES_PHASE: Final = Phase.ROLES
TURN_PHASE: Final = Phase.TURN

NAME_LENGTH: Final = 24


DEAL_METRICS = (
    "bribes_offered", "bribes_accepted", "bribes_declined", "bribes_withdrawn", "bribes_lapsed",
    "bribe_cakes_deposited", "bribed_cakes_voted", "bribes_won", "bribes_lost", "bribes_paid",
    "bribe_cakes_paid", "bribe_rewards_paid", "alliances_founded", "alliance_members",
    "alliance_loyal", "alliance_disloyal", "alliance_deposits_forfeited", "alliances_won")
"""The counts of deals in ``result().metrics`` (see docs/games/culottes.md, "Deals")."""


INFO = GameInfo(
    name="culottes", title="Culottes", rules_version="1", min_players=3, max_players=12,
    options=CulottesOptions, simultaneous=True, hidden_information=True, chance=True,
    summary="Cake votes on who deserves the Bastille's cakes: revolutionaries against grabbers.")


# Action spaces are immutable: each is built once for what it depends on and shared by every
# position that asks the same.
AGREE_FAMILY = ActionFamily("agree_end", {"agree": Choice((True,), refusal=AGREE_REFUSAL)},
                            help="Agree to end the game")
AGREE_END_FAMILY = ActionFamily("agree_end", {"agree": Choice((True, False), refusal=AGREE_REFUSAL)},
                                help="Agree (or no longer agree) to end the game")
"""Agreeing to end, or taking it back, as a free action (once play begins)."""


NAME_OPTIONAL: Final = frozenset({"name"})
"""A citizen's name may be left out: a spare one is given."""


def _choose_role_space(taken: Callable[[], frozenset[str]]) -> ActionSpace:
    """How to start, 4: secretly write R or G on the first sheet, and optionally a name (``taken``
    works out the names taken when a name is checked or drawn: a random player leaves it out)."""
    return ActionSpace((ActionFamily(
        "choose_role",
        {"role": Choice(ROLES), "name": Text(NAME_LENGTH, taken, CITIZEN_NAMES)},
        optional=NAME_OPTIONAL,
        help="Secretly write R or G on your first sheet; optionally name your citizen"),))


_NAMES_TAKEN_BY_OTHERS: Final = tuple(f"names taken by others than {s}" for s in range(INFO.max_players))
"""The names under which a position keeps the names each seat may not choose in the choice of roles."""

NO_RECRUIT_FAMILY = ActionFamily("pass", help="Do not recruit")
_RECRUIT_KEY: Final = ("recruit", False)
_RECRUIT_OR_AGREE_KEY: Final = ("recruit", True)
"""The keys a state keeps its recruit space under (:meth:`~tricolore.core.model.State.kept`),
made once."""


def _recruit_space(taken: frozenset[str] | Callable[[], frozenset[str]], agree: bool) -> ActionSpace:
    """Step 8: recruit a new citizen (named, or given a spare name), or pass."""
    families = [ActionFamily("recruit", {"name": Text(NAME_LENGTH, taken, CITIZEN_NAMES)},
                             optional=NAME_OPTIONAL, help="Step 8: recruit a new citizen"),
                NO_RECRUIT_FAMILY]
    if agree:
        families.append(AGREE_FAMILY)
    return ActionSpace(tuple(families))


VIVE_FAMILY = ActionFamily("vive_la_revolution",
                           help="Step 1: bring this citizen back from emigration")
COCKADE_FAMILY = ActionFamily("buy_cockade", help="Step 2: buy a cockade")
EMIGRATE_FAMILY = ActionFamily("emigrate", help="Step 6: emigrate")
PASS_FAMILY = ActionFamily("pass", help="Step 7: done with this citizen")
SIDE_CHOICE: Final = Choice(SIDES)


def cakes_held(name: str, cakes: int) -> str:
    """The most cakes a citizen may give, donate or cake-vote, as a refusal says it."""
    return f"{name} has {cakes} cakes"


@functools.lru_cache(maxsize=4096)
def _donate_family(cakes: int, name: str) -> ActionFamily:
    """Step 3: donate any of the citizen's cakes to the Bastille."""
    return ActionFamily("donate", {"cakes": Amount(1, cakes, 3, worded(cakes_held, name, cakes))},
                        help="Step 3: donate cakes to the Bastille")


def _cake_vote_family(cakes: int, name: str, trial: Choice) -> ActionFamily:
    """Step 4: cake-vote on any citizen (``trial`` chooses among every citizen) with the citizen's
    cakes."""
    return ActionFamily(
        "cake_vote",
        {"citizen": trial, "side": SIDE_CHOICE,
         "cakes": Amount(1, cakes, 5, worded(cakes_held, name, cakes))},
        help="Step 4: cake-vote on a citizen, then roll the die")


_STEP_FAMILIES: Final = {f.kind: f for f in (VIVE_FAMILY, COCKADE_FAMILY, EMIGRATE_FAMILY, PASS_FAMILY,
                                               AGREE_FAMILY)}
_CITIZEN_KINDS: Final[list[tuple[str, ...] | None]] = [None] * 64
"""The kinds of each citizen space (:func:`_citizen_space`), by what it offers as bits, listed once."""


def _citizen_space(step: int, emigrated: bool, cakes: int, name: str, trial: Choice | None,
                   agree: bool) -> ActionSpace:
    """Steps 1 to 7 of the current citizen, ``name``, at ``step`` with ``cakes``; ``trial`` chooses
    the citizen to cake-vote on (``None`` past step 4 or without cakes: no cake vote). The
    families are made when asked (:func:`_citizen_family`): a random player draws one of them."""
    vive = step == 1 and emigrated
    offers = (vive + 2 * (not vive and step <= 2) + 4 * (not vive and step <= 3 and cakes > 0)
              + 8 * (trial is not None) + 16 * (not vive and step <= 6) + 32 * agree)
    kinds = _CITIZEN_KINDS[offers]
    if kinds is None:
        listed = [kind for bit, kind in enumerate(("vive_la_revolution", "buy_cockade", "donate", "cake_vote",
                                                   "emigrate")) if offers & (1 << bit)]
        listed.append("pass")
        if agree:
            listed.append("agree_end")
        kinds = _CITIZEN_KINDS[offers] = tuple(listed)
    return ActionSpace(kinds=kinds, make=_citizen_family, args=(cakes, name, trial))


def _citizen_family(kind: str, args: tuple[Any, ...]) -> ActionFamily:
    """The family of ``kind`` in a citizen's space: ``args`` are the citizen's cakes, its name and
    the choice of a citizen to cake-vote on."""
    if kind == "donate":
        return _donate_family(args[0], args[1])
    if kind == "cake_vote":
        return _cake_vote_family(args[0], args[1], args[2])
    return _STEP_FAMILIES[kind]


# The moves (:meth:`CulottesState.legal_moves`): each stands for the same action in every
# position. The steps without parameters, agreeing to end, recruiting (the citizen given a spare
# name) and a role (the citizen given a spare name); then a donation of 1 to DONATE_MOST cakes;
# then a cake vote: ``CAKE_VOTE_MOVES + (citizen * 2 + side) * CAKE_VOTE_MOST + cakes - 1``.
# The amounts stop where a random player's do (an Amount's ``typical``): larger ones stay open
# through ``apply``.
PASS_MOVE: Final = 0
VIVE_MOVE: Final = 1
COCKADE_MOVE: Final = 2
EMIGRATE_MOVE: Final = 3
AGREE_MOVE: Final = 4
RECRUIT_MOVE: Final = 5
ROLE_MOVES: Final = 6
"""``ROLE_MOVES + i`` chooses ``ROLES[i]``."""
DONATE_MOVES: Final = ROLE_MOVES + len(ROLES)
DONATE_MOST: Final = 3
CAKE_VOTE_MOVES: Final = DONATE_MOVES + DONATE_MOST
CAKE_VOTE_MOST: Final = 5
_ROLE_MOVES: Final = [ROLE_MOVES + i for i in range(len(ROLES))]
_NO_MOVES: Final[list[int]] = []
_CITIZEN_MOVES: Final[dict[int, list[int]]] = {}
"""The moves of a citizen's steps, by :func:`_citizen_moves`' key."""
_RECRUIT_MOVES: Final = [RECRUIT_MOVE, PASS_MOVE]
_RECRUIT_OR_AGREE_MOVES: Final = [RECRUIT_MOVE, PASS_MOVE, AGREE_MOVE]
_MOVE_ACTIONS: Final[dict[int, dict[str, Any]]] = {}
"""Each move's action, made the first time it is asked."""


def _citizen_moves(step: int, emigrated: bool, cakes: int, citizens: int, agree: bool) -> list[int]:
    """The moves of :func:`_citizen_space`, every citizen open to the cake vote."""
    cakes = min(cakes, CAKE_VOTE_MOST)
    key = (((citizens * 8 + step) * 2 + emigrated) * (CAKE_VOTE_MOST + 1) + cakes) * 2 + agree
    found = _CITIZEN_MOVES.get(key)
    if found is not None:
        return found
    moves: list[int] = []
    if step == 1 and emigrated:
        moves.append(VIVE_MOVE)
    else:
        if step <= 2:
            moves.append(COCKADE_MOVE)
        if step <= 3:
            for amount in range(1, min(cakes, DONATE_MOST) + 1):
                moves.append(DONATE_MOVES + amount - 1)
        if step <= 4:
            for scale in range(citizens * len(SIDES)):
                for amount in range(cakes):
                    moves.append(CAKE_VOTE_MOVES + scale * CAKE_VOTE_MOST + amount)
        if step <= 6:
            moves.append(EMIGRATE_MOVE)
    moves.append(PASS_MOVE)
    if agree:
        moves.append(AGREE_MOVE)
    _CITIZEN_MOVES[key] = moves
    return moves


def _move_action(move: int) -> dict[str, Any]:
    """The action of ``move`` (see the moves above)."""
    if move >= CAKE_VOTE_MOVES:
        scale, amount = divmod(move - CAKE_VOTE_MOVES, CAKE_VOTE_MOST)
        citizen, side = divmod(scale, len(SIDES))
        return {"type": "cake_vote", "citizen": citizen, "side": SIDES[side], "cakes": amount + 1}
    if move >= DONATE_MOVES:
        return {"type": "donate", "cakes": move - DONATE_MOVES + 1}
    if move >= ROLE_MOVES:
        return {"type": "choose_role", "role": ROLES[move - ROLE_MOVES]}
    if move == AGREE_MOVE:
        return {"type": "agree_end", "agree": True}
    if move == RECRUIT_MOVE:
        return {"type": "recruit"}
    if 0 <= move < AGREE_MOVE:
        return {"type": ("pass", "vive_la_revolution", "buy_cockade", "emigrate")[move]}
    raise ValueError(f"no such move: {move!r}")


T = TypeVar("T")
_NO_SCALES = {SANS_CULOTTE: 0, PRIVILEGED: 0}
"""Cakes on the scales of a trial before any vote, in the order the view lists the sides."""
_NOBODY: set[int] = set()  # read only: no citizen allied in a trial


def _other_side(side: str) -> str:
    return PRIVILEGED if side == SANS_CULOTTE else SANS_CULOTTE


def _side_words(side: str) -> str:
    """A side as players say it: "sans-culotte" or "privileged"."""
    return "sans-culotte" if side == SANS_CULOTTE else "privileged"


_CITIZEN_FIELDS = ("id", "owner", "name", "sheet", "first", "cakes", "cockades", "bastille_cakes",
                   "cap", "on_trial", "emigrated", "recruited")
"""A citizen sheet's fields, in digest order."""


@mypyc_attr(allow_interpreted_subclasses=True)  # copied and pickled without __init__
class Citizen:
    """A citizen sheet. ``sheet`` indexes the stack the sheet was drawn from; its flap nature is
    a secret of the state. ``first`` marks the owner's first sheet, where the role is written."""

    __slots__ = _CITIZEN_FIELDS

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
        other = Citizen(self.id, self.owner, self.name, self.sheet, self.first, self.cakes)
        (other.cockades, other.bastille_cakes, other.cap, other.on_trial, other.emigrated,
         other.recruited) = (self.cockades, self.bastille_cakes, self.cap, self.on_trial,
                             self.emigrated, self.recruited)
        return other

    def payload(self) -> list[Any]:
        """Every field, for digests."""
        return [getattr(self, name) for name in _CITIZEN_FIELDS]


@mypyc_attr(allow_interpreted_subclasses=True)  # pickled without __init__
class FoldedNames:
    """The casefolded names of a state's first ``counted`` citizens."""

    __slots__ = ("names", "counted")

    def __init__(self) -> None:
        self.names: set[str] = set()
        self.counted = 0


@mypyc_attr(allow_interpreted_subclasses=True)  # copied and pickled without __init__
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


def _dealt(state: CulottesState) -> bool:
    """Whether a deal or an alliance was ever made (the digest then hashes the deals)."""
    return bool(state.deals.deals or state.alliances)


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
class CulottesState(State):
    """A game of Culottes. See the module docstring for the shape of a turn."""

    info = INFO
    FIELDS = declare(
        options=Field(digest=False),
        stack_size=Field(digest=False),
        # The options the rules read at every turn, read once: an options object is interpreted,
        # so the compiled rules would look up each of its fields generically.
        starting_cakes=Field(digest=False),
        die_faces=Field(digest=False),
        closing_faces=Field(digest=False),
        emigrants_get_bastille_cakes=Field(digest=False),
        max_rounds=Field(digest=False),
        # The deals are hashed first, and only once one was made, so that a game without any
        # keeps the digests it always had.
        deals=Field(copy=Copy.OWN, digest=payload, digest_if=_dealt),
        accepted_at=Field(copy=Copy.SHALLOW, digest=sorted_items, digest_if=_dealt),
        alliances=Field(copy=Copy.JSON, digest_if=_dealt),
        escrow=Field(copy=Copy.OWN, digest=payload, digest_if=_dealt),
        deal_tally=Field(copy=Copy.SHALLOW, digest=sorted_items, digest_if=_dealt),
        phase=Field(),
        sheets=Field(copy=Copy.SHALLOW, seen=Seen.NOBODY),
        next_sheet=Field(),
        spare_names=Field(copy=Copy.SHALLOW, seen=Seen.NOBODY),
        citizens=Field(copy=lambda citizens: [c.copy() for c in citizens],
                       digest=lambda citizens: [c.payload() for c in citizens]),
        holdings=Field(copy=Copy.NESTED),
        roles=Field(copy=Copy.SHALLOW, seen=Seen.OWNER),
        role_choice=Field(copy=Copy.OWN, digest=payload, seen=Seen.OWNER),
        book=Field(copy=Copy.OWN, splice=True, digest=lambda book: [
            [[r.voter, r.citizen, r.cakes, r.side, r.closing, r.turn] for r in book.rows],
            book.closings]),
        bastille=Field(copy=Copy.OWN, digest=lambda bastille: bastille.ledger()),
        first_player=Field(),
        current=Field(),
        turn_citizens=Field(digest=list),
        citizen_index=Field(),
        step=Field(),
        turn=Field(),
        rounds_completed=Field(),
        last_roll=Field(),
        agrees_to_end=Field(copy=Copy.SHALLOW),
        end_agreed=Field(),
        final_turns_left=Field(),
        end_reason=Field(),
        # The account of each closing (verdict, rewards) follows from the Book and the moves
        # that led to it; digests have never hashed it.
        closings=Field(copy=Copy.SHALLOW, digest=False),
    )
    """The state's fields. ``view`` and ``determinize`` are written out: they say which roles
    and flaps each seat knows."""

    def __init__(self, players: int, seed: int, options: CulottesOptions) -> None:
        self._init_base(players, seed)
        self.options = options
        self.stack_size = players * options.citizen_sheets_per_player
        self.starting_cakes: int = options.starting_cakes
        self.die_faces: int = options.die_faces
        self.closing_faces: frozenset[int] = frozenset(options.closing_faces)
        self.emigrants_get_bastille_cakes: bool = options.emigrants_get_bastille_cakes
        self.max_rounds: int | None = options.max_rounds
        half = [SANS_CULOTTE, PRIVILEGED] * (self.stack_size // 2)
        if self.stack_size % 2:
            half.append(choice(self.rng, NATURES))
        shuffle(self.rng, half)
        self.sheets: list[str] = half
        self.next_sheet = 0
        names = list(CITIZEN_NAMES)
        shuffle(self.rng, names)
        self.spare_names = names
        self.citizens: list[Citizen] = []
        self.holdings: list[list[int]] = [[] for _ in range(players)]
        self.roles: list[str | None] = [None] * players
        self.role_choice: SealedSubmissions | None = SealedSubmissions("choose_role", range(players),
                                                                      revisable=False)
        for seat in range(players):
            # the spare names are distinct, so each first citizen takes the next one (what
            # _spare_name finds, without the names taken worked out for each)
            self._new_citizen(seat, names.pop(), first=True)
        self.book = BookOfPublicSafety()
        self.closings: list[dict[str, Any]] = []
        self.bastille = Bastille()
        self.first_player = (options.first_player if options.first_player is not None
                             else randrange(self.rng, players))
        self.current = self.first_player
        self.phase = ROLES_PHASE
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
        self.deals = DealBook(players)
        self.accepted_at: dict[int, int] = {}
        self.alliances: list[dict[str, Any]] = []
        self.escrow = Escrow()
        self.deal_tally: dict[str, int] = {}

    # -- set-up ------------------------------------------------------------------------------
    def _spare_name(self) -> str:
        taken = self._names_folded()
        while self.spare_names:
            name = self.spare_names.pop()
            if name.casefold() not in taken:
                return name
        n = len(self.citizens) + 1
        while f"Citizen {n}".casefold() in taken:
            n += 1
        return f"Citizen {n}"

    def _names_folded(self) -> set[str]:
        """Every citizen's name, casefolded. A name is written once (when its citizen is made,
        and at the end of the choice of roles) and citizens are only added: the names are kept,
        and those of the citizens made since are added."""
        folded = self.kept(("names folded", self.role_choice is None), FoldedNames)
        citizens = self.citizens
        while folded.counted < len(citizens):
            folded.names.add(citizens[folded.counted].name.casefold())
            folded.counted += 1
        return folded.names

    def _draw_sheet(self) -> int:
        """The next sheet of the stack; past the printed stack, new sheets are drawn 50/50."""
        index = self.next_sheet
        if index >= len(self.sheets):
            self.sheets.append(choice(self.rng, NATURES))
        self.next_sheet += 1
        return index

    def _new_citizen(self, owner: Seat, name: str, first: bool) -> Citizen:
        citizen = Citizen(len(self.citizens), owner, name, self._draw_sheet(), first,
                          self.starting_cakes)
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
        return self.phase is OVER_PHASE

    def _pending(self) -> Mapping[Seat, Prompt]:
        """Who must act now."""
        if self.phase is ROLES_PHASE:
            assert self.role_choice is not None
            return prompts(self.role_choice.waiting(), ("choose_role",), secret=True)
        if self.phase is OVER_PHASE:
            return {}
        return one_prompt(self.current, self.legal_actions(self.current).kinds)

    def current_citizen(self) -> Citizen | None:
        """The citizen whose steps 1 to 7 are being played, if any."""
        if self.phase is not TURN_PHASE:
            return None
        return self.citizens[self.turn_citizens[self.citizen_index]]

    def _legal_actions(self, seat: Seat) -> ActionSpace:
        """The actions ``seat`` may take for its prompt."""
        if self.phase is ROLES_PHASE:
            assert self.role_choice is not None
            if not self.role_choice.expects(seat):
                return NO_ACTIONS
            return _choose_role_space(functools.partial(self._names_taken_by_others_now, seat))
        if self.phase is OVER_PHASE or seat != self.current:
            return NO_ACTIONS
        agree = not self.agrees_to_end[seat] and not self.end_agreed
        if self.phase is RECRUIT_PHASE:
            # the same space all game: the names taken are read when a name is checked or drawn
            key = _RECRUIT_OR_AGREE_KEY if agree else _RECRUIT_KEY
            recruit = self.kept_for(key, None)  # as below: no bound method made to pass to kept
            if recruit is NOT_KEPT:
                recruit = self.keep(key, None, self._recruit_actions(agree))
            return recruit
        # What is kept below is kept while the number of citizens stays the same: citizens are
        # only added, and a name is written once (kept_for and keep are two native calls, where
        # kept calls its maker through Python).
        citizens = len(self.citizens)
        citizen = self.current_citizen()
        assert citizen is not None
        step, cakes = self.step, citizen.cakes
        trial: Choice | None = None
        if step <= 4 and cakes and not (step == 1 and citizen.emigrated):
            found = self.kept_for(("trial choice",), citizens)
            trial = (self.keep(("trial choice",), citizens, self._cake_vote_citizens())
                     if found is NOT_KEPT else found)
        return _citizen_space(step, citizen.emigrated, cakes, citizen.name, trial, agree)

    def acting(self) -> tuple[Seat, ...]:
        """The seats asked now, in seat order."""
        if self.phase is ROLES_PHASE:
            assert self.role_choice is not None
            return tuple(sorted(self.role_choice.waiting()))
        if self.phase is OVER_PHASE:
            return ()
        return ALONE[self.current]  # made once: asked at every decision

    def legal_moves(self, seat: Seat) -> list[int]:
        """The prompt's actions as moves: a citizen named by the rules, amounts up to
        :data:`DONATE_MOST` and :data:`CAKE_VOTE_MOST` cakes."""
        phase = self.phase
        if phase is ROLES_PHASE:
            choice = self.role_choice
            return _ROLE_MOVES if choice is not None and choice.expects(seat) else _NO_MOVES
        if phase is OVER_PHASE or seat != self.current:
            return _NO_MOVES
        agree = not self.agrees_to_end[seat] and not self.end_agreed
        if phase is RECRUIT_PHASE:
            return _RECRUIT_OR_AGREE_MOVES if agree else _RECRUIT_MOVES
        citizen = self.citizens[self.turn_citizens[self.citizen_index]]
        return _citizen_moves(self.step, citizen.emigrated, citizen.cakes, len(self.citizens), agree)

    def move_action(self, move: int) -> dict[str, Any]:
        """The action of ``move``, made once and shared."""
        found = _MOVE_ACTIONS.get(move)
        if found is None:
            found = _MOVE_ACTIONS[move] = _move_action(move)
        return found

    def _cake_vote_citizens(self) -> Choice:
        """Any citizen may be cake-voted on (step 4), by name (citizens are only added, and a
        name is written once)."""
        return Choice(tuple(range(len(self.citizens))), tuple(c.name for c in self.citizens))

    def _free_actions(self, seat: Seat) -> ActionSpace:
        """Cake transfers between citizens, and agreeing to end, at any time once play begins.

        Each family is kept (:meth:`~tricolore.core.model.State.kept`) while what its choices and
        labels are made of stays the same: the citizens (a recruit adds one; names are written
        once), which of the seat's citizens have cakes, the open trials, bribes and alliances.
        Amounts are worked out when asked, from the state as it is then."""
        if self.phase not in (TURN_PHASE, RECRUIT_PHASE):
            return ActionSpace(())
        families = []
        count = len(self.citizens)
        own = tuple(min(self.citizens[i].cakes, 2) for i in self.holdings[seat])
        if count > len(own) and any(own):
            families.append(self.kept(("give_cakes", seat, count, own), self._give_family, seat))
        families += self._deal_actions(seat, own)
        if not self.end_agreed:
            families.append(AGREE_END_FAMILY)
        return ActionSpace(tuple(families))

    def _give_family(self, seat: Seat) -> ActionFamily:
        givers = tuple(i for i in self.holdings[seat] if self.citizens[i].cakes)
        others = tuple(c.id for c in self.citizens if c.owner != seat)
        own = tuple(self.citizens[i].name for i in self.holdings[seat])
        giver_names = tuple(self.citizens[i].name for i in givers)
        return ActionFamily(
            "give_cakes",
            {"from": Choice(givers, giver_names, worded(
                names_listed, "you may give cakes only from one of your own citizens with cakes: ",
                giver_names)),
             "to": Choice(others, tuple(self.citizens[i].name for i in others),
                          worded(not_to_your_own, "cakes go to another player's citizen", own)),
             "cakes": depends(self._give_limit, Chosen("from"))},
            help="Give cakes from one of your citizens to another player's citizen")

    def refusal(self, seat: Seat, action: Action, refused: IllegalAction) -> IllegalAction | None:
        """A kind of action the rules do not allow now is refused with the rule that forbids it
        ("Danton has already cake-voted this turn; ...") rather than with the list of what is
        allowed, under the same code (``not_allowed_now``, or ``not_your_turn`` where waiting is
        the answer); a refused deal names the bribe or trial concerned (:mod:`.refusals`)."""
        return refusals.refusal(self, seat, action, refused)

    def _give_limit(self, giver: object) -> Amount:
        if type(giver) is int and 0 <= giver < len(self.citizens):
            c = self.citizens[giver]
            return Amount(1, c.cakes, 3, worded(cakes_held, c.name, c.cakes))
        return Amount(1, 0)

    def _recruit_actions(self, agree: bool) -> ActionSpace:
        # the names taken are worked out only when a name is checked or drawn (a random player
        # leaves it out), from the state as it is then: the space is kept all game
        return _recruit_space(self._names_taken_now, agree)

    def _names_taken_now(self) -> frozenset[str]:
        """Every name taken at this position, worked out once per position (the environments
        check every example name against it)."""
        return self.at_this_position("names taken", self._names_taken)

    def _names_taken_by_others_now(self, seat: Seat) -> frozenset[str]:
        """The names ``seat`` may not give its first citizen at this position, worked out once per
        position."""
        return self.at_this_position(_NAMES_TAKEN_BY_OTHERS[seat], functools.partial(self._names_taken, seat))

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
        # An event's keywords make a dict even when events are off: each is emitted only then.
        if self.record_events:
            self.emit("role_chosen", to=[seat], seat=seat, role=action["role"])
            self.emit("has_chosen", seat=seat, move="choose_role")
        if self.role_choice.submit(seat, action):
            for s, sealed in self.role_choice.in_seat_order():
                self.roles[s] = sealed["role"]
                if "name" in sealed:
                    self.citizens[self.holdings[s][0]].name = sealed["name"].strip()
            self.role_choice = None
            if self.record_events:
                self.emit("citizens_named", names=[c.name for c in self.citizens])
            self._start_turn()

    # -- a turn ------------------------------------------------------------------------------
    def _start_turn(self) -> None:
        self.phase = TURN_PHASE
        self.turn_citizens = tuple(self.holdings[self.current])
        self.citizen_index = 0
        self.step = 1
        if self.record_events:
            self.emit("turn_started", seat=self.current, turn=self.turn + 1)

    def do_vive_la_revolution(self, seat: Seat, action: Mapping[str, Any]) -> None:
        """Step 1: an emigrated citizen comes back and plays steps 2 to 7."""
        citizen = self.current_citizen()
        assert citizen is not None
        citizen.emigrated = False
        self.step = 2
        if self.record_events:
            self.emit("vive_la_revolution", citizen=citizen.id)

    def do_buy_cockade(self, seat: Seat, action: Mapping[str, Any]) -> None:
        """Step 2: buy one cockade; its price is deducted from the score at the end."""
        citizen = self.current_citizen()
        assert citizen is not None
        citizen.cockades += 1
        self.step = 3
        if self.record_events:
            self.emit("cockade_bought", citizen=citizen.id)

    def do_donate(self, seat: Seat, action: Mapping[str, Any]) -> None:
        """Step 3: donate any number of the citizen's cakes to the Bastille."""
        citizen = self.current_citizen()
        assert citizen is not None
        citizen.cakes -= action["cakes"]
        self.bastille.receive_donation(action["cakes"])
        self.step = 4
        if self.record_events:
            self.emit("donated", citizen=citizen.id, cakes=action["cakes"])

    def do_cake_vote(self, seat: Seat, action: Mapping[str, Any]) -> None:
        """Step 4: put cakes on a scale of any citizen's trial, write the Book, roll the die.

        A citizen without a scale gets one; a capped citizen's cap becomes its scale. A roll in
        ``closing_faces`` closes that trial (step 5).
        """
        voter = self.current_citizen()
        assert voter is not None
        number: int = action["citizen"]  # typed, so the citizen is read as one (not as Any)
        trialed = self.citizens[number]
        cakes: int = action["cakes"]
        side: str = action["side"]
        if not trialed.on_trial:
            trialed.on_trial = True
            trialed.cap = False
        voter.cakes -= cakes
        self.book.write(voter.id, trialed.id, cakes, side, self.turn + 1)
        self.step = 6
        if self.record_events:
            self.emit("cake_vote", voter=voter.id, citizen=trialed.id, side=side, cakes=cakes)
        roll = randint(self.rng, 1, self.die_faces)
        self.last_roll = roll
        closes = roll in self.closing_faces
        if self.record_events:
            self.emit("die_rolled", roll=roll, closes_trial=closes)
        if closes:
            self.verdict_and_rewards(trialed)

    def seating_from_left(self) -> list[Seat]:
        """Seats from the current player's left, clockwise, the current player last."""
        return [(self.current + i) % self.players for i in range(1, self.players + 1)]

    def citizens_from_left(self) -> list[int]:
        """Every citizen in seating order from the current player's left, sheets in order."""
        holdings = self.holdings
        left = self.current + 1
        order: list[int] = []
        for s in range(left, self.players):
            order.extend(holdings[s])
        for s in range(left):
            order.extend(holdings[s])
        return order

    def verdict_and_rewards(self, trialed: Citizen) -> TrialClosing:
        """Step 5: close the trial through the Book of Public Safety and pay the winners."""
        closing = self.book.close(trialed.id, self.citizens_from_left())
        trialed.on_trial = False
        trialed.cap = closing.verdict == SANS_CULOTTE
        for reward in closing.rewards:
            if reward.voter == BASTILLE:
                self.bastille.receive_reward(reward.reward)
            else:
                self.citizens[cast(int, reward.voter)].cakes += reward.returned + reward.reward
        record: dict[str, Any] = {"closing": self.book.closings, "citizen": trialed.id, "turn": self.turn + 1,
                  "roll": self.last_roll, "verdict": closing.verdict,
                  "winning_cakes": closing.winning_cakes, "lost_cakes": closing.lost_cakes,
                  "bastille_vote": closing.bastille_vote, "leftover": closing.leftover,
                  "rewards": [{"voter": r.voter, "returned": r.returned, "reward": r.reward,
                               "share": r.share_text} for r in closing.rewards],
                  "lost": [{"voter": v, "cakes": n} for v, n in closing.lost]}
        self.closings.append(record)
        if self.record_events:  # a call with ** is an interpreted one: made only for an event kept
            self.emit("trial_closed", **record)
        self.settle_deals(trialed.id, closing.verdict)
        return closing

    def do_emigrate(self, seat: Seat, action: Mapping[str, Any]) -> None:
        """Step 6: the citizen emigrates; its turns are passed until "Vive la revolution"."""
        citizen = self.current_citizen()
        assert citizen is not None
        citizen.emigrated = True
        if self.record_events:
            self.emit("emigrated", citizen=citizen.id)
        self._next_citizen()

    def do_pass(self, seat: Seat, action: Mapping[str, Any]) -> None:
        """Step 1's "I pass", or done with this citizen (step 7); at step 8, do not recruit."""
        if self.phase is RECRUIT_PHASE:
            self._end_turn()
            return
        citizen = self.current_citizen()
        assert citizen is not None
        if self.record_events:
            self.emit("passed", citizen=citizen.id)
        self._next_citizen()

    def _next_citizen(self) -> None:
        """Step 7: any citizen left? Then step 1 for it, else step 8."""
        self.citizen_index += 1
        self.step = 1
        if self.citizen_index >= len(self.turn_citizens):
            self.phase = RECRUIT_PHASE

    def do_recruit(self, seat: Seat, action: Mapping[str, Any]) -> None:
        """Step 8: draw a new sheet with the starting cakes; it first plays next turn.

        A revolutionary's recruit has the nature on its flap; a grabber's recruit is a puppet
        whose nature is that of the grabber's first sheet.
        """
        name = action["name"].strip() if "name" in action else self._spare_name()
        citizen = self._new_citizen(seat, name, first=False)
        if self.record_events:
            self.emit("recruited", seat=seat, citizen=citizen.id, name=name)
            self.emit("recruit_nature", to=[seat], citizen=citizen.id, nature=self.nature(citizen),
                      puppet=self.is_puppet(citizen))
        self._end_turn()

    def distribute_bastille_cakes(self) -> list[int]:
        """Step 9: one Bastille cake to each capped citizen, from the first citizen of the player
        on the left, until the Bastille is empty. Returns the citizens served, in order."""
        served: list[int] = []
        bastille = self.bastille
        if not bastille.cakes:
            return served
        # citizens_from_left() read seat by seat, without making the list (every turn ends here)
        players, holdings, citizens = self.players, self.holdings, self.citizens
        emigrants_served = self.emigrants_get_bastille_cakes
        for k in range(players):
            for i in holdings[(self.current + 1 + k) % players]:
                if not bastille.cakes:
                    break
                c = citizens[i]
                if c.cap and not c.on_trial and (emigrants_served or not c.emigrated):
                    bastille.give_cake()
                    c.cakes += 1
                    c.bastille_cakes += 1
                    served.append(i)
        if served and self.record_events:
            self.emit("bastille_distribution", citizens=served)
        return served

    def _end_turn(self) -> None:
        """Steps 9 and 10, then the end-of-game checks."""
        self.distribute_bastille_cakes()
        self.turn += 1
        if self.record_events:
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
            max_rounds = self.max_rounds
            if max_rounds is not None and self.rounds_completed >= max_rounds:
                self._game_over(f"{self.rounds_completed} rounds were played (max_rounds)")
                return
        self._start_turn()

    # -- deals: the bribery attack and the alliance defence, kept by the engine ----------------
    def trials_open(self) -> list[int]:
        """Citizens with a justice scale (an open trial), by citizen id."""
        return [c.id for c in self.citizens if c.on_trial]

    def trial_opened_row(self, citizen: int) -> int:
        """The Book row (numbered from 1) that opened ``citizen``'s open trial: with the
        citizen, it tells this trial from the citizen's earlier and later ones."""
        return next(i + 1 for i, r in enumerate(self.book.rows)
                    if r.citizen == citizen and r.closing is None)

    def _trial_names(self) -> str:
        return trials_named([self.citizens[i].name for i in self.trials_open()])

    def _deal_actions(self, seat: Seat, own: tuple[int, ...]) -> list[ActionFamily]:
        """The deal actions ``seat`` may take now (free actions, while a trial is open); ``own``
        is how many cakes each of its citizens has, counted up to 2 (the least a bribe needs)."""
        if not self.options.deals:
            return []
        trials = tuple(self.trials_open())
        if not trials:
            return []
        families: list[ActionFamily] = []
        count = len(self.citizens)
        if count > len(own) and 2 in own:
            families.append(self.kept(("offer_bribe", seat, count, own, trials), self._bribe_family,
                                      seat, trials))
        answerable = tuple(d.id for d in self.deals.open_offers(seat))
        if answerable:
            families += self.kept(("answer_bribe", answerable), self._answer_families, answerable)
        mine = tuple(d.id for d in self.deals.own_offers(seat))
        if mine:
            families.append(self.kept(("withdraw_bribe", mine), self._withdraw_family, mine))
        # Who may still ally in each trial, worked out once here rather than as a menu per trial.
        with_cakes = [i for i in self.holdings[seat] if self.citizens[i].cakes]
        if not with_cakes:
            return families
        open_alliances, allied = self._open_alliances()
        founding = tuple(t for t in trials if any(i not in allied.get(t, ()) for i in with_cakes))
        if founding:
            families.append(self.kept(("found_alliance", seat, founding, trials),
                                      self._found_family, seat, founding, trials))
        joinable = tuple((a["id"], len(a["members"])) for a in open_alliances
                         if any(i not in allied[a["trial"]] for i in with_cakes))
        if joinable:
            families.append(self.kept(("join_alliance", seat, joinable), self._join_family, seat,
                                      tuple(i for i, _ in joinable)))
        return families

    def _bribe_family(self, seat: Seat, trials: tuple[int, ...]) -> ActionFamily:
        briber = tuple(i for i in self.holdings[seat] if self.citizens[i].cakes >= 2)
        voters = tuple(c.id for c in self.citizens if c.owner != seat)
        trial_names = tuple(self.citizens[i].name for i in trials)
        briber_names = tuple(self.citizens[i].name for i in briber)
        own = tuple(self.citizens[i].name for i in self.holdings[seat])
        return ActionFamily(
            "offer_bribe",
            {"from": Choice(briber, briber_names, worded(
                names_listed, "the deposit comes from one of your own citizens with at "
                "least 2 cakes: ", briber_names)),
             "trial": Choice(trials, trial_names, worded(open_trials_only, trial_names)),
             "voter": Choice(voters, tuple(self.citizens[i].name for i in voters),
                             worded(not_to_your_own, "a bribe is offered to another "
                                    "player's citizen", own)),
             "side": SIDE_CHOICE,
             "reward": depends(self._reward_limit, Chosen("from")),
             "cover": depends(self._cover_limit, Chosen("from"), Chosen("reward"))},
            help="Bribe a citizen (P+epsilon): if it votes your side in this trial and the "
                 "side loses, escrow reimburses its lost cakes (up to the cover) and pays "
                 "the reward; you deposit reward + cover")

    def _answer_families(self, answerable: tuple[int, ...]) -> list[ActionFamily]:
        answer = Choice(answerable, tuple(map(self._bribe_label, answerable)),
                        refusal=f"you may answer {self._bribe_names(answerable)}")
        return [ActionFamily("accept_bribe", {"deal": answer},
                             help="Accept a bribe offered to one of your citizens: "
                                  "it binds until the trial closes"),
                ActionFamily("decline_bribe", {"deal": answer},
                             help="Decline a bribe offered to one of your citizens")]

    def _withdraw_family(self, mine: tuple[int, ...]) -> ActionFamily:
        return ActionFamily(
            "withdraw_bribe",
            {"deal": Choice(mine, tuple(map(self._bribe_label, mine)),
                            refusal=f"you may withdraw {self._bribe_names(mine)}")},
            help="Withdraw a bribe not yet answered; the deposit comes back")

    def _found_family(self, seat: Seat, founding: tuple[int, ...], trials: tuple[int, ...]) -> ActionFamily:
        trial_names = tuple(self.citizens[i].name for i in trials)
        return ActionFamily(
            "found_alliance",
            {"trial": Choice(founding, tuple(self.citizens[i].name for i in founding),
                             worded(open_trials_only, trial_names)),
             "side": SIDE_CHOICE,
             "from": depends(self._founders, seat, Chosen("trial"))},
            help="Found an alliance in a trial: members deposit 1 cake and vote the "
                 "alliance's side; who votes the other side forfeits it to the loyal")

    def _join_family(self, seat: Seat, joinable: tuple[int, ...]) -> ActionFamily:
        names = tuple(map(self._alliance_name, joinable))
        return ActionFamily(
            "join_alliance",
            {"alliance": Choice(joinable, tuple(map(self._alliance_label, joinable, names)),
                                worded(names_listed, "your citizens may join ", names)),
             "citizen": depends(self._joiners, seat, Chosen("alliance"))},
            help="Join an alliance with one of your citizens, depositing 1 cake")

    def _bribe_name(self, deal_id: int) -> str:
        """A bribe as players name it, by its citizens: "Marat's bribe to Danton"."""
        condition = self.deals.deals[deal_id].condition
        briber, voter = self.citizens[condition["briber"]], self.citizens[condition["voter"]]
        return f"{briber.name}'s bribe to {voter.name}"

    def _bribe_label(self, deal_id: int) -> str:
        """A bribe as a menu offers it: its name and its promise."""
        condition = self.deals.deals[deal_id].condition
        trial = self.citizens[condition["trial"]].name
        return f"{self._bribe_name(deal_id)}: vote {_side_words(condition['side'])} on {trial}"

    def _alliance_label(self, alliance_id: int, name: str) -> str:
        """An alliance as a menu offers it: its ``name`` (:meth:`_alliance_name`) and its members."""
        members = ", ".join(self.citizens[m["citizen"]].name for m in self.alliances[alliance_id]["members"])
        return f"{name} ({members})"

    def _bribe_names(self, ids: tuple[int, ...]) -> str:
        return listed([self._bribe_name(i) for i in ids])

    def _alliance_name(self, alliance_id: int) -> str:
        """An alliance as players name it: "the alliance voting privileged on Robespierre"."""
        alliance = self.alliances[alliance_id]
        trial = self.citizens[alliance["trial"]].name
        return f"the alliance voting {_side_words(alliance['side'])} on {trial}"

    def _reward_limit(self, briber: object) -> Amount:
        if type(briber) is int and 0 <= briber < len(self.citizens):
            c = self.citizens[briber]
            return Amount(1, max(1, c.cakes - 1), 1,
                          f"{c.name} has {c.cakes} cakes, and a bribe deposits its reward and at "
                          "least 1 cake of cover")
        return Amount(1, 1)

    def _cover_limit(self, briber: object, reward: object) -> Amount:
        if type(briber) is int and 0 <= briber < len(self.citizens) and type(reward) is int:
            c = self.citizens[briber]
            return Amount(1, max(1, c.cakes - reward), 5,
                          f"{c.name} has {c.cakes} cakes, enough to cover at most "
                          f"{c.cakes - reward} lost cakes besides the reward of {reward}")
        return Amount(1, 1)

    def _joiners(self, seat: Seat, alliance: object) -> Choice:
        """Which of ``seat``'s citizens may join ``alliance``: with a cake for the deposit, and
        in no alliance of that trial yet."""
        if type(alliance) is not int or not 0 <= alliance < len(self.alliances):
            return Choice(())
        a = self.alliances[alliance]
        taken = self._allied(a["trial"])
        able = tuple(i for i in self.holdings[seat] if self.citizens[i].cakes and i not in taken)
        names = tuple(self.citizens[i].name for i in able)
        return Choice(able, names, worded(members_who_may, "a member deposits 1 cake and joins one "
                                          "alliance per trial", names, "may join",
                                          "none of your citizens may join"))

    def _founders(self, seat: Seat, trial: object) -> Choice:
        """Which of ``seat``'s citizens may found an alliance in ``trial``: with a cake for the
        deposit, and in no alliance of that trial yet."""
        taken = self._allied(trial) if type(trial) is int else set()
        able = tuple(i for i in self.holdings[seat] if self.citizens[i].cakes and i not in taken)
        names = tuple(self.citizens[i].name for i in able)
        return Choice(able, names, worded(members_who_may, "the founder deposits 1 cake and joins one "
                                          "alliance per trial", names, "may found it",
                                          "none of your citizens may"))

    def _allied(self, trial: int) -> set[int]:
        """Citizens in an open alliance of ``trial``'s open trial."""
        return self._open_alliances()[1].get(trial, _NOBODY)

    def _open_alliances(self) -> tuple[list[dict[str, Any]], dict[int, set[int]]]:
        """The open alliances, and by trial the citizens in one: worked out once per position,
        and again only when an alliance changed, as every alliance ever founded stays in
        :attr:`alliances`."""
        return self.at_this_position("open alliances", self._kept_open_alliances)

    def _kept_open_alliances(self) -> tuple[list[dict[str, Any]], dict[int, set[int]]]:
        return self.kept_while(("open alliances",), tuple(self.alliances), self._find_open_alliances)

    def _find_open_alliances(self) -> tuple[list[dict[str, Any]], dict[int, set[int]]]:
        found = [a for a in self.alliances if a["status"] == "open"]
        allied: dict[int, set[int]] = {}
        for a in found:
            allied.setdefault(a["trial"], set()).update(m["citizen"] for m in a["members"])
        return found, allied

    def _tally(self, key: str, n: int = 1) -> None:
        self.deal_tally[key] = self.deal_tally.get(key, 0) + n

    def _refund(self, account: tuple[str, int]) -> int:
        """Every deposit of ``account`` back to its depositor's sheet; returns the cakes."""
        back = 0
        for citizen, cakes in self.escrow.release(account):
            self.citizens[citizen].cakes += cakes
            back += cakes
        return back

    def do_offer_bribe(self, seat: Seat, action: Mapping[str, Any]) -> None:
        """The bribery attack: "If you vote like me in this trial and we lose, I promise I will
        reimburse your lost cakes and I will give one more cake as a reward", with the engine as
        the third party holding the briber's deposit (reward + cover) in escrow."""
        giver_number: int = action["from"]
        voter_number: int = action["voter"]
        briber, voter = self.citizens[giver_number], self.citizens[voter_number]
        trial, reward, cover = action["trial"], action["reward"], action["cover"]
        condition = {"trial": trial, "opened_row": self.trial_opened_row(trial), "briber": briber.id,
                     "voter": voter.id, "side": action["side"], "reward": reward, "cover": cover}
        deal = self.deals.offer(seat, seat, voter.owner, reward + cover, condition)
        briber.cakes -= reward + cover
        self.escrow.deposit(("bribe", deal.id), briber.id, reward + cover)
        self._tally("bribes_offered")
        self._tally("bribe_cakes_deposited", reward + cover)
        if self.record_events:
            self.emit("bribe_offered", deal=deal.id, briber=briber.id, voter=voter.id, trial=trial,
                      side=action["side"], reward=reward, cover=cover, deposit=reward + cover)

    def do_accept_bribe(self, seat: Seat, action: Mapping[str, Any]) -> None:
        """The bribed citizen's player accepts: the promise binds until the trial closes, and
        only the votes written in the Book from now on count for it."""
        deal = self.deals.accept(seat, action["deal"])
        self.accepted_at[deal.id] = len(self.book.rows)
        self._tally("bribes_accepted")
        if self.record_events:
            self.emit("bribe_accepted", deal=deal.id, voter=deal.condition["voter"])

    def do_decline_bribe(self, seat: Seat, action: Mapping[str, Any]) -> None:
        """The bribed citizen's player declines; the deposit goes back to the briber."""
        deal = self.deals.decline(seat, action["deal"])
        self._tally("bribes_declined")
        returned = self._refund(("bribe", deal.id))
        if self.record_events:
            self.emit("bribe_declined", deal=deal.id, voter=deal.condition["voter"], returned=returned)

    def do_withdraw_bribe(self, seat: Seat, action: Mapping[str, Any]) -> None:
        """The briber takes back an offer nobody has answered, and its deposit."""
        deal = self.deals.withdraw(seat, action["deal"])
        self._tally("bribes_withdrawn")
        returned = self._refund(("bribe", deal.id))
        if self.record_events:
            self.emit("bribe_withdrawn", deal=deal.id, briber=deal.condition["briber"], returned=returned)

    def do_found_alliance(self, seat: Seat, action: Mapping[str, Any]) -> None:
        """The alliance defence: "If you join our alliance against that citizen, you have to
        give 1 cake as a deposit"; the founder is its first member and deposits first."""
        trial = action["trial"]
        alliance = {"id": len(self.alliances), "trial": trial, "opened_row": self.trial_opened_row(trial),
                    "side": action["side"], "founder": action["from"], "members": [],
                    "status": "open"}
        self.alliances.append(alliance)
        self._tally("alliances_founded")
        if self.record_events:
            self.emit("alliance_founded", alliance=alliance["id"], founder=action["from"], trial=trial,
                      side=action["side"])
        self._join(alliance, action["from"])

    def do_join_alliance(self, seat: Seat, action: Mapping[str, Any]) -> None:
        """A citizen joins an open alliance and deposits 1 cake into escrow."""
        self._join(self.alliances[action["alliance"]], action["citizen"])

    def _join(self, alliance: dict[str, Any], citizen: int) -> None:
        self.citizens[citizen].cakes -= 1
        self.escrow.deposit(("alliance", alliance["id"]), citizen, 1)
        self._change_alliance(alliance, members=[*alliance["members"],
                                                 {"citizen": citizen, "since": len(self.book.rows)}])
        self._tally("alliance_members")
        if self.record_events:
            self.emit("alliance_joined", alliance=alliance["id"], citizen=citizen)

    def _change_alliance(self, alliance: dict[str, Any], **changes: Any) -> None:
        """Replace ``alliance`` in :attr:`alliances` by a copy with ``changes``: an alliance is
        never changed in place, so that what was worked out from it is kept while it is the
        same object (the view's alliances, the open ones)."""
        self.alliances[alliance["id"]] = {**alliance, **changes}

    def _votes_since(self, closing: int, voter: int, since: int) -> dict[str, int]:
        """Cakes ``voter`` put on each side of the trial counted by ``closing``, in Book rows
        written from row index ``since`` on."""
        out = {SANS_CULOTTE: 0, PRIVILEGED: 0}
        for r in self.book.rows[since:]:
            if r.closing == closing and r.voter == voter:
                out[r.side] += r.cakes
        return out

    def settle_deals(self, trial: int, verdict: str | None) -> None:
        """Settle the bribes and alliances of ``trial``'s trial, just closed by the Book
        (``verdict``) or abandoned at the end (``None``: every deposit goes back)."""
        if not self.deals.deals and not self.alliances:
            return
        closing = self.book.closings
        for deal in self.deals.lapse(accepted=verdict is None, which=about("trial", trial)):
            self._tally("bribes_lapsed")
            returned = self._refund(("bribe", deal.id))
            if self.record_events:
                self.emit("bribe_lapsed", deal=deal.id, returned=returned)
        for deal in self.deals.binding():
            if verdict is not None and deal.condition["trial"] == trial:
                self._settle_bribe(deal, closing, verdict)
        for alliance in [a for a in self.alliances if a["trial"] == trial and a["status"] == "open"]:
            if verdict is None:
                self._change_alliance(alliance, status="dissolved")
                returned = self._refund(("alliance", alliance["id"]))
                if self.record_events:
                    self.emit("alliance_dissolved", alliance=alliance["id"], returned=returned)
                continue
            self._settle_alliance(alliance, closing, verdict)

    def _settle_bribe(self, deal: Deal, closing: int, verdict: str) -> None:
        """The promise kept: if the bribed citizen voted the promised side (and never the
        other) since accepting, and that side lost, escrow pays its lost cakes up to the cover
        plus the reward; the rest of the deposit goes back to the briber."""
        c = deal.condition
        votes = self._votes_since(closing, c["voter"], self.accepted_at[deal.id])
        side = c["side"]
        voted_like = votes[side] > 0 and votes[_other_side(side)] == 0
        account = ("bribe", deal.id)
        if voted_like:
            self._tally("bribed_cakes_voted", votes[side])
            self._tally("bribes_won" if verdict == side else "bribes_lost")
        reimbursed = reward = 0
        if voted_like and verdict != side:
            reimbursed = self.escrow.take(account, c["briber"], min(votes[side], c["cover"]))
            reward = self.escrow.take(account, c["briber"], c["reward"])
            self.citizens[c["voter"]].cakes += reimbursed + reward
            self.deals.resolve(deal.id, reimbursed + reward)
            self._tally("bribes_paid")
            self._tally("bribe_cakes_paid", reimbursed + reward)
            self._tally("bribe_rewards_paid", reward)
        else:
            self.deals.resolve(deal.id, None)
        returned = self._refund(account)
        if self.record_events:
            self.emit("bribe_settled", deal=deal.id, briber=c["briber"], voter=c["voter"],
                      voted_like=voted_like, verdict=verdict, reimbursed=reimbursed, reward=reward,
                      returned=returned)

    def _settle_alliance(self, alliance: dict[str, Any], closing: int, verdict: str) -> None:
        """"If you vote against them in this trial, you get your deposit back. But if you vote
        like them, the alliance will give your deposit cake to any of its loyal members": a
        member who voted the other side since joining forfeits; the forfeits are shared evenly
        among the loyal (voted only the alliance's side), the remainder one cake each to the
        loyal in the order they joined. A member who did not vote gets its deposit back, and no
        share; with no loyal member, every deposit goes back."""
        side, account = alliance["side"], ("alliance", alliance["id"])
        loyal, disloyal, idle = [], [], []
        for m in alliance["members"]:
            votes = self._votes_since(closing, m["citizen"], m["since"])
            if votes[_other_side(side)]:
                disloyal.append(m["citizen"])
            elif votes[side]:
                loyal.append(m["citizen"])
            else:
                idle.append(m["citizen"])
        shares: list[dict[str, int]] = []
        forfeited = 0
        if loyal and disloyal:
            forfeited = sum(self.escrow.take(account, c) for c in disloyal)
            each, extra = divmod(forfeited, len(loyal))
            for i, citizen in enumerate(loyal):
                share = each + (1 if i < extra else 0)
                self.citizens[citizen].cakes += share
                shares.append({"citizen": citizen, "cakes": share})
        returned = self._refund(account)
        self._change_alliance(alliance, status="settled")
        self._tally("alliance_loyal", len(loyal))
        self._tally("alliance_disloyal", len(disloyal))
        self._tally("alliance_deposits_forfeited", forfeited)
        if verdict == side:
            self._tally("alliances_won")
        if self.record_events:
            self.emit("alliance_settled", alliance=alliance["id"], trial=alliance["trial"], side=side,
                      verdict=verdict, loyal=loyal, disloyal=disloyal, idle=idle, forfeited=forfeited,
                      shares=shares, returned=returned)

    # -- ending ------------------------------------------------------------------------------
    def do_agree_end(self, seat: Seat, action: Mapping[str, Any]) -> None:
        """Agree (or withdraw agreement) to end; once all agree, each player plays one last turn."""
        self.agrees_to_end[seat] = action["agree"]
        if self.record_events:
            self.emit("agrees_to_end", seat=seat, agree=action["agree"])
        if all(self.agrees_to_end):
            self.end_agreed = True
            if self.record_events:
                self.emit("end_agreed")

    def do_give_cakes(self, seat: Seat, action: Mapping[str, Any]) -> None:
        """A deposit, bribe or reimbursement: cakes from one citizen's sheet to another's."""
        giver_number: int = action["from"]
        receiver_number: int = action["to"]
        cakes: int = action["cakes"]
        giver, receiver = self.citizens[giver_number], self.citizens[receiver_number]
        giver.cakes -= cakes
        receiver.cakes += cakes
        if self.record_events:
            self.emit("cakes_given", giver=giver.id, receiver=receiver.id, cakes=cakes)

    def _game_over(self, reason: str) -> None:
        self.settle_open_trials()
        self.phase = OVER_PHASE
        self.end_reason = reason
        if self.record_events:  # the result is worked out for the event only when it is kept
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
                self.citizens[cast(int, row.voter)].cakes += row.cakes
            c.on_trial = False
            self.closings.append({"closing": self.book.closings, "citizen": c.id,
                                  "turn": self.turn, "verdict": None, "returned": True})
            if self.record_events:
                self.emit("trial_abandoned", citizen=c.id, returned=len(rows))
            self.settle_deals(c.id, None)

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
                   # whether the Schelling vote finds the truth: verdicts equal to the true nature
                   "verdicts_true": sum(1 for c in self.closings
                                        if c.get("verdict") and c["verdict"] == tallies[c["citizen"]].nature),
                   "grabbers": sum(r == GRABBER for r in self.roles),
                   **{k: float(self.deal_tally.get(k, 0)) for k in DEAL_METRICS}}
        return Result.from_scores([b["score"] for b in breakdown], breakdown, metrics)

    # -- views -------------------------------------------------------------------------------
    def public_view(self) -> dict[str, Any]:
        """What every seat sees: everything but the roles and the flaps of the citizens held."""
        return self._public_view(False)

    def read_only_public_view(self) -> dict[str, Any]:
        """:meth:`public_view`, sharing with the views of earlier positions the parts that did not
        change (Book rows, closings, bribes, alliances): for a reader that never changes it."""
        return self._public_view(True)

    def _public_view(self, shared: bool) -> dict[str, Any]:
        over = self.phase is OVER_PHASE
        citizen = self.current_citizen()
        book = self.book
        # Rows are only added, and a row changes only when a closing marks it, which the Book
        # counts; closings are only added; a deal or an alliance changes by being replaced.
        at_book = (book, book.closings, len(book.rows))
        scales = self._part(shared, ("scales",), at_book, self._open_scales)
        out: dict[str, Any] = {
            "game": self.info.name, "players": self.players, "phase": self.phase,
            "turn": self.turn + 1, "rounds_completed": self.rounds_completed,
            "first_player": self.first_player, "current_player": self.current,
            "current_citizen": None if citizen is None else citizen.id,
            "step": self.step if self.phase is TURN_PHASE else 8 if self.phase is RECRUIT_PHASE else None,
            "bastille": self.bastille.cakes, "bastille_ledger": self.bastille.ledger(),
            "last_roll": self.last_roll,
            "agrees_to_end": list(self.agrees_to_end), "end_agreed": self.end_agreed,
            "final_turns_left": self.final_turns_left,
            "holdings": [list(h) for h in self.holdings],
            "recruits": [sum(self.citizens[i].recruited for i in h) for h in self.holdings],
            "citizens": [self._citizen_view(shared, c, scales) for c in self.citizens],
            "book": self._part(shared, ("book",), at_book, lambda: self._rows_view(shared)),
            "closings": self._part(shared, ("closings",), (self.closings, len(self.closings)),
                                   lambda: self._closings_view(shared)),
            "deals": self._part(shared, ("deals",), tuple(self.deals.deals),
                                lambda: self._deals_view(shared)),
            "alliances": self._part(shared, ("alliances",), tuple(self.alliances),
                                    lambda: self._alliances_view(shared)),
            "escrow": self._part(shared, ("escrow",), self.escrow.snapshot(), self._escrow_view),
            "role_choice": None if self.role_choice is None else self.role_choice.public(),
            "pending": [p.as_dict() for p in self.pending().values()],
            "options": self._part(shared, ("options",), self.options, self.options.as_dict),
        }
        if over:
            out["end_reason"] = self.end_reason
            out["reveal"] = {"roles": list(self.roles),
                             "citizens": [self.flap(c) for c in self.citizens]}
            out["result"] = self.result().as_dict()
        return out

    def private_view(self, seat: Seat) -> dict[str, Any]:
        """``seat``'s role, its sealed name and the flaps of the citizens it holds."""
        return {"role": self.role_of(seat), "sealed_name": self.sealed_name(seat),
                "citizens": {str(i): self.flap(self.citizens[i]) for i in self.holdings[seat]}}

    def read_only_private_view(self, seat: Seat) -> dict[str, Any]:
        """:meth:`private_view`, handed out again while what it shows is the same: the seat's role,
        its sealed choice and how many citizens it holds (holdings are only added to, and a
        citizen's sheet, owner and first sheet never change; a puppet's nature follows the role)."""
        sealed = None if self.role_choice is None else self.role_choice.submitted(seat)
        source = (self.roles[seat], sealed, len(self.holdings[seat]))
        key = ("private", seat)
        found = self.kept_for(key, source)
        return self.keep(key, source, self.private_view(seat)) if found is NOT_KEPT else found

    def _open_scales(self) -> dict[int, dict[str, int]]:
        """Cakes on each scale of every open trial, by citizen, from one pass over the Book."""
        scales: dict[int, dict[str, int]] = {}
        for r in self.book.rows:
            if r.closing is None:
                citizen = cast(int, r.citizen)
                totals = scales.get(citizen)
                if totals is None:
                    totals = scales[citizen] = dict(_NO_SCALES)
                totals[r.side] += r.cakes
        return scales

    def _rows_view(self, shared: bool) -> list[dict[str, Any]]:
        rows = self.book.rows
        if shared:
            # a row changes only when a trial closes: while none did, the rows of the last list
            # are the same, and only the rows added since are made
            last = self.kept_for(("rows",), self.book.closings)
            if last is not NOT_KEPT and len(last) <= len(rows):
                return self.keep(("rows",), self.book.closings, [
                    *last, *(self._row_view((i, rows[i])) for i in range(len(last), len(rows)))])
        # a row is marked in place when its trial closes: it is made again when its closing changed
        out = self._listed(shared, "row", [(i, ((i, r), r.closing)) for i, r in enumerate(rows)],
                           lambda seen: self._row_view(seen[0]))
        return self._show(shared, ("rows",), self.book.closings, out)

    def _closings_view(self, shared: bool) -> list[dict[str, Any]]:
        return self._listed(shared, "closing", list(enumerate(self.closings)), self._closing_view)

    def _deals_view(self, shared: bool) -> list[dict[str, Any]]:
        return self._listed(shared, "deal", [(d.id, d) for d in self.deals.deals], self._bribe_view)

    def _alliances_view(self, shared: bool) -> list[dict[str, Any]]:
        return self._listed(shared, "alliance", [(a["id"], a) for a in self.alliances], self._alliance_view)

    def _listed(self, shared: bool, kind: str, items: list[tuple[object, Any]],
                make: Callable[[Any], dict[str, Any]]) -> list[dict[str, Any]]:
        """A list of the public view: for each ``(number, item)`` of ``items``, ``make(item)``,
        or what the last read-only view showed for ``(kind, number)`` while the item is the same
        (:meth:`_shown`)."""
        out = []
        for number, item in items:
            key = (kind, number)
            found = self._shown(shared, key, item)
            out.append(self._show(shared, key, item, make(item)) if found is NOT_KEPT else found)
        return out

    def _escrow_view(self) -> dict[str, Any]:
        return {"cakes": self.escrow.held(),
                "deposits": [{"for": a[0], "id": a[1], "depositor": d, "cakes": n}
                             for a, d, n in self.escrow.entries()]}

    def _shown(self, shared: bool, key: tuple[Any, ...], source: object) -> Any:
        """A part of the public view made from ``source`` (what it shows, compared by value): a
        whole list (the Book, the closings, the deals, the alliances, the escrow, the open scales)
        or one item of it (a row, a closing, a bribe, an alliance, a citizen), as the last
        read-only view showed it; :data:`NOT_KEPT` when it must be made (:meth:`_show`). If
        ``shared``, a part is made again only when ``source`` changed since the last read-only
        view, which share the parts that did not change: a list that grows with the game is handed
        out again as it is while nothing in it changed, rather than gone through item by item.
        It is two calls rather than one taking the maker, so that the compiled build makes
        each part by a native call."""
        return self.kept_for(key, source) if shared else NOT_KEPT

    def _show(self, shared: bool, key: tuple[Any, ...], source: object, made: T) -> T:
        """``made``, the part of the public view made from ``source``, kept if ``shared``."""
        return self.keep(key, source, made) if shared else made

    def _part(self, shared: bool, key: tuple[Any, ...], source: object, make: Callable[[], T]) -> T:
        """A whole part of the public view (:meth:`_shown`), made by ``make()`` when it must be."""
        found = self._shown(shared, key, source)
        return self._show(shared, key, source, make()) if found is NOT_KEPT else cast(T, found)

    def _citizen_view(self, shared: bool, c: Citizen, scales: Mapping[int, dict[str, int]]
                      ) -> dict[str, Any]:
        """Citizen ``c``'s sheet as the public view shows it, with its scales if on trial (a
        citizen's number, owner and name never change)."""
        on_scales = scales.get(c.id) if c.on_trial else None
        key = ("citizen", c.id)
        source = (c.cakes, c.cockades, c.bastille_cakes, c.cap, c.on_trial, c.emigrated, c.recruited,
                  on_scales)
        found = self._shown(shared, key, source)
        if found is NOT_KEPT:
            return self._show(shared, key, source, self._citizen_row(c, on_scales))
        return cast(dict[str, Any], found)

    @staticmethod
    def _citizen_row(c: Citizen, on_scales: dict[str, int] | None) -> dict[str, Any]:
        return {"id": c.id, "owner": c.owner, "name": c.name, "cakes": c.cakes, "cockades": c.cockades,
                "bastille_cakes": c.bastille_cakes, "status": c.status, "emigrated": c.emigrated,
                "recruited": c.recruited,
                "scales": (on_scales or dict(_NO_SCALES)) if c.on_trial else None}

    @staticmethod
    def _row_view(numbered: tuple[int, BookRow]) -> dict[str, Any]:
        i, r = numbered
        return {"row": i + 1, "voter": r.voter, "citizen": r.citizen, "cakes": r.cakes,
                "side": r.side, "turn": r.turn, "closing": r.closing}

    @staticmethod
    def _closing_view(c: dict[str, Any]) -> dict[str, Any]:
        if "rewards" not in c:
            return dict(c)
        return {**c, "rewards": [dict(r) for r in c["rewards"]], "lost": [dict(v) for v in c["lost"]]}

    @staticmethod
    def _alliance_view(a: dict[str, Any]) -> dict[str, Any]:
        return {**a, "members": [dict(m) for m in a["members"]]}

    def _bribe_view(self, deal: Deal) -> dict[str, Any]:
        out = {"id": deal.id, "status": deal.status, "paid": deal.paid, "payer": deal.payer,
               "payee": deal.payee, **deal.condition}
        out["deposit"] = deal.amount
        return out

    # -- search and replay -------------------------------------------------------------------
    def determinize(self, seat: Seat, rng: random.Random) -> Self:
        """Resample what ``seat`` does not know: other players' roles, the flaps of sheets it has
        not seen (shuffled among themselves; sheets drawn beyond the printed stack redrawn
        50/50), and the future of the die."""
        other = self.reseeded_clone(rng.getrandbits(64))
        if self.phase is OVER_PHASE:
            return other
        known = {self.citizens[i].sheet for i in self.holdings[seat]}
        unknown = [i for i in range(self.stack_size) if i not in known]
        flaps = [self.sheets[i] for i in unknown]
        shuffle(rng, flaps)
        for i, flap in zip(unknown, flaps, strict=True):
            other.sheets[i] = flap
        for i in range(self.stack_size, len(self.sheets)):
            if i not in known:
                other.sheets[i] = choice(rng, NATURES)
        for s in range(self.players):
            if s == seat:
                continue
            if other.roles[s] is not None:
                other.roles[s] = choice(rng, ROLES)
            elif other.role_choice is not None and other.role_choice.submitted(s) is not None:
                sealed = dict(other.role_choice.submitted(s) or {})
                sealed["role"] = choice(rng, ROLES)
                other.role_choice.replace(s, sealed)
        other.log = self.log_for(seat)
        return other
