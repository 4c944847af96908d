"""The named Culottes strategies play legal, finished games and do what their docs say."""

import tricolore
from tricolore.agents import RandomAgent, make_agent
from tricolore.sim.runner import play_game


def table(seed, seats):
    game = tricolore.get_game("culottes")
    return play_game(game.new(len(seats), seed), [make_agent(game, s) for s in seats])


def test_named_strategies_finish_games_with_legal_actions_only():
    for seed in range(20):
        played = table(seed, ["honest-revolutionary", "puppet-grabber", "random", "puppet-grabber"])
        assert played.state.is_over()


def test_honest_revolutionary_plays_revolutionary_and_never_recruits():
    state = table(1, ["honest-revolutionary"] * 2 + ["random"] * 2).state
    assert state.roles[:2] == ["revolutionary", "revolutionary"]
    assert state.view(None)["recruits"][:2] == [0, 0]


def test_puppet_grabber_recruits_puppets_and_caps_them():
    state = table(2, ["puppet-grabber", "honest-revolutionary", "honest-revolutionary"]).state
    assert state.roles[0] == "grabber"
    puppets = [state.citizens[i] for i in state.holdings[0][1:]]
    assert len(puppets) == 3 and all(state.is_puppet(p) for p in puppets)
    assert sum(c.bastille_cakes for c in state.citizens if c.owner == 0) > 0


def test_strategies_beat_random_play_over_many_games():
    game = tricolore.get_game("culottes")
    wins = {"named": 0, "random": 0}
    for seed in range(60):
        seats = ["honest-revolutionary", "random", "puppet-grabber", "random"]
        state = play_game(game.new(4, seed), [make_agent(game, s) if s != "random" else RandomAgent()
                                              for s in seats]).state
        for w in state.result().winners:
            wins["random" if seats[w] == "random" else "named"] += 1
    assert wins["named"] > 3 * wins["random"]
