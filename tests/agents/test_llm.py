"""The language-model player against a fake OpenAI-compatible endpoint on loopback."""

from __future__ import annotations

import contextlib
import json
import random
import re
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

import tricolore
from tricolore.agents import (
    Heard,
    Message,
    Said,
    decide,
    make_agent,
    offered_actions,
    strategy_names,
    take_said,
)
from tricolore.agents.llm import (
    ACTIONS_TEMPLATE,
    RETRY_TEMPLATE,
    SYSTEM_TEMPLATE,
    TURN_TEMPLATE,
    LanguageModelAgent,
    action_schema,
    fill_nulls,
    parse_strategy,
)
from tricolore.core.errors import OptionsError
from tricolore.sim.batch import BatchSpec, play_one

Reply = Callable[[dict[str, Any]], Any]
SCHEMA_HEADER = "Your legal actions (JSON schema; your action must match one of them):\n"


class FakeEndpoint:
    """A chat-completions endpoint in a thread: ``reply(request)`` scripts each answer (a text, or
    a whole response body as a dict); every request is kept in ``requests``."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.reply: Reply = lambda request: "{}"
        self.status_for: Callable[[dict[str, Any]], int] = lambda request: 200
        self.delay = 0.0
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                body["authorization"] = self.headers.get("Authorization")
                body["path"] = self.path
                endpoint.requests.append(body)
                if endpoint.delay:
                    time.sleep(endpoint.delay)
                answer = endpoint.reply(body)
                if not isinstance(answer, dict):
                    answer = {"choices": [{"message": {"role": "assistant", "content": answer}}],
                              "usage": {"prompt_tokens": 100, "completion_tokens": 10}}
                data = json.dumps(answer).encode()
                self.send_response(endpoint.status_for(body))
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                with contextlib.suppress(BrokenPipeError, ConnectionResetError):  # the client gave up
                    self.wfile.write(data)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def endpoint(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeEndpoint]:
    fake = FakeEndpoint()
    monkeypatch.setenv("TRICOLORE_LLM_URL", fake.url)
    monkeypatch.setenv("TRICOLORE_LLM_MODEL", "fake-model")
    monkeypatch.setenv("TRICOLORE_LLM_KEY", "sekrit")
    yield fake
    fake.close()


# -- a model that reads the schema it is shown ---------------------------------------------------
def schema_in(request: dict[str, Any]) -> dict[str, Any]:
    turn = request["messages"][1]["content"]
    return json.loads(turn.split(SCHEMA_HEADER, 1)[1].split("\n", 1)[0])


def names_in(request: dict[str, Any]) -> list[str]:
    return re.findall(r"(\S[^,]*?) \(seat \d+\)", request["messages"][0]["content"].split(
        "The players are: ", 1)[1].split("\n", 1)[0])


def value_for(schema: dict[str, Any], rng: random.Random) -> Any:
    if "const" in schema:
        return schema["const"]
    if "enum" in schema:
        return rng.choice(schema["enum"])
    if schema.get("type") == "integer":
        return rng.randint(schema["minimum"], min(schema["maximum"], schema["minimum"] + 2))
    if schema.get("type") == "string":
        return "The accused blinked twice."[: schema["maxLength"]]
    if schema.get("type") == "array":
        options = schema["items"]["enum"]
        return rng.sample(options, rng.randint(schema["minItems"], min(schema["maxItems"], len(options))))
    raise AssertionError(f"no value for {schema}")


def action_from_schema(schema: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """An action the way a model would build it from the schema: mostly what it is asked."""
    asked = [s for s in schema["anyOf"] if "any time" not in s["description"]]
    chosen = rng.choice(asked if asked and rng.random() < 0.9 else schema["anyOf"])
    return {name: value_for(param, rng) for name, param in chosen["properties"].items()
            if name in chosen["required"]}


def talking_model(seed: int) -> Reply:
    """Answers a legal action read from the schema, and now and then says something, publicly or
    privately to a named player."""
    rng = random.Random(seed)

    def reply(request: dict[str, Any]) -> str:
        answer: dict[str, Any] = {"action": action_from_schema(schema_in(request), rng)}
        if rng.random() < 0.2:
            names = names_in(request)
            answer["chat"] = ({"to": "all", "text": "Citoyens, vote with me."} if rng.random() < 0.5
                              else {"to": [rng.choice(names)], "text": "Between us: I tell the truth."})
        return json.dumps(answer)

    return reply


def trials_state(players: int = 3) -> Any:
    return tricolore.get_game("culottes-trials").new(players, seed=3, options={"trials": 2})


# -- one decision ----------------------------------------------------------------------------------
def test_a_valid_answer_is_played_and_its_tokens_and_latency_counted(endpoint):
    state = trials_state()
    seat = min(state.pending())
    legal = state.legal_actions(seat)
    wanted = next(iter(legal))
    endpoint.reply = lambda request: json.dumps({"action": wanted})
    agent = make_agent(tricolore.get_game("culottes-trials"), "llm")
    assert decide(agent, state, seat, random.Random(0)) == wanted
    counters = agent.counters
    assert (counters.calls, counters.retries, counters.fallbacks) == (1, 0, 0)
    assert (counters.prompt_tokens, counters.completion_tokens) == (100, 10) and counters.latency > 0
    request = endpoint.requests[0]
    assert request["model"] == "fake-model" and request["authorization"] == "Bearer sekrit"
    assert request["path"] == "/v1/chat/completions"
    assert "Culottes: revolutionary trials" in request["messages"][0]["content"]
    assert "half the players" in request["messages"][0]["content"]  # the rules summary


def test_an_answer_that_is_not_json_is_sent_back_with_its_refusal_then_accepted(endpoint):
    state = trials_state()
    seat = min(state.pending())
    wanted = next(iter(state.legal_actions(seat)))
    answers = iter(["I think I will designate nobody.", f"```json\n{json.dumps({'action': wanted})}\n```"])
    endpoint.reply = lambda request: next(answers)
    agent = make_agent(tricolore.get_game("culottes-trials"), "llm")
    assert decide(agent, state, seat, random.Random(0)) == wanted
    assert (agent.counters.calls, agent.counters.retries, agent.counters.fallbacks) == (2, 1, 0)
    second = endpoint.requests[1]["messages"]
    assert second[2] == {"role": "assistant", "content": "I think I will designate nobody."}
    assert second[3]["content"] == RETRY_TEMPLATE.format(reason="it holds no JSON object.")


def test_an_illegal_action_is_sent_back_with_the_rules_sentence(endpoint):
    state = trials_state()
    seat = min(state.pending())
    wanted = next(iter(state.legal_actions(seat)))
    answers = iter([json.dumps({"action": {"type": "fly"}}), json.dumps({"action": wanted})])
    endpoint.reply = lambda request: next(answers)
    agent = make_agent(tricolore.get_game("culottes-trials"), "llm")
    assert decide(agent, state, seat, random.Random(0)) == wanted
    assert "You cannot fly now" in endpoint.requests[1]["messages"][3]["content"]


def test_two_bad_answers_fall_back_to_a_random_legal_action_and_are_counted(endpoint):
    state = trials_state()
    seat = min(state.pending())
    endpoint.reply = lambda request: json.dumps({"action": {"type": "designate", "grabbers": [99]}})
    agent = make_agent(tricolore.get_game("culottes-trials"), "llm")
    action = decide(agent, state, seat, random.Random(0))
    assert state.legal_actions(seat).contains(action)
    assert (agent.counters.calls, agent.counters.retries, agent.counters.fallbacks) == (2, 1, 1)


def test_a_timeout_falls_back_at_once_without_a_retry(endpoint):
    state = trials_state()
    seat = min(state.pending())
    endpoint.delay = 1.5
    agent = make_agent(tricolore.get_game("culottes-trials"), "llm@timeout=0.2")
    started = time.monotonic()
    action = decide(agent, state, seat, random.Random(0))
    assert time.monotonic() - started < 1.2
    assert state.legal_actions(seat).contains(action)
    assert (agent.counters.calls, agent.counters.timeouts, agent.counters.fallbacks) == (1, 1, 1)


def test_an_endpoint_that_fails_falls_back(endpoint):
    state = trials_state()
    seat = min(state.pending())
    endpoint.reply = lambda request: {"error": {"message": "overloaded"}}
    agent = make_agent(tricolore.get_game("culottes-trials"), "llm")
    assert state.legal_actions(seat).contains(decide(agent, state, seat, random.Random(0)))
    assert (agent.counters.errors, agent.counters.fallbacks) == (1, 1)


def test_a_chat_message_to_named_players_is_left_for_the_driver(endpoint):
    state = trials_state(4)
    seat = min(state.pending())
    wanted = next(iter(state.legal_actions(seat)))
    names = ["Marat", "Danton", "Robespierre", "Desmoulins"]
    others = [s for s in range(4) if s != seat][:2]
    endpoint.reply = lambda request: json.dumps({"action": wanted, "chat": {
        "to": [names[others[0]].lower(), names[others[1]], names[seat]], "text": "  Trust me.  "}})
    agent = make_agent(tricolore.get_game("culottes-trials"), "llm")
    decide(agent, state, seat, random.Random(0), names=names)
    assert take_said(agent) == [Said("Trust me.", tuple(others))]  # never to itself
    assert take_said(agent) == []
    assert f'as "{names[seat]}"' in endpoint.requests[0]["messages"][0]["content"]


@pytest.mark.parametrize("chat", [{"to": ["Nobody"], "text": "hi"}, {"to": "all", "text": "a\x00b"},
                                  {"to": "all", "text": "x" * 501}, "hello", {"to": "all"}])
def test_a_chat_message_that_cannot_be_sent_is_dropped_and_the_action_kept(endpoint, chat):
    state = trials_state()
    seat = min(state.pending())
    wanted = next(iter(state.legal_actions(seat)))
    endpoint.reply = lambda request: json.dumps({"action": wanted, "chat": chat})
    agent = make_agent(tricolore.get_game("culottes-trials"), "llm")
    assert decide(agent, state, seat, random.Random(0)) == wanted
    assert take_said(agent) == [] and agent.counters.chats_refused == 1


def test_the_prompt_shows_the_chat_the_seat_may_read_and_the_latest_events(endpoint):
    from tricolore.core.registry import terminal_renderer

    state = trials_state()
    seat = min(state.pending())
    endpoint.reply = lambda request: json.dumps({"action": next(iter(state.legal_actions(seat)))})
    agent = make_agent(tricolore.get_game("culottes-trials"), "llm")
    chat = [Message(1, "hello all"), Message(2, "psst", (seat,)), Message(1, "not-for-you", (2,))]
    decide(agent, state, seat, random.Random(0), chat=chat)
    turn = endpoint.requests[0]["messages"][1]["content"]
    assert "seat 1 to all: hello all" in turn and f"seat 2 to seat {seat}: psst" in turn
    assert "not-for-you" not in turn
    started = state.events_for(seat)[0]
    assert started["kind"] == "trial_started" and f"— trial 1: seat {started['accused']} is accused —" in turn
    assert '"kind"' not in turn  # events are the log's sentences, not JSON
    for _ in range(3):
        state.apply(min(state.pending()), state.legal_actions(min(state.pending())).sample(random.Random(1)))
    seat = min(state.pending())
    endpoint.reply = lambda request: json.dumps({"action": next(iter(state.legal_actions(seat)))})
    decide(make_agent(tricolore.get_game("culottes-trials"), "llm@memory=2"), state, seat, random.Random(0))
    events = endpoint.requests[-1]["messages"][1]["content"].split("(oldest first):\n", 1)[1]
    shown = events.split("\n\n", 1)[0].splitlines()
    render = terminal_renderer("culottes-trials")
    assert render is not None
    assert shown == [render.event(e, state.view(seat)) for e in state.events_for(seat)[-2:]]


def test_a_later_prompt_shows_only_what_happened_and_was_said_since_the_last_decision(endpoint):

    game = tricolore.get_game("culottes-trials")
    state = trials_state()
    rng = random.Random(3)
    endpoint.reply = lambda request: json.dumps({"action": action_from_schema(schema_in(request), rng)})
    agents = {s: make_agent(game, "llm") for s in range(3)}
    chat = [Message(1, "first words"), Message(2, "aside", (0,))]
    asked = [min(state.pending())]
    state.apply(asked[0], decide(agents[asked[0]], state, asked[0], rng, chat=chat))
    before = len(endpoint.requests)
    while not state.is_over():
        seat = min(state.pending())
        if seat == asked[0]:
            break
        state.apply(seat, state.legal_actions(seat).sample(rng))
    else:
        pytest.fail("the first seat was never asked again")
    seat = asked[0]
    chat.append(Message(2, "new words"))
    shown_first = endpoint.requests[0]["messages"][1]["content"]
    decide(agents[seat], state, seat, rng, chat=chat)
    turn = endpoint.requests[before]["messages"][1]["content"]
    said = turn.split("What was said since your last decision (oldest first):\n", 1)[1].split("\n\n", 1)[0]
    assert "new words" in said and "first words" not in said
    readable = [m for m in chat[:2] if m.readable_by(seat)]
    assert said.startswith(f"(before that: {len(readable)} messages")
    happened = turn.split("What happened since your last decision (oldest first):\n", 1)[1].split("\n\n")[0]
    first_events = shown_first.split("What happened since your last decision (oldest first):\n", 1)[1]
    assert happened.splitlines()[0] not in first_events.split("\n\n")[0].splitlines()


def test_what_a_failing_endpoint_never_showed_the_model_is_shown_at_the_next_decision(endpoint):
    state = trials_state()
    seat = min(state.pending())
    agent = make_agent(tricolore.get_game("culottes-trials"), "llm")
    endpoint.status_for = lambda request: 500
    decide(agent, state, seat, random.Random(0), chat=[Message(1, "hello all")])
    assert agent.counters.errors == 1 and agent.counters.fallbacks == 1
    endpoint.status_for = lambda request: 200
    endpoint.reply = lambda request: json.dumps({"action": next(iter(state.legal_actions(seat)))})
    decide(agent, state, seat, random.Random(0), chat=[Message(1, "hello all")])
    turn = endpoint.requests[-1]["messages"][1]["content"]
    assert "seat 1 to all: hello all" in turn and "is accused" in turn
    decide(agent, state, seat, random.Random(0), chat=[Message(1, "hello all")])
    turn = endpoint.requests[-1]["messages"][1]["content"]  # the model has seen them now
    assert "seat 1 to all: hello all" not in turn and "is accused" not in turn


def test_free_actions_are_marked_and_withdrawn_after_a_few_in_a_row(endpoint):
    game = tricolore.get_game("bread-and-circuses")
    state = game.new(3, seed=1)
    seat = min(state.pending())
    agent = make_agent(game, "llm")
    legal = offered_actions(state, seat, agent)
    schema = action_schema(legal, state.legal_actions(seat).kinds)
    free = [s["title"] for s in schema["anyOf"] if "any time" in s["description"]]
    assert "give_gold" in free
    endpoint.reply = lambda request: json.dumps({"action": {"type": "give_gold", "to": (seat + 1) % 3,
                                                            "gold": 1}})
    for _ in range(3):
        gift = decide(agent, state, seat, random.Random(0))
        assert gift["type"] == "give_gold"
        state.apply(seat, gift)
    schema = schema_in(endpoint.requests[-1])
    endpoint.reply = lambda request: json.dumps({"action": action_from_schema(schema_in(request),
                                                                              random.Random(0))})
    decide(agent, state, seat, random.Random(0))
    assert all("any time" not in s["description"] for s in schema_in(endpoint.requests[-1])["anyOf"])


def test_a_free_action_that_changed_nothing_is_not_offered_again_until_the_prompt_is_answered(endpoint):
    game = tricolore.get_game("bread-and-circuses")
    state = game.new(3, seed=1)
    seat = min(state.pending())
    agent = make_agent(game, "llm")
    endpoint.reply = lambda request: json.dumps({"action": {"type": "give_gold", "to": (seat + 1) % 3,
                                                            "gold": 1}})
    assert decide(agent, state, seat, random.Random(0))["type"] == "give_gold"  # not applied: no change
    assert "give_gold" in [s["title"] for s in schema_in(endpoint.requests[-1])["anyOf"]]
    asked = next(iter(state.legal_actions(seat)))
    endpoint.reply = lambda request: json.dumps({"action": asked})
    assert decide(agent, state, seat, random.Random(0)) == asked
    titles = [s["title"] for s in schema_in(endpoint.requests[-1])["anyOf"]]
    assert "give_gold" not in titles
    assert set(titles) >= set(state.legal_actions(seat).kinds)
    decide(agent, state, seat, random.Random(0))  # the prompt was answered: gifts are offered again
    assert "give_gold" in [s["title"] for s in schema_in(endpoint.requests[-1])["anyOf"]]


def test_a_parameter_that_depends_on_another_is_spelled_out_per_choice():
    game = tricolore.get_game("culottes")
    state = game.new(3, seed=2)
    rng = random.Random(5)
    for _ in range(30):
        seat = min(state.pending())
        state.apply(seat, state.legal_actions(seat).sample(rng))
    free = state.free_actions(0)
    gifts = [s for s in action_schema(free)["anyOf"] if s["title"] == "give_cakes"]
    assert len(gifts) > 1 and all("const" in s["properties"]["from"] for s in gifts)
    assert all(s["properties"]["cakes"]["type"] == "integer" for s in gifts)


@pytest.mark.parametrize("name", ["culottes-trials", "bread-and-circuses", "let-them-eat-cake", "culottes"])
def test_actions_built_from_the_schema_are_legal(name):
    game = tricolore.get_game(name)
    state = game.new(4, seed=1)
    rng = random.Random(2)
    tried = legal = 0
    while not state.is_over() and tried < 150:
        seat = min(state.pending())
        space = state.legal_actions(seat)
        action = action_from_schema(action_schema(space), rng)
        tried += 1
        legal += space.contains(fill_nulls(action, space))  # as an answer is read
        state.apply(seat, space.sample(rng))
    assert legal == tried


# -- configuration -------------------------------------------------------------------------------
def test_llm_is_offered_only_when_an_endpoint_and_a_model_are_configured(monkeypatch):
    game = tricolore.get_game("culottes")
    monkeypatch.delenv("TRICOLORE_LLM_URL", raising=False)
    monkeypatch.setenv("TRICOLORE_LLM_MODEL", "m")
    assert "llm" not in strategy_names(game)
    monkeypatch.setenv("TRICOLORE_LLM_URL", "http://127.0.0.1:9/v1")
    assert strategy_names(game)[-1] == "llm"
    assert isinstance(make_agent(game, "llm:other"), LanguageModelAgent)


def test_asking_for_llm_without_an_endpoint_gives_one_sentence(monkeypatch):
    monkeypatch.delenv("TRICOLORE_LLM_URL", raising=False)
    with pytest.raises(OptionsError, match=r"^the llm strategy needs an endpoint: set TRICOLORE_LLM_URL"):
        make_agent(tricolore.get_game("revolution"), "llm")


@pytest.mark.parametrize(("strategy", "problem"), [
    ("llm:m@timeout=abc", "must be a number"), ("llm:m@timeout=0", "must be from 0.1"),
    ("llm:m@colour=red", "is not one of"), ("llm:", "needs a model"),
])
def test_a_bad_llm_strategy_is_refused_with_a_sentence(monkeypatch, strategy, problem):
    monkeypatch.setenv("TRICOLORE_LLM_URL", "http://127.0.0.1:9/v1")
    monkeypatch.delenv("TRICOLORE_LLM_MODEL", raising=False)
    with pytest.raises(OptionsError, match=problem):
        parse_strategy(strategy)


def test_the_model_may_hold_colons_and_the_options_follow_it():
    config = parse_strategy("llm:qwen2.5:7b@timeout=5@temperature=0.3@memory=10",
                            {"TRICOLORE_LLM_URL": "https://example.org/v1/chat/completions"})
    assert (config.model, config.timeout, config.temperature, config.memory) == ("qwen2.5:7b", 5.0, 0.3, 10)
    assert config.endpoint == "https://example.org/v1/chat/completions"


# -- whole games -----------------------------------------------------------------------------------
@pytest.mark.parametrize(("name", "seats", "options"), [
    ("culottes-trials", ("llm", "llm", "random", "llm"), {"trials": 2}),
    ("bread-and-circuses", ("llm", "random", "llm"), {"max_rounds": 3}),
])
def test_language_model_players_finish_a_whole_game_talking(endpoint, name, seats, options):
    endpoint.reply = talking_model(7)
    spec = BatchSpec(name, seats, 1, seed=11, options=options)
    row = play_one(spec, 11)
    assert row.winners
    metrics = row.metrics
    assert metrics["llm_calls"] == len(endpoint.requests) > 10
    assert metrics["llm_fallbacks"] <= metrics["llm_calls"] * 0.05
    assert metrics["chat_messages"] >= 1 and metrics["llm_chats"] == metrics["chat_messages"]
    assert metrics["llm_prompt_tokens"] == 100 * metrics["llm_calls"]
    # what one model said reached the others' prompts
    heard = [r for r in endpoint.requests if "Citoyens, vote with me." in r["messages"][1]["content"]
             or "Between us" in r["messages"][1]["content"]]
    assert heard


# -- the documentation -----------------------------------------------------------------------------
def test_the_documented_prompt_is_the_one_sent():
    doc = (Path(__file__).parents[2] / "docs" / "agents.md").read_text()
    for template in (SYSTEM_TEMPLATE, TURN_TEMPLATE, ACTIONS_TEMPLATE, RETRY_TEMPLATE):
        assert template in doc


def test_a_heard_seat_defaults_names_to_seat_numbers(endpoint):
    state = trials_state()
    seat = min(state.pending())
    agent = make_agent(tricolore.get_game("culottes-trials"), "llm")
    agent.listen(Heard(seat, (), (), (), ()))
    messages = agent.messages(state.view(seat), state.legal_actions(seat), Heard(seat, (), (), (), ()))
    assert f'as "seat {seat}"' in messages[0]["content"]


# -- the server ------------------------------------------------------------------------------------
def test_the_lobby_offers_llm_and_a_language_model_seat_talks_to_a_person(endpoint, tmp_path):
    from tests.server.conftest import serve
    from tests.server.wire import play_until_over
    from tricolore.server.db import sqlite_url

    rng = random.Random(4)
    calls = iter(range(10**6))

    def model(request: dict[str, Any]) -> str:
        n = next(calls)
        chat = ({"to": "all", "text": f"Salut, citoyens ({n})"} if n % 2
                else {"to": ["Marat"], "text": "Psst, Marat"})
        return json.dumps({"action": action_from_schema(schema_in(request), rng), "chat": chat})

    endpoint.reply = model
    server = serve(sqlite_url(tmp_path / "tables.db"))
    live = next(server)
    try:
        games = live.http.get("/api/games").json()
        assert all("llm" in g["strategies"] for g in games)
        created = live.create("culottes-trials", ["open", "llm", "llm"], options={"trials": 2})
        token = live.join(created["invites"]["0"], "Marat")
        sock = live.socket(created["table_id"], token)
        play_until_over([sock], random.Random(1))
        assert sock.status == "over"
        sock.drain(0.2)
        chats = [m for m in sock.messages if m["type"] == "chat"]
        assert any(m["to"] is None and m["from"] in (1, 2) and m["text"].startswith("Salut") for m in chats)
        assert any(m["to"] == 0 and m["from"] in (1, 2) and m["text"] == "Psst, Marat" for m in chats)
        assert all(m["to"] in (None, 0) for m in chats)  # the bots' other private words stay private
        # the bots hear the table: a later prompt holds what was said before
        assert any("Psst, Marat" in r["messages"][1]["content"] or "Salut" in r["messages"][1]["content"]
                   for r in endpoint.requests)
        sock.close()
    finally:
        next(server, None)


def test_a_bot_thinking_does_not_hold_the_table_people_chat_meanwhile(endpoint, tmp_path):
    from tests.server.conftest import serve
    from tests.server.wire import choose
    from tricolore.server.db import sqlite_url

    rng = random.Random(2)
    answer = threading.Event()

    def slow_model(request: dict[str, Any]) -> str:
        answer.wait(20)  # the model is thinking until the test lets it answer
        return json.dumps({"action": action_from_schema(schema_in(request), rng)})

    endpoint.reply = slow_model
    server = serve(sqlite_url(tmp_path / "tables.db"))
    live = next(server)
    try:
        created = live.create("culottes-trials", ["open", "llm", "llm"], options={"trials": 1})
        token = live.join(created["invites"]["0"], "Marat")
        sock = live.socket(created["table_id"], token)
        deadline = time.monotonic() + 20
        while not endpoint.requests and time.monotonic() < deadline:  # act until a bot is asked
            sock.drain(0.05)
            action = choose(sock, rng)
            if action is not None:
                sock.act(action, f"a{time.monotonic_ns()}")
        assert endpoint.requests, "the bot never asked its model"
        sock.send({"type": "chat", "id": "c1", "text": "Are you still thinking?", "to": None})
        echoed = sock.expect("chat", timeout=5)  # delivered while the model has not answered
        assert echoed["text"] == "Are you still thinking?" and not answer.is_set()
        answer.set()
        sock.close()
    finally:
        answer.set()
        next(server, None)


# -- the command line ------------------------------------------------------------------------------
def test_play_prints_what_the_bots_say_to_the_person_and_keeps_their_private_words(endpoint):
    import io

    from rich.console import Console

    from tricolore.cli.play import TerminalTable

    rng = random.Random(6)
    calls = iter(range(10**6))

    def model(request: dict[str, Any]) -> str:
        me = re.search(r'as "(\w+)"', request["messages"][0]["content"])  # the table's names
        other_bot = "Olympe" if me and me.group(1) == "Danton" else "Danton"
        chat = [{"to": "all", "text": "for-all"}, {"to": ["Marat"], "text": "for-the-person"},
                {"to": [other_bot], "text": "for-a-bot"}][next(calls) % 3]
        return json.dumps({"action": action_from_schema(schema_in(request), rng), "chat": chat})

    endpoint.reply = model
    game = tricolore.get_game("culottes-trials")
    state = game.new(3, seed=5, options={"trials": 2})
    out = io.StringIO()
    agents = [None, make_agent(game, "llm"), make_agent(game, "llm")]
    table = TerminalTable(state, ["human", "llm", "llm"], agents, Console(file=out, markup=False, width=200),
                          ask=lambda prompt: json.dumps(state.legal_actions(0).sample(rng)))
    table.run()
    printed = out.getvalue()
    assert "says: for-all" in printed and "says (to Marat): for-the-person" in printed
    assert "for-a-bot" not in printed and "seat 1" not in printed
    assert re.search(r"Danton \(llm\): \d+ requests, 0 retried, 0 fell back, \d+ tokens", printed)
    assert any("for-a-bot" in r["messages"][1]["content"] for r in endpoint.requests)  # the bots heard it


def test_simulate_asked_for_llm_without_an_endpoint_says_so_in_one_sentence(monkeypatch):
    from typer.testing import CliRunner

    from tricolore.cli.main import app

    monkeypatch.delenv("TRICOLORE_LLM_URL", raising=False)
    result = CliRunner().invoke(app, ["simulate", "culottes-trials", "--players", "3", "--games", "1",
                                      "--seats", "llm,random,random"])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "needs an endpoint: set TRICOLORE_LLM_URL" in result.output


def test_a_fallback_is_drawn_from_what_the_prompt_asks_never_a_free_action(endpoint):
    game = tricolore.get_game("bread-and-circuses")
    state = game.new(3, seed=1)
    seat = min(state.pending())
    endpoint.reply = lambda request: "no idea"
    agent = make_agent(game, "llm")
    kinds = {decide(agent, state, seat, random.Random(i))["type"] for i in range(12)}
    assert kinds <= set(state.legal_actions(seat).kinds) and "give_gold" in state.free_actions(seat).kinds
    assert agent.counters.fallbacks == 12 and agent.counters.retries == 12


# -- standard JSON Schema ---------------------------------------------------------------------------
ALL_GAMES = ["culottes", "culottes-trials", "let-them-eat-cake", "revolution", "bread-and-circuses"]


def mangled(action: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A legal action made illegal one way or another: an unknown kind or field, a number far out
    of range, a parameter left out or a value of the wrong type."""
    wrong = dict(action)
    params = [k for k in action if k != "type"]
    how = rng.randrange(4) if params else rng.randrange(2)
    if how == 0:
        wrong["type"] = "storm_the_bastille"
    elif how == 1:
        wrong["pikes"] = 3
    elif how == 2:
        del wrong[rng.choice(params)]
    else:
        name = rng.choice(params)
        wrong[name] = 10**6 if not isinstance(action[name], int) or isinstance(action[name], bool) else "many"
    return wrong


@pytest.mark.parametrize("name", ALL_GAMES)
def test_every_schema_is_standard_json_schema_and_holds_every_legal_action(name):
    from jsonschema import Draft202012Validator  # type: ignore[import-untyped, unused-ignore]

    game = tricolore.get_game(name)
    state = game.new(4, seed=3)
    rng = random.Random(3)
    checked = refused = mangled_count = 0
    for _ in range(120):
        if state.is_over():
            break
        seat = min(state.pending())
        space = offered_actions(state, seat, type("Trader", (), {"trades": True})())
        schema = action_schema(space, state.legal_actions(seat).kinds)
        Draft202012Validator.check_schema(schema)
        assert "x-domain" not in json.dumps(schema)
        validator = Draft202012Validator(schema)
        for _ in range(4):
            action = space.sample(rng)
            assert validator.is_valid(action), (action, list(validator.iter_errors(action))[:1])
            checked += 1
            wrong = mangled(action, rng)
            if not space.contains(fill_nulls(dict(wrong), space)):
                mangled_count += 1
                refused += not validator.is_valid(wrong)
        state.apply(seat, state.legal_actions(seat).sample(rng))
    assert checked >= 100
    assert refused >= 0.9 * mangled_count


def test_revolutions_bid_is_written_in_standard_keywords():
    from jsonschema import Draft202012Validator  # type: ignore[import-untyped, unused-ignore]

    game = tricolore.get_game("revolution")
    state = game.new(4, seed=1)
    seat = min(state.pending())
    space = state.legal_actions(seat)
    assert "bid" in space.kinds
    (bid,) = [s for s in action_schema(space)["anyOf"] if s["title"] == "bid"]
    placement = bid["properties"]["placement"]
    held = state.view(seat)["chips"][seat]
    validator = Draft202012Validator(placement)
    every = {name: {"gold": 0} for name in placement["propertyNames"]["enum"]}
    assert validator.is_valid({}) and not validator.is_valid({"Nowhere": {"gold": 1}})
    assert not validator.is_valid(every) or len(every) <= placement["maxProperties"]
    space_name = placement["propertyNames"]["enum"][0]
    assert not validator.is_valid({space_name: {"gold": held["gold"] + 1}})
    assert f"{held['gold']} gold" in placement["description"]


def test_a_sabotage_card_that_names_nobody_need_not_say_target_null(endpoint):
    game = tricolore.get_game("bread-and-circuses")
    state = game.new(3, seed=1)
    rng = random.Random(3)
    for _ in range(400):
        seat = min(state.pending())
        family = state.legal_actions(seat).family("play_sabotage")
        untargeted = [a for a in family if a["target"] is None] if family is not None else []
        if untargeted:
            break
        state.apply(seat, state.legal_actions(seat).sample(rng))
    else:
        pytest.fail("no Sabotage card without a target came up")
    card = untargeted[0]["card"]
    branch = [s for s in action_schema(state.legal_actions(seat))["anyOf"] if s["title"] == "play_sabotage"
              and card in s["properties"]["card"].get("enum", [s["properties"]["card"].get("const")])]
    assert branch and all("target" not in s["required"] for s in branch
                          if s["properties"]["target"] in ({"const": None}, {"enum": [None]}))
    endpoint.reply = lambda request: json.dumps({"action": {"type": "play_sabotage", "card": card}})
    agent = make_agent(game, "llm")
    played = decide(agent, state, seat, random.Random(0))
    assert played == {"type": "play_sabotage", "card": card, "target": None}
    assert agent.counters.retries == 0


# -- structured output and tool calling ------------------------------------------------------------
@pytest.mark.parametrize("output", ["json_schema", "tools"])
def test_structured_output_and_tools_send_the_answer_schema_and_read_the_answer(endpoint, output):
    from jsonschema import Draft202012Validator  # type: ignore[import-untyped, unused-ignore]

    state = trials_state()
    seat = min(state.pending())
    wanted = next(iter(state.legal_actions(seat)))
    answer = json.dumps({"action": wanted, "chat": {"to": "all", "text": "Trust me."}})

    def reply(request: dict[str, Any]) -> dict[str, Any]:
        message: dict[str, Any] = {"role": "assistant", "content": answer}
        if output == "tools":
            message = {"role": "assistant", "content": None, "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "act", "arguments": answer}}]}
        return {"choices": [{"message": message}], "usage": {"prompt_tokens": 50, "completion_tokens": 5}}

    endpoint.reply = reply
    agent = make_agent(tricolore.get_game("culottes-trials"), f"llm@output={output}")
    assert decide(agent, state, seat, random.Random(0)) == wanted
    assert take_said(agent) == [Said("Trust me.", None)]
    request = endpoint.requests[0]
    schema = (request["response_format"]["json_schema"]["schema"] if output == "json_schema"
              else request["tools"][0]["function"]["parameters"])
    Draft202012Validator.check_schema(schema)
    assert Draft202012Validator(schema).is_valid(json.loads(answer))
    assert SCHEMA_HEADER not in request["messages"][1]["content"]  # the schema is in the request only


def test_an_endpoint_that_refuses_structured_output_is_asked_as_text_from_then_on(endpoint):
    state = trials_state()
    seat = min(state.pending())
    wanted = next(iter(state.legal_actions(seat)))

    def reply(request: dict[str, Any]) -> Any:
        if "response_format" in request:
            return {"error": {"message": "response_format is not supported"}}
        return json.dumps({"action": wanted})

    endpoint.reply = reply
    agent = make_agent(tricolore.get_game("culottes-trials"), "llm@output=json_schema")
    endpoint.status_for = lambda request: 400 if "response_format" in request else 200
    assert decide(agent, state, seat, random.Random(0)) == wanted
    assert "response_format" in endpoint.requests[0] and "response_format" not in endpoint.requests[1]
    assert SCHEMA_HEADER in endpoint.requests[1]["messages"][1]["content"]
    assert agent.counters.fallbacks == 0
    decide(agent, state, seat, random.Random(0))
    assert "response_format" not in endpoint.requests[2]


@pytest.mark.parametrize("name", ["culottes", "bread-and-circuses", "culottes-trials"])
def test_no_prompt_holds_a_secret_of_another_seat(endpoint, name):
    from tricolore.core.registry import terminal_renderer

    game = tricolore.get_game(name)
    state = game.new(4, seed=6)
    state.record_events = True
    render = terminal_renderer(name)
    assert render is not None
    endpoint.reply = talking_model(2)
    agents = [make_agent(game, "llm") for _ in range(4)]
    rng = random.Random(6)
    chat: list[Message] = []
    secrets_checked = 0
    for _ in range(60):
        if state.is_over():
            break
        seat = min(state.pending())
        action = decide(agents[seat], state, seat, rng, chat=chat)
        turn = endpoint.requests[-1]["messages"][1]["content"]
        hidden = [e for e in state.log if e.to is not None and seat not in e.to]
        seen = {render.event(e, state.view(seat)) for e in state.events_for(seat)}
        for event in hidden:
            line = render.event(event.as_dict(), state.view(seat))
            if line.startswith("(secret)") and line not in seen:  # another seat's, not told this one
                secrets_checked += 1
                assert line not in turn
        for message in chat:
            if not message.readable_by(seat):
                assert f": {message.text}" not in turn or any(
                    m.text == message.text and m.readable_by(seat) for m in chat)
        state.apply(seat, action)
        chat.extend(Message(seat, s.text, s.to) for s in take_said(agents[seat]))
    assert name != "culottes" or secrets_checked > 0
