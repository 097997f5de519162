"""Generate ``docs/rulesets.md``: every known ruleset side by side, from its TOML file.

Each ruleset is loaded with ``tamalou.load_variant`` (so ``extends`` and modifiers are resolved
exactly as a game sees them) and shown as one column of a table per aspect of the game. The rows are
the keys of the variant format (``tamalou.schema``): a key added to the format shows up here by
itself. A modifier (a file with ``base = ...``) is shown as the change it makes: only the rows it
changes are filled, the others are left to whatever it is composed with.

Usage (from the repository root)::

    python scripts/rulesets_table.py            # rewrite docs/rulesets.md
    python scripts/rulesets_table.py --check    # exit 1 if docs/rulesets.md is stale

The output depends only on the variant files and the format: no date, no machine detail.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "rulesets.md"
RULES_DIR = ROOT / "docs" / "rules"  # the rules for players, one page per ruleset

try:
    import tamalou
except ImportError:  # run with a Python where the package is not installed: use the source tree
    sys.path.insert(0, str(ROOT / "src"))
    import tamalou

from pydantic import BaseModel  # noqa: E402

from tamalou.schema import DECK_RANKS, RankName, Rules  # noqa: E402

ALL_RANKS: tuple[RankName, ...] = (*DECK_RANKS, "JK")
NOT_IN_DECK = "not in the deck"
AS_COMPOSED = "·"  # a modifier's cell for a row it leaves alone

# The tables, in order: a title and the [rules] sections they show. Sections of the format that are
# not named here get a table of their own, after these.
ASPECTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Players, deck, deal and opening peek", ("players", "deck", "deal", "peek")),
    ("Card values", ("values",)),
    ("Drawing", ("draw",)),
    ("Powers and their trigger", ("powers",)),
    ("Matching", ("matching",)),
    ("The call", ("call",)),
    ("End of the round", ("end",)),
    ("Scoring and matches of rounds", ("scoring", "rounds")),
)


@dataclass(frozen=True)
class Row:
    key: str
    meaning: str
    cell: Callable[[tamalou.Variant], str]


# --------------------------------------------------------------------------------- formatting


def fmt(value: Any) -> str:
    """A TOML value as table text."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, Mapping):
        return ", ".join(f"{k} {fmt(v)}" for k, v in value.items()) or "none"
    if isinstance(value, tuple | list):
        return ", ".join(fmt(v) for v in value) or "none"
    return str(value)


def md(text: str) -> str:
    """Text made safe for a Markdown table cell."""
    return " ".join(text.split()).replace("|", "\\|")


def _description(model: type[BaseModel], field: str) -> str:
    return model.model_fields[field].description or ""


def _doc(model: type[BaseModel]) -> str:
    return " ".join((model.__doc__ or "").split())


# --------------------------------------------------------------------------------- rows


def _in_deck(v: tamalou.Variant, rank: RankName) -> bool:
    deck = v.rules.deck
    return deck.jokers > 0 if rank == "JK" else rank in deck.ranks


def _section(v: tamalou.Variant, name: str) -> Any:
    return getattr(v.rules, name)


def _field_row(section: str, field: str) -> Row:
    model = type(getattr(Rules(), section))
    return Row(
        f"{section}.{field}",
        _description(model, field),
        lambda v: fmt(getattr(_section(v, section), field)),
    )


def _value_rows() -> list[Row]:
    model = type(Rules().values)

    def rank_value(rank: RankName) -> Callable[[tamalou.Variant], str]:
        return lambda v: fmt(v.rules.values.ranks[rank]) if _in_deck(v, rank) else NOT_IN_DECK

    rows = [Row(f"values.ranks.{r}", f"Points of the rank {r}.", rank_value(r)) for r in ALL_RANKS]
    rows.append(Row("values.cards", _description(model, "cards"), lambda v: fmt(v.rules.values.cards)))
    return rows


def _power_rows(variants: Sequence[tamalou.Variant]) -> list[Row]:
    model = type(Rules().powers)
    rows = [_field_row("powers", f) for f in model.model_fields if f not in ("ranks", "cards")]

    def rank_power(rank: RankName) -> Callable[[tamalou.Variant], str]:
        return lambda v: fmt(v.rules.powers.ranks.get(rank, "none")) if _in_deck(v, rank) else NOT_IN_DECK

    # Only the ranks that some ruleset gives a power (or explicitly none), in deck order.
    named = [r for r in ALL_RANKS if any(r in v.rules.powers.ranks for v in variants)]
    rows += [Row(f"powers.ranks.{r}", f"Power of the rank {r}.", rank_power(r)) for r in named]
    rows.append(Row("powers.cards", _description(model, "cards"), lambda v: fmt(v.rules.powers.cards)))
    return rows


def _plugins_row() -> Row:
    return Row("plugins", _description(tamalou.Variant, "plugins"), lambda v: fmt(v.plugins))


def tables(variants: Sequence[tamalou.Variant]) -> list[tuple[str, str, list[Row]]]:
    """(title, introduction, rows) of every table."""
    out: list[tuple[str, str, list[Row]]] = []
    shown: set[str] = set()
    for title, sections in ASPECTS:
        rows: list[Row] = []
        for section in sections:
            shown.add(section)
            if section == "values":
                rows += _value_rows()
            elif section == "powers":
                rows += _power_rows(variants)
            else:
                rows += [_field_row(section, f) for f in type(getattr(Rules(), section)).model_fields]
        if "end" in sections:
            rows.append(_plugins_row())
        intro = " ".join(_doc(type(getattr(Rules(), s))) for s in sections)
        out.append((title, intro, rows))
    for section in Rules.model_fields:
        if section not in shown:
            model = type(getattr(Rules(), section))
            out.append((section.capitalize(), _doc(model), [_field_row(section, f) for f in model.model_fields]))
    return out


# --------------------------------------------------------------------------------- modifiers


def changed_rows(name: str, variant: tamalou.Variant, full: Sequence[str], rows: Sequence[Row]) -> set[str]:
    """The rows a modifier changes: over its own base, or over any full ruleset it is composed with."""
    pairs: list[tuple[tamalou.Variant, tamalou.Variant]] = []
    if variant.base is not None:
        pairs.append((variant, tamalou.load_variant(variant.base)))
    for base in full:
        try:
            pairs.append((tamalou.load_variant([base, name]), tamalou.load_variant(base)))
        except tamalou.VariantError:  # a composition the format refuses changes nothing to show
            continue
    return {row.key for row in rows for top, under in pairs if row.cell(top) != row.cell(under)}


def own_plugins(name: str, full: Sequence[str]) -> list[str]:
    """The plugins a modifier brings into a composition (not its base's)."""
    out: list[str] = []
    for base in full:
        try:
            composed = tamalou.load_variant([base, name]).plugins
        except tamalou.VariantError:
            continue
        under = tamalou.load_variant(base).plugins
        out += [p for p in composed if p not in under and p not in out]
    return out


def _code_list(items: Sequence[str]) -> str:
    return ", ".join(f"`{md(i)}`" for i in items) or "none"


# --------------------------------------------------------------------------------- the page


def render() -> str:
    names = tamalou.variant_names()
    variants = {n: tamalou.load_variant(n) for n in names}
    modifiers = [n for n in names if variants[n].base is not None]
    full = [n for n in names if n not in modifiers]
    all_tables = tables(list(variants.values()))
    every_row = [row for _, _, rows in all_tables for row in rows]
    changed = {n: changed_rows(n, variants[n], full, every_row) for n in modifiers}

    def header(n: str) -> str:
        return f"`{n}` (modifier)" if n in modifiers else f"`{n}`"

    example = f'`tamalou.load_variant(["{full[0]}", "{modifiers[0]}"])`' if full and modifiers else ""
    lines = [
        "# The rulesets, side by side",
        "",
        "<!-- Generated by scripts/rulesets_table.py from variants/*.toml: do not edit by hand. -->",
        "<!-- Regenerate with `python scripts/rulesets_table.py`; `--check` tells if this page is stale. -->",
        "",
        "Every ruleset the engine knows, as `tamalou.load_variant(name)` loads it. The rows of the tables",
        "are the keys of the variant format (`[rules.<section>]` in a TOML file); their last column says",
        "what a key means. [The rules, ruleset by ruleset](rules/index.md) gives each ruleset's rules for",
        "players and what the engine decides where the rule texts are silent;",
        "[architecture.md](architecture.md) says how the engine plays them.",
        "",
        f"A modifier composes with any ruleset ({example}) and, loaded alone, applies to its base.",
        f"Its column shows only the rows it changes; `{AS_COMPOSED}` means *as the ruleset it is composed with*.",
        "",
        "| ruleset | title | kind | aliases | sources |",
        "|---|---|---|---|---|",
    ]
    for n in names:
        v = variants[n]
        kind = f"modifier (alone: `{v.base}`)" if n in modifiers else "ruleset"
        lines.append(f"| `{n}` | {md(v.title)} | {kind} | {_code_list(v.aliases)} | {_code_list(v.sources)} |")
    lines.append("")
    for title, intro, rows in all_tables:
        lines += [f"## {title}", ""]
        if intro:
            lines += [(intro), ""]
        lines.append("| key | " + " | ".join(header(n) for n in names) + " | meaning |")
        lines.append("|---|" + "---|" * len(names) + "---|")
        for row in rows:
            cells = []
            for n in names:
                if n in modifiers and row.key not in changed[n]:
                    cells.append(AS_COMPOSED)
                else:
                    cells.append(md(row.cell(variants[n])))
            lines.append(f"| `{row.key}` | " + " | ".join(cells) + f" | {md(row.meaning)} |")
        lines.append("")
    lines += ["## Each ruleset", ""]
    for n in names:
        v = variants[n]
        lines += [f"### `{n}`: {md(v.title or n)}", ""]
        if n in modifiers:
            lines.append(f"- modifier: composes with any ruleset; loaded alone it applies to `{v.base}`")
            lines.append(f"- plugins of its own: {_code_list(own_plugins(n, full))}")
        else:
            lines.append(f"- plugins: {_code_list(v.plugins)}")
        lines.append(f"- aliases: {_code_list(v.aliases)}")
        lines.append(f"- sources: {_code_list(v.sources)}")
        if (RULES_DIR / f"{n}.md").exists():
            lines.append(f"- rules for players: [rules/{n}.md](rules/{n}.md)")
        lines.append("")
        if v.description:
            lines += [" ".join(v.description.split()), ""]
    return "\n".join(lines).rstrip("\n") + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="exit 1 if the file is stale, change nothing")
    parser.add_argument("--output", type=Path, default=DOC, help=f"the page to write (default: {DOC})")
    args = parser.parse_args(argv)
    text = render()
    path: Path = args.output
    if args.check:
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if current != text:
            print(f"{path} is stale: regenerate it with `python scripts/rulesets_table.py`", file=sys.stderr)
            return 1
        return 0
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
