"""A game its strategies never end is one sentence on the command line, not a traceback."""

from typer.testing import CliRunner

from tricolore.cli.main import app
from tricolore.sim import batch, runner


def test_a_game_that_does_not_end_is_named_in_a_sentence(monkeypatch):
    def endless(state, agents, **kwargs):
        return runner.play_game(state, agents, max_actions=5, **kwargs)

    monkeypatch.setattr(batch, "play_game", endless)
    result = CliRunner().invoke(app, ["simulate", "let-them-eat-cake", "--players", "3", "--games", "2",
                                      "--workers", "1", "--json"])
    assert result.exit_code == 1
    assert "did not end in 5 actions" in result.output
    assert "max_rounds" in result.output
    assert "Traceback" not in result.output
