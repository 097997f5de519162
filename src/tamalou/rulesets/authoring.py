"""Writing house rules: the files ``tamalou new`` makes.

``scaffold(name, extends)`` returns the files of a new ruleset as ``{file name: text}``, nothing written:

- ``NAME.toml``: a ruleset that extends a base and changes nothing yet. Its comments explain the keys one
  usually changes, each shown commented out with the base's value; it loads and validates as it is.
- with ``plugin=True``, also ``NAME_rules.py`` (a plugin module, named in the TOML's ``plugins``) with one
  documented hook, and ``pyproject.toml``, which makes the folder an installable package registered
  through the entry-point group ``tamalou`` (installed, the ruleset is found by its name from anywhere).

``write_files(files, folder)`` writes them, refusing to replace a file that exists unless ``force``.

>>> files = scaffold("our-table", "french")
>>> sorted(files)
['our-table.toml']
>>> sorted(scaffold("our-table", "french", plugin=True))
['our-table.toml', 'our_table_rules.py', 'pyproject.toml']
"""

from __future__ import annotations

import json
import keyword
import re
import textwrap
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import tomli_w

from ..cards import JOKER, Card
from ..engine.rulebook import rulebook
from ..errors import RulesetNameError
from ..schema import Variant
from .loader import load_variant

__all__ = [
    "NameError_",
    "RulesetNameError",
    "check_name",
    "module_name",
    "plugin_module",
    "pyproject",
    "scaffold",
    "variant_toml",
]

_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")
_COMMENT_COLUMN = 28


#: The old name of ``tamalou.errors.RulesetNameError`` (kept this release).
NameError_ = RulesetNameError


def check_name(name: str) -> str:
    """``name`` as a ruleset name (a trailing ``.toml`` dropped), or ``RulesetNameError`` saying why it cannot be one:
    1 to 64 letters, digits, ``-`` or ``_``, starting with a letter or digit."""
    text = name.removesuffix(".toml")
    if not _NAME.fullmatch(text):
        raise RulesetNameError(
            f"{name!r} cannot name a ruleset: use 1 to 64 letters, digits, '-' or '_', starting with a letter "
            "or a digit (the file is NAME.toml)"
        )
    return text


def _title_of(name: str) -> str:
    """A title to start from, in words: ``our-table`` -> ``Our table``."""
    words = name.replace("-", " ").replace("_", " ").strip()
    return words[:1].upper() + words[1:]


def module_name(name: str) -> str:
    """The plugin module of ruleset ``name``: a Python identifier, ``our-table`` -> ``our_table_rules``."""
    ident = re.sub(r"\W", "_", name.lower())
    if not ident[:1].isalpha():
        ident = f"house_{ident}"
    ident = f"{ident}_rules"
    return f"{ident}_" if keyword.iskeyword(ident) else ident


_BARE_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")


def _key(key: str) -> str:
    """A TOML key: bare when it can be (``KS``), quoted otherwise (``"7"``, as the built-in files write ranks)."""
    return key if _BARE_KEY.fullmatch(key) else json.dumps(key)


def _value(value: Any) -> str:
    """A TOML value on one line (arrays inline, so that a commented-out line stays one line)."""
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    return tomli_w.dumps({"k": value}).strip().removeprefix("k = ")


def _line(key: str, value: Any, comment: str = "", *, commented: bool = True) -> str:
    """``# key = value      # comment``: one TOML line."""
    text = f"{_key(key)} = {_value(value)}"
    if commented:
        text = f"# {text}"
    if comment:
        text = f"{text.ljust(_COMMENT_COLUMN)} # {comment}"
    return text


def _table(name: str, lines: Sequence[str], comment: str = "") -> list[str]:
    head = f"[{name}]"
    if comment:
        head = f"{head.ljust(_COMMENT_COLUMN)} # {comment}"
    return ["", head, *lines]


def _extends_value(extends: Sequence[str]) -> str | list[str]:
    return extends[0] if len(extends) == 1 else list(extends)


def _ranks(base: Variant) -> list[str]:
    d = base.rules.deck
    return [r for r in d.ranks if r != JOKER] + ([JOKER] if d.jokers else [])


def _rank_value(base: Variant, rank: str) -> int:
    """What a card of ``rank`` is worth in ``base`` when ``rules.values.ranks`` does not say (a rank named by a
    number, in a deck without suits)."""
    rb = rulebook(base)
    return next(rb.value(c) for c in rb.one_deck if c.rank == rank)


def _example_card(base: Variant) -> tuple[str, int, int]:
    """A card of the base's deck for the plugin's example, its value in the base, and a new value."""
    rb = rulebook(base)
    faces = [c for c in dict.fromkeys(rb.one_deck) if not c.is_joker]
    wanted = Card("J", "H")
    card = wanted if wanted in faces else faces[-1]
    old = rb.value(card)
    return str(card), old, 0 if old != 0 else 1


def _describe_card(card: str) -> str:
    names = {"J": "jack", "Q": "queen", "K": "king", "A": "ace"}
    suits = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
    if len(card) >= 2 and card[-1] in suits:
        rank = card[:-1]
        return f"the {names.get(rank, rank)} of {suits[card[-1]]} ({card})"
    return f"every {card}"


def variant_toml(name: str, extends: Sequence[str], base: Variant, *, module: str | None = None) -> str:
    """The text of ``NAME.toml``: ``extends`` (names or paths, as the file should say them) over ``base``
    (those loaded), every main key shown commented out with the base's value; ``module``: the plugin
    module it names."""
    rules = base.rules
    rb = rulebook(base)
    base_words = f"{base.name}, {base.title}" if base.title else base.name
    file = f"{name}.toml"
    out = [
        f"# {name}: house rules on {base_words}.",
        "#",
        f"# Everything this file does not say is as in {base.name}. To change a rule, remove the '# ' in front",
        f"# of its line and change the value: the values shown are {base.name}'s. A table may stay empty.",
        f"#   tamalou validate {file}          checks this file (the file, the key and what was expected)",
        f"#   tamalou show {file}              every rule as it is played, card by card",
        f"#   tamalou play {file}              a game between bots",
        f"# Every key of {base.name}: `tamalou show {base.name} --keys`; the format: `tamalou schema`.",
        "",
        _line("name", name, commented=False),
        _line("title", _title_of(name), commented=False),
        _line("description", f"{base.title or base.name}, with our changes.", commented=False),
        _line("extends", _extends_value(extends), commented=False),
    ]
    if module is not None:
        out += [
            f"# Rules that a key cannot say are code: the hooks of {module}.py, beside this file (added to",
            f"# {base.name}'s own plugins). Once the folder is installed (pip install .), from anywhere.",
            _line("plugins", [module], commented=False),
        ]
    else:
        out.append(
            _line(
                "plugins",
                [f"{module_name(name)}"],
                "e.g. modules of hooks, for rules a key cannot say (tamalou new --plugin writes one)",
            )
        )
    p = rules.players
    out += _table(
        "rules.players", [_line("min", p.min, "fewest players"), _line("max", p.max, "most players")], "who sits"
    )
    out += _table("rules.deal", [_line("cards", rules.deal.cards, "face-down cards dealt to each player")])
    out += _table(
        "rules.peek",
        [
            _line("mode", rules.peek.mode, '"fixed": the slots below; "choose": each player picks; "none"'),
            _line("slots", list(rules.peek.slots), 'the slots each player looks at first, with "fixed"'),
        ],
        "the opening peek at one's own cards",
    )
    values = rules.values
    out += _table(
        "rules.values.ranks",
        [_line(r, values.ranks[r] if r in values.ranks else _rank_value(base, r)) for r in _ranks(base)],
        "points by rank",
    )
    cards = [_line(c, v) for c, v in values.cards.items()]
    if not cards:
        card, old, new = _example_card(base)
        cards = [_line(card, new, f"e.g. {_describe_card(card)} worth {new} instead of {old}")]
    out += _table("rules.values.cards", cards, "points of single cards, over their rank's")
    powers = rules.powers
    known = ", ".join(sorted(rb.powers))
    power_ranks = [_line(r, n) for r, n in powers.ranks.items()] or [
        _line("7", "peek_own", "e.g. a 7 looks at one of your own cards")
    ]
    out += _table(
        "rules.powers.ranks",
        [
            *power_ranks,
            *textwrap.wrap(f"The powers: none, {known}.", 100, initial_indent="# ", subsequent_indent="# "),
            "# What each does: `tamalou show` (the powers of a ruleset's cards).",
        ],
        "the power of each rank",
    )
    power_cards = [_line(c, n) for c, n in powers.cards.items()] or [
        _line(_example_card(base)[0], "peek_own", "e.g. this card looks at one of your own cards")
    ]
    out += _table("rules.powers.cards", power_cards, "the power of single cards, over their rank's")
    d = rules.draw
    out += _table(
        "rules.draw",
        [
            _line("from_discard", d.from_discard, "whether the discard's top card may be taken"),
            _line("stock_empty", d.stock_empty, 'stock used up: "reshuffle" the discard, or "end_round"'),
        ],
        "where a turn takes its card from",
    )
    m = rules.matching
    out += _table(
        "rules.matching",
        [
            _line("enabled", m.enabled, "throwing cards of the discard top's rank, even out of turn"),
            _line("opponents", m.opponents, "an opponent's card too (then you give them one of yours)"),
            _line("penalty_cards", m.penalty_cards, "penalty cards for each wrong card thrown"),
        ],
        "matching",
    )
    c = rules.call
    out += _table(
        "rules.call",
        [
            _line("threshold", c.threshold, "a call is right at this total or less"),
            _line("when", c.when, '"end_of_turn": after playing; "start_of_turn": instead of drawing'),
            _line("verified", c.verified, "a wrong call is found out at once: penalty, play goes on"),
        ],
        "calling the end of the round",
    )
    out += _table(
        "rules.end",
        [
            _line("ties", list(rules.end.ties), "tie-breaks: caller_behind, caller_ahead, fewer_cards"),
        ],
        "who wins the round",
    )
    r = rules.rounds
    out += _table(
        "rules.rounds",
        [
            _line("form", r.form, '"single" round, or a match: "fixed", "points" or "wins"'),
            _line("count", r.count, 'rounds in a "fixed" or "wins" match'),
            _line("limit", r.limit, 'a "points" match ends when a total passes it'),
        ],
        "a match of several rounds",
    )
    return "\n".join(out) + "\n"


def plugin_module(name: str, module: str, base: Variant) -> str:
    """The text of ``NAME_rules.py``: one documented ``tamalou_card_value`` hook (a card of the base's deck
    worth something else) and ``tamalou_variant_paths``, which ships ``NAME.toml`` once installed."""
    card, old, new = _example_card(base)
    data_dir = f"{module}_variants"
    return f'''"""House rules of {name}: the rules a TOML key cannot say.

Written by `tamalou new`; yours to edit. tamalou asks this module's hooks for each ruleset that
names it in ``plugins = [...]`` ({name}.toml does); other rulesets are left alone. A hook is a
function named after one of tamalou's hooks (listed in ``tamalou.hookspecs``) and marked
``@tamalou.hookimpl``: a misspelt name or a missing mark is an error when the ruleset is loaded.
``tamalou show {name}.toml`` shows the rules as the hooks make them.
"""

from __future__ import annotations

from pathlib import Path

import tamalou

#: The card this house rule changes, and what it is worth here ({base.name}: {old}).
CARD = {json.dumps(card)}
VALUE = {new}


@tamalou.hookimpl
def tamalou_card_value(variant: tamalou.Variant, card: tamalou.Card) -> int | None:
    """The points ``card`` scores: CARD is worth VALUE here; other cards, what the keys say.

    First result wins: tamalou asks the plugins one at a time, the last one named in ``plugins``
    first and its own rules (the ``[rules.values]`` keys) last, and the first answer that is not
    ``None`` is the card's value. ``None`` means "no opinion": the next plugin, and in the end the
    keys, decide. Answer an integer that depends only on ``variant`` and ``card``: it is asked once
    per card when the ruleset is loaded, and kept.
    """
    if str(card) == CARD:
        return VALUE
    return None


@tamalou.hookimpl
def tamalou_variant_paths() -> list[Path]:
    """The rulesets of this package once installed (``pip install .``): the TOML file beside this
    module, or in the folder where the wheel puts it. A path that does not exist is skipped."""
    here = Path(__file__).parent
    return [here / {json.dumps(f"{name}.toml")}, here / {json.dumps(data_dir)}]
'''


def pyproject(name: str, module: str) -> str:
    """The text of ``pyproject.toml`` (hatchling): the module and ``NAME.toml`` as one distribution,
    registered through the entry-point group ``tamalou``."""
    dist = name if name.lower().startswith("tamalou") else f"tamalou-{name}"
    toml = f"{name}.toml"
    return f"""# Makes this folder an installable package: `pip install .` (`pip install -e .` while you edit).
# Installed, tamalou finds the ruleset {name} by its name from anywhere (`tamalou variants`).

[build-system]
requires = ["hatchling>=1.21"]
build-backend = "hatchling.build"

[project]
name = {_value(dist)}
version = "0.1.0"
description = {_value(f"House rules for tamalou: the ruleset {name}")}
requires-python = ">=3.11"
dependencies = ["tamalou>=0.1"]

# How tamalou finds the module: the entry-point group `tamalou`. tamalou imports it when it looks
# for rulesets (its tamalou_variant_paths hook gives {toml}); its rule hooks apply to the
# rulesets that name it in plugins = [...].
[project.entry-points.tamalou]
{_key(name)} = {_value(module)}

# The wheel holds the module, and the ruleset in a folder of its own.
[tool.hatch.build.targets.wheel]
only-include = [{_value(f"{module}.py")}]

[tool.hatch.build.targets.wheel.force-include]
{_key(toml)} = {_value(f"{module}_variants/{toml}")}
"""


def scaffold(
    name: str, extends: str | Sequence[str], *, plugin: bool = False, base: Variant | None = None
) -> dict[str, str]:
    """The files of a new ruleset ``name`` extending ``extends`` (a name, path, or a list composed), as
    ``{file name: text}``. ``base`` is ``extends`` loaded (loaded here if not given); ``extends`` is written
    as given, so a path should be relative to the folder the files go to. Raises ``NameError_`` for a name
    that cannot be a ruleset's, ``VariantError`` for a base that does not load."""
    name = check_name(name)
    parts = [extends] if isinstance(extends, str) else list(extends)
    if base is None:
        base = load_variant(parts[0] if len(parts) == 1 else parts)
    module = module_name(name) if plugin else None
    files = {f"{name}.toml": variant_toml(name, parts, base, module=module)}
    if module is not None:
        files[f"{module}.py"] = plugin_module(name, module, base)
        files["pyproject.toml"] = pyproject(name, module)
    return files


def write_files(files: Mapping[str, str], folder: str | Path, *, force: bool = False) -> list[Path]:
    """Write ``files`` into ``folder`` (made if needed) and return their paths. Nothing is written if one
    of them exists and ``force`` is false: ``FileExistsError`` names every such file."""
    where = Path(folder)
    if where.exists() and not where.is_dir():
        raise NotADirectoryError(f"{where} is not a folder")
    paths = [where / file for file in files]
    existing = [p for p in paths if p.exists()]
    if existing and not force:
        raise FileExistsError(f"{', '.join(map(str, existing))} already exist{'s' if len(existing) == 1 else ''}")
    where.mkdir(parents=True, exist_ok=True)
    for path, text in zip(paths, files.values(), strict=True):
        path.write_text(text, encoding="utf-8")
    return paths
