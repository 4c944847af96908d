"""Leases on a real PostgreSQL database, in this process: who serves a table, a lease that runs
out and is taken, and a driver letting go of a table whose lease it lost."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import new_store
from tests.server.wire import SHORT
from tricolore.core import OptionsError
from tricolore.server.db import make_engine, sqlite_url
from tricolore.server.driver import TABLE_MOVED, Elsewhere, SubscriberGone, TableDriver
from tricolore.server.leases import Leases
from tricolore.server.tables import LiveTable, TableStore

_names = iter(range(10**6))


@pytest.fixture
def store(postgres_url: str) -> Iterator[TableStore]:
    name = f"leases{os.getpid()}_{next(_names)}"
    engine = make_engine(postgres_url)
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as c:
        c.exec_driver_sql(f"CREATE DATABASE {name}")
    engine.dispose()
    store = new_store(postgres_url.rsplit("/", 1)[0] + "/" + name)
    yield store
    store.engine.dispose()


def playing(store: TableStore) -> str:
    created = store.create("bread-and-circuses", 3, ["open", "random", "random"], SHORT["bread-and-circuses"],
                           seed=1)
    store.join(created.invites[0], "Marat")
    return created.table_id


def test_one_process_holds_a_lease_until_it_runs_out(store):
    table_id = playing(store)
    a, b = Leases(store.engine, "a", 1), Leases(store.engine, "b", 1)
    assert a.unserved() == [table_id]
    assert a.claim(table_id) and a.holds(table_id) and a.owner_of(table_id) == "a"
    assert not b.claim(table_id) and not b.holds(table_id) and a.unserved() == []
    assert a.renew() == [] and a.holds(table_id)
    time.sleep(1.2)  # a stops renewing
    assert not a.holds(table_id)  # by its own clock first
    assert a.unserved() == [table_id] and b.claim(table_id) and b.owner_of(table_id) == "b"
    assert a.renew() == [table_id] and a.held() == []  # lost, and forgotten
    b.release([table_id])
    assert b.owner_of(table_id) is None and a.claim(table_id)


def test_leases_are_kept_in_postgresql_only(tmp_path: Path):
    engine = make_engine(sqlite_url(tmp_path / "one.db"))
    with pytest.raises(OptionsError, match="PostgreSQL"):
        Leases(engine, "a", 5)
    engine.dispose()


class Listener:
    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.sent: list[Mapping[str, Any]] = []
        self.closed: list[str] = []

    async def send(self, message: Mapping[str, Any]) -> None:
        if self.closed:
            raise SubscriberGone
        self.sent.append(dict(message))

    async def update(self, table: LiveTable) -> None:
        await self.send({"type": "update", "actions": len(table.actions)})

    async def close(self, reason: str) -> None:
        self.closed.append(reason)


def test_a_driver_serves_only_what_it_holds_and_lets_go_of_a_lost_table(store):
    table_id = playing(store)
    other = Leases(store.engine, "other", 1)
    listener = Listener(0)

    async def body() -> None:
        driver = TableDriver(store, leases=Leases(store.engine, "here", 1))
        try:
            assert other.claim(table_id)
            with pytest.raises(Elsewhere):
                await driver.take(table_id)
            other.release([table_id])
            table = await driver.take(table_id)
            assert table is not None and driver.owns(table_id)
            await driver.subscribe(table, listener, lambda: asyncio.sleep(0))
            await driver.lose(table_id)
            assert not driver.owns(table_id) and other.claim(table_id)
            refused = await driver.act(table, 0, {"type": "ready"}, "a1", lambda outcome: asyncio.sleep(0))
            assert not refused.accepted and refused.code == "elsewhere"
        finally:
            driver.stop()

    asyncio.run(body())
    assert {"type": "notice", "code": "table_moved", "message": TABLE_MOVED} in listener.sent
    assert listener.closed == [TABLE_MOVED]
