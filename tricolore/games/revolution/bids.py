"""Bids on the Bidding Chart: checking a full placement, drawing a random one, counting them, and
building one chip by chip.

A bid is one action for people and the network: ``{"type": "bid", "placement": {"Printer":
{"force": 1}, "Card": {"gold": 2}, ...}}``, every chip placed. For RL and search, :class:`ChipByChip`
decomposes it into single-chip steps (Force first, then Blackmail, then Gold), each offering only
the (currency, space) pairs from which a legal bid can still be completed.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations_with_replacement
from typing import Any, Final

from mypy_extensions import mypyc_attr

from tricolore.core.actions import ActionSpace, Domain
from tricolore.core.draws import pick
from tricolore.core.errors import listed
from tricolore.core.mechanisms import SealedSubmissions
from tricolore.core.model import Seat
from tricolore.games.revolution.data import (
    AREAS,
    BLACKMAIL,
    CURRENCIES,
    FORCE,
    GOLD,
    MAX_GOLD_ON_CARD,
    MAX_SPACES_PER_BID,
    SEED_CHART,
    SJG_CHART,
    Space,
)

Placement = dict[str, dict[str, int]]
"""Space name → currency → chips, only spaces and currencies with chips."""

_CURRENCY_NUMBER: Final = {c: i for i, c in enumerate(CURRENCIES)}


def cap(space: Space, currency: str) -> int | None:
    """The most chips of ``currency`` one player may put on ``space`` (``None``: no limit)."""
    if not space.allows(currency):
        return 0
    return MAX_GOLD_ON_CARD if space.special == "card" and currency == GOLD else None


def title(currency: str) -> str:
    """A currency as the rulebook writes it: ``"force"`` is "Force"."""
    return currency.capitalize()


def shown(value: object) -> str:
    """A value a player sent, short enough to quote in a sentence (JSON's true, not True)."""
    text = repr(value) if isinstance(value, str) else str(value).replace("True", "true").replace(
        "False", "false").replace("None", "null")
    return text if len(text) <= 40 else text[:37] + "..."


def not_a_currency(value: object) -> str:
    """Why ``value`` is not a currency."""
    return f"{shown(value)} is not a currency; the currencies are Force, Blackmail and Gold"


def over_cap(space: Space, currency: str, n: int) -> str | None:
    """The rule broken by placing ``n`` chips of ``currency`` on ``space`` (its forbidden
    currencies; at most three Gold on Card), or ``None``."""
    limit = cap(space, currency)
    if limit == 0 and n:
        takes = listed([title(c) for c in CURRENCIES if space.allows(c)], "and")
        return f"{title(currency)} may not be bid on the {space.name}; it takes only {takes}"
    if limit is not None and n > limit:
        each = ", one card for each" if space.special == "card" else ""
        return f"at most {limit} {title(currency)} may be placed on the {space.name}{each}; you placed {n}"
    return None


def no_such_space(chart: Sequence[Space], name: object) -> str:
    """Why ``name`` is not a space to bid on: an area, the other edition's character, or a typo."""
    area = next((a for a in AREAS if a.name == name), None)
    if area is not None:
        character = next((s.name for s in chart if s.area == area.name), None)
        return (f"the {area.name} is an area of the board, not a space on the Bidding Chart; "
                f"the {character} places markers there")
    if any(s.name == name for chart_ in (SEED_CHART, SJG_CHART) for s in chart_):
        return f"the {name} is not on this edition's Bidding Chart"
    return (f"there is no space {shown(name)} on the Bidding Chart; its spaces are "
            f"{listed([s.name for s in chart], 'and')}")


Counts = list[list[int] | None]
"""A bid in the making (:class:`Table`): for each space in chart order, its chips per currency,
or ``None`` while it has none. A list rather than a mapping of the spaces used: a bid reads and
writes it for every chip."""

_COUNTED_KEPT: Final = 8
"""How many drawn placements a :class:`Table` keeps the counts of (:meth:`Table.counts_of`): a
round's bids are drawn a seat at a time, a few between one seat's bid and the reveal."""

_CODED_KEPT: Final = 65536
"""How many placements made from a move's code a :class:`Table` keeps the counts of, as the
rules keep the moves' actions."""

_IN_ORDER: Final = tuple(sorted(CURRENCIES))
"""The currencies in a normalised placement's order (by name)."""


def normalise(placement: Mapping[str, Mapping[str, int]]) -> Placement:
    """The placement without empty entries, spaces and currencies in a fixed order: ``placement``
    itself when it is already so (a bid drawn by :meth:`Table.sample`, say)."""
    if isinstance(placement, dict) and _is_normal(placement):
        return placement
    out: Placement = {}
    for space in sorted(placement):
        chips = placement[space]
        kept = _in_order(chips) if isinstance(chips, dict) else None
        if kept is None:
            kept = {c: chips[c] for c in sorted(chips) if chips[c]}
        if kept:
            out[space] = kept
    return out


def chips_of(here: list[int]) -> dict[str, int]:
    """One space's chips counted per currency (:data:`CURRENCIES` order) as a placement holds
    them: currencies by name, none without chips."""
    force, blackmail, gold = here
    chips = {}
    if blackmail:
        chips[BLACKMAIL] = blackmail
    if force:
        chips[FORCE] = force
    if gold:
        chips[GOLD] = gold
    return chips


def drawn_or_normalised(table: Table, placement: Mapping[str, Mapping[str, int]]) -> Placement:
    """:func:`normalise` of ``placement``, or the placement itself when it is the one ``table``
    drew last (random play draws a bid and plays it at once: it is in order already)."""
    drawn = table.drawn
    if drawn is not None and placement is drawn:
        return drawn
    return normalise(placement)


def _is_normal(placement: dict[str, Mapping[str, int]]) -> bool:
    """Whether ``placement`` is a plain dict of plain dicts in :func:`normalise`'s form: names in
    order, every count a whole number other than 0."""
    previous = ""
    for space, chips in placement.items():
        if type(space) is not str or space <= previous or type(chips) is not dict or not chips:
            return False
        if not _normal_chips(chips):
            return False
        previous = space
    return True


def _normal_chips(chips: dict[object, object]) -> bool:
    """Whether ``chips`` names currencies in order, each with a whole number other than 0 (a
    plain dict: :func:`_is_normal` checked)."""
    last = ""
    for currency, n in chips.items():
        if type(currency) is not str or currency <= last or type(n) is not int or not n:
            return False
        last = currency
    return True


def _in_order(chips: dict[str, int]) -> dict[str, int] | None:
    """``chips`` without empty entries, currencies in order (read in order rather than sorted: a
    bid is short), or ``None`` if it names anything but currencies."""
    kept: dict[str, int] = {}
    found = 0
    for currency in _IN_ORDER:
        n = chips.get(currency)
        if n is not None:
            found += 1
            if n:
                kept[currency] = n
    return kept if found == len(chips) else None


class Table:
    """A chart's bidding limits as flat tuples, worked out once per chart and shared by the bid
    domain (checking, sampling) and :class:`ChipByChip`.

    Spaces are numbered in chart order and currencies in :data:`CURRENCIES` order; a bid in the
    making is ``counts`` (:data:`Counts`): for each space in chart order, the chips there per
    currency, or ``None`` while it has none.
    """

    __slots__ = ("chart", "names", "index", "caps", "allowed", "capped", "open_all", "any_open",
                 "by_name", "drawn", "bid_spaces", "lately", "next_kept", "coded", "no_counts")

    def __init__(self, chart: tuple[Space, ...]) -> None:
        self.chart = chart
        self.names = tuple(s.name for s in chart)
        self.index = {name: i for i, name in enumerate(self.names)}
        self.caps = tuple(tuple(cap(s, c) for s in chart) for c in CURRENCIES)
        """``caps[currency][space]``: the most chips one bid may put there (``None``: no limit)."""
        self.allowed = tuple(tuple(i for i, lim in enumerate(caps) if lim != 0) for caps in self.caps)
        """The spaces that take each currency, in chart order."""
        self.capped = tuple(tuple(i for i in allowed if caps[i] is not None)
                            for caps, allowed in zip(self.caps, self.allowed, strict=True))
        """The spaces that take a currency up to a limit (Gold on Card)."""
        self.open_all = tuple(all(caps[i] is None for caps in self.caps) for i in range(len(chart)))
        """The spaces that take any currency without limit (the Printer, say)."""
        self.any_open = any(self.open_all)
        self.by_name = tuple(sorted(range(len(chart)), key=self.names.__getitem__))
        """The spaces in the order of their names, the order of a normalised placement."""
        self.drawn: Placement | None = None
        """The placement :meth:`sample` drew last: normalised, so a bid that is that very
        placement, handed on as drawn, is kept without being checked again (:func:`drawn_or_normalised`)."""
        self.bid_spaces: dict[int, ActionSpace] = {}
        """The rules' action space of the bids of each holding, by :func:`number_of_holding`, made
        the first time it is asked."""
        self.lately: list[tuple[Placement, Counts] | None] = [None] * _COUNTED_KEPT
        """The placements :meth:`sample` drew lately, each with its counts, the oldest replaced
        first: a bid drawn and played at once is resolved from its counts, not read back from its
        names (:meth:`counts_of`). A pair is written in one store, so a table shared by threads
        never pairs a placement with another's counts."""
        self.next_kept = 0
        self.no_counts: Counts = [None] * len(chart)
        """:meth:`counts`, copied."""
        self.coded: dict[int, tuple[Placement, Counts]] = {}
        """The counts of the placements :meth:`from_code` made, by the placement's identity (each
        entry holds its placement, so no other object takes its identity while it is kept): the
        moves' bids are made once and played many times."""

    def counts(self) -> Counts:
        """An empty bid in the making: no chips on any space."""
        return self.no_counts.copy()  # a copy of a list (`[None] * n` is a generic call compiled)

    def options(self, ci: int, left: Sequence[int], counts: Counts, n_used: int,
                open_used: int) -> list[int]:
        """The spaces the next chip (of currency number ``ci``) may go to, in chart order: under
        its limit there, within the six spaces a bid may use (Bidding), and leaving chips that can
        all still be placed; ``left`` counts the chips still to place, this one included,
        ``n_used`` the spaces with chips in ``counts`` and ``open_used`` those of them that take
        any currency without limit."""
        caps = self.caps[ci]
        out = []
        for si in self.allowed[ci]:
            here = counts[si]
            limit = caps[si]
            if here is None:
                if n_used >= MAX_SPACES_PER_BID:
                    continue
                fits = ((self.any_open and n_used + 1 < MAX_SPACES_PER_BID) or open_used > 0
                        or self.open_all[si])
            else:
                if limit is not None and here[ci] >= limit:
                    continue
                fits = (self.any_open and n_used < MAX_SPACES_PER_BID) or open_used > 0
            if fits or self._completable(ci, si, left, counts, n_used):
                out.append(si)
        return out

    def _completable(self, ci: int, si: int, left: Sequence[int], counts: Counts, n_used: int) -> bool:
        """Whether the chips left after one of currency ``ci`` on ``si`` fit in the spaces the bid
        may still use (when no space open to every currency settles it at once)."""
        room = MAX_SPACES_PER_BID - n_used - (counts[si] is None)
        for c in range(len(CURRENCIES)):
            need = left[c] - (c == ci)
            if need <= 0:
                continue
            capacity = 0
            for s, limit in enumerate(self.caps[c]):
                if limit == 0:
                    continue
                here = counts[s]
                if here is not None or s == si or room > 0:
                    if limit is None:
                        capacity = need
                    else:
                        capacity += limit - (here[c] if here is not None else 0) - (c == ci and s == si)
                if capacity >= need:
                    break
            if capacity < need:
                return False
        return True

    def sample(self, held: Sequence[int], rng: random.Random) -> Placement:
        """A random legal placement of ``held`` (chips per currency): :meth:`draw`'s counts as a
        placement, kept with its counts (:meth:`counts_of`)."""
        counts = self.draw(held, rng)
        drawn = self.drawn = self.placement(counts)
        at = self.next_kept
        self.lately[at] = (drawn, counts)
        self.next_kept = (at + 1) % _COUNTED_KEPT
        return drawn

    def draw(self, held: Sequence[int], rng: random.Random) -> Counts:
        """A random legal bid of ``held`` (chips per currency) as counts, drawn chip by chip: each
        chip, strongest currency first, goes to one of :meth:`options` uniformly. When every chip
        left is sure to fit (a space open to every currency is still reachable) the options are the
        spaces that take the currency, read from the table, so nothing is re-checked."""
        counts = self.counts()
        n_used = open_used = 0
        left = list(held)
        open_all, any_open = self.open_all, self.any_open
        for ci in range(len(CURRENCIES)):
            remaining: int = left[ci]  # counted natively here, written back for :meth:`options`
            if remaining <= 0:
                continue
            allowed, caps = self.allowed[ci], self.caps[ci]
            blocked = not any_open  # a space at its limit, or no space open to every currency
            while remaining > 0:
                options: tuple[int, ...]  # one type on every branch, so read natively
                if not blocked and (n_used + 1 < MAX_SPACES_PER_BID
                                    or (open_used and n_used < MAX_SPACES_PER_BID)):
                    options = allowed  # every chip left fits, wherever this one goes
                elif not blocked and open_used:  # no space left to open
                    options = tuple([si for si in allowed if counts[si] is not None])
                else:
                    left[ci] = remaining
                    options = tuple(self.options(ci, left, counts, n_used, open_used))
                si: int = options[pick(rng, len(options))]
                remaining -= 1
                found = counts[si]
                here: list[int]  # typed apart from the optional slot, so read natively
                if found is None:
                    here = [0, 0, 0]
                    counts[si] = here
                    n_used += 1
                    open_used += open_all[si]
                else:
                    here = found
                placed: int = here[ci] + 1
                here[ci] = placed
                if not blocked:
                    limit = caps[si]
                    if limit is not None and placed >= limit:
                        blocked = True
            left[ci] = 0
        return counts

    def counts_of(self, placement: Placement) -> Counts:
        """A normalised ``placement`` as counts (:data:`Counts`, each space's chips per currency
        in chart order), read from what :meth:`sample` or :meth:`from_code` kept when it made this
        very placement, or else from its names. The counts are shared: they are read, never
        changed."""
        for kept in self.lately:
            if kept is not None and kept[0] is placement:
                return kept[1]
        coded = self.coded.get(id(placement))
        if coded is not None and coded[0] is placement:
            return coded[1]
        counts = self.counts()
        index = self.index
        for name, chips in placement.items():
            here = [0, 0, 0]
            for currency, n in chips.items():
                here[_CURRENCY_NUMBER[currency]] = n
            counts[index[name]] = here
        return counts

    def placement(self, counts: Counts) -> Placement:
        """``counts`` as a normalised placement (names and currencies in order, no empty entry)."""
        names = self.names
        out: Placement = {}
        for si in self.by_name:
            here = counts[si]
            if here is None:
                continue
            chips = chips_of(here)
            if chips:
                out[names[si]] = chips
        return out

    def concentrated(self, held: Sequence[int]) -> list[int]:
        """The bids that put all of each currency's chips on one space, as space codes
        (:meth:`from_code`): every space that takes the currency, in chart order, and for Gold
        the Card only while the Gold fits under its limit. Each is legal, since such a bid uses
        at most three spaces."""
        slots: list[tuple[int, ...]] = []
        for ci in range(len(CURRENCIES)):
            if not held[ci]:
                slots.append((0,))
                continue
            caps, n = self.caps[ci], held[ci]
            slots.append(tuple(si for si in self.allowed[ci] if (limit := caps[si]) is None or n <= limit))
        width = len(self.chart)
        return [(force * width + blackmail) * width + gold
                for force in slots[0] for blackmail in slots[1] for gold in slots[2]]

    def from_code(self, held: Sequence[int], code: int) -> Placement:
        """The bid of space code ``code`` (``(force * n + blackmail) * n + gold``, each the
        number of a space in chart order, ``n`` the chart's spaces; 0 for a currency not held)
        placing ``held`` (chips per currency)."""
        width = len(self.chart)
        if not 0 <= code < width ** 3:
            raise ValueError(f"no such bid: {code}")
        spaces = (code // (width * width), code // width % width, code % width)
        counts = self.counts()
        for ci in range(len(CURRENCIES)):
            si, n = spaces[ci], held[ci]
            if not n:
                if si:
                    raise ValueError(f"no such bid: {code} places a currency the holding lacks")
                continue
            limit = self.caps[ci][si]
            if limit is not None and n > limit:
                raise ValueError(f"no such bid: {code} breaks a limit of the chart")
            here = counts[si]
            if here is None:
                here = counts[si] = [0, 0, 0]
            here[ci] = n
        placement = self.placement(counts)
        coded = self.coded
        if len(coded) >= _CODED_KEPT:
            coded.clear()
        coded[id(placement)] = (placement, counts)
        return placement


def holding_number(held: Sequence[int]) -> int:
    """A number for every holding (chips per currency), with no upper limit: holdings are
    numbered by their total, then by their Force, then by their Blackmail."""
    force, blackmail, gold = held
    return number_of_holding(force, blackmail, gold)


def number_of_holding(force: int, blackmail: int, gold: int) -> int:
    """:func:`holding_number` of the holding of ``force``, ``blackmail`` and ``gold`` chips."""
    total = force + blackmail + gold
    below = total * (total + 1) * (total + 2) // 6  # the holdings of fewer chips
    return below + force * (total + 1) - force * (force - 1) // 2 + blackmail


def holding_of(number: int) -> tuple[int, int, int]:
    """The holding :func:`holding_number` gives ``number``."""
    total = 0
    while (total + 1) * (total + 2) * (total + 3) // 6 <= number:
        total += 1
    rest = number - total * (total + 1) * (total + 2) // 6
    force = 0
    while rest > total - force:  # total - force + 1 holdings have this Force
        rest -= total - force + 1
        force += 1
    return force, rest, total - force - rest


_TABLES: Final[dict[int, Table]] = {}


_LAST_TABLE: Final[list[Table | None]] = [None]
"""The :class:`Table` :func:`table_of` gave last: a game asks for its chart's at every bid, which
this finds without a lookup."""


def table_of(chart: tuple[Space, ...]) -> Table:
    """The :class:`Table` of ``chart``, worked out once."""
    last = _LAST_TABLE[0]
    if last is not None and last.chart is chart:
        return last
    table = _TABLES.get(id(chart))
    if table is None or table.chart is not chart:
        if len(_TABLES) > 64:  # charts are built once per edition; anything else is a test's
            _TABLES.clear()
        table = _TABLES[id(chart)] = Table(chart)
    _LAST_TABLE[0] = table
    return table


_DRAWN: Final[dict[str, Any]] = {"type": "bid"}
"""What :class:`SealedBids` seals for a bid it keeps as counts, until the bid is read."""


@mypyc_attr(allow_interpreted_subclasses=True)  # copied and pickled without __init__
class SealedBids(SealedSubmissions):
    """The bids behind the shields: sealed submissions of the move ``"bid"``, which may not be
    changed once made. A bid drawn at random (:meth:`seal_drawn`) is kept as its counts
    (:data:`Counts`) and written as an action only when something reads it (the digest, a view, a
    search's determinization), so random play never writes out a placement."""

    def __init__(self, chart: tuple[Space, ...], seats: Iterable[Seat]) -> None:
        SealedSubmissions.__init__(self, "bid", seats, False)
        self.chart = chart
        self._drawn: dict[Seat, Counts] = {}
        """The counts of the bids sealed as counts, by seat (kept once written as actions)."""

    def seal_drawn(self, seat: Seat, counts: Counts) -> bool:
        """Seal the bid of ``counts`` (:meth:`Table.draw`: read, never changed) for ``seat``;
        returns ``True`` when every seat has now bid."""
        if not self.expects(seat):
            raise ValueError(f"seat {seat} does not take part in the bid or has already chosen")
        self.replace_drawn(seat, counts)
        return self.complete

    def replace_drawn(self, seat: Seat, counts: Counts) -> None:
        """:meth:`replace` with the bid of ``counts`` (``determinize`` resamples the others'
        bids so)."""
        SealedSubmissions._seal(self, seat, _DRAWN)
        self._drawn[seat] = counts

    def _seal(self, seat: Seat, action: Mapping[str, Any]) -> None:
        SealedSubmissions._seal(self, seat, action)
        drawn = self._drawn
        if drawn and seat in drawn:
            del drawn[seat]

    def submitted(self, seat: Seat) -> Mapping[str, Any] | None:
        """``seat``'s sealed bid, as an action (the state's secret)."""
        action = self._sealed.get(seat)
        return self._written(seat) if action is _DRAWN else action

    def in_seat_order(self) -> list[tuple[Seat, Mapping[str, Any]]]:
        """Every sealed bid as an action, in seat order."""
        sealed = self._sealed
        out: list[tuple[Seat, Mapping[str, Any]]] = []
        for s in self.seats:
            action = sealed.get(s)
            if action is _DRAWN:
                out.append((s, self._written(s)))
            elif action is not None:
                out.append((s, action))
        return out

    def _written(self, seat: Seat) -> dict[str, Any]:
        """The action of the bid drawn for ``seat``, written once and sealed in place of its
        counts (the same bid: the digest and the views read it the same)."""
        action = {"type": "bid", "placement": table_of(self.chart).placement(self._drawn[seat])}
        self._sealed[seat] = action
        return action

    def reveal(self, players: int) -> RevealedBids:
        """Every seat's bid shown, as :class:`RevealedBids` (once every seat has bid)."""
        table = table_of(self.chart)
        sealed, drawn = self._sealed, self._drawn
        counted: list[Counts | None] = []
        placements: list[Placement | None] = []
        for s in range(players):
            counts = drawn.get(s)
            action = sealed.get(s)
            placement: Placement | None = None
            if action is not None and action is not _DRAWN:
                placement = action["placement"]
                if counts is None:
                    counts = table.counts_of(placement)
            counted.append(counts)
            placements.append(placement)
        return RevealedBids(self.chart, counted, placements)

    def copy(self) -> SealedBids:
        """An independent copy (sealed actions and counts are read, never changed: shared)."""
        other = SealedBids(self.chart, ())
        other.seats = self.seats
        other._sealed = dict(self._sealed)
        other._waiting = self._waiting
        if self._drawn:
            other._drawn = dict(self._drawn)
        return other


@mypyc_attr(allow_interpreted_subclasses=True)  # pickled without __init__
class RevealedBids:
    """Every seat's bid once the shields come down: as the resolution reads it, counts per space
    in seat order (:attr:`counts`), and as a placement where it is shown (a view, the log, the
    digest), written the first time it is. Read, never changed: copies of a state share it."""

    def __init__(self, chart: tuple[Space, ...], counts: list[Counts | None],
                 placements: list[Placement | None] | None = None) -> None:
        self.chart = chart
        self.counts = counts
        """Each seat's bid counted (``None``: no bid), in seat order."""
        self._placements: list[Placement | None] = (
            [None] * len(counts) if placements is None else placements)

    def shown(self) -> bool:
        """Whether any bid is shown."""
        return self.counts.count(None) < len(self.counts)

    def placement(self, seat: Seat) -> Placement | None:
        """``seat``'s bid as a placement (``None``: no bid); the same object every time."""
        if not 0 <= seat < len(self.counts):
            return None
        found = self._placements[seat]
        if found is None:
            counts = self.counts[seat]
            if counts is None:
                return None
            found = self._placements[seat] = table_of(self.chart).placement(counts)
        return found

    def payload(self) -> list[tuple[Seat, Placement | None]]:
        """Each seat that bid with its placement, in seat order, for digests."""
        return [(s, self.placement(s)) for s in range(len(self.counts)) if self.counts[s] is not None]


@dataclass(frozen=True, slots=True)
class Bid(Domain):
    """Every legal placement of ``chips`` on ``chart``."""

    chart: tuple[Space, ...]
    chips: tuple[tuple[str, int], ...]
    table: Table = field(init=False, repr=False, compare=False)
    held: tuple[int, ...] = field(init=False, repr=False, compare=False)
    """The chips to place per currency, in :data:`CURRENCIES` order."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "table", table_of(self.chart))
        holding = dict(self.chips)
        object.__setattr__(self, "held", tuple(holding.get(c, 0) for c in CURRENCIES))

    def holding(self) -> dict[str, int]:
        """The chips to place, by currency."""
        return dict(self.chips)

    def problem(self, name: str, value: object) -> str | None:
        """Why ``value`` is not a legal placement, as the rule it breaks (Bidding), or ``None``."""
        if not isinstance(value, Mapping):
            return f'a bid places chips on spaces, like {{"Printer": {{"gold": 2}}}}; you sent {shown(value)}'
        table = self.table
        index = table.index
        placed = [0, 0, 0]
        used = 0
        for space_name, chips in value.items():
            si = index.get(space_name)
            if si is None:
                return no_such_space(self.chart, space_name)
            space = self.chart[si]
            if not isinstance(chips, Mapping):
                return (f'the chips on the {space.name} must give each currency its number of chips, '
                        f'like {{"gold": 2}}; you sent {shown(chips)}')
            counted = 0
            for currency, n in chips.items():
                ci = _CURRENCY_NUMBER.get(currency)
                if ci is None:
                    return not_a_currency(currency)
                if type(n) is not int:
                    return (f"the {title(currency)} on the {space.name} must be a whole number of chips; "
                            f"you sent {shown(n)}")
                if n < 0:
                    return (f"the {title(currency)} on the {space.name} must be 0 chips or more; "
                            f"you sent {n}")
                limit = table.caps[ci][si]
                if limit is not None and n > limit:
                    return over_cap(space, currency, n)
                placed[ci] += n
                counted += n
            used += counted > 0
        held = self.held
        for ci, currency in enumerate(CURRENCIES):
            if placed[ci] > held[ci]:
                return (f"you placed {placed[ci]} {title(currency)} but hold "
                        f"{held[ci] or 'none'}: a bid uses only the chips you hold")
        if used > MAX_SPACES_PER_BID:
            return (f"a bid may use at most {MAX_SPACES_PER_BID} spaces of the Bidding Chart; "
                    f"this one uses {used}")
        for ci, currency in enumerate(CURRENCIES):
            if placed[ci] < held[ci]:
                return (f"every chip must be placed: you hold {held[ci]} {title(currency)} and placed "
                        f"{placed[ci]}")
        return None

    def sample(self, rng: random.Random) -> Placement:
        """A random legal placement, built chip by chip: each chip, strongest currency first, on
        one of the spaces :class:`ChipByChip` offers for it, uniformly."""
        return self.table.sample(self.held, rng)

    def values(self) -> Sequence[object] | None:
        """Every legal placement, for holdings of up to seven chips."""
        if sum(n for _, n in self.chips) > 7:
            return None
        return list(enumerate_bids(self.chart, self.holding()))

    def describe(self) -> dict[str, Any]:
        """The chips to place and each space's restrictions, as JSON."""
        return {"kind": "bid", "chips": dict(self.chips),
                "spaces": [{"name": s.name, "forbidden": sorted(s.forbidden),
                            "max_gold": cap(s, GOLD)} for s in self.chart],
                "max_spaces": MAX_SPACES_PER_BID}


def enumerate_bids(chart: Sequence[Space], chips: Mapping[str, int]) -> Iterator[Placement]:
    """Every legal placement of ``chips``, each once."""

    def spread(i: int, placement: dict[str, dict[str, int]]) -> Iterator[Placement]:
        if i == len(CURRENCIES):
            if sum(1 for v in placement.values() if any(v.values())) <= MAX_SPACES_PER_BID:
                yield normalise(placement)
            return
        currency = CURRENCIES[i]
        allowed = [s for s in chart if s.allows(currency)]
        for combo in combinations_with_replacement(range(len(allowed)), chips.get(currency, 0)):
            counts: dict[str, int] = {}
            for k in combo:
                counts[allowed[k].name] = counts.get(allowed[k].name, 0) + 1
            if any((lim := cap(s, currency)) is not None and counts.get(s.name, 0) > lim
                   for s in allowed):
                continue
            trial = {k: dict(v) for k, v in placement.items()}
            for name, n in counts.items():
                trial.setdefault(name, {})[currency] = n
            yield from spread(i + 1, trial)

    yield from spread(0, {})


class ChipByChip:
    """A bid built one chip at a time: the decomposition for RL and tree search.

    Chips are placed strongest currency first. :meth:`options` lists the (currency, space) pairs
    for the next chip from which every remaining chip can still be placed legally.
    """

    def __init__(self, chart: Sequence[Space], chips: Mapping[str, int]) -> None:
        self.chart = tuple(chart)
        self.table = table_of(self.chart)
        self.left = {c: chips.get(c, 0) for c in CURRENCIES}
        self.placed: dict[str, dict[str, int]] = {}
        self._counts = self.table.counts()
        self._used = 0
        """The spaces with chips."""
        self._open_used = 0

    @property
    def done(self) -> bool:
        """Whether every chip is placed."""
        return not any(self.left.values())

    def currency(self) -> str | None:
        """The currency of the next chip."""
        return next((c for c in CURRENCIES if self.left[c]), None)

    def options(self) -> list[tuple[str, str]]:
        """Legal (currency, space) pairs for the next chip."""
        currency = self.currency()
        if currency is None:
            return []
        left = [self.left[c] for c in CURRENCIES]
        names = self.table.names
        return [(currency, names[si]) for si in self.table.options(
            _CURRENCY_NUMBER[currency], left, self._counts, self._used, self._open_used)]

    def refusal(self, currency: str, space: str) -> str | None:
        """Why the next chip may not be ``currency`` on ``space``, in the rules' words, or ``None``."""
        if (currency, space) in self.options():
            return None
        if currency not in CURRENCIES:
            return not_a_currency(currency)
        spaces = {s.name: s for s in self.chart}
        if space not in spaces:
            return no_such_space(self.chart, space)
        if not self.left[currency]:
            return f"no {title(currency)} is left to place"
        following = self.currency()
        if currency != following:
            return (f"the {title(following or currency)} is placed before the {title(currency)}: "
                    "chips go Force first, then Blackmail, then Gold")
        here = self.placed.get(space, {}).get(currency, 0)
        why = over_cap(spaces[space], currency, here + 1)
        if why:
            return why
        used = {name for name, chips in self.placed.items() if any(chips.values())}
        if space not in used and len(used) >= MAX_SPACES_PER_BID:
            return (f"a bid may use at most {MAX_SPACES_PER_BID} spaces of the Bidding Chart; all "
                    f"{MAX_SPACES_PER_BID} are in use")
        return (f"{title(currency)} on the {space} would leave chips that cannot all be placed "
                "within the chart's limits")

    def place(self, currency: str, space: str) -> None:
        """Put the next chip (of ``currency``) on ``space``; a ``ValueError`` says which rule
        forbids it."""
        why = self.refusal(currency, space)
        if why is not None:
            raise ValueError(why[0].upper() + why[1:] + ".")
        self.left[currency] -= 1
        chips = self.placed.setdefault(space, {})
        chips[currency] = chips.get(currency, 0) + 1
        si = self.table.index[space]
        here = self._counts[si]
        if here is None:
            here = self._counts[si] = [0, 0, 0]
            self._used += 1
            self._open_used += self.table.open_all[si]
        here[_CURRENCY_NUMBER[currency]] += 1

    def placement(self) -> Placement:
        """The placement so far."""
        return normalise(self.placed)

    def action(self) -> dict[str, Any]:
        """The finished bid as an action."""
        if not self.done:
            raise ValueError("chips are left to place")
        return {"type": "bid", "placement": self.placement()}
