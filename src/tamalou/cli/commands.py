"""The commands of ``tamalou`` (typer and rich: the ``cli`` extra). See ``tamalou.cli``."""

from __future__ import annotations

import contextlib
import inspect
import json
import os
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn, TypeVar

import typer
from pydantic import BaseModel
from rich.console import Console
from rich.table import Table
from rich.text import Text
from rich.tree import Tree
from typer.core import TyperCommand, TyperGroup

from .. import __version__
from ..authoring import NameError_, check_name, module_name, scaffold, write_files
from ..bots import BUILTIN_BOTS, BotLike, bot_names, make_bot, play_game
from ..effective import EffectiveRules, effective_rules, match_words, variant_to_toml
from ..engine.game import Game, new_game
from ..errors import SetupError, TamalouError, VariantError
from ..events import Event
from ..match import Match, MatchResult, new_match
from ..schema import Variant
from ..simulation import Comparison, Distribution, Estimate, SimulationReport, bot_seed
from ..variant import is_registered, load_variant, variant_json_schema, variant_names
from ..views import Result
from .log import Narrator, cards, seat
from .printable import printable

if TYPE_CHECKING:
    from ..verification import Counterexample

#: The exit statuses, said in ``tamalou --help``.
OK, RULE_FAILURE, USAGE_ERROR = 0, 1, 2

EPILOG = (
    "Exit status: 0 success; 1 a rule or invariant failure (validate found a bad ruleset, verify a broken "
    "invariant, replay a counterexample that still fails, a plugin failed during a game); 2 a usage or load "
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
    """``@app.command``, its help the docstring with each paragraph on one line (rich keeps line breaks)."""
    paragraphs = inspect.cleandoc(function.__doc__ or "").split("\n\n")
    help_text = "\n\n".join(" ".join(p.split()) for p in paragraphs)
    app.command(cls=_Command, help=help_text)(function)
    return function


#: The built-in bots (``tamalou.bots.BUILTIN_BOTS``); the commands take any name of ``tamalou.bots.bot_names()``.
BOT_KINDS: dict[str, Callable[[int], BotLike]] = BUILTIN_BOTS

RULESET = "RULESET"
RULESET_HELP = "Ruleset: a name, an alias, a .toml path, or a composition a+b."

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


def _bot_kinds(spec: str, players: int) -> list[str]:
    kinds = [k.strip().lower() for k in spec.split(",") if k.strip()]
    known = bot_names()
    for k in kinds:
        if k not in known:
            _fail(f"unknown bot {k!r} (bots: {', '.join(known)})")
    if len(kinds) == 1:
        kinds *= players
    if len(kinds) != players:
        _fail(f"--bots names one bot for every seat, or one for all: {players} players, {len(kinds)} bots")
    return kinds


def _bots(kinds: list[str], seed: int) -> list[BotLike]:
    """One bot per seat, each seeded from the game's seed and its seat (as ``simulate`` seeds them)."""
    return [make_bot(k, bot_seed(seed, seat)) for seat, k in enumerate(kinds)]


def _round_bots(kinds: list[str], seed: int, round_index: int) -> list[BotLike]:
    """The bots of round ``round_index`` (0 for the first) of a match played with ``seed``."""
    return [make_bot(k, bot_seed(seed, seat, round_index)) for seat, k in enumerate(kinds)]


def _new_game(variant: Variant, players: int, seed: int) -> Game:
    try:
        return new_game(variant, players=players, seed=seed)
    except (VariantError, SetupError) as exc:
        _fail(str(exc))


def _new_match(variant: Variant, players: int, seed: int) -> Match:
    try:
        return new_match(variant, players=players, seed=seed)
    except (VariantError, SetupError) as exc:
        _fail(str(exc))


def _is_match(v: Variant) -> bool:
    return v.rules.rounds.form != "single"


def _text(value: Any) -> str:
    """A rule value as a person reads it."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        return ", ".join(f"{k}={_text(v)}" for k, v in value.items()) or "(none)"
    if isinstance(value, list | tuple):
        return ", ".join(_text(v) for v in value) or "(none)"
    return str(value)


def _first_line(doc: str | None) -> str:
    return (doc or "").strip().splitlines()[0] if doc and doc.strip() else ""


# ----------------------------------------------------------------------------- variants / show / schema


@_command
def variants() -> None:
    """List the known rulesets: names, aliases, players, title."""
    table = Table(title="Rulesets")
    table.add_column("name", no_wrap=True)
    table.add_column("aliases")
    table.add_column("players", justify="center", no_wrap=True)
    table.add_column("title")
    for name in variant_names():
        try:
            v = load_variant(name)
        except VariantError as exc:
            table.add_row(name, "", "", f"error: {exc}")
            continue
        p = v.rules.players
        table.add_row(v.name, ", ".join(v.aliases), f"{p.min}-{p.max}", v.title)
    _out().print(table)


def _keys_tree(v: Variant) -> Tree:
    """Every key of the ruleset, section by section (``show --keys``)."""
    data = v.model_dump(mode="json")
    tree = Tree(f"{v.name}" + (f" — {v.title}" if v.title else ""))
    for key in ("aliases", "description", "sources", "plugins", "base"):
        value = data.get(key)
        if value:
            tree.add(f"{key}: {_text(value)}")
    rules = tree.add("rules")
    for section_name in type(v.rules).model_fields:
        section = getattr(v.rules, section_name)
        doc = _first_line(type(section).__doc__)
        branch = rules.add(f"{section_name}" + (f" — {doc}" if doc else ""))
        assert isinstance(section, BaseModel)
        for key, field in type(section).model_fields.items():
            value = data["rules"][section_name][key]
            line = f"{key} = {_text(value)}"
            if field.description:
                line += f"    ({field.description})"
            branch.add(line)
    return tree


def _from(plugin: str | None) -> str:
    return f" (plugin {plugin})" if plugin else ""


def _print_effective(v: Variant, e: EffectiveRules, spec: str) -> None:
    """The rules as they are played (``show``)."""
    out = _out()

    def say(line: str = "") -> None:
        out.print(line, soft_wrap=True)

    say(f"{e.name}" + (f" — {e.title}" if e.title else ""))
    if v.description:
        say(v.description)
    say()
    say(f"players: {e.players[0]} to {e.players[1]}")
    say(f"deck: {e.deck}")
    say(f"match: {e.match}")
    if e.plugins:
        say("plugins:")
        for p in e.plugins:
            what = ", ".join(p.hooks)
            say(f"  {p.module}" + (f": {p.summary}" if p.summary else "") + (f" [hooks: {what}]" if what else ""))
    else:
        say("plugins: none (the keys say every rule)")
    say()
    table = Table(title="Cards: points and power", title_justify="left")
    table.add_column("card", no_wrap=True)
    table.add_column("points", justify="right", no_wrap=True)
    table.add_column("power")
    for line in e.cards:
        label = line.rank if line.whole_rank else f"{line.rank}: {' '.join(line.cards)}"
        points = f"{line.value}{_from(line.value_from)}"
        power = "" if line.power == "none" else f"{line.power} — {line.power_title}{_from(line.power_from)}"
        table.add_row(label, points, power)
    out.print(table)
    say()
    say(f"call: right at {e.call_threshold} points or less{_from(e.threshold_from)}")
    for words in e.call[1:]:
        say(f"  {words}")
    say("end of the round:")
    for words in e.ranking:
        say(f"  {words}")
    say(f"mechanics in play: {', '.join(e.mechanics)}")
    say()
    say(f"Every key: tamalou show {spec} --keys")


@_command
def show(
    variant: Annotated[
        list[str], typer.Argument(metavar=RULESET, help="Ruleset(s): name, alias or .toml path; several compose.")
    ],
    keys: Annotated[bool, typer.Option("--keys", help="Every key of the ruleset, section by section.")] = False,
    as_json: Annotated[
        bool, typer.Option("--json", help="The ruleset's keys as JSON (with --effective: the rules as played).")
    ] = False,
    effective: Annotated[
        bool, typer.Option("--effective", help="With --json: the rules as played, after the plugins' hooks.")
    ] = False,
    as_toml: Annotated[
        bool,
        typer.Option("--toml", help="A complete stand-alone TOML file (no extends): it loads back to the same rules."),
    ] = False,
) -> None:
    """Show a ruleset as it is played: cards, the call, the end of a round, plugins.

    Every card's points and power, the call threshold, how a finished round is ranked and won, and the
    plugins in effect, as the plugins' hooks answer them. --keys shows the ruleset's keys instead, --toml
    writes them as a stand-alone file.
    """
    if sum((keys, as_json, as_toml)) > 1:
        _fail("choose one of --keys, --json and --toml")
    if effective and (keys or as_toml):
        _fail("--effective goes with --json (the plain show is the effective rules already)")
    v = _load(variant)
    if as_json:
        data = effective_rules(v).model_dump(mode="json") if effective else v.model_dump(mode="json")
        _echo_document(json.dumps(data, indent=2, ensure_ascii=False))
    elif as_toml:
        _echo_document(variant_to_toml(v), nl=False)
    elif keys:
        _out().print(_keys_tree(v))
    else:
        _print_effective(v, effective_rules(v), "+".join(_parts(variant)))


@_command
def schema() -> None:
    """Print the JSON Schema of the variant TOML format (for editors)."""
    _echo_document(json.dumps(variant_json_schema(), indent=2, ensure_ascii=False))


# ----------------------------------------------------------------------------- new / validate


def _extends_entry(part: str, folder: Path) -> str:
    """How the new file names the base ``part``: its name, or its path relative to the new file's folder."""
    if is_registered(part):
        return part
    path = Path(part).resolve()
    try:
        return Path(os.path.relpath(path, folder.resolve())).as_posix()
    except ValueError:  # another drive
        return path.as_posix()


@_command
def new(
    name: Annotated[str, typer.Argument(metavar="NAME", help="The new ruleset's name: the file is NAME.toml.")],
    extends: Annotated[
        str, typer.Option("--extends", "-e", metavar=RULESET, help="The ruleset it changes (name, path, or a+b).")
    ],
    plugin: Annotated[
        bool,
        typer.Option(
            "--plugin", help="Also a plugin module NAME_rules.py with one hook, and a pyproject.toml to install both."
        ),
    ] = False,
    folder: Annotated[
        Path, typer.Option("--dir", "-d", metavar="DIR", help="Where to write the files (made if needed).")
    ] = Path("."),
    force: Annotated[bool, typer.Option("--force", help="Overwrite files that exist.")] = False,
) -> None:
    """Write a new ruleset to edit: NAME.toml (and a plugin module with --plugin).

    NAME.toml extends a ruleset and changes nothing yet: its comments show the keys one usually changes,
    with the base's values, ready to uncomment. It loads and validates as it is. Existing files are left
    alone (exit 2) unless --force.
    """
    try:
        name = check_name(name)
    except NameError_ as exc:
        _fail(str(exc))
    if is_registered(name):
        _fail(f"{name!r} is the name of a known ruleset: choose another name")
    base = _load(extends)
    parts = _parts(extends)
    try:
        files = scaffold(name, [_extends_entry(p, folder) for p in parts], plugin=plugin, base=base)
    except (NameError_, VariantError) as exc:
        _fail(str(exc))
    try:
        written = write_files(files, folder, force=force)
    except FileExistsError as exc:
        _fail(f"{exc}: nothing written (--force overwrites)")
    except OSError as exc:
        _fail(f"cannot write in {folder}: {exc.strerror}" if exc.strerror else str(exc))
    out = _out()
    for path in written:
        out.print(f"wrote {path}", soft_wrap=True)
    toml = written[0]
    out.print(f"next: tamalou validate {toml}; tamalou show {toml}", soft_wrap=True)
    if plugin:
        out.print(
            f"{module_name(name)}.py is imported from the folder of {toml.name}; pip install {folder} makes "
            f"{name} a ruleset found by its name from anywhere",
            soft_wrap=True,
        )


@_command
def validate(
    files: Annotated[list[str], typer.Argument(metavar="RULESET", help="Variant files (.toml) or names to check.")],
) -> None:
    """Check rulesets: 'ok', or every error (file, key, what was expected).

    Exit 1 if a ruleset is bad, 2 if one cannot be found or read.
    """
    out, err = _out(), _err()
    bad = missing = 0
    for f in files:
        try:
            v = load_variant(_spec(f))
        except VariantError as exc:
            if all(_findable(part) for part in _parts(f)):
                bad += 1
            else:
                missing += 1
            message = str(exc)
            if f not in message and Path(f).name not in message:
                message = f"{f}: {message}"
            err.print(message, soft_wrap=True)
        else:
            out.print(f"{f}: ok ({v.name})", soft_wrap=True)
    if missing:
        raise typer.Exit(USAGE_ERROR)
    if bad:
        raise typer.Exit(RULE_FAILURE)


# ----------------------------------------------------------------------------- play


def _result_table(result: Result, game: Game, names: list[str], title: str = "Result") -> Table:
    place = {p: i + 1 for i, group in enumerate(result.ranking) for p in group}
    table = Table(title=f"{title} ({result.reason})")
    table.add_column("seat", no_wrap=True)
    table.add_column("bot")
    table.add_column("cards")
    table.add_column("total", justify="right")
    table.add_column("score", justify="right")
    table.add_column("place", justify="right")
    table.add_column("", no_wrap=True)
    for p in range(game.players):
        marks = []
        if p in result.winners:
            marks.append("winner")
        if p == result.caller:
            marks.append("caller")
        table.add_row(
            seat(p),
            names[p],
            cards(game.layout(p)),
            str(result.totals[p]),
            str(result.scores[p]) if p < len(result.scores) else "",
            str(place.get(p, "")),
            ", ".join(marks),
        )
    return table


def _match_table(result: MatchResult, names: list[str]) -> Table:
    place = {p: i + 1 for i, group in enumerate(result.ranking) for p in group}
    table = Table(title=f"Match ({result.form}, {len(result.rounds)} rounds)")
    table.add_column("seat", no_wrap=True)
    table.add_column("bot")
    for r in range(len(result.rounds)):
        table.add_column(f"r{r + 1}", justify="right")
    table.add_column("total", justify="right")
    table.add_column("place", justify="right")
    table.add_column("", no_wrap=True)
    for p in range(len(names)):
        rounds = []
        for r, scores in enumerate(result.rounds):
            extra = result.adjustments[r][p] if r < len(result.adjustments) else 0
            rounds.append(f"{scores[p]}{f'{extra:+d}' if extra else ''}")
        table.add_row(
            seat(p),
            names[p],
            *rounds,
            str(result.totals[p]),
            str(place.get(p, "")),
            "winner" if p in result.winners else "",
        )
    return table


class _Round:
    """Plays one round between bots, saying it line by line (``say`` is ``None``: silently)."""

    def __init__(self, game: Game, kinds: list[str], say: Callable[[str], None] | None) -> None:
        self.game, self.kinds, self.say = game, kinds, say
        self.narrator = Narrator(game)
        self.last_turn = -1  # the last turn event's ``turn``

    def event(self, event: Event) -> None:
        if event.type == "turn":
            self.last_turn = event["turn"]
        line = self.narrator.line(event)
        if line is not None and self.say is not None:
            self.say(line if event.type == "turn" else f"  {line}")

    def play(self, bots: list[BotLike]) -> Result:
        g, say = self.game, self.say
        if say is not None:
            for p in range(g.players):
                say(f"  {seat(p)} ({self.kinds[p]}): {cards(g.layout(p))}")
            top = g.discard_top
            say(f"  discard: {top if top is not None else 'empty'}, stock: {len(g.stock)} cards")
        for event in g.events_so_far():  # the deal, the opening and the first turn
            self.event(event)
        try:
            return play_game(g, bots, on_event=self.event)
        except TamalouError as exc:  # a plugin's hook failed during the game
            _fail(str(exc), RULE_FAILURE)

    @property
    def turns(self) -> int:
        """Turns begun, as the log numbers them (the last ``-- turn N``)."""
        return self.last_turn + 1


def _play_json(v: Variant, players: int, seed: int, kinds: list[str]) -> dict[str, Any]:
    """The whole game (or match) as one JSON document."""
    rounds: list[dict[str, Any]] = []

    def one(game: Game, bots: list[BotLike]) -> None:
        try:
            result = play_game(game, bots)
        except TamalouError as exc:
            _fail(str(exc), RULE_FAILURE)
        rounds.append(
            {
                "seed": game.seed,
                "first_player": game.first_player,
                "events": [e.to_dict() for e in game.events_so_far()],
                "result": result.model_dump(mode="json"),
            }
        )

    match: MatchResult | None = None
    if _is_match(v):
        m = _new_match(v, players, seed)
        while not m.is_over:
            one(m.game, _round_bots(kinds, seed, m.round))
            m.next_round()
        match = m.result()
    else:
        one(_new_game(v, players, seed), _bots(kinds, seed))
    return {
        "variant": v.name,
        "players": players,
        "seed": seed,
        "bots": kinds,
        "rounds": rounds,
        "match": match.model_dump(mode="json") if match is not None else None,
    }


@_command
def play(
    variant: VariantOption = "french",
    players: PlayersOption = 4,
    seed: Annotated[int, typer.Option("--seed", "-s", metavar="N", help="Seed of the deal and of the bots.")] = 0,
    bots: BotsOption = "cautious",
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print only the results.")] = False,
    as_json: Annotated[
        bool,
        typer.Option(
            "--json",
            help="Print the game as one JSON document: per round its seed, first player, every event (every "
            "card shown) and result; the match's result. An event's 'turn' counts the turns played before it "
            "(0 for the first), so the log's 'turn 1' is the event's turn 0.",
        ),
    ] = False,
) -> None:
    """Play a seeded game between bots, printing the referee's log (every card shown).

    A ruleset of several rounds (rules.rounds) is played as a whole match, round by round. The log counts
    turns from 1.
    """
    v = _load(variant)
    _check_players(v, players)
    kinds = _bot_kinds(bots, players)
    if as_json:
        _echo_document(json.dumps(_play_json(v, players, seed, kinds), indent=1, ensure_ascii=False))
        return
    out = _out()

    def say(line: str) -> None:
        out.print(line, soft_wrap=True)

    log = None if quiet else say
    title = v.title or v.name
    if not _is_match(v):
        game = _new_game(v, players, seed)
        if not quiet:
            say(f"{title}: {players} players, seed {seed}, bots {', '.join(kinds)}")
        rnd = _Round(game, kinds, log)
        result = rnd.play(_bots(kinds, seed))
        out.print(_result_table(result, game, kinds))
        winners = ", ".join(seat(p) for p in result.winners) or "nobody"
        caller = seat(result.caller) if result.caller is not None else "nobody"
        say(f"winners: {winners}; caller: {caller}; turns: {rnd.turns}; actions: {len(game.actions)}")
        return
    m = _new_match(v, players, seed)
    say(f"{title}: {match_words(v)}; {players} players, seed {seed}, bots {', '.join(kinds)}")
    while not m.is_over:
        r, game = m.round, m.game
        say(f"== round {r + 1}: {seat(game.first_player)} plays first")
        rnd = _Round(game, kinds, log)
        result = rnd.play(_round_bots(kinds, seed, r))
        if not quiet:
            out.print(_result_table(result, game, kinds, title=f"Round {r + 1}"))
        m.next_round()
        totals = m.totals()
        scored = ", ".join(f"{seat(p)} {result.scores[p]}" for p in range(players))
        so_far = ", ".join(f"{seat(p)} {totals[p]}" for p in range(players))
        say(f"round {r + 1} ({result.reason}, {rnd.turns} turns): scores {scored}; totals {so_far}")
    match = m.result()
    out.print(_match_table(match, kinds))
    winners = ", ".join(seat(p) for p in match.winners) or "nobody"
    say(f"match winners: {winners}; rounds: {len(match.rounds)}")


# ----------------------------------------------------------------------------- simulate / verify


@_command
def simulate(
    variant: Annotated[
        list[str] | None,
        typer.Argument(
            metavar=RULESET,
            help="Ruleset: a name, an alias, a .toml path, or a composition a+b (default: french). Two or more are "
            "compared side by side.",
            show_default=False,
        ),
    ] = None,
    also: Annotated[
        list[str] | None,
        typer.Option("--variant", "-v", metavar=RULESET, help="A ruleset, as a RULESET argument (as play takes it)."),
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
            help="Draw each bot's distribution of totals into an image (.png, .svg, .pdf; needs matplotlib).",
        ),
    ] = None,
) -> None:
    """Play many seeded games between bots: win rates, places, totals, round lengths, calls, matches.

    Every figure is the same whatever the backend and the number of workers. A ruleset of several rounds plays
    whole matches. Given two rulesets (or more), a balance report compares them: the caller's win rate, the
    length of a round and the first player's advantage, with 95 % confidence intervals; * marks a figure whose
    intervals do not overlap.
    """
    from .. import simulation

    _at_least_one("--games", games)
    if workers is not None:
        _at_least_one("--workers", workers)
    if backend not in simulation.BACKENDS:
        _fail(f"--backend is one of {', '.join(simulation.BACKENDS)}, got {backend!r}")
    specs = [*(variant or []), *(also or [])] or ["french"]
    loaded = [_load(spec) for spec in specs]
    if players is not None:
        for v in loaded:
            _check_players(v, players)
    names = [k.strip().lower() for k in bots.split(",") if k.strip()]
    known = bot_names()
    for k in names:
        if k not in known:
            _fail(f"unknown bot {k!r} (bots: {', '.join(known)})")
    if not names:
        _fail("--bots names at least one bot")
    if json_out not in (None, "-"):
        _writable("--json", Path(json_out))
    if plot_out is not None:
        _writable("--plot", plot_out)
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            _fail("--plot needs matplotlib: pip install 'tamalou[plot]'")
    if backend == "ray":
        try:
            import ray  # noqa: F401
        except ImportError:
            _fail("--backend ray needs Ray: pip install 'tamalou[ray]'")
    quiet = json_out == "-"
    reports = [_simulate_one(v, names, games, players, seed, workers, backend) for v in loaded]
    comparison = simulation.compare(reports) if len(reports) > 1 else None
    if quiet:
        _echo_document((comparison or reports[0]).model_dump_json(indent=1))
    else:
        out = _out()
        for r in reports:
            _print_report(out, r)
        if comparison is not None:
            _print_balance(out, comparison)
    written = []
    if json_out not in (None, "-"):
        path = Path(json_out)
        try:
            path.write_text((comparison or reports[0]).model_dump_json(indent=1) + "\n", encoding="utf-8")
        except OSError as exc:
            _fail(f"cannot write {json_out!r}: {exc.strerror or exc}")
        written.append(path)
    if plot_out is not None:
        try:
            written.append(simulation.plot(reports, plot_out))
        except (OSError, ValueError) as exc:
            _fail(f"cannot draw {str(plot_out)!r}: {exc}")
    for path in written:
        _err().print(f"wrote {path}", soft_wrap=True)


@_command
def verify(
    variant: Annotated[str, typer.Argument(metavar=RULESET, help=RULESET_HELP)],
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
) -> None:
    """Play random games, checking every invariant of the engine and the rules (exit 1 on a failure).

    Cards conserved and knowledge following the events at every step; no leak, listed actions accepted, refused
    ones harmless and snapshots exact at sampled states; replay, result and slot order at the end; every round
    ends. A table says how often each invariant was checked and failed; the report is the same whatever the
    number of workers.

    On a failure, the first failing game is shrunk (fewer players, fewer and simpler actions) and written as a
    counterexample file that carries the ruleset with it: tamalou replay FILE plays it step by step and says
    whether it still fails (with --allow-plugins if the ruleset has plugin modules of its own).
    """
    try:
        from .. import invariants, verification
    except ImportError:
        _fail("tamalou.invariants is not available in this installation")
    _at_least_one("--games", games)
    if workers is not None:
        _at_least_one("--workers", workers)
    if max_failures < 0:
        _fail(f"--max-failures must be at least 0, got {max_failures}")
    if out is not None and not out.parent.is_dir():
        _fail(f"--out: no folder {str(out.parent)!r} to write {out.name!r} into")
    v = _load(variant)
    if players is not None:
        _check_players(v, players)
    n_workers = verification.default_workers(games) if workers is None else min(workers, games)
    err = _err()
    start = time.perf_counter()
    with _progress(err) as bar:
        task = bar.add_task(printable(f"verify {v.name}"), total=games, failures=0)

        def advance(done: int, failing: int) -> None:
            bar.update(task, completed=done, failures=failing)

        try:
            report = invariants.verify(
                v,
                games=games,
                players=players,
                seed=seed,
                workers=n_workers,
                max_failures=max_failures or None,
                progress=advance,
            )
        except (VariantError, SetupError) as exc:
            _fail(str(exc))
    seconds = time.perf_counter() - start
    for note in report.notes:
        err.print(f"note: {note}", soft_wrap=True)
    out_console = _out()

    def say(line: str = "") -> None:
        out_console.print(line, soft_wrap=True)

    say(f"{v.name}: {report.games} games, {report.actions} actions, {len(report.failures)} failure(s)")
    if report.reasons:
        say("rounds ended: " + ", ".join(f"{k} {n}" for k, n in sorted(report.reasons.items())))
    out_console.print(_invariants_table(report.checks, report.failed))
    err.print(f"{seconds:.1f} s, {n_workers} worker(s)", soft_wrap=True)
    if not report.failures:
        return
    if report.stopped:
        say(f"stopped after {len(report.failures)} failing games (--max-failures {max_failures})")
    say("failures:")
    for f_seed, f_players, message in report.failures:
        say(f"  seed {f_seed}, {f_players} players: {message}")
    if not report.details:
        raise typer.Exit(RULE_FAILURE)
    first = report.details[0]
    err.print(f"shrinking the failure of seed {first.seed} ({first.invariant})...", soft_wrap=True)
    try:
        example = verification.shrink(v, first)
    except Exception as exc:  # a bug of the shrinker must not hide the failure: the game as it was found
        err.print(f"note: shrinking failed ({type(exc).__name__}: {exc}); the game is written as found", soft_wrap=True)
        example = verification.shrink(v, first, budget=verification.ShrinkBudget(evaluations=0), players=False)
    path = out if out is not None else Path(verification.counterexample_name(v.name, example.seed))
    try:
        example.write(path)
    except OSError as exc:
        _fail(f"cannot write the counterexample to {str(path)!r}: {exc}")
    say(
        f"counterexample ({example.invariant}): {len(example.actions)} actions, {example.players} players "
        f"(found with {len(first.actions)} actions, {first.players} players): {path}"
    )
    trusted = " --allow-plugins" if _foreign(list(v.plugins)) else ""  # our own file, the user's own modules
    say(f"reproduce: tamalou replay {_quoted(str(path))}{trusted}")
    again = f"tamalou verify {_quoted(variant)} --games 1 --seed {first.seed} --players {first.players}"
    say(f"play a failing game again: {again} (--seed and --players of any failure above)")
    raise typer.Exit(RULE_FAILURE)


def _progress(console: Console) -> Any:
    """The progress bar of ``verify`` (on stderr; silent when it is not a terminal)."""
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
        disable=not console.is_terminal,
    )


def _invariants_table(checks: dict[str, int], failed: dict[str, int]) -> Table:
    """Which invariants held: checks run and games that failed, one row per invariant."""
    from ..invariants import INVARIANTS

    table = Table(title="Invariants")
    table.add_column("invariant", no_wrap=True)
    table.add_column("checks", justify="right")
    table.add_column("failures", justify="right")
    table.add_column("what it says")
    for name, inv in INVARIANTS.items():
        table.add_row(name, str(checks.get(name, 0)), str(failed.get(name, 0)), inv.description)
    return table


def _quoted(text: str) -> str:
    import shlex

    return shlex.quote(text)


@_command
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
    --seat). At the end the invariant that broke is checked again: exit 1 if it still fails, 0 if it holds now
    (run it after fixing your rule). A snapshot has every invariant checked along the way and at the end.

    The file is not trusted unless --allow-plugins: no module it names is imported but tamalou's own plugins
    (those of the built-in rulesets), and a ruleset that needs another one is a usage error (exit 2).
    """
    try:
        text = file.read_text(encoding="utf-8")
    except OSError as exc:
        _fail(f"cannot read {str(file)!r}: {exc.strerror or exc}")
    example = _read_replayable(text, file, allow_plugins)
    try:
        v = example.load_variant(allow_plugins=allow_plugins)
    except (VariantError, SetupError) as exc:
        named = [] if allow_plugins else _foreign_plugins(example)
        if named:
            _fail(_plugins_refused(file, named, example.variant.plugin_dirs))
        where = "; ".join(f"{name} was in {folder}" for name, folder in example.variant.plugin_dirs.items())
        _fail(f"the ruleset in {str(file)!r} does not load here: {exc}" + (f" ({where})" if where else ""))
    if seat_ is not None and not 0 <= seat_ < example.players:
        _fail(f"--seat: a seat from 0 to {example.players - 1}, got {seat_}")
    out = _out()

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

    def on_step(game: Game, action: Any, events: list[Event]) -> None:
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
        _fail(str(exc))
    say()
    if outcome.refused is not None:
        index, reason = outcome.refused
        say(f"action {index + 1} of the file is refused now: {reason} (the rules changed: the game stops there)")
    what = example.invariant or "every invariant"
    if outcome.violation is not None:
        name = outcome.violation.invariant or example.invariant
        say(f"still fails: {name}: {outcome.violation}")
        raise typer.Exit(RULE_FAILURE)
    if not outcome.checked:
        say(f"{what} cannot be checked: the round is not over after the actions of the file; it does not fail")
        return
    say(f"holds now: {what}")


def _read_replayable(text: str, file: Path, allow_plugins: bool) -> Counterexample:
    """A counterexample from ``text``, or a game snapshot made into one; else a usage error. Unless
    ``allow_plugins``, a snapshot's ruleset may use no plugin module but tamalou's own and those already imported
    (``Game.from_json``): nothing it names is imported."""
    from pydantic import ValidationError

    from ..errors import SnapshotError
    from ..verification import Counterexample

    try:
        data = json.loads(text)
    except ValueError as exc:
        _fail(f"{str(file)!r} is not JSON: {exc}")
    except RecursionError:
        _fail(f"{str(file)!r} is not JSON that can be read: nested too deep")
    if isinstance(data, dict) and data.get("kind") == "tamalou-counterexample":
        try:
            return Counterexample.model_validate(data)
        except ValidationError as exc:
            _fail(f"{str(file)!r} is not a valid counterexample: {exc}")
    try:
        return Counterexample.from_snapshot(text, allow_plugins=allow_plugins)
    except (SnapshotError, VariantError) as exc:
        variant = data.get("variant") if isinstance(data, dict) else None
        named = _foreign(variant.get("plugins") if isinstance(variant, dict) else None)
        if named and not allow_plugins:
            _fail(_plugins_refused(file, named, {}))
        _fail(f"{str(file)!r} is neither a counterexample nor a game snapshot: {exc}")


def _foreign(plugins: object) -> list[str]:
    """The module names of a ``plugins`` list read from a file that are not tamalou's own plugins."""
    from ..plugins import is_builtin_plugin

    if not isinstance(plugins, list | tuple):
        return []
    return [p for p in plugins if isinstance(p, str) and not is_builtin_plugin(p)]


def _foreign_plugins(example: Counterexample) -> list[str]:
    """The modules other than tamalou's own plugins that a counterexample names: in its ruleset's ``plugins``
    (the embedded TOML's, and the list beside it) and in ``plugin_dirs``. Read for the message only: what
    refuses them is the load (``allow_plugins=False``)."""
    import tomllib

    embedded = example.variant
    try:
        in_toml = tomllib.loads(embedded.toml).get("plugins")
    except (tomllib.TOMLDecodeError, RecursionError):
        in_toml = None
    names = _foreign(in_toml) + _foreign(embedded.plugins) + _foreign(list(embedded.plugin_dirs))
    return list(dict.fromkeys(names))


def _plugins_refused(file: Path, named: list[str], folders: dict[str, str]) -> str:
    """What replay says of a file whose ruleset needs plugin modules, without --allow-plugins."""
    listed = ", ".join(f"{name} (in {folders[name]})" if name in folders else name for name in named)
    return (
        f"{str(file)!r} names plugin modules that are not tamalou's own: {listed}. Replay imports none of them "
        "unless --allow-plugins is given, which runs their code: give it only for a file you trust."
    )


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


# ----------------------------------------------------------------------------- simulate: helpers


def _writable(option: str, path: Path) -> None:
    if not path.parent.is_dir():
        _fail(f"{option}: no folder {str(path.parent)!r} to write {path.name!r} into")


def _simulate_one(
    v: Variant, names: list[str], games: int, players: int | None, seed: int, workers: int | None, backend: str
) -> SimulationReport:
    """One ruleset's run, with a progress bar on stderr (a failing game: exit 1)."""
    from .. import simulation

    err = _err()
    with _simulate_progress(err) as bar:
        task = bar.add_task(printable(f"simulate {v.name}"), total=games)

        def advance(done: int, total: int) -> None:
            bar.update(task, completed=done)

        try:
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
        except simulation.SimulationError as exc:
            _fail(str(exc), RULE_FAILURE)
        except (TamalouError, ValueError, ImportError) as exc:
            _fail(str(exc))
    for note in report.run.notes:
        err.print(f"note: {note}", soft_wrap=True)
    return report


def _simulate_progress(console: Console) -> Any:
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


def _pct(rate: float | None) -> str:
    return "-" if rate is None else f"{rate:.1%}"


def _num(x: float | None, digits: int = 1) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def _table(title: str, *columns: str, left: int = 2) -> Table:
    """A table of ``simulate``: no vertical rules (it fits 80 columns); the first ``left`` columns on the left."""
    from rich import box

    table = Table(title=title, box=box.SIMPLE_HEAD, pad_edge=False)
    for i, col in enumerate(columns):
        table.add_column(col, justify="left" if i < left else "right")
    return table


def _print_report(out: Console, r: SimulationReport) -> None:
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
    say(f"{run.seconds:.2f} s, {speed} {what}/s ({run.backend}, {workers}), {_num(rs.actions.mean)} actions/{per}")
    if r.matches is not None:
        say(f"{rs.rounds} rounds, {_num(r.matches.rounds.mean, 2)} per match ({r.matches.form})")
    say("place: mean place (1 + players ranked ahead); total: mean card total; call %: calls the caller won")
    seats = _table(
        "Rounds by seat" if is_match else "Seats",
        "seat", "bot", "win %", "place", "total", "calls", "call %", "matched", "missed",
    )  # fmt: skip
    for p, s in enumerate(rs.by_seat):
        seats.add_row(
            seat(p),
            s.bot,
            _pct(s.win_rate),
            _num(s.mean_place, 2),
            _num(s.total.mean),
            str(s.calls),
            _pct(s.call_success),
            str(s.matched),
            str(s.missed),
        )
    out.print(seats)
    if len(rs.by_bot) > 1:
        bots = _table(
            "Bots (matched, missed: per round)",
            "bot", "seats", "win %", "place", "total", "p10-p90", "call %", "matched", "missed",
        )  # fmt: skip
        for name, s in rs.by_bot.items():
            bots.add_row(
                name,
                " ".join(seat(p) for p in s.seats),
                _pct(s.win_rate),
                _num(s.mean_place, 2),
                _num(s.total.mean),
                _range(s.total),
                _pct(s.call_success),
                _num(s.matched / s.rounds, 2),
                _num(s.missed / s.rounds, 2),
            )
        out.print(bots)
    if r.matches is not None:
        matches = _table(
            f"Matches ({r.matches.form}; total: the match's)",
            "seat", "bot", "match wins", "win %", "place", "total", "p10-p90",
        )  # fmt: skip
        rows = [(seat(p), m) for p, m in enumerate(r.matches.by_seat)]
        if len(r.matches.by_bot) > 1:
            rows += [("all", m) for m in r.matches.by_bot.values()]
        for label, m in rows:
            matches.add_row(
                label, m.bot, str(m.wins), _pct(m.win_rate), _num(m.mean_place, 2), _num(m.total.mean), _range(m.total)
            )
        out.print(matches)
    rounds = _table("Per round", "", "", left=1)
    rounds.add_column("", justify="left")
    rounds.show_header = False
    for label, d in (("turns", rs.turns), ("actions", rs.actions)):
        q = d.percentiles
        rounds.add_row(label, _num(d.mean, 2), f"mean; p10 {q[10]}, median {q[50]}, p90 {q[90]}" if q else "mean")
    rounds.add_row("right matches", _num(rs.matched_per_round, 2), "mean")
    rounds.add_row("missed matches", _num(rs.missed_per_round, 2), "mean")
    rounds.add_row("penalty cards", _num(rs.penalties_per_round, 2), "mean")
    rounds.add_row("calls", str(rs.calls), f"rounds; the caller won {_pct(rs.call_success)} of them")
    fair = _pct(1 / r.players)
    rounds.add_row("first player won", _pct(rs.first_player_win_rate), f"of the rounds; 1/players: {fair}")
    out.print(rounds)
    ends = _table("How rounds ended", "reason", "", "rounds", "share")
    for reason, count in rs.reasons.items():
        ends.add_row(reason, "", str(count), _pct(count / rs.rounds))
    if rs.no_winner:
        ends.add_row("(without a winner)", "", str(rs.no_winner), _pct(rs.no_winner / rs.rounds))
    out.print(ends)


def _range(d: Distribution) -> str:
    return "-" if d.count == 0 else f"{d.percentiles[10]}-{d.percentiles[90]}"


def _interval(e: Estimate, form: str) -> str:
    """An estimate and its interval: a rate (``%``), a signed rate (``+%``) or a number."""
    if e.value is None or e.low is None or e.high is None:
        return "- (no data)"
    f = {"%": "{:.1%}", "+%": "{:+.1%}"}.get(form, "{:.2f}").format
    return f"{f(e.value)} [{f(e.low)}, {f(e.high)}]"


def _print_balance(out: Console, comparison: Comparison) -> None:
    """The rulesets side by side: each figure with its 95 % interval; * where two intervals are apart."""
    heads = [f"{r.variant} ({r.players} players)" for r in comparison.reports]
    table = _table("Balance (95 % confidence intervals)", "figure", *heads, "")
    for line in comparison.balance:
        form = {"caller win rate": "%", "first player's advantage": "+%"}.get(line.metric, "")
        table.add_row(line.metric, *(_interval(e, form) for e in line.estimates), "*" if line.differs else "")
    out.print(table)
    for line in comparison.balance:
        out.print(f"{line.metric}: {line.description}", soft_wrap=True)
    out.print("*: two of the 95 % confidence intervals do not overlap", soft_wrap=True)


__all__ = ["BOT_KINDS", "EPILOG", "app"]
