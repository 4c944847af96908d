"""The README's commands are the ones CI and users run."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_ci_runs_the_readme_test_command():
    ci_command = [line for line in (ROOT / ".ci/run").read_text().splitlines()
                  if line.startswith("python3 -m venv")]
    assert len(ci_command) == 1
    assert ci_command[0] in (ROOT / "README.md").read_text().splitlines()


def test_readme_main_command_serves_the_browser_client():
    lines = (ROOT / "README.md").read_text().splitlines()
    main = "python3 -m venv .venv && .venv/bin/pip install -e . && .venv/bin/tricolore serve"
    assert main in lines
