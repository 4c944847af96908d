"""Tables: created in the lobby, joined by invite, played action by action, persisted first.

:class:`TableStore` owns the live tables of one server process and their rows in the database.
Every accepted action is written and committed before :meth:`TableStore.act` returns, so nothing
acknowledged can be lost; after a restart :meth:`TableStore.resume` rebuilds every table still
waiting or being played by replaying its actions and checks each stored digest. A finished or
closed table is rebuilt (and checked) the same way when it is first asked for, and only the most
recently asked for stay in memory (:class:`Tables`), so a server that has run for a year holds
what is being played, not everything ever played.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import logging
import os
import random
import re
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session, sessionmaker

from tricolore.agents import (
    POLICY,
    canonical_strategy,
    make_agent,
    params,
    strategy_names,
    strategy_parameters,
)
from tricolore.core import IllegalAction, OptionsError, State
from tricolore.core.actions import Text
from tricolore.core.inputs import clean_text, is_valid_unicode, text_problem
from tricolore.core.model import Event, Game
from tricolore.core.record import Record, replay
from tricolore.core.registry import get_game
from tricolore.server import snapshots
from tricolore.server.db import ActionRow, ChatRow, SeatToken, SnapshotRow, TableRow, hash_token

OPEN, HUMAN, BOT = "open", "human", "bot"
STATUSES = ("waiting", "playing", "over", "closed")
"""A table's life: waiting for people, being played, finished, or closed by its creator."""
MAX_CLOCK = 3600
"""The longest turn clock, in seconds per decision."""
MAX_DEVICE = 64
"""The longest browser secret accepted (the browser client makes 32-character ones)."""
MAX_CHAT = 500
"""The longest chat message, in characters."""
MAX_NAME = 40
"""The longest name a person may give themselves."""
MAX_TOKEN = 64
"""The longest invite token accepted (the server makes 32-character ones)."""
KEEP_FINISHED = 64
"""How many finished or closed tables stay in memory once asked for (their replays, end screens)."""
POLICY_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
"""A trained policy's name in the lobby: its file's name in the policies folder, without .npz."""
ACTIVE = ("waiting", "playing")
NOT_SAVED = ("That action was not saved: the server cannot write to its database just now. "
             "Nothing changed; send it again in a moment.")
"""What a person is told when the database cannot take an action (it is away, or its disk is full)."""
IDLE_WRITER = 10.0
"""Seconds the group commit's thread waits for an action before it ends (it starts again with the
next action)."""

OPEN_SEAT_NAMES = ("First player", "Second player", "Third player", "Fourth player", "Fifth player",
                   "Sixth player", "Seventh player", "Eighth player", "Ninth player", "Tenth player",
                   "Eleventh player", "Twelfth player")
"""How a seat nobody has taken yet is named: in words, since people are named, not numbered."""
BOT_NAMES = ("Camille", "Adèle", "Rose", "Jeanne", "Georges", "Honorine", "Jacques", "Victoire",
             "Sophie", "Nicolas", "Félicité", "Antoine", "Marie-Anne", "Jean-Paul", "Louise", "Étienne")
"""Names for the seats bots play: people's names, so that a name tells nothing of a bot's strategy
(in Culottes a strategy such as "puppet-grabber" would give away a secret role). None is a name a
game gives its pieces (Culottes' citizens); :func:`names_in_play` keeps them apart at each table."""

BOT_LIMITS: Mapping[str, float] = {"iterations": 2000, "seconds": 2.0, "rollout_depth": 200, "offers": 16}
"""The most a bot at a table may be told to think, by parameter: a table's creator may tune a
strategy, not make the server search for a minute on every decision."""

log = logging.getLogger("tricolore.server")


class TableError(ValueError):
    """A lobby request that cannot be met; the message is a sentence for the user."""


class SeatElsewhere(TableError):
    """The seat is bound to another browser, or a bot plays it since its person left: joining
    with ``move`` set takes it here."""


@dataclass(slots=True)
class Created:
    """A new table: its id, the invite token of each open seat (stored hashed, drawn from the
    creator's token so that only the creator can be shown them again), and the creator's token."""

    table_id: str
    invites: dict[int, str]
    creator: str = ""
    """The creator's token: it closes the table and shows the invites again (shown once)."""


@dataclass(slots=True)
class Outcome:
    """What came of an action: accepted (with its number and events) or refused (with a code and
    a sentence). ``duplicate`` marks a resend of an action already applied."""

    accepted: bool
    number: int | None = None
    events: list[Event] = field(default_factory=list)
    code: str | None = None
    message: str | None = None
    duplicate: bool = False


@dataclass(slots=True)
class LiveTable:
    """A table in memory: its row's facts, its state, and the actions applied so far."""

    id: str
    game: str
    players: int
    seed: int
    options: dict[str, Any]
    seats: list[dict[str, Any]]
    status: str
    state: State
    actions: list[tuple[int, dict[str, Any]]]
    digests: list[str] = field(default_factory=list)
    bots_take_over: bool = True
    window_seconds: int = 0
    bot_secret: str = field(default_factory=lambda: secrets.token_hex(32), repr=False)
    """Where the bots draw their randomness from (:func:`bot_rng`); kept on the server only."""
    lock: threading.Lock = field(default_factory=threading.Lock)
    clock_seconds: int = 0
    """Seconds each decision may take (0: no clock)."""
    open_to_all: bool = False
    """Whether anyone in the lobby may take an open seat (:meth:`TableStore.take_seat`)."""
    deadlines: dict[int, tuple[str, float | None]] = field(default_factory=dict)
    """The running clocks: per seat, the decision's key (:func:`decision_key`) and when it runs
    out in seconds since the epoch (``None``: it ran out and was dealt with)."""
    client_ids: dict[tuple[int, str], int] = field(default_factory=dict)
    """The number of each action by its seat and client action id, to answer a resend."""

    def open_seats(self) -> list[int]:
        """Seats still waiting for a person."""
        return [s for s, seat in enumerate(self.seats) if seat["kind"] == OPEN]

    def names(self) -> list[str]:
        """Each seat's display name."""
        return seat_names(self.seats)

    def strategies(self) -> list[str | None]:
        """The strategy of each bot's seat (``None`` for a person): shown only once the game is over."""
        return [seat.get("strategy") if seat["kind"] == BOT else None for seat in self.seats]

    def takeovers(self) -> list[list[dict[str, Any]]]:
        """Per seat, when a bot played for its person after they left: ``from`` and ``until`` (``None``:
        to the end) as :func:`game_moment` gives them, or ``from`` ``None`` when the game had not begun."""
        return [[dict(span) for span in seat.get("takeovers", [])] for seat in self.seats]

    def record(self) -> Record:
        """The table's record so far, with the digest after each action."""
        return Record(self.game, self.state.info.rules_version, self.players, self.seed,
                      self.state.options.as_dict(),  # type: ignore[attr-defined]
                      list(self.actions), list(self.digests))


class Tables(Mapping[str, LiveTable]):
    """The tables in memory, by id: every table waiting or being played, and the ``keep``
    finished or closed ones most recently asked for. Asking for any other table loads it with
    ``load`` (``None``: there is no such table); iterating goes over the tables in memory only.
    Safe to use from several threads."""

    def __init__(self, load: Callable[[str], LiveTable | None], keep: int = KEEP_FINISHED) -> None:
        self._load, self._keep = load, keep
        self._active: dict[str, LiveTable] = {}
        self._finished: OrderedDict[str, LiveTable] = OrderedDict()
        self._lock = threading.RLock()

    def get(self, table_id: str, default: Any = None) -> Any:
        """The table ``table_id``, loaded if it is not in memory; ``default`` if there is none."""
        table = self._in_memory(table_id)
        if table is None:
            loaded = self._load(table_id)  # outside the lock: other tables are served meanwhile
            if loaded is not None:
                with self._lock:
                    table = self._in_memory(table_id)  # loaded by another thread meanwhile
                    if table is None:
                        self.add(loaded)
                        table = loaded
        return default if table is None else table

    def _in_memory(self, table_id: str) -> LiveTable | None:
        with self._lock:
            table = self._active.get(table_id)
            if table is None and table_id in self._finished:
                self._finished.move_to_end(table_id)
                table = self._finished[table_id]
            return table

    def __getitem__(self, table_id: str) -> LiveTable:
        table = self.get(table_id)
        if table is None:
            raise KeyError(table_id)
        return table

    def __contains__(self, table_id: object) -> bool:
        return isinstance(table_id, str) and self.get(table_id) is not None

    def __iter__(self) -> Iterator[str]:
        with self._lock:
            return iter([*self._active, *self._finished])

    def __len__(self) -> int:
        with self._lock:
            return len(self._active) + len(self._finished)

    def values(self) -> list[LiveTable]:  # type: ignore[override]
        """The tables in memory, oldest first (those being played, then the finished ones kept)."""
        with self._lock:
            return [*self._active.values(), *self._finished.values()]

    def items(self) -> list[tuple[str, LiveTable]]:  # type: ignore[override]
        """The tables in memory with their ids, in the order of :meth:`values`."""
        with self._lock:
            return [*self._active.items(), *self._finished.items()]

    def add(self, table: LiveTable) -> None:
        """Keep ``table``: for good while it is waiting or being played, else among the finished."""
        with self._lock:
            self._active.pop(table.id, None)
            self._finished.pop(table.id, None)
            if table.status in ACTIVE:
                self._active[table.id] = table
                return
            self._finished[table.id] = table
            while len(self._finished) > self._keep:
                self._finished.popitem(last=False)

    def forget(self, table_id: str) -> None:
        """Drop the table from memory (it is loaded again when next asked for)."""
        with self._lock:
            self._active.pop(table_id, None)
            self._finished.pop(table_id, None)

    def finished(self) -> int:
        """How many finished or closed tables are in memory."""
        with self._lock:
            return len(self._finished)


@dataclass(slots=True, eq=False)
class Write:
    """One accepted action waiting to be committed: its row, the table's new snapshot if one is
    due, and whether it ends the game; ``done`` is set once it is committed (or refused, with
    ``failure``)."""

    table_id: str
    action: dict[str, Any]
    over: bool = False
    snapshot: dict[str, Any] | None = None
    done: threading.Event = field(default_factory=threading.Event)
    failure: BaseException | None = None


class GroupCommit:
    """The one writer of actions: a thread that takes every action waiting, commits them all in
    one transaction (one synchronous write to disk for all of them), then releases each caller.

    Durability is unchanged: :meth:`commit` returns only once its action's transaction has
    committed, and raises that transaction's error if it failed, in which case none of its actions
    was written. Concurrent tables share the cost of the commit instead of queueing for it.
    """

    def __init__(self, engine: Engine, most: int = 512) -> None:
        self.engine = engine
        self.most = most
        """The most actions one transaction carries."""
        self._waiting: list[Write] = []
        self._ready = threading.Condition(threading.Lock())
        self._thread: threading.Thread | None = None

    def commit(self, write: Write) -> None:
        """Commit ``write`` with whatever else is waiting; raises the transaction's error."""
        with self._ready:
            self._waiting.append(write)
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="group-commit", daemon=True)
                self._thread.start()
            self._ready.notify()
        write.done.wait()
        if write.failure is not None:
            raise write.failure

    def _run(self) -> None:
        while True:
            with self._ready:
                if not self._waiting:
                    self._ready.wait(IDLE_WRITER)
                if not self._waiting:  # idle: the next commit starts the writer again
                    self._thread = None
                    return
                batch, self._waiting = self._waiting[:self.most], self._waiting[self.most:]
            try:
                self._write(batch)
            except BaseException as exc:  # every action of the transaction is refused with its error
                for write in batch:
                    write.failure = exc
            for write in batch:
                write.done.set()

    def _write(self, batch: Sequence[Write]) -> None:
        snapshots_due = {w.table_id: w.snapshot for w in batch if w.snapshot is not None}
        finished = sorted({w.table_id for w in batch if w.over})
        with self.engine.begin() as connection:
            connection.execute(insert(ActionRow), [w.action for w in batch])
            if snapshots_due:
                connection.execute(delete(SnapshotRow).where(SnapshotRow.table_id.in_(list(snapshots_due))))
                connection.execute(insert(SnapshotRow), list(snapshots_due.values()))
            if finished:
                connection.execute(update(TableRow).where(TableRow.id.in_(finished)).values(status="over"))


class TableStore:
    """The live tables of this process, backed by the database."""

    def __init__(self, engine: Engine, keep_finished: int = KEEP_FINISHED,
                 policies: str | os.PathLike[str] | None = None) -> None:
        self.engine = engine
        self.session = sessionmaker(engine, expire_on_commit=False)
        self.live = Tables(self._load, keep_finished)
        self.writer = GroupCommit(engine)
        """The one writer of actions: it commits every action waiting in one transaction."""
        self._unservable: set[str] = set()
        self.shared = False
        """Whether other server processes serve tables of the same database: then the lobby lists
        every table from its row, since this process's memory holds only what it serves."""
        self.policies = Path(policies) if policies is not None else None
        """The folder of trained policies the lobby offers as bots (``policy:NAME`` plays
        ``NAME.npz`` from it); none if not set."""

    # -- trained policies as bots ------------------------------------------------------------
    def policy_names(self, game: str) -> list[str]:
        """The trained policies of the folder that play ``game``, as the lobby offers them."""
        if self.policies is None or not self.policies.is_dir():
            return []
        from tricolore.agents.policy import load_cached

        found = []
        for path in sorted(self.policies.glob("*.npz")):
            if not POLICY_NAME.match(path.stem):
                continue
            try:
                if load_cached(str(path)).game == game:
                    found.append(f"{POLICY}:{path.stem}")
            except OptionsError:
                log.warning("the policy %s cannot be read; the lobby leaves it out", path.name)
        return found

    def resolve(self, strategy: str) -> str:
        """The strategy a bot plays: ``policy:NAME`` (with its settings) becomes the policy's file
        in the folder; anything else is itself."""
        head, at, settings = strategy.partition("@")
        name, colon, stem = head.partition(":")
        if name != POLICY or not colon or self.policies is None or not POLICY_NAME.match(stem):
            return strategy
        return f"{POLICY}:{self.policies / (stem + '.npz')}{at}{settings}"

    def check_policy(self, game: str, players: int, strategy: str, seat: str) -> str:
        """``strategy`` if it names a policy of the folder for this game and table size, written
        the one way; a :class:`TableError` naming the ``seat`` otherwise."""
        head, _, _ = strategy.partition("@")
        if head not in self.policy_names(game):
            offered = ", ".join(self.policy_names(game)) or "none"
            raise TableError(f"the {seat}'s seat cannot be played by {strategy[:80]!r}: the trained "
                             f"policies offered for this game are {offered}")
        from tricolore.agents.policy import canonical, load_cached

        resolved = self.resolve(strategy)
        trained = load_cached(resolved.partition("@")[0].partition(":")[2])
        if trained.players != players:
            raise TableError(f"the {seat}'s seat cannot be played by {head}: it was trained for "
                             f"{trained.players} players, and this table has {players}")
        try:
            make_agent(get_game(game), resolved)
            written = canonical(strategy)
        except OptionsError as exc:
            raise TableError(f"the {seat}'s seat cannot be played by {strategy[:80]!r}: {exc}") from None
        return written

    # -- the lobby ---------------------------------------------------------------------------
    def create(self, game: str, players: int, seats: Sequence[str], options: Mapping[str, Any] | None = None,
               seed: int | None = None, bots_take_over: bool = True, window_seconds: int = 0,
               clock_seconds: int = 0, open_to_all: bool = False) -> Created:
        """A table of ``game``; each seat is ``"open"`` (for a person) or a strategy name.

        ``window_seconds`` (0: no timer) closes a response window on a seat that has not answered
        by passing for it; ``bots_take_over`` lets a bot play the seat of a person who leaves.
        ``clock_seconds`` (0: no clock) bounds every decision, ordinary turns as well as response
        windows: when it runs out the seat passes if it may, else a bot decides for it if the
        table lets bots take over. ``open_to_all`` lets anyone take an open seat from the lobby
        (:meth:`take_seat`); otherwise a seat is taken only with its invite.
        """
        definition = get_game(game)  # an unknown game raises OptionsError with the known ones
        if type(window_seconds) is not int or not 0 <= window_seconds <= MAX_CLOCK:
            raise TableError(f"the response window timer must be from 0 (none) to {MAX_CLOCK} seconds")
        if type(clock_seconds) is not int or not 0 <= clock_seconds <= MAX_CLOCK:
            raise TableError(f"the turn clock must be from 1 to {MAX_CLOCK} seconds per decision, "
                             "or 0 for none")
        # a seed short enough to guess would let anyone replay the public actions and read the secrets
        chosen_seed = secrets.randbelow(2**62) if seed is None else seed
        state = definition.new(players, chosen_seed, dict(options or {}))  # checks players and options
        if len(seats) != players:
            raise TableError(f"give one seat per player: {players} seats, not {len(seats)}")
        in_play = names_in_play(state)
        free = [n for n in BOT_NAMES if n.casefold() not in in_play]
        names = secrets.SystemRandom().sample(free, len(free))
        layout = []
        for s, kind in enumerate(seats):
            if kind == OPEN:
                layout.append({"kind": OPEN, "name": None})
            else:
                seat_name = OPEN_SEAT_NAMES[s % len(OPEN_SEAT_NAMES)].lower()
                strategy = (self.check_policy(game, players, kind, seat_name) if kind.startswith(f"{POLICY}:")
                            else bot_strategy(definition, kind, seat_name))
                layout.append({"kind": BOT, "strategy": strategy, "name": names[s % len(names)]})
        table_id = secrets.token_urlsafe(9)
        creator = secrets.token_urlsafe(24)
        invites = {s: invite_token(creator, s) for s, seat in enumerate(layout) if seat["kind"] == OPEN}
        status = "waiting" if invites else "playing"
        bot_secret = secrets.token_hex(32)
        with self.session() as db, db.begin():
            db.add(TableRow(id=table_id, game=game, rules_version=definition.info.rules_version,
                            players=players, seed=chosen_seed, options=dict(options or {}),
                            seats=layout, status=status, bots_take_over=bots_take_over,
                            window_seconds=window_seconds, bot_secret=bot_secret,
                            clock_seconds=clock_seconds, creator_hash=hash_token(creator),
                            open_to_all=open_to_all))
            db.flush()
            for seat, token in invites.items():
                db.add(SeatToken(token_hash=hash_token(token), table_id=table_id, seat=seat))
        self.live.add(LiveTable(table_id, game, players, chosen_seed, dict(options or {}),
                                layout, status, state, [], [], bots_take_over, window_seconds,
                                bot_secret, clock_seconds=clock_seconds, open_to_all=open_to_all))
        return Created(table_id, invites, creator)

    def check_creator(self, table_id: str, creator: str) -> LiveTable:
        """The table whose creator holds ``creator``; raises :class:`TableError` otherwise."""
        table = self.live.get(table_id)
        if table is None:
            raise TableError("there is no such table")
        with self.session() as db:
            row = db.get(TableRow, table_id)
            stored = row.creator_hash if row is not None else None
        if (stored is None or text_problem(creator, "creator token", MAX_TOKEN)
                or not hmac.compare_digest(stored, hash_token(creator))):
            raise TableError("only the table's creator can do that")
        return table

    def invites_for(self, table_id: str, creator: str) -> dict[int, str]:
        """Every invite of the table again, for its creator: each seat that was open at creation."""
        self.check_creator(table_id, creator)
        with self.session() as db:
            held = set(db.scalars(select(SeatToken.token_hash).where(SeatToken.table_id == table_id)))
        invites = {seat: invite_token(creator, seat) for seat in range(self.live[table_id].players)}
        # a seat taken from the lobby no longer has its invite: it opens nothing
        return {seat: token for seat, token in invites.items() if hash_token(token) in held}

    def take_seat(self, table_id: str, seat: int, name: str, device: str) -> str:
        """Anyone takes an open seat of a waiting table that is open to all: the seat is theirs,
        held by this browser (``device``), with a new token returned to them; its invite no
        longer opens it. Raises :class:`TableError` with a sentence otherwise."""
        check_person(name, device, required=True)
        table = self.live.get(table_id)
        if table is None:
            raise TableError("there is no such table")
        with table.lock:
            if not table.open_to_all:
                raise TableError("this table's seats are taken by invitation only")
            if table.status != "waiting":
                raise TableError("this table is no longer waiting for players")
            if type(seat) is not int or not 0 <= seat < table.players or table.seats[seat]["kind"] != OPEN:
                raise TableError("that seat is not open any more; choose another open seat")
            clean = person_name(name)
            if clean:
                self._make_room_for(table, seat, clean)
            token = secrets.token_urlsafe(24)
            with self.session() as db, db.begin():
                for old in db.scalars(select(SeatToken).where(SeatToken.table_id == table_id,
                                                              SeatToken.seat == seat)):
                    db.delete(old)
                db.add(SeatToken(token_hash=hash_token(token), table_id=table_id, seat=seat,
                                 device_hash=hash_token(device)))
            table.seats[seat] = {"kind": HUMAN, "name": clean or self.names_free(table)}
            if not table.open_seats():
                table.status = "playing"
            self._save_seats(table)
        return token

    def close(self, table_id: str, creator: str) -> None:
        """The creator closes the table: it takes no more actions, joins or seats."""
        table = self.check_creator(table_id, creator)
        with table.lock:
            if table.status in ("over", "closed"):
                raise TableError(f"this table is already {'over' if table.status == 'over' else 'closed'}")
            table.status = "closed"
            table.deadlines.clear()
            self._save_seats(table)
            self.save_deadlines(table)
        self.live.add(table)

    def seat_of(self, token: str) -> tuple[str, int]:
        """The table and seat a token opens; raises :class:`TableError`."""
        table_id, seat, _ = self._token(token)
        return table_id, seat

    def _token(self, token: str) -> tuple[str, int, str | None]:
        if not isinstance(token, str) or text_problem(token, "invite", MAX_TOKEN):
            raise TableError("this invite is not valid")
        with self.session() as db:
            row = db.get(SeatToken, hash_token(token))
        if row is None or row.table_id not in self.live:
            raise TableError("this invite is not valid")
        return row.table_id, row.seat, row.device_hash

    def holds(self, token: str, device: str | None) -> tuple[str, int, bool]:
        """The table and seat of ``token``, and whether ``device`` (a browser's secret) holds it:
        a seat no browser has claimed is held by whoever has its invite."""
        table_id, seat, bound = self._token(token)
        held = bound is None or (isinstance(device, str) and not text_problem(device, "device", MAX_DEVICE)
                                 and hmac.compare_digest(bound, hash_token(device)))
        return table_id, seat, held

    def join(self, token: str, name: str, device: str | None = None, move: bool = False) -> tuple[str, int]:
        """A person takes the seat of an invite; the table starts when no seat is open.

        The first browser to join with its secret ``device`` holds the seat from then on. Another
        browser, or a person whose seat a bot took over when they left, is refused with
        :class:`SeatElsewhere` unless ``move`` is set: then the seat is theirs here (the bot
        hands it back)."""
        check_person(name, device, required=False)
        if move and device is None:
            raise TableError("a seat moves only to a browser that sends its secret")
        table_id, seat, held = self.holds(token, device)
        table = self.live[table_id]
        with table.lock:
            if table.status == "closed":
                raise TableError("this table is closed")
            current = table.seats[seat]
            renamed = current["kind"] == OPEN or bool(name.strip())
            clean = person_name(name) if renamed else ""
            if not held and not move:
                raise SeatElsewhere("this seat is being played in another browser")
            if current["kind"] == BOT:
                if table.status == "over":
                    raise TableError("the game is over")
                if not move:
                    raise SeatElsewhere("a bot plays this seat since you left")
            if clean:
                self._make_room_for(table, seat, clean)
            spans = [dict(span) for span in current.get("takeovers", [])]
            if current["kind"] == BOT:
                table.seats[seat] = {"kind": HUMAN, "name": current.get("name") or self.names_free(table)}
                if spans and spans[-1].get("actions") == len(table.actions):
                    spans.pop()  # the bot made no move for them
                elif spans:
                    spans[-1]["until"] = game_moment(table.state)
            if renamed:
                table.seats[seat] = {"kind": HUMAN, "name": clean or self.names_free(table)}
            if spans:
                table.seats[seat]["takeovers"] = spans
            if not table.open_seats() and table.status == "waiting":
                table.status = "playing"
            self._save_seats(table)
            if device is not None:  # the first browser claims the seat; a move claims it anew
                with self.session() as db, db.begin():
                    row = db.get(SeatToken, hash_token(token))
                    assert row is not None
                    if row.device_hash is None or move:
                        row.device_hash = hash_token(device)
        return table_id, seat

    def _make_room_for(self, table: LiveTable, seat: int, name: str) -> None:
        """A person never shares a name with a bot: before the game starts, a bot bearing ``name``
        takes a free one; once it has started, that name is refused with a sentence."""
        bots = [other for other, held in enumerate(table.seats) if other != seat and held["kind"] == BOT
                and (held.get("name") or "").casefold() == name.casefold()]
        if bots and table.status != "waiting":
            raise TableError(f"a bot at this table is already called {name}; choose another name")
        for other in bots:
            table.seats[other] = {**table.seats[other], "name": self.names_free(table, also_taken=name)}

    @staticmethod
    def names_free(table: LiveTable, also_taken: str = "") -> str:
        """A name for a person who gave none: one of :data:`BOT_NAMES` nobody at the table has."""
        taken = ({(seat.get("name") or "").casefold() for seat in table.seats} | {also_taken.casefold()}
                 | names_in_play(table.state))
        return next((n for n in BOT_NAMES if n.casefold() not in taken), "Citizen")

    def leave(self, table_id: str, seat: int) -> str:
        """A person leaves: a bot takes over their seat if the table allows it. Returns the
        strategy now playing the seat; raises :class:`TableError` if the table does not allow it."""
        table = self.live[table_id]
        with table.lock:
            if table.status in ("over", "closed"):
                raise TableError(f"this table is {'over' if table.status == 'over' else 'closed'}")
            if not table.bots_take_over:
                raise TableError("this table does not let bots take over seats")
            if table.seats[seat]["kind"] != HUMAN:
                raise TableError("only a person's seat can be handed to a bot")
            strategy = takeover_strategy(table.game)
            left = table.seats[seat].get("name") or self.names_free(table)
            spans = [*table.seats[seat].get("takeovers", []),
                     {"from": game_moment(table.state) if table.status == "playing" else None, "until": None,
                      "actions": len(table.actions)}]
            table.seats[seat] = {"kind": BOT, "strategy": strategy, "name": left, "takeovers": spans}
            if table.status == "waiting" and not table.open_seats():
                table.status = "playing"
            self._save_seats(table)
        return strategy

    def _save_seats(self, table: LiveTable) -> None:
        with self.session() as db, db.begin():
            row = db.get(TableRow, table.id)
            assert row is not None
            row.seats = [dict(s) for s in table.seats]
            row.status = table.status

    def save_deadlines(self, table: LiveTable) -> None:
        """Store the table's running clocks, so that a restarted server keeps them."""
        with self.session() as db, db.begin():
            row = db.get(TableRow, table.id)
            assert row is not None
            row.deadlines = {str(seat): [key, deadline] for seat, (key, deadline) in table.deadlines.items()}

    # -- chat --------------------------------------------------------------------------------
    def chat(self, table_id: str, seat: int, text: str, to: int | None,
             terms: Any = None) -> dict[str, Any]:
        """Store a chat message from ``seat`` to everyone (``to`` None) or to one seat.

        A private message may carry ``terms`` (see :func:`chat_terms`): what it proposes, or which
        proposal it answers; they are checked here and never reach anyone but the two seats."""
        table = self.live[table_id]
        why = text_problem(text, "chat message", MAX_CHAT * 2, lines=True)
        if why:
            raise TableError(why)
        clean = text.strip()
        if not clean:
            raise TableError("a chat message cannot be empty")
        if len(clean) > MAX_CHAT:
            raise TableError(f"a chat message has at most {MAX_CHAT} characters")
        if to is not None and (type(to) is not int or not 0 <= to < table.players or to == seat):
            raise TableError("send a private message to another seat at this table")
        if terms is not None:
            if to is None:
                raise TableError("a proposal or an answer goes to one player, privately")
            why = chat_terms(terms)
            if why:
                raise TableError(why)
        with self.session() as db, db.begin():
            if terms is not None and "answer" in terms:
                asked = db.get(ChatRow, terms["answer"])
                if (asked is None or asked.table_id != table_id or asked.terms is None
                        or "kind" not in asked.terms or (asked.from_seat, asked.to_seat) != (to, seat)):
                    raise TableError("you may answer only a proposal made to you by that player")
            row = ChatRow(table_id=table_id, from_seat=seat, to_seat=to, text=clean, terms=terms)
            db.add(row)
            db.flush()
            number = row.id
        return {"number": number, "from": seat, "to": to, "text": clean, "terms": terms}

    def chat_for(self, table_id: str, seat: int | None) -> list[dict[str, Any]]:
        """The chat ``seat`` may read (``None``: a spectator reads the public messages)."""
        with self.session() as db:
            rows = db.scalars(select(ChatRow).where(ChatRow.table_id == table_id).order_by(ChatRow.id))
            return [{"number": r.id, "from": r.from_seat, "to": r.to_seat, "text": r.text,
                     "terms": r.terms}
                    for r in rows
                    if r.to_seat is None or (seat is not None and seat in (r.from_seat, r.to_seat))]

    def waiting(self) -> list[LiveTable]:
        """Tables waiting for players, newest first."""
        return [t for t in reversed(list(self.live.values())) if t.status == "waiting"]

    def summaries(self, status: str, limit: int = 100) -> list[dict[str, Any]]:
        """The public facts (:func:`summary`) of the newest ``limit`` tables in ``status``.

        Tables waiting or being played are all in memory; finished and closed ones are read from
        their rows, without rebuilding them."""
        if status in ACTIVE and not self.shared:
            found = [t for t in reversed(self.live.values()) if t.status == status][:limit]
            return [summary(t, len(t.actions)) for t in found]
        actions = (select(func.count()).where(ActionRow.table_id == TableRow.id)
                   .correlate(TableRow).scalar_subquery())
        with self.session() as db:
            rows = db.execute(select(TableRow, actions).where(TableRow.status == status)
                              .order_by(TableRow.created_at.desc()).limit(limit)).all()
        return [summary(row, count) for row, count in rows]

    # -- play --------------------------------------------------------------------------------
    def act(self, table_id: str, seat: int, action: Mapping[str, Any],
            client_action_id: str | None = None) -> Outcome:
        """Apply ``action`` for ``seat`` and commit it before returning; a resend of the same
        ``client_action_id`` returns the first outcome and applies nothing.

        The commit is the :class:`GroupCommit`'s: the actions of every table that arrive while a
        commit is being written are committed together in the next one, and each caller returns
        once its own action is on disk. If that commit fails, every action in it is refused and
        its table rebuilt from the actions committed before it."""
        table = self.live.get(table_id)
        if table is None:
            return Outcome(False, code="no_such_table", message="There is no such table.")
        with table.lock:
            if client_action_id is not None:
                number = table.client_ids.get((seat, client_action_id))
                if number is not None:
                    return Outcome(True, number=number, duplicate=True)
            if table.status == "waiting":
                return Outcome(False, code="not_started",
                               message="The table starts when every seat is taken.")
            if table.status == "closed":
                return Outcome(False, code="closed", message="This table is closed: its creator closed it.")
            clash = bot_name_typed(table, seat, action)
            if clash:
                return Outcome(False, code="name_taken",
                               message=f"{clash} is the name of a player at this table; choose another name.")
            try:
                events = table.state.apply(seat, action)
            except IllegalAction as exc:
                return Outcome(False, code=exc.code, message=exc.for_names(table.names()))
            number = len(table.actions)
            digest = table.state.digest()
            over = table.state.is_over()
            write = Write(table_id, {"table_id": table_id, "number": number, "seat": seat,
                                     "action": dict(action), "client_action_id": client_action_id,
                                     "digest": digest}, over=over)
            if (number + 1) % snapshots.EVERY == 0 and not over:
                write.snapshot = {"table_id": table_id, "actions": number + 1, "digest": digest,
                                  "code": snapshots.code(table.game), "state": snapshots.dumps(table.state)}
            try:
                self.writer.commit(write)
            except IntegrityError:
                if not self._catch_up(table):
                    table.state = self._rebuild(table)
                elif client_action_id is not None and (seat, client_action_id) in table.client_ids:
                    known = table.client_ids[seat, client_action_id]  # its commit had reached the disk
                    return Outcome(True, number=known, duplicate=True)
                return Outcome(False, code="conflict", message="That action was not saved; try again.")
            except OperationalError as exc:  # the database is away or its disk is full: nothing written
                table.state = self._rebuild(table)
                why = " ".join(str(exc.orig).split())  # one line in the log, no traceback
                log.error("table %s: action %s not saved: %s", table_id, number, why)
                return Outcome(False, code="not_saved", message=NOT_SAVED)
            except Exception:
                table.state = self._rebuild(table)  # not saved: the table is as it was before it
                raise
            table.actions.append((seat, dict(action)))
            table.digests.append(digest)
            if client_action_id is not None:
                table.client_ids[seat, client_action_id] = number
            if over:
                table.status = "over"
                self.live.add(table)
            return Outcome(True, number=number, events=events)

    def reload(self, table_id: str) -> LiveTable | None:
        """The table rebuilt afresh from the database (another process may have played it)."""
        self.live.forget(table_id)
        return self.live.get(table_id)

    def _rebuild(self, table: LiveTable) -> State:
        return replay(table.record())

    def _catch_up(self, table: LiveTable) -> bool:
        """Bring ``table`` (its lock held) up to the database when it holds more of its actions than
        this process knows of: a commit whose answer was lost with the connection (the database went
        away in the middle of it) had reached the disk. ``False`` if there is nothing more, or it
        cannot be read or replayed."""
        try:
            with self.session() as db, db.begin():
                count = select(func.count()).select_from(ActionRow).where(ActionRow.table_id == table.id)
                if (db.scalar(count) or 0) <= len(table.actions):
                    return False
                stored = self._replay(db, table.id)
        except (TableError, OperationalError):
            return False
        log.warning("table %s: caught up with %d actions committed while their answer was lost",
                    table.id, len(stored.actions) - len(table.actions))
        table.state, table.actions, table.digests = stored.state, stored.actions, stored.digests
        table.client_ids, table.status = stored.client_ids, stored.status
        if table.status == "over":
            self.live.add(table)
        return True

    # -- after a restart ---------------------------------------------------------------------
    def resume(self) -> int:
        """Rebuild every table waiting or being played from the database: from its latest
        snapshot (:mod:`tricolore.server.snapshots`) and the actions after it, or by replay of
        every action, checking each stored digest; returns the number of tables rebuilt. Finished
        and closed tables are rebuilt the same way when first asked for.

        Text that an older server stored but cannot send (invalid Unicode, control characters)
        is repaired first, and the repair saved. A table that cannot be rebuilt is left out, with
        a line in the log, so that one bad table does not keep the others from being served.
        """
        with self.session() as db:
            ids = db.scalars(select(TableRow.id).where(TableRow.status.in_(ACTIVE))
                             .order_by(TableRow.created_at)).all()
        resumed = 0
        for table_id in ids:
            table = self._load(table_id)
            if table is not None:
                self.live.add(table)
                resumed += 1
        return resumed

    def _load(self, table_id: str) -> LiveTable | None:
        """The table ``table_id`` rebuilt from the database, or ``None`` if there is none or it
        cannot be rebuilt (said once in the log)."""
        if table_id in self._unservable:
            return None
        try:
            with self.session() as db, db.begin():
                if db.get(TableRow, table_id) is None:
                    return None
                return self._replay(db, table_id)
        except TableError as exc:
            log.error("table %s is not served: %s", table_id, exc)
            self._unservable.add(table_id)
            return None

    def _replay(self, db: Session, table_id: str) -> LiveTable:
        row = db.get(TableRow, table_id)
        assert row is not None
        try:
            state = get_game(row.game).new(row.players, row.seed, row.options)
        except OptionsError as exc:
            raise TableError(f"table {row.id} cannot be rebuilt: {exc}") from None
        if row.bot_secret is None:
            row.bot_secret = secrets.token_hex(32)
        seats = [repaired(s, MAX_NAME) for s in row.seats]
        if seats != row.seats:
            log.warning("table %s: repaired text in a seat's name", row.id)
            row.seats = seats
        for chat in db.scalars(select(ChatRow).where(ChatRow.table_id == row.id)):
            text = repaired(chat.text, MAX_CHAT)
            if text != chat.text:
                log.warning("table %s: repaired text in chat message %s", row.id, chat.id)
                chat.text = text
        rows = db.execute(select(ActionRow.number, ActionRow.seat, ActionRow.action, ActionRow.digest,
                                 ActionRow.client_action_id)
                          .where(ActionRow.table_id == row.id).order_by(ActionRow.number)).all()
        start = 0
        snapshot = db.get(SnapshotRow, row.id)
        if (snapshot is not None and snapshot.code == snapshots.code(row.game)
                and 0 < snapshot.actions <= len(rows)
                and rows[snapshot.actions - 1].digest == snapshot.digest):
            restored = snapshots.loads(snapshot.state, snapshot.digest)
            if restored is not None:  # the actions before it were checked when it was written
                state, start = restored, snapshot.actions
        actions = [(r.seat, dict(r.action)) for r in rows[:start]]
        digests = [r.digest for r in rows[:start]]
        moved = False  # after a repaired action, the stored digests no longer hold
        for number, seat, stored, recorded, _ in rows[start:]:
            action = repaired(stored, 1000)
            changed = action != stored
            if changed:
                log.warning("table %s: repaired text in action %s", row.id, number)
                moved = True
            try:
                state.apply(seat, action)
            except IllegalAction as exc:
                raise TableError(f"table {row.id} refuses its action {number}: {exc}") from None
            digest = state.digest()
            if digest != recorded and not moved:
                raise TableError(f"table {row.id} replays to another digest at action {number}")
            if changed or digest != recorded:
                db.execute(update(ActionRow).where(ActionRow.table_id == row.id, ActionRow.number == number)
                           .values(action=action, digest=digest))
            actions.append((seat, dict(action)))
            digests.append(digest)
        deadlines = {int(seat): (str(key), None if when is None else float(when))
                     for seat, (key, when) in (row.deadlines or {}).items()}
        client_ids = {(r.seat, r.client_action_id): r.number for r in rows if r.client_action_id is not None}
        return LiveTable(row.id, row.game, row.players, row.seed, dict(row.options),
                         [dict(s) for s in seats], row.status, state, actions, digests,
                         row.bots_take_over, row.window_seconds, row.bot_secret,
                         clock_seconds=row.clock_seconds, open_to_all=bool(row.open_to_all),
                         deadlines=deadlines, client_ids=client_ids)

    # -- bots --------------------------------------------------------------------------------
    def bot_seats(self, table_id: str) -> list[int]:
        """Seats a bot plays at this table."""
        return [s for s, seat in enumerate(self.live[table_id].seats) if seat["kind"] == BOT]


def check_person(name: object, device: object, required: bool) -> None:
    """Refuse, with a :class:`TableError`, a name that is not text a table can keep, or a
    browser's secret that is not one (``None`` is accepted unless ``required``)."""
    why = text_problem(name, "name", MAX_NAME * 5)
    if why:
        raise TableError(why)
    if device is None and not required:
        return
    if not isinstance(device, str) or text_problem(device, "device", MAX_DEVICE) or len(device) < 16:
        raise TableError("this browser's secret is not valid; reload the page")


def person_name(name: str) -> str:
    """A person's name as a table keeps it: its spaces collapsed, at most :data:`MAX_NAME` long."""
    return " ".join(name.split())[:MAX_NAME]


def names_in_play(state: State) -> set[str]:
    """The names (case-folded) the game gives its pieces at this table, which no bot may bear: every
    ``name`` in the public view (Culottes' citizens) and every name offered for a piece to be named
    (the examples of a text parameter, from which bots and the rules draw names)."""
    found: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, Mapping):
            for key, inner in value.items():
                if key == "name" and isinstance(inner, str):
                    found.add(inner.casefold())
                else:
                    walk(inner)
        elif isinstance(value, list | tuple):
            for inner in value:
                walk(inner)

    walk(state.view(None))
    for seat in range(state.players):
        for family in state.legal_actions(seat).families:
            for spec in family.params.values():
                if isinstance(spec, Text):
                    found.update(example.casefold() for example in spec.examples)
    return found


def bot_name_typed(table: LiveTable, seat: int, action: Mapping[str, Any]) -> str | None:
    """The bot's name ``action`` gives as free text (a citizen named after a bot at the table),
    or ``None``."""
    if not isinstance(action, Mapping) or not isinstance(action.get("type"), str):
        return None
    family = table.state.legal_actions(seat).family(action["type"])
    if family is None:
        return None
    bots = {(held.get("name") or "").casefold(): held.get("name")
            for held in table.seats if held["kind"] == BOT}
    for name, spec in family.params.items():
        value = action.get(name)
        if isinstance(spec, Text) and isinstance(value, str) and value.strip().casefold() in bots:
            return str(bots[value.strip().casefold()])
    return None


def game_moment(state: State) -> dict[str, Any] | None:
    """Where the game stands, in its own words: ``{"word": "round", "number": 3}`` from the view's
    round, turn or trial, or ``None`` if the game counts none."""
    view = state.view(None)
    for word in ("round", "turn", "trial"):
        number = view.get(word)
        if isinstance(number, int) and not isinstance(number, bool):
            return {"word": word, "number": number}
    return None


def seat_names(seats: Sequence[Mapping[str, Any]]) -> list[str]:
    """Each seat's display name: its person's or bot's name, or a seat nobody took, in words."""
    return [seat.get("name") or OPEN_SEAT_NAMES[s % len(OPEN_SEAT_NAMES)] for s, seat in enumerate(seats)]


def public_seats(seats: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """What everyone may know of each seat: its name and whether a person, a bot or nobody holds it."""
    return [{"name": name, "kind": seat["kind"]} for name, seat in zip(seat_names(seats), seats, strict=True)]


MAX_TERMS = 1000
"""The longest terms a chat message may carry, as JSON characters."""
TERM_NAME = re.compile(r"^[a-z][a-z_]{0,39}$")


def chat_terms(terms: Any) -> str | None:
    """Why ``terms`` are not what a private message may propose (``None`` if they are).

    A proposal names a kind of action in the game's own words and its values:
    ``{"kind": "propose_trade", "values": {"to": 1, "give_medals": 1}}``; an answer names the
    proposal's message and whether it is accepted: ``{"answer": 12, "accepted": true}``. Values
    are numbers, short words, true/false/null or short lists of them. The engine keeps nothing
    of this: it is what people say to each other, put so that a page can fill in a builder.
    """
    shape = ('terms are {"kind": "...", "values": {...}} for a proposal or '
             '{"answer": <message number>, "accepted": true or false} for an answer')
    if not isinstance(terms, dict):
        return shape
    try:
        size = len(json.dumps(terms))
    except (TypeError, ValueError):
        return shape
    if size > MAX_TERMS:
        return f"the terms of a proposal have at most {MAX_TERMS} characters"
    if set(terms) == {"answer", "accepted"}:
        if type(terms["answer"]) is not int or type(terms["accepted"]) is not bool:
            return shape
        return None
    if set(terms) != {"kind", "values"} or not isinstance(terms["kind"], str) \
            or not TERM_NAME.match(terms["kind"]) or not isinstance(terms["values"], dict):
        return shape

    def plain(value: Any) -> bool:
        return value is None or type(value) in (int, bool) or (isinstance(value, str) and len(value) <= 64)

    for key, value in terms["values"].items():
        if not TERM_NAME.match(key):
            return f"a term's name is a short word in lower case, not {str(key)[:40]!r}"
        if not (plain(value) or (isinstance(value, list) and len(value) <= 40 and all(map(plain, value)))):
            return f"the term {key} is a number, a short word, true, false, null or a short list of them"
    return None


def summary(table: LiveTable | TableRow, actions: int) -> dict[str, Any]:
    """A table's public facts, as the lobby lists them, from the table in memory or its row."""
    info = get_game(table.game).info
    seats = repaired(list(table.seats), MAX_NAME)
    return {"table_id": table.id, "game": table.game, "title": info.title, "players": table.players,
            "status": table.status, "open_seats": [s for s, seat in enumerate(seats) if seat["kind"] == OPEN],
            "seats": public_seats(seats),
            "options": info.options.from_mapping(table.options).as_dict(),
            "window_seconds": table.window_seconds, "clock_seconds": table.clock_seconds,
            "bots_take_over": table.bots_take_over, "open_to_all": bool(table.open_to_all),
            "actions": actions}


def bot_strategy(game: Game, strategy: str, seat: str) -> str:
    """``strategy`` (``name`` or ``name:key=value,...``, a name :func:`~tricolore.agents.strategy_names`
    offers) written the one way, once checked as :func:`~tricolore.agents.make_agent` checks it
    and against :data:`BOT_LIMITS`; a :class:`TableError` naming the ``seat`` (``"first player"``)
    otherwise."""
    known = strategy_names(game)
    try:
        name = params.parse(strategy)[0]
    except OptionsError as exc:
        raise TableError(f"the {seat}'s seat cannot be played by {strategy[:80]!r}: {exc}") from None
    if strategy not in known and name not in known:
        raise TableError(f"the {seat}'s seat must be \"open\" or a strategy: {', '.join(known)}")
    try:
        canonical = canonical_strategy(game, strategy)
        values = strategy_parameters(game, canonical)
        for key, most in BOT_LIMITS.items():
            value = values.get(key)
            if isinstance(value, int | float) and not isinstance(value, bool) and value > most:
                raise OptionsError(f"a bot at a table may be given {key} of at most {most:g}; "
                                   f"you gave {value:g}")
        make_agent(game, canonical)
    except OptionsError as exc:
        raise TableError(f"the {seat}'s seat cannot be played by {strategy[:80]!r}: {exc}") from None
    return canonical


def takeover_strategy(game: str) -> str:
    """The strategy that takes over a person's seat: the game's first named one, else random."""
    named = list(get_game(game).strategies)
    return named[0] if named else "random"


def invite_token(creator: str, seat: int) -> str:
    """A seat's invite, drawn from the creator's token: the server stores neither, only their
    hashes, yet the creator can be shown the invites again."""
    digest = hmac.new(creator.encode(), f"invite:{seat}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:24]).decode()


def decision_key(table: LiveTable, seat: int, window: str | None) -> str:
    """What names one decision of ``seat``: the response window (or ``turn``) and how many actions
    the seat has taken, so that the clock restarts after each of its actions but not when others
    act, and a restarted server finds the same key. Actions allowed at any time (a transfer, a
    deal) are not counted: making one does not buy more time."""
    free = table.state.free_actions(seat)
    done = sum(1 for s, action in table.actions if s == seat and free.family(str(action.get("type"))) is None)
    return f"{window or 'turn'}:{done}"


def bot_rng(bot_secret: str, seat: int, number: int) -> random.Random:
    """A bot's generator for one decision, drawn from the table's secret, the seat and the
    action number: nobody who sees only the table can predict a bot's secret choices."""
    key = hmac.new(bot_secret.encode(), f"{seat}:{number}".encode(), hashlib.sha256).digest()
    return random.Random(key)


def repaired(value: Any, max_length: int) -> Any:
    """``value`` (JSON) with every string made storable by :func:`clean_text`; unchanged
    strings keep their identity, so ``repaired(v) == v`` tells whether anything was wrong."""
    if isinstance(value, str):
        if is_valid_unicode(value) and not text_problem(value, "text", 10**9, lines=True):
            return value
        return clean_text(value, max(max_length, len(value))) or "?"
    if isinstance(value, list):
        return [repaired(v, max_length) for v in value]
    if isinstance(value, dict):
        return {repaired(k, max_length): repaired(v, max_length) for k, v in value.items()}
    return value
