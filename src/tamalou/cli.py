"""The ``tamalou`` command line.

```text
tamalou variants                      the known rulesets
tamalou show french [--json|--toml]   every rule of a ruleset
tamalou validate my-rules.toml ...    check house-rule files (exit 1 on an error)
tamalou play --seed 7 --bots cautious a seeded game between bots, event by event
tamalou simulate --games 1000         many games: speed, win rates, how rounds end
tamalou verify french --games 200     random games checked against the engine's invariants
tamalou schema                        the JSON Schema of the variant TOML format
```

A ruleset is a name, an alias, a path to a ``.toml`` file, or a composition written with ``+``
(``french+opponent-matching``). A bad ruleset prints the error (file, key, what was expected)
and exits with status 2, without a traceback.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any, NoReturn

import tomli_w
import typer
from pydantic import BaseModel
from rich.console import Console
from rich.table import Table
from rich.tree import Tree

from . import __version__
from .bots import BotLike, CautiousBot, RandomBot, play_game
from .engine.game import Game, new_game
from .errors import SetupError, VariantError
from .events import Event
from .schema import Variant
from .variant import load_variant, variant_json_schema, variant_names
from .views import Result

app = typer.Typer(
    name="tamalou",
    help="Tamalou and its cousins (Cabo, Cambio, Gabo...): rulesets, bots and games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

BOT_KINDS: dict[str, Callable[[int], BotLike]] = {
    "random": lambda seed: RandomBot(seed),
    "cautious": lambda seed: CautiousBot(seed),
}


def main() -> None:
    """Entry point of the ``tamalou`` script."""
    app()


# ----------------------------------------------------------------------------- helpers


def _out() -> Console:
    return Console(markup=False, highlight=False, emoji=False)


def _err() -> Console:
    return Console(stderr=True, markup=False, highlight=False, emoji=False)


def _fail(message: str, code: int = 2) -> NoReturn:
    _err().print(f"error: {message}", soft_wrap=True)
    raise typer.Exit(code)


def _spec(text: str) -> str | list[str]:
    """A ruleset argument: a name, alias or path, or ``a+b`` for a composition."""
    if "+" in text and not Path(text).exists():
        return [part for part in text.split("+") if part]
    return text


def _load(specs: str | Sequence[str]) -> Variant:
    """Load a ruleset (several arguments compose); a bad one ends the command with status 2."""
    parts: list[str] = []
    for s in [specs] if isinstance(specs, str) else specs:
        sp = _spec(s)
        parts.extend([sp] if isinstance(sp, str) else sp)
    try:
        return load_variant(parts[0] if len(parts) == 1 else parts)
    except VariantError as exc:
        _fail(str(exc))


def _bot_kinds(spec: str, players: int) -> list[str]:
    kinds = [k.strip().lower() for k in spec.split(",") if k.strip()]
    for k in kinds:
        if k not in BOT_KINDS:
            _fail(f"unknown bot {k!r} (bots: {', '.join(BOT_KINDS)})")
    if len(kinds) == 1:
        kinds *= players
    if len(kinds) != players:
        _fail(f"--bots names one bot for every seat, or one for all: {players} players, {len(kinds)} bots")
    return kinds


def _bots(kinds: list[str], seed: int) -> list[BotLike]:
    """One bot per seat, each seeded from the game's seed and its seat."""
    return [BOT_KINDS[k](seed * 64 + seat) for seat, k in enumerate(kinds)]


def _new_game(variant: Variant, players: int, seed: int) -> Game:
    try:
        return new_game(variant, players=players, seed=seed)
    except (VariantError, SetupError) as exc:
        _fail(str(exc))


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


def _without_none(value: Any) -> Any:
    """TOML has no null: drop the keys whose value is None (their default)."""
    if isinstance(value, dict):
        return {k: _without_none(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_without_none(v) for v in value]
    return value


def _first_line(doc: str | None) -> str:
    return (doc or "").strip().splitlines()[0] if doc and doc.strip() else ""


# ----------------------------------------------------------------------------- variants / show


@app.command()
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


@app.command()
def show(
    variant: Annotated[list[str], typer.Argument(help="Ruleset(s): name, alias or .toml path; several compose.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the ruleset as JSON (model_dump).")] = False,
    as_toml: Annotated[bool, typer.Option("--toml", help="Print the ruleset as a complete TOML file.")] = False,
) -> None:
    """Show every rule of a ruleset."""
    if as_json and as_toml:
        _fail("choose --json or --toml, not both")
    v = _load(variant)
    data = v.model_dump(mode="json")
    if as_json:
        typer.echo(json.dumps(data, indent=2, ensure_ascii=False))
        return
    if as_toml:
        typer.echo(tomli_w.dumps(_without_none(data)), nl=False)
        return
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
    _out().print(tree)


@app.command()
def schema() -> None:
    """Print the JSON Schema of the variant TOML format (for editors)."""
    typer.echo(json.dumps(variant_json_schema(), indent=2, ensure_ascii=False))


@app.command()
def validate(
    files: Annotated[list[str], typer.Argument(help="Variant files (.toml) or names to check.")],
) -> None:
    """Check rulesets: 'ok' for each good one; every error (file, key, what was expected) and exit 1."""
    out, err = _out(), _err()
    failed = 0
    for f in files:
        try:
            v = load_variant(_spec(f))
        except VariantError as exc:
            failed += 1
            message = str(exc)
            if f not in message and Path(f).name not in message:
                message = f"{f}: {message}"
            err.print(message, soft_wrap=True)
        else:
            out.print(f"{f}: ok ({v.name})", soft_wrap=True)
    if failed:
        raise typer.Exit(1)


# ----------------------------------------------------------------------------- play


def _player(p: Any) -> str:
    return f"P{p}"


def _describe(event: Event, game: Game) -> str | None:
    """One line of the referee's log for ``event``: ``Event.describe`` with seats named ``P0``...,
    plus the cards a seat would not see (this is a demo: every card is shown)."""
    t = event.type
    d = event.to_dict()
    who = _player(d.get("player"))
    if t == "turn":
        return None  # printed as a header
    if t == "replaced":
        layout = game.layout(d["player"])
        new = layout[d["slot"]] if d["slot"] < len(layout) else None
        return f"{who} puts {f'{new} ' if new else ''}in slot {d['slot']}; {d.get('card')} goes to the discard"
    if t == "swapped":
        q, qs, s = d["target"], d["target_slot"], d["slot"]
        mine, theirs = game.layout(d["player"])[s], game.layout(q)[qs]
        return f"{who} swaps slot {s} with {_player(q)}'s slot {qs} (gets {mine}, gives {theirs})"
    if t == "passed" and d.get("phase") in _PASSES:
        return f"{who} {_PASSES[d['phase']]}"
    if t == "penalty":
        layout = game.layout(d["player"])
        card = layout[d["slot"]] if d["slot"] < len(layout) else None
        return f"{who} takes a penalty card{f' ({card})' if card else ''} in slot {d['slot']}"
    if t == "gave":
        q, qs = d["target"], d["target_slot"]
        layout = game.layout(q)
        card = layout[qs] if qs < len(layout) else None
        return f"{who} gives slot {d.get('slot')} ({card}) to {_player(q)}'s slot {qs}"
    if t == "called" and "right" in d:
        return f"{who} calls Tamalou! ({'right' if d['right'] else 'wrong'}: {d.get('total')} points)"
    return event.describe(_player)


_PASSES = {"call": "does not call", "power": "declines the power", "swap": "does not swap"}


def _cards(layout: list[str | None]) -> str:
    return " ".join("·" if c is None else c for c in layout)


def _result_table(result: Result, game: Game, names: list[str]) -> Table:
    place = {p: i + 1 for i, group in enumerate(result.ranking) for p in group}
    table = Table(title=f"Result ({result.reason})")
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
            _player(p),
            names[p],
            _cards(game.layout(p)),
            str(result.totals[p]),
            str(result.scores[p]) if p < len(result.scores) else "",
            str(place.get(p, "")),
            ", ".join(marks),
        )
    return table


@app.command()
def play(
    variant: Annotated[str, typer.Option("--variant", "-v", help="Ruleset (name, path, or a+b).")] = "french",
    players: Annotated[int, typer.Option("--players", "-p", help="Number of players.")] = 4,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of the deal (and of the bots).")] = 0,
    bots: Annotated[
        str, typer.Option("--bots", "-b", help="random or cautious, or one per seat: cautious,random,...")
    ] = "cautious",
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print only the result.")] = False,
) -> None:
    """Play one seeded game between bots, printing the referee's log (every card shown)."""
    v = _load(variant)
    kinds = _bot_kinds(bots, players)
    game = _new_game(v, players, seed)
    out = _out()

    def say(line: str) -> None:
        out.print(line, soft_wrap=True)

    if not quiet:
        say(f"{v.title or v.name}: {players} players, seed {seed}, bots {', '.join(kinds)}")
        for p in range(players):
            say(f"  {_player(p)} ({kinds[p]}): {_cards(game.layout(p))}")
        top = game.discard_top
        say(f"  discard: {top if top is not None else 'empty'}, stock: {len(game.stock)} cards")
        if game.phase != "peek":
            say(f"-- turn {game.turn + 1}: {_player(game.current_player)}")

    def on_event(event: Event) -> None:
        if event.type == "turn":
            say(f"-- turn {event['turn'] + 1}: {_player(event['player'])}")
            return
        line = _describe(event, game)
        if line is not None:
            say(f"  {line}")

    result = play_game(game, _bots(kinds, seed), on_event=None if quiet else on_event)
    out.print(_result_table(result, game, kinds))
    winners = ", ".join(_player(p) for p in result.winners) or "nobody"
    caller = _player(result.caller) if result.caller is not None else "nobody"
    say(f"winners: {winners}; caller: {caller}; turns: {game.turn}; actions: {len(game.actions)}")


# ----------------------------------------------------------------------------- simulate / verify


@app.command()
def simulate(
    variant: Annotated[str, typer.Option("--variant", "-v", help="Ruleset (name, path, or a+b).")] = "french",
    players: Annotated[int, typer.Option("--players", "-p", help="Number of players.")] = 4,
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="Number of games.")] = 100,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of the first game (then +1 each).")] = 0,
    bots: Annotated[
        str, typer.Option("--bots", "-b", help="random or cautious, or one per seat: cautious,random,...")
    ] = "random",
    as_json: Annotated[bool, typer.Option("--json", help="Print the statistics as JSON.")] = False,
) -> None:
    """Play many seeded games between bots: speed, win rates per seat, actions, how rounds end."""
    v = _load(variant)
    kinds = _bot_kinds(bots, players)
    wins = [0] * players
    totals = [0] * players
    reasons: Counter[str] = Counter()
    actions = 0
    no_winner = 0
    start = time.perf_counter()
    for i in range(games):
        game = _new_game(v, players, seed + i)
        result = play_game(game, _bots(kinds, seed + i))
        actions += len(game.actions)
        reasons[result.reason] += 1
        if not result.winners:
            no_winner += 1
        for p in result.winners:
            wins[p] += 1
        for p in range(players):
            totals[p] += result.totals[p]
    seconds = time.perf_counter() - start
    stats = {
        "variant": v.name,
        "players": players,
        "bots": kinds,
        "games": games,
        "seed": seed,
        "seconds": round(seconds, 4),
        "games_per_second": round(games / seconds, 2) if seconds > 0 else None,
        "actions": actions,
        "actions_per_game": round(actions / games, 2),
        "wins": wins,
        "win_rates": [round(w / games, 4) for w in wins],
        "average_totals": [round(t / games, 2) for t in totals],
        "no_winner": no_winner,
        "reasons": dict(sorted(reasons.items())),
    }
    if as_json:
        typer.echo(json.dumps(stats, indent=2))
        return
    out = _out()
    seeds = f"{seed}..{seed + games - 1}"
    out.print(f"{games} games of {v.name}, {players} players, bots {', '.join(kinds)}, seeds {seeds}")
    gps = stats["games_per_second"]
    out.print(f"{seconds:.2f} s, {gps} games/s, {actions / games:.1f} actions/game")
    table = Table(title="Seats")
    for col in ("seat", "bot", "wins", "win rate", "average total"):
        table.add_column(col, justify="right" if col not in ("seat", "bot") else "left")
    for p in range(players):
        table.add_row(_player(p), kinds[p], str(wins[p]), f"{wins[p] / games:.1%}", f"{totals[p] / games:.2f}")
    out.print(table)
    ends = Table(title="How rounds ended")
    ends.add_column("reason")
    ends.add_column("games", justify="right")
    for reason, count in sorted(reasons.items()):
        ends.add_row(reason, str(count))
    out.print(ends)
    if no_winner:
        out.print(f"games without a winner: {no_winner}")


@app.command()
def verify(
    variant: Annotated[str, typer.Argument(help="Ruleset (name, path, or a+b).")],
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="Number of random games.")] = 100,
    players: Annotated[
        int | None, typer.Option("--players", "-p", help="Number of players (default: every allowed count).")
    ] = None,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of the first game.")] = 0,
) -> None:
    """Play random games and check the engine's invariants as they go (exit 1 on a failure): cards
    conserved at every step; no leak, listed actions accepted, refused ones harmless and snapshots
    exact at sampled steps; replay and result at the end."""
    try:
        from . import invariants
    except ImportError:
        _fail("tamalou.invariants is not available in this installation")
    v = _load(variant)
    try:
        report = invariants.verify(v, games=games, players=players, seed=seed)
    except (VariantError, SetupError) as exc:
        _fail(str(exc))
    out = _out()
    failures = list(report.failures)
    out.print(f"{v.name}: {report.games} games, {report.actions} actions, {len(failures)} failure(s)")
    reasons = getattr(report, "reasons", None)
    if reasons:
        out.print("rounds ended: " + ", ".join(f"{k} {n}" for k, n in sorted(reasons.items())), soft_wrap=True)
    for f_seed, f_players, message in failures:
        out.print(f"  seed {f_seed}, {f_players} players: {message}", soft_wrap=True)
    if failures:
        raise typer.Exit(1)


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
