"""IS-MCTS: it beats random play in every game, samples what its seat does not know instead of
reading it, repeats itself given the same generator, and keeps to its budget."""

import json
import math
import random
import time

import pytest
from typer.testing import CliRunner

import tricolore
from tricolore.agents import RandomAgent, decide, make_agent, strategy_names
from tricolore.agents.search import MAX_ITERATIONS, Budget, ISMCTSAgent
from tricolore.cli.main import app
from tricolore.core import ActionSpace, OptionsError, State
from tricolore.server.tables import takeover_strategy
from tricolore.sim.runner import play_game

GAMES = [info.name for info in tricolore.list_games()]

SHORT = {"bread-and-circuses": {"max_rounds": 2}, "culottes": {"max_rounds": 2},
         "let-them-eat-cake": {"max_rounds": 3}, "revolution": {"max_rounds": 2},
         "culottes-trials": {"trials": 6, "arguments_per_debate": 0}}
"""Short games, so that a test can play many: IS-MCTS must win them all the same."""

STRENGTH = {  # game: (iterations per decision, games)
    "culottes": (10, 60), "revolution": (20, 60), "culottes-trials": (20, 90),
    "let-them-eat-cake": (20, 60), "bread-and-circuses": (10, 60),
}


def clearly_above(share: float, games: int, level: float = 0.01) -> int:
    """The fewest wins out of ``games`` that a player winning ``share`` of games would reach less
    often than ``level``: fewer would not clearly beat that share."""
    for k in range(games + 1):
        tail = sum(math.comb(games, j) * share**j * (1 - share)**(games - j) for j in range(k, games + 1))
        if tail < level:
            return k
    return games + 1


def position(game: str, players: int, seed: int, plies: int) -> State:
    """The state after ``plies`` random actions (or fewer if the game ends)."""
    state = tricolore.get_game(game).new(players, seed)
    rng = random.Random(seed)
    for _ in range(plies):
        if state.is_over():
            break
        seat = min(state.pending())
        state.apply(seat, state.legal_actions(seat).sample(rng))
    return state


def searching_position(game: str, seed: int) -> tuple[State, int]:
    """A position of ``game`` where the seat to act has more than one move."""
    for plies in range(5, 400, 7):
        state = position(game, 3, seed, plies)
        if state.is_over():
            continue
        seat = min(state.pending())
        legal = state.legal_actions(seat)
        if len(legal.families) > 1 or any(legal.families[0].params):
            return state, seat
    raise AssertionError(f"no position with a choice in {game}")


@pytest.mark.parametrize("game", GAMES)
def test_ismcts_wins_clearly_more_than_its_share_against_random_players(game):
    iterations, games = STRENGTH[game]
    definition = tricolore.get_game(game)
    players = 3
    wins = 0.0
    for seed in range(games):
        seat = seed % players  # the searching seat goes round the table
        agents = [RandomAgent() for _ in range(players)]
        agents[seat] = ISMCTSAgent(Budget(iterations=iterations))
        state = definition.new(players, seed, SHORT[game])
        state.record_events = False
        result = play_game(state, agents).state.result()
        if seat in result.winners:
            wins += 1 / len(result.winners)
    needed = clearly_above(1 / players, games)
    assert wins >= needed, f"{game}: IS-MCTS won {wins:.1f} of {games}; random play {games / players:.1f}"


@pytest.mark.parametrize("game", GAMES)
def test_ismcts_plays_whole_games_at_a_full_table_in_every_game(game):
    definition = tricolore.get_game(game)
    players = min(definition.info.max_players, 5)
    agents = [ISMCTSAgent(Budget(iterations=2)) for _ in range(players)]
    played = play_game(definition.new(players, 1), agents)
    assert played.state.is_over() and played.actions > 0


@pytest.mark.parametrize("game", GAMES)
def test_the_same_generator_gives_the_same_action(game):
    state, seat = searching_position(game, seed=3)
    agents = [ISMCTSAgent(Budget(iterations=30)) for _ in range(2)]
    first, second = (decide(agent, state, seat, random.Random(11)) for agent in agents)
    assert first == second and state.legal_actions(seat).contains(first)
    assert agents[0].last.iterations == 30 and agents[0].last.visits == agents[1].last.visits


class Spy:
    """A searching agent that keeps what it was given and the states its sampler draws."""

    searches = True

    def __init__(self):
        self.given = []
        self.samples = []

    def search(self, seat, legal, sample, rng):
        self.given.append((seat, legal, sample, rng))
        self.samples.extend(sample(random.Random(i)) for i in range(30))
        return legal.sample(rng)


def test_a_searching_agent_gets_a_sampler_of_what_its_seat_knows_never_the_state():
    state = tricolore.make("culottes", 4, seed=5)
    for seat in range(4):  # roles are secret: each seat knows only its own
        state.apply(seat, {"type": "choose_role", "role": "grabber" if seat % 2 else "revolutionary",
                           "name": f"Citizen {seat}"})
    seat = min(state.pending())
    truth = state.digest()
    spy = Spy()
    decide(spy, state, seat, random.Random(0))
    [(given_seat, legal, sample, _)] = spy.given
    assert given_seat == seat and isinstance(legal, ActionSpace) and not isinstance(sample, State)
    assert all(s is not state for s in spy.samples)
    assert all(s.view(seat) == state.view(seat) for s in spy.samples)
    assert all(s.roles[seat] == state.roles[seat] for s in spy.samples)
    others = [o for o in range(4) if o != seat]
    assert any([s.roles[o] for o in others] != [state.roles[o] for o in others] for s in spy.samples)
    assert state.digest() == truth


def test_ismcts_searches_only_the_states_it_samples_and_leaves_the_truth_alone():
    state = tricolore.make("revolution", 3, seed=2)
    state.apply(0, state.legal_actions(0).sample(random.Random(0)))  # seat 0's bid is sealed
    truth = state.digest()
    drawn: list[State] = []
    sealed: list[object] = []  # seat 0's bid in each world as drawn, before the search plays it on

    def sample(rng):
        drawn.append(state.determinize(1, rng))
        sealed.append(drawn[-1].bids.submitted(0))
        return drawn[-1]

    agent = ISMCTSAgent(Budget(iterations=25))
    action = agent.search(1, state.legal_actions(1), sample, random.Random(4))
    assert state.legal_actions(1).contains(action) and state.digest() == truth
    assert len(drawn) == agent.last.iterations == 25
    assert any(bid != state.bids.submitted(0) for bid in sealed)


def test_ismcts_asked_without_a_sampler_refuses_with_a_sentence():
    state, seat = searching_position("culottes", seed=1)
    with pytest.raises(TypeError, match=r"ask it through tricolore\.agents\.decide"):
        ISMCTSAgent().act(state.view(seat), state.legal_actions(seat), random.Random(0))


def test_a_single_legal_action_is_taken_without_search():
    state = tricolore.make("let-them-eat-cake", 3, seed=1)
    rng = random.Random(1)
    agent = ISMCTSAgent(Budget(iterations=50))
    while True:
        seat = min(state.pending())
        legal = state.legal_actions(seat)
        moves = list(legal)
        if len(moves) == 1:
            break
        state.apply(seat, legal.sample(rng))
    assert decide(agent, state, seat, rng) == moves[0] and agent.last.iterations == 0


@pytest.mark.parametrize(("name", "iterations", "seconds"), [
    ("ismcts", 100, None), ("ismcts:200", 200, None), ("ismcts:1", 1, None),
    (f"ismcts:{MAX_ITERATIONS}", MAX_ITERATIONS, None), ("ismcts:0.5s", None, 0.5), ("ismcts:2s", None, 2.0),
])
def test_a_budget_is_read_from_the_strategy_name(name, iterations, seconds):
    agent = make_agent(tricolore.get_game("culottes"), name)
    assert isinstance(agent, ISMCTSAgent)
    assert (agent.budget.iterations, agent.budget.seconds) == (iterations, seconds)


@pytest.mark.parametrize("budget", ["abc", "0", "10**9", "1000000000", "100001", "", "0s", "-5", "1e3",
                                    "61s", "0.5 s", "nan", "infs", "2.5"])
def test_a_bad_budget_is_refused_with_a_sentence(budget):
    with pytest.raises(OptionsError, match=r"IS-MCTS budget .*; got ") as refused:
        make_agent(tricolore.get_game("revolution"), f"ismcts:{budget}")
    assert "\n" not in str(refused.value) and len(str(refused.value)) < 200


def test_bad_search_settings_are_refused_with_a_sentence():
    with pytest.raises(OptionsError, match="reward must be"):
        ISMCTSAgent(reward="glory")
    with pytest.raises(OptionsError, match="rollout depth"):
        ISMCTSAgent(rollout_depth=-1)
    with pytest.raises(OptionsError, match="one of them"):
        Budget(iterations=None, seconds=None)


@pytest.mark.parametrize("game", GAMES)
def test_every_game_offers_ismcts_after_its_own_strategies(game):
    names = strategy_names(tricolore.get_game(game))
    assert names[-1] == "ismcts" and names[0] == "random"


@pytest.mark.parametrize("game", GAMES)
def test_a_person_who_leaves_is_replaced_by_the_games_own_strategy_not_by_a_search(game):
    own = list(tricolore.get_game(game).strategies)
    assert takeover_strategy(game) == (own[0] if own else "random")


def test_a_time_budget_is_kept_to_within_an_iteration():
    state, seat = searching_position("culottes", seed=2)
    agent = make_agent(tricolore.get_game("culottes"), "ismcts:0.3s")
    started = time.perf_counter()
    decide(agent, state, seat, random.Random(0))
    elapsed = time.perf_counter() - started
    assert 0.3 <= elapsed < 0.6
    assert agent.last.iterations > 1


def test_the_score_reward_plays_legal_games():
    game = tricolore.get_game("culottes")
    agents = [ISMCTSAgent(Budget(iterations=5), reward="score"), RandomAgent(), RandomAgent()]
    played = play_game(game.new(3, 1, SHORT["culottes"]), agents)
    assert played.state.is_over()


runner = CliRunner()


def test_simulate_plays_ismcts_with_a_budget_and_names_it_in_the_summary():
    result = runner.invoke(app, ["simulate", "revolution", "--players", "3", "--games", "2", "--json",
                                 "--workers", "1", "--seats", "ismcts:5,random,area-control",
                                 "--option", "max_rounds=2"])
    assert result.exit_code == 0, result.output
    assert "ismcts:5" in json.loads(result.output)["strategies"]


def test_simulate_refuses_a_bad_budget_with_a_sentence():
    result = runner.invoke(app, ["simulate", "revolution", "--players", "3", "--games", "2",
                                 "--seats", "ismcts:abc,random,random"])
    assert result.exit_code == 1 and "IS-MCTS budget" in result.output
    assert "Traceback" not in result.output


def test_play_seats_ismcts_bots_at_a_table():
    result = runner.invoke(app, ["play", "culottes-trials", "--players", "3", "--seats",
                                 "ismcts:5,ismcts:0.01s,random", "--option", "trials=1"])
    assert result.exit_code == 0, result.output


def test_games_lists_ismcts_for_every_game():
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 0 and result.output.count("ismcts") >= len(GAMES)
