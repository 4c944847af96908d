"""The flat action codec: every game's actions as one fixed ``Discrete(size)`` space, chosen step by
step.

An action of Tricolore is a JSON object (``{"type": "cake_vote", "citizen": 3, "side":
"sans_culotte", "cakes": 2}``): far too many to number one by one. :class:`FlatActions` numbers its
*parts* instead and builds an action in steps, as :meth:`ActionSpace.steps` decomposes it: first
the kind, then each required parameter in the family's order. A list parameter (Culottes-trials'
grabbers, Let Them Eat Cake's Cake cards) is chosen one item at a time, in the order the domain
lists its options, then closed with its "done" index; a Revolution! bid is placed one chip at a
time with the builder its :class:`~tricolore.core.layout.Chips` block names (Revolution!'s
:class:`~tricolore.games.revolution.bids.ChipByChip`), one (currency, space) pair a step.

**The layout.** Each game declares its own in a ``layout.py`` beside its rules, in the vocabulary
of :mod:`tricolore.core.layout` (a game without one gets :func:`~tricolore.core.layout.fallback`).
Indices ``0 .. len(kinds)-1`` are the kinds of action of the game (every
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

from collections.abc import Mapping, Sequence, Set
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from tricolore.core.actions import ActionFamily, ActionSpace, Amount, Depends, Domain, Subset, rebuilt
from tricolore.core.errors import IllegalAction, OptionsError
from tricolore.core.layout import (
    Block,
    ChipBuilder,
    Chips,
    Items,
    Layout,
    Phrases,
    Positions,
    Values,
    fallback,
    slot_key,
)
from tricolore.core.model import Options, Seat
from tricolore.core.registry import companions, get_game


def _key(value: object) -> tuple[str, object]:
    return slot_key(value)


@dataclass(frozen=True, slots=True, init=False)
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

    # Written out, not generated, so that the compiled build makes it natively (see
    # tricolore.core.actions.Worded).
    def __init__(self, kind: str | None = None, chosen: tuple[tuple[str, Any], ...] = (),
                 items: tuple[Any, ...] | None = None, chips: tuple[tuple[str, str], ...] | None = None,
                 path: tuple[int, ...] = ()) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "chosen", chosen)
        object.__setattr__(self, "items", items)
        object.__setattr__(self, "chips", chips)
        object.__setattr__(self, "path", path)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return rebuilt(self)

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



# -- the codec ----------------------------------------------------------------------------------

Option = tuple[int, Any]
"""A step's offer: the flat index, and the value (or chip, or item) it stands for."""
_DONE = object()


def _frozen(value: Any) -> Any:
    """``value`` as a dictionary key that tells JSON true from 1 and accepts lists and objects
    (a list parameter's items, a bid's placement)."""
    if isinstance(value, (list, tuple)):
        return (type(value), tuple(_frozen(v) for v in value))
    if isinstance(value, dict):
        return (dict, tuple((k, _frozen(v)) for k, v in value.items()))
    return (type(value), value)


@dataclass(slots=True, init=False)
class _Offered:
    """One step's offers, as the list :meth:`FlatActions.offers` gives, by index, and as a mask."""

    pairs: list[Option]
    by_index: dict[int, Any]
    mask: np.ndarray

    def __init__(self, pairs: list[Option], by_index: dict[int, Any], mask: np.ndarray) -> None:
        self.pairs = pairs
        self.by_index = by_index
        self.mask = mask

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return rebuilt(self)



def _reads(spec: Any) -> frozenset[str] | None:
    """The parameters a parameter's domain is worked out from: none for a fixed domain, the
    :class:`Chosen` ones of a :func:`depends` rule, ``None`` (it may read any) otherwise."""
    if isinstance(spec, Domain):
        return frozenset()
    if isinstance(spec, Depends):
        return spec.reads
    return None


class _Plan:
    """A family's required parameters in order, and for each step the earlier steps whose values
    its domain reads (``reads``) and those that any domain from it on reads (``after``): the rest
    of an action does not depend on the other values chosen before it."""

    __slots__ = ("names", "reads", "after")
    names: list[str]
    reads: list[tuple[int, ...]]
    after: list[tuple[int, ...]]

    def __init__(self, fam: ActionFamily) -> None:
        names = self.names = FlatActions._required(fam)
        count = len(names)
        reads = [_reads(fam.params[n]) for n in names]
        if all(r is not None and not r for r in reads):  # fixed domains only: no step reads another
            self.reads = self.after = [()] * (count + 1)
            return
        self.reads = [self._before(i, r) for i, r in enumerate(reads)]
        self.after = [()] * (count + 1)
        read: set[str] | None = set()
        for i in range(count - 1, -1, -1):
            r = reads[i]
            read = None if read is None or r is None else read | r
            self.after[i] = self._before(i, read)

    def _before(self, i: int, read: Set[str] | None) -> tuple[int, ...]:
        if read is None:
            return tuple(range(i))
        return tuple(j for j in range(i) if self.names[j] in read)


def whole_index(index: object) -> int:
    """``index`` as an int (it may come as a numpy integer), or :class:`IllegalAction` with a
    sentence when it is not a whole number."""
    if type(index) is int:
        return index
    if isinstance(index, np.integer):
        return int(index)
    raise IllegalAction("malformed", f"an action index must be a whole number; you sent {index!r}")


class Offering(Protocol):
    """What the codec reads of a state: the actions a seat is offered. A state is one; so is a
    stand-in that knows only what one seat may know (a trained policy's)."""

    def legal_actions(self, seat: Seat) -> ActionSpace:
        """The actions of the seat's prompt."""

    def free_actions(self, seat: Seat) -> ActionSpace:
        """The actions the seat may take at any time."""


def _families(state: Offering, seat: Seat) -> tuple[ActionFamily, ...]:
    """The families ``seat`` may act in: its prompt's, then its free actions'."""
    return (*state.legal_actions(seat).families, *state.free_actions(seat).families)


class _Position:
    """What a codec works out for one seat in one position: the families it may act in, each
    family's required parameters, the families matching a partial action, each parameter's domain
    and block, which partial actions can be completed, and each partial action's offers."""

    __slots__ = ("codec", "families", "fixed", "_plans", "_matching", "_nodes", "_completable",
                 "_offered")

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # Kept in a state's memo, so copied with it: its families again, the rest worked out anew.
        return _Position, (self.codec, self.families)

    def __init__(self, codec: FlatActions, families: tuple[ActionFamily, ...]) -> None:
        self.codec = codec
        self.families = families
        self.fixed = all(isinstance(spec, Domain) for fam in self.families for spec in fam.params.values())
        """Whether every parameter's domain is fixed (none is worked out from the state): then all
        this position works out follows from its families alone, and a later position offering
        equal families may use it again."""
        self._plans: dict[int, _Plan] = {}
        self._matching: dict[tuple[str, Any], list[ActionFamily]] = {}
        self._nodes: dict[Any, tuple[Domain, Block]] = {}
        self._completable: dict[Any, bool] = {}
        self._offered: dict[Any, _Offered] = {}

    def plan(self, fam: ActionFamily) -> _Plan:
        """``fam``'s required parameters and what each step reads of the ones before it."""
        found = self._plans.get(id(fam))
        if found is None:
            found = self._plans[id(fam)] = _Plan(fam)
        return found

    def required(self, fam: ActionFamily) -> list[str]:
        """The names of ``fam``'s required parameters, in order (read-only)."""
        return self.plan(fam).names

    def completable(self, fam: ActionFamily, prefix: tuple[Any, ...]) -> tuple[Any, bool | None]:
        """The key of "can ``fam`` be completed after ``prefix``" and its answer if known: the key
        holds only the values of ``prefix`` the later parameters' domains read."""
        plan = self.plan(fam)
        i = len(prefix)
        key = (id(fam), i, tuple(prefix[j] for j in plan.after[i]))
        return key, self._completable.get(key)

    def remember(self, key: Any, ok: bool) -> None:
        """Keep the answer to :meth:`completable`'s ``key``."""
        self._completable[key] = ok

    def matching(self, kind: str, chosen: tuple[tuple[str, Any], ...]) -> list[ActionFamily]:
        """The families of ``kind`` that allow every parameter of ``chosen`` (read-only)."""
        key = (kind, tuple((n, _frozen(v)) for n, v in chosen))
        found = self._matching.get(key)
        if found is None:
            if chosen:  # those that allowed the earlier parameters and allow the last one
                name, value = chosen[-1]
                before = dict(chosen)
                found = [fam for fam in self.matching(kind, chosen[:-1])
                         if name in fam.params and fam.domain(name, before).problem(name, value) is None]
            else:
                found = [fam for fam in self.families if fam.kind == kind]
            self._matching[key] = found
        return found

    def node(self, fam: ActionFamily, prefix: tuple[Any, ...], chosen: Mapping[str, Any]
             ) -> tuple[Domain, Block]:
        """The domain and block of ``fam``'s next required parameter once those of ``prefix``
        (``chosen``, keyed by :func:`_frozen`) are chosen."""
        plan = self.plan(fam)
        i = len(prefix)
        key = (id(fam), i, tuple(prefix[j] for j in plan.reads[i]))
        found = self._nodes.get(key)
        if found is None:
            name = plan.names[i]
            domain = fam.domain(name, chosen)
            found = self._nodes[key] = (domain, self.codec.layout.block(fam.kind, name, domain))
        return found

    def offered(self, partial: Partial) -> _Offered:
        """``partial``'s offers, worked out once."""
        key = (partial.kind, partial.chosen and tuple((n, _frozen(v)) for n, v in partial.chosen),
               partial.items and _frozen(partial.items), partial.chips)
        found = self._offered.get(key)
        if found is None:
            pairs = self.codec._offers(self, partial)
            mask = np.zeros(self.codec.size, dtype=np.int8)
            by_index = dict(pairs)
            if len(by_index) < 16:  # one fancy indexing costs about as much as sixteen writes
                for index in by_index:
                    mask[index] = 1
            else:
                mask[list(by_index)] = 1
            found = self._offered[key] = _Offered(pairs, by_index, mask)
        return found


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

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return FlatActions, (self.game, self.players, self.options)

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
        make = companions(self.game).layout
        self.layout: Layout = fallback(state_class) if make is None else make(state_class, players, chosen)
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
        self._chips = any(isinstance(b, Chips) for b in blocks)
        self.size: int = offset
        self._bids: dict[tuple[int, tuple[tuple[str, str], ...]], tuple[Domain, ChipBuilder]] = {}
        self._last: dict[Seat, _Position] = {}

    # -- the contract ---------------------------------------------------------------------------
    def start(self) -> Partial:
        """An action with nothing chosen yet."""
        return Partial()

    def mask(self, state: Offering, seat: Seat, partial: Partial) -> np.ndarray:
        """The indices ``seat`` may choose next (1) and the others (0), as int8 of shape (size,)."""
        return self._seat(state, seat).offered(partial).mask.copy()

    def choose(self, state: Offering, seat: Seat, partial: Partial, index: object
               ) -> tuple[Partial, dict[str, Any] | None]:
        """The partial after choosing ``index`` (an int or a numpy integer), and the whole action
        once it is complete (the partial is then a fresh start); :class:`IllegalAction` with a
        sentence for an index the mask rules out, the partial unchanged."""
        index = whole_index(index)
        here = self._seat(state, seat)
        by_index = here.offered(partial).by_index
        if index in by_index:
            return self._step(here, partial, by_index[index], index)
        self._check_range(index)
        raise IllegalAction("masked_out", f"{self.describe(index)} is not allowed now "
                            f"({self._at(partial)})")

    def describe(self, index: object) -> str:
        """What ``index`` means, for people and docs: ``"kind cake_vote"``, ``"citizen 3"``,
        ``"bid: one Force chip on the Printer"``."""
        index = whole_index(index)
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

    def legal_indices(self, state: Offering, seat: Seat, partial: Partial) -> list[int]:
        """The indices the mask allows, in order."""
        return sorted(self._seat(state, seat).offered(partial).by_index)

    def spell(self, state: Offering, seat: Seat, action: Mapping[str, Any]) -> list[int]:
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
    def _seat(self, state: Offering, seat: Seat) -> _Position:
        """What this codec has worked out for ``seat`` in this position, kept in the state's own
        memo (cleared whenever the state changes) so that the mask and the choice of every step of
        one action share it."""
        memo: dict[Any, Any] | None = getattr(state, "_memo", None)
        if memo is None:
            return _Position(self, _families(state, seat))
        found = memo.get(("flat codec", seat))
        if found is None or found.codec is not self:
            found = memo["flat codec", seat] = self._position(state, seat)
        return found

    def _position(self, state: Offering, seat: Seat) -> _Position:
        """A new position of ``seat``, or the last one this codec worked out for it when that
        offered equal families with fixed domains only (a seat whose choices another seat's action
        did not change, as in a round of simultaneous choices: its offers are not worked out
        again)."""
        families = _families(state, seat)
        last = self._last.get(seat)
        if last is not None and last.fixed and last.families == families:
            return last
        found = self._last[seat] = _Position(self, families)
        return found

    def offers(self, state: Offering, seat: Seat, partial: Partial) -> list[Option]:
        """What ``seat`` may choose next: (flat index, value) pairs, each leading to a legal
        action (read-only: the list is kept with the position, which forgets it once changed)."""
        return self._seat(state, seat).offered(partial).pairs

    def _offers(self, here: _Position, partial: Partial) -> list[Option]:
        if partial.kind is None:
            seen: dict[int, Any] = {}
            for fam in here.families:
                index = self._kind_index.get(fam.kind)
                if index is not None and index not in seen and self._reachable(fam, {}, 0):
                    seen[index] = fam.kind
            return list(seen.items())
        chosen = dict(partial.chosen)
        prefix = tuple(_frozen(v) for _, v in partial.chosen)
        merged: dict[int, Any] = {}
        for fam in here.matching(partial.kind, partial.chosen):
            if len(partial.chosen) >= len(here.required(fam)):
                continue
            for index, value in self._param_offers(here, fam, chosen, prefix, partial):
                merged.setdefault(index, value)
        return list(merged.items())

    @staticmethod
    def _required(fam: ActionFamily) -> list[str]:
        return [n for n in fam.params if n not in fam.optional]

    def _param_offers(self, here: _Position, fam: ActionFamily, chosen: dict[str, Any],
                      prefix: tuple[Any, ...], partial: Partial) -> list[Option]:
        names = here.required(fam)
        i = len(prefix)
        name = names[i]
        domain, block = here.node(fam, prefix, chosen)
        if isinstance(block, Chips):
            return self._chip_offers(block, domain, partial.chips or ())
        if isinstance(block, Items):
            return self._item_offers(block, domain, partial.items or ())
        if i + 1 == len(names):
            return [(block.offset + slot, value) for slot, value in self._values(block, name, domain)]
        out = []
        for slot, value in self._values(block, name, domain):
            chosen[name] = value
            ok = self._completable(here, fam, chosen, (*prefix, _frozen(value)))
            del chosen[name]
            if ok:
                out.append((block.offset + slot, value))
        return out

    @staticmethod
    def _values(block: Block, name: str, domain: Domain, first: bool = False) -> list[tuple[int, Any]]:
        """The (slot, value) pairs ``block`` offers for ``domain``; with ``first``, the first
        pair alone (none if it offers none): a completability check needs no more. A list, not a
        generator, which the compiled build makes at a cost several times a short list's."""
        out: list[tuple[int, Any]] = []
        if isinstance(block, Phrases):
            examples = getattr(domain, "examples", ())
            for index, text in enumerate(examples[:block.count]):
                if domain.problem(name, text) is None:
                    out.append((index, text))
                    if first:
                        break
            return out
        if isinstance(domain, Amount):
            if isinstance(block, Values):
                if block.span is not None:  # an amount's slots are the whole numbers of its block
                    start, end = block.span
                    low, high = max(domain.low, start), min(domain.high, end)
                    if first:
                        high = min(high, low)
                    return [(v - start, v) for v in range(low, high + 1)]
                for amount in range(domain.low, domain.high + 1):
                    at = block.slot(amount)
                    if at is not None:
                        out.append((at, amount))
                        if first:
                            break
            return out
        values = domain.values()
        if values is None:
            return out
        if isinstance(block, Positions):
            return list(enumerate(values[:min(1, block.count) if first else block.count]))
        if isinstance(block, Values):
            for value in values:
                found = block.slot(value)
                if found is None:
                    if block.strict:
                        raise OptionsError(f"the flat action space has no slot for the {name} {value!r}")
                    continue
                out.append((found, value))
                if first:
                    break
        return out

    def _reachable(self, fam: ActionFamily, chosen: dict[str, Any], i: int) -> bool:
        """Whether ``fam``'s required parameters from the ``i``-th on can be chosen, given
        ``chosen``: the first path found answers, and the kinds offered are worked out so in every
        position, so this walk keeps nothing."""
        required = fam.required()
        if i >= len(required):
            return True
        name, fixed, spec = required[i]
        domain = fixed if fixed is not None else spec(chosen)  # type: ignore[operator]
        block = self.layout.block(fam.kind, name, domain)
        if isinstance(block, Chips):
            return bool(self._chip_offers(block, domain, ())) or not any(getattr(domain, "held", ()))
        if isinstance(block, Items):
            return bool(self._item_offers(block, domain, ()))
        ahead = self._values(block, name, domain, first=True)
        if i + 1 == len(required) or not ahead:
            return bool(ahead)
        if self._reachable_with(fam, chosen, i, ahead[0][1]):
            return True  # the first value almost always leads on: the others are listed only if not
        return any(self._reachable_with(fam, chosen, i, value)
                   for _, value in self._values(block, name, domain)[1:])

    def _reachable_with(self, fam: ActionFamily, chosen: dict[str, Any], i: int, value: Any) -> bool:
        """:meth:`_reachable` from the ``i+1``-th parameter, the ``i``-th being ``value``."""
        name = fam.required()[i][0]
        chosen[name] = value
        ok = self._reachable(fam, chosen, i + 1)
        del chosen[name]
        return ok

    def _completable(self, here: _Position, fam: ActionFamily, chosen: dict[str, Any],
                     prefix: tuple[Any, ...]) -> bool:
        """Whether the required parameters after those of ``prefix`` (the values in ``chosen``, as
        :func:`_frozen` keys them) can be chosen; remembered for the position, so the walk that
        finds a step's values also answers for the next step's."""
        key, found = here.completable(fam, prefix)
        if found is not None:
            return found
        names = here.required(fam)
        i = len(prefix)
        if i >= len(names):
            return True
        name = names[i]
        domain, block = here.node(fam, prefix, chosen)
        ok = False
        if isinstance(block, Chips):
            ok = bool(self._chip_offers(block, domain, ())) or not any(getattr(domain, "held", ()))
        elif isinstance(block, Items):
            ok = bool(self._item_offers(block, domain, ()))
        else:
            ahead = self._values(block, name, domain, first=True)
            ok = bool(ahead)
            if ok and i + 1 < len(names):
                ok = self._completable_with(here, fam, chosen, prefix, name, ahead[0][1]) or any(
                    self._completable_with(here, fam, chosen, prefix, name, value)
                    for _, value in self._values(block, name, domain)[1:])
        here.remember(key, ok)
        return ok

    def _completable_with(self, here: _Position, fam: ActionFamily, chosen: dict[str, Any],
                          prefix: tuple[Any, ...], name: str, value: Any) -> bool:
        """:meth:`_completable` after ``prefix`` and ``value`` for ``name``."""
        chosen[name] = value
        ok = self._completable(here, fam, chosen, (*prefix, _frozen(value)))
        del chosen[name]
        return ok

    def _bidder(self, block: Chips, domain: Domain, chips: Sequence[tuple[str, str]]) -> ChipBuilder:
        """The bid ``chips`` make so far (read it only: it is kept for the next step, which asks
        for the same chips again)."""
        key = (id(domain), tuple(chips))
        found = self._bids.get(key)
        if found is not None and found[0] is domain:
            return found[1]
        builder = block.start(domain)
        for currency, space in chips:
            builder.place(currency, space)
        if len(self._bids) >= 16:
            self._bids.clear()
        self._bids[key] = (domain, builder)
        return builder

    def _chip_offers(self, block: Chips, domain: Domain, chips: Sequence[tuple[str, str]]) -> list[Option]:
        builder = self._bidder(block, domain, chips)
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
                    slot = position if block.values is None else block.slot(item)
                    if slot is None or slot >= block.count:
                        continue
                    out.append((block.offset + slot, item))
        return out

    def _step(self, here: _Position, partial: Partial, value: Any, index: int
              ) -> tuple[Partial, dict[str, Any] | None]:
        path = (*partial.path, index)
        if partial.kind is None:
            after = Partial(kind=value, path=path)
        else:
            fam = here.matching(partial.kind, partial.chosen)[0]
            name = here.required(fam)[len(partial.chosen)]
            prefix = tuple(_frozen(v) for _, v in partial.chosen)
            domain, block = here.node(fam, prefix, dict(partial.chosen))
            if isinstance(block, Chips):
                chips = (*(partial.chips or ()), value)
                builder = self._bidder(block, domain, chips)
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
        after = self._settle(here, after)
        if self._complete(here, after):
            return self.start(), after.action()
        return after, None

    def _settle(self, here: _Position, partial: Partial) -> Partial:
        """Fill in a bid with no chips to place: it needs no step."""
        assert partial.kind is not None
        if not self._chips or partial.chips is not None or partial.items is not None:
            return partial
        for fam in here.matching(partial.kind, partial.chosen):
            names = here.required(fam)
            i = len(partial.chosen)
            if i < len(names):
                prefix = tuple(_frozen(v) for _, v in partial.chosen)
                domain, block = here.node(fam, prefix, dict(partial.chosen))
                if isinstance(block, Chips) and not any(getattr(domain, "held", ())):
                    return self._settle(here, Partial(
                        partial.kind, (*partial.chosen, (names[i], {})), path=partial.path))
        return partial

    def _complete(self, here: _Position, partial: Partial) -> bool:
        if partial.chips is not None or partial.items is not None:
            return False
        assert partial.kind is not None
        return any(len(here.required(f)) == len(partial.chosen)
                   for f in here.matching(partial.kind, partial.chosen))

    def _at(self, partial: Partial) -> str:
        if partial.kind is None:
            return "choose a kind of action first"
        done = ", ".join(f"{n}={v!r}" for n, v in partial.chosen)
        return f"building a {partial.kind}" + (f" with {done}" if done else "")

    def _pick(self, state: Offering, seat: Seat, partial: Partial, action: Mapping[str, Any]) -> int | None:
        """The index that spells the next part of ``action``, or ``None``."""
        offers = self.offers(state, seat, partial)
        if partial.kind is None:
            return next((i for i, v in offers if v == action.get("type")), None)
        chosen = dict(partial.chosen)
        here = self._seat(state, seat)
        families = here.matching(partial.kind, partial.chosen)
        if not families:
            return None
        fam = families[0]
        name = here.required(fam)[len(partial.chosen)]
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
