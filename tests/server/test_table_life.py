"""A table's life on a real server: the turn clock, closing a table, seats bound to a browser,
the creator's invites, and the pages for tables that do not exist."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

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


def test_an_action_allowed_at_any_time_does_not_buy_more_time(live_server):
    created = live_server.create("let-them-eat-cake", ["open", "random", "random"], clock_seconds=60,
                                 window_seconds=0)
    table = created["table_id"]
    sock = live_server.socket(table, live_server.join(created["invites"]["0"], "Marat"))
    before = live_server.store.live[table].deadlines[0]
    assert sock.act({"type": "give_medals", "to": 1, "medals": 1}, "gift")["type"] == "ack"
    sock.drain(0.3)
    assert live_server.store.live[table].deadlines[0] == before
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


# -- closing a table ----------------------------------------------------------------------------------
def test_the_creator_closes_a_table_everyone_is_told_and_it_refuses_actions(live_server):
    created = live_server.create("culottes", ["open", "open", "random"], window_seconds=0)
    table = created["table_id"]
    tokens = [live_server.join(created["invites"][str(s)], f"p{s}") for s in (0, 1)]
    player, watcher = live_server.socket(table, tokens[0]), live_server.socket(table)
    forged = live_server.http.post(f"/api/tables/{table}/close", json={"creator": "not-the-creator"})
    assert forged.status_code == 403 and forged.json()["detail"] == "Only the table's creator can do that."
    assert live_server.store.live[table].status == "playing"
    closed = live_server.http.post(f"/api/tables/{table}/close", json={"creator": created["creator"]})
    assert closed.status_code == 200
    for sock in (player, watcher):
        notice = sock.expect("notice")
        assert notice["code"] == "table_closed" and "closed this table" in notice["message"]
        assert sock.wait_for_update()["status"] == "closed"
    refused = player.act({"type": "choose_role", "role": "grabber"}, "late")
    assert refused["code"] == "closed"
    assert refused["message"] == "This table is closed: its creator closed it."
    assert all(s == 2 for s, _ in live_server.store.live[table].actions)  # only the bot's, before
    listed = live_server.http.get("/api/tables?status=closed").json()
    assert [t["table_id"] for t in listed] == [table] and listed[0]["status"] == "closed"
    again = live_server.http.post(f"/api/tables/{table}/close", json={"creator": created["creator"]})
    assert again.status_code == 400 and again.json()["detail"] == "This table is already closed."
    late = live_server.socket(table, tokens[1])
    assert late.expect("notice")["code"] == "table_closed"
    for sock in (player, watcher, late):
        sock.close()


def test_closing_an_unknown_table_is_refused_with_a_sentence(live_server):
    response = live_server.http.post("/api/tables/nope/close", json={"creator": "x"})
    assert response.status_code == 404 and response.json()["detail"] == "There is no such table."


def test_the_creator_can_see_the_invites_again_and_nobody_else_can(live_server):
    created = live_server.create("culottes", ["open", "random", "open"])
    table = created["table_id"]
    again = live_server.http.post(f"/api/tables/{table}/invites", json={"creator": created["creator"]})
    assert again.status_code == 200 and again.json()["invites"] == created["invites"]
    forged = live_server.http.post(f"/api/tables/{table}/invites",
                                   json={"creator": token_of(created["invites"]["0"])})
    assert forged.status_code == 403 and "creator" in forged.json()["detail"]


# -- seats that stay yours ----------------------------------------------------------------------------
def test_a_seat_is_bound_to_the_first_browser_and_another_must_ask_to_move_it(live_server):
    created = live_server.create("culottes", ["open", "random", "random"], window_seconds=0)
    table, invite = created["table_id"], created["invites"]["0"]
    assert join(live_server, invite, "Marat", BROWSER_A)[0] == 200
    first = hello(live_server, table, token_of(invite), BROWSER_A)
    assert first.welcome["seat"] == 0
    status, answer = join(live_server, invite, "", BROWSER_B)
    assert status == 409 and answer["detail"] == "This seat is being played in another browser."
    stranger = hello(live_server, table, token_of(invite), BROWSER_B)
    assert stranger.welcome["seat"] is None and stranger.expect("notice")["code"] == "seat_moved"
    bare = hello(live_server, table, token_of(invite), None)
    assert bare.welcome["seat"] is None
    status, answer = join(live_server, invite, "", None, move=True)
    assert status == 400 and answer["detail"] == "A seat moves only to a browser that sends its secret."
    assert join(live_server, invite, "", BROWSER_B, move=True)[0] == 200
    notice = first.expect("notice")
    assert notice["code"] == "seat_moved"
    assert notice["message"].startswith("Your seat moved to another browser")
    assert first.act({"type": "choose_role", "role": "grabber"}, "old")["code"] == "spectator"
    second = hello(live_server, table, token_of(invite), BROWSER_B)
    assert second.welcome["seat"] == 0 and "you" in second.welcome["view"]
    assert live_server.store.live[table].seats[0]["name"] == "Marat"
    assert hello(live_server, table, token_of(invite), BROWSER_A).welcome["seat"] is None
    for sock in (first, stranger, bare, second):
        sock.close()


def test_a_person_who_left_takes_the_seat_back_from_the_bot(live_server):
    # a second seat left open keeps the table waiting: bots alone would finish the game at once
    created = live_server.create("culottes", ["open", "open", "random"], window_seconds=0)
    table, invite = created["table_id"], created["invites"]["0"]
    join(live_server, invite, "Marat", BROWSER_A)
    assert live_server.http.post("/api/leave", json={"token": token_of(invite)}).status_code == 200
    assert live_server.store.live[table].seats[0]["kind"] == "bot"
    status, answer = join(live_server, invite, "", BROWSER_A)
    assert status == 409 and answer["detail"] == "A bot plays this seat since you left."
    assert join(live_server, invite, "", BROWSER_A, move=True)[0] == 200
    assert live_server.store.live[table].seats[0] == {"kind": "human", "name": "Marat"}
    back = hello(live_server, table, token_of(invite), BROWSER_A)
    assert back.welcome["seat"] == 0 and back.welcome["seats"][0] == {"name": "Marat", "kind": "human"}
    back.close()


@pytest.mark.parametrize("device", ["short", "x" * 65, "\u0007" * 20])
def test_a_browser_secret_that_is_not_valid_is_refused_with_a_sentence(live_server, device):
    created = live_server.create("culottes", ["open", "random", "random"])
    status, answer = join(live_server, created["invites"]["0"], "Marat", device)
    assert status in (400, 422) and answer["detail"].endswith(".")
    assert live_server.store.live[created["table_id"]].seats[0]["kind"] == "open"


def test_no_secret_reaches_another_seat_or_a_spectator(live_server):
    created = live_server.create("culottes", ["open", "open", "random"], clock_seconds=60)
    table = created["table_id"]
    secrets_ = [created["creator"], *(token_of(i) for i in created["invites"].values()), BROWSER_A, BROWSER_B]
    for seat, device in ((0, BROWSER_A), (1, BROWSER_B)):
        join(live_server, created["invites"][str(seat)], f"p{seat}", device)
    socks = [hello(live_server, table, token_of(created["invites"][str(s)]), d)
             for s, d in ((0, BROWSER_A), (1, BROWSER_B))]
    watcher = live_server.socket(table)
    socks[0].send({"type": "chat", "text": "salut", "to": None})
    join(live_server, created["invites"]["1"], "", BROWSER_A, move=True)
    for sock in [*socks, watcher]:
        sock.drain(0.5)
    public = [live_server.http.get(f"/api/tables/{table}").text,
              live_server.http.get("/api/tables?status=playing").text, *watcher.received]
    for text in [*public, *socks[0].received, *socks[1].received]:
        for secret in secrets_:
            assert secret not in text
    for sock in [*socks, watcher]:
        sock.close()


# -- pages and names -----------------------------------------------------------------------------------
@pytest.mark.parametrize("page", ["table", "replay"])
def test_an_unknown_table_is_a_page_with_a_sentence_and_a_link_to_the_lobby(live_server, page):
    response = live_server.http.get(f"/{page}/no-such-table")
    assert response.status_code == 404 and response.headers["content-type"].startswith("text/html")
    assert "There is no such table." in response.text and 'href="/"' in response.text


def test_open_seats_and_nameless_people_are_named_in_words_not_numbers(live_server):
    created = live_server.create("culottes", ["open", "open", "random"])
    seats = live_server.http.get(f"/api/tables/{created['table_id']}").json()["seats"]
    assert [s["name"] for s in seats[:2]] == ["First player", "Second player"]
    live_server.join(created["invites"]["0"], "   ")
    name = live_server.http.get(f"/api/tables/{created['table_id']}").json()["seats"][0]["name"]
    assert name and "seat" not in name and not any(c.isdigit() for c in name)


def test_an_open_seat_is_taken_over_rest_and_its_token_then_plays_the_seat(live_server):
    created = live_server.create("culottes", ["open", "open", "random"], open_to_all=True)
    table = created["table_id"]
    assert live_server.http.get(f"/api/tables/{table}").json()["open_to_all"] is True

    def take(seat: object, name: str, device: str) -> Any:
        return live_server.http.post(f"/api/tables/{table}/seats/{seat}",
                                     json={"name": name, "device": device})

    taken = take(1, "Lucile", BROWSER_A)
    assert taken.status_code == 200, taken.text
    again = take(1, "Other", BROWSER_B)
    assert again.status_code == 400
    assert again.json()["detail"] == "That seat is not open any more; choose another open seat."
    bad = take(7, "Other", BROWSER_B)
    assert bad.status_code == 400 and "not open" in bad.json()["detail"]
    malformed = take("one", "Other", BROWSER_B)
    assert malformed.status_code == 422 and "traceback" not in malformed.text.lower()
    assert join(live_server, created["invites"]["1"], "Intruder")[0] == 400  # the invite was retired
    sock = live_server.socket(table, taken.json()["token"], BROWSER_A)
    assert sock.welcome["seat"] == 1
    sock.close()


def test_a_table_by_invitation_only_gives_no_seat_over_rest(live_server):
    created = live_server.create("culottes", ["open", "open", "random"])
    refused = live_server.http.post(f"/api/tables/{created['table_id']}/seats/0",
                                    json={"name": "Lucile", "device": BROWSER_A})
    assert refused.status_code == 400
    assert refused.json()["detail"] == "This table's seats are taken by invitation only."
