"""Terminal play: humans and bots at one table, humans taking turns at the screen (hot-seat)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rich.console import Console

from tricolore.agents import Agent, Message, decide, take_said
from tricolore.cli.reading import menu_number, text_problem, whole_number
from tricolore.cli.render import renderer
from tricolore.core import ActionFamily, Amount, Choice, Domain, IllegalAction, State, Subset
from tricolore.core.errors import OptionsError
from tricolore.core.inputs import RECORD_DEPTH, InputError, loads
from tricolore.core.layout import Items, Values, fallback
from tricolore.core.model import Options
from tricolore.core.registry import companions
from tricolore.core.terminal import PLAYER_NAMES, named
from tricolore.sim.runner import agent_rng

HUMAN = "human"


class InputEnded(Exception):
    """The player's input stream ended (end of file)."""


class TerminalTable:
    """Runs one game in the terminal. ``ask`` reads one line of input (``input`` by default).

    The console must not read markup (``Console(markup=False)``): names and text that players
    type are printed as they are.
    """

    def __init__(self, state: State, seats: Sequence[str], agents: Sequence[Agent | None],
                 console: Console, ask: Callable[[str], str] = input,
                 names: Sequence[str] | None = None) -> None:
        self.state = state
        self.names = list(names) if names is not None else list(PLAYER_NAMES[:state.players])
        """Each seat's player, by name: what the table calls them."""
        self.seats = list(seats)
        self.agents = list(agents)
        self.console = console
        self._ask = ask
        self.humans = [s for s, kind in enumerate(seats) if kind == HUMAN]
        self.seen = dict.fromkeys(self.humans, 0)
        self.spectator_seen = 0
        self.at_screen: int | None = None
        self.render = renderer(state.info.name)
        self.rngs = [agent_rng(state.seed, s) for s in range(state.players)]
        self.chat: list[Message] = []
        """What the bots have said, in order; each bot is told the messages it may read."""
        self.chat_seen = dict.fromkeys(self.humans, 0)
        self.spectator_chat = 0
        make = companions(state.info.name).layout
        options = getattr(state, "options", None)
        if not isinstance(options, Options):
            options = state.info.options.from_mapping({})
        self.layout = fallback(type(state)) if make is None else make(type(state), state.players, options)
        """The game's action layout: it says which parameters name a player."""

    def ask(self, prompt: str) -> str:
        """One line from the player; end of input stops the game cleanly, and a line that is not
        text is explained and asked again."""
        while True:
            try:
                line = self._ask(prompt)
            except EOFError:
                raise InputEnded from None
            except UnicodeDecodeError:
                why: str | None = "it holds bytes that are not UTF-8 text"
            else:
                why = text_problem(line)
                if why is None:
                    return line
            self.refuse(f"That line cannot be read: {why}.")

    def refuse(self, sentence: str) -> None:
        """Tell the player, in one sentence, why what they typed is refused."""
        self.console.print(sentence, style="red", highlight=False)

    def run(self) -> None:
        """Play to the end and show the reveal and the scores."""
        while not self.state.is_over():
            # Bots first: in an open phase (a negotiation) people then see what the bots did.
            seat = min(self.state.pending(), key=lambda s: (self.seats[s] == HUMAN, s))
            if self.seats[seat] == HUMAN:
                self.human_turn(seat)
            else:
                agent = self.agents[seat]
                assert agent is not None
                action = decide(agent, self.state, seat, self.rngs[seat], chat=self.chat, names=self.names)
                self.state.apply(seat, action)
                self.chat.extend(Message(seat, said.text, said.to) for said in take_said(agent))
                if not self.humans:
                    self.show_events(None)
                    self.show_chat(None)
        self.finish()

    def show_events(self, seat: int | None) -> None:
        """Print what ``seat`` has not yet seen of the log."""
        view = named(self.state.view(seat), self.names)
        if seat is None:
            events = self.state.events_for(None, self.spectator_seen)
            self.spectator_seen = len(self.state.log)
        else:
            events = self.state.events_for(seat, self.seen[seat])
            self.seen[seat] = len(self.state.log)
        for e in events:
            self.console.print("  · " + self.render.event(e, view), highlight=False)

    def show_chat(self, seat: int | None) -> None:
        """Print the chat ``seat`` may read and has not yet seen (``None``: the public messages,
        for a table of bots only)."""
        if seat is None:
            unseen, self.spectator_chat = self.chat[self.spectator_chat:], len(self.chat)
        else:
            unseen, self.chat_seen[seat] = self.chat[self.chat_seen[seat]:], len(self.chat)
        for message in unseen:
            if message.to is not None if seat is None else not message.readable_by(seat):
                continue
            to = "" if message.to is None else " (to " + ", ".join(self.names[s] for s in message.to) + ")"
            self.console.print(f"  {self.names[message.sender]} says{to}: {message.text}", style="cyan",
                               highlight=False)

    def hand_over(self, seat: int) -> None:
        """With several humans, hide the screen between them."""
        if len(self.humans) > 1 and self.at_screen != seat:
            self.console.clear()
            self.ask(f"Pass the screen to {self.names[seat]} and press Enter. ")
            self.console.clear()
        self.at_screen = seat

    def human_turn(self, seat: int) -> None:
        """Show the seat its table, secrets and choices, and apply one action it types."""
        self.hand_over(seat)
        self.show_events(seat)
        self.show_chat(seat)
        view = named(self.state.view(seat), self.names)
        for part in self.render.table(view):
            self.console.print(part)
        legal = self.state.legal_actions(seat)
        free = self.state.free_actions(seat)
        families = list(legal.families) + [f for f in free.families if f.kind not in legal.kinds]
        while True:
            self.console.print(f"{self.names[seat]}, choose:", style="bold")
            for i, fam in enumerate(families, 1):
                anytime = " (any time)" if fam.kind not in legal.kinds else ""
                self.console.print(f"  {i}. {fam.kind}{anytime}: {fam.help}", highlight=False)
            line = self.ask("> ").strip()
            try:
                action = self.read_action(line, families, view)
                if action is None:
                    continue
                self.state.apply(seat, action)
                return
            except IllegalAction as exc:
                self.refuse(f"Refused: {exc.for_names(self.names)}")

    def read_action(self, line: str, families: Sequence[ActionFamily], view: Mapping[str, Any]
                    ) -> dict[str, Any] | None:
        """An action from a menu number (then one question per parameter) or a JSON object."""
        if line.startswith("{"):
            try:
                typed = loads(line, RECORD_DEPTH)
            except InputError as exc:
                if exc.malformed:
                    raise IllegalAction("malformed", f"that is not valid JSON ({exc})") from None
                raise IllegalAction("malformed", f"that JSON cannot be read: {exc}") from None
            if not isinstance(typed, dict):
                raise IllegalAction("malformed", "an action must be a JSON object")
            return typed
        entry = menu_number(line, len(families))
        if entry is None:
            self.refuse(f"Type a number from 1 to {len(families)}, or a JSON action.")
            return None
        fam = families[entry - 1]
        action: dict[str, Any] = {"type": fam.kind}
        for name in fam.params:
            value = self.read_param(fam, name, action)
            if value is not _OMIT:
                action[name] = value
        return action

    def read_param(self, fam: ActionFamily, name: str, chosen: dict[str, Any]) -> Any:
        """Ask for one parameter until its value is allowed; an empty answer cancels the action
        (or skips an optional parameter)."""
        domain = fam.domain(name, chosen)
        try:
            block = self.layout.block(fam.kind, name, domain)
        except OptionsError:  # a parameter the layout does not place: shown as it is
            block = None
        players = self.names if isinstance(block, Values | Items) and block.of_seats else None
        while True:
            value = self._read_value(domain, name, name in fam.optional, players)
            if value is _OMIT:
                return value
            if value == "":
                raise IllegalAction("cancelled", f"{fam.kind} cancelled")
            why = domain.problem(name, value)
            if why is None:
                return value
            self.refuse(f"{why[0].upper()}{why[1:]}.")

    def _read_value(self, domain: object, name: str, optional: bool, players: list[str] | None = None
                    ) -> Any:
        """One value typed for parameter ``name``; ``players``: the players' names, when the
        values are seats (each then shown, and typed, as its player's name)."""
        if isinstance(domain, Choice):
            labels = domain.labels or tuple(_label(o, players) for o in domain.options)
            if len(domain.options) == 1:
                return domain.options[0]
            for i, label in enumerate(labels, 1):
                self.console.print(f"    {i}. {label}", highlight=False)
            text = self.ask(f"  {name} (number, Enter to cancel): ").strip()
            entry = menu_number(text, len(domain.options))
            if entry is not None:
                return domain.options[entry - 1]
            for option, label in zip(domain.options, labels, strict=True):
                if text.casefold() in (label.casefold(), str(option).casefold()):
                    return option
            return text
        if isinstance(domain, Amount):
            text = self.ask(f"  {name} ({domain.low} to {domain.high}): ").strip()
            number = whole_number(text, signed=True)
            return text if number is None else number
        if isinstance(domain, Domain) and domain.describe().get("kind") == "bid":
            return self._read_bid(domain.describe())
        if isinstance(domain, Subset):
            shown = [_label(o, players) for o in domain.options]
            text = self.ask(f"  {name} (comma-separated, from {', '.join(shown)}): ").strip()
            folded = {label.casefold(): o for label, o in zip(shown, domain.options, strict=True)}
            items = [t.strip() for t in text.split(",") if t.strip()]
            if players is not None and all(t.casefold() in folded for t in items):
                return [folded[t.casefold()] for t in items]
            numbers = [whole_number(t, signed=True) for t in items]
            return text if None in numbers else numbers
        text = self.ask(f"  {name}{' (Enter to skip)' if optional else ''}: ")
        if optional and not text.strip():
            return _OMIT
        return text

    def _read_bid(self, described: Mapping[str, Any]) -> Any:
        """A placement of every chip: for each currency, one space number per chip."""
        spaces = described["spaces"]
        for i, space in enumerate(spaces, 1):
            notes = [f"no {c}" for c in space["forbidden"]]
            if space["max_gold"] is not None:
                notes.append(f"at most {space['max_gold']} gold")
            extra = f" ({', '.join(notes)})" if notes else ""
            self.console.print(f"    {i:2}. {space['name']}{extra}", highlight=False)
        placement: dict[str, dict[str, int]] = {}
        for currency, count in described["chips"].items():
            if not count:
                continue
            while True:
                text = self.ask(f"  your {count} {currency}: a space number per chip, e.g. "
                                f"{','.join(['8'] * count)} (Enter to cancel): ").strip()
                if not text:
                    return ""
                entries = [menu_number(p, len(spaces)) for p in text.split(",")]
                if len(entries) == count and None not in entries:
                    break
                self.refuse(f"Type {count} space number{'s' if count > 1 else ''} from 1 to "
                            f"{len(spaces)}, separated by commas.")
            for entry in entries:
                assert entry is not None
                name = spaces[entry - 1]["name"]
                placement.setdefault(name, {}).setdefault(currency, 0)
                placement[name][currency] += 1
        return placement

    def finish(self) -> None:
        """The end screen: the full reveal and every seat's score breakdown."""
        for seat in self.humans:
            self.show_events(seat)
        view = named(self.state.view(None), self.names)
        for part in self.render.result(view):
            self.console.print(part)
        winners = ", ".join(self.names[s] for s in sorted(self.state.result().winners))
        self.console.print(f"Winner: {winners}", style="bold green")
        for seat, agent in enumerate(self.agents):
            counters = getattr(agent, "counters", None)
            if counters is not None:  # a language-model player: what it cost
                c = counters.as_dict()
                self.console.print(f"{self.names[seat]} ({self.seats[seat]}): {c['calls']:.0f} requests, "
                                   f"{c['retries']:.0f} retried, {c['fallbacks']:.0f} fell back, "
                                   f"{c['prompt_tokens'] + c['completion_tokens']:.0f} tokens, "
                                   f"{c['latency']:.1f} s waiting", highlight=False)


_OMIT = object()


def _label(option: object, players: list[str] | None = None) -> str:
    if players is not None and type(option) is int and 0 <= option < len(players):
        return players[option]
    if option is True:
        return "true"
    if option is False:
        return "false"
    return str(option).replace("_", "-")


def default_seats(players: int, strategies: Sequence[str]) -> list[str]:
    """One human, then the game's strategies in turn."""
    bots = list(strategies) or ["random"]
    return [HUMAN] + [bots[i % len(bots)] for i in range(players - 1)]
