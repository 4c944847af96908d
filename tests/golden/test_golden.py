"""Golden records: fixed games pinned digest by digest. A failure here means a game's behaviour
changed: if on purpose, bump its rules version and regenerate with make_golden.py."""

import json
from pathlib import Path

import pytest

import tricolore
from tricolore.core import Record, replay, verify

FILES = sorted(Path(__file__).parent.glob("*.json"))


def test_there_are_golden_records_for_every_game():
    games = {info.name for info in tricolore.list_games()}
    assert {json.loads(f.read_text())["record"]["game"] for f in FILES} == games


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_golden_record_replays_to_the_same_digests_and_scores(path):
    golden = json.loads(path.read_text())
    record = Record.from_dict(golden["record"])
    assert verify(record) == []
    state = replay(record)
    assert state.is_over()
    assert state.digest() == golden["final_digest"]
    assert list(state.result().scores) == golden["scores"]
