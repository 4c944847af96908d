"""The server: tables persisted in a database, played over HTTP and websockets.

:func:`build_app` is what ``tricolore serve`` runs: it opens the database, applies the migrations,
resumes every table by replaying its record, and returns the application. On SQLite it serves
alone (a second process on the same file is refused); on PostgreSQL several processes may serve
one database, each table served by one of them at a time (:mod:`tricolore.server.leases`).
"""

from __future__ import annotations

from fastapi import FastAPI

from tricolore.server.app import create_app
from tricolore.server.db import make_engine, migrate
from tricolore.server.leases import Leases, default_instance_name, lock_sqlite
from tricolore.server.settings import Settings
from tricolore.server.tables import TableStore


def build_app(url: str, bot_delay: float = 0.6, settings: Settings | None = None) -> tuple[FastAPI, int]:
    """The application over the database at ``url`` with an operator's ``settings``, and how many
    tables it resumed."""
    settings = settings or Settings()
    engine = make_engine(url, pool_size=settings.db_pool_size)
    leases = None
    if engine.dialect.name == "sqlite":
        sole = lock_sqlite(url)  # an OptionsError if another process serves the file
    else:
        sole = None
        leases = Leases(engine, settings.instance_name or default_instance_name(), settings.lease_seconds)
    migrate(engine)
    store = TableStore(engine, policies=settings.policies)
    store.shared = leases is not None
    resumed = store.resume()
    app = create_app(store, bot_delay=bot_delay, settings=settings, leases=leases)
    app.state.sqlite_lock = sole  # held open for as long as the application lives
    return app, resumed


__all__ = ["Settings", "build_app", "create_app"]
