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

from tricolore.core.model import Seat, State
from tricolore.interop.codec import CITIZENS_PER_SHEET, FlatActions, Partial
from tricolore.interop.observation import BOUND

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


class _Game:
    """A game's arrays: ``parts`` declared in ``__init__``, filled from a view by ``fill``."""

    def __init__(self, codec: FlatActions) -> None:
        self.players = codec.players
        self.parts: dict[str, _Part] = {}

    def part(self, name: str, columns: Sequence[str], high: float | Sequence[float] = COUNT,
             rows: int | None = None, low: float = 0.0) -> None:
        self.parts[name] = _Part(rows, columns, high, low)

    def fill(self, view: Mapping[str, Any], out: Arrays, put: _Put) -> None:
        raise NotImplementedError


class _Put:
    """Writes values into the arrays by column name, seats made relative to the observer."""

    def __init__(self, parts: Mapping[str, _Part], out: Arrays, seat: Seat, players: int) -> None:
        self.parts, self.out, self.seat, self.players = parts, out, seat, players

    def rel(self, seat: Any) -> int | None:
        """``seat``'s row: 0 for the observer, then around the table; None for no seat."""
        return (seat - self.seat) % self.players if type(seat) is int else None

    def rows(self) -> range:
        """The absolute seats in row order."""
        return range(self.seat, self.seat + self.players)

    def __call__(self, name: str, column: str, value: Any, row: int | None = None) -> None:
        part = self.parts[name]
        if value is None or (part.rows is not None and row is None):
            return  # nothing known, or a row of no seat
        at = part.index[column]
        arr = self.out[name]
        if row is None:
            arr[at] = float(value)
        else:
            arr[row, at] = float(value)

    def one_hot(self, name: str, prefix: str, value: Any, row: int | None = None) -> None:
        """1 at column ``prefix value`` (nothing for a value outside the vocabulary)."""
        at = self.parts[name].index.get(f"{prefix} {value}")
        if at is not None:
            if row is None:
                self.out[name][at] = 1.0
            else:
                self.out[name][row, at] = 1.0

    def seat_hot(self, name: str, prefix: str, seat: Any, row: int | None = None) -> None:
        """1 at column ``prefix <relative seat>``."""
        rel = self.rel(seat)
        if rel is not None:
            self.one_hot(name, prefix, rel, row)

    def per_player(self, name: str, column: str, values: Sequence[Any] | None) -> None:
        """A list indexed by absolute seat, into column ``column`` of the player rows."""
        if values is None:
            return
        for row, seat in enumerate(self.rows()):
            value = values[seat % self.players]
            if type(value) in (int, float, bool):
                self(name, column, value, row)


def _seats(prefix: str, players: int) -> list[str]:
    return [f"{prefix} {r}" for r in range(players)]


def _hot(prefix: str, vocabulary: Sequence[Any]) -> list[str]:
    return [f"{prefix} {v}" for v in vocabulary]


# -- Culottes --------------------------------------------------------------------------------------
class _Culottes(_Game):
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
                            "final turns left", *_seats("current player", n), *_seats("first player", n),
                            "escrow cakes", "open alliances", *_hot("deals", self.DEALS)])
        self.part("players", ["agrees to end", "recruits", "citizens held", "cakes held", "cockades held",
                              "citizens emigrated", *_hot("open trial cakes", self.SIDES),
                              "bribes offered", "bribes received"], rows=n)
        self.part("citizens", ["present", *_seats("owner", n), "cakes", "cockades", "bastille cakes",
                               *_hot("status", self.STATUSES), "emigrated", "recruited",
                               *_hot("scale", self.SIDES), "current"], rows=self.citizens)
        self.part("secret", ["role revolutionary", "role grabber"], high=1.0)
        self.part("secret_citizens", [*_hot("nature", self.SIDES), "puppet"], high=1.0,
                  rows=self.citizens)

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
        for deal in view.get("deals", ()):
            at = put.parts["board"].index.get(f"deals {deal['status']}")
            if at is not None:
                out["board"][at] += 1
            if deal["status"] == "offered":
                for seat, column in ((deal["payer"], "bribes offered"), (deal["payee"], "bribes received")):
                    row = put.rel(seat)
                    if row is not None:
                        out["players"][row, put.parts["players"].index[column]] += 1
        put.per_player("players", "agrees to end", view.get("agrees_to_end"))
        put.per_player("players", "recruits", view.get("recruits"))
        players = put.parts["players"].index
        current = view.get("current_citizen")
        for citizen in view.get("citizens", ()):
            i = citizen["id"]
            if not 0 <= i < self.citizens:
                continue
            put("citizens", "present", 1, i)
            put.seat_hot("citizens", "owner", citizen["owner"], i)
            for key in ("cakes", "cockades"):
                put("citizens", key, citizen[key], i)
            put("citizens", "bastille cakes", citizen["bastille_cakes"], i)
            put.one_hot("citizens", "status", citizen["status"], i)
            put("citizens", "emigrated", citizen["emigrated"], i)
            put("citizens", "recruited", citizen["recruited"], i)
            put("citizens", "current", i == current, i)
            for side, cakes in (citizen.get("scales") or {}).items():
                put("citizens", f"scale {side}", cakes, i)
            row = put.rel(citizen["owner"])
            if row is not None:
                held = out["players"][row]
                held[players["citizens held"]] += 1
                held[players["cakes held"]] += citizen["cakes"]
                held[players["cockades held"]] += citizen["cockades"]
                held[players["citizens emigrated"]] += citizen["emigrated"]
        for entry in view.get("book", ()):
            row = put.rel(entry.get("voter"))
            if entry.get("closing") is None and row is not None:
                at = players.get(f"open trial cakes {entry['side']}")
                if at is not None:
                    out["players"][row, at] += entry["cakes"]
        you = view.get("you") or {}
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
        n = self.players
        self.part("board", [*_hot("phase", self.PHASES), "trial", "trials total", *_seats("accused", n),
                            "max grabbers", "statement made"])
        self.part("players", ["agrees to end", "points", "first vote yes", "first vote no",
                              "has voted", "waiting in debate", "arguments",
                              "times accused", "times grabber", "times told the truth"], rows=n)
        self.part("secret", [*_hot("role", self.ROLES), "statement true", "statement false",
                             *_seats("grabber", n), "sealed vote yes", "sealed vote no"], high=1.0)

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
        columns = put.parts["players"].index
        for seat in (view.get("debate") or {}).get("waiting", ()):
            put("players", "waiting in debate", 1, put.rel(seat))
        for argument in view.get("arguments", ()):
            row = put.rel(argument.get("seat"))
            if row is not None:
                out["players"][row, columns["arguments"]] += 1
        for past in view.get("history", ()):
            row = put.rel(past.get("accused"))
            if row is not None:
                out["players"][row, columns["times accused"]] += 1
                out["players"][row, columns["times told the truth"]] += bool(past.get("truth"))
            for grabber in past.get("grabbers") or ():
                row = put.rel(grabber)
                if row is not None:
                    out["players"][row, columns["times grabber"]] += 1
        you = view.get("you") or {}
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
        n = self.players
        self.part("board", [*_hot("phase", self.PHASES), "round", *_seats("guillotine", n),
                            "centre medals", "starter generals pile", "pantry",
                            *_hot("election", self.OFFICES), "vote number", "election winner known",
                            "inspection safe", "inspection unsafe", "draw cards", "window open"])
        self.part("players", ["pawns", "votes", "medals", "pantry generals", "starter generals",
                              "stash cards", "hand cards", "used cards", *_hot("office", self.OFFICES),
                              "candidate", "has voted", "ballot cards", "tally", "election winner",
                              "last ballot cards", "last ballot tally", "donor", "gifts given",
                              "gifts received"], rows=n)
        self.part("secret", ["cakes", "sealed vote made", *_seats("sealed vote", n),
                             *_hot("hand", self.VALUES), *_hot("used", self.VALUES),
                             *_hot("stash", self.VALUES), *_hot("received", self.VALUES),
                             "received in stash"])

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
        columns = put.parts["players"].index
        for gift in view.get("gifts") or ():
            total = gift["medals"] + gift["generals"] + gift["cake_cards"]
            for seat, column in ((gift["giver"], "gifts given"), (gift["receiver"], "gifts received")):
                row = put.rel(seat)
                if row is not None:
                    out["players"][row, columns[column]] += total
        you = view.get("you") or {}
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
        n = self.players
        edition = getattr(codec.options, "edition", "seed")
        self.spaces = tuple(s.name for s in EDITIONS[edition].chart)
        self.areas = tuple(a.name for a in AREAS)
        self.currencies = CURRENCIES
        self.part("board", [*_hot("phase", self.PHASES), "round", "next space", "deck", "discard",
                            *_hot("bank", CURRENCIES), "bids sealed"])
        self.part("areas", ["spaces", "support", *_seats("markers", n)], rows=len(self.areas))
        self.part("chart", ["support", *_hot("chips", CURRENCIES), *_seats("winner", n)],
                  rows=len(self.spaces))
        self.part("players", [*_hot("chips", CURRENCIES), "support", "markers left", "has bid"], rows=n)
        self.part("revealed", [f"{space} {c}" for space in self.spaces for c in CURRENCIES], rows=n)
        self.part("secret", ["sealed bid made", *[f"{s} {c}" for s in self.spaces for c in CURRENCIES]])

    def fill(self, view: Mapping[str, Any], out: Arrays, put: _Put) -> None:
        put.one_hot("board", "phase", view.get("phase"))
        put("board", "round", view.get("round"))
        put("board", "next space", view.get("next_space"))
        put("board", "deck", view.get("deck"))
        put("board", "discard", len(view.get("discard") or ()))
        for currency, count in (view.get("bank") or {}).items():
            put("board", f"bank {currency}", count)
        for i, area in enumerate(view.get("areas") or ()):
            if i < len(self.areas):
                put("areas", "spaces", area["spaces"], i)
                put("areas", "support", area["support"], i)
                for seat, markers in enumerate(area["markers"]):
                    put("areas", f"markers {put.rel(seat)}", markers, i)
        for i, space in enumerate(view.get("chart") or ()):
            if i < len(self.spaces):
                put("chart", "support", space["support"], i)
                for currency, count in space["chips"].items():
                    put("chart", f"chips {currency}", count, i)
        for i, resolved in enumerate(view.get("resolved") or ()):
            if i < len(self.spaces):
                put.seat_hot("chart", "winner", resolved.get("winner"), i)
        chips = view.get("chips") or []
        for currency in self.currencies:
            put.per_player("players", f"chips {currency}", [c[currency] for c in chips] or None)
        put.per_player("players", "support", view.get("support"))
        put.per_player("players", "markers left", view.get("markers_left"))
        bidders = (view.get("bids") or {}).get("chosen") or ()
        for seat in bidders:
            put("players", "has bid", 1, put.rel(seat))
        put("board", "bids sealed", len(bidders))
        for seat, revealed in enumerate(view.get("revealed") or ()):
            for space, placed in (revealed or {}).items():
                for currency, count in placed.items():
                    put("revealed", f"{space} {currency}", count, put.rel(seat))
        sealed = (view.get("you") or {}).get("sealed_bid")
        put("secret", "sealed bid made", sealed is not None)
        for space, placed in (sealed or {}).items():
            for currency, count in placed.items():
                put("secret", f"{space} {currency}", count)


# -- Bread and Circuses ----------------------------------------------------------------------------
class _Bread(_Game):
    PHASES = ("negotiation", "play", "after_reveal", "scoring", "over")

    def __init__(self, codec: FlatActions) -> None:
        super().__init__(codec)
        from tricolore.games.bread_and_circuses.data import ICONS, SABOTAGE, TILES
        n = self.players
        self.tiles, self.icons = TILES, ICONS
        self.part("board", [*_hot("phase", self.PHASES), "round", *_seats("first player", n), "riots",
                            "gold to end", "extra bread", "extra circus", "breads", "circuses", "riot",
                            "last breads", "last circuses", "last riot", "open deals", "window open"])
        self.part("players", ["gold", *_hot("disclosed", ICONS), "sabotage cards", "ready", "has played",
                              "barred", "forged", *_hot("tile", TILES), *_hot("counts as", TILES),
                              *_hot("last tile", TILES), "sabotage played"], rows=n)
        self.part("secret", [*_hot("sabotage", [c.name for c in SABOTAGE]),
                             *_hot("disclosed", TILES), *_hot("sealed", TILES)])
        self.part("informant", _hot("tile", TILES), rows=n, high=1.0)

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
        you = view.get("you") or {}
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


class StructuredObserver:
    """The structured form: a ``gymnasium.spaces.Dict`` of named fixed-shape float32 arrays."""

    form = "structured"

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
        self._last: tuple[Mapping[str, Any], Seat, Arrays] | None = None

    def columns(self, name: str) -> tuple[str, ...]:
        """What each column of array ``name`` holds (rows of ``players``, ``revealed``,
        ``informant`` are seats relative to the observer; of ``citizens``, citizen numbers)."""
        return self.parts[name].columns

    def _view_arrays(self, seat: Seat, view: Mapping[str, Any]) -> Arrays:
        out = {name: np.zeros(p.shape, dtype=np.float32) for name, p in self.game.parts.items()}
        self.game.fill(view, out, _Put(self.game.parts, out, seat, self.players))
        for name, p in self.game.parts.items():
            np.clip(out[name], p.low, p.high, out=out[name])
        return out

    def encode(self, state: State, seat: Seat, partial: Partial | None = None,
               view: Mapping[str, Any] | None = None) -> Arrays:
        """The observation of ``seat`` building ``partial``: one array per entry of :attr:`space`."""
        if view is None:
            made = self._view_arrays(seat, state.view(seat))
        else:
            last = self._last
            if last is None or last[0] is not view or last[1] != seat:
                last = self._last = (view, seat, self._view_arrays(seat, view))
            made = last[2]
        prompt = np.zeros(3, dtype=np.float32)
        kinds = np.zeros(len(self.codec.kinds), dtype=np.float32)
        asked = state.pending().get(seat)
        if asked is not None:
            prompt[:] = (1.0, float(asked.secret), float(asked.window is not None))
            for kind in asked.kinds:
                at = self._kind_at.get(kind)
                if at is not None:
                    kinds[at] = 1.0
        chosen = np.zeros(self.codec.size, dtype=np.float32)
        if partial is not None:
            for index in self.codec.chosen_indices(partial):
                chosen[index] += 1.0
        np.clip(chosen, 0.0, BOUND, out=chosen)
        return {"prompt": prompt, "prompt_kinds": kinds, "partial": chosen,
                **{name: array.copy() for name, array in made.items()}}


class FlatObserver:
    """The flat form: the structured observation flattened (``gymnasium.spaces.flatten``)."""

    form = "flat"

    def __init__(self, structured: StructuredObserver) -> None:
        self.structured = structured
        self.codec = structured.codec
        self.space = spaces.flatten_space(structured.space)
        """A ``Box`` of :attr:`size` float32 values."""
        self.size: int = structured.size

    def encode(self, state: State, seat: Seat, partial: Partial | None = None,
               view: Mapping[str, Any] | None = None) -> np.ndarray:
        """The structured observation as one float32 vector, in the space's key order."""
        arrays = self.structured.encode(state, seat, partial, view)
        return np.concatenate([arrays[name].ravel() for name in self.structured.space.spaces])
