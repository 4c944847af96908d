"""The named strategies of the revolutionary trials play legal whole games and do what their docs
say, checked on scripted positions."""

import random

import pytest

import tricolore
from tricolore.agents import make_agent, strategy_names
from tricolore.games.culottes_trials.bots import claim_of
from tricolore.sim.runner import play_game

NAMED = ["honest-revolutionary", "bluffing-grabber", "skeptic"]


def new(players=5, **options):
    options.setdefault("first_accused", 0)
    options.setdefault("trials", 12)
    return tricolore.make("culottes-trials", players, seed=0, **options)


def close_trial(state, truth, grabbers=(), votes=None):
    """Close the trial in progress with ``truth``; every voter votes ``votes`` (default: truth)."""
    accused = state.accused
    state.apply(accused, {"type": "designate", "grabbers": list(grabbers)})
    state.apply(accused, {"type": "state", "statement": "I drew a heart on this paper", "truth": truth})
    guess = truth if votes is None else votes
    for _ in range(2):
        for seat in state.voters():
            state.apply(seat, {"type": "vote", "guess": guess})
        while state.phase == "debate":
            state.apply(min(state.pending()), {"type": "pass"})


def to_vote(state, grabbers=(), truth=True, first=None, arguments=()):
    """Designate, state, and (given ``first``, a guess per voter) vote once and argue."""
    accused = state.accused
    state.apply(accused, {"type": "designate", "grabbers": list(grabbers)})
    state.apply(accused, {"type": "state", "statement": "Roger is in love with me", "truth": truth})
    if first is None:
        return
    for seat in state.voters():
        state.apply(seat, {"type": "vote", "guess": first[seat]})
    for seat, text in arguments:
        state.apply(seat, {"type": "argue", "text": text})
    while state.phase == "debate":
        state.apply(min(state.pending()), {"type": "pass"})


def decide(strategy, state, seat, seed=0):
    agent = make_agent(tricolore.get_game("culottes-trials"), strategy)
    return agent.act(state.view(seat), state.legal_actions(seat), random.Random(seed))


def votes_of(strategy, state, seat, seeds=range(20)):
    return {decide(strategy, state, seat, seed)["guess"] for seed in seeds}


# -- every strategy ------------------------------------------------------------------------------
def test_the_trials_offer_their_named_strategies_between_random_and_the_search():
    assert strategy_names(tricolore.get_game("culottes-trials")) == ["random", *NAMED, "ismcts"]


@pytest.mark.parametrize("players", [3, 4, 5, 8])
def test_named_strategies_finish_whole_games_with_legal_actions_only(players):
    game = tricolore.get_game("culottes-trials")
    for seed in range(10):
        seats = [([*NAMED, "random"])[(seed + s) % 4] for s in range(players)]
        played = play_game(game.new(players, seed), [make_agent(game, s) for s in seats])
        assert played.state.is_over() and len(played.state.history) == players


@pytest.mark.parametrize("strategy", NAMED)
def test_each_strategy_argues_at_most_once_a_debate(strategy):
    game = tricolore.get_game("culottes-trials")
    played = play_game(game.new(4, 3, {"trials": 4}), [make_agent(game, strategy) for _ in range(4)])
    trial, arguments = 0, []
    for seat, action in played.record.actions:
        trial += action["type"] == "designate"
        if action["type"] == "argue":
            arguments.append((trial, seat))
    assert len(arguments) == len(set(arguments)) > 0


# -- honest-revolutionary ------------------------------------------------------------------------
def test_honest_revolutionary_as_the_accused_designates_nobody_and_says_nothing():
    state = new(5)
    assert decide("honest-revolutionary", state, 0) == {"type": "designate", "grabbers": []}
    to_vote(state, truth=False)
    for seat in range(1, 5):
        state.apply(seat, {"type": "vote", "guess": True})
    assert state.phase == "debate"
    assert decide("honest-revolutionary", state, 0) == {"type": "pass"}


def test_honest_revolutionary_makes_its_statement_true_or_false_by_a_fair_coin():
    truths = []
    for seed in range(40):
        state = new(5)
        state.apply(0, {"type": "designate", "grabbers": []})
        truths.append(decide("honest-revolutionary", state, 0, seed)["truth"])
    assert 10 < sum(truths) < 30


def test_honest_revolutionary_votes_by_the_share_of_true_statements_on_the_record():
    state = new(5)
    close_trial(state, truth=False)
    close_trial(state, truth=False)
    close_trial(state, truth=True)  # 1 of 3 true: (1 + 1) / (3 + 2) < 1/2
    to_vote(state)
    assert votes_of("honest-revolutionary", state, 1) == {False}
    state = new(5)
    close_trial(state, truth=True)
    to_vote(state)  # 1 of 1 true: 2/3
    assert votes_of("honest-revolutionary", state, 2) == {True}


def test_honest_revolutionary_counts_the_accuseds_own_statements_twice():
    state = new(3, first_accused=0)
    close_trial(state, truth=True)   # seat 0: true
    close_trial(state, truth=False)  # seat 1: false
    close_trial(state, truth=False)  # seat 2: false
    # seat 0 is accused again: the table 1 of 3 true, its own 1 of 1: (1 + 1 + 1) / (3 + 1 + 2)
    # is one half, so a coin; counted once, (1 + 1) / (3 + 2) would always vote false
    to_vote(state)
    assert votes_of("honest-revolutionary", state, 1) == {True, False}


def test_honest_revolutionary_with_nothing_to_go_on_flips_a_coin_then_follows_the_first_vote():
    state = new(5)
    to_vote(state)
    assert votes_of("honest-revolutionary", state, 1) == {True, False}
    state = new(5)
    to_vote(state, first={1: False, 2: False, 3: False, 4: True})
    assert votes_of("honest-revolutionary", state, 4) == {False}
    state = new(5)
    to_vote(state, first={1: False, 2: False, 3: True, 4: True})  # a tie counts as "true"
    assert votes_of("honest-revolutionary", state, 1) == {True}


def test_honest_revolutionary_votes_its_belief_even_when_designated_a_grabber():
    state = new(5)
    close_trial(state, truth=True)
    to_vote(state, grabbers=[2])
    assert state.view(2)["you"]["role"] == "grabber"
    assert votes_of("honest-revolutionary", state, 2) == {True}


def test_honest_revolutionary_says_truthfully_how_it_voted_and_why():
    state = new(5)
    close_trial(state, truth=True)
    close_trial(state, truth=False)
    state.apply(2, {"type": "designate", "grabbers": []})
    state.apply(2, {"type": "state", "statement": "x", "truth": True})
    for seat, guess in {0: True, 1: False, 3: True, 4: True}.items():
        state.apply(seat, {"type": "vote", "guess": guess})
    said = decide("honest-revolutionary", state, 1)
    assert said == {"type": "argue", "text": "I voted false: 1 of the 2 statements so far were true."}
    state.apply(1, said)
    assert decide("honest-revolutionary", state, 1) == {"type": "pass"}


# -- bluffing-grabber ----------------------------------------------------------------------------
def test_bluffing_grabber_designates_as_many_as_allowed_the_fewest_points_first():
    state = new(6, first_accused=0)
    close_trial(state, truth=True)  # right: seats 1 to 5 score
    state.apply(1, {"type": "designate", "grabbers": [3, 4]})
    state.apply(1, {"type": "state", "statement": "x", "truth": True})
    for _ in range(2):
        for seat in state.voters():
            state.apply(seat, {"type": "vote", "guess": False})
        while state.phase == "debate":
            state.apply(min(state.pending()), {"type": "pass"})
    # wrong: 1 (the accused) +2, 3 and 4 +1; points [0, 3, 1, 2, 2, 1]
    assert state.points == [0, 3, 1, 2, 2, 1]
    assert decide("bluffing-grabber", state, 2) == {"type": "designate", "grabbers": [0, 5]}


def test_bluffing_grabber_states_against_the_majority_it_expects():
    state = new(5)
    state.apply(0, {"type": "designate", "grabbers": []})
    assert decide("bluffing-grabber", state, 0)["truth"] is False  # no record: "true" expected
    state = new(5)
    close_trial(state, truth=True, votes=False)
    close_trial(state, truth=True, votes=False)
    close_trial(state, truth=False, votes=True)  # majorities: false, false, true
    state.apply(3, {"type": "designate", "grabbers": []})
    assert decide("bluffing-grabber", state, 3)["truth"] is True


def test_bluffing_grabber_as_the_accused_claims_the_opposite_of_the_truth():
    state = new(5)
    to_vote(state, truth=False, first=None)
    for seat in range(1, 5):
        state.apply(seat, {"type": "vote", "guess": True})
    assert decide("bluffing-grabber", state, 0) == {"type": "argue", "text": "It is true, I swear it."}


def test_bluffing_grabber_designated_a_grabber_joins_the_majority_it_expects():
    state = new(5)
    to_vote(state, grabbers=[3])
    assert votes_of("bluffing-grabber", state, 3) == {True}
    state = new(5)
    to_vote(state, grabbers=[3], first={1: False, 2: False, 3: True, 4: False})
    assert votes_of("bluffing-grabber", state, 3) == {False}  # the first vote's majority


def test_bluffing_grabber_as_a_revolutionary_votes_against_the_majority_it_expects_twice():
    state = new(5)
    to_vote(state, grabbers=[3])
    assert votes_of("bluffing-grabber", state, 1) == {False}
    state = new(5)
    to_vote(state, grabbers=[3], first={1: True, 2: True, 3: True, 4: True})
    assert votes_of("bluffing-grabber", state, 1) == {False}
    state = new(5)
    to_vote(state)
    for seat, guess in {1: False, 2: True, 3: True, 4: True}.items():
        state.apply(seat, {"type": "vote", "guess": guess})
    assert decide("bluffing-grabber", state, 1) == {"type": "argue", "text": "Trust me, it is false."}


# -- skeptic -------------------------------------------------------------------------------------
def test_skeptic_doubts_every_statement_in_the_first_vote():
    state = new(5)
    close_trial(state, truth=True)
    close_trial(state, truth=True)
    to_vote(state, grabbers=[4])
    assert votes_of("skeptic", state, 3) == {False}
    assert votes_of("skeptic", state, 4) == {False}


def test_skeptic_takes_the_accuseds_claim_for_a_lie():
    first = {1: True, 2: True, 3: True, 4: True}
    for text, revolutionary in (("It is true, I swear it.", False), ("Believe me: FALSE.", True)):
        state = new(5)
        to_vote(state, grabbers=[4], first=first, arguments=[(0, text)])
        assert votes_of("skeptic", state, 1) == {revolutionary}
        assert votes_of("skeptic", state, 4) == {not revolutionary}  # a grabber backs the claim


def test_skeptic_with_no_claim_from_the_accused_votes_false_again():
    first = {1: True, 2: True, 3: True, 4: True}
    for arguments in ([], [(0, "That is easy to check: I believe it.")], [(1, "It is true.")],
                      [(0, "True or false? You decide.")]):
        state = new(5)
        to_vote(state, first=first, arguments=arguments)
        assert votes_of("skeptic", state, 2) == {False}


def test_skeptic_as_the_accused_designates_as_many_as_allowed_and_tells_the_truth():
    state = new(6)
    designations = {tuple(decide("skeptic", state, 0, seed)["grabbers"]) for seed in range(20)}
    assert all(len(d) == 2 and 0 not in d for d in designations) and len(designations) > 1
    state.apply(0, {"type": "designate", "grabbers": [1, 2]})
    assert decide("skeptic", state, 0)["truth"] is True
    state.apply(0, {"type": "state", "statement": "x", "truth": True})
    for seat in state.voters():
        state.apply(seat, {"type": "vote", "guess": False})
    assert decide("skeptic", state, 0) == {"type": "argue", "text": "It is true, and that is the truth."}
    assert decide("skeptic", state, 1) == {"type": "pass"}


def test_an_arguments_claim_is_read_only_when_it_says_one_side():
    assert claim_of("It is TRUE!") is True and claim_of("false, surely") is False
    assert claim_of("true or false") is None and claim_of("untrue") is None


# -- measured --------------------------------------------------------------------------------------
def test_at_five_players_the_bluffing_grabber_fools_a_random_table_and_the_skeptic_does_not():
    # Four voters can tie, and a tie counts as "true": the bluffing grabber's false statement
    # fools four random voters 11 times in 16; the skeptic's true statement only 5 times in 16.
    game = tricolore.get_game("culottes-trials")
    fooled = dict.fromkeys(["bluffing-grabber", "skeptic"], 0)
    for seed in range(200):
        for named in fooled:
            seats = [named, "random", "random", "random", "random"]
            state = play_game(game.new(5, seed, {"trials": 1, "first_accused": 0}),
                              [make_agent(game, s) for s in seats]).state
            fooled[named] += not state.history[0]["majority_right"]
    assert fooled["bluffing-grabber"] > 120 and fooled["skeptic"] < 80
