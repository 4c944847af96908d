"""The engine keeps its own data: what it is given (an action) and what it hands out (views,
events, results, legal actions, module data) share no list or dict with a state."""

import json
import random
from types import MappingProxyType
from typing import Any

import pytest

import tricolore
from tricolore.core import Event, Record, Result, copy_json
from tricolore.core.conformance import check_isolation, random_action
from tricolore.games.revolution.data import CARD_EFFECTS, EDITIONS, STARTING_CHIPS

GAMES = [info.name for info in tricolore.list_games()]


def mutate(value: Any) -> None:
    """Change every container in ``value`` in place."""
    if isinstance(value, dict):
        for item in value.values():
            mutate(item)
        for key in list(value):
            value[key] = "changed"
        value["added"] = "changed"
    elif isinstance(value, list):
        for item in value:
            mutate(item)
        value[:] = ["changed"] * (len(value) + 1)


def played(name: str, seed: int, players: int | None = None):
    """A game of ``name`` played to its end with random actions, yielding it after each one."""
    game = tricolore.get_game(name)
    state = game.new(players or game.info.min_players + 1, seed)
    rng = random.Random(seed)
    while not state.is_over():
        state.apply(*random_action(state, rng))
        yield state


def test_apply_keeps_its_own_copy_of_a_secret_role():
    state = tricolore.make("culottes", 3, seed=1)
    action = {"type": "choose_role", "role": "grabber"}
    state.apply(0, action)
    action["role"] = "revolutionary"
    assert state.role_of(0) == "grabber"
    assert state.view(0)["you"]["role"] == "grabber"


@pytest.mark.parametrize("name", GAMES)
def test_apply_keeps_its_own_copy_of_the_action(name):
    """Every game's sealed moves (roles, votes, bids, tiles) and every other action: changing
    the caller's dict after ``apply`` changes neither the state nor any view."""
    game = tricolore.get_game(name)
    state = game.new(game.info.min_players + 1, 3)
    rng = random.Random(3)
    sealed = 0
    for step in range(300):
        if state.is_over():
            break
        seat, action = random_action(state, rng)
        sealed += any(p.secret for p in state.pending().values())
        state.apply(seat, action)
        if step % 3:
            continue
        digest, view = state.digest(), json.dumps(state.view(seat))
        mutate(action)
        assert state.digest() == digest, action
        assert json.dumps(state.view(seat)) == view, action
    assert sealed


@pytest.mark.parametrize("name", GAMES)
def test_a_view_shares_nothing_with_the_state(name):
    """At every few steps and at the end, every container of one view (a spectator's and each
    seat's in turn) is changed: no other view, no fresh view and no digest moves."""
    for step, state in enumerate(played(name, 5)):
        if step % 5 == 0:
            audience = [None, *range(state.players)]
            check_isolation(state, audience[step // 5 % len(audience)])
    for seat in [None, *range(state.players)]:
        check_isolation(state, seat)


@pytest.mark.parametrize("name", GAMES)
def test_every_view_event_and_result_survives_json(name):
    """Per-seat data are lists indexed by seat and per-id data lists or text keys, so JSON gives
    back what it was given."""
    seen = 0
    for state in played(name, 7):
        for seat in [None, *range(state.players)]:
            view = state.view(seat)
            assert json.loads(json.dumps(view)) == view
        events = [e.as_dict() for e in state.log[seen:]]
        assert json.loads(json.dumps(events)) == events
        seen = len(state.log)
    result = state.result().as_dict()
    assert json.loads(json.dumps(result)) == result


def test_revolutions_chart_data_is_read_only_and_views_hand_out_copies():
    with pytest.raises(TypeError):
        EDITIONS["seed"].chart[5].chips["gold"] = 30  # type: ignore[index]
    with pytest.raises(TypeError):
        STARTING_CHIPS["force"] = 9  # type: ignore[index]
    with pytest.raises(TypeError):
        CARD_EFFECTS["gold_4"][1]["gold"] = 40  # type: ignore[index]
    view = tricolore.make("revolution", 3, seed=1).view(0)
    mutate(view)
    fresh = tricolore.make("revolution", 3, seed=1).view(0)
    assert fresh["chart"][5] == {"name": "Aristocrat", "support": 5, "chips": {"gold": 3},
                                 "area": "Plantation", "forbidden": [], "special": None}


def test_an_event_as_dict_shares_nothing_with_the_log():
    event = Event("trial_closed", {"rewards": [{"voter": 1, "reward": 2}]}, frozenset({0}))
    shown = event.as_dict()
    mutate(shown)
    assert event.as_dict() == {"kind": "trial_closed", "rewards": [{"voter": 1, "reward": 2}],
                               "to": [0]}


def test_a_result_as_dict_shares_nothing_with_the_result():
    result = Result.from_scores([3.0, 1.0], [{"areas": {"Tavern": 20}}, {"areas": {}}])
    mutate(result.as_dict())
    assert result.as_dict()["breakdown"] == [{"areas": {"Tavern": 20}}, {"areas": {}}]


def test_legal_actions_cannot_be_changed_through_their_parameters():
    state = tricolore.make("culottes", 3, seed=1)
    family = state.legal_actions(0).family("choose_role")
    assert family is not None
    with pytest.raises(TypeError):
        family.params["role"] = None  # type: ignore[index]


def test_a_record_keeps_its_own_copy_of_each_action():
    state = tricolore.make("revolution", 2, seed=1)
    record = Record.start(state, keep_digests=False)
    action = {"type": "bid", "placement": {"Printer": {"force": 1, "blackmail": 1, "gold": 3}}}
    state.apply(0, action)
    record.add(0, action)
    action["placement"]["Printer"]["gold"] = 0
    assert record.actions[0][1]["placement"]["Printer"]["gold"] == 3


def test_copy_json_copies_every_container_and_keeps_every_value():
    original = {"a": [1, {"b": [2.5, None, True]}], "c": ("x", [3]), "d": "text"}
    copied = copy_json(original)
    assert copied == original
    assert copied["a"] is not original["a"] and copied["a"][1] is not original["a"][1]
    assert copied["c"][1] is not original["c"][1]
    mutate(copied)
    assert original == {"a": [1, {"b": [2.5, None, True]}], "c": ("x", [3]), "d": "text"}


def test_copy_json_turns_other_mappings_into_dicts_and_copies_their_lists():
    shared = [1, 2]
    copied = copy_json({"proxy": MappingProxyType({"items": shared})})
    assert copied == {"proxy": {"items": [1, 2]}} and type(copied["proxy"]) is dict
    copied["proxy"]["items"].append(3)
    assert shared == [1, 2]
