"""Names at a table: a bot never bears a person's name or a name the game gives its pieces (Culottes'
citizens), and the table remembers when a bot played for a person who left."""

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.conftest import new_store
from tricolore.games.culottes.data import CITIZEN_NAMES
from tricolore.server.db import sqlite_url
from tricolore.server.tables import BOT, BOT_NAMES, TableStore, names_in_play


@pytest.fixture
def store(tmp_path: Path) -> Iterator[TableStore]:
    store = new_store(sqlite_url(tmp_path / "tables.db"))
    yield store
    store.engine.dispose()


def citizen_names(store: TableStore, table_id: str) -> set[str]:
    view = store.live[table_id].state.view(None)
    return {citizen["name"].casefold() for citizen in view["citizens"]}


def bot_names(store: TableStore, table_id: str) -> list[str]:
    return [seat["name"] for seat in store.live[table_id].seats if seat["kind"] == BOT]


def test_no_bot_is_named_like_a_citizen_at_the_table(store: TableStore):
    pool = {name.casefold() for name in CITIZEN_NAMES}
    for seed in range(12):
        created = store.create("culottes", 6, ["open", *["random"] * 5], seed=seed)
        bots = bot_names(store, created.table_id)
        assert len(bots) == 5 and len({b.casefold() for b in bots}) == 5
        assert not {b.casefold() for b in bots} & citizen_names(store, created.table_id)
        assert not {b.casefold() for b in bots} & pool  # nor like a citizen recruited later


def test_the_names_in_play_are_the_citizens_and_the_names_offered_for_them(store: TableStore):
    created = store.create("culottes", 3, ["open", "random", "random"], seed=3)
    in_play = names_in_play(store.live[created.table_id].state)
    assert citizen_names(store, created.table_id) <= in_play
    assert {name.casefold() for name in CITIZEN_NAMES} <= in_play
    assert not in_play & {name.casefold() for name in BOT_NAMES}


def test_a_person_who_takes_a_bot_s_name_sends_the_bot_to_another_one(store: TableStore):
    created = store.create("culottes", 4, ["open", "open", "random", "random"], seed=5)
    table = created.table_id
    taken = bot_names(store, table)[0]
    store.join(created.invites[0], taken)
    store.join(created.invites[1], "")  # no name given: one nobody at the table bears
    names = [seat["name"].casefold() for seat in store.live[table].seats]
    assert len(set(names)) == 4
    assert names[0] == taken.casefold() and taken.casefold() not in names[1:]
    assert not set(names[1:]) & citizen_names(store, table)


def test_a_citizen_cannot_be_named_after_a_bot_at_the_table(store: TableStore):
    created = store.create("culottes", 3, ["open", "random", "random"], seed=7)
    table = created.table_id
    store.join(created.invites[0], "Marianne")
    bot = bot_names(store, table)[0]
    refused = store.act(table, 0, {"type": "choose_role", "role": "grabber", "name": bot.upper()})
    assert not refused.accepted and refused.code == "name_taken"
    assert refused.message == f"{bot} is the name of a player at this table; choose another name."
    assert store.act(table, 0, {"type": "choose_role", "role": "grabber", "name": "Cécile"}).accepted


def test_the_table_remembers_from_when_a_bot_played_for_a_person_who_left(store: TableStore):
    created = store.create("bread-and-circuses", 3, ["open", "open", "random"], seed=2)
    table = created.table_id
    store.join(created.invites[0], "Marianne")
    store.join(created.invites[1], "Danton")
    live = store.live[table]
    round_now = live.state.view(None)["round"]
    store.leave(table, 0)
    since = {"word": "round", "number": round_now}
    assert live.takeovers()[0] == [{"from": since, "until": None, "actions": 0}]
    assert live.takeovers()[1:] == [[], []]
    assert live.strategies()[2] is not None
    # taking the seat back before the bot made a move leaves no trace
    store.join(created.invites[0], "", move=True, device="a" * 32)
    assert live.takeovers()[0] == [] and live.seats[0] == {"kind": "human", "name": "Marianne"}
