"""The built-in plugins, registered through the same hooks a third party uses: ``defaults`` (the rules read from
keys, ``trylast``), ``powers`` and ``mechanics`` (the built-in card powers and mechanics), and the plugins a
built-in ruleset names (``french``, ``cabo``, ``cambia_circuit``).

The plugin managers moved to ``tamalou.plugin_managers`` (the engine's layer, below the plugins); their names
are re-exported here for this release.
"""

from __future__ import annotations

from ..plugin_managers import (
    BUILTIN_PLUGINS,
    ENTRY_POINT_GROUP,
    NO_PLUGINS,
    TRACE,
    discovery_manager,
    import_plugin,
    is_builtin_plugin,
    rules_manager,
    trace,
)

__all__ = [
    "BUILTIN_PLUGINS",
    "ENTRY_POINT_GROUP",
    "NO_PLUGINS",
    "TRACE",
    "discovery_manager",
    "import_plugin",
    "is_builtin_plugin",
    "rules_manager",
    "trace",
]
