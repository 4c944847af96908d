"""Leases: several server processes on one PostgreSQL database, each table served by one of them.

A process serves a table being played only while it holds the table's lease: a row in ``leases``
naming the process (its instance name) and when the lease runs out, by the database's clock. The
owner renews its leases every third of the lease; a process that stops renewing them (killed,
frozen, cut off from the database) loses them when they run out, and another process takes the
table over: it rebuilds the table from the database, so it goes on from the last committed action.

The owner counts its lease as held only until the lease's length after it asked for it, by its
own clock, which is never later than the database's expiry: it stops acting on a table before
anyone else may take it. Should two processes ever act at once all the same (a process frozen
longer than its lease, then thawed mid-commit), the actions' primary key (table, number) lets only
one of them commit each action number; the other is refused and rebuilds.

SQLite serves one process: :func:`lock_sqlite` holds a lock on a file beside the database for as
long as the process lives, and a second process is refused with a sentence.
"""

from __future__ import annotations

import fcntl
import os
import threading
import time
from collections.abc import Iterable
from pathlib import Path
from typing import IO

from sqlalchemy import bindparam, text
from sqlalchemy.engine import Engine, make_url

from tricolore.core.errors import OptionsError

CLAIM = text("""
    INSERT INTO leases (table_id, owner, expires_at)
    VALUES (:table_id, :owner, clock_timestamp() + make_interval(secs => :seconds))
    ON CONFLICT (table_id) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
    WHERE leases.owner = excluded.owner OR leases.expires_at < clock_timestamp()
    RETURNING owner
""")
RENEW = text("""
    UPDATE leases SET expires_at = clock_timestamp() + make_interval(secs => :seconds)
    WHERE owner = :owner AND table_id IN :table_ids RETURNING table_id
""").bindparams(bindparam("table_ids", expanding=True))
RELEASE = text("DELETE FROM leases WHERE owner = :owner AND table_id IN :table_ids").bindparams(
    bindparam("table_ids", expanding=True))
UNSERVED = text("""
    SELECT t.id FROM tables t LEFT JOIN leases l ON l.table_id = t.id
    WHERE t.status = 'playing' AND (l.table_id IS NULL OR l.expires_at < clock_timestamp())
    ORDER BY t.created_at LIMIT :most
""")
OWNER = text("SELECT owner FROM leases WHERE table_id = :table_id AND expires_at >= clock_timestamp()")


class Leases:
    """The leases of one process, ``owner``, on the PostgreSQL database of ``engine``, each
    ``seconds`` long. Safe to use from several threads; every method but :meth:`holds` asks the
    database (call them off the event loop)."""

    def __init__(self, engine: Engine, owner: str, seconds: float) -> None:
        if engine.dialect.name != "postgresql":
            raise OptionsError("several server processes share a PostgreSQL database; "
                               f"leases cannot be kept in {engine.dialect.name}")
        self.engine, self.owner, self.seconds = engine, owner, float(seconds)
        self._until: dict[str, float] = {}
        self._lock = threading.Lock()

    @property
    def renew_every(self) -> float:
        """Seconds between two renewals: a third of the lease, so that one late renewal is not
        yet a lost lease."""
        return self.seconds / 3

    def holds(self, table_id: str) -> bool:
        """Whether this process may act on the table now (asks nothing of the database)."""
        with self._lock:
            return self._until.get(table_id, 0.0) > time.monotonic()

    def held(self) -> list[str]:
        """The tables whose leases this process holds or held last (the ones it renews)."""
        with self._lock:
            return list(self._until)

    def claim(self, table_id: str) -> bool:
        """Take the table's lease, or renew it: ``True`` unless another process holds it."""
        asked = time.monotonic()
        with self.engine.begin() as db:
            got = db.execute(CLAIM, {"table_id": table_id, "owner": self.owner,
                                     "seconds": self.seconds}).first()
        if got is None:
            return False
        with self._lock:
            self._until[table_id] = asked + self.seconds
        return True

    def renew(self, table_ids: Iterable[str] | None = None) -> list[str]:
        """Renew every lease held (or those of ``table_ids``); the tables whose leases were lost
        meanwhile (they are forgotten: this process no longer serves them).

        A lease is renewed only while its row has named this process all along, even if it ran
        out meanwhile: nobody else can have taken the table and acted on it in between."""
        tables = self.held() if table_ids is None else list(table_ids)
        if not tables:
            return []
        asked = time.monotonic()
        with self.engine.begin() as db:
            kept = set(db.scalars(RENEW, {"owner": self.owner, "seconds": self.seconds, "table_ids": tables}))
        with self._lock:
            for table_id in tables:
                if table_id in kept and table_id in self._until:
                    self._until[table_id] = asked + self.seconds
                else:
                    self._until.pop(table_id, None)
        return [t for t in tables if t not in kept]

    def release(self, table_ids: Iterable[str]) -> None:
        """Give up these tables' leases at once (a finished table, or a process stopping)."""
        tables = list(table_ids)
        if not tables:
            return
        with self._lock:
            for table_id in tables:
                self._until.pop(table_id, None)
        with self.engine.begin() as db:
            db.execute(RELEASE, {"owner": self.owner, "table_ids": tables})

    def unserved(self, most: int = 100) -> list[str]:
        """Tables being played whose lease ran out (or that never had one): their owner is gone."""
        with self.engine.connect() as db:
            return list(db.scalars(UNSERVED, {"most": most}))

    def owner_of(self, table_id: str) -> str | None:
        """The process serving the table now, if any."""
        with self.engine.connect() as db:
            owner = db.scalar(OWNER, {"table_id": table_id})
        return None if owner is None else str(owner)


def default_instance_name() -> str:
    """The name of this process among the servers of one database: its host's name and process id."""
    return f"{os.uname().nodename}-{os.getpid()}"


def lock_sqlite(url: str) -> IO[str] | None:
    """Hold, for as long as this process lives (keep the file returned open), the lock that makes
    an SQLite database one process's; an :class:`OptionsError` if another process holds it.
    ``None`` for an in-memory database, which no other process can open."""
    database = make_url(url).database
    if not database or database == ":memory:":
        return None
    path = Path(database).with_name(Path(database).name + ".lock")
    handle = path.open("a+")
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        raise OptionsError(f"another server process is serving the SQLite database {database}: SQLite "
                           "serves one process at a time; to run several, use PostgreSQL") from None
    return handle
