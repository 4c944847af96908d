"""The flat action codec: every game's actions as one fixed ``Discrete(size)`` space, chosen step by
step.

An action of Tricolore is a JSON object (``{"type": "cake_vote", "citizen": 3, "side":
"sans_culotte", "cakes": 2}``): far too many to number one by one. :class:`FlatActions` numbers its
*parts* instead and builds an action in steps, as :meth:`ActionSpace.steps` decomposes it: first
the kind, then each required parameter in the family's order. A list parameter (Culottes-trials'
grabbers, Let Them Eat Cake's Cake cards) is chosen one item at a time, in the order the domain
lists its options, then closed with its "done" index; a Revolution! bid is placed one chip at a
time with :class:`~tricolore.games.revolution.bids.ChipByChip`, one (currency, space) pair a step.

**The layout.** Indices ``0 .. len(kinds)-1`` are the kinds of action of the game (every
``do_<kind>`` method of its state, sorted), then come blocks of *slots*, one block per vocabulary
of parameter values. A slot is keyed by the value itself where the values come from a fixed
finite vocabulary — a seat, an area, a space, a side, a card's name, a citizen's number, an amount
— so an index means the same thing in every state of a game: in Culottes the slot "citizen 3"
means citizen 3 whichever parameter (the citizen voted on, the giver, the voter) is being chosen.
Values that are not a fixed vocabulary (deal and alliance numbers, which grow through a game) are
keyed by their position among the values offered now. :meth:`FlatActions.describe` says what each
index means, and :meth:`FlatActions.table` lists them all.

**Bounds.** Amounts are capped: an amount above its block's top (Culottes: 20 cakes, a bribe's
reward and cover 10; Let Them Eat Cake: 12 Medals or Generals; Bread and Circuses: 30 Gold) cannot
be spelled. Culottes numbers at most ``4 × players × citizen sheets per player`` citizens (far more
than a game recruits); deals and alliances are offered by position, the first 8. Required free
text is one of the game's own example phrases (Culottes-trials' statements and arguments);
optional parameters (a citizen's name) are left out, so the game's default applies.

**Guarantees.** Every complete action :meth:`FlatActions.choose` returns is legal
(``state.legal_actions(seat)`` or ``state.free_actions(seat)`` contains it), because each step
offers only values from which the rest of the action can still be completed. A seat that is asked
to act always has a mask with at least one index. The codec holds no game state: a
:class:`Partial` is an immutable value, so searches may copy and branch it freely.

A seat is offered its prompt's actions and its free actions (gifts, deals, agreeing to end) in one
space, as :func:`tricolore.agents.offered_actions` offers them to a trading agent.
"""

from __future__ import annotations

import inspect
import itertools
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tricolore.core.actions import ActionFamily, Amount, Choice, Domain, Subset, Text
from tricolore.core.errors import IllegalAction, OptionsError
from tricolore.core.model import Options, Seat, State
from tricolore.core.registry import get_game

DEAL_POSITIONS = 8
"""Open deals (and Culottes alliances) reachable by position: the first 8 offered."""
CITIZENS_PER_SHEET = 4
"""Culottes numbers ``CITIZENS_PER_SHEET × players × citizen sheets per player`` citizens."""
FALLBACK_POSITIONS = 32
"""A game without a declared layout: values of a choice offered by position, the first 32."""


def _key(value: object) -> tuple[str, object]:
    # JSON true must not pass for the integer 1, nor 1 for true.
    return (type(value).__name__, value)


@dataclass(frozen=True, slots=True)
class Partial:
    """An action being built by one seat: the kind (once chosen), the parameters chosen so far in
    order, and the items of a list parameter or the chips of a bid in the making.

    Immutable: every step makes a new one, so a search may keep and branch them freely.
    """

    kind: str | None = None
    chosen: tuple[tuple[str, Any], ...] = ()
    items: tuple[Any, ...] | None = None
    """The items of the list parameter being chosen (``None``: no list in the making)."""
    chips: tuple[tuple[str, str], ...] | None = None
    """The (currency, space) chips of the bid being placed (``None``: no bid in the making)."""
    path: tuple[int, ...] = ()
    """The flat indices chosen so far, in order."""

    @property
    def empty(self) -> bool:
        """Whether nothing has been chosen yet."""
        return self.kind is None

    def action(self) -> dict[str, Any]:
        """The parameters chosen so far, as an action."""
        out: dict[str, Any] = {"type": self.kind}
        for name, value in self.chosen:
            out[name] = value
        return out


# -- slot blocks --------------------------------------------------------------------------------

@dataclass(eq=False)
class Block:
    """A block of consecutive slots: one vocabulary of parameter values."""

    name: str
    offset: int = field(default=0, init=False)

    @property
    def size(self) -> int:
        """How many slots the block holds."""
        raise NotImplementedError

    def label(self, slot: int) -> str:
        """What slot ``slot`` of the block means."""
        raise NotImplementedError


@dataclass(eq=False)
class Values(Block):
    """One slot per value of a fixed vocabulary (seats, areas, card names, amounts...).

    ``strict``: a value offered outside the vocabulary is a bug in the layout (raise); otherwise
    (a capped vocabulary, such as amounts) it is simply not reachable.
    """

    values: tuple[object, ...] = ()
    labels: tuple[str, ...] | None = None
    strict: bool = True
    _index: dict[tuple[str, object], int] = field(default_factory=dict, init=False, repr=False)

    def __post_init__(self) -> None:
        self._index = {_key(v): i for i, v in enumerate(self.values)}
        numbers = [v for v in self.values if type(v) is int]
        whole = bool(numbers) and len(numbers) == len(self.values)
        self.span: tuple[int, int] | None = (
            (numbers[0], numbers[-1]) if whole and numbers == list(range(numbers[0], numbers[-1] + 1))
            else None)
        """``(first, last)`` when the values are the whole numbers from first to last."""

    @property
    def size(self) -> int:
        """How many slots the block holds."""
        return len(self.values)

    def slot(self, value: object) -> int | None:
        """The slot of ``value``, or ``None`` if it is outside the vocabulary."""
        return self._index.get(_key(value))

    def label(self, slot: int) -> str:
        """What slot ``slot`` of the block means."""
        if self.labels is not None:
            return f"{self.name} {self.labels[slot]}"
        value = self.values[slot]
        if value is None or isinstance(value, bool):
            return f"{self.name} {'none' if value is None else str(value).lower()}"
        return f"{self.name} {value}"


@dataclass(eq=False)
class Positions(Block):
    """One slot per position among the values offered now (values with no fixed vocabulary)."""

    count: int = DEAL_POSITIONS

    @property
    def size(self) -> int:
        """How many slots the block holds."""
        return self.count

    def label(self, slot: int) -> str:
        """What slot ``slot`` of the block means."""
        return f"{self.name}: option {slot + 1} offered now"


@dataclass(eq=False)
class Items(Block):
    """A list parameter chosen one item at a time: one slot per item (keyed by value, or by
    position when ``values`` is ``None``), then one slot that closes the list."""

    values: tuple[object, ...] | None = None
    count: int = 0
    _index: dict[tuple[str, object], int] = field(default_factory=dict, init=False, repr=False)

    def __post_init__(self) -> None:
        if self.values is not None:
            self.count = len(self.values)
            self._index = {_key(v): i for i, v in enumerate(self.values)}

    @property
    def size(self) -> int:
        """How many slots the block holds: the items, and "done"."""
        return self.count + 1

    @property
    def done(self) -> int:
        """The slot that closes the list."""
        return self.count

    def label(self, slot: int) -> str:
        """What slot ``slot`` of the block means."""
        if slot == self.done:
            return f"{self.name}: done"
        if self.values is None:
            return f"{self.name}: add option {slot + 1} offered now"
        return f"{self.name}: add {self.values[slot]}"


@dataclass(eq=False)
class Chips(Block):
    """A Revolution! bid, chip by chip: one slot per (currency, space) of the Bidding Chart."""

    pairs: tuple[tuple[str, str], ...] = ()
    chart: tuple[Any, ...] = ()

    @property
    def size(self) -> int:
        """How many slots the block holds."""
        return len(self.pairs)

    def label(self, slot: int) -> str:
        """What slot ``slot`` of the block means."""
        currency, space = self.pairs[slot]
        return f"{self.name}: one {currency.capitalize()} chip on the {space}"


@dataclass(eq=False)
class Phrases(Block):
    """Required free text: one slot per example phrase the game's domain offers."""

    count: int = 0

    @property
    def size(self) -> int:
        """How many slots the block holds."""
        return self.count

    def label(self, slot: int) -> str:
        """What slot ``slot`` of the block means."""
        return f"{self.name}: example phrase {slot + 1}"


# -- game layouts -------------------------------------------------------------------------------

@dataclass
class Layout:
    """A game's flat action space: its kinds, and which block each parameter is chosen in.

    ``params`` maps a parameter name, or ``"kind.name"`` for one kind only, to its block; a
    parameter it does not name falls back on ``by_domain`` (a block per domain type).
    """

    kinds: tuple[str, ...]
    params: dict[str, Block]
    by_domain: dict[type, Block] = field(default_factory=dict)

    def block(self, kind: str, name: str, domain: Domain) -> Block:
        """The block ``name`` of ``kind`` is chosen in."""
        found = self.params.get(f"{kind}.{name}") or self.params.get(name)
        if found is None:
            for cls in type(domain).__mro__:
                if cls in self.by_domain:
                    return self.by_domain[cls]
            raise OptionsError(f"the flat action space has no place for the {name} of a {kind}")
        return found


def _kinds(state_class: type) -> tuple[str, ...]:
    return tuple(sorted(name[3:] for name, _ in inspect.getmembers(state_class)
                        if name.startswith("do_")))


def _seats(players: int, name: str = "seat", none: str | None = None) -> Values:
    values: tuple[object, ...] = tuple(range(players))
    if none is not None:
        values += (None,)
    return Values(name, values=values,
                  labels=tuple(str(s) for s in range(players)) + ((none,) if none else ()))


def _amounts(name: str, top: int, low: int = 1) -> Values:
    return Values(name, values=tuple(range(low, top + 1)), strict=False)


def _culottes(state_class: type, players: int, options: Options) -> Layout:
    from tricolore.games.culottes.book import SIDES
    from tricolore.games.culottes.data import ROLES

    sheets = getattr(options, "citizen_sheets_per_player", 2)
    citizen = Values("citizen", values=tuple(range(CITIZENS_PER_SHEET * players * sheets)), strict=False)
    deal = Positions("deal")
    return Layout(_kinds(state_class), {
        "role": Values("role", values=ROLES), "side": Values("side", values=SIDES),
        "agree": Values("agree", values=(True, False)),
        "citizen": citizen, "from": citizen, "to": citizen, "voter": citizen, "trial": citizen,
        "cakes": _amounts("cakes", 20), "reward": _amounts("reward", 10), "cover": _amounts("cover", 10),
        "deal": deal, "alliance": Positions("alliance")})


def _trials(state_class: type, players: int, options: Options) -> Layout:
    from tricolore.games.culottes_trials.rules import EXAMPLE_ARGUMENTS, EXAMPLE_STATEMENTS

    boolean = Values("answer", values=(True, False))
    return Layout(_kinds(state_class), {
        "truth": boolean, "guess": boolean, "agree": boolean,
        "statement": Phrases("statement", count=len(EXAMPLE_STATEMENTS)),
        "text": Phrases("argument", count=len(EXAMPLE_ARGUMENTS)),
        "grabbers": Items("grabbers", values=tuple(range(players)))})


def _cake(state_class: type, players: int, options: Options) -> Layout:
    from tricolore.games.let_them_eat_cake.data import PANTRY, STARTER_CAKES

    seat = _seats(players, none="nobody")
    return Layout(_kinds(state_class), {
        "to": seat, "from": seat, "winner": seat, "candidate": seat, "take_from": seat,
        "card": Values("drawn card", values=tuple(range(players))),
        "safe": Values("safe", values=(True, False)),
        "medals": _amounts("medals", 12), "generals": _amounts("generals", 12),
        "cards": Items("stash card", values=tuple(range(len(PANTRY) + len(STARTER_CAKES))))})


def _revolution(state_class: type, players: int, options: Options) -> Layout:
    from tricolore.games.revolution.data import AREAS, CURRENCIES, EDITIONS

    chart = EDITIONS[getattr(options, "edition", "seed")].chart
    seat = _seats(players)
    area = Values("area", values=tuple(a.name for a in AREAS))
    return Layout(_kinds(state_class), {
        "area": area, "first_area": area, "second_area": area,
        "victim": seat, "first_owner": seat, "second_owner": seat,
        "placement": Chips("bid", pairs=tuple((c, s.name) for c in CURRENCIES for s in chart
                                              if s.allows(c)), chart=chart)})


def _bread(state_class: type, players: int, options: Options) -> Layout:
    from tricolore.games.bread_and_circuses.data import CARDS, TILES
    from tricolore.games.bread_and_circuses.rules import DEAL_CONDITIONS, DEAL_ROUNDS

    return Layout(_kinds(state_class), {
        "tile": Values("tile", values=(*TILES, None)), "icon": Values("icon", values=TILES),
        "card": Values("sabotage card", values=tuple(CARDS)),
        "target": _seats(players, "target", none="nobody"), "to": _seats(players),
        "gold": _amounts("gold", 30), "condition": Values("condition", values=DEAL_CONDITIONS),
        "when": Values("when", values=DEAL_ROUNDS), "deal": Positions("deal")})


LAYOUTS: dict[str, Callable[[type, int, Options], Layout]] = {
    "culottes": _culottes, "culottes-trials": _trials, "let-them-eat-cake": _cake,
    "revolution": _revolution, "bread-and-circuses": _bread}
"""The declared layout of each built-in game; any other registered game gets :func:`fallback`."""


def fallback(state_class: type) -> Layout:
    """The layout of a game without a declared one: its kinds, then every choice by position (the
    first 32 offered), amounts 0 to 20, list items by position, text from its examples, and any
    other domain that lists its values by position (a family whose domain cannot is not offered)."""
    choice = Positions("choice", count=FALLBACK_POSITIONS)
    return Layout(_kinds(state_class), {}, {
        Choice: choice,
        Amount: _amounts("amount", 20, low=0),
        Subset: Items("item", count=FALLBACK_POSITIONS),
        Text: Phrases("text", count=8),
        Domain: choice})


# -- the codec ----------------------------------------------------------------------------------

Option = tuple[int, Any]
"""A step's offer: the flat index, and the value (or chip, or item) it stands for."""
_DONE = object()


class FlatActions:
    """Every registered game's actions as one fixed Discrete(size) space, built step by step.

    >>> import tricolore
    >>> codec = FlatActions("culottes", 4)
    >>> state = tricolore.make("culottes", 4, seed=1)
    >>> partial = codec.start()
    >>> [codec.describe(i) for i in codec.mask(state, 0, partial).nonzero()[0]]
    ['kind choose_role']
    >>> partial, action = codec.choose(state, 0, partial, codec.index_of_kind("choose_role"))
    >>> partial, action = codec.choose(state, 0, partial, codec.describe_all().index("role grabber"))
    >>> action
    {'type': 'choose_role', 'role': 'grabber'}
    """

    def __init__(self, game: str, players: int, options: Mapping[str, Any] | None = None) -> None:
        found = get_game(game)
        info = found.info
        if type(players) is not int or not info.min_players <= players <= info.max_players:
            raise OptionsError(f"{info.title} is for {info.min_players} to {info.max_players} players; "
                               f"you asked for {players!r}")
        self.game = info.name
        self.players = players
        chosen = options if isinstance(options, Options) else found.info.options.from_mapping(options)
        chosen.validate(players)
        self.options = chosen
        state_class = getattr(found, "state_class", None) or type(found.new(players, 0, chosen))
        make = LAYOUTS.get(self.game)
        self.layout = fallback(state_class) if make is None else make(state_class, players, chosen)
        self.kinds = self.layout.kinds
        self._kind_index = {k: i for i, k in enumerate(self.kinds)}
        blocks: list[Block] = []
        for block in [*self.layout.params.values(), *self.layout.by_domain.values()]:
            if all(block is not b for b in blocks):
                blocks.append(block)
        offset = len(self.kinds)
        for block in blocks:
            block.offset = offset
            offset += block.size
        self.blocks = tuple(blocks)
        self.size: int = offset
        self._bids: dict[tuple[int, tuple[tuple[str, str], ...]], tuple[Domain, Any]] = {}

    # -- the contract ---------------------------------------------------------------------------
    def start(self) -> Partial:
        """An action with nothing chosen yet."""
        return Partial()

    def mask(self, state: State, seat: Seat, partial: Partial) -> np.ndarray:
        """The indices ``seat`` may choose next (1) and the others (0), as int8 of shape (size,)."""
        out = np.zeros(self.size, dtype=np.int8)
        for index, _ in self.offers(state, seat, partial):
            out[index] = 1
        return out

    def choose(self, state: State, seat: Seat, partial: Partial, index: int
               ) -> tuple[Partial, dict[str, Any] | None]:
        """The partial after choosing ``index``, and the whole action once it is complete (the
        partial is then a fresh start); :class:`IllegalAction` with a sentence for an index the
        mask rules out, the partial unchanged."""
        if type(index) is not int and not isinstance(index, np.integer):
            raise IllegalAction("malformed", f"an action index must be a whole number; you sent {index!r}")
        index = int(index)
        for offered, value in self.offers(state, seat, partial):
            if offered == index:
                return self._step(state, seat, partial, value, index)
        self._check_range(index)
        raise IllegalAction("masked_out", f"{self.describe(index)} is not allowed now "
                            f"({self._at(partial)})")

    def describe(self, index: int) -> str:
        """What ``index`` means, for people and docs: ``"kind cake_vote"``, ``"citizen 3"``,
        ``"bid: one Force chip on the Printer"``."""
        self._check_range(index)
        if index < len(self.kinds):
            return f"kind {self.kinds[index]}"
        for block in self.blocks:
            if block.offset <= index < block.offset + block.size:
                return block.label(index - block.offset)
        raise AssertionError("every index is in a block")  # pragma: no cover

    def _check_range(self, index: int) -> None:
        if not 0 <= index < self.size:
            raise IllegalAction("malformed", f"an action index is from 0 to {self.size - 1}; "
                                f"you sent {index}")

    # -- helpers beyond the contract ------------------------------------------------------------
    def describe_all(self) -> list[str]:
        """What every index means, in order."""
        return [self.describe(i) for i in range(self.size)]

    def table(self) -> list[dict[str, Any]]:
        """The layout as JSON: each block's name, first index and size."""
        return [{"block": "kind", "offset": 0, "size": len(self.kinds)}] + [
            {"block": b.name, "offset": b.offset, "size": b.size} for b in self.blocks]

    def index_of_kind(self, kind: str) -> int:
        """The index of the kind ``kind``."""
        try:
            return self._kind_index[kind]
        except KeyError:
            raise OptionsError(f"{self.game} has no kind of action {kind!r}") from None

    @staticmethod
    def chosen_indices(partial: Partial) -> tuple[int, ...]:
        """The flat indices chosen so far in ``partial``, in order."""
        return partial.path

    def legal_indices(self, state: State, seat: Seat, partial: Partial) -> list[int]:
        """The indices the mask allows, in order."""
        return sorted(index for index, _ in self.offers(state, seat, partial))

    def spell(self, state: State, seat: Seat, action: Mapping[str, Any]) -> list[int]:
        """The indices that build ``action``: what a named strategy plays through the flat space.

        Optional parameters it names are left out, and required free text that is not one of the
        example phrases becomes the first phrase offered (text does not change the rules); an
        :class:`IllegalAction` with a sentence if the flat space cannot spell it (an amount over
        its cap, say)."""
        partial = self.start()
        out: list[int] = []
        while True:
            pick = self._pick(state, seat, partial, action)
            if pick is None:
                raise IllegalAction("unspellable", f"the flat action space cannot spell {dict(action)} "
                                    f"({self._at(partial)})")
            out.append(pick)
            partial, done = self.choose(state, seat, partial, pick)
            if done is not None:
                return out

    # -- the steps ------------------------------------------------------------------------------
    def _families(self, state: State, seat: Seat) -> list[ActionFamily]:
        return [*state.legal_actions(seat).families, *state.free_actions(seat).families]

    def offers(self, state: State, seat: Seat, partial: Partial) -> list[Option]:
        """What ``seat`` may choose next: (flat index, value) pairs, each leading to a legal
        action (read-only: the list is kept with the position, which forgets it once changed)."""
        memo: dict[Any, Any] | None = getattr(state, "_memo", None)
        if memo is not None:
            # The mask and then the choice of one step ask for the same offers: the state's own
            # memo (cleared whenever the state changes) keeps the last ones of each seat.
            found = memo.get(("flat offers", seat))
            if found is not None and found[0] is self and (found[1] is partial or found[1] == partial):
                return found[2]
            offers = self._offers(state, seat, partial)
            memo["flat offers", seat] = (self, partial, offers)
            return offers
        return self._offers(state, seat, partial)

    def _offers(self, state: State, seat: Seat, partial: Partial) -> list[Option]:
        families = self._families(state, seat)
        if partial.kind is None:
            seen: dict[int, Any] = {}
            for fam in families:
                index = self._kind_index.get(fam.kind)
                if index is not None and index not in seen and self._completable(fam, {}, 0):
                    seen[index] = fam.kind
            return list(seen.items())
        chosen = dict(partial.chosen)
        merged: dict[int, Any] = {}
        for fam in self._matching(families, partial.kind, chosen):
            names = self._required(fam)
            i = len(partial.chosen)
            if i >= len(names):
                continue
            for index, value in self._param_offers(fam, names, i, chosen, partial):
                merged.setdefault(index, value)
        return list(merged.items())

    @staticmethod
    def _required(fam: ActionFamily) -> list[str]:
        return [n for n in fam.params if n not in fam.optional]

    @staticmethod
    def _matching(families: Iterable[ActionFamily], kind: str, chosen: Mapping[str, Any]
                  ) -> list[ActionFamily]:
        """The families of ``kind`` that allow every parameter chosen so far (a kind may be both
        prompted and free, as Culottes' agreeing to end)."""
        out = []
        for fam in families:
            if fam.kind != kind:
                continue
            if all(n in fam.params and fam.domain(n, chosen).problem(n, v) is None
                   for n, v in chosen.items()):
                out.append(fam)
        return out

    def _param_offers(self, fam: ActionFamily, names: Sequence[str], i: int, chosen: dict[str, Any],
                      partial: Partial) -> list[Option]:
        name = names[i]
        domain = fam.domain(name, chosen)
        block = self.layout.block(fam.kind, name, domain)
        if isinstance(block, Chips):
            return self._chip_offers(block, domain, partial.chips or ())
        if isinstance(block, Items):
            return self._item_offers(block, domain, partial.items or ())
        out = []
        for slot, value in self._values(block, name, domain):
            if i + 1 < len(names):
                chosen[name] = value
                ok = self._completable(fam, chosen, i + 1)
                del chosen[name]
                if not ok:
                    continue
            out.append((block.offset + slot, value))
        return out

    def _values(self, block: Block, name: str, domain: Domain) -> list[tuple[int, Any]]:
        """The (slot, value) pairs ``block`` offers for ``domain``."""
        return list(self._each_value(block, name, domain))

    @staticmethod
    def _each_value(block: Block, name: str, domain: Domain) -> Iterator[tuple[int, Any]]:
        """:meth:`_values` one by one (a completability check stops at the first that does)."""
        if isinstance(block, Phrases):
            examples = getattr(domain, "examples", ())
            yield from ((slot, text) for slot, text in enumerate(examples[:block.count])
                        if domain.problem(name, text) is None)
            return
        if isinstance(domain, Amount):
            if isinstance(block, Values):
                if block.span is not None:  # an amount's slots are the whole numbers of its block
                    first, last = block.span
                    low, high = max(domain.low, first), min(domain.high, last)
                    yield from ((v - first, v) for v in range(low, high + 1))
                    return
                yield from ((slot, v) for v in range(domain.low, domain.high + 1)
                            if (slot := block.slot(v)) is not None)
            return
        values = domain.values()
        if values is None:
            return
        if isinstance(block, Positions):
            yield from itertools.islice(enumerate(values), block.count)
            return
        if isinstance(block, Values):
            for v in values:
                slot = block.slot(v)
                if slot is None:
                    if block.strict:
                        raise OptionsError(f"the flat action space has no slot for the {name} {v!r}")
                    continue
                yield slot, v

    def _completable(self, fam: ActionFamily, chosen: dict[str, Any], i: int) -> bool:
        """Whether the required parameters from the ``i``-th on can be chosen, given ``chosen``."""
        names = self._required(fam)
        if i >= len(names):
            return True
        name = names[i]
        domain = fam.domain(name, chosen)
        block = self.layout.block(fam.kind, name, domain)
        if isinstance(block, Chips):
            return bool(self._chip_offers(block, domain, ())) or not any(getattr(domain, "held", ()))
        if isinstance(block, Items):
            return bool(self._item_offers(block, domain, ()))
        last = i + 1 == len(names)
        for _, value in self._each_value(block, name, domain):
            if last:
                return True
            chosen[name] = value
            ok = self._completable(fam, chosen, i + 1)
            del chosen[name]
            if ok:
                return True
        return False

    def _bidder(self, domain: Domain, chips: Sequence[tuple[str, str]]) -> Any:
        """The bid ``chips`` make so far (read it only: it is kept for the next step, which asks
        for the same chips again)."""
        from tricolore.games.revolution.bids import ChipByChip

        key = (id(domain), tuple(chips))
        found = self._bids.get(key)
        if found is not None and found[0] is domain:
            return found[1]
        builder = ChipByChip(domain.chart, domain.holding())  # type: ignore[attr-defined]
        for currency, space in chips:
            builder.place(currency, space)
        if len(self._bids) >= 16:
            self._bids.clear()
        self._bids[key] = (domain, builder)
        return builder

    def _chip_offers(self, block: Chips, domain: Domain, chips: Sequence[tuple[str, str]]) -> list[Option]:
        builder = self._bidder(domain, chips)
        index = {pair: i for i, pair in enumerate(block.pairs)}
        return [(block.offset + index[pair], pair) for pair in builder.options()]

    def _item_offers(self, block: Items, domain: Domain, items: Sequence[Any]) -> list[Option]:
        if not isinstance(domain, Subset):
            return []
        options = list(domain.options)
        out: list[Option] = []
        if len(items) >= domain.min_size:
            out.append((block.offset + block.done, _DONE))
        if len(items) < domain.max_size:
            after = options.index(items[-1]) + 1 if items else 0
            if len(options) - after >= domain.min_size - len(items):
                for position in range(after, len(options)):
                    item = options[position]
                    slot = position if block.values is None else block._index.get(_key(item))
                    if slot is None or slot >= block.count:
                        continue
                    out.append((block.offset + slot, item))
        return out

    def _step(self, state: State, seat: Seat, partial: Partial, value: Any, index: int
              ) -> tuple[Partial, dict[str, Any] | None]:
        path = (*partial.path, index)
        if partial.kind is None:
            after = Partial(kind=value, path=path)
        else:
            families = self._matching(self._families(state, seat), partial.kind, dict(partial.chosen))
            fam = families[0]
            names = self._required(fam)
            name = names[len(partial.chosen)]
            domain = fam.domain(name, dict(partial.chosen))
            block = self.layout.block(fam.kind, name, domain)
            if isinstance(block, Chips):
                chips = (*(partial.chips or ()), value)
                builder = self._bidder(domain, chips)
                if builder.done:
                    after = Partial(partial.kind, (*partial.chosen, (name, builder.placement())), path=path)
                else:
                    after = Partial(partial.kind, partial.chosen, chips=chips, path=path)
            elif isinstance(block, Items):
                if value is _DONE:
                    after = Partial(partial.kind, (*partial.chosen, (name, list(partial.items or ()))),
                                    path=path)
                else:
                    after = Partial(partial.kind, partial.chosen, items=(*(partial.items or ()), value),
                                    path=path)
            else:
                after = Partial(partial.kind, (*partial.chosen, (name, value)), path=path)
        after = self._settle(state, seat, after)
        if self._complete(state, seat, after):
            return self.start(), after.action()
        return after, None

    def _settle(self, state: State, seat: Seat, partial: Partial) -> Partial:
        """Fill in a bid with no chips to place: it needs no step."""
        assert partial.kind is not None
        if partial.chips is not None or partial.items is not None:
            return partial
        for fam in self._matching(self._families(state, seat), partial.kind, dict(partial.chosen)):
            names = self._required(fam)
            i = len(partial.chosen)
            if i < len(names):
                domain = fam.domain(names[i], dict(partial.chosen))
                if isinstance(self.layout.block(fam.kind, names[i], domain), Chips) and not any(
                        getattr(domain, "held", ())):
                    return self._settle(state, seat, Partial(
                        partial.kind, (*partial.chosen, (names[i], {})), path=partial.path))
        return partial

    def _complete(self, state: State, seat: Seat, partial: Partial) -> bool:
        if partial.chips is not None or partial.items is not None:
            return False
        assert partial.kind is not None
        chosen = dict(partial.chosen)
        return any(len(self._required(f)) == len(partial.chosen)
                   for f in self._matching(self._families(state, seat), partial.kind, chosen))

    def _at(self, partial: Partial) -> str:
        if partial.kind is None:
            return "choose a kind of action first"
        done = ", ".join(f"{n}={v!r}" for n, v in partial.chosen)
        return f"building a {partial.kind}" + (f" with {done}" if done else "")

    def _pick(self, state: State, seat: Seat, partial: Partial, action: Mapping[str, Any]) -> int | None:
        """The index that spells the next part of ``action``, or ``None``."""
        offers = self.offers(state, seat, partial)
        if partial.kind is None:
            return next((i for i, v in offers if v == action.get("type")), None)
        chosen = dict(partial.chosen)
        families = self._matching(self._families(state, seat), partial.kind, chosen)
        if not families:
            return None
        fam = families[0]
        name = self._required(fam)[len(partial.chosen)]
        if name not in action:
            return None
        value = action[name]
        domain = fam.domain(name, chosen)
        block = self.layout.block(fam.kind, name, domain)
        if isinstance(block, Chips):
            placed: dict[tuple[str, str], int] = {}
            for pair in partial.chips or ():
                placed[pair] = placed.get(pair, 0) + 1
            for i, (currency, space) in offers:
                if value.get(space, {}).get(currency, 0) > placed.get((currency, space), 0):
                    return i
            return None
        if isinstance(block, Items) and isinstance(domain, Subset) and isinstance(value, list):
            items = list(partial.items or ())
            left = [x for x in domain.options if x in value and x not in items]
            if not left:
                return next((i for i, v in offers if v is _DONE), None)
            return next((i for i, v in offers if v is not _DONE and _key(v) == _key(left[0])), None)
        exact = next((i for i, v in offers if v is not _DONE and _key(v) == _key(value)), None)
        if exact is None and isinstance(block, Phrases) and offers:
            return offers[0][0]  # free text does not change the rules: the first example phrase
        return exact
