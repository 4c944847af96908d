"""The conformance suite over every registered game, and proof that it catches what it should.

It plays 120 seeds at each common table size. ``TRICOLORE_CONFORMANCE_SEEDS`` sets fewer (a
multiple of 20): the README's test command plays 20 on the pure-Python build, after the whole
suite on the compiled one, since both builds run the same source and a difference between them
shows in any game.
"""

import os
import random
from typing import Any

import pytest

import tricolore
from tricolore.core import GameDefinition, IllegalAction
from tricolore.core.conformance import ConformanceError, check_game
from tricolore.games.culottes.rules import INFO, CulottesState

CHUNK = 20
SEEDS_PER_PLAYER_COUNT = int(os.environ.get("TRICOLORE_CONFORMANCE_SEEDS", "120"))
if SEEDS_PER_PLAYER_COUNT <= 0 or SEEDS_PER_PLAYER_COUNT % CHUNK:
    raise ValueError(f"TRICOLORE_CONFORMANCE_SEEDS must be a positive multiple of {CHUNK}")


def plan() -> list[tuple[str, int, range]]:
    """For every registered game: 120 seeds (or as many as set) at each of its four smallest table
    sizes (the common ones), in chunks that run in parallel, and one game at every larger size up
    to its maximum."""
    out = []
    for info in tricolore.list_games():
        sizes = list(range(info.min_players, info.max_players + 1))
        common, rest = sizes[:4], sizes[4:]
        out += [(info.name, n, range(start, start + CHUNK)) for n in common
                for start in range(0, SEEDS_PER_PLAYER_COUNT, CHUNK)]
        out += [(info.name, n, range(1000 + n, 1001 + n)) for n in rest]
    return out


PLAN = plan()


def test_the_plan_covers_every_registered_game_with_its_seeds_per_common_size():
    for info in tricolore.list_games():
        sizes = range(info.min_players, info.max_players + 1)
        for n in sizes[:4]:
            seeds = [s for g, p, chunk in PLAN if (g, p) == (info.name, n) for s in chunk]
            assert len(set(seeds)) == SEEDS_PER_PLAYER_COUNT
        assert {n for g, n, _ in PLAN if g == info.name} == set(sizes)


@pytest.mark.slow
@pytest.mark.parametrize("name, players, seeds", PLAN,
                         ids=[f"{g}-{n}p-{s.start}" for g, n, s in PLAN])
def test_conformance(name, players, seeds):
    report = check_game(tricolore.get_game(name), players, seeds)
    assert report.games == len(seeds)
    assert report.leak_checks >= report.actions
    assert report.refusals > 0


class LeakyCulottes(CulottesState):
    """Shows every player's role in every view: the leak test must notice."""

    def view(self, seat: int | None) -> dict[str, Any]:
        out = super().view(seat)
        out["roles_everyone"] = list(self.roles)
        return out


class SloppyCulottes(CulottesState):
    """Takes a cake for a vote even when the vote is refused."""

    def apply(self, seat, action):
        try:
            return super().apply(seat, action)
        except IllegalAction:
            if isinstance(action, dict) and action.get("type") == "cake_vote" and seat == self.current:
                self.citizens[self.turn_citizens[self.citizen_index]].cakes -= 1
            raise


class SharingCulottes(CulottesState):
    """Hands out the state's own list of holdings: a view must be a snapshot."""

    def view(self, seat: int | None) -> dict[str, Any]:
        out = super().view(seat)
        out["holdings"] = self.holdings
        return out


class IntegerKeyedCulottes(CulottesState):
    """Keys its seat's citizens by number, which JSON turns into text."""

    def view(self, seat: int | None) -> dict[str, Any]:
        out = super().view(seat)
        if seat is not None:
            out["you"]["citizens"] = {int(i): flap for i, flap in out["you"]["citizens"].items()}
        return out


class TrustingCulottes(CulottesState):
    """Seals the caller's own dict of a role choice instead of the engine's copy."""

    def apply(self, seat, action):
        events = super().apply(seat, action)
        if self.role_choice is not None and self.role_choice.submitted(seat) is not None:
            self.role_choice.replace(seat, action)
        return events


class TrustedOtherwiseCulottes(CulottesState):
    """After ``apply_trusted`` shows the Bastille's cakes as a float: equal as a value, other
    JSON (``0.0``, not ``0``). The mark is kept in the state's memo, which is not digested."""

    def apply_trusted(self, seat, action):
        events = super().apply_trusted(seat, action)
        self._kept[("trusted",)] = True
        return events

    def view(self, seat: int | None) -> dict[str, Any]:
        out = super().view(seat)
        if self._kept.get(("trusted",)):
            out["bastille"] = float(out["bastille"])
        return out


class TrustedAnotherValueCulottes(TrustedOtherwiseCulottes):
    """After ``apply_trusted`` shows one cake more in the Bastille than there is."""

    def view(self, seat: int | None) -> dict[str, Any]:
        out = CulottesState.view(self, seat)
        if self._kept.get(("trusted",)):
            out["bastille"] += 1
        return out


class DrawingMoreCulottes(CulottesState):
    """Random play's shortcut draws a number more than the legal actions' sample does."""

    def play_drawn(self, seat: int, rng: random.Random) -> None:
        rng.random()
        super().play_drawn(seat, rng)


class PlayingOtherwiseCulottes(CulottesState):
    """Random play's shortcut draws the same numbers, then plays an action drawn elsewhere."""

    def play_drawn(self, seat: int, rng: random.Random) -> None:
        self.legal_actions(seat).sample(rng)
        self.play_trusted(seat, self.legal_actions(seat).sample(random.Random(len(self.log))))


@pytest.mark.parametrize("state_class, fragment", [
    (LeakyCulottes, "a secret leaks into the view"),
    (SloppyCulottes, "changed the state"),
    (SharingCulottes, "changing view.* a view shares a list or dict with the state"),
    (IntegerKeyedCulottes, "does not survive JSON: view.*you.citizens has the key 0"),
    (TrustingCulottes, "keeps the caller's dict"),
    (TrustedOtherwiseCulottes, "step 0: apply_trusted.* shows seat None another view than apply"),
    (TrustedAnotherValueCulottes, "apply_trusted.* shows seat None another view than apply"),
    (DrawingMoreCulottes, r"play_drawn\(\d\) draws other numbers than its legal actions' sample"),
    (PlayingOtherwiseCulottes,
     r"play_drawn\(\d\) (logs other events|leaves another state) than playing the action drawn"),
])
def test_conformance_catches_broken_games(state_class, fragment):
    game = GameDefinition(INFO, state_class)
    with pytest.raises(ConformanceError, match=fragment):
        check_game(game, 4, range(5))


def test_determinize_resamples_what_the_seat_does_not_know():
    state = tricolore.make("culottes", 6, seed=3)
    rng = random.Random(0)
    for seat in range(6):
        state.apply(seat, {"type": "choose_role", "role": "grabber"})
    samples = {tuple(state.determinize(0, rng).roles) for _ in range(30)}
    assert len(samples) > 1
    assert all(roles[0] == "grabber" for roles in samples)
    natures = {tuple(state.determinize(0, rng).sheets) for _ in range(30)}
    assert len(natures) > 1
