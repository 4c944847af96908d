"""Studies: every game's experiments run, resume, and write a report whose every claim names its
games and interval."""

import html
import json
import re

import pytest
from typer.testing import CliRunner

from tricolore.cli.main import app
from tricolore.core.registry import list_games
from tricolore.sim.studies import STUDIES, build
from tricolore.sim.study import run_study

runner = CliRunner()
GAMES = [info.name for info in list_games()]


def test_every_registered_game_has_a_study():
    assert set(STUDIES) == set(GAMES)


@pytest.mark.parametrize("game", GAMES)
def test_a_small_study_writes_a_report_whose_claims_name_their_games_and_figures(tmp_path, game):
    study = build(game, games=8, seed=2)
    result = run_study(study, tmp_path, workers=1)
    page = result.report.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "http://" not in page.replace("http://www.w3.org", "")
    for experiment in study.experiments:
        assert html.escape(experiment.heading) in page and html.escape(experiment.question) in page
        finding = result.findings[experiment.key]
        assert finding.claims and finding.figures
        for claim in finding.claims:
            assert re.search(r"\d[\d,]* (games?|seat-games)", claim), claim
    assert page.count("<svg") == sum(len(f.figures) for f in result.findings.values())
    found = json.loads((tmp_path / "findings.json").read_text(encoding="utf-8"))
    assert [e["key"] for e in found["experiments"]] == [e.key for e in study.experiments]
    assert {p.stem for p in tmp_path.glob("*.parquet")} == {a.key for a in study.arms()}


def test_every_claim_gives_an_interval_where_it_states_a_rate_or_a_mean(tmp_path):
    result = run_study(build("revolution", games=8), tmp_path, workers=1)
    for finding in result.findings.values():
        for claim in finding.claims:
            if "%" in claim or "on average" in claim:
                assert re.search(r"\[[-\d.]+–[-\d.]+%?\]", claim), claim


def test_a_study_run_again_reuses_the_games_it_has(tmp_path):
    study = build("culottes-trials", games=8)
    first = run_study(study, tmp_path, workers=1)
    heard: list[int] = []
    again = run_study(study, tmp_path, workers=1, progress=lambda _label, n: heard.append(n))
    assert heard == [8] and again.findings["strategies"].claims == first.findings["strategies"].claims


def test_the_culottes_study_asks_the_rulebooks_questions():
    study = build("culottes", games=10)
    questions = " ".join(e.question for e in study.experiments)
    for asked in ("sans-culottes eat more Bastille cakes than the privileged",
                  "best grabber beat the revolution", "P+epsilon attack gain",
                  "alliance defence take back", "closing faces", "price of cockades"):
        assert asked in questions


def test_study_from_the_command_line_prints_its_claims_and_writes_its_report(tmp_path):
    out = tmp_path / "study"
    result = runner.invoke(app, ["study", "culottes-trials", "--games", "6", "--workers", "1",
                                 "--out", str(out), "--json"])
    assert result.exit_code == 0, result.output
    found = json.loads(result.output)
    assert found["report"] == str(out / "report.html") and (out / "report.html").exists()
    assert all(f["claims"] for f in found["findings"].values())


@pytest.mark.parametrize("args, sentence", [
    (["culottes", "--quick", "--games", "10"], "give --quick or --games, not both"),
    (["culottes", "--players", "40"], "is played by 3 to 12 players, not 40"),
    (["culottes", "--games", "0"], "--games must be at least 1"),
    (["chess"], "chess"),
])
def test_study_refuses_bad_settings_with_a_sentence(args, sentence):
    result = runner.invoke(app, ["study", *args])
    assert result.exit_code == 1 and sentence in result.output and "Traceback" not in result.output
