"""The two builds: the engine compiled with mypyc, and the pure-Python sources.

``TRICOLORE_BUILD=pure`` must load every ``tricolore`` module from its source; without it, an
installed compiled build must really be the one loaded; and both must play every game to the
same digests. Where a C compiler and the Python headers exist and ``TRICOLORE_COMPILE=0`` is not
set (the install then compiles), the compiled build must be present. A compiled module older than
its source makes the whole package run from its sources, and say so.
"""

from __future__ import annotations

import importlib.machinery
import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import tricolore
from tricolore._compiler import compiling_wanted, missing_for_compiling
from tricolore.core import get_game, list_games

PACKAGE = Path(tricolore.__file__).resolve().parent
COMPILED = ("tricolore.core.model", "tricolore.core.actions",
            *(f"tricolore.games.{game}.{part}" for game in
              ("culottes", "culottes_trials", "let_them_eat_cake", "revolution", "bread_and_circuses")
              for part in ("rules", "refusals", "bots")), "tricolore.games.revolution.bids")
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
    "compiled"; one that did not (``TRICOLORE_COMPILE=0``, or no C compiler) loads the sources
    and says "pure"."""
    compiled = extensions_installed()
    if compiling_wanted() and missing_for_compiling() is None:
        assert compiled, ("a C compiler and the Python headers are here, so the install should "
                          "have compiled the engine (set TRICOLORE_COMPILE=0 for a pure install)")
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


def test_a_compiled_module_older_than_its_source_is_found(tmp_path: Path) -> None:
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    (tmp_path / "tricolore" / "core").mkdir(parents=True)
    (tmp_path / "tricolore" / "games" / "culottes").mkdir(parents=True)
    (tmp_path / "tricolore" / "interop").mkdir(parents=True)
    for folder, name in (("core", "model"), ("games/culottes", "rules"), ("interop", "episode")):
        source = tmp_path / "tricolore" / folder / f"{name}.py"
        source.write_text("")
        extension = tmp_path / "tricolore" / folder / f"{name}{suffix}"
        extension.write_bytes(b"")
        os.utime(source, (1_000, 1_000))
        os.utime(extension, (2_000, 2_000))
    assert tricolore.stale_compiled_module(str(tmp_path / "tricolore")) is None
    os.utime(tmp_path / "tricolore" / "games" / "culottes" / "rules.py", (3_000, 3_000))
    found = tricolore.stale_compiled_module(str(tmp_path / "tricolore"))
    assert found == os.path.join("tricolore", "games", "culottes", "rules.py")
    # With a group's shared library, a rebuild leaves the shims as they were and rewrites it.
    shared = tmp_path / "tricolore" / f"_engine__mypyc{suffix}"
    shared.write_bytes(b"")
    os.utime(shared, (4_000, 4_000))
    assert tricolore.stale_compiled_module(str(tmp_path / "tricolore")) is None
    os.utime(tmp_path / "tricolore" / "core" / "model.py", (5_000, 5_000))
    found = tricolore.stale_compiled_module(str(tmp_path / "tricolore"))
    assert found == os.path.join("tricolore", "core", "model.py")
    os.utime(tmp_path / "tricolore" / "core" / "model.py", (1_000, 1_000))
    # the environments' compiled modules are checked as the engine's are
    os.utime(tmp_path / "tricolore" / "interop" / "episode.py", (5_000, 5_000))
    found = tricolore.stale_compiled_module(str(tmp_path / "tricolore"))
    assert found == os.path.join("tricolore", "interop", "episode.py")


def test_a_stale_compiled_build_runs_the_sources_and_says_so(tmp_path: Path) -> None:
    """A source edited after the install must not run as its old compiled self: the package
    loads every module from its sources and says which source changed."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    copy = tmp_path / "tricolore"
    shutil.copytree(PACKAGE, copy, ignore=lambda folder, names: [
        name for name in names if name.endswith(suffixes) or name == "__pycache__"])
    # An extension that could not even load: the package must not try it.
    extension = copy / "core" / f"model{suffixes[0]}"
    extension.write_bytes(b"not a library")
    os.utime(extension, (1_000, 1_000))
    env = {k: v for k, v in os.environ.items() if k != tricolore.BUILD_VARIABLE}
    env["PYTHONPATH"] = str(tmp_path)
    done = subprocess.run(
        [sys.executable, "-c", "import tricolore; print(tricolore.build(), tricolore.__file__)"],
        env=env, capture_output=True, text=True, cwd=tmp_path, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    build, location = done.stdout.split()
    assert (build, Path(location).parent) == ("pure", copy)
    model = os.path.join("tricolore", "core", "model.py")
    assert done.stderr.strip() == (f"tricolore: {model} changed after the compiled engine was "
                                   "built; running the pure-Python sources until the package is "
                                   "installed again")
