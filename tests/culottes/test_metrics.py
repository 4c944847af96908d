"""The figures a Culottes game reports beside its scores."""

from tricolore.agents import make_agent
from tricolore.core.registry import get_game, make
from tricolore.sim.runner import play_game


def test_verdicts_true_counts_verdicts_equal_to_the_true_nature() -> None:
    game = get_game("culottes")
    for seed in (3, 4, 5):
        state = make("culottes", 5, seed=seed)
        state.record_events = True
        lineup = ["honest-revolutionary", "puppet-grabber", "honest-revolutionary", "random",
                  "puppet-grabber"]
        play_game(state, [make_agent(game, name) for name in lineup])
        events = [e.as_dict() for e in state.log]
        over = next(e for e in events if e["kind"] == "game_over")
        closed = [e for e in events if e["kind"] == "trial_closed" and e["verdict"]]
        true = sum(e["verdict"] == over["natures"][e["citizen"]] for e in closed)
        metrics = state.result().metrics
        assert metrics["trials_closed"] == len(closed) > 0
        assert metrics["verdicts_true"] == true
        assert true <= len(closed)
