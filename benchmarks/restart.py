"""Restart: how long a server takes to bring its live tables back after it is killed.

Fills a database with live Bread and Circuses tables (six seats, each played for a number of
actions by random players through the table store, as the server records them), then times what
`tricolore serve` does at start-up before it listens: open the database, apply migrations, resume
every live table. The peer, timed in the same run, is opening the same database and reading every
stored action without rebuilding anything: the ratio is what rebuilding the games adds.

    .venv/bin/python benchmarks/restart.py --tables 200 --actions 120
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import func, select

from tricolore.agents import decide, make_agent
from tricolore.core.registry import get_game
from tricolore.server.db import ActionRow, make_engine, migrate, sqlite_url
from tricolore.server.tables import TableStore


def fill(url: str, tables: int, actions: int, seed: int) -> None:
    """``tables`` live tables of ``actions`` actions each (fewer if a game ends first: it is then
    replaced by a fresh one, so every table counted is live)."""
    engine = make_engine(url)
    migrate(engine)
    store = TableStore(engine)
    game = get_game("bread-and-circuses")
    agent = make_agent(game, "random")
    rng = random.Random(seed)
    live = 0
    while live < tables:
        created = store.create("bread-and-circuses", 6, ["open"] * 6, seed=rng.randrange(2**31))
        for seat in range(6):
            store.join(created.invites[seat], f"p{seat}")
        table = store.live[created.table_id]
        for _ in range(actions):
            state = table.state
            if state.is_over():
                break
            pending = state.pending() or {}
            seat = min(pending)
            outcome = store.act(table.id, seat, decide(agent, state, seat, rng))
            assert outcome.accepted, outcome.message
        live += not table.state.is_over()
    engine.dispose()


def restart(url: str) -> tuple[float, int]:
    started = time.perf_counter()
    engine = make_engine(url)
    migrate(engine)
    resumed = TableStore(engine).resume()
    elapsed = time.perf_counter() - started
    engine.dispose()
    return elapsed, resumed


def read_only(url: str) -> float:
    started = time.perf_counter()
    engine = make_engine(url)
    with engine.connect() as db:
        count = db.execute(select(func.count()).select_from(ActionRow)).scalar_one()
        rows = db.execute(select(ActionRow.table_id, ActionRow.number, ActionRow.action)).all()
    assert len(rows) == count
    engine.dispose()
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--actions", type=int, default=120)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        url = sqlite_url(Path(folder) / "tables.db")
        started = time.perf_counter()
        fill(url, args.tables, args.actions, args.seed)
        print(f"filled {args.tables} live tables of up to {args.actions} actions in "
              f"{time.perf_counter() - started:.1f} s")
        for run in range(args.runs):
            elapsed, resumed = restart(url)
            bare = read_only(url)
            print(f"run {run + 1}: resumed {resumed} tables in {elapsed:.3f} s; reading every action "
                  f"alone {bare:.3f} s; ratio {elapsed / bare:.1f}x")


if __name__ == "__main__":
    main()
