"""Studies: every game's experiments run, resume, and write a report whose every claim names its
games and interval."""

import html
import json
import re

import pytest
from typer.testing import CliRunner

from tricolore.cli.main import app
from tricolore.core.registry import list_games
from tricolore.games.culottes.study import played_alike
from tricolore.sim.batch import GameRow, play_chunk
from tricolore.sim.studies import build, studies
from tricolore.sim.studies.common import by_seed, cannot_show, same_play, strategy_shares, win_shares
from tricolore.sim.study import run_study, settle

runner = CliRunner()
GAMES = [info.name for info in list_games()]


def test_every_registered_game_has_a_study():
    assert set(studies()) == set(GAMES)


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
                  "alliance defence take back", "closing faces", "price of cockades",
                  "Which role should a player choose, given the nature of their citizen?",
                  "gain across rewards and covers", "refusing bribes alone, alliances alone, or both",
                  "bribing for the truth", "cockades work as a false signal", "vote find the truth"):
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


def test_findings_carry_a_complete_record_per_claim_and_the_report_names_the_correction(tmp_path):
    result = run_study(build("culottes-trials", games=8), tmp_path, workers=1)
    found = json.loads((tmp_path / "findings.json").read_text(encoding="utf-8"))
    assert found["correction"]["method"] == "Holm–Bonferroni"
    tested = 0
    for experiment in found["experiments"]:
        for record in experiment["claims"]:
            assert {"text", "value", "interval", "n", "unit", "test", "p", "adjusted_p", "holds",
                    "status"} <= set(record)
            assert record["unit"] in ("games", "seat-games") and record["status"] in (
                "shown", "not shown", "cannot show")
            assert record["holds"] == (record["status"] == "shown")
            if record["p"] is not None:
                tested += 1
                assert record["adjusted_p"] >= record["p"]
    assert tested == found["correction"]["tests"] > 0
    page = result.report.read_text(encoding="utf-8")
    assert "Holm–Bonferroni" in page and "seat-games" in page


def _row(seed: int, winners: tuple[int, ...], scores=(1.0, 2.0, 3.0), metrics=None) -> GameRow:
    return GameRow(seed, ("a", "b", "c"), scores, winners, 30, metrics or {"rounds": 3.0})


def test_a_shared_win_gives_each_winner_its_share_and_seats_are_measured_per_seat_game():
    rows = [_row(0, (0, 1)), _row(1, (0,)), _row(2, (2,)), _row(3, (0, 1, 2))]
    assert win_shares(rows[0]) == [0.5, 0.5, 0.0]
    a = strategy_shares(rows)["a"]
    assert a.estimate.value == pytest.approx((0.5 + 1 + 0 + 1 / 3) / 4)
    assert a.seat_games == 4 and a.games == 4


def test_an_arm_whose_option_no_strategy_reads_cannot_show_anything():
    control = [_row(s, (s % 3,)) for s in range(6)]
    rescored = [_row(s, (s % 3,), scores=(1.0, 2.0, 4.0)) for s in range(6)]
    played_otherwise = [_row(s, (s % 3,), metrics={"rounds": 4.0}) for s in range(6)]
    assert same_play(control, rescored) and not same_play(control, played_otherwise)
    claim = cannot_show("the price", control, rescored)
    assert claim.status == "cannot show" and "cannot show anything about the price" in claim.sentence()
    assert "only the final scoring differed, in 6 games" in claim.sentence()


def test_the_cockade_price_arms_of_the_culottes_study_say_they_cannot_show_anything(tmp_path):
    study = build("culottes", games=6)
    levers = next(e for e in study.experiments if e.key == "levers")
    rows = {a.key: play_chunk(a.spec, a.spec.seeds()) for a in levers.arms}
    finding = levers.analyse(rows)
    blind = [c for c in finding.records if c.status == "cannot show"]
    assert len(blind) == 2 and all("privileged cockade price" in c.text() for c in blind)
    assert all(c.p is None for c in blind)


def test_the_grabbers_are_measured_per_seat_against_the_fair_share(tmp_path):
    study = build("culottes", games=10)
    grabbers = next(e for e in study.experiments if e.key == "grabbers")
    rows = {a.key: play_chunk(a.spec, a.spec.seeds()) for a in grabbers.arms}
    finding = grabbers.analyse(rows)
    fair = [c for c in finding.records if "fair share of 20.0%" in c.text()]
    assert len(fair) == len(grabbers.arms)
    for claim, arm in zip(fair, grabbers.arms, strict=True):
        k = arm.spec.seats.count(arm.spec.seats[0])
        assert claim.seat_games == k * 10 and claim.games == 10
    paired_on_seed = [c for c in finding.records if "paired on the seed" in c.test]
    assert len(paired_on_seed) == 6  # briber and cockade-grabber each against puppet-grabber, 1 to 3 of them
    first = {a.spec.seats[0] for a in grabbers.arms}
    assert first == {"puppet-grabber", "p-epsilon-briber", "cockade-grabber"}


NEW_CULOTTES_EXPERIMENTS = ("roles", "bribe-sweep", "defence", "truth-bribery", "cockades", "truth")


@pytest.fixture(scope="module")
def culottes_rows():
    """Every arm of the new Culottes experiments, played once on a few games."""
    study = build("culottes", games=10, seed=3)
    chosen = [e for e in study.experiments if e.key in NEW_CULOTTES_EXPERIMENTS]
    arms = {a.key: a for e in chosen for a in e.arms}
    return study, {key: play_chunk(a.spec, a.spec.seeds()) for key, a in arms.items()}


def test_the_new_culottes_experiments_give_tested_claims_with_a_status(culottes_rows):
    study, rows = culottes_rows
    chosen = [e for e in study.experiments if e.key in NEW_CULOTTES_EXPERIMENTS]
    assert [e.key for e in chosen] == list(NEW_CULOTTES_EXPERIMENTS)
    findings = {e.key: e.analyse({a.key: rows[a.key] for a in e.arms}) for e in chosen}
    family = settle(findings)
    for experiment in chosen:
        finding = findings[experiment.key]
        assert finding.figures and finding.tables and finding.notes, experiment.key
        tested = [c for c in finding.records if c.p is not None]
        assert tested, experiment.key
        for claim in finding.records:
            record = claim.record()
            assert record["status"] in ("shown", "not shown", "cannot show")
            assert record["n"] == claim.games or claim.seat_games is not None
        for claim in tested:
            assert claim in family.claims and claim.adjusted is not None and claim.adjusted >= claim.p
            assert claim.test
    roles = findings["roles"].records
    assert sum("fair share of 20.0%" in c.text() for c in roles) == 4
    assert any("where the citizen is a sans-culotte" in c.text() for c in roles)
    assert any("where the citizen is a privileged" in c.text() for c in roles)
    assert "tricolore empirical culottes" in " ".join(findings["roles"].notes)


def test_the_role_cases_share_seeds_and_seats_and_differ_only_where_the_choice_does(culottes_rows):
    study, rows = culottes_rows
    roles = next(e for e in study.experiments if e.key == "roles")
    assert len(roles.arms) == 4
    control, *cases = roles.arms
    assert all(a.spec.seed == control.spec.seed and a.spec.games == control.spec.games for a in roles.arms)
    assert all(a.spec.seats[1:] == control.spec.seats[1:] for a in cases)
    for case in cases:
        pairs = by_seed(rows[case.key], rows[control.key])
        assert len(pairs) == 10
        for changed, kept in pairs:
            seat = changed.strategies.index(case.spec.seats[0])
            # Same rotation: the choosing seat is the same and every other seat holds the same strategy.
            assert kept.strategies[seat] == control.spec.seats[0]
            assert [s for i, s in enumerate(changed.strategies) if i != seat] == [
                s for i, s in enumerate(kept.strategies) if i != seat]
            if changed.roles[seat] == kept.roles[seat]:  # the same choice: the same game
                assert changed.scores == kept.scores and changed.actions == kept.actions


def test_the_new_culottes_experiments_reuse_the_arms_already_played():
    study = build("culottes", games=10)
    keys = {e.key: {a.key for a in e.arms} for e in study.experiments}
    assert {"puppet-grabber-x1", "p-epsilon-briber-x1"} <= keys["bribe-sweep"]
    assert {"p-epsilon-briber-x1", "p-epsilon-briber-vs-alliance-defender"} <= keys["defence"]
    assert {"cockade-grabber-x1", "puppet-grabber-x1"} <= keys["cockades"]
    assert "mixed" in keys["truth"]
    assert len(keys["bribe-sweep"]) == 7 and len(study.arms()) == 31


def test_arms_whose_games_came_out_alike_are_said_to_show_nothing_rather_than_tested():
    rows = [GameRow(s, ("a", "b", "c"), (1.0, 2.0, 3.0), (2,), 30, {"rounds": 3.0}, ("x", "y", "z"))
            for s in range(4)]
    other = [GameRow(r.seed, ("a", "b", "d"), r.scores, r.winners, r.actions, {"escrow": 1.0}, r.roles)
             for r in rows]
    assert played_alike(rows, other)
    moved = [*other[:3], GameRow(3, ("a", "b", "d"), (1.0, 3.0, 2.0), (1,), 30, {}, ("x", "y", "z"))]
    assert not played_alike(rows, moved) and not played_alike(rows, other[:3])
