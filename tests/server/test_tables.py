"""Tables through the store: lobby, joining, persisted play, idempotent resends, resuming."""

import random

import pytest

from tricolore.agents import make_agent
from tricolore.core.registry import get_game
from tricolore.server.db import SeatToken, make_engine, migrate, sqlite_url
from tricolore.server.tables import TableError, TableStore


@pytest.fixture
def store(tmp_path):
    engine = make_engine(sqlite_url(tmp_path / "tables.db"))
    migrate(engine)
    return TableStore(engine)


def test_a_table_starts_when_every_open_seat_is_joined(store):
    created = store.create("culottes", 3, ["open", "open", "honest-revolutionary"], seed=4)
    assert set(created.invites) == {0, 1}
    assert [t.id for t in store.waiting()] == [created.table_id]
    store.join(created.invites[0], "Marat")
    assert store.live[created.table_id].status == "waiting"
    store.join(created.invites[1], "Danton")
    assert store.live[created.table_id].status == "playing" and store.waiting() == []


def test_invite_tokens_are_stored_only_as_hashes(store):
    created = store.create("culottes", 3, ["open", "random", "random"])
    with store.session() as db:
        hashes = [row.token_hash for row in db.query(SeatToken)]
    assert created.invites[0] not in hashes and len(hashes[0]) == 64
    with pytest.raises(TableError, match="not valid"):
        store.seat_of("forged-token")


def test_bad_tables_are_refused_with_a_sentence(store):
    with pytest.raises(TableError, match="seat 1 must be \"open\" or a strategy"):
        store.create("culottes", 3, ["open", "genius", "random"])
    with pytest.raises(TableError, match="one seat per player"):
        store.create("culottes", 3, ["open", "random"])


def test_actions_are_committed_and_a_resend_applies_once(store):
    created = store.create("bread-and-circuses", 3, ["open", "open", "open"], seed=1)
    for token in created.invites.values():
        store.join(token, "x")
    table = created.table_id
    first = store.act(table, 0, {"type": "ready"}, client_action_id="a1")
    again = store.act(table, 0, {"type": "ready"}, client_action_id="a1")
    assert first.accepted and again.accepted and again.duplicate and again.number == first.number
    assert len(store.live[table].actions) == 1
    refused = store.act(table, 1, {"type": "fly"})
    assert not refused.accepted and refused.code == "not_allowed_now"


def test_a_waiting_table_refuses_actions(store):
    created = store.create("culottes", 3, ["open", "random", "random"], seed=2)
    outcome = store.act(created.table_id, 1, {"type": "choose_role", "role": "grabber"})
    assert not outcome.accepted and outcome.code == "not_started"


def test_resume_rebuilds_every_table_at_the_same_digest(tmp_path):
    url = sqlite_url(tmp_path / "tables.db")
    engine = make_engine(url)
    migrate(engine)
    store = TableStore(engine)
    game = get_game("let-them-eat-cake")
    created = store.create("let-them-eat-cake", 4, ["random", "kingmaker", "cake-hoarder", "random"],
                           seed=3)
    table = store.live[created.table_id]
    agents = [make_agent(game, s["strategy"]) for s in table.seats]
    rng = random.Random(0)
    for _ in range(120):
        seat = min(table.state.pending())
        action = agents[seat].act(table.state.view(seat), table.state.legal_actions(seat), rng)
        assert store.act(created.table_id, seat, action).accepted
    digest = table.state.digest()
    engine.dispose()
    again = TableStore(make_engine(url))
    assert again.resume() == 1
    assert again.live[created.table_id].state.digest() == digest
