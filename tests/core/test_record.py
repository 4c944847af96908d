import json
import random

import pytest

import tricolore
from tricolore.agents import RandomAgent
from tricolore.core import OptionsError, Record, RecordError, replay, verify
from tricolore.core.record import check_record
from tricolore.sim.runner import play_game


def played(seed: int = 3):
    state = tricolore.make("culottes", 4, seed=seed)
    return play_game(state, [RandomAgent()] * 4, keep_digests=True)


def test_a_record_replays_to_the_same_digest_at_every_step():
    p = played()
    record = Record.from_dict(json.loads(p.record.dumps()))
    assert verify(record) == []
    assert replay(record).digest() == p.state.digest()


def test_a_tampered_action_or_digest_is_caught():
    p = played()
    data = json.loads(p.record.dumps())
    data["digests"][5] = "0" * 32
    assert [m.index for m in verify(Record.from_dict(data))] == [5]


def test_same_seed_same_game_and_different_seed_different_game():
    assert played(3).state.digest() == played(3).state.digest()
    assert played(3).state.digest() != played(4).state.digest()


@pytest.mark.parametrize("data, fragment", [
    ([], "JSON object"),
    ({"game": "culottes"}, "rules_version"),
    ({"game": "culottes", "rules_version": "1", "players": 4, "seed": 0, "actions": [[0]]}, "action 0"),
    ({"game": "nope", "rules_version": "1", "players": 4, "seed": 0, "actions": []}, "no game called"),
    ({"game": "culottes", "rules_version": "0", "players": 4, "seed": 0, "actions": []}, "rules version"),
    ({"game": "culottes", "rules_version": "1", "players": 2, "seed": 0, "actions": []}, "3 to 12"),
    ({"game": "culottes", "rules_version": "1", "players": 4, "seed": 0,
      "actions": [[0, {"type": "pass"}]]}, "refused"),
])
def test_bad_records_are_refused_with_a_sentence(data, fragment):
    with pytest.raises((RecordError, OptionsError)) as exc:
        replay(Record.from_dict(data))
    assert fragment in str(exc.value)


def test_options_round_trip_through_the_record():
    state = tricolore.make("culottes", 3, seed=1, closing_faces=[6], max_rounds=2)
    rec = Record.start(state)
    again = Record.from_dict(json.loads(rec.dumps()))
    assert replay(again).options == state.options


def test_clone_is_independent():
    state = tricolore.make("culottes", 3, seed=1)
    twin = state.clone()
    rng = random.Random(0)
    for _ in range(30):
        if twin.is_over():
            break
        seat = min(twin.pending())
        twin.apply(seat, twin.legal_actions(seat).sample(rng))
    assert state.digest() == tricolore.make("culottes", 3, seed=1).digest()


def test_a_record_in_a_format_this_build_does_not_know_is_refused():
    data = json.loads(played().record.dumps())
    data["format"] = 2
    with pytest.raises(RecordError, match="format 2, and this build reads only format 1"):
        Record.from_dict(data)


def test_checking_a_record_tells_whether_it_reaches_the_games_end():
    data = json.loads(played().record.dumps())
    assert check_record(Record.from_dict(data)).over
    data["actions"], data["digests"] = data["actions"][:10], data["digests"][:10]
    checked = check_record(Record.from_dict(data))
    assert checked.mismatches == [] and not checked.over
