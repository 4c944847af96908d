"""The benchmark's figures as tables: rich tables for a terminal, Markdown for the documentation.

Both are made from the same rows, from the dictionary :func:`tricolore.perf.bench.run` returns
(or its JSON), so a saved run can be printed again without measuring anything.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from tricolore.perf.bench import CALLS, POOL_TARGET

Table = tuple[str, list[str], list[list[str]]]
"""A title, the column headers and the rows, every cell already text."""


def _rate(value: float) -> str:
    return f"{value:,.0f}"


def _times(value: float) -> str:
    return f"{value:.3f}×" if value < 10 else f"{value:.1f}×"


def _us(value: float) -> str:
    return f"{value:.1f}"


def machine_line(result: dict[str, Any]) -> str:
    """Where and when the figures were measured, and how."""
    m, s = result["machine"], result["settings"]
    kind = "quick" if s["quick"] else "full"
    spiel = f", OpenSpiel {m['open_spiel']}" if m.get("open_spiel") else ""
    load = m.get("load_average") or []
    busy = (f"; load average {load[0]:.1f} at the start, {load[1]:.1f} at the end"
            if len(load) == 2 and None not in load else "")
    build = f"{result['build']} build, " if result.get("build") else ""
    return (f"{build}{kind} run of {m['date']} on {m['cpu']}, {m['cores']} cores, {m['implementation']} "
            f"{m['python']}{spiel} ({m['system']}){busy}; median of {s['passes']} interleaved passes, "
            f"each row playing batches of {s['games']} new games for at least "
            f"{s['floor_seconds']:g} s a pass, as long as the floor's slice before it")


def throughput_table(result: dict[str, Any]) -> Table:
    """Decisions per second on each path and their ratios to the floor, then the peers and the
    floor itself."""
    headers = ["game", "seats", "decisions/game", "sim path dec/s", "× floor", "API path dec/s",
               "× floor", "moves: decisions/game", "moves dec/s", "× floor"]
    rows = []
    for g in result["games"]:
        moves = g.get("moves")
        rows.append([g["game"], str(g["players"]), f"{g['decisions_per_game']:.0f}",
                     _rate(g["sim"]["decisions_per_s"]), _times(g["sim"]["ratio_to_floor"]),
                     _rate(g["api"]["decisions_per_s"]), _times(g["api"]["ratio_to_floor"]),
                     *((f"{moves['decisions_per_game']:.0f}", _rate(moves["decisions_per_s"]),
                        _times(moves["ratio_to_floor"])) if moves else ("", "not numbered", ""))])
    for p in result["peers"]["rows"]:
        rows.append([f"{p['game']} (OpenSpiel {p['implementation']})", "2", f"{p['decisions_per_game']:.0f}",
                     _rate(p["decisions_per_s"]), _times(p["ratio_to_floor"]), "", "", "", "", ""])
    f = result["floor"]
    rows.append(["floor (bare Python)", "6", f"{f['decisions_per_game']:.0f}", _rate(f["decisions_per_s"]),
                 _times(1.0), "", "", "", "", ""])
    return "decisions per second of random play", headers, rows


def builds_table(result: dict[str, Any]) -> Table | None:
    """Each game on each build side by side: both paths with their ratios to the floor (each
    build's own floor, measured in the same interpreter), and the dearest calls of a search."""
    builds = result.get("builds")
    if not builds:
        return None
    names = [b for b in ("compiled", "pure") if b in builds]
    headers = ["game"]
    for path in ("sim", "API", "moves"):
        for b in names:
            headers += [f"{path} {b} dec/s", "× floor"]
    for call in ("clone", "determinize", "legal_actions"):
        headers.append(f"{call} µs ({' | '.join(names)})")
    rows = []
    per_build = {b: {g["game"]: g for g in builds[b]["games"]} for b in names}
    for g in builds[names[0]]["games"]:
        row = [g["game"]]
        for path in ("sim", "api", "moves"):
            for b in names:
                figure = per_build[b][g["game"]].get(path)
                row += ([_rate(figure["decisions_per_s"]), _times(figure["ratio_to_floor"])] if figure
                        else ["not numbered", ""])
        for call in ("clone", "determinize", "legal_actions"):
            row.append(" | ".join(_us(per_build[b][g["game"]]["calls"][call]["us"]) for b in names))
        rows.append(row)
    missing = result.get("builds_unavailable") or {}
    title = "the builds side by side" + "".join(f"; the {b} build is {why}" for b, why in missing.items())
    return title, headers, rows


def cost_table(result: dict[str, Any]) -> Table:
    """Microseconds per call at mid-game positions and the memory of a state, each with its
    ratio to the floor."""
    headers = ["game", *(f"{c} µs" for c in CALLS), "state KiB"]
    rows = []
    for g in result["games"]:
        cells = [f"{_us(g['calls'][c]['us'])} ({g['calls'][c]['ratio_to_floor']:.0f})" for c in CALLS]
        memory = g["memory"]
        rows.append([g["game"], *cells, f"{memory['kib']:.1f} ({memory['ratio_to_floor']:.0f}×)"])
    floor_kib = result["floor"]["state_bytes"] / 1024
    title = (f"cost per call at mid-game positions (in brackets: in floor decisions of "
             f"{result['floor']['us_per_decision']:.2f} µs) and memory of a state (in brackets: "
             f"times the floor's {floor_kib:.2f} KiB)")
    return title, headers, rows


def simulate_table(result: dict[str, Any]) -> Table | None:
    """``simulate`` with one worker and with two, and the scaling between them."""
    s = result.get("simulate")
    if s is None:
        return None
    headers = ["workers", "seconds", "games/s", "decisions/s", "× floor"]
    rows = [[str(n), f"{s[key]['seconds']:.2f}", f"{s[key]['games_per_s']:.0f}",
             _rate(s[key]["decisions_per_s"]), _times(s[key]["ratio_to_floor"])]
            for n, key in ((1, "one_worker"), (2, "two_workers"))]
    same = "identical" if s["summaries_identical"] else "DIFFERENT"
    title = (f"simulate: {s['games']} {s['game']} games of {s['seats']} players at {s['players']}; "
             f"scaling {s['scaling']:.2f}× from one worker to two; summaries {same}")
    return title, headers, rows


def batch_table(result: dict[str, Any]) -> Table | None:
    """Revolution!'s numpy batch beside the floor: random play, then the named strategies."""
    found = [b for b in (result.get("batch"), result.get("batch_named")) if b is not None]
    if not found:
        return None
    headers = ["game", "seats", "games at once", "dec/s", "µs/decision", "× floor"]
    rows = [[f"{b['game']} (numpy batch, {b['strategy']} play)", str(b["players"]), _rate(b["games"]),
             _rate(b["decisions_per_s"]), f"{b['us_per_decision']:.2f}", _times(b["ratio_to_floor"])]
            for b in found]
    return "the batched research path", headers, rows


def _per_build(result: dict[str, Any], key: str) -> list[tuple[str, dict[str, Any]]]:
    """Each measured build's ``key`` figures (the run's own when it names no builds), skipping a
    build whose run did not measure them."""
    builds = result.get("builds") or {result.get("build") or "this": result}
    return [(b, builds[b][key]) for b in ("compiled", "pure", "this") if b in builds and builds[b].get(key)]


def pool_table(result: dict[str, Any]) -> Table | None:
    """The named-strategy pool on two workers, on each build."""
    found = _per_build(result, "pool")
    if not found:
        return None
    headers = ["build", "games", "seconds", "games/s", "decisions/s", "target games/s"]
    rows = [[build, _rate(p["games"]), f"{p['seconds']:.2f}", f"{p['games_per_s']:.0f}",
             _rate(p["decisions_per_s"]), f"≥ {POOL_TARGET:.0f}"]
            for build, p in found]
    first = found[0][1]
    title = (f"named-strategy pool: {first['game']} at {first['players']} players, seats drawn from "
             f"{', '.join(first['strategies'])}; simulated on {first['workers']} workers")
    return title, headers, rows


def search_table(result: dict[str, Any]) -> Table | None:
    """IS-MCTS iterations per CPU second in each game, on each build."""
    found = _per_build(result, "search")
    if not found:
        return None
    names = [b for b, _ in found]
    headers = ["game", "seats", "positions", "iterations/pass",
               *(f"{b} iterations/s" for b in names)]
    per_build = [{r["game"]: r for r in search["rows"]} for _, search in found]
    rows = []
    for r in found[0][1]["rows"]:
        rows.append([r["game"], str(r["players"]), str(r["positions"]), _rate(r["iterations"]),
                     *(_rate(b[r["game"]]["iterations_per_s"]) if r["game"] in b else "" for b in per_build)])
    first = found[0][1]
    title = (f"IS-MCTS iterations per CPU second ({first['strategy']} at its defaults, "
             f"{first['iterations_per_decision']} iterations a decision, at mid-game positions)")
    return title, headers, rows


def _measured(t: dict[str, Any]) -> str:
    unit = {"us": " µs", "x": "×"}.get(t["unit"], f" {t['unit']}")
    return f"{t['measured']:.3g}{unit} ({t['worst_game']})"


def target_table(result: dict[str, Any]) -> Table:
    """Each target, the worst figure against it, and whether it is met."""
    rows = [[t["target"], t["goal"], _measured(t), "met" if t["met"] else "not met"]
            for t in result["targets"]]
    return "targets", ["target", "goal", "measured (worst game)", ""], rows


def tables(result: dict[str, Any]) -> Iterator[Table]:
    """Every table of a run, in the order they are printed."""
    yield throughput_table(result)
    builds = builds_table(result)
    if builds is not None:
        yield builds
    yield cost_table(result)
    batch = batch_table(result)
    if batch is not None:
        yield batch
    scaling = simulate_table(result)
    if scaling is not None:
        yield scaling
    for table in (pool_table(result), search_table(result)):
        if table is not None:
            yield table
    yield target_table(result)


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def markdown(result: dict[str, Any]) -> str:
    """The run as Markdown: the machine, then every table."""
    lines = [machine_line(result) + ".", ""]
    skipped = result["peers"]["skipped"]
    if skipped:
        lines += [f"Peers skipped: {skipped}.", ""]
    for title, headers, rows in tables(result):
        lines += [f"**{title[0].upper() + title[1:]}**", ""]
        lines.append("| " + " | ".join(_cell(h) for h in headers) + " |")
        numeric = [all(not c or c[0].isdigit() for c in column) for column in zip(*rows, strict=True)]
        lines.append("| " + " | ".join("---:" if n else "---" for n in numeric) + " |")
        lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows]
        lines.append("")
    return "\n".join(lines)


def rich_tables(result: dict[str, Any]) -> Iterator[Any]:
    """Every table of a run as a ``rich`` table, then a line naming the machine (and why the
    peers were skipped, if they were)."""
    from rich.table import Table as RichTable

    for title, headers, rows in tables(result):
        table = RichTable(title=title)
        for i, header in enumerate(headers):
            table.add_column(header, justify="left" if i == 0 else "right")
        for row in rows:
            table.add_row(*row)
        yield table
    skipped = result["peers"]["skipped"]
    if skipped:
        yield f"peers skipped: {skipped}"
    yield machine_line(result)
