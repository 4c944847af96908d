"""The standing fuzz suite: random and hostile input against a real server on loopback.

Hypothesis writes websocket messages (random JSON, wrong types, huge numbers, deep nesting, invalid
Unicode, unknown fields, wrong tokens, floods) and REST bodies; Schemathesis walks the OpenAPI
schema with valid and invalid requests. Every example checks that the server answered with a
sentence, kept the connection, changed nothing when it refused, and (through the
``no_traceback_in_the_server_log`` fixture) logged no traceback. The example counts are bounded
so that the suite runs in CI in seconds.
"""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from schemathesis.generation import GenerationMode
from websockets.sync.client import connect

from tests.server.conftest import LiveServer
from tricolore.server.app import FLOOD_LIMIT

FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck), database=None)

text = st.text(st.characters(codec=None, categories=None), max_size=40)
"""Any text, lone surrogates and control characters included."""
scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.integers(min_value=10**30),
                    st.floats(allow_nan=False, allow_infinity=False), text)
json_values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(text, inner, max_size=4), max_leaves=20)
fields = st.sampled_from(["type", "id", "action", "kind", "param", "chosen", "text", "to", "token",
                          "version", "role", "name", "citizen", "cakes", "side"])
kinds = st.sampled_from(["action", "chat", "domain", "hello", "nonsense", ""]) | text


@st.composite
def messages(draw: st.DrawFn) -> str:
    """One websocket frame: mostly a message of a known type with random fields, sometimes raw
    junk, deep nesting, a huge number or invalid Unicode."""
    shape = draw(st.integers(0, 9))
    if shape == 0:
        return draw(st.text(max_size=60))
    if shape == 1:
        depth = draw(st.integers(30, 3000))
        return "[" * depth + "]" * depth
    if shape == 2:
        half = draw(st.sampled_from("0123456789abcdef"))
        return '{"type": "chat", "text": "\\ud8' + half + '0", "to": null}'
    if shape == 3:
        return '{"type": "action", "id": "n", "action": {"type": "choose_role", "role": NaN}}'
    message: dict[str, Any] = {"type": draw(kinds)}
    message.update(draw(st.dictionaries(fields, json_values, max_size=5)))
    if message.get("type") == "action" and draw(st.booleans()):
        message["action"] = {"type": draw(st.sampled_from(["choose_role", "pass", "cake_vote", "fly"])),
                             **draw(st.dictionaries(fields, json_values, max_size=3))}
    return json.dumps(message)


def fresh_table(live_server: LiveServer) -> tuple[str, Any]:
    created = live_server.create("culottes", ["open", "open", "open"], window_seconds=0)
    token = live_server.join(created["invites"]["0"], "Marat")
    for s in (1, 2):
        live_server.join(created["invites"][str(s)], f"person {s}")
    return created["table_id"], live_server.socket(created["table_id"], token)


_sentinels = itertools.count()


def answers_to(sock: Any, frame: str) -> list[dict[str, Any]]:
    """Send ``frame`` and return every message the server sent before it answered a sentinel
    request sent right after it (so the answers to ``frame`` are exactly those)."""
    sentinel = f"sentinel-{next(_sentinels)}"
    sock.send(frame)
    sock.send({"type": "domain", "id": sentinel, "kind": "no_such_kind", "param": "p", "chosen": {}})
    out = []
    while True:
        message = sock.recv(timeout=20)
        if message.get("id") == sentinel:
            assert message["type"] == "error", message
            return out
        out.append(message)


def test_random_websocket_messages_are_answered_with_a_sentence_and_change_nothing(live_server):
    table, sock = fresh_table(live_server)
    live = live_server.store.live[table]

    @FUZZ
    @given(frame=messages())
    def one(frame: str) -> None:
        before = live.state.digest(), len(live.actions)
        chat_before = len(live_server.store.chat_for(table, 0))
        answers = answers_to(sock, frame)
        kinds = {m["type"] for m in answers}
        if "ack" not in kinds:
            assert (live.state.digest(), len(live.actions)) == before, frame
        if "chat" not in kinds:
            assert len(live_server.store.chat_for(table, 0)) == chat_before, frame
        for answer in answers:
            if answer["type"] == "error":
                assert answer["message"] and answer["message"].endswith("."), answer
                assert answer["code"] != "server_error", (frame, answer)
                json.dumps(answer).encode("utf-8")

    one()


def test_random_hello_messages_never_open_a_seat_or_drop_without_a_sentence(live_server):
    created = live_server.create("culottes", ["open", "random", "random"])
    url = live_server.base.replace("http", "ws") + f"/ws/{created['table_id']}"

    @FUZZ
    @given(hello=st.fixed_dictionaries({"type": st.just("hello")},
                                       optional={"version": json_values, "token": json_values}))
    def one(hello: dict[str, Any]) -> None:
        with connect(url) as ws:
            ws.send(json.dumps(hello))
            first = json.loads(ws.recv(timeout=20))
        if first["type"] == "welcome":
            assert first["seat"] is None  # no forged token opens a seat
        else:
            assert first["type"] == "error" and first["message"].endswith(".")

    one()


@pytest.mark.real_flood_limit
def test_a_random_flood_is_answered_frame_by_frame_and_cut_at_the_limit(live_server):
    table, sock = fresh_table(live_server)
    sock.close()
    live = live_server.store.live[table]
    count, _seconds = FLOOD_LIMIT
    url = live_server.base.replace("http", "ws") + f"/ws/{table}"

    @settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(frames=st.lists(messages() | st.binary(max_size=20), min_size=count + 1, max_size=count + 40))
    def one(frames: list[str | bytes]) -> None:
        before = live.state.digest(), len(live.actions)
        with connect(url) as ws:  # a spectator
            ws.send(json.dumps({"type": "hello", "version": 1, "token": None}))
            assert json.loads(ws.recv(timeout=20))["type"] == "welcome"
            for frame in frames:
                ws.send(frame)
            answers = [json.loads(ws.recv(timeout=20)) for _ in frames]
        # one answer per frame (the hello counted first); a spectator's frames change nothing
        assert all(a["type"] == "domain" or a["message"].endswith(".") for a in answers), answers
        assert [a.get("code") == "flood" for a in answers] == [n >= count - 1 for n in range(len(frames))]
        assert (live.state.digest(), len(live.actions)) == before

    one()


def test_random_lobby_bodies_are_answered_with_a_declared_status_and_a_sentence(live_server):
    @FUZZ
    @given(path=st.sampled_from(["/api/tables", "/api/join", "/api/leave", "/api/tables/nope/close",
                                 "/api/tables/nope/invites"]),
           body=json_values | st.fixed_dictionaries({}, optional={
               "game": json_values | st.sampled_from(["culottes", "revolution"]), "players": json_values,
               "seats": json_values, "options": json_values, "token": json_values, "name": json_values,
               "window_seconds": json_values, "clock_seconds": json_values, "bots_take_over": json_values,
               "device": json_values, "move": json_values, "creator": json_values}))
    def one(path: str, body: Any) -> None:
        tables = len(live_server.store.live)
        response = live_server.http.post(path, content=json.dumps(body),
                                         headers={"Content-Type": "application/json"})
        assert response.status_code in (200, 400, 404, 409, 422, 429), (path, body, response.text)
        if response.status_code != 200:
            detail = response.json()["detail"]
            assert isinstance(detail, str) and detail.endswith("."), detail
            assert len(live_server.store.live) == tables

    one()


def test_raw_bodies_that_are_not_json_get_a_declared_refusal_and_a_sentence(live_server):
    paths = live_server.http.get("/openapi.json").json()["paths"]
    for path in ("/api/tables", "/api/join", "/api/leave", "/api/tables/nope/invites",
                 "/api/tables/nope/close"):
        declared = paths[path.replace("nope", "{table_id}")]["post"]["responses"]
        for raw in (b"\xff\xfe", b"{", b'{"players": NaN}', b"[" * 5000, b'"\\ud800"'):
            response = live_server.http.post(path, content=raw, headers={"Content-Type": "application/json"})
            assert response.status_code in (400, 422) and str(response.status_code) in declared, (path, raw)
            assert response.json()["detail"].endswith(".")


# -- Schemathesis against the OpenAPI schema --------------------------------------------------------
def test_every_operation_answers_as_the_openapi_schema_declares(live_server):
    schema = schemathesis.openapi.from_url(live_server.base + "/openapi.json")
    operations = [result.ok() for result in schema.get_all_operations()]
    assert {op.path for op in operations} >= {"/api/tables", "/api/join", "/api/leave", "/api/games"}
    refused = set()
    for operation, mode in itertools.product(operations, GenerationMode):

        @settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck), database=None)
        @given(case=operation.as_strategy(mode))
        def one(case: Any) -> None:
            # a schema-valid lobby request may still break a rule the schema cannot say (one seat
            # per player, a known strategy): the server refuses it with a declared 400 and a sentence;
            # a request the schema forbids must get a refusal the schema declares
            case.call_and_validate(base_url=live_server.base,
                                   excluded_checks=[schemathesis.checks.positive_data_acceptance])

        try:
            one()
        except Unsatisfiable:  # no request can break the schema: it takes no input, or any text
            assert mode is GenerationMode.NEGATIVE and operation.method == "get", operation.path
            continue
        if mode is GenerationMode.NEGATIVE:
            refused.add((operation.method, operation.path))
    assert {(op.method, op.path) for op in operations if op.method == "post"} <= refused
