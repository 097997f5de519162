"""``tamalou tournament``: how strong bots are (``tamalou.simulation.tournament``): each bot alone against a
field of another, its score with a 95 % interval, per ruleset; a table, or JSON.

``tamalou.cli.commands`` registers it on the application."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..bots import BUILTIN_BOTS
from ..errors import TamalouError
from ..simulation import Estimate, SimulationError
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
)
from .printable import printable
from .simulate_command import interval_text, result_table, simulate_progress, writable


def tournament(
    rulesets: RulesetsArgument = None,
    compare: Annotated[
        list[str] | None,
        typer.Option(
            "--compare",
            "-c",
            metavar=RULESET,
            help="Another ruleset (a name, a path, or a+b) where the same bots play: a line each. Repeat it for more.",
        ),
    ] = None,
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            "-b",
            metavar="BOTS",
            help=f"The bots measured, comma-separated: each plays alone against the field. Built in: "
            f"{', '.join(BUILTIN_BOTS)}; installed packages add others.",
        ),
    ] = "ismcts,cautious,random",
    against: Annotated[
        str,
        typer.Option("--against", "-a", metavar="BOT", help="The bot of every other seat (the field)."),
    ] = "greedy",
    games: Annotated[int, typer.Option("--games", "-n", metavar="N", help="Games of each bot in each ruleset.")] = 400,
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
        typer.Option("--workers", "-w", metavar="N", help="Worker processes (default: one per core)."),
    ] = None,
    json_out: Annotated[
        str | None,
        typer.Option(
            "--json", metavar="FILE", help="Write the lines as JSON to FILE ('-': print them, and nothing else)."
        ),
    ] = None,
) -> None:
    """How strong bots are: each alone against a field of another bot, its score with a 95 % interval.

    A bot's score is its share of the wins (a round won with k players counts 1/k); a bot as strong as its field
    scores 1/players. It sits at each seat in turn, the field elsewhere, and every bot plays the same deals
    (the games of tamalou simulate's seeds). "stronger" and "weaker" say where the interval lies; rating is its
    Bradley-Terry rating against the field in Elo points (the field at 0), with its 95 % interval; ms/move is its
    mean time to choose a move of its own (the slowest in brackets).

    $ tamalou tournament french -b ismcts,cautious -n 400
    $ tamalou tournament french -c cabo -c tamalou-fun -b cautious --against random -p 3
    $ tamalou tournament kaboo -b ismcts --json strength.json
    """
    from ..simulation import tournament as run

    at_least_one("--games", games)
    if workers is not None:
        at_least_one("--workers", workers)
    loaded = [load_ruleset(chosen_rulesets(rulesets))] + [load_ruleset(spec) for spec in compare or []]
    if players is not None:
        for v in loaded:
            check_players(v, players)
    names = bot_list(bots)
    field = bot_list(against)
    if len(field) != 1:
        fail_command(f"--against names one bot, got {', '.join(field)}")
    if json_out not in (None, "-"):
        writable("--json", Path(json_out))
    err = console_err()
    total = len(loaded) * len(names) * games
    with simulate_progress(err) as bar:
        task = bar.add_task(printable("tournament"), total=total)
        stop = StopSignals()
        try:
            with stop:
                report = run(
                    loaded,
                    names,
                    against=field[0],
                    games=games,
                    players=players,
                    seed=seed,
                    workers=workers,
                    progress=lambda done, _: bar.update(task, completed=done),
                )
        except KeyboardInterrupt:
            fail_command(
                f"stopped by {stop.name}: the run and its worker processes were stopped, no report", stop.status
            )
        except SimulationError as exc:
            fail_command(str(exc), RULE_FAILURE)
        except (TamalouError, ValueError) as exc:
            fail_command(str(exc))
    for note in report.notes:
        err.print(f"note: {note}", soft_wrap=True)
    document = report.model_dump_json(indent=1)
    if json_out == "-":
        echo_document(document)
        return
    out = console_out()
    n = report.lines[0].players
    out.print(
        f"{games} games a bot and ruleset, {n} players, against {field[0]}, seed {seed}; even: 1/{n} = {1 / n:.1%}",
        soft_wrap=True,
    )
    table = result_table("Tournament", "ruleset", "bot", "score [95 %]", "verdict", "rating [95 %]", "ms/move", left=2)
    for line in report.lines:
        speed = "-" if line.seconds_per_move is None else f"{1000 * line.seconds_per_move:.1f}"
        if line.slowest_move is not None:
            speed += f" ({1000 * line.slowest_move:.0f})"
        rating = _rating_text(line.rating)
        table.add_row(line.ruleset, line.bot, interval_text(line.score, "%"), line.verdict, rating, speed)
    out.print(table)
    if json_out is not None:
        try:
            Path(json_out).write_text(document + "\n", encoding="utf-8")
        except OSError as exc:
            fail_command(f"cannot write {json_out!r}: {exc.strerror or exc}")
        err.print(f"wrote {json_out}", soft_wrap=True)


def _rating_text(e: Estimate) -> str:
    """A rating in Elo points with its interval: ``+85 [+41,+132]``."""
    if e.value is None or e.low is None or e.high is None:
        return "-"
    return f"{e.value:+.0f} [{e.low:+.0f},{e.high:+.0f}]"
