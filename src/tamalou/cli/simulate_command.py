"""``tamalou simulate``: many seeded games between bots (``tamalou.simulation``) with a progress bar, their
statistics printed as tables (or written as JSON, drawn with ``--plot``), and for two rulesets or more the
balance report that compares them.

``tamalou.cli.commands`` registers it on the application."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..bots import BUILTIN_BOTS
from ..errors import TamalouError, VariantError
from ..rulesets.loader import load_variant
from ..schema import Variant
from ..simulation import Comparison, Distribution, Estimate, SimulationReport
from ._options import (
    RULE_FAILURE,
    RULESET,
    RulesetsArgument,
    StopSignals,
    at_least_one,
    bot_list,
    check_players,
    chosen_rulesets,
    console_err,
    console_out,
    echo_document,
    fail_command,
    load_ruleset,
    ruleset_parts,
)
from .log import seat
from .printable import printable


def simulate(
    rulesets: RulesetsArgument = None,
    compare: Annotated[
        list[str] | None,
        typer.Option(
            "--compare",
            "-c",
            metavar=RULESET,
            help="Another ruleset (a name, a path, or a+b) played the same way and compared with the first: a balance "
            "report with 95 % intervals. Repeat it to compare more.",
        ),
    ] = None,
    older: Annotated[
        list[str] | None,
        typer.Option("--variant", "-v", metavar=RULESET, hidden=True, help="As --compare (older form)."),
    ] = None,
    games: Annotated[
        int,
        typer.Option(
            "--games", "-n", metavar="N", help="Number of games (of whole matches, for a ruleset of several rounds)."
        ),
    ] = 1000,
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            "-b",
            metavar="BOTS",
            help="Bot names, comma-separated: seat i gets the i-th, from the first again after the last "
            f"(random,cautious: seats 0 and 2 random, 1 and 3 cautious). Built in: {', '.join(BUILTIN_BOTS)}; "
            "installed packages add others.",
        ),
    ] = "random",
    players: Annotated[
        int | None,
        typer.Option(
            "--players", "-p", metavar="N", help="Number of players (default: 4, or the nearest count allowed)."
        ),
    ] = None,
    seed: Annotated[
        int, typer.Option("--seed", "-s", metavar="N", help="Seed of the run (each game's seed derives from it).")
    ] = 0,
    workers: Annotated[
        int | None,
        typer.Option(
            "--workers",
            "-w",
            metavar="N",
            help="Worker processes (default: one per core, at most one per game); for ray, the chunks of games are "
            "sized for N (default: the cluster's CPUs).",
        ),
    ] = None,
    backend: Annotated[
        str,
        typer.Option(
            "--backend",
            metavar="inline|process|ray",
            help="Where the games are played: here, in worker processes, or on a Ray cluster (RAY_ADDRESS).",
        ),
    ] = "process",
    json_out: Annotated[
        str | None,
        typer.Option(
            "--json",
            metavar="FILE",
            help="Write the statistics as JSON to FILE ('-': print them, and nothing else).",
        ),
    ] = None,
    plot_out: Annotated[
        Path | None,
        typer.Option(
            "--plot",
            metavar="FILE",
            help="Draw each bot's distribution of totals and the rounds' lengths into an image (.png, .svg, .pdf; "
            "rulesets compared on the same scales; needs matplotlib).",
        ),
    ] = None,
) -> None:
    """Play many seeded games between bots: win rates, places, totals, round lengths, calls, matches.

    Every figure is the same whatever the backend and the number of workers. A ruleset of several rounds plays
    whole matches. Without a ruleset: french. With --compare, a balance report compares the rulesets: the
    caller's win rate, the length of a round and the first player's advantage, with 95 % confidence intervals;
    * marks a figure whose intervals do not overlap.

    $ tamalou simulate french -n 1000 -b greedy,random
    $ tamalou simulate french gabo -p 3 --seed 7
    $ tamalou simulate french --compare cabo -n 5000 -b greedy
    $ tamalou simulate kaboo --json stats.json --plot totals.png
    """
    from .. import simulation

    at_least_one("--games", games)
    if workers is not None:
        at_least_one("--workers", workers)
    if backend not in simulation.BACKENDS:
        fail_command(f"--backend is one of {', '.join(simulation.BACKENDS)}, got {backend!r}")
    first = chosen_rulesets(rulesets)
    parts = ruleset_parts(first)
    if len(parts) > 1:  # several names compose (every command's grammar); rulesets are compared with --compare
        try:
            load_variant(parts)
        except VariantError as exc:
            if "rulesets of their own" in exc.errors[0].reason:
                fail_command(f"{exc}\nto compare them instead: tamalou simulate {parts[0]} --compare {parts[1]}")
    loaded = [load_ruleset(first)] + [load_ruleset(spec) for spec in [*(compare or []), *(older or [])]]
    if players is not None:
        for v in loaded:
            check_players(v, players)
    names = bot_list(bots)
    if json_out not in (None, "-"):
        writable("--json", Path(json_out))
    if plot_out is not None:
        writable("--plot", plot_out)
        try:
            import matplotlib  # noqa: F401  (first: the package itself, which a test may hide)
            from matplotlib.backend_bases import FigureCanvasBase
        except ImportError:
            fail_command("--plot needs matplotlib: pip install 'tamalou[plot]'")
        kinds = FigureCanvasBase.get_supported_filetypes()
        if plot_out.suffix.lower().lstrip(".") not in kinds:  # said before the games, not after them
            fail_command(f"--plot {str(plot_out)!r}: an image file is one of .{', .'.join(sorted(kinds))}")
    if backend == "ray":
        try:
            import ray  # noqa: F401
        except ImportError:
            fail_command("--backend ray needs Ray: pip install 'tamalou[ray]'")
    quiet = json_out == "-"
    reports = [simulate_one(v, names, games, players, seed, workers, backend) for v in loaded]
    comparison = simulation.compare(reports) if len(reports) > 1 else None
    if quiet:
        echo_document((comparison or reports[0]).model_dump_json(indent=1))
    else:
        out = console_out()
        for r in reports:
            print_report(out, r)
        if comparison is not None:
            print_balance(out, comparison)
    written = []
    if json_out not in (None, "-"):
        path = Path(json_out)
        try:
            path.write_text((comparison or reports[0]).model_dump_json(indent=1) + "\n", encoding="utf-8")
        except OSError as exc:
            fail_command(f"cannot write {json_out!r}: {exc.strerror or exc}")
        written.append(path)
    if plot_out is not None:
        try:
            written.append(simulation.plot(reports, plot_out))
        except (OSError, ValueError) as exc:
            fail_command(f"cannot draw {str(plot_out)!r}: {exc}")
    for path in written:
        console_err().print(f"wrote {path}", soft_wrap=True)


# ----------------------------------------------------------------------------- simulate: helpers


def writable(option: str, path: Path) -> None:
    if not path.parent.is_dir():
        fail_command(f"{option}: no folder {str(path.parent)!r} to write {path.name!r} into")


def simulate_one(
    v: Variant, names: list[str], games: int, players: int | None, seed: int, workers: int | None, backend: str
) -> SimulationReport:
    """One ruleset's run, with a progress bar on stderr (a failing game: exit 1)."""
    from .. import simulation

    err = console_err()
    with simulate_progress(err) as bar:
        task = bar.add_task(printable(f"simulate {v.name}"), total=games)

        def advance(done: int, total: int) -> None:
            bar.update(task, completed=done)

        stop = StopSignals()  # Ctrl-C or kill: the worker processes are stopped with the run (none outlives it)
        try:
            with stop:
                report = simulation.simulate(
                    v,
                    names,
                    games=games,
                    seed=seed,
                    workers=workers,
                    backend=backend,  # type: ignore[arg-type]
                    players=players,
                    progress=advance,
                )
        except KeyboardInterrupt:
            fail_command(
                f"stopped by {stop.name}: the run and its worker processes were stopped, no report", stop.status
            )
        except simulation.SimulationError as exc:
            fail_command(str(exc), RULE_FAILURE)
        except (TamalouError, ValueError, ImportError) as exc:
            fail_command(str(exc))
    for note in report.run.notes:
        err.print(f"note: {note}", soft_wrap=True)
    return report


def simulate_progress(console: Console) -> Any:
    """The progress bar of ``simulate``: games done, games per second, time (on stderr, if a terminal)."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        Task,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    class Speed(ProgressColumn):
        def render(self, task: Task) -> Text:
            return Text(f"{task.speed:,.0f} games/s" if task.speed else "- games/s")

    return Progress(
        TextColumn("{task.description}", markup=False),
        BarColumn(),
        MofNCompleteColumn(),
        Speed(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
        disable=not console.is_terminal,
    )


def pct(rate: float | None) -> str:
    return "-" if rate is None else f"{rate:.1%}"


def _laps(laps: int, won: int) -> str:
    """Rounds ended by a last lap, and the share of them won: ``12 (58 %)``."""
    return f"{laps} ({pct(won / laps)})" if laps else "0"


def num(x: float | None, digits: int = 1) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def result_table(title: str, *columns: str, left: int = 2) -> Table:
    """A table of ``simulate``: no vertical rules (it fits 80 columns); the first ``left`` columns on the left."""
    from rich import box

    table = Table(title=title, box=box.SIMPLE_HEAD, pad_edge=False)
    for i, col in enumerate(columns):
        table.add_column(col, justify="left" if i < left else "right")
    return table


def print_report(out: Console, r: SimulationReport) -> None:
    """The summary of one run: what was played, then tables by seat, by bot, per round, by reason."""

    def say(line: str = "") -> None:
        out.print(line, soft_wrap=True)

    rs = r.rounds
    is_match = r.matches is not None
    what = "matches" if is_match else "games"
    run = r.run
    say(f"{r.games} {what} of {r.variant}, {r.players} players, bots {', '.join(r.bots)}, seed {r.seed}")
    speed = f"{run.games_per_second:,.0f}" if run.games_per_second else "-"
    workers = f"{run.workers} worker{'s' if run.workers != 1 else ''}"
    per = "round" if is_match else "game"
    say(f"{run.seconds:.2f} s, {speed} {what}/s ({run.backend}, {workers}), {num(rs.actions.mean)} actions/{per}")
    if r.matches is not None:
        say(f"{rs.rounds} rounds, {num(r.matches.rounds.mean, 2)} per match ({r.matches.form})")
    # The columns follow the ruleset: calls where a player may call, matches where matching is played, the rounds a
    # seat ended by a last lap (no call) where some did.
    calls, matching, laps = r.calls_possible, r.matching, rs.last_laps > 0
    legend = ["place: mean place (1 + players ranked ahead)", "total: mean card total"]
    if calls:
        legend.append("call %: calls the caller won")
    if laps:
        legend.append("last laps: rounds it ended by a last lap (won %)")
    say("; ".join(legend))
    heads = ["seat", "bot", "win %", "place", "total"]
    heads += ["calls", "call %"] if calls else []
    heads += ["last laps"] if laps else []
    heads += ["matched", "missed"] if matching else []
    seats = result_table("Rounds by seat" if is_match else "Seats", *heads)
    for p, s in enumerate(rs.by_seat):
        row = [seat(p), s.bot, pct(s.win_rate), num(s.mean_place, 2), num(s.total.mean)]
        row += [str(s.calls), pct(s.call_success)] if calls else []
        row += [_laps(s.last_laps, s.last_laps_won)] if laps else []
        row += [str(s.matched), str(s.missed)] if matching else []
        seats.add_row(*row)
    out.print(seats)
    if len(rs.by_bot) > 1:
        heads = ["bot", "seats", "win %", "place", "total", "p10-p90"]
        heads += ["call %"] if calls else []
        heads += ["last laps"] if laps else []
        heads += ["matched", "missed"] if matching else []
        bots = result_table("Bots (matched, missed: per round)" if matching else "Bots", *heads)
        for name, s in rs.by_bot.items():
            row = [name, " ".join(seat(p) for p in s.seats), pct(s.win_rate), num(s.mean_place, 2)]
            row += [num(s.total.mean), spread(s.total)]
            row += [pct(s.call_success)] if calls else []
            row += [_laps(s.last_laps, s.last_laps_won)] if laps else []
            row += [num(s.matched / s.rounds, 2), num(s.missed / s.rounds, 2)] if matching else []
            bots.add_row(*row)
        out.print(bots)
    if r.matches is not None:
        matches = result_table(
            f"Matches ({r.matches.form}; total: the match's)",
            "seat", "bot", "match wins", "win %", "place", "total", "p10-p90",
        )  # fmt: skip
        rows = [(seat(p), m) for p, m in enumerate(r.matches.by_seat)]
        if len(r.matches.by_bot) > 1:
            rows += [("all", m) for m in r.matches.by_bot.values()]
        for label, m in rows:
            matches.add_row(
                label, m.bot, str(m.wins), pct(m.win_rate), num(m.mean_place, 2), num(m.total.mean), spread(m.total)
            )
        out.print(matches)
    rounds = result_table("Per round", "", "", left=1)
    rounds.add_column("", justify="left")
    rounds.show_header = False
    for label, d in (("turns", rs.turns), ("actions", rs.actions)):
        q = d.percentiles
        rounds.add_row(label, num(d.mean, 2), f"mean; p10 {q[10]}, median {q[50]}, p90 {q[90]}" if q else "mean")
    if r.matching:
        rounds.add_row("right matches", num(rs.matched_per_round, 2), "mean")
        rounds.add_row("missed matches", num(rs.missed_per_round, 2), "mean")
    rounds.add_row("penalty cards", num(rs.penalties_per_round, 2), "mean")
    if r.calls_possible:
        rounds.add_row("calls", str(rs.calls), f"rounds; the caller won {pct(rs.call_success)} of them")
    if rs.last_laps:
        won = pct(rs.last_laps_won / rs.last_laps)
        rounds.add_row("last laps", str(rs.last_laps), f"rounds ended by a last lap (no call); its player won {won}")
    fair = pct(1 / r.players)
    rounds.add_row("first player won", pct(rs.first_player_win_rate), f"of the rounds; 1/players: {fair}")
    out.print(rounds)
    ends = result_table("How rounds ended", "reason", "", "rounds", "share")
    for reason, count in rs.reasons.items():
        ends.add_row(reason, "", str(count), pct(count / rs.rounds))
    if rs.no_winner:
        ends.add_row("(without a winner)", "", str(rs.no_winner), pct(rs.no_winner / rs.rounds))
    out.print(ends)


def spread(d: Distribution) -> str:
    return "-" if d.count == 0 else f"{d.percentiles[10]}-{d.percentiles[90]}"


def interval_text(e: Estimate, form: str) -> str:
    """An estimate and its interval: a rate (``%``), a signed rate (``+%``) or a number."""
    if e.value is None or e.low is None or e.high is None:
        return "- (no data)"
    f = {"%": "{:.1%}", "+%": "{:+.1%}"}.get(form, "{:.2f}").format
    return f"{f(e.value)} [{f(e.low)}, {f(e.high)}]"


def print_balance(out: Console, comparison: Comparison) -> None:
    """The rulesets side by side: each figure with its 95 % interval; * where two intervals are apart."""
    heads = [f"{r.variant} ({r.players} players)" for r in comparison.reports]
    table = result_table("Balance (95 % confidence intervals)", "figure", *heads, "")
    for line in comparison.balance:
        form = {"caller win rate": "%", "first player's advantage": "+%"}.get(line.metric, "")
        table.add_row(line.metric, *(interval_text(e, form) for e in line.estimates), "*" if line.differs else "")
    out.print(table)
    for line in comparison.balance:
        out.print(f"{line.metric}: {line.description}", soft_wrap=True)
    out.print("*: two of the 95 % confidence intervals do not overlap", soft_wrap=True)
