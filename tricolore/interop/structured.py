"""Observations people can read: a ``gymnasium.spaces.Dict`` of named fixed-shape arrays per game.

:class:`StructuredObserver` turns what one seat knows (``state.view(seat)``, plus the public prompt)
into float32 arrays of one fixed shape for a game, its table size and its options:

- ``prompt`` (3): 1 where the seat is asked to act now, where the move is secret, where it is a
  response window; ``prompt_kinds`` (kinds of action): the kinds the seat is asked for.
- ``partial`` (the codec's size): how many times each flat index has been chosen in the action
  the seat is building now.
- ``board``: the public board; ``players`` (players × features): every player's public counters,
  **relative to the observer**: row 0 is the observer, row 1 the next seat around the table, and
  so on; every seat named on the board is one-hot in that same relative order.
- ``secret``: what only the observer knows (its role, hand, stash, sealed move).
- Entities whose count varies (Culottes' citizens) are padded to a documented maximum, with a
  ``present`` column.

Categories are one-hot (an unknown or absent value is all zeros); counts are plain numbers,
clipped to each array's documented bounds. :class:`FlatObserver` is the same flattened into one
vector (``gymnasium.spaces.flatten``) for MLPs. Each game's arrays and columns are listed in
docs/agents.md and by :meth:`StructuredObserver.columns`.

A view is encoded once: passing the same ``view`` object again (one action is built in several
steps over one view) reuses its arrays; views are not changed after they are made.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
from gymnasium import spaces

from tricolore.core.model import Prompt, Seat, State
from tricolore.games.culottes.layout import CITIZENS_PER_SHEET
from tricolore.interop.codec import FlatActions, Partial
from tricolore.interop.observation import BOUND, clip

Arrays = dict[str, np.ndarray]
COUNT = 999.0
"""The top of a count without a rule-given bound (cakes, gold, support): values are clipped."""


class _Part:
    """One named array: its columns (for people) and bounds."""

    def __init__(self, rows: int | None, columns: Sequence[str], high: float | Sequence[float],
                 low: float = 0.0) -> None:
        self.rows = rows
        self.columns = tuple(columns)
        self.shape: tuple[int, ...] = ((len(self.columns),) if rows is None
                                       else (rows, len(self.columns)))
        self.low = np.full(self.shape, low, dtype=np.float32)
        self.high = np.broadcast_to(np.asarray(high, dtype=np.float32), self.shape).copy()
        self.index = {c: i for i, c in enumerate(self.columns)}


def _summed(added: Sequence[int | tuple[int, Any]]) -> tuple[np.ndarray, np.ndarray]:
    """The positions of a flat vector that ``added`` lists (1 for a position alone, or an amount
    for a position and the amount), each once, and the sum added at each: one indexed addition
    then writes them all, however many there are."""
    sums: dict[int, float] = {}
    for at in added:
        if type(at) is int:
            sums[at] = sums.get(at, 0.0) + 1.0
        else:
            position, amount = at  # type: ignore[misc]
            sums[position] = sums.get(position, 0.0) + amount
    return np.fromiter(sums, np.intp, len(sums)), np.fromiter(sums.values(), np.float32, len(sums))


class _Game:
    """A game's arrays: ``parts`` declared in ``__init__``; the public ones filled from a view by
    ``fill`` as seat 0 sees them, the ``SECRET`` ones from the seat's ``you`` by ``fill_secret``.

    A public array turns into another seat's by moving its rows and columns of seats round the
    table (the rows of a part declared with ``seat_rows``, the columns made by :meth:`seats`), so
    the public arrays are worked out once for all the seats."""

    SECRET: tuple[str, ...] = ("secret",)
    """The arrays filled from the observer's own secrets."""

    def __init__(self, codec: FlatActions) -> None:
        self.players = codec.players
        self.parts: dict[str, _Part] = {}
        self.seat_rows: set[str] = set()
        """The arrays whose rows are the players, the observer first."""
        self.seat_groups: set[str] = set()
        """The prefixes of columns ``prefix 0`` .. ``prefix n-1`` naming seats, the observer 0."""
        self.memo: dict[tuple[Any, ...], tuple[Any, ...]] = {}
        """Parts of the last view met and what they gave (a part equal to it is copied, not
        worked out again)."""

    def seats(self, prefix: str) -> list[str]:
        """Columns ``prefix 0`` .. ``prefix n-1``: a seat relative to the observer, one-hot."""
        self.seat_groups.add(prefix)
        return [f"{prefix} {r}" for r in range(self.players)]

    def added(self, put: _Put, name: str, source: Any,
              count: Callable[[Any, _Put], Sequence[int | tuple[int, Any]]]) -> None:
        """Adds at every position of the flat vector that ``count(source, put)`` lists, 1 (a
        position) or an amount (a position and the amount), worked out again only when
        ``source`` is not equal to the one this seat met last. Nothing else may write there."""
        key = (put.seat, name)
        found = self.memo.get(key)
        if found is None or found[0] != source:
            found = self.memo[key] = (source, *_summed(count(source, put)))
        if len(found[1]):
            put.vector[found[1]] += found[2]

    def kept(self, put: _Put, name: str, source: Any, fill: Callable[[], None]) -> None:
        """Array ``name``, which ``fill`` writes from ``source`` alone (and nothing else writes):
        copied if ``source`` is equal to the one this seat met last."""
        start, end = put.where[name][0], put.where[name][0] + self.parts[name].low.size
        key = (put.seat, name)
        found = self.memo.get(key)
        if found is not None and found[0] == source:
            put.vector[start:end] = found[1]
            return
        fill()
        self.memo[key] = (source, put.vector[start:end].copy())

    def part(self, name: str, columns: Sequence[str], high: float | Sequence[float] = COUNT,
             rows: int | None = None, low: float = 0.0, seat_rows: bool = False) -> None:
        self.parts[name] = _Part(self.players if seat_rows else rows, columns, high, low)
        if seat_rows:
            self.seat_rows.add(name)

    def turned(self, name: str, seat: Seat) -> list[int]:
        """For each cell of public array ``name`` as ``seat`` sees it, the cell of seat 0's."""
        part, n = self.parts[name], self.players
        width = len(part.columns)
        source = list(range(width))
        for prefix in self.seat_groups:
            if f"{prefix} 0" in part.index:
                for k in range(n):
                    source[part.index[f"{prefix} {k}"]] = part.index[f"{prefix} {(k + seat) % n}"]
        rows = 1 if part.rows is None else part.rows
        turn = seat if name in self.seat_rows else 0
        return [((row + turn) % rows) * width + column for row in range(rows) for column in source]

    def fill(self, view: Mapping[str, Any], out: Arrays, put: _Put) -> None:
        """The public arrays from ``view``, as seat 0 sees them."""
        raise NotImplementedError

    def fill_secret(self, you: Mapping[str, Any], out: Arrays, put: _Put) -> None:
        """The :data:`SECRET` arrays from the observer's ``you``."""


_Where = tuple[int, int, bool, dict[str, int]]
"""Where an array lies in the flat vector: its start, its row width, whether it has rows, and
its columns' positions."""
_NUMBERS = (int, float, bool)


class _Put:
    """Writes values into the arrays by column name, seats made relative to the observer (into
    the flat vector the arrays are views of)."""

    def __init__(self, parts: Mapping[str, _Part], out: Arrays, seat: Seat, players: int,
                 vector: np.ndarray, where: Mapping[str, _Where]) -> None:
        self.parts, self.out, self.seat, self.players = parts, out, seat, players
        self.vector, self.where = vector, where

    def rel(self, seat: Any) -> int | None:
        """``seat``'s row: 0 for the observer, then around the table; None for no seat."""
        return (seat - self.seat) % self.players if type(seat) is int else None

    def rows(self) -> range:
        """The absolute seats in row order."""
        return range(self.seat, self.seat + self.players)

    def __call__(self, name: str, column: str, value: Any, row: int | None = None) -> None:
        if value is None:
            return  # nothing known
        start, width, has_rows, index = self.where[name]
        if has_rows:
            if row is None:
                return  # a row of no seat
            start += row * width
        self.vector[start + index[column]] = float(value)

    def one_hot(self, name: str, prefix: str, value: Any, row: int | None = None) -> None:
        """1 at column ``prefix value`` (nothing for a value outside the vocabulary)."""
        start, width, _, index = self.where[name]
        at = index.get(f"{prefix} {value}")
        if at is not None:
            self.vector[start + at + (0 if row is None else row * width)] = 1.0

    def seat_hot(self, name: str, prefix: str, seat: Any, row: int | None = None) -> None:
        """1 at column ``prefix <relative seat>``."""
        if type(seat) is int:
            self.one_hot(name, prefix, (seat - self.seat) % self.players, row)

    def per_player(self, name: str, column: str, values: Sequence[Any] | None) -> None:
        """A list indexed by absolute seat, into column ``column`` of the player rows."""
        if values is None:
            return
        n, seat = self.players, self.seat
        start, width, _, index = self.where[name]
        at = start + index[column]
        if type(values) is list and len(values) == n:
            turned = values[seat:] + values[:seat]
            if all(type(v) in _NUMBERS for v in turned):
                self.vector[at:at + n * width:width] = turned
                return
        vector = self.vector
        for row in range(n):
            value = values[(seat + row) % n]
            if type(value) in _NUMBERS:
                vector[at + row * width] = float(value)


def _hot(prefix: str, vocabulary: Sequence[Any]) -> list[str]:
    return [f"{prefix} {v}" for v in vocabulary]


# -- Culottes --------------------------------------------------------------------------------------
HELD = ("citizens held", "cakes held", "cockades held", "citizens emigrated")
"""The players' counters summed over the citizens they hold."""


_CITIZEN_COUNTS = (("cakes", "cakes"), ("cockades", "cockades"), ("bastille_cakes", "bastille cakes"),
                   ("emigrated", "emigrated"), ("recruited", "recruited"))
"""A citizen's numbers in the public view, and their columns in ``citizens``."""


class _Culottes(_Game):
    SECRET: tuple[str, ...] = ("secret", "secret_citizens")
    PHASES = ("roles", "recruit", "turn", "over")
    STATUSES = ("none", "cap", "scale")
    SIDES = ("sans_culotte", "privileged")
    DEALS = ("offered", "accepted", "declined", "withdrawn", "paid", "settled")

    def __init__(self, codec: FlatActions) -> None:
        super().__init__(codec)
        n = self.players
        sheets = getattr(codec.options, "citizen_sheets_per_player", 2)
        self.citizens = CITIZENS_PER_SHEET * n * sheets
        faces = getattr(codec.options, "die_faces", 6)
        self.part("board", [*_hot("phase", self.PHASES), "turn", "rounds completed", "step",
                            "bastille cakes", "die", *_hot("die", range(1, faces + 1)), "end agreed",
                            "final turns left", *self.seats("current player"), *self.seats("first player"),
                            "escrow cakes", "open alliances", *_hot("deals", self.DEALS)])
        self.part("players", ["agrees to end", "recruits", "citizens held", "cakes held", "cockades held",
                              "citizens emigrated", *_hot("open trial cakes", self.SIDES),
                              "bribes offered", "bribes received"], seat_rows=True)
        self.part("citizens", ["present", *self.seats("owner"), "cakes", "cockades", "bastille cakes",
                               *_hot("status", self.STATUSES), "emigrated", "recruited",
                               *_hot("scale", self.SIDES), "current"], rows=self.citizens)
        self.part("secret", ["role revolutionary", "role grabber"], high=1.0)
        self.part("secret_citizens", [*_hot("nature", self.SIDES), "puppet"], high=1.0,
                  rows=self.citizens)
        self._held: tuple[Mapping[str, _Where], np.ndarray] | None = None

    def _held_at(self, where: Mapping[str, _Where]) -> np.ndarray:
        """The positions of the :data:`HELD` columns of every player row, row by row."""
        if self._held is None or self._held[0] is not where:
            start, width, _, index = where["players"]
            self._held = (where, np.array([start + row * width + index[column]
                                           for row in range(self.players) for column in HELD],
                                          dtype=np.intp))
        return self._held[1]

    @staticmethod
    def _deals(deals: Sequence[Mapping[str, Any]], put: _Put) -> list[int]:
        out = []
        board, players = put.where["board"], put.where["players"]
        for deal in deals:
            at = board[3].get(f"deals {deal['status']}")
            if at is not None:
                out.append(board[0] + at)
            if deal["status"] == "offered":
                for seat, column in ((deal["payer"], "bribes offered"), (deal["payee"], "bribes received")):
                    row = put.rel(seat)
                    if row is not None:
                        out.append(players[0] + row * players[1] + players[3][column])
        return out

    def _citizens(self, citizens: Sequence[Mapping[str, Any]], current: Any, put: _Put,
                  last: tuple[Any, ...] | None) -> list[list[int]]:
        """The ``citizens`` rows; and per player row, the citizens it holds, their cakes, cockades
        and how many emigrated. ``last``: what the seat's last view gave (its citizens, current
        citizen, rows and counts), if any; its rows and counts are taken as they were, and only
        the citizens that changed since (or became or stopped being the current one) are written
        and counted again. Citizens are only added, in the order of their numbers, so a list no
        shorter than the last one leaves no row of a citizen it does not hold; a shorter one (a
        new game) is read whole."""
        start = put.where["citizens"][0]
        vector = put.vector
        before: Sequence[Mapping[str, Any]] = ()
        was = None
        if last is not None and len(last[0]) <= len(citizens):
            before, was = last[0], last[1]
            vector[start:start + last[2].size] = last[2]
            held = [list(counts) for counts in last[3]]
        else:
            held = [[0, 0, 0, 0] for _ in range(self.players)]
        for k, citizen in enumerate(citizens):
            i = citizen["id"]
            if not 0 <= i < self.citizens:
                continue
            old = before[k] if k < len(before) else None
            same = old is not None and (old is citizen or old == citizen)
            now = i == current
            if not same or now != (i == was):
                self._citizen(citizen, i, now, put)  # the whole row, so nothing of the last stays
            if not same:
                if old is not None:
                    self._held_by(held, old, put, -1)
                self._held_by(held, citizen, put, 1)
        return held

    @staticmethod
    def _held_by(held: list[list[int]], citizen: Mapping[str, Any], put: _Put, sign: int) -> None:
        """Add (``sign`` 1) or take away (-1) ``citizen`` from its owner's counts in ``held``."""
        row = put.rel(citizen["owner"])
        if row is not None:
            counts = held[row]
            counts[0] += sign
            counts[1] += sign * citizen["cakes"]
            counts[2] += sign * citizen["cockades"]
            counts[3] += sign * citizen["emigrated"]

    @staticmethod
    def _citizen(citizen: Mapping[str, Any], i: int, current: bool, put: _Put) -> None:
        """Row ``i`` of ``citizens``, made as a list and written in one assignment (a numpy
        assignment a cell costs about as much as the whole row's)."""
        start, width, _, index = put.where["citizens"]
        row = [0.0] * width
        row[index["present"]] = 1.0
        for at in (index.get(f"owner {put.rel(citizen['owner'])}"),
                   index.get(f"status {citizen['status']}")):
            if at is not None:
                row[at] = 1.0
        for key, column in _CITIZEN_COUNTS:
            value = citizen[key]
            if value is not None:
                row[index[column]] = float(value)
        row[index["current"]] = float(current)
        for side, cakes in (citizen.get("scales") or {}).items():
            row[index[f"scale {side}"]] = float(cakes)
        put.vector[start + i * width:start + (i + 1) * width] = row

    def fill(self, view: Mapping[str, Any], out: Arrays, put: _Put) -> None:
        put.one_hot("board", "phase", view.get("phase"))
        for key, column in (("turn", "turn"), ("rounds_completed", "rounds completed"), ("step", "step"),
                            ("bastille", "bastille cakes"), ("last_roll", "die"),
                            ("end_agreed", "end agreed"), ("final_turns_left", "final turns left")):
            put("board", column, view.get(key))
        put.one_hot("board", "die", view.get("last_roll"))
        put.seat_hot("board", "current player", view.get("current_player"))
        put.seat_hot("board", "first player", view.get("first_player"))
        put("board", "escrow cakes", (view.get("escrow") or {}).get("cakes"))
        put("board", "open alliances", sum(a["status"] == "open" for a in view.get("alliances", ())))
        self.added(put, "deals", view.get("deals", ()), self._deals)
        put.per_player("players", "agrees to end", view.get("agrees_to_end"))
        put.per_player("players", "recruits", view.get("recruits"))
        players = put.parts["players"].index
        current = view.get("current_citizen")
        citizens = view.get("citizens", ())
        start = put.where["citizens"][0]
        end = start + self.parts["citizens"].low.size
        kept = (put.seat, "citizens")
        found = self.memo.get(kept)
        if found is not None and found[1] == current and found[0] == citizens:
            put.vector[start:end] = found[2]  # no citizen changed since the seat's last view
            held = found[3]
        else:
            held = self._citizens(citizens, current, put, found)
            self.memo[kept] = (citizens, current, put.vector[start:end].copy(), held)
        # no other array writes these columns: every player's in one step
        put.vector[self._held_at(put.where)] = [count for counts in held for count in counts]
        book = view.get("book", ())
        # the citizens' owners are the seats' holdings: the Book's entries are read again only
        # when the Book or the holdings changed (a recruit)
        holdings = view.get("holdings")
        kept = (put.seat, "book")
        found = self.memo.get(kept)
        if found is None or found[0] != (book, holdings):
            owners = {citizen["id"]: citizen["owner"] for citizen in citizens}
            start, width = put.where["players"][:2]
            trials: list[tuple[int, Any]] = []
            for entry in book:
                voter = put.rel(owners.get(entry.get("voter")))  # the voter is a citizen: its owner's row
                side = players.get(f"open trial cakes {entry.get('side')}")
                if entry.get("closing") is None and voter is not None and side is not None:
                    trials.append((start + voter * width + side, entry["cakes"]))
            found = self.memo[kept] = ((book, holdings), *_summed(trials))
        if len(found[1]):
            put.vector[found[1]] += found[2]

    def fill_secret(self, you: Mapping[str, Any], out: Arrays, put: _Put) -> None:
        put.one_hot("secret", "role", you.get("role"))
        for key, known in (you.get("citizens") or {}).items():
            i = int(key)
            if 0 <= i < self.citizens:
                put.one_hot("secret_citizens", "nature", known.get("nature"), i)
                put("secret_citizens", "puppet", known.get("puppet"), i)


# -- Culottes: the Trials --------------------------------------------------------------------------
class _Trials(_Game):
    PHASES = ("statement", "designate", "first_vote", "debate", "second_vote", "over")
    ROLES = ("revolutionary", "grabber")

    def __init__(self, codec: FlatActions) -> None:
        super().__init__(codec)
        self.part("board", [*_hot("phase", self.PHASES), "trial", "trials total", *self.seats("accused"),
                            "max grabbers", "statement made"])
        self.part("players", ["agrees to end", "points", "first vote yes", "first vote no",
                              "has voted", "waiting in debate", "arguments",
                              "times accused", "times grabber", "times told the truth"], seat_rows=True)
        self.part("secret", [*_hot("role", self.ROLES), "statement true", "statement false",
                             *self.seats("grabber"), "sealed vote yes", "sealed vote no"], high=1.0)

    @staticmethod
    def _arguments(arguments: Sequence[Mapping[str, Any]], put: _Put) -> list[int]:
        start, width, _, columns = put.where["players"]
        at = start + columns["arguments"]
        rows = (put.rel(argument.get("seat")) for argument in arguments)
        return [at + row * width for row in rows if row is not None]

    @staticmethod
    def _history(history: Sequence[Mapping[str, Any]], put: _Put) -> list[int | tuple[int, Any]]:
        start, width, _, columns = put.where["players"]
        out: list[int | tuple[int, Any]] = []
        for past in history:
            row = put.rel(past.get("accused"))
            if row is not None:
                out.append(start + row * width + columns["times accused"])
                out.append((start + row * width + columns["times told the truth"], bool(past.get("truth"))))
            for grabber in past.get("grabbers") or ():
                row = put.rel(grabber)
                if row is not None:
                    out.append(start + row * width + columns["times grabber"])
        return out

    def fill(self, view: Mapping[str, Any], out: Arrays, put: _Put) -> None:
        put.one_hot("board", "phase", view.get("phase"))
        put("board", "trial", view.get("trial"))
        put("board", "trials total", view.get("trials_total"))
        put.seat_hot("board", "accused", view.get("accused"))
        put("board", "max grabbers", view.get("max_grabbers"))
        put("board", "statement made", view.get("statement") is not None)
        put.per_player("players", "agrees to end", view.get("agrees_to_end"))
        put.per_player("players", "points", view.get("points"))
        votes = view.get("first_vote")
        if isinstance(votes, list):
            put.per_player("players", "first vote yes", [v is True for v in votes])
            put.per_player("players", "first vote no", [v is False for v in votes])
        for seat in (view.get("vote") or {}).get("chosen") or ():
            put("players", "has voted", 1, put.rel(seat))
        for seat in (view.get("debate") or {}).get("waiting", ()):
            put("players", "waiting in debate", 1, put.rel(seat))
        self.added(put, "arguments", view.get("arguments", ()), self._arguments)
        self.added(put, "history", view.get("history", ()), self._history)

    def fill_secret(self, you: Mapping[str, Any], out: Arrays, put: _Put) -> None:
        put.one_hot("secret", "role", you.get("role"))
        truth, guess = you.get("truth"), you.get("vote")
        put("secret", "statement true", truth is True)
        put("secret", "statement false", truth is False)
        for seat in you.get("grabbers") or ():
            put.seat_hot("secret", "grabber", seat)
        put("secret", "sealed vote yes", guess is True)
        put("secret", "sealed vote no", guess is False)


# -- Let Them Eat Cake -----------------------------------------------------------------------------
class _Cake(_Game):
    PHASES = ("start", "donate", "ballot", "tie", "coup", "rigging", "seize", "guillotine", "deal",
              "head_medal", "enemy", "inspect", "over")
    OFFICES = ("head", "enemy", "operator", "secretary", "inspector")
    VALUES = tuple(range(15))  # 0 is a General, 1 to 14 Cake cards

    def __init__(self, codec: FlatActions) -> None:
        super().__init__(codec)
        self.part("board", [*_hot("phase", self.PHASES), "round", *self.seats("guillotine"),
                            "centre medals", "starter generals pile", "pantry",
                            *_hot("election", self.OFFICES), "vote number", "election winner known",
                            "inspection safe", "inspection unsafe", "draw cards", "window open"])
        self.part("players", ["pawns", "votes", "medals", "pantry generals", "starter generals",
                              "stash cards", "hand cards", "used cards", *_hot("office", self.OFFICES),
                              "candidate", "has voted", "ballot cards", "tally", "election winner",
                              "last ballot cards", "last ballot tally", "donor", "gifts given",
                              "gifts received"], seat_rows=True)
        self.part("secret", ["cakes", "sealed vote made", *self.seats("sealed vote"),
                             *_hot("hand", self.VALUES), *_hot("used", self.VALUES),
                             *_hot("stash", self.VALUES), *_hot("received", self.VALUES),
                             "received in stash"])

    @staticmethod
    def _gifts(gifts: Sequence[Mapping[str, Any]], put: _Put) -> list[int | tuple[int, Any]]:
        start, width, _, columns = put.where["players"]
        out: list[int | tuple[int, Any]] = []
        for gift in gifts:
            total = gift["medals"] + gift["generals"] + gift["cake_cards"]
            for seat, column in ((gift["giver"], "gifts given"), (gift["receiver"], "gifts received")):
                row = put.rel(seat)
                if row is not None:
                    out.append((start + row * width + columns[column], total))
        return out

    def fill(self, view: Mapping[str, Any], out: Arrays, put: _Put) -> None:
        put.one_hot("board", "phase", view.get("phase"))
        put("board", "round", view.get("round"))
        put.seat_hot("board", "guillotine", view.get("guillotine"))
        put("board", "centre medals", view.get("centre_medals"))
        put("board", "starter generals pile", view.get("starter_generals_pile"))
        put("board", "pantry", view.get("pantry"))
        put("board", "inspection safe", view.get("inspection") == "safe")
        put("board", "inspection unsafe", view.get("inspection") == "unsafe")
        put("board", "draw cards", len(view.get("draw") or ()))
        put("board", "window open", view.get("window") is not None)
        for key, column in (("pawns", "pawns"), ("votes", "votes"), ("medals", "medals"),
                            ("stash_cards", "stash cards"), ("hand_cards", "hand cards"),
                            ("used_cards", "used cards")):
            put.per_player("players", column, view.get(key))
        generals = view.get("generals") or []
        put.per_player("players", "pantry generals", [g["pantry"] for g in generals] or None)
        put.per_player("players", "starter generals", [g["starter"] for g in generals] or None)
        for office, seat in (view.get("offices") or {}).items():
            row = put.rel(seat)
            if row is not None:
                put.one_hot("players", "office", office, row)
        election = view.get("election")
        if election:
            put.one_hot("board", "election", election.get("office"))
            put("board", "vote number", election.get("vote_number"))
            put("board", "election winner known", election.get("winner") is not None)
            for seat in election.get("candidates") or ():
                put("players", "candidate", 1, put.rel(seat))
            for seat in (election.get("ballot") or {}).get("chosen") or ():
                put("players", "has voted", 1, put.rel(seat))
            put.per_player("players", "ballot cards", election.get("cards"))
            put.per_player("players", "tally", election.get("tally"))
            put("players", "election winner", 1, put.rel(election.get("winner")))
        last = view.get("last_ballot")
        if last:
            put.per_player("players", "last ballot cards", last.get("cards"))
            put.per_player("players", "last ballot tally", last.get("tally"))
        for seat in view.get("donors") or ():
            put("players", "donor", 1, put.rel(seat))
        self.added(put, "gifts", view.get("gifts") or (), self._gifts)

    def fill_secret(self, you: Mapping[str, Any], out: Arrays, put: _Put) -> None:
        put("secret", "cakes", you.get("cakes"))
        put("secret", "sealed vote made", you.get("sealed_vote") is not None)
        put.seat_hot("secret", "sealed vote", you.get("sealed_vote"))
        received = you.get("received") or {}
        put.one_hot("secret", "received", received.get("value"))
        put("secret", "received in stash", received.get("in_stash"))
        secret = put.parts["secret"].index
        for key in ("hand", "used", "stash"):
            for value in you.get(key) or ():
                at = secret.get(f"{key} {value}")
                if at is not None:
                    out["secret"][at] += 1


# -- Revolution! ------------------------------------------------------------------------------------
class _Revolution(_Game):
    PHASES = ("bid", "resolve", "spy", "apothecary", "remove", "over")

    def __init__(self, codec: FlatActions) -> None:
        super().__init__(codec)
        from tricolore.games.revolution.data import AREAS, CURRENCIES, EDITIONS
        edition = getattr(codec.options, "edition", "seed")
        self.spaces = tuple(s.name for s in EDITIONS[edition].chart)
        self.areas = tuple(a.name for a in AREAS)
        self.currencies = CURRENCIES
        self.part("board", [*_hot("phase", self.PHASES), "round", "next space", "deck", "discard",
                            *_hot("bank", CURRENCIES), "bids sealed"])
        self.part("areas", ["spaces", "support", *self.seats("markers")], rows=len(self.areas))
        self.part("chart", ["support", *_hot("chips", CURRENCIES), *self.seats("winner")],
                  rows=len(self.spaces))
        self.part("players", [*_hot("chips", CURRENCIES), "support", "markers left", "has bid"],
                  seat_rows=True)
        self.part("revealed", [f"{space} {c}" for space in self.spaces for c in CURRENCIES], seat_rows=True)
        self.part("secret", ["sealed bid made", *[f"{s} {c}" for s in self.spaces for c in CURRENCIES]])

    def _areas(self, view: Mapping[str, Any], put: _Put) -> None:
        for i, area in enumerate(view.get("areas") or ()):
            if i < len(self.areas):
                put("areas", "spaces", area["spaces"], i)
                put("areas", "support", area["support"], i)
                for seat, markers in enumerate(area["markers"]):
                    put("areas", f"markers {put.rel(seat)}", markers, i)

    def _chart(self, view: Mapping[str, Any], put: _Put) -> None:
        for i, space in enumerate(view.get("chart") or ()):
            if i < len(self.spaces):
                put("chart", "support", space["support"], i)
                for currency, count in space["chips"].items():
                    put("chart", f"chips {currency}", count, i)
        for i, resolved in enumerate(view.get("resolved") or ()):
            if i < len(self.spaces):
                put.seat_hot("chart", "winner", resolved.get("winner"), i)

    @staticmethod
    def _revealed(view: Mapping[str, Any], put: _Put) -> None:
        for seat, revealed in enumerate(view.get("revealed") or ()):
            for space, placed in (revealed or {}).items():
                for currency, count in placed.items():
                    put("revealed", f"{space} {currency}", count, put.rel(seat))

    def fill(self, view: Mapping[str, Any], out: Arrays, put: _Put) -> None:
        put.one_hot("board", "phase", view.get("phase"))
        put("board", "round", view.get("round"))
        put("board", "next space", view.get("next_space"))
        put("board", "deck", view.get("deck"))
        put("board", "discard", len(view.get("discard") or ()))
        for currency, count in (view.get("bank") or {}).items():
            put("board", f"bank {currency}", count)
        self.kept(put, "areas", view.get("areas"), lambda: self._areas(view, put))
        self.kept(put, "chart", (view.get("chart"), view.get("resolved")), lambda: self._chart(view, put))
        chips = view.get("chips") or []
        for currency in self.currencies:
            put.per_player("players", f"chips {currency}", [c[currency] for c in chips] or None)
        put.per_player("players", "support", view.get("support"))
        put.per_player("players", "markers left", view.get("markers_left"))
        bidders = (view.get("bids") or {}).get("chosen") or ()
        for seat in bidders:
            put("players", "has bid", 1, put.rel(seat))
        put("board", "bids sealed", len(bidders))
        self.kept(put, "revealed", view.get("revealed"), lambda: self._revealed(view, put))

    def fill_secret(self, you: Mapping[str, Any], out: Arrays, put: _Put) -> None:
        sealed = you.get("sealed_bid")
        put("secret", "sealed bid made", sealed is not None)
        for space, placed in (sealed or {}).items():
            for currency, count in placed.items():
                put("secret", f"{space} {currency}", count)


# -- Bread and Circuses ----------------------------------------------------------------------------
class _Bread(_Game):
    SECRET: tuple[str, ...] = ("secret", "informant")
    PHASES = ("negotiation", "play", "after_reveal", "scoring", "over")

    def __init__(self, codec: FlatActions) -> None:
        super().__init__(codec)
        from tricolore.games.bread_and_circuses.data import ICONS, SABOTAGE, TILES
        self.tiles, self.icons = TILES, ICONS
        self.part("board", [*_hot("phase", self.PHASES), "round", *self.seats("first player"), "riots",
                            "gold to end", "extra bread", "extra circus", "breads", "circuses", "riot",
                            "last breads", "last circuses", "last riot", "open deals", "window open"])
        self.part("players", ["gold", *_hot("disclosed", ICONS), "sabotage cards", "ready", "has played",
                              "barred", "forged", *_hot("tile", TILES), *_hot("counts as", TILES),
                              *_hot("last tile", TILES), "sabotage played"], seat_rows=True)
        self.part("secret", [*_hot("sabotage", [c.name for c in SABOTAGE]),
                             *_hot("disclosed", TILES), *_hot("sealed", TILES)])
        self.part("informant", _hot("tile", TILES), seat_rows=True, high=1.0)

    def fill(self, view: Mapping[str, Any], out: Arrays, put: _Put) -> None:
        put.one_hot("board", "phase", view.get("phase"))
        put("board", "round", view.get("round"))
        put.seat_hot("board", "first player", view.get("first_player"))
        put("board", "riots", view.get("riots"))
        put("board", "gold to end", view.get("gold_to_end"))
        for icon, count in (view.get("extra") or {}).items():
            put("board", f"extra {icon}", count)
        counts = view.get("counts") or {}
        put("board", "breads", counts.get("breads"))
        put("board", "circuses", counts.get("circuses"))
        put("board", "riot", view.get("riot"))
        last = view.get("last_round") or {}
        put("board", "last breads", (last.get("counts") or {}).get("breads"))
        put("board", "last circuses", (last.get("counts") or {}).get("circuses"))
        put("board", "last riot", last.get("riot"))
        put("board", "open deals", len(view.get("deals") or ()))
        put("board", "window open", view.get("window") is not None)
        put.per_player("players", "gold", view.get("gold"))
        put.per_player("players", "sabotage cards", view.get("sabotage_cards"))
        put.per_player("players", "ready", view.get("ready"))
        for row, seat in enumerate(put.rows()):
            seat %= self.players
            for key, prefix in (("disclosures", "disclosed"), ("tiles", "tile"), ("counts_as", "counts as")):
                values = view.get(key)
                if isinstance(values, list):
                    put.one_hot("players", prefix, values[seat], row)
            tiles = last.get("tiles")
            if isinstance(tiles, list):
                put.one_hot("players", "last tile", tiles[seat], row)
        for seat in (view.get("play") or {}).get("chosen") or ():
            put("players", "has played", 1, put.rel(seat))
        for key in ("barred", "forged"):
            for seat in view.get(key) or ():
                put("players", key, 1, put.rel(seat))
        columns = put.parts["players"].index
        for played in view.get("sabotage_played") or ():
            who = put.rel(played.get("seat"))
            if who is not None:
                out["players"][who, columns["sabotage played"]] += 1

    def fill_secret(self, you: Mapping[str, Any], out: Arrays, put: _Put) -> None:
        secret = put.parts["secret"].index
        for card in you.get("sabotage") or ():
            at = secret.get(f"sabotage {card}")
            if at is not None:
                out["secret"][at] += 1
        put.one_hot("secret", "disclosed", you.get("disclosed_tile"))
        put.one_hot("secret", "sealed", you.get("sealed_tile"))
        for seat, tile in enumerate(you.get("informant") or ()):
            who = put.rel(seat)
            if who is not None:
                put.one_hot("informant", "tile", tile, who)


GAMES: Mapping[str, Callable[[FlatActions], _Game]] = {
    "culottes": _Culottes, "culottes-trials": _Trials, "let-them-eat-cake": _Cake,
    "revolution": _Revolution, "bread-and-circuses": _Bread}
"""Each game's structured arrays."""


class _Generic(_Game):
    """A game without declared arrays: only the parts every game shares."""

    def fill(self, view: Mapping[str, Any], out: Arrays, put: _Put) -> None:
        return None


def _same_public(view: Mapping[str, Any], other: Mapping[str, Any]) -> bool:
    """Whether two views share their public parts (the very same objects: views are not changed
    after they are made)."""
    if len(view) - ("you" in view) != len(other) - ("you" in other):
        return False
    for key, value in view.items():
        if key != "you" and key != "seat" and other.get(key, _MISSING) is not value:
            return False
    return True


_MISSING = object()


def _same_items(kept: Sequence[object], now: Sequence[object]) -> bool:
    """Whether two sequences of the same length hold the very same objects, in order."""
    return all(a is b for a, b in zip(kept, now, strict=True))


class StructuredObserver:
    """The structured form: a ``gymnasium.spaces.Dict`` of named fixed-shape float32 arrays.

    Every observation is laid out in one float32 vector in the space's key order (the order of its
    flattening): the arrays of an observation are views of one fresh vector, so the flat form is
    that vector itself. The parts read from the view are worked out once per view and seat and
    kept; an observation copies them and writes the prompt and the action being built."""

    form = "structured"

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return StructuredObserver, (self.codec,)  # the rest is worked out from the codec

    def __init__(self, codec: FlatActions) -> None:
        self.codec = codec
        self.players = codec.players
        self.game = GAMES.get(codec.game, _Generic)(codec)
        parts: dict[str, _Part] = {
            "prompt": _Part(None, ("asked", "secret", "window"), 1.0),
            "prompt_kinds": _Part(None, codec.kinds, 1.0),
            "partial": _Part(None, codec.describe_all(), BOUND),
            **self.game.parts}
        self.parts = parts
        self.space = spaces.Dict({name: spaces.Box(p.low, p.high, p.shape, np.float32)
                                  for name, p in parts.items()})
        """The ``gymnasium.spaces.Dict`` every observation is in."""
        self.size: int = int(spaces.flatdim(self.space))
        """The length of the flattened observation."""
        self._kind_at = {k: i for i, k in enumerate(codec.kinds)}
        self._slices: dict[str, tuple[int, int, tuple[int, ...]]] = {}
        at = 0
        for name in self.space.spaces:  # the key order of the space, and of its flattening
            part = parts[name]
            self._slices[name] = (at, at + part.low.size, part.shape)
            at += part.low.size
        self._low = np.concatenate([parts[name].low.ravel() for name in self.space.spaces])
        self._high = np.concatenate([parts[name].high.ravel() for name in self.space.spaces])
        self._where: dict[str, _Where] = {
            name: (self._slices[name][0], len(p.columns), p.rows is not None, p.index)
            for name, p in self.game.parts.items()}
        self._prompt = self._slices["prompt"][0]
        self._kinds = self._slices["prompt_kinds"][0]
        self._partial = self._slices["partial"][0]
        self._secret = [(name, self._slices[name][0], self._slices[name][1])
                        for name in self.game.SECRET if name in self.game.parts]
        self._turns = np.stack([self._turn(seat) for seat in range(self.players)])
        """Row ``seat``: :meth:`_turn` of that seat (the identity for seat 0); indexing with all
        the rows turns the public arrays to every seat at once."""
        self._base = np.zeros((self.players, self.size), dtype=np.float32)
        """Every seat's arrays and prompt at the last position :meth:`vectors` saw (written over
        at the next)."""
        self._base_rows = list(self._base)
        """The rows of :attr:`_base`, each seat's (views of it)."""
        self._public: tuple[Mapping[str, Any], np.ndarray] | None = None
        index = [np.arange(start, end, dtype=np.intp) for _, start, end in self._secret]
        self._secret_index = np.concatenate(index) if index else np.zeros(0, dtype=np.intp)
        """The positions of the secret arrays in the flat vector."""
        self._secret_low = self._low[self._secret_index]
        self._secret_high = self._high[self._secret_index]
        secret = self._secret_index.size
        self._gather = np.zeros(self.size + self.players * secret, dtype=np.float32)
        """What :meth:`vectors` gathers every seat's observation from in one indexing: the public
        arrays as seat 0 sees them (:attr:`size` values), then every seat's secret row."""
        self._secret_rows = self._gather[self.size:].reshape(self.players, secret)
        """Row ``seat``: the values the seat's last secrets give at :attr:`_secret_index` (a view
        of the end of :attr:`_gather`)."""
        gathered = self._turns.copy()
        for seat in range(self.players):
            gathered[seat, self._secret_index] = self.size + seat * secret + np.arange(secret)
        self._gathered = gathered
        """:attr:`_turns`, with each seat's secret positions taken from its row of
        :attr:`_secret_rows` in :attr:`_gather`."""
        rows = np.arange(self.players, dtype=np.intp)[:, None] * self.size
        self._moved = np.argsort(self._turns, axis=1) + rows
        """Row ``seat``: where each position of seat 0's public arrays lies in :attr:`_base`, in
        the seat's row (the inverse of :attr:`_turns`, which moves cells only within a public
        array)."""
        asked = np.concatenate([np.arange(*self._slices[name][:2], dtype=np.intp)
                                for name in ("prompt", "prompt_kinds")])
        self._asked_at = (asked + rows).ravel()
        """The positions of :attr:`_base` that :meth:`_write_asked` writes, in every row."""
        self._secrets: dict[Seat, Mapping[str, Any]] = {}
        """Each seat's last secrets (its row of :attr:`_secret_rows` is used again while equal)."""
        self._last: tuple[Mapping[str, Any], Seat, np.ndarray] | None = None
        self._together: tuple[Mapping[str, Any], Mapping[Seat, Prompt], Sequence[Mapping[str, Any] | None],
                              np.ndarray, Sequence[Mapping[str, Any] | None]] | None = None
        """What :attr:`_base` was last made of: the public part, the prompts, the seats' secrets,
        the public arrays as seat 0 sees them, and the list that held the secrets (a caller passes
        the same list again only while its secrets are the same)."""

    def _turn(self, seat: Seat) -> np.ndarray:
        """For each position of the vector as ``seat`` sees it, the position of seat 0's (the
        public arrays turned round the table; everything else in place)."""
        index = np.arange(self.size, dtype=np.intp)
        for name in self.game.parts:
            if name not in self.game.SECRET:
                start, end, _ = self._slices[name]
                index[start:end] = np.asarray(self.game.turned(name, seat), dtype=np.intp) + start
        return index

    def columns(self, name: str) -> tuple[str, ...]:
        """What each column of array ``name`` holds (rows of ``players``, ``revealed``,
        ``informant`` are seats relative to the observer; of ``citizens``, citizen numbers)."""
        return self.parts[name].columns

    def where(self, name: str) -> slice:
        """Where array ``name`` lies in the flat vector (its values in row order)."""
        start, end, _ = self._slices[name]
        return slice(start, end)

    def split(self, vector: np.ndarray) -> Arrays:
        """The arrays of the flat ``vector`` (views of it), one per entry of :attr:`space`."""
        return {name: vector[start:end].reshape(shape) for name, (start, end, shape) in self._slices.items()}

    def _public_vector(self, view: Mapping[str, Any], public: Mapping[str, Any] | None) -> np.ndarray:
        """The public arrays read from ``view`` as seat 0 sees them, clipped, in a vector of
        :attr:`size` (the rest zeros); kept while the views passed share their public parts
        (``public``, the view's public part if known, is compared by identity)."""
        last = self._public
        if public is not None:
            if last is not None and last[0] is public:
                return last[1]
            view = public
        elif last is not None and _same_public(view, last[0]):
            return last[1]
        vector = np.zeros(self.size, dtype=np.float32)
        slices, parts = self._slices, self.game.parts
        out = {name: vector[slices[name][0]:slices[name][1]].reshape(p.shape) for name, p in parts.items()
               if name not in self.game.SECRET}
        self.game.fill(view, out, _Put(parts, out, 0, self.players, vector, self._where))
        clip(vector, self._low, self._high)
        self._public = (view, vector)
        return vector

    def _secret_row(self, seat: Seat, you: Mapping[str, Any] | None) -> np.ndarray:
        """``seat``'s row of :attr:`_secret_rows` for its secrets ``you``, clipped: worked out
        again only when they differ from the seat's last (zeros for none)."""
        row = self._secret_rows[seat % self.players]
        kept = self._secrets.get(seat)
        if kept is not None and (kept is you or kept == you):
            return row
        if not you:
            row[:] = 0.0
            self._secrets.pop(seat, None)
            return row
        scratch = np.zeros(self.size, dtype=np.float32)
        parts = self.game.parts
        out = {name: scratch[start:end].reshape(parts[name].shape) for name, start, end in self._secret}
        self.game.fill_secret(you, out, _Put(parts, out, seat, self.players, scratch, self._where))
        row[:] = scratch[self._secret_index]
        clip(row, self._secret_low, self._secret_high)
        self._secrets[seat] = you
        return row

    def _view_vector(self, seat: Seat, view: Mapping[str, Any],
                     public: Mapping[str, Any] | None = None) -> np.ndarray:
        """The arrays read from ``view``, clipped, in a fresh vector of :attr:`size` (the prompt
        and the action being built zeros): the public ones turned to ``seat``, then its secrets."""
        vector = self._public_vector(view, public)[self._turns[seat % self.players]]
        you = view.get("you")
        if you:
            vector[self._secret_index] = self._secret_row(seat, you)
        return vector

    def vector(self, state: State, seat: Seat, partial: Partial | None = None,
               view: Mapping[str, Any] | None = None, public: Mapping[str, Any] | None = None
               ) -> np.ndarray:
        """The observation of ``seat`` building ``partial`` as one fresh flat vector (the flat
        form; :meth:`split` gives the structured one). ``public``: the public part ``view`` was
        made of (``state.public_view()``), if known; the seats' views made of one public part
        share its arrays."""
        if view is None:
            out = self._view_vector(seat, state.view(seat))
        else:
            last = self._last
            if last is None or last[0] is not view or last[1] != seat:
                last = self._last = (view, seat, self._view_vector(seat, view, public))
            out = last[2].copy()
        self._write_prompt(out, state.pending().get(seat), partial)
        return out

    def _write_prompt(self, out: np.ndarray, asked: Prompt | None, partial: Partial | None) -> None:
        """Write what the seat is asked (``asked``) and the action it is building into ``out``."""
        self._write_asked(out, asked)
        if partial is not None:
            self._write_partial(out, partial)

    def _write_asked(self, out: np.ndarray, asked: Prompt | None) -> None:
        """Write what the seat is asked (``asked``) into ``out``."""
        if asked is not None:
            at = self._prompt
            out[at] = 1.0
            if asked.secret:
                out[at + 1] = 1.0
            if asked.window is not None:
                out[at + 2] = 1.0
            kinds, kind_at = self._kinds, self._kind_at
            for kind in asked.kinds:
                found = kind_at.get(kind)
                if found is not None:
                    out[kinds + found] = 1.0

    def _write_partial(self, out: np.ndarray, partial: Partial) -> None:
        """Write the action the seat is building (``partial``) into ``out``."""
        chosen = self.codec.chosen_indices(partial)
        if chosen:
            at = self._partial
            for index in chosen:
                out[at + index] += 1.0
            if len(chosen) > BOUND:
                clip(out[at:at + self.codec.size], 0.0, BOUND)

    def vectors(self, state: State, public: Mapping[str, Any], secrets: Sequence[Mapping[str, Any] | None],
                partials: Sequence[Partial | None]) -> list[np.ndarray]:
        """Every seat's observation at once, as :meth:`vector` gives each (fresh arrays):
        ``public`` is the public part of the seats' views (``state.public_view()``),
        ``secrets[seat]`` the seat's own part (``state.read_only_private_view(seat)``; the list is not changed
        afterwards), ``partials[seat]`` the action it is building. The public arrays are read once
        and turned to every seat; from one position to the next, only the cells that changed are
        moved to the seats' rows."""
        pending = state.pending()
        kept = self._together
        if (kept is None or kept[0] is not public or kept[1] is not pending
                or (kept[4] is not secrets and not _same_items(kept[2], secrets))):
            # every seat's arrays and prompt, kept while the position is the same (only the
            # actions being built change from one step of it to the next)
            base, rows = self._base, self._base_rows
            vector = self._public_vector(public, public)
            if kept is None:
                gather = self._gather
                gather[:self.size] = vector
                if self._secret_index.size:
                    for seat in range(self.players):
                        self._secret_row(seat, secrets[seat])
                # every seat's public arrays turned to it, and its secrets, at once (the method,
                # not np.take's Python wrapper; not mode="raise", with which numpy gathers into a
                # buffer and copies it out)
                gather.take(self._gathered, out=base, mode="wrap")
            else:
                # few cells change from one position to the next: only those are moved to every
                # seat's row, and only the secrets that changed are written again (with array
                # methods: numpy's interpreted wrappers, or indexing by two arrays, cost several
                # times more than moving these few cells)
                changed = (vector != kept[3]).nonzero()[0]
                if len(changed):
                    base.put(self._moved.take(changed, axis=1), vector.take(changed))
                if self._secret_index.size:
                    for seat in range(self.players):
                        you, was = secrets[seat], kept[2][seat]
                        if you is not was and you != was:
                            rows[seat].put(self._secret_index, self._secret_row(seat, you))
                base.put(self._asked_at, 0.0)
            for seat in range(self.players):
                self._write_asked(rows[seat], pending.get(seat))
            kept = self._together = (public, pending, tuple(secrets), vector, secrets)
        out = [row.copy() for row in self._base_rows]
        for seat in range(self.players):
            partial = partials[seat]
            if partial is not None and partial.path:
                self._write_partial(out[seat], partial)
        return out

    def encode(self, state: State, seat: Seat, partial: Partial | None = None,
               view: Mapping[str, Any] | None = None) -> Arrays:
        """The observation of ``seat`` building ``partial``: one array per entry of :attr:`space`."""
        return self.split(self.vector(state, seat, partial, view))

    def output(self, vector: np.ndarray) -> Arrays:
        """An observation from a vector of :meth:`vector` (its arrays are views of it)."""
        return self.split(vector)


class FlatObserver:
    """The flat form: the structured observation flattened (``gymnasium.spaces.flatten``)."""

    form = "flat"

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return FlatObserver, (self.structured,)

    def __init__(self, structured: StructuredObserver) -> None:
        self.structured = structured
        self.codec = structured.codec
        self.space = spaces.flatten_space(structured.space)
        """A ``Box`` of :attr:`size` float32 values."""
        self.size: int = structured.size

    def vector(self, state: State, seat: Seat, partial: Partial | None = None,
               view: Mapping[str, Any] | None = None, public: Mapping[str, Any] | None = None
               ) -> np.ndarray:
        """As :meth:`StructuredObserver.vector`."""
        return self.structured.vector(state, seat, partial, view, public)

    def vectors(self, state: State, public: Mapping[str, Any], secrets: Sequence[Mapping[str, Any] | None],
                partials: Sequence[Partial | None]) -> list[np.ndarray]:
        """As :meth:`StructuredObserver.vectors`."""
        return self.structured.vectors(state, public, secrets, partials)

    def encode(self, state: State, seat: Seat, partial: Partial | None = None,
               view: Mapping[str, Any] | None = None) -> np.ndarray:
        """The structured observation as one float32 vector, in the space's key order."""
        return self.structured.vector(state, seat, partial, view)

    @staticmethod
    def output(vector: np.ndarray) -> np.ndarray:
        """The observation of a vector of :meth:`vector`: the vector itself."""
        return vector
