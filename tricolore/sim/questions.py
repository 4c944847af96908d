"""The questions the rulebooks pose, and the section of ``docs/research.md`` that answers them.

Every question a rulebook poses or implies is listed in :data:`QUESTIONS` with the experiment that
answers it: an experiment of a game's study (``tricolore study GAME``, whose ``findings.json`` holds
each claim's record: its sentence, interval, test, Holm-adjusted p-value and status), the empirical
game (``tricolore empirical``, ``empirical.json``) or the best-response loop (``tricolore psro``,
``psro.json``). :func:`section` turns the runs' files into the Markdown between the markers in
``docs/research.md``, so the findings there are regenerated from the runs, never written by hand::

    python -m tricolore.sim.questions --write-doc docs/research.md study-culottes study-revolution ...

A question whose run is missing is listed with the status "no data".
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

START = "<!-- findings:start (written by python -m tricolore.sim.questions; do not edit by hand) -->"
END = "<!-- findings:end -->"


@dataclass(frozen=True, slots=True)
class Question:
    """A question a rulebook poses or implies, and where its answer comes from: ``source`` is
    ``study``, ``empirical`` or ``psro``; ``experiment`` the study experiment's key."""

    game: str
    text: str
    source: str
    experiment: str = ""
    prefer: str = ""
    """Words of the claims that answer the question most directly: the table shows those first."""


CULOTTES = "culottes"
QUESTIONS: tuple[Question, ...] = (
    Question(CULOTTES, "Which role should a player choose, given the nature of their citizen?", "study",
             "roles", prefer="rather than revolutionary"),
    Question(CULOTTES, "Does the smartest grabber beat the revolution, seat for seat?", "study", "grabbers",
             prefer="cockade-grabber against"),
    Question(CULOTTES, "Which strategies survive at equilibrium, and do grabbers choose to be there?",
             "empirical"),
    Question(CULOTTES, "Is there a strategy that beats the equilibrium of the named strategies?", "psro"),
    Question(CULOTTES, "What does the P+epsilon attack gain, and what does the alliance defence take back?",
             "study", "bribery"),
    Question(CULOTTES, "What does the P+epsilon attack gain across rewards and covers?", "study",
             "bribe-sweep"),
    Question(CULOTTES, "How does the alliance defence work: refusing bribes alone, alliances alone, or both?",
             "study", "defence"),
    Question(CULOTTES, "Do revolutionaries gain by bribing for the truth?", "study", "truth-bribery"),
    Question(CULOTTES, "Do cockades work as a false signal?", "study", "cockades"),
    Question(CULOTTES, "Does the vote find the truth?", "study", "truth"),
    Question(CULOTTES, "Do genuine sans-culottes eat more of the Bastille's cakes than the privileged?",
             "study", "bastille"),
    Question(CULOTTES, "What do the die's closing faces and the price of cockades change?", "study",
             "levers"),
    Question(CULOTTES, "Which named strategy wins at a table of every strategy?", "study", "strategies"),
    Question(CULOTTES, "Does a seat position win more often?", "study", "seats"),
    Question("culottes-trials", "Which strategy wins the revolutionary trials?", "study", "strategies"),
    Question("culottes-trials", "Does a seat position win more often?", "study", "seats"),
    Question("let-them-eat-cake", "Which strategy wins?", "study", "strategies"),
    Question("let-them-eat-cake", "Does a seat position win more often?", "study", "seats"),
    Question("let-them-eat-cake", "What does memory mode change?", "study", "memory"),
    Question("revolution", "Which strategy wins?", "study", "strategies"),
    Question("revolution", "Does a seat position win more often?", "study", "seats"),
    Question("revolution", "How does the published edition play against the seed's rules?", "study",
             "edition"),
    Question("bread-and-circuses", "Which strategy wins?", "study", "strategies"),
    Question("bread-and-circuses", "Does a seat position win more often?", "study", "seats"),
    Question("bread-and-circuses", "Does Regulated Bribery change the riots, the length and who wins?",
             "study", "bribery"),
)
"""Every question, in the order the table lists them."""


@dataclass(slots=True)
class Runs:
    """What the runs wrote: each game's study findings, and the empirical game and best-response
    files, by game."""

    studies: dict[str, dict[str, Any]]
    empirical: dict[str, dict[str, Any]]
    psro: dict[str, dict[str, Any]]


def load(paths: Sequence[Path]) -> Runs:
    """The runs in ``paths``: folders holding ``findings.json``, ``empirical.json`` or
    ``psro.json``, or those files themselves."""
    runs = Runs({}, {}, {})
    for path in paths:
        files = [path] if path.is_file() else sorted(path.glob("*.json"))
        for file in files:
            try:
                data = json.loads(file.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue
            if not isinstance(data, dict) or "game" not in data:
                continue
            kind = file.name.removesuffix(".json")
            if kind == "findings":
                runs.studies[data["game"]] = data
            elif kind in ("empirical", "psro"):
                getattr(runs, kind)[data["game"]] = data
    return runs


# -- study experiments ----------------------------------------------------------------------------
def _experiment(runs: Runs, q: Question) -> dict[str, Any] | None:
    study = runs.studies.get(q.game)
    if study is None:
        return None
    return next((e for e in study["experiments"] if e["key"] == q.experiment), None)


def _tested(claim: Mapping[str, Any]) -> bool:
    """Whether a claim rests on a test (an estimate alone has no p-value)."""
    return isinstance(claim.get("p"), int | float)


def _status(claims: Sequence[Mapping[str, Any]]) -> str:
    """One word for an experiment: shown, no effect shown, cannot show, or described."""
    tested = [c for c in claims if _tested(c)]
    if any(c.get("status") == "shown" for c in tested):
        return "shown"
    if tested:
        return "no effect shown"
    if any(c.get("status") == "cannot show" for c in claims):
        return "cannot show"
    return "described" if claims else "no data"


def _brief(claim: Mapping[str, Any]) -> str:
    """A claim in a table cell: its statement, the test and the adjusted p-value."""
    text = str(claim.get("statement") or claim.get("text", "")).rstrip(".")
    if _tested(claim):
        text += f" ({claim['test']}, Holm-adjusted p = {_p(claim.get('adjusted_p'))})"
    return text.replace("|", "/") + "."


def _p(p: Any) -> str:
    if not isinstance(p, int | float):
        return "–"
    return "< 0.001" if p < 0.001 else f"{p:.3g}"


def _headline(claims: Sequence[Mapping[str, Any]], prefer: str = "") -> list[Mapping[str, Any]]:
    """The claims a table cell shows: those that answer most directly (``prefer``), then those
    shown by a test, else a claim that the experiment cannot show anything, else the first tested
    one, else the first."""
    preferred = [c for c in claims if prefer and prefer in str(c.get("statement") or c.get("text", ""))]
    if preferred:
        return preferred[:3]
    shown = [c for c in claims if c.get("status") == "shown" and _tested(c)]
    if shown:
        return shown[:2]
    cannot = [c for c in claims if c.get("status") == "cannot show"]
    if cannot:
        return cannot[:1]
    tested = [c for c in claims if _tested(c)]
    return (tested or list(claims))[:1]


# -- the empirical game and best responses --------------------------------------------------------
def _empirical_answer(data: Mapping[str, Any]) -> tuple[str, str]:
    """The empirical game's finding in a sentence, and its status."""
    eq = data.get("equilibrium", {})
    mixture: Mapping[str, Mapping[str, Any]] = eq.get("mixture", {})
    parts = []
    for name, entry in sorted(mixture.items(), key=lambda kv: -float(kv[1].get("value", 0.0))):
        value = float(entry.get("value", 0.0))
        if value > 0.005:
            low, high = entry.get("interval_95", (value, value))
            parts.append(f"{name} {100 * value:.0f}% [{100 * low:.0f}–{100 * high:.0f}%]")
    games = data.get("games_played")
    regret = eq.get("exploitability")
    resampled = eq.get("exploitability_resampled_95")
    text = "A symmetric equilibrium of the empirical game plays " + (", ".join(parts) or "nothing found")
    if isinstance(regret, int | float):
        text += f"; no strategy gains more than {regret:.3f} of a win against it"
        if isinstance(resampled, list) and len(resampled) == 2:
            text += f" (in resampled tables {resampled[0]:.3f}–{resampled[1]:.3f})"
    roles = data.get("roles_at_equilibrium")
    if isinstance(roles, dict) and roles:
        text += "; its seats play " + ", ".join(f"{role} {100 * share:.0f}%" for role, share in roles.items())
    if isinstance(games, int):
        profiles = data.get("profiles")
        count = len(profiles) if isinstance(profiles, list) else profiles
        text += (f" ({games:,} games over {count} line-ups of {data.get('players')} players; "
                 "bootstrap 95% intervals, seeds paired across line-ups)")
    return text + ".", "shown" if parts else "no data"


def _psro_answer(data: Mapping[str, Any]) -> tuple[str, str]:
    """The best-response loop's conclusion, with its exploitability curve, and its status."""
    sentences = [str(x) for x in data.get("sentences", [])]
    curve = [float(e["gain"]) for e in data.get("exploitability", [])
             if isinstance(e.get("gain"), int | float)]
    text = " ".join(sentences) or "The loop wrote no conclusion."
    if curve:
        text += (" Approximate exploitability (the best response's gain over the mixture, per iteration): "
                 + " → ".join(f"{g:.3f}" for g in curve) + ".")
    found = bool(data.get("found"))
    return text, "shown" if found else "none found within the budget"


# -- the section ------------------------------------------------------------------------------------
def section(runs: Runs) -> str:
    """The Markdown of the findings section: the table of questions, then every claim by game."""
    lines = [
        "| game | question | experiment | finding (interval, test) | status |",
        "| --- | --- | --- | --- | --- |",
    ]
    for q in QUESTIONS:
        if q.source == "study":
            exp = _experiment(runs, q)
            where = f"`tricolore study {q.game}`: {q.experiment}"
            if exp is None:
                lines.append(f"| {q.game} | {q.text} | {where} | – | no data |")
                continue
            claims = exp.get("claims", [])
            cell = " ".join(_brief(c) for c in _headline(claims, q.prefer))
            lines.append(f"| {q.game} | {q.text} | {where} | {cell} | {_status(claims)} |")
        else:
            data = getattr(runs, q.source).get(q.game)
            where = f"`tricolore {q.source}` {q.game}"
            if data is None:
                lines.append(f"| {q.game} | {q.text} | {where} | – | no data |")
                continue
            text, status = _empirical_answer(data) if q.source == "empirical" else _psro_answer(data)
            lines.append(f"| {q.game} | {q.text} | {where} | {text.replace('|', '/')} | {status} |")
    out = [START, "", *lines, ""]
    for game, study in runs.studies.items():
        correction = study.get("correction", {})
        out += [f"### {study.get('title', game)}", ""]
        if study.get("command"):
            out.append(f"Made with `{study['command']}`. {correction.get('in_words', '')}".rstrip())
            out.append("")
        for exp in study.get("experiments", []):
            out.append(f"**{exp['heading']}.** *{exp['question']}*")
            out.append("")
            for claim in exp.get("claims", []):
                out.append(f"- [{claim.get('status', 'described')}] {claim.get('text', '')}")
            out.append("")
    for source in ("empirical", "psro"):
        for game, data in getattr(runs, source).items():
            text, _ = _empirical_answer(data) if source == "empirical" else _psro_answer(data)
            out += [f"### `tricolore {source}` {game}", ""]
            if data.get("command"):
                out += [f"Made with `{data['command']}`.", ""]
            out += [text, ""]
    out.append(END)
    return "\n".join(out)


def write_doc(doc: Path, runs: Runs) -> None:
    """Replace the findings section of ``doc`` (between :data:`START` and :data:`END`)."""
    text = doc.read_text(encoding="utf-8")
    if START not in text or END not in text:
        raise SystemExit(f"{doc} has no findings markers ({START!r} … {END!r})")
    head, rest = text.split(START, 1)
    _, tail = rest.split(END, 1)
    doc.write_text(head + section(runs) + tail, encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m tricolore.sim.questions [--write-doc DOC] RUN...``: print or write the section."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("runs", nargs="+", type=Path, help="study folders, or findings/empirical/psro files")
    parser.add_argument("--write-doc", type=Path, default=None, help="the document to rewrite")
    args = parser.parse_args(argv)
    runs = load(args.runs)
    if args.write_doc is None:
        sys.stdout.write(section(runs) + "\n")
    else:
        write_doc(args.write_doc, runs)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
