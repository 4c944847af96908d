"""A hostile player and a careless client against a real server on loopback: every attack is
refused with a sentence, changes nothing, keeps the connection, and leaves no traceback in the log
(the ``no_traceback_in_the_server_log`` fixture checks the log after every test)."""

from __future__ import annotations

import contextlib
import json
import random
import time
from collections.abc import Iterator

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.server.conftest import LiveServer, new_store, serve
from tricolore.agents import make_agent, offered_actions
from tricolore.core.registry import get_game
from tricolore.server.app import MAX_BODY
from tricolore.server.db import ActionRow, ChatRow, TableRow, sqlite_url
from tricolore.server.tables import TableStore, bot_rng

SURROGATE_NAME = ('{"type": "action", "id": "s1", "action": '
                  '{"type": "choose_role", "role": "grabber", "name": "\\ud800x"}}')


def culottes_for_two(live_server: LiveServer) -> tuple[str, list]:
    created = live_server.create("culottes", ["open", "open", "random"], window_seconds=0)
    tokens = [live_server.join(created["invites"][str(s)], f"person {s}") for s in (0, 1)]
    return created["table_id"], [live_server.socket(created["table_id"], t) for t in tokens]


def acts_of(live_server: LiveServer, table: str, seat: int) -> list[dict]:
    """The actions ``seat`` has taken at ``table`` (the bot in the third seat moves on its own)."""
    return [a for s, a in live_server.store.live[table].actions if s == seat]


def still_served(live_server: LiveServer, table: str, sock) -> None:
    """The table still answers: a spectator is welcomed and the seat's socket can chat."""
    watcher = live_server.socket(table)
    json.dumps(watcher.welcome).encode("utf-8")
    watcher.close()
    sock.send({"type": "chat", "text": "still here", "to": None})
    assert sock.expect("chat")["text"] == "still here"


# -- text that a table could not send ---------------------------------------------------------------
def test_a_lone_surrogate_in_a_citizens_name_is_refused_and_the_table_goes_on(live_server):
    table, socks = culottes_for_two(live_server)
    socks[0].send(SURROGATE_NAME)
    refused = socks[0].expect("error")
    assert refused["id"] == "s1" and "valid Unicode" in refused["message"]
    assert acts_of(live_server, table, 0) == []
    answer = socks[0].act({"type": "choose_role", "role": "grabber", "name": "Person Zero"}, "s2")
    assert answer["type"] == "ack", answer
    still_served(live_server, table, socks[0])


@pytest.mark.parametrize("text", ["\ud800", "a\x00b", "bell\x07"])
def test_chat_with_a_lone_surrogate_or_a_control_character_is_refused_with_a_sentence(live_server, text):
    table, socks = culottes_for_two(live_server)
    socks[0].send(json.dumps({"type": "chat", "id": "c1", "text": text, "to": None}))
    refused = socks[0].expect("error")
    assert refused["code"] in ("malformed", "bad_chat") and refused["message"].endswith(".")
    assert live_server.store.chat_for(table, 0) == []
    still_served(live_server, table, socks[0])


def test_a_hello_token_with_a_lone_surrogate_is_refused_with_a_sentence(live_server):
    created = live_server.create("culottes", ["open", "random", "random"])
    with connect(live_server.base.replace("http", "ws") + f"/ws/{created['table_id']}") as ws:
        ws.send('{"type": "hello", "version": 1, "token": "\\udc00abc"}')
        refused = json.loads(ws.recv(timeout=10))
    assert refused["type"] == "error" and "Unicode" in refused["message"]


@pytest.mark.parametrize("body", [
    '{"token": "\\ud800", "name": "x"}',
    '{"token": "abc", "name": "Marat\\udfff"}',
    '{"token": "abc", "name": "a\\u0000b"}',
    '{"token": 7, "name": "x"}',
])
def test_a_join_with_text_that_cannot_be_stored_is_refused_with_a_sentence(live_server, body):
    response = live_server.http.post("/api/join", content=body, headers={"Content-Type": "application/json"})
    assert response.status_code == 422
    detail = response.json()["detail"]
    assert detail.startswith("Malformed request (") and detail.endswith(".")


def test_tables_already_holding_text_they_cannot_send_are_repaired_on_start_up(tmp_path):
    url = f"sqlite:///{tmp_path / 'old.db'}"
    store = new_store(url)
    created = store.create("culottes", 3, ["open", "open", "open"], seed=3)
    for s, token in created.invites.items():
        store.join(token, f"person {s}")
    table = created.table_id
    assert store.act(table, 0, {"type": "choose_role", "role": "grabber", "name": "Marat"}).accepted
    with store.session() as db, db.begin():  # what an older server let through
        db.add(ActionRow(table_id=table, number=1, seat=1, digest="0" * 32,
                         action={"type": "choose_role", "role": "revolutionary", "name": "Dan\ud800ton"}))
        db.add(ChatRow(table_id=table, from_seat=0, to_seat=None, text="hello\x00there\x1b"))
        row = db.get(TableRow, table)
        assert row is not None
        row.seats = [{"kind": "human", "name": "Ro\ud801bes\x1bpierre"}, *row.seats[1:]]
    store.engine.dispose()

    again = new_store(url)
    assert again.resume() == 1
    live = again.live[table]
    assert live.actions[1][1]["name"] == "Dan\ufffdton" and len(live.actions) == 2
    for seat in (None, 0, 1, 2):
        json.dumps(live.state.view(seat), ensure_ascii=False).encode("utf-8")
    assert live.seats[0]["name"] == "Ro\ufffdbespierre"
    assert [c["text"] for c in again.chat_for(table, 0)] == ["hellothere"]
    again.engine.dispose()
    third = new_store(url)  # the repair was saved: the next start replays cleanly to the same digest
    third.resume()
    assert third.live[table].state.digest() == live.state.digest()
    third.engine.dispose()


# -- bots' secrets --------------------------------------------------------------------------------
def predicted_by_table_id(table_id: str, seat: int, number: int) -> random.Random:
    """How a bot's generator used to be seeded: from facts in every link."""
    return random.Random(f"bot:{table_id}:{seat}:{number}")


def test_bots_secret_roles_cannot_be_predicted_from_public_facts(live_server):
    game = get_game("culottes")
    hits = tries = 0
    for _ in range(3):
        created = live_server.create("culottes", ["random"] * 6, window_seconds=0)
        table = live_server.store.live[created["table_id"]]
        deadline = time.monotonic() + 20
        while len(table.actions) < 6 and time.monotonic() < deadline:
            time.sleep(0.02)
        state = game.new(6, table.seed, table.options)
        for number, (seat, action) in enumerate(table.actions[:6]):
            agent = make_agent(game, "random")
            guess = agent.act(state.view(seat), offered_actions(state, seat, agent),
                              predicted_by_table_id(table.id, seat, number))
            hits += guess["role"] == action["role"]
            tries += 1
            state.apply(seat, action)
    assert tries == 18 and hits < 18  # chance alone matches all 18 once in 262,144 runs


def test_the_bot_secret_is_kept_by_the_server_and_never_sent(live_server):
    created = live_server.create("culottes", ["open", "random", "random"], window_seconds=0)
    table = live_server.store.live[created["table_id"]]
    secret = table.bot_secret
    assert len(secret) == 64 and table.id not in secret
    token = live_server.join(created["invites"]["0"], "Marat")
    sock = live_server.socket(table.id, token)
    sock.act({"type": "choose_role", "role": "grabber"}, "r0")
    sock.drain(0.3)
    seen = "".join(sock.received) + live_server.http.get(f"/api/tables/{table.id}").text
    assert secret not in seen
    with live_server.store.session() as db:
        row = db.get(TableRow, table.id)
        assert row is not None and row.bot_secret == secret
    assert bot_rng(secret, 1, 0).random() == bot_rng(secret, 1, 0).random()
    assert bot_rng(secret, 1, 0).random() != bot_rng("0" * 64, 1, 0).random()


def test_a_resumed_table_keeps_its_bot_secret(tmp_path):
    url = f"sqlite:///{tmp_path / 't.db'}"
    store = new_store(url)
    created = store.create("culottes", 3, ["open", "random", "random"])
    secret = store.live[created.table_id].bot_secret
    store.engine.dispose()
    again = new_store(url)
    again.resume()
    assert again.live[created.table_id].bot_secret == secret
    again.engine.dispose()


# -- resources ------------------------------------------------------------------------------------
@pytest.mark.real_flood_limit
def test_table_creation_is_rate_limited_per_client_with_a_sentence(live_server):
    body = {"game": "culottes", "players": 3, "seats": ["random"] * 3}
    answers = [live_server.http.post("/api/tables", json=body) for _ in range(11)]
    assert [a.status_code for a in answers[:10]] == [200] * 10
    assert answers[10].status_code == 429 and "Too many new tables" in answers[10].json()["detail"]


def first_answer(server: LiveServer, table: str) -> dict:
    """What a new spectator's connection is told first: its welcome, or why it is refused."""
    with connect(server.base.replace("http", "ws") + f"/ws/{table}") as ws:
        with contextlib.suppress(ConnectionClosed):  # a refused connection may close before the hello
            ws.send(json.dumps({"type": "hello", "version": 1, "token": None}))
        return json.loads(ws.recv(timeout=10))


def test_one_address_holds_only_so_many_sockets_open_and_gets_a_sentence_past_them(tmp_path):
    for server in serve(sqlite_url(tmp_path / "tables.db"), socket_limit=3):
        table = server.create("culottes", ["random"] * 3)["table_id"]
        watchers = [server.socket(table) for _ in range(3)]
        refused = first_answer(server, table)
        assert refused["code"] == "too_many_connections"
        assert refused["message"].startswith("Too many open connections: at most 3 at once")
        watchers.pop().close()
        deadline = time.monotonic() + 10
        while first_answer(server, table)["type"] != "welcome":
            assert time.monotonic() < deadline, "a closed socket was never counted out"
            time.sleep(0.1)
        for sock in watchers:
            sock.close()


POSTS = ["/api/tables", "/api/join", "/api/leave", "/api/tables/nope/invites", "/api/tables/nope/close"]


@pytest.mark.parametrize("path", POSTS)
def test_a_request_body_over_the_limit_is_refused_with_a_sentence_unread(live_server, path):
    declared = live_server.http.get("/openapi.json").json()["paths"][path.replace("nope", "{table_id}")]
    huge = b'{"token": "' + b"x" * 200_000 + b'"}'
    response = live_server.http.post(path, content=huge, headers={"Content-Type": "application/json"})
    assert response.status_code == 413 and "413" in declared["post"]["responses"]
    said = response.json()["detail"]
    assert said == f"A request body has at most {MAX_BODY} bytes; this one has {len(huge)}."

    def chunks() -> Iterator[bytes]:  # sent without its length: cut once the limit is read
        yield b'{"token": "'
        yield from (b"x" * 10_000 for _ in range(10))

    response = live_server.http.post(path, content=chunks(), headers={"Content-Type": "application/json"})
    assert response.status_code == 413 and response.json()["detail"].endswith(".")
    assert len(live_server.store.live) == 0


# -- messages that used to drop the connection -----------------------------------------------------
@pytest.mark.parametrize("param", [["name"], {"a": 1}, 5, None])
def test_a_domain_request_whose_param_is_not_text_gets_a_sentence(live_server, param):
    table, socks = culottes_for_two(live_server)
    socks[0].send({"type": "domain", "id": "d1", "kind": "choose_role", "param": param, "chosen": {}})
    refused = socks[0].expect_reply("d1")
    assert refused["type"] == "error" and refused["code"] == "malformed"
    still_served(live_server, table, socks[0])


def test_json_nested_five_thousand_deep_gets_a_sentence_before_and_after_hello(live_server):
    created = live_server.create("culottes", ["open", "random", "random"])
    token = live_server.join(created["invites"]["0"], "Marat")
    deep = "[" * 5000 + "]" * 5000
    assert len(deep) < 16_384
    with connect(live_server.base.replace("http", "ws") + f"/ws/{created['table_id']}") as ws:
        ws.send(deep)
        before = json.loads(ws.recv(timeout=10))
        assert before["type"] == "error" and "nests deeper" in before["message"]
        ws.send(json.dumps({"type": "hello", "version": 1, "token": token}))
        assert json.loads(ws.recv(timeout=10))["type"] == "welcome"
        ws.send('{"type": "action", "id": "x", "action": ' + deep + "}")
        while (after := json.loads(ws.recv(timeout=10)))["type"] == "update":
            pass  # the bots keep playing meanwhile
        assert after["type"] == "error" and "nests deeper" in after["message"]
        ws.send(json.dumps({"type": "chat", "text": "still here", "to": None}))
        while (reply := json.loads(ws.recv(timeout=10)))["type"] != "chat":
            assert reply["type"] == "update"  # the bots keep playing meanwhile
        assert reply["text"] == "still here"


@pytest.mark.parametrize("body", ['{"game": "culottes", "players": NaN, "seats": ["open"]}',
                                  '{"game": "culottes", "players": Infinity, "seats": ["open"]}',
                                  '{"game": "culottes", "players": 3, '
                                  '"seats": ["open", "\\ud800", "random"]}',
                                  '{"game": "culottes", "players": 3, "seats": [], "options": '
                                  + '{"a": ' * 50 + "1" + "}" * 51])
def test_a_lobby_request_with_nan_or_invalid_text_answers_422_with_a_sentence(live_server, body):
    response = live_server.http.post("/api/tables", content=body,
                                     headers={"Content-Type": "application/json"})
    assert response.status_code in (400, 422)
    assert response.json()["detail"].endswith(".")


# -- client action ids ------------------------------------------------------------------------------
@pytest.mark.parametrize("bad_id", [7, True, 1.5, None, "", "x" * 65, ["a"]])
def test_a_client_action_id_must_be_short_text(live_server, bad_id):
    table, socks = culottes_for_two(live_server)
    socks[0].send({"type": "action", "id": bad_id, "action": {"type": "choose_role", "role": "grabber"}})
    refused = socks[0].expect("error")
    assert refused["code"] in ("malformed", "bad_id") and refused["message"].endswith(".")
    assert acts_of(live_server, table, 0) == []


def test_client_action_ids_are_compared_exactly(live_server):
    table, socks = culottes_for_two(live_server)
    long_id = "x" * 63 + "A"
    assert socks[0].act({"type": "choose_role", "role": "grabber"}, long_id)["type"] == "ack"
    other = socks[0].act({"type": "choose_role", "role": "revolutionary"}, "x" * 63 + "a")
    assert other["type"] == "error"  # a new action, refused by the rules, not taken for a resend
    resend = socks[0].act({"type": "choose_role", "role": "grabber"}, long_id)
    assert resend["type"] == "ack" and resend["duplicate"]
    assert len(acts_of(live_server, table, 0)) == 1


# -- protocol edges -----------------------------------------------------------------------------------
@pytest.mark.real_flood_limit
def test_malformed_frames_count_against_the_flood_limit(live_server):
    _table, socks = culottes_for_two(live_server)
    for _ in range(70):
        socks[0].send("not json")
    codes = [socks[0].expect("error")["code"] for _ in range(70)]
    assert codes.count("malformed") <= 60 and codes[-1] == "flood"


@pytest.mark.parametrize("version", [True, 1.0, "1", [1]])
def test_hello_takes_only_the_integer_protocol_version(live_server, version):
    created = live_server.create("culottes", ["random"] * 3)
    with connect(live_server.base.replace("http", "ws") + f"/ws/{created['table_id']}") as ws:
        ws.send(json.dumps({"type": "hello", "version": version, "token": None}))
        refused = json.loads(ws.recv(timeout=10))
    assert refused["type"] == "error" and refused["code"] == "bad_hello"


def test_a_seat_a_bot_took_over_gets_the_public_view_only(live_server):
    created = live_server.create("culottes", ["open", "random", "random"], window_seconds=0)
    table = created["table_id"]
    token = live_server.join(created["invites"]["0"], "Marat")
    sock = live_server.socket(table, token)
    assert "you" in sock.view
    sock.send({"type": "leave"})
    notice = sock.expect("notice")
    assert notice["code"] == "seat_gone" and "spectator" in notice["message"]
    sock.drain(0.5)
    assert "you" not in sock.view
    later = live_server.socket(table, token)
    assert later.welcome["seat"] is None and "you" not in later.welcome["view"]
    assert later.expect("notice")["code"] == "seat_gone"


def test_a_postgresql_table_refuses_a_nul_in_chat_and_keeps_serving(postgres_url, tmp_path):
    import os

    from tricolore.server.db import make_engine
    name = f"sec{os.getpid()}"
    engine = make_engine(postgres_url)
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as c:
        c.exec_driver_sql(f"CREATE DATABASE {name}")
    engine.dispose()
    for server in serve(postgres_url.rsplit("/", 1)[0] + "/" + name):
        table, socks = culottes_for_two(server)
        socks[0].send({"type": "chat", "id": "n", "text": "a\u0000b", "to": None})
        assert socks[0].expect("error")["code"] == "bad_chat"
        still_served(server, table, socks[0])


def test_the_store_refuses_text_it_could_not_send(tmp_path):
    store: TableStore = new_store(f"sqlite:///{tmp_path / 's.db'}")
    created = store.create("culottes", 3, ["open", "random", "random"])
    from tricolore.server.tables import TableError
    with pytest.raises(TableError, match="valid Unicode"):
        store.join(created.invites[0], "Mar\ud800at")
    with pytest.raises(TableError, match="not valid"):
        store.seat_of("\udfff")
    store.engine.dispose()


def test_bot_seats_have_peoples_names_and_their_strategies_show_only_at_the_end(live_server):
    created = live_server.create("culottes", ["open", "honest-revolutionary", "puppet-grabber"],
                                 options={"max_rounds": 1}, window_seconds=0)
    table = created["table_id"]
    info = live_server.http.get(f"/api/tables/{table}").text
    assert "grabber" not in info and "revolutionary" not in info and "bot (" not in info
    names = [s["name"] for s in live_server.http.get(f"/api/tables/{table}").json()["seats"][1:]]
    assert all(name and name[0].isupper() and " " not in name for name in names)
    token = live_server.join(created["invites"]["0"], "Marat")
    sock = live_server.socket(table, token)
    assert all("grabber" not in s["name"] and "revolutionary" not in s["name"] for s in sock.welcome["seats"])
    assert [s["kind"] for s in sock.welcome["seats"]] == ["human", "bot", "bot"]
    sock.send({"type": "leave"})
    sock.expect("notice")
    live = live_server.store.live[table]
    deadline = time.monotonic() + 60
    while live.status != "over" and time.monotonic() < deadline:
        time.sleep(0.05)
    sock.drain(0.5)
    assert live.seats[0]["name"] == "Marat" and live.seats[0]["kind"] == "bot"
    final = next(m for m in reversed(sock.messages) if m.get("final"))["final"]
    assert final["strategies"][1:] == ["honest-revolutionary", "puppet-grabber"]
    record = live_server.http.get(f"/api/tables/{table}/record").json()
    assert [s["strategy"] for s in record["seats"]][1:] == ["honest-revolutionary", "puppet-grabber"]


# -- the check every test runs under ------------------------------------------------------------------
def test_a_traceback_in_uvicorns_log_fails_the_test(live_server, monkeypatch, no_traceback_in_the_server_log):
    def broken(_token: str) -> None:
        raise RuntimeError("a fault of ours")

    monkeypatch.setattr(live_server.store, "seat_of", broken)
    assert live_server.http.post("/api/join", json={"token": "abc", "name": "x"}).status_code == 500
    found = no_traceback_in_the_server_log.found
    assert [r.name for r in found] == ["uvicorn.error"] and "a fault of ours" in str(found[0].exc_info)
    found.clear()  # the fault was put there on purpose: only it would have failed this test
