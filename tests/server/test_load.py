"""The server under load, bounded: 20 six-seat tables played at once for a few seconds.

What is checked is never a time (that depends on the machine) but what load must not break:
every acknowledged action is in the database under its client action id, and after a restart
every person's view, and the public view, equal those of the state replayed from the database.
Then what the group commit promises when a transaction fails.
"""

from __future__ import annotations

import asyncio
import json
import random
import threading
import time
from typing import Any

import pytest
from sqlalchemy import func, select

from benchmarks.load import GAME, Person, check_stored, open_socket, run_load, start_server, stop_server
from tests.server.conftest import new_store
from tricolore.agents import decide, make_agent
from tricolore.core.registry import get_game
from tricolore.server.db import ActionRow, LeaseRow, TableRow, make_engine
from tricolore.server.tables import Outcome

TABLES = 20
SECONDS = 8.0


def plain(value: Any) -> Any:
    """``value`` as it reads back from JSON (tuples become lists)."""
    return json.loads(json.dumps(value))


async def views_after_reconnect(base: str, people: list[Person]) -> list[tuple[Any, Any]]:
    """Each person's view, and a spectator's, as the restarted server welcomes them."""
    found = []
    for person in people:
        again = Person(person.table_id, person.token)
        watcher = Person(person.table_id, "")
        await open_socket(base, again)
        await open_socket(base, watcher)
        found.append((again.view, watcher.view))
        assert again.ws is not None and watcher.ws is not None
        await again.ws.close()
        await watcher.ws.close()
    return found


def test_acknowledged_actions_survive_load_and_restart(db_url: str) -> None:
    base, server = start_server(db_url, bot_delay=0.0)
    try:
        load = asyncio.run(run_load(base, TABLES, SECONDS))
    finally:
        stop_server(server)
    assert len(load.people) == TABLES
    assert load.waits and load.server_actions > len(load.waits)  # people and bots both played

    engine = make_engine(db_url)
    try:
        with engine.connect() as db:
            for person in load.people:
                stored = {(number, cid) for number, seat, cid in db.execute(
                    select(ActionRow.number, ActionRow.seat, ActionRow.client_action_id)
                    .where(ActionRow.table_id == person.table_id, ActionRow.seat == 0))}
                assert set(person.acked) <= stored, f"table {person.table_id} lost an acknowledged action"
            replayed = {}
            for person in load.people:
                players, seed, options = db.execute(select(TableRow.players, TableRow.seed, TableRow.options)
                                                    .where(TableRow.id == person.table_id)).one()
                state = get_game(GAME).new(players, seed, options)
                for seat, action, digest in db.execute(
                        select(ActionRow.seat, ActionRow.action, ActionRow.digest)
                        .where(ActionRow.table_id == person.table_id).order_by(ActionRow.number)):
                    state.apply(seat, action)
                    assert state.digest() == digest
                replayed[person.table_id] = (plain(state.view(0)), plain(state.view(None)))
    finally:
        engine.dispose()

    # bots wait an hour before each move, so nothing is played while the views are compared
    base, server = start_server(db_url, bot_delay=3600.0)
    try:
        views = asyncio.run(views_after_reconnect(base, load.people))
    finally:
        stop_server(server)
    for person, (seat_view, public_view) in zip(load.people, views, strict=True):
        assert seat_view == replayed[person.table_id][0]
        assert public_view == replayed[person.table_id][1]


@pytest.mark.parametrize("db_url", ["postgresql"], indirect=True)
def test_tables_spread_over_two_processes_are_served_by_the_process_that_created_them(db_url: str) -> None:
    names = ["load-0", "load-1"]
    servers = []
    try:
        for name in names:
            servers.append(start_server(db_url, bot_delay=0.3, instance=name))
        processes = {f"server {k}": process.pid for k, (_, process) in enumerate(servers)}
        load = asyncio.run(run_load([base for base, _ in servers], 6, 4.0, processes=processes))
        engine = make_engine(db_url)
        try:
            with engine.connect() as db:
                owners = dict(db.execute(select(LeaseRow.table_id, LeaseRow.owner)).all())
        finally:
            engine.dispose()
        checked = check_stored(db_url, load.people, names)
    finally:
        for _, process in servers:
            stop_server(process)

    assert [p.server for p in load.people] == [0, 1, 0, 1, 0, 1]
    assert {p.table_id: owners[p.table_id] for p in load.people} == {
        p.table_id: names[p.server] for p in load.people}
    assert [tables for tables, _ in load.per_server] == [3, 3]
    assert all(actions > 0 for _, actions in load.per_server)
    assert sum(actions for _, actions in load.per_server) == load.server_actions
    assert checked == sum(len(p.acked) for p in load.people) > 0
    assert {"server 0", "server 1", "load client", "whole machine"} <= set(load.cpu)
    assert load.cpu["server 0"] > 0 and load.cpu["server 1"] > 0


def test_a_failed_group_commit_refuses_every_action_in_it_and_rebuilds_their_tables(db_url: str) -> None:
    store = new_store(db_url)
    tables = [store.create(GAME, 6, ["random"] * 6, seed=seed).table_id for seed in (1, 2)]
    agent = make_agent(get_game(GAME), "random")
    rng = random.Random(3)
    before = {t: store.live[t].state.digest() for t in tables}
    moves = {}
    for t in tables:
        state = store.live[t].state
        seat = min(state.pending())
        moves[t] = (seat, decide(agent, state, seat, rng))
    with store.session() as db, db.begin():  # another writer took the first table's next number
        db.add(ActionRow(table_id=tables[0], number=0, seat=0, action={"type": "pass"}, digest="x"))

    # hold the writer back until both actions wait, so that they are committed together
    held = threading.Event()
    store.writer._thread = threading.Thread(target=held.wait)
    store.writer._thread.start()
    outcomes: dict[str, Outcome] = {}
    actors = [threading.Thread(target=lambda t=t: outcomes.__setitem__(t, store.act(t, *moves[t], f"c{t}")))
              for t in tables]
    for actor in actors:
        actor.start()
    while len(store.writer._waiting) < 2:
        time.sleep(0.01)
    held.set()
    store.writer._thread.join()
    store.writer._thread = threading.Thread(target=store.writer._run)
    store.writer._thread.start()
    for actor in actors:
        actor.join(30)

    assert [outcomes[t].code for t in tables] == ["conflict", "conflict"]
    for t in tables:
        assert store.live[t].state.digest() == before[t] and store.live[t].actions == []
    with store.session() as db:
        stored = select(func.count()).select_from(ActionRow).where(ActionRow.table_id == tables[1])
        assert db.scalar(stored) == 0
    # the second table was refused only for sharing the transaction: it plays on
    assert store.act(tables[1], *moves[tables[1]], f"c{tables[1]}").accepted
    store.engine.dispose()
