"""A small game in a package of its own, registered through its entry point alone, is played
through the command line, the server, the environments and a study; its package is built from
the code blocks of docs/adding-a-game.md, so the page shows exactly what works."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tricolore.core import registry

DOC = Path(__file__).parents[2] / "docs" / "adding-a-game.md"
BLOCK = re.compile(r"```(?:python|ini) (\S+)\n(.*?)```", re.S)


def doc_files() -> dict[str, str]:
    """The files the page's code blocks name, by path."""
    return dict(BLOCK.findall(DOC.read_text(encoding="utf-8")))


@pytest.fixture
def liberty_tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The page's package and its entry point on sys.path, the registry reading them afresh."""
    for path, body in doc_files().items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(body, encoding="utf-8")
    (tmp_path / "liberty_tree-1.0.dist-info" / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: liberty-tree\nVersion: 1.0\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    registry.refresh()
    yield "liberty-tree"
    for name in [m for m in sys.modules if m == "liberty_tree" or m.startswith("liberty_tree.")]:
        del sys.modules[name]
    monkeypatch.undo()
    registry.refresh()


def test_the_page_names_every_file_of_the_package():
    assert set(doc_files()) == {"liberty_tree/rules.py", "liberty_tree/bots.py", "liberty_tree/__init__.py",
                                "liberty_tree/layout.py", "liberty_tree/study.py", "liberty_tree/cli.py",
                                "liberty_tree-1.0.dist-info/entry_points.txt"}


def test_the_entry_point_alone_registers_the_game_and_its_companions(liberty_tree: str):
    assert liberty_tree in registry.games()
    found = registry.companions(liberty_tree)
    assert found.package == "liberty_tree"
    assert found.board_file is None and found.terminal_renderer is None
    assert found.batch is None
    assert found.layout is not None and found.study is not None and found.commands is not None


@pytest.fixture
def mounted(liberty_tree: str) -> Iterator[str]:
    """The command line with the game's own commands mounted, as a new process mounts them."""
    from tricolore.cli.main import app, mount_game_commands

    mount_game_commands()
    yield liberty_tree
    app.registered_groups[:] = [g for g in app.registered_groups if g.name != liberty_tree]


def test_it_plays_through_the_command_line(mounted: str, tmp_path: Path):
    from tricolore.cli.main import app

    liberty_tree = mounted
    runner = CliRunner()
    listed = runner.invoke(app, ["games"])
    assert listed.exit_code == 0 and "liberty-tree" in listed.output
    played = runner.invoke(app, ["play", liberty_tree, "--players", "2", "--seats", "human,climber"],
                           input="1\n1\n" * 12)
    assert played.exit_code == 0, played.output
    assert "guessed" in played.output or "leaves" in played.output
    summary = runner.invoke(app, ["simulate", liberty_tree, "--players", "2", "--games", "20", "--json"])
    assert summary.exit_code == 0, summary.output
    found = json.loads(summary.output)
    assert found["games"] == 20 and set(found["strategies"]) == {"climber", "random"}
    refused = runner.invoke(app, ["simulate", liberty_tree, "--players", "2", "--batch"])
    assert refused.exit_code == 1 and "--batch plays only revolution" in refused.output
    own = runner.invoke(app, [liberty_tree, "chances", "2,5"])
    assert own.exit_code == 0, own.output
    assert own.output.splitlines() == [f"{n} leaves: 1 in 4" for n in (1, 3, 4, 6)]


def test_it_plays_through_the_environments(liberty_tree: str):
    from pettingzoo.test import api_test

    from tricolore.interop.codec import FlatActions
    from tricolore.interop.pettingzoo import env

    codec = FlatActions(liberty_tree, 2)
    assert codec.describe_all() == ["kind guess", *(f"leaves {n}" for n in range(1, 7))]
    api_test(env(liberty_tree, players=2, seed=3), num_cycles=30)


def test_it_plays_through_a_study(liberty_tree: str, tmp_path: Path):
    from tricolore.sim.studies import build
    from tricolore.sim.study import run_study

    study = build(liberty_tree, games=6, seed=1)
    assert study.game == liberty_tree and study.experiments
    result = run_study(study, tmp_path / "study", workers=1)
    assert result.report.is_file() and set(result.findings) == {e.key for e in study.experiments}


def test_it_plays_through_the_server(liberty_tree: str, tmp_path: Path):
    from fastapi.testclient import TestClient

    from tricolore.server import build_app

    application, _ = build_app(f"sqlite:///{tmp_path / 'tables.db'}", bot_delay=0)
    with TestClient(application) as client:
        created = client.post("/api/tables", json={"game": liberty_tree, "players": 2,
                                                   "seats": ["open", "climber"], "window_seconds": 0})
        assert created.status_code == 200, created.text
        table = created.json()
        token = table["invites"]["0"].split("#invite=")[1]
        assert client.post("/api/join", json={"token": token, "name": "Marat"}).status_code == 200
        with client.websocket_connect(f"/ws/{table['table_id']}") as ws:
            ws.send_json({"type": "hello", "version": 1, "token": token, "device": None})
            view: dict = {}
            guess, sent = 6, 0
            while True:
                message = ws.receive_json()
                if message["type"] == "welcome":
                    view = dict(message["view"])
                elif message["type"] == "update":
                    view.update(message["view_delta"]["set"])
                if message["type"] in ("welcome", "update"):
                    if view.get("result") is not None:
                        break
                    if message["prompt"] and sent < 20:
                        sent += 1
                        ws.send_json({"type": "action", "id": f"a{sent}",
                                      "action": {"type": "guess", "leaves": guess}})
                        guess = max(1, guess - 1)
        assert sent >= 1
        assert view["leaves"] in range(1, 7) and len(view["result"]["scores"]) == 2
