import importlib
import sys
from pathlib import Path

import pytest

import tricolore
from tricolore.cli.render import GENERIC, Renderer, renderer
from tricolore.core import OptionsError, registry
from tricolore.core.registry import board_file, games, terminal_renderer


def test_games_are_registered_through_entry_points():
    names = [g.name for g in tricolore.list_games()]
    assert {"culottes", "culottes-trials"} <= set(names)


def test_unknown_game_names_the_known_ones():
    with pytest.raises(OptionsError, match="culottes"):
        tricolore.get_game("monopoly")


@pytest.mark.parametrize("kwargs, fragment", [
    ({"players": 2}, "3 to 12 players"),
    ({"players": 13}, "3 to 12 players"),
    ({"players": 4, "starting_cakes": "many"}, "starting_cakes must be a whole number"),
    ({"players": 4, "closing_faces": [7]}, "closing_faces"),
    ({"players": 4, "no_such_option": 1}, "unknown option 'no_such_option'"),
    ({"players": 4, "first_player": 4}, "first_player"),
    ({"players": 4, "citizen_sheets_per_player": 1}, "from 2 to 10"),
])
def test_bad_options_are_refused_with_a_sentence(kwargs, fragment):
    players = kwargs.pop("players")
    with pytest.raises(OptionsError, match=fragment):
        tricolore.make("culottes", players, seed=0, **kwargs)


def test_every_game_board_is_the_board_js_beside_its_rules():
    for name in games():
        path = board_file(name)
        assert path is not None, name
        assert path.name == "board.js"
        assert (path.parent / "__init__.py").is_file()
        assert f'registerBoard("{name}"' in path.read_text(encoding="utf-8")


def test_the_board_of_an_unknown_game_is_refused_with_the_registry_sentence():
    with pytest.raises(OptionsError, match="there is no game called 'chess'"):
        board_file("chess")


def test_a_game_without_a_board_file_has_none(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setitem(registry._MODULES, "culottes", "tricolore.core.model")
    assert board_file("culottes") is None


def test_every_game_terminal_renderer_is_the_terminal_py_in_its_own_package():
    for name in games():
        found = terminal_renderer(name)
        assert isinstance(found, Renderer), name
        module = sys.modules[found.table.__module__]
        assert module.__name__ == f"{registry._MODULES[name]}.terminal"
        assert module.RENDERER is found
        assert renderer(name) is found


def test_the_terminal_renderer_of_an_unknown_game_is_refused_with_the_registry_sentence():
    with pytest.raises(OptionsError, match="there is no game called 'chess'"):
        terminal_renderer("chess")


def test_a_game_without_a_terminal_py_gets_the_generic_renderer(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setitem(registry._MODULES, "culottes", "tricolore.agents")  # a package, no terminal.py
    assert terminal_renderer("culottes") is None
    assert renderer("culottes") is GENERIC
    monkeypatch.setitem(registry._MODULES, "culottes", "tricolore.core.model")  # a plain module
    assert terminal_renderer("culottes") is None
    assert renderer("culottes") is GENERIC


@pytest.mark.parametrize("source", ["RENDER = None\n", "raise RuntimeError('no rich here')\n"])
def test_a_terminal_py_that_fails_to_load_is_refused_with_a_sentence(
        source: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    package = tmp_path / "broken_terminal_game"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "terminal.py").write_text(source, encoding="utf-8")
    monkeypatch.syspath_prepend(tmp_path)
    importlib.import_module("broken_terminal_game")
    monkeypatch.setitem(registry._MODULES, "culottes", "broken_terminal_game")
    try:
        with pytest.raises(OptionsError, match="terminal renderer of the game 'culottes' failed to load"):
            terminal_renderer("culottes")
    finally:
        for name in ("broken_terminal_game", "broken_terminal_game.terminal"):
            sys.modules.pop(name, None)


def test_each_games_companions_are_the_modules_beside_its_rules():
    declared = {name: registry.companions(name) for name in games()}
    assert {n for n, c in declared.items() if c.layout is not None} == set(games())
    assert {n for n, c in declared.items() if c.study is not None} == set(games())
    assert {n for n, c in declared.items() if c.commands is not None} == {"culottes"}
    assert {n for n, c in declared.items() if c.batch is not None} == {"revolution"}
    for name, found in declared.items():
        package = registry._MODULES[name]
        assert found.package == package
        assert sys.modules[found.layout.__module__].__name__ == f"{package}.layout"
        assert found.board_file == board_file(name)
        assert found.terminal_renderer is terminal_renderer(name)
    assert declared["culottes"].commands.info.name == "book"
    assert "printer-first" in declared["revolution"].batch.strategies


def test_the_companions_of_an_unknown_game_are_refused_with_the_registry_sentence():
    with pytest.raises(OptionsError, match="there is no game called 'chess'"):
        registry.companions("chess")


def test_a_game_without_companions_has_none(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setitem(registry._MODULES, "culottes", "tricolore.agents")  # a package, no companions
    found = registry.companions("culottes")
    assert (found.layout, found.commands, found.batch, found.study) == (None, None, None, None)


@pytest.mark.parametrize("source", ["LAYOUTS = None\n", "raise RuntimeError('no numpy here')\n"])
def test_a_layout_py_that_fails_to_load_is_refused_with_a_sentence(
        source: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    package = tmp_path / "broken_layout_game"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "layout.py").write_text(source, encoding="utf-8")
    monkeypatch.syspath_prepend(tmp_path)
    importlib.import_module("broken_layout_game")
    monkeypatch.setitem(registry._MODULES, "culottes", "broken_layout_game")
    try:
        with pytest.raises(OptionsError, match="action layout of the game 'culottes' failed to load"):
            _ = registry.companions("culottes").layout
    finally:
        for name in ("broken_layout_game", "broken_layout_game.layout"):
            sys.modules.pop(name, None)
