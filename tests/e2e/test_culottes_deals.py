"""End to end in headless Chromium: a Culottes bribe offered, seen, accepted and held in escrow."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, Locator, Page, ViewportSize, expect

from tests.e2e.checks import assert_no_ids, show_forms
from tests.server.conftest import LiveServer
from tricolore.games.culottes.rules import CulottesState

SEED = 0
"""With this seed the die of the first cake vote rolls 3, so the trial it opens stays open."""
PLAYERS = ["Camille", "Lucile", "Georges"]
CITIZENS = ["Robespierre", "Danton", "Marat"]
OFFERED = ("Offered: Robespierre bribes Danton to vote privileged on Marat; "
           "if that side loses, up to 5 lost cakes back and 2 more")
ESCROW = "Escrow holds 7 cakes: Robespierre 7 for a bribe to Danton"


def deals(page: Page) -> Locator:
    return page.locator("[data-testid=board] .deals")


def test_a_bribe_is_offered_and_accepted_in_the_browser_with_citizens_named_on_both_boards(
        server: LiveServer, browser: Browser, output: Path):
    created = server.store.create("culottes", 3, ["open"] * 3, {"first_player": 0}, seed=SEED)
    table = created.table_id
    problems: list[str] = []
    pages: list[Page] = []
    sizes = [ViewportSize(width=1280, height=900), ViewportSize(width=390, height=844)]  # a phone
    for seat, size in enumerate(sizes):
        page = browser.new_context(viewport=size).new_page()
        page.on("pageerror", lambda e: problems.append(str(e)))
        page.goto(f"{server.base}/table/{table}#invite={created.invites[seat]}")
        page.fill("input[name=name]", PLAYERS[seat])
        page.click("text=Join the table")
        expect(page.locator("ul.seats")).to_contain_text(PLAYERS[seat])
        show_forms(page)  # the bribe is offered and accepted with the forms
        pages.append(page)
    first, second = pages
    server.join(f"#invite={created.invites[2]}", PLAYERS[2])

    # The opening moves, over a second connection for each seat's token (and its browser's
    # secret, which a seat claimed in a browser asks for): roles, then
    # Robespierre's cake vote opens Marat's trial.
    devices = [page.evaluate("localStorage.getItem('tricolore:device')") for page in pages] + [None]
    socks = [server.socket(table, created.invites[s], devices[s]) for s in range(3)]
    for seat, name in enumerate(CITIZENS):
        assert socks[seat].act({"type": "choose_role", "role": "revolutionary", "name": name},
                               f"role-{seat}")["type"] == "ack"
    vote = {"type": "cake_vote", "citizen": 2, "side": "privileged", "cakes": 2}
    assert socks[0].act(vote, "vote")["type"] == "ack"
    state = server.store.live[table].state
    assert isinstance(state, CulottesState)
    assert state.trials_open() == [2], "the seed no longer leaves the trial open"
    for sock in socks:
        sock.close()

    # Camille offers Danton a bribe with the widgets of the "Any time" form.
    offer = first.locator("section.free form.action[data-kind=offer_bribe]")
    offer.locator("select[name=from]").select_option(label="Robespierre")
    offer.locator("select[name=trial]").select_option(label="Marat")
    offer.locator("select[name=voter]").select_option(label="Danton")
    offer.locator("select[name=side]").select_option(label="privileged")
    offer.locator("input[name=reward]").fill("2")
    # the cover's limit follows the reward: Robespierre's 18 cakes less the reward of 2
    expect(offer.locator("input[name=cover]")).to_have_attribute("max", "16")
    offer.locator("input[name=cover]").fill("5")
    offer.locator("[data-testid=act-offer_bribe]").click()

    # Lucile sees it on the board, and accepts it by what it promises.
    expect(deals(second)).to_contain_text(OFFERED)
    expect(deals(second)).to_contain_text(ESCROW)
    accept = second.locator("section.free form.action[data-kind=accept_bribe]")
    expect(accept.locator("select[name=deal] option")).to_have_text(
        ["Robespierre's bribe to Danton: vote privileged on Marat"])
    assert_no_ids(second)
    accept.locator("[data-testid=act-accept_bribe]").click()

    for page in pages:
        expect(deals(page).locator("li")).to_have_text([OFFERED.replace("Offered", "Accepted")])
        expect(deals(page).locator("p")).to_have_text(ESCROW)
        expect(page.locator("[data-testid=book] li")).to_have_text(  # the Book's row
            ["Turn 1: Robespierre voted 2 cakes that Marat is privileged — trial open"])
        expect(page.locator("[data-testid=log]")).to_contain_text("Danton accepts Robespierre's bribe.")
        expect(page.locator("[data-testid=log]")).to_contain_text(
            "Robespierre offers Danton a bribe: vote privileged on Marat; if that side loses, up to 5 lost "
            "cakes back and 2 more (7 cakes held in escrow: kept by the table until the trial closes).")
        assert_no_ids(page)
    expect(first.locator("section.free form.action[data-kind=withdraw_bribe]")).to_have_count(0)
    first.screenshot(path=output / "bribe-accepted.png", full_page=True)
    second.screenshot(path=output / "bribe-accepted-phone.png", full_page=True)
    deal = server.store.live[table].state.view(None)["deals"][0]
    assert (deal["status"], deal["reward"], deal["cover"]) == ("accepted", 2, 5)
    assert problems == []
    assert (output / "bribe-accepted.png").stat().st_size > 10_000
