"""The findings section of docs/research.md, regenerated from the runs' files."""

import json
from pathlib import Path

import pytest

from tricolore.sim import questions
from tricolore.sim.studies import build
from tricolore.sim.study import run_study

DOC = Path(__file__).resolve().parents[2] / "docs" / "research.md"


def _claim(status: str, p: float | None, text: str) -> dict:
    return {"text": text, "statement": text, "status": status, "p": p, "adjusted_p": p,
            "test": "a test" if p is not None else "none: an estimate with its 95% interval"}


def _write(folder: Path, name: str, data: dict) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_every_question_gets_a_row_and_a_missing_run_says_no_data(tmp_path: Path) -> None:
    text = questions.section(questions.load([tmp_path]))
    rows = [line for line in text.splitlines() if line.startswith("| ") and "---" not in line][1:]
    assert len(rows) == len(questions.QUESTIONS)
    assert all(row.endswith("| no data |") for row in rows)


def test_a_study_experiment_row_shows_its_tested_claims_and_status(tmp_path: Path) -> None:
    experiments = [
        {"key": "truth", "heading": "Truth", "question": "?", "claims": [
            _claim("shown", None, "An estimate"), _claim("shown", 0.001, "The vote finds the truth")]},
        {"key": "cockades", "heading": "Cockades", "question": "?", "claims": [
            _claim("not shown", 0.4, "No difference larger than 2 points")]},
        {"key": "levers", "heading": "Levers", "question": "?", "claims": [
            _claim("cannot show", None, "This experiment cannot show anything")]},
    ]
    _write(tmp_path / "study", "findings", {"game": "culottes", "title": "t", "experiments": experiments})
    text = questions.section(questions.load([tmp_path / "study"]))
    row = {line.split(" | ")[1]: line for line in text.splitlines() if line.startswith("| culottes |")}
    truth = row["Does the vote find the truth?"]
    assert "The vote finds the truth (a test, Holm-adjusted p = 0.001)" in truth
    assert truth.endswith("| shown |")
    assert row["Do cockades work as a false signal?"].endswith("| no effect shown |")
    levers = row["What do the die's closing faces and the price of cockades change?"]
    assert levers.endswith("| cannot show |")
    assert "- [not shown] No difference larger than 2 points" in text


def test_write_doc_replaces_only_the_marked_section(tmp_path: Path) -> None:
    doc = tmp_path / "doc.md"
    doc.write_text(f"before\n{questions.START}\nold\n{questions.END}\nafter\n", encoding="utf-8")
    questions.write_doc(doc, questions.load([]))
    text = doc.read_text(encoding="utf-8")
    assert text.startswith("before\n") and text.endswith("after\n") and "old" not in text
    assert text.count(questions.START) == 1


def test_the_research_doc_has_the_markers() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert questions.START in text and questions.END in text


def test_a_real_study_run_fills_its_rows(tmp_path: Path) -> None:
    result = run_study(build("culottes-trials", games=8), tmp_path / "trials", workers=1)
    assert not result.interrupted
    text = questions.section(questions.load([tmp_path / "trials"]))
    rows = [line for line in text.splitlines() if line.startswith("| culottes-trials |")]
    assert len(rows) == 2 and not any(row.endswith("| no data |") for row in rows)


def test_the_command_refuses_a_document_without_markers(tmp_path: Path) -> None:
    doc = tmp_path / "doc.md"
    doc.write_text("nothing here\n", encoding="utf-8")
    with pytest.raises(SystemExit):
        questions.main(["--write-doc", str(doc), str(tmp_path)])


def test_the_empirical_game_and_the_loop_fill_their_rows(tmp_path: Path) -> None:
    _write(tmp_path, "empirical", {
        "game": "culottes", "players": 5, "games_played": 100, "profiles": 21,
        "equilibrium": {"mixture": {"a": {"value": 0.75, "interval_95": [0.5, 1.0]},
                                    "b": {"value": 0.25, "interval_95": [0.0, 0.5]}},
                        "exploitability": 0.001, "exploitability_resampled_95": [0.0, 0.05]},
        "roles_at_equilibrium": {"revolutionary": 0.75, "grabber": 0.25}})
    _write(tmp_path, "psro", {
        "game": "culottes", "found": ["b:x=1"], "sentences": ["Found b:x=1, which beats the mixture."],
        "exploitability": [{"iteration": 1, "gain": 0.085}, {"iteration": 2, "gain": 0.002}]})
    text = questions.section(questions.load([tmp_path]))
    equilibrium = next(line for line in text.splitlines() if "`tricolore empirical`" in line)
    assert "a 75% [50–100%], b 25% [0–50%]" in equilibrium
    assert "revolutionary 75%, grabber 25%" in equilibrium and equilibrium.endswith("| shown |")
    loop = next(line for line in text.splitlines() if "`tricolore psro`" in line)
    assert "Found b:x=1" in loop and "0.085 → 0.002" in loop and loop.endswith("| shown |")
