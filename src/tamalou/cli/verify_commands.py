"""The commands of ``tamalou`` about invariants and counterexamples: ``verify`` plays random games checking
the engine's invariants and writes the shortest failure of the fewest players, shrunk, as a counterexample
file; ``replay`` plays such a file (or a game snapshot) again step by step and checks the invariant once more.
A file given to ``replay`` is not trusted: it imports no plugin module the file names but tamalou's own unless
``--allow-plugins``.

``verify`` off a terminal (a CI log, a pipe) prints a line of progress every ``PROGRESS_SECONDS`` to standard error
(``_ProgressLines``) where a terminal shows a bar. Ctrl-C (``SIGINT``) or ``SIGTERM`` stops it at once
(``StopSignals``): the workers are stopped, the report of the games finished is printed, with a line saying it
was interrupted, the counterexample of a failure is written as found (not shrunk), and the exit status is 128
plus the signal's number (130, 143).

``tamalou.cli.commands`` registers them on the application, in this order."""

from __future__ import annotations

import contextlib
import json
import os
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from ..engine.round import Round
from ..errors import SetupError, VariantError
from ..events import Event
from ._options import (
    RULE_FAILURE,
    RulesetsArgument,
    StopSignals,
    at_least_one,
    check_players,
    chosen_rulesets,
    console_err,
    console_out,
    fail_command,
    load_ruleset,
)
from .log import seat
from .printable import printable

if TYPE_CHECKING:
    from ..verify import Counterexample, Failure

#: Off a terminal, ``verify`` prints a line of progress this often (seconds): 5, or the environment's
#: ``TAMALOU_PROGRESS_SECONDS`` (a CI log that wants more or fewer lines).
PROGRESS_SECONDS = 5.0


def _progress_seconds() -> float:
    """``TAMALOU_PROGRESS_SECONDS`` if it is a number above 0, else ``PROGRESS_SECONDS``."""
    try:
        seconds = float(os.environ.get("TAMALOU_PROGRESS_SECONDS", ""))
    except ValueError:
        return PROGRESS_SECONDS
    return seconds if 0 < seconds < float("inf") else PROGRESS_SECONDS


def verify(
    rulesets: RulesetsArgument = None,
    games: Annotated[int, typer.Option("--games", "-n", metavar="N", help="Number of random games.")] = 100,
    players: Annotated[
        int | None,
        typer.Option("--players", "-p", metavar="N", help="Number of players (default: every allowed count in turn)."),
    ] = None,
    seed: Annotated[int, typer.Option("--seed", "-s", metavar="N", help="Seed of the first game (then +1 each).")] = 0,
    workers: Annotated[
        int | None,
        typer.Option(
            "--workers", "-w", metavar="N", help="Worker processes (default: one per core, at most one per game)."
        ),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            "-o",
            metavar="FILE",
            help="Where to write the counterexample of a failure (default: tamalou-counterexample-NAME-SEED.json, "
            "here).",
        ),
    ] = None,
    max_failures: Annotated[
        int, typer.Option("--max-failures", metavar="N", help="Stop after N failing games (0: never).")
    ] = 10,
    timeout: Annotated[
        float,
        typer.Option(
            "--timeout",
            metavar="SECONDS",
            help="Stop a game that runs longer, reported as a termination failure saying where it was stuck "
            "(0: no limit).",
        ),
    ] = 60.0,  # (tamalou.verify.GAME_TIMEOUT: the CLI imports verify only when it runs)
    hook_budget: Annotated[
        float,
        typer.Option(
            "--hook-budget",
            metavar="MS",
            help="Fail a game at the first call of a hook of the ruleset's plugins slower than this, and name every "
            "such hook with its slowest time (0: hooks are not timed).",
        ),
    ] = 100.0,
    exhaustive: Annotated[
        bool,
        typer.Option(
            "--exhaustive",
            help="Instead of random games, walk every sequence of legal actions of the ruleset's small deals (one "
            "a player count) to --depth, the invariants checked at every node, and print the nodes by depth.",
        ),
    ] = False,
    depth: Annotated[
        int, typer.Option("--depth", metavar="N", help="How many actions deep --exhaustive walks.")
    ] = 5,  # (tamalou.verify.DEPTH)
    thorough: Annotated[
        bool,
        typer.Option("--thorough", help="With --exhaustive: every invariant verify samples too, at every node (slow)."),
    ] = False,
    strict: Annotated[
        bool,
        typer.Option(
            "--strict",
            help="Make a lint an error (exit 1): a plugin's value, power or threshold hook that answers None for "
            "every card.",
        ),
    ] = False,
) -> None:
    """Play random games, checking every invariant of the engine and the rules (exit 1 on a failure).

    Cards conserved and knowledge following the events at every step; no leak, listed actions accepted, refused
    ones harmless and snapshots exact at sampled states; replay, result and slot order at the end; every round
    ends. A table says how often each invariant was checked and failed; the report is the same whatever the
    number of workers.

    On a failure, the shortest failing game (then of the fewest players) is shrunk (fewer and simpler actions,
    then fewer players) and written as a counterexample file that carries the ruleset with it: tamalou replay FILE
    plays it step by step and says whether it still fails (with --allow-plugins if the ruleset has plugin modules of its
    own).

    Ctrl-C (or SIGTERM) stops the run at once: the report of the games finished, the counterexample of a failure
    as found, and exit status 130 (143).

    $ tamalou verify french --games 200
    $ tamalou verify french gabo -p 3 --seed 7
    $ tamalou verify our-table.toml --strict --out failure.json
    $ tamalou verify french --exhaustive --depth 4
    """
    try:
        from .. import verify as checks
    except ImportError:
        fail_command("tamalou.verify is not available in this installation")
    at_least_one("--games", games)
    if workers is not None:
        at_least_one("--workers", workers)
    if max_failures < 0:
        fail_command(f"--max-failures must be at least 0, got {max_failures}")
    if not timeout >= 0:
        fail_command(f"--timeout must be at least 0 seconds, got {timeout:g}")
    if not hook_budget >= 0:
        fail_command(f"--hook-budget must be at least 0 ms, got {hook_budget:g}")
    if out is not None and not out.parent.is_dir():
        fail_command(f"--out: no folder {str(out.parent)!r} to write {out.name!r} into")
    v = load_ruleset(chosen_rulesets(rulesets, default=None))
    if players is not None:
        check_players(v, players)
    if exhaustive:
        at_least_one("--depth", depth)
        from .exhaustive_command import run_exhaustive

        run_exhaustive(v, depth, players, thorough)
        return
    n_workers = checks.default_workers(games) if workers is None else min(workers, games)
    err = console_err()
    start = time.perf_counter()
    stop = StopSignals()
    with stop, verify_progress(err, f"verify {v.name}", games) as advance:
        try:
            report = checks.verify(
                v,
                games=games,
                players=players,
                seed=seed,
                workers=n_workers,
                max_failures=max_failures or None,
                progress=advance,
                timeout=timeout or None,
                hook_budget=hook_budget / 1000 if hook_budget else None,
                strict=strict,
            )
        except (VariantError, SetupError) as exc:
            fail_command(str(exc))
        except KeyboardInterrupt as exc:  # tamalou.verify.VerifyInterrupted: the report of the games finished
            partial = getattr(exc, "report", None)
            if partial is None:
                raise
            report = partial
    seconds = time.perf_counter() - start
    for note in report.notes:
        err.print(f"note: {note}", soft_wrap=True)
    for slow in getattr(report, "slow_hooks", []):
        err.print(f"warning: slow hook: {slow.describe(report.hook_budget or 0)}", soft_wrap=True)
    for lint in report.lints:
        err.print(f"{'error' if strict else 'warning'}: {lint.hook} of {lint.plugin}: {lint.message}", soft_wrap=True)
    out_console = console_out()

    def say(line: str = "") -> None:
        out_console.print(line, soft_wrap=True)

    # (of the games asked for, when --max-failures stopped the run: the progress bar counted those it had started
    # too; an interrupted run says so on a line of its own)
    checked = f"{report.games} of {games} games" if report.stopped else f"{report.games} games"
    say(f"{v.name}: {checked}, {report.actions} actions, {len(report.failures)} failure(s)")
    if report.reasons:
        say("rounds ended: " + ", ".join(f"{k} {n}" for k, n in sorted(report.reasons.items())))
    if report.moves:
        say("moves played: " + ", ".join(f"{k} {n}" for k, n in report.moves.items()))
    if report.powers or report.unused_powers:
        counts = [*report.powers.items(), *((name, 0) for name in report.unused_powers)]
        say("powers used: " + ", ".join(f"{k} {n}" for k, n in counts))
    for name in report.unused_powers:
        err.print(
            f"warning: the power {name} was never used in these games: what it does was not checked (play more "
            "games, or other player counts)",
            soft_wrap=True,
        )
    out_console.print(invariants_table(report.checks, report.failed))
    err.print(f"{seconds:.1f} s, {n_workers} worker(s)", soft_wrap=True)
    interrupted = getattr(report, "interrupted", False)
    if interrupted:
        say(f"interrupted ({stop.name}) after {report.games} of {games} games: the report is of the games finished")
    if not report.failures:
        if interrupted:
            raise typer.Exit(stop.status)
        if strict and report.lints:
            say(f"{len(report.lints)} lint(s), errors with --strict")
            raise typer.Exit(RULE_FAILURE)
        return
    if report.stopped:
        say(
            f"stopped after {len(report.failures)} failing games (--max-failures {max_failures}): {report.games} of "
            f"{games} games checked, the others not played"
        )
    say("failures:")
    for f_seed, f_players, message in report.failures:
        say(f"  seed {f_seed}, {f_players} players: {message}")
    if not report.details:
        raise typer.Exit(stop.status if interrupted else RULE_FAILURE)
    first = _to_shrink(report.details)  # the shortest, then of the fewest players: the smallest to start from
    as_found = checks.ShrinkBudget(evaluations=0)
    if interrupted or _timed_out(first):  # stop at once; or a game that could take the whole limit at each try
        why = "the run was interrupted" if interrupted else "it was stopped by its time limit"
        err.print(f"the failure of seed {first.seed} is written as found ({why}): not shrunk", soft_wrap=True)
        example = checks.shrink(v, first, budget=as_found, players=False)
    else:
        err.print(f"shrinking the failure of seed {first.seed} ({first.invariant})...", soft_wrap=True)
        try:
            with stop:
                example = checks.shrink(v, first)
        except KeyboardInterrupt:  # Ctrl-C while shrinking: the game as it was found, and the signal's status
            err.print("shrinking interrupted: the game is written as found", soft_wrap=True)
            example = checks.shrink(v, first, budget=as_found, players=False)
        except Exception as exc:  # a bug of the shrinker must not hide the failure: the game as it was found
            err.print(
                f"note: shrinking failed ({type(exc).__name__}: {exc}); the game is written as found", soft_wrap=True
            )
            example = checks.shrink(v, first, budget=as_found, players=False)
    path = out if out is not None else Path(checks.counterexample_name(v.name, example.seed))
    try:
        example.write(path)
    except OSError as exc:
        fail_command(f"cannot write the counterexample to {str(path)!r}: {exc}")
    say(
        f"counterexample ({example.invariant}): {len(example.actions)} actions, {example.players} players "
        f"(found with {len(first.actions)} actions, {first.players} players): {path}"
    )
    trusted = " --allow-plugins" if foreign(list(v.plugins)) else ""  # our own file, the user's own modules
    say(f"reproduce: tamalou replay {quoted(str(path))}{trusted}")
    named = " ".join(quoted(r) for r in rulesets or [])
    again = f"tamalou verify {named} --games 1 --seed {first.seed} --players {first.players}"
    say(f"play a failing game again: {again} (--seed and --players of any failure above)")
    raise typer.Exit(stop.status if stop.received else RULE_FAILURE)


def _to_shrink(failures: list[Failure]) -> Failure:
    """The failure whose counterexample ``verify`` writes: the shortest, then of the fewest players (``shortest``); a
    game stopped by its time limit only if every failure is one (it is not shrunk: each try could take as long)."""
    from ..verify import shortest

    finished = [f for f in failures if not _timed_out(f)]
    return shortest(finished or failures)


def _timed_out(failure: Failure) -> bool:
    from ..verify import timed_out

    return timed_out(failure)


@contextlib.contextmanager
def verify_progress(console: Console, description: str, total: int) -> Iterator[Any]:
    """How ``verify`` shows its progress, on stderr: a bar on a terminal; off one, a line every
    ``PROGRESS_SECONDS`` (``_ProgressLines``). Gives the ``progress(done, failures)`` callback of ``verify``."""
    if not console.is_terminal:
        with _ProgressLines(console, description, total) as lines:
            yield lines.update
        return
    with _progress_bar(console) as bar:
        task = bar.add_task(printable(description), total=total, failures=0)

        def advance(done: int, failing: int) -> None:
            bar.update(task, completed=done, failures=failing)

        yield advance


class _ProgressLines:
    """Off a terminal, a line of progress every ``PROGRESS_SECONDS`` on ``console`` (standard error), from a
    thread of its own, so that a line comes even while no game ends: ``verify french: 37/100 games, 0 failing,
    12 s``. ``update(done, failing)`` is what ``verify`` calls after each game."""

    def __init__(self, console: Console, description: str, total: int) -> None:
        self.console, self.description, self.total = console, description, total
        self.done = self.failing = 0
        self.printed = False
        self._start = time.perf_counter()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="tamalou-verify-progress", daemon=True)

    def update(self, done: int, failing: int) -> None:
        self.done, self.failing = done, failing

    def line(self) -> str:
        elapsed = time.perf_counter() - self._start
        return f"{self.description}: {self.done}/{self.total} games, {self.failing} failing, {elapsed:.0f} s"

    def _run(self) -> None:
        every = _progress_seconds()
        while not self._stop.wait(every):
            self.console.print(printable(self.line()), soft_wrap=True, markup=False, highlight=False)
            self.printed = True

    def __enter__(self) -> _ProgressLines:
        self._thread.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self._stop.set()
        self._thread.join()
        if self.printed:  # the last line says what the summary will: the games it counts
            self.console.print(printable(self.line()), soft_wrap=True, markup=False, highlight=False)


def _progress_bar(console: Console) -> Any:
    """The progress bar of ``verify`` on a terminal (on stderr)."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    return Progress(
        TextColumn("{task.description}", markup=False),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("games, {task.fields[failures]} failing"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    )


def invariants_table(checks: dict[str, int], failed: dict[str, int]) -> Table:
    """Which invariants held: checks run and games that failed, one row per invariant."""
    from ..verify import INVARIANTS

    table = Table(title="Invariants")
    table.add_column("invariant", no_wrap=True)
    table.add_column("checks", justify="right")
    table.add_column("failures", justify="right")
    table.add_column("what it says")
    for name, inv in INVARIANTS.items():
        table.add_row(name, str(checks.get(name, 0)), str(failed.get(name, 0)), inv.description)
    return table


def quoted(text: str) -> str:
    import shlex

    return shlex.quote(text)


def replay(
    file: Annotated[
        Path,
        typer.Argument(metavar="FILE", help="A counterexample written by verify, or a game snapshot (game.to_json())."),
    ],
    seat_: Annotated[
        int | None, typer.Option("--seat", metavar="P", help="Show only what seat P sees: its events and its view.")
    ] = None,
    step: Annotated[
        bool, typer.Option("--step", help="Wait for Enter between actions (when the input is a terminal).")
    ] = False,
    allow_plugins: Annotated[
        bool,
        typer.Option(
            "--allow-plugins",
            help="Import the plugin modules the file names (from the folders it names): their code runs. Only for "
            "a file you trust, such as one your own verify wrote.",
        ),
    ] = False,
) -> None:
    """Play a counterexample (or a game snapshot) again, step by step, then check the invariant it broke.

    Each action is printed with the events it made and the table as every seat sees it (only seat P's with
    --seat). At the end the invariant that broke is checked again: exit 1 if it still fails; 0 if it holds now
    and the plugin code or tamalou changed since the file was written (run it after fixing your rule); exit 1,
    "does not reproduce", if it holds with the same code (the rule depends on chance or on state outside the
    game). A snapshot has every invariant checked along the way and at the end.

    The file is not trusted unless --allow-plugins: no module it names is imported but tamalou's own plugins
    (those of the built-in rulesets), and a ruleset that needs another one is a usage error (exit 2).
    """
    try:
        text = file.read_text(encoding="utf-8")
    except OSError as exc:
        fail_command(f"cannot read {str(file)!r}: {exc.strerror or exc}")
    example = read_replayable(text, file, allow_plugins)
    try:
        v = example.load_variant(allow_plugins=allow_plugins)
    except (VariantError, SetupError) as exc:
        named = [] if allow_plugins else foreign_plugins(example)
        if named:
            fail_command(plugins_refused(file, named, example.variant.plugin_dirs))
        where = "; ".join(f"{name} was in {folder}" for name, folder in example.variant.plugin_dirs.items())
        fail_command(f"the ruleset in {str(file)!r} does not load here: {exc}" + (f" ({where})" if where else ""))
    if seat_ is not None and not 0 <= seat_ < example.players:
        fail_command(f"--seat: a seat from 0 to {example.players - 1}, got {seat_}")
    out = console_out()

    def say(line: str = "") -> None:
        out.print(line, soft_wrap=True)

    if example.invariant:
        say(f"counterexample: {example.invariant} ({example.description or 'an invariant'})")
        say(f"  {example.message}")
    else:
        say(f"game snapshot: every invariant is checked ({file})")
    plugins = f" (plugins: {', '.join(v.plugins)})" if v.plugins else ""
    deal = "a stacked deal" if example.deal is not None else f"seed {example.seed}"
    say(f"{v.name}{plugins}: {example.players} players, {deal}, {len(example.actions)} actions")
    interactive = step and sys.stdin.isatty()
    shown = range(example.players) if seat_ is None else [seat_]

    def on_step(game: Round, action: Any, events: list[Event]) -> None:
        say()
        if action is None:
            say("deal")
        else:
            say(f"step {len(game.actions)}: {json.dumps(action.to_dict())}")
        for e in events:
            say(f"  · {(e if seat_ is None else e.for_player(seat_)).describe(seat)}")
        for p in shown:
            for line in repr(game.view(p)).splitlines():
                say(f"  {line}")
        if interactive and len(game.actions) < len(example.actions):
            with contextlib.suppress(EOFError):
                input("(Enter: next action) ")

    try:
        outcome = example.check(on_step=on_step, allow_plugins=allow_plugins)
    except (VariantError, SetupError) as exc:
        fail_command(str(exc))
    say()
    if outcome.refused is not None:
        index, reason = outcome.refused
        say(f"action {index + 1} of the file is refused now: {reason} (the rules changed: the game stops there)")
    what = example.invariant or "every invariant"
    if outcome.violation is not None:
        name = outcome.violation.invariant or example.invariant
        say(f"still fails: {name}: {outcome.violation}")
        raise typer.Exit(RULE_FAILURE)
    if _stopped_by_the_time_limit(example):
        found = example.found or {}
        again = f"--games 1 --seed {found.get('seed', example.seed)} --players {found.get('players', example.players)}"
        say(
            "not checked again: verify stopped this game by its time limit in the action after the file's (named in "
            "the message above), which replay does not play: it may never return. Play the game again within a "
            f"time limit: tamalou verify RULESET {again} --timeout SECONDS"
        )
        raise typer.Exit(RULE_FAILURE)
    if not outcome.checked:
        say(f"{what} cannot be checked: the round is not over after the actions of the file; it does not fail")
        return
    if not example.invariant:  # a game snapshot: no failure was seen, nothing to tell a fix from
        say(f"holds now: {what}")
        return
    changes = example.changed_since()
    if changes == []:
        # The same tamalou and the same plugin code as when it failed: nothing that could fix it changed.
        say(
            f"does not reproduce: {what} held this time, with the same tamalou and the same code of "
            f"{'the plugin modules' if example.variant.plugins else 'the ruleset'} as when it failed: the rule "
            "depends on chance or on state outside the game (random numbers, hash() of a string, which differs "
            "per process, the time, a module-level variable); make it a function of the game"
        )
        raise typer.Exit(RULE_FAILURE)
    why = (
        "; ".join(changes)
        if changes
        else "the file records no fingerprint of the code: a fix cannot be told from chance"
    )
    say(f"holds now: {what} ({why})")


def _stopped_by_the_time_limit(example: Counterexample) -> bool:
    """Whether ``example`` is a game that verify stopped by its time limit (``--timeout``): its actions stop
    before the one that did not return."""
    from ..verify import TIMEOUT_INVARIANT, TIMEOUT_WORDS

    return example.invariant == TIMEOUT_INVARIANT and example.message.startswith(TIMEOUT_WORDS)


def read_replayable(text: str, file: Path, allow_plugins: bool) -> Counterexample:
    """A counterexample from ``text``, or a game snapshot made into one; else a usage error. Unless
    ``allow_plugins``, a snapshot's ruleset may use no plugin module but tamalou's own and those already imported
    (``Round.from_json``): nothing it names is imported."""
    from pydantic import ValidationError

    from ..errors import SnapshotError
    from ..verify import Counterexample

    try:
        data = json.loads(text)
    except ValueError as exc:
        fail_command(f"{str(file)!r} is not JSON: {exc}")
    except RecursionError:
        fail_command(f"{str(file)!r} is not JSON that can be read: nested too deep")
    if isinstance(data, dict) and data.get("kind") == "tamalou-counterexample":
        try:
            return Counterexample.model_validate(data)
        except ValidationError as exc:
            fail_command(f"{str(file)!r} is not a valid counterexample: {exc}")
    try:
        return Counterexample.from_snapshot(text, allow_plugins=allow_plugins)
    except (SnapshotError, VariantError) as exc:
        variant = data.get("variant") if isinstance(data, dict) else None
        named = foreign(variant.get("plugins") if isinstance(variant, dict) else None)
        if named and not allow_plugins:
            fail_command(plugins_refused(file, named, {}))
        fail_command(f"{str(file)!r} is neither a counterexample nor a game snapshot: {exc}")


def foreign(plugins: object) -> list[str]:
    """The module names of a ``plugins`` list read from a file that are not tamalou's own plugins."""
    from ..plugin_managers import is_builtin_plugin

    if not isinstance(plugins, list | tuple):
        return []
    return [p for p in plugins if isinstance(p, str) and not is_builtin_plugin(p)]


def foreign_plugins(example: Counterexample) -> list[str]:
    """The modules other than tamalou's own plugins that a counterexample names: in its ruleset's ``plugins``
    (the embedded TOML's, and the list beside it) and in ``plugin_dirs``. Read for the message only: what
    refuses them is the load (``allow_plugins=False``)."""
    import tomllib

    embedded = example.variant
    try:
        in_toml = tomllib.loads(embedded.toml).get("plugins")
    except (tomllib.TOMLDecodeError, RecursionError):
        in_toml = None
    names = foreign(in_toml) + foreign(embedded.plugins) + foreign(list(embedded.plugin_dirs))
    return list(dict.fromkeys(names))


def plugins_refused(file: Path, named: list[str], folders: dict[str, str]) -> str:
    """What replay says of a file whose ruleset needs plugin modules, without --allow-plugins."""
    listed = ", ".join(f"{name} (in {folders[name]})" if name in folders else name for name in named)
    return (
        f"{str(file)!r} names plugin modules that are not tamalou's own: {listed}. Replay imports none of them "
        "unless --allow-plugins is given, which runs their code: give it only for a file you trust."
    )
