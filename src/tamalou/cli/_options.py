"""What the commands of ``tamalou`` share (package-internal to ``tamalou.cli``): the exit statuses, the options
and words several commands take (``RULESET``, ``VariantOption``, ``BotsOption``...), the consoles, which print every
string through ``printable`` (``console_out``, ``console_err``, ``echo_document``), ``fail_command`` (how a
command ends with an error), a ruleset argument read and loaded (``ruleset_spec``, ``ruleset_parts``,
``load_ruleset``, ``check_players``), and ``StopSignals``, how a long command stops on a signal."""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from types import FrameType, TracebackType
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.text import Text

from ..bots import BUILTIN_BOTS, BotLike
from ..errors import VariantError
from ..rulesets.loader import load_variant
from ..rulesets.registry import is_registered
from ..schema import Variant
from .printable import printable

#: The exit statuses, said in ``tamalou --help``.
OK, RULE_FAILURE, USAGE_ERROR = 0, 1, 2


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


def bot_list(spec: str, people: bool = False) -> list[str]:
    """The bot names of a ``--bots`` value (comma-separated, case-insensitive), each known (with ``people``,
    ``human`` too: a person's seat, ``tamalou play``); an empty name (a comma too many) or an unknown one ends the
    command with a usage error."""
    from ..bots import bot_factory, bot_names, is_bot_file
    from ..rulesets.problems import did_you_mean

    names = [k.strip() if is_bot_file(k) else k.strip().lower() for k in spec.split(",")]
    known = bot_names()
    if not spec.strip() or any(not k for k in names):
        fail_command(f"--bots {spec!r}: a bot name is empty (a comma too many?); bots: {', '.join(known)}")
    for k in names:
        if k == "human":  # a person's seat: only ``play`` seats people
            if not people:
                fail_command(
                    "--bots human: only tamalou play seats a person (tamalou play RULESET --bots human,greedy)"
                )
            continue
        if is_bot_file(k):
            try:
                bot_factory(k)  # the file is read now: a wrong path is said before any game
            except ValueError as exc:
                fail_command(str(exc))
        elif k not in known:
            people_too = ", human" if people else ""
            fail_command(
                f"unknown bot {k!r}{did_you_mean(k, known)} (bots: {', '.join(known)}{people_too}, or file:PATH)"
            )
    return names


def chosen_rulesets(
    args: Sequence[str] | None, older: Sequence[str] | None = None, default: str | None = "french"
) -> list[str]:
    """The ruleset arguments of a command (and its older ``--variant`` ones), or ``default``; none and no default:
    the command ends with a usage error."""
    given = [*(args or []), *(older or [])]
    if given:
        return given
    if default is None:
        fail_command("name a ruleset: a name, an alias or a .toml path (tamalou variants lists them)")
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


class PlainConsole(Console):
    """A rich console that prints every string through ``printable`` (control characters made visible) and
    interprets no markup, emoji code or highlighting: a ruleset's title or a counterexample's message is printed
    as the characters it is, whatever file it came from."""

    def __init__(self, *, stderr: bool = False) -> None:
        super().__init__(stderr=stderr, markup=False, highlight=False, emoji=False)

    def render_str(self, text: str, **kwargs: Any) -> Text:
        # Every string a console prints is made a Text here: lines, table cells, titles and headers, tree labels.
        return super().render_str(printable(text), **kwargs)


def console_out() -> Console:
    return PlainConsole()


def console_err() -> Console:
    return PlainConsole(stderr=True)


def echo_document(text: str, *, nl: bool = True) -> None:
    """Print a JSON or TOML document whole (``--json``, ``--toml``): its control characters as ``\\u`` escapes."""
    typer.echo(printable(text, document=True), nl=nl)


def fail_command(message: str, code: int = USAGE_ERROR) -> NoReturn:
    console_err().print(f"error: {message}", soft_wrap=True)
    raise typer.Exit(code)


def ruleset_spec(text: str) -> str | list[str]:
    """A ruleset argument: a name, alias or path, or ``a+b`` for a composition."""
    if "+" in text and not Path(text).exists():
        return [part for part in text.split("+") if part]
    return text


def ruleset_parts(specs: str | Sequence[str]) -> list[str]:
    parts: list[str] = []
    for s in [specs] if isinstance(specs, str) else specs:
        sp = ruleset_spec(s)
        parts.extend([sp] if isinstance(sp, str) else sp)
    return parts


def load_ruleset(specs: str | Sequence[str]) -> Variant:
    """Load a ruleset (several arguments compose); one that does not load ends the command with status 2."""
    parts = ruleset_parts(specs)
    try:
        return load_variant(parts[0] if len(parts) == 1 else parts)
    except VariantError as exc:
        fail_command(str(exc))


def findable(part: str) -> bool:
    """Whether ``part`` names a registered ruleset or a readable file."""
    if is_registered(part):
        return True
    path = Path(part)
    try:
        return path.is_file() and os.access(path, os.R_OK)
    except (OSError, ValueError):
        return False


def check_players(v: Variant, players: int) -> None:
    p = v.rules.players
    if not p.min <= players <= p.max:
        fail_command(f"{v.name} is played by {p.min} to {p.max} players, got {players}")


def at_least_one(option: str, value: int) -> None:
    if value < 1:
        fail_command(f"{option} must be at least 1, got {value}")


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
