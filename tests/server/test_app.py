"""The lobby and the websocket protocol through the real HTTP stack (FastAPI's test client)."""

import pytest
from fastapi.testclient import TestClient

from tricolore.server.app import create_app
from tricolore.server.db import make_engine, migrate, sqlite_url
from tricolore.server.tables import TableStore


@pytest.fixture
def client(tmp_path):
    engine = make_engine(sqlite_url(tmp_path / "tables.db"))
    migrate(engine)
    store = TableStore(engine)
    with TestClient(create_app(store)) as c:
        c.store = store
        yield c


def token_of(invite: str) -> str:
    return invite.split("#invite=")[1]


def test_a_person_plays_a_whole_game_against_bots_over_the_socket(client):
    created = client.post("/api/tables", json={"game": "revolution", "players": 3,
                                               "seats": ["open", "printer-first", "area-control"]}).json()
    token = token_of(created["invites"]["0"])
    assert client.post("/api/join", json={"token": token, "name": "Robespierre"}).json()["seat"] == 0
    with client.websocket_connect(f"/ws/{created['table_id']}") as ws:
        ws.send_json({"type": "hello", "version": 1, "token": token})
        welcome = ws.receive_json()
        assert welcome["type"] == "welcome" and welcome["seat"] == 0
        view, number = welcome["view"], 0
        while view["phase"] != "over":
            number += 1
            chips = view["chips"][0]
            placement = {"Printer": {c: n for c, n in chips.items() if n}}
            ws.send_json({"type": "action", "id": f"a{number}",
                          "action": {"type": "bid", "placement": placement}})
            reply = ws.receive_json()
            assert reply["type"] == "ack", reply
            update = ws.receive_json()
            assert update["type"] == "update"
            view = update["view"]
            while view["phase"] != "over" and not any(p["seat"] == 0 for p in view["pending"]):
                view = ws.receive_json()["view"]
            assert view["phase"] in ("over", "bid")  # bidding only on the Printer asks nothing else
    record = client.get(f"/api/tables/{created['table_id']}/record").json()
    assert record["game"] == "revolution" and record["actions"]


def test_refused_actions_come_back_as_data(client):
    created = client.post("/api/tables", json={"game": "bread-and-circuses", "players": 3,
                                               "seats": ["open", "random", "random"]}).json()
    token = token_of(created["invites"]["0"])
    client.post("/api/join", json={"token": token})
    with client.websocket_connect(f"/ws/{created['table_id']}") as ws:
        ws.send_json({"type": "hello", "version": 1, "token": token})
        ws.receive_json()
        ws.send_json({"type": "action", "id": 1, "action": {"type": "fly"}})
        error = ws.receive_json()
        assert error["type"] == "error" and error["id"] == 1 and "cannot fly" in error["message"]
        ws.send_text("x" * 20_000)
        assert ws.receive_json()["code"] == "malformed"


def test_a_spectator_sees_only_the_public_view_and_cannot_act(client):
    created = client.post("/api/tables", json={"game": "culottes", "players": 3,
                                               "seats": ["open", "random", "random"]}).json()
    with client.websocket_connect(f"/ws/{created['table_id']}") as ws:
        ws.send_json({"type": "hello", "version": 1})
        welcome = ws.receive_json()
        assert welcome["seat"] is None and "you" not in welcome["view"]
        ws.send_json({"type": "action", "id": "x", "action": {"type": "pass"}})
        assert ws.receive_json()["code"] == "spectator"


def test_the_lobby_lists_waiting_tables_and_refuses_bad_requests(client):
    created = client.post("/api/tables", json={"game": "culottes", "players": 3,
                                               "seats": ["open", "open", "random"]}).json()
    assert [t["table_id"] for t in client.get("/api/tables").json()] == [created["table_id"]]
    bad = client.post("/api/tables", json={"game": "culottes", "players": 2, "seats": ["open", "open"]})
    assert bad.status_code == 400 and "3 to 12 players" in bad.json()["detail"]
    assert client.post("/api/join", json={"token": "nope"}).status_code == 400
