"""The scoring helpers for tables counting by hand: readings taken off the board of a game played
to its end, posted to ``/api/score/<game>``, score exactly as the engine's own ``result()``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import LiveServer, serve
from tricolore.agents import make_agent
from tricolore.core import State, get_game
from tricolore.games.revolution.data import AREAS
from tricolore.server.db import sqlite_url
from tricolore.sim.runner import play_game


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    folder: Path = tmp_path_factory.mktemp("scoring")
    yield from serve(sqlite_url(folder / "tables.db"))


def played(game: str, players: int, seed: int, options: dict[str, Any] | None = None) -> State:
    """A game of random players, to its end."""
    state = get_game(game).new(players, seed, options)
    agents = [make_agent(get_game(game), "random") for _ in range(players)]
    return play_game(state, agents).state


def read_revolution(state: Any) -> dict[str, Any]:
    """What a Revolution! table reads off its board: support, markers per area, chips held."""
    return {"edition": state.edition.name,
            "players": [{"support": state.support[s],
                         "areas": {a.name: state.board[a.name][s] for a in AREAS},
                         "chips": state.holding(s)}
                        for s in range(state.players)]}


def read_let_them_eat_cake(state: Any) -> dict[str, Any]:
    """What a Let Them Eat Cake table reads at the end: cake revealed, Pawns, Generals, the dead."""
    return {"dead": state.dead,
            "players": [{"cakes": state.cakes(s), "pawns": state.pawns[s],
                         "generals": state.generals(s)} for s in range(state.players)]}


def read_bread_and_circuses(state: Any) -> dict[str, Any]:
    """What a Bread and Circuses table reads at the end: each player's Gold."""
    return {"players": [{"gold": g} for g in state.gold]}


def check(server: LiveServer, game: str, state: State, readings: dict[str, Any]) -> dict[str, Any]:
    assert state.is_over()
    answer = server.http.post(f"/api/score/{game}", json=readings)
    assert answer.status_code == 200, answer.text
    scored = answer.json()
    expected = state.result().as_dict()
    for key in ("scores", "ranking", "winners"):
        assert scored[key] == expected[key], key
    return scored


@pytest.mark.parametrize("seed", range(6))
def test_revolution_helper_scores_areas_and_support_as_the_engine(server, seed):
    edition = "sjg" if seed % 2 else "seed"
    state = played("revolution", 2 + seed % 3, seed, {"edition": edition, "max_rounds": 4 + seed})
    scored = check(server, "revolution", state, read_revolution(state))
    expected = state.result().as_dict()["breakdown"]
    assert [b["areas"] for b in scored["breakdown"]] == [b["areas"] for b in expected]
    assert [b["leftover_chips"] for b in scored["breakdown"]] == [b["leftover_chips"] for b in expected]


@pytest.mark.parametrize("seed", range(6))
def test_let_them_eat_cake_helper_ranks_and_breaks_ties_as_the_engine(server, seed):
    state = played("let-them-eat-cake", 3 + seed % 4, seed, {"max_rounds": 3 + seed})
    check(server, "let-them-eat-cake", state, read_let_them_eat_cake(state))


@pytest.mark.parametrize("seed", range(6))
def test_bread_and_circuses_helper_finds_the_richest_as_the_engine(server, seed):
    state = played("bread-and-circuses", 3 + seed % 6, seed, {"max_rounds": 3 + seed})
    check(server, "bread-and-circuses", state, read_bread_and_circuses(state))


def test_let_them_eat_cake_tie_on_cake_goes_to_pawns_then_generals(server):
    readings = {"dead": None, "players": [{"cakes": 9, "pawns": 2, "generals": 0},
                                          {"cakes": 9, "pawns": 3, "generals": 0},
                                          {"cakes": 9, "pawns": 3, "generals": 1}]}
    scored = server.http.post("/api/score/let-them-eat-cake", json=readings).json()
    assert scored["ranking"] == [2, 1, 0] and scored["winners"] == [2]
    readings["dead"] = 2
    scored = server.http.post("/api/score/let-them-eat-cake", json=readings).json()
    assert scored["ranking"] == [1, 0, 2]


def test_revolution_area_tie_awards_nobody(server):
    areas = {a.name: 0 for a in AREAS}
    tied = {"support": 0, "areas": {**areas, "Tavern": 2}}
    scored = server.http.post("/api/score/revolution", json={"players": [tied, tied]}).json()
    assert scored["scores"] == [0, 0] and scored["winners"] == [0, 1]


@pytest.mark.parametrize("game, readings, fragment", [
    ("revolution", {"players": []}, "2 to 4 players"),
    ("revolution", {"players": [{"support": -1}] * 2}, "player 1's support must be a whole number"),
    ("revolution", {"players": [{"support": 1, "areas": {a.name: 0 for a in AREAS} | {"Tavern": 3}}] * 2},
     "the Tavern has 4 spaces"),
    ("let-them-eat-cake", {"dead": 7, "players": [{"cakes": 1, "pawns": 1, "generals": 0}] * 3},
     "the guillotined player's seat"),
    ("bread-and-circuses", {"players": [{"gold": "lots"}] * 3}, "player 1's Gold must be"),
    ("culottes", {"players": []}, "no scoring helper"),
])
def test_bad_readings_get_one_sentence(server, game, readings, fragment):
    answer = server.http.post(f"/api/score/{game}", json=readings)
    assert answer.status_code == 400
    assert fragment.lower() in answer.json()["detail"].lower()


@pytest.mark.parametrize("body", [[1, 2], {"players": [1, 2, 3]}, {"gold": 3}])
def test_readings_of_the_wrong_shape_are_refused_with_a_sentence(server, body):
    answer = server.http.post("/api/score/bread-and-circuses", json=body)
    assert answer.status_code == 422
    assert answer.json()["detail"].endswith(".")


@pytest.mark.parametrize("path", ["/score/revolution", "/score/let-them-eat-cake",
                                  "/score/bread-and-circuses", "/book", "/book-sw.js"])
def test_pages_are_served(server, path):
    assert server.http.get(path).status_code == 200
