"""Tables: created in the lobby, joined by invite, played action by action, persisted first.

:class:`TableStore` owns the live tables of one server process and their rows in the database.
Every accepted action is written and committed before :meth:`TableStore.act` returns, so nothing
acknowledged can be lost; after a restart :meth:`TableStore.resume` rebuilds every table by
replaying its actions and checks each stored digest.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import random
import secrets
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from tricolore.agents import strategy_names
from tricolore.core import IllegalAction, OptionsError, State
from tricolore.core.inputs import clean_text, is_valid_unicode, text_problem
from tricolore.core.model import Event
from tricolore.core.record import Record, replay
from tricolore.core.registry import get_game
from tricolore.server.db import ActionRow, ChatRow, SeatToken, TableRow, hash_token

OPEN, HUMAN, BOT = "open", "human", "bot"
MAX_CHAT = 500
"""The longest chat message, in characters."""
MAX_NAME = 40
"""The longest name a person may give themselves."""
MAX_TOKEN = 64
"""The longest invite token accepted (the server makes 32-character ones)."""

BOT_NAMES = ("Camille", "Lucile", "Olympe", "Manon", "Georges", "Théroigne", "Jacques", "Pauline",
             "Sophie", "Gracchus", "Claire", "Antoine", "Charlotte", "Jean-Paul", "Louise", "Étienne")
"""Names for the seats bots play: people's names, so that a name tells nothing of a bot's strategy
(in Culottes a strategy such as "puppet-grabber" would give away a secret role)."""

log = logging.getLogger("tricolore.server")


class TableError(ValueError):
    """A lobby request that cannot be met; the message is a sentence for the user."""


@dataclass(slots=True)
class Created:
    """A new table: its id, and the invite token of each open seat (shown once, stored hashed)."""

    table_id: str
    invites: dict[int, str]


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

    def open_seats(self) -> list[int]:
        """Seats still waiting for a person."""
        return [s for s, seat in enumerate(self.seats) if seat["kind"] == OPEN]

    def names(self) -> list[str]:
        """Each seat's display name."""
        return [seat.get("name") or f"seat {s}" for s, seat in enumerate(self.seats)]

    def strategies(self) -> list[str | None]:
        """The strategy of each bot's seat (``None`` for a person): shown only once the game is over."""
        return [seat.get("strategy") if seat["kind"] == BOT else None for seat in self.seats]

    def record(self) -> Record:
        """The table's record so far, with the digest after each action."""
        return Record(self.game, self.state.info.rules_version, self.players, self.seed,
                      self.state.options.as_dict(),  # type: ignore[attr-defined]
                      list(self.actions), list(self.digests))


class TableStore:
    """The live tables of this process, backed by the database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.session = sessionmaker(engine, expire_on_commit=False)
        self.live: dict[str, LiveTable] = {}

    # -- the lobby ---------------------------------------------------------------------------
    def create(self, game: str, players: int, seats: Sequence[str], options: Mapping[str, Any] | None = None,
               seed: int | None = None, bots_take_over: bool = True, window_seconds: int = 0) -> Created:
        """A table of ``game``; each seat is ``"open"`` (for a person) or a strategy name.

        ``window_seconds`` (0: no timer) closes a response window on a seat that has not answered
        by passing for it; ``bots_take_over`` lets a bot play the seat of a person who leaves.
        """
        definition = get_game(game)  # an unknown game raises OptionsError with the known ones
        if not 0 <= window_seconds <= 3600:
            raise TableError("the response window timer must be from 0 (none) to 3600 seconds")
        # a seed short enough to guess would let anyone replay the public actions and read the secrets
        chosen_seed = secrets.randbelow(2**62) if seed is None else seed
        state = definition.new(players, chosen_seed, dict(options or {}))  # checks players and options
        if len(seats) != players:
            raise TableError(f"give one seat per player: {players} seats, not {len(seats)}")
        known = strategy_names(definition)
        names = secrets.SystemRandom().sample(BOT_NAMES, len(BOT_NAMES))
        layout = []
        for s, kind in enumerate(seats):
            if kind == OPEN:
                layout.append({"kind": OPEN, "name": None})
            elif kind in known:
                layout.append({"kind": BOT, "strategy": kind, "name": names[s % len(names)]})
            else:
                raise TableError(f"seat {s} must be \"open\" or a strategy: {', '.join(known)}")
        table_id = secrets.token_urlsafe(9)
        invites = {s: secrets.token_urlsafe(24) for s, seat in enumerate(layout) if seat["kind"] == OPEN}
        status = "waiting" if invites else "playing"
        bot_secret = secrets.token_hex(32)
        with self.session() as db, db.begin():
            db.add(TableRow(id=table_id, game=game, rules_version=definition.info.rules_version,
                            players=players, seed=chosen_seed, options=dict(options or {}),
                            seats=layout, status=status, bots_take_over=bots_take_over,
                            window_seconds=window_seconds, bot_secret=bot_secret))
            db.flush()
            for seat, token in invites.items():
                db.add(SeatToken(token_hash=hash_token(token), table_id=table_id, seat=seat))
        self.live[table_id] = LiveTable(table_id, game, players, chosen_seed, dict(options or {}),
                                        layout, status, state, [], [], bots_take_over, window_seconds,
                                        bot_secret)
        return Created(table_id, invites)

    def seat_of(self, token: str) -> tuple[str, int]:
        """The table and seat a token opens; raises :class:`TableError`."""
        if text_problem(token, "invite", MAX_TOKEN):
            raise TableError("this invite is not valid")
        with self.session() as db:
            row = db.get(SeatToken, hash_token(token))
        if row is None or row.table_id not in self.live:
            raise TableError("this invite is not valid")
        return row.table_id, row.seat

    def join(self, token: str, name: str) -> tuple[str, int]:
        """A person takes the seat of an invite; the table starts when no seat is open."""
        why = text_problem(name, "name", MAX_NAME * 5)
        if why:
            raise TableError(why)
        table_id, seat = self.seat_of(token)
        table = self.live[table_id]
        with table.lock:
            current = table.seats[seat]
            if current["kind"] == BOT:
                raise TableError("a bot has taken over this seat")
            if current["kind"] == OPEN or name.strip():
                clean = " ".join(name.split())[:MAX_NAME] or f"seat {seat}"
                table.seats[seat] = {"kind": HUMAN, "name": clean}
            if not table.open_seats() and table.status == "waiting":
                table.status = "playing"
            self._save_seats(table)
        return table_id, seat

    def leave(self, table_id: str, seat: int) -> str:
        """A person leaves: a bot takes over their seat if the table allows it. Returns the
        strategy now playing the seat; raises :class:`TableError` if the table does not allow it."""
        table = self.live[table_id]
        with table.lock:
            if not table.bots_take_over:
                raise TableError("this table does not let bots take over seats")
            if table.seats[seat]["kind"] != HUMAN:
                raise TableError("only a person's seat can be handed to a bot")
            strategy = takeover_strategy(table.game)
            left = table.seats[seat].get("name") or f"seat {seat}"
            table.seats[seat] = {"kind": BOT, "strategy": strategy, "name": left}
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

    # -- chat --------------------------------------------------------------------------------
    def chat(self, table_id: str, seat: int, text: str, to: int | None) -> dict[str, Any]:
        """Store a chat message from ``seat`` to everyone (``to`` None) or to one seat."""
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
        with self.session() as db, db.begin():
            row = ChatRow(table_id=table_id, from_seat=seat, to_seat=to, text=clean)
            db.add(row)
            db.flush()
            number = row.id
        return {"number": number, "from": seat, "to": to, "text": clean}

    def chat_for(self, table_id: str, seat: int | None) -> list[dict[str, Any]]:
        """The chat ``seat`` may read (``None``: a spectator reads the public messages)."""
        with self.session() as db:
            rows = db.scalars(select(ChatRow).where(ChatRow.table_id == table_id).order_by(ChatRow.id))
            return [{"number": r.id, "from": r.from_seat, "to": r.to_seat, "text": r.text}
                    for r in rows
                    if r.to_seat is None or (seat is not None and seat in (r.from_seat, r.to_seat))]

    def waiting(self) -> list[LiveTable]:
        """Tables waiting for players, newest first."""
        return [t for t in reversed(list(self.live.values())) if t.status == "waiting"]

    # -- play --------------------------------------------------------------------------------
    def act(self, table_id: str, seat: int, action: Mapping[str, Any],
            client_action_id: str | None = None) -> Outcome:
        """Apply ``action`` for ``seat`` and commit it before returning; a resend of the same
        ``client_action_id`` returns the first outcome and applies nothing."""
        table = self.live.get(table_id)
        if table is None:
            return Outcome(False, code="no_such_table", message="There is no such table.")
        with table.lock:
            if client_action_id is not None:
                number = self._applied(table_id, seat, client_action_id)
                if number is not None:
                    return Outcome(True, number=number, duplicate=True)
            if table.status == "waiting":
                return Outcome(False, code="not_started",
                               message="The table starts when every seat is taken.")
            try:
                events = table.state.apply(seat, action)
            except IllegalAction as exc:
                return Outcome(False, code=exc.code, message=exc.for_names(table.names()))
            number = len(table.actions)
            digest = table.state.digest()
            try:
                with self.session() as db, db.begin():
                    db.add(ActionRow(table_id=table_id, number=number, seat=seat, action=dict(action),
                                     client_action_id=client_action_id, digest=digest))
                    if table.state.is_over():
                        row = db.get(TableRow, table_id)
                        assert row is not None
                        row.status = "over"
            except IntegrityError:
                table.state = self._rebuild(table)
                return Outcome(False, code="conflict", message="That action was not saved; try again.")
            table.actions.append((seat, dict(action)))
            table.digests.append(digest)
            if table.state.is_over():
                table.status = "over"
            return Outcome(True, number=number, events=events)

    def _applied(self, table_id: str, seat: int, client_action_id: str) -> int | None:
        with self.session() as db:
            return db.scalar(select(ActionRow.number).where(
                ActionRow.table_id == table_id, ActionRow.seat == seat,
                ActionRow.client_action_id == client_action_id))

    def _rebuild(self, table: LiveTable) -> State:
        return replay(table.record())

    # -- after a restart ---------------------------------------------------------------------
    def resume(self) -> int:
        """Rebuild every table from the database by replay, checking each stored digest;
        returns the number of tables rebuilt.

        Text that an older server stored but cannot send (invalid Unicode, control characters)
        is repaired first, and the repair saved. A table that cannot be rebuilt is left out, with
        a line in the log, so that one bad table does not keep the others from being served.
        """
        with self.session() as db:
            rows = db.scalars(select(TableRow).order_by(TableRow.created_at)).all()
        for row in rows:
            try:
                with self.session() as db, db.begin():
                    self.live[row.id] = self._replay(db, row.id)
            except TableError as exc:
                log.error("table %s is not served: %s", row.id, exc)
        return len(self.live)

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
        actions, digests = [], []
        moved = False  # after a repaired action, the stored digests no longer hold
        rows = db.scalars(select(ActionRow).where(ActionRow.table_id == row.id).order_by(ActionRow.number))
        for act in rows:
            action = repaired(act.action, 1000)
            if action != act.action:
                log.warning("table %s: repaired text in action %s", row.id, act.number)
                act.action = action
                moved = True
            try:
                state.apply(act.seat, action)
            except IllegalAction as exc:
                raise TableError(f"table {row.id} refuses its action {act.number}: {exc}") from None
            digest = state.digest()
            if digest != act.digest:
                if not moved:
                    raise TableError(f"table {row.id} replays to another digest at action {act.number}")
                act.digest = digest
            actions.append((act.seat, dict(action)))
            digests.append(digest)
        return LiveTable(row.id, row.game, row.players, row.seed, dict(row.options),
                         [dict(s) for s in seats], row.status, state, actions, digests,
                         row.bots_take_over, row.window_seconds, row.bot_secret)

    # -- bots --------------------------------------------------------------------------------
    def bot_seats(self, table_id: str) -> list[int]:
        """Seats a bot plays at this table."""
        return [s for s, seat in enumerate(self.live[table_id].seats) if seat["kind"] == BOT]


def takeover_strategy(game: str) -> str:
    """The strategy that takes over a person's seat: the game's first named one, else random."""
    named = list(get_game(game).strategies)
    return named[0] if named else "random"


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
