"""Culottes strategies as families: declared parameters, and each strategy's decisions on
scripted positions (the die is scripted to roll 1s, so no trial closes unless a test says so)."""

from __future__ import annotations

import random
from typing import Any, cast

import pytest

import tricolore
from tricolore.agents import canonical_strategy, decide, make_agent, strategy_parameters
from tricolore.core.errors import OptionsError
from tricolore.games.culottes import bots
from tricolore.games.culottes.bots import STRATEGIES
from tricolore.games.culottes.rules import CulottesState
from tricolore.sim.runner import play_game

GAME = tricolore.get_game("culottes")
SC, PR = "sans_culotte", "privileged"


def ask(state: CulottesState, strategy: str, seat: int | None = None) -> dict[str, Any]:
    """What ``strategy`` does for the seat asked now (or ``seat``), from all it may do."""
    seat = state.current if seat is None else seat
    return decide(make_agent(GAME, strategy), state, seat, random.Random(0))


def vote(citizen: int, side: str, cakes: int) -> dict[str, Any]:
    return {"type": "cake_vote", "citizen": citizen, "side": side, "cakes": cakes}


def play_turn(state: CulottesState, strategy: str) -> list[dict[str, Any]]:
    """Let ``strategy`` play the current seat's whole turn; the actions it took."""
    agent, seat, taken = make_agent(GAME, strategy), state.current, []
    while state.current == seat and not state.is_over():
        action = decide(agent, state, seat, random.Random(0))
        state.apply(seat, action)
        taken.append(action)
    return taken


# -- parameters ----------------------------------------------------------------------------------
def test_every_strategy_takes_exactly_the_parameters_it_declares_with_their_defaults(init_keywords):
    for name, cls in STRATEGIES.items():
        taken = init_keywords(cls)
        declared = {k: p.default for k, p in cls.parameters.items()}
        assert taken == declared, name
        for key, p in cls.parameters.items():
            assert p.convert(key, str(p.default).lower()) == p.default, (name, key)


def test_the_module_docstring_gives_every_strategy_each_parameter_with_its_default_and_range(module_doc):
    doc = module_doc(bots)
    for name, cls in STRATEGIES.items():
        section = " ".join(doc.split(f"\n``{name}``\n", 1)[1].split("\n``", 1)[0].split())
        for key, p in cls.parameters.items():
            if isinstance(p.default, str):
                assert f"``{key}`` ``{p.default}``" in section, (name, key)
                assert all(f"``{choice}``" in section for choice in p.choices), (name, key)
            else:
                default = str(p.default).lower() if isinstance(p.default, bool) else p.default
                assert f"``{key}`` {default} ({p.describe()})" in section, (name, key)


def test_p_epsilon_briber_reward_2_is_built_checked_and_written_one_way():
    agent = make_agent(GAME, "p-epsilon-briber:reward=2")
    assert (agent.reward, agent.cover, agent.targets) == (2, 3, 2)
    assert canonical_strategy(GAME, "p-epsilon-briber:targets=2,reward=2") == "p-epsilon-briber:reward=2"
    assert strategy_parameters(GAME, "p-epsilon-briber:reward=2") == {
        "patience": 8, "puppets": 3, "reward": 2, "cover": 3, "targets": 2, "reserve": 6}


@pytest.mark.parametrize("strategy", ["honest-revolutionary:patience=0", "puppet-grabber:puppets=11",
                                      "cockade-grabber:when=never", "by-nature:privileged=king",
                                      "weighing-voter:cockade_weight=-1", "truth-briber:bribe=2"])
def test_a_parameter_out_of_range_or_unknown_is_refused_in_one_sentence(strategy):
    with pytest.raises(OptionsError, match="parameter"):
        make_agent(GAME, strategy)


def test_patience_sets_how_many_rounds_a_table_of_revolutionaries_plays():
    for patience in (1, 4, 12):
        seats = [make_agent(GAME, f"honest-revolutionary:patience={patience}") for _ in range(3)]
        state = play_game(GAME.new(3, 5), seats).state
        assert state.rounds_completed == patience + 1  # they agree, then each plays one last turn


def test_every_strategy_finishes_games_at_3_5_and_8_players():
    names = list(STRATEGIES)
    for players in (3, 5, 8):
        for seed in range(3):
            seats = [names[(seed * players + i) % len(names)] for i in range(players)]
            state = play_game(GAME.new(players, seed), [make_agent(GAME, s) for s in seats]).state
            assert state.is_over() and state.escrow.held() == 0


# -- cockade-grabber -----------------------------------------------------------------------------
def test_cockade_grabber_buys_a_cockade_for_a_privileged_citizen_and_revolutionaries_trust_it(start):
    state = start(3, ["grabber", "revolutionary", "revolutionary"], natures=[PR, SC, PR])
    assert ask(state, "puppet-grabber") == vote(0, SC, 2)  # no cockade for a privileged
    assert ask(state, "cockade-grabber") == {"type": "buy_cockade"}
    play_turn(state, "cockade-grabber:puppets=0")
    assert state.citizens[0].cockades == 1
    state.apply(1, vote(0, PR, 3))
    while state.current == 1:
        state.apply(1, {"type": "pass"})
    assert ask(state, "honest-revolutionary") == vote(0, SC, 3)


def test_cockade_grabber_buys_one_a_turn_until_it_wears_cockades(start, finish_turn):
    state = start(3, ["grabber", "revolutionary", "revolutionary"], natures=[PR, SC, SC])
    bought = []
    for _ in range(4):
        taken = play_turn(state, "cockade-grabber:puppets=0,cockades=2")
        bought.append(sum(a["type"] == "buy_cockade" for a in taken))
        finish_turn(state)
        finish_turn(state)
    assert bought == [1, 1, 0, 0]
    assert state.citizens[0].cockades == 2


def test_cockade_grabber_when_challenged_buys_only_once_privileged_cakes_are_on_its_scale(start, finish_turn):
    state = start(3, ["grabber", "revolutionary", "revolutionary"], natures=[PR, SC, SC])
    taken = play_turn(state, "cockade-grabber:puppets=0,when=challenged")
    assert {"type": "buy_cockade"} not in taken and vote(0, SC, 2) in taken
    state.apply(1, vote(0, PR, 1))
    finish_turn(state)
    finish_turn(state)
    assert ask(state, "cockade-grabber:when=challenged") == {"type": "buy_cockade"}


def test_cockade_grabber_with_no_cockades_buys_none_even_for_a_true_sans_culotte(start):
    state = start(3, ["grabber", "revolutionary", "revolutionary"], natures=[SC, SC, SC])
    assert ask(state, "puppet-grabber") == {"type": "buy_cockade"}
    assert ask(state, "cockade-grabber:cockades=0") == vote(0, SC, 2)


# -- truth-briber --------------------------------------------------------------------------------
def briber_table(start, players: int = 4) -> CulottesState:
    """Seat 0, a privileged grabber without a cockade, puts its citizen on trial with 2
    sans-culotte cakes; seat 1 (a privileged revolutionary: nothing to push for itself) is to
    play."""
    state = start(players, ["grabber"] + ["revolutionary"] * (players - 1), natures=[PR] * players)
    state.apply(0, vote(0, SC, 2))
    while state.current == 0:
        state.apply(0, {"type": "pass"})
    return state


def test_truth_briber_bribes_the_richest_other_voters_to_vote_what_it_believes(start):
    state = briber_table(start)
    state.citizens[3].cakes = 25
    offers = []
    while (action := ask(state, "truth-briber"))["type"] == "offer_bribe":
        offers.append(action)
        state.apply(1, action)
    assert [(a["from"], a["trial"], a["voter"], a["side"], a["reward"], a["cover"]) for a in offers] == [
        (1, 0, 3, PR, 1, 3), (1, 0, 2, PR, 1, 3)]
    assert action == vote(0, PR, 3)  # then votes what it believes, as the honest revolutionary
    assert state.escrow.held() == 8


def test_truth_briber_respects_targets_reward_and_cover(start):
    state = briber_table(start)
    action = ask(state, "truth-briber:targets=1,reward=2,cover=5")
    assert (action["type"], action["reward"], action["cover"]) == ("offer_bribe", 2, 5)
    state.apply(1, action)
    assert ask(state, "truth-briber:targets=1,reward=2,cover=5") == vote(0, PR, 3)


def test_truth_briber_pays_a_deposit_only_from_a_citizen_that_keeps_its_reserve(start):
    state = briber_table(start)
    state.citizens[1].cakes = 9
    assert ask(state, "truth-briber") == vote(0, PR, 3)  # 1 + 3 + 6 = 10 cakes needed
    state.citizens[1].cakes = 10
    assert ask(state, "truth-briber")["type"] == "offer_bribe"


def test_truth_briber_does_not_bribe_where_its_side_leads_nor_in_its_own_citizens_trial(start):
    state = briber_table(start)
    state.citizens[0].cockades = 1  # now believed a sans-culotte, and that side leads
    assert ask(state, "truth-briber") == {"type": "pass"}
    state.apply(1, vote(1, PR, 3))  # its own citizen on trial, the privileged side ahead
    assert ask(state, "truth-briber") == {"type": "pass"}


# -- by-nature -----------------------------------------------------------------------------------
def before_roles(nature: str) -> CulottesState:
    state = cast(CulottesState, tricolore.make("culottes", 3, seed=0, first_player=0,
                                               chance={"randint": [1] * 500}))
    state.sheets[state.citizens[state.holdings[0][0]].sheet] = nature
    return state


@pytest.mark.parametrize(("strategy", "nature", "role"), [
    ("by-nature", SC, "revolutionary"), ("by-nature", PR, "grabber"),
    ("by-nature:sans_culotte=grabber", SC, "grabber"),
    ("by-nature:privileged=revolutionary", PR, "revolutionary"),
])
def test_by_nature_picks_its_role_by_the_nature_of_its_first_citizen(strategy, nature, role):
    state = before_roles(nature)
    assert state.view(0)["you"]["citizens"]["0"]["nature"] == nature  # what it sees at the choice
    assert ask(state, strategy, seat=0) == {"type": "choose_role", "role": role}


def test_by_nature_plays_the_strategy_its_role_names(start):
    grabber = start(3, ["grabber", "revolutionary", "revolutionary"], natures=[PR, SC, SC])
    assert ask(grabber, "by-nature") == ask(grabber, "puppet-grabber") == vote(0, SC, 2)
    assert ask(grabber, "by-nature:as_grabber=cockade-grabber") == {"type": "buy_cockade"}
    revolutionary = start(3, ["revolutionary"] * 3, natures=[SC, SC, SC])
    assert ask(revolutionary, "by-nature") == ask(revolutionary, "honest-revolutionary")
    assert ask(revolutionary, "by-nature") == {"type": "buy_cockade"}
    agent = make_agent(GAME, "by-nature:patience=2")
    assert agent.playing(revolutionary.view(0)).patience == 2
    assert make_agent(GAME, "by-nature").playing(grabber.view(0)).patience == 8


# -- alliance-defector ---------------------------------------------------------------------------
def bribed_table(start, opening: int) -> CulottesState:
    """Seat 0 (a grabber) opens its citizen's trial with ``opening`` sans-culotte cakes and
    offers seat 2's citizen a bribe to vote sans-culotte; seat 1 (a privileged revolutionary) is
    to play."""
    state = start(3, ["grabber", "revolutionary", "revolutionary"], natures=[PR, PR, PR])
    state.apply(0, vote(0, SC, opening))
    state.apply(0, {"type": "offer_bribe", "from": 0, "trial": 0, "voter": 2, "side": SC, "reward": 1,
                    "cover": 3})
    while state.current == 0:
        state.apply(0, {"type": "pass"})
    return state


def test_alliance_defector_founds_an_alliance_against_a_bribe_but_not_on_a_lost_side(start):
    state = bribed_table(start, opening=2)
    assert ask(state, "alliance-defector") == {"type": "found_alliance", "trial": 0, "side": PR, "from": 1}
    lost = bribed_table(start, opening=5)
    assert ask(lost, "alliance-defender")["type"] == "found_alliance"
    assert ask(lost, "alliance-defector") == vote(0, PR, 3)  # the honest vote, with no alliance
    assert ask(lost, "alliance-defector:threshold=6")["type"] == "found_alliance"


def test_alliance_defector_votes_the_winning_side_once_it_leads_by_the_threshold(start, finish_turn):
    state = bribed_table(start, opening=2)
    state.apply(1, {"type": "found_alliance", "trial": 0, "side": PR, "from": 1})
    assert ask(state, "alliance-defector") == vote(0, PR, 3)  # behind by 2: loyal
    finish_turn(state)
    state.apply(2, vote(0, SC, 3))  # now behind by 5
    finish_turn(state)
    finish_turn(state)
    assert ask(state, "alliance-defender") == vote(0, PR, 3)
    assert ask(state, "alliance-defector") == vote(0, SC, 3)
    assert ask(state, "alliance-defector:threshold=6") == vote(0, PR, 3)


def test_alliance_defector_takes_a_bribe_that_pays_more_than_its_deposit(start):
    state = bribed_table(start, opening=2)
    state.apply(1, {"type": "found_alliance", "trial": 0, "side": PR, "from": 1})
    for reward in (1, 2):
        state.apply(0, {"type": "offer_bribe", "from": 0, "trial": 0, "voter": 1, "side": SC,
                        "reward": reward, "cover": 3})
    assert ask(state, "alliance-defender", seat=1) == {"type": "decline_bribe", "deal": 1}
    assert ask(state, "alliance-defector", seat=1) == {"type": "decline_bribe", "deal": 1}
    state.apply(1, {"type": "decline_bribe", "deal": 1})
    assert ask(state, "alliance-defector", seat=1) == {"type": "accept_bribe", "deal": 2}
    state.apply(1, {"type": "accept_bribe", "deal": 2})
    assert ask(state, "alliance-defector", seat=1) == vote(0, SC, 3)  # the bribe's side, covered


def test_alliance_defector_as_a_grabber_pushes_its_own_privileged_citizen_to_a_cap(start):
    roles = tricolore.make("culottes", 3, seed=0, first_player=0)
    assert ask(roles, "alliance-defector:role=grabber", seat=0) == {"type": "choose_role", "role": "grabber"}
    state = start(3, ["grabber", "revolutionary", "revolutionary"], natures=[PR, SC, SC])
    assert ask(state, "alliance-defector:role=grabber") == vote(0, SC, 3)
    assert ask(state, "alliance-defector") == {"type": "pass"}  # a revolutionary tells the truth


# -- weighing-voter ------------------------------------------------------------------------------
def weighed_table(start, owner_cakes: int, other_cakes: int, cockades: int) -> CulottesState:
    """Citizen 0 (seat 0's) wears ``cockades``; its owner votes ``owner_cakes`` sans-culotte on
    it and seat 2 ``other_cakes`` privileged; seat 1 (a privileged revolutionary) is to play."""
    state = start(3, ["grabber", "revolutionary", "revolutionary"], natures=[PR, PR, PR])
    state.citizens[0].cockades = cockades
    if owner_cakes:
        state.apply(0, vote(0, SC, owner_cakes))
    while state.current == 0:
        state.apply(0, {"type": "pass"})
    while state.current == 1:
        state.apply(1, {"type": "pass"})
    state.apply(2, vote(0, PR, other_cakes))
    while state.current == 2:
        state.apply(2, {"type": "pass"})
    while state.current == 0:
        state.apply(0, {"type": "pass"})
    return state


def test_weighing_voter_weighs_the_owners_own_votes(start):
    state = weighed_table(start, owner_cakes=2, other_cakes=2, cockades=0)  # level scales
    assert ask(state, "honest-revolutionary") == vote(0, PR, 3)
    assert ask(state, "weighing-voter") == vote(0, PR, 3)  # -1 + 0 - 1 < 0
    assert ask(state, "weighing-voter:owner_weight=2") == vote(0, SC, 3)  # -1 + 0 + 2 > 0


def test_weighing_voter_distrusts_an_owner_who_promotes_a_citizen_wearing_a_cockade(start):
    state = weighed_table(start, owner_cakes=2, other_cakes=4, cockades=1)
    assert ask(state, "honest-revolutionary") == vote(0, SC, 3)  # it trusts the cockade
    # 1 (a cockade) + 0.5 * (2 - 4) / 6 (the scales) - 1 * 1 (every owner's cake is sans-culotte) < 0:
    # it believes the privileged, who already lead, so it does not vote
    assert ask(state, "weighing-voter") == {"type": "pass"}


def test_weighing_voter_weighs_the_scales_of_the_trial(start):
    state = weighed_table(start, owner_cakes=0, other_cakes=4, cockades=1)  # all privileged
    assert ask(state, "honest-revolutionary") == vote(0, SC, 3)
    assert ask(state, "weighing-voter") == vote(0, SC, 3)  # 1 - 0.5 > 0
    assert ask(state, "weighing-voter:scales_weight=2") == {"type": "pass"}  # 1 - 2 < 0: privileged leads


def test_weighing_voter_counts_every_cockade(start):
    state = weighed_table(start, owner_cakes=0, other_cakes=4, cockades=2)
    assert ask(state, "weighing-voter:scales_weight=1.5") == vote(0, SC, 3)  # 2 - 1.5 > 0
    state.citizens[0].cockades = 1
    assert ask(state, "weighing-voter:scales_weight=1.5") == {"type": "pass"}  # 1 - 1.5 < 0


def test_weighing_voter_with_only_the_cockade_weight_plays_the_honest_revolutionarys_game():
    for seed in range(3):
        digests = []
        for voter in ("honest-revolutionary", "weighing-voter:scales_weight=0,owner_weight=0"):
            seats = [voter, "puppet-grabber", voter, "cockade-grabber"]
            digests.append(play_game(GAME.new(4, seed), [make_agent(GAME, s) for s in seats]).state.digest())
        assert digests[0] == digests[1]


def _digests(lineup: list[str], seed: int) -> list[str]:
    from tricolore.agents import make_agent
    from tricolore.core.registry import get_game, make
    from tricolore.sim.runner import play_game

    game = get_game("culottes")
    state = make("culottes", 5, seed=seed)
    played = play_game(state, [make_agent(game, s) for s in lineup], keep_digests=True)
    return list(played.record.digests or [])


def test_alliance_defender_without_its_two_defences_plays_as_the_honest_revolutionary() -> None:
    ablated = "alliance-defender:alliances=false,refuse_bribes=false"
    for seed in (1, 2):
        assert (_digests(["p-epsilon-briber", *[ablated] * 4], seed)
                == _digests(["p-epsilon-briber", *["honest-revolutionary"] * 4], seed))


def test_alliance_defender_ablations_each_change_play() -> None:
    full = _digests(["p-epsilon-briber", *["alliance-defender"] * 4], 1)
    for ablated in ("alliance-defender:alliances=false", "alliance-defender:refuse_bribes=false"):
        assert _digests(["p-epsilon-briber", *[ablated] * 4], 1) != full
