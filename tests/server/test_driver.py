"""The per-table driver without an application: a real store on an SQLite file, and subscribers
that keep what they are sent instead of sockets."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import new_store
from tests.server.wire import SHORT
from tricolore.core.record import replay
from tricolore.server.db import sqlite_url
from tricolore.server.driver import SEAT_GONE, TABLE_CLOSED, CreatorRefused, SubscriberGone, TableDriver
from tricolore.server.tables import LiveTable, Outcome, TableStore


class Listener:
    """A subscriber that keeps every message and every update it is sent (as the table's action
    count then), or is gone once ``gone`` is set."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.sent: list[Mapping[str, Any]] = []
        self.updates: list[int] = []
        self.gone = False

    async def send(self, message: Mapping[str, Any]) -> None:
        if self.gone:
            raise SubscriberGone
        self.sent.append(dict(message))

    async def update(self, table: LiveTable) -> None:
        if self.gone:
            raise SubscriberGone
        self.updates.append(len(table.actions))

    async def close(self, reason: str) -> None:
        self.gone = True


@pytest.fixture
def store(tmp_path: Path) -> Iterator[TableStore]:
    store = new_store(sqlite_url(tmp_path / "tables.db"))
    yield store
    store.engine.dispose()


def run(body: Callable[[TableDriver], Awaitable[None]], store: TableStore) -> None:
    """Run ``body`` with a driver over ``store`` on a fresh event loop, then stop the driver."""
    async def main() -> None:
        driver = TableDriver(store)
        try:
            await body(driver)
        finally:
            driver.stop()
            driver.actors.shutdown(wait=True)
            driver.thinkers.shutdown(wait=True)
    asyncio.run(main())


async def until(condition: Callable[[], bool], seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the driver did not get there in time"
        await asyncio.sleep(0.01)


def bots_play_to_the_end(store: TableStore, table_id: str) -> None:
    """Start the table's bots with a driver over ``store`` and wait until its game is over."""
    async def body(driver: TableDriver) -> None:
        driver.kick(table_id)
        await until(lambda: store.live[table_id].status == "over")

    run(body, store)


def people_at(store: TableStore, seats: list[str], **extra: Any) -> str:
    """A bread-and-circuses table with ``seats``, every open one joined."""
    created = store.create("bread-and-circuses", len(seats), seats, SHORT["bread-and-circuses"], seed=5,
                           **extra)
    for seat, token in created.invites.items():
        store.join(token, f"Person {seat}")
    return created.table_id


def test_bots_play_a_table_to_its_end_and_every_subscriber_sees_each_move(store):
    table_id = people_at(store, ["random", "random", "random"])
    watcher, gone = Listener(None), Listener(None)

    async def body(driver: TableDriver) -> None:
        table = store.live[table_id]
        for listener in (watcher, gone):
            await driver.subscribe(table, listener, lambda: asyncio.sleep(0))
        gone.gone = True
        driver.kick(table_id)
        await until(lambda: store.live[table_id].status == "over")
        assert gone not in driver.room(table_id).subscribers

    run(body, store)
    table = store.live[table_id]
    assert watcher.updates == list(range(1, len(table.actions) + 1))  # one update per bot action, in order
    assert gone.updates == []
    stored = new_store(str(store.engine.url)).live[table_id]  # rebuilt from the database alone
    assert stored.actions == table.actions
    assert replay(table.record()).digest() == table.state.digest()


def test_a_persons_action_is_answered_before_anyone_is_told_and_a_refusal_tells_nobody(store):
    table_id = people_at(store, ["open", "open", "open"])
    person, watcher = Listener(0), Listener(None)
    answers: list[tuple[Outcome, list[int]]] = []

    async def answer(outcome: Outcome) -> None:
        answers.append((outcome, list(watcher.updates)))

    async def body(driver: TableDriver) -> None:
        table = store.live[table_id]
        for listener in (person, watcher):
            await driver.subscribe(table, listener, lambda: asyncio.sleep(0))
        await driver.act(table, 0, {"type": "ready"}, "a1", answer)
        await driver.act(table, 0, {"type": "ready"}, "a1", answer)  # a resend
        await driver.act(table, 1, {"type": "fly"}, "b1", answer)

    run(body, store)
    (first, told_then), (again, _), (refused, _) = answers
    assert first.accepted and told_then == [] and first.number == 0
    assert again.accepted and again.duplicate and again.number == 0
    assert not refused.accepted and refused.code == "not_allowed_now"
    assert watcher.updates == [1, 1] and person.updates == [1, 1]  # the resend is broadcast, the refusal not
    assert len(store.live[table_id].actions) == 1


def test_a_private_message_reaches_only_its_two_seats(store):
    table_id = people_at(store, ["open", "open", "open"])
    listeners = [Listener(0), Listener(1), Listener(2), Listener(None)]

    async def body(driver: TableDriver) -> None:
        table = store.live[table_id]
        for listener in listeners:
            await driver.subscribe(table, listener, lambda: asyncio.sleep(0))
        await driver.chat(table_id, 0, "Between us", 2, None)
        await driver.chat(table_id, 1, "To all", None, None)

    run(body, store)
    texts = [[m["text"] for m in listener.sent if m["type"] == "chat"] for listener in listeners]
    assert texts == [["Between us", "To all"], ["To all"], ["Between us", "To all"], ["To all"]]


def test_a_run_out_clock_lets_a_bot_decide_for_the_seat_and_a_leaver_is_told_a_bot_plays(store):
    table_id = people_at(store, ["open", "random", "random"], clock_seconds=1)
    person = Listener(0)

    async def body(driver: TableDriver) -> None:
        table = store.live[table_id]
        await driver.subscribe(table, person, lambda: asyncio.sleep(0))
        assert table.deadlines[0][1] is not None and table.deadlines[0][1] - time.time() <= 1
        started = time.monotonic()
        driver.kick(table_id)
        await until(lambda: any(seat == 0 for seat, _ in table.actions), seconds=10)
        assert time.monotonic() - started >= 0.9  # not before the clock ran out
        await driver.leave(table_id, 0)
        assert person.seat is None

    run(body, store)
    assert {"type": "notice", "code": "seat_gone", "message": SEAT_GONE} in person.sent
    reloaded = new_store(str(store.engine.url)).live[table_id]
    assert reloaded.seats[0]["kind"] == "bot"


def test_only_the_creator_closes_a_table_and_everyone_is_told(store):
    created = store.create("bread-and-circuses", 3, ["open", "random", "random"], seed=2)
    watcher = Listener(None)

    async def body(driver: TableDriver) -> None:
        table = store.live[created.table_id]
        await driver.subscribe(table, watcher, lambda: asyncio.sleep(0))
        with pytest.raises(CreatorRefused):
            await driver.close(created.table_id, "not-the-creator")
        assert watcher.sent == [] and table.status == "waiting"
        await driver.close(created.table_id, created.creator)

    run(body, store)
    assert watcher.sent == [{"type": "notice", "code": "table_closed", "message": TABLE_CLOSED}]
    assert watcher.updates == [0] and store.live[created.table_id].status == "closed"


def test_bots_wait_for_the_database_and_play_on_once_it_is_back(store, monkeypatch):
    table_id = people_at(store, ["random", "random", "random"])
    real_act = store.act
    refused: list[int] = []

    def act(*args: Any, **kwargs: Any) -> Outcome:
        if len(refused) < 2:  # the database is away for the first two actions
            refused.append(len(store.live[table_id].actions))
            return Outcome(False, code="not_saved", message="not saved")
        return real_act(*args, **kwargs)

    monkeypatch.setattr(store, "act", act)

    bots_play_to_the_end(store, table_id)
    assert refused == [0, 0]  # the same first move, tried again, not replaced by another
    assert len(store.live[table_id].actions) > 0


def test_a_bot_whose_strategy_fails_plays_a_random_legal_move_and_the_table_goes_on(
        store, monkeypatch, no_traceback_in_the_server_log):
    import tricolore.server.driver as driver_module

    table_id = people_at(store, ["random", "random", "random"])
    real_decide = driver_module.decide
    calls: list[int] = []

    def failing(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) in (2, 3):  # the strategy raises on its second and third decisions
            raise RuntimeError("a fault in the strategy")
        return real_decide(*args, **kwargs)

    monkeypatch.setattr(driver_module, "decide", failing)

    bots_play_to_the_end(store, table_id)
    assert len(calls) > 3
    # each fault is logged with its traceback (and only those: the shared check reads the rest)
    logged = no_traceback_in_the_server_log.found
    assert len(logged) == 2
    assert all("could not decide; it plays a random legal action" in r.getMessage() for r in logged)
    assert all("a fault in the strategy" in str(r.exc_info[1]) for r in logged)
    logged.clear()
    table = store.live[table_id]
    assert replay(table.record()).digest() == table.state.digest()
