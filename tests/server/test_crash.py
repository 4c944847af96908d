"""Killing the server mid-game loses nothing: `tricolore serve` as a subprocess, SIGKILL, restart."""

from __future__ import annotations

import json
import random
import signal
import time
from pathlib import Path

import httpx

from tests.server.conftest import LiveServer, free_port, new_store, serve_process
from tests.server.wire import choose
from tricolore.server.db import ActionRow


def test_a_killed_server_resumes_every_table_at_the_same_digest(db_url: str, tmp_path: Path):
    port = free_port()
    log = tmp_path / "server.log"
    server = serve_process(db_url, port, log)
    base = f"http://127.0.0.1:{port}"
    with httpx.Client(base_url=base, timeout=30) as http:
        live = LiveServer(base, None, http)  # type: ignore[arg-type]  # no in-process store here
        games = ["let-them-eat-cake", "bread-and-circuses"]
        tables = {g: live.create(g, ["open", "open", "random"], window_seconds=0) for g in games}
        socks = {}
        for game, created in tables.items():
            tokens = [live.join(created["invites"][str(s)], f"p{s}") for s in (0, 1)]
            socks[game] = [live.socket(created["table_id"], t) for t in tokens]
        rng = random.Random(7)
        acked: dict[str, list[tuple[str, int, dict]]] = {g: [] for g in games}
        for _ in range(12):  # within the flood limit a person gets
            for game in games:
                for sock in socks[game]:
                    sock.drain()
                    action = choose(sock, rng)
                    if action is not None and sock.status == "playing":
                        action_id = f"c{rng.random()}"
                        reply = sock.act(action, action_id)
                        if reply["type"] == "ack":
                            acked[game].append((action_id, reply["number"], action))
        # one more action, and the kill as soon as it is acknowledged
        killed = games[0]
        for _attempt in range(20):
            for sock in socks[killed]:
                sock.drain()
            actor = next(s for s in socks[killed] if s.prompt and s.prompt["actions"])
            action = choose(actor, rng)
            assert action is not None
            actor.send({"type": "action", "id": "last", "action": action})
            reply = actor.expect_reply("last")
            if reply["type"] == "ack":
                break
            assert reply["code"] != "flood", reply
        server.send_signal(signal.SIGKILL)
        server.wait()
        acked[killed].append(("last", reply["number"], action))

    store = new_store(db_url)
    assert store.resume() == len(games)  # replays every table and checks every stored digest
    with store.session() as db:
        for game, created in tables.items():
            table = store.live[created["table_id"]]
            stored = db.query(ActionRow).filter_by(table_id=table.id).order_by(ActionRow.number).all()
            assert table.state.digest() == stored[-1].digest
            for action_id, number, action in acked[game]:
                assert stored[number].client_action_id == action_id and stored[number].action == action
    store.engine.dispose()

    server = serve_process(db_url, port, log)
    try:
        with httpx.Client(base_url=base, timeout=30) as http:
            live = LiveServer(base, None, http)  # type: ignore[arg-type]
            resumed_socks = {}
            for game, created in tables.items():
                info = http.get(f"/api/tables/{created['table_id']}").json()
                assert info["status"] == "playing" and info["actions"] >= acked[game][-1][1] + 1
                tokens = [created["invites"][str(s)].split("#invite=")[1] for s in (0, 1)]
                resumed_socks[game] = [live.socket(created["table_id"], t) for t in tokens]
            time.sleep(0.5)  # let the bots finish their moves
            for sock in (s for pair in resumed_socks.values() for s in pair):
                sock.drain(0.2)
            after = new_store(db_url)
            after.resume()
            for game, created in tables.items():
                state = after.live[created["table_id"]].state
                for seat, resumed in enumerate(resumed_socks[game]):
                    assert resumed.view == json.loads(json.dumps(state.view(seat)))
            after.engine.dispose()
            owner = socks[killed].index(actor)
            resent = resumed_socks[killed][owner].act(action, "last")
            assert resent["type"] == "ack" and resent["duplicate"] and resent["number"] == reply["number"]
            for resumed in (s for pair in resumed_socks.values() for s in pair):
                resumed.close()
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
    assert "Traceback" not in log.read_text(), log.read_text()  # the served process's own log
