"""Server latency: how long a person waits between sending an action and its acknowledgement.

Starts the real server (uvicorn, the table store, SQLite in WAL mode with full synchronisation, or
PostgreSQL with --db) on a loopback port, seats people at Bread and Circuses tables, and times
each action's round trip over the websocket: check, apply, commit, ack. The peer, measured in the
same run on the same server and socket, is the round trip of a message the server refuses without
touching the game or the database (a `domain` request for a kind that does not exist): the ratio
is what the game and the durable commit add to a bare round trip.

    .venv/bin/python benchmarks/server.py --tables 4 --actions 300
    .venv/bin/python benchmarks/server.py --db postgresql://user@localhost/bench
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.server.conftest import LiveServer, Socket, serve
from tests.server.wire import choose


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


def seat_people(server: LiveServer) -> list[Socket]:
    """Three people at a new Bread and Circuses table, each on their own socket."""
    created = server.create("bread-and-circuses", ["open", "open", "open"], window_seconds=0)
    return [server.socket(created["table_id"], server.join(created["invites"][str(s)], f"p{s}"))
            for s in range(3)]


def run_table(server: LiveServer, actions: int, seed: int, acks: list[float], bare: list[float]) -> None:
    socks = seat_people(server)
    rng = random.Random(seed)
    done = 0
    while done < actions:
        for sock in socks:
            sock.drain(0.001)
            start = time.perf_counter()
            sock.send({"type": "domain", "id": "bare", "kind": "-", "param": "-", "chosen": {}})
            sock.expect_reply("bare")
            bare.append(time.perf_counter() - start)
            action = choose(sock, rng)
            if action is None or sock.status != "playing":
                continue
            start = time.perf_counter()
            reply = sock.act(action, f"b{seed}-{done}")
            if reply["type"] == "ack":
                acks.append(time.perf_counter() - start)
                done += 1
        if socks[0].status == "over":
            for sock in socks:
                sock.close()
            socks = seat_people(server)
    for sock in socks:
        sock.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=4, help="tables played at once, one thread each")
    parser.add_argument("--actions", type=int, default=300, help="acknowledged actions per table")
    parser.add_argument("--db", default=None, help="database URL (default: a new SQLite file)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        url = args.db or f"sqlite:///{folder}/bench.db"
        servers = serve(url, flood_limit=(10**9, 1.0))
        server = next(servers)
        acks: list[float] = []
        bare: list[float] = []
        started = time.perf_counter()
        threads = [threading.Thread(target=run_table, args=(server, args.actions, t, acks, bare))
                   for t in range(args.tables)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.perf_counter() - started
        next(servers, None)
    ms = [a * 1000 for a in acks]
    base = [b * 1000 for b in bare]
    print(f"database: {url.split('://')[0]}; {args.tables} tables at once, {len(ms)} actions in "
          f"{elapsed:.1f} s ({len(ms) / elapsed:.0f} acknowledged actions/s)")
    print(f"action round trip (check, apply, commit, ack): median {statistics.median(ms):.2f} ms, "
          f"p95 {percentile(ms, 0.95):.2f} ms, p99 {percentile(ms, 0.99):.2f} ms")
    print(f"bare round trip (peer, same socket): median {statistics.median(base):.2f} ms, "
          f"p95 {percentile(base, 0.95):.2f} ms")
    print(f"ratio action / bare: {statistics.median(ms) / statistics.median(base):.1f}x (median)")


if __name__ == "__main__":
    main()
