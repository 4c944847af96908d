"""Layers point down: the core and the games import nothing from the layers built on them."""

import ast
from pathlib import Path

import pytest

import tricolore

PACKAGE = Path(tricolore.__file__).parent
ABOVE = ("tricolore.cli", "tricolore.server", "tricolore.sim", "tricolore.interop")
"""The layers built on the games: the command line, the server, simulations and the adapters."""


def imported(source: str, package: str) -> set[str]:
    """Every module (and imported name) a source imports, at module level or inside a function,
    relative imports resolved against ``package``."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.rsplit(".", node.level - 1)[0] if node.level else ""
            module = ".".join(part for part in (base, node.module or "") if part)
            names.add(module)
            names.update(f"{module}.{alias.name}" for alias in node.names)
    return names


def imports_of(path: Path) -> set[str]:
    """The modules the file at ``path``, under the ``tricolore`` package, imports."""
    package = ".".join(path.relative_to(PACKAGE.parent).parts[:-1])
    return imported(path.read_text(encoding="utf-8"), package)


def sources(*parts: str) -> list[Path]:
    return sorted(PACKAGE.joinpath(*parts).rglob("*.py"))


def within(name: str, layers: tuple[str, ...]) -> bool:
    return any(name == layer or name.startswith(layer + ".") for layer in layers)


EXTENSIONS = {"cli.py": ("tricolore.cli",), "study.py": ("tricolore.sim",)}
"""A game's companions to the layers above: its commands (``cli.py``) extend the command line and
its study (``study.py``) the simulations, so each may import the layer it extends, and only that.
The registry loads them for those layers (:func:`tricolore.core.registry.companions`): nothing in
the core or the games imports them, so the rules, bots and views still import only the core."""


def extended(path: Path) -> tuple[str, ...]:
    """The layer above that the game module at ``path`` extends, if it is a companion of one."""
    inside_games = path.is_relative_to(PACKAGE / "games")
    return EXTENSIONS.get(path.name, ()) if inside_games else ()


def is_companion(name: str) -> bool:
    """Whether the module ``name`` is a game's companion to a layer above."""
    parts = name.split(".")
    return len(parts) >= 4 and parts[:2] == ["tricolore", "games"] and f"{parts[3]}.py" in EXTENSIONS


@pytest.mark.parametrize("path", sources("core") + sources("games"),
                         ids=lambda p: str(p.relative_to(PACKAGE)))
def test_the_core_and_the_games_import_nothing_from_the_layers_above(path: Path):
    above = sorted(n for n in imports_of(path) if within(n, ABOVE) and not within(n, extended(path)))
    assert not above, f"{path.relative_to(PACKAGE)} imports {', '.join(above)}"


@pytest.mark.parametrize("path", sources("core") + sources("games"),
                         ids=lambda p: str(p.relative_to(PACKAGE)))
def test_nothing_in_the_core_or_the_games_imports_a_games_commands_or_study(path: Path):
    found = sorted(n for n in imports_of(path) if is_companion(n))
    assert not found, f"{path.relative_to(PACKAGE)} imports {', '.join(found)}"


def test_a_companion_may_import_only_the_layer_it_extends():
    study = PACKAGE / "games" / "culottes" / "study.py"
    assert extended(study) == ("tricolore.sim",)
    assert extended(PACKAGE / "games" / "culottes" / "rules.py") == ()
    assert extended(PACKAGE / "sim" / "study.py") == ()  # only a game's study.py is a companion
    assert is_companion("tricolore.games.culottes.study.GameStudy")
    assert is_companion("tricolore.games.culottes.cli")
    assert not is_companion("tricolore.games.culottes.rules")


@pytest.mark.parametrize("path", sources("core"), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_the_core_imports_no_game(path: Path):
    games = sorted(n for n in imports_of(path) if within(n, ("tricolore.games",)))
    assert not games, f"{path.relative_to(PACKAGE)} imports {', '.join(games)}"


def test_the_walk_finds_imports_in_every_form():
    source = ("import tricolore.sim.stats as stats\n"
              "from . import refusals\n"
              "from ..core import model\n"
              "def later():\n"
              "    from tricolore.cli.render import renderer\n")
    assert imported(source, "tricolore.games.culottes") == {
        "tricolore.sim.stats", "tricolore.games.culottes", "tricolore.games.culottes.refusals",
        "tricolore.games.core", "tricolore.games.core.model", "tricolore.cli.render",
        "tricolore.cli.render.renderer"}
    assert "tricolore.core.terminal.Renderer" in imports_of(PACKAGE / "games" / "culottes" / "terminal.py")
    assert within("tricolore.cli.render", ABOVE) and within("tricolore.cli", ABOVE)
    assert not within("tricolore.client", ABOVE)


@pytest.mark.parametrize("path", sorted(PACKAGE.joinpath("games").glob("*/refusals.py")),
                         ids=lambda p: p.parent.name)
def test_a_games_refusals_read_its_state_without_importing_its_rules(path: Path):
    rules = f"tricolore.games.{path.parent.name}.rules"
    assert not any(within(n, (rules,)) for n in imports_of(path))
