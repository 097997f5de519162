"""Trust: which plugin modules a load may import (``allow_plugins``), and the refusal of the others before
anything is imported. An untrusted load (``allow_plugins=False``, or a list of the modules allowed) may import
only tamalou's own plugin modules (``tamalou.plugins.*``) and the listed ones.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..errors import VariantError
from ..plugin_managers import is_builtin_plugin

#: Which plugin modules a load may import: ``None`` for any (trusted), else the allowed ones beyond
#: tamalou's own (``tamalou.plugins.*``).
Allowed = frozenset[str] | None


def allowed_names(allow_plugins: bool | Iterable[str]) -> Allowed:
    if allow_plugins is True:
        return None
    if allow_plugins is False:
        return frozenset()
    if isinstance(allow_plugins, str):
        return frozenset((allow_plugins,))
    names = frozenset(allow_plugins)
    if not all(isinstance(n, str) for n in names):
        raise TypeError(f"allow_plugins: expected True, False or module names, got {allow_plugins!r}")
    return names


def refusals(plugins: Any, allowed: Allowed, file: str | None) -> list[VariantError]:
    """The plugin modules an untrusted variant may not use (refused before anything is imported)."""
    if allowed is None or not isinstance(plugins, list | tuple):
        return []
    out = []
    listed = sorted(allowed)
    extra = f" or one of {', '.join(listed)}" if len(listed) <= 8 else " or those allowed"
    for name in unique_names(plugins):  # a name listed twice is one problem
        if not (is_builtin_plugin(name) or name in allowed):
            out.append(
                VariantError(
                    f"plugin module {name!r} is not allowed in an untrusted variant "
                    f"(only tamalou's own plugins, tamalou.plugins.*{extra if listed else ''})",
                    file=file,
                    key="plugins",
                )
            )
    return out


def unique_names(items: Iterable[Any]) -> list[str]:
    """The strings of ``items``, each once, in order (linear: a list of thousands of names stays cheap)."""
    return list(dict.fromkeys(x for x in items if isinstance(x, str)))


def check_plugins(plugins: Any, allowed: Allowed, file: str | None) -> None:
    """Refuse, before anything is imported, a plugin module an untrusted variant may not use."""
    refused = refusals(plugins, allowed, file)
    if refused:
        raise VariantError.combine(refused)
