"""Snapshots: a restarted server rebuilds a live table from its latest snapshot and the actions
after it; a snapshot it cannot trust is ignored and the table replayed whole."""

from __future__ import annotations

import random

import pytest
from sqlalchemy import update

from tests.server.conftest import new_store
from tricolore.agents import decide, make_agent
from tricolore.core.model import State
from tricolore.core.registry import get_game, list_games
from tricolore.server import snapshots
from tricolore.server.db import ActionRow, SnapshotRow
from tricolore.server.tables import TableStore

GAMES = [info.name for info in list_games()]


def play(store: TableStore, table_id: str, actions: int, seed: int) -> None:
    """``actions`` random actions through the store, as the server records them."""
    table = store.live[table_id]
    agent = make_agent(get_game(table.game), "random")
    rng = random.Random(seed)
    for _ in range(actions):
        if table.state.is_over():
            return
        seat = min(table.state.pending())
        assert store.act(table_id, seat, decide(agent, table.state, seat, rng)).accepted


def live_table(store: TableStore, game: str, seed: int) -> str:
    info = get_game(game).info
    players = max(info.min_players, 4) if info.max_players >= 4 else info.min_players
    created = store.create(game, players, ["open"] * players, seed=seed)
    for seat in range(players):
        store.join(created.invites[seat], f"p{seat}")
    return created.table_id


@pytest.mark.parametrize("game", GAMES)
def test_a_snapshot_gives_back_the_same_game_which_then_plays_on_identically(game):
    state = get_game(game).new(get_game(game).info.min_players, 11, {})
    agent = make_agent(get_game(game), "random")
    rng = random.Random(11)
    for step in range(200):
        if state.is_over():
            break
        if step % 17 == 0:
            copy = snapshots.loads(snapshots.dumps(state), state.digest())
            assert copy is not None and copy.digest() == state.digest()
            assert copy.view(0) == state.view(0) and copy.pending() == state.pending()
            seat = min(state.pending())
            action = decide(agent, state, seat, random.Random(step))
            copy.apply(seat, action)
            state.apply(seat, action)
            assert copy.digest() == state.digest()
            continue
        seat = min(state.pending())
        state.apply(seat, decide(agent, state, seat, rng))


def _bare(cls: type) -> object:
    """An instance of ``cls`` made without its constructor, as unpickling makes one."""
    return cls.__new__(cls)


class _Written:
    """Pickles as the reduction it is given: a snapshot as an older version would have written it."""

    def __init__(self, reduced: tuple[object, ...]) -> None:
        self.reduced = reduced

    def __reduce__(self) -> tuple[object, ...]:
        return self.reduced


@pytest.mark.parametrize("game", GAMES)
def test_a_snapshot_without_a_field_the_state_declares_now_is_ignored(game):
    """A snapshot of an older version of a game's state (one field or attribute of the base fewer:
    its digest may still match, if the field is not digested) is not read back: the table is
    replayed whole instead."""
    state = get_game(game).new(get_game(game).info.min_players, 5, {})
    rng = random.Random(5)
    for _ in range(20):
        seat = min(state.pending())
        state.apply(seat, state.legal_actions(seat).sample(rng))
    _, _, fields, *rest = state.__reduce_ex__(5)
    assert isinstance(fields, dict)
    base = sorted(State.BASE_FIELDS - {"rng"})  # rng: the generator made from the one kept
    assert {"_legal_seat", "_legal_space"} <= set(base)
    for name in [*type(state).FIELDS, *base]:
        assert name in fields
        older = {key: value for key, value in fields.items() if key != name}
        data = snapshots.dumps(_Written((_bare, (type(state),), older, *rest)))  # type: ignore[arg-type]
        assert snapshots.loads(data, state.digest()) is None
    assert snapshots.loads(snapshots.dumps(state), state.digest()) is not None


def test_a_live_table_resumes_from_its_latest_snapshot_without_replaying_the_actions_before_it(db_url):
    store = new_store(db_url)
    table_id = live_table(store, "bread-and-circuses", 3)
    play(store, table_id, snapshots.EVERY * 2 + 5, seed=3)
    before = store.live[table_id]
    assert not before.state.is_over()
    digest, count = before.state.digest(), len(before.actions)
    with store.session() as db, db.begin():
        snapshot = db.get(SnapshotRow, table_id)
        assert snapshot is not None and snapshot.actions == snapshots.EVERY * 2
        # an early action no longer replays: only a resume from the snapshot can rebuild the table
        db.execute(update(ActionRow).where(ActionRow.table_id == table_id, ActionRow.number == 0)
                   .values(action={"type": "nothing of the kind"}))
    store.engine.dispose()
    again = new_store(db_url)
    resumed = again.live[table_id]
    assert resumed.state.digest() == digest and len(resumed.actions) == count
    assert [seat for seat, _ in resumed.actions] == [seat for seat, _ in before.actions]
    play(again, table_id, 10, seed=4)  # and it plays on


@pytest.mark.parametrize("damage", ["code", "bytes", "digest"])
def test_a_snapshot_that_cannot_be_trusted_is_ignored_and_the_table_replayed_whole(db_url, damage):
    store = new_store(db_url)
    table_id = live_table(store, "culottes", 5)
    play(store, table_id, snapshots.EVERY + 3, seed=5)
    digest = store.live[table_id].state.digest()
    changes = {"code": {"code": "0.0.0/old"}, "bytes": {"state": b"not a pickle"},
               "digest": {"digest": "0" * 32}}[damage]
    with store.session() as db, db.begin():
        db.execute(update(SnapshotRow).where(SnapshotRow.table_id == table_id).values(**changes))
    store.engine.dispose()
    again = new_store(db_url)
    assert again.live[table_id].state.digest() == digest
