"""The REST lobby: games, tables, invites, seats, records and replays.

:func:`lobby_router` builds the API over a :class:`~tricolore.server.tables.TableStore` (what is
stored) and a :class:`~tricolore.server.driver.TableDriver` (anything that changes a table being
played, and tells those at it). Every refusal is one sentence (:data:`REFUSALS`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field, field_validator
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.types import Message as ASGIMessage

from tricolore.agents import strategy_names, strategy_schema
from tricolore.core import OptionsError
from tricolore.core.inputs import depth_problem, text_problem
from tricolore.core.registry import get_game, list_games
from tricolore.server.driver import CreatorRefused, Elsewhere, TableDriver
from tricolore.server.protocol import DATABASE_AWAY, Limiter, sentence
from tricolore.server.settings import Settings
from tricolore.server.tables import (
    MAX_CLOCK,
    MAX_DEVICE,
    MAX_NAME,
    MAX_TOKEN,
    STATUSES,
    LiveTable,
    SeatElsewhere,
    TableError,
    TableStore,
)
from tricolore.server.tables import summary as table_summary

log = logging.getLogger("tricolore.server")

MAX_BODY = 65_536
"""The largest REST request body read, in bytes (a lobby request needs well under 2 KiB)."""
CREATE_LIMIT = (10, 60.0)
"""At most this many new tables per this many seconds from one client address."""
MAX_SEAT = 200
"""The longest seat in a new table's request: ``open`` or a strategy with its parameters."""


def _checked_text(value: str, what: str, max_length: int) -> str:
    why = text_problem(value, what, max_length)
    if why:
        raise ValueError(why)
    return value


class NewTable(BaseModel):
    """A lobby request for a table."""

    game: str = Field(max_length=64)
    players: int
    seats: list[str] = Field(max_length=64)
    options: dict[str, Any] = Field({}, max_length=64)
    bots_take_over: bool = True
    open_to_all: bool = Field(False, description="anyone in the lobby may take an open seat "
                                                 "(else only the holder of its invite)")
    window_seconds: int = Field(30, description="seconds a response window waits (0: no timer)")
    clock_seconds: int = Field(0, description=f"seconds each decision may take, 1 to {MAX_CLOCK} "
                                              "(0: no clock); then the seat passes, or a bot decides")

    @field_validator("game")
    @classmethod
    def _game_is_text(cls, value: str) -> str:
        return _checked_text(value, "game", 64)

    @field_validator("seats")
    @classmethod
    def _seats_are_text(cls, value: list[str]) -> list[str]:
        return [_checked_text(v, "seat", MAX_SEAT) for v in value]

    @field_validator("options")
    @classmethod
    def _options_are_plain(cls, value: dict[str, Any]) -> dict[str, Any]:
        why = depth_problem(value, 4)
        if why:
            raise ValueError(why)
        return value


class Join(BaseModel):
    """Taking a seat with its invite token, from a browser known by its secret ``device``."""

    token: str = Field(max_length=MAX_TOKEN)
    name: str = Field("", max_length=MAX_NAME * 5)
    device: str | None = Field(None, max_length=MAX_DEVICE,
                               description="the browser's own secret: the first to join holds the seat")
    move: bool = Field(False, description="take the seat here from another browser, or back from a bot")

    @field_validator("device")
    @classmethod
    def _device_is_text(cls, value: str | None) -> str | None:
        return None if value is None else _checked_text(value, "device", MAX_DEVICE)

    @field_validator("token")
    @classmethod
    def _token_is_text(cls, value: str) -> str:
        return _checked_text(value, "invite", MAX_TOKEN)

    @field_validator("name")
    @classmethod
    def _name_is_text(cls, value: str) -> str:
        return _checked_text(value, "name", MAX_NAME * 5)


class TakeSeat(BaseModel):
    """Taking an open seat of a table open to all, from a browser known by its secret ``device``."""

    name: str = Field("", max_length=MAX_NAME * 5)
    device: str = Field(max_length=MAX_DEVICE, description="the browser's own secret: it holds the seat")

    @field_validator("device")
    @classmethod
    def _device_is_text(cls, value: str) -> str:
        return _checked_text(value, "device", MAX_DEVICE)

    @field_validator("name")
    @classmethod
    def _name_is_text(cls, value: str) -> str:
        return _checked_text(value, "name", MAX_NAME * 5)


class Leave(BaseModel):
    """Leaving a seat (a bot takes over if the table allows it)."""

    token: str = Field(max_length=MAX_TOKEN)

    @field_validator("token")
    @classmethod
    def _token_is_text(cls, value: str) -> str:
        return _checked_text(value, "invite", MAX_TOKEN)


class Creator(BaseModel):
    """What only a table's creator holds: the token the table's creation answered with."""

    creator: str = Field(max_length=MAX_TOKEN)

    @field_validator("creator")
    @classmethod
    def _creator_is_text(cls, value: str) -> str:
        return _checked_text(value, "creator", MAX_TOKEN)


class Problem(BaseModel):
    """A refused request: ``detail`` is one sentence saying why."""

    detail: str


REFUSALS: dict[int | str, dict[str, Any]] = {
    400: {"model": Problem, "description": "The request cannot be met; the sentence says why."},
    404: {"model": Problem, "description": "There is no such table."},
    403: {"model": Problem, "description": "Only the table's creator may do that."},
    409: {"model": Problem, "description": "Not yet: the game is not over."},
    422: {"model": Problem, "description": "The request is malformed; the sentence says where."},
    413: {"model": Problem, "description": f"The request body is over {MAX_BODY} bytes."},
    429: {"model": Problem, "description": "Too many tables from this address; wait a moment."},
    503: {"model": Problem, "description": "Not now: the database is away, or another server process "
                                           "serves this table; try again (see Retry-After)."},
}
"""Every refusal the REST API answers, declared in its OpenAPI schema."""


def validation_sentence(exc: RequestValidationError) -> str:
    """One sentence for a malformed request, naming the field but never echoing its value."""
    problems = []
    for error in exc.errors()[:3]:
        where = ".".join(str(p) for p in error.get("loc", ()) if p != "body") or "the request"
        text = str(error.get("msg", "is not valid")).removeprefix("Value error, ")
        problems.append(f"{where}: {text}")
    return "Malformed request (" + "; ".join(problems) + ")."


class BodyLimit:
    """Refuses a REST request body over :data:`MAX_BODY` bytes with a sentence: at once when its
    declared length is over, else as soon as the bytes read go over (a body sent in chunks)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Answer 413 for a body over the limit; pass anything else on."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        too_large = f"A request body has at most {MAX_BODY} bytes"
        declared = Headers(scope=scope).get("content-length", "")
        if declared.isascii() and declared.isdigit() and len(declared) < 20 and int(declared) > MAX_BODY:
            refusal = JSONResponse({"detail": f"{too_large}; this one has {declared}."}, status_code=413)
            await refusal(scope, receive, send)
            return
        read = 0

        async def counted() -> ASGIMessage:
            nonlocal read
            message = await receive()
            read += len(message.get("body", b""))
            if read > MAX_BODY:
                raise StarletteHTTPException(413, too_large + ".")
            return message

        await self.app(scope, counted, send)


async def database_away(request: Request, exc: Exception) -> JSONResponse:
    """The answer to a request the database could not serve (it is away, or its disk is full):
    503 with a sentence, and one line in the log."""
    why = " ".join(str(getattr(exc, "orig", exc)).split())
    log.warning("%s %s: the database is away: %s", request.method, request.url.path, why)
    return JSONResponse({"detail": DATABASE_AWAY}, status_code=503, headers={"Retry-After": "1"})


def elsewhere(exc: Elsewhere) -> HTTPException:
    """The answer to a request about a table another server process serves: try again (behind a
    proxy that routes by table, the request reaches the owner; if the owner is gone, its lease
    runs out and this process takes the table)."""
    return HTTPException(503, sentence(str(exc)), headers={"Retry-After": "1"})


def invite_links(table_id: str, invites: Mapping[int, str]) -> dict[str, str]:
    """Each seat's invite as the link that opens it."""
    return {str(s): f"/table/{table_id}#invite={t}" for s, t in invites.items()}


def lobby_router(store: TableStore, driver: TableDriver, settings: Settings,
                 create_limit: tuple[int, float] | None = None) -> APIRouter:
    """The lobby's REST API over ``store``, acting on live tables through ``driver``;
    ``create_limit`` (new tables, or open seats taken, a client address may ask for in so many
    seconds) overrides the one in ``settings``."""
    limit = create_limit if create_limit is not None else (settings.tables_per_minute, 60.0)
    creators: dict[str, Limiter] = {}
    takers: dict[str, Limiter] = {}
    router = APIRouter()

    def live(table_id: str) -> LiveTable:
        table = store.live.get(table_id)
        if table is None:
            raise HTTPException(404, "There is no such table.")
        return table

    def finished(table_id: str) -> LiveTable:
        table = live(table_id)
        if table.status != "over":
            raise HTTPException(409, "The record and the replay open when the game is over.")
        return table

    def client_of(http: Request) -> str:
        return settings.client_address(http.client.host if http.client else None, http.headers)

    @router.get("/api/games", responses={k: REFUSALS[k] for k in (422,)})
    def games() -> list[dict[str, Any]]:
        """Every registered game with its player range, options (defaults), each option's
        schema (its kind, bounds, choices and help, for the lobby's controls), strategies, and
        each strategy's parameters (key, kind, default, low, high, choices and doc, for the
        controls of a bot's seat)."""
        out = []
        for info in list_games():
            game = get_game(info.name)
            out.append({"name": info.name, "title": info.title, "min_players": info.min_players,
                        "max_players": info.max_players, "summary": info.summary,
                        "options": info.options().as_dict(),
                        "option_schema": info.options.schema(info.max_players),
                        "strategies": [*strategy_names(game), *store.policy_names(info.name)],
                        "strategy_parameters": {s["name"]: s["parameters"] for s in strategy_schema(game)}})
        return out

    @router.post("/api/tables", responses={k: REFUSALS[k] for k in (400, 413, 422, 429)})
    async def create_table(request: NewTable, http: Request) -> dict[str, Any]:
        """Create a table; the answer holds each open seat's invite link, shown only here."""
        client = client_of(http)
        if len(creators) > 10_000:  # forget quiet clients rather than grow for ever
            creators.clear()
        if not creators.setdefault(client, Limiter(limit)).allow():
            raise HTTPException(429, f"Too many new tables: at most {limit[0]} every "
                                     f"{limit[1]:.0f} seconds from one address. Wait a moment.")
        try:
            created = await asyncio.to_thread(store.create, request.game, request.players, request.seats,
                                              request.options, bots_take_over=request.bots_take_over,
                                              window_seconds=request.window_seconds,
                                              clock_seconds=request.clock_seconds,
                                              open_to_all=request.open_to_all)
        except (TableError, OptionsError) as exc:
            raise HTTPException(400, sentence(str(exc))) from None
        await driver.taken(created.table_id)
        driver.kick(created.table_id)
        return {"table_id": created.table_id, "invites": invite_links(created.table_id, created.invites),
                "spectate": f"/table/{created.table_id}", "creator": created.creator}

    @router.post("/api/tables/{table_id}/invites",
                 responses={k: REFUSALS[k] for k in (400, 403, 404, 413, 422)})
    async def invites_again(table_id: str, request: Creator) -> dict[str, Any]:
        """Every invite link of the table again, for its creator."""
        live(table_id)
        try:
            invites = await asyncio.to_thread(store.invites_for, table_id, request.creator)
        except TableError as exc:
            raise HTTPException(403, sentence(str(exc))) from None
        return {"table_id": table_id, "invites": invite_links(table_id, invites),
                "spectate": f"/table/{table_id}"}

    @router.post("/api/tables/{table_id}/close",
                 responses={k: REFUSALS[k] for k in (400, 403, 404, 413, 422, 503)})
    async def close(table_id: str, request: Creator) -> dict[str, Any]:
        """The creator closes the table: everyone connected is told, and it takes no more actions."""
        live(table_id)
        try:
            await driver.close(table_id, request.creator)
        except CreatorRefused as exc:
            raise HTTPException(403, sentence(str(exc))) from None
        except Elsewhere as exc:
            raise elsewhere(exc) from None
        except TableError as exc:
            raise HTTPException(400, sentence(str(exc))) from None
        return {"table_id": table_id, "status": "closed"}

    @router.get("/api/tables", responses={k: REFUSALS[k] for k in (400, 422)})
    def tables(status: str = "waiting") -> list[dict[str, Any]]:
        """Tables by status (``waiting``, ``playing``, ``over`` or ``closed``), newest first."""
        if status not in STATUSES:
            raise HTTPException(400, "The status must be waiting, playing, over or closed.")
        return store.summaries(status)

    @router.get("/api/tables/{table_id}", responses={k: REFUSALS[k] for k in (404, 422)})
    async def table_info(table_id: str) -> dict[str, Any]:
        """A table's public facts."""
        table = await driver.current(table_id)
        if table is None:
            raise HTTPException(404, "There is no such table.")
        return table_summary(table, len(table.actions))

    @router.post("/api/join", responses={400: REFUSALS[400], 413: REFUSALS[413], 422: REFUSALS[422],
                                         503: REFUSALS[503], 409: {
        "model": Problem, "description": "The seat is held by another browser, or a bot plays it since "
                                         "its person left: join again with move to take it here."}})
    async def join(request: Join) -> dict[str, Any]:
        """Take the seat an invite token opens (again, after a reconnect); with ``move``, take it
        from another browser (which is told, and watches from then on) or back from a bot."""
        try:
            table_id, seat = await driver.join(request.token, request.name, request.device, request.move)
        except SeatElsewhere as exc:
            raise HTTPException(409, sentence(str(exc))) from None
        except Elsewhere as exc:
            raise elsewhere(exc) from None
        except TableError as exc:
            raise HTTPException(400, sentence(str(exc))) from None
        return {"table_id": table_id, "seat": seat}

    @router.post("/api/tables/{table_id}/seats/{seat}",
                 responses={k: REFUSALS[k] for k in (400, 404, 413, 422, 429, 503)})
    async def take_seat(table_id: str, seat: int, request: TakeSeat, http: Request) -> dict[str, Any]:
        """Take an open seat of a waiting table that is open to all; the answer holds the seat's
        token, shown only here (keep it: it opens the seat again after a reconnect)."""
        live(table_id)
        client = client_of(http)
        if len(takers) > 10_000:
            takers.clear()
        if not takers.setdefault(client, Limiter(limit)).allow():
            raise HTTPException(429, f"Too many seats taken: at most {limit[0]} every "
                                     f"{limit[1]:.0f} seconds from one address. Wait a moment.")
        try:
            await driver.take(table_id)
            token = await asyncio.to_thread(store.take_seat, table_id, seat, request.name, request.device)
        except Elsewhere as exc:
            raise elsewhere(exc) from None
        except TableError as exc:
            raise HTTPException(400, sentence(str(exc))) from None
        await driver.seats_changed(table_id)
        driver.kick(table_id)
        return {"table_id": table_id, "seat": seat, "token": token}

    @router.post("/api/leave", responses={k: REFUSALS[k] for k in (400, 413, 422, 503)})
    async def leave(request: Leave) -> dict[str, Any]:
        """Leave a seat; a bot takes it over if the table allows it."""
        try:
            table_id, seat = await asyncio.to_thread(store.seat_of, request.token)
            strategy = await driver.leave(table_id, seat)
        except Elsewhere as exc:
            raise elsewhere(exc) from None
        except TableError as exc:
            raise HTTPException(400, sentence(str(exc))) from None
        return {"table_id": table_id, "seat": seat, "strategy": strategy}

    @router.get("/api/tables/{table_id}/record", responses={k: REFUSALS[k] for k in (404, 409, 422)})
    def record(table_id: str) -> JSONResponse:
        """A finished table's record, as a JSON download that ``tricolore replay --verify`` checks."""
        table = finished(table_id)
        seats = [{"name": name, "strategy": strategy}
                 for name, strategy in zip(table.names(), table.strategies(), strict=True)]
        return JSONResponse({**table.record().as_dict(), "seats": seats}, headers={
            "Content-Disposition": f'attachment; filename="{table.game}-{table_id}.json"'})

    @router.get("/api/tables/{table_id}/replay/{number}",
                responses={k: REFUSALS[k] for k in (404, 409, 422)})
    def replay_step(table_id: str, number: int) -> dict[str, Any]:
        """A finished table after ``number`` actions, every secret revealed."""
        table = finished(table_id)
        if not 0 <= number <= len(table.actions):
            raise HTTPException(404, f"This game has actions 0 to {len(table.actions)}.")
        state = get_game(table.game).new(table.players, table.seed, table.options)
        events: list[dict[str, Any]] = []
        for seat, action in table.actions[:number]:
            events = [e.as_dict() for e in state.apply(seat, action)]
        return {"number": number, "total": len(table.actions), "game": table.game,
                "names": table.names(), "strategies": table.strategies(), "takeovers": table.takeovers(),
                "action": None if number == 0 else {"seat": table.actions[number - 1][0],
                                                    "action": table.actions[number - 1][1]},
                "events": events, "public": state.view(None),
                "views": [state.view(s) for s in range(table.players)],
                "result": state.result().as_dict() if state.is_over() else None}

    return router
