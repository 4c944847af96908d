"""A table's life on a real server: the turn clock, closing a table, seats bound to a browser,
the creator's invites, and the pages for tables that do not exist."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from tests.server.conftest import LiveServer, serve
from tricolore.server.db import TableRow, sqlite_url

BROWSER_A = "a" * 32
BROWSER_B = "b" * 32


def join(live_server: LiveServer, invite: str, name: str, device: str | None = None,
         move: bool = False) -> tuple[int, dict]:
    token = invite.split("#invite=")[1]
    response = live_server.http.post("/api/join", json={"token": token, "name": name, "device": device,
                                                        "move": move})
    return response.status_code, response.json()


def token_of(invite: str) -> str:
    return invite.split("#invite=")[1]


def hello(live_server: LiveServer, table: str, token: str, device: str | None):
    from websockets.sync.client import connect

    from tests.server.conftest import Socket
    ws = connect(live_server.base.replace("http", "ws") + f"/ws/{table}", max_size=None).__enter__()
    ws.send(json.dumps({"type": "hello", "version": 1, "token": token, "device": device}))
    return Socket(ws)


def actions_of(live_server: LiveServer, table: str, seat: int) -> list[dict]:
    return [a for s, a in live_server.store.live[table].actions if s == seat]


def wait_until(condition, seconds: float = 10) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


# -- the turn clock -----------------------------------------------------------------------------------
def test_when_the_clock_runs_out_on_a_turn_that_cannot_be_passed_a_bot_decides_for_the_seat(live_server):
    created = live_server.create("culottes", ["open", "random", "random"], clock_seconds=1, window_seconds=0)
    table = created["table_id"]
    sock = live_server.socket(table, live_server.join(created["invites"]["0"], "Marat"))
    assert sock.prompt and "choose_role" in sock.prompt["kinds"] and "pass" not in sock.prompt["kinds"]
    assert 0 < sock.prompt["seconds_left"] <= 1
    assert wait_until(lambda: actions_of(live_server, table, 0) != [], 10)
    assert actions_of(live_server, table, 0)[0]["type"] == "choose_role"
    assert live_server.store.live[table].seats[0]["kind"] == "human"  # the seat stays the person's
    sock.close()


def test_the_clock_passes_for_a_seat_that_does_not_answer_a_response_window(live_server):
    created = live_server.create("bread-and-circuses", ["open", "open", "open"], window_seconds=0,
                                 clock_seconds=1, bots_take_over=False, options={"first_player": 0})
    table = created["table_id"]
    socks = [live_server.socket(table, live_server.join(created["invites"][str(s)], f"p{s}"))
             for s in range(3)]
    for s, sock in enumerate(socks):
        assert sock.act({"type": "ready"}, f"r{s}")["type"] == "ack"
    for s, sock in enumerate(socks):
        assert sock.act({"type": "play", "tile": "bread"}, f"p{s}")["type"] == "ack"
    assert wait_until(lambda: any(a["type"] == "pass" for _, a in live_server.store.live[table].actions))
    for sock in socks:
        sock.close()


def test_every_connection_sees_the_running_clocks(live_server):
    created = live_server.create("culottes", ["open", "random", "random"], clock_seconds=60)
    table = created["table_id"]
    player = live_server.socket(table, live_server.join(created["invites"]["0"], "Marat"))
    watcher = live_server.socket(table)
    clocks = watcher.welcome["clocks"]
    assert [c["seat"] for c in clocks] == [0] and 55 < clocks[0]["seconds_left"] <= 60
    assert watcher.welcome["clock_seconds"] == 60
    player.close()
    watcher.close()


def test_an_action_made_in_time_is_kept_and_the_clock_starts_again_for_the_next_decision(live_server):
    created = live_server.create("culottes", ["open", "random", "random"], clock_seconds=2, window_seconds=0)
    table = created["table_id"]
    sock = live_server.socket(table, live_server.join(created["invites"]["0"], "Marat"))
    first_key = live_server.store.live[table].deadlines[0][0]
    assert sock.act({"type": "choose_role", "role": "revolutionary"}, "mine")["type"] == "ack"
    time.sleep(2.5)
    assert actions_of(live_server, table, 0)[0] == {"type": "choose_role", "role": "revolutionary"}
    deadline = live_server.store.live[table].deadlines.get(0)
    assert deadline is None or deadline[0] != first_key
    sock.close()


def test_a_clock_keeps_its_deadline_across_a_restart_and_runs_out_after_it(tmp_path: Path):
    url = sqlite_url(tmp_path / "tables.db")
    first = serve(url)
    server = next(first)
    tables = {}
    for seconds in (60, 2):
        created = server.create("culottes", ["open", "random", "random"], clock_seconds=seconds,
                                window_seconds=0)
        tables[seconds] = created["table_id"]
        server.join(created["invites"]["0"], "Marat")
    assert wait_until(lambda: all(0 in server.store.live[t].deadlines for t in tables.values()))
    stored = {seconds: server.store.live[t].deadlines[0] for seconds, t in tables.items()}
    next(first, None)
    with server.store.session() as db:
        row = db.get(TableRow, tables[60])
        assert row is not None and row.deadlines == {"0": list(stored[60])}
    time.sleep(max(0.0, stored[2][1] - time.time()) + 0.2)  # the short clock runs out while no server runs
    second = serve(url, resume=True)
    again = next(second)
    try:
        assert again.store.live[tables[60]].deadlines[0] == stored[60]
        assert actions_of(again, tables[60], 0) == []
        assert wait_until(lambda: actions_of(again, tables[2], 0) != [], 10)  # dealt with on resuming
    finally:
        next(second, None)


@pytest.mark.parametrize("clock", [-1, 3601, "soon", 2.5])
def test_a_bad_clock_is_refused_with_a_sentence(live_server, clock):
    response = live_server.http.post("/api/tables", json={"game": "culottes", "players": 3,
                                                          "seats": ["open"] * 3, "clock_seconds": clock})
    assert response.status_code in (400, 422)
    detail = response.json()["detail"]
    assert "clock" in detail and detail.endswith(".")
    assert live_server.store.live == {}
