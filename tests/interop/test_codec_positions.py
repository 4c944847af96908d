"""The codec keeps what it works out with the position (the state's memo): the masks and choices
it gives must not depend on what it was asked before in the same position."""

import random

import numpy as np
import pytest

from tricolore.core.actions import ActionFamily, ActionSpace, Amount, Choice, Chosen, depends
from tricolore.core.errors import IllegalAction
from tricolore.core.registry import games, get_game
from tricolore.interop.codec import FlatActions

VARIANTS = [(name, {}) for name in sorted(games())] + [
    ("bread-and-circuses", {"regulated_bribery": True}),
    ("revolution", {"edition": "sjg"}),
]


def random_steps(codec, state, rng, actions):
    """Play up to ``actions`` random actions index by index, yielding (seat, partial action)
    before each index is chosen."""
    for _ in range(actions):
        if state.is_over():
            return
        seat = rng.choice(sorted(state.pending()))
        partial = codec.start()
        action = None
        while action is None:
            yield seat, partial
            mask = codec.mask(state, seat, partial)
            partial, action = codec.choose(state, seat, partial, int(rng.choice(np.flatnonzero(mask))))
        state.apply(seat, action)


def fresh_mask(codec, state, seat, partial):
    """The mask worked out in a copy of the position that has been asked nothing yet, by a codec
    that has worked out no position before."""
    return FlatActions(codec.game, codec.players, codec.options).mask(state.clone(), seat, partial)


@pytest.mark.parametrize(("name", "options"), VARIANTS, ids=lambda v: str(v) if v else "")
def test_masks_are_the_same_whatever_was_asked_before_in_the_position(name, options):
    game = get_game(name)
    players = min(game.info.max_players, 4)
    codec = FlatActions(name, players, options)
    state = game.new(players, 11, options)
    rng = random.Random(7)
    checked = 0
    for _ in range(60):
        if state.is_over():
            break
        seat = rng.choice(sorted(state.pending()))
        partial = codec.start()
        while True:
            mask = codec.mask(state, seat, partial)
            assert np.array_equal(mask, fresh_mask(codec, state, seat, partial)), partial
            allowed = [int(i) for i in np.flatnonzero(mask)]
            # Explore a sibling first, so the position holds work for other partial actions.
            sibling, _ = codec.choose(state, seat, partial, rng.choice(allowed))
            if not sibling.empty:
                codec.mask(state, seat, sibling)
            assert np.array_equal(codec.mask(state, seat, partial), mask)
            partial, action = codec.choose(state, seat, partial, rng.choice(allowed))
            checked += 1
            if action is not None:
                break
        assert state.legal_actions(seat).contains(action) or state.free_actions(seat).contains(action)
        state.apply(seat, action)
    assert checked > 60


@pytest.mark.parametrize("name", sorted(games()))
def test_every_index_the_mask_allows_is_accepted_and_every_other_refused(name):
    game = get_game(name)
    players = game.info.min_players
    codec = FlatActions(name, players)
    state = game.new(players, 4)
    for seat, partial in random_steps(codec, state, random.Random(3), 25):
        mask = codec.mask(state, seat, partial)
        for index in range(codec.size):
            if mask[index]:
                codec.choose(state, seat, partial, index)
            else:
                with pytest.raises(IllegalAction):
                    codec.choose(state, seat, partial, index)


def test_a_list_parameter_and_a_bid_in_the_making_keep_their_own_offers():
    for name in ("culottes-trials", "let-them-eat-cake", "revolution"):
        game = get_game(name)
        codec = FlatActions(name, 4)
        state = game.new(4, 2)
        seen = set()
        for seat, partial in random_steps(codec, state, random.Random(5), 80):
            if partial.items is not None or partial.chips is not None:
                seen.add(name)
                assert np.array_equal(codec.mask(state, seat, partial),
                                      fresh_mask(codec, state, seat, partial))
        assert name in seen, f"{name} built no list or bid in 80 actions"


class OneFamily:
    """A position that offers one family of actions and nothing else."""

    def __init__(self, family):
        self._memo = {}
        self.family = family

    def legal_actions(self, seat):
        return ActionSpace((self.family,))

    def free_actions(self, seat):
        return ActionSpace(())


def _receivers(giver):
    return Choice(()) if giver == 1 else Choice((3,))


def _cakes(giver, receiver):
    return Amount(1, 2 + giver)


def test_a_value_whose_later_parameters_have_no_choice_is_never_offered():
    codec = FlatActions("culottes", 4)
    position = OneFamily(ActionFamily("give_cakes", {
        "from": Choice((0, 1, 2)),
        "to": depends(_receivers, Chosen("from")),
        "cakes": depends(_cakes, Chosen("from"), Chosen("to"))}))
    partial, _ = codec.choose(position, 0, codec.start(), codec.index_of_kind("give_cakes"))
    assert [codec.describe(i) for i in codec.legal_indices(position, 0, partial)] == [
        "citizen 0", "citizen 2"]
    partial, _ = codec.choose(position, 0, partial, codec.describe_all().index("citizen 2"))
    partial, _ = codec.choose(position, 0, partial, codec.describe_all().index("citizen 3"))
    assert [codec.describe(i) for i in codec.legal_indices(position, 0, partial)] == [
        "cakes 1", "cakes 2", "cakes 3", "cakes 4"]


def interleaved_steps(codec, state, rng, indices):
    """Up to ``indices`` random indices, every seat asked building its own action at once (as in
    the Parallel environment): yields (seat, partial action, actions applied so far) before each
    index is chosen."""
    partials = {}
    applied = 0
    for _ in range(indices):
        if state.is_over():
            return
        seat = rng.choice(sorted(state.pending()))
        partial = partials.get(seat, codec.start())
        mask = codec.mask(state, seat, partial)
        if not mask.any():  # an action the others' made impossible: start it again
            partial = codec.start()
            mask = codec.mask(state, seat, partial)
        yield seat, partial, applied
        partial, action = codec.choose(state, seat, partial, int(rng.choice(np.flatnonzero(mask))))
        partials[seat] = partial
        if action is not None:
            state.apply(seat, action)
            applied += 1


@pytest.mark.parametrize(("name", "options"), VARIANTS, ids=lambda v: str(v) if v else "")
def test_a_position_used_again_after_another_seats_action_gives_a_fresh_codecs_masks(name, options):
    game = get_game(name)
    players = min(game.info.max_players, 4)
    codec = FlatActions(name, players, options)
    state = game.new(players, 5, options)
    used_again = 0
    last = {}
    for seat, partial, applied in interleaved_steps(codec, state, random.Random(9), 400):
        assert np.array_equal(codec.mask(state, seat, partial), fresh_mask(codec, state, seat, partial))
        position = codec._seat(state, seat)
        if seat in last and last[seat][0] is position and last[seat][1] < applied:
            used_again += 1  # the same position after another seat's action
        last[seat] = (position, applied)
    if name in ("let-them-eat-cake", "bread-and-circuses") and not options:  # simultaneous choices
        assert used_again > 0


def test_a_position_whose_domains_are_worked_out_from_the_state_is_never_used_again():
    codec = FlatActions("culottes", 4)
    family = ActionFamily("give_cakes", {"from": Choice((0, 2)),
                                         "to": depends(_receivers, Chosen("from"))})
    first, second = OneFamily(family), OneFamily(family)
    assert codec._seat(first, 0) is not codec._seat(second, 0)
    fixed = ActionFamily("give_cakes", {"from": Choice((0, 2)), "to": Choice((3,))})
    first, second = OneFamily(fixed), OneFamily(fixed)
    assert codec._seat(first, 0) is codec._seat(second, 0)
