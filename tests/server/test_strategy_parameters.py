"""Bot seats given a strategy with parameters, over the lobby's REST API."""

from __future__ import annotations

import time

import pytest

from tests.server.conftest import LiveServer
from tests.server.wire import SHORT
from tricolore.agents import strategy_class
from tricolore.core.registry import get_game, list_games
from tricolore.server.tables import BOT_LIMITS


def test_the_game_listing_carries_each_strategy_s_parameters(live_server: LiveServer):
    listed = {g["name"]: g for g in live_server.http.get("/api/games").json()}
    for info in list_games():
        game = get_game(info.name)
        entry = listed[info.name]
        assert set(entry["strategy_parameters"]) == set(entry["strategies"])
        for name, parameters in entry["strategy_parameters"].items():
            declared = getattr(strategy_class(game, name), "parameters", {})
            assert [p["key"] for p in parameters] == list(declared)
            for p in parameters:
                d = declared[p["key"]]
                assert (p["default"], p["low"], p["high"], p["doc"], p["kind"]) == (
                    d.default, d.low, d.high, d.doc, d.kind)
                assert p["choices"] == list(d.choices)
    kingmaker = {p["key"]: p for p in listed["let-them-eat-cake"]["strategy_parameters"]["kingmaker"]}
    assert kingmaker["seize_at"] == {"key": "seize_at", "kind": "int", "default": 10, "low": 1, "high": 14,
                                     "choices": [], "doc": kingmaker["seize_at"]["doc"]}
    assert listed["let-them-eat-cake"]["strategy_parameters"]["random"] == []


def finished_record(server: LiveServer, table_id: str, timeout: float = 60) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        response = server.http.get(f"/api/tables/{table_id}/record")
        if response.status_code == 200:
            return response.json()
        time.sleep(0.05)
    raise AssertionError("the bots did not finish the game")


def test_a_bot_seat_keeps_its_strategy_written_the_one_way_and_plays_it_to_the_end(live_server: LiveServer):
    seats = ["kingmaker:short_of_medals=2,seize_at=12,cake_card_worth=3", "cake-hoarder:reserve=3",
             "kingmaker"]
    # Some of these line-ups never end a game of their own (no stash reaches 40 cakes, nobody is
    # executed, the Pantry is refilled), so the table ends after a few rounds.
    created = live_server.create("let-them-eat-cake", seats, options=SHORT["let-them-eat-cake"])
    stored = live_server.store.live[created["table_id"]].seats
    assert [s["strategy"] for s in stored] == [
        "kingmaker:seize_at=12,short_of_medals=2", "cake-hoarder:reserve=3", "kingmaker"]
    listing = live_server.http.get(f"/api/tables/{created['table_id']}").json()
    assert "kingmaker" not in str(listing["seats"])  # a bot's strategy stays secret while it plays
    record = finished_record(live_server, created["table_id"])
    assert [s["strategy"] for s in record["seats"]] == [s["strategy"] for s in stored]
    assert all(s["name"] for s in record["seats"])


@pytest.mark.parametrize("seat, words", [
    ("kingmaker:seize_at=40", "the parameter seize_at must be from 1 to 14; you gave 40"),
    ("kingmaker:greed=2", "no parameter 'greed'; its parameters are: cake_card_worth, general_worth"),
    ("kingmaker:seize_at=12,donate_up_to", "written key=value"),
    ("random:seize_at=3", "its parameters are: none"),
    ("tyrant:seize_at=3", "must be \"open\" or a strategy"),
])
def test_a_bot_seat_with_bad_parameters_is_refused_with_one_sentence_naming_the_seat(
        live_server: LiveServer, seat: str, words: str):
    response = live_server.http.post("/api/tables", json={
        "game": "let-them-eat-cake", "players": 3, "seats": ["open", seat, "kingmaker"]})
    assert response.status_code == 400
    detail = response.json()["detail"]
    assert words in detail and "second player's seat" in detail.lower()
    assert "\n" not in detail and "Traceback" not in detail


def test_a_bot_at_a_table_may_not_be_told_to_search_beyond_the_server_s_limit(live_server: LiveServer):
    too_many = int(BOT_LIMITS["iterations"]) + 1
    response = live_server.http.post("/api/tables", json={
        "game": "revolution", "players": 3, "seats": ["open", f"ismcts:iterations={too_many}", "random"]})
    assert response.status_code == 400
    assert f"iterations of at most {BOT_LIMITS['iterations']:g}" in response.json()["detail"]
    allowed = live_server.create("revolution", ["open", "ismcts:iterations=20", "random"])
    assert live_server.store.live[allowed["table_id"]].seats[1]["strategy"] == "ismcts:iterations=20"
