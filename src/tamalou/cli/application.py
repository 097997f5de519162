"""The typer application of ``tamalou`` (``app``) and what its commands share.

Here: the exit statuses and the epilog of ``tamalou --help`` that says them; the help's formatting (``_Command``,
``_Group``) and ``_command``, which registers a command on ``app`` with its docstring as help; the root's
``--version``; the options and words several commands take (``RULESET``, ``VariantOption``...); the consoles,
which print every string through ``printable`` (``_out``, ``_err``, ``_echo_document``); ``_fail``, how a command
ends with an error; and a ruleset argument read and loaded (``_spec``, ``_parts``, ``_load``, ``_check_players``).

The commands are in modules of their own (``ruleset_commands``, ``play_command``, ``simulate_command``,
``verify_commands``); ``tamalou.cli.commands`` registers them on ``app`` in the order ``tamalou --help`` lists
them. Importing this module alone gives an ``app`` without its commands."""

from __future__ import annotations

import inspect
import os
import signal
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from types import FrameType, TracebackType
from typing import Annotated, Any, NoReturn, TypeVar

import typer
from rich.console import Console
from rich.text import Text
from typer.core import TyperCommand, TyperGroup

from ..bots import BUILTIN_BOTS, BotLike
from ..errors import VariantError
from ..rulesets.loader import load_variant
from ..rulesets.registry import is_registered
from ..schema import Variant
from ..version import __version__
from .printable import printable

#: The exit statuses, said in ``tamalou --help``.
OK, RULE_FAILURE, USAGE_ERROR = 0, 1, 2

EPILOG = (
    "Exit status: 0 success; 1 a rule or invariant failure (validate found a bad ruleset, verify a broken "
    "invariant, replay a counterexample that still fails or does not reproduce with the same code, a plugin failed "
    "during a game); 2 a usage or load "
    "error (a bad option, a ruleset that cannot be found, read or loaded by show, new, play, simulate or "
    "verify, a counterexample file that replay cannot read or, without --allow-plugins, whose ruleset needs plugin "
    "modules of its own, a file that new would overwrite)."
)


# ----------------------------------------------------------------------------- help that reads well


def _plain_types(command: Any, ctx: Any) -> None:
    """Leave the type column of the help empty for flags and arguments: a flag takes no value, and an
    argument's name (its metavar) says what it is. (typer 0.2x shows ``<bool>`` and ``<list[str]>`` there;
    options are given a metavar where they are declared.)"""
    for param in command.get_params(ctx):
        if getattr(param, "is_flag", False) or getattr(param, "param_type_name", "") == "argument":
            if getattr(param, "is_flag", False) and getattr(param, "metavar", None) is None:
                param.metavar = ""
            if hasattr(param, "display_type_rich"):
                param.display_type_rich = lambda ctx: None


class _Command(TyperCommand):
    def format_help(self, ctx: Any, formatter: Any) -> None:
        _plain_types(self, ctx)
        super().format_help(ctx, formatter)


class _Group(TyperGroup):
    def format_help(self, ctx: Any, formatter: Any) -> None:
        _plain_types(self, ctx)
        super().format_help(ctx, formatter)


app = typer.Typer(
    name="tamalou",
    help="Tamalou and its cousins (Cabo, Cambio, Gabo...): rulesets, bots and games.",
    epilog=EPILOG,
    cls=_Group,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

F = TypeVar("F", bound=Callable[..., Any])


def _command(function: F) -> F:
    """``@app.command``, its help the docstring with each paragraph on one line (rich keeps line breaks), but a
    paragraph of examples (lines starting with ``$``), kept line by line."""
    paragraphs = inspect.cleandoc(function.__doc__ or "").split("\n\n")
    help_text = "\n\n".join(
        "\n".join(line.strip() for line in p.splitlines()) if p.lstrip().startswith("$") else " ".join(p.split())
        for p in paragraphs
    )
    app.command(cls=_Command, help=help_text)(function)
    return function


#: The built-in bots (``tamalou.bots.BUILTIN_BOTS``); the commands take any name of ``tamalou.bots.bot_names()``.
BOT_KINDS: dict[str, Callable[[int], BotLike]] = BUILTIN_BOTS

RULESET = "RULESET"
RULESET_HELP = "Ruleset: a name, an alias, a .toml path, or a composition a+b."
#: How every command takes its ruleset: positional, several names (or a+b) composing one ruleset.
RULESETS_HELP = (
    "Ruleset: a name, an alias or a .toml path; several compose one ruleset (a ruleset then modifiers), written "
    "apart or joined with +: french gabo, french+gabo."
)
RulesetsArgument = Annotated[list[str] | None, typer.Argument(metavar=RULESET, help=RULESETS_HELP, show_default=False)]
#: The older way ``play`` took its ruleset (``-v french``): still read, not shown.
OlderVariantOption = Annotated[
    list[str] | None, typer.Option("--variant", "-v", metavar=RULESET, hidden=True, help="As RULESET (older form).")
]


def _bot_list(spec: str, people: bool = False) -> list[str]:
    """The bot names of a ``--bots`` value (comma-separated, case-insensitive), each known (with ``people``,
    ``human`` too: a person's seat, ``tamalou play``); an empty name (a comma too many) or an unknown one ends the
    command with a usage error."""
    from ..bots import bot_names
    from ..bots.registry import bot_factory, is_bot_file
    from ..rulesets.problems import did_you_mean

    names = [k.strip() if is_bot_file(k) else k.strip().lower() for k in spec.split(",")]
    known = bot_names()
    if not spec.strip() or any(not k for k in names):
        _fail(f"--bots {spec!r}: a bot name is empty (a comma too many?); bots: {', '.join(known)}")
    for k in names:
        if k == "human":  # a person's seat: only ``play`` seats people
            if not people:
                _fail("--bots human: only tamalou play seats a person (tamalou play RULESET --bots human,greedy)")
            continue
        if is_bot_file(k):
            try:
                bot_factory(k)  # the file is read now: a wrong path is said before any game
            except ValueError as exc:
                _fail(str(exc))
        elif k not in known:
            people_too = ", human" if people else ""
            _fail(f"unknown bot {k!r}{did_you_mean(k, known)} (bots: {', '.join(known)}{people_too}, or file:PATH)")
    return names


def _rulesets(
    args: Sequence[str] | None, older: Sequence[str] | None = None, default: str | None = "french"
) -> list[str]:
    """The ruleset arguments of a command (and its older ``--variant`` ones), or ``default``; none and no default:
    the command ends with a usage error."""
    given = [*(args or []), *(older or [])]
    if given:
        return given
    if default is None:
        _fail("name a ruleset: a name, an alias or a .toml path (tamalou variants lists them)")
    return [default]


VariantOption = Annotated[str, typer.Option("--variant", "-v", metavar=RULESET, help=RULESET_HELP)]
PlayersOption = Annotated[int, typer.Option("--players", "-p", metavar="N", help="Number of players.")]
BotsOption = Annotated[
    str,
    typer.Option(
        "--bots",
        "-b",
        metavar="BOTS",
        help=f"A bot for every seat, or one per seat: cautious,random,... (built in: {', '.join(BUILTIN_BOTS)}).",
    ),
]


# ----------------------------------------------------------------------------- helpers


class _Console(Console):
    """A rich console that prints every string through ``printable`` (control characters made visible) and
    interprets no markup, emoji code or highlighting: a ruleset's title or a counterexample's message is printed
    as the characters it is, whatever file it came from."""

    def __init__(self, *, stderr: bool = False) -> None:
        super().__init__(stderr=stderr, markup=False, highlight=False, emoji=False)

    def render_str(self, text: str, **kwargs: Any) -> Text:
        # Every string a console prints is made a Text here: lines, table cells, titles and headers, tree labels.
        return super().render_str(printable(text), **kwargs)


def _out() -> Console:
    return _Console()


def _err() -> Console:
    return _Console(stderr=True)


def _echo_document(text: str, *, nl: bool = True) -> None:
    """Print a JSON or TOML document whole (``--json``, ``--toml``): its control characters as ``\\u`` escapes."""
    typer.echo(printable(text, document=True), nl=nl)


def _fail(message: str, code: int = USAGE_ERROR) -> NoReturn:
    _err().print(f"error: {message}", soft_wrap=True)
    raise typer.Exit(code)


def _spec(text: str) -> str | list[str]:
    """A ruleset argument: a name, alias or path, or ``a+b`` for a composition."""
    if "+" in text and not Path(text).exists():
        return [part for part in text.split("+") if part]
    return text


def _parts(specs: str | Sequence[str]) -> list[str]:
    parts: list[str] = []
    for s in [specs] if isinstance(specs, str) else specs:
        sp = _spec(s)
        parts.extend([sp] if isinstance(sp, str) else sp)
    return parts


def _load(specs: str | Sequence[str]) -> Variant:
    """Load a ruleset (several arguments compose); one that does not load ends the command with status 2."""
    parts = _parts(specs)
    try:
        return load_variant(parts[0] if len(parts) == 1 else parts)
    except VariantError as exc:
        _fail(str(exc))


def _findable(part: str) -> bool:
    """Whether ``part`` names a registered ruleset or a readable file."""
    if is_registered(part):
        return True
    path = Path(part)
    try:
        return path.is_file() and os.access(path, os.R_OK)
    except (OSError, ValueError):
        return False


def _check_players(v: Variant, players: int) -> None:
    p = v.rules.players
    if not p.min <= players <= p.max:
        _fail(f"{v.name} is played by {p.min} to {p.max} players, got {players}")


def _at_least_one(option: str, value: int) -> None:
    if value < 1:
        _fail(f"{option} must be at least 1, got {value}")


# ----------------------------------------------------------------------------- the root: --version


def _version(value: bool) -> None:
    if value:
        typer.echo(f"tamalou {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit.")
    ] = False,
) -> None:
    """Tamalou and its cousins (Cabo, Cambio, Gabo...): rulesets, bots and games."""


class StopSignals:
    """Within it, ``SIGINT`` and ``SIGTERM`` raise ``KeyboardInterrupt`` (``verify`` and ``simulate`` then stop their
    worker processes; ``verify`` raises ``VerifyInterrupted`` with the games finished), once: a second signal
    while the run winds down is only recorded. ``received``: the first signal's number; ``status``: the exit
    status it calls for (128 plus the number); ``name``: ``SIGINT``... It may be entered again (the games, then
    the shrinking); outside the main thread it changes nothing (signal handlers can be set only there)."""

    def __init__(self) -> None:
        self.received: int | None = None
        self._previous: dict[int, Any] = {}

    @property
    def status(self) -> int:
        return 128 + (self.received or signal.SIGINT)

    @property
    def name(self) -> str:
        return signal.Signals(self.received or signal.SIGINT).name

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        if self.received is None:
            self.received = signum
            raise KeyboardInterrupt

    def __enter__(self) -> StopSignals:
        if threading.current_thread() is threading.main_thread():
            for signum in (signal.SIGINT, signal.SIGTERM):
                self._previous[signum] = signal.signal(signum, self._handle)
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        for signum, previous in self._previous.items():
            if previous is not None:  # None: a handler set from C, that Python cannot put back
                signal.signal(signum, previous)
        self._previous.clear()
