"""Ratings of strategies from hand-made games: OpenSkill and the head-to-head matrix."""

import pytest

from tricolore.sim.batch import GameRow
from tricolore.sim.ratings import head_to_head, ranks, rate, standings


def game(seed, strategies, scores, winners=None):
    if winners is None:
        best = max(scores)
        winners = tuple(i for i, s in enumerate(scores) if s == best)
    return GameRow(seed, tuple(strategies), tuple(float(s) for s in scores), tuple(winners), 10, {})


def test_a_strategy_that_always_wins_is_rated_above_one_that_always_loses():
    rows = [game(i, ("loser", "middle", "winner")[::1 if i % 2 else -1],
                 (1, 5, 9)[::1 if i % 2 else -1]) for i in range(30)]
    ratings = rate(rows)
    assert [r.strategy for r in ratings] == ["winner", "middle", "loser"]
    assert ratings[0].ordinal > ratings[1].ordinal > ratings[2].ordinal
    assert all(r.games == 30 for r in ratings)
    assert ratings[0].sigma < 25 / 3  # games make the rating surer


def test_strategies_that_always_tie_are_rated_alike():
    rows = [game(i, ("a", "b"), (4, 4)) for i in range(20)]
    a, b = rate(rows)
    assert a.mu == pytest.approx(b.mu) and a.sigma == pytest.approx(b.sigma)
    assert a.mu == pytest.approx(25.0)


def test_a_strategy_holding_several_seats_is_judged_by_its_best_seat():
    row = game(0, ("a", "b", "a"), (1, 5, 8))
    assert standings(row) == {"a": (8.0, True), "b": (5.0, False)}
    assert ranks(row) == {"a": 1, "b": 2}


def test_equal_scores_share_a_rank_unless_the_game_names_one_the_winner():
    assert ranks(game(0, ("a", "b", "c"), (3, 3, 1))) == {"a": 1, "b": 1, "c": 2}
    # Let Them Eat Cake breaks a tie in cakes; the game's winner ranks first.
    assert ranks(game(0, ("a", "b", "c"), (3, 3, 1), winners=(1,))) == {"b": 1, "a": 2, "c": 3}


def test_a_game_with_a_single_strategy_at_the_table_is_not_rated():
    rows = [game(0, ("a", "a", "a"), (1, 2, 3)), game(1, ("a", "b"), (2, 1))]
    ratings = {r.strategy: r for r in rate(rows)}
    assert ratings["a"].games == 1 and ratings["b"].games == 1


def test_the_rating_does_not_depend_on_the_seats_the_strategies_held():
    rows = [game(i, ("x", "y"), (2, 1)) for i in range(10)]
    swapped = [game(i, ("y", "x"), (1, 2)) for i in range(10)]
    assert [(r.strategy, round(r.mu, 6)) for r in rate(rows)] == \
        [(r.strategy, round(r.mu, 6)) for r in rate(swapped)]


def test_head_to_head_counts_the_share_of_games_won_with_ties_half():
    rows = [game(0, ("a", "b", "c"), (9, 5, 1)),
            game(1, ("a", "b", "c"), (2, 2, 7)),
            game(2, ("b", "a", "b"), (1, 3, 6)),   # b's best seat (6) beats a's 3
            game(3, ("a", "c", "a"), (0, 4, 1))]   # b did not sit
    matrix = head_to_head(rows)
    assert matrix["a"]["b"].games == 3 and matrix["a"]["b"].share == pytest.approx(1.5 / 3)
    assert matrix["b"]["a"].share == pytest.approx(1.5 / 3)
    assert matrix["a"]["c"].games == 3 and matrix["a"]["c"].share == pytest.approx(1 / 3)
    assert matrix["c"]["a"].share == pytest.approx(2 / 3)
    assert matrix["b"]["c"].games == 2 and matrix["b"]["c"].share == pytest.approx(0.5)
    for x in matrix:
        for y, p in matrix[x].items():
            assert p.share + matrix[y][x].share == pytest.approx(1.0)


def test_strategies_that_never_met_have_no_share():
    rows = [game(0, ("a", "b"), (1, 2)), game(1, ("c", "b"), (1, 2))]
    matrix = head_to_head(rows)
    assert matrix["a"]["c"].games == 0 and matrix["a"]["c"].share is None


def test_bootstrap_intervals_bracket_the_ratings_and_shares_and_repeat_for_a_seed():
    from tricolore.sim.ratings import bootstrap, head_to_head, rate

    rows = [GameRow(i, ("a", "b", "c"), (3.0, 1.0 + (i % 3), 2.0), (0,) if i % 4 else (1,), 9, {})
            for i in range(60)]
    intervals = bootstrap(rows, resamples=50, seed=3)
    assert intervals == bootstrap(rows, resamples=50, seed=3)
    matrix = head_to_head(rows)
    for a, row in matrix.items():
        for b, pairing in row.items():
            low, high = intervals.share[a][b]
            assert low <= pairing.share <= high
            assert low < high or pairing.share in (0.0, 1.0)
    for r in rate(rows):
        low, high = intervals.mu[r.strategy]
        assert low <= high
    # a's wins in three games of four: its share against b is clearly above a half
    assert intervals.share["a"]["b"][0] > 0.5


def test_bootstrap_of_a_pair_that_never_met_has_no_interval():
    from tricolore.sim.ratings import bootstrap

    rows = [GameRow(0, ("a", "b"), (1.0, 0.0), (0,), 5, {}), GameRow(1, ("b", "c"), (1.0, 0.0), (0,), 5, {})]
    assert bootstrap(rows, resamples=20).share["a"]["c"] is None
