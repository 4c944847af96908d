"""Revolution! played in numpy, thousands of games at once: the batched research path.

    >>> from tricolore.games.revolution import batch
    >>> out = batch.play(games=2000, players=4, seed=7)
    >>> out.scores.shape, out.winners.shape
    ((2000, 4), (2000, 4))

Every game of a batch advances one round per step, its state held in arrays of shape
``[games, players, ...]``: the chips behind each shield, the support track, the markers in each
area, the deck. The rules are those of :mod:`tricolore.games.revolution.rules`, read from the same
data (:mod:`~tricolore.games.revolution.data`): a round tops everyone up to five chips with Gold,
everyone bids at once, each contested space goes to the strongest bid (Force, then Blackmail,
then Gold; a tie for the strongest gives the space to nobody), its winner pays and gains the
space's support, chips and Influence Marker, the Spy, the Apothecary and the Card space follow in
chart order, and the game ends after the round that fills the board (or after ``max_rounds``).
Both editions are played (``edition="seed"`` or ``"sjg"``, with the bank, the 25 markers and the
leftover-chip scoring of the published edition).

Nothing here is trusted on its word: every game can be written as an ordinary
:class:`~tricolore.core.record.Record` (:meth:`BatchResult.records`), which the engine replays
action by action to the same scores (``tests/revolution/test_batch.py`` replays hundreds).

**The strategies.** ``"printer-first"`` and ``"area-control"`` make the decisions of
:mod:`tricolore.games.revolution.bots`, as arrays (:mod:`~tricolore.games.revolution.batch_bots`,
checked against the bots on positions of real games). ``"random"``'s bids are *uniform over the
legal bids*: every placement of the player's chips that the rules allow (each chip placed, no
forbidden currency on a space, at most three Gold on the Card space, at most six spaces used; the set that
``Bid(...).values()`` enumerates) is equally likely. It is drawn exactly: each currency's chips
are spread over the spaces that take it by a uniformly chosen composition (from a table of all of
them, or a Pólya urn for holdings beyond the table, which draws compositions uniformly too), and a
bid using more than six spaces is drawn again. This is not the engine's ``ActionSpace.sample``,
which places chips one at a time and so favours bids that spread the chips. The decisions during
resolution are uniform over the legal actions: the Spy's winner picks one of "decline" and every
(area, opponent) marker it could replace; the Apothecary's one of "decline" and every legal swap
(first area, first owner, second area, second owner); a Remove 1 Influence card one of every
(area, opponent) marker.

**Chance.** The deck of the seed edition is shuffled by numpy, not by the engine's
``random.Random(seed)``: each record carries the orders drawn as its script of chance
(``{"shuffle": [...]}``, see :mod:`tricolore.core.chance`), so replaying it through the engine
deals exactly the batch's cards. Game ``i`` of a batch is recorded with seed ``seed + i``; the
whole batch's draws come from one numpy generator seeded with ``seed``, so a batch is reproduced by
its seed, its size and its player count.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from tricolore.core.batch import BatchPath
from tricolore.core.record import Record
from tricolore.games.revolution import batch_bots
from tricolore.games.revolution.bids import cap
from tricolore.games.revolution.data import (
    AREAS,
    CARD_DECK,
    CARD_EFFECTS,
    CURRENCIES,
    EDITIONS,
    LEFTOVER_SUPPORT,
    MAX_SPACES_PER_BID,
    MINIMUM_CHIPS,
    REMOVE,
    STARTING_CHIPS,
    Space,
)
from tricolore.games.revolution.rules import INFO, RevolutionOptions

Array = npt.NDArray[Any]
STRATEGIES = ("random", *batch_bots.NAMED)
"""The strategies the batch plays: ``random`` and the game's named strategies."""
TABLE_ROWS = 400_000
"""The largest table of compositions kept per currency and holding; larger holdings use the urn."""
ROW_BYTES = 16
MAX_CHIPS = 255
"""The most chips of one currency a player may hold in the batch (bids are kept as bytes); no
game has come near it."""
FORCE_SHIFT, BLACKMAIL_SHIFT = 40, 20
"""A bid on one space as one number, ordered as the rules order bids: Force, then Blackmail, then
Gold (each currency's chips stay below 2**20)."""
ROUND_LIMIT = 1000
"""The most rounds a batch game is played without ``max_rounds`` (the option's own upper bound)."""
CARD_FACES: tuple[str, ...] = tuple(dict.fromkeys(CARD_DECK))
AREA_NAMES: tuple[str, ...] = tuple(a.name for a in AREAS)


# -- the rules as arrays ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Chart:
    """One edition's Bidding Chart and rules, as arrays indexed by space (``S``), currency and
    area (``A``), in chart order."""

    edition: str
    spaces: tuple[Space, ...]
    caps: Array
    """[S, 3]: the most chips of a currency one bid may put on a space (-1: no limit)."""
    support: Array
    """[S]: support the winner of a space moves up the track."""
    gains: Array
    """[S, 3]: chips the winner of a space takes."""
    area: Array
    """[S]: the area a space's winner places a marker in (-1: none)."""
    area_characters: Array
    """The spaces whose winner places a marker, in chart order."""
    contested: Array
    """[S] bool: every space but the Card space is a contest."""
    spy: int
    apothecary: int
    card: int
    """The index of each special space (-1 when the chart has none)."""
    area_spaces: Array
    area_support: Array
    returned: bool
    bank: Array | None
    markers: int | None
    leftover: bool


@cache
def chart_of(edition: str) -> Chart:
    """The arrays of ``edition``'s rules (read from :mod:`~tricolore.games.revolution.data`)."""
    ed = EDITIONS[edition]
    spaces = ed.chart
    special = [s.special for s in spaces]
    areas = [s.area for s in spaces if s.area is not None]
    if len(set(areas)) != len(areas):  # one character per area: its markers go down at once
        raise NotImplementedError("the batch needs at most one character per area")
    if len(spaces) > ROW_BYTES:
        raise NotImplementedError(f"the batch's bid tables hold at most {ROW_BYTES} spaces")
    if ed.bank is not None and "card" in special:
        raise NotImplementedError("the batch does not draw cards from a bank-limited supply")
    caps = np.array([[-1 if (k := cap(s, c)) is None else k for c in CURRENCIES] for s in spaces])
    return Chart(
        edition, spaces, caps,
        np.array([s.support for s in spaces], dtype=np.int64),
        np.array([[s.chips.get(c, 0) for c in CURRENCIES] for s in spaces], dtype=np.int64),
        np.array([AREA_NAMES.index(s.area) if s.area else -1 for s in spaces]),
        np.array([i for i, s in enumerate(spaces) if s.area is not None]),
        np.array([s.special != "card" for s in spaces]),
        special.index("spy") if "spy" in special else -1,
        special.index("apothecary") if "apothecary" in special else -1,
        special.index("card") if "card" in special else -1,
        np.array([a.spaces for a in AREAS], dtype=np.int64),
        np.array([a.support for a in AREAS], dtype=np.int64),
        ed.losing_chips_returned,
        None if ed.bank is None else np.array([ed.bank[c] for c in CURRENCIES], dtype=np.int64),
        ed.markers_per_player, ed.leftover_scoring)


# -- drawing bids ----------------------------------------------------------------------------------
@cache
def _compositions(n: int, caps: tuple[int, ...]) -> Array:
    """Every way to put ``n`` chips on spaces with the given caps (-1: none), one row each."""
    if not caps:
        return np.zeros((1 if n == 0 else 0, 0), dtype=np.uint8)
    top = n if caps[0] < 0 else min(n, caps[0])
    parts = []
    for x in range(top + 1):
        rest = _compositions(n - x, caps[1:])
        parts.append(np.column_stack([np.full(len(rest), x, dtype=np.uint8), rest]))
    return np.concatenate(parts)


class BidSampler:
    """Draws bids uniformly over the legal bids (see the module docstring), many at once.

    A bid comes out as one ``[D, S]`` array of chips per currency (Force, Blackmail, Gold).
    """

    def __init__(self, chart: Chart) -> None:
        self.chart = chart
        self.width = ROW_BYTES
        self.allowed: list[Array] = []
        self.caps: list[Array] = []
        self.tables: list[Array] = []
        self.offsets: list[Array] = []
        self.sizes: list[Array] = []
        for c in range(len(CURRENCIES)):
            allowed = np.flatnonzero(chart.caps[:, c] != 0)
            caps = tuple(int(k) for k in chart.caps[allowed, c])
            rows, offsets, sizes = [], [0], []
            for n in range(MAX_CHIPS + 1):
                comps = _compositions(n, caps)
                if len(comps) > TABLE_ROWS:
                    break
                full = np.zeros((len(comps), self.width), dtype=np.uint8)
                full[:, allowed] = comps
                rows.append(full)
                sizes.append(len(comps))
                offsets.append(offsets[-1] + len(comps))
            self.allowed.append(allowed)
            self.caps.append(np.array(caps))
            # One row as one 16-byte number: numpy gathers those far faster than rows of bytes.
            self.tables.append(np.concatenate(rows).view(np.complex128).ravel())
            self.offsets.append(np.array(offsets[:-1], dtype=np.int64))
            self.sizes.append(np.array(sizes, dtype=np.float64))

    def sample(self, holdings: Array, rng: np.random.Generator) -> list[Array]:
        """A legal bid for each row of ``holdings`` ([D, 3] chips by currency): the chips on each
        space, one [D, S] array per currency."""
        if holdings.max(initial=0) > MAX_CHIPS:
            raise ValueError(f"the batch places at most {MAX_CHIPS} chips of one currency")
        out = self._draw(holdings, rng)
        # Fewer chips than the spaces a bid may use always fit; only larger holdings are checked.
        todo = np.flatnonzero(holdings.sum(axis=1) > MAX_SPACES_PER_BID)
        tries = 1
        while len(todo):
            todo = todo[self._spaces_used([x[todo] for x in out]) > MAX_SPACES_PER_BID]
            if not len(todo):
                break
            # Draw several bids for each refused one and keep its first legal one: the first
            # success of independent uniform draws is uniform over the legal bids, and the rows
            # with few legal bids among many are done in a few steps.
            tries = min(tries * 2, 64)
            fresh = self._draw(np.repeat(holdings[todo], tries, axis=0), rng)
            ok = (self._spaces_used(fresh) <= MAX_SPACES_PER_BID).reshape(len(todo), tries)
            found = ok.any(axis=1)
            pick = np.arange(len(todo)) * tries + ok.argmax(axis=1)
            for c in range(len(CURRENCIES)):
                out[c][todo[found]] = fresh[c][pick[found]]
            todo = todo[~found]
        return out

    @staticmethod
    def _spaces_used(bid: list[Array]) -> Array:
        """The spaces each bid uses. A used space is a byte 1, an unused one a byte 0; four such
        bytes in a 32-bit word are added up by multiplying the word by 0x01010101 (their sum
        lands in the top byte)."""
        used = np.zeros((len(bid[0]), ROW_BYTES), dtype=np.uint8)
        np.not_equal(bid[0] | bid[1] | bid[2], 0, out=used[:, :bid[0].shape[1]].view(bool))
        words = used.view(np.uint32)
        total = (words[:, 0] * np.uint32(0x01010101)) >> 24
        for k in range(1, words.shape[1]):
            total += (words[:, k] * np.uint32(0x01010101)) >> 24
        return total

    def _draw(self, holdings: Array, rng: np.random.Generator) -> list[Array]:
        """Each currency spread by a uniform composition over the spaces that take it."""
        d, n_spaces = len(holdings), len(self.chart.spaces)
        out = []
        for c in range(len(CURRENCIES)):
            n = holdings[:, c]
            sizes = self.sizes[c]
            small = n < len(sizes)
            rows = slice(None) if small.all() else np.flatnonzero(small)
            nn = n[rows]
            # floor(u * size) is uniform up to the generator's 53 bits: a bias below 1e-10.
            pick = self.offsets[c][nn] + (rng.random(len(nn)) * sizes[nn]).astype(np.int64)
            drawn = self.tables[c][pick].view(np.uint8).reshape(len(nn), self.width)
            if isinstance(rows, slice):
                out.append(drawn[:, :n_spaces])
                continue
            full = np.empty((d, n_spaces), dtype=np.uint8)
            full[rows] = drawn[:, :n_spaces]
            big = np.flatnonzero(~small)
            full[big] = self._urn(n[big], c, rng)
            out.append(full)
        return out

    def _urn(self, n: Array, c: int, rng: np.random.Generator) -> Array:
        """Uniform compositions of ``n`` chips of currency ``c`` by a Pólya urn, drawn again
        while a space's cap is broken.

        The urn starts with one ball per space; chip ``t`` draws one of its ``k + t`` balls and
        adds a ball of the same space. Ball ``k + u`` is the one chip ``u`` added, so a chip
        either draws a space or copies an earlier chip's: the copies are followed to their first
        chip by pointer jumping. The counts this gives are uniform over the compositions."""
        allowed, caps = self.allowed[c], self.caps[c]
        k = len(allowed)
        out = np.zeros((len(n), len(self.chart.spaces)), dtype=np.uint8)
        todo = np.arange(len(n))
        while len(todo):
            m = n[todo]
            chips = int(m.max())
            t = np.arange(chips)
            r = (rng.random((len(todo), chips)) * (k + t)).astype(np.int64)
            ball = np.where(r < k, -1, r - k)  # the earlier chip copied, or -1: a space drawn
            space = np.where(r < k, r, 0)
            rows = np.arange(len(todo))[:, None]
            for _ in range(max(chips - 1, 0).bit_length()):
                copied = ball >= 0
                src = np.where(copied, ball, 0)
                space = np.where(copied, space[rows, src], space)
                ball = np.where(copied, ball[rows, src], ball)
            live = t < m[:, None]
            counts = np.bincount((rows * k + space)[live], minlength=len(todo) * k).reshape(-1, k)
            ok = ((caps < 0) | (counts <= caps)).all(axis=1)
            done = todo[ok]
            out[done[:, None], allowed[None, :]] = counts[ok]
            todo = todo[~ok]
        return out


# -- the batch's state and log ---------------------------------------------------------------------
@dataclass
class _Live:
    """The games still being played, one row each (``gid``: their index in the batch)."""

    gid: Array
    chips: Array  # [G, P, 3]
    support: Array  # [G, P]
    board: Array  # [G, A, P] markers (int8: an area has at most 8 spaces)
    deck: Array  # [G, cards] card indices; drawn from the end
    deck_len: Array  # [G]
    bank: Array | None  # [G, 3]
    markers: Array | None  # [G, P]
    codes: Array  # [G, P]: each seat's strategy, as its index in STRATEGIES

    def keep(self, rows: Array) -> _Live:
        """Only the games at ``rows``."""
        return _Live(self.gid[rows], self.chips[rows], self.support[rows], self.board[rows],
                     self.deck[rows], self.deck_len[rows],
                     None if self.bank is None else self.bank[rows],
                     None if self.markers is None else self.markers[rows], self.codes[rows])


@dataclass
class _Log:
    """The batch's actions and shuffles in the order they happened, kept to write records."""

    entries: list[tuple[Any, ...]] = field(default_factory=list)

    def add(self, kind: str, gids: Array, *columns: Array) -> None:
        if len(gids):
            self.entries.append((kind, gids, *columns))


@dataclass
class BatchResult:
    """What a batch played: per game (rows in seed order) and per seat."""

    players: int
    edition: str
    max_rounds: int | None
    seeds: Array
    """[N]: each game's seed in its record (the batch's seed + i)."""
    scores: Array
    """[N, P]: final scores, as :meth:`RevolutionState.result` counts them."""
    track: Array
    """[N, P]: support on the track."""
    areas: Array
    """[N, P]: support from areas won by plurality."""
    leftover: Array
    """[N, P]: support from chips left (published edition)."""
    winners: Array
    """[N, P] bool: the seats with the top score (ties share the win)."""
    rounds: Array
    """[N]: rounds played."""
    board_full: Array
    """[N] bool: whether the game ended on a full board (else on ``max_rounds``)."""
    areas_tied: Array
    """[N]: areas with no single leader at the end (empty ones too), as the engine's metric."""
    actions: Array
    """[N]: each game's length in decisions (the actions of its record)."""
    decisions: int
    """Decisions taken (one bid by one player is one; so is each Spy, Apothecary and Remove
    choice)."""
    seconds: float
    """Time spent playing (writing no records)."""
    log: _Log | None = None

    @property
    def games(self) -> int:
        """Games in the batch."""
        return len(self.seeds)

    def records(self, games: Sequence[int] | None = None) -> list[Record]:
        """The games (all, or those at ``games``) as records the engine replays; needs
        ``play(..., records=True)``."""
        if self.log is None:
            raise ValueError("this batch kept no actions: play it with records=True to write records")
        wanted = range(self.games) if games is None else games
        index = {int(g): i for i, g in enumerate(wanted)}
        options = RevolutionOptions(self.edition, self.max_rounds).as_dict()
        actions: list[list[tuple[int, dict[str, Any]]]] = [[] for _ in index]
        shuffles: list[list[list[str]]] = [[] for _ in index]
        spaces = [s.name for s in chart_of(self.edition).spaces]
        for kind, gids, *cols in self.log.entries:
            for row, g in enumerate(gids.tolist()):
                i = index.get(g)
                if i is None:
                    continue
                if kind == "bids":
                    for seat in range(self.players):
                        bid = cols[0][row, seat]
                        placement = {spaces[s]: {c: int(bid[s, k]) for k, c in enumerate(CURRENCIES)
                                                 if bid[s, k]}
                                     for s in np.flatnonzero(bid.any(axis=1)).tolist()}
                        actions[i].append((seat, {"type": "bid", "placement": placement}))
                elif kind == "shuffle":
                    shuffles[i].append([CARD_FACES[c] for c in cols[0][row].tolist()])
                else:
                    actions[i].append(_decision(kind, [int(c[row]) for c in cols]))
        return [Record(INFO.name, INFO.rules_version, self.players, int(self.seeds[g]), dict(options),
                       actions[i], None, {"shuffle": shuffles[i]} if shuffles[i] else None)
                for g, i in index.items()]

    def rows(self) -> Iterator[dict[str, Any]]:
        """One plain row per game: seed, scores, winners, actions and the engine's metrics."""
        for g in range(self.games):
            yield {"seed": int(self.seeds[g]), "scores": self.scores[g].tolist(),
                   "winners": np.flatnonzero(self.winners[g]).tolist(),
                   "actions": int(self.actions[g]), "metrics": self.metrics(g)}

    def metrics(self, game: int) -> dict[str, float]:
        """Game ``game``'s figures, as :meth:`RevolutionState.result` names them."""
        return {"rounds": float(self.rounds[game]), "areas_tied": float(self.areas_tied[game]),
                "board_full": float(self.board_full[game])}


def _decision(kind: str, cols: list[int]) -> tuple[int, dict[str, Any]]:
    """A logged decision as (seat, action)."""
    seat = cols[0]
    if kind == "decline":
        return seat, {"type": "decline"}
    if kind == "swap":
        a1, o1, a2, o2 = cols[1:]
        return seat, {"type": "swap", "first_area": AREA_NAMES[a1], "first_owner": o1,
                      "second_area": AREA_NAMES[a2], "second_owner": o2}
    area, victim = cols[1:]
    return seat, {"type": kind, "area": AREA_NAMES[area], "victim": victim}


# -- play ------------------------------------------------------------------------------------------
def play(games: int, players: int, seed: int = 0,
         strategies: str | Sequence[str] | Sequence[Sequence[str]] = "random",
         edition: str = "seed", max_rounds: int | None = None, records: bool = False) -> BatchResult:
    """Play ``games`` games of ``players`` at once and return their results.

    ``strategies`` names one strategy for every seat, one per seat, or a line-up (one per seat)
    for each game: ``random``, ``printer-first`` or ``area-control`` (see the module docstring).
    ``edition`` and ``max_rounds`` are the table options of
    :class:`~tricolore.games.revolution.rules.RevolutionOptions`. With ``records``, the actions
    are kept so that :meth:`BatchResult.records` can write each game's record. Bad arguments raise
    ``ValueError`` (or the options' ``OptionsError``) with one sentence.
    """
    if type(games) is not int or games < 1:
        raise ValueError(f"games must be a whole number of at least 1; got {games!r:.40}")
    if type(players) is not int or not INFO.min_players <= players <= INFO.max_players:
        raise ValueError(f"Revolution! is played by {INFO.min_players} to {INFO.max_players} "
                         f"players; got {players!r:.40}")
    if type(seed) is not int or seed < 0:
        raise ValueError(f"the seed must be a whole number of at least 0; got {seed!r:.40}")
    codes = _codes(strategies, games, players)
    RevolutionOptions(edition, max_rounds).validate(players)
    start = time.perf_counter()
    result = _Batch(games, players, seed, chart_of(edition), max_rounds, records, codes).run()
    result.seconds = time.perf_counter() - start
    return result


def _codes(strategies: str | Sequence[str] | Sequence[Sequence[str]], games: int, players: int
           ) -> Array:
    """Each game's line-up as indices in :data:`STRATEGIES` ([games, players]), or ``ValueError``."""
    if isinstance(strategies, str):
        lineups: list[list[object]] = [[strategies] * players]
    elif strategies and not isinstance(strategies[0], str):
        lineups = [list(x) if isinstance(x, Sequence) and not isinstance(x, str) else [x]
                   for x in strategies]
        if len(lineups) != games:
            raise ValueError(f"give a line-up for every game; got {len(lineups)} for {games} games")
    else:
        lineups = [list(strategies)]
    for lineup in lineups:
        if len(lineup) != players:
            raise ValueError(f"name one strategy for every seat, or one for all; got {len(lineup)} "
                             f"for {players} players")
        unknown = sorted({str(n) for n in lineup} - set(STRATEGIES))
        if unknown:
            raise ValueError(f"the batch plays only {', '.join(STRATEGIES)}; not {unknown[0][:40]!r}")
    index = {name: i for i, name in enumerate(STRATEGIES)}
    codes = np.array([[index[str(n)] for n in lineup] for lineup in lineups], dtype=np.int8)
    return np.broadcast_to(codes, (games, players)).copy()


class _Batch:
    """One batch being played (see :func:`play`)."""

    def __init__(self, games: int, players: int, seed: int, chart: Chart, max_rounds: int | None,
                 records: bool, codes: Array | None = None) -> None:
        self.n, self.p, self.seed, self.chart, self.max_rounds = games, players, seed, chart, max_rounds
        self.rng = np.random.default_rng(seed)
        self.sampler = _sampler(chart.edition)
        self.log = _Log() if records else None
        self.decisions = 0
        n, p, a = games, players, len(AREAS)
        codes = np.zeros((n, p), dtype=np.int8) if codes is None else codes
        self.all_random = not codes.any()
        self.greedy = batch_bots.GreedyBids(chart)
        self.scores = np.zeros((n, p), dtype=np.int64)
        self.track = np.zeros((n, p), dtype=np.int64)
        self.area_points = np.zeros((n, p), dtype=np.int64)
        self.leftover = np.zeros((n, p), dtype=np.int64)
        self.rounds = np.zeros(n, dtype=np.int64)
        self.full = np.zeros(n, dtype=bool)
        self.tied = np.zeros(n, dtype=np.int64)
        self.actions = np.zeros(n, dtype=np.int64)
        self.cards = np.array([CARD_FACES.index(c) for c in CARD_DECK], dtype=np.int64)
        self.card_support = np.array([CARD_EFFECTS[f][0] for f in CARD_FACES], dtype=np.int64)
        self.card_chips = np.array([[CARD_EFFECTS[f][1].get(c, 0) for c in CURRENCIES]
                                    for f in CARD_FACES], dtype=np.int64)
        self.remove = CARD_FACES.index(REMOVE)
        gid = np.arange(n)
        deck = np.zeros((n, len(CARD_DECK) if chart.card >= 0 else 0), dtype=np.int64)
        if chart.card >= 0:
            deck = self._shuffle(gid)
        self.live = _Live(
            gid, np.tile(np.array([STARTING_CHIPS[c] for c in CURRENCIES], dtype=np.int64), (n, p, 1)),
            np.zeros((n, p), dtype=np.int64), np.zeros((n, a, p), dtype=np.int8),
            deck, np.full(n, deck.shape[1], dtype=np.int64),
            None if chart.bank is None else np.tile(chart.bank, (n, 1)),
            None if chart.markers is None else np.full((n, p), chart.markers, dtype=np.int64), codes)

    def _shuffle(self, gids: Array) -> Array:
        """A fresh order of the whole deck for each of ``gids`` (each order equally likely)."""
        order = self.cards[np.argsort(self.rng.random((len(gids), len(self.cards))), axis=1)]
        if self.log is not None:
            self.log.add("shuffle", gids, order)
        return order

    def run(self) -> BatchResult:
        """Play every game to its end."""
        rnd = 0
        while len(self.live.gid):
            rnd += 1
            if rnd > ROUND_LIMIT:  # the engine's own option allows no more
                raise ValueError(
                    f"{len(self.live.gid)} games had not ended after {ROUND_LIMIT} rounds (players "
                    "of one strategy may tie on the same spaces for ever); give max_rounds")
            self._round(rnd)
        return BatchResult(self.p, self.chart.edition, self.max_rounds,
                           self.seed + np.arange(self.n), self.scores, self.track, self.area_points,
                           self.leftover, self.scores == self.scores.max(axis=1, keepdims=True),
                           self.rounds, self.full, self.tied, self.actions, self.decisions,
                           0.0, self.log)

    # -- a round -----------------------------------------------------------------------------
    def _round(self, rnd: int) -> None:
        live, chart, p = self.live, self.chart, self.p
        g = len(live.gid)
        rows = np.arange(g)
        # Round start: fewer than five chips are topped up with Gold (from the bank, if any).
        short = np.maximum(MINIMUM_CHIPS - _add_along(live.chips, 2), 0)
        if live.bank is None:
            live.chips[:, :, 2] += short
        else:
            for seat in range(p):
                given = np.minimum(short[:, seat], live.bank[:, 2])
                live.bank[:, 2] -= given
                live.chips[:, seat, 2] += given
        # Bidding: every chip behind the shield, revealed together.
        s_count = len(chart.spaces)
        if self.all_random:
            bids = [x.reshape(g, p, s_count)
                    for x in self.sampler.sample(live.chips.reshape(g * p, 3), self.rng)]
        else:
            bids = self._mixed_bids()
        self.decisions += g * p
        self.actions[live.gid] += p
        if self.log is not None:
            self.log.add("bids", live.gid, np.stack(bids, axis=-1))
        before, live.chips = live.chips, np.zeros_like(live.chips)
        # Each contest goes to the strongest bid; a tie for the strongest gives it to nobody.
        # A bid on a space as one number ordered as the rules order bids (Force, then Blackmail,
        # then Gold, a byte each); a player's chips never pass 255, so sums never carry over.
        # (numpy is slow at np.where, boolean-mask writes and mixed types: so products with
        # booleans, one type at a time, and a slice per space.)
        keys = (bids[0].astype(np.uint32) << 16) | (bids[1].astype(np.uint32) << 8) | bids[2]
        for s in np.flatnonzero(~chart.contested):
            keys[:, :, s] = 0
        best = keys[:, 0]
        for q in range(1, p):
            best = np.maximum(best, keys[:, q])
        tops = [keys[:, q] == best for q in range(p)]
        ntop = tops[0].view(np.uint8).copy()
        for q in range(1, p):
            ntop += tops[q].view(np.uint8)
        won = (ntop == 1) & (best > 0)  # [G, S]
        wins = np.stack([t & won for t in tops], axis=1)  # [G, P, S]
        top_seat = np.zeros(won.shape, dtype=np.int8)  # the seat of the top bid, if it is alone
        for q in range(1, p):
            top_seat += tops[q].view(np.int8) * np.int8(q)
        winner = (top_seat.astype(np.int64) + 1) * won - 1  # [G, S], -1: nobody
        if chart.returned:  # losers take their chips back: all they bid in contests, less won
            won_keys = keys * wins
            won_bid = won_keys[:, :, 0].copy()
            for space in range(1, len(chart.spaces)):
                won_bid += won_keys[:, :, space]
            placed = before.copy()
            if chart.card >= 0:
                placed[:, :, 2] -= bids[2][:, :, chart.card]
            placed[:, :, 0] -= won_bid >> 16
            placed[:, :, 1] -= (won_bid >> 8) & 255
            placed[:, :, 2] -= won_bid & 255
            live.chips += placed
        for s in np.flatnonzero(chart.support):
            live.support += wins[:, :, s] * chart.support[s]
        gains = np.zeros_like(live.chips)
        for s, c in zip(*np.nonzero(chart.gains), strict=True):
            gains[:, :, c] += wins[:, :, s] * chart.gains[s, c]
        if live.bank is None:
            live.chips += gains
        else:  # space by space: what is paid in may be taken out by a later space's winner
            for c in range(len(CURRENCIES)):
                paid = bids[c] if not chart.returned else bids[c] * wins
                paid_in = np.cumsum(_add_along(paid * chart.contested, 1), axis=1)  # [G, S]
                taken = np.zeros(g, dtype=np.int64)
                for s in np.flatnonzero(chart.gains[:, c]):
                    ws = np.flatnonzero(won[:, s])
                    gain = np.minimum(chart.gains[s, c],
                                      live.bank[ws, c] + paid_in[ws, s] - taken[ws])
                    taken[ws] += gain
                    live.chips[ws, winner[ws, s], c] += gain
                live.bank[:, c] += paid_in[:, -1] - taken
        # Influence: a marker in the winner's area, if a space is free there and they have one.
        # Each area has one character, so the areas fill independently of one another.
        spaces, areas = chart.area_characters, chart.area[chart.area_characters]
        w = winner[:, spaces]  # [G, areas with a character]
        ok = (w >= 0) & (_add_along(live.board[:, areas], 2) < chart.area_spaces[areas])
        if live.markers is None:
            gi, ai = np.nonzero(ok)
            live.board[gi, areas[ai], w[gi, ai]] += 1
        else:  # in chart order: a player may run out of markers on the way
            for k in range(len(spaces)):
                ws = np.flatnonzero(ok[:, k] & (live.markers[rows, w[:, k]] > 0))
                live.board[ws, areas[k], w[ws, k]] += 1
                live.markers[ws, w[ws, k]] -= 1
        if chart.spy >= 0:
            self._spy(winner[:, chart.spy])
        if chart.apothecary >= 0:
            self._apothecary(winner[:, chart.apothecary])
        if chart.card >= 0:
            self._cards(rnd, bids[2][:, :, chart.card])
        self._end_round(rnd)

    def _mixed_bids(self) -> list[Array]:
        """The bids of a round where some seats play a named strategy: the random seats' drawn
        as always, the others' built by :class:`~tricolore.games.revolution.batch_bots.GreedyBids`
        on what each values (one [G, P, S] array per currency)."""
        live, chart = self.live, self.chart
        bids = [np.zeros((len(live.gid), self.p, len(chart.spaces)), dtype=np.uint8)
                for _ in CURRENCIES]
        for code, name in enumerate(STRATEGIES):
            gi, seat = np.nonzero(live.codes == code)
            if not len(gi):
                continue
            holdings = live.chips[gi, seat]
            if name == "random":
                drawn = self.sampler.sample(holdings, self.rng)
            else:
                values = batch_bots.space_values(
                    name, chart, live.board[gi],
                    None if live.markers is None else live.markers[gi], seat)
                built = self.greedy.build(holdings, values, self.rng)
                drawn = [built[:, :, c].astype(np.uint8) for c in range(len(CURRENCIES))]
            for c in range(len(CURRENCIES)):
                bids[c][gi, seat] = drawn[c]
        return bids

    def _named(self, rows: Array, seats: Array) -> Array:
        """Which of the deciding ``seats`` (at live ``rows``) play a named strategy."""
        if self.all_random:
            return np.zeros(len(rows), dtype=bool)
        return self.live.codes[rows, seats] != 0

    def _pick(self, options: Array) -> tuple[Array, Array]:
        """For each row of ``options`` ([n, m] bool), one of its ``m`` columns or "none" (index m)
        uniformly; returns the pick and whether it is "none"."""
        cum = options.cumsum(axis=1, dtype=np.int16)
        count = cum[:, -1]
        r = self.rng.integers(0, count + 1)
        none = r == count
        pick = (cum > r[:, None]).argmax(axis=1)
        return pick, none

    def _spy(self, winner: Array) -> None:
        """The Spy's winner may replace an opponent's marker with one of theirs."""
        live, p = self.live, self.p
        rows = np.flatnonzero(winner >= 0)
        w = winner[rows]
        options = live.board[rows] > 0  # [n, A, P]
        options[np.arange(len(rows)), :, w] = False
        asked = options.any(axis=(1, 2))
        if live.markers is not None:
            asked &= live.markers[rows, w] > 0
        rows, w, options = rows[asked], w[asked], options[asked]
        self.decisions += len(rows)
        self.actions[live.gid[rows]] += 1
        pick, none = self._pick(options.reshape(len(rows), options.shape[1] * p))
        named = self._named(rows, w)
        if named.any():  # the biggest gain in area points, declined when there is none
            pick[named], taken = batch_bots.power_choice(
                "spy", live.board[rows[named]], w[named], self.chart.area_support)
            none[named] = ~taken
        area, victim = pick // p, pick % p
        if self.log is not None:
            self.log.add("decline", live.gid[rows[none]], w[none])
        rows, w, area, victim = rows[~none], w[~none], area[~none], victim[~none]
        if self.log is not None:
            self.log.add("spy", live.gid[rows], w, area, victim)
        live.board[rows, area, victim] -= 1
        live.board[rows, area, w] += 1
        if live.markers is not None:
            live.markers[rows, w] -= 1
            live.markers[rows, victim] += 1

    def _apothecary(self, winner: Array) -> None:
        """The Apothecary's winner may swap two markers of different players."""
        live, p = self.live, self.p
        rows = np.flatnonzero(winner >= 0)
        held = live.board[rows] > 0  # [n, A, P]
        owners = np.asarray(held.any(axis=1))  # [n, P]
        asked = _add_along(owners, 1) >= 2
        rows, held, w = rows[asked], held[asked], winner[rows[asked]]
        n = len(rows)
        self.decisions += n
        self.actions[live.gid[rows]] += 1
        per_owner = _add_along(held, 1)  # [n, P]: areas holding each player's markers
        # A first marker (area, owner) can be paired with every marker of another owner.
        others = (_add_along(per_owner, 1)[:, None] - per_owner).astype(np.int16)
        weight = held * others[:, None, :]  # [n, A, P]
        flat = weight.reshape(n, weight.shape[1] * p)
        cum = flat.cumsum(axis=1, dtype=np.int16)
        total = cum[:, -1]
        r = self.rng.integers(0, total + 1)
        none = r == total
        first = (cum > r[:, None]).argmax(axis=1)
        idx = np.arange(n)
        before = np.where(first > 0, cum[idx, np.maximum(first - 1, 0)], 0)
        a1, o1 = first // p, first % p
        second_options = held.copy()
        second_options[idx, :, o1] = False
        second = (second_options.reshape(n, held.shape[1] * p).cumsum(axis=1, dtype=np.int16)
                  > (r - before)[:, None]).argmax(axis=1)
        a2, o2 = second // p, second % p
        named = self._named(rows, w)
        if named.any():  # the swap of one's own marker that gains most, declined when none does
            board, me = live.board[rows[named]], w[named]
            pick, taken = batch_bots.power_choice("swap", board, me, self.chart.area_support)
            areas = board.shape[1]
            a1[named], a2[named], o2[named] = pick // (areas * p), pick // p % areas, pick % p
            o1[named] = me
            none[named] = ~taken
        if self.log is not None:
            self.log.add("decline", live.gid[rows[none]], w[none])
        keep = ~none
        rows, w, a1, o1, a2, o2 = rows[keep], w[keep], a1[keep], o1[keep], a2[keep], o2[keep]
        if self.log is not None:
            self.log.add("swap", live.gid[rows], w, a1, o1, a2, o2)
        live.board[rows, a1, o1] -= 1  # each game once per line: plain indexed writes
        live.board[rows, a1, o2] += 1
        live.board[rows, a2, o2] -= 1
        live.board[rows, a2, o1] += 1

    def _cards(self, rnd: int, gold: Array) -> None:
        """Each Gold on the Card space draws a card, players in turn from this round's first
        (the first player moves on by one each round)."""
        live, p = self.live, self.p
        first = (rnd - 1) % p
        for i in range(p):
            seat = (first + i) % p
            for j in range(int(gold[:, seat].max(initial=0))):
                rows = np.flatnonzero(gold[:, seat] > j)
                empty = rows[live.deck_len[rows] == 0]
                if len(empty):
                    live.deck[empty] = self._shuffle(live.gid[empty])
                    live.deck_len[empty] = live.deck.shape[1]
                live.deck_len[rows] -= 1
                card = live.deck[rows, live.deck_len[rows]]
                live.support[rows, seat] += self.card_support[card]
                live.chips[rows, seat] += self.card_chips[card]
                rows = rows[card == self.remove]
                if len(rows):
                    self._remove(rows, seat)

    def _remove(self, rows: Array, seat: int) -> None:
        """A Remove 1 Influence card: the drawer removes an opponent's marker, if there is one."""
        live, p = self.live, self.p
        options = live.board[rows] > 0
        options[:, :, seat] = False
        asked = options.any(axis=(1, 2))
        rows, options = rows[asked], options[asked]
        self.decisions += len(rows)
        self.actions[live.gid[rows]] += 1
        flat = options.reshape(len(rows), options.shape[1] * p)
        cum = flat.cumsum(axis=1, dtype=np.int16)
        r = self.rng.integers(0, cum[:, -1])
        pick = (cum > r[:, None]).argmax(axis=1)
        named = self._named(rows, np.full(len(rows), seat))
        if named.any():  # the removal that gains most (always made)
            pick[named], _ = batch_bots.power_choice(
                "remove_influence", live.board[rows[named]], np.full(int(named.sum()), seat),
                self.chart.area_support)
        area, victim = pick // p, pick % p
        if self.log is not None:
            self.log.add("remove_influence", live.gid[rows], np.full(len(rows), seat), area, victim)
        live.board[rows, area, victim] -= 1

    def _end_round(self, rnd: int) -> None:
        """The game ends after the round that fills the board, or after ``max_rounds``."""
        live, chart = self.live, self.chart
        full = np.asarray((_add_along(live.board, 2) >= chart.area_spaces).all(axis=1))
        over = full | (self.max_rounds is not None and rnd >= self.max_rounds)
        if not over.any():
            return
        done = np.flatnonzero(over)
        gid = live.gid[done]
        board = live.board[done]  # [n, A, P]
        best = board.max(axis=2, keepdims=True)
        top = (board == best) & (best > 0)
        sole = top.sum(axis=2, keepdims=True) == 1
        areas = ((top & sole) * chart.area_support[None, :, None]).sum(axis=1)
        left = (live.chips[done] @ np.array([LEFTOVER_SUPPORT[c] for c in CURRENCIES])
                if chart.leftover else np.zeros_like(areas))
        self.track[gid] = live.support[done]
        self.area_points[gid] = areas
        self.leftover[gid] = left
        self.scores[gid] = live.support[done] + areas + left
        self.rounds[gid] = rnd
        self.full[gid] = full[done]
        self.tied[gid] = len(AREAS) - (top & sole).any(axis=2).sum(axis=1)
        self.live = live.keep(np.flatnonzero(~over))


def _add_along(x: Array, axis: int) -> Array:
    """``x`` summed along a short ``axis``, as whole numbers: slice by slice, which numpy does
    far faster than its reductions along short axes."""
    parts = np.moveaxis(x, axis, 0)
    out = parts[0].astype(np.int64)
    for part in parts[1:]:
        out += part
    return out


@cache
def _sampler(edition: str) -> BidSampler:
    return BidSampler(chart_of(edition))


def _play_batch(games: int, players: int, seed: int, lineups: Sequence[Sequence[str]],
                options: Mapping[str, Any], records: bool) -> BatchResult:
    return play(games, players, seed, lineups, edition=options.get("edition", "seed"),
                max_rounds=options.get("max_rounds"), records=records)


BATCH = BatchPath(STRATEGIES, _play_batch)
"""Revolution!'s batched path, as ``tricolore simulate revolution --batch`` plays it."""
