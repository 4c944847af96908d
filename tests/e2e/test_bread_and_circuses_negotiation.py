"""End to end in headless Chromium: a Bread and Circuses deal under Regulated Bribery made by two
people (one at a desktop, one on a phone) with a bot at the table, through the drawn controls
only: offered from the other player's panel, the tile picked on drawn tiles and the Gold on a
stepper, countered and accepted on the offer cards, kept at the reveal and paid before both."""

from __future__ import annotations

import time
from pathlib import Path

from playwright.sync_api import Browser, Locator, Page, ViewportSize, expect

from tests.e2e import checks
from tests.e2e.checks import (
    assert_no_ids,
    confirm,
    decision,
    moment_said,
    settled,
    summary,
    take,
)
from tests.server.conftest import LiveServer

GAME = "bread-and-circuses"
PLAYERS = ["Camille", "Lucile"]
BOT = "honest-discloser:offers=0,pays_up_to=0"
"""The third noble discloses honestly and declares ready, and neither offers nor pays a deal."""
SIZES = [ViewportSize(width=1280, height=900), ViewportSize(width=390, height=844)]  # a phone
OFFER = ("You give Lucile 2 Gold if Lucile plays Circus this round; binding once Lucile accepts, paid at "
         "the reveal.")
COUNTER = ("You ask Camille for 3 Gold if you play Circus this round; binding once Camille accepts, paid at "
           "the reveal.")
BINDING = ("binding (Regulated Bribery: once the other side accepts, neither can break the deal; the Gold "
           "moves by itself at that round's reveal if the promise is kept, and never otherwise)")
"""The rule term of the sentence, as a screen reader says it: the word and its plain meaning."""
PAID = "Camille pays Lucile 3 Gold: Lucile kept the promise to play Circus in round 1."


def sit(server: LiveServer, browser: Browser, address: str, name: str,
        size: ViewportSize) -> tuple[Page, list[str]]:
    page, problems = checks.sit(server.base, browser, address, name, size)
    expect(page.locator("[data-testid=bread-table]")).to_be_visible()
    return page, problems


def card(page: Page, deal: int) -> Locator:
    return page.locator(f"[data-testid=offers] [data-testid=offer][data-key=deal-{deal}]")


def on_board(page: Page, key: str) -> Locator:
    return page.locator(f"[data-testid=bread-table] [data-key={key}]")


def drawn_words(node: Locator) -> str:
    """The words drawn in an element of the board, line after line (not its tooltip)."""
    return " ".join(node.locator("text").all_text_contents())


def more_gold(page: Page, to: int) -> None:
    """Step the deal's Gold up to ``to`` with the status bar's + button."""
    stepper = page.locator("[data-testid=decision] [data-stepper=gold]")
    while int(stepper.locator("output").inner_text()) < to:
        stepper.locator("button[aria-label^=more]").click()


def check(pages: list[Page], output: Path, shot: str) -> None:
    """No seat number or id on either page; a screenshot of each, and of the phone's board alone
    (the phone's whole page is long)."""
    for page, suffix in zip(pages, ("", "-phone"), strict=True):
        assert_no_ids(page)
        page.screenshot(path=output / f"{shot}{suffix}.png", full_page=True)
    pages[1].locator("[data-testid=board]").screenshot(path=output / f"{shot}-phone-board.png")


def test_a_deal_is_offered_countered_accepted_and_paid_at_the_reveal_on_both_boards(
        server: LiveServer, browser: Browser, output: Path):
    created = server.store.create(GAME, 3, ["open", "open", BOT],
                                  {"first_player": 0, "regulated_bribery": True}, seed=1)
    seated = [sit(server, browser, f"/table/{created.table_id}#invite={created.invites[s]}",
                  PLAYERS[s], SIZES[s]) for s in range(2)]
    pages = [page for page, _ in seated]
    camille, lucile = pages

    # Camille offers Lucile Gold from Lucile's panel: the tile on the drawn tiles, the Gold on the stepper.
    camille.locator("[data-testid=players] li[data-seat='1'] [data-testid=deal-offer_deal]").click()
    expect(camille.locator("[data-testid=decision]")).to_have_attribute("data-draft", "offer_deal")
    expect(camille.locator("[data-testid=confirm]")).to_be_disabled()  # no tile yet
    on_board(camille, "deal-tile-circus").click()
    more_gold(camille, 2)
    expect(summary(camille)).to_have_text(OFFER)
    expect(summary(camille).locator("[data-term=binding]")).to_have_attribute("aria-label", BINDING)
    check(pages, output, "offer-drafted")
    confirm(camille)

    # Lucile reads it as a card and counters it: the builder opens filled in, the other way round.
    offered = card(lucile, 0)
    expect(offered).to_contain_text("Camille offers you 2 Gold if you play Circus this round.")
    expect(offered).to_contain_text("Waiting for your answer.")
    expect(lucile.locator("[data-testid=offers-awaiting]")).to_have_text("1 to answer")
    expect(card(camille, 0)).to_contain_text("Waiting for Lucile's answer.")
    expect(card(camille, 0).locator("[data-testid=offer-withdraw]")).to_be_visible()
    check(pages, output, "offer-received")
    offered.locator("[data-testid=offer-counter]").click()
    expect(lucile.locator("[data-testid=decision]")).to_have_attribute("data-draft", "solicit_deal")
    expect(on_board(lucile, "deal-tile-circus")).to_have_attribute("aria-pressed", "true")
    more_gold(lucile, 3)
    expect(summary(lucile)).to_have_text(COUNTER)
    check(pages, output, "counter-drafted")
    confirm(lucile)

    # Camille sees the counter (her offer declined by it) and accepts it.
    countered = card(camille, 1)
    expect(countered).to_contain_text("Lucile asks you for 3 Gold if Lucile plays Circus this round.")
    expect(card(camille, 0)).to_contain_text("Declined by Lucile.")
    expect(card(lucile, 1).locator("[data-testid=offer-withdraw]")).to_be_visible()
    countered.locator("[data-testid=offer-accept]").click()
    settled(camille)
    for page, payer in ((camille, "you"), (lucile, "Camille")):
        expect(card(page, 1)).to_contain_text("Accepted: binding, paid at the reveal if the promise is kept.")
        promise = on_board(page, "place-1").locator("[data-key=promise-1]")
        expect(promise).to_be_visible()
        assert drawn_words(promise) == f"3 Gold from {payer} if Circus this round"
        expect(page.locator("[data-testid=log]")).to_contain_text(
            "Camille accepts the deal: Camille pays Lucile 3 Gold if Lucile plays Circus in round 1; "
            "it is binding.")
    check(pages, output, "deal-accepted")

    # Both declare ready and place a tile; Lucile keeps the promise.
    for page in pages:
        take(page, "ready")
    for page, tile in ((camille, "bread"), (lucile, "circus")):
        mine = on_board(page, f"my-tile-{tile}")
        expect(mine).to_have_attribute("role", "button", timeout=10_000)
        mine.click()
        confirm(page)

    # The reveal pays: the Gold flies from Camille to Lucile, the promise is marked paid, the log says so.
    for page in pages:
        expect(page.locator("[data-testid=log]")).to_contain_text(PAID)
        expect(on_board(page, "promise-1")).to_have_attribute("data-status", "paid")
        assert drawn_words(on_board(page, "promise-1")).endswith("if Circus paid 3 ✓")
        expect(card(page, 1)).to_contain_text("Paid: 3 Gold from")
    deadline = time.monotonic() + 10
    while not all(moment_said(page, PAID) for page in pages):
        assert time.monotonic() < deadline, "the payment was not shown as a moment on both boards"
        pages[0].wait_for_timeout(100)
    check(pages, output, "deal-paid")
    state = server.store.live[created.table_id].state
    deal = state.view(None)["deals"][1]
    assert (deal["status"], deal["paid"], deal["payer"], deal["payee"]) == ("paid", 3, 0, 1)

    # The Sabotage windows are passed; next round's board still shows the promise kept.
    deadline = time.monotonic() + 15
    while "Round 2" not in (camille.locator("[data-testid=bread-table]").get_attribute("aria-label") or ""):
        assert time.monotonic() < deadline, "round 2 did not begin"
        for page in pages:
            if "pass" in decision(page).split(","):
                page.locator("[data-testid=decision] [data-action=pass]").click()
                settled(page)
        camille.wait_for_timeout(100)
    for page in pages:
        expect(on_board(page, "promise-1")).to_have_attribute("data-status", "paid")
        assert drawn_words(on_board(page, "promise-1")).endswith("if Circus paid 3 ✓")
        assert_no_ids(page)
    assert [p for _, problems in seated for p in problems] == []
