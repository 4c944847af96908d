"""IS-MCTS with deals: it answers offers by search, honours what it accepted, proposes deals of its
own without looping, and reads its parameters from the strategy name (docs/agents.md, "Deals")."""

import random

import pytest

import tricolore
from tricolore.agents import canonical_strategy, decide, make_agent, strategy_parameters
from tricolore.agents.search import DEAL_RULES, ISMCTSAgent
from tricolore.core import OptionsError
from tricolore.sim.runner import play_game

CULOTTES = tricolore.get_game("culottes")


def culottes(max_rounds=3):
    """Robespierre (seat 0) starts, Danton is seat 1's citizen, Marat seat 2's; every player a
    grabber, so a citizen's cakes are its player's score."""
    state = tricolore.make("culottes", 3, seed=0, chance={"randint": [1] * 200},
                           first_player=0, max_rounds=max_rounds)
    for seat, name in enumerate(["Robespierre", "Danton", "Marat"]):
        state.apply(seat, {"type": "choose_role", "role": "grabber", "name": name})
    return state


def end_turn(state):
    seat = state.current
    while state.current == seat and not state.is_over():
        state.apply(seat, {"type": "pass"})


def paying_bribe():
    """Marat on trial with 6 privileged cakes on his scale; Robespierre offers Danton 8 cakes of
    reward (and 3 of cover) to vote sans-culotte there, a side that is behind: it is Danton's
    turn."""
    state = culottes()
    state.apply(0, {"type": "cake_vote", "citizen": 2, "side": "privileged", "cakes": 6})
    state.apply(0, {"type": "offer_bribe", "from": 0, "trial": 2, "voter": 1, "side": "sans_culotte",
                    "reward": 8, "cover": 3})
    end_turn(state)
    assert state.current == 1 and state.deals.get(0).status == "offered"
    return state


@pytest.mark.parametrize("seed", range(3))
def test_a_bribe_that_pays_is_accepted_by_search(seed):
    state = paying_bribe()
    agent = ISMCTSAgent(iterations=100, deals=True)
    action = decide(agent, state, 1, random.Random(seed))
    assert action == {"type": "accept_bribe", "deal": 0}
    visits = agent.last.visits
    assert set(visits) == {'{"deal":0,"type":"accept_bribe"}', '{"deal":0,"type":"decline_bribe"}'}
    assert visits['{"deal":0,"type":"accept_bribe"}'] > 2 * visits['{"deal":0,"type":"decline_bribe"}']


def test_without_deals_the_offer_is_neither_seen_nor_answered():
    state = paying_bribe()
    agent = ISMCTSAgent(iterations=30)
    action = decide(agent, state, 1, random.Random(0))
    assert action["type"] in state.legal_actions(1).kinds and not agent.trades


def play_turn(agent, state, seat, rng, limit=20):
    """Let ``agent`` play ``seat``'s decisions until its current citizen votes or passes; the
    actions it took."""
    taken = []
    citizen = state.current_citizen().id
    while len(taken) < limit:
        action = decide(agent, state, seat, rng)
        state.apply(seat, action)
        taken.append(action)
        if action["type"] in ("cake_vote", "pass", "emigrate") or state.current_citizen() is None \
                or state.current_citizen().id != citizen:
            return taken
    raise AssertionError(f"no vote or pass in {limit} decisions: {taken}")


@pytest.mark.parametrize("seed", range(3))
def test_an_accepted_bribe_is_honoured_by_its_vote(seed):
    state = paying_bribe()
    rng = random.Random(seed)
    taken = play_turn(ISMCTSAgent(iterations=60, deals=True), state, 1, rng)
    assert taken[0] == {"type": "accept_bribe", "deal": 0}
    vote = taken[-1]
    assert vote["type"] == "cake_vote" and (vote["citizen"], vote["side"]) == (2, "sans_culotte")
    # the engine's own reading: Danton voted like the briber since accepting
    rows = state.book.rows[state.accepted_at[0]:]
    assert [(r.voter, r.citizen, r.side) for r in rows] == [(1, 2, "sans_culotte")]


def test_honouring_is_a_restriction_of_its_own_choices_that_can_be_turned_off():
    state = paying_bribe()
    state.apply(1, {"type": "accept_bribe", "deal": 0})
    rules = DEAL_RULES["culottes"]
    honour = rules.honouring(state, 1)
    assert honour is not None
    assert honour.keeps({"type": "cake_vote", "citizen": 2, "side": "sans_culotte", "cakes": 5})
    assert not honour.keeps({"type": "cake_vote", "citizen": 2, "side": "privileged", "cakes": 1})
    assert not honour.keeps({"type": "cake_vote", "citizen": 0, "side": "sans_culotte", "cakes": 1})
    assert not honour.keeps({"type": "pass"}) and honour.keeps({"type": "buy_cockade"})
    assert all(state.legal_actions(1).contains(m) and honour.keeps(m) for m in honour.moves)
    assert rules.honouring(state, 0) is None  # Robespierre promised nothing
    # without honour, the search is free to break the promise: over a few decisions some
    # vote goes elsewhere or the turn is passed
    outcomes = set()
    for seed in range(6):
        trial = paying_bribe()
        trial.apply(1, {"type": "accept_bribe", "deal": 0})
        last = play_turn(ISMCTSAgent(iterations=20, deals=True, honour=False), trial, 1,
                         random.Random(seed))[-1]
        outcomes.add((last["type"], last.get("citizen"), last.get("side")))
    assert outcomes != {("cake_vote", 2, "sans_culotte")}


# -- Bread and Circuses, Regulated Bribery ------------------------------------------------------
def bread(players=3):
    state = tricolore.make("bread-and-circuses", players, seed=1,
                           options={"first_player": 0, "regulated_bribery": True, "max_rounds": 3})
    state.hands = [[] for _ in range(players)]  # no Sabotage: the deal decides
    state.changed()
    return state


@pytest.mark.parametrize("seed", range(3))
def test_bread_and_circuses_a_deal_paying_it_to_play_bread_is_accepted_and_kept(seed):
    state = bread()
    state.apply(1, {"type": "offer_deal", "to": 0, "gold": 3, "condition": "play", "tile": "bread",
                    "when": "this"})
    agent = ISMCTSAgent(iterations=80, deals=True)
    rng = random.Random(seed)
    assert decide(agent, state, 0, rng) == {"type": "accept_deal", "deal": 0}
    state.apply(0, {"type": "accept_deal", "deal": 0})
    honour = DEAL_RULES["bread-and-circuses"].honouring(state, 0)
    assert honour is not None and honour.keeps({"type": "play", "tile": "bread"})
    assert not honour.keeps({"type": "play", "tile": "circus"})
    assert not honour.keeps({"type": "disclose", "tile": "abstain", "icon": "bread"})
    others = {"negotiation": {"type": "ready"}, "play": {"type": "play", "tile": "circus"}}
    while state.round == 1 and state.phase in others:  # the round up to its reveal
        seat = min(state.pending())
        if seat == 0:
            action = decide(agent, state, 0, rng)
            assert honour.keeps(action), action
        else:
            action = others[state.phase]
        state.apply(seat, action)
    paid = [e for e in state.events_for(None) if e["kind"] == "deal_settled"]
    assert [(e["status"], e["paid"]) for e in paid] == [("paid", 3)]


@pytest.mark.parametrize("seed", range(3))
def test_bread_and_circuses_a_solicitation_making_it_pay_is_declined(seed):
    state = bread()
    state.apply(1, {"type": "solicit_deal", "to": 0, "gold": 3, "condition": "any_but", "tile": "abstain",
                    "when": "this"})
    agent = ISMCTSAgent(iterations=80, deals=True)
    assert decide(agent, state, 0, random.Random(seed)) == {"type": "decline_deal", "deal": 0}


def test_bread_and_circuses_it_proposes_deals_and_never_more_than_its_cap_in_a_row():
    state = bread()
    agent = ISMCTSAgent(iterations=40, deals=True, offers=8, deal_actions=2)
    rng = random.Random(0)
    in_a_row = most = proposed = 0
    for _ in range(40):
        if 0 not in state.pending():
            break
        action = decide(agent, state, 0, rng)
        state.apply(0, action)
        if action["type"] in DEAL_RULES["bread-and-circuses"].proposals:
            in_a_row, proposed = in_a_row + 1, proposed + 1
        else:
            in_a_row = 0
        most = max(most, in_a_row)
    assert 0 not in state.pending() or state.phase != "negotiation"
    assert proposed >= 1 and most <= 2


# -- whole games ----------------------------------------------------------------------------------
def test_a_whole_culottes_game_with_a_dealing_search_seat_makes_deals_and_ends():
    seats = ["ismcts:iterations=30,deals=true", "p-epsilon-briber", "puppet-grabber",
             "honest-revolutionary", "alliance-defender"]
    state = CULOTTES.new(5, 0)
    played = play_game(state, [make_agent(CULOTTES, s) for s in seats])
    assert state.is_over() and played.actions < 2000
    owner = {c.id: c.owner for c in state.citizens}
    bribes = [e for e in state.log if e.kind == "bribe_accepted"
              and 0 in (state.deals.get(e.data["deal"]).payer, state.deals.get(e.data["deal"]).payee)]
    joined = [e for e in state.log if e.kind == "alliance_joined" and owner[e.data["citizen"]] == 0]
    offered = [d for d in state.deals.deals if d.offered_by == 0]
    assert len(bribes) + len(joined) >= 1 and offered, "the searching seat made no deal"
    metrics = state.result().metrics
    assert metrics["alliance_members"] >= len(joined) and metrics["bribes_accepted"] >= len(bribes)


# -- parameters -----------------------------------------------------------------------------------
@pytest.mark.parametrize(("name", "iterations", "seconds", "deals"), [
    ("ismcts", 100, None, False), ("ismcts:300", 300, None, False), ("ismcts:0.5s", None, 0.5, False),
    ("ismcts:iterations=300,deals=true", 300, None, True), ("ismcts:seconds=0.25", None, 0.25, False),
])
def test_the_old_and_the_new_forms_of_the_name_are_read(name, iterations, seconds, deals):
    agent = make_agent(CULOTTES, name)
    assert isinstance(agent, ISMCTSAgent)
    assert (agent.budget.iterations, agent.budget.seconds, agent.deals, agent.trades) == (
        iterations, seconds, deals, deals)


def test_every_parameter_is_declared_with_its_default_and_written_one_way():
    values = strategy_parameters(CULOTTES, "ismcts:deals=true,offers=6")
    assert values == {"iterations": 100, "seconds": 0.0, "exploration": 0.7, "rollout_depth": 40,
                      "max_children": 16, "reward": "win", "deals": True, "offers": 6,
                      "deal_actions": 2, "honour": True}
    assert canonical_strategy(CULOTTES, "ismcts:offers=6,deals=true,iterations=100") == \
        "ismcts:deals=true,offers=6"
    agent = make_agent(CULOTTES, "ismcts:exploration=1.5,rollout_depth=10,max_children=4,reward=score,"
                                 "honour=false,deal_actions=0")
    assert (agent.exploration, agent.rollout_depth, agent.max_children, agent.reward, agent.honour,
            agent.deal_actions) == (1.5, 10, 4, "score", False, 0)


@pytest.mark.parametrize(("text", "words"), [
    ("ismcts:iterations=0", "iterations must be from 1"), ("ismcts:deals=maybe", "true or false"),
    ("ismcts:offers=-1", "offers must be from 0"), ("ismcts:reward=glory", "reward must be one of"),
    ("ismcts:speed=3", "no parameter 'speed'"), ("ismcts:seconds=61", "seconds must be from"),
    ("ismcts:", "IS-MCTS budget"),
])
def test_a_bad_parameter_is_refused_with_one_sentence(text, words):
    with pytest.raises(OptionsError, match=words) as refused:
        make_agent(CULOTTES, text)
    assert "\n" not in str(refused.value)
