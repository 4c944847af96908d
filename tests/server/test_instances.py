"""Several server processes on one PostgreSQL database: each table served by one process at a time,
a killed process's tables taken over by another once its leases run out, nothing acknowledged lost.
And SQLite serves one process only."""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select
from sqlalchemy.engine import Engine
from typer.testing import CliRunner
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.server.conftest import Socket, free_port, new_store, serve_process
from tests.server.wire import SHORT, choose
from tricolore.cli.main import app as cli
from tricolore.core.errors import OptionsError
from tricolore.server.db import ActionRow, LeaseRow, make_engine, sqlite_url
from tricolore.server.settings import Settings

LEASE = 2.0


def tricolore() -> str:
    return str(Path(sys.executable).with_name("tricolore"))


def start(db_url: str, port: int, name: str, log: Path) -> subprocess.Popen[bytes]:
    return serve_process(db_url, port, log, "--instance-name", name, "--lease-seconds", str(LEASE))


def hello(port: int, table_id: str, token: str, device: str) -> Socket | dict[str, Any]:
    """A seat's connection to the server on ``port``, or the error it was refused with."""
    ws = connect(f"ws://127.0.0.1:{port}/ws/{table_id}", max_size=None).__enter__()
    with contextlib.suppress(ConnectionClosed):  # refused before its hello was read: the reason waits
        ws.send(json.dumps({"type": "hello", "version": 1, "token": token, "device": device}))
    first = json.loads(ws.recv(timeout=20))
    if first["type"] == "error":
        with pytest.raises(ConnectionClosed):
            ws.recv(timeout=5)
        assert ws.close_code == 1013
        return dict(first)
    assert first["type"] == "welcome"
    sock = Socket.__new__(Socket)
    sock.ws, sock.received, sock.messages = ws, [], []
    sock.view, sock.prompt, sock.status = dict(first["view"]), first["prompt"], first["status"]
    sock.welcome = first
    return sock


def play(sock: Socket, rng: random.Random, acked: list[tuple[int, str]], most: int) -> None:
    """Up to ``most`` of the person's actions, each acknowledged one kept."""
    for _ in range(most * 20):
        sock.drain()
        if sock.status == "over" or len(acked) >= most:
            return
        action = choose(sock, rng)
        if action is None:
            sock.wait_for_update()
            continue
        action_id = f"p{len(acked)}-{rng.random():.6f}"
        reply = sock.act(action, action_id)
        if reply["type"] == "ack":
            acked.append((reply["number"], action_id))


def actions_of(engine: Engine, table_id: str) -> int:
    with engine.connect() as db:
        counted = select(func.count()).select_from(ActionRow).where(ActionRow.table_id == table_id)
        return int(db.scalar(counted) or 0)


def test_a_table_goes_on_at_another_process_when_its_owner_is_killed(postgres_url: str, tmp_path: Path):
    name = f"instances{os.getpid()}"
    engine = make_engine(postgres_url)
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as c:
        c.exec_driver_sql(f"CREATE DATABASE {name}")
    engine.dispose()
    url = postgres_url.rsplit("/", 1)[0] + "/" + name
    ports = {"a": free_port(), "b": free_port()}
    servers = {n: start(url, port, n, tmp_path / f"{n}.log") for n, port in ports.items()}
    try:
        http = httpx.Client(base_url=f"http://127.0.0.1:{ports['a']}", timeout=30)
        created = http.post("/api/tables", json={"game": "bread-and-circuses", "players": 3,
                                                 "seats": ["open", "random", "random"],
                                                 "options": SHORT["bread-and-circuses"]}).json()
        table_id = created["table_id"]
        token = created["invites"]["0"].split("#invite=")[1]
        device = "d" * 32
        joined = http.post("/api/join", json={"token": token, "name": "Marat", "device": device})
        assert joined.status_code == 200
        # a table nobody connects to: a bot decides for its person each time the clock runs out
        unwatched = http.post("/api/tables", json={"game": "bread-and-circuses", "players": 3,
                                                   "seats": ["open", "random", "random"], "clock_seconds": 1,
                                                   "options": {"max_rounds": 50}}).json()
        assert http.post("/api/join", json={"token": unwatched["invites"]["0"].split("#invite=")[1],
                                            "name": "Danton"}).status_code == 200

        # the table is served by a, its creator: b refuses it with a sentence, a socket and a request alike
        refused = hello(ports["b"], table_id, token, device)
        assert isinstance(refused, dict) and refused["code"] == "elsewhere"
        leave = httpx.post(f"http://127.0.0.1:{ports['b']}/api/leave", json={"token": token}, timeout=30)
        assert leave.status_code == 503 and leave.headers["retry-after"] == "1"
        # reading is served anywhere: b lists a's tables and tells their facts, from the database
        at_b = httpx.get(f"http://127.0.0.1:{ports['b']}/api/tables?status=playing", timeout=30).json()
        assert {t["table_id"] for t in at_b} == {table_id, unwatched["table_id"]}
        facts = httpx.get(f"http://127.0.0.1:{ports['b']}/api/tables/{table_id}", timeout=30).json()
        assert facts["status"] == "playing" and facts["seats"][0] == {"name": "Marat", "kind": "human"}

        sock = hello(ports["a"], table_id, token, device)
        assert isinstance(sock, Socket)
        rng = random.Random(11)
        acked: list[tuple[int, str]] = []
        play(sock, rng, acked, most=4)
        assert len(acked) == 4
        last_number, last_id = acked[-1]

        servers["a"].send_signal(signal.SIGKILL)
        servers["a"].wait(timeout=30)
        killed = time.monotonic()
        check = make_engine(url)
        before = actions_of(check, unwatched["table_id"])
        assert before > 0  # a played it
        while True:  # the client connects again, to b, until b has taken the table over
            again = hello(ports["b"], table_id, token, device)
            if isinstance(again, Socket):
                break
            assert again["code"] == "elsewhere" and time.monotonic() - killed < 4 * LEASE
            time.sleep(0.2)
        assert time.monotonic() - killed <= 3 * LEASE
        sock = again
        assert sock.welcome["actions"] >= last_number + 1
        resent = sock.act({"type": "ready"}, last_id)  # the last action acknowledged by a, sent again
        assert resent["type"] == "ack" and resent["duplicate"] and resent["number"] == last_number
        play(sock, rng, acked, most=10**6)
        assert sock.status == "over"
        sock.drain()

        for _ in range(100):  # b took the unwatched table over by itself, and its clocks go on
            if actions_of(check, unwatched["table_id"]) >= before + 3:
                break
            time.sleep(0.2)
        else:
            raise AssertionError("the unwatched table stopped with its owner")
        with check.connect() as db:
            assert db.scalar(select(LeaseRow.owner).where(LeaseRow.table_id == unwatched["table_id"])) == "b"
        with check.connect() as db:
            stored = {(r.number, r.client_action_id) for r in db.execute(
                select(ActionRow.number, ActionRow.client_action_id).where(ActionRow.table_id == table_id))}
            owner = db.scalar(select(LeaseRow.owner).where(LeaseRow.table_id == table_id))
        check.dispose()
        assert set(acked) <= stored  # every acknowledged action, from either process
        assert owner in (None, "b")  # b gave the finished table's lease up, or is about to
        rebuilt = new_store(url).live[table_id]  # replayed from the database, every digest checked
        assert rebuilt.status == "over" and len(rebuilt.actions) == len(stored)
        assert rebuilt.state.view(0) == sock.view
    finally:
        for server in servers.values():
            if server.poll() is None:
                server.terminate()
                server.wait(timeout=30)


def test_sqlite_serves_one_process(tmp_path: Path):
    url = sqlite_url(tmp_path / "tables.db")
    first = start(url, free_port(), "one", tmp_path / "one.log")
    try:
        second = subprocess.run([tricolore(), "serve", "--db", url, "--port", str(free_port())],
                                capture_output=True, text=True, timeout=60)
        assert second.returncode == 1
        assert "another server process is serving the SQLite database" in second.stderr
        assert "use PostgreSQL" in second.stderr and "Traceback" not in second.stderr
    finally:
        first.terminate()
        first.wait(timeout=30)


@pytest.mark.parametrize(("fields", "words"), [
    ({"lease_seconds": 0.5}, "the lease must be from 1 to 600 seconds, not 0.5"),
    ({"lease_seconds": "5"}, "the lease must be from 1 to 600 seconds"),
    ({"instance_name": " "}, "the instance name is text of 1 to 128 characters"),
    ({"instance_name": "x" * 129}, "the instance name is text of 1 to 128 characters"),
])
def test_a_bad_lease_or_instance_name_is_refused_with_a_sentence(fields, words):
    with pytest.raises(OptionsError, match=words):
        Settings(**fields)


def test_serve_reads_the_lease_from_its_variable(monkeypatch, tmp_path: Path):
    monkeypatch.setenv("TRICOLORE_LEASE_SECONDS", "0.5")
    result = CliRunner().invoke(cli, ["serve", "--port", str(free_port()),
                                      "--db", sqlite_url(tmp_path / "t.db")])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "the lease must be from 1 to 600 seconds, not 0.5" in result.output
