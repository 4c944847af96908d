"""The per-table driver: every change to a table goes through it, in order, and everyone at the
table is told.

A :class:`TableDriver` serves the tables of one application. For each table it keeps a room:
its subscribers (anything with a ``seat``, ``send``, ``update`` and ``close``:
:class:`Subscriber`; the websocket connections in the application), the lock that orders the
table's actions and what is sent about them, and a task that lets bots play their seats after a
small delay and, when a seat's clock runs out, passes for the seat (or lets a bot decide for it,
as the table allows). Actions are applied and committed off the event loop (the store's group
commit waits in a worker thread); bots think in their own threads, on a copy of the state,
without the lock. The clocks' deadlines are stored with the table, so a restarted server keeps them.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import random
import time
from collections.abc import Awaitable, Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from sqlalchemy.exc import OperationalError

from tricolore.agents import Agent, Message, decide, make_agent, offered_actions, take_said
from tricolore.core.registry import get_game
from tricolore.server.leases import Leases
from tricolore.server.tables import (
    ACTIVE,
    BOT,
    HUMAN,
    NOT_SAVED,
    LiveTable,
    Outcome,
    TableError,
    TableStore,
    bot_rng,
    decision_key,
    takeover_strategy,
)

ACTING_THREADS = 256
"""Threads that apply actions and wait for their commit: more than the tables acting at once
under load, so that every action waiting joins the next group commit."""
THINKING_THREADS = 4
"""Threads in which bots decide."""

SEAT_GONE = "A bot plays this seat now; you are watching the table as a spectator."
SEAT_MOVED = "Your seat moved to another browser; you are watching the table as a spectator."
TABLE_CLOSED = "The table's creator closed this table; it takes no more moves."
TABLE_MOVED = "Another server process serves this table now; connect again."
ELSEWHERE = "This table is being served by another server process; connect again in a moment."

RETRY_SAVE = 1.0
"""Seconds a table's bots and clocks wait before trying again when the database could not save
their action (it is away, or its disk is full)."""

T = TypeVar("T")

log = logging.getLogger("tricolore.server")


class SubscriberGone(Exception):
    """A subscriber can no longer be sent anything (its socket closed): it is dropped."""


class Subscriber(Protocol):
    """One party told about a table: the seat it speaks for (``None``: a spectator)."""

    seat: int | None

    async def send(self, message: Mapping[str, Any]) -> None:
        """Send ``message`` as it is; raises :class:`SubscriberGone` if that is no longer possible."""

    async def update(self, table: LiveTable) -> None:
        """Send what changed at ``table`` since this subscriber was last told; raises
        :class:`SubscriberGone` if that is no longer possible."""

    async def close(self, reason: str) -> None:
        """End the subscription from this side: the table is served elsewhere from now on."""


class CreatorRefused(TableError):
    """The token is not the table's creator's."""


class Elsewhere(TableError):
    """Another server process holds the table's lease: it alone acts on the table."""


@dataclass(slots=True)
class Room:
    """A table's subscribers, the lock that orders its actions and broadcasts, and its task."""

    subscribers: list[Subscriber] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None


STALE = object()
"""What :meth:`BotPlan.decide` gives when the table moved on before the bot could look at it."""

FAULTY = object()
"""A decision that raised: the bot plays a random legal action instead."""


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

    def random_move(self) -> Any:
        """A random legal action for the seat, on the table as it is (hold the room's lock): what
        a bot plays when its own decision failed or was refused."""
        return self.table.state.legal_actions(self.seat).sample(self.rng)


class TableDriver:
    """Acts on the tables of ``store`` and tells their subscribers; bots wait ``bot_delay``
    seconds before each action. Every method runs on the application's event loop.

    With ``leases`` (several processes on one PostgreSQL database) it acts only on the tables
    whose leases it holds: it takes a table's lease when someone asks for the table (or the
    table's owner is gone and its bots or clocks must go on), rebuilding the table from the
    database first, renews its leases, and lets go of a table whose lease it lost (its
    subscribers are told to connect again). Without, this process serves every table."""

    def __init__(self, store: TableStore, bot_delay: float = 0.0, leases: Leases | None = None) -> None:
        self.store = store
        self.bot_delay = bot_delay
        self.leases = leases
        self.keeper: asyncio.Task[None] | None = None
        """The task that renews the leases and takes over tables whose owner is gone."""
        self.letting_go: set[asyncio.Task[None]] = set()
        """Tables being let go of (:meth:`lose`) after an action found their lease lapsed."""
        self.rooms: dict[str, Room] = {}
        self.talkers: dict[tuple[str, int, str], Agent] = {}
        """Every bot, kept from move to move for its table, as a simulation keeps one per seat: a
        language-model player's counters add up, and a player that counts its own free actions (a
        trained policy) cannot stall the game by starting afresh each move."""
        # Actions wait in their own threads for the group commit (one per table acting at once), and
        # bots think in theirs: neither queues behind the other nor behind the lobby's requests.
        self.actors = ThreadPoolExecutor(ACTING_THREADS, thread_name_prefix="tricolore-act")
        self.thinkers = ThreadPoolExecutor(THINKING_THREADS, thread_name_prefix="tricolore-bot")

    # -- running --------------------------------------------------------------------------------
    def start(self) -> None:
        """Drive every table being played (after a restart: its bots and clocks go on); with
        leases, those this process can take."""
        if self.leases is not None:
            self.keeper = asyncio.get_running_loop().create_task(self.keep_leases())
            return
        for table_id, table in self.store.live.items():
            if table.status == "playing":
                self.kick(table_id)

    def stop(self) -> None:
        """Stop every table's task; give up the leases held, so that another process may take the
        tables at once."""
        if self.keeper is not None:
            self.keeper.cancel()
        for room in self.rooms.values():
            if room.task is not None:
                room.task.cancel()
        if self.leases is not None:
            try:
                self.leases.release(self.leases.held())
            except Exception:  # the database is away: the leases run out by themselves
                log.warning("could not give up this process's leases; they run out in %g s",
                            self.leases.seconds)

    def owns(self, table_id: str) -> bool:
        """Whether this process may act on the table now."""
        return self.leases is None or self.leases.holds(table_id)

    async def take(self, table_id: str) -> LiveTable | None:
        """The table, ready to be acted on here (``None``: there is no such table). With leases, a
        table waiting or being played is taken if no other process holds it, and rebuilt from the
        database; :class:`Elsewhere` if another process holds it."""
        table: LiveTable | None = await asyncio.to_thread(self.store.live.get, table_id)
        leases = self.leases
        if table is None or leases is None or table.status not in ACTIVE or leases.holds(table_id):
            return table
        if table_id in self.rooms:  # served here until its lease lapsed
            if await self.regain(table_id):
                return table
            await self.lose(table_id)  # another process may have acted: let go of what was sent
        if not await asyncio.to_thread(leases.claim, table_id):
            raise Elsewhere(ELSEWHERE)
        table = await asyncio.to_thread(self.store.reload, table_id)
        if table is not None and table.status == "playing":
            self.kick(table_id)
        return table

    async def current(self, table_id: str) -> LiveTable | None:
        """The table as it stands, to be read (``None``: there is no such table): with leases, one
        served by another process is read afresh from the database."""
        if self.leases is not None and not self.owns(table_id):
            return await asyncio.to_thread(self.store.reload, table_id)
        return await asyncio.to_thread(self.store.live.get, table_id)

    async def regain(self, table_id: str) -> bool:
        """Renew the lapsed lease of a table served here (it could not be renewed in time):
        ``True`` if no other process took it meanwhile, so that the table in memory and what was
        sent stand. Raises the database's error if the database is away."""
        assert self.leases is not None
        return not await asyncio.to_thread(self.leases.renew, [table_id])

    async def taken(self, table_id: str) -> None:
        """A table created here: take its lease (nobody else knows it yet)."""
        if self.leases is not None:
            await asyncio.to_thread(self.leases.claim, table_id)

    async def lose(self, table_id: str) -> None:
        """Let go of a table whose lease this process no longer holds: its task stops, its
        subscribers are told to connect again, and it is forgotten (rebuilt if taken again)."""
        room = self.rooms.pop(table_id, None)
        if room is not None:
            if room.task is not None and room.task is not asyncio.current_task():
                room.task.cancel()
            async with room.lock:
                for subscriber in list(room.subscribers):
                    try:
                        await subscriber.send({"type": "notice", "code": "table_moved",
                                               "message": TABLE_MOVED})
                        await subscriber.close(TABLE_MOVED)
                    except SubscriberGone:
                        pass
                room.subscribers.clear()
        self.store.live.forget(table_id)
        for key in [k for k in self.talkers if k[0] == table_id]:
            del self.talkers[key]
        if self.leases is not None:
            await asyncio.to_thread(self.leases.release, [table_id])

    async def keep_leases(self) -> None:
        """Every third of a lease: renew the leases held, let go of those lost, give up those of
        finished tables, and take over the tables being played whose owner is gone."""
        leases = self.leases
        assert leases is not None
        first = True
        while True:
            try:
                if first:  # after a restart under the same name, this process's own leases
                    playing = [t for t, table in self.store.live.items() if table.status == "playing"]
                else:
                    for table_id in await asyncio.to_thread(leases.renew):
                        log.warning("table %s: lease lost; another process serves it", table_id)
                        await self.lose(table_id)
                    for table_id in leases.held():
                        table = self.store.live.get(table_id)
                        if table is None or table.status not in ACTIVE:
                            await asyncio.to_thread(leases.release, [table_id])
                        elif not leases.holds(table_id) and not await self.regain(table_id):
                            await self.lose(table_id)
                    playing = await asyncio.to_thread(leases.unserved)
                for table_id in playing:
                    if not leases.holds(table_id):
                        try:
                            if await self.take(table_id) is not None:
                                log.info("table %s: served by this process now", table_id)
                        except Elsewhere:
                            pass
                first = False
            except asyncio.CancelledError:
                raise
            except OperationalError as exc:  # the database is away: try again at the next turn
                log.warning("could not renew this process's leases: %s", " ".join(str(exc.orig).split()))
            except Exception:
                log.exception("could not keep this process's leases")
            await asyncio.sleep(leases.renew_every)

    async def acting(self, func: Callable[..., T], /, *args: Any) -> T:
        """``func(*args)`` in an action's thread: a store call that waits for its commit."""
        return await asyncio.get_running_loop().run_in_executor(self.actors, functools.partial(func, *args))

    async def thinking(self, func: Callable[[], T]) -> T:
        """``func()`` in a bot's thread: a decision, made without the room's lock."""
        return await asyncio.get_running_loop().run_in_executor(self.thinkers, func)

    def room(self, table_id: str) -> Room:
        """The table's room, made when first asked for."""
        room = self.rooms.get(table_id)
        if room is None:
            room = self.rooms[table_id] = Room()
        return room

    def lock(self, table_id: str) -> asyncio.Lock:
        """The lock that orders the table's actions and what is sent about them."""
        return self.room(table_id).lock

    def kick(self, table_id: str) -> None:
        """Wake the table's task, starting it if it is not running (and the table is served here)."""
        if not self.owns(table_id):
            return
        room = self.room(table_id)
        room.wake.set()
        if room.task is None or room.task.done():
            room.task = asyncio.get_running_loop().create_task(self.drive(table_id))

    # -- subscribers ------------------------------------------------------------------------------
    async def subscribe(self, table: LiveTable, subscriber: Subscriber,
                        welcome: Callable[[], Awaitable[None]]) -> None:
        """Add ``subscriber`` to the table, with its clocks brought up to date, and ``welcome`` it
        before anything else is sent to it."""
        async with self.lock(table.id):
            self.room(table.id).subscribers.append(subscriber)
            await self.update_deadlines(table)
            await welcome()

    async def unsubscribe(self, table_id: str, subscriber: Subscriber) -> None:
        """Tell ``subscriber`` nothing more."""
        async with self.lock(table_id):
            self.drop(table_id, subscriber)

    def drop(self, table_id: str, subscriber: Subscriber) -> None:
        """Forget ``subscriber`` (hold the room's lock)."""
        subscribers = self.room(table_id).subscribers
        if subscriber in subscribers:
            subscribers.remove(subscriber)

    async def tell(self, table_id: str, subscriber: Subscriber, message: Mapping[str, Any]) -> None:
        """Send ``message`` to ``subscriber``, dropping it if it is gone (hold the room's lock)."""
        try:
            await subscriber.send(message)
        except SubscriberGone:
            self.drop(table_id, subscriber)

    async def broadcast(self, table_id: str) -> None:
        """Send every subscriber of the table what changed for it (hold the room's lock)."""
        table = self.store.live[table_id]
        await self.update_deadlines(table)
        for subscriber in list(self.room(table_id).subscribers):
            try:
                await subscriber.update(table)
            except SubscriberGone:
                self.drop(table_id, subscriber)

    # -- what people do ----------------------------------------------------------------------------
    async def act(self, table: LiveTable, seat: int, action: Mapping[str, Any], client_id: str | None,
                  answer: Callable[[Outcome], Awaitable[None]]) -> Outcome:
        """Apply ``action`` for ``seat`` and commit it, then ``answer`` its outcome (the ack or the
        refusal), then, if it was accepted, tell everyone and wake the table's task."""
        if not self.owns(table.id):
            try:
                regained = await self.regain(table.id)
            except OperationalError:  # the action could not be saved either
                outcome = Outcome(False, code="not_saved", message=NOT_SAVED)
                await answer(outcome)
                return outcome
            if not regained:
                outcome = Outcome(False, code="elsewhere", message=ELSEWHERE)
                await answer(outcome)
                task = asyncio.get_running_loop().create_task(self.lose(table.id))
                self.letting_go.add(task)
                task.add_done_callback(self.letting_go.discard)
                return outcome
        async with self.lock(table.id):
            outcome = await self.acting(self.store.act, table.id, seat, action, client_id)
            await answer(outcome)
            if not outcome.accepted:
                return outcome
            await self.broadcast(table.id)
        self.kick(table.id)
        return outcome

    async def chat(self, table_id: str, seat: int, text: str, to: Any, terms: Any) -> None:
        """Store a chat message from ``seat`` and deliver it; a :class:`TableError` if refused."""
        if not self.owns(table_id):
            raise Elsewhere(ELSEWHERE)
        said = await asyncio.to_thread(self.store.chat, table_id, seat, text, to, terms)
        async with self.lock(table_id):
            await self.deliver_chat(table_id, said)

    async def deliver_chat(self, table_id: str, said: dict[str, Any]) -> None:
        """Send a stored chat message to the subscribers that may read it (hold the room's lock)."""
        said = {**said, "type": "chat"}
        for other in list(self.room(table_id).subscribers):
            if said["to"] is None or other.seat in (said["from"], said["to"]):
                await self.tell(table_id, other, said)

    async def leave(self, table_id: str, seat: int) -> str:
        """The seat's person leaves (a bot takes over if the table allows it); the strategy that
        plays it now. A :class:`TableError` if the seat cannot be left."""
        await self.take(table_id)
        strategy = await asyncio.to_thread(self.store.leave, table_id, seat)
        await self.seats_changed(table_id)
        return strategy

    async def join(self, token: str, name: str, device: str | None, move: bool) -> tuple[str, int]:
        """Take the seat ``token`` opens (see :meth:`TableStore.join`); its table and seat."""
        table_id, _ = await asyncio.to_thread(self.store.seat_of, token)
        await self.take(table_id)
        async with self.lock(table_id):  # a bot handing the seat back must not be mid-move
            table_id, seat = await asyncio.to_thread(self.store.join, token, name, device, move)
        if move:
            await self.seat_moved(table_id, seat)
        await self.seats_changed(table_id)
        return table_id, seat

    async def close(self, table_id: str, creator: str) -> None:
        """The creator closes the table: everyone is told, and it takes no more actions.
        :class:`CreatorRefused` for anyone else; a :class:`TableError` if it cannot be closed."""
        await self.take(table_id)
        async with self.lock(table_id):
            try:
                await asyncio.to_thread(self.store.check_creator, table_id, creator)
            except TableError as exc:
                raise CreatorRefused(str(exc)) from None
            await asyncio.to_thread(self.store.close, table_id, creator)
            for subscriber in list(self.room(table_id).subscribers):
                await self.tell(table_id, subscriber, {"type": "notice", "code": "table_closed",
                                                       "message": TABLE_CLOSED})
            await self.broadcast(table_id)
        self.kick(table_id)

    async def seat_moved(self, table_id: str, seat: int) -> None:
        """The seat was taken in another browser: its old subscribers are told and now watch."""
        async with self.lock(table_id):
            for subscriber in list(self.room(table_id).subscribers):
                if subscriber.seat == seat:
                    subscriber.seat = None
                    await self.tell(table_id, subscriber, {"type": "notice", "code": "seat_moved",
                                                           "message": SEAT_MOVED})

    async def seats_changed(self, table_id: str) -> None:
        """After a join or a leave: wake the table's task (a bot may move now) and tell everyone."""
        self.kick(table_id)
        async with self.lock(table_id):
            table = self.store.live[table_id]
            for subscriber in list(self.room(table_id).subscribers):
                if subscriber.seat is not None and table.seats[subscriber.seat]["kind"] == BOT:
                    subscriber.seat = None  # from now on it sees the public table only
                    await self.tell(table_id, subscriber, {"type": "notice", "code": "seat_gone",
                                                           "message": SEAT_GONE})
            await self.broadcast(table_id)

    # -- clocks -----------------------------------------------------------------------------------
    @staticmethod
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

    async def update_deadlines(self, table: LiveTable) -> None:
        """Start a clock for each person newly asked to decide; forget the others; store them."""
        before = dict(table.deadlines)
        if table.status != "playing":
            table.deadlines.clear()
        else:
            wanted: dict[int, tuple[str, int]] = {}
            for seat, prompt in table.state.pending().items():
                if table.seats[seat]["kind"] == HUMAN and (seconds := self.clock_for(table, seat)):
                    wanted[seat] = (decision_key(table, seat, prompt.window), seconds)
            for seat in list(table.deadlines):
                if seat not in wanted or wanted[seat][0] != table.deadlines[seat][0]:
                    del table.deadlines[seat]
            for seat, (key, seconds) in wanted.items():
                if seat not in table.deadlines:
                    table.deadlines[seat] = (key, time.time() + seconds)
        if table.deadlines != before:
            await asyncio.to_thread(self.store.save_deadlines, table)

    async def clocks_run_out(self, table: LiveTable) -> None:
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
                outcome = await self.acting(self.store.act, table.id, seat, {"type": "pass"})
            elif table.bots_take_over:
                outcome = await self.bot_acts(table, seat, takeover_strategy(table.game))
            else:
                continue
            if outcome.code == "not_saved":  # the database is away: deal with it again soon
                table.deadlines[seat] = (key, time.time() + RETRY_SAVE)
        if expired:
            await self.broadcast(table.id)

    # -- bots -------------------------------------------------------------------------------------
    @staticmethod
    def next_bot(table: LiveTable) -> int | None:
        """The first seat a bot plays that is asked to decide, if the table is being played."""
        if table.status != "playing":
            return None
        bots = [s for s in sorted(table.state.pending()) if table.seats[s]["kind"] == BOT]
        return bots[0] if bots else None

    async def drive(self, table_id: str) -> None:
        """Play bots' seats and close timed-out windows until the game ends; while the database
        is away, try again every :data:`RETRY_SAVE` seconds."""
        room = self.room(table_id)
        table = self.store.live[table_id]
        while table.status not in ("over", "closed"):
            try:
                going = await self.step(table, room)
            except OperationalError as exc:
                log.warning("table %s: bots and clocks wait for the database: %s", table_id,
                            " ".join(str(exc.orig).split()))
                await asyncio.sleep(RETRY_SAVE)
                going = True
            except Exception:  # a fault in one move must not leave the table waiting for ever
                log.exception("table %s: its bots and clocks try again after an error", table_id)
                await asyncio.sleep(RETRY_SAVE)
                going = True
            if not going:
                return

    async def step(self, table: LiveTable, room: Room) -> bool:
        """One turn of the table's task: a bot's move, or a wait for news or for a clock to run
        out. ``False`` when the task ends (a bot whose every move is refused)."""
        if not self.owns(table.id):
            assert self.leases is not None  # the keeper renews the lease, or lets go of the table
            await asyncio.sleep(self.leases.renew_every)
            return True
        room.wake.clear()
        async with room.lock:
            await self.update_deadlines(table)
            seat = self.next_bot(table)
            number = len(table.actions)
        if seat is not None:
            await asyncio.sleep(self.bot_delay)
            async with room.lock:
                if len(table.actions) != number or self.next_bot(table) != seat:
                    return True
                plan = await self.bot_plans(table, seat)
            # The bot thinks on a copy, without the lock: people act and chat meanwhile (a
            # search or a language model may take seconds).
            action = await self.bot_decides(plan)
            if action is STALE:
                return True
            async with room.lock:
                if table.status != "playing" or seat not in table.state.pending():
                    return True  # the decision is no longer asked; ask again
                if action is FAULTY:
                    action = plan.random_move()
                if (len(table.actions) != number
                        and not offered_actions(table.state, seat, plan.agent).contains(action)):
                    return True  # what changed meanwhile made it illegal: decide again
                outcome = await self.bot_moves(table, seat, plan, action)
                await self.broadcast(table.id)
            if outcome.code == "not_saved":  # the database is away: the bot tries again
                await asyncio.sleep(RETRY_SAVE)
                return True
            return outcome.accepted  # a bot with no legal move would spin; the table waits for people
        now = time.time()
        timeout = min((d for _, d in table.deadlines.values() if d is not None), default=None)
        try:
            await asyncio.wait_for(room.wake.wait(), None if timeout is None else max(0.0, timeout - now))
        except TimeoutError:
            async with room.lock:
                await self.clocks_run_out(table)
        return True

    async def bot_plans(self, table: LiveTable, seat: int, strategy: str | None = None) -> BotPlan:
        """What a bot needs to decide for ``seat`` (by ``strategy``, else the seat's own), on a
        copy of the state, so the decision can be made without the room's lock (hold it here)."""
        name = strategy or table.seats[seat]["strategy"]
        agent = self.talkers.get((table.id, seat, name)) or make_agent(get_game(table.game),
                                                                       self.store.resolve(name))
        self.talkers[table.id, seat, name] = agent
        chat: list[Message] = []
        if getattr(agent, "talks", False):
            rows = await asyncio.to_thread(self.store.chat_for, table.id, seat)
            chat = [Message(r["from"], r["text"], None if r["to"] is None else (r["to"],)) for r in rows]
        number = len(table.actions)
        return BotPlan(agent, table, number, seat, bot_rng(table.bot_secret, seat, number), chat,
                       table.names())

    async def bot_moves(self, table: LiveTable, seat: int, plan: BotPlan, action: Any) -> Outcome:
        """Play a bot's decided ``action`` (hold the room's lock); refused only if even a random
        legal action was refused, or the database could not save it (``not_saved``)."""
        outcome = await self.acting(self.store.act, table.id, seat, action)
        if not outcome.accepted and outcome.code != "not_saved":
            # a bot must only choose legal actions; fall back to a random one
            log.error("bot %s at table %s refused: %s", seat, table.id, outcome.message)
            fallback = plan.random_move()
            outcome = await self.acting(self.store.act, table.id, seat, fallback)
        await self.bot_says(table, seat, plan.agent)
        return outcome

    async def bot_decides(self, plan: BotPlan) -> Any:
        """The bot's decision (in a bot's thread), :data:`STALE`, or :data:`FAULTY` if its strategy
        raised (logged with the error)."""
        try:
            return await self.thinking(plan.decide)
        except Exception:
            log.exception("bot %s at table %s could not decide; it plays a random legal action",
                          plan.seat, plan.table.id)
            return FAULTY

    async def bot_acts(self, table: LiveTable, seat: int, strategy: str | None = None) -> Outcome:
        """One bot move at once (hold the room's lock): a clock ran out and a bot decides for a
        person. Refused as :meth:`bot_moves` says."""
        plan = await self.bot_plans(table, seat, strategy)
        action = await self.bot_decides(plan)  # nothing is applied meanwhile: the room's lock is held
        if action is FAULTY:
            action = plan.random_move()
        return await self.bot_moves(table, seat, plan, action)

    async def bot_says(self, table: LiveTable, seat: int, agent: Agent) -> None:
        """Post what a talking bot said to the table's chat as its seat, checked as a person's
        chat is (hold the room's lock); a message the table refuses is logged and dropped."""
        for said in take_said(agent):
            for to in said.to or (None,):
                try:
                    stored = await asyncio.to_thread(self.store.chat, table.id, seat, said.text, to)
                except TableError as exc:
                    log.warning("bot %s at table %s: chat refused: %s", seat, table.id, exc)
                    continue
                await self.deliver_chat(table.id, stored)
        if table.status in ("over", "closed"):
            for key in [k for k in self.talkers if k[0] == table.id]:
                done = self.talkers.pop(key)
                if (counters := getattr(done, "counters", None)) is not None:
                    log.info("bot %s (%s) at table %s: %s", key[1], key[2], table.id, counters.as_dict())
                if callable(close := getattr(done, "close", None)):
                    close()
