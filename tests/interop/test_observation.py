import random

import numpy as np
import pytest
from gymnasium import spaces

import tricolore
from tricolore.core.errors import OptionsError
from tricolore.core.registry import games, get_game
from tricolore.interop.codec import FlatActions
from tricolore.interop.observation import FORMS, ObservationEncoder, make_observer

GAMES = sorted(games())
TABLES = [(name, players) for name in GAMES
          for players in sorted({get_game(name).info.min_players, get_game(name).info.max_players})]
VARIANTS = [("revolution", {"edition": "sjg"}), ("culottes", {"citizen_sheets_per_player": 3})]


def short(name):
    names = {o["name"] for o in get_game(name).info.options.schema(get_game(name).info.min_players)}
    return {"max_rounds": 2} if "max_rounds" in names else {}


def random_game(name, players, options, seed, steps=150):
    """Yield (state, seat, partial, view) along a random game, mid-action partials included."""
    codec = FlatActions(name, players, options)
    state = tricolore.make(name, players, seed=seed, options=options)
    rng = random.Random(seed)
    for _ in range(steps):
        pending = state.pending()
        if state.is_over() or not pending:
            return
        seat = rng.choice(sorted(pending))
        partial = codec.start()
        view = state.view(seat)
        while True:
            yield state, seat, partial, view
            index = int(rng.choice(np.flatnonzero(codec.mask(state, seat, partial))))
            partial, action = codec.choose(state, seat, partial, index)
            if action is not None:
                break
        state.apply(seat, action)


def test_the_forms_are_named_and_an_unknown_form_is_refused_with_a_sentence():
    assert FORMS == ("hashed", "structured", "flat")
    with pytest.raises(OptionsError, match="no observation form 'pixels'; the forms are hashed"):
        make_observer(FlatActions("culottes", 4), "pixels")


@pytest.mark.parametrize("name", GAMES)
def test_the_hashed_form_is_the_encoders_vector(name):
    players = get_game(name).info.min_players
    codec = FlatActions(name, players, short(name))
    observer, encoder = make_observer(codec), ObservationEncoder(codec)
    assert observer.size == encoder.size and observer.space.shape == (encoder.size,)
    for i, (state, seat, partial, view) in enumerate(random_game(name, players, short(name), 5, 60)):
        expected = encoder.encode(state, seat, partial)
        assert np.array_equal(observer.encode(state, seat, partial, view), expected)
        if i % 7 == 0:
            assert np.array_equal(observer.encode(state, seat, partial), expected)


@pytest.mark.parametrize(("name", "players"), TABLES)
def test_every_observation_of_a_random_game_is_in_its_space_with_one_shape(name, players):
    codec = FlatActions(name, players, short(name))
    structured, flat = make_observer(codec, "structured"), make_observer(codec, "flat")
    assert isinstance(structured.space, spaces.Dict) and isinstance(flat.space, spaces.Box)
    assert flat.space.shape == (flat.size,) == (spaces.flatdim(structured.space),)
    shapes = {key: box.shape for key, box in structured.space.spaces.items()}
    assert shapes["players"][0] == players
    for name_, box in structured.space.spaces.items():
        assert box.dtype == np.float32
        assert len(structured.columns(name_)) == box.shape[-1]
    encoded = 0
    for state, seat, partial, view in random_game(name, players, short(name), 9):
        arrays = structured.encode(state, seat, partial, view)
        assert {key: a.shape for key, a in arrays.items()} == shapes
        assert structured.space.contains(arrays)
        vector = flat.encode(state, seat, partial, view)
        assert flat.space.contains(vector)
        assert np.array_equal(vector, spaces.flatten(structured.space, arrays))
        assert np.array_equal(arrays["partial"], ObservationEncoder(codec).encode(
            state, seat, partial)[players + 3:players + 3 + codec.size])
        encoded += 1
    assert encoded > 20


@pytest.mark.parametrize(("name", "options"), VARIANTS)
def test_variants_with_other_charts_or_citizen_counts_stay_in_their_space(name, options):
    codec = FlatActions(name, 3, options)
    structured = make_observer(codec, "structured")
    for state, seat, partial, view in random_game(name, 3, options, 4, 80):
        assert structured.space.contains(structured.encode(state, seat, partial, view))


@pytest.mark.parametrize("form", ["structured", "flat", "hashed"])
@pytest.mark.parametrize("name", GAMES)
def test_an_observation_is_the_same_whatever_the_other_seats_secrets(name, form):
    players = get_game(name).info.min_players
    codec = FlatActions(name, players, short(name))
    observer = make_observer(codec, form)
    checked = 0
    for step, (state, _, partial, _) in enumerate(random_game(name, players, short(name), 11, 120)):
        if step % 6:
            continue
        for seat in range(players):
            mine = observer.encode(state, seat, partial)
            for k in range(2):
                other_world = state.determinize(seat, random.Random(100 * step + k))
                theirs = observer.encode(other_world, seat, partial)
                if form == "structured":
                    for key in mine:
                        assert np.array_equal(mine[key], theirs[key]), f"{key} of seat {seat} leaks"
                else:
                    assert np.array_equal(mine, theirs), f"seat {seat}'s observation leaks"
            checked += 1
    assert checked >= 10


@pytest.mark.parametrize("name", GAMES)
def test_players_are_listed_from_the_observer_around_the_table(name):
    players = get_game(name).info.max_players
    codec = FlatActions(name, players, short(name))
    structured = make_observer(codec, "structured")
    for step, (state, _, partial, _) in enumerate(random_game(name, players, short(name), 3, 60)):
        if step % 10:
            continue
        first = structured.encode(state, 0, partial)["players"]
        for seat in range(1, players):
            rows = structured.encode(state, seat, partial)["players"]
            # the public counters are the same table, turned so the observer comes first
            assert np.array_equal(rows, np.roll(first, -seat, axis=0))


def test_culottes_citizens_and_counters_read_from_the_observers_side():
    codec = FlatActions("culottes", 5)
    structured = make_observer(codec, "structured")
    columns = {name: structured.columns(name) for name in structured.space.spaces}
    seen = 0
    for state, seat, partial, view in random_game("culottes", 5, {}, 2, 120):
        arrays = structured.encode(state, seat, partial, view)
        citizens = arrays["citizens"]
        present = citizens[:, columns["citizens"].index("present")]
        assert present.sum() == len(view["citizens"]) and not present[len(view["citizens"]):].any()
        mine = citizens[:, columns["citizens"].index("owner 0")].nonzero()[0].tolist()
        assert mine == sorted(view["holdings"][seat])
        at = {column: k for k, column in enumerate(columns["citizens"])}
        for c in view["citizens"]:
            row = citizens[c["id"]]
            assert row[at[f"owner {(c['owner'] - seat) % 5}"]] == 1 and row[at[f"status {c['status']}"]] == 1
            counts = ("cakes", "cockades", "bastille_cakes", "emigrated", "recruited")
            assert [row[at[k.replace("_", " ")]] for k in counts] == [float(c[k]) for k in counts]
            assert row[at["current"]] == float(c["id"] == view["current_citizen"])
            assert [row[at[f"scale {side}"]] for side in ("sans_culotte", "privileged")] == [
                float((c["scales"] or {}).get(side, 0)) for side in ("sans_culotte", "privileged")]
        held = arrays["players"][:, columns["players"].index("citizens held")]
        assert held.tolist() == [len(view["holdings"][(seat + k) % 5]) for k in range(5)]
        owners = {c["id"]: c["owner"] for c in view["citizens"]}  # a Book row's voter is a citizen
        for side in ("sans_culotte", "privileged"):
            open_cakes = arrays["players"][:, columns["players"].index(f"open trial cakes {side}")]
            assert open_cakes.tolist() == [
                sum(r["cakes"] for r in view["book"] if r["closing"] is None and r["side"] == side
                    and owners[r["voter"]] == (seat + k) % 5) for k in range(5)]
        if view["current_player"] is not None:
            current = arrays["board"][[columns["board"].index(f"current player {k}") for k in range(5)]]
            assert current.nonzero()[0].tolist() == [(view["current_player"] - seat) % 5]
        roles = [arrays["secret"][columns["secret"].index(f"role {r}")] for r in ("revolutionary", "grabber")]
        assert roles == [float(view["you"]["role"] == r) for r in ("revolutionary", "grabber")]
        natures = arrays["secret_citizens"]
        for key, known in view["you"]["citizens"].items():
            assert natures[int(key), columns["secret_citizens"].index(f"nature {known['nature']}")] == 1
        seen += 1
    assert seen > 50


@pytest.mark.parametrize("form", ["structured", "flat"])
def test_culottes_rows_kept_from_a_longer_game_do_not_reach_the_next(form):
    """An observer keeps what it read of each citizen and reads again only those that changed:
    across games (the next one starts with fewer citizens), with the read-only views that share
    their parts between positions, every observation is a fresh observer's."""
    codec = FlatActions("culottes", 4)
    kept = make_observer(codec, form)
    checked = 0
    for seed, steps in ((9, 300), (8, 60), (9, 300)):
        citizens = 0
        for state, seat, partial, _ in random_game("culottes", 4, {}, seed, steps):
            if partial.path:
                continue
            public = state.read_only_public_view()
            view = {**public, "seat": seat, "you": state.read_only_private_view(seat)}
            fresh = make_observer(codec, form)
            assert np.array_equal(kept.vector(state, seat, None, view, public),
                                  fresh.vector(state, seat, None, state.view(seat))), f"game {seed}"
            citizens = max(citizens, len(public["citizens"]))
            checked += 1
        assert citizens >= (4 if seed == 8 else 10)
    assert checked > 200


def test_revolution_areas_and_bids_are_turned_to_the_observer():
    codec = FlatActions("revolution", 3)
    structured = make_observer(codec, "structured")
    markers = [structured.columns("areas").index(f"markers {k}") for k in range(3)]
    last = None
    for state, seat, partial, view in random_game("revolution", 3, {}, 6, 200):
        arrays = structured.encode(state, seat, partial, view)
        for i, area in enumerate(view["areas"]):
            assert arrays["areas"][i, markers].tolist() == [area["markers"][(seat + k) % 3] for k in range(3)]
        last = (arrays, view)
    assert last is not None
    arrays, view = last
    revealed = structured.columns("revealed")
    for k in range(3):
        for space, placed in (view["revealed"][(view["seat"] + k) % 3] or {}).items():
            for currency, count in placed.items():
                assert arrays["revealed"][k, revealed.index(f"{space} {currency}")] == count


@pytest.mark.parametrize("name", GAMES)
def test_the_public_arrays_turned_to_a_seat_are_those_read_from_its_side(name):
    """The public arrays are read once, as seat 0 sees them, and turned round the table for the
    others: the same as reading the view with every seat counted from the observer."""
    from tricolore.interop.structured import _Put

    players = get_game(name).info.max_players
    codec = FlatActions(name, players, short(name))
    structured = make_observer(codec, "structured")
    game, slices = structured.game, structured._slices
    checked = 0
    for step, (state, _, _, _) in enumerate(random_game(name, players, short(name), 5, 90)):
        if step % 3:
            continue
        for seat in range(players):
            view = state.view(seat)
            direct = np.zeros(structured.size, dtype=np.float32)
            out = {n: direct[slices[n][0]:slices[n][1]].reshape(p.shape) for n, p in game.parts.items()}
            game.memo.clear()
            game.fill(view, out, _Put(game.parts, out, seat, players, direct, structured._where))
            game.memo.clear()
            np.clip(direct, structured._low, structured._high, out=direct)
            mine = structured.vector(state, seat, None, view)
            for part in game.parts:
                if part not in game.SECRET:
                    at = structured.where(part)
                    assert np.array_equal(mine[at], direct[at]), f"{part} of seat {seat} at step {step}"
            checked += 1
    assert checked >= 20


@pytest.mark.parametrize("name", GAMES)
def test_the_parallel_environment_reads_a_versions_public_view_once_for_every_seat(name, monkeypatch):
    from tricolore.interop.pettingzoo import parallel_env

    table = parallel_env(name, max_steps=400)
    state_class = type(table.state)
    assert state_class.views_split()
    made = []
    public_view = state_class.public_view
    monkeypatch.setattr(state_class, "public_view", lambda self: made.append(1) or public_view(self))
    fresh = make_observer(table.codec, "flat")
    rng = np.random.default_rng(4)
    observations, _ = table.reset(seed=4)
    steps = inside = versions = 0
    while table.agents and steps < 150:
        for agent, seen in observations.items():
            seat = int(agent[7:])
            # the same as reading this seat's whole view alone
            alone = fresh.encode(table.state, seat, table.partials[agent])
            assert np.array_equal(seen["observation"], alone), f"{agent} at step {steps}"
        actions = {a: int(rng.choice(np.flatnonzero(o["action_mask"]))) for a, o in observations.items()}
        before, version = len(made), table.episode.version
        observations, *_ = table.step(actions)
        versions += table.episode.version - version
        inside += len(made) - before
        steps += 1
    assert steps > 20 and versions > 10
    # once per version of the game (an action applied), whatever the number of seats
    assert inside <= versions


@pytest.mark.parametrize("form", ["flat", "structured", "hashed"])
@pytest.mark.parametrize("name", GAMES)
def test_every_seats_observation_worked_out_at_once_is_its_observation_alone(name, form):
    from tricolore.interop.pettingzoo import parallel_env

    table = parallel_env(name, observation=form, max_steps=400)
    rng = np.random.default_rng(7)
    observations, _ = table.reset(seed=7)
    steps = 0
    while table.agents and steps < 60:
        episode = table.episode
        partials = [table.partials[agent] for agent in table.possible_agents]
        together = episode.observe_all(partials)
        episode._cache.clear()  # each seat's alone, from scratch
        for seat, partial in enumerate(partials):
            alone = episode.observe(seat, partial)
            if form == "structured":
                assert together[seat].keys() == alone.keys()
                same = all(np.array_equal(together[seat][k], alone[k]) for k in alone)
                assert same, f"seat {seat}, step {steps}"
            else:
                assert np.array_equal(together[seat], alone), f"seat {seat}, step {steps}"
        actions = {a: int(rng.choice(np.flatnonzero(o["action_mask"]))) for a, o in observations.items()}
        observations, *_ = table.step(actions)
        steps += 1
    assert steps > 20
