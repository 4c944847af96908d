"""Tables: created in the lobby, joined by invite, played action by action, persisted first.

:class:`TableStore` owns the live tables of one server process and their rows in the database.
Every accepted action is written and committed before :meth:`TableStore.act` returns, so nothing
acknowledged can be lost; after a restart :meth:`TableStore.resume` rebuilds every table by
replaying its actions and checks each stored digest.
"""

from __future__ import annotations

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
from tricolore.core.model import Event
from tricolore.core.registry import get_game
from tricolore.server.db import ActionRow, SeatToken, TableRow, hash_token

OPEN, HUMAN, BOT = "open", "human", "bot"


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
    lock: threading.Lock = field(default_factory=threading.Lock)

    def open_seats(self) -> list[int]:
        """Seats still waiting for a person."""
        return [s for s, seat in enumerate(self.seats) if seat["kind"] == OPEN]


class TableStore:
    """The live tables of this process, backed by the database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.session = sessionmaker(engine, expire_on_commit=False)
        self.live: dict[str, LiveTable] = {}

    # -- the lobby ---------------------------------------------------------------------------
    def create(self, game: str, players: int, seats: Sequence[str], options: Mapping[str, Any] | None = None,
               seed: int | None = None, bots_take_over: bool = True) -> Created:
        """A table of ``game``; each seat is ``"open"`` (for a person) or a strategy name."""
        definition = get_game(game)
        chosen_seed = secrets.randbelow(2**31) if seed is None else seed
        state = definition.new(players, chosen_seed, dict(options or {}))  # checks players and options
        if len(seats) != players:
            raise TableError(f"give one seat per player: {players} seats, not {len(seats)}")
        known = strategy_names(definition)
        layout = []
        for s, kind in enumerate(seats):
            if kind == OPEN:
                layout.append({"kind": OPEN, "name": None})
            elif kind in known:
                layout.append({"kind": BOT, "strategy": kind, "name": f"{kind} bot"})
            else:
                raise TableError(f"seat {s} must be \"open\" or a strategy: {', '.join(known)}")
        table_id = secrets.token_urlsafe(9)
        invites = {s: secrets.token_urlsafe(24) for s, seat in enumerate(layout) if seat["kind"] == OPEN}
        status = "waiting" if invites else "playing"
        with self.session() as db, db.begin():
            db.add(TableRow(id=table_id, game=game, rules_version=definition.info.rules_version,
                            players=players, seed=chosen_seed, options=dict(options or {}),
                            seats=layout, status=status, bots_take_over=bots_take_over))
            db.flush()
            for seat, token in invites.items():
                db.add(SeatToken(token_hash=hash_token(token), table_id=table_id, seat=seat))
        self.live[table_id] = LiveTable(table_id, game, players, chosen_seed, dict(options or {}),
                                        layout, status, state, [])
        return Created(table_id, invites)

    def seat_of(self, token: str) -> tuple[str, int]:
        """The table and seat a token opens; raises :class:`TableError`."""
        with self.session() as db:
            row = db.get(SeatToken, hash_token(token))
        if row is None or row.table_id not in self.live:
            raise TableError("this invite is not valid")
        return row.table_id, row.seat

    def join(self, token: str, name: str) -> tuple[str, int]:
        """A person takes the seat of an invite; the table starts when no seat is open."""
        table_id, seat = self.seat_of(token)
        table = self.live[table_id]
        with table.lock:
            table.seats[seat] = {"kind": HUMAN, "name": name.strip()[:40] or f"seat {seat}"}
            if not table.open_seats() and table.status == "waiting":
                table.status = "playing"
            with self.session() as db, db.begin():
                row = db.get(TableRow, table_id)
                assert row is not None
                row.seats = [dict(s) for s in table.seats]
                row.status = table.status
        return table_id, seat

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
                return Outcome(False, code=exc.code, message=exc.message)
            number = len(table.actions)
            try:
                with self.session() as db, db.begin():
                    db.add(ActionRow(table_id=table_id, number=number, seat=seat, action=dict(action),
                                     client_action_id=client_action_id, digest=table.state.digest()))
                    if table.state.is_over():
                        row = db.get(TableRow, table_id)
                        assert row is not None
                        row.status = "over"
            except IntegrityError:
                table.state = self._rebuild(table)
                return Outcome(False, code="conflict", message="That action was not saved; try again.")
            table.actions.append((seat, dict(action)))
            if table.state.is_over():
                table.status = "over"
            return Outcome(True, number=number, events=events)

    def _applied(self, table_id: str, seat: int, client_action_id: str) -> int | None:
        with self.session() as db:
            return db.scalar(select(ActionRow.number).where(
                ActionRow.table_id == table_id, ActionRow.seat == seat,
                ActionRow.client_action_id == client_action_id))

    def _rebuild(self, table: LiveTable) -> State:
        state = get_game(table.game).new(table.players, table.seed, table.options)
        for seat, action in table.actions:
            state.apply(seat, action)
        return state

    # -- after a restart ---------------------------------------------------------------------
    def resume(self) -> int:
        """Rebuild every table from the database by replay, checking each stored digest;
        returns the number of tables."""
        with self.session() as db:
            rows = db.scalars(select(TableRow).order_by(TableRow.created_at)).all()
            for row in rows:
                self.live[row.id] = self._replay(db, row)
        return len(self.live)

    def _replay(self, db: Session, row: TableRow) -> LiveTable:
        try:
            state = get_game(row.game).new(row.players, row.seed, row.options)
        except OptionsError as exc:
            raise TableError(f"table {row.id} cannot be rebuilt: {exc}") from None
        actions = []
        for act in db.scalars(select(ActionRow).where(ActionRow.table_id == row.id)
                              .order_by(ActionRow.number)):
            state.apply(act.seat, act.action)
            if state.digest() != act.digest:
                raise TableError(f"table {row.id} replays to another digest at action {act.number}")
            actions.append((act.seat, dict(act.action)))
        return LiveTable(row.id, row.game, row.players, row.seed, dict(row.options),
                         [dict(s) for s in row.seats], row.status, state, actions)

    # -- bots --------------------------------------------------------------------------------
    def bot_seats(self, table_id: str) -> list[int]:
        """Seats a bot plays at this table."""
        return [s for s, seat in enumerate(self.live[table_id].seats) if seat["kind"] == BOT]


def bot_rng(table_id: str, seat: int, number: int) -> random.Random:
    """A bot's generator for one decision: reproducible from the table, seat and action number."""
    return random.Random(f"bot:{table_id}:{seat}:{number}")
