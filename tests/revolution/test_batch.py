"""The batched numpy path: its games replay through the engine to the same end, its random bids
are uniform over the legal bids, and bad arguments get one sentence."""

import json
import math
import random

import numpy as np
import pytest

from tricolore.agents import decide, make_agent
from tricolore.core import OptionsError
from tricolore.core.actions import ActionFamily, ActionSpace, Choice
from tricolore.core.record import Record, replay
from tricolore.core.registry import get_game
from tricolore.games.revolution import batch, batch_bots
from tricolore.games.revolution.batch import AREA_NAMES
from tricolore.games.revolution.bids import enumerate_bids
from tricolore.games.revolution.bots import STRATEGIES as BOTS
from tricolore.games.revolution.data import CURRENCIES, EDITIONS


def replays_to_batch_scores(out: batch.BatchResult) -> set[str]:
    """Replay every game of ``out`` through the engine (each action must be accepted), check it
    ends where the batch ended; return the kinds of action met."""
    kinds = set()
    for g, record in enumerate(out.records()):
        record = Record.from_dict(json.loads(record.dumps()))  # as a file would carry it
        state = replay(record)
        assert state.is_over(), f"game {g} is not over after its record"
        result = state.result()
        assert list(result.scores) == out.scores[g].tolist(), f"game {g}"
        assert state.round == out.rounds[g]
        assert (state.end_reason == "board_full") == out.board_full[g]
        assert sorted(result.winners) == np.flatnonzero(out.winners[g]).tolist()
        assert [b["track"] for b in result.breakdown] == out.track[g].tolist()
        assert [b["leftover_chips"] for b in result.breakdown] == out.leftover[g].tolist()
        assert result.metrics == out.metrics(g)
        assert len(record.actions) == out.actions[g]
        kinds |= {action["type"] for _, action in record.actions}
    return kinds


@pytest.mark.parametrize("players", [2, 3, 4])
def test_batch_games_of_the_seed_edition_replay_through_the_engine_to_the_batch_scores(players):
    out = batch.play(120, players, seed=11, records=True)
    kinds = replays_to_batch_scores(out)
    assert kinds == {"bid", "spy", "swap", "decline", "remove_influence"}


@pytest.mark.parametrize("players", [2, 4])
def test_batch_games_of_the_published_edition_replay_through_the_engine_to_the_batch_scores(players):
    out = batch.play(80, players, seed=5, edition="sjg", records=True)
    kinds = replays_to_batch_scores(out)
    assert {"bid", "spy", "swap", "decline"} <= kinds


def test_max_rounds_ends_batch_games_as_the_engine_ends_them():
    out = batch.play(60, 3, seed=2, max_rounds=4, records=True)
    assert out.rounds.max() == 4 and not out.board_full[out.rounds == 4].all()
    replays_to_batch_scores(out)


def test_the_deck_orders_travel_in_the_record_as_its_script_of_chance():
    out = batch.play(30, 4, seed=9, records=True)
    records = out.records()
    shuffles = [len(r.chance["shuffle"]) for r in records]
    assert min(shuffles) >= 1 and max(shuffles) >= 2  # the first deal and at least one reshuffle
    assert all(r.seed == 9 + g for g, r in enumerate(records))
    assert batch.play(5, 2, edition="sjg", records=True).records()[0].chance is None  # no cards


def test_a_batch_is_reproduced_by_its_seed():
    a, b = batch.play(200, 3, seed=4), batch.play(200, 3, seed=4)
    assert (a.scores == b.scores).all() and a.decisions == b.decisions
    assert not (batch.play(200, 3, seed=5).scores == a.scores).all()


def test_scores_are_track_plus_areas_plus_leftover_chips():
    for edition in EDITIONS:
        out = batch.play(300, 3, seed=1, edition=edition)
        assert (out.scores == out.track + out.areas + out.leftover).all()
        assert (out.leftover == 0).all() == (edition == "seed")
        assert out.winners.any(axis=1).all()


def test_records_can_be_written_only_when_kept():
    with pytest.raises(ValueError, match="records=True"):
        batch.play(3, 2).records()


@pytest.mark.parametrize("kwargs, sentence", [
    ({"games": 0, "players": 3}, "games must be a whole number of at least 1"),
    ({"games": 5, "players": 5}, "played by 2 to 4 players"),
    ({"games": 5, "players": 3, "strategies": "ismcts"}, "plays only random, printer-first"),
    ({"games": 2, "players": 3, "strategies": [["random"] * 3]}, "a line-up for every game"),
    ({"games": 5, "players": 3, "strategies": ["random"]}, "one strategy for every seat"),
    ({"games": 5, "players": 3, "seed": -1}, "seed must be a whole number"),
])
def test_bad_batch_arguments_are_refused_with_a_sentence(kwargs, sentence):
    with pytest.raises(ValueError, match=sentence):
        batch.play(**kwargs)


def test_an_unknown_edition_is_refused_as_the_game_refuses_it():
    with pytest.raises(OptionsError, match="edition must be one of"):
        batch.play(5, 3, edition="deluxe")


def check_uniform(sampler: batch.BidSampler, chips: dict[str, int], draws: int) -> None:
    """Every legal bid of ``chips`` is drawn, nothing else is, and each about equally often
    (chi-square far below a bound that a fair sampler breaks about once in a billion runs)."""
    chart = sampler.chart.spaces
    names = [s.name for s in chart]
    rows = []
    for placement in enumerate_bids(chart, chips):
        row = np.zeros((len(chart), len(CURRENCIES)), dtype=np.uint8)
        for space, cs in placement.items():
            for currency, n in cs.items():
                row[names.index(space), CURRENCIES.index(currency)] = n
        rows.append(row)
    legal = np.unique(np.stack(rows).reshape(len(rows), -1), axis=0)
    holdings = np.tile(np.array([chips[c] for c in CURRENCIES]), (draws, 1))
    bids = np.stack(sampler.sample(holdings, np.random.default_rng(3)), axis=-1)
    drawn, counts = np.unique(bids.reshape(draws, -1), axis=0, return_counts=True)
    assert len(drawn) == len(legal) and (drawn == legal).all()
    expected = draws / len(legal)
    chi2 = float(((counts - expected) ** 2 / expected).sum())
    dof = len(legal) - 1
    assert chi2 < dof + 6 * math.sqrt(2 * dof)


def test_random_bids_are_uniform_over_the_legal_bids():
    check_uniform(batch.BidSampler(batch.chart_of("seed")), {"force": 1, "blackmail": 1, "gold": 1},
                  60_000)


def test_random_bids_using_more_than_six_spaces_are_drawn_again_uniformly():
    # Seven Blackmail over the nine spaces that take it: 36 of its 6435 spreads use seven spaces.
    check_uniform(batch.BidSampler(batch.chart_of("seed")), {"force": 0, "blackmail": 7, "gold": 0},
                  200_000)


def test_random_bids_beyond_the_tables_come_from_a_uniform_urn(monkeypatch):
    monkeypatch.setattr(batch, "TABLE_ROWS", 50)
    sampler = batch.BidSampler(batch.chart_of("seed"))
    assert len(sampler.sizes[2]) < 4  # four Gold is beyond the table
    check_uniform(sampler, {"force": 0, "blackmail": 0, "gold": 4}, 60_000)


def test_random_bids_follow_the_published_chart():
    check_uniform(batch.BidSampler(batch.chart_of("sjg")), {"force": 1, "blackmail": 1, "gold": 2},
                  200_000)


def test_simulate_batch_writes_rows_like_other_runs_and_records_that_verify(tmp_path):
    from typer.testing import CliRunner

    from tricolore.cli.main import app
    from tricolore.core.record import check_record
    from tricolore.sim.results import SCHEMA, read

    out, folder = tmp_path / "rows.parquet", tmp_path / "records"
    result = CliRunner().invoke(app, ["simulate", "revolution", "--players", "3", "--games", "12",
                                      "--seed", "4", "--batch", "--json", "--out", str(out),
                                      "--records", str(folder)])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["strategies"]["random"]["seat_games"] == 36
    table = read(out)
    assert table.schema.remove_metadata() == SCHEMA
    played = batch.play(12, 3, seed=4)
    assert table.column("seed").to_pylist() == list(range(4, 16))
    assert table.column("scores").to_pylist() == played.scores.astype(float).tolist()
    assert table.column("actions").to_pylist() == played.actions.tolist()
    for seed in range(4, 16):
        verification = check_record(Record.load(folder / f"revolution-{seed}.json"))
        assert verification.over and not verification.mismatches


@pytest.mark.parametrize("args, sentence", [
    (["culottes"], "--batch plays only revolution"),
    (["revolution", "--players", "3", "--seats", "random,ismcts,printer-first"],
     "--batch plays only random, printer-first, area-control seats; not ismcts"),
    (["revolution", "--players", "4", "--resume", "--out", "x.parquet"], "no run to resume"),
    (["revolution", "--players", "4", "--workers", "2"], "plays in this process"),
])
def test_simulate_batch_refuses_what_it_cannot_play_with_a_sentence(args, sentence):
    from typer.testing import CliRunner

    from tricolore.cli.main import app

    result = CliRunner().invoke(app, ["simulate", *args, "--batch"])
    assert result.exit_code != 0
    assert sentence in result.output
    assert "Traceback" not in result.output


# -- the named strategies ---------------------------------------------------------------------------
LINEUPS = [("area-control", "printer-first", "random", "area-control"),
           ("printer-first", "area-control", "area-control", "random")]


def test_batch_games_of_the_named_strategies_replay_through_the_engine_to_the_batch_scores():
    games = 160
    out = batch.play(games, 4, seed=21, strategies=[LINEUPS[g % 2] for g in range(games)],
                     max_rounds=30, records=True)
    kinds = replays_to_batch_scores(out)
    assert kinds == {"bid", "spy", "swap", "decline", "remove_influence"}
    out = batch.play(100, 3, seed=8, edition="sjg", strategies=("area-control", "printer-first",
                                                                 "area-control"),
                     max_rounds=12, records=True)
    assert {"bid", "spy", "swap"} <= replays_to_batch_scores(out)


class NoShake(random.Random):
    """A generator whose ``random()`` is always 0: the bots' values are not shaken."""

    def random(self) -> float:
        return 0.0


def engine_positions(edition: str, players: int, seed: int):
    """Every position of an engine game of the named bots (and one random seat), with the seat
    asked and its strategy."""
    game = get_game("revolution")
    names = (["area-control", "printer-first", "random", "area-control"])[:players]
    agents = [make_agent(game, n) for n in names]
    state = game.new(players, seed, {"edition": edition, "max_rounds": 30})
    rng = random.Random(seed)
    while not state.is_over():
        seat = min(state.pending())
        yield state, seat, names[seat]
        state.apply(seat, decide(agents[seat], state, seat, rng))


def test_the_batch_bids_of_printer_first_and_area_control_are_the_bots_bids_without_the_shake():
    checked = 0
    for edition, players, seed in [("seed", 4, 1), ("seed", 3, 2), ("sjg", 4, 3), ("sjg", 2, 4)]:
        chart = batch.chart_of(edition)
        greedy = batch_bots.GreedyBids(chart)
        for state, seat, name in engine_positions(edition, players, seed):
            if name == "random" or "bid" not in state.legal_actions(seat).kinds:
                continue
            view = state.view(seat)
            expected = BOTS[name]().bid(view, NoShake())["placement"]
            board = np.array([[a["markers"] for a in view["areas"]]], dtype=np.int8)
            left = None if view["markers_left"] is None else np.array([view["markers_left"]])
            values = batch_bots.space_values(name, chart, board, left, np.array([seat]))
            held = np.array([[view["chips"][seat].get(c, 0) for c in CURRENCIES]])
            built = greedy.build(held, values, None)[0]
            placement = {chart.spaces[s].name: {c: int(built[s, k])
                                                for k, c in enumerate(CURRENCIES) if built[s, k]}
                         for s in range(len(chart.spaces)) if built[s].any()}
            assert placement == expected, (edition, seed, state.round, seat)
            checked += 1
    assert checked > 150


def test_the_batch_choices_for_the_spy_the_apothecary_and_remove_influence_are_the_bots_choices():
    seen: dict[str, int] = {}
    areas = len(AREA_NAMES)
    for seed in range(12):
        for edition in ("seed", "sjg"):
            chart = batch.chart_of(edition)
            for state, seat, name in engine_positions(edition, 3 + seed % 2, seed):
                kinds = set(state.legal_actions(seat).kinds) & {"spy", "swap", "remove_influence"}
                if name == "random" or not kinds:
                    continue
                (kind,) = kinds
                view, p = state.view(seat), state.players
                expected = BOTS[name]().act(view, state.legal_actions(seat), NoShake())
                board = np.array([[a["markers"] for a in view["areas"]]], dtype=np.int8)
                pick, taken = batch_bots.power_choice(kind, board, np.array([seat]),
                                                      chart.area_support)
                k = int(pick[0])
                if not taken[0]:
                    chosen: dict[str, object] = {"type": "decline"}
                elif kind == "swap":
                    chosen = {"type": "swap", "first_area": AREA_NAMES[k // (areas * p)],
                              "first_owner": seat, "second_area": AREA_NAMES[k // p % areas],
                              "second_owner": k % p}
                else:
                    chosen = {"type": kind, "area": AREA_NAMES[k // p], "victim": k % p}
                assert chosen == expected, (edition, seed, state.round, seat)
                seen[chosen["type"]] = seen.get(chosen["type"], 0) + 1
    assert {"spy", "swap", "decline"} <= set(seen)


def every_choice(kind: str, players: int) -> ActionSpace:
    """A legal-action space holding every choice of ``kind`` the bot may consider."""
    areas, seats = Choice(tuple(AREA_NAMES)), Choice(tuple(range(players)))
    if kind == "swap":
        params = {"first_area": areas, "first_owner": seats, "second_area": areas, "second_owner": seats}
    else:
        params = {"area": areas, "victim": seats}
    return ActionSpace((ActionFamily(kind, params),))


@pytest.mark.parametrize("kind", ["spy", "swap", "remove_influence"])
def test_the_batch_choices_are_the_bots_choices_on_random_boards(kind):
    rng = np.random.default_rng(5)
    chart, p, areas = batch.chart_of("seed"), 4, len(AREA_NAMES)
    boards = rng.integers(0, 3, size=(400, areas, p)).astype(np.int8)
    me = rng.integers(0, p, size=400)
    picks, taken = batch_bots.power_choice(kind, boards, me, chart.area_support)
    bot = BOTS["area-control"]()
    legal = every_choice(kind, p)
    for d in range(len(boards)):
        view = {"seat": int(me[d]), "areas": [{"name": name, "markers": boards[d, a].tolist()}
                                              for a, name in enumerate(AREA_NAMES)]}
        options = bot.swap_options(view) if kind == "swap" else bot.spy_options(view)
        expected = bot.best(view, legal, kind, options, strict=kind != "remove_influence")
        k = int(picks[d])
        if not taken[d]:
            assert expected is None
        elif kind == "swap":
            assert expected == {"type": "swap", "first_area": AREA_NAMES[k // (areas * p)],
                                "first_owner": int(me[d]), "second_area": AREA_NAMES[k // p % areas],
                                "second_owner": k % p}
        else:
            assert expected == {"type": kind, "area": AREA_NAMES[k // p], "victim": k % p}


def test_a_batch_line_up_per_game_plays_each_game_with_its_own_seats():
    same = batch.play(40, 4, seed=6, strategies=LINEUPS[0], max_rounds=20)
    per_game = batch.play(40, 4, seed=6, strategies=[LINEUPS[0]] * 40, max_rounds=20)
    assert (same.scores == per_game.scores).all()
    mixed = batch.play(40, 4, seed=6, strategies=[LINEUPS[g % 2] for g in range(40)], max_rounds=20)
    assert not (mixed.scores == same.scores).all()


def test_a_batch_whose_games_never_fill_the_board_is_refused_with_a_sentence(monkeypatch):
    monkeypatch.setattr(batch, "ROUND_LIMIT", 40)  # printer-first players tie on the same spaces
    with pytest.raises(ValueError, match=r"had not ended after 40 rounds .* give max_rounds"):
        batch.play(20, 4, seed=1, strategies="printer-first")


def test_simulate_batch_rotates_named_strategies_through_the_seats(tmp_path):
    from typer.testing import CliRunner

    from tricolore.cli.main import app

    result = CliRunner().invoke(app, ["simulate", "revolution", "--players", "3", "--games", "30",
                                      "--seed", "2", "--batch", "--json", "--option",
                                      "max_rounds=25", "--seats",
                                      "area-control,printer-first,random"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert {name: s["seat_games"] for name, s in summary["strategies"].items()} == {
        "area-control": 30, "printer-first": 30, "random": 30}
