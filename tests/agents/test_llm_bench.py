"""The language-model benchmark end to end, against a scripted OpenAI-compatible endpoint on
loopback that answers legal actions (no network)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from typer.testing import CliRunner

from tests.agents.test_llm import FakeEndpoint, action_from_schema, schema_in
from tricolore.cli.main import app
from tricolore.sim.batch import wilson_interval
from tricolore.sim.llm_bench import BenchSpec, honoured, leaderboard, play, run_bench


@pytest.fixture
def model(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeEndpoint]:
    fake = FakeEndpoint()
    monkeypatch.setenv("TRICOLORE_LLM_URL", fake.url)
    monkeypatch.delenv("TRICOLORE_LLM_MODEL", raising=False)
    monkeypatch.setenv("TRICOLORE_LLM_KEY", "sekrit")
    yield fake
    fake.close()


def dealing_model(seed: int, sent: list[dict[str, Any]], nonsense_every: int = 0) -> Any:
    """Answers from the schema it is shown (structured output's when given), offering and
    accepting deals whenever it may; every ``nonsense_every``-th answer is not JSON."""
    rng = random.Random(seed)
    calls = iter(range(10**6))

    def reply(request: dict[str, Any]) -> str:
        n = next(calls)
        if nonsense_every and n % nonsense_every == nonsense_every - 1:
            return "Let me think about the Revolution."
        schema = (request["response_format"]["json_schema"]["schema"]["properties"]["action"]
                  if "response_format" in request else schema_in(request))
        dealing = [s for s in schema["anyOf"] if s["title"].startswith(("solicit", "offer", "accept"))]
        pick = {"anyOf": dealing} if dealing and rng.random() < 0.3 else schema
        action = action_from_schema(pick, rng) if pick is schema else action_from_schema(
            {"anyOf": [dict(s, description="asked") for s in dealing]}, rng)
        sent.append(action)
        return json.dumps({"action": action, "chat": {"to": "all", "text": "A fair deal, citoyens."}})

    return reply


def test_the_command_prints_a_leaderboard_and_writes_json(model, tmp_path, monkeypatch):
    from tricolore.cli import main

    monkeypatch.setattr(main.console, "width", 220)  # the shared console was sized when imported
    sent: list[dict[str, Any]] = []
    model.reply = dealing_model(1, sent, nonsense_every=7)
    out = tmp_path / "bench.json"
    result = CliRunner(env={"COLUMNS": "220"}).invoke(app, [
        "llm-bench", "culottes-trials", "--model", "fake-model", "--players", "3", "--games", "3",
        "--pool", "random,skeptic", "--option", "trials=2", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "fake-model" in result.output and "skeptic" in result.output and "OpenSkill" in result.output
    report = json.loads(out.read_text())
    assert report["seeds"] == [0, 1, 2] and report["pool"] == ["random", "skeptic"]
    assert [g["seat"] for g in report["games"]] == [0, 1, 2]  # the model goes round the table
    entry = next(e for e in report["leaderboard"] if e["language_model"])
    assert entry["strategy"] == "llm:fake-model@output=text" and entry["games"] == 3
    wins = sum(1 for g in report["games"] if g["seat"] in g["winners"])
    assert entry["wins"] == wins
    low, high = wilson_interval(wins, 3)
    assert (entry["win_low"], entry["win_high"]) == (round(low, 4), round(high, 4))
    assert entry["calls"] == len(model.requests) and entry["tokens_in"] == 100 * entry["calls"]
    assert entry["tokens_out"] == 10 * entry["calls"]
    nonsense = sum(1 for i in range(len(model.requests)) if i % 7 == 6)
    assert entry["invalid"] == nonsense > 0
    assert all(r["authorization"] == "Bearer sekrit" for r in model.requests)
    others = [e for e in report["leaderboard"] if not e["language_model"]]
    assert {e["strategy"] for e in others} == {"random", "skeptic"}
    assert all(e["mu"] is not None and "deals_offered" not in e for e in others)
    ordinals = [e["ordinal"] for e in report["leaderboard"]]
    assert ordinals == sorted(ordinals, reverse=True)


def test_the_leaderboard_is_folded_not_cut_short_on_a_narrow_output(model, tmp_path, monkeypatch):
    from tricolore.cli import main

    monkeypatch.setattr(main.console, "width", 80)  # a file or a pipe
    model.reply = dealing_model(1, [])
    out = tmp_path / "bench.json"
    result = CliRunner().invoke(app, [
        "llm-bench", "culottes-trials", "--model", "fake-model", "--players", "3", "--games", "2",
        "--pool", "random", "--option", "trials=2", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "…" not in result.output
    entry = next(e for e in json.loads(out.read_text())["leaderboard"] if e["language_model"])
    tokens = "".join(line.split("│")[-2].strip()  # the last column, its folds undone
                     for line in result.output.splitlines() if line.count("│") > 2)
    assert f"{entry['tokens_in']:,}/{entry['tokens_out']:,}" in tokens


@pytest.mark.parametrize(("kind", "data", "kept"), [
    ("deal_settled", {"id": 0, "status": "paid", "paid": 2}, True),
    ("deal_settled", {"id": 1, "status": "lapsed", "paid": 0}, False),  # its condition did not hold
    ("bribe_settled", {"deal": 3, "voted_like": True, "reward": 1}, True),
    ("bribe_settled", {"deal": 4, "voted_like": False, "reward": 0}, False),  # the voter took the cakes
    ("alliance_settled", {"alliance": 2, "loyal": [1, 4], "disloyal": []}, True),
    ("alliance_settled", {"alliance": 2, "loyal": [1], "disloyal": [4]}, False),  # a member defected
])
def test_a_deal_counts_as_kept_only_when_its_settlement_shows_it_honoured(kind, data, kept):
    assert honoured(kind, data) is kept


def test_deals_offered_accepted_and_kept_are_counted_from_the_seats_actions_and_the_log(model):
    sent: list[dict[str, Any]] = []
    model.reply = dealing_model(2, sent)
    spec = BenchSpec("bread-and-circuses", 3, (5, 6), "llm:fake@output=json_schema", ("free-rider",),
                     {"max_rounds": 2, "regulated_bribery": True})
    games = run_bench(spec)
    offered = sum(g.deals_offered for g in games)
    accepted = sum(g.deals_accepted for g in games)
    assert offered > 0
    assert offered <= sum(1 for a in sent if a["type"].startswith(("solicit", "offer")))
    assert accepted <= sum(1 for a in sent if a["type"].startswith("accept"))
    assert all(0 <= g.deals_kept <= g.deals_offered + g.deals_accepted for g in games)
    assert all("response_format" in r for r in model.requests)
    board = leaderboard(spec, games)
    assert board[0]["games"] + board[1]["games"] >= 4


def test_a_game_of_the_benchmark_is_the_same_when_played_again(model):
    model.reply = dealing_model(3, [])
    spec = BenchSpec("culottes-trials", 3, (8,), "llm:fake", ("random",), {"trials": 2})
    first = play(spec, 0)
    model.reply = dealing_model(3, [])
    assert play(spec, 0).as_dict() == first.as_dict()


def test_without_an_endpoint_the_command_says_so_in_one_sentence(monkeypatch):
    monkeypatch.delenv("TRICOLORE_LLM_URL", raising=False)
    result = CliRunner().invoke(app, ["llm-bench", "culottes-trials", "--model", "m", "--games", "1"])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "needs an endpoint: set TRICOLORE_LLM_URL" in result.output


@pytest.mark.parametrize(("args", "problem"), [
    (["--games", "0"], "--games must be from 1"),
    (["--players", "40"], "is played by"),
    (["--pool", ","], "--pool names no strategy"),
    (["--pool", "nobody"], "nobody"),
    (["--output", "xml"], "output must be text, json_schema or tools"),
])
def test_bad_arguments_get_one_sentence(model, args, problem):
    result = CliRunner().invoke(app, ["llm-bench", "culottes-trials", "--model", "m", *args])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert problem in result.output
