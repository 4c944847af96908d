"""The server under faults, bounded for CI (`benchmarks/faults.py` runs the full forms).

- `tricolore serve` SIGKILLed 20 times at random while tables play: no acknowledged action lost,
  every table's record whole, every seat's view after the restarts equal to the replayed state's;
- its PostgreSQL stopped mid-game (``pg_ctl stop -m immediate``), or its disk full (a small
  tmpfs filled up): a person's action is refused with a sentence, nothing is half-written, the
  server stays up and logs no traceback, and once the database is back (or there is room) the
  resend is acknowledged and the table plays on; an action committed while the answer of its
  commit was lost is acknowledged as a duplicate when sent again;
- the fuzz suites run against a server while its tables play, and every acknowledged action still
  checks.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import os
import random
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import select
from sqlalchemy.exc import OperationalError

from benchmarks.faults import (
    Cluster,
    Player,
    Run,
    Server,
    check_database,
    kill_and_check,
    play_on,
    seat_people,
    send_action,
)
from benchmarks.load import GAME, choose, open_socket, recv
from tests.server import test_fuzz
from tests.server.conftest import LiveServer, new_store, serve
from tricolore.agents import decide, make_agent
from tricolore.core.registry import get_game
from tricolore.server.db import ActionRow, make_engine, sqlite_url
from tricolore.server.tables import NOT_SAVED

KILLS = 20


@pytest.mark.slow
def test_twenty_sigkills_lose_no_acknowledged_action_and_every_view_equals_the_replay(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    faults = asyncio.run(kill_and_check(sqlite_url(tmp_path / "tables.db"), log, tables=3, kills=KILLS,
                                        low=0.1, high=0.5))
    # kill_and_check asserted every acknowledged action and every view; here, that the kills hit play
    assert len(faults.restarts) == KILLS
    assert sum(p.reconnects for p in faults.people) >= KILLS
    resent = sum(sum(p.resent.values()) for p in faults.people)
    assert resent > 0 and len(faults.load.waits) > 100
    assert "Traceback" not in log.read_text()


# -- the database away, the disk full ------------------------------------------------------------------
def stored(url: str, table_id: str) -> list[tuple[int, int, str | None]]:
    """The table's actions in the database: number, seat, client action id."""
    engine = make_engine(url)
    try:
        with engine.connect() as db:
            return [(n, s, c) for n, s, c in db.execute(
                select(ActionRow.number, ActionRow.seat, ActionRow.client_action_id)
                .where(ActionRow.table_id == table_id).order_by(ActionRow.number))]
    finally:
        engine.dispose()


def acknowledged(people: list[Player]) -> list[tuple[int, int, str]]:
    return sorted((number, p.seat, action_id) for p in people for number, action_id in p.acked)


async def seat_everyone(http: httpx.AsyncClient, players: int = 3) -> list[Player]:
    """A table whose every seat a person takes: nothing moves but what the test sends."""
    made = (await http.post("/api/tables", json={"game": GAME, "players": players,
                                                 "seats": ["open"] * players})).json()
    people = []
    for seat in range(players):
        token = made["invites"][str(seat)].split("#invite=")[1]
        (await http.post("/api/join", json={"token": token, "name": f"Citoyen {seat}"})).raise_for_status()
        people.append(Player(made["table_id"], token, seat=seat))
    return people


async def next_move(people: list[Player], rng: random.Random) -> tuple[Player, dict[str, Any]]:
    """Someone who may act, and an action of theirs, once every message sent is read."""
    for _ in range(200):
        for person in people:
            with contextlib.suppress(TimeoutError):
                while True:
                    await recv(person, 0.01)
        for person in people:
            if person.status == "playing" and (action := await choose(person, rng)) is not None:
                return person, action
    raise AssertionError("nobody is asked to act")


async def play_some(people: list[Player], rng: random.Random, acks: int) -> None:
    """Act until ``acks`` more actions are acknowledged."""
    goal = sum(len(p.acked) for p in people) + acks
    while sum(len(p.acked) for p in people) < goal:
        person, action = await next_move(people, rng)
        reply = await send_action(person, f"a{rng.random()}", action)
        assert reply["type"] == "ack" or reply["code"] not in ("not_saved", "server_error"), reply


async def outage_and_recovery(server: Server, fault: Callable[[], None],
                              repair: Callable[[], None]) -> list[Player]:
    """People play; ``fault`` comes, and an action is refused as not saved (twice) while the server
    stays up with exactly the acknowledged actions stored; ``repair``, and the same action sent
    again is acknowledged and play goes on. Returns the people."""
    rng = random.Random(5)
    await server.start()
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        people = await seat_everyone(http)
    for person in people:
        await open_socket(server.base, person)
    await play_some(people, rng, 6)
    person, action = await next_move(people, rng)
    fault()
    for _ in range(2):
        reply = await send_action(person, "while-away", action)
        assert reply["type"] == "error" and reply["code"] == "not_saved", reply
        assert reply["message"] == NOT_SAVED
    async with httpx.AsyncClient(base_url=server.base) as http:
        assert (await http.get("/api/games")).status_code == 200  # the server stays up
    assert server.process is not None and server.process.poll() is None
    repair()
    assert stored(server.url, person.table_id) == acknowledged(people)  # nothing half-written
    resent = await send_action(person, "while-away", action)
    assert resent["type"] == "ack" and not resent["duplicate"], resent
    assert resent["number"] == len(acknowledged(people)) - 1
    await play_some(people, rng, 6)  # the table plays on
    for person in people:
        assert person.ws is not None
        await person.ws.close()
    return people


def test_postgresql_stopped_mid_game_refuses_with_a_sentence_and_the_table_resumes(tmp_path: Path) -> None:
    cluster = Cluster()
    try:
        cluster.start()
        log = tmp_path / "server.log"
        server = Server(cluster.url, log)
        try:
            stop = lambda: cluster.stop("immediate")  # noqa: E731  # every process ended at once, as a crash
            people = asyncio.run(outage_and_recovery(server, stop, cluster.start))
            assert stored(cluster.url, people[0].table_id) == acknowledged(people)
            check_database(cluster.url, people)
        finally:
            server.stop()
        text = log.read_text()
        assert "Traceback" not in text, text
        assert text.count("not saved") == 2  # one line for each refused action
    finally:
        cluster.remove()


def test_an_action_whose_commit_answer_was_lost_is_acknowledged_when_sent_again(tmp_path: Path) -> None:
    store = new_store(sqlite_url(tmp_path / "tables.db"))
    table = store.live[store.create(GAME, 3, ["random"] * 3, seed=4).table_id]
    agent, rng = make_agent(get_game(GAME), "random"), random.Random(2)
    seat = min(table.state.pending())
    action = decide(agent, table.state, seat, rng)
    write = store.writer._write

    def committed_then_lost(batch: Any) -> None:  # the database went away after the commit
        write(batch)
        raise OperationalError("COMMIT", None, Exception("server closed the connection unexpectedly"))

    store.writer._write = committed_then_lost  # type: ignore[method-assign]
    assert store.act(table.id, seat, action, "c1").code == "not_saved"
    assert table.actions == []  # as far as this process knows, nothing was saved
    store.writer._write = write  # type: ignore[method-assign]
    again = store.act(table.id, seat, action, "c1")
    assert again.accepted and again.duplicate and again.number == 0
    assert len(table.actions) == 1 and table.state.digest() == table.digests[0]
    seat = min(table.state.pending())
    after = store.act(table.id, seat, decide(agent, table.state, seat, rng), "c2")
    assert after.accepted and after.number == 1  # the table plays on
    store.engine.dispose()


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 4 MB tmpfs: the database's write-ahead log can grow only until it is full."""
    if os.geteuid() != 0:
        pytest.fail("the full-disk test mounts a small tmpfs: run the tests as root, as .ci/run does")
    disk = tmp_path / "disk"
    disk.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(disk)], check=True)
    try:
        yield disk
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=True)


def fill(disk: Path) -> None:
    """Write a file until the disk has no room left."""
    chunk = b"\0" * 4096
    fd = os.open(disk / "filler", os.O_WRONLY | os.O_CREAT)
    try:
        while True:
            os.write(fd, chunk)
    except OSError as exc:
        assert exc.errno == errno.ENOSPC
    finally:
        os.close(fd)


def test_a_full_disk_refuses_with_a_sentence_and_play_resumes_once_there_is_room(small_disk: Path,
                                                                                 tmp_path: Path) -> None:
    url = sqlite_url(small_disk / "tables.db")
    log = tmp_path / "server.log"
    server = Server(url, log)
    try:
        people = asyncio.run(outage_and_recovery(server, lambda: fill(small_disk),
                                                 lambda: (small_disk / "filler").unlink()))
    finally:
        server.stop()
    assert stored(url, people[0].table_id) == acknowledged(people)
    check_database(url, people)
    text = log.read_text()
    assert "Traceback" not in text, text
    assert text.count("not saved: database or disk is full") == 2


# -- the fuzz suites while tables play -----------------------------------------------------------------
FUZZ_SUITES = [test_fuzz.test_random_websocket_messages_are_answered_with_a_sentence_and_change_nothing,
               test_fuzz.test_random_hello_messages_never_open_a_seat_or_drop_without_a_sentence,
               test_fuzz.test_random_lobby_bodies_are_answered_with_a_declared_status_and_a_sentence,
               test_fuzz.test_raw_bodies_that_are_not_json_get_a_declared_refusal_and_a_sentence,
               test_fuzz.test_every_operation_answers_as_the_openapi_schema_declares]
"""Every fuzz suite but the flood's, which needs the real per-connection limit the load would hit."""


@pytest.fixture
def playing_server(tmp_path: Path) -> Iterator[LiveServer]:
    """A server whose bots wait a little, so that its games last while the fuzz suites run."""
    yield from serve(sqlite_url(tmp_path / "tables.db"), bot_delay=0.2, flood_limit=(10**6, 1.0))


def test_the_fuzz_suites_break_nothing_while_tables_play(playing_server: LiveServer, tmp_path: Path) -> None:
    live_server = playing_server
    run = Run()
    people: list[Player] = []
    seated = threading.Event()
    failures: list[BaseException] = []

    async def load() -> None:
        async with httpx.AsyncClient(base_url=live_server.base, timeout=60) as http:
            for pair in await asyncio.gather(*(seat_people(http, "random") for _ in range(8))):
                people.extend(pair)
        seated.set()
        rng = random.Random(11)
        await asyncio.gather(*(play_on(lambda: live_server.base, p, random.Random(rng.random()), run)
                               for p in people))

    def playing() -> None:
        try:
            asyncio.run(load())
        except BaseException as exc:
            failures.append(exc)
            seated.set()

    thread = threading.Thread(target=playing)
    thread.start()
    try:
        assert seated.wait(60) and not failures, failures
        for suite in FUZZ_SUITES:
            suite(live_server)
        assert any(p.status == "playing" for p in people), "every game ended before the fuzz suites did"
    finally:
        run.until = time.monotonic()
        thread.join(120)
    assert not failures, failures
    assert sum(len(p.acked) for p in people) > 50
    check_database(sqlite_url(tmp_path / "tables.db"), people)
