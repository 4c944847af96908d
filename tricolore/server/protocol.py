"""The websocket protocol (version 1, ``docs/protocol.md``): the hello, the messages a seat sends,
their acknowledgements and errors, and what each connection is told after every change.

The checks of a message's shape are plain functions (:func:`hello_problem`,
:func:`action_problem`, :func:`chat_problem`, :func:`domain_problem`); :func:`message_for` builds a
``welcome`` or an ``update`` from a table alone. :class:`SocketProtocol` serves one socket with
them, and leaves everything that changes a table to the per-table driver
(:class:`~tricolore.server.driver.TableDriver`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from fastapi import WebSocket, WebSocketDisconnect
from sqlalchemy.exc import OperationalError

from tricolore.core.actions import ActionSpace
from tricolore.core.errors import IllegalAction
from tricolore.core.inputs import InputError, loads, text_problem
from tricolore.core.model import project
from tricolore.server.driver import (
    SEAT_GONE,
    SEAT_MOVED,
    TABLE_CLOSED,
    Elsewhere,
    SubscriberGone,
    TableDriver,
)
from tricolore.server.settings import Settings
from tricolore.server.tables import BOT, HUMAN, LiveTable, Outcome, TableError, TableStore, public_seats

DATABASE_AWAY = "The server cannot reach its database just now; try again in a moment."

PROTOCOL_VERSION = 1
MAX_MESSAGE = 16_384
"""The longest websocket message a client may send, in characters."""
FLOOD_LIMIT = (60, 10.0)
"""At most this many messages per this many seconds from one connection."""
CHAT_LIMIT = (5, 10.0)
"""At most this many chat messages per this many seconds from one connection."""
MAX_ACTION_ID = 64
"""The longest client action id, in characters."""

log = logging.getLogger("tricolore.server")

Problem = tuple[str, str]
"""A refused message: its error code and a sentence saying why."""


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


def sentence(text: str) -> str:
    """``text`` as a sentence: a capital first and a full stop last."""
    text = text.strip()
    if text and not text[0].isupper():
        text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


# -- what a message must look like ----------------------------------------------------------------
class BadMessage(Exception):
    """A message that is not a JSON object of at most :data:`MAX_MESSAGE` characters."""

    def __init__(self, code: str, message: str, message_id: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message_id = message_id


def parse_frame(text: str | None) -> dict[str, Any]:
    """A text frame's message as a JSON object; raises :class:`BadMessage` for anything else
    (``None``: a binary frame)."""
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


async def receive(socket: WebSocket) -> dict[str, Any]:
    """The next message as a JSON object; raises :class:`BadMessage` for anything else."""
    frame = await socket.receive()
    if frame["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(frame.get("code", 1000))
    return parse_frame(frame.get("text"))


def hello_problem(hello: Mapping[str, Any]) -> Problem | None:
    """Why ``hello`` does not open a connection of this protocol's version (``None``: it does)."""
    version = hello.get("version")
    if hello.get("type") != "hello" or type(version) is not int or version != PROTOCOL_VERSION:
        return "bad_hello", f"Say hello with protocol version {PROTOCOL_VERSION}."
    return None


def reply_id(message: Mapping[str, Any] | None) -> str | None:
    """The client's id of ``message``, to name in the answer (``None`` if it is not a fit one)."""
    client_id = message.get("id") if isinstance(message, Mapping) else None
    return client_id if isinstance(client_id, str) and len(client_id) <= MAX_ACTION_ID else None


def action_problem(message: Mapping[str, Any], seat: int | None, table: LiveTable) -> Problem | None:
    """Why an ``action`` message from ``seat`` (``None``: a spectator) cannot be played as sent."""
    client_id = message.get("id")
    if not isinstance(message.get("action"), dict) or not isinstance(client_id, str):
        return ("malformed",
                'Send {"type": "action", "id": "...", "action": {"type": ...}}: the id is text.')
    if not 1 <= len(client_id) <= MAX_ACTION_ID:
        return "bad_id", f"An action id is from 1 to {MAX_ACTION_ID} characters long."
    if seat is None:
        return "spectator", "Spectators cannot act."
    if table.seats[seat]["kind"] == BOT:
        return "bot_seat", "A bot plays this seat now."
    return None


def chat_problem(message: Mapping[str, Any], seat: int | None) -> Problem | None:
    """Why a ``chat`` message from ``seat`` is not one to store (its text's content is the store's
    to check)."""
    if seat is None:
        return "spectator", "Spectators cannot chat."
    if not isinstance(message.get("text"), str):
        return "malformed", 'Send {"type": "chat", "text": "...", "to": null}.'
    return None


def domain_problem(message: Mapping[str, Any], seat: int | None) -> Problem | None:
    """Why a ``domain`` question is not well formed."""
    if (seat is None or not isinstance(message.get("chosen"), dict)
            or not isinstance(message.get("kind"), str) or not isinstance(message.get("param"), str)):
        return "malformed", 'Send {"type": "domain", "kind": ..., "param": ..., "chosen": {...}}.'
    return None


def domain_answer(table: LiveTable, seat: int, kind: str, param: str,
                  chosen: Mapping[str, Any]) -> dict[str, Any] | Problem:
    """The domain of ``param`` of the action ``kind`` for ``seat``, given the parameters ``chosen``
    before it (a parameter that depends on them), or why there is none."""
    state = table.state
    spaces: list[ActionSpace] = [state.legal_actions(seat)] if seat in state.pending() else []
    spaces.append(state.free_actions(seat))
    family = next((f for space in spaces if (f := space.family(kind)) is not None), None)
    if family is None or param not in family.params:
        return "not_allowed_now", f"You cannot {kind} now."
    for name in family.params:
        if name == param:
            break
        why = family.domain(name, chosen).problem(name, chosen.get(name))
        if why:
            return "bad_" + kind, sentence(why)
    try:
        return family.domain(str(param), chosen).describe()
    except (IllegalAction, KeyError, TypeError, ValueError) as exc:
        return "bad_" + kind, sentence(f"cannot offer {param}: {exc}")


# -- what each connection is told ---------------------------------------------------------------
def view_delta(old: Mapping[str, Any], new: Mapping[str, Any]) -> dict[str, Any]:
    """The top-level fields of ``new`` that differ from ``old``, and those ``new`` no longer has."""
    return {"set": {k: v for k, v in new.items() if k not in old or old[k] != v},
            "unset": [k for k in old if k not in new]}


def final_reveal(table: LiveTable) -> dict[str, Any]:
    """The end screen: the result with each seat's breakdown, and every seat's full view."""
    return {"result": table.state.result().as_dict(),
            "views": [table.state.view(s) for s in range(table.players)],
            "strategies": table.strategies(), "takeovers": table.takeovers()}


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


def clocks_of(table: LiveTable) -> list[dict[str, Any]]:
    """Every running clock, for everyone: whose it is and the seconds it has left."""
    now = time.time()
    return [{"seat": seat, "seconds_left": max(0.0, when - now)}
            for seat, (_, when) in sorted(table.deadlines.items()) if when is not None]


@dataclass(slots=True, eq=False)
class Connection:
    """One open websocket: the seat it speaks for (``None``: a spectator) and what it was sent.
    It is one of its table's subscribers (:class:`~tricolore.server.driver.Subscriber`)."""

    socket: WebSocket
    seat: int | None
    messages: Limiter
    chats: Limiter
    sent: int = 0
    view: dict[str, Any] = field(default_factory=dict)

    async def send(self, message: Mapping[str, Any]) -> None:
        """Send ``message``; :class:`~tricolore.server.driver.SubscriberGone` if the socket closed."""
        try:
            await self.socket.send_json(message)
        except (WebSocketDisconnect, RuntimeError):
            raise SubscriberGone from None

    async def update(self, table: LiveTable) -> None:
        """Send what changed at ``table`` since this connection was last told."""
        await self.send(message_for(table, self, "update"))

    async def close(self, reason: str) -> None:
        """Close the socket: the table is served elsewhere now (1012: connect again)."""
        try:
            await self.socket.close(code=1012, reason=reason.encode()[:120].decode(errors="ignore"))
        except (WebSocketDisconnect, RuntimeError):
            raise SubscriberGone from None


def message_for(table: LiveTable, connection: Connection, kind: str) -> dict[str, Any]:
    """A ``welcome`` or an ``update`` for ``connection``: its view (whole, or what changed since it
    was last told), the events it may see since then, its prompt and the clocks. Records what it
    was told."""
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


# -- one socket -----------------------------------------------------------------------------------
async def refuse(socket: WebSocket, code: str, text: str, close_code: int = 1008) -> None:
    """Say why in an error message, then close with the same reason (code 1008, policy; 1013 for
    "try again later")."""
    await socket.send_json({"type": "error", "code": code, "message": text})
    reason = text.encode()[:120].decode(errors="ignore")  # a close reason is at most 123 bytes
    await socket.close(code=close_code, reason=reason)


class SocketProtocol:
    """Serves the application's websockets: the per-address limit, the hello, then each message
    of a connection, through the ``driver`` for anything that changes a table."""

    def __init__(self, store: TableStore, driver: TableDriver, settings: Settings,
                 flood_limit: tuple[int, float] = FLOOD_LIMIT, chat_limit: tuple[int, float] = CHAT_LIMIT,
                 socket_limit: int | None = None) -> None:
        self.store, self.driver, self.settings = store, driver, settings
        self.flood_limit, self.chat_limit = flood_limit, chat_limit
        self.socket_limit = settings.sockets_per_address if socket_limit is None else socket_limit
        self.sockets_open: dict[str, int] = {}
        self.flooded = (f"Too many messages: at most {flood_limit[0]} every {flood_limit[1]:.0f} "
                        "seconds. Wait a moment.")

    async def serve(self, socket: WebSocket, table_id: str) -> None:
        """Accept ``socket`` unless its address holds too many already, then serve it."""
        address = self.settings.client_address(socket.client.host if socket.client else None, socket.headers)
        await socket.accept()
        if self.sockets_open.get(address, 0) >= self.socket_limit:
            await refuse(socket, "too_many_connections",
                         f"Too many open connections: at most {self.socket_limit} at once from one "
                         "address. Close a table's tab, then try again.")
            return
        self.sockets_open[address] = self.sockets_open.get(address, 0) + 1
        try:
            await self.serve_socket(socket, table_id)
        except OperationalError as exc:  # before the welcome: the table could not be read
            log.warning("a socket to table %s: the database is away: %s", table_id,
                        " ".join(str(exc.orig).split()))
            with contextlib.suppress(WebSocketDisconnect, RuntimeError):
                await refuse(socket, "unavailable", DATABASE_AWAY, close_code=1013)
        finally:
            self.sockets_open[address] -= 1
            if not self.sockets_open[address]:
                del self.sockets_open[address]

    async def serve_socket(self, socket: WebSocket, table_id: str) -> None:
        """One connection to ``table_id``: the hello, the welcome, then its messages until it
        closes."""
        store = self.store
        try:
            table = await self.driver.take(table_id)  # a finished table may be rebuilt
        except Elsewhere as exc:
            await refuse(socket, "elsewhere", str(exc), close_code=1013)
            return
        if table is None:
            await refuse(socket, "no_such_table", "There is no such table.")
            return
        messages = Limiter(self.flood_limit)
        try:
            hello = await asyncio.wait_for(self.receive_hello(socket, messages), self.settings.hello_seconds)
        except WebSocketDisconnect:
            return
        except TimeoutError:
            await refuse(socket, "no_hello", f"No hello within {self.settings.hello_seconds:g} seconds: a "
                                             "connection says hello first. Closing.")
            return
        if problem := hello_problem(hello):
            await refuse(socket, *problem)
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
        connection = Connection(socket, seat, messages=messages, chats=Limiter(self.chat_limit))

        async def welcome() -> None:
            greeting = message_for(table, connection, "welcome")
            greeting["events"] = project(table.state.log, connection.seat)
            greeting["chat"] = await asyncio.to_thread(store.chat_for, table_id, connection.seat)
            await socket.send_json(greeting)
            if notice:
                await socket.send_json({"type": "notice", "code": notice[0], "message": notice[1]})
            if table.status == "closed":
                await socket.send_json({"type": "notice", "code": "table_closed", "message": TABLE_CLOSED})

        await self.driver.subscribe(table, connection, welcome)
        try:
            while True:
                try:
                    message = await receive(socket)
                except BadMessage as exc:
                    named = {"id": exc.message_id}
                    if connection.messages.allow():
                        await self.error(connection, named, exc.code, str(exc))
                    else:
                        await self.error(connection, named, "flood", self.flooded)
                    continue
                if not connection.messages.allow():
                    await self.error(connection, message, "flood", self.flooded)
                    continue
                try:
                    await self.handle(table, connection, message)
                except (WebSocketDisconnect, asyncio.CancelledError):
                    raise
                except OperationalError as exc:
                    log.warning("message %r at table %s: the database is away: %s", message.get("type"),
                                table_id, " ".join(str(exc.orig).split()))
                    await self.error(connection, message, "unavailable", DATABASE_AWAY)
                except Exception:  # a bug of ours: say so, keep the connection, log it
                    log.exception("message %r at table %s failed", message.get("type"), table_id)
                    await self.error(connection, message, "server_error",
                                     "The server could not handle that message; it has been logged.")
        except (WebSocketDisconnect, SubscriberGone):
            pass
        finally:
            await self.driver.unsubscribe(table_id, connection)

    async def receive_hello(self, socket: WebSocket, messages: Limiter) -> dict[str, Any]:
        """The first well-formed message; each malformed one before it is answered and counted."""
        while True:
            try:
                message = await receive(socket)
            except BadMessage as exc:
                allowed = messages.allow()
                await socket.send_json({"type": "error", "id": None, "code": exc.code if allowed else "flood",
                                        "message": str(exc) if allowed else self.flooded})
                continue
            messages.allow()
            return message

    @staticmethod
    async def error(connection: Connection, message: Mapping[str, Any] | None, code: str, text: str) -> None:
        """Answer ``message`` with an error: its code and a sentence."""
        await connection.socket.send_json({"type": "error", "id": reply_id(message), "code": code,
                                           "message": text})

    async def handle(self, table: LiveTable, connection: Connection, message: Mapping[str, Any]) -> None:
        """Answer one well-formed message of an open connection."""
        kind = message.get("type")
        if kind == "action":
            await self.on_action(table, connection, message)
        elif kind == "chat":
            await self.on_chat(table, connection, message)
        elif kind == "domain":
            await self.on_domain(table, connection, message)
        elif kind == "leave":
            await self.on_leave(table, connection, message)
        else:
            await self.error(connection, message, "malformed",
                             "Unknown message type; send action, chat, domain or leave.")

    async def on_action(self, table: LiveTable, connection: Connection, message: Mapping[str, Any]) -> None:
        """Play an action: committed, then acknowledged, then everyone told."""
        if problem := action_problem(message, connection.seat, table):
            await self.error(connection, message, *problem)
            return
        assert connection.seat is not None
        client_id = str(message["id"])

        async def answer(outcome: Outcome) -> None:
            if outcome.accepted:
                await connection.socket.send_json({"type": "ack", "id": client_id, "number": outcome.number,
                                                   "duplicate": outcome.duplicate})
            else:
                await self.error(connection, message, outcome.code or "refused", outcome.message or "")

        await self.driver.act(table, connection.seat, message["action"], client_id, answer)

    async def on_chat(self, table: LiveTable, connection: Connection, message: Mapping[str, Any]) -> None:
        """Store a chat message and pass it on to those who may read it."""
        if connection.seat is None:
            await self.error(connection, message, "spectator", "Spectators cannot chat.")
            return
        if not connection.chats.allow():
            await self.error(connection, message, "flood", self.chat_flooded)
            return
        if problem := chat_problem(message, connection.seat):
            await self.error(connection, message, *problem)
            return
        assert connection.seat is not None
        try:
            await self.driver.chat(table.id, connection.seat, message["text"], message.get("to"),
                                   message.get("terms"))
        except TableError as exc:
            await self.error(connection, message, "bad_chat", sentence(str(exc)))

    @property
    def chat_flooded(self) -> str:
        """The sentence for a connection over its chat limit."""
        return f"At most {self.chat_limit[0]} chat messages every {self.chat_limit[1]:.0f} seconds."

    async def on_domain(self, table: LiveTable, connection: Connection, message: Mapping[str, Any]) -> None:
        """The domain of a parameter that depends on the ones chosen before it."""
        if problem := domain_problem(message, connection.seat):
            await self.error(connection, message, *problem)
            return
        assert connection.seat is not None
        kind, param = str(message["kind"]), str(message["param"])
        async with self.driver.lock(table.id):
            answer = domain_answer(table, connection.seat, kind, param, message["chosen"])
            if isinstance(answer, tuple):
                await self.error(connection, message, *answer)
                return
            await connection.socket.send_json({"type": "domain", "id": message.get("id"), "kind": kind,
                                               "param": param, "domain": answer})

    async def on_leave(self, table: LiveTable, connection: Connection, message: Mapping[str, Any]) -> None:
        """Leave the connection's seat (a bot takes it over if the table allows it)."""
        if connection.seat is None:
            await self.error(connection, message, "spectator", "Spectators have no seat to leave.")
            return
        try:
            await self.driver.leave(table.id, connection.seat)
        except TableError as exc:
            await self.error(connection, message, "cannot_leave", sentence(str(exc)))
