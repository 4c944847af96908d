"""The server: tables persisted in a database, played over HTTP and websockets.

:func:`build_app` is what ``tricolore serve`` runs: it opens the database, applies the migrations,
resumes every table by replaying its record, and returns the application.
"""

from __future__ import annotations

from fastapi import FastAPI

from tricolore.server.app import create_app
from tricolore.server.db import make_engine, migrate
from tricolore.server.settings import Settings
from tricolore.server.tables import TableStore


def build_app(url: str, bot_delay: float = 0.6, settings: Settings | None = None) -> tuple[FastAPI, int]:
    """The application over the database at ``url`` with an operator's ``settings``, and how many
    tables it resumed."""
    settings = settings or Settings()
    engine = make_engine(url, pool_size=settings.db_pool_size)
    migrate(engine)
    store = TableStore(engine, policies=settings.policies)
    resumed = store.resume()
    return create_app(store, bot_delay=bot_delay, settings=settings), resumed


__all__ = ["Settings", "build_app", "create_app"]
