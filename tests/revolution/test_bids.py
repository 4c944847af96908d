"""Bids: the exact number of legal placements for fixed holdings (a known-count regression test,
cross-checked by brute force), random legal bids always accepted, and the chip-by-chip
decomposition reaching exactly the legal bids."""

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tricolore
from tricolore.core import IllegalAction
from tricolore.core.draws import pick
from tricolore.core.mechanisms import SealedSubmissions
from tricolore.games.revolution.bids import (
    Bid,
    ChipByChip,
    SealedBids,
    chips_of,
    enumerate_bids,
    normalise,
    table_of,
)
from tricolore.games.revolution.data import CURRENCIES, SEED_CHART, SJG_CHART


def holding(force=0, blackmail=0, gold=0):
    return {"force": force, "blackmail": blackmail, "gold": gold}


def brute_force(chart, chips):
    """Every way to drop each currency's chips on any spaces, kept when the rules allow it."""
    domain = Bid(tuple(chart), tuple((c, chips[c]) for c in CURRENCIES))
    names = [s.name for s in chart]
    out = set()
    per_currency = [itertools.combinations_with_replacement(names, chips[c]) for c in CURRENCIES]
    for combo in itertools.product(*(list(p) for p in per_currency)):
        placement: dict = {}
        for currency, spaces in zip(CURRENCIES, combo, strict=True):
            for space in spaces:
                placement.setdefault(space, {}).setdefault(currency, 0)
                placement[space][currency] += 1
        if domain.problem("placement", placement) is None:
            out.add(repr(normalise(placement)))
    return out


@pytest.mark.parametrize("chart, chips, count", [
    (SEED_CHART, holding(1, 1, 3), 22932),   # the starting holding
    (SEED_CHART, holding(gold=5), 4356),
    (SEED_CHART, holding(2, 0, 3), 10192),
    (SJG_CHART, holding(1, 1, 3), 17836),
])
def test_known_count_of_legal_bids(chart, chips, count):
    bids = [repr(p) for p in enumerate_bids(chart, chips)]
    assert len(bids) == len(set(bids)) == count


@pytest.mark.parametrize("chart, chips", [(SEED_CHART, holding(1, 1, 3)), (SJG_CHART, holding(1, 1, 3))])
def test_the_count_agrees_with_brute_force(chart, chips):
    assert {repr(p) for p in enumerate_bids(chart, chips)} == brute_force(chart, chips)


def test_the_action_space_counts_the_same_bids():
    state = tricolore.make("revolution", 3, seed=1)
    assert len(state.legal_actions(0)) == 22932


@settings(max_examples=60, deadline=None)
@given(force=st.integers(0, 3), blackmail=st.integers(0, 3), gold=st.integers(0, 8),
       edition=st.sampled_from(["seed", "sjg"]), seed=st.integers(0, 10**6))
def test_a_random_legal_bid_is_always_accepted(force, blackmail, gold, edition, seed):
    state = tricolore.make("revolution", 3, seed=1, edition=edition)
    state.set_holding(0, holding(force, blackmail, gold))
    state.changed()
    action = state.legal_actions(0).sample(random.Random(seed))
    state.apply(0, action)
    assert state.bids.submitted(0)["placement"] == normalise(action["placement"])


def test_a_forbidden_bid_is_refused_with_a_clear_message_and_changes_nothing():
    state = tricolore.make("revolution", 3, seed=1)
    before = state.digest()
    with pytest.raises(IllegalAction, match="Force may not be bid on the Apothecary"):
        state.apply(0, {"type": "bid", "placement": {"Apothecary": {"force": 1},
                                                     "Printer": {"blackmail": 1, "gold": 3}}})
    with pytest.raises(IllegalAction, match="There is no space 'Guillotine'"):
        state.apply(0, {"type": "bid", "placement": {"Guillotine": {"gold": 5}}})
    assert state.digest() == before


def test_chip_by_chip_reaches_exactly_the_legal_bids():
    chips = holding(1, 1, 2)
    reached = set()

    def walk(builder_moves):
        builder = ChipByChip(SEED_CHART, chips)
        for move in builder_moves:
            builder.place(*move)
        if builder.done:
            reached.add(repr(builder.placement()))
            return
        for option in builder.options():
            walk([*builder_moves, option])

    walk([])
    assert reached == {repr(p) for p in enumerate_bids(SEED_CHART, chips)}


@settings(max_examples=40, deadline=None)
@given(gold=st.integers(0, 12), force=st.integers(0, 4), blackmail=st.integers(0, 4),
       seed=st.integers(0, 10**6))
def test_chip_by_chip_never_reaches_a_dead_end(gold, force, blackmail, seed):
    rng = random.Random(seed)
    builder = ChipByChip(SEED_CHART, holding(force, blackmail, gold))
    while not builder.done:
        options = builder.options()
        assert options
        builder.place(*rng.choice(options))
    assert Bid(SEED_CHART, tuple(holding(force, blackmail, gold).items())).problem(
        "placement", builder.placement()) is None


@settings(max_examples=60, deadline=None)
@given(force=st.integers(0, 4), blackmail=st.integers(0, 4), gold=st.integers(0, 14),
       edition=st.sampled_from([SEED_CHART, SJG_CHART]), seed=st.integers(0, 10**6))
def test_a_random_bid_is_the_chip_by_chip_walk_drawing_uniformly_among_its_options(
        force, blackmail, gold, edition, seed):
    chips = holding(force, blackmail, gold)
    walk_rng, sample_rng = random.Random(seed), random.Random(seed)
    builder = ChipByChip(edition, chips)
    while not builder.done:
        options = builder.options()
        builder.place(*options[pick(walk_rng, len(options))])
    drawn = Bid(edition, tuple(chips.items())).sample(sample_rng)
    assert drawn == builder.placement()
    assert list(drawn) == list(builder.placement())
    assert sample_rng.getstate() == walk_rng.getstate()


@given(st.dictionaries(
    st.sampled_from([s.name for s in SJG_CHART]),
    st.dictionaries(st.sampled_from([*CURRENCIES, "silver"]), st.integers(0, 3), max_size=4),
    max_size=6))
def test_a_normalised_bid_lists_spaces_and_currencies_by_name_without_empty_entries(placement):
    kept = {space: {c: chips[c] for c in sorted(chips) if chips[c]}
            for space, chips in sorted(placement.items())}
    expected = {space: chips for space, chips in kept.items() if chips}
    normal = normalise(placement)
    assert normal == expected
    assert [list(chips) for chips in normal.values()] == [list(chips) for chips in expected.values()]
    assert list(normal) == list(expected)
    assert normalise(normal) is normal  # a placement already in order is kept as it is


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 3), st.integers(0, 3), st.integers(0, 6), st.sampled_from([SEED_CHART, SJG_CHART]),
       st.integers(0, 10**6))
def test_a_bid_is_resolved_from_the_counts_it_was_drawn_with_or_read_from_its_names(
        force, blackmail, gold, chart, seed):
    """The resolution reads each bid as counts per space in chart order: a bid just drawn gives the
    very counts it was drawn with, any other equal placement the same counts read from its names."""
    table = table_of(tuple(chart))
    held = (force, blackmail, gold)
    drawn = table.sample(held, random.Random(seed))
    kept = table.counts_of(drawn)
    copied = {space: dict(chips) for space, chips in drawn.items()}
    assert table.counts_of(copied) is not kept
    assert table.counts_of(copied) == kept
    for _ in range(10):  # drawn and resolved a seat at a time, a few draws apart
        table.sample(held, random.Random(seed + 1))
    assert table.counts_of(drawn) == kept
    assert table.placement(kept) == drawn
    names = [space.name for space in chart]
    for at, here in enumerate(kept):
        assert (here is None) == (names[at] not in drawn)
        if here is not None:
            assert chips_of(here) == drawn[names[at]]
            assert sum(here) == sum(drawn[names[at]].values())


def test_a_bid_made_from_a_moves_code_is_resolved_from_the_counts_it_was_made_with():
    table = table_of(tuple(SEED_CHART))
    held = (1, 1, 3)
    code = table.concentrated(held)[-1]
    placement = table.from_code(held, code)
    counts = table.counts_of(placement)
    assert table.counts_of(placement) is counts
    assert table.counts_of({space: dict(chips) for space, chips in placement.items()}) == counts
    assert table.placement(counts) == placement


@pytest.mark.parametrize("seed", range(6))
def test_a_bid_sealed_as_its_counts_reads_as_the_action_drawn_with_the_same_numbers(seed):
    table = table_of(SEED_CHART)
    counts = table.draw([1, 1, 3], random.Random(seed))
    action = {"type": "bid", "placement": table.sample([1, 1, 3], random.Random(seed))}
    drawn, written = SealedBids(SEED_CHART, range(3)), SealedSubmissions("bid", range(3), False)
    assert drawn.seal_drawn(1, counts) is written.submit(1, action) is False
    twin = drawn.copy()
    assert drawn.public() == written.public() and drawn.waiting() == (0, 2)
    assert drawn.payload() == written.payload()
    assert twin.submitted(1) == action and twin.submitted(0) is None
    with pytest.raises(ValueError, match="already chosen"):
        drawn.seal_drawn(1, counts)
    drawn.seal_drawn(0, counts)
    assert twin.submitted(0) is None  # the copy is its own
    drawn.submit(2, action)
    shown = drawn.reveal(3)
    assert shown.counts == [counts, counts, table.counts_of(action["placement"])]
    assert [shown.placement(s) for s in range(3)] == [action["placement"]] * 3
    assert shown.payload() == [(s, action["placement"]) for s in range(3)]
