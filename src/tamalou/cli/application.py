"""The typer application of ``tamalou`` (``app``): the help's formatting (``PlainCommand``, ``PlainGroup``), the
epilog of ``tamalou --help`` that says the exit statuses, ``register_command`` (a command on ``app`` with its
docstring as help) and the root's ``--version``.

What the commands share (their options, consoles, loading a ruleset argument, failing) is package-internal, in
``tamalou.cli._options``; the commands are in modules of their own (``ruleset_commands``, ``play_command``,
``simulate_command``, ``tournament_command``, ``verify_commands``), which ``tamalou.cli.commands`` registers on
``app`` in the order ``tamalou --help`` lists them. Importing this module alone gives an ``app`` without its
commands."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

import typer
from typer.core import TyperCommand, TyperGroup

from ..version import __version__

EPILOG = (
    "Exit status: 0 success; 1 a rule or invariant failure (validate found a bad ruleset, verify a broken "
    "invariant, replay a counterexample that still fails or does not reproduce with the same code, a plugin failed "
    "during a game); 2 a usage or load "
    "error (a bad option, a ruleset that cannot be found, read or loaded by show, new, play, simulate or "
    "verify, a counterexample file that replay cannot read or, without --allow-plugins, whose ruleset needs plugin "
    "modules of its own, a file that new would overwrite)."
)


# ----------------------------------------------------------------------------- help that reads well


def plain_types(command: Any, ctx: Any) -> None:
    """Leave the type column of the help empty for flags and arguments: a flag takes no value, and an
    argument's name (its metavar) says what it is. (typer 0.2x shows ``<bool>`` and ``<list[str]>`` there;
    options are given a metavar where they are declared.)"""
    for param in command.get_params(ctx):
        if getattr(param, "is_flag", False) or getattr(param, "param_type_name", "") == "argument":
            if getattr(param, "is_flag", False) and getattr(param, "metavar", None) is None:
                param.metavar = ""
            if hasattr(param, "display_type_rich"):
                param.display_type_rich = lambda ctx: None


class PlainCommand(TyperCommand):
    def format_help(self, ctx: Any, formatter: Any) -> None:
        plain_types(self, ctx)
        super().format_help(ctx, formatter)


class PlainGroup(TyperGroup):
    def format_help(self, ctx: Any, formatter: Any) -> None:
        plain_types(self, ctx)
        super().format_help(ctx, formatter)


app = typer.Typer(
    name="tamalou",
    help="Tamalou and its cousins (Cabo, Cambio, Gabo...): rulesets, bots and games.",
    epilog=EPILOG,
    cls=PlainGroup,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

F = TypeVar("F", bound=Callable[..., Any])


def register_command(function: F) -> F:
    """``@app.command``, its help the docstring with each paragraph on one line (rich keeps line breaks), but a
    paragraph of examples (lines starting with ``$``), kept line by line."""
    paragraphs = inspect.cleandoc(function.__doc__ or "").split("\n\n")
    help_text = "\n\n".join(
        "\n".join(line.strip() for line in p.splitlines()) if p.lstrip().startswith("$") else " ".join(p.split())
        for p in paragraphs
    )
    app.command(cls=PlainCommand, help=help_text)(function)
    return function


# ----------------------------------------------------------------------------- the root: --version


def print_version(value: bool) -> None:
    if value:
        typer.echo(f"tamalou {__version__}")
        raise typer.Exit()


@app.callback()
def root_options(
    version: Annotated[
        bool, typer.Option("--version", callback=print_version, is_eager=True, help="Print the version and exit.")
    ] = False,
) -> None:
    """Tamalou and its cousins (Cabo, Cambio, Gabo...): rulesets, bots and games."""
