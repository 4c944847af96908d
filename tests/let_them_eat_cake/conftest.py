"""Helpers that set up Let Them Eat Cake positions and drive them through the public API."""

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

import tricolore
from tricolore.games.let_them_eat_cake.rules import CakeCard, LetThemEatCakeState


def start(players: int = 4, head: int = 0, *, seed: int = 1, pawns: Sequence[int] | None = None,
          medals: Sequence[int] | None = None, generals: Sequence[int] | None = None,
          stashes: Sequence[Sequence[int]] | None = None, deck: Sequence[int] | None = None,
          centre: int | None = None, **options: Any) -> LetThemEatCakeState:
    """A game at the start of its first round, with the given holdings (Generals from the
    Pantry pile), the Head of Committee token with ``head``."""
    state = tricolore.make("let-them-eat-cake", players, seed=seed,
                           options={"first_head": head, **options})
    assert isinstance(state, LetThemEatCakeState)
    if pawns is not None:
        state.pawns = list(pawns)
    if medals is not None:
        state.medals = list(medals)
    if centre is not None:
        state.centre = centre
    if generals is not None:
        state.pantry_generals = list(generals)
    if stashes is not None:
        state.stashes = [[CakeCard(100 + 10 * s + i, v, False, frozenset({s}))
                          for i, v in enumerate(st)] for s, st in enumerate(stashes)]
    if deck is not None:
        state.deck = list(deck)
        state.deck_unseen = len(deck)
    state.round = 0
    state._start_round()
    state.changed()
    return state


def act(state: LetThemEatCakeState, seat: int, kind: str, **fields: Any) -> list[dict[str, Any]]:
    """Apply one action, returning its events as JSON."""
    return [e.as_dict() for e in state.apply(seat, {"type": kind, **fields})]


def vote(state: LetThemEatCakeState, cards: Mapping[int, int]) -> None:
    """Everyone who is asked plays the card given for them."""
    assert state.phase == "ballot", state.phase
    for seat, candidate in cards.items():
        act(state, seat, "vote", candidate=candidate)


def pass_windows(state: LetThemEatCakeState, windows: tuple[str, ...] = ("coup", "rigging", "seize",
                                                                        "donate")) -> None:
    """Everyone asked in open windows passes until none of ``windows`` is open."""
    while state.window is not None and state.phase in windows:
        (seat,) = state.pending()
        act(state, seat, "pass")


def elect(state: LetThemEatCakeState, winner: int) -> None:
    """Run the current election so that ``winner`` wins: everyone who can votes for them (or,
    for the winner, for someone else), the Head breaking a tie for them. Nobody uses a General."""
    pass_windows(state, ("coup",))
    assert state.election is not None
    cards = {}
    for s in sorted(state.pending()):
        hand = state.hands[s]
        cards[s] = winner if winner in hand else next(c for c in hand if c != winner)
    vote(state, cards)
    if state.phase == "tie":
        act(state, state.head, "break_tie", winner=winner)
    pass_windows(state, ("rigging",))


def through_head(state: LetThemEatCakeState, head: int, act: Any, elect: Any, *,
                 remove_from: int | None = None, award_to: int | None = None) -> None:
    """Elect ``head`` and make their Medal move."""
    elect(state, head)
    if state.phase == "head_medal":
        if remove_from is not None:
            act(state, head, "remove_medal", **{"from": remove_from})
        else:
            others = [s for s in range(state.players) if s != head]
            act(state, head, "award_medal", to=award_to if award_to is not None else others[0])


def to_operator(state: LetThemEatCakeState, elect: Any, act: Any, head: int = 0) -> None:
    """Play to the Guillotine Operator's decision: ``head`` elected, a Medal to the next seat."""
    through_head(state, head, act, elect, award_to=(head + 1) % state.players)


def to_secretary(state: LetThemEatCakeState, elect: Any, act: Any, secretary: int) -> None:
    """Play on to the Secretary's deal, seat 1 operating the Guillotine with mercy."""
    to_operator(state, elect, act)
    elect(state, 1)
    act(state, 1, "mercy")
    elect(state, secretary)


def to_inspector(state: LetThemEatCakeState, elect: Any, act: Any, inspector: int = 3) -> None:
    """Play on to the Food Inspector's decision, seat 2 the Secretary dealing card i to seat i."""
    to_secretary(state, elect, act, secretary=2)
    for card, seat in enumerate(range(state.players)):
        if state.phase == "deal":
            act(state, 2, "deal", card=card, to=seat)
    elect(state, inspector)


@pytest.fixture(name="start")
def start_fixture():
    return start


@pytest.fixture(name="act")
def act_fixture():
    return act


@pytest.fixture(name="vote")
def vote_fixture():
    return vote


@pytest.fixture(name="pass_windows")
def pass_windows_fixture():
    return pass_windows


@pytest.fixture(name="elect")
def elect_fixture():
    return elect
