"""End to end in headless Chromium: whose turn it is, the clock, seats that stay with their
browser, the creator's tools, and the lobby's controls."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from tests.server.conftest import LiveServer


def watch_errors(page: Page, problems: list[str]) -> Page:
    page.on("pageerror", lambda e: problems.append(str(e)))
    return page


def take_seat(page: Page, url: str, name: str) -> None:
    page.goto(url)
    page.fill("input[name=name]", name)
    page.click("text=Join the table")


def test_the_tab_title_and_a_sound_tell_a_player_it_is_their_turn(server: LiveServer, browser: Browser,
                                                                    output: Path):
    problems: list[str] = []
    created = server.create("culottes", ["open", "random", "random"], window_seconds=0)
    page = watch_errors(browser.new_context().new_page(), problems)
    take_seat(page, server.base + created["invites"]["0"], "Marat")
    expect(page).to_have_title("● Your turn — Culottes")
    expect(page.locator("body")).to_have_attribute("data-chimes", "1")
    sound = page.locator("[data-testid=sound]")
    expect(sound).to_have_text("Sound on")
    sound.click()
    expect(sound).to_have_text("Sound off")
    assert page.evaluate("localStorage.getItem('tricolore:sound')") == "off"
    page.reload()
    expect(page.locator("[data-testid=sound]")).to_have_text("Sound off")
    page.screenshot(path=output / "title.png")
    watcher = watch_errors(browser.new_context().new_page(), problems)
    watcher.goto(server.base + created["spectate"])
    expect(watcher.locator("[data-testid=board]")).to_be_visible()
    expect(watcher).to_have_title("Culottes — Tricolore")
    assert watcher.locator("body").get_attribute("data-chimes") is None
    assert problems == []


def test_everyone_sees_the_turn_clock_count_down(server: LiveServer, browser: Browser, output: Path):
    problems: list[str] = []
    created = server.create("culottes", ["open", "random", "random"], window_seconds=0, clock_seconds=90)
    player = watch_errors(browser.new_context().new_page(), problems)
    take_seat(player, server.base + created["invites"]["0"], "Marat")
    watcher = watch_errors(browser.new_context().new_page(), problems)
    watcher.goto(server.base + created["spectate"])
    clock = watcher.locator("[data-testid=clocks] .clock[data-seat='0']")
    expect(clock).to_contain_text("Marat")
    expect(clock).to_contain_text(" s")
    seconds = int((clock.locator("b").text_content() or "0 s").split()[0])
    assert 80 <= seconds <= 90
    expect(player.locator("#countdown")).to_contain_text("a bot decides for you")
    watcher.screenshot(path=output / "clock.png")
    assert problems == []


def test_another_browser_asks_before_moving_a_seat_and_the_old_one_is_told(server: LiveServer,
                                                                         browser: Browser, output: Path):
    problems: list[str] = []
    created = server.create("culottes", ["open", "random", "random"], window_seconds=0)
    invite = server.base + created["invites"]["0"]
    first = watch_errors(browser.new_context().new_page(), problems)
    take_seat(first, invite, "Marat")
    expect(first.locator("[data-testid=secret]")).to_be_visible()
    second = watch_errors(browser.new_context().new_page(), problems)
    second.goto(invite)
    expect(second.locator("[data-testid=move-seat]")).to_contain_text("being played in another browser")
    second.click("[data-testid=move-here]")
    expect(second.locator("[data-testid=secret]")).to_be_visible()
    expect(first.locator("[data-testid=notice]")).to_contain_text("Your seat moved to another browser")
    expect(first.locator("[data-testid=secret]")).to_have_count(0)
    first.screenshot(path=output / "moved-away.png")
    assert "invite" not in first.url and "invite" not in second.url
    assert problems == []


def test_a_player_who_left_takes_the_seat_back_from_the_bot(server: LiveServer, browser: Browser):
    problems: list[str] = []
    # a second seat left open keeps the table waiting: bots alone would finish the game at once
    created = server.create("culottes", ["open", "open", "random"], window_seconds=0)
    page = watch_errors(browser.new_context().new_page(), problems)
    take_seat(page, server.base + created["invites"]["0"], "Marat")
    page.on("dialog", lambda dialog: dialog.accept())
    page.click("text=Leave (a bot takes over)")
    expect(page.locator("[data-testid=take-seat]")).to_be_visible()
    page.click("[data-testid=take-seat]")
    expect(page.locator("[data-testid=secret]")).to_be_visible()
    assert server.store.live[created["table_id"]].seats[0] == {"kind": "human", "name": "Marat"}
    assert problems == []


def test_the_creator_copies_and_sees_the_invites_again_and_closes_the_table(server: LiveServer,
                                                                          browser: Browser, output: Path):
    problems: list[str] = []
    host = browser.new_context()
    host.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.base)
    lobby = watch_errors(host.new_page(), problems)
    lobby.goto(server.base + "/")
    lobby.select_option("#game", "culottes")
    lobby.fill("#players", "3")
    lobby.dispatch_event("#players", "input")
    lobby.select_option("select[data-seat='0']", "open")
    lobby.select_option("select[data-seat='1']", "random")
    lobby.select_option("select[data-seat='2']", "random")
    lobby.click("[data-testid=create]")
    invite = lobby.get_attribute("[data-invite='0']", "href")
    assert invite is not None
    lobby.locator("[data-testid=invites] li button.copy").first.click()
    assert lobby.evaluate("navigator.clipboard.readText()") == server.base + invite
    spectate = lobby.get_attribute("[data-testid=spectate]", "href")

    player = watch_errors(browser.new_context().new_page(), problems)
    take_seat(player, server.base + invite, "Marat")
    expect(player.locator("[data-testid=secret]")).to_be_visible()

    creator = lobby
    creator.goto(server.base + str(spectate))
    creator.click("[data-testid=show-invites]")
    again = creator.locator("[data-testid=invite-list] input[data-invite='0']")
    expect(again).to_have_value(server.base + invite)
    expect(creator.locator("[data-testid=invite-list]")).to_contain_text("Marat")
    creator.screenshot(path=output / "creator.png")
    creator.on("dialog", lambda dialog: dialog.accept())
    creator.click("[data-testid=close-table]")
    expect(player.locator("[data-testid=notice]")).to_contain_text("closed this table")
    expect(player.locator("[data-testid=closed]")).to_be_visible()
    expect(player).not_to_have_title("● Your turn — Culottes")
    creator.goto(server.base + "/")
    expect(creator.locator("[data-testid=closed-tables]")).to_contain_text("Culottes", timeout=10_000)
    expect(creator.locator("[data-testid=closed-tables]")).to_contain_text("(closed)")
    assert problems == []


def test_the_lobby_keeps_seats_offers_option_controls_and_shows_errors_where_they_belong(
        server: LiveServer, browser: Browser, output: Path):
    problems: list[str] = []
    lobby = watch_errors(browser.new_context().new_page(), problems)
    lobby.goto(server.base + "/")
    lobby.select_option("#game", "revolution")
    lobby.fill("#players", "3")
    lobby.dispatch_event("#players", "input")
    for seat, kind in enumerate(["open", "ismcts", "random"]):
        lobby.select_option(f"select[data-seat='{seat}']", kind)
    expect(lobby.locator("select[data-option=edition]")).to_have_value("seed")
    lobby.select_option("#game", "culottes")
    assert [lobby.input_value(f"select[data-seat='{s}']") for s in range(3)] == ["open", "ismcts", "random"]
    expect(lobby.locator("input[data-option=deals]")).to_have_attribute("type", "checkbox")
    cakes = lobby.locator("input[data-option=starting_cakes]")
    expect(cakes).to_have_attribute("min", "1")
    expect(cakes).to_have_attribute("max", "1000")
    cakes_error = lobby.locator("[data-error-for='option:starting_cakes']")
    cakes.fill("5000")
    expect(cakes_error).to_have_text("Starting cakes must be from 1 to 1000.")
    cakes.fill("30")
    expect(cakes_error).to_have_text("")
    lobby.fill("input[data-option=closing_faces]", "5, 9")
    lobby.click("[data-testid=create]")
    faces_error = lobby.locator("[data-error-for='option:closing_faces']")
    expect(faces_error).to_contain_text("closing_faces must be faces of the die")
    expect(lobby.locator("#create-error")).to_have_text("")
    lobby.screenshot(path=output / "lobby-error.png", full_page=True)
    lobby.fill("input[data-option=closing_faces]", "6")
    expect(faces_error).to_have_text("")
    lobby.fill("#clock_seconds", "4000")
    clock_error = lobby.locator("[data-error-for=clock_seconds]")
    expect(clock_error).to_have_text("The turn clock must be from 0 to 3600.")
    lobby.fill("#clock_seconds", "45")
    lobby.click("[data-testid=create]")
    expect(lobby.locator("[data-testid=invites]")).to_contain_text("First player")
    table = server.store.live[next(iter(server.store.live))]
    assert table.clock_seconds == 45 and table.state.options.starting_cakes == 30  # type: ignore[attr-defined]
    assert table.state.options.closing_faces == (6,)  # type: ignore[attr-defined]
    assert problems == []


def test_an_unknown_table_is_a_page_with_a_sentence_and_a_link_to_the_lobby(server: LiveServer,
                                                                          browser: Browser):
    page = browser.new_context().new_page()
    page.goto(server.base + "/table/no-such-table")
    expect(page.locator("[data-testid=no-such-table]")).to_contain_text("There is no such table.")
    page.click("text=Back to the lobby")
    expect(page.locator("[data-testid=new-table]")).to_be_visible()
