"""The catalogue of card powers: every power a ruleset can name, built in or a plugin's, with what it does and the
rulesets (and cards) that give it. ``tamalou show --powers`` prints it and the documentation's page of powers is
made from it, so neither can miss a power an installed package brings.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterable
from dataclasses import dataclass, field

from ..engine.rulebook import rulebook
from ..errors import VariantError
from ..schema import Variant
from .loader import load_variant
from .registry import variant_names


@dataclass(frozen=True)
class PowerEntry:
    """One card power: its ``name`` (what a ruleset writes in ``rules.powers``), ``title`` (what it does, in
    words), ``description`` (its class's documentation), the ``plugin`` module that defines it, and ``used_by``:
    for each registered ruleset that gives it, the cards that do (``7 8``: every card of those ranks; ``KS KC``:
    those cards alone)."""

    name: str
    title: str
    description: str
    plugin: str
    used_by: dict[str, str] = field(default_factory=dict)


def _cards_in_words(variant: Variant, name: str) -> str:
    """The cards of ``variant``'s deck that give the power ``name``: whole ranks by their rank, else the cards."""
    rb = rulebook(variant)
    by_rank: dict[str, list[tuple[str, bool]]] = {}
    for card in rb.one_deck:
        by_rank.setdefault(card.rank, []).append((str(card), rb.power_name(card) == name))
    words = []
    for rank, cards in by_rank.items():
        if all(has for _, has in cards):
            words.append(rank)
        else:
            words += [text for text, has in cards if has]
    return " ".join(words)


def power_catalogue(rulesets: Iterable[str | Variant] | None = None) -> list[PowerEntry]:
    """Every card power of ``rulesets`` (default: every registered game, those of installed packages included;
    a modifier, which loaded alone is its base, is left out), sorted by name. A ruleset that does not load is left
    out (``tamalou validate`` says why)."""
    entries: dict[str, PowerEntry] = {}
    for spec in variant_names() if rulesets is None else rulesets:
        try:
            variant = spec if isinstance(spec, Variant) else load_variant(spec)
        except VariantError:
            continue
        if rulesets is None and variant.base:
            continue
        rb = rulebook(variant)
        for name, power in rb.powers.items():
            cls = type(power)
            entry = entries.get(name)
            if entry is None:
                doc = inspect.cleandoc(cls.__doc__ or "")
                entry = entries[name] = PowerEntry(
                    name=name,
                    title=cls.title,
                    description=" ".join(doc.split("\n\n")[0].split()),
                    plugin=cls.__module__,
                )
            cards = _cards_in_words(variant, name)
            if cards:
                entry.used_by[variant.name] = cards
    return [entries[name] for name in sorted(entries)]
