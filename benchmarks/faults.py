"""The server under faults: `tricolore serve` killed with SIGKILL at random while its tables play.

Starts `tricolore serve` (SQLite in WAL mode with full synchronisation, PostgreSQL with --db, or a
throwaway PostgreSQL cluster of its own with --postgres) as a subprocess on a loopback port, opens N
six-seat Bread and Circuses tables with two open seats and four bots, seats two people at each over
websockets (all people in one asyncio client process) and lets them play while the server is
killed with SIGKILL at random moments, --kills times, and started again each time. After each
restart every person reconnects, sends again the action it had sent but not seen acknowledged
(under the same client action id) and plays on. Once the kills are done and every person has had
an answer to its last action, it checks:

- every acknowledged action is in the database at its number, under its seat and client action
  id, as it was sent; each table's actions are numbered 0, 1, 2, ... with no gap and replay to the
  digests stored with them;
- every person's view, and a spectator's, from the server started again over the database, equal
  the views of the state replayed from the database record (`tricolore.core.record.replay`).

It reports the kills, the time each restart took, the acknowledged actions a second and the
people's waits (an action's resend after a kill is not counted as a wait).

    .venv/bin/python benchmarks/faults.py --kills 50 --tables 200
    .venv/bin/python benchmarks/faults.py --kills 50 --tables 200 --postgres
    .venv/bin/python benchmarks/faults.py --kills 20 --tables 4 --low 0.3 --high 1.0   # as the test
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import glob
import itertools
import json
import math
import os
import pwd
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import httpx
from sqlalchemy import select
from websockets.exceptions import WebSocketException

from benchmarks.load import GAME, Load, Person, choose, free_port, open_socket, recv
from tests.server.test_load import plain, views_after_reconnect
from tricolore.core.record import Record, check_record, replay
from tricolore.server.db import ActionRow, TableRow, make_engine

DROPPED = (WebSocketException, OSError)
"""What a client sees when the server is killed under it, or is not listening yet."""
QUIET = 3600.0
"""A bot delay under which nothing moves while views are compared."""
_ids = itertools.count()


# -- the server, as an operator runs it ---------------------------------------------------------------
@dataclass
class Server:
    """`tricolore serve` over ``url`` on a loopback port, its output appended to ``log``."""

    url: str
    log: Path
    bot_delay: float = 0.0
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def start(self, bot_delay: float | None = None) -> float:
        """Start the server (again: on the same port, unless another program took it meanwhile);
        returns the seconds until it answered."""
        delay = self.bot_delay if bot_delay is None else bot_delay
        command = [str(Path(sys.executable).with_name("tricolore")), "serve", "--db", self.url,
                   "--bot-delay", str(delay),
                   "--tables-per-minute", "1000000", "--sockets-per-address", "1000000"]
        started = time.monotonic()
        for _attempt in range(3):
            logged = self.log.stat().st_size if self.log.exists() else 0
            with self.log.open("ab") as out:
                process = subprocess.Popen([*command, "--port", str(self.port)], stdout=out,
                                           stderr=subprocess.STDOUT)
            self.process = process
            async with httpx.AsyncClient(base_url=self.base, timeout=5) as http:
                while time.monotonic() < started + 120 and process.poll() is None:
                    try:
                        if (await http.get("/api/games")).status_code == 200:
                            return time.monotonic() - started
                    except httpx.HTTPError:
                        pass
                    await asyncio.sleep(0.05)
            said = self.log.read_bytes()[logged:].decode(errors="replace")
            if process.poll() is None or "cannot listen" not in said:
                break
            self.port = free_port()  # taken by another program while the server was down
        if (code := process.poll()) is not None:
            raise RuntimeError(f"the server exited with code {code}; its log is {self.log}")
        self.kill()
        raise RuntimeError(f"the server did not answer within 120 seconds; its log is {self.log}")

    def kill(self) -> None:
        """SIGKILL: the server gets no chance to finish anything."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()

    def stop(self) -> None:
        """Stop it as an operator does (SIGINT: uvicorn finishes, then the process exits)."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.kill()


# -- a PostgreSQL cluster of its own ------------------------------------------------------------------
class Cluster:
    """A throwaway PostgreSQL cluster on loopback (fsync on), started and stopped with ``pg_ctl``;
    run as the ``postgres`` user when this process is root, since ``initdb`` refuses root."""

    def __init__(self) -> None:
        found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
        if not found:
            raise RuntimeError("PostgreSQL is not installed: install Debian's postgresql package")
        self.bin = Path(found[-1]).parent
        # not under a test's temporary folder, which the postgres user may not enter
        self.data = Path(tempfile.mkdtemp(prefix="tricolore-faults-pg-"))
        self.run_as: list[str] = []
        if os.geteuid() == 0:
            user = pwd.getpwnam("postgres")
            shutil.chown(self.data, user.pw_uid, user.pw_gid)
            os.chmod(self.data, 0o700)
            self.run_as = ["runuser", "-u", "postgres", "--"]
        self.port = free_port()
        self._pg("initdb", "-D", str(self.data), "-U", "tricolore", "--auth=trust", "-E", "UTF8")

    @property
    def url(self) -> str:
        return f"postgresql://tricolore@127.0.0.1:{self.port}/postgres"

    def _pg(self, program: str, *args: str) -> None:
        subprocess.run([*self.run_as, str(self.bin / program), *args], check=True, capture_output=True,
                       cwd=self.data)

    def start(self) -> None:
        """Start the server and wait until it takes connections."""
        self._pg("pg_ctl", "-D", str(self.data), "-l", str(self.data / "server.log"), "-w", "start",
                 "-o", f"-p {self.port} -h 127.0.0.1 -k {self.data} -c fsync=on")

    def stop(self, mode: str = "fast") -> None:
        """Stop the server; ``immediate`` ends every process at once, as a crash does."""
        self._pg("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def remove(self) -> None:
        """Stop the server if it runs, and delete the cluster."""
        if (self.data / "postmaster.pid").exists():
            self.stop("immediate")
        shutil.rmtree(self.data, ignore_errors=True)


# -- the people ---------------------------------------------------------------------------------------
@dataclass
class Player(Person):
    """A person who reconnects when the server goes away and sends again what it had not seen
    acknowledged, under the same client action id."""

    seat: int = 0
    sent: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Every acknowledged action, by its client action id."""
    unacknowledged: tuple[str, dict[str, Any]] | None = None
    """The action sent whose answer has not come (the server was killed meanwhile)."""
    reconnects: int = 0
    resent: Counter[str] = field(default_factory=Counter)
    """What came of each resend: ``duplicate`` (it had been committed before the kill),
    ``applied`` (it had not, and was now) or the code it was refused with."""


@dataclass
class Run:
    """When the people stop: set once the kills are done."""

    until: float = math.inf


async def seat_people(http: httpx.AsyncClient, bots: str) -> list[Player]:
    """A new table with two open seats and four bots, and a person joined at each open seat."""
    seats = ["open", "open", *[bots] * 4]
    made = await http.post("/api/tables", json={"game": GAME, "players": 6, "seats": seats,
                                                "window_seconds": 0})
    if made.status_code != 200:
        raise RuntimeError(f"the server refused a new table: {made.text}")
    created = made.json()
    people = []
    for seat, name in ((0, "Lucile"), (1, "Camille")):
        token = created["invites"][str(seat)].split("#invite=")[1]
        (await http.post("/api/join", json={"token": token, "name": name})).raise_for_status()
        people.append(Player(created["table_id"], token, seat=seat))
    return people


async def send_action(person: Player, action_id: str, action: dict[str, Any]) -> dict[str, Any]:
    """Send an action and return its answer (``ack`` or ``error``)."""
    assert person.ws is not None
    person.unacknowledged = (action_id, action)
    await person.ws.send(json.dumps({"type": "action", "id": action_id, "action": action}))
    while True:
        message = await recv(person, 120)
        if message["type"] in ("ack", "error") and message.get("id") == action_id:
            person.unacknowledged = None
            if message["type"] == "ack":
                person.acked.append((message["number"], action_id))
                person.sent[action_id] = action
            return message


async def play_connected(person: Player, rng: random.Random, run: Run) -> None:
    """On an open connection: resend the unacknowledged action, then answer every prompt at once."""
    if person.unacknowledged is not None:
        reply = await send_action(person, *person.unacknowledged)
        if reply["type"] == "ack":
            person.resent["duplicate" if reply["duplicate"] else "applied"] += 1
        else:
            person.resent[reply["code"]] += 1
    while time.monotonic() < run.until and person.status != "over":
        action = await choose(person, rng) if person.status == "playing" else None
        if action is None:
            with contextlib.suppress(TimeoutError):  # not asked: wait for the next update
                await recv(person, min(1.0, max(0.01, run.until - time.monotonic())))
            continue
        started = time.perf_counter()
        reply = await send_action(person, f"{person.table_id}-{person.seat}-{next(_ids)}", action)
        if reply["type"] == "ack":
            person.waits.append(time.perf_counter() - started)
        elif reply["code"] == "flood":  # `tricolore serve` keeps its per-connection limit
            await asyncio.sleep(1.0)
        else:  # a random form can be illegal, or stale: wait for the state to move on
            await asyncio.sleep(0.005)


async def play_on(base: Callable[[], str], person: Player, rng: random.Random, run: Run) -> None:
    """Play until ``run.until`` (and until the last action sent has its answer), reconnecting
    whenever the server goes away, to wherever ``base()`` says it is now."""
    give_up = math.inf
    while (time.monotonic() < run.until or person.unacknowledged is not None) and person.status != "over":
        if math.isfinite(run.until):
            give_up = min(give_up, run.until + 120)
        if time.monotonic() > give_up:
            raise RuntimeError(f"table {person.table_id}: no answer to an action within 120 seconds")
        try:
            await open_socket(base(), person)
        except DROPPED:  # killed, or not listening yet
            await asyncio.sleep(0.05)
            continue
        try:
            await play_connected(person, rng, run)
        except DROPPED:
            person.reconnects += 1
        finally:
            if person.ws is not None:
                with contextlib.suppress(*DROPPED):
                    await person.ws.close()


async def kill_at_random(server: Server, kills: int, rng: random.Random, low: float,
                         high: float) -> list[float]:
    """SIGKILL the server ``kills`` times, each after a random ``low``–``high`` seconds of play,
    starting it again each time; returns how long each restart took."""
    restarts = []
    for _ in range(kills):
        await asyncio.sleep(rng.uniform(low, high))
        server.kill()
        restarts.append(await server.start())
    return restarts


@dataclass
class Faults:
    """What a run did and measured."""

    load: Load
    kills: int
    restarts: list[float]
    people: list[Player]
    at_once: int
    """Tables in play at once (a finished game's people move to a new table)."""

    def report(self) -> str:
        resent = sum((p.resent for p in self.people), Counter())
        mean, most = statistics.mean(self.restarts), max(self.restarts)
        return (f"{self.kills} SIGKILLs; restart to first answer mean {mean:.2f} s, max {most:.2f} s; "
                f"{sum(p.reconnects for p in self.people)} reconnections; "
                f"resends: {dict(sorted(resent.items()))}; {self.at_once} tables at once, so in all:\n"
                f"{self.load.report()}")


async def seat_again(http: httpx.AsyncClient, bots: str, run: Run) -> list[Player] | None:
    """Two people at a new table, trying again while the server is down (a table left half-joined
    by a kill is not played); ``None`` if the run ends first."""
    while time.monotonic() < run.until:
        try:
            return await seat_people(http, bots)
        except (httpx.HTTPError, RuntimeError):
            await asyncio.sleep(0.1)
    return None


async def keep_a_table(server: Server, http: httpx.AsyncClient, pair: list[Player], bots: str,
                       rng: random.Random, run: Run, people: list[Player]) -> None:
    """Play ``pair``; whenever their game ends before the run does, seat two people at a new table
    and play on, so that every kill finds tables in play."""
    while True:
        await asyncio.gather(*(play_on(lambda: server.base, p, random.Random(rng.random()), run)
                               for p in pair))
        found = None if time.monotonic() >= run.until else await seat_again(http, bots, run)
        if found is None:
            return
        pair = found
        people += pair


async def run_faults(server: Server, tables: int, kills: int, low: float, high: float, bots: str = "random",
                     seed: int = 1, settle: float = 1.0) -> Faults:
    """Play ``tables`` tables at once on the running ``server`` while it is killed ``kills`` times."""
    rng = random.Random(seed)
    people: list[Player] = []
    async with httpx.AsyncClient(base_url=server.base, timeout=120) as http:
        pairs: list[list[Player]] = []
        for start in range(0, tables, 20):
            batch = range(start, min(tables, start + 20))
            pairs += await asyncio.gather(*(seat_people(http, bots) for _ in batch))
        people += [p for pair in pairs for p in pair]
        run = Run()
        started = time.monotonic()
        playing = asyncio.gather(*(keep_a_table(server, http, pair, bots, random.Random(rng.random()), run,
                                                people) for pair in pairs))
        try:
            restarts = await kill_at_random(server, kills, rng, low, high)
            run.until = time.monotonic() + settle
            await playing
        except BaseException:
            playing.cancel()
            raise
        elapsed = time.monotonic() - started
    played = {p.table_id for p in people}
    stored = stored_actions(server.url, played)
    waits = [w for p in people for w in p.waits]
    everyone: list[Person] = list(people)
    return Faults(Load(len(played), elapsed, waits, stored, everyone), kills, restarts, people, tables)


# -- the checks -----------------------------------------------------------------------------------------
def stored_actions(url: str, tables: set[str]) -> int:
    engine = make_engine(url)
    try:
        with engine.connect() as db:
            return sum(1 for (t,) in db.execute(select(ActionRow.table_id)) if t in tables)
    finally:
        engine.dispose()


def check_database(url: str, people: list[Player]) -> dict[str, Any]:
    """Check every acknowledged action against the database and replay each table from it;
    returns each table's replayed state. Raises ``AssertionError`` on anything lost or moved."""
    engine = make_engine(url)
    states = {}
    try:
        with engine.connect() as db:
            for table_id in sorted({p.table_id for p in people}):
                row = db.execute(select(TableRow.game, TableRow.rules_version, TableRow.players,
                                        TableRow.seed, TableRow.options).where(TableRow.id == table_id)).one()
                rows = db.execute(select(ActionRow.number, ActionRow.seat, ActionRow.action,
                                         ActionRow.client_action_id, ActionRow.digest)
                                  .where(ActionRow.table_id == table_id).order_by(ActionRow.number)).all()
                assert [r.number for r in rows] == list(range(len(rows))), f"table {table_id} has a gap"
                record = Record(row.game, row.rules_version, row.players, row.seed, dict(row.options),
                                [(r.seat, dict(r.action)) for r in rows], [r.digest for r in rows])
                mismatches = check_record(record).mismatches
                assert not mismatches, f"table {table_id} replays to another digest: {mismatches[0]}"
                states[table_id] = replay(record)
                for person in (p for p in people if p.table_id == table_id):
                    numbers = [number for number, _ in person.acked]
                    assert numbers == sorted(set(numbers)), f"table {table_id}: acknowledged out of order"
                    for number, action_id in person.acked:
                        assert number < len(rows), f"table {table_id} lost acknowledged action {number}"
                        stored = rows[number]
                        assert (stored.seat, stored.client_action_id, stored.action) == (
                            person.seat, action_id, plain(person.sent[action_id])), (
                            f"table {table_id}: action {number} is not the one acknowledged")
    finally:
        engine.dispose()
    return states


async def check_views(server: Server, people: list[Player], states: Mapping[str, Any]) -> None:
    """Start the server again with bots that do not move, and compare every person's view and a
    spectator's, as its welcome gives them, with the replayed state's."""
    await server.start(bot_delay=QUIET)
    try:
        views = await views_after_reconnect(server.base, list(people))
    finally:
        server.stop()
    for person, (seat_view, public_view) in zip(people, views, strict=True):
        state = states[person.table_id]
        assert seat_view == plain(state.view(person.seat)), f"table {person.table_id}, seat {person.seat}"
        assert public_view == plain(state.view(None)), f"table {person.table_id}: the public view"


async def kill_and_check(url: str, log: Path, tables: int, kills: int, low: float, high: float,
                         bot_delay: float = 0.0, bots: str = "random", seed: int = 1) -> Faults:
    """The whole suite: play under ``kills`` SIGKILLs, then check the database and every view."""
    server = Server(url, log, bot_delay)
    await server.start()
    try:
        faults = await run_faults(server, tables, kills, low, high, bots, seed)
    finally:
        server.kill()
    states = check_database(url, faults.people)
    await check_views(server, faults.people, states)
    return faults


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=50, help="SIGKILLs (at least 20)")
    parser.add_argument("--tables", type=int, default=200, help="tables played at once (two people each)")
    parser.add_argument("--low", type=float, default=2.0, help="least seconds of play between kills")
    parser.add_argument("--high", type=float, default=6.0, help="most seconds of play between kills")
    parser.add_argument("--bots", default="random", help="the four bots' strategy")
    parser.add_argument("--bot-delay", type=float, default=0.0, help="seconds a bot waits before acting")
    parser.add_argument("--seed", type=int, default=1)
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--db", default=None, help="database URL (default: a new SQLite file)")
    where.add_argument("--postgres", action="store_true", help="a throwaway PostgreSQL cluster of its own")
    args = parser.parse_args()
    if args.kills < 1 or args.tables < 1 or not 0 < args.low <= args.high <= 600:
        parser.error("--kills and --tables are at least 1, and 0 < --low <= --high <= 600")
    cluster = Cluster() if args.postgres else None
    with tempfile.TemporaryDirectory() as folder:
        try:
            if cluster is not None:
                cluster.start()
            url = cluster.url if cluster is not None else args.db or f"sqlite:///{folder}/faults.db"
            log = Path(folder) / "server.log"
            faults = asyncio.run(kill_and_check(url, log, args.tables, args.kills, args.low, args.high,
                                                args.bot_delay, args.bots, args.seed))
            tracebacks = log.read_text(errors="replace").count("Traceback")
        finally:
            if cluster is not None:
                cluster.remove()
    acked = sum(len(p.acked) for p in faults.people)
    print(f"database: {url.split('://')[0]}; bots: {args.bots}, bot delay {args.bot_delay:g} s")
    print(faults.report())
    print(f"checked: {acked} acknowledged people's actions in the database at their numbers, 0 lost; "
          f"{len(faults.people)} seats' views and the public view of all {faults.load.tables} tables equal "
          f"to the replayed state's; "
          f"{tracebacks} tracebacks in the server's log")


if __name__ == "__main__":
    main()
