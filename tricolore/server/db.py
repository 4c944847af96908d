"""Persistence: the schema, the engine, and migrations applied at start-up.

A table's record is its row in ``tables`` (game, players, seed, options) plus its rows in
``actions`` in order; nothing else is needed to rebuild a table after a crash. Invite tokens are
stored only as SHA-256 hashes. SQLite (the embedded default) runs in WAL mode with full
synchronisation, so a committed action survives the process being killed.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Integer,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
    create_engine,
    event,
    func,
)
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

MIGRATIONS = Path(__file__).with_name("migrations")


class Base(DeclarativeBase):
    """The declarative base of every table."""


class TableRow(Base):
    """A table: what it plays and who sits where. ``seats`` lists, per seat, ``{"kind": "open" |
    "human" | "bot", "strategy": ..., "name": ...}``."""

    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    rules_version: Mapped[str] = mapped_column(String(16))
    players: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int] = mapped_column(BigInteger)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seats: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16), default="waiting")
    bots_take_over: Mapped[bool] = mapped_column(Boolean, default=True)
    window_seconds: Mapped[int] = mapped_column(Integer, default=0)
    bot_secret: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """Where the table's bots draw their randomness from; never sent to anyone."""
    clock_seconds: Mapped[int] = mapped_column(Integer, default=0)
    """Seconds each decision may take (0: no clock)."""
    deadlines: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    """The running clocks: per seat (as text), the decision's key and when it runs out (seconds
    since the epoch, so that a restarted server keeps the same deadline)."""
    creator_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    open_to_all: Mapped[bool] = mapped_column(Boolean, default=False)
    """Whether anyone in the lobby may take an open seat (else only the holders of its invite)."""
    """The hash of the creator's token, which closes the table and shows its invites again."""
    created_at: Mapped[Any] = mapped_column(DateTime(timezone=True), server_default=func.now())


class SeatToken(Base):
    """The hash of a seat's secret token (the invite), and of the browser it is bound to."""

    __tablename__ = "seat_tokens"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    device_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """The hash of the browser secret that claimed the seat first (``None``: not claimed yet)."""


class ActionRow(Base):
    """One accepted action, numbered from 0 within its table."""

    __tablename__ = "actions"
    __table_args__ = (UniqueConstraint("table_id", "seat", "client_action_id"),)

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[dict[str, Any]] = mapped_column(JSON)
    client_action_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    digest: Mapped[str] = mapped_column(String(32))
    created_at: Mapped[Any] = mapped_column(DateTime(timezone=True), server_default=func.now())


class ChatRow(Base):
    """A chat message, to everyone (``to_seat`` null) or to one seat."""

    __tablename__ = "chat"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), index=True)
    from_seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    to_seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    text: Mapped[str] = mapped_column(Text)
    terms: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    """What a private message proposes, in the game's own action words (see ``tables.chat_terms``)."""
    created_at: Mapped[Any] = mapped_column(DateTime(timezone=True), server_default=func.now())


class SnapshotRow(Base):
    """A live table's state after its first ``actions`` actions, so that a restart replays only
    the actions after it. Written by this server's own code (``code``) and checked against the
    stored digest before it is used; anything else is ignored and the table replayed whole."""

    __tablename__ = "snapshots"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    actions: Mapped[int] = mapped_column(Integer)
    digest: Mapped[str] = mapped_column(String(32))
    code: Mapped[str] = mapped_column(String(64))
    state: Mapped[bytes] = mapped_column(LargeBinary)


class LeaseRow(Base):
    """Which server process serves a table being played, until when (the database's clock). Only
    used when several processes share one PostgreSQL database (:mod:`tricolore.server.leases`)."""

    __tablename__ = "leases"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    owner: Mapped[str] = mapped_column(String(128))
    expires_at: Mapped[Any] = mapped_column(DateTime(timezone=True))


def hash_token(token: str) -> str:
    """The stored form of a secret token."""
    return hashlib.sha256(token.encode()).hexdigest()


def sqlite_url(path: Path | str) -> str:
    """The database URL of an SQLite file."""
    return f"sqlite:///{Path(path)}"


def make_engine(url: str, pool_size: int | None = None) -> Engine:
    """An engine for ``url``; SQLite files get WAL mode and full synchronisation.

    A plain ``postgresql://`` URL is served by psycopg 3, the driver Tricolore installs;
    ``pool_size`` is how many connections its pool keeps open (SQLAlchemy's default if None).
    """
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url.removeprefix("postgresql://")
    sized = {"pool_size": pool_size} if pool_size is not None and not url.startswith("sqlite") else {}
    engine = create_engine(url, future=True, pool_pre_ping=True, **sized)
    if engine.dialect.name == "sqlite":

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(connection: Any, _record: Any) -> None:
            cursor = connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=FULL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

    return engine


def migrate(engine: Engine) -> None:
    """Bring the schema up to date with the Alembic migrations."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
