"""The lobby and websocket protocol version 1, through a real uvicorn server on loopback."""

from __future__ import annotations

import json
import random
import time

import pytest
from typer.testing import CliRunner
from websockets.sync.client import connect

from tests.server.conftest import LiveServer
from tests.server.wire import SHORT, choose, play_until_over
from tricolore.cli.main import app as cli
from tricolore.core.model import project
from tricolore.core.record import Record, replay_steps
from tricolore.core.registry import get_game, list_games
from tricolore.server.app import FLOOD_LIMIT, MAX_MESSAGE

GAMES = [info.name for info in list_games()]


def bots_for(game: str) -> list[str]:
    named = list(get_game(game).strategies)
    return named or ["random"]


def seats_for(game: str, people: int) -> list[str]:
    info = get_game(game).info
    players = max(info.min_players, 3)
    bots = bots_for(game)
    return ["open"] * people + [bots[i % len(bots)] for i in range(players - people)]


def test_the_lobby_lists_every_game_with_its_option_defaults_and_strategies(live_server: LiveServer):
    games = {g["name"]: g for g in live_server.http.get("/api/games").json()}
    assert set(games) == set(GAMES)
    assert games["revolution"]["options"] == {"edition": "seed", "max_rounds": None}
    assert "area-control" in games["revolution"]["strategies"]
    assert all(game["strategies"][-1] == "ismcts" for game in games.values())


def test_a_table_gives_one_invite_per_open_seat_and_starts_when_every_seat_is_taken(live_server):
    created = live_server.create("culottes", ["open", "open", "random"])
    assert set(created["invites"]) == {"0", "1"} and created["spectate"] == f"/table/{created['table_id']}"
    waiting = live_server.http.get("/api/tables").json()
    assert [(t["table_id"], t["open_seats"]) for t in waiting] == [(created["table_id"], [0, 1])]
    live_server.join(created["invites"]["0"], "Marat")
    assert live_server.http.get(f"/api/tables/{created['table_id']}").json()["status"] == "waiting"
    live_server.join(created["invites"]["1"], "Danton")
    info = live_server.http.get(f"/api/tables/{created['table_id']}").json()
    assert info["status"] == "playing" and [s["name"] for s in info["seats"]][:2] == ["Marat", "Danton"]
    assert live_server.http.get("/api/tables").json() == []
    assert live_server.http.get("/api/tables?status=playing").json()[0]["open_seats"] == []


def test_bad_lobby_requests_are_refused_with_a_sentence(live_server):
    def refused(body: dict) -> str:
        response = live_server.http.post("/api/tables", json=body)
        assert response.status_code in (400, 422)
        return json.dumps(response.json()["detail"])
    assert "3 to 12 players" in refused({"game": "culottes", "players": 2, "seats": ["open", "open"]})
    assert "o game called" in refused({"game": "chess", "players": 2, "seats": ["open", "open"]})
    assert "must be \\\"open\\\" or a strategy" in refused(
        {"game": "culottes", "players": 3, "seats": ["open", "genius", "random"]})
    assert "Unknown option" in refused({"game": "culottes", "players": 3, "seats": ["open"] * 3,
                                        "options": {"cakes": 3}})
    assert "timer" in refused({"game": "culottes", "players": 3, "seats": ["open"] * 3, "window_seconds": -1})
    assert live_server.http.post("/api/join", json={"token": "forged"}).status_code == 400


@pytest.mark.parametrize("game", GAMES)
def test_people_and_bots_play_a_whole_game_then_replay_and_verify_its_record(live_server, game, tmp_path):
    created = live_server.create(game, seats_for(game, 2), options=SHORT.get(game, {}), window_seconds=0)
    table = created["table_id"]
    tokens = [live_server.join(created["invites"][str(s)], f"person {s}") for s in (0, 1)]
    socks = [live_server.socket(table, t) for t in tokens]
    assert live_server.http.get(f"/api/tables/{table}/record").status_code == 409
    accepted = play_until_over(socks, random.Random(game))
    assert accepted > 0
    while not any(m.get("final") for m in socks[0].messages):  # the other socket may hear it first
        socks[0].recv()
    final = next(m for m in reversed(socks[0].messages) if m.get("final"))["final"]
    players = len(created["invites"]) + len(seats_for(game, 2)) - 2
    assert len(final["views"]) == players and len(final["result"]["breakdown"]) == players
    response = live_server.http.get(f"/api/tables/{table}/record")
    assert "attachment" in response.headers["content-disposition"]
    path = tmp_path / "record.json"
    path.write_text(response.text)
    verified = CliRunner().invoke(cli, ["replay", "--verify", str(path)])
    assert verified.exit_code == 0 and "every digest verified" in verified.output
    total = len(Record.load(path).actions)
    last = live_server.http.get(f"/api/tables/{table}/replay/{total}").json()
    assert last["result"] == final["result"] and last["views"] == final["views"]
    first = live_server.http.get(f"/api/tables/{table}/replay/1").json()
    assert first["action"]["seat"] == Record.load(path).actions[0][0] and first["total"] == total
    for sock in socks:
        sock.close()


def test_reconnecting_mid_game_gives_the_same_view_and_a_resend_applies_once(live_server):
    created = live_server.create("bread-and-circuses", ["open", "free-rider", "honest-discloser"],
                                 window_seconds=0)
    table = created["table_id"]
    token = live_server.join(created["invites"]["0"], "Camille")
    sock = live_server.socket(table, token)
    reply = sock.act({"type": "ready"}, "ready-1")
    assert reply["type"] == "ack" and not reply["duplicate"]
    sock.wait_for_update()
    sock.drain(0.5)  # the bots' moves after it
    before = dict(sock.view)
    sock.close()
    again = live_server.socket(table, token)
    assert again.view == before
    number = len(live_server.store.live[table].actions)
    resent = again.act({"type": "ready"}, "ready-1")
    assert resent["type"] == "ack" and resent["duplicate"] and resent["number"] == reply["number"]
    assert len(live_server.store.live[table].actions) == number
    again.close()


def test_refused_actions_come_back_as_errors_and_change_nothing(live_server):
    created = live_server.create("let-them-eat-cake", ["open", "open", "kingmaker"], window_seconds=0)
    table = created["table_id"]
    tokens = [live_server.join(created["invites"][str(s)], f"p{s}") for s in (0, 1)]
    socks = [live_server.socket(table, t) for t in tokens]
    digest = live_server.store.live[table].state.digest()
    assert socks[0].act({"type": "fly"}, "x2")["code"] == "not_allowed_now"
    assert socks[0].act({"type": "vote", "candidate": 99}, "x3")["code"].startswith("bad_")
    socks[0].send("{not json")
    assert socks[0].expect("error")["code"] == "malformed"
    socks[0].send({"type": "action", "id": "x4", "action": "vote"})
    assert socks[0].expect("error")["code"] == "malformed"
    socks[0].send({"type": "dance"})
    assert socks[0].expect("error")["code"] == "malformed"
    socks[0].send({"type": "action", "id": "x5", "action": {"type": "vote", "note": "x" * MAX_MESSAGE}})
    oversized = socks[0].expect("error")
    assert oversized["code"] == "too_large" and str(MAX_MESSAGE) in oversized["message"]
    assert live_server.store.live[table].state.digest() == digest
    other = live_server.create("culottes", ["open", "random", "random"])
    other_token = live_server.join(other["invites"]["0"], "q")
    with connect(live_server.base.replace("http", "ws") + f"/ws/{table}") as ws:
        ws.send(json.dumps({"type": "hello", "version": 1, "token": other_token}))
        assert json.loads(ws.recv(timeout=10))["code"] == "bad_token"
    with connect(live_server.base.replace("http", "ws") + f"/ws/{table}") as ws:
        ws.send(json.dumps({"type": "hello", "version": 99}))
        assert json.loads(ws.recv(timeout=10))["code"] == "bad_hello"
    for sock in socks:
        sock.close()


@pytest.mark.real_flood_limit
def test_floods_are_refused_with_a_clear_error(live_server):
    created = live_server.create("culottes", ["open", "random", "random"])
    sock = live_server.socket(created["table_id"], live_server.join(created["invites"]["0"], "x"))
    count = FLOOD_LIMIT[0] + 5
    for i in range(count):
        sock.send({"type": "domain", "id": f"f{i}", "kind": "nothing", "param": "p", "chosen": {}})
    codes = [sock.expect_reply(f"f{i}")["code"] for i in range(count)]
    assert "flood" in codes and codes[0] == "not_allowed_now"
    sock.close()


@pytest.mark.parametrize("game", GAMES)
def test_what_a_seat_socket_receives_is_its_own_view_and_nothing_more(live_server, game):
    """The leak check over the wire: every view seat 0's socket holds equals the core's view for
    seat 0 at some step (the conformance suite checks those views hide every other seat's
    secrets), every event it receives is public or addressed to it, and nothing it receives
    before the end names a bot seat's strategy."""
    info = get_game(game).info
    bots = bots_for(game)[:min(2, info.max_players - 3)]
    created = live_server.create(game, ["open"] * 3 + bots, options=SHORT.get(game, {}), window_seconds=0)
    table = created["table_id"]
    tokens = [live_server.join(created["invites"][str(s)], f"p{s}") for s in range(3)]
    socks = [live_server.socket(table, t) for t in tokens]
    views_seen: list[str] = []
    original = socks[0].recv

    def recording_recv(timeout: float = 20):
        message = original(timeout)
        if message["type"] in ("welcome", "update") and message["status"] != "over":
            views_seen.append(json.dumps(socks[0].view, sort_keys=True))
        return message

    socks[0].recv = recording_recv  # type: ignore[method-assign]
    rng = random.Random(f"leak-{game}")
    for _ in range(120):
        for sock in socks:
            sock.drain()
            action = choose(sock, rng)
            if action is not None and sock.status == "playing":
                sock.act(action, f"{id(sock)}-{rng.random()}")
        if socks[0].status == "over":
            break
    socks[0].drain(0.3)
    live = live_server.store.live[table]
    record = live.record()
    state = get_game(game).new(record.players, record.seed, record.options)
    core_views = {json.dumps(state.view(0), sort_keys=True)}
    for _, after in replay_steps(record):
        core_views.add(json.dumps(after.view(0), sort_keys=True))
    assert views_seen and all(v in core_views for v in views_seen)
    events = [e for m in socks[0].messages if m["type"] in ("welcome", "update") for e in m["events"]]
    assert all(e["to"] is None or 0 in e["to"] for e in events)
    assert events == json.loads(json.dumps(project(live.state.log, 0)))
    strategies = {seat["strategy"] for seat in live.seats if seat.get("strategy")} - {"random"}
    assert strategies == set(bots)
    before_the_end = [text for text in socks[0].received if json.loads(text).get("status") != "over"
                      and '"final"' not in text]
    assert not any(name in text for name in strategies for text in before_the_end)
    for sock in socks:
        sock.close()


def test_a_spectator_gets_the_public_view_and_cannot_act_or_chat(live_server):
    # a seat left open keeps the table waiting, so no bot moves between the welcome and the check
    created = live_server.create("culottes", ["open", "open", "random"])
    live_server.join(created["invites"]["0"], "Marat")
    watcher = live_server.socket(created["table_id"])
    state = live_server.store.live[created["table_id"]].state
    assert watcher.welcome["seat"] is None and watcher.view == state.view(None) and "you" not in watcher.view
    assert watcher.act({"type": "pass"}, "s1")["code"] == "spectator"
    watcher.send({"type": "chat", "id": "c", "text": "hello"})
    assert watcher.expect("error")["code"] == "spectator"
    watcher.close()


def test_chat_reaches_everyone_or_only_the_two_seats_of_a_private_message(live_server):
    created = live_server.create("culottes", ["open", "open", "open"])
    table = created["table_id"]
    socks = [live_server.socket(table, live_server.join(created["invites"][str(s)], f"p{s}"))
             for s in range(3)]
    watcher = live_server.socket(table)
    socks[0].send({"type": "chat", "text": "<script>alert(1)</script> à bas les tyrans", "to": None})
    for sock in [*socks, watcher]:
        said = sock.expect("chat")
        assert said["text"] == "<script>alert(1)</script> à bas les tyrans" and said["from"] == 0
    socks[0].send({"type": "chat", "text": "vote with me", "to": 2})
    assert socks[2].expect("chat")["text"] == "vote with me"
    assert socks[0].expect("chat")["to"] == 2
    socks[1].send({"type": "chat", "text": "ping", "to": None})
    assert socks[1].expect("chat")["text"] == "ping"  # seat 1 never got the private message first
    socks[0].send({"type": "chat", "id": "long", "text": "x" * 501})
    assert "at most 500" in socks[0].expect_reply("long")["message"]
    late = live_server.socket(table)
    assert [m["text"] for m in late.welcome["chat"]] == ["<script>alert(1)</script> à bas les tyrans", "ping"]
    for sock in [*socks, watcher, late]:
        sock.close()


def test_a_bot_takes_over_the_seat_of_a_person_who_leaves(live_server):
    created = live_server.create("revolution", ["open", "printer-first", "area-control"],
                                 options={"max_rounds": 2})
    table = created["table_id"]
    sock = live_server.socket(table, live_server.join(created["invites"]["0"], "Desmoulins"))
    sock.send({"type": "leave"})
    deadline = time.monotonic() + 30
    while sock.status != "over" and time.monotonic() < deadline:
        sock.recv()
    assert sock.status == "over"
    assert live_server.store.live[table].seats[0]["strategy"] == "printer-first"
    sock.close()


def test_ismcts_bots_play_a_lobby_table_to_its_end(live_server):
    created = live_server.create("revolution", ["open", "ismcts", "ismcts"], options={"max_rounds": 2})
    table = created["table_id"]
    sock = live_server.socket(table, live_server.join(created["invites"]["0"], "Desmoulins"))
    assert play_until_over([sock], random.Random(3)) > 0
    record = live_server.store.live[table].record()
    assert {seat for seat, _ in record.actions} == {0, 1, 2}
    assert [s.get("strategy") for s in live_server.store.live[table].seats] == [None, "ismcts", "ismcts"]
    sock.close()


def test_a_response_window_closes_on_the_timer_by_passing(live_server):
    created = live_server.create("bread-and-circuses", ["open", "open", "open"], window_seconds=1,
                                 options={"first_player": 0})
    table = created["table_id"]
    socks = [live_server.socket(table, live_server.join(created["invites"][str(s)], f"p{s}"))
             for s in range(3)]
    for s, sock in enumerate(socks):
        assert sock.act({"type": "ready"}, f"r{s}")["type"] == "ack"
    for s, sock in enumerate(socks):
        assert sock.act({"type": "play", "tile": "bread"}, f"p{s}")["type"] == "ack"
    sock = socks[0]
    sock.drain(0.2)
    assert sock.prompt and sock.prompt["window"] and 0 < sock.prompt["seconds_left"] <= 1
    started = time.monotonic()
    while sock.view["phase"] != "negotiation" and time.monotonic() - started < 15:
        sock.recv()
    assert sock.view["phase"] == "negotiation" and sock.view["round"] == 2
    passes = [e for e in live_server.store.live[table].actions if e[1]["type"] == "pass"]
    assert len(passes) >= 3
    for s in socks:
        s.close()


def test_the_pages_and_a_board_for_every_game_are_served(live_server):
    created = live_server.create("culottes", ["open", "random", "random"])
    for path in ("/", f"/table/{created['table_id']}", f"/replay/{created['table_id']}",
                 "/static/client.js", "/static/common.js", "/static/style.css"):
        assert live_server.http.get(path).status_code == 200, path
    for game in GAMES:
        board = live_server.http.get(f"/boards/{game}.js")
        assert board.status_code == 200 and f'registerBoard("{game}"' in board.text
        assert board.headers["content-type"].startswith("text/javascript")
    assert live_server.http.get("/table/nope").status_code == 404


def test_an_unknown_game_board_is_refused_with_a_sentence(live_server):
    answer = live_server.http.get("/boards/chess.js")
    assert answer.status_code == 404
    assert answer.json() == {"detail": "There is no game by that name."}


def test_a_token_acts_only_for_its_own_seat_and_only_in_turn(live_server):
    created = live_server.create("culottes-trials", ["open", "open", "open"], options={"first_accused": 0})
    table = created["table_id"]
    socks = [live_server.socket(table, live_server.join(created["invites"][str(s)], f"p{s}"))
             for s in range(3)]
    state = live_server.store.live[table].state
    assert set(state.pending()) == {0}
    digest = state.digest()
    # the server names the seat it waits for, never its number
    waiting = socks[1].act({"type": "pass"}, "early")
    assert waiting["code"] == "not_your_turn" and "waiting for p0" in waiting["message"]
    posing = socks[1].act({"type": "pass", "seat": 0}, "posing")  # a message cannot name another seat
    assert posing["type"] == "error"
    assert socks[1].prompt is not None and socks[1].prompt["actions"] == []
    assert live_server.store.live[table].state.digest() == digest
    for sock in socks:
        sock.close()


def test_a_culottes_bribe_is_offered_and_accepted_over_the_wire_with_its_escrow_in_every_view(live_server):
    created = live_server.create("culottes", ["open", "open", "open"], options={"first_player": 0})
    table = created["table_id"]
    socks = [live_server.socket(table, live_server.join(created["invites"][str(s)], f"p{s}"))
             for s in range(3)]
    # names no citizen of the deck bears, so that every role choice is accepted
    for s, name in enumerate(["Citizen Able", "Citizen Baker", "Citizen Carter"]):
        role = {"type": "choose_role", "role": "grabber", "name": name}
        assert socks[s].act(role, f"r{s}")["type"] == "ack"
    for turn in range(30):  # cake-vote on the first citizen until the die leaves the trial open
        seat = live_server.store.live[table].state.current
        vote = {"type": "cake_vote", "citizen": 0, "side": "sans_culotte", "cakes": 1}
        assert socks[seat].act(vote, f"v{turn}")["type"] == "ack"
        if live_server.store.live[table].state.citizens[0].on_trial:
            break
        for step in range(10):
            if live_server.store.live[table].state.current != seat:
                break
            assert socks[seat].act({"type": "pass"}, f"p{turn}.{step}")["type"] == "ack"
    briber, bribed = seat, (seat + 1) % 3
    socks[briber].drain(0.3)
    assert "offer_bribe" in [step["type"] for step in socks[briber].prompt["free"]]
    offer = {"type": "offer_bribe", "from": briber, "trial": 0, "voter": bribed, "side": "sans_culotte",
             "reward": 1, "cover": 3}
    assert socks[briber].act(offer, "o")["type"] == "ack"
    socks[bribed].drain(0.3)
    assert socks[bribed].view["escrow"] == {"cakes": 4, "deposits": [
        {"for": "bribe", "id": 0, "depositor": briber, "cakes": 4}]}
    assert [step["type"] for step in socks[bribed].prompt["free"]].count("accept_bribe") == 1
    other = 3 - briber - bribed
    refused = socks[other].act({"type": "accept_bribe", "deal": 0}, "x")
    assert refused["type"] == "error" and "No bribe waits for your answer" in refused["message"]
    assert socks[bribed].act({"type": "accept_bribe", "deal": 0}, "a")["type"] == "ack"
    socks[other].drain(0.3)
    assert socks[other].view["deals"][0]["status"] == "accepted"
    for sock in socks:
        sock.close()
