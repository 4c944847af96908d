"""What the drawn board's script knows of the rulebook agrees with the rules themselves."""

import json
import re
from pathlib import Path

from tricolore.games.bread_and_circuses.data import SABOTAGE

BOARD = Path(__file__).parents[2] / "tricolore" / "games" / "bread_and_circuses" / "board.js"


def test_the_board_asks_for_a_player_for_exactly_the_sabotage_cards_that_name_one():
    """A card that names nobody (Charity Kitchen) never reads "choose a player" while it is drafted."""
    found = re.search(r"const NAMES_A_PLAYER = new Set\((\[.*?\])\);", BOARD.read_text(), re.S)
    assert found, "board.js lists the cards that name a player"
    asked = set(json.loads(found.group(1)))
    assert asked == {card.name for card in SABOTAGE if card.target is not None}
