"""The web application: REST for the lobby, one websocket per seat or spectator, the browser client.

The websocket protocol (version 1) is written down in ``docs/protocol.md``. In short: the client
says ``hello`` with its seat's token (none: a spectator) and gets a ``welcome`` with its full view;
after every change it gets an ``update`` with only the top-level view fields that changed and the
new events it may see. An ``action`` carries a client action id; the server commits the action to
the database, then acknowledges it, then tells everyone.

Every table has a driver task: it lets bots play their seats after a small delay, and when a
seat's clock runs out it passes for the seat (or lets a bot decide for it, as the table allows).
The clocks' deadlines are stored with the table, so a restarted server keeps them.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import random
import sys
import time
from collections import deque
from collections.abc import AsyncIterator, Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from fastapi import FastAPI, HTTPException, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field, field_validator
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.types import Message as ASGIMessage

from tricolore.agents import (
    Agent,
    Message,
    decide,
    make_agent,
    offered_actions,
    strategy_names,
    strategy_schema,
    take_said,
)
from tricolore.core import OptionsError
from tricolore.core.actions import ActionSpace
from tricolore.core.errors import IllegalAction
from tricolore.core.inputs import InputError, depth_problem, loads, text_problem
from tricolore.core.model import project
from tricolore.core.registry import board_file, get_game, list_games
from tricolore.server.paper import router as paper_router
from tricolore.server.settings import Settings
from tricolore.server.tables import (
    BOT,
    HUMAN,
    MAX_CLOCK,
    MAX_DEVICE,
    MAX_NAME,
    MAX_TOKEN,
    STATUSES,
    LiveTable,
    SeatElsewhere,
    TableError,
    TableStore,
    bot_rng,
    decision_key,
    public_seats,
    takeover_strategy,
)
from tricolore.server.tables import summary as table_summary

PROTOCOL_VERSION = 1
MAX_MESSAGE = 16_384
"""The longest websocket message a client may send, in characters."""
MAX_BODY = 65_536
"""The largest REST request body read, in bytes (a lobby request needs well under 2 KiB)."""
FLOOD_LIMIT = (60, 10.0)
"""At most this many messages per this many seconds from one connection."""
CHAT_LIMIT = (5, 10.0)
"""At most this many chat messages per this many seconds from one connection."""
CREATE_LIMIT = (10, 60.0)
"""At most this many new tables per this many seconds from one client address."""
SOCKET_LIMIT = 64
"""At most this many websockets open at once from one client address (a classroom behind one
router still fits; one browser holding hundreds open does not)."""
MAX_ACTION_ID = 64
"""The longest client action id, in characters."""
MAX_SEAT = 200
"""The longest seat in a new table's request: ``open`` or a strategy with its parameters."""
STATIC = Path(__file__).with_name("static")
ACTING_THREADS = 256
"""Threads that apply actions and wait for their commit: more than the tables acting at once
under load, so that every action waiting joins the next group commit."""
THINKING_THREADS = 4
"""Threads in which bots decide."""
SWITCH_INTERVAL = 0.0005
"""The most seconds a busy thread keeps the GIL from one waiting for it (Python's default: 0.005)."""

T = TypeVar("T")

log = logging.getLogger("tricolore.server")


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


class Limiter:
    """A sliding-window rate limit: at most ``count`` events per ``seconds``."""

    def __init__(self, limit: tuple[int, float]) -> None:
        self.count, self.seconds = limit
        self.times: deque[float] = deque()

    def allow(self) -> bool:
        """Count one event now; ``False`` (and not counted) when over the limit."""
        now = time.monotonic()
        while self.times and now - self.times[0] > self.seconds:
            self.times.popleft()
        if len(self.times) >= self.count:
            return False
        self.times.append(now)
        return True


@dataclass(slots=True, eq=False)
class Connection:
    """One open websocket: the seat it speaks for (``None``: a spectator) and what it was sent."""

    socket: WebSocket
    seat: int | None
    messages: Limiter
    chats: Limiter
    sent: int = 0
    view: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True)
class Room:
    """A table's connections, the lock that orders its actions and broadcasts, and its driver."""

    connections: list[Connection] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    driver: asyncio.Task[None] | None = None


STALE = object()
"""What :meth:`BotPlan.decide` gives when the table moved on before the bot could look at it."""


@dataclass(slots=True)
class BotPlan:
    """A bot's decision to make: its agent, the table and how many actions it had, its seat, its
    randomness (from the table's secret), and the chat and names a talking agent is told."""

    agent: Agent
    table: LiveTable
    number: int
    seat: int
    rng: random.Random
    chat: list[Message]
    names: list[str]

    def decide(self) -> Any:
        """The agent's action, decided on a copy of the state taken here (run in a worker thread,
        without the room's lock, so that neither the copy nor the thinking holds up the event
        loop); :data:`STALE` if an action was applied since the plan was made."""
        with self.table.lock:
            if len(self.table.actions) != self.number:
                return STALE
            state = self.table.state.clone()
        return decide(self.agent, state, self.seat, self.rng, chat=self.chat, names=self.names)


def view_delta(old: Mapping[str, Any], new: Mapping[str, Any]) -> dict[str, Any]:
    """The top-level fields of ``new`` that differ from ``old``, and those ``new`` no longer has."""
    return {"set": {k: v for k, v in new.items() if k not in old or old[k] != v},
            "unset": [k for k in old if k not in new]}


def final_reveal(table: LiveTable) -> dict[str, Any]:
    """The end screen: the result with each seat's breakdown, and every seat's full view."""
    return {"result": table.state.result().as_dict(),
            "views": [table.state.view(s) for s in range(table.players)],
            "strategies": table.strategies(), "takeovers": table.takeovers()}


def create_app(store: TableStore, bot_delay: float = 0.0, flood_limit: tuple[int, float] = FLOOD_LIMIT,
               chat_limit: tuple[int, float] = CHAT_LIMIT,
               create_limit: tuple[int, float] | None = None,
               socket_limit: int | None = None, settings: Settings | None = None) -> FastAPI:
    """The application over ``store``; bots wait ``bot_delay`` seconds before each action.

    ``flood_limit`` and ``chat_limit`` cap the messages, and the chat messages, that one
    connection may send: at most so many in so many seconds. ``settings`` are the operator's
    (:class:`~tricolore.server.settings.Settings`: per-address limits, trusted proxies, the hello
    timeout); ``create_limit`` (tables a client address may create in so many seconds) and
    ``socket_limit`` (websockets it may hold open) override its limits.
    """
    settings = settings or Settings()
    if create_limit is None:
        create_limit = (settings.tables_per_minute, 60.0)
    if socket_limit is None:
        socket_limit = settings.sockets_per_address
    rooms: dict[str, Room] = {}
    creators: dict[str, Limiter] = {}
    takers: dict[str, Limiter] = {}
    sockets_open: dict[str, int] = {}
    talkers: dict[tuple[str, int, str], Agent] = {}
    """Every bot, kept from move to move for its table, as a simulation keeps one per seat: a
    language-model player's counters add up, and a player that counts its own free actions (a
    trained policy) cannot stall the game by starting afresh each move."""
    # Actions wait in their own threads for the group commit (one per table acting at once), and
    # bots think in theirs: neither queues behind the other nor behind the lobby's requests.
    actors = ThreadPoolExecutor(ACTING_THREADS, thread_name_prefix="tricolore-act")
    thinkers = ThreadPoolExecutor(THINKING_THREADS, thread_name_prefix="tricolore-bot")

    async def acting(func: Callable[..., T], /, *args: Any) -> T:
        """``func(*args)`` in an action's thread: a store call that waits for its commit."""
        return await asyncio.get_running_loop().run_in_executor(actors, functools.partial(func, *args))

    async def thinking(func: Callable[[], T]) -> T:
        """``func()`` in a bot's thread: a decision, made without the room's lock."""
        return await asyncio.get_running_loop().run_in_executor(thinkers, func)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        # Threads blocked on the disk (the group commit) or on a commit (actions) take the GIL
        # back sooner: under load the default 5 ms per hand-over adds up to tens of milliseconds
        # between an action's commit and its acknowledgement.
        sys.setswitchinterval(min(sys.getswitchinterval(), SWITCH_INTERVAL))
        for table_id, table in store.live.items():
            if table.status == "playing":
                kick(table_id)
        yield
        for r in rooms.values():
            if r.driver is not None:
                r.driver.cancel()

    app = FastAPI(title="Tricolore", version=str(PROTOCOL_VERSION), lifespan=lifespan,
                  responses={422: REFUSALS[422]})

    app.add_middleware(BodyLimit)

    @app.exception_handler(StarletteHTTPException)
    async def refused_request(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        return JSONResponse({"detail": sentence(str(exc.detail))}, status_code=exc.status_code,
                            headers=exc.headers)

    @app.exception_handler(RequestValidationError)
    async def malformed_request(_request: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse({"detail": validation_sentence(exc)}, status_code=422)

    def room(table_id: str) -> Room:
        if table_id not in rooms:
            rooms[table_id] = Room()
        return rooms[table_id]

    def live(table_id: str) -> LiveTable:
        table = store.live.get(table_id)
        if table is None:
            raise HTTPException(404, "There is no such table.")
        return table

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

    # -- the lobby ---------------------------------------------------------------------------
    @app.get("/api/games", responses={k: REFUSALS[k] for k in (422,)})
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

    @app.post("/api/tables", responses={k: REFUSALS[k] for k in (400, 413, 422, 429)})
    async def create_table(request: NewTable, http: Request) -> dict[str, Any]:
        """Create a table; the answer holds each open seat's invite link, shown only here."""
        client = settings.client_address(http.client.host if http.client else None, http.headers)
        if len(creators) > 10_000:  # forget quiet clients rather than grow for ever
            creators.clear()
        if not creators.setdefault(client, Limiter(create_limit)).allow():
            raise HTTPException(429, f"Too many new tables: at most {create_limit[0]} every "
                                     f"{create_limit[1]:.0f} seconds from one address. Wait a moment.")
        try:
            created = await asyncio.to_thread(store.create, request.game, request.players, request.seats,
                                              request.options, bots_take_over=request.bots_take_over,
                                              window_seconds=request.window_seconds,
                                              clock_seconds=request.clock_seconds,
                                              open_to_all=request.open_to_all)
        except (TableError, OptionsError) as exc:
            raise HTTPException(400, sentence(str(exc))) from None
        kick(created.table_id)
        return {"table_id": created.table_id, "invites": invite_links(created.table_id, created.invites),
                "spectate": f"/table/{created.table_id}", "creator": created.creator}

    @app.post("/api/tables/{table_id}/invites",
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

    @app.post("/api/tables/{table_id}/close", responses={k: REFUSALS[k] for k in (400, 403, 404, 413, 422)})
    async def close(table_id: str, request: Creator) -> dict[str, Any]:
        """The creator closes the table: everyone connected is told, and it takes no more actions."""
        live(table_id)
        r = room(table_id)
        async with r.lock:
            try:
                await asyncio.to_thread(store.check_creator, table_id, request.creator)
            except TableError as exc:
                raise HTTPException(403, sentence(str(exc))) from None
            try:
                await asyncio.to_thread(store.close, table_id, request.creator)
            except TableError as exc:
                raise HTTPException(400, sentence(str(exc))) from None
            for connection in list(r.connections):
                try:
                    await connection.socket.send_json({"type": "notice", "code": "table_closed",
                                                       "message": TABLE_CLOSED})
                except (WebSocketDisconnect, RuntimeError):
                    drop(table_id, connection)
            await broadcast(table_id)
        kick(table_id)
        return {"table_id": table_id, "status": "closed"}

    def invite_links(table_id: str, invites: Mapping[int, str]) -> dict[str, str]:
        return {str(s): f"/table/{table_id}#invite={t}" for s, t in invites.items()}

    @app.get("/api/tables", responses={k: REFUSALS[k] for k in (400, 422)})
    def tables(status: str = "waiting") -> list[dict[str, Any]]:
        """Tables by status (``waiting``, ``playing``, ``over`` or ``closed``), newest first."""
        if status not in STATUSES:
            raise HTTPException(400, "The status must be waiting, playing, over or closed.")
        return store.summaries(status)

    @app.get("/api/tables/{table_id}", responses={k: REFUSALS[k] for k in (404, 422)})
    def table_info(table_id: str) -> dict[str, Any]:
        """A table's public facts."""
        return summary(live(table_id))

    @app.post("/api/join", responses={400: REFUSALS[400], 413: REFUSALS[413], 422: REFUSALS[422], 409: {
        "model": Problem, "description": "The seat is held by another browser, or a bot plays it since "
                                         "its person left: join again with move to take it here."}})
    async def join(request: Join) -> dict[str, Any]:
        """Take the seat an invite token opens (again, after a reconnect); with ``move``, take it
        from another browser (which is told, and watches from then on) or back from a bot."""
        try:
            table_id, _ = await asyncio.to_thread(store.seat_of, request.token)
            async with room(table_id).lock:  # a bot handing the seat back must not be mid-move
                table_id, seat = await asyncio.to_thread(store.join, request.token, request.name,
                                                         request.device, request.move)
        except SeatElsewhere as exc:
            raise HTTPException(409, sentence(str(exc))) from None
        except TableError as exc:
            raise HTTPException(400, sentence(str(exc))) from None
        if request.move:
            await seat_moved(table_id, seat)
        await seats_changed(table_id)
        return {"table_id": table_id, "seat": seat}

    @app.post("/api/tables/{table_id}/seats/{seat}",
              responses={k: REFUSALS[k] for k in (400, 404, 413, 422, 429)})
    async def take_seat(table_id: str, seat: int, request: TakeSeat, http: Request) -> dict[str, Any]:
        """Take an open seat of a waiting table that is open to all; the answer holds the seat's
        token, shown only here (keep it: it opens the seat again after a reconnect)."""
        live(table_id)
        client = settings.client_address(http.client.host if http.client else None, http.headers)
        if len(takers) > 10_000:
            takers.clear()
        if not takers.setdefault(client, Limiter(create_limit)).allow():
            raise HTTPException(429, f"Too many seats taken: at most {create_limit[0]} every "
                                     f"{create_limit[1]:.0f} seconds from one address. Wait a moment.")
        try:
            token = await asyncio.to_thread(store.take_seat, table_id, seat, request.name, request.device)
        except TableError as exc:
            raise HTTPException(400, sentence(str(exc))) from None
        await seats_changed(table_id)
        kick(table_id)
        return {"table_id": table_id, "seat": seat, "token": token}

    @app.post("/api/leave", responses={k: REFUSALS[k] for k in (400, 413, 422)})
    async def leave(request: Leave) -> dict[str, Any]:
        """Leave a seat; a bot takes it over if the table allows it."""
        try:
            table_id, seat = await asyncio.to_thread(store.seat_of, request.token)
            strategy = await asyncio.to_thread(store.leave, table_id, seat)
        except TableError as exc:
            raise HTTPException(400, sentence(str(exc))) from None
        await seats_changed(table_id)
        return {"table_id": table_id, "seat": seat, "strategy": strategy}

    @app.get("/api/tables/{table_id}/record", responses={k: REFUSALS[k] for k in (404, 409, 422)})
    def record(table_id: str) -> JSONResponse:
        """A finished table's record, as a JSON download that ``tricolore replay --verify`` checks."""
        table = finished(table_id)
        seats = [{"name": name, "strategy": strategy}
                 for name, strategy in zip(table.names(), table.strategies(), strict=True)]
        return JSONResponse({**table.record().as_dict(), "seats": seats}, headers={
            "Content-Disposition": f'attachment; filename="{table.game}-{table_id}.json"'})

    @app.get("/api/tables/{table_id}/replay/{number}",
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

    def finished(table_id: str) -> LiveTable:
        table = live(table_id)
        if table.status != "over":
            raise HTTPException(409, "The record and the replay open when the game is over.")
        return table

    def summary(table: LiveTable) -> dict[str, Any]:
        return table_summary(table, len(table.actions))

    # -- what each connection is told ---------------------------------------------------------
    def prompt_for(table: LiveTable, seat: int | None) -> dict[str, Any] | None:
        """The seat's legal actions as forms, its free actions, and a response window's timer."""
        if seat is None or table.status != "playing" or table.seats[seat]["kind"] != HUMAN:
            return None
        state = table.state
        asked = state.pending().get(seat)
        free = state.free_actions(seat)
        if asked is None and not free:
            return None
        deadline = table.deadlines.get(seat)
        when = None if deadline is None else deadline[1]
        return {"kinds": list(asked.kinds) if asked else [],
                "window": asked.window if asked else None, "secret": asked.secret if asked else False,
                "actions": state.legal_actions(seat).steps() if asked else [],
                "free": free.steps(),
                "seconds_left": None if when is None else max(0.0, when - time.time())}

    def message_for(table: LiveTable, connection: Connection, kind: str) -> dict[str, Any]:
        view = table.state.view(connection.seat)  # a snapshot: later moves cannot change it
        events = project(table.state.log[connection.sent:], connection.seat)
        message: dict[str, Any] = {"type": kind, "status": table.status, "seats": public_seats(table.seats),
                                   "events": events, "prompt": prompt_for(table, connection.seat),
                                   "actions": len(table.actions), "clocks": clocks_of(table)}
        if kind == "welcome":
            message.update(version=PROTOCOL_VERSION, seat=connection.seat, game=table.game,
                           title=table.state.info.title, players=table.players, view=view,
                           window_seconds=table.window_seconds, clock_seconds=table.clock_seconds,
                           bots_take_over=table.bots_take_over)
        else:
            message["view_delta"] = view_delta(connection.view, view)
        if table.status == "over":
            message["final"] = final_reveal(table)
        connection.view = view
        connection.sent = len(table.state.log)
        return message

    def clocks_of(table: LiveTable) -> list[dict[str, Any]]:
        """Every running clock, for everyone: whose it is and the seconds it has left."""
        now = time.time()
        return [{"seat": seat, "seconds_left": max(0.0, when - now)}
                for seat, (_, when) in sorted(table.deadlines.items()) if when is not None]

    async def broadcast(table_id: str) -> None:
        """Send every connection of the table what changed for it (hold the room's lock)."""
        table = store.live[table_id]
        await update_deadlines(table)
        for connection in list(room(table_id).connections):
            try:
                await connection.socket.send_json(message_for(table, connection, "update"))
            except (WebSocketDisconnect, RuntimeError):
                drop(table_id, connection)

    def drop(table_id: str, connection: Connection) -> None:
        if connection in room(table_id).connections:
            room(table_id).connections.remove(connection)

    # -- bots and timers ---------------------------------------------------------------------
    async def seat_moved(table_id: str, seat: int) -> None:
        """The seat was taken in another browser: its old connections are told and now watch."""
        async with room(table_id).lock:
            for connection in list(room(table_id).connections):
                if connection.seat == seat:
                    connection.seat = None
                    try:
                        await connection.socket.send_json({"type": "notice", "code": "seat_moved",
                                                           "message": SEAT_MOVED})
                    except (WebSocketDisconnect, RuntimeError):
                        drop(table_id, connection)

    async def seats_changed(table_id: str) -> None:
        """After a join or a leave: wake the driver (a bot may move now) and tell everyone."""
        kick(table_id)
        async with room(table_id).lock:
            table = store.live[table_id]
            for connection in list(room(table_id).connections):
                if connection.seat is not None and table.seats[connection.seat]["kind"] == BOT:
                    connection.seat = None  # from now on this socket sees the public table only
                    try:
                        await connection.socket.send_json({"type": "notice", "code": "seat_gone",
                                                           "message": SEAT_GONE})
                    except (WebSocketDisconnect, RuntimeError):
                        drop(table_id, connection)
            await broadcast(table_id)

    def kick(table_id: str) -> None:
        """Wake the table's driver, starting it if it is not running."""
        r = room(table_id)
        r.wake.set()
        if r.driver is None or r.driver.done():
            r.driver = asyncio.get_running_loop().create_task(drive(table_id))

    def clock_for(table: LiveTable, seat: int) -> int:
        """The seconds the seat's current decision may take (0: no clock runs for it).

        A response window that may be passed is bounded by the window timer and by the turn clock
        (the shorter); any other decision by the turn clock, if running out can be dealt with: by
        passing, or by a bot deciding for the seat where the table lets bots take over."""
        prompt = table.state.pending()[seat]
        can_pass = "pass" in prompt.kinds
        limits = []
        if prompt.window and can_pass and table.window_seconds:
            limits.append(table.window_seconds)
        if table.clock_seconds and (can_pass or table.bots_take_over):
            limits.append(table.clock_seconds)
        return min(limits, default=0)

    async def update_deadlines(table: LiveTable) -> None:
        """Start a clock for each person newly asked to decide; forget the others; store them."""
        before = dict(table.deadlines)
        if table.status != "playing":
            table.deadlines.clear()
        else:
            wanted: dict[int, tuple[str, int]] = {}
            for seat, prompt in table.state.pending().items():
                if table.seats[seat]["kind"] == HUMAN and (seconds := clock_for(table, seat)):
                    wanted[seat] = (decision_key(table, seat, prompt.window), seconds)
            for seat in list(table.deadlines):
                if seat not in wanted or wanted[seat][0] != table.deadlines[seat][0]:
                    del table.deadlines[seat]
            for seat, (key, seconds) in wanted.items():
                if seat not in table.deadlines:
                    table.deadlines[seat] = (key, time.time() + seconds)
        if table.deadlines != before:
            await asyncio.to_thread(store.save_deadlines, table)

    def next_bot(table: LiveTable) -> int | None:
        if table.status != "playing":
            return None
        bots = [s for s in sorted(table.state.pending()) if table.seats[s]["kind"] == BOT]
        return bots[0] if bots else None

    async def drive(table_id: str) -> None:
        """Play bots' seats and close timed-out windows until the game ends."""
        r = room(table_id)
        table = store.live[table_id]
        while table.status not in ("over", "closed"):
            r.wake.clear()
            async with r.lock:
                await update_deadlines(table)
                seat = next_bot(table)
                number = len(table.actions)
            if seat is not None:
                await asyncio.sleep(bot_delay)
                async with r.lock:
                    if len(table.actions) != number or next_bot(table) != seat:
                        continue
                    plan = await bot_plans(table, seat)
                # The bot thinks on a copy, without the lock: people act and chat meanwhile (a
                # search or a language model may take seconds).
                action = await thinking(plan.decide)
                if action is STALE:
                    continue
                async with r.lock:
                    if table.status != "playing" or seat not in table.state.pending():
                        continue  # the decision is no longer asked; ask again
                    if (len(table.actions) != number
                            and not offered_actions(table.state, seat, plan.agent).contains(action)):
                        continue  # what changed meanwhile made it illegal: decide again
                    moved = await bot_moves(table, seat, plan, action)
                    await broadcast(table_id)
                    if not moved:
                        return  # a bot with no legal move would spin; the table waits for people
                continue
            now = time.time()
            timeout = min((d for _, d in table.deadlines.values() if d is not None), default=None)
            try:
                await asyncio.wait_for(r.wake.wait(), None if timeout is None else max(0.0, timeout - now))
            except TimeoutError:
                async with r.lock:
                    await clocks_run_out(table)

    async def bot_plans(table: LiveTable, seat: int, strategy: str | None = None) -> BotPlan:
        """What a bot needs to decide for ``seat`` (by ``strategy``, else the seat's own), on a
        copy of the state, so the decision can be made without the room's lock (hold it here)."""
        name = strategy or table.seats[seat]["strategy"]
        agent = talkers.get((table.id, seat, name)) or make_agent(get_game(table.game), store.resolve(name))
        talkers[table.id, seat, name] = agent
        chat: list[Message] = []
        if getattr(agent, "talks", False):
            rows = await asyncio.to_thread(store.chat_for, table.id, seat)
            chat = [Message(r["from"], r["text"], None if r["to"] is None else (r["to"],)) for r in rows]
        number = len(table.actions)
        return BotPlan(agent, table, number, seat, bot_rng(table.bot_secret, seat, number), chat,
                       table.names())

    async def bot_moves(table: LiveTable, seat: int, plan: BotPlan, action: Any) -> bool:
        """Play a bot's decided ``action`` (hold the room's lock); ``False`` if even a random legal
        action was refused."""
        outcome = await acting(store.act, table.id, seat, action)
        if not outcome.accepted:  # a bot must only choose legal actions; fall back to a random one
            log.error("bot %s at table %s refused: %s", seat, table.id, outcome.message)
            fallback = table.state.legal_actions(seat).sample(plan.rng)
            outcome = await acting(store.act, table.id, seat, fallback)
        await bot_says(table, seat, plan.agent)
        return outcome.accepted

    async def bot_acts(table: LiveTable, seat: int, strategy: str | None = None) -> bool:
        """One bot move at once (hold the room's lock): a clock ran out and a bot decides for a
        person. ``False`` if even a random legal action was refused."""
        plan = await bot_plans(table, seat, strategy)
        action = await thinking(plan.decide)  # nothing is applied meanwhile: the room's lock is held
        return await bot_moves(table, seat, plan, action)

    async def bot_says(table: LiveTable, seat: int, agent: Agent) -> None:
        """Post what a talking bot said to the table's chat as its seat, checked as a person's
        chat is (hold the room's lock); a message the table refuses is logged and dropped."""
        for said in take_said(agent):
            for to in said.to or (None,):
                try:
                    stored = await asyncio.to_thread(store.chat, table.id, seat, said.text, to)
                except TableError as exc:
                    log.warning("bot %s at table %s: chat refused: %s", seat, table.id, exc)
                    continue
                await deliver_chat(table.id, stored)
        if table.status in ("over", "closed"):
            for key in [k for k in talkers if k[0] == table.id]:
                done = talkers.pop(key)
                if (counters := getattr(done, "counters", None)) is not None:
                    log.info("bot %s (%s) at table %s: %s", key[1], key[2], table.id, counters.as_dict())
                if callable(close := getattr(done, "close", None)):
                    close()

    async def clocks_run_out(table: LiveTable) -> None:
        """Deal with every clock that has run out (hold the room's lock): the seat passes if it
        may, else a bot decides for it this once. A decision the person made in time has another
        key by now, so nothing is done twice and no acknowledged action is overtaken."""
        now = time.time()
        expired = sorted(s for s, (_, d) in table.deadlines.items() if d is not None and d <= now)
        for seat in expired:
            key = table.deadlines[seat][0]
            prompt = table.state.pending().get(seat)
            if (prompt is None or table.status != "playing"
                    or decision_key(table, seat, prompt.window) != key):
                continue
            table.deadlines[seat] = (key, None)  # dealt with: not again, even if refused
            if "pass" in prompt.kinds:
                await acting(store.act, table.id, seat, {"type": "pass"})
            elif table.bots_take_over:
                await bot_acts(table, seat, takeover_strategy(table.game))
        if expired:
            await broadcast(table.id)

    # -- the websocket ------------------------------------------------------------------------
    @app.websocket("/ws/{table_id}")
    async def play(socket: WebSocket, table_id: str) -> None:
        address = settings.client_address(socket.client.host if socket.client else None, socket.headers)
        await socket.accept()
        if sockets_open.get(address, 0) >= socket_limit:
            await refuse(socket, "too_many_connections",
                         f"Too many open connections: at most {socket_limit} at once from one "
                         "address. Close a table's tab, then try again.")
            return
        sockets_open[address] = sockets_open.get(address, 0) + 1
        try:
            await serve_socket(socket, table_id)
        finally:
            sockets_open[address] -= 1
            if not sockets_open[address]:
                del sockets_open[address]

    async def serve_socket(socket: WebSocket, table_id: str) -> None:
        """One connection to ``table_id``: the hello, the welcome, then its messages until it
        closes."""
        table = await asyncio.to_thread(store.live.get, table_id)  # a finished table may be rebuilt
        if table is None:
            await refuse(socket, "no_such_table", "There is no such table.")
            return
        messages = Limiter(flood_limit)
        try:
            hello = await asyncio.wait_for(receive_hello(socket, messages), settings.hello_seconds)
        except WebSocketDisconnect:
            return
        except TimeoutError:
            await refuse(socket, "no_hello", f"No hello within {settings.hello_seconds:g} seconds: a "
                                             "connection says hello first. Closing.")
            return
        version = hello.get("version")
        if hello.get("type") != "hello" or type(version) is not int or version != PROTOCOL_VERSION:
            await refuse(socket, "bad_hello", f"Say hello with protocol version {PROTOCOL_VERSION}.")
            return
        seat = None
        notice: tuple[str, str] | None = None
        token = hello.get("token")
        if token is not None and token != "":
            try:
                if not isinstance(token, str):
                    raise TableError("this invite is not valid")
                token_table, seat, held = await asyncio.to_thread(store.holds, token, hello.get("device"))
            except TableError as exc:
                await refuse(socket, "bad_token", sentence(str(exc)))
                return
            if token_table != table_id:
                await refuse(socket, "bad_token", "This invite is for another table.")
                return
            if not held:
                seat, notice = None, ("seat_moved", SEAT_MOVED)
            elif table.seats[seat]["kind"] == BOT:
                seat, notice = None, ("seat_gone", SEAT_GONE)
        connection = Connection(socket, seat, messages=messages, chats=Limiter(chat_limit))
        r = room(table_id)
        async with r.lock:
            r.connections.append(connection)
            await update_deadlines(table)
            welcome = message_for(table, connection, "welcome")
            welcome["events"] = project(table.state.log, seat)
            welcome["chat"] = await asyncio.to_thread(store.chat_for, table_id, seat)
            await socket.send_json(welcome)
            if notice:
                await socket.send_json({"type": "notice", "code": notice[0], "message": notice[1]})
            if table.status == "closed":
                await socket.send_json({"type": "notice", "code": "table_closed", "message": TABLE_CLOSED})
        try:
            while True:
                try:
                    message = await receive(socket)
                except BadMessage as exc:
                    named = {"id": exc.message_id}
                    if connection.messages.allow():
                        await error(connection, named, exc.code, str(exc))
                    else:
                        await error(connection, named, "flood", flooded)
                    continue
                if not connection.messages.allow():
                    await error(connection, message, "flood", flooded)
                    continue
                try:
                    await handle(table, connection, message)
                except (WebSocketDisconnect, asyncio.CancelledError):
                    raise
                except Exception:  # a bug of ours: say so, keep the connection, log it
                    log.exception("message %r at table %s failed", message.get("type"), table_id)
                    await error(connection, message, "server_error",
                                "The server could not handle that message; it has been logged.")
        except WebSocketDisconnect:
            pass
        finally:
            async with r.lock:
                drop(table_id, connection)

    flooded = (f"Too many messages: at most {flood_limit[0]} every {flood_limit[1]:.0f} seconds. "
               "Wait a moment.")

    async def receive_hello(socket: WebSocket, messages: Limiter) -> dict[str, Any]:
        """The first well-formed message; each malformed one before it is answered and counted."""
        while True:
            try:
                message = await receive(socket)
            except BadMessage as exc:
                allowed = messages.allow()
                await socket.send_json({"type": "error", "id": None, "code": exc.code if allowed else "flood",
                                        "message": str(exc) if allowed else flooded})
                continue
            messages.allow()
            return message

    async def refuse(socket: WebSocket, code: str, text: str) -> None:
        """Say why in an error message, then close with the same reason (code 1008, policy)."""
        await socket.send_json({"type": "error", "code": code, "message": text})
        reason = text.encode()[:120].decode(errors="ignore")  # a close reason is at most 123 bytes
        await socket.close(code=1008, reason=reason)

    async def error(connection: Connection, message: Mapping[str, Any] | None, code: str,
                    text: str) -> None:
        client_id = message.get("id") if isinstance(message, Mapping) else None
        if not isinstance(client_id, str) or len(client_id) > MAX_ACTION_ID:
            client_id = None
        await connection.socket.send_json({"type": "error", "id": client_id, "code": code,
                                           "message": text})

    async def handle(table: LiveTable, connection: Connection, message: Mapping[str, Any]) -> None:
        kind = message.get("type")
        if kind == "action":
            await on_action(table, connection, message)
        elif kind == "chat":
            await on_chat(table, connection, message)
        elif kind == "domain":
            await on_domain(table, connection, message)
        elif kind == "leave":
            await on_leave(table, connection, message)
        else:
            await error(connection, message, "malformed",
                        "Unknown message type; send action, chat, domain or leave.")

    async def on_action(table: LiveTable, connection: Connection, message: Mapping[str, Any]) -> None:
        client_id = message.get("id")
        if not isinstance(message.get("action"), dict) or not isinstance(client_id, str):
            await error(connection, message, "malformed",
                        'Send {"type": "action", "id": "...", "action": {"type": ...}}: the id is text.')
            return
        if not 1 <= len(client_id) <= MAX_ACTION_ID:
            await error(connection, message, "bad_id",
                        f"An action id is from 1 to {MAX_ACTION_ID} characters long.")
            return
        if connection.seat is None:
            await error(connection, message, "spectator", "Spectators cannot act.")
            return
        if table.seats[connection.seat]["kind"] == BOT:
            await error(connection, message, "bot_seat", "A bot plays this seat now.")
            return
        r = room(table.id)
        async with r.lock:
            outcome = await acting(store.act, table.id, connection.seat, message["action"],
                                              client_id)
            if not outcome.accepted:
                await error(connection, message, outcome.code or "refused", outcome.message or "")
                return
            await connection.socket.send_json({"type": "ack", "id": client_id, "number": outcome.number,
                                               "duplicate": outcome.duplicate})
            await broadcast(table.id)
        kick(table.id)

    async def on_chat(table: LiveTable, connection: Connection, message: Mapping[str, Any]) -> None:
        if connection.seat is None:
            await error(connection, message, "spectator", "Spectators cannot chat.")
            return
        if not connection.chats.allow():
            await error(connection, message, "flood", f"At most {chat_limit[0]} chat messages every "
                                                      f"{chat_limit[1]:.0f} seconds.")
            return
        text, to, terms = message.get("text"), message.get("to"), message.get("terms")
        if not isinstance(text, str):
            await error(connection, message, "malformed", 'Send {"type": "chat", "text": "...", "to": null}.')
            return
        try:
            said = await asyncio.to_thread(store.chat, table.id, connection.seat, text, to, terms)
        except TableError as exc:
            await error(connection, message, "bad_chat", sentence(str(exc)))
            return
        async with room(table.id).lock:
            await deliver_chat(table.id, said)

    async def deliver_chat(table_id: str, said: dict[str, Any]) -> None:
        """Send a stored chat message to the connections that may read it (hold the room's lock)."""
        said = {**said, "type": "chat"}
        for other in list(room(table_id).connections):
            if said["to"] is None or other.seat in (said["from"], said["to"]):
                try:
                    await other.socket.send_json(said)
                except (WebSocketDisconnect, RuntimeError):
                    drop(table_id, other)

    async def on_domain(table: LiveTable, connection: Connection, message: Mapping[str, Any]) -> None:
        """The domain of a parameter that depends on the ones chosen before it."""
        kind, param, chosen = message.get("kind"), message.get("param"), message.get("chosen")
        if (connection.seat is None or not isinstance(chosen, dict) or not isinstance(kind, str)
                or not isinstance(param, str)):
            await error(connection, message, "malformed",
                        'Send {"type": "domain", "kind": ..., "param": ..., "chosen": {...}}.')
            return
        async with room(table.id).lock:
            state = table.state
            seat = connection.seat
            spaces: list[ActionSpace] = [state.legal_actions(seat)] if seat in state.pending() else []
            spaces.append(state.free_actions(seat))
            family = next((f for space in spaces if (f := space.family(kind)) is not None), None)
            if family is None or param not in family.params:
                await error(connection, message, "not_allowed_now", f"You cannot {kind} now.")
                return
            for name in family.params:
                if name == param:
                    break
                why = family.domain(name, chosen).problem(name, chosen.get(name))
                if why:
                    await error(connection, message, "bad_" + kind, sentence(why))
                    return
            try:
                described = family.domain(str(param), chosen).describe()
            except (IllegalAction, KeyError, TypeError, ValueError) as exc:
                await error(connection, message, "bad_" + kind, sentence(f"cannot offer {param}: {exc}"))
                return
            await connection.socket.send_json({"type": "domain", "id": message.get("id"), "kind": kind,
                                               "param": param, "domain": described})

    async def on_leave(table: LiveTable, connection: Connection, message: Mapping[str, Any]) -> None:
        if connection.seat is None:
            await error(connection, message, "spectator", "Spectators have no seat to leave.")
            return
        try:
            await asyncio.to_thread(store.leave, table.id, connection.seat)
        except TableError as exc:
            await error(connection, message, "cannot_leave", sentence(str(exc)))
            return
        await seats_changed(table.id)

    return app


SEAT_GONE = "A bot plays this seat now; you are watching the table as a spectator."
SEAT_MOVED = "Your seat moved to another browser; you are watching the table as a spectator."
TABLE_CLOSED = "The table's creator closed this table; it takes no more moves."
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


def sentence(text: str) -> str:
    """``text`` as a sentence: a capital first and a full stop last."""
    text = text.strip()
    if text and not text[0].isupper():
        text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


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


class BadMessage(Exception):
    """A message that is not a JSON object of at most :data:`MAX_MESSAGE` characters."""

    def __init__(self, code: str, message: str, message_id: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message_id = message_id


async def receive(socket: WebSocket) -> dict[str, Any]:
    """The next message as a JSON object; raises :class:`BadMessage` for anything else."""
    frame = await socket.receive()
    if frame["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(frame.get("code", 1000))
    text = frame.get("text")
    if text is None:
        raise BadMessage("malformed", "Send text frames holding JSON objects.")
    if len(text) > MAX_MESSAGE:
        raise BadMessage("too_large", f"A message has at most {MAX_MESSAGE} characters; "
                                      f"this one has {len(text)}.")
    try:
        message = loads(text)
    except InputError as exc:
        named = exc.parsed.get("id") if isinstance(exc.parsed, dict) else None
        valid = isinstance(named, str) and len(named) <= MAX_ACTION_ID and not text_problem(named, "id", 64)
        said = f"That is not JSON: {exc}." if exc.malformed else f"That message is refused: {exc}."
        raise BadMessage("malformed", said, named if valid else None) from None
    if not isinstance(message, dict):
        raise BadMessage("malformed", "A message must be a JSON object with a \"type\".")
    return message
