"""The commands of ``tamalou`` about rulesets and their files: ``variants`` (the known rulesets), ``show``
(the rules as they are played, ``--keys``, ``--json``, ``--toml``), ``schema`` (the JSON Schema of the TOML
format), ``new`` (a new ruleset file to edit, and a plugin module) and ``validate`` (check ruleset files).

``tamalou.cli.commands`` registers them on the application, in this order."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Annotated, Any

import typer
from pydantic import BaseModel
from rich.table import Table
from rich.tree import Tree

from ..engine.rulebook import rulebook
from ..errors import RulesetNameError, VariantError
from ..rulesets.authoring import check_name, module_name, scaffold, write_files
from ..rulesets.effective import EffectiveRules, effective_rules, variant_to_toml
from ..rulesets.loader import load_variant, variant_json_schema
from ..rulesets.power_catalogue import PowerEntry, power_catalogue
from ..rulesets.registry import is_registered, variant_names
from ..schema import Variant
from ._options import (
    RULE_FAILURE,
    RULESET,
    USAGE_ERROR,
    RulesetsArgument,
    chosen_rulesets,
    console_err,
    console_out,
    echo_document,
    fail_command,
    findable,
    load_ruleset,
    ruleset_parts,
    ruleset_spec,
)


def text(value: Any) -> str:
    """A rule value as a person reads it."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        return ", ".join(f"{k}={text(v)}" for k, v in value.items()) or "(none)"
    if isinstance(value, list | tuple):
        return ", ".join(text(v) for v in value) or "(none)"
    return str(value)


def first_line(doc: str | None) -> str:
    return (doc or "").strip().splitlines()[0] if doc and doc.strip() else ""


# ----------------------------------------------------------------------------- variants / show / schema


def variants() -> None:
    """List the known rulesets: names, aliases, players, title; a modifier (a file that changes whatever it is
    composed with: tamalou play french gabo) is marked so, with the ruleset it applies to alone.

    $ tamalou variants
    """
    table = Table(title="Rulesets")
    table.add_column("name", no_wrap=True)
    table.add_column("players", justify="center", no_wrap=True)
    table.add_column("kind", no_wrap=True)
    table.add_column("title (aliases)")
    modifiers = False
    for name in variant_names():
        try:
            v = load_variant(name)
        except VariantError as exc:
            table.add_row(name, "", "", f"error: {exc}")
            continue
        p = v.rules.players
        title = v.title + (f" ({', '.join(v.aliases)})" if v.aliases else "")
        if v.base:
            modifiers = True
            title += f"; alone: on {v.base}"
        table.add_row(v.name, f"{p.min}-{p.max}", "modifier" if v.base else "game", title)
    out = console_out()
    out.print(table)
    if modifiers:
        out.print("A modifier composes with any game: tamalou play french gabo (or french+gabo).", soft_wrap=True)


def keys_tree(v: Variant) -> Tree:
    """Every key of the ruleset, section by section (``show --keys``)."""
    data = v.model_dump(mode="json")
    tree = Tree(f"{v.name}" + (f" — {v.title}" if v.title else ""))
    for key in ("aliases", "description", "sources", "plugins", "base"):
        value = data.get(key)
        if value:
            tree.add(f"{key}: {text(value)}")
    rules = tree.add("rules")
    for section_name in type(v.rules).model_fields:
        section = getattr(v.rules, section_name)
        doc = first_line(type(section).__doc__)
        branch = rules.add(f"{section_name}" + (f" — {doc}" if doc else ""))
        assert isinstance(section, BaseModel)
        for key, field in type(section).model_fields.items():
            value = data["rules"][section_name][key]
            line = f"{key} = {text(value)}"
            if field.description:
                line += f"    ({field.description})"
            branch.add(line)
    return tree


def from_plugin(plugin: str | None) -> str:
    return f" (plugin {plugin})" if plugin else ""


def print_effective(v: Variant, e: EffectiveRules, spec: str) -> None:
    """The rules as they are played (``show``)."""
    out = console_out()

    def say(line: str = "") -> None:
        out.print(line, soft_wrap=True)

    say(f"{e.name}" + (f" — {e.title}" if e.title else ""))
    if v.description:
        say(v.description)
    parts = e.name.split("+")
    if len(parts) > 1:
        say(f"composed: {parts[0]}, changed by {', '.join(parts[1:])}")
    elif v.base:
        other = "cambia" if v.base != "cambia" else "french"
        say(
            f"a modifier: loaded alone, it plays on {v.base} (what follows is {v.base} with its changes); it "
            f"composes with any game: tamalou show {other} {e.name}"
        )
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
        points = f"{line.value}{from_plugin(line.value_from)}"
        power = "" if line.power == "none" else f"{line.power} — {line.power_title}{from_plugin(line.power_from)}"
        table.add_row(label, points, power)
    out.print(table)
    say()
    if e.calls and e.threshold_read:
        say(f"call: right at {e.call_threshold} points or less{from_plugin(e.threshold_from)}")
        for words in e.call[1:]:
            say(f"  {words}")
    elif e.calls:
        say(f"call: {e.call[0]}")
        for words in e.call[1:]:
            say(f"  {words}")
    else:
        say(f"call: {e.call[0]}")
    say("end of the round:")
    for words in e.ranking:
        say(f"  {words}")
    say(f"mechanics in play: {', '.join(e.mechanics)}")
    for name, title in e.mechanic_titles.items():
        say(f"  {name}: {title}")
    for name, options in e.mechanic_options.items():
        say(f"  {name}'s options: " + (", ".join(f"{k} = {json.dumps(v)}" for k, v in options.items()) or "none"))
    say()
    say(f"Every key: tamalou show {spec} --keys")


def show(
    rulesets: RulesetsArgument = None,
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
    diagram: Annotated[
        bool,
        typer.Option(
            "--diagram",
            help="The ruleset's phases as a Mermaid state diagram: the steps seeded random games take, each "
            "arrow labelled with the actions that make it (paste it where Mermaid is drawn: the docs site, GitHub).",
        ),
    ] = False,
    powers: Annotated[
        bool,
        typer.Option(
            "--powers",
            help="The card powers: what each does and which cards give it, in every ruleset (an installed "
            "package's too) or in the ruleset named.",
        ),
    ] = False,
) -> None:
    """Show a ruleset as it is played: cards, the call, the end of a round, plugins.

    Every card's points and power, the call threshold, how a finished round is ranked and won, and the
    plugins in effect, as the plugins' hooks answer them. --keys shows the ruleset's keys instead, --toml
    writes them as a stand-alone file.

    $ tamalou show french
    $ tamalou show french gabo --keys
    $ tamalou show cabo+cambia-circuit --toml > ours.toml
    $ tamalou show --powers
    $ tamalou show cartalogue --diagram > phases.mmd
    """
    if powers:
        if keys or as_json or as_toml or effective:
            fail_command("--powers goes alone (with a ruleset or none)")
        entries = power_catalogue([load_ruleset(rulesets)] if rulesets else None)
        if rulesets:  # the ruleset's own powers, not every one its plugins could give
            entries = [e for e in entries if e.used_by]
        console_out().print(_powers_table(entries))
        return
    variant = chosen_rulesets(rulesets, default=None)
    if diagram:
        if keys or as_json or as_toml or effective:
            fail_command("--diagram goes alone")
        from ..verify import phase_diagram

        echo_document(phase_diagram(load_ruleset(variant)), nl=False)
        return
    if sum((keys, as_json, as_toml)) > 1:
        fail_command("choose one of --keys, --json and --toml")
    if effective and (keys or as_toml):
        fail_command("--effective goes with --json (the plain show is the effective rules already)")
    v = load_ruleset(variant)
    if as_json:
        data = effective_rules(v).model_dump(mode="json") if effective else v.model_dump(mode="json")
        echo_document(json.dumps(data, indent=2, ensure_ascii=False))
    elif as_toml:
        echo_document(variant_to_toml(v), nl=False)
    elif keys:
        console_out().print(keys_tree(v))
    else:
        print_effective(v, effective_rules(v), "+".join(ruleset_parts(variant)))


def _powers_table(entries: list[PowerEntry]) -> Table:
    """The catalogue of powers as a table: name, what it does, the rulesets and cards that give it."""
    table = Table(title="Card powers (rules.powers: the name; a plugin's power: its module)")
    table.add_column("power", no_wrap=True)
    table.add_column("what it does")
    table.add_column("given by")
    for e in entries:
        own = "" if e.plugin == "tamalou.plugins.powers" else f" ({e.plugin})"
        table.add_row(e.name + own, e.title, "; ".join(f"{name}: {cards}" for name, cards in e.used_by.items()))
    return table


def schema() -> None:
    """Print the JSON Schema of the variant TOML format (for editors)."""
    echo_document(json.dumps(variant_json_schema(), indent=2, ensure_ascii=False))


# ----------------------------------------------------------------------------- new / validate


def extends_entry(part: str, folder: Path) -> str:
    """How the new file names the base ``part``: its name, or its path relative to the new file's folder."""
    if is_registered(part):
        return part
    path = Path(part).resolve()
    try:
        return Path(os.path.relpath(path, folder.resolve())).as_posix()
    except ValueError:  # another drive
        return path.as_posix()


def new(
    name: Annotated[str, typer.Argument(metavar="NAME", help="The new ruleset's name: the file is NAME.toml.")],
    extends: Annotated[
        list[str],
        typer.Option(
            "--extends",
            "-e",
            metavar=RULESET,
            help="The ruleset it changes (a name, a path, or a+b; repeated, the rulesets compose: -e french -e gabo).",
        ),
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

    $ tamalou new our-table --extends french
    $ tamalou new quick-cabo -e cabo -e cambia-circuit --dir rules/
    $ tamalou new friday -e french+gabo --plugin
    """
    try:
        name = check_name(name)
    except RulesetNameError as exc:
        fail_command(str(exc))
    if is_registered(name):
        fail_command(f"{name!r} is the name of a known ruleset: choose another name")
    base = load_ruleset(extends)
    parts = ruleset_parts(extends)
    try:
        files = scaffold(name, [extends_entry(p, folder) for p in parts], plugin=plugin, base=base)
    except VariantError as exc:  # a RulesetNameError too
        fail_command(str(exc))
    try:
        written = write_files(files, folder, force=force)
    except FileExistsError as exc:
        fail_command(f"{exc}: nothing written (--force overwrites)")
    except OSError as exc:
        fail_command(f"cannot write in {folder}: {exc.strerror}" if exc.strerror else str(exc))
    out = console_out()
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


def validate(
    files: Annotated[
        list[str],
        typer.Argument(
            metavar="RULESET",
            help="Rulesets to check, each on its own: a name, a .toml path, or a composition a+b.",
        ),
    ],
) -> None:
    """Check rulesets: 'ok', or every error (file, key, what was expected).

    Each argument is checked on its own (many files at once: tamalou validate rules/*.toml); a composition is
    written a+b. Exit 1 if a ruleset is bad, 2 if one cannot be found or read.

    $ tamalou validate our-table.toml
    $ tamalou validate rules/*.toml french+gabo
    """
    out, err = console_out(), console_err()
    bad = missing = 0
    for f in files:
        try:
            v = load_variant(ruleset_spec(f))
        except VariantError as exc:
            if all(findable(part) for part in ruleset_parts(f)):
                bad += 1
            else:
                missing += 1
            message = str(exc)
            if f not in message and Path(f).name not in message:
                message = f"{f}: {message}"
            err.print(message, soft_wrap=True)
        else:
            out.print(f"{f}: ok ({v.name})", soft_wrap=True)
            for name, plugin in rulebook(v).added_tiebreaks():  # the ties list is then not all the tie-breaks
                out.print(f"  note: plugin {plugin} adds the tie-break {name!r} after rules.end.ties", soft_wrap=True)
    if missing:
        raise typer.Exit(USAGE_ERROR)
    if bad:
        raise typer.Exit(RULE_FAILURE)
