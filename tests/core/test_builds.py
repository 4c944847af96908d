"""The two builds: the engine compiled with mypyc, and the pure-Python sources.

``TRICOLORE_BUILD=pure`` must load every ``tricolore`` module from its source; without it, an
installed compiled build must really be the one loaded; and both must play every game to the
same digests. With ``TRICOLORE_EXPECT_COMPILED=1`` (an install made with ``TRICOLORE_COMPILE=1``
where a C compiler exists) the compiled build must be present.
"""

from __future__ import annotations

import importlib.machinery
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import tricolore
from tricolore.core import get_game, list_games

PACKAGE = Path(tricolore.__file__).resolve().parent
COMPILED = ("tricolore.core.model", "tricolore.core.actions",
            *(f"tricolore.games.{game}.{part}" for game in
              ("culottes", "culottes_trials", "let_them_eat_cake", "revolution", "bread_and_circuses")
              for part in ("rules", "bots")))
"""Modules the compiled build compiles (a sample covering core and every game)."""

PROBE = """
import importlib.machinery, json, random, sys
import tricolore
from tricolore.core import get_game, list_games
import tricolore.games.culottes.bots, tricolore.games.culottes_trials.bots
import tricolore.games.let_them_eat_cake.bots, tricolore.games.revolution.bots
import tricolore.games.bread_and_circuses.bots
loaders = {name: type(module.__spec__.loader).__name__ for name, module in sys.modules.items()
           if name.startswith("tricolore.") and module.__spec__ is not None
           and module.__spec__.origin not in (None, "built-in")}
print(json.dumps({"build": tricolore.build(), "loaders": loaders, "digests": DIGESTS()}))
"""


def digests() -> dict[str, list[str]]:
    """The final digest of three random games of every game, seat ``min(pending)`` moving."""
    out: dict[str, list[str]] = {}
    for name in (info.name for info in list_games()):
        game = get_game(name)
        found = []
        for seed in range(3):
            state = game.new(game.info.min_players, seed)
            rng = random.Random(seed)
            steps = 0
            while not state.is_over() and steps < 400:
                seat = min(state.pending())
                state.apply(seat, state.legal_actions(seat).sample(rng))
                steps += 1
            found.append(state.digest())
        out[name] = found
    return out


def run_probe(build: str | None) -> dict[str, object]:
    """Import the package in a fresh interpreter with ``TRICOLORE_BUILD=build`` (unset: None)."""
    env = {k: v for k, v in os.environ.items() if k != tricolore.BUILD_VARIABLE}
    if build is not None:
        env[tricolore.BUILD_VARIABLE] = build
    source = "import tests.core.test_builds as t\nDIGESTS = t.digests\n" + PROBE
    done = subprocess.run([sys.executable, "-c", source], env=env, capture_output=True, text=True,
                          cwd=PACKAGE.parent, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def extensions_installed() -> bool:
    """Whether compiled modules sit beside the sources (an install that built them)."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    return any(path.name.endswith(suffixes) for path in (PACKAGE / "core").iterdir())


def test_the_switch_loads_every_module_from_its_source() -> None:
    probe = run_probe("pure")
    assert probe["build"] == "pure"
    loaders = probe["loaders"]
    assert isinstance(loaders, dict)
    assert set(COMPILED) <= set(loaders)
    assert {loaders[name] for name in loaders} == {"SourceFileLoader"}, loaders


def test_the_build_said_is_the_build_loaded() -> None:
    """Without the switch, an install that compiled the engine loads its extensions and says
    "compiled"; one that did not (the default install) loads the sources and says "pure"."""
    compiled = extensions_installed()
    if os.environ.get("TRICOLORE_EXPECT_COMPILED") == "1":
        assert compiled, "this install was expected to build the compiled engine"
    probe = run_probe(None)
    loaders = probe["loaders"]
    assert isinstance(loaders, dict)
    if compiled:
        assert probe["build"] == "compiled"
        assert {loaders[name] for name in COMPILED} == {"ExtensionFileLoader"}, loaders
    else:
        assert probe["build"] == "pure"
        assert {loaders[name] for name in COMPILED} == {"SourceFileLoader"}, loaders


def test_both_builds_play_to_the_same_digests() -> None:
    pure = run_probe("pure")
    assert pure["digests"] == digests()
    assert run_probe(None)["digests"] == pure["digests"]


def test_a_build_name_not_known_is_refused_in_one_sentence() -> None:
    env = {**os.environ, tricolore.BUILD_VARIABLE: "fast"}
    done = subprocess.run([sys.executable, "-c", "import tricolore"], env=env, capture_output=True,
                          text=True, cwd=PACKAGE.parent, timeout=120, check=False)
    assert done.returncode != 0
    assert "TRICOLORE_BUILD must be 'pure' or 'compiled', not 'fast'" in done.stderr


def test_the_version_says_which_build_runs() -> None:
    done = subprocess.run([str(Path(sys.executable).parent / "tricolore"), "--version"],
                          capture_output=True, text=True, cwd=PACKAGE.parent, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"tricolore {tricolore.__version__} ({tricolore.build()} build)"


def test_a_server_snapshot_reads_back_in_this_build() -> None:
    from tricolore.server import snapshots

    for name in (info.name for info in list_games()):
        game = get_game(name)
        state = game.new(game.info.min_players, 5)
        seat = min(state.pending())
        state.apply(seat, state.legal_actions(seat).sample(random.Random(5)))
        copy = snapshots.loads(snapshots.dumps(state), state.digest())
        assert copy is not None
        assert copy.view(seat) == state.view(seat)
