"""How the layers below ruleset loading reach it without importing it: names of rulesets.

The engine takes a ``Variant``; a name (``new_game("french", ...)``, a snapshot naming its ruleset, an unpickled
variant's plugin modules) is the ruleset loader's business, a layer above (``tamalou.rulesets``). The loader
registers itself here when it is imported (``import tamalou`` does), and the engine asks it through the
``Resolver`` protocol: so the engine imports nothing above it, and a program may put its own loader in its place
(``set_resolver``), e.g. one that reads rulesets from a database.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from .schema import Variant


class Resolver(Protocol):
    """What the engine asks of the ruleset loader (``tamalou.rulesets`` is the one ``import tamalou`` registers)."""

    def load(self, spec: str | Sequence[str], allow_plugins: Any = True) -> Variant:
        """The variant a name, a file's path or a composition names (``tamalou.load_variant``)."""
        ...

    def from_dict(self, data: dict[str, Any], allow_plugins: Any = True) -> Variant:
        """A variant from its JSON dict, as a snapshot embeds it (``tamalou.variant_from_dict``)."""
        ...

    def is_registered(self, name: str) -> bool:
        """Whether ``name`` is a ruleset's name or alias known to this process."""
        ...

    def import_again(self, dirs: Any) -> None:
        """Import again the plugin modules a variant found beside its files (an unpickled variant)."""
        ...


_RESOLVER: list[Resolver] = []


def set_resolver(resolver: Resolver) -> None:
    """Make ``resolver`` the one the engine asks (the ruleset loader calls this when it is imported)."""
    _RESOLVER[:] = [resolver]
    Variant.plugin_importer = resolver.import_again  # an unpickled variant's plugin modules, imported again


def resolver() -> Resolver:
    """The registered resolver; ``RuntimeError`` if none (``import tamalou`` registers the ruleset loader)."""
    if not _RESOLVER:
        raise RuntimeError("no ruleset loader is registered: import tamalou (or tamalou.rulesets) first")
    return _RESOLVER[0]


def resolve(variant: Variant | str | Sequence[str]) -> Variant:
    """``variant`` itself, or the variant its name, path or composition names."""
    if isinstance(variant, str | Sequence):
        return resolver().load(variant)
    return variant
