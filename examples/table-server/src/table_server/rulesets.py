"""The rulesets a room may be played with: a registered one by name, or a TOML file a user uploads.

A registered ruleset is installed code: tamalou's own, or a package the server's administrator installed
beside it (Golf, ``examples/tamalou-golf``), whose plugin modules the server trusts as it trusts its own
code; it is loaded as installed, plugins included. Uploaded rules are untrusted: they are loaded from their
text (``tamalou.variant_from_toml``, nothing written to disk) with ``allow_plugins=False``, so no module
they name is ever imported (only tamalou's own rules modules may be used), and ``extends`` may name only
registered rulesets, never a file of the server.
"""

from __future__ import annotations

from functools import cache, lru_cache
from typing import Any

import tamalou

#: The largest TOML text accepted (a whole ruleset is a few kilobytes).
MAX_TOML_BYTES = 64 * 1024
#: What errors call uploaded rules (and the name of rules that say none: ``uploaded``).
UPLOADED = "uploaded.toml"


def is_timed(variant: tamalou.Variant) -> bool:
    """Whether the ruleset runs on a clock (turns, openings and countdowns with deadlines)."""
    return bool(variant.rules.timing.turn_seconds > 0)


@cache
def catalogue() -> list[dict[str, Any]]:
    """The registered rulesets, for the lobby: name, player counts, timed or not, title."""
    out = []
    for name in tamalou.variant_names():
        v = tamalou.load_variant(name)
        players = v.rules.players
        out.append({"name": name, "players": [players.min, players.max], "timed": is_timed(v), "title": v.title})
    return out


def match_turns(variant: tamalou.Variant) -> int:
    """The most turns a match of ``variant`` may last: its most rounds times a round's most turns."""
    return int(variant.rules.rounds.most * variant.rules.end.max_turns)


def check_size(toml: str) -> None:
    """``tamalou.VariantError`` if an uploaded TOML text is longer than the server takes."""
    if len(toml) > MAX_TOML_BYTES or len(toml.encode()) > MAX_TOML_BYTES:
        raise tamalou.VariantError(f"the TOML text is longer than {MAX_TOML_BYTES} bytes")


def load_ruleset(name: str | None = None, toml: str | None = None) -> tamalou.Variant:
    """The variant of a registered ruleset ``name``, or of an uploaded ``toml`` text (without plugins).

    Raises ``tamalou.VariantError`` with a message fit to show the user."""
    if (name is None) == (toml is None):
        raise tamalou.VariantError("give either a ruleset name or a TOML text")
    if name is not None:
        if name not in tamalou.variant_names():  # a registered name, never a path
            raise tamalou.VariantError(f"no ruleset named {name[:40]!r}")
        return tamalou.load_variant(name)  # installed code, plugins included
    assert toml is not None
    check_size(toml)
    return uploaded(toml)


@lru_cache(maxsize=256)
def uploaded(toml: str) -> tamalou.Variant:
    """The variant of uploaded rules, loaded once for every room of the same text (a variant is immutable): a
    room restored or unloaded then makes no garbage that only a full collection would free (a variant's plugin
    manager refers to itself)."""
    # Errors call the text "uploaded.toml", and rules that say no name are called "uploaded".
    return tamalou.variant_from_toml(toml, file=UPLOADED, allow_plugins=False)
