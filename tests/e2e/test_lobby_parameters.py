"""The lobby seats a bot with its strategy's parameters, chosen with controls, and refuses a value
out of range in a sentence."""

from __future__ import annotations

import json

from playwright.sync_api import Browser, expect

from tests.server.conftest import LiveServer


def test_a_bot_seat_takes_its_strategys_parameters_from_the_lobby(server: LiveServer, browser: Browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    lobby = context.new_page()
    problems: list[str] = []
    lobby.on("pageerror", lambda e: problems.append(str(e)))
    lobby.goto(server.base + "/")
    lobby.select_option("#game", "culottes")
    lobby.fill("#players", "3")
    lobby.dispatch_event("#players", "input")
    lobby.select_option("select[data-seat='0']", "open")
    lobby.select_option("select[data-seat='1']", "p-epsilon-briber")
    lobby.select_option("select[data-seat='2']", "alliance-defender")
    reward = lobby.locator("[data-seat-parameters='1'] [data-parameter=reward]")
    expect(reward).to_have_value("1")  # the strategy's default
    expect(lobby.locator("[data-seat-parameters='2'] [data-parameter=alliances]")).to_be_checked()

    reward.fill("1000")  # out of its range
    lobby.click("[data-testid=create]")
    expect(lobby.locator("[data-error-for=seats]")).to_contain_text("reward must be from 1 to 100")
    expect(lobby.locator("[data-testid=invites]")).to_have_count(0)

    reward.fill("2")
    lobby.locator("[data-seat-parameters='2'] [data-parameter=alliances]").uncheck()
    with lobby.expect_request(lambda r: r.url.endswith("/api/tables") and r.method == "POST") as sent:
        lobby.click("[data-testid=create]")
    seats = json.loads(sent.value.post_data or "{}")["seats"]
    assert seats[1:] == ["p-epsilon-briber:reward=2", "alliance-defender:alliances=false"]
    expect(lobby.locator("[data-testid=invites]")).to_contain_text("See them again on the table's page")
    assert not problems
    context.close()
