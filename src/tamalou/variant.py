"""Moved to ``tamalou.rulesets`` (loading in ``tamalou.rulesets.loader``, the registry in
``tamalou.rulesets.registry``...); this module keeps the old imports working this release.
"""

from __future__ import annotations

from .rulesets.files import MAX_EXTENDS_DEPTH
from .rulesets.loader import (
    TEXT_LABEL,
    VariantSpec,
    load_variant,
    variant_from_dict,
    variant_from_toml,
    variant_json_schema,
)
from .rulesets.plugin_modules import _import_again as _import_again
from .rulesets.problems import MAX_LISTED_ERRORS, short, short_path
from .rulesets.registry import _LOADED as _LOADED
from .rulesets.registry import _registry as _registry
from .rulesets.registry import is_registered, refresh_registry, variant_names
from .rulesets.toml_text import MAX_NESTING
from .rulesets.toml_text import _parse_toml as _parse_toml

__all__ = [
    "MAX_EXTENDS_DEPTH",
    "MAX_LISTED_ERRORS",
    "MAX_NESTING",
    "TEXT_LABEL",
    "VariantSpec",
    "is_registered",
    "load_variant",
    "refresh_registry",
    "short",
    "short_path",
    "variant_from_dict",
    "variant_from_toml",
    "variant_json_schema",
    "variant_names",
]
