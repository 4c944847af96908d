"""``tricolore games`` lists every strategy's parameters."""

from typer.testing import CliRunner

from tricolore.agents import strategy_class
from tricolore.cli.main import app
from tricolore.core.registry import get_game, list_games


def test_games_lists_each_strategy_s_parameters_with_default_range_and_meaning():
    result = CliRunner().invoke(app, ["games"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert "    seize_at=10  (1 to 14)  the smallest Cake it spends two Generals to seize" in lines
    assert any(line.startswith("    bluffs=true  (true or false)  ") for line in lines)
    for info in list_games():
        game = get_game(info.name)
        for name in game.strategies:
            for key, parameter in getattr(strategy_class(game, name), "parameters", {}).items():
                assert any(line.strip().startswith(f"{key}=") and parameter.doc in line for line in lines), (
                    name, key)
