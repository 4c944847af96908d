"""The hashed view is the hashing trick as documented in tricolore.interop.observation, leaf by
leaf, whichever way it is computed (the plain walk below is the definition)."""

import hashlib
import random

import numpy as np
import pytest

import tricolore
from tricolore.core.registry import games, get_game
from tricolore.interop.codec import FlatActions
from tricolore.interop.observation import BOUND, TEXTS_PER_PATH, VIEW_FEATURES, ViewHasher, hash_view

GAMES = sorted(games())


def reference(view):
    """The definition: a last-in first-out walk over every leaf, each added in float32 in turn."""
    vec = np.zeros(VIEW_FEATURES, dtype=np.float32)
    stack = [("", view)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, dict):
            stack.extend((f"{path}/{k}", v) for k, v in value.items())
            continue
        if isinstance(value, (list, tuple)):
            stack.extend((f"{path}/{i}", v) for i, v in enumerate(value))
            continue
        number = isinstance(value, (int, float))
        key = path if number else f"{path}={value}"
        digest = int.from_bytes(hashlib.blake2b(key.encode(), digest_size=8).digest(), "little")
        sign = 1.0 if digest >> 63 else -1.0
        x = float(value) if number else 1.0
        added = np.float32(sign * (np.sign(x) * np.log1p(abs(x)) if number else x))
        vec[digest % VIEW_FEATURES] += added
    return np.clip(vec, -BOUND, BOUND)


def views(name, seed, steps=200):
    """The views of the seats asked along a random game."""
    players = get_game(name).info.min_players
    codec = FlatActions(name, players)
    state = tricolore.make(name, players, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        pending = state.pending()
        if state.is_over() or not pending:
            return
        seat = rng.choice(sorted(pending))
        yield seat, state.view(seat)
        partial, action = codec.start(), None
        while action is None:
            index = int(rng.choice(np.flatnonzero(codec.mask(state, seat, partial))))
            partial, action = codec.choose(state, seat, partial, index)
        state.apply(seat, action)


@pytest.mark.parametrize("name", GAMES)
def test_every_view_of_a_random_game_hashes_to_its_definition_bit_for_bit(name):
    hashers: dict[int, ViewHasher] = {}
    shared = ViewHasher(kept=get_game(name).info.min_players)
    count = 0
    for seat, view in views(name, 11):
        expected = reference(view)
        assert hash_view(view).tobytes() == expected.tobytes()
        # a seat's successive views, and the seats' views, share much: reused parts change nothing
        assert hashers.setdefault(seat, ViewHasher())(view).tobytes() == expected.tobytes()
        assert shared(view).tobytes() == expected.tobytes()
        count += 1
    assert count > 20


def test_parts_that_change_between_views_are_hashed_again():
    hasher = ViewHasher()
    first = {"citizens": [{"cakes": 1, "name": "Danton"}, {"cakes": 2}], "book": {"a": [1, 2]},
             "phase": "trial", "deals": []}
    changed = [
        {**first, "citizens": [{"cakes": 1, "name": "Danton"}, {"cakes": 3}]},
        {**first, "citizens": [{"cakes": 1, "name": "Marat"}, {"cakes": 3}]},
        {**first, "book": {"a": [1, 2, 3]}},
        {**first, "book": {"a": [2, 1]}},
        {**first, "book": {"a": (2, 1)}, "deals": [[None, True, False, -4.5]]},
        {**first, "book": {"b": [1, 2]}},
        first,
    ]
    for view in [first, *changed]:
        assert hasher(view).tobytes() == reference(view).tobytes()
        assert hash_view(view).tobytes() == reference(view).tobytes()
    assert not np.array_equal(hash_view(changed[0]), hash_view(changed[1]))


def test_keys_that_are_not_text_and_many_distinct_texts_hash_as_their_paths_read():
    view = {"by_seat": {0: "left", 1: "right", "2": None}, "flags": [True, False, 0, -0.0],
            "said": [f"message {i}" for i in range(3 * TEXTS_PER_PATH)], "big": 10**30}
    for _ in range(2):
        assert hash_view(view).tobytes() == reference(view).tobytes()
    later = {**view, "said": [f"message {i}" for i in range(5 * TEXTS_PER_PATH)]}
    assert ViewHasher()(later).tobytes() == reference(later).tobytes()


def test_every_bucket_is_bounded_and_out_is_added_into():
    view = {"same": [1e9] * 200, "text": ["x"] * 5}
    vec = hash_view(view)
    assert np.abs(vec).max() == BOUND
    out = np.ones(VIEW_FEATURES, dtype=np.float32)
    hash_view({"n": 3}, out)
    assert np.count_nonzero(out != 1.0) == 1
