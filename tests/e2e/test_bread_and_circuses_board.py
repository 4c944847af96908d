"""End to end in headless Chromium: a whole Bread and Circuses game played through the drawn
board's own controls (your tiles, the icons of your Disclosure card, your Sabotage cards, the
nobles' places, the purse, the status bar's Ready, Pass and Confirm), at desktop size and at phone
size, with no seat number or internal id ever shown; and each decision drawn on the board."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

import tricolore
from tests.e2e.checks import (
    assert_no_ids,
    confirm,
    decision,
    moment_said,
    name_of,
    play_to_the_end,
    record_moments,
    settled,
    summary,
    take,
    watch_the_replay,
)
from tests.server.conftest import LiveServer

DESKTOP = ViewportSize(width=1280, height=900)
PHONE = ViewportSize(width=390, height=844)
GAME = "bread-and-circuses"
HAND = {"Pickpocket", "Charity Kitchen"}
"""The cards the first seat is dealt in these tests: one for Negotiation (it names a player with
Gold), one for the After-Reveal window (it names nobody)."""


BARE_OPTIONS = "[...document.querySelectorAll('select option')].some((o) => /^\\d+$/.test(o.textContent))"
"""Whether a menu of the fallback forms reads a seat as a number."""


def seed_dealing(cards: set[str], players: int = 3) -> int:
    """A seed whose deal gives the first seat every card of ``cards``."""
    for seed in range(10_000):
        state = tricolore.make(GAME, players, seed=seed, options={"first_player": 0})
        if cards <= set(state.view(0)["you"]["sabotage"]):
            return seed
    raise AssertionError(f"no seed deals {cards} to the first seat")


def table(server: LiveServer, seats: list[str], options: dict[str, object]) -> str:
    """A table whose first seat holds :data:`HAND`; the first seat's invite address."""
    created = server.store.create(GAME, len(seats), seats, {"first_player": 0, **options},
                                  seed=seed_dealing(HAND, len(seats)))
    return f"/table/{created.table_id}#invite={created.invites[0]}"


def join(server: LiveServer, browser: Browser, invite: str, size: ViewportSize) -> tuple[Page, list[str]]:
    page = browser.new_context(viewport=size).new_page()
    record_moments(page)
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(server.base + invite)
    page.fill("input[name=name]", "Marie")
    page.click("text=Join the table")
    expect(page.locator("[data-testid=bread-table]")).to_be_visible()
    # the fallback forms are built again once the board's script has loaded, with its names
    assert not page.evaluate(BARE_OPTIONS)
    return page, problems


def board(page: Page, key: str) -> str:
    return f"[data-testid=bread-table] [data-key={key}]"


def play_a_sabotage_card(page: Page, card: str) -> None:
    page.locator(board(page, f"card-{card.replace(' ', '-')}")).click()
    expect(summary(page)).to_contain_text(f"You play {card}")
    # the players a card may name are asked of the server once the card is picked: wait for them,
    # or for the draft to need nobody (a card naming nobody, or a single player filled in)
    places = page.locator("[data-testid=bread-table] [data-key^=place-][data-choice]")
    expect(places.or_(summary(page).filter(has_not_text="choose a player")).first).to_be_visible()
    if "choose a player" in summary(page).inner_text():
        places.first.click()
        expect(summary(page)).not_to_contain_text("choose a player")
    confirm(page)


def play_step(page: Page, done: set[str]) -> str:
    """Take one decision through the board; returns what was done."""
    offered = decision(page)
    if "disclose" in offered and "disclose" not in done:
        page.locator(board(page, "my-tile-bread")).click()
        page.locator(board(page, "icon-0-bread")).click()
        expect(summary(page)).to_have_text("You put your Bread tile face down on the Bread icon.")
        confirm(page)
        done.add("disclose")
        return "disclose"
    if "disclose" in offered and "give_gold" not in done:
        page.locator(board(page, "purse")).click()
        page.locator(board(page, "place-1")).click()
        expect(summary(page)).to_contain_text("You give")
        expect(summary(page)).to_contain_text("1 Gold.")
        confirm(page)
        done.add("give_gold")
        return "give_gold"
    if "play_sabotage" in offered and "Pickpocket" not in done:
        play_a_sabotage_card(page, "Pickpocket")
        done.add("Pickpocket")
        return "Pickpocket"
    if "play_sabotage" in offered and "Charity Kitchen" not in done:
        play_a_sabotage_card(page, "Charity Kitchen")
        done.add("Charity Kitchen")
        return "Charity Kitchen"
    if "ready" in offered:
        take(page, "ready")
        return "ready"
    if offered == "play":
        page.locator(board(page, "my-tile-circus")).click()
        expect(summary(page)).to_have_text("You place Circus face down.")
        confirm(page)
        return "play"
    if "pass" in offered:
        page.locator("[data-testid=decision] [data-action=pass]").click()
        settled(page)
        return "pass"
    return ""


def play_a_whole_game(server: LiveServer, browser: Browser, output: Path, size: ViewportSize) -> None:
    invite = table(server, ["open", "honest-discloser", "free-rider"], {"max_rounds": 2})
    page, problems = join(server, browser, invite, size)
    expect(page.locator("[data-testid=status-sentence]")).to_contain_text("Negotiation")
    assert_no_ids(page)
    page.screenshot(path=output / "start.png", full_page=True)
    done: set[str] = set()
    did, shots = play_to_the_end(page, lambda: play_step(page, done), output,
                                 mid_game=lambda did: "play" in did,
                                 reveal=lambda: moment_said(page, "tiles are revealed"),
                                 reveal_full_page=size == PHONE)
    assert {"disclose", "give_gold", "Pickpocket", "Charity Kitchen", "ready", "play"} <= set(did), did
    log = page.locator("[data-testid=log]")
    expect(log).to_contain_text("You put a tile face down on the Bread icon.")
    expect(log).to_contain_text("You play Pickpocket on")
    expect(log).to_contain_text("You play Charity Kitchen.")
    expect(log).to_contain_text("The tiles are revealed: Marie Bread (honest)")
    sheet = page.locator("[data-testid=score-sheet]")
    expect(sheet).to_contain_text("Round 2")
    expect(sheet).to_contain_text("Honest disclosures")
    expect(sheet.locator("th.winner").first).to_contain_text("★")
    assert "reveal" in shots, "no reveal was seen"
    watch_the_replay(page, "[data-testid=bread-table]")
    assert problems == []


def test_a_bread_and_circuses_game_is_played_to_its_end_on_the_board_at_desktop_size(
        server: LiveServer, browser: Browser, output: Path):
    play_a_whole_game(server, browser, output, DESKTOP)


def test_a_bread_and_circuses_game_is_played_to_its_end_on_the_board_at_phone_size(
        server: LiveServer, browser: Browser, output: Path):
    play_a_whole_game(server, browser, output, PHONE)


@pytest.fixture
def bread_page(server: LiveServer, browser: Browser) -> Page:
    """The first seat at a table of three, in the first Negotiation, holding :data:`HAND`."""
    invite = table(server, ["open", "honest-discloser", "honest-discloser"], {})
    page, _ = join(server, browser, invite, DESKTOP)
    expect(page.locator(board(page, "my-tile-bread"))).to_have_attribute("role", "button")
    return page


def test_a_disclosure_is_a_click_on_a_tile_then_on_an_icon_of_the_disclosure_card(bread_page: Page):
    page = bread_page
    page.locator(board(page, "my-tile-abstain")).click()
    expect(page.locator("[data-testid=confirm]")).to_be_disabled()  # no icon yet
    page.locator(board(page, "icon-0-circus")).click()
    expect(summary(page)).to_have_text("You put your Abstain tile face down on the Circus icon.")
    confirm(page)
    expect(page.locator("[data-testid=log]")).to_contain_text("You put a tile face down on the Circus icon.")
    expect(page.locator("[data-testid=secret]")).to_contain_text("Disclosed tile: Abstain")
    expect(page.locator(board(page, "disclosure-0") + " title").first).to_contain_text("your Abstain")
    assert_no_ids(page)


def test_a_sabotage_card_and_the_player_it_names_are_clicks_on_the_board(bread_page: Page):
    page = bread_page
    card = page.locator(board(page, "card-Pickpocket"))
    expect(card).to_contain_text("Take 1 Gold from another player.")
    card.click()
    expect(summary(page)).to_contain_text("You play Pickpocket on … (choose a player on the board)")
    target = page.locator(board(page, "place-2"))
    expect(target).to_have_attribute("role", "button")
    expect(page.locator(board(page, "place-0"))).not_to_have_attribute("role", "button")  # not yourself
    target.click()
    name = name_of(page, 2)
    expect(summary(page)).to_contain_text(f"You play Pickpocket on {name}: Take 1 Gold")
    confirm(page)
    expect(page.locator("[data-testid=log]")).to_contain_text(f"You play Pickpocket on {name}.")
    expect(page.locator(board(page, "gold-0"))).to_contain_text("4")
    assert_no_ids(page)


def test_gold_is_given_from_the_purse_to_a_place_with_a_stepper(bread_page: Page):
    page = bread_page
    page.locator(board(page, "purse")).click()
    page.locator(board(page, "place-1")).click()
    more = page.locator("[data-stepper=gold] button[aria-label^=more]")
    more.click()
    expect(summary(page)).to_contain_text("2 Gold.")
    confirm(page)
    expect(page.locator("[data-testid=log]")).to_contain_text("gives")
    expect(page.locator(board(page, "gold-0"))).to_contain_text("1")


def test_a_tile_is_placed_face_down_with_a_click_after_negotiation(bread_page: Page):
    page = bread_page
    take(page, "ready")
    tile = page.locator(board(page, "my-tile-abstain") + "[data-choice]")
    expect(tile).to_be_visible(timeout=10_000)
    expect(page.locator("[data-testid=status-sentence]")).to_contain_text("Choose your tile in secret")
    tile.click()
    expect(summary(page)).to_have_text("You place Abstain face down.")
    confirm(page)
    expect(page.locator("[data-testid=log]")).to_contain_text("The tiles are revealed")


def test_every_sabotage_card_carries_its_rule_text_as_a_tooltip(bread_page: Page):
    card = bread_page.locator(board(bread_page, "card-Charity-Kitchen"))
    expect(card.locator("title").first).to_contain_text("Charity Kitchen (After Reveal): Add one Bread")
    card.hover()
    expect(bread_page.locator(".kit-tip")).to_contain_text("Add one Bread that belongs to nobody")
    riots = bread_page.locator(board(bread_page, "riots"))
    expect(riots.locator("title").first).to_contain_text("the peasants riot")


def test_a_deal_is_offered_from_a_panel_with_its_tile_picked_on_the_board_and_shown_as_a_card(
        server: LiveServer, browser: Browser):
    invite = table(server, ["open", "free-rider", "free-rider"], {"regulated_bribery": True})
    page, problems = join(server, browser, invite, DESKTOP)
    page.locator("[data-testid=players] li[data-seat='1'] [data-testid=deal-offer_deal]").click()
    bar = page.locator("[data-testid=decision]")
    expect(bar.get_by_role("button", name="plays the tile", exact=True)).to_have_attribute(
        "aria-pressed", "true")
    bar.get_by_role("button", name="any tile but that one", exact=True).click()
    page.locator(board(page, "deal-tile-abstain")).click()
    bar.get_by_role("button", name="next round", exact=True).click()
    other = name_of(page, 1)
    expect(summary(page)).to_have_text(
        f"You give {other} 1 Gold if {other} plays any tile but Abstain next round (round 2); "
        f"binding once {other} accepts, paid at the reveal.")
    confirm(page)
    card = page.locator("[data-testid=offers] [data-testid=offer]", has_text=f"You offer {other} 1 Gold")
    expect(card).to_contain_text(f"if {other} plays any tile but Abstain next round (round 2).")
    expect(page.locator("[data-testid=log]")).to_contain_text(
        f"Marie offers a deal: Marie pays {other} 1 Gold if {other} plays any tile but Abstain in round 2.")
    assert_no_ids(page)
    assert problems == []
