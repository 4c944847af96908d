"""Trained policies as bots: the lobby offers the policies of the operator's folder, a table seats
one by name, it plays, and nothing outside the folder can be named."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.server.conftest import new_store, serve
from tricolore.agents.policy import Policy
from tricolore.server.db import sqlite_url
from tricolore.server.settings import Settings
from tricolore.server.tables import TableError


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    shelf = tmp_path / "policies"
    shelf.mkdir()
    Policy.initial("culottes-trials", 3, seed=1).save(shelf / "trials-three.npz")
    Policy.initial("culottes-trials", 4, seed=1).save(shelf / "trials-four.npz")
    Policy.initial("bread-and-circuses", 3, seed=1).save(shelf / "bread.npz")
    (shelf / "broken.npz").write_bytes(b"not a policy")
    return shelf


def test_the_lobby_offers_a_games_policies_and_a_table_seats_one_that_plays(folder: Path, tmp_path: Path):
    for server in serve(sqlite_url(tmp_path / "t.db"), settings=Settings(policies=str(folder))):
        games = {g["name"]: g["strategies"] for g in server.http.get("/api/games").json()}
        assert [s for s in games["culottes-trials"] if s.startswith("policy:")] == [
            "policy:trials-four", "policy:trials-three"]
        assert [s for s in games["bread-and-circuses"] if s.startswith("policy:")] == ["policy:bread"]
        assert not [s for s in games["culottes"] if s.startswith("policy:")]
        created = server.create("culottes-trials", ["policy:trials-three", "random", "random"],
                                options={"trials": 1})
        table = created["table_id"]
        deadline = time.monotonic() + 30
        while server.store.live[table].status != "over" and time.monotonic() < deadline:
            time.sleep(0.05)
        assert server.store.live[table].status == "over"
        assert server.store.live[table].seats[0]["strategy"] == "policy:trials-three"


@pytest.mark.parametrize(("seat", "words"), [
    ("policy:trials-four", "it was trained for 4 players, and this table has 3"),
    ("policy:bread", "the trained policies offered for this game are policy:trials-four, "
                     "policy:trials-three"),
    ("policy:../policies/trials-three", "the trained policies offered"),
    ("policy:/etc/passwd", "the trained policies offered"),
    ("policy:broken", "the trained policies offered"),
])
def test_a_policy_seat_outside_the_folder_or_for_another_table_is_refused_with_a_sentence(
        folder: Path, tmp_path: Path, seat: str, words: str):
    store = new_store(sqlite_url(tmp_path / "t.db"), policies=str(folder))
    with pytest.raises(TableError, match=words.replace(".", r"\.")):
        store.create("culottes-trials", 3, [seat, "random", "random"])


def test_without_a_policies_folder_no_policy_can_sit(tmp_path: Path):
    store = new_store(sqlite_url(tmp_path / "t.db"))
    with pytest.raises(TableError, match="the trained policies offered for this game are none"):
        store.create("culottes-trials", 3, ["policy:anything", "random", "random"])
