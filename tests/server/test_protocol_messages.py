"""The websocket protocol's checks and messages as plain functions, without a socket or an
application."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import new_store
from tricolore.server.db import sqlite_url
from tricolore.server.protocol import (
    MAX_ACTION_ID,
    MAX_MESSAGE,
    PROTOCOL_VERSION,
    BadMessage,
    Connection,
    Limiter,
    action_problem,
    chat_problem,
    domain_answer,
    domain_problem,
    hello_problem,
    message_for,
    parse_frame,
    reply_id,
    view_delta,
)
from tricolore.server.tables import LiveTable


@pytest.fixture
def table(tmp_path: Path) -> LiveTable:
    store = new_store(sqlite_url(tmp_path / "tables.db"))
    created = store.create("bread-and-circuses", 3, ["open", "open", "random"], seed=3)
    for token in created.invites.values():
        store.join(token, "Someone")
    table: LiveTable = store.live[created.table_id]
    store.engine.dispose()
    return table


def connection(seat: int | None) -> Connection:
    return Connection(socket=None, seat=seat, messages=Limiter((10, 1.0)),  # type: ignore[arg-type]
                      chats=Limiter((10, 1.0)))


def test_a_frame_is_one_json_object_of_bounded_size():
    assert parse_frame('{"type": "hello", "version": 1}') == {"type": "hello", "version": 1}
    for text, code in ((None, "malformed"), ("[1, 2]", "malformed"), ("{nope", "malformed"),
                       ("x" * (MAX_MESSAGE + 1), "too_large")):
        with pytest.raises(BadMessage) as refused:
            parse_frame(text)
        assert refused.value.code == code and str(refused.value).endswith(".")


def test_a_refused_frame_names_its_id_only_when_the_id_is_fit_to_echo():
    surrogate = '{"type": "action", "id": "%s", "action": {"type": "name", "name": "\\ud800x"}}'
    with pytest.raises(BadMessage) as named:
        parse_frame(surrogate % "a1")
    assert named.value.message_id == "a1"
    with pytest.raises(BadMessage) as unnamed:
        parse_frame(surrogate % ("x" * (MAX_ACTION_ID + 1)))
    assert unnamed.value.message_id is None


def test_hello_asks_for_this_protocol_version():
    assert hello_problem({"type": "hello", "version": PROTOCOL_VERSION}) is None
    for hello in ({"type": "hello", "version": PROTOCOL_VERSION + 1}, {"type": "hello", "version": True},
                  {"type": "action", "version": PROTOCOL_VERSION}, {"type": "hello"}):
        assert hello_problem(hello) == ("bad_hello", f"Say hello with protocol version {PROTOCOL_VERSION}.")


def test_an_action_needs_a_text_id_a_seat_and_a_person_at_it(table):
    good = {"type": "action", "id": "a", "action": {"type": "ready"}}
    assert action_problem(good, 0, table) is None
    assert action_problem({**good, "id": 7}, 0, table)[0] == "malformed"
    assert action_problem({**good, "action": "ready"}, 0, table)[0] == "malformed"
    assert action_problem({**good, "id": ""}, 0, table)[0] == "bad_id"
    assert action_problem({**good, "id": "x" * (MAX_ACTION_ID + 1)}, 0, table)[0] == "bad_id"
    assert action_problem(good, None, table)[0] == "spectator"
    assert action_problem(good, 2, table)[0] == "bot_seat"


def test_chat_and_domain_questions_are_checked_for_shape():
    assert chat_problem({"text": "Bonjour"}, 1) is None
    assert chat_problem({"text": 3}, 1)[0] == "malformed"
    assert chat_problem({"text": "Bonjour"}, None)[0] == "spectator"
    question = {"kind": "give_gold", "param": "gold", "chosen": {"to": 1}}
    assert domain_problem(question, 0) is None
    assert domain_problem({**question, "chosen": []}, 0)[0] == "malformed"
    assert domain_problem(question, None)[0] == "malformed"


def test_a_dependent_domain_is_answered_from_the_table(table):
    answer = domain_answer(table, 0, "give_gold", "gold", {"to": 1})
    assert isinstance(answer, dict) and answer["kind"] == "amount" and answer["low"] >= 1
    assert domain_answer(table, 0, "fly", "height", {}) == ("not_allowed_now", "You cannot fly now.")
    code, why = domain_answer(table, 0, "give_gold", "gold", {"to": 0})
    assert code == "bad_give_gold" and why.endswith(".")


def test_reply_ids_are_echoed_only_when_short_text():
    assert reply_id({"id": "a1"}) == "a1"
    assert reply_id({"id": 5}) is None and reply_id(None) is None
    assert reply_id({"id": "x" * (MAX_ACTION_ID + 1)}) is None


def test_a_limiter_allows_its_count_then_refuses_without_counting():
    limiter = Limiter((3, 60.0))
    assert [limiter.allow() for _ in range(5)] == [True, True, True, False, False]
    assert len(limiter.times) == 3


def test_the_view_delta_rebuilds_the_new_view():
    old: dict[str, Any] = {"round": 1, "gold": [3, 3], "gone": True}
    new: dict[str, Any] = {"round": 2, "gold": [3, 3], "fresh": "yes"}
    delta = view_delta(old, new)
    assert delta == {"set": {"round": 2, "fresh": "yes"}, "unset": ["gone"]}
    rebuilt = {k: v for k, v in old.items() if k not in delta["unset"]} | delta["set"]
    assert rebuilt == new


def test_a_welcome_then_updates_carry_only_what_changed_and_never_anothers_secrets(table):
    seat0, watcher = connection(0), connection(None)
    welcome = message_for(table, seat0, "welcome")
    assert welcome["seat"] == 0 and welcome["version"] == PROTOCOL_VERSION
    assert welcome["view"] == table.state.view(0) and welcome["prompt"]["kinds"]
    assert message_for(table, watcher, "welcome")["prompt"] is None
    quiet = message_for(table, seat0, "update")
    assert quiet["view_delta"] == {"set": {}, "unset": []} and quiet["events"] == []
    table.state.apply(0, {"type": "ready"})
    table.actions.append((0, {"type": "ready"}))
    update = message_for(table, seat0, "update")
    assert update["actions"] == 1 and update["events"]
    assert welcome["view"] | update["view_delta"]["set"] == table.state.view(0)
    assert "you" in table.state.view(0)  # the seat's own part, which a spectator never gets
    watched = message_for(table, watcher, "welcome")
    assert watched["view"] == table.state.view(None) and "you" not in json.dumps(watched["view"])
