"""End to end in headless Chromium: a Let Them Eat Cake trade made at the table by two people, one
at a desk and one on a phone, with a bot in the third seat. Camille proposes a trade from Lucile's
panel, Lucile counters it from its card, Camille accepts the counter, and each gives their part
through the cards: the Medals and the Cake cards move on both screens. Each player's hand and stash
are shown once, on the board."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Browser, Locator, Page, ViewportSize, expect

from tests.e2e.checks import assert_no_ids, confirm, decision, sit, summary
from tests.server.conftest import LiveServer

DESKTOP = ViewportSize(width=1280, height=900)
PHONE = ViewportSize(width=390, height=844)
TABLE = "[data-testid=ltec-table]"
CAKE_CARDS = "[data-key^=stash-]:not([data-key=stash-total])"
"""The Cake cards of your stash drawn on the board (not the line that totals them)."""


def join(browser: Browser, server: LiveServer, invite: str, size: ViewportSize, name: str,
         problems: list[str]) -> Page:
    page, _ = sit(server.base, browser, invite, name, size, problems)
    expect(page.locator(TABLE)).to_be_visible()
    return page


def card(page: Page, words: str) -> Locator:
    """The offer card whose sentence reads ``words``."""
    return page.locator("[data-testid=offers] [data-testid=offer]", has_text=words)


def more(page: Page, param: str, times: int = 1) -> None:
    """Press the status bar's + stepper of ``param`` ``times`` times."""
    for _ in range(times):
        page.locator(f"[data-stepper={param}] button[aria-label^=more]").click()


def medals(page: Page, seat: int) -> Locator:
    """The count of a player's Medals drawn on their board panel."""
    return page.locator(f"{TABLE} [data-key=medals-{seat}] text")


def stash(page: Page, seat: int) -> Locator:
    return page.locator(f"{TABLE} [data-key=stash-count-{seat}]")


def check(pages: list[Page]) -> None:
    for page in pages:
        assert_no_ids(page)


def test_a_trade_is_proposed_countered_accepted_and_given_through_the_cards_on_desk_and_phone(
        server: LiveServer, browser: Browser, output: Path):
    created = server.create("let-them-eat-cake", ["open", "open", "cake-hoarder"],
                            options={"first_head": 0}, window_seconds=0)
    problems: list[str] = []
    camille = join(browser, server, created["invites"]["0"], DESKTOP, "Camille", problems)
    lucile = join(browser, server, created["invites"]["1"], PHONE, "Lucile", problems)
    pages = [camille, lucile]
    for page in pages:
        expect(page.locator("[data-testid=players] li[data-seat='1']")).to_contain_text("Lucile")
        expect(medals(page, 0)).to_have_text("3")
        expect(medals(page, 1)).to_have_text("3")
    check(pages)

    # Each hand is shown once: drawn on the board, and the secret panel does not repeat it.
    for page in pages:
        yours = page.locator(f"{TABLE} [data-key=yours]")
        expect(yours.locator("[data-key^=vote-card-]")).to_have_count(4)  # two per other player
        expect(yours.locator(CAKE_CARDS)).to_have_count(2)
        secret = page.locator("[data-testid=secret]")
        expect(secret).to_contain_text("Played, face down: none")
        expect(secret).not_to_contain_text("Stash:")
        expect(secret).not_to_contain_text("Voting cards in hand")

    # Camille proposes a trade from Lucile's panel: 1 Medal for 1 Cake card.
    camille.locator("[data-testid=players] li[data-seat='1'] [data-testid=deal-propose_trade]").click()
    assert decision(camille) == "propose_trade"
    expect(summary(camille)).to_contain_text("You propose a trade to Lucile")
    expect(camille.locator("[data-testid=confirm]")).to_be_disabled()
    more(camille, "give_medals")
    more(camille, "ask_cakes")
    expect(summary(camille)).to_have_text(
        "You offer Lucile 1 Medal for 1 Cake card — never binding: each side gives its part.")
    expect(summary(camille).locator("[data-term=Medal]")).to_have_attribute(
        "aria-label", "Medal (Medal of Honour: whoever has the fewest is the Enemy of the Revolution and "
                      "sends a Pawn to the Guillotine)")
    check(pages)
    camille.screenshot(path=output / "1-trade-drafted.png")
    confirm(camille)
    expect(card(camille, "You offer Lucile 1 Medal for 1 Cake card")).to_contain_text(
        "Waiting for Lucile's answer.")

    # Lucile sees it as a card to answer, and counters it: 1 Cake card, but for 2 Medals.
    offered = card(lucile, "Camille offers you 1 Medal for 1 Cake card")
    expect(offered).to_contain_text("Your answer?")
    expect(lucile.locator("[data-testid=offers-awaiting]")).to_have_text("1 to answer")
    check(pages)
    offered.scroll_into_view_if_needed()
    lucile.screenshot(path=output / "2-offer-received-phone.png")
    offered.locator("[data-testid=offer-counter]").click()
    assert decision(lucile) == "propose_trade"
    expect(summary(lucile)).to_have_text(
        "You offer Camille 1 Cake card for 1 Medal — never binding: each side gives its part.")
    more(lucile, "ask_medals")
    expect(summary(lucile)).to_have_text(
        "You offer Camille 1 Cake card for 2 Medals — never binding: each side gives its part.")
    check(pages)
    confirm(lucile)
    expect(offered).to_contain_text("You answered with a counter-offer.")
    expect(lucile.locator("[data-testid=offers-awaiting]")).to_have_count(0)

    # Camille accepts the counter: the gift of her part opens filled in.
    expect(card(camille, "You offer Lucile 1 Medal for 1 Cake card")).to_contain_text(
        "Lucile answers with a counter-offer.")
    counter = card(camille, "Lucile offers you 1 Cake card for 2 Medals")
    expect(counter).to_contain_text("Your answer?")
    check(pages)
    camille.screenshot(path=output / "3-counter-received.png")
    counter.locator("[data-testid=offer-accept]").click()
    assert decision(camille) == "give_medals"
    expect(camille.locator("[data-stepper=medals] output")).to_have_text("2")
    expect(summary(camille)).to_contain_text("You give Lucile 2 Medals")
    confirm(camille)
    for page in pages:  # the Medals move on both screens
        expect(medals(page, 0)).to_have_text("1")
        expect(medals(page, 1)).to_have_text("5")
    expect(counter).to_contain_text(
        "You accepted. Lucile has not given 1 Cake card yet; you have given all of your part (2 Medals).")
    mine = card(lucile, "You offer Camille 1 Cake card for 2 Medals")
    expect(mine).to_contain_text(
        "Camille accepts. Camille has given all of their part (2 Medals); "
        "you have not given 1 Cake card yet.")
    expect(lucile.locator(f"{TABLE} [data-key=trade-0]")).to_have_attribute(
        "data-tip", re.compile(r"^An accepted trade: You owe 1 Cake card\. Agreements are never binding"))
    check(pages)
    lucile.screenshot(path=output / "4-accepted-phone.png", full_page=True)

    # Lucile gives her part from the card: a Cake card picked in her stash on the board.
    mine.locator("[data-testid=offer-give-cakes]").click()
    assert decision(lucile) == "give_cakes"
    expect(summary(lucile)).to_have_text(
        "You give Camille Cake cards: click them in your stash, on the board.")
    given = lucile.locator(f"{TABLE} [data-key=stash-0]")
    value = given.locator("text").text_content()
    given.click()
    expect(summary(lucile)).to_contain_text(
        f"You give Camille 1 Cake card (Cake {value}; only you two see their values)")
    confirm(lucile)
    for page in pages:
        expect(stash(page, 0)).to_have_text("Stash: 3 cards")
        expect(stash(page, 1)).to_have_text("Stash: 1 card")
    expect(mine).to_contain_text("Settled: both parts given.")
    expect(counter).to_contain_text("Settled: both parts given.")
    expect(camille.locator(f"{TABLE} [data-key=yours] {CAKE_CARDS}")).to_have_count(3)
    expect(camille.locator(f"{TABLE} [data-key=trade-1]")).to_have_count(0)
    for page in pages:
        log = page.locator("[data-testid=log]")
        expect(log).to_contain_text("Camille gives Lucile 2 Medals.")
        expect(log).to_contain_text("Lucile gives Camille 1 Cake card.")
    check(pages)
    camille.screenshot(path=output / "5-settled.png", full_page=True)
    lucile.screenshot(path=output / "5-settled-phone.png", full_page=True)
    assert problems == []
