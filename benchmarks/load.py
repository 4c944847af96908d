"""The server under load: many six-seat tables at once, one person on a socket and five bots each.

Starts the real server (uvicorn, the table store, SQLite in WAL mode with full synchronisation, or
PostgreSQL with --db) in a process of its own on a loopback port, opens N Bread and Circuses tables
with one open seat and five bots, seats a person at each over a websocket (all people in one
asyncio client process), and lets them play for a bounded time: every person answers its prompt at
once with a random legal action. It reports the acknowledged actions a second (people's and
bots') and the person's wait between sending an action and its acknowledgement (p50/p95/p99/max).
It stops by itself after --seconds (or --actions acknowledged person actions), then stops the
server.

    .venv/bin/python benchmarks/load.py --tables 200 --seconds 60
    .venv/bin/python benchmarks/load.py --tables 200 --db postgresql://user@localhost/bench
    .venv/bin/python benchmarks/load.py --tables 50 --seconds 20 --profile   # where the time goes
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import multiprocessing
import random
import socket
import sys
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import httpx
from websockets.asyncio.client import ClientConnection, connect

from tests.server.wire import pick

GAME = "bread-and-circuses"
_ids = itertools.count()


@dataclass
class Person:
    """One person at one table: their socket, what they were last told, and their waits."""

    table_id: str
    token: str
    ws: ClientConnection | None = None
    prompt: dict[str, Any] | None = None
    status: str = ""
    view: dict[str, Any] = field(default_factory=dict)
    acked: list[tuple[int, str]] = field(default_factory=list)
    """(action number, client action id) of every acknowledged action."""
    waits: list[float] = field(default_factory=list)


@dataclass
class Load:
    """What a run measured."""

    tables: int
    seconds: float
    waits: list[float]
    server_actions: int
    people: list[Person]

    def percentile(self, p: float) -> float:
        ordered = sorted(self.waits)
        return ordered[min(len(ordered) - 1, int(p * len(ordered)))] if ordered else float("nan")

    def report(self) -> str:
        ms = [1000 * self.percentile(p) for p in (0.5, 0.95, 0.99)]
        most = 1000 * max(self.waits, default=float("nan"))
        return (f"{self.tables} tables, {self.seconds:.1f} s: {self.server_actions} acknowledged actions "
                f"({self.server_actions / self.seconds:.0f}/s), {len(self.waits)} by people; "
                f"action→ack p50 {ms[0]:.1f} ms, p95 {ms[1]:.1f} ms, p99 {ms[2]:.1f} ms, max {most:.1f} ms")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# -- the server, in a process of its own ------------------------------------------------------------
def _serve(url: str, port: int, bot_delay: float, profile: str | None, deflate: bool = True) -> None:
    import uvicorn

    stages = None
    if profile:
        from benchmarks.stages import Stages  # time stamps around the server's stages

        stages = Stages()
        stages.time_locks()

    from tricolore.server.app import create_app
    from tricolore.server.db import make_engine, migrate
    from tricolore.server.tables import TableStore

    engine = make_engine(url, pool_size=20)
    migrate(engine)
    store = TableStore(engine)
    store.resume()
    if stages is not None:
        stages.install(store, stages)
    app = create_app(store, bot_delay=bot_delay, flood_limit=(10**9, 1.0), create_limit=(10**9, 1.0),
                     socket_limit=10**9)
    served = app if stages is None else stages.wrap(app)
    server = uvicorn.Server(uvicorn.Config(served, host="127.0.0.1", port=port, log_level="warning",
                                           lifespan="on", ws_max_size=10**8, backlog=4096,
                                           ws_per_message_deflate=deflate))
    try:
        if stages is None or profile is None:
            server.run()
        else:
            stages.run(server, profile)
    except KeyboardInterrupt:  # uvicorn raises the signal again once it has shut down
        pass


def start_server(url: str, bot_delay: float, profile: str | None = None,
                 deflate: bool = True) -> tuple[str, Any]:
    """The server over ``url`` in a child process: its base URL and the process."""
    port = free_port()
    context = multiprocessing.get_context("spawn")
    process = context.Process(target=_serve, args=(url, port, bot_delay, profile, deflate), daemon=True)
    process.start()
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(base + "/api/games", timeout=5).status_code == 200:
                return base, process
        except httpx.HTTPError:
            time.sleep(0.1)
    process.terminate()
    raise RuntimeError("the server did not start within 60 seconds")


def stop_server(process: Any) -> None:
    """Stop the server as an operator does (SIGINT: uvicorn finishes and the process exits)."""
    import os
    import signal

    if process.is_alive() and process.pid is not None:
        os.kill(process.pid, signal.SIGINT)
    process.join(30)
    if process.is_alive():
        process.terminate()
        process.join(10)


# -- the people ---------------------------------------------------------------------------------------
async def recv(person: Person, timeout: float) -> dict[str, Any]:
    assert person.ws is not None
    message: dict[str, Any] = json.loads(await asyncio.wait_for(person.ws.recv(), timeout))
    if message["type"] == "welcome":
        person.view = dict(message["view"])
    elif message["type"] == "update":
        person.view.update(message["view_delta"]["set"])
        for key in message["view_delta"]["unset"]:
            person.view.pop(key, None)
    if message["type"] in ("welcome", "update"):
        person.prompt, person.status = message["prompt"], message["status"]
    return message


async def reply_to(person: Person, request_id: str, timeout: float = 60) -> dict[str, Any]:
    while True:
        message = await recv(person, timeout)
        if message.get("id") == request_id and message["type"] not in ("welcome", "update"):
            return message


async def choose(person: Person, rng: random.Random) -> dict[str, Any] | None:
    """An action from the person's prompt, asking the server for the domains that depend on others."""
    prompt = person.prompt
    if not prompt or not prompt["actions"]:
        return None
    family = rng.choice(prompt["actions"])
    action: dict[str, Any] = {"type": family["type"]}
    for param in family["params"]:
        if param["optional"]:
            continue
        domain = param.get("domain")
        if param.get("depends"):
            ask = f"d{next(_ids)}"
            assert person.ws is not None
            await person.ws.send(json.dumps({"type": "domain", "id": ask, "kind": family["type"],
                                             "param": param["name"],
                                             "chosen": {k: v for k, v in action.items() if k != "type"}}))
            reply = await reply_to(person, ask)
            if reply["type"] != "domain":
                return None
            domain = reply["domain"]
        action[param["name"]] = pick(domain, rng)
    return action


async def open_socket(base: str, person: Person) -> None:
    person.ws = await connect(base.replace("http", "ws") + f"/ws/{person.table_id}", max_size=None,
                              open_timeout=120)
    await person.ws.send(json.dumps({"type": "hello", "version": 1, "token": person.token}))
    while (await recv(person, 120))["type"] != "welcome":
        pass


async def seat_person(http: httpx.AsyncClient, bots: str, options: Mapping[str, Any]) -> Person:
    """A new table with one open seat and five bots, and its person joined."""
    made = await http.post("/api/tables", json={"game": GAME, "players": 6, "seats": ["open", *[bots] * 5],
                                                "options": dict(options), "window_seconds": 0})
    if made.status_code != 200:
        raise RuntimeError(f"the server refused a new table: {made.text}")
    created = made.json()
    token = created["invites"]["0"].split("#invite=")[1]
    (await http.post("/api/join", json={"token": token, "name": "Lucile"})).raise_for_status()
    return Person(created["table_id"], token)


async def play(base: str, person: Person, rng: random.Random, until: float, limit: int) -> None:
    """Answer every prompt at once until the time is up, the game is over or ``limit`` actions."""
    await open_socket(base, person)
    assert person.ws is not None
    while time.monotonic() < until and len(person.acked) < limit and person.status != "over":
        action = await choose(person, rng) if person.status == "playing" else None
        if action is None:
            try:  # not asked: wait for the next update
                await recv(person, max(0.01, until - time.monotonic()))
            except TimeoutError:
                break
            continue
        action_id = f"{person.table_id}-{len(person.acked)}-{next(_ids)}"
        started = time.perf_counter()
        await person.ws.send(json.dumps({"type": "action", "id": action_id, "action": action}))
        while True:
            message = await recv(person, 120)
            if message["type"] in ("ack", "error") and message.get("id") == action_id:
                break
        if message["type"] == "ack":
            person.waits.append(time.perf_counter() - started)
            person.acked.append((message["number"], action_id))
        else:  # refused (a random form can be illegal): wait for the state to move on
            await asyncio.sleep(0.005)
    await person.ws.close()


async def actions_stored(http: httpx.AsyncClient, people: list[Person]) -> int:
    """Every table's acknowledged actions so far, as the lobby reports them."""
    counts = await asyncio.gather(*(http.get(f"/api/tables/{p.table_id}") for p in people))
    return sum(int(r.json()["actions"]) for r in counts)


async def run_load(base: str, tables: int, seconds: float, bots: str = "honest-discloser",
                   options: Mapping[str, Any] | None = None, limit: int = 10**9, seed: int = 1) -> Load:
    """``tables`` tables played at once for ``seconds`` on the server at ``base``."""
    rng = random.Random(seed)
    limits = httpx.Limits(max_connections=64)
    async with httpx.AsyncClient(base_url=base, timeout=120, limits=limits) as http:
        people = []
        for start in range(0, tables, 20):
            people += await asyncio.gather(*(seat_person(http, bots, options or {})
                                             for _ in range(start, min(tables, start + 20))))
        before = await actions_stored(http, people)
        started = time.monotonic()
        await asyncio.gather(*(play(base, p, random.Random(rng.random()), started + seconds, limit)
                               for p in people))
        elapsed = time.monotonic() - started
        after = await actions_stored(http, people)
    waits = [w for p in people for w in p.waits]
    return Load(tables, elapsed, waits, after - before, people)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200, help="tables played at once")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long the people play")
    parser.add_argument("--actions", type=int, default=10**9, help="stop a person after this many acks")
    parser.add_argument("--bots", default="honest-discloser", help="the five bots' strategy")
    parser.add_argument("--bot-delay", type=float, default=0.6,
                        help="seconds a bot waits before acting (0.6: tricolore serve's default)")
    parser.add_argument("--db", default=None, help="database URL (default: a new SQLite file)")
    parser.add_argument("--no-deflate", action="store_true",
                        help="serve without websocket compression (uvicorn compresses by default)")
    parser.add_argument("--profile", default=None, metavar="FILE",
                        help="time the server's stages and write a cProfile of its event loop to FILE")
    args = parser.parse_args()
    if args.tables < 1 or args.seconds <= 0 or args.seconds > 3600:
        parser.error("--tables is at least 1 and --seconds from 0 to 3600")
    with tempfile.TemporaryDirectory() as folder:
        url = args.db or f"sqlite:///{folder}/load.db"
        base, process = start_server(url, args.bot_delay, args.profile, not args.no_deflate)
        try:
            load = asyncio.run(run_load(base, args.tables, args.seconds, args.bots, limit=args.actions))
        finally:
            stop_server(process)
    print(f"database: {url.split('://')[0]}; bots: {args.bots}, bot delay {args.bot_delay:g} s")
    print(load.report())


if __name__ == "__main__":
    main()
