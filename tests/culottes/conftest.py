"""Helpers to put a game of Culottes into a known position."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

import tricolore
from tricolore.games.culottes.rules import CulottesState

NEVER_CLOSES = 1
"""A die roll that never closes a trial."""


def start(players: int = 3, roles: Iterable[str] = (), natures: Iterable[str] = (), rolls: Iterable[int] = (),
          **options) -> CulottesState:
    """A game whose seat 0 starts, with the given roles chosen and first-sheet natures, and a die
    scripted to roll ``rolls`` then 1s (which never close a trial)."""
    options.setdefault("first_player", 0)
    state = tricolore.make("culottes", players, seed=0, chance={"randint": [*rolls, *[NEVER_CLOSES] * 1000]},
                           **options)
    for seat, nature in enumerate(natures):
        state.sheets[state.citizens[state.holdings[seat][0]].sheet] = nature
    roles = list(roles) or ["revolutionary"] * players
    for seat, role in enumerate(roles):
        state.apply(seat, {"type": "choose_role", "role": role})
    return state


def finish_turn(state: CulottesState) -> None:
    """Pass every remaining citizen and decline to recruit."""
    seat = state.current
    while state.current == seat and not state.is_over():
        state.apply(seat, {"type": "pass"})


@pytest.fixture(name="start")
def start_fixture():
    return start


@pytest.fixture(name="finish_turn")
def finish_turn_fixture():
    return finish_turn
