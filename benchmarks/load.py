"""The server under load: many six-seat tables at once, one person on a socket and five bots each.

Starts the real server (uvicorn, the table store, SQLite in WAL mode with full synchronisation, or
PostgreSQL with --db) in a process of its own on a loopback port, opens N Bread and Circuses tables
with one open seat and five bots, seats a person at each over a websocket (all people in one
asyncio client process), and lets them play for a bounded time: every person answers its prompt at
once with a random legal action. It reports the acknowledged actions a second (people's and
bots') and the person's wait between sending an action and its acknowledgement (p50/p95/p99/max).
It stops by itself after --seconds (or --actions acknowledged person actions), then stops the
server and checks that every action acknowledged to a person is in the database.

With --servers K (PostgreSQL only) it starts K server processes on the one database, each under
an instance name of its own, creates the tables round-robin over them (the process that creates a
table holds its lease and serves it) and connects each table's person to that same process, as a
proxy routing by table id would. It then reports each process's tables and acknowledged actions
and the CPU time each process used while the people played (from /proc), and checks that each
table's lease is held by the process it was created on.

    .venv/bin/python benchmarks/load.py --tables 200 --seconds 60
    .venv/bin/python benchmarks/load.py --tables 200 --db postgresql://user@localhost/bench
    .venv/bin/python benchmarks/load.py --tables 50 --seconds 20 --profile   # where the time goes
    .venv/bin/python benchmarks/load.py --tables 200 --seconds 30 --postgres --servers 2
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import multiprocessing
import os
import random
import socket
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
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
    server: int = 0
    """Which of the server processes serves this person's table (its index)."""


@dataclass
class Load:
    """What a run measured."""

    tables: int
    seconds: float
    waits: list[float]
    server_actions: int
    people: list[Person]
    per_server: list[tuple[int, int]] = field(default_factory=list)
    """Each server process's tables and acknowledged actions during the run."""
    cpu: dict[str, float] = field(default_factory=dict)
    """CPU seconds (user and system) each process used while the people played, by name."""

    def percentile(self, p: float) -> float:
        ordered = sorted(self.waits)
        return ordered[min(len(ordered) - 1, int(p * len(ordered)))] if ordered else float("nan")

    def report(self) -> str:
        ms = [1000 * self.percentile(p) for p in (0.5, 0.95, 0.99)]
        most = 1000 * max(self.waits, default=float("nan"))
        return (f"{self.tables} tables, {self.seconds:.1f} s: {self.server_actions} acknowledged actions "
                f"({self.server_actions / self.seconds:.0f}/s), {len(self.waits)} by people; "
                f"action→ack p50 {ms[0]:.1f} ms, p95 {ms[1]:.1f} ms, p99 {ms[2]:.1f} ms, max {most:.1f} ms"
                + self.shares())

    def shares(self) -> str:
        """Each server process's part of the run, and the CPU each process used (if measured)."""
        lines = [f"\n  server {k}: {tables} tables, {actions} acknowledged actions "
                 f"({actions / self.seconds:.0f}/s)"
                 for k, (tables, actions) in enumerate(self.per_server)] if len(self.per_server) > 1 else []
        if self.cpu:
            lines.append("\n  CPU while playing (share of one core): " + ", ".join(
                f"{name} {used / self.seconds:.0%}" for name, used in self.cpu.items()))
        return "".join(lines)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# -- the server, in a process of its own ------------------------------------------------------------
def _serve(url: str, port: int, bot_delay: float, profile: str | None, deflate: bool = True,
           instance: str | None = None) -> None:
    import uvicorn

    stages = None
    if profile:
        from benchmarks.stages import Stages  # time stamps around the server's stages

        stages = Stages()
        stages.time_locks()

    from tricolore.server.app import create_app
    from tricolore.server.db import make_engine, migrate
    from tricolore.server.leases import Leases
    from tricolore.server.settings import Settings
    from tricolore.server.tables import TableStore

    engine = make_engine(url, pool_size=20)
    # one of several processes on one PostgreSQL database: it serves the tables whose leases it holds
    leases = None if instance is None else Leases(engine, instance, Settings().lease_seconds)
    migrate(engine)
    store = TableStore(engine)
    store.shared = leases is not None
    store.resume()
    if stages is not None:
        stages.install(store, stages)
    app = create_app(store, bot_delay=bot_delay, flood_limit=(10**9, 1.0), create_limit=(10**9, 1.0),
                     socket_limit=10**9, leases=leases)
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
                 deflate: bool = True, instance: str | None = None) -> tuple[str, Any]:
    """The server over ``url`` in a child process: its base URL and the process. With ``instance``
    (PostgreSQL only) it is one of several processes on the database, under that name."""
    port = free_port()
    context = multiprocessing.get_context("spawn")
    process = context.Process(target=_serve, args=(url, port, bot_delay, profile, deflate, instance),
                              daemon=True)
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


async def actions_stored(http: httpx.AsyncClient | Sequence[httpx.AsyncClient],
                         people: list[Person]) -> list[int]:
    """Each person's table's acknowledged actions so far, as the lobby of its server reports them."""
    clients = [http] if isinstance(http, httpx.AsyncClient) else list(http)
    counts = await asyncio.gather(*(clients[p.server].get(f"/api/tables/{p.table_id}") for p in people))
    return [int(r.json()["actions"]) for r in counts]


def cpu_seconds(pid: int, children: bool = False) -> float:
    """The CPU time (user and system) process ``pid`` has used, from ``/proc/<pid>/stat``; with
    ``children``, also that of its children that have exited and been waited for."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    used = sum(int(f) for f in fields[11:15 if children else 13])  # utime stime [cutime cstime]
    return used / os.sysconf("SC_CLK_TCK")


def postgres_cpu_seconds(postmaster: int) -> float:
    """The CPU time used by a PostgreSQL server: the postmaster, the backends that have exited (it
    waits for them) and those still running."""
    used = cpu_seconds(postmaster, children=True)
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:  # ended meanwhile
                continue
            if int(stat[1]) == postmaster:
                used += sum(int(f) for f in stat[11:13]) / os.sysconf("SC_CLK_TCK")
    return used


def machine_busy_seconds() -> float:
    """CPU seconds every core has spent on anything but idling (and waiting for the disk)."""
    ticks = [int(f) for f in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    return (sum(ticks) - ticks[3] - ticks[4]) / os.sysconf("SC_CLK_TCK")


def cpu_now(processes: Mapping[str, int], postmaster: int | None) -> dict[str, float]:
    """CPU seconds used so far by each of ``processes`` (name to process id), this client, the
    PostgreSQL server whose postmaster is ``postmaster`` and the whole machine."""
    used = {name: cpu_seconds(pid) for name, pid in processes.items()}
    used["load client"] = cpu_seconds(os.getpid())
    if postmaster is not None:
        used["PostgreSQL"] = postgres_cpu_seconds(postmaster)
    used["whole machine"] = machine_busy_seconds()
    return used


async def run_load(base: str | Sequence[str], tables: int, seconds: float, bots: str = "honest-discloser",
                   options: Mapping[str, Any] | None = None, limit: int = 10**9, seed: int = 1,
                   processes: Mapping[str, int] | None = None, postmaster: int | None = None) -> Load:
    """``tables`` tables played at once for ``seconds`` on the server at ``base``, or spread
    round-robin over the servers at several bases (each table's person talks to its server). With
    ``processes`` (name to process id), it measures the CPU each used while the people played,
    and this client's, the PostgreSQL server's (``postmaster``) and the whole machine's."""
    bases = [base] if isinstance(base, str) else list(base)
    rng = random.Random(seed)
    limits = httpx.Limits(max_connections=64)
    clients = [httpx.AsyncClient(base_url=b, timeout=120, limits=limits) for b in bases]
    try:
        people: list[Person] = []
        for start in range(0, tables, 20):
            seated = await asyncio.gather(*(seat_person(clients[n % len(bases)], bots, options or {})
                                            for n in range(start, min(tables, start + 20))))
            for n, person in enumerate(seated, start):
                person.server = n % len(bases)
            people += seated
        before = await actions_stored(clients, people)
        measured = None if processes is None else cpu_now(processes, postmaster)
        started = time.monotonic()
        await asyncio.gather(*(play(bases[p.server], p, random.Random(rng.random()), started + seconds, limit)
                               for p in people))
        elapsed = time.monotonic() - started
        cpu = {} if measured is None or processes is None else {
            name: used - measured[name] for name, used in cpu_now(processes, postmaster).items()}
        after = await actions_stored(clients, people)
    finally:
        for client in clients:
            await client.aclose()
    done = [a - b for a, b in zip(after, before, strict=True)]
    per_server = [(sum(1 for p in people if p.server == k),
                   sum(d for p, d in zip(people, done, strict=True) if p.server == k))
                  for k in range(len(bases))]
    waits = [w for p in people for w in p.waits]
    return Load(tables, elapsed, waits, sum(done), people, per_server, cpu)


def check_stored(url: str, people: Sequence[Person], instances: Sequence[str] | None = None) -> int:
    """Check that every action acknowledged to a person is in the database at its number under its
    client action id, and (with ``instances``, the server processes' names) that each table's lease
    is held by the process that created it; returns how many actions were checked. Raises
    ``AssertionError`` on anything lost."""
    from sqlalchemy import select

    from tricolore.server.db import ActionRow, LeaseRow, make_engine

    engine = make_engine(url)
    try:
        with engine.connect() as db:
            for person in people:
                stored = set(db.execute(select(ActionRow.number, ActionRow.client_action_id)
                                        .where(ActionRow.table_id == person.table_id, ActionRow.seat == 0)))
                lost = set(person.acked) - {tuple(row) for row in stored}
                assert not lost, f"table {person.table_id} lost acknowledged actions {sorted(lost)[:3]}"
            if instances is not None:
                owners = dict(db.execute(select(LeaseRow.table_id, LeaseRow.owner)).all())
                for person in people:
                    owner = owners.get(person.table_id)
                    assert owner in (None, instances[person.server]), (
                        f"table {person.table_id} was created on {instances[person.server]} "
                        f"but its lease is held by {owner}")
    finally:
        engine.dispose()
    return sum(len(p.acked) for p in people)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200, help="tables played at once")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long the people play")
    parser.add_argument("--actions", type=int, default=10**9, help="stop a person after this many acks")
    parser.add_argument("--bots", default="honest-discloser", help="the five bots' strategy")
    parser.add_argument("--bot-delay", type=float, default=0.6,
                        help="seconds a bot waits before acting (0.6: tricolore serve's default)")
    parser.add_argument("--no-deflate", action="store_true",
                        help="serve without websocket compression (uvicorn compresses by default)")
    parser.add_argument("--profile", default=None, metavar="FILE",
                        help="time the server's stages and write a cProfile of its event loop to FILE")
    parser.add_argument("--servers", type=int, default=None, metavar="K",
                        help="K server processes on one PostgreSQL database, the tables spread over them")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--db", default=None, help="database URL (default: a new SQLite file)")
    where.add_argument("--postgres", action="store_true", help="a throwaway PostgreSQL cluster of its own")
    args = parser.parse_args()
    if args.tables < 1 or args.seconds <= 0 or args.seconds > 3600:
        parser.error("--tables is at least 1 and --seconds from 0 to 3600")
    if args.servers is not None:
        if not 1 <= args.servers <= 16:
            parser.error("--servers is from 1 to 16")
        if not (args.postgres or (args.db or "").startswith("postgresql")):
            parser.error("several server processes share a PostgreSQL database: "
                         "give --servers with --postgres or --db postgresql://...")
        if args.profile:
            parser.error("--profile times one server process: leave out --servers")
    cluster = None
    if args.postgres:
        from benchmarks.faults import Cluster

        cluster = Cluster()
    servers: list[tuple[str, Any]] = []
    instances = None if args.servers is None else [f"load-{k}" for k in range(args.servers)]
    with tempfile.TemporaryDirectory() as folder:
        try:
            postmaster = None
            if cluster is not None:
                cluster.start()
                postmaster = int((cluster.data / "postmaster.pid").read_text().split()[0])
            url = cluster.url if cluster is not None else args.db or f"sqlite:///{folder}/load.db"
            named: list[str | None] = list(instances) if instances is not None else [None]
            for instance in named:  # one after another: each migrates the database first
                servers.append(start_server(url, args.bot_delay, args.profile, not args.no_deflate, instance))
            processes = {f"server {k}": int(process.pid) for k, (_, process) in enumerate(servers)}
            load = asyncio.run(run_load([base for base, _ in servers], args.tables, args.seconds, args.bots,
                                        limit=args.actions, processes=processes, postmaster=postmaster))
            checked = check_stored(url, load.people, instances)
        finally:
            for _, process in servers:
                stop_server(process)
            if cluster is not None:
                cluster.remove()
    spread = "" if instances is None else f"; {len(instances)} server process{'es' * (len(instances) > 1)}"
    print(f"database: {url.split('://')[0]}; bots: {args.bots}, bot delay {args.bot_delay:g} s{spread}")
    print(load.report())
    print(f"checked: {checked} actions acknowledged to people in the database at their numbers, 0 lost"
          + ("" if instances is None else "; every table's lease held by the process that created it"))

if __name__ == "__main__":
    main()
