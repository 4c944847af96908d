"""Write the golden records: fixed games whose every digest and final scores are pinned.

Run it only when a game's rules version changes on purpose:
``python tests/golden/make_golden.py``.
"""

from __future__ import annotations

import json
from pathlib import Path

import tricolore
from tricolore.agents import make_agent
from tricolore.sim.runner import play_game

GOLDEN = [
    ("culottes", 5, 7,
     ["honest-revolutionary", "puppet-grabber", "random", "random", "honest-revolutionary"]),
    ("culottes", 3, 11, ["random", "random", "random"]),
    ("culottes-trials", 4, 5, ["random"] * 4),
    ("let-them-eat-cake", 5, 3, ["cake-hoarder", "kingmaker", "random", "cake-hoarder", "kingmaker"]),
    ("let-them-eat-cake", 3, 8, ["random"] * 3),
    ("revolution", 4, 2, ["printer-first", "area-control", "random", "random"]),
    ("revolution", 3, 6, ["random", "area-control", "printer-first"], {"edition": "sjg"}),
    ("bread-and-circuses", 5, 4, ["honest-discloser", "free-rider", "random", "random", "free-rider"]),
    ("bread-and-circuses", 4, 9, ["honest-discloser", "free-rider", "random", "honest-discloser"],
     {"regulated_bribery": True}),
]


def main() -> None:
    """Play each golden game and write its record, final digest and scores."""
    for name, players, seed, seats, *options in GOLDEN:
        game = tricolore.get_game(name)
        state = game.new(players, seed, options[0] if options else None)
        played = play_game(state, [make_agent(game, s) for s in seats], keep_digests=True)
        out = {"seats": seats, "record": played.record.as_dict(),
               "final_digest": played.state.digest(), "scores": list(played.state.result().scores)}
        variant = "".join(f"-{k}-{v}" for k, v in options[0].items()) if options else ""
        path = Path(__file__).with_name(f"{name}{variant}-{players}p-seed{seed}.json")
        path.write_text(json.dumps(out, indent=None, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
