"""Helpers that set up Bread and Circuses positions and drive them through the public API."""

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

import tricolore
from tricolore.games.bread_and_circuses.rules import BreadState


def start(players: int = 4, *, seed: int = 1, hands: Sequence[Sequence[str]] | None = None,
          gold: Sequence[int] | None = None, **options: Any) -> BreadState:
    """A game at its first Negotiation, seat 0 first in the windows, with the given Sabotage
    hands (none by default) and Gold."""
    state = tricolore.make("bread-and-circuses", players, seed=seed,
                           options={"first_player": 0, **options})
    assert isinstance(state, BreadState)
    state.hands = [sorted(h) for h in hands] if hands is not None else [[] for _ in range(players)]
    if gold is not None:
        state.gold = list(gold)
    state.changed()
    return state


def act(state: BreadState, seat: int, kind: str, **fields: Any) -> list[dict[str, Any]]:
    """Apply one action, returning its events as JSON."""
    return [e.as_dict() for e in state.apply(seat, {"type": kind, **fields})]


def play_round(state: BreadState, tiles: Mapping[int, str],
               disclose: Mapping[int, tuple[str, str]] | None = None) -> None:
    """Disclosures, everyone ready, the others' tiles: up to the first open Sabotage window (or
    the next round when nobody holds a card)."""
    for seat, (tile, icon) in (disclose or {}).items():
        act(state, seat, "disclose", tile=tile, icon=icon)
    for seat in range(state.players):
        if not state.ready[seat]:
            act(state, seat, "ready")
    for seat, tile in tiles.items():
        if disclose is None or seat not in disclose:
            act(state, seat, "play", tile=tile)


def pass_window(state: BreadState) -> None:
    """Everyone asked in the open window passes."""
    name = state.phase
    while state.window is not None and state.phase == name:
        (seat,) = state.pending()
        act(state, seat, "pass")


@pytest.fixture(name="start")
def start_fixture():
    return start


@pytest.fixture(name="act")
def act_fixture():
    return act


@pytest.fixture(name="play_round")
def play_round_fixture():
    return play_round


@pytest.fixture(name="pass_window")
def pass_window_fixture():
    return pass_window
