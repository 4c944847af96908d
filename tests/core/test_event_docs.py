"""Every event a game logs is in its doc's "Events" table, with every field it carries."""

import random
import re
from pathlib import Path

import pytest

import tricolore
from tricolore.core.conformance import random_play

DOCS = Path(__file__).resolve().parents[2] / "docs" / "games"
OPTIONS = {"bread-and-circuses": [{}, {"regulated_bribery": True}],
           "revolution": [{}, {"edition": "sjg"}]}


def documented(game: str) -> dict[str, set[str]]:
    """Each kind in the doc's Events table, with the names its row puts in backticks (a row that
    says "the deal's fields, as in `deal_offered`" takes that kind's fields too)."""
    section = (DOCS / f"{game}.md").read_text().split("\n## Events\n", 1)[1].split("\n## ", 1)[0]
    rows: dict[str, set[str]] = {}
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) >= 2 and cells[0].startswith("`"):
            for kind in re.findall(r"`([a-z_]+)`", cells[0]):
                rows[kind] = set(re.findall(r"`([a-z_]+)`", cells[1]))
    for fields in rows.values():
        for other in fields & rows.keys():
            fields |= rows[other]
    return rows


@pytest.mark.parametrize("game", [info.name for info in tricolore.list_games()])
def test_every_event_kind_a_game_logs_is_documented_with_its_fields(game):
    rows = documented(game)
    info = tricolore.get_game(game).info
    seen: dict[str, set[str]] = {}
    for options in OPTIONS.get(game, [{}]):
        for seed in range(8):
            players = info.min_players + seed % (min(info.max_players, 5) - info.min_players + 1)
            state = tricolore.make(game, players, seed=seed, options=options)
            for _ in random_play(state, random.Random(seed), 0.3):
                pass
            for event in state.log:
                data = event.as_dict()
                seen.setdefault(data["kind"], set()).update(set(data) - {"kind", "to"})
    assert not seen.keys() - rows.keys(), f"docs/games/{game}.md lacks events {seen.keys() - rows.keys()}"
    for kind, fields in seen.items():
        assert fields <= rows[kind], f"{kind}: docs/games/{game}.md lacks {sorted(fields - rows[kind])}"
