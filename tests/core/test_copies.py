"""Copies of a state and the shared objects of the hot path behave as independent values."""

from __future__ import annotations

import hashlib
import json
import random
import struct

import pytest

import tricolore
from tricolore.core.actions import NO_ACTIONS, ActionFamily, ActionSpace, Amount, Choice
from tricolore.core.model import NOT_KEPT, Prompt, one_prompt, prompt, prompts


def test_a_clone_draws_what_its_original_would_draw_and_neither_disturbs_the_other() -> None:
    state = tricolore.get_game("culottes").new(5, seed=7)
    expected = random.Random()
    expected.setstate(state.rng.getstate())
    first, second = state.clone(), state.clone()
    draws = [expected.random() for _ in range(3)]
    assert [first.rng.random() for _ in range(3)] == draws
    assert [second.rng.random() for _ in range(3)] == draws
    assert [state.rng.random() for _ in range(3)] == draws


def test_a_clone_has_the_digest_of_its_original_until_one_of_them_draws() -> None:
    state = tricolore.get_game("culottes").new(5, seed=3)
    copy = state.clone()
    assert copy.digest() == state.digest()
    copy.rng.random()
    assert copy.digest() != state.digest()
    assert state.clone().digest() == state.digest()


def test_a_digest_reads_the_generator_again_after_every_draw_and_only_then() -> None:
    # A digest keeps the generator's words it read until the next draw: two states of one seed,
    # one digested before every draw and one never before, must agree at every step, whichever
    # of them (or a third state) was digested last.
    game = tricolore.get_game("culottes")
    watched, fresh, other = game.new(5, seed=11), game.new(5, seed=11), game.new(5, seed=12)
    for _ in range(4):
        first = watched.digest()
        assert watched.digest() == first  # no draw in between: the same words
        other.digest()
        assert watched.digest() == first
        watched.rng.random()
        fresh.rng.random()
        assert watched.digest() != first
        assert fresh.digest() == watched.digest()
    words = struct.pack("<625Q", *watched.rng.getstate()[1])
    payload = json.dumps(watched.digest_payload(), separators=(",", ":"), sort_keys=True)
    expected = hashlib.blake2b(payload.encode(), digest_size=16)
    expected.update(words)
    assert watched.digest() == expected.hexdigest()


def test_a_reseeded_state_draws_as_a_generator_seeded_alike() -> None:
    state = tricolore.get_game("culottes-trials").new(5, seed=1)
    state.reseed(12345)
    expected = random.Random(12345)
    assert [state.rng.random() for _ in range(3)] == [expected.random() for _ in range(3)]


def test_a_reseeded_clone_draws_from_its_seed_and_leaves_its_original_alone() -> None:
    for name in ("culottes", "let-them-eat-cake", "revolution"):
        state = tricolore.get_game(name).new(4, seed=9)
        original = random.Random()
        original.setstate(state.rng.getstate())
        copy = state.reseeded_clone(2024)
        by_hand = state.clone()
        by_hand.reseed(2024)
        assert copy.digest() == by_hand.digest()
        expected = random.Random(2024)
        assert [copy.rng.random() for _ in range(3)] == [expected.random() for _ in range(3)]
        assert [state.rng.random() for _ in range(3)] == [original.random() for _ in range(3)]
        copy.clone().rng.random()  # a clone of the copy takes the copy's generator state afresh
        assert copy.rng.random() == expected.random()


def test_the_log_a_seat_saw_is_kept_as_the_game_goes_on_and_read_again_when_replaced() -> None:
    state = tricolore.get_game("let-them-eat-cake").new(4, seed=2)
    rng = random.Random(2)

    def seen_afresh(seat: int | None) -> list[object]:
        return [e for e in state.log if e.to is None or (seat is not None and seat in e.to)]

    for _ in range(6):
        for seat in (0, 1, None):
            seen = state.log_for(seat)
            assert seen == seen_afresh(seat)
            seen.append("changing the copy handed out changes nothing kept")
        for _ in range(15):
            if state.is_over():
                break
            seat = min(state.pending())
            state.apply(seat, state.legal_actions(seat).sample(rng))
    assert any(e.to is not None for e in state.log)  # private events were left out on the way
    state.log = state.log[:5]  # a log replaced (as determinize gives a copy) is read again
    assert state.log_for(0) == seen_afresh(0)
    assert state.clone().log_for(1) == seen_afresh(1)


def test_the_prompt_helpers_give_the_prompts_built_afresh() -> None:
    assert prompt(2, ("vote",), secret=True) == Prompt(2, ("vote",), True)
    assert dict(one_prompt(1, ("pass",), window="debate")) == {1: Prompt(1, ("pass",), False, "debate")}


def test_the_shared_prompts_of_several_seats_equal_those_built_afresh_and_cannot_be_changed() -> None:
    asked = prompts((0, 2, 3), ("vote",), secret=True)
    assert dict(asked) == {s: Prompt(s, ("vote",), True) for s in (0, 2, 3)}
    assert list(asked) == [0, 2, 3]  # in the order the seats are asked
    assert asked is prompts((0, 2, 3), ("vote",), secret=True)
    assert dict(prompts((1,), ("play",), window="play")) == {1: Prompt(1, ("play",), False, "play")}
    with pytest.raises(TypeError):
        asked[1] = Prompt(1, ("vote",), True)  # type: ignore[index]


def test_an_action_space_lists_its_kinds_and_samples_every_required_parameter() -> None:
    space = ActionSpace((ActionFamily("donate", {"cakes": Amount(1, 3)}),
                         ActionFamily("vote", {"side": Choice(("a", "b")),
                                               "cakes": lambda chosen: Amount(1, 1),
                                               "note": Choice(("x",))},
                                      optional=frozenset({"note"}))))
    assert space.kinds == ("donate", "vote")
    rng = random.Random(0)
    for _ in range(20):
        action = space.sample(rng)
        assert space.contains(action)
        assert "note" not in action
    assert not NO_ACTIONS and NO_ACTIONS.kinds == ()


def test_a_state_survives_deepcopy_and_frozen_records_pickle() -> None:
    """Deep copies (as vector wrappers make of an environment) rebuild a state, on either build: a
    deep copy of a state is a clone. Frozen records (a game's info, domains) pickle back equal."""
    import copy
    import pickle

    fixed: list[object] = []
    for info in tricolore.list_games():
        state = tricolore.get_game(info.name).new(info.max_players, seed=2)
        rng = random.Random(2)
        for _ in range(30):
            pending = state.pending()
            if state.is_over() or not pending:
                break
            seat = sorted(pending)[0]
            state.apply(seat, state.legal_actions(seat).sample(rng))
        spaces = {seat: state.legal_actions(seat) for seat in state.pending()}
        again = copy.deepcopy(state)
        assert type(again) is type(state) and again.digest() == state.digest(), info.name
        for seat, space in spaces.items():
            assert again.legal_actions(seat).steps() == space.steps(), info.name
        assert pickle.loads(pickle.dumps(info)) == info
        fixed += [d for a in spaces.values() for f in a.families for d in f.params.values()
                  if isinstance(d, (Amount, Choice))]
    assert len(fixed) > 5 and [pickle.loads(pickle.dumps(d)) for d in fixed] == fixed


def test_a_part_kept_while_its_source_is_the_same_is_made_again_when_it_changes_and_not_in_a_copy() -> None:
    state = tricolore.get_game("culottes").new(4, seed=2)
    made: list[int] = []

    def make(n: int) -> dict[str, int]:
        made.append(n)
        return {"n": n}

    first = state.kept_while(("part", 0), (1, 2), make, 1)
    assert state.kept_while(("part", 0), (1, 2), make, 1) is first  # an equal source: kept
    assert made == [1]
    changed = state.kept_while(("part", 0), (1, 3), make, 2)
    assert changed == {"n": 2} and made == [1, 2]
    copy = state.clone()
    assert copy.kept_while(("part", 0), (1, 3), make, 3) == {"n": 3}  # a copy keeps nothing
    assert state.kept_while(("part", 0), (1, 3), make, 4) is changed


def test_kept_for_answers_what_keep_kept_while_its_source_is_the_same_and_not_kept_otherwise() -> None:
    state = tricolore.get_game("culottes").new(4, seed=2)
    assert state.kept_for(("part", 1), (1, 2)) is NOT_KEPT
    part = {"n": 1}
    assert state.keep(("part", 1), (1, 2), part) is part
    assert state.kept_for(("part", 1), (1, 2)) is part  # an equal source
    assert state.kept_for(("part", 1), (1, 3)) is NOT_KEPT  # the source changed
    assert state.kept_while(("part", 1), (1, 2), dict) is part  # the same store as kept_while
    assert state.clone().kept_for(("part", 1), (1, 2)) is NOT_KEPT  # a copy keeps nothing


def test_what_is_worked_out_at_this_position_is_forgotten_after_an_action_and_on_changed() -> None:
    state = tricolore.get_game("culottes").new(4, seed=2)
    made: list[int] = []

    def make() -> list[int]:
        made.append(len(state.log))
        return list(made)

    first = state.at_this_position("probe", make)
    assert state.at_this_position("probe", make) is first and made == [len(state.log)]
    seat = min(state.pending())
    state.apply(seat, state.legal_actions(seat).sample(random.Random(2)))
    after = state.at_this_position("probe", make)
    assert after is not first and len(made) == 2  # the action may have changed what it reads
    state.changed()
    assert state.at_this_position("probe", make) is not after and len(made) == 3
