"""The lobby for players: a card per game, options in the rulebook's words with presets, and the
creator seated at their new table in one click."""

from __future__ import annotations

import re

import httpx
from playwright.sync_api import Browser, Page, expect

from tests.server.conftest import LiveServer
from tricolore.core.registry import list_games


def open_lobby(server: LiveServer, browser: Browser) -> tuple[Page, list[str]]:
    """A fresh browser on the lobby, and the page errors it meets."""
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(server.base + "/")
    return page, problems


def three_seats(lobby: Page, game: str, seats: dict[int, str]) -> None:
    """Choose ``game``'s card, three players, and what sits in the given seats."""
    lobby.click(f"[data-game-card='{game}']")
    lobby.fill("#players", "3")
    lobby.dispatch_event("#players", "input")
    for seat, kind in seats.items():
        lobby.select_option(f"select[data-seat='{seat}']", kind)


def test_each_game_has_a_card_with_its_players_length_and_sentence(server: LiveServer, browser: Browser):
    lobby, problems = open_lobby(server, browser)
    infos = list_games()
    cards = lobby.locator("[data-game-card]")
    expect(cards).to_have_count(len(infos))
    for info in infos:
        card = lobby.locator(f"[data-game-card='{info.name}']")
        expect(card).to_contain_text(info.title)
        players = f"{info.min_players} to {info.max_players} players"
        expect(card.locator(".game-players")).to_have_text(players)
        expect(card.locator(".game-sentence")).to_have_text(info.summary)
        expect(card.locator(".game-length")).not_to_be_empty()
        expect(card.locator("svg *").first).to_be_attached()
    lobby.click("[data-game-card='revolution']")
    expect(lobby.locator("#game")).to_have_value("revolution")
    expect(lobby.locator("[data-game-card='revolution']")).to_have_attribute("aria-pressed", "true")
    expect(lobby.locator("select[data-option=edition]")).to_be_visible()
    assert not problems


def test_options_speak_the_rulebook_and_the_presets_fill_them(server: LiveServer, browser: Browser):
    lobby, problems = open_lobby(server, browser)
    lobby.click("[data-game-card='culottes']")
    options = lobby.locator("#options")
    expect(options).to_contain_text("Price of a cockade for a sans-culotte")
    expect(options).to_contain_text("Points a cockade costs a true sans-culotte at the end.")
    expect(options).not_to_contain_text("cockade price sans culotte")
    # the cap designed for simulations waits under "More options"
    rounds = lobby.locator("input[data-option=max_rounds]")
    expect(rounds).to_be_hidden()

    lobby.click("[data-testid=preset-short]")
    expect(rounds).to_be_visible()
    expect(rounds).to_have_value("6")
    lobby.fill("input[data-option=starting_cakes]", "7")
    lobby.click("[data-testid=preset-rulebook]")
    expect(rounds).to_have_value("")
    expect(lobby.locator("input[data-option=starting_cakes]")).to_have_value("20")

    lobby.click("[data-game-card='culottes-trials']")
    lobby.click("[data-testid=preset-short]")
    expect(lobby.locator("input[data-option=trials]")).to_have_value("3")
    assert not problems


def test_create_and_sit_puts_the_creator_at_the_table_in_one_click(server: LiveServer, browser: Browser):
    lobby, problems = open_lobby(server, browser)
    # taking the first seat opens it again
    three_seats(lobby, "culottes", {0: "random", 1: "open", 2: "random"})
    lobby.click("[data-testid=create-and-sit]")
    name_error = lobby.locator("[data-error-for=creator-name]")
    expect(name_error).to_have_text("Write your name to take the first seat.")
    expect(lobby).to_have_url(server.base + "/")

    lobby.fill("#creator-name", "Danton")
    lobby.click("[data-testid=create-and-sit]")
    expect(lobby).to_have_url(re.compile(r"/table/[^/#]+$"))
    table_id = lobby.url.rsplit("/", 1)[1]
    expect(lobby.locator("[data-testid=players] li.me")).to_contain_text("Danton")
    seats = httpx.get(f"{server.base}/api/tables/{table_id}").json()["seats"]
    assert seats[0]["name"] == "Danton"
    assert seats[1]["kind"] == "open"
    assert not problems


def test_invites_come_into_view_with_copy_and_share(server: LiveServer, browser: Browser):
    lobby, problems = open_lobby(server, browser)
    three_seats(lobby, "culottes-trials", {1: "open"})
    lobby.click("[data-testid=create]")
    invites = lobby.locator("[data-testid=invites]")
    expect(invites).to_be_in_viewport()
    expect(invites.locator("li")).to_have_count(2)
    expect(invites.locator("li button.copy")).to_have_count(2)
    expect(invites.locator("li button.share")).to_have_count(2)
    assert not problems


def test_the_creators_waiting_table_offers_its_open_seats_to_join(server: LiveServer, browser: Browser):
    lobby, problems = open_lobby(server, browser)
    three_seats(lobby, "culottes", {1: "open", 2: "random"})
    lobby.click("[data-testid=create]")
    expect(lobby.locator("[data-testid=invites]")).to_be_visible()
    waiting = lobby.locator("[data-testid=waiting]")
    expect(waiting.locator("[data-join-seat]")).to_have_count(2, timeout=10_000)
    expect(waiting.locator("[data-join-seat='1']")).to_have_text("Join as the second player")
    # someone else's browser has no creator's token: it sees the table but no seat to join
    other, _ = open_lobby(server, browser)
    expect(other.locator("[data-testid=waiting]")).to_contain_text("Culottes")
    expect(other.locator("[data-testid=waiting] [data-join-seat]")).to_have_count(0)

    waiting.locator("[data-join-seat='1']").click()
    lobby.fill("input[name=name]", "Robespierre")
    lobby.click("text=Join the table")
    expect(lobby.locator("[data-testid=players] li.me")).to_contain_text("Robespierre")
    assert not problems


def test_a_table_open_to_all_offers_its_open_seats_to_anyone_and_the_taken_seat_plays(
        server: LiveServer, browser: Browser):
    lobby, problems = open_lobby(server, browser)
    three_seats(lobby, "culottes", {1: "open", 2: "random"})
    expect(lobby.locator("#open_to_all")).to_be_checked()  # a table is open to the lobby unless told
    lobby.fill("#creator-name", "Camille")
    lobby.click("[data-testid=create-and-sit]")
    expect(lobby.locator("[data-testid=players] li.me")).to_contain_text("Camille")

    # a stranger in the lobby sees the open seat and takes it, with no invite
    other, other_problems = open_lobby(server, browser)
    take = other.locator("[data-testid=waiting] [data-take-seat='1']")
    expect(take).to_have_text("Take the second seat", timeout=10_000)
    take.click()
    other.fill("input[name=name]", "Lucile")
    other.click("text=Join the table")
    expect(other.locator("[data-testid=players] li.me")).to_contain_text("Lucile")
    expect(lobby.locator("[data-testid=players]")).to_contain_text("Lucile")
    expect(other.locator("[data-testid=status]")).to_contain_text("Table playing")
    # the creator's invite links: only their own seat's is left, the taken seat's opens nothing
    lobby.click("[data-testid=show-invites]")
    expect(lobby.locator("[data-testid=invite-list] li")).to_have_count(1)
    expect(lobby.locator("[data-testid=invite-list] li")).to_contain_text("Camille")
    assert not problems and not other_problems


def test_a_table_by_invitation_only_shows_no_seat_to_take(server: LiveServer, browser: Browser):
    lobby, problems = open_lobby(server, browser)
    three_seats(lobby, "culottes", {1: "open", 2: "random"})
    lobby.uncheck("#open_to_all")
    lobby.click("[data-testid=create]")
    expect(lobby.locator("[data-testid=invites]")).to_be_visible()
    other, _ = open_lobby(server, browser)
    expect(other.locator("[data-testid=waiting]")).to_contain_text("Culottes", timeout=10_000)
    expect(other.locator("[data-testid=waiting] [data-take-seat]")).to_have_count(0)
    other.locator("[data-testid=waiting] a").first.click()
    expect(other.locator("[data-testid=status]")).to_contain_text("You are watching")
    expect(other.locator("[data-testid=take-open-seat]")).to_have_count(0)
    assert not problems
