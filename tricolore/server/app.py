"""The web application: the lobby's REST API, one websocket per seat or spectator, the browser
client's pages.

It is wired from separate modules, each usable without the others' live parts:

- :mod:`tricolore.server.tables` keeps the tables and their records in the database;
- :mod:`tricolore.server.driver` changes the tables being played, in order (people's actions,
  bots, clocks) and tells each table's subscribers;
- :mod:`tricolore.server.lobby` is the REST API over the store and the driver;
- :mod:`tricolore.server.protocol` is the websocket protocol (version 1, ``docs/protocol.md``).
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, HTTPException, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import OperationalError
from starlette.exceptions import HTTPException as StarletteHTTPException

from tricolore.core import OptionsError
from tricolore.core.registry import board_file
from tricolore.server.driver import TableDriver
from tricolore.server.leases import Leases
from tricolore.server.lobby import (
    CREATE_LIMIT,
    MAX_BODY,
    REFUSALS,
    BodyLimit,
    database_away,
    lobby_router,
    validation_sentence,
)
from tricolore.server.paper import router as paper_router
from tricolore.server.protocol import (
    CHAT_LIMIT,
    FLOOD_LIMIT,
    MAX_MESSAGE,
    PROTOCOL_VERSION,
    SocketProtocol,
    sentence,
)
from tricolore.server.settings import Settings
from tricolore.server.tables import TableStore

STATIC = Path(__file__).with_name("static")
SWITCH_INTERVAL = 0.0005
"""The most seconds a busy thread keeps the GIL from one waiting for it (Python's default: 0.005)."""

__all__ = ["CHAT_LIMIT", "CREATE_LIMIT", "FLOOD_LIMIT", "MAX_BODY", "MAX_MESSAGE", "PROTOCOL_VERSION",
           "create_app", "no_such_table_page"]


def create_app(store: TableStore, bot_delay: float = 0.0, flood_limit: tuple[int, float] = FLOOD_LIMIT,
               chat_limit: tuple[int, float] = CHAT_LIMIT,
               create_limit: tuple[int, float] | None = None,
               socket_limit: int | None = None, settings: Settings | None = None,
               leases: Leases | None = None) -> FastAPI:
    """The application over ``store``; bots wait ``bot_delay`` seconds before each action.

    ``flood_limit`` and ``chat_limit`` cap the messages, and the chat messages, that one
    connection may send: at most so many in so many seconds. ``settings`` are the operator's
    (:class:`~tricolore.server.settings.Settings`: per-address limits, trusted proxies, the hello
    timeout); ``create_limit`` (tables a client address may create in so many seconds) and
    ``socket_limit`` (websockets it may hold open) override its limits. With ``leases``, this
    process serves only the tables whose leases it holds (several processes on one PostgreSQL
    database, ``docs/deployment.md``).
    """
    settings = settings or Settings()
    driver = TableDriver(store, bot_delay=bot_delay, leases=leases)
    sockets = SocketProtocol(store, driver, settings, flood_limit=flood_limit, chat_limit=chat_limit,
                             socket_limit=socket_limit)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        # Threads blocked on the disk (the group commit) or on a commit (actions) take the GIL
        # back sooner: under load the default 5 ms per hand-over adds up to tens of milliseconds
        # between an action's commit and its acknowledgement.
        sys.setswitchinterval(min(sys.getswitchinterval(), SWITCH_INTERVAL))
        driver.start()
        yield
        driver.stop()

    app = FastAPI(title="Tricolore", version=str(PROTOCOL_VERSION), lifespan=lifespan,
                  responses={422: REFUSALS[422], 503: REFUSALS[503]})
    app.state.driver = driver
    app.add_middleware(BodyLimit)

    @app.exception_handler(StarletteHTTPException)
    async def refused_request(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        return JSONResponse({"detail": sentence(str(exc.detail))}, status_code=exc.status_code,
                            headers=exc.headers)

    app.add_exception_handler(OperationalError, database_away)

    @app.exception_handler(RequestValidationError)
    async def malformed_request(_request: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse({"detail": validation_sentence(exc)}, status_code=422)

    # -- pages -------------------------------------------------------------------------------
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.include_router(paper_router)  # the Book and scoring helpers for tables playing on paper

    @app.get("/", include_in_schema=False)
    def lobby_page() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/table/{table_id}", include_in_schema=False)
    def table_page(table_id: str) -> Response:
        if table_id not in store.live:
            return no_such_table_page()
        return FileResponse(STATIC / "table.html")

    @app.get("/replay/{table_id}", include_in_schema=False)
    def replay_page(table_id: str) -> Response:
        if table_id not in store.live:
            return no_such_table_page()
        return FileResponse(STATIC / "replay.html")

    @app.get("/boards/{game}.js", include_in_schema=False)
    def board_script(game: str) -> FileResponse:
        """A game's board, the ``board.js`` that lives in the game's package."""
        try:
            path = board_file(game)
        except OptionsError:
            raise HTTPException(404, "There is no game by that name.") from None
        if path is None:
            raise HTTPException(404, "This game has no board of its own; the table shows it plainly.")
        return FileResponse(path, media_type="text/javascript")

    # -- the lobby and the tables' sockets ------------------------------------------------------
    app.include_router(lobby_router(store, driver, settings, create_limit))

    @app.websocket("/ws/{table_id}")
    async def play(socket: WebSocket, table_id: str) -> None:
        await sockets.serve(socket, table_id)

    return app


NO_SUCH_TABLE_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Tricolore — no such table</title><link rel="stylesheet" href="/static/style.css"></head>
<body><header class="top"><a href="/">Tricolore</a></header>
<main><section class="card" data-testid="no-such-table"><h1>There is no such table.</h1>
<p>The link may be mistyped, or the table is on another server. <a href="/">Back to the lobby</a>
to start a table or join one.</p></section></main></body></html>
"""


def no_such_table_page() -> HTMLResponse:
    """The page for a table this server does not have: a sentence and a way back to the lobby."""
    return HTMLResponse(NO_SUCH_TABLE_PAGE, status_code=404)
