"""The Culottes study: the rulebook's own questions.

"The research purpose of this board game is to identify winning strategies for grabbers and
revolutionaries." The rulebook asks who eats the Bastille's cakes, who wins between the grabber
and the revolutionary, names the P+epsilon bribery attack and the alliance defence, and leaves the
die's closing faces and the price of cockades as the rules' levers.
"""

from __future__ import annotations

from collections.abc import Sequence

from tricolore.games.culottes.data import GRABBER, REVOLUTIONARY
from tricolore.sim import figures
from tricolore.sim.batch import GameRow
from tricolore.sim.report import Table
from tricolore.sim.stats import Estimate, difference, games, mean, rate
from tricolore.sim.studies.common import Setup, mean_table, metric, rate_table, side_wins, standard
from tricolore.sim.study import Arm, Experiment, Finding, Rows, Study

HONEST = "honest-revolutionary"
GRABBERS = ("puppet-grabber", "p-epsilon-briber")
"""The named strategies that play the grabber's side."""
BRIBER, DEFENDER, PUPPET = "p-epsilon-briber", "alliance-defender", "puppet-grabber"
CLOSING_FACES = ((6,), (5, 6), (4, 5, 6), (3, 4, 5, 6))
COCKADE_PRICES = (1, 3, 6)
"""Settings the die-and-cockades experiment tries (the rulebook's are (5, 6) and 3)."""


def sans_culottes_minus_privileged(rows: Sequence[GameRow]) -> Estimate:
    """Bastille cakes to sans-culottes minus those to the privileged, per game."""
    return mean(
        [
            s - p
            for s, p in zip(
                metric(rows, "bastille_to_sans_culottes"), metric(rows, "bastille_to_privileged"), strict=True
            )
        ]
    )


def bastille_experiment(arm: Arm) -> Experiment:
    """The rulebook's first question: do genuine sans-culottes eat more Bastille cakes than the
    privileged."""

    def analyse(rows: Rows) -> Finding:
        played = rows[arm.key]
        to_sans, to_privileged = (
            metric(played, "bastille_to_sans_culottes"),
            metric(played, "bastille_to_privileged"),
        )
        more = rate(sum(s > p for s, p in zip(to_sans, to_privileged, strict=True)), len(played))
        gap = difference(to_sans, to_privileged)
        claims = [
            f"Genuine sans-culottes receive {mean(to_sans).number(1)} Bastille cakes a game and the "
            f"privileged {mean(to_privileged).number(1)}: {gap.number(1)} more for the sans-culottes "
            f"({games(len(played))}).",
            f"The sans-culottes eat more than the privileged in {more.percent()} of games "
            f"({games(len(played))}).",
        ]
        verdict = (
            "The Bastille favours the genuine sans-culottes beyond chance"
            if gap.low > 0
            else "The privileged eat more, beyond chance: the cockades do not sort the citizens"
            if gap.high < 0
            else "No difference between the two natures shows"
        )
        claims.append(
            f"{verdict} (the interval of the difference, {gap.number(1)}, over {games(len(played))})."
        )
        labels = ["to sans-culottes", "to privileged"]
        means = [mean(to_sans), mean(to_privileged)]
        return Finding(
            claims,
            [
                figures.estimates_chart(
                    f"Bastille cakes per game ({games(len(played))})",
                    labels,
                    means,
                    axis="cakes per game",
                    percent=False,
                )
            ],
            [mean_table("Bastille cakes", dict(zip(labels, means, strict=True)), "per game")],
            [
                "The mixed table: every Culottes strategy and random, turned through the seats. "
                "The sheet stack is half sans-culotte and half privileged, so totals compare alike."
            ],
        )

    return Experiment(
        "bastille",
        "Who eats the Bastille's cakes",
        "Do genuine sans-culottes eat more Bastille cakes than the privileged?",
        (arm,),
        analyse,
    )


def grabber_arms(setup: Setup) -> list[tuple[str, int, Arm]]:
    """Each grabber strategy, 1 to ``players - 2`` of them, against honest revolutionaries."""
    out = []
    for grabber in GRABBERS:
        for k in range(1, setup.players - 1):
            seats = [grabber] * k + [HONEST] * (setup.players - k)
            out.append(
                (
                    grabber,
                    k,
                    setup.arm(
                        f"{grabber}-x{k}", f"{k} {grabber} against {setup.players - k} {HONEST}", seats
                    ),
                )
            )
    return out


def grabbers_experiment(setup: Setup) -> Experiment:
    """The rulebook's second question: when does the best grabber beat the revolution."""
    arms = grabber_arms(setup)

    def analyse(rows: Rows) -> Finding:
        claims: list[str] = []
        lines: dict[str, list[Estimate]] = {}
        cells: list[list[str]] = []
        counts = sorted({k for _, k, _ in arms})
        for grabber in GRABBERS:
            wins = [side_wins(rows[a.key], GRABBER) for g, _, a in arms if g == grabber]
            revs = [side_wins(rows[a.key], REVOLUTIONARY) for g, _, a in arms if g == grabber]
            lines[grabber] = wins
            for k, w, r in zip(counts, wins, revs, strict=True):
                cells.append([grabber, str(k), w.percent(), r.percent(), f"{w.n:,}"])
        table = Table(
            ["grabber", "grabbers at the table", "a grabber wins", "a revolutionary wins", "games"], cells
        )
        best = max(GRABBERS, key=lambda g: sum(e.value for e in lines[g]))
        n = lines[best][0].n
        beats = [k for k, w in zip(counts, lines[best], strict=True) if w.low > 0.5]
        claims.append(
            f"The best grabber is {best}: alone against {setup.players - 1} honest revolutionaries "
            f"it is among the winners in {lines[best][0].percent()} of games ({games(n)})."
        )
        claims.append(
            f"It beats the revolution (is among the winners in more than half the games, beyond "
            f"chance) once {beats[0]} of the {setup.players} players are grabbers: "
            + ", ".join(
                f"{k} grabber{'s' if k > 1 else ''} {lines[best][i].percent()}" for i, k in enumerate(counts)
            )
            + f" ({games(n)} each)."
            if beats
            else f"It never beats the revolution beyond chance at a table of {setup.players}: with "
            f"{counts[-1]} grabbers it wins {lines[best][-1].percent()} of games ({games(n)} each)."
        )
        other = next(g for g in GRABBERS if g != best)
        claims.append(f"{other} alone wins {lines[other][0].percent()} of games ({games(n)}).")
        return Finding(
            claims,
            [
                figures.sweep_chart(
                    f"Games a grabber wins ({games(n)} per point)",
                    [str(k) for k in counts],
                    lines,
                    axis="games won by a grabber",
                    setting_axis="grabbers at the table",
                    percent=True,
                    reference=0.5,
                )
            ],
            [table],
            [
                f"Grabber strategies against {HONEST} players, seats turned from game to game. A game "
                "counts for a side when one of its seats is among the winners (a shared win counts "
                "for both)."
            ],
        )

    return Experiment(
        "grabbers",
        "When the grabber beats the revolution",
        "When does the best grabber beat the revolution?",
        tuple(a for _, _, a in arms),
        analyse,
    )


def bribery_experiment(setup: Setup) -> Experiment:
    """What a P+epsilon attack gains, and how much the alliance defence takes back."""
    others = setup.players - 1
    plain = setup.arm(f"{PUPPET}-x1", f"1 {PUPPET} against {others} {HONEST}", [PUPPET] + [HONEST] * others)
    attack = setup.arm(f"{BRIBER}-x1", f"1 {BRIBER} against {others} {HONEST}", [BRIBER] + [HONEST] * others)
    defended = setup.arm(
        f"{BRIBER}-vs-{DEFENDER}", f"1 {BRIBER} against {others} {DEFENDER}", [BRIBER] + [DEFENDER] * others
    )

    def analyse(rows: Rows) -> Finding:
        def attacker(arm: Arm, name: str) -> list[float]:
            return [r.scores[s] for r in rows[arm.key] for s, n in enumerate(r.strategies) if n == name]

        base, bribed, guarded = attacker(plain, PUPPET), attacker(attack, BRIBER), attacker(defended, BRIBER)
        gain, taken_back = difference(bribed, base), difference(bribed, guarded)
        wins = {
            a.label: rate(
                sum(any(r.strategies[w] == name for w in r.winners) for r in rows[a.key]), len(rows[a.key])
            )
            for a, name in ((plain, PUPPET), (attack, BRIBER), (defended, BRIBER))
        }
        n = len(rows[attack.key])
        claims = [
            f"A P+epsilon attack changes the attacker's score by {gain.number(2)} points a game, "
            f"against the same grabber without bribes ({mean(base).number(2)} → "
            f"{mean(bribed).number(2)}; {games(n)} each).",
            f"The alliance defence changes it back by {taken_back.number(2)} points "
            f"({mean(bribed).number(2)} → {mean(guarded).number(2)}; {games(n)} each)"
            + (
                f": it takes back {100 * taken_back.value / gain.value:.0f}% of the attack's gain."
                if gain.low > 0
                else "."
            ),
            "The attacker is among the winners in "
            + "; ".join(f"{e.percent()} of games with {label}" for label, e in wins.items())
            + f" ({games(n)} each).",
        ]
        accepted, paid = (
            metric(rows[attack.key], "bribes_accepted"),
            metric(rows[attack.key], "bribe_cakes_paid"),
        )
        forfeits = metric(rows[defended.key], "alliance_deposits_forfeited")
        claims.append(
            f"Per game, {mean(accepted).number(2)} bribes are accepted and {mean(paid).number(2)} cakes paid "
            f"out of escrow; against the alliance, {mean(forfeits).number(2)} deposits are forfeited "
            f"({games(n)} each)."
        )
        labels = [plain.label, attack.label, defended.label]
        scores = [mean(base), mean(bribed), mean(guarded)]
        return Finding(
            claims,
            [
                figures.estimates_chart(
                    f"The attacker's score ({games(n)} each)",
                    labels,
                    scores,
                    axis="mean score",
                    percent=False,
                )
            ],
            [
                mean_table("table", dict(zip(labels, scores, strict=True)), "attacker's score"),
                rate_table("table", wins, "games"),
            ],
            [
                "Deals are kept by the engine: deposits held in escrow and settled when the trial closes "
                "(see the game's doc)."
            ],
        )

    return Experiment(
        "bribery",
        "The P+epsilon attack and the alliance defence",
        "What does a P+epsilon attack gain, and how much of it does the alliance defence take back?",
        (plain, attack, defended),
        analyse,
    )


def levers_experiment(setup: Setup, mixed: Arm) -> Experiment:
    """How the die's closing faces and the price of cockades move the answers above."""
    faces = [
        (
            f,
            mixed
            if f == (5, 6)
            else setup.mixed(
                f"closing-{'-'.join(map(str, f))}",
                f"closing faces {', '.join(map(str, f))}",
                closing_faces=list(f),
            ),
        )
        for f in CLOSING_FACES
    ]
    prices = [
        (
            p,
            mixed
            if p == 3
            else setup.mixed(f"cockade-{p}", f"privileged cockade {p} points", cockade_price_privileged=p),
        )
        for p in COCKADE_PRICES
    ]

    def analyse(rows: Rows) -> Finding:
        claims: list[str] = []
        figs: list[str] = []
        tables: list[Table] = []
        for name, settings in (
            ("closing faces", [("/".join(map(str, f)), a) for f, a in faces]),
            ("privileged cockade price", [(str(p), a) for p, a in prices]),
        ):
            gaps = [sans_culottes_minus_privileged(rows[a.key]) for _, a in settings]
            grabbers = [side_wins(rows[a.key], GRABBER) for _, a in settings]
            n = len(rows[settings[0][1].key])
            labels = [label for label, _ in settings]
            if len(set(gaps)) == 1 and len(set(grabbers)) == 1:
                claims.append(
                    f"Changing the {name} leaves the Bastille cakes and the grabbers' wins exactly "
                    f"as they were ({gaps[0].number(1)} cakes, {grabbers[0].percent()}): the "
                    "strategies do not play differently for it, and the scores it moves do not "
                    f"change who wins ({games(n)} each)."
                )
            else:
                claims.append(
                    f"With the {name} at "
                    + "; ".join(
                        f"{label}: the sans-culottes get {g.number(1)} cakes more than the privileged and "
                        f"a grabber wins {w.percent()} of games"
                        for label, g, w in zip(labels, gaps, grabbers, strict=True)
                    )
                    + f" ({games(n)} each)."
                )
            figs.append(
                figures.sweep_chart(
                    f"Bastille cakes, sans-culottes minus privileged ({games(n)} per point)",
                    labels,
                    {"cakes per game": gaps},
                    axis="cakes per game",
                    setting_axis=name,
                    reference=0,
                )
            )
            figs.append(
                figures.sweep_chart(
                    f"Games a grabber wins ({games(n)} per point)",
                    labels,
                    {"a grabber wins": grabbers},
                    axis="games",
                    setting_axis=name,
                    percent=True,
                )
            )
            tables.append(
                Table(
                    [name, "sans-culottes minus privileged", "a grabber wins", "games"],
                    [
                        [label, g.number(2), w.percent(), f"{g.n:,}"]
                        for label, g, w in zip(labels, gaps, grabbers, strict=True)
                    ],
                )
            )
        return Finding(
            claims, figs, tables, ["The mixed table under each setting; every other rule as the book has it."]
        )

    arms = tuple({a.key: a for _, a in faces + prices}.values())
    return Experiment(
        "levers",
        "The die and the cockades",
        "How do the die's closing faces and the price of cockades move these answers?",
        arms,
        analyse,
    )


def study(setup: Setup) -> Study:
    """The Culottes study."""
    mixed, common = standard(setup)
    return Study(
        "culottes",
        "Culottes: who wins, and what the rules' levers change",
        (
            bastille_experiment(mixed),
            grabbers_experiment(setup),
            bribery_experiment(setup),
            levers_experiment(setup, mixed),
            *common,
        ),
    )
