"""The text environment: TextArena's loop over every game, negotiation rounds, answers read in
several forms, retries and defaults, no stalls, and nothing a seat may not know in its text."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tricolore.agents.llm import FREE_IN_A_ROW
from tricolore.core.errors import OptionsError
from tricolore.interop.text import MAX_RETRIES, TextEnv

SCHEMA_HEADER = "Your legal actions (JSON schema; an action marked \"any time\" leaves your decision open):\n"
SMALL = {
    "culottes": (3, {"max_rounds": 2}),
    "culottes-trials": (3, {"trials": 2}),
    "let-them-eat-cake": (3, {"max_rounds": 2}),
    "revolution": (3, {}),
    "bread-and-circuses": (3, {"max_rounds": 3}),
}


def schema_of(observation: str) -> dict[str, Any]:
    return json.loads(observation.split(SCHEMA_HEADER, 1)[1].split("\n", 1)[0])


def titles(observation: str) -> list[str]:
    return [s["title"] for s in schema_of(observation)["anyOf"]]


def negotiating(observation: str) -> bool:
    return "Negotiation, round" in observation.rsplit("\n\n", 1)[-1]


def random_answer(env: TextEnv, player: int, observation: str, rng: random.Random) -> str:
    """An agent that answers a legal action drawn from what it is offered, now and then with a
    message before it, and says something in negotiations."""
    if negotiating(observation):
        other = env.names[(player + 1) % env.players]
        return rng.choice(["[pass]", "[to all] Vive la nation !", f"[to {other}] psst"])
    asked = [s for s in schema_of(observation)["anyOf"] if "any time" not in s["description"]]
    kinds = {s["title"] for s in asked}
    action = env._offered(player)
    space = type(action)(tuple(f for f in action.families if f.kind in kinds)) or action
    chat = "[to all] I keep my word.\n" if rng.random() < 0.2 else ""
    return f"{chat}[action] {json.dumps(space.sample(rng))}"


def play_out(env: TextEnv, seed: int, limit: int = 5000) -> list[tuple[int, str, dict[str, Any]]]:
    rng = random.Random(seed)
    player, observation = env.reset()
    trace: list[tuple[int, str, dict[str, Any]]] = []
    done = False
    while not done and len(trace) < limit:
        answer = random_answer(env, player, observation, rng)
        done, info = env.step(answer)
        trace.append((player, observation, info))
        player, observation = env.get_observation()
    assert done, "the game did not end"
    return trace


@pytest.mark.parametrize("name", list(SMALL))
def test_every_game_plays_to_its_end_through_text(name):
    players, options = SMALL[name]
    env = TextEnv(name, players, seed=4, options=options, negotiation_rounds=1)
    trace = play_out(env, 4)
    assert all(info["invalid"] is None for _, _, info in trace)
    rewards, result = env.close()
    assert result["over"] and result["winners"]
    assert rewards == {s: 1.0 if s in result["winners"] else 0.0 for s in range(players)}
    assert env.get_observation() == (-1, "")
    with pytest.raises(OptionsError, match="the game is over"):
        env.step("[pass]")


def test_the_same_seed_and_answers_give_the_same_observations():
    first = [(p, o) for p, o, _ in play_out(TextEnv("culottes-trials", 4, seed=2, negotiation_rounds=1), 9)]
    second = [(p, o) for p, o, _ in play_out(TextEnv("culottes-trials", 4, seed=2, negotiation_rounds=1), 9)]
    assert first == second


def test_negotiation_rounds_ask_every_seat_in_turn_and_carry_their_words():
    env = TextEnv("culottes-trials", 4, seed=3, options={"trials": 2},
                  names=["Marat", "Danton", "Roland", "Roux"], negotiation_rounds=2)
    player, observation = env.reset()
    assert negotiating(observation) and "round 1 of 2, before you decide" in observation
    decider = player
    order = [(decider + k) % 4 for k in range(4)]
    asked, shown = [], {}
    for r in range(2):
        for seat in order:
            player, observation = env.get_observation()
            asked.append(player)
            shown[(r, player)] = observation
            assert negotiating(observation) and f"round {r + 1} of 2" in observation
            if r == 0 and seat == order[0]:
                env.step("[to all] Citoyens, the accused is honest.")
            elif r == 0 and seat == order[1]:
                env.step(f"[to {env.names[order[2]]}] Between us: vote against.")
            else:
                env.step("[pass]")
    assert asked == order * 2
    public = f"{env.names[order[0]]} to all: Citoyens, the accused is honest."
    private = f"{env.names[order[1]]} to {env.names[order[2]]}: Between us: vote against."
    assert public in shown[(0, order[1])] and public in shown[(0, order[3])]
    assert private in shown[(0, order[2])] and private not in shown[(0, order[3])]
    assert "Between us" not in shown[(1, order[0])] and "Between us" not in shown[(1, order[3])]
    # what a seat read in the last round is not shown again: only a count of it
    assert public not in shown[(1, order[1])] and "(before that: " in shown[(1, order[1])]
    player, observation = env.get_observation()
    assert player == decider and not negotiating(observation) and SCHEMA_HEADER in observation


def test_an_invalid_answer_is_refused_with_a_sentence_then_a_default_action_is_played():
    env = TextEnv("bread-and-circuses", 3, seed=1, retries=1)
    player, observation = env.reset()
    done, info = env.step("I would rather not say.")
    assert not done and info["invalid"].startswith("it holds no action") and info["action"] is None
    again, observation = env.get_observation()
    assert again == player and observation.startswith("Your last answer was refused: it holds no action")
    asked = env.state.legal_actions(player).kinds
    done, info = env.step('[action] {"type": "fly"}')
    assert info["fallback"] and "You cannot fly now" in info["invalid"]
    assert info["action"]["type"] in asked  # a default drawn from what the prompt asks
    assert env.close()[1]["invalid"][player] == 2 and env.close()[1]["fallbacks"][player] == 1
    _, observation = env.get_observation()
    assert "Your last answer was refused" not in observation


# Pieces an answer is made of, well formed or not: markers, JSON punctuation and values, names,
# control and bidirectional characters, numbers JSON cannot hold, deep nesting.
FRAGMENTS = ("[action]", "[pass]", "[to all]", "[to seat 1]", "[to nobody]", "[to ]", "{", "}", "[", "]",
             ":", ",", '"type"', '"pass"', '"vote"', '"give_cakes"', '"bid"', "null", "true", "false",
             "1e999", "NaN", "-1", "0", "2", '"\\ud800"', "\n", " ", "é", "\u202e", "\x00", '"', "\\",
             '{"action": ', '"chat": {"to": 3, "text": 5}', '{"type": 5}', '{"type": "pass"}',
             '{"type": "vote", "guess": "yes"}', '{"type": "bid", "placement": {"Printer": {"gold": -1}}}',
             '{"type": "give_cakes", "from": 1e3, "to": [1], "cakes": {}}', "9" * 400, '{"a":' * 60)


@settings(max_examples=80, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(name=st.sampled_from(sorted(SMALL)), seed=st.integers(0, 3), played=st.integers(0, 12),
       negotiation=st.booleans(),
       pieces=st.lists(st.sampled_from(FRAGMENTS) | st.text(max_size=12), max_size=14))
def test_any_answer_is_played_or_refused_in_one_sentence_changing_nothing(name, seed, played, negotiation,
                                                                          pieces):
    players, options = SMALL[name]
    env = TextEnv(name, players, seed=seed, options=options, negotiation_rounds=int(negotiation),
                  retries=MAX_RETRIES)
    rng = random.Random(seed)
    player, observation = env.reset()
    for _ in range(played):  # somewhere in the game
        done, _ = env.step(random_answer(env, player, observation, rng))
        if done:
            return
        player, observation = env.get_observation()
    before, heard, deciding = env.state.digest(), len(env.chat), env.asking.decide
    done, info = env.step("".join(pieces))
    if info["invalid"] is None:
        return  # a well-formed answer, played
    sentence = info["invalid"]
    assert sentence.strip() and "\n" not in sentence and "Traceback" not in sentence
    assert info["action"] is None and info["said"] is None and not info["fallback"] and not done
    assert env.state.digest() == before and len(env.chat) == heard
    if deciding:  # asked again, told why
        again, observation = env.get_observation()
        assert again == player and "Your last answer was refused" in observation


def test_answers_are_read_with_or_without_the_marker_and_in_the_json_form():
    env = TextEnv("culottes-trials", 3, seed=5, options={"trials": 2}, names=["Marat", "Danton", "Roland"])
    player, _ = env.reset()
    action = env.state.legal_actions(player).sample(random.Random(0))
    other = env.names[(player + 1) % 3]
    _, info = env.step(f"[to {other}] You can trust me.\n{json.dumps(action)}")
    assert info["action"] == action and info["said"] == f"{env.names[player]} to {other}: You can trust me."
    player, _ = env.get_observation()
    action = env.state.legal_actions(player).sample(random.Random(1))
    _, info = env.step(json.dumps({"action": action, "chat": {"to": "all", "text": "Vive la nation"}}))
    assert info["action"] == action and info["said"].endswith("to all: Vive la nation")


def test_a_legal_action_stands_when_its_message_cannot_be_sent_and_the_player_is_told_why():
    env = TextEnv("culottes-trials", 3, seed=5, options={"trials": 2}, names=["Marat", "Danton", "Roland"])
    for addressee, why in (("Nobody", "there is no player named 'Nobody'"),
                           (None, "a private message must name another player")):
        player, _ = env.get_observation()
        action = env.state.legal_actions(player).sample(random.Random(2))
        before, heard = len(env.state.log), len(env.chat)
        _, info = env.step(f"[to {addressee or env.names[player]}] hello\n[action] {json.dumps(action)}")
        assert info["action"] == action and info["invalid"] is None and not info["fallback"]
        assert info["said"] is None and info["unsent"].startswith(why) and len(env.chat) == heard
        assert len(env.state.log) > before  # the action was played
        while env.asking is not None and env.asking.seat != player:  # the others play on
            other, observation = env.get_observation()
            assert "was not sent" not in observation  # told to that player alone
            env.step(json.dumps(env.state.legal_actions(other).sample(random.Random(3))))
        if env.asking is None:
            break
        _, observation = env.get_observation()
        assert observation.startswith(f"Your last message was not sent: {why}")
        assert "was not sent" not in env.get_observation()[1]  # told once
    assert sum(env.close()[1]["unsent"]) >= 1


def test_optional_null_parameters_may_be_left_out():
    env = TextEnv("bread-and-circuses", 3, seed=1)
    rng = random.Random(3)
    for _ in range(400):
        player, observation = env.get_observation()
        if player < 0:
            break
        if "play_sabotage" in env.state.legal_actions(player).kinds:
            family = env.state.legal_actions(player).family("play_sabotage")
            assert family is not None
            untargeted = [a for a in family if a["target"] is None]
            if untargeted:
                _, info = env.step("[action] " + json.dumps({"type": "play_sabotage",
                                                                 "card": untargeted[0]["card"]}))
                assert info["invalid"] is None and info["action"]["target"] is None
                return
        env.step(random_answer(env, player, observation, rng))
    pytest.fail("no Sabotage card without a target came up")


def test_free_actions_are_capped_so_that_a_seat_cannot_stall():
    env = TextEnv("bread-and-circuses", 3, seed=1)
    player, observation = env.reset()
    assert "give_gold" in titles(observation)
    gift = json.dumps({"type": "give_gold", "to": (player + 1) % 3, "gold": 1})
    for _ in range(FREE_IN_A_ROW):
        _, info = env.step(f"[action] {gift}")
        assert info["action"]["type"] == "give_gold"
        again, observation = env.get_observation()
        assert again == player
    assert "give_gold" not in titles(observation)
    _, info = env.step(f"[action] {gift}")
    assert info["invalid"] is not None


def test_no_seat_reads_another_seats_secret_events_or_private_words():
    env = TextEnv("culottes", 4, seed=2, options={"max_rounds": 2}, negotiation_rounds=1)
    trace = play_out(env, 2)
    for player, observation, _ in trace:
        for secret in re.findall(r"\(secret\) seat (\d) plays", observation):
            assert int(secret) == player
        for sender, to in re.findall(r"^(seat \d) to (seat \d): psst$", observation, re.MULTILINE):
            assert f"seat {player}" in (sender, to)


@pytest.mark.parametrize(("kwargs", "problem"), [
    ({"negotiation_rounds": 11}, "negotiation_rounds must be a whole number from 0 to 10"),
    ({"retries": -1}, "retries must be a whole number from 0 to 10"),
    ({"names": ["a", "A", "b"]}, "names must give each of the 3 seats its own name"),
])
def test_bad_settings_get_one_sentence(kwargs, problem):
    with pytest.raises(OptionsError, match=problem):
        TextEnv("culottes-trials", 3, **kwargs)
    with pytest.raises(OptionsError, match="is for 3 to"):
        TextEnv("culottes-trials", 99)


def test_the_documented_driver_script_runs(capsys):
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "agents.md").read_text()
    section = doc.split("\n### A text environment\n", 1)[1].split("\n### ", 1)[0]
    (code,) = re.findall(r"```python\n(.*?)```", section, re.S)
    exec(compile(code, "docs/agents.md (A text environment)", "exec"), {})
    rewards, scores = capsys.readouterr().out.strip().split("} ", 1)
    assert "1.0" in rewards and scores.startswith("[")
