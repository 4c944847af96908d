"""A state released when done with is freed at once: what it worked out and kept refers back to it
(a family of actions reads the state when asked), so without :meth:`State.release` a dropped state
is cyclic garbage, left to the garbage collector's full passes. Simulations release each game's
state, and the environments the last game's at every reset."""

from __future__ import annotations

import gc
import random
import warnings
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np
import pytest

import tricolore
from tricolore.core import State

GAMES = [info.name for info in tricolore.list_games()]


def played(name: str, actions: int = 300) -> State:
    """A game of ``name`` after up to ``actions`` random actions, every seat's legal and free
    actions and view worked out at every position (so that everything that may be kept is)."""
    state = tricolore.make(name, 4, seed=3)
    rng = random.Random(3)
    for _ in range(actions):
        if state.is_over():
            break
        seat = min(state.pending())
        for other in range(state.players):
            state.free_actions(other)
            state.view(other)
        state.apply(seat, state.legal_actions(seat).sample(rng))
    return state


@contextmanager
def collector_off() -> Iterator[list[int]]:
    """The garbage collector stopped inside; yields a list that receives the number of
    unreachable objects its full pass finds at the end."""
    gc.collect()
    gc.disable()
    found: list[int] = []
    try:
        yield found
    finally:
        found.append(gc.collect())
        gc.enable()


@pytest.mark.parametrize("name", GAMES)
def test_a_released_state_leaves_no_garbage(name: str) -> None:
    with collector_off() as garbage:
        state = played(name)
        state.release()
        del state
    assert garbage == [0]


def test_a_culottes_state_not_released_is_left_to_the_collector() -> None:
    """The control: Culottes keeps families whose amounts read the state."""
    with collector_off() as garbage:
        state = played("culottes")
        del state
    assert garbage[0] > 0


@pytest.mark.parametrize("name", GAMES)
def test_a_released_state_stays_whole(name: str) -> None:
    state = played(name, 120)
    seats = range(state.players)
    before = ([state.legal_actions(s).kinds for s in seats], [state.free_actions(s).kinds for s in seats],
              [state.view(s) for s in seats], state.digest(), dict(state.pending()))
    state.release()
    after = ([state.legal_actions(s).kinds for s in seats], [state.free_actions(s).kinds for s in seats],
             [state.view(s) for s in seats], state.digest(), dict(state.pending()))
    assert after == before


def test_an_environment_reset_frees_the_last_game() -> None:
    pytest.importorskip("pettingzoo")
    from tricolore.interop.pettingzoo import env

    warnings.simplefilter("ignore")
    table = env("culottes")
    table.reset(seed=1)
    rng = np.random.default_rng(0)
    with collector_off() as garbage:
        for _ in range(500):
            if not table.agents:
                break
            observation, _, terminated, truncated, _ = table.last()
            if terminated or truncated:
                table.step(None)
                continue
            table.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        table.reset(seed=2)
    assert garbage == [0]


def test_a_simulation_frees_every_game() -> None:
    from tricolore.sim.batch import BatchSpec, play_one

    spec = BatchSpec("culottes", ("alliance-defender",) * 5, 3)
    with collector_off() as garbage:
        rows = [play_one(spec, seed) for seed in range(3)]
    assert len(rows) == 3 and garbage == [0]
