"""The named Culottes strategies play legal, finished games and do what their docs say."""

import random

import tricolore
from tricolore.agents import RandomAgent, decide, make_agent
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


# -- deals: scripted positions ---------------------------------------------------------------
def deal_table(seats, rolls=()):
    """Robespierre (seat 0) starts; Danton is seat 1's, Marat seat 2's; the die never closes."""
    state = tricolore.make("culottes", len(seats), seed=0, first_player=0,
                           chance={"randint": [*rolls, *[1] * 500]})
    for seat, (name, strategy) in enumerate(zip(["Robespierre", "Danton", "Marat", "Fouché"], seats,
                                                strict=False)):
        role = "grabber" if strategy in ("p-epsilon-briber", "puppet-grabber") else "revolutionary"
        state.apply(seat, {"type": "choose_role", "role": role, "name": name})
    return state


def ask(state, strategy, seat=None):
    """What ``strategy`` does for the seat asked now (or ``seat``), from all it may do."""
    seat = state.current if seat is None else seat
    return decide(make_agent(tricolore.get_game("culottes"), strategy), state, seat, random.Random(0))


def test_p_epsilon_briber_bribes_the_richest_voters_in_its_own_citizens_trial():
    state = deal_table(["p-epsilon-briber", "honest-revolutionary", "puppet-grabber"])
    state.apply(0, {"type": "cake_vote", "citizen": 0, "side": "sans_culotte", "cakes": 2})
    state.citizens[2].cakes = 25
    offers = []
    for _ in range(3):
        action = ask(state, "p-epsilon-briber")
        if action["type"] != "offer_bribe":
            break
        offers.append(action)
        state.apply(0, action)
    assert [(a["voter"], a["trial"], a["side"], a["reward"], a["cover"]) for a in offers] == [
        (2, 0, "sans_culotte", 1, 3), (1, 0, "sans_culotte", 1, 3)]
    assert state.escrow.held() == 8


def test_p_epsilon_briber_accepts_an_offer_then_votes_its_side_with_a_covered_stake():
    state = deal_table(["honest-revolutionary", "p-epsilon-briber", "honest-revolutionary"])
    state.apply(0, {"type": "cake_vote", "citizen": 2, "side": "privileged", "cakes": 2})
    state.apply(0, {"type": "offer_bribe", "from": 0, "trial": 2, "voter": 1, "side": "privileged",
                    "reward": 1, "cover": 4})
    while state.current == 0:
        state.apply(0, {"type": "pass"})
    assert ask(state, "p-epsilon-briber") == {"type": "accept_bribe", "deal": 0}
    state.apply(1, {"type": "accept_bribe", "deal": 0})
    assert ask(state, "p-epsilon-briber") == {"type": "cake_vote", "citizen": 2, "side": "privileged",
                                              "cakes": 4}


def test_alliance_defender_founds_an_alliance_against_the_bribed_side_and_votes_it():
    state = deal_table(["p-epsilon-briber", "alliance-defender", "honest-revolutionary"])
    state.apply(0, {"type": "cake_vote", "citizen": 0, "side": "sans_culotte", "cakes": 2})
    state.apply(0, {"type": "offer_bribe", "from": 0, "trial": 0, "voter": 1, "side": "sans_culotte",
                    "reward": 1, "cover": 3})
    while state.current == 0:
        state.apply(0, {"type": "pass"})
    assert ask(state, "alliance-defender") == {"type": "decline_bribe", "deal": 0}
    state.apply(1, {"type": "decline_bribe", "deal": 0})
    state.apply(0, {"type": "offer_bribe", "from": 0, "trial": 0, "voter": 2, "side": "sans_culotte",
                    "reward": 1, "cover": 3})
    assert ask(state, "alliance-defender") == {"type": "found_alliance", "trial": 0,
                                               "side": "privileged", "from": 1}
    state.apply(1, {"type": "found_alliance", "trial": 0, "side": "privileged", "from": 1})
    assert ask(state, "alliance-defender") == {"type": "cake_vote", "citizen": 0, "side": "privileged",
                                               "cakes": 3}


def test_alliance_defender_joins_an_alliance_already_standing_on_that_side():
    state = deal_table(["p-epsilon-briber", "honest-revolutionary", "alliance-defender"])
    state.apply(0, {"type": "cake_vote", "citizen": 0, "side": "sans_culotte", "cakes": 2})
    state.apply(0, {"type": "offer_bribe", "from": 0, "trial": 0, "voter": 1, "side": "sans_culotte",
                    "reward": 1, "cover": 3})
    state.apply(1, {"type": "found_alliance", "trial": 0, "side": "privileged", "from": 1})
    while state.current != 2:
        state.apply(state.current, {"type": "pass"})
    assert ask(state, "alliance-defender") == {"type": "join_alliance", "alliance": 0, "citizen": 2}


def test_honest_revolutionary_accepts_only_a_bribe_to_vote_what_it_believes():
    state = deal_table(["puppet-grabber", "honest-revolutionary", "honest-revolutionary"])
    state.apply(0, {"type": "cake_vote", "citizen": 0, "side": "sans_culotte", "cakes": 2})
    for side in ("sans_culotte", "privileged"):  # Robespierre wears no cockade: believed privileged
        state.apply(0, {"type": "offer_bribe", "from": 0, "trial": 0, "voter": 1, "side": side,
                        "reward": 1, "cover": 2})
    while state.current == 0:
        state.apply(0, {"type": "pass"})
    assert ask(state, "honest-revolutionary") == {"type": "decline_bribe", "deal": 0}
    state.apply(1, {"type": "decline_bribe", "deal": 0})
    assert ask(state, "honest-revolutionary") == {"type": "accept_bribe", "deal": 1}


def test_puppet_grabber_never_accepts_a_bribe_against_its_own_citizen():
    state = deal_table(["honest-revolutionary", "puppet-grabber", "honest-revolutionary"])
    state.apply(0, {"type": "cake_vote", "citizen": 1, "side": "privileged", "cakes": 2})
    state.apply(0, {"type": "offer_bribe", "from": 0, "trial": 1, "voter": 1, "side": "privileged",
                    "reward": 3, "cover": 2})
    while state.current == 0:
        state.apply(0, {"type": "pass"})
    assert ask(state, "puppet-grabber") == {"type": "decline_bribe", "deal": 0}


def test_bribes_and_alliances_happen_and_every_cake_is_kept_in_games_of_the_deal_bots():
    game = tricolore.get_game("culottes")
    seats = ["p-epsilon-briber", "alliance-defender", "honest-revolutionary", "puppet-grabber", "random"]
    offered = founded = 0
    for seed in range(15):
        state = play_game(game.new(5, seed), [make_agent(game, s) for s in seats]).state
        on_scales = sum(r.cakes for r in state.book.rows if r.closing is None)
        assert sum(c.cakes for c in state.citizens) + state.bastille.cakes + on_scales == 20 * len(
            state.citizens)
        assert state.escrow.held() == 0
        offered += state.result().metrics["bribes_offered"]
        founded += state.result().metrics["alliances_founded"]
    assert offered > 0 and founded > 0
