"""Tables through the store: lobby, joining, persisted play, idempotent resends, resuming.

Every test here runs on both databases: an SQLite file and a PostgreSQL server on loopback."""

import random

import pytest

from tests.server.conftest import new_store
from tricolore.agents import make_agent
from tricolore.core.registry import get_game
from tricolore.server.db import ChatRow, SeatToken, make_engine
from tricolore.server.tables import BOT, BOT_NAMES, TableError, TableStore


@pytest.fixture
def store(db_url):
    store = new_store(db_url)
    yield store
    store.engine.dispose()


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
    with pytest.raises(TableError, match="the second player's seat must be \"open\" or a strategy"):
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


def test_resume_rebuilds_every_table_at_the_same_digest(db_url):
    store = new_store(db_url)
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
    store.engine.dispose()
    again = TableStore(make_engine(db_url))
    assert again.resume() == 1
    assert again.live[created.table_id].state.digest() == digest


def test_chat_is_stored_and_private_messages_reach_only_their_two_seats(store):
    created = store.create("culottes", 3, ["open", "open", "open"], seed=5)
    table = created.table_id
    store.chat(table, 0, "Vive la nation", None)
    store.chat(table, 0, "meet me after the vote", 2)
    assert [m["text"] for m in store.chat_for(table, 1)] == ["Vive la nation"]
    assert [m["text"] for m in store.chat_for(table, 2)] == ["Vive la nation", "meet me after the vote"]
    assert [m["text"] for m in store.chat_for(table, None)] == ["Vive la nation"]
    with store.session() as db:
        assert db.query(ChatRow).count() == 2
    with pytest.raises(TableError, match="at most 500 characters"):
        store.chat(table, 0, "x" * 501, None)
    with pytest.raises(TableError, match="another seat"):
        store.chat(table, 0, "hello me", 0)



def test_a_private_message_carries_a_proposal_and_its_answer_and_nobody_else_reads_them(store):
    created = store.create("let-them-eat-cake", 3, ["open", "open", "open"], seed=5)
    table = created.table_id
    trade = {"kind": "propose_trade", "values": {"to": 1, "give_medals": 1, "ask_generals": 2}}
    asked = store.chat(table, 0, "You get 1 Medal for 2 Generals", 1, trade)
    answer = {"answer": asked["number"], "accepted": True}
    store.chat(table, 1, "Agreed", 0, answer)
    assert [m["terms"] for m in store.chat_for(table, 1)] == [trade, answer]
    assert store.chat_for(table, 2) == [] and store.chat_for(table, None) == []


@pytest.mark.parametrize(("to", "terms", "refusal"), [
    (None, {"kind": "propose_trade", "values": {}}, "goes to one player, privately"),
    (1, ["propose_trade"], "terms are"),
    (1, {"kind": "Propose Trade!", "values": {}}, "terms are"),
    (1, {"kind": "propose_trade", "values": {"to": {"nested": 1}}}, "the term to is a number"),
    (1, {"kind": "propose_trade", "values": {"x" * 60: 1}}, "a term's name is a short word"),
    (1, {"kind": "propose_trade", "values": {"note": "x" * 1200}}, "at most 1000 characters"),
    (1, {"answer": "first", "accepted": True}, "terms are"),
    (1, {"answer": 999, "accepted": True}, "only a proposal made to you"),
])
def test_terms_that_are_not_a_proposal_or_an_answer_are_refused_with_a_sentence_and_not_stored(
        store, to, terms, refusal):
    created = store.create("let-them-eat-cake", 3, ["open", "open", "open"], seed=5)
    with pytest.raises(TableError, match=refusal):
        store.chat(created.table_id, 0, "a deal", to, terms)
    assert store.chat_for(created.table_id, 0) == []


def test_only_the_player_a_proposal_was_made_to_may_answer_it(store):
    created = store.create("let-them-eat-cake", 3, ["open", "open", "open"], seed=5)
    table = created.table_id
    asked = store.chat(table, 0, "1 Medal for 2 Generals", 1, {"kind": "propose_trade", "values": {"to": 1}})
    with pytest.raises(TableError, match="only a proposal made to you"):
        store.chat(table, 2, "I accept for him", 0, {"answer": asked["number"], "accepted": True})
    with pytest.raises(TableError, match="only a proposal made to you"):
        store.chat(table, 0, "I accept my own", 1, {"answer": asked["number"], "accepted": True})

def test_a_bot_takes_over_a_seat_that_is_left_and_the_choice_survives_a_restart(db_url):
    store = new_store(db_url)
    created = store.create("culottes", 3, ["open", "random", "random"], seed=6)
    store.join(created.invites[0], "Marat")
    assert store.leave(created.table_id, 0) == "honest-revolutionary"
    assert store.live[created.table_id].seats[0]["kind"] == BOT
    store.engine.dispose()
    again = TableStore(make_engine(db_url))
    again.resume()
    assert again.live[created.table_id].seats[0]["strategy"] == "honest-revolutionary"
    refuses = again.create("culottes", 3, ["open", "random", "random"], bots_take_over=False)
    again.join(refuses.invites[0], "Danton")
    with pytest.raises(TableError, match="does not let bots take over"):
        again.leave(refuses.table_id, 0)


def test_a_person_never_shares_a_name_with_a_bot(store):
    created = store.create("culottes", 3, ["open", "open", "random"])
    bot_name = store.live[created.table_id].seats[2]["name"]
    store.join(created.invites[0], bot_name.upper())
    seats = store.live[created.table_id].seats
    assert seats[0]["name"] == bot_name.upper() and seats[2]["kind"] == "bot"
    assert seats[2]["name"].casefold() != bot_name.casefold()  # the bot took another name
    assert seats[2]["name"] in BOT_NAMES


def test_once_the_game_has_started_a_bot_s_name_is_refused_with_a_sentence(store):
    created = store.create("culottes", 3, ["open", "random", "random"])
    store.join(created.invites[0], "Marie-Jeanne")
    bot_name = store.live[created.table_id].seats[1]["name"]
    with pytest.raises(TableError, match=f"a bot at this table is already called {bot_name}"):
        store.join(created.invites[0], bot_name)
    assert store.live[created.table_id].seats[0]["name"] == "Marie-Jeanne"


def play_to_the_end(store: TableStore, table_id: str) -> None:
    """Every seat's bot strategy plays the table's game to its end through the store."""
    table = store.live[table_id]
    agents = [make_agent(get_game(table.game), s["strategy"]) for s in table.seats]
    rng = random.Random(1)
    while not table.state.is_over():
        seat = min(table.state.pending())
        action = agents[seat].act(table.state.view(seat), table.state.legal_actions(seat), rng)
        assert store.act(table_id, seat, action).accepted


def test_only_the_most_recently_asked_for_finished_tables_stay_in_memory(db_url):
    store = TableStore(new_store(db_url).engine, keep_finished=2)
    ids = [store.create("culottes-trials", 3, ["random"] * 3, seed=s).table_id for s in range(4)]
    digests = {}
    for table_id in ids:
        play_to_the_end(store, table_id)
        digests[table_id] = store.live[table_id].state.digest()
    assert store.live.finished() == 2 and [t.id for t in store.live.values()] == ids[2:]
    first = store.live[ids[0]]  # rebuilt from its rows, checked against every stored digest
    assert first.status == "over" and first.state.digest() == digests[ids[0]]
    assert [t.id for t in store.live.values()] == [ids[3], ids[0]]
    assert "no-such-table" not in store.live and store.live.get("no-such-table") is None
    store.engine.dispose()


def test_a_restart_rebuilds_the_tables_in_play_and_lists_the_finished_from_their_rows(db_url):
    store = new_store(db_url)
    finished = store.create("culottes-trials", 3, ["random"] * 3, seed=7).table_id
    play_to_the_end(store, finished)
    playing = store.create("culottes", 3, ["random"] * 3, seed=8).table_id
    waiting = store.create("culottes", 3, ["open", "random", "random"], seed=9).table_id
    listed = store.summaries("over")
    store.engine.dispose()
    again = new_store(db_url)
    assert again.resume() == 2 and {t.id for t in again.live.values()} == {playing, waiting}
    assert again.summaries("over") == listed
    assert listed[0]["table_id"] == finished and listed[0]["actions"] == len(again.live[finished].actions)
    assert again.summaries("over") == listed  # the same facts once it is rebuilt in memory
    assert [s["table_id"] for s in again.summaries("playing")] == [playing]
    again.engine.dispose()


DEVICE = "a-browser-secret-of-enough-length"


def test_anyone_takes_an_open_seat_of_a_table_open_to_all_and_its_invite_then_opens_nothing(store):
    created = store.create("culottes", 3, ["open", "open", "random"], seed=5, open_to_all=True)
    table = created.table_id
    token = store.take_seat(table, 1, "Olympe", DEVICE)
    assert store.live[table].seats[1] == {"kind": "human", "name": "Olympe"}
    assert store.seat_of(token) == (table, 1)
    with pytest.raises(TableError, match="not valid"):
        store.join(created.invites[1], "Intruder")  # the seat's invite was retired
    assert sorted(store.invites_for(table, created.creator)) == [0]
    with pytest.raises(TableError, match="not open any more"):
        store.take_seat(table, 1, "Another", DEVICE + "x")
    store.join(created.invites[0], "Camille")
    assert store.live[table].status == "playing"
    with pytest.raises(TableError, match="no longer waiting"):
        store.take_seat(table, 0, "Late", DEVICE)


def test_a_table_by_invitation_only_refuses_to_give_a_seat_from_the_lobby(store):
    created = store.create("culottes", 3, ["open", "open", "random"], seed=5)
    with pytest.raises(TableError, match="invitation only"):
        store.take_seat(created.table_id, 0, "Olympe", DEVICE)
    with pytest.raises(TableError, match="secret is not valid"):
        store.take_seat(created.table_id, 0, "Olympe", "short")
    assert store.live[created.table_id].seats[0]["kind"] == "open"


def test_whether_a_table_is_open_to_all_survives_a_restart(db_url):
    first = new_store(db_url)
    created = first.create("culottes", 3, ["open", "open", "random"], seed=5, open_to_all=True)
    first.engine.dispose()
    again = new_store(db_url)
    assert again.live[created.table_id].open_to_all
    again.take_seat(created.table_id, 0, "Olympe", DEVICE)
