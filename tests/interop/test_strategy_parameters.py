"""Opponents given as ``name:key=value`` in the Gymnasium and PettingZoo environments."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest

from tricolore.agents import decide, make_agent
from tricolore.core.errors import OptionsError
from tricolore.core.registry import get_game
from tricolore.interop.gymnasium import TricoloreEnv
from tricolore.interop.pettingzoo import env


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


class Counted:
    """An opponent that counts the decisions asked of it."""

    def __init__(self, inner):
        self.inner, self.asked = inner, 0

    def act(self, view, legal, rng):
        self.asked += 1
        return self.inner.act(view, legal, rng)

    def __getattr__(self, name):
        return getattr(self.inner, name)


def test_a_gymnasium_opponent_with_parameters_is_built_and_plays():
    table = TricoloreEnv("let-them-eat-cake", players=3,
                         opponents=["kingmaker:seize_at=12,short_of_medals=3", "cake-hoarder:reserve=2"],
                         max_steps=4000)
    assert (table.opponents[1].seize_at, table.opponents[1].short_of_medals) == (12, 3)
    assert table.opponents[2].reserve == 2
    counted = {seat: Counted(opponent) for seat, opponent in table.opponents.items()}
    table.opponents.update(counted)
    observation, _ = table.reset(seed=2)
    rng = np.random.default_rng(0)
    terminated = truncated = False
    while not (terminated or truncated):
        index = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        observation, _, terminated, truncated, _ = table.step(index)
    assert terminated
    assert counted[1].asked > 10 and counted[2].asked > 10


def test_a_gymnasium_opponent_with_a_bad_parameter_is_refused_with_a_sentence():
    with pytest.raises(OptionsError, match="the parameter seize_at must be from 1 to 14"):
        TricoloreEnv("let-them-eat-cake", players=3, opponents="kingmaker:seize_at=0")


def test_a_pettingzoo_seat_played_by_a_strategy_with_parameters_plays_a_whole_game():
    game = get_game("revolution")
    table = env("revolution", players=3, seed=5, max_steps=3000, max_rounds=3)
    table.reset(seed=5)
    bot = make_agent(game, "area-control:reach=3,shake=0")
    assert (bot.reach, bot.shake) == (3, 0.0)
    rng = random.Random(1)
    planned: list[int] = []
    bids = 0
    while table.agents:
        agent = table.agent_selection
        observation, _, terminated, truncated, _ = table.last()
        if terminated or truncated:
            table.step(None)
            continue
        if agent == "player_0":
            if not planned:
                wanted = decide(bot, table.state, 0, rng)
                bids += wanted["type"] == "bid"
                planned = table.codec.spell(table.state, 0, wanted)
            index = planned.pop(0)
            assert observation["action_mask"][index] == 1
            table.step(index)
        else:
            table.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert bids == 3
