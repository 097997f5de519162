"""Lints at load: a rule hook that never says anything (``lint_variant``).

The card and threshold hooks are *first result wins*: ``None`` means "no opinion, ask the next plugin".
So a hook that forgets its ``return`` is no error at all: it computes its answer, answers ``None``, and
the built-in defaults answer instead. The house rule silently never applies, and every game plays and
verifies as the base ruleset would. A hook that answers ``None`` for *some* cards is a rule about the
others ("the red kings are worth 0": ``None`` for every other card); one that answers ``None`` for
*every* card of the deck is a rule about nothing: that is what is linted.

Each implementation of ``tamalou_card_value`` and ``tamalou_card_power`` by a plugin of the ruleset
(tamalou's own always-loaded plugins, ``tamalou.plugins.defaults``, ``powers`` and ``mechanics``, left
out: they read the ruleset's keys) is called directly, one plugin at a time, for every card of the deck,
and ``tamalou_call_threshold`` once (it takes no player count: its answer holds at every table). One
that answers ``None`` every time is a ``Lint``. An implementation that raises is not this lint's
business: it is not linted (the engine asks every card at load, and refuses such a ruleset itself).

Strictness: a lint is a warning. ``tamalou verify`` prints it and passes; with ``--strict``
(``check_lints(variant, strict=True)``) each lint is an error: ``InvariantViolation`` of the invariant
``lints``, and the exit status is 1.

>>> lint_variant("french")
[]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..engine.rulebook import rulebook
from ..errors import InvariantViolation
from ..plugin_managers import BUILTIN_PLUGINS, rules_manager
from ..resolver import resolve
from ..schema import Variant

#: The hooks linted, and what their answer says (for the message).
LINTED_HOOKS = {
    "tamalou_card_value": "card's value",
    "tamalou_card_power": "card's power",
    "tamalou_call_threshold": "call threshold",
}


@dataclass(frozen=True)
class Lint:
    """Something that loads and plays but is likely a mistake: its ``severity`` (``"warning"``), the
    ``hook`` and the ``plugin`` module it is about, and a ``message`` saying it in a sentence.

    >>> print(Lint("warning", "tamalou_card_value", "my_rules", "it answers None for every card."))
    warning: tamalou_card_value of my_rules: it answers None for every card.
    """

    severity: str
    hook: str
    plugin: str
    message: str

    def __str__(self) -> str:
        return f"{self.severity}: {self.hook} of {self.plugin}: {self.message}"


def _always_none(function: Callable[..., Any], argnames: Sequence[str], calls: list[dict[str, Any]]) -> bool:
    """Whether ``function`` answers ``None`` to every call of ``calls`` (keyword arguments by hook
    argument name) that returns; an exception stops the calls (it is not a lint's business)."""
    for kwargs in calls:
        try:
            answer = function(*[kwargs[name] for name in argnames])
        except Exception:
            return False
        if answer is not None:
            return False
    return True


def lint_variant(variant: Variant | str | Sequence[str]) -> list[Lint]:
    """The lints of ``variant`` (see the module's documentation): each card or threshold hook of one of
    its plugins that answers ``None`` to every card of the deck (the threshold hook: to its one call),
    in the order of the hooks, then of the plugins as pluggy calls them. An empty list: nothing to say.

    >>> [lint.hook for lint in lint_variant("cabo")]
    []
    """
    v = resolve(variant)
    deck = rulebook(v).one_deck  # (every card a table may hold: more decks hold the same cards)
    hook = rules_manager(v).hook
    calls: dict[str, list[dict[str, Any]]] = {
        "tamalou_card_value": [{"variant": v, "card": card} for card in deck],
        "tamalou_card_power": [{"variant": v, "card": card} for card in deck],
        "tamalou_call_threshold": [{"variant": v}],
    }
    lints: list[Lint] = []
    for name, says in LINTED_HOOKS.items():
        for impl in reversed(getattr(hook, name).get_hookimpls()):
            if impl.plugin_name in BUILTIN_PLUGINS or impl.wrapper or impl.hookwrapper:
                continue
            if _always_none(impl.function, impl.argnames, calls[name]):
                asked = f"each of the {len(deck)} cards of the deck" if "card" in impl.argnames else "the ruleset"
                lints.append(
                    Lint(
                        "warning",
                        name,
                        impl.plugin_name,
                        f"{impl.function.__name__} answers None for {asked}: the {says} it sets never applies "
                        "(the next plugin answers every time). A forgotten 'return'?",
                    )
                )
    return lints


def check_lints(variant: Variant | str | Sequence[str], *, strict: bool = False) -> list[Lint]:
    """``lint_variant(variant)``; with ``strict`` (``tamalou verify --strict``) a lint is an error: the
    first raises ``InvariantViolation`` (invariant ``lints``) saying every lint. Without, the lints are
    returned, to be printed as warnings.

    >>> check_lints("french", strict=True)
    []
    """
    lints = lint_variant(variant)
    if strict and lints:
        raise InvariantViolation("; ".join(str(lint) for lint in lints), invariant="lints")
    return lints
