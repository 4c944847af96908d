"""The web application: REST for the lobby, one websocket per seat or spectator.

Protocol version 1, in short (``docs/protocol.md`` will hold the full text):

- the client opens ``/ws/{table_id}`` and sends ``{"type": "hello", "version": 1, "token": ...}``
  (no token: a spectator); the server answers ``{"type": "welcome", "seat", "view", "events"}``;
- the client sends ``{"type": "action", "id": client_action_id, "action": {...}}``; the server
  commits the action, then answers ``{"type": "ack", "id", "number"}`` or ``{"type": "error", "id",
  "code", "message"}``, and sends every connection ``{"type": "update", "view", "events"}`` with
  the events that connection may see.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from fastapi import FastAPI, HTTPException, WebSocket, WebSocketDisconnect
from pydantic import BaseModel

from tricolore.agents import make_agent, offered_actions, strategy_names
from tricolore.core import OptionsError
from tricolore.core.model import project
from tricolore.core.registry import get_game, list_games
from tricolore.server.tables import BOT, TableError, TableStore, bot_rng

PROTOCOL_VERSION = 1
MAX_MESSAGE = 16_384


class NewTable(BaseModel):
    """A lobby request for a table."""

    game: str
    players: int
    seats: list[str]
    options: dict[str, Any] = {}
    bots_take_over: bool = True


class Join(BaseModel):
    """Taking a seat with its invite token."""

    token: str
    name: str = ""


@dataclass(slots=True)
class Connection:
    """One open websocket: the seat it speaks for (``None``: a spectator) and the events sent."""

    socket: WebSocket
    seat: int | None
    sent: int = 0


@dataclass(slots=True)
class Hub:
    """The connections of every table, and the one lock that orders actions and broadcasts."""

    connections: dict[str, list[Connection]] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


def create_app(store: TableStore, bot_delay: float = 0.0) -> FastAPI:
    """The application over ``store``; bots wait ``bot_delay`` seconds before each action."""
    app = FastAPI(title="Tricolore")
    hub = Hub()

    @app.get("/api/games")
    def games() -> list[dict[str, Any]]:
        out = []
        for info in list_games():
            game = get_game(info.name)
            out.append({"name": info.name, "title": info.title, "min_players": info.min_players,
                        "max_players": info.max_players, "summary": info.summary,
                        "options": info.options().as_dict(), "strategies": strategy_names(game)})
        return out

    @app.post("/api/tables")
    async def create_table(request: NewTable) -> dict[str, Any]:
        try:
            created = store.create(request.game, request.players, request.seats, request.options,
                                   bots_take_over=request.bots_take_over)
        except (TableError, OptionsError) as exc:
            raise HTTPException(400, str(exc)) from None
        async with hub.lock:
            await run_bots(created.table_id)
        return {"table_id": created.table_id,
                "invites": {str(s): f"/table/{created.table_id}#invite={t}"
                            for s, t in created.invites.items()},
                "spectate": f"/table/{created.table_id}"}

    @app.get("/api/tables")
    def waiting_tables() -> list[dict[str, Any]]:
        return [{"table_id": t.id, "game": t.game, "players": t.players,
                 "open_seats": t.open_seats()} for t in store.waiting()]

    @app.post("/api/join")
    async def join(request: Join) -> dict[str, Any]:
        try:
            table_id, seat = store.join(request.token, request.name)
        except TableError as exc:
            raise HTTPException(400, str(exc)) from None
        async with hub.lock:
            await run_bots(table_id)
            await broadcast(table_id, 0)
        return {"table_id": table_id, "seat": seat}

    @app.get("/api/tables/{table_id}/record")
    def record(table_id: str) -> dict[str, Any]:
        table = store.live.get(table_id)
        if table is None:
            raise HTTPException(404, "There is no such table.")
        if table.status != "over":
            raise HTTPException(409, "The record is available when the game is over.")
        return {"format": 1, "game": table.game, "rules_version": table.state.info.rules_version,
                "players": table.players, "seed": table.seed, "options": table.options,
                "actions": [{"seat": s, "action": a} for s, a in table.actions], "digests": []}

    async def send_update(table_id: str, connection: Connection) -> None:
        table = store.live[table_id]
        events = project(table.state.log[connection.sent:], connection.seat)
        connection.sent = len(table.state.log)
        await connection.socket.send_json({"type": "update", "view": table.state.view(connection.seat),
                                           "events": events, "status": table.status})

    async def broadcast(table_id: str, _since: int) -> None:
        for connection in list(hub.connections.get(table_id, [])):
            try:
                await send_update(table_id, connection)
            except (WebSocketDisconnect, RuntimeError):
                hub.connections[table_id].remove(connection)

    async def run_bots(table_id: str) -> None:
        """Let bots play while a bot is asked and the table is playing."""
        table = store.live[table_id]
        while table.status == "playing" and not table.state.is_over():
            pending = table.state.pending()
            bots = [s for s in sorted(pending) if table.seats[s]["kind"] == BOT]
            if not bots:
                return
            seat = bots[0]
            if bot_delay:
                await asyncio.sleep(bot_delay)
            agent = make_agent(get_game(table.game), table.seats[seat]["strategy"])
            rng = bot_rng(table_id, seat, len(table.actions))
            action = agent.act(table.state.view(seat), offered_actions(table.state, seat, agent), rng)
            outcome = store.act(table_id, seat, action)
            if not outcome.accepted:
                return

    @app.websocket("/ws/{table_id}")
    async def play(socket: WebSocket, table_id: str) -> None:
        await socket.accept()
        if table_id not in store.live:
            await socket.send_json({"type": "error", "code": "no_such_table",
                                    "message": "There is no such table."})
            await socket.close()
            return
        hello = await receive(socket)
        if hello is None or hello.get("type") != "hello" or hello.get("version") != PROTOCOL_VERSION:
            await socket.send_json({"type": "error", "code": "bad_hello",
                                    "message": f"Say hello with protocol version {PROTOCOL_VERSION}."})
            await socket.close()
            return
        seat = None
        if hello.get("token"):
            try:
                token_table, seat = store.seat_of(str(hello["token"]))
            except TableError as exc:
                await socket.send_json({"type": "error", "code": "bad_token", "message": str(exc)})
                await socket.close()
                return
            if token_table != table_id:
                await socket.send_json({"type": "error", "code": "bad_token",
                                        "message": "This invite is for another table."})
                await socket.close()
                return
        connection = Connection(socket, seat)
        async with hub.lock:
            hub.connections.setdefault(table_id, []).append(connection)
            table = store.live[table_id]
            connection.sent = len(table.state.log)
            await socket.send_json({"type": "welcome", "version": PROTOCOL_VERSION, "seat": seat,
                                    "view": table.state.view(seat),
                                    "events": project(table.state.log, seat), "status": table.status})
        try:
            while True:
                message = await receive(socket)
                if message is None:
                    await socket.send_json({"type": "error", "code": "malformed",
                                            "message": "Messages must be JSON objects of at most "
                                                       f"{MAX_MESSAGE} bytes."})
                    continue
                await handle(table_id, connection, message)
        except WebSocketDisconnect:
            async with hub.lock:
                if connection in hub.connections.get(table_id, []):
                    hub.connections[table_id].remove(connection)

    async def handle(table_id: str, connection: Connection, message: Mapping[str, Any]) -> None:
        client_id = message.get("id")
        if message.get("type") != "action" or not isinstance(message.get("action"), dict):
            await connection.socket.send_json({"type": "error", "id": client_id, "code": "malformed",
                                               "message": "Send {\"type\": \"action\", \"id\": ..., "
                                                          "\"action\": {...}}."})
            return
        if connection.seat is None:
            await connection.socket.send_json({"type": "error", "id": client_id, "code": "spectator",
                                               "message": "Spectators cannot act."})
            return
        async with hub.lock:
            outcome = store.act(table_id, connection.seat, message["action"],
                                None if client_id is None else str(client_id)[:64])
            if not outcome.accepted:
                await connection.socket.send_json({"type": "error", "id": client_id,
                                                   "code": outcome.code, "message": outcome.message})
                return
            await connection.socket.send_json({"type": "ack", "id": client_id, "number": outcome.number,
                                               "duplicate": outcome.duplicate})
            await run_bots(table_id)
            await broadcast(table_id, 0)

    return app


async def receive(socket: WebSocket) -> dict[str, Any] | None:
    """The next message as a JSON object, or ``None`` if it is not one or is too long."""
    text = await socket.receive_text()
    if len(text) > MAX_MESSAGE:
        return None
    try:
        message = json.loads(text)
    except json.JSONDecodeError:
        return None
    return message if isinstance(message, dict) else None
