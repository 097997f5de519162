"""Ruleset loading: finding rulesets by name, reading their TOML files, ``extends`` and compositions, trust, and
validation with every problem of a file at once (``loader`` says how a load goes).

The modules, each one subject:

- ``loader``: ``load_variant``, ``variant_from_dict``, ``variant_from_toml``, ``variant_json_schema``
- ``registry``: the rulesets shipped and installed, found by name or alias; ``refresh_registry``
- ``files``: files and texts read into one table (``extends``, a modifier's ``base``, compositions merged)
- ``toml_text``: TOML text parsed, its nesting bounded
- ``trust``: which plugin modules a load may import (``allow_plugins``)
- ``plugin_modules``: plugin modules found beside their files, imported, and forgotten after a failed load
- ``validation``: the merged data checked whole, each problem told in the file that wrote it
- ``problems``: pydantic's errors as ``VariantError``s naming the file, the key and what was expected
- ``effective``: the rules as played after every hook, and a stand-alone TOML of any ruleset (``tamalou show``)
- ``authoring``: the files ``tamalou new`` writes

This package re-exports the loading API below; ``effective`` and ``authoring`` (the command line's tools) are
imported from their own modules, so that loading a ruleset does not import them.
"""

from __future__ import annotations

from typing import Any

from ..resolver import set_resolver
from ..schema import Variant
from .files import MAX_EXTENDS_DEPTH
from .loader import TEXT_LABEL, VariantSpec, load_variant, variant_from_dict, variant_from_toml, variant_json_schema
from .plugin_modules import import_plugins_again
from .registry import is_registered, refresh_registry, variant_names
from .toml_text import MAX_NESTING


class _Loader:
    """The ruleset loader as the engine asks it (``tamalou.resolver.Resolver``)."""

    def load(self, spec: Any, allow_plugins: Any = True) -> Variant:
        return load_variant(spec, allow_plugins=allow_plugins)

    def from_dict(self, data: dict[str, Any], allow_plugins: Any = True) -> Variant:
        return variant_from_dict(data, allow_plugins=allow_plugins)

    def is_registered(self, name: str) -> bool:
        return is_registered(name)

    def import_again(self, dirs: Any) -> None:
        import_plugins_again(dirs)


set_resolver(_Loader())

__all__ = [
    "MAX_EXTENDS_DEPTH",
    "MAX_NESTING",
    "TEXT_LABEL",
    "VariantSpec",
    "is_registered",
    "load_variant",
    "refresh_registry",
    "variant_from_dict",
    "variant_from_toml",
    "variant_json_schema",
    "variant_names",
]
