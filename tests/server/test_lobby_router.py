"""The REST lobby alone: its router over a real store and a driver, on a bare application in this
process (no server, no sockets, no pages)."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy.exc import OperationalError

from tests.server.conftest import new_store
from tricolore.server.db import sqlite_url
from tricolore.server.driver import TableDriver
from tricolore.server.lobby import database_away, lobby_router
from tricolore.server.settings import Settings
from tricolore.server.tables import TableStore


@pytest.fixture
def store(tmp_path: Path) -> Iterator[TableStore]:
    store = new_store(sqlite_url(tmp_path / "tables.db"))
    yield store
    store.engine.dispose()


def lobby(store: TableStore, create_limit: tuple[int, float] = (100, 60.0)) -> TestClient:
    driver = TableDriver(store)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        yield
        driver.stop()

    app = FastAPI(lifespan=lifespan)
    app.include_router(lobby_router(store, driver, Settings(), create_limit))
    return TestClient(app)


def new_table(client: TestClient, seats: list[str], **extra: Any) -> dict[str, Any]:
    response = client.post("/api/tables", json={"game": "bread-and-circuses", "players": len(seats),
                                               "seats": seats, **extra})
    assert response.status_code == 200, response.text
    return dict(response.json())


def test_a_table_is_created_joined_and_listed(store):
    with lobby(store) as client:
        created = new_table(client, ["open", "open", "random"])
        table_id = created["table_id"]
        assert store.live[table_id].status == "waiting"
        assert [t["table_id"] for t in client.get("/api/tables").json()] == [table_id]
        for seat, link in created["invites"].items():
            token = link.split("#invite=")[1]
            joined = client.post("/api/join", json={"token": token, "name": f"Citoyen {seat}"})
            assert joined.json() == {"table_id": table_id, "seat": int(seat)}
        info = client.get(f"/api/tables/{table_id}").json()
        assert info["status"] == "playing" and [s["kind"] for s in info["seats"]] == ["human", "human", "bot"]
        assert client.get("/api/tables?status=playing").json()[0]["table_id"] == table_id


def test_refusals_are_one_sentence_with_their_status(store):
    with lobby(store, create_limit=(1, 60.0)) as client:
        created = new_table(client, ["open", "random", "random"])
        table_id = created["table_id"]
        refusals = [
            (client.get("/api/tables/nothing-here"), 404),
            (client.get("/api/tables?status=lost"), 400),
            (client.post(f"/api/tables/{table_id}/close", json={"creator": "someone-else"}), 403),
            (client.get(f"/api/tables/{table_id}/record"), 409),
            (client.post("/api/join", json={"token": "forged", "name": "x"}), 400),
            (client.post("/api/tables", json={"game": "culottes", "players": 3,
                                              "seats": ["open", "random", "random"]}), 429),
        ]
        for response, status in refusals:
            assert response.status_code == status, response.text
            assert response.json()["detail"].endswith(".")


def test_the_creator_closes_a_table_once(store):
    with lobby(store) as client:
        created = new_table(client, ["open", "random", "random"])
        table_id, creator = created["table_id"], created["creator"]
        closed = client.post(f"/api/tables/{table_id}/close", json={"creator": creator})
        assert closed.json() == {"table_id": table_id, "status": "closed"}
        assert store.live[table_id].status == "closed"
        again = client.post(f"/api/tables/{table_id}/close", json={"creator": creator})
        assert again.status_code == 400


def test_a_table_of_bots_is_played_to_its_end_and_its_record_opens(store):
    with lobby(store) as client:
        created = new_table(client, ["random", "random", "random"], options={"max_rounds": 2})
        table_id = created["table_id"]
        for _ in range(600):
            if client.get(f"/api/tables/{table_id}").json()["status"] == "over":
                break
            time.sleep(0.05)  # the bots play on the client's event loop, in its own thread
        record = client.get(f"/api/tables/{table_id}/record")
        assert record.status_code == 200
        assert len(record.json()["actions"]) == len(store.live[table_id].actions) > 0
        last = client.get(f"/api/tables/{table_id}/replay/{len(store.live[table_id].actions)}").json()
        assert last["result"] is not None


def test_a_request_the_database_cannot_serve_gets_503_and_a_sentence(store, monkeypatch):
    def away(*_args: Any, **_kwargs: Any) -> None:
        raise OperationalError("INSERT", None, Exception("server closed the connection unexpectedly"))

    monkeypatch.setattr(store, "create", away)
    client = lobby(store)
    client.app.add_exception_handler(OperationalError, database_away)
    with client:
        response = client.post("/api/tables", json={"game": "bread-and-circuses", "players": 3,
                                                    "seats": ["open", "random", "random"]})
    assert response.status_code == 503 and response.headers["retry-after"] == "1"
    assert response.json()["detail"] == ("The server cannot reach its database just now; "
                                         "try again in a moment.")
