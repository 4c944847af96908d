"""The core game model: games, states, actions, events, records, and the mechanisms games share.

The core knows nothing about any one game; each game package implements :class:`State` and
registers a :class:`GameDefinition` as an entry point in the ``tricolore.games`` group.
"""

from tricolore.core.actions import (
    Action,
    ActionFamily,
    ActionSpace,
    Amount,
    Choice,
    Domain,
    Subset,
    Text,
)
from tricolore.core.errors import IllegalAction, OptionsError, RecordError
from tricolore.core.mechanisms import ResponseWindow, SealedSubmissions
from tricolore.core.model import (
    Event,
    Game,
    GameDefinition,
    GameInfo,
    Options,
    Prompt,
    Result,
    Seat,
    State,
    copy_json,
    project,
)
from tricolore.core.record import Record, replay, replay_steps, verify
from tricolore.core.registry import games, get_game, list_games, make

__all__ = [
    "Action", "ActionFamily", "ActionSpace", "Amount", "Choice", "Domain", "Event", "Game",
    "GameDefinition", "GameInfo", "IllegalAction", "Options", "OptionsError", "Prompt", "Record",
    "RecordError", "ResponseWindow", "Result", "SealedSubmissions", "Seat", "State", "Subset",
    "Text", "copy_json", "games", "get_game", "list_games", "make", "project", "replay",
    "replay_steps", "verify",
]
