"""Helpers that set up Revolution! positions and drive them through the public API."""

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

import tricolore
from tricolore.games.revolution.rules import RevolutionState


def start(players: int = 3, *, seed: int = 1, chips: Sequence[Mapping[str, int]] | None = None,
          board: Mapping[str, Sequence[int]] | None = None, deck: Sequence[str] | None = None,
          **options: Any) -> RevolutionState:
    """A game at its first bid, with the given chips (missing currencies are 0), markers per
    area, and deck (drawn from the end)."""
    state = tricolore.make("revolution", players, seed=seed, options=options)
    assert isinstance(state, RevolutionState)
    if chips is not None:
        for seat, held in enumerate(chips):
            state.set_holding(seat, held)
    if board is not None:
        for area, markers in board.items():
            state.board[area] = list(markers)
    if deck is not None:
        state.deck = list(deck)
    state.changed()
    return state


def bid(state: RevolutionState, placements: Mapping[int, Mapping[str, Mapping[str, int]]]) -> None:
    """Each seat places its bid."""
    for seat, placement in placements.items():
        state.apply(seat, {"type": "bid", "placement": {k: dict(v) for k, v in placement.items()}})


@pytest.fixture(name="start")
def start_fixture():
    return start


@pytest.fixture(name="bid")
def bid_fixture():
    return bid
