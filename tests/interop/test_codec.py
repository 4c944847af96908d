import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tricolore.agents import decide, make_agent
from tricolore.core import registry
from tricolore.core.errors import IllegalAction, OptionsError
from tricolore.core.registry import games, get_game
from tricolore.interop.codec import FlatActions

GAMES = sorted(games())
VARIANTS = [(name, {}) for name in GAMES] + [
    ("bread-and-circuses", {"regulated_bribery": True}),
    ("revolution", {"edition": "sjg"}),
]


def is_legal(state, seat, action):
    return state.legal_actions(seat).contains(action) or state.free_actions(seat).contains(action)


def walk(codec, state, seat, rng):
    """Build one action with random masked indices; return it and the number of steps."""
    partial = codec.start()
    for steps in range(1, 200):
        mask = codec.mask(state, seat, partial)
        assert mask.dtype == np.int8 and mask.shape == (codec.size,)
        allowed = np.flatnonzero(mask)
        assert len(allowed), f"empty mask for seat {seat} at {partial}"
        partial, action = codec.choose(state, seat, partial, int(rng.choice(allowed)))
        if action is not None:
            assert partial == codec.start()
            return action, steps
    raise AssertionError("an action took 200 steps")


@pytest.mark.parametrize(("name", "options"), VARIANTS, ids=lambda v: str(v) if v else "")
def test_random_walks_build_only_legal_actions_and_never_an_empty_mask(name, options):
    game = get_game(name)
    for players in sorted({game.info.min_players, min(game.info.max_players, 5)}):
        codec = FlatActions(name, players, options)
        state = game.new(players, 3, options)
        rng = random.Random(players)
        for _ in range(150):
            if state.is_over():
                break
            seat = rng.choice(sorted(state.pending()))
            action, _ = walk(codec, state, seat, rng)
            assert is_legal(state, seat, action), action
            state.apply(seat, action)


@pytest.mark.parametrize("name", GAMES)
def test_the_size_is_fixed_for_a_game_and_every_index_has_a_meaning(name):
    game = get_game(name)
    players = game.info.min_players
    codec = FlatActions(name, players)
    assert codec.size == FlatActions(name, players).size
    meanings = codec.describe_all()
    assert len(meanings) == codec.size
    assert meanings[:len(codec.kinds)] == [f"kind {k}" for k in codec.kinds]
    assert sum(b["size"] for b in codec.table()) == codec.size


def test_an_index_means_the_same_citizen_in_every_state_of_culottes():
    codec = FlatActions("culottes", 4)
    citizen_3 = codec.describe_all().index("citizen 3")
    state = get_game("culottes").new(4, 5)
    rng = random.Random(0)
    seen = 0
    for _ in range(400):
        if state.is_over():
            break
        seat = min(state.pending())
        partial = codec.start()
        if "cake_vote" in state.legal_actions(seat).kinds:
            partial, _ = codec.choose(state, seat, partial, codec.index_of_kind("cake_vote"))
            partial, _ = codec.choose(state, seat, partial, citizen_3)
            assert dict(partial.chosen) == {"citizen": 3}
            seen += 1
        action, _ = walk(codec, state, seat, rng)
        state.apply(seat, action)
    assert seen >= 3


def test_a_revolution_bid_is_placed_one_chip_a_step():
    codec = FlatActions("revolution", 3)
    state = get_game("revolution").new(3, 1)
    partial, action = codec.choose(state, 0, codec.start(), codec.index_of_kind("bid"))
    chips = 0
    while action is None:
        offered = codec.legal_indices(state, 0, partial)
        assert all(codec.describe(i).startswith("bid: one ") for i in offered)
        partial, action = codec.choose(state, 0, partial, offered[-1])
        chips += 1
    assert chips == sum(state.chips[0]) == 5
    assert state.legal_actions(0).contains(action)


def test_a_masked_out_index_is_refused_with_a_sentence_and_changes_nothing():
    codec = FlatActions("culottes", 4)
    state = get_game("culottes").new(4, 1)
    digest = state.digest()
    pass_index = codec.index_of_kind("pass")
    with pytest.raises(IllegalAction, match="Kind pass is not allowed now"):
        codec.choose(state, 0, codec.start(), pass_index)
    with pytest.raises(IllegalAction, match="from 0 to"):
        codec.choose(state, 0, codec.start(), codec.size)
    with pytest.raises(IllegalAction, match="whole number"):
        codec.choose(state, 0, codec.start(), "1")  # type: ignore[arg-type]
    assert state.digest() == digest


def test_a_seat_asked_nothing_gets_an_all_zero_mask():
    codec = FlatActions("let-them-eat-cake", 3)
    state = get_game("let-them-eat-cake").new(3, 1)
    idle = [s for s in range(3) if s not in state.pending()
            and not state.free_actions(s) and not state.legal_actions(s)]
    for seat in idle:
        assert not codec.mask(state, seat, codec.start()).any()


def test_an_unknown_game_a_bad_table_or_bad_options_are_refused_with_a_sentence():
    with pytest.raises(OptionsError, match="no game called"):
        FlatActions("chess", 2)
    with pytest.raises(OptionsError, match="Culottes is for 3 to 12 players; you asked for 2"):
        FlatActions("culottes", 2)
    with pytest.raises(OptionsError, match="unknown option"):
        FlatActions("culottes", 4, {"colour": "red"})


@pytest.mark.parametrize("name", GAMES)
def test_every_named_strategy_can_play_through_the_flat_space(name):
    game = get_game(name)
    players = max(game.info.min_players, 3)
    codec = FlatActions(name, players)
    rng = random.Random(1)
    for strategy in game.strategies:
        state = game.new(players, 2)
        agents = [make_agent(game, strategy) for _ in range(players)]
        for _ in range(60):
            if state.is_over():
                break
            seat = min(state.pending())
            wanted = decide(agents[seat], state, seat, rng)
            partial, built = codec.start(), None
            for index in codec.spell(state, seat, wanted):
                partial, built = codec.choose(state, seat, partial, index)
            assert built is not None and is_legal(state, seat, built)
            if built != wanted:  # only optional parameters and free text may differ
                differ = {k for k in {*built, *wanted} if built.get(k) != wanted.get(k)}
                assert differ <= {"name", "text", "statement"}, (built, wanted)
            state.apply(seat, built)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(GAMES), seed=st.integers(0, 10_000), picks=st.lists(
    st.integers(0, 10_000), min_size=1, max_size=60))
def test_any_sequence_of_masked_choices_builds_legal_actions(name, seed, picks):
    game = get_game(name)
    players = game.info.min_players + seed % 2
    codec = FlatActions(name, players)
    state = game.new(players, seed)
    partial = codec.start()
    seat = min(state.pending())
    for pick in picks:
        if state.is_over():
            break
        allowed = np.flatnonzero(codec.mask(state, seat, partial))
        assert len(allowed)
        partial, action = codec.choose(state, seat, partial, int(allowed[pick % len(allowed)]))
        if action is not None:
            assert is_legal(state, seat, action)
            state.apply(seat, action)
            seat = sorted(state.pending())[pick % len(state.pending())] if state.pending() else seat


# Revolution!'s bid is a domain of its own, which only its declared layout (chip by chip) spells.
@pytest.mark.parametrize("name", [g for g in GAMES if g != "revolution"])
def test_a_game_without_a_declared_layout_is_played_by_position(name, monkeypatch):
    monkeypatch.setattr(registry.Companions, "layout", None)
    game = get_game(name)
    players = game.info.min_players
    codec = FlatActions(name, players)
    assert not codec.layout.params  # the fallback: blocks by domain type only
    state = game.new(players, 4)
    rng = random.Random(4)
    for _ in range(60):
        if state.is_over():
            break
        seat = rng.choice(sorted(state.pending()))
        action, _ = walk(codec, state, seat, rng)
        assert is_legal(state, seat, action), action
        state.apply(seat, action)
