"""Real servers for the server tests: uvicorn on a loopback port, SQLite files, and a PostgreSQL
server started from the Debian packages (``.ci/run`` installs them)."""

from __future__ import annotations

import glob
import json
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from websockets.sync.client import ClientConnection, connect

from tricolore.server.app import CREATE_LIMIT, FLOOD_LIMIT, create_app
from tricolore.server.db import make_engine, migrate, sqlite_url
from tricolore.server.settings import Settings
from tricolore.server.tables import TableStore


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# -- PostgreSQL ----------------------------------------------------------------------------------
def postgres_bin() -> Path:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/postgres"))
    if not found:
        pytest.fail("PostgreSQL is not installed: .ci/run installs Debian's postgresql package")
    return Path(found[-1]).parent


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A fresh PostgreSQL cluster on loopback for this test session (run as ``postgres`` when root)."""
    bindir = postgres_bin()
    # not under pytest's temporary folder, which the postgres user may not enter
    data = Path(tempfile.mkdtemp(prefix="tricolore-pg-"))
    run_as: list[str] = []
    if os.geteuid() == 0:  # initdb refuses to run as root
        user = pwd.getpwnam("postgres")
        shutil.chown(data, user.pw_uid, user.pw_gid)
        os.chmod(data, 0o700)
        run_as = ["runuser", "-u", "postgres", "--"]
    port = free_port()
    subprocess.run([*run_as, str(bindir / "initdb"), "-D", str(data), "-U", "tricolore", "--auth=trust",
                    "-E", "UTF8"], check=True, capture_output=True, cwd=data)  # a folder postgres may enter
    server = subprocess.Popen([*run_as, str(bindir / "postgres"), "-D", str(data), "-p", str(port),
                               "-h", "127.0.0.1", "-k", str(data), "-c", "fsync=on"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=data)
    url = f"postgresql://tricolore@127.0.0.1:{port}/postgres"
    try:
        for _ in range(100):
            if subprocess.run([str(bindir / "pg_isready"), "-h", "127.0.0.1", "-p", str(port)],
                              capture_output=True).returncode == 0:
                break
            time.sleep(0.1)
        else:
            pytest.fail("PostgreSQL did not start")
        yield url
    finally:
        server.terminate()
        server.wait(timeout=30)
        shutil.rmtree(data, ignore_errors=True)


_databases = iter(range(10**6))


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A new empty database: an SQLite file, or a new database on the PostgreSQL server."""
    if request.param == "sqlite":
        return sqlite_url(tmp_path / "tables.db")
    server: str = request.getfixturevalue("postgres_url")
    name = f"t{os.getpid()}_{next(_databases)}"
    engine = make_engine(server)
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as c:
        c.exec_driver_sql(f"CREATE DATABASE {name}")
    engine.dispose()
    return server.rsplit("/", 1)[0] + "/" + name


def new_store(url: str, policies: str | None = None) -> TableStore:
    engine = make_engine(url)
    migrate(engine)
    return TableStore(engine, policies=policies)


# -- a live server in this process ----------------------------------------------------------------
@dataclass
class LiveServer:
    """A uvicorn server on a loopback port, with its store, an HTTP client and websocket helpers."""

    base: str
    store: TableStore
    http: httpx.Client

    def create(self, game: str, seats: list[str], **extra: Any) -> dict[str, Any]:
        response = self.http.post("/api/tables", json={"game": game, "players": len(seats), "seats": seats,
                                                        **extra})
        assert response.status_code == 200, response.text
        return response.json()

    def join(self, invite: str, name: str) -> str:
        token = invite.split("#invite=")[1]
        response = self.http.post("/api/join", json={"token": token, "name": name})
        assert response.status_code == 200, response.text
        return token

    def socket(self, table_id: str, token: str | None = None, device: str | None = None) -> Socket:
        """A connection for ``token``'s seat (``None``: a spectator); a seat a browser has claimed
        answers only to that browser's secret ``device``."""
        ws = connect(self.base.replace("http", "ws") + f"/ws/{table_id}", max_size=None).__enter__()
        ws.send(json.dumps({"type": "hello", "version": 1, "token": token, "device": device}))
        return Socket(ws)


class Socket:
    """A websocket client that keeps every message it receives (for the leak check)."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.received: list[str] = []
        self.messages: list[dict[str, Any]] = []
        self.view: dict[str, Any] = {}
        self.prompt: dict[str, Any] | None = None
        self.status = ""
        self.welcome = self.expect("welcome")

    def send(self, message: dict[str, Any] | str) -> None:
        self.ws.send(message if isinstance(message, str) else json.dumps(message))

    def recv(self, timeout: float = 20) -> dict[str, Any]:
        text = self.ws.recv(timeout=timeout)
        assert isinstance(text, str)
        self.received.append(text)
        message = json.loads(text)
        self.messages.append(message)
        if message["type"] == "welcome":
            self.view = dict(message["view"])
        elif message["type"] == "update":
            self.view.update(message["view_delta"]["set"])
            for key in message["view_delta"]["unset"]:
                self.view.pop(key, None)
        if message["type"] in ("welcome", "update"):
            self.prompt, self.status = message["prompt"], message["status"]
        return message

    def drain(self, timeout: float = 0.02) -> None:
        """Read every message already sent."""
        try:
            while True:
                self.recv(timeout)
        except TimeoutError:
            pass

    def wait_for_update(self, timeout: float = 20) -> dict[str, Any]:
        return self.expect("update", timeout)

    def expect_reply(self, request_id: str) -> dict[str, Any]:
        """The answer (of any type) carrying ``request_id``."""
        while True:
            message = self.recv()
            if message.get("id") == request_id and message["type"] not in ("welcome", "update"):
                return message

    def expect(self, kind: str, timeout: float = 20) -> dict[str, Any]:
        while True:
            message = self.recv(timeout)
            if message["type"] == kind:
                return message

    def act(self, action: dict[str, Any], action_id: str) -> dict[str, Any]:
        """Send an action and wait for its ack or error."""
        self.send({"type": "action", "id": action_id, "action": action})
        while True:
            message = self.recv()
            if message["type"] in ("ack", "error") and message.get("id") == action_id:
                return message

    def close(self) -> None:
        self.ws.close()


@pytest.fixture
def live_server(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[LiveServer]:
    """A server whose flood limit a test player, faster than any person, never reaches; tests
    marked ``flood_limit`` get the real one."""
    real = request.node.get_closest_marker("real_flood_limit") is not None
    yield from serve(sqlite_url(tmp_path / "tables.db"), flood_limit=FLOOD_LIMIT if real else (10**6, 1.0),
                     create_limit=CREATE_LIMIT if real else (10**6, 1.0))


def serve(url: str, bot_delay: float = 0.0, flood_limit: tuple[int, float] = FLOOD_LIMIT,
          create_limit: tuple[int, float] = (10**6, 1.0), resume: bool = False,
          socket_limit: int = 10**6, settings: Settings | None = None) -> Iterator[LiveServer]:
    """A live server over ``url``; with ``resume``, it first rebuilds the tables already stored,
    as ``tricolore serve`` does after a restart."""
    store = new_store(url, policies=settings.policies if settings else None)
    if resume:
        store.resume()
    port = free_port()
    application = create_app(store, bot_delay=bot_delay, flood_limit=flood_limit, create_limit=create_limit,
                             socket_limit=socket_limit, settings=settings)
    server = uvicorn.Server(uvicorn.Config(application, host="127.0.0.1",
                                           port=port, log_level="warning", lifespan="on",
                                           proxy_headers=False))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.02)
    base = f"http://127.0.0.1:{port}"
    with httpx.Client(base_url=base, timeout=30) as http:
        yield LiveServer(base, store, http)
    server.should_exit = True
    thread.join(timeout=10)
    store.engine.dispose()


def serve_process(db_url: str, port: int, log: Path, *options: str) -> subprocess.Popen[bytes]:
    """A real ``tricolore serve`` process on ``db_url`` and ``port`` (bots not waiting, more
    ``options`` after), its output appended to ``log``, once it answers."""
    command = [str(Path(sys.executable).with_name("tricolore")), "serve", "--db", db_url, "--port", str(port),
               "--bot-delay", "0", *options]
    process = subprocess.Popen(command, stdout=log.open("ab"), stderr=subprocess.STDOUT)
    for _ in range(300):
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1).status_code == 200:
                return process
        except httpx.HTTPError:
            pass
        if process.poll() is not None:
            raise AssertionError(f"the server exited: {log.read_text()}")
        time.sleep(0.1)
    raise AssertionError("the server did not start")
