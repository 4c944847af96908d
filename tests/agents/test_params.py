"""Strategy parameters: written ``name:key=value,...``, checked against what each strategy declares,
written one way, and really used in play."""

from __future__ import annotations

import importlib
import json
import re
from pathlib import Path

import pytest

from tricolore.agents import canonical_strategy, make_agent, strategy_class, strategy_parameters
from tricolore.agents.params import Parameter, canonical, parse
from tricolore.core.errors import OptionsError
from tricolore.core.registry import get_game
from tricolore.sim.runner import play_game

GAMES = ("culottes-trials", "let-them-eat-cake", "revolution", "bread-and-circuses")
MODULES = {"culottes-trials": "culottes_trials", "let-them-eat-cake": "let_them_eat_cake",
           "revolution": "revolution", "bread-and-circuses": "bread_and_circuses"}
NAMED = [(game, name) for game in GAMES for name in get_game(game).strategies]


def one_sentence(message: str) -> bool:
    return "\n" not in message and "Traceback" not in message and len(message) < 300


# -- parsing and converting ---------------------------------------------------------------------
def test_a_strategy_is_parsed_into_its_name_and_its_parameters():
    assert parse("kingmaker:seize_at=12, donate_up_to=6") == (
        "kingmaker", {"seize_at": "12", "donate_up_to": "6"})
    assert parse("kingmaker") == ("kingmaker", {})
    assert parse("ismcts:300") == ("ismcts:300", {})  # a budget, not parameters


@pytest.mark.parametrize("text, words", [
    ("kingmaker:seize_at=12,donate_up_to", "key=value"),
    ("kingmaker:=3", "key=value"),
    ("kingmaker:seize_at=12,seize_at=13", "given twice"),
])
def test_badly_written_parameters_are_refused_with_a_sentence(text, words):
    with pytest.raises(OptionsError, match=words) as refused:
        parse(text)
    assert one_sentence(str(refused.value))


def test_each_kind_of_parameter_converts_its_text_and_refuses_the_wrong_kind():
    assert Parameter(2, 0, 10).convert("n", "7") == 7
    assert Parameter(0.5, 0, 1).convert("x", "0.25") == 0.25
    assert Parameter(True).convert("b", "false") is False
    assert Parameter("a", choices=("a", "b")).convert("c", "b") == "b"
    for parameter, text, words in [(Parameter(2, 0, 10), "2.5", "whole number"),
                                   (Parameter(0.5, 0, 1), "half", "a number"),
                                   (Parameter(0.5, 0, 1), "nan", "finite"),
                                   (Parameter(True), "maybe", "true or false"),
                                   (Parameter("a", choices=("a", "b")), "c", "one of a, b")]:
        with pytest.raises(OptionsError, match=words):
            parameter.convert("k", text)


# -- make_agent ------------------------------------------------------------------------------------
def test_make_agent_builds_the_strategy_with_its_parameters():
    game = get_game("let-them-eat-cake")
    agent = make_agent(game, "kingmaker:seize_at=12,medal_worth=4")
    assert agent.seize_at == 12
    assert agent.weights == {"medals": 4, "generals": 2, "cake_cards": 3}
    assert make_agent(game, "kingmaker").seize_at == 10


@pytest.mark.parametrize("text, words", [
    ("kingmaker:seize_at=15", "the parameter seize_at must be from 1 to 14; you gave 15"),
    ("honest-revolutionary:threshold=1.5", "the parameter threshold must be from 0 to 1"),
    ("free-rider:sells_at=0", "the parameter sells_at must be from 1 to 20"),
    ("bluffing-grabber:bluffs=often", "the parameter bluffs must be true or false"),
])
def test_a_value_out_of_range_is_refused_with_a_sentence(text, words):
    game = next(get_game(g) for g in GAMES if parse(text)[0] in get_game(g).strategies)
    with pytest.raises(OptionsError, match=words) as refused:
        make_agent(game, text)
    assert one_sentence(str(refused.value))


def test_an_unknown_parameter_is_refused_naming_the_parameters_there_are():
    with pytest.raises(OptionsError) as refused:
        make_agent(get_game("let-them-eat-cake"), "cake-hoarder:greed=3")
    message = str(refused.value)
    assert "no parameter 'greed'" in message and "reserve, watched" in message
    assert one_sentence(message)
    with pytest.raises(OptionsError, match="its parameters are: none"):
        make_agent(get_game("revolution"), "random:greed=3")


# -- one way to write a strategy ---------------------------------------------------------------------
def test_the_canonical_form_sorts_the_keys_and_drops_the_defaults():
    game = get_game("let-them-eat-cake")
    assert canonical_strategy(game, "kingmaker:short_of_medals=2,donate_up_to=6,seize_at=10") == (
        "kingmaker:donate_up_to=6,short_of_medals=2")
    assert canonical_strategy(game, "kingmaker:seize_at=10") == "kingmaker"
    assert canonical_strategy(game, "kingmaker") == "kingmaker"
    trials = get_game("culottes-trials")
    assert canonical_strategy(trials, "honest-revolutionary:threshold=0.50") == "honest-revolutionary"
    assert canonical_strategy(trials, "bluffing-grabber:bluffs=no") == "bluffing-grabber:bluffs=false"
    assert canonical("a", {"y": 2, "x": 1.5}) == "a:x=1.5,y=2"


def test_the_canonical_form_is_checked_as_make_agent_checks():
    with pytest.raises(OptionsError, match="from 0 to 20"):
        canonical_strategy(get_game("bread-and-circuses"), "honest-discloser:offers=21")


def test_strategy_parameters_gives_every_value_defaults_included():
    game = get_game("revolution")
    assert strategy_parameters(game, "area-control:reach=3") == {
        "shake": 0.5, "reach": 3, "card_worth": 2.0}
    assert strategy_parameters(game, "printer-first") == {
        "shake": 0.5, "card_worth": 2.5, "power_bonus": 1.0}
    assert strategy_parameters(game, "random") == {}


# -- every strategy declares what its constructor takes ------------------------------------------------
@pytest.mark.parametrize("game, name", NAMED)
def test_every_strategy_takes_exactly_its_declared_parameters_with_their_defaults(game, name, init_keywords):
    cls = strategy_class(get_game(game), name)
    declared = cls.parameters
    assert declared, f"{name} declares no parameters"
    assert init_keywords(cls) == {k: p.default for k, p in declared.items()}
    for key, parameter in declared.items():
        assert parameter.doc, key
        assert parameter.convert(key, json.dumps(parameter.default).strip('"')) == parameter.default


@pytest.mark.parametrize("game", GAMES)
def test_the_module_docstring_lists_every_parameter(game, module_doc):
    doc = module_doc(importlib.import_module(f"tricolore.games.{MODULES[game]}.bots"))
    for name, cls in get_game(game).strategies.items():
        for key in cls.parameters:
            assert f"``{key}``" in doc, (name, key)


# -- a parameter changes play ------------------------------------------------------------------------
def record_of(game: str, players: int, seed: int, strategy: str, opponent: str) -> list:
    """The actions of a game where ``strategy`` holds the even seats and ``opponent`` the odd ones."""
    definition = get_game(game)
    agents = [make_agent(definition, strategy if s % 2 == 0 else opponent) for s in range(players)]
    options = {"regulated_bribery": True} if game == "bread-and-circuses" else {}
    return play_game(definition.new(players, seed, options), agents).record.actions


@pytest.mark.parametrize("game, players, changed, opponent", [
    ("culottes-trials", 4, "honest-revolutionary:threshold=0.9", "random"),
    ("culottes-trials", 4, "skeptic:doubt=0.5", "bluffing-grabber"),
    ("let-them-eat-cake", 5, "cake-hoarder:reserve=3", "kingmaker"),
    ("let-them-eat-cake", 4, "kingmaker:cake_card_worth=0,general_worth=0,medal_worth=0", "random"),
    ("revolution", 3, "printer-first:card_worth=20", "random"),
    ("revolution", 3, "area-control:reach=5", "printer-first"),
    ("bread-and-circuses", 4, "free-rider:trust=0", "honest-discloser"),
    ("bread-and-circuses", 4, "honest-discloser:offers=0", "free-rider"),
])
def test_two_values_of_a_parameter_give_different_games_for_the_same_seed(game, players, changed,
                                                                           opponent):
    strategy = parse(changed)[0]
    differ = 0
    for seed in range(3):
        default = record_of(game, players, seed, strategy, opponent)
        assert record_of(game, players, seed, strategy, opponent) == default  # the same game again
        differ += record_of(game, players, seed, changed, opponent) != default
    assert differ >= 1


# -- the documentation ---------------------------------------------------------------------------------
DOC = Path(__file__).resolve().parents[2] / "docs" / "agents.md"


def doc_section() -> str:
    return DOC.read_text().split("\n## Strategies and their parameters\n", 1)[1].split("\n## ", 1)[0]


def test_the_example_of_the_documentation_runs(capsys):
    for code in re.findall(r"```python\n(.*?)```", doc_section(), re.S):
        exec(compile(code, "docs/agents.md (Strategies and their parameters)", "exec"), {})
    assert "seize_at must be from 1 to 14" in capsys.readouterr().out


def test_the_documentation_lists_every_parameter_with_its_default_and_range():
    rows: dict[tuple[str, str, str], tuple[str, str]] = {}
    game = strategies = ""
    for line in doc_section().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 6 or not cells[2].startswith("`"):
            continue
        game = cells[0] or game
        strategies = cells[1] or strategies
        for name in re.findall(r"`([^`]+)`", strategies):
            rows[game, name, cells[2].strip("`")] = (cells[3], cells[4])
    for name in GAMES:
        for strategy, cls in get_game(name).strategies.items():
            for key, parameter in cls.parameters.items():
                default = json.dumps(parameter.default)
                shown = default[:-2] if default.endswith(".0") else default
                assert rows.get((name, strategy, key)) == (shown, parameter.describe()), (name, strategy, key)


def test_a_list_of_strategies_keeps_each_strategys_parameters_together():
    from tricolore.agents.params import split

    text = "kingmaker:seize_at=12,short_of_medals=2,random,ismcts:300,ismcts:iterations=5,deals=true"
    assert split(text) == ["kingmaker:seize_at=12,short_of_medals=2", "random", "ismcts:300",
                           "ismcts:iterations=5,deals=true"]
    assert split("a,b") == ["a", "b"]


def test_simulate_seats_a_strategy_with_several_parameters(tmp_path):
    import json

    from typer.testing import CliRunner

    from tricolore.cli.main import app

    result = CliRunner().invoke(app, [
        "simulate", "let-them-eat-cake", "--players", "3", "--games", "3", "--workers", "1", "--json",
        "--seats", "kingmaker:seize_at=12,short_of_medals=2,random,cake-hoarder"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["seats"][0] == "kingmaker:seize_at=12,short_of_medals=2"


def test_simulate_writes_each_strategy_the_one_way(tmp_path):
    import json

    from typer.testing import CliRunner

    from tricolore.cli.main import app

    runner = CliRunner()
    result = runner.invoke(app, [
        "simulate", "culottes", "--players", "3", "--games", "3", "--workers", "1", "--json",
        "--seats", "p-epsilon-briber:reward=2,cover=4,honest-revolutionary:patience=6,random"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["seats"] == ["p-epsilon-briber:cover=4,reward=2", "honest-revolutionary",
                                                  "random"]
    same = "honest-revolutionary,honest-revolutionary:patience=6,random"
    twice = runner.invoke(app, ["tournament", "culottes", "--games", "3", "--players", "3",
                                "--strategies", same])
    assert twice.exit_code == 1 and "twice" in twice.output
