"""Time stamps around the server's stages, for ``benchmarks/load.py --profile``.

Installed in the server's own process: it wraps ``asyncio.to_thread`` (how long each kind of work
waits for a worker thread and then runs), the table store's ``act`` and the database commits, and
samples how late the event loop wakes up (its lag: the time a message waits to be read or sent
while the loop is busy). The event loop's own work (views, messages, sends) is profiled with
cProfile. Everything is printed when the server stops.
"""

from __future__ import annotations

import asyncio
import contextvars
import cProfile
import functools
import json
import pstats
import threading
import time
from collections import defaultdict
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal

from sqlalchemy.orm import Session

if TYPE_CHECKING:
    from tricolore.server.tables import TableStore


def patch(owner: object, name: str, value: object) -> None:
    """Put ``value`` in place of ``owner.name`` (for this server process only)."""
    setattr(owner, name, value)


class Stages:
    """Durations per stage, in seconds."""

    def __init__(self) -> None:
        self.times: dict[str, list[float]] = defaultdict(list)
        self.lock = threading.Lock()

    def add(self, stage: str, seconds: float) -> None:
        with self.lock:
            self.times[stage].append(seconds)

    def time_locks(self) -> None:
        """Time the wait for every asyncio lock made from now on (call before importing the app,
        whose rooms' locks are then timed): how long an action waits for its table's room."""
        stages = self

        class TimedLock(asyncio.Lock):
            async def acquire(self) -> Literal[True]:
                started = time.perf_counter()
                try:
                    return await super().acquire()
                finally:
                    stages.add("room lock wait", time.perf_counter() - started)

        patch(asyncio, "Lock", TimedLock)

    @classmethod
    def install(cls, store: TableStore, stages: Stages | None = None) -> Stages:
        """Wrap the stages of a server over ``store`` (call before ``create_app``)."""
        stages = stages or cls()

        async def timed_to_thread(func: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
            name = getattr(func, "__name__", "work")
            submitted = time.perf_counter()

            def run() -> Any:
                started = time.perf_counter()
                stages.add(f"thread wait ({name})", started - submitted)
                try:
                    return func(*args, **kwargs)
                finally:
                    stages.add(f"thread run ({name})", time.perf_counter() - started)

            loop = asyncio.get_running_loop()
            context = contextvars.copy_context()
            return await loop.run_in_executor(None, functools.partial(context.run, run))

        patch(asyncio, "to_thread", timed_to_thread)
        commit = Session.commit

        def timed_commit(self: Session) -> None:
            started = time.perf_counter()
            try:
                commit(self)
            finally:
                stages.add("database commit", time.perf_counter() - started)

        patch(Session, "commit", timed_commit)
        applied = getattr(store, "_applied", None)

        def timed_applied(*args: Any) -> Any:
            started = time.perf_counter()
            try:
                return applied(*args)  # type: ignore[misc]
            finally:
                stages.add("duplicate check (read)", time.perf_counter() - started)

        if hasattr(store, "_applied"):
            patch(store, "_applied", timed_applied)
        act = store.act

        def timed_act(*args: Any) -> Any:
            started = time.perf_counter()
            try:
                return act(*args)
            finally:
                stages.add("store.act (lock, apply, commit)", time.perf_counter() - started)

        patch(store, "act", timed_act)
        writer = getattr(store, "writer", None)
        if writer is not None:
            write = writer._write

            def timed_write(batch: Any) -> None:
                started = time.perf_counter()
                try:
                    write(batch)
                finally:
                    stages.add("group commit (one transaction)", time.perf_counter() - started)
                    stages.add("group commit size (x1000 = actions)", len(batch) / 1000)

            patch(writer, "_write", timed_write)
            stages.measure(writer, "commit", "store.act: waiting for its group commit")
        from tricolore.core.registry import get_game

        state_type = type(get_game("bread-and-circuses").new(6, 1, {}))
        stages.measure(state_type, "apply", "state.apply")
        stages.measure(state_type, "digest", "state.digest")
        stages.measure(state_type, "clone", "state.clone (a bot's copy)")
        stages.measure(state_type, "view", "state.view")
        return stages

    def measure(self, owner: Any, name: str, stage: str) -> None:
        """Time every call of ``owner.name`` (a class's method or an object's) as ``stage``."""
        inner = getattr(owner, name)

        @functools.wraps(inner)
        def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return inner(*args, **kwargs)
            finally:
                self.add(stage, time.perf_counter() - started)

        setattr(owner, name, timed)

    def wrap(self, app: Any) -> Any:
        """``app`` with the server's own action→ack time measured at the websocket: from the
        frame read to the ack's frame written (what a person waits, less the network and the
        client)."""
        received: dict[str, float] = {}

        async def timed(scope: Any, receive: Any, send: Any) -> None:
            if scope["type"] != "websocket":
                await app(scope, receive, send)
                return

            async def timed_receive() -> Any:
                message = await receive()
                text = message.get("text") or ""
                if '"action"' in text:
                    found = json.loads(text)
                    if found.get("type") == "action" and isinstance(found.get("id"), str):
                        received[found["id"]] = time.perf_counter()
                return message

            async def timed_send(message: Any) -> None:
                text = message.get("text") or ""
                if text.startswith('{"type":"ack"') or text.startswith('{"type": "ack"'):
                    started = received.pop(json.loads(text).get("id"), None)
                    if started is not None:
                        await send(message)
                        self.add("server: action frame read → ack written", time.perf_counter() - started)
                        return
                await send(message)

            await app(scope, timed_receive, timed_send)

        return timed

    async def watch_loop(self) -> None:
        """Sample the event loop's lag every 10 ms."""
        while True:
            started = time.perf_counter()
            await asyncio.sleep(0.01)
            self.add("event loop lag", time.perf_counter() - started - 0.01)

    def run(self, server: Any, profile: str) -> None:
        """Run the uvicorn ``server`` under cProfile, then print every stage and write the profile."""
        profiler = cProfile.Profile()

        async def serve() -> None:
            watcher = asyncio.get_running_loop().create_task(self.watch_loop())
            await server.serve()
            watcher.cancel()

        profiler.enable()
        try:
            asyncio.run(serve())
        finally:
            profiler.disable()
            profiler.dump_stats(profile)
            self.print()
            pstats.Stats(profile).sort_stats("tottime").print_stats(25)

    def print(self) -> None:
        print(f"{'stage':44} {'count':>8} {'total s':>9} {'mean ms':>9} {'p99 ms':>9}")
        for stage, values in sorted(self.times.items(), key=lambda kv: -sum(kv[1])):
            ordered = sorted(values)
            p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
            print(f"{stage:44} {len(values):8} {sum(values):9.2f} {1000 * sum(values) / len(values):9.2f} "
                  f"{1000 * p99:9.2f}")
